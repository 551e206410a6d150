"""The variants of seed 003 added by issue 28: the 39-card pack for 3, Romanian Whist, La Pocha
and Euchre's bowers (also for two players) — one test per rule, then random games checked
against a naive reference (Bust's own rule tests are in test_bust.py; its random games here)."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from helpers import bid_all, dealt, play

from ohhell import Game, IllegalActionError, Play, RulesError, preset
from ohhell.cards import cards_of, format_cards, mask_of, parse_card, parse_cards
from ohhell.explain import describe_rules
from ohhell.i18n import set_language
from ohhell.record import play_random_game, record_from_state, replay

# ------------------------------------------------------------------------------ the packs


def test_the_39_card_pack_takes_out_the_13_smallest_cards():
    rules = preset("classic", players=3, deck="39")
    assert rules.deck_size == 39
    out = set(cards_of(preset("classic", players=3).deck_mask & ~rules.deck_mask))
    assert out == set(parse_cards("2S 2H 2D 2C 3S 3H 3D 3C 4S 4H 4D 4C 5S"))
    assert [plan.size for plan in rules.hand_plans()][:2] == [10, 9]


def test_la_pocha_plays_the_spanish_40_card_pack_in_the_natural_order():
    rules = preset("la-pocha")
    assert rules.deck_size == 40
    assert not rules.deck_mask & mask_of(parse_cards("8S 9H TD 8C"))
    assert rules.deck_mask >> parse_card("7S") & 1 and rules.deck_mask >> parse_card("JS") & 1
    state = dealt(preset("la-pocha", schedule="explicit", hands=[[1, "none"]]), ["7S", "JS", "2S", "AS"], dealer=3)
    bid_all(state, [0, 0, 0, 0])
    play(state, "7S JS 2S AS")
    assert state.finished_hands[-1].tricks == (0, 0, 0, 1)


def test_romanian_whist_is_32_cards_and_must_trump():
    rules = preset("romanian-whist")
    assert rules.deck_size == 32 and rules.must_trump
    state = dealt(preset("romanian-whist", schedule="explicit", hands=[[2, "H"]]),
                  ["AS KS", "7H QD", "8S 9S", "TS JS"], dealer=3)
    bid_all(state, [0, 0, 0, 0])
    play(state, "AS")
    with pytest.raises(IllegalActionError) as error:
        state.apply(Play(1, parse_card("QD")))
    assert error.value.rule == "must-trump"


def test_the_new_packs_are_described():
    set_language("en")
    assert "without the 5 of spades" in describe_rules(preset("classic", players=3, deck="39"))[0][1]
    assert "Spanish pack" in describe_rules(preset("la-pocha"))[0][1]


# ------------------------------------------------------------------------------ bowers


def bower_hand(hands, trump="H", dealer=3, players=4):
    rules = preset("classic", players=players, schedule="explicit", hands=[[len(hands[0].split()), trump]],
                   bowers=True, **({"hook": False} if players == 2 else {}))
    state = dealt(rules, hands, dealer=dealer)
    bid_all(state, [0] * players)
    return state


def test_the_jack_of_trumps_is_the_highest_trump_and_the_other_red_jack_the_second():
    state = bower_hand(["AH", "JD", "JH", "KH"])
    play(state, "AH JD JH KH")
    assert state.finished_hands[-1].tricks == (0, 0, 1, 0)
    state = bower_hand(["AH", "JD", "KH", "QH"])
    play(state, "AH JD KH QH")
    assert state.finished_hands[-1].tricks == (0, 1, 0, 0)


def test_the_left_bower_belongs_to_the_trump_suit_not_to_its_own():
    # Diamonds led: a player whose only diamond is the left bower (JD, trumps hearts) need not
    # follow with it, and it wins as a trump.
    state = bower_hand(["AD 2S", "JD 3S", "KD 4S", "QD 5S"])
    play(state, "AD")
    assert Play(1, parse_card("3S")) in state.legal_actions()
    state.apply(Play(1, parse_card("JD")))
    play(state, "KD QD")
    assert state.trick_winners == [1]
    # Trumps led: the left bower must follow them.
    state = bower_hand(["2H 3S", "JD 4S", "KD 5S", "QD 6S"])
    play(state, "2H")
    assert [action.card for action in state.legal_actions() if isinstance(action, Play)] == [parse_card("JD")]
    # The left bower led is a trump lead.
    state = bower_hand(["JD 3S", "2H 4S", "KD 5S", "AD 6S"])
    play(state, "JD")
    assert [action.card for action in state.legal_actions() if isinstance(action, Play)] == [parse_card("2H")]


def test_two_players_may_play_with_bowers_only():
    rules = preset("bowers", players=2)
    assert rules.players == 2 and rules.bowers
    assert preset("classic", players=2, bowers=True).players == 2
    with pytest.raises(RulesError) as error:
        preset("classic", players=2)
    assert error.value.knob == "players"
    assert replay(record_from_state(play_random_game(rules, seed=4)))["complete"]


def test_bowers_do_nothing_without_trump_and_are_refused():
    with pytest.raises(RulesError) as error:
        preset("classic", trump="none", bowers=True)
    assert error.value.knob == "bowers"


def test_bowers_are_described():
    set_language("en")
    assert "Bowers:" in " ".join(text for _topic, text in describe_rules(preset("bowers")))


# ------------------------------------------------- random games against a naive reference

NEW = [("la-pocha", 4, {}), ("romanian-whist", 4, {}), ("classic", 3, {"deck": "39"}), ("bowers", 2, {}),
       ("bowers", 4, {}), ("bowers", 5, {"must_trump": True}), ("jokers", 4, {"bowers": True}),
       ("bust", 5, {}), ("bust", 6, {}), ("bust", 6, {"must_trump": True}), ("bust", 5, {"bowers": True})]


def naive_card(card):
    """The card of one pack a card is: Bust's copy 54 + k is the k-th of 2♠ 2♥ 2♦ 2♣ 3♠ … (rank
    k // 4 of suit k % 4), written out again here rather than read from ohhell.cards."""
    if card < 54:
        return card
    k = card - 54
    return (k % 4) * 13 + k // 4


