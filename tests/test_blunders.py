"""No blunder a person would laugh at (issue 20): the classic complaints about card-site bots,
each on a position where the right play is provable, for ``basic`` and ``strong``.

Each position says in a comment why the right play is right: it makes the bid whatever the
unseen cards and the other players do, or it is the only play that can make it, while the
wrong play fails whatever happens (or can fail where the right one cannot).
"""

from __future__ import annotations

import pytest
from helpers import bid_all, dealt, one_hand_rules, play

from ohhell.actions import Bid, Play
from ohhell.bots import Budget
from ohhell.bots.basic import BasicBot
from ohhell.bots.strong import StrongBot
from ohhell.cards import parse_card
from ohhell.game import State
from ohhell.views import seat_view

FAST = Budget(iterations=400)
BOTS = [BasicBot, StrongBot]


def choose(bot_class: type, state: State, seed: int = 1) -> object:
    seat = state.turn
    assert seat is not None
    return bot_class(seed=seed, budget=FAST).choose(seat_view(state, seat))


@pytest.mark.parametrize("bot_class", BOTS)
@pytest.mark.parametrize("seed", [1, 2])
def test_the_hooked_dealer_holding_sure_trump_tricks_never_bids_zero(bot_class: type, seed: int) -> None:
    # Three cards; the ace of trumps is turned, so the dealer's king and queen of trumps take
    # two tricks whatever happens. The others bid 0, 0, 1: 2 is forbidden, 0 and 1 cannot be
    # made; only 3 can (if the 4 of hearts takes a trick).
    state = dealt(one_hand_rules(3, players=4), ["2C 3C 4C", "5C 6C 7C", "8C 9C TC", "KS QS 4H"],
                  turn_up="AS", dealer=3)
    bid_all(state, [0, 0, 1])
    assert seat_view(state, 3).forbidden_bid == 2
    assert choose(bot_class, state, seed) == Bid(3, 3)


@pytest.mark.parametrize("bot_class", BOTS)
def test_a_hand_of_exactly_n_sure_tricks_bids_n(bot_class: type) -> None:
    # The three top trumps take three tricks whatever happens; the two deuces take none
    # unless everyone else is void in their suit and out of trumps when this seat leads them.
    state = dealt(one_hand_rules(5, players=4), ["AS KS QS 2H 2D", "3H 4H 5H 6H 7H", "3D 4D 5D 6D 7D",
                                                  "3C 4C 5C 6C 7C"], turn_up="9S", dealer=3)
    assert choose(bot_class, state) == Bid(0, 3)


@pytest.mark.parametrize("bot_class", BOTS)
def test_two_cards_left_holding_the_top_trump_and_needing_one_discards_the_loser(bot_class: type) -> None:
    # Seat 3 bid 1 and holds the ace of trumps and the 2 of diamonds; hearts are led and it has
    # none. Discarding the 2 makes the bid for sure: the ace takes the last trick whatever is
    # led. Ruffing takes this trick and then it must lead the 2 of diamonds, which wins when
    # nobody else has a diamond (here nobody does): two tricks.
    state = dealt(one_hand_rules(2, players=4), ["JH 5C", "KH 3C", "QH 4C", "AS 2D"], turn_up="9S", dealer=0)
    bid_all(state, [0, 0, 1, 0])
    play(state, "KH QH")
    assert state.turn == 3
    assert choose(bot_class, state) == Play(3, parse_card("2D"))


@pytest.mark.parametrize("bot_class", BOTS)
def test_needing_no_more_tricks_it_ducks_with_the_highest_sure_loser(bot_class: type) -> None:
    # Seat 2 bid 0; the king of hearts is led. The queen loses to it now, and then the 2 of
    # hearts can never take the last trick (any heart led beats it, and seat 2 does not lead).
    # Keeping the queen instead loses to any lower heart led into it.
    state = dealt(one_hand_rules(2, players=4), ["5C 6C", "KH 3C", "QH 2H", "7C 8C"], turn_up="9S", dealer=0)
    bid_all(state, [0, 0, 1, 0])
    play(state, "KH")
    assert state.turn == 2
    assert choose(bot_class, state) == Play(2, parse_card("QH"))


@pytest.mark.parametrize("bot_class", BOTS)
def test_needing_no_more_tricks_and_void_it_throws_the_dangerous_card(bot_class: type) -> None:
    # Seat 2 bid 0 and has no heart: the ace of diamonds would take any diamond trick later;
    # the 2 of clubs never can (it does not lead, and any club led beats it).
    state = dealt(one_hand_rules(2, players=4), ["5C 6C", "KH 3C", "AD 2C", "7C 8C"], turn_up="9S", dealer=0)
    bid_all(state, [0, 0, 1, 0])
    play(state, "KH")
    assert state.turn == 2
    assert choose(bot_class, state) == Play(2, parse_card("AD"))


@pytest.mark.parametrize("bot_class", BOTS)
def test_last_to_play_needing_its_last_trick_it_wins_with_the_card_that_would_win_later(bot_class: type) -> None:
    # No trumps. The dealer (seat 2, last to play) bid 1 and holds the ace and queen of hearts;
    # the jack and ten are on the table. Winning with the queen leaves the ace, which takes the
    # last trick for sure (it leads it and nothing beats it): two tricks. Winning with the ace
    # leaves the queen, which loses the last trick when the king of hearts is out there.
    state = dealt(one_hand_rules(2, players=3, trump="none"), ["JH 5C", "TH 6C", "AH QH"], dealer=2)
    bid_all(state, [0, 0, 1])
    play(state, "JH TH")
    assert choose(bot_class, state) == Play(2, parse_card("AH"))


@pytest.mark.parametrize("bot_class", BOTS)
def test_last_to_play_needing_more_tricks_it_keeps_the_sure_winner(bot_class: type) -> None:
    # The same cards with a bid of 2: winning with the queen keeps the ace, a sure second trick;
    # winning with the ace leaves the queen, which loses to the king of hearts if it is out.
    state = dealt(one_hand_rules(2, players=3, trump="none"), ["JH 5C", "TH 6C", "AH QH"], dealer=2)
    bid_all(state, [1, 0, 2])
    play(state, "JH TH")
    assert choose(bot_class, state) == Play(2, parse_card("QH"))


@pytest.mark.parametrize("bot_class", BOTS)
def test_needing_every_remaining_trick_it_leads_the_top_trump_first(bot_class: type) -> None:
    # Seat 1 bid 2 with the ace of trumps and the ace of hearts: the heart led first can be
    # ruffed; the trump first draws a trump and cannot be beaten.
    state = dealt(one_hand_rules(2, players=3), ["2S 5D", "AS AH", "3H 4H"], turn_up="9S", dealer=0)
    bid_all(state, [2, 0, 1])
    assert state.turn == 1
    assert choose(bot_class, state) == Play(1, parse_card("AS"))
