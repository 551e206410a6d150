"""The club player's look-ahead reads the bids (issue 29): the deals it plays out are drawn by
how well their hands explain the bids made, so a seat that bid high holds strong cards in them
and a seat that bid 0 weak ones; dealt without reading them (``read_bids=False``, as released)
the hidden cards fall alike to every seat."""

from __future__ import annotations

import statistics

from helpers import bid_all, dealt, one_hand_rules

from ohhell.bots.basic import BasicBot
from ohhell.bots.heuristics import estimate_tricks
from ohhell.bots.knowledge import Knowledge
from ohhell.cards import cards_of, mask_of, parse_cards
from ohhell.game import State
from ohhell.views import seat_view

HANDS = ["2S 3S 4H 5H 6D 7D 8C 9C TC 2H", "AS KS QS AH KH AD KD AC KC QC",
         "3H 4S 5S 6H 7H 8D 9D 2C 3C 4C", "JS TS 9S 8S 7S 6S 5C 6C 7C 8H"]


def after_two_bids(high: int, low: int) -> State:
    # Seat 1 bids first (the dealer is seat 0), then seat 2; seat 3 is to bid and reads them.
    state = dealt(one_hand_rules(10, players=4), HANDS, turn_up="2D", dealer=0)
    bid_all(state, [high, low])
    return state


def worth(world_hand: int, knowledge: Knowledge) -> float:
    return estimate_tricks(world_hand, knowledge.trump, knowledge.unseen, 4, 10)


def mean_worth(state: State, read_bids: bool, seat: int) -> float:
    view = seat_view(state, 3)
    knowledge = Knowledge.from_view(view)
    bot = BasicBot(seed=1, read_bids=read_bids)
    worlds = bot.lookahead_worlds(view, knowledge, 128, 4)
    assert len(worlds) == 128
    return statistics.fmean(worth(world[seat], knowledge) for world in worlds)


def test_the_look_ahead_deals_strong_cards_to_the_high_bidder() -> None:
    state = after_two_bids(6, 0)
    reading = mean_worth(state, True, 1)
    blind = mean_worth(state, False, 1)
    # Uniformly a hidden hand is worth about its fair share (10 cards among 4: 2.5 tricks);
    # after a bid of 6 the look-ahead's hands for that seat are worth clearly more (few of the
    # sampled hands are worth 6: the weights lift the best of them).
    assert blind < 3.2
    assert reading > blind + 0.4


def test_the_look_ahead_deals_weak_cards_to_the_zero_bidder() -> None:
    state = after_two_bids(6, 0)
    assert mean_worth(state, True, 2) < mean_worth(state, False, 2) - 0.3


def test_worlds_are_consistent_with_the_view() -> None:
    state = after_two_bids(6, 0)
    view = seat_view(state, 3)
    knowledge = Knowledge.from_view(view)
    mine = mask_of(parse_cards(HANDS[3]))
    for world in BasicBot(seed=2).lookahead_worlds(view, knowledge, 32, 4):
        assert world[3] == mine
        assert all(hand.bit_count() == 10 for hand in world)
        assert sum(len(cards_of(hand)) for hand in world) == 40


def test_without_bids_it_samples_as_released() -> None:
    # Before anyone else has bid there is nothing to read: the same deals as without reading.
    state = dealt(one_hand_rules(10, players=4), HANDS, turn_up="2D", dealer=0)
    view = seat_view(state, 1)
    knowledge = Knowledge.from_view(view)
    reading = BasicBot(seed=3).lookahead_worlds(view, knowledge, 16, 4)
    blind = BasicBot(seed=3, read_bids=False).lookahead_worlds(view, knowledge, 16, 4)
    assert len(reading) == 16
    assert reading == blind
