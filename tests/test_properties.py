"""Random-game property tests over every preset and player count: the invariants of the engine."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ohhell import Game, IllegalActionError, Phase, State, preset
from ohhell.actions import Bid, ChooseTrump, Declare, Play, make_bid, make_play
from ohhell.cards import CARD_COUNT, JOKERS_MASK, identical
from ohhell.record import record_from_state, replay_result, state_from_record
from ohhell.rules import PRESETS
from ohhell.scoring import add_to_total, hand_score
from ohhell.views import seat_view

CASES = [(name, players) for name, found in PRESETS.items() for players in found.players]


def check_hand_invariants(state: State) -> None:
    n = state.num_players
    if state.deal is not None and state.phase in (Phase.BIDDING, Phase.CHOOSING_TRUMP, Phase.PLAYING,
                                                     Phase.DECLARING):
        dealt = 0
        for cards in state.deal:
            for card in cards:
                assert not dealt >> card & 1
                dealt |= 1 << card
        held = 0
        for mask in state.hands:
            assert not held & mask  # no card in two hands
            held |= mask
        played = 0
        for card in state.plays:
            assert not played >> card & 1 and not held >> card & 1
            played |= 1 << card
        assert held | played == dealt  # cards are conserved
        if state.turn_up is not None:
            assert not dealt >> state.turn_up & 1
        # one card per seat per trick
        for _leader, cards, _winner in state.completed_tricks():
            assert sorted(seat for seat, _card in cards) == list(range(n))
        assert sum(state.tricks_won) == len(state.trick_winners)
        counts = [mask.bit_count() for mask in state.hands]
        assert max(counts) - min(counts) <= 1


def check_finished_hand(state: State, previous_totals: list[int]) -> None:
    rules = state.rules
    result = state.finished_hands[-1]
    assert sum(result.tricks) == result.size  # tricks sum to the hand size
    for seat in range(state.num_players):
        assert result.scores[seat] == hand_score(rules, result.bids[seat], result.tricks[seat], result.size)
        assert result.totals[seat] == add_to_total(rules, previous_totals[seat], result.scores[seat])
    if rules.hook and rules.bidding == "in-turn" and result.dealer in result.bid_order:
        assert sum(b for b in result.bids if b is not None) != result.size  # the hook is honoured
    if result.plays is not None:
        assert len(result.plays) == result.size * state.num_players


def illegal_candidates(state: State, rng: random.Random) -> list[object]:
    n = state.num_players
    candidates: list[object] = [make_bid(rng.randrange(n), rng.randrange(-1, 20)) for _ in range(3)]
    candidates += [make_play(rng.randrange(n), rng.randrange(CARD_COUNT)) for _ in range(3)]
    candidates.append(Declare(rng.randrange(n), rng.random() < 0.5))
    candidates.append(ChooseTrump(rng.randrange(n), rng.randrange(-1, 6)))
    return candidates


def _other_copy_of_a_legal_play(action: object, legal: set[object]) -> bool:
    """Whether ``action`` plays a card identical to a legal play's (Bust: the two copies of a card
    are one choice; either number plays it)."""
    return isinstance(action, Play) and any(
        isinstance(other, Play) and other.seat == action.seat and identical(other.card, action.card)
        for other in legal)


def run_game(name: str, players: int, seed: int, bid_changes: bool) -> State:
    rules = preset(name, players=players)
    rng = random.Random(seed)
    state = Game(rules).new_initial_state()
    steps = 0
    while not state.is_terminal():
        steps += 1
        if state.is_chance_node():
            state.apply(state.sample_chance(rng))
            continue
        check_hand_invariants(state)
        legal = state.legal_actions() if bid_changes else state.legal_actions(state.turn) if (
            state.turn is not None) else state.legal_actions(state.actors()[0])
        assert legal, "a player must always have a legal action"
        # Illegal actions are refused and change nothing.
        if steps % 5 == 0:
            before = state.clone()
            legal_set = set(state.legal_actions())
            for action in illegal_candidates(state, rng):
                if action in legal_set or _other_copy_of_a_legal_play(action, legal_set):
                    continue
                with pytest.raises(IllegalActionError):
                    state.apply(action)  # type: ignore[arg-type]
                assert state == before
        # Every legal action is accepted; undo restores exactly.
        if steps % 7 == 0:
            before = state.clone()
            for action in rng.sample(legal, min(3, len(legal))):
                state.apply(action)
                assert state.undo() == action
                assert state == before
        hands_done = len(state.finished_hands)
        previous_totals = list(state.totals)
        action = legal[rng.randrange(len(legal))]
        state.apply(action)
        if len(state.finished_hands) > hands_done:
            check_finished_hand(state, previous_totals)
        # Views never show another seat's cards.
        if steps % 11 == 0 and state.phase == Phase.PLAYING and not state.is_blind_hand:
            for seat in range(players):
                view = seat_view(state, seat)
                own = set(state.hand(seat))
                assert set(view.hand) == own and not view.visible_hands
    assert state.winners()
    return state


@pytest.mark.parametrize(("name", "players"), CASES)
@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), bid_changes=st.booleans())
def test_random_games_keep_every_invariant(name: str, players: int, seed: int, bid_changes: bool) -> None:
    state = run_game(name, players, seed, bid_changes)
    # Records round-trip and replay to the same results.
    record = record_from_state(state)
    again = state_from_record(record)
    assert again.totals == state.totals and again.finished_hands == state.finished_hands
    assert record_from_state(again) == record
    assert replay_result(again)["winners"] == state.winners()


@pytest.mark.parametrize(("name", "players"), CASES)
@settings(max_examples=5, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), cut=st.integers(0, 400))
def test_partial_records_round_trip(name: str, players: int, seed: int, cut: int) -> None:
    rules = preset(name, players=players)
    rng = random.Random(seed)
    state = Game(rules).new_initial_state()
    for _ in range(cut):
        if state.is_terminal():
            break
        if state.is_chance_node():
            state.apply(state.sample_chance(rng))
        elif state.phase == Phase.DECLARING:
            state.apply(rng.choice(state.legal_actions()))
        else:
            seat = state.turn if state.turn is not None else state.actors()[0]
            state.apply(rng.choice(state.legal_actions(seat)))
    if state.first_dealer is None or state.phase == Phase.DECLARING:
        return
    record = record_from_state(state)
    again = state_from_record(record)
    assert record_from_state(again) == record
    assert again.totals == state.totals and again.tricks_won == state.tricks_won
    assert again.bids == state.bids


def test_jokers_only_in_joker_decks() -> None:
    for name, players in CASES:
        rules = preset(name, players=players)
        assert bool(rules.deck_mask & JOKERS_MASK) == (name in ("jokers", "ne-blackout"))


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_bids_and_plays_only_by_actors(seed: int) -> None:
    rules = preset("classic", players=4)
    rng = random.Random(seed)
    state = Game(rules).new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply(state.sample_chance(rng))
            continue
        actors = set(state.actors())
        for action in state.legal_actions():
            assert isinstance(action, (Bid, Play, Declare)) and action.seat in actors
        state.apply(rng.choice(state.legal_actions()))