def naive_suit(card, trump, bowers):
    """The suit a card follows as: its own, or trumps for the left bower."""
    card = naive_card(card)
    if card >= 52:
        return 4
    if bowers and trump is not None and trump < 4 and card % 13 == 9 and card // 13 == (3, 2, 1, 0)[trump]:
        return trump
    return card // 13


def naive_winner(cards, trump, bowers, trumps_mask):
    def power(card, led):
        if trumps_mask >> card & 1:
            card = naive_card(card)
            if bowers and card < 52 and card % 13 == 9:
                return 1000 if card // 13 == trump else 999
            return 500 + (card % 13 if card < 52 else 13)
        suit = naive_suit(card, trump, bowers)
        card = naive_card(card)
        return 100 + (card % 13 if card < 52 else 13) if suit == led else -1
    led = naive_suit(cards[0], trump, bowers)
    best = 0
    for index in range(1, len(cards)):
        mine, theirs = power(cards[index], led), power(cards[best], led)
        # Of two identical cards (Bust) the second played wins; of two jokers the first.
        if mine > theirs or (mine == theirs >= 0 and naive_card(cards[index]) == naive_card(cards[best]) < 52):
            best = index
    return best


@pytest.mark.parametrize("name, players, knobs", NEW)
def test_random_games_deal_each_card_once_follow_suit_and_give_the_trick_to_the_right_card(name, players, knobs):
    rules = preset(name, players=players, **knobs)
    for seed in range(6):
        rng = random.Random(seed)
        state = Game(rules).new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply(state.sample_chance(rng))
                if state.phase.name == "BIDDING" and state.deal is not None:
                    dealt_cards = [card for hand in state.deal for card in hand] + (
                        [state.turn_up] if state.turn_up is not None else [])
                    assert len(dealt_cards) == len(set(dealt_cards))
                    assert all(rules.deck_mask >> card & 1 for card in dealt_cards)
                    # No card more often than its copies: twice only for Bust's small cards.
                    names = Counter(naive_card(card) for card in dealt_cards)
                    small = {naive_card(54 + k) for k in range(13 * max(0, players - 4))} if name == "bust" else set()
                    assert all(count == 1 or (count == 2 and card in small) for card, count in names.items())
                continue
            legal = state.legal_actions()
            action = legal[rng.randrange(len(legal))]
            if isinstance(action, Play) and state.plays and len(state.plays) % players:
                led = naive_suit(state.current_trick()[0][1], state.trump, rules.bowers)
                hand = state.hand(action.seat)
                followers = [card for card in hand if naive_suit(card, state.trump, rules.bowers) == led]
                plays = sorted(a.card for a in legal if isinstance(a, Play) and a.seat == action.seat)
                if followers:
                    # Two identical cards held are one choice (Bust).
                    assert sorted({naive_card(c) for c in plays}) == sorted({naive_card(c) for c in followers})
                    assert len(plays) == len({naive_card(c) for c in plays}), format_cards(plays)
            before = len(state.trick_winners)
            trick = state.current_trick()
            trump, trumps = state.trump, state.trump_mask
            state.apply(action)
            if isinstance(action, Play) and len(trick) == players - 1 and (
                    len(state.trick_winners) > before or (state.finished_hands and not state.plays)):
                cards = [card for _seat, card in trick] + [action.card]
                seats = [seat for seat, _card in trick] + [action.seat]
                winners = state.trick_winners if state.plays else list(state.finished_hands[-1].trick_winners)
                assert winners[-1] == seats[naive_winner(cards, trump, rules.bowers, trumps)], format_cards(cards)


@pytest.mark.parametrize("name, players", [("la-pocha", 4), ("romanian-whist", 4), ("bowers", 2), ("bowers", 4)])
def test_the_bots_play_the_new_presets(name, players):
    from ohhell.bots import make_bot
    from ohhell.bots.driver import play_game

    rules = preset(name, players=players, schedule="explicit", hands=[[3, "turn-up"], [2, "turn-up"]])
    for level in ("basic", "strong"):
        state = play_game(rules, [make_bot(level, seed=seat) for seat in range(players)], seed=3)
        assert state.is_terminal()
