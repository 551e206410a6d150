"""The shared pieces: set-ups, the numbering of actions, observation tensors built from views."""

from __future__ import annotations

import random
import subprocess
import sys

from rl_support import require

np = require("numpy")

import pytest  # noqa: E402

from ohhell import Deal, Game, preset  # noqa: E402
from ohhell.integrations.core import (  # noqa: E402
    ActionCodec,
    Setup,
    acting_seat,
    placement_rewards,
    rl_legal_actions,
    score_bounds,
    single_hand_rules,
)
from ohhell.integrations.encoding import ObservationEncoder  # noqa: E402
from ohhell.views import seat_view, spectator_view  # noqa: E402

PRESETS = [("classic", 4), ("boerenbridge", 4), ("ne-blackout", 6), ("devils-bridge", 3), ("jokers", 5),
           ("7-truf", 4), ("kachuful", 7), ("german-bridge", 3)]


def random_states(setup: Setup, seed: int, count: int):
    """States met along a random game (chance included), with the acting seat."""
    rng = random.Random(seed)
    state = setup.new_state(rng)
    out = []
    while not setup.is_over(state) and len(out) < count:
        setup.advance_chance(state, rng)
        if setup.is_over(state):
            break
        seat = acting_seat(state)
        out.append((state.clone(), seat))
        state.apply(rng.choice(rl_legal_actions(seat_view(state, seat))))
    return out


@pytest.mark.parametrize("name,players", PRESETS)
def test_tensors_fit_their_bounds_and_actions_round_trip(name: str, players: int) -> None:
    setup = Setup.create(name, players=players, max_hands=3)
    encoder = ObservationEncoder(setup)
    codec = setup.codec
    assert sum(int(np.prod(shape)) for _name, shape in encoder.segments) == encoder.size
    for state, seat in random_states(setup, seed=1, count=150):
        view = seat_view(state, seat)
        vector = encoder.encode(view)
        assert vector.dtype == np.float32 and vector.shape == (encoder.size,)
        assert (vector >= encoder.low).all() and (vector <= encoder.high).all()
        parts = encoder.views_of(vector)
        assert parts["acting"][0] == 1.0  # the acting seat observes itself acting
        actions = rl_legal_actions(view)
        assert actions and not any(a.seat != seat for a in actions)
        for action in actions:
            index = codec.encode(action)
            assert 0 <= index < codec.num_actions and codec.decode(index, seat) == action


def test_the_tensor_holds_nothing_the_view_hides() -> None:
    rules = single_hand_rules(preset("classic", players=4), 4)  # 6 cards
    state = Game(rules).new_initial_state(first_dealer=3)
    rng = random.Random(4)
    deck = list(range(52))
    rng.shuffle(deck)
    hands = [tuple(deck[i * 6:(i + 1) * 6]) for i in range(4)]
    state.apply(Deal(tuple(hands), deck[24]))
    swapped = Game(rules).new_initial_state(first_dealer=3)
    swapped.apply(Deal((hands[0], hands[2], hands[1], hands[3]), deck[24]))
    encoder = ObservationEncoder(Setup.create(rules=rules))
    assert (encoder.encode(seat_view(state, 0)) == encoder.encode(seat_view(swapped, 0))).all()
    assert not (encoder.encode(seat_view(state, 1)) == encoder.encode(seat_view(swapped, 1))).all()
    spectator = encoder.encode(spectator_view(state))
    assert encoder.views_of(spectator)["hand"].sum() == 0


def test_seats_are_relative_to_the_observer() -> None:
    setup = Setup.create("classic", players=4, dealer=2)
    state = setup.new_state(random.Random(0))
    setup.advance_chance(state, random.Random(1))
    encoder = ObservationEncoder(setup)
    for seat in range(4):
        parts = encoder.views_of(encoder.encode(seat_view(state, seat)))
        assert parts["dealer"][(2 - seat) % 4] == 1.0
        assert sorted(np.flatnonzero(parts["hand"]).tolist()) == state.hand(seat)


def test_single_hands_keep_size_trump_and_blindness() -> None:
    devils = preset("devils-bridge", players=3)
    last = devils.schedule_length() - 1
    assert single_hand_rules(devils, last).devils_bridge
    assert not single_hand_rules(devils, 0).devils_bridge
    river = preset("up-and-down-the-river", players=4)
    last = single_hand_rules(river, river.schedule_length() - 1).hand_plans()[0]
    assert last.trump == "none" or last.size * 4 == river.deck_size  # 13 cards each: none left to turn up
    assert single_hand_rules(preset("up-and-down-the-river", players=5), 9).hand_plans()[0].trump == "none"
    with pytest.raises(ValueError, match="not in the schedule"):
        single_hand_rules(river, 99)


def test_rewards_and_bounds() -> None:
    assert placement_rewards([10, 10, 10]) == [0.0, 0.0, 0.0]
    assert placement_rewards([5, 20, 12]) == [-1.0, 1.0, 0.0]
    low, high = score_bounds(Setup.create("boerenbridge", players=4))
    assert high == 100 and low <= 0
    low, high = score_bounds(Setup.create("german-bridge", players=4, mode="hand", hand=0))
    assert (low, high) == (-100, 110)


def test_setup_refuses_what_cannot_be_played() -> None:
    with pytest.raises(ValueError, match="mode"):
        Setup.create(mode="round")
    with pytest.raises(ValueError, match="dealer"):
        Setup.create(players=4, dealer=4)
    with pytest.raises(ValueError):
        Setup.create("7-truf", players=5)
    with pytest.raises(ValueError, match="no action"):
        ActionCodec(preset("classic")).decode(99, 0)


def test_importing_ohhell_imports_no_learning_framework() -> None:
    code = ("import sys, ohhell, ohhell.bots, ohhell.cli; "
            "print(sorted(m for m in ('pettingzoo', 'gymnasium', 'pyspiel') if m in sys.modules))")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "[]"


# -- perfect recall: the history segment -----------------------------------------------------

HISTORY_PRESETS = [("classic", 4), ("ne-blackout", 5), ("jokers", 3), ("kachuful", 4), ("german-bridge", 3),
                   ("devils-bridge", 3)]


@pytest.mark.parametrize("name,players", HISTORY_PRESETS)
def test_the_history_segment_is_the_engines_bids_tricks_leaders_and_winners(name: str, players: int) -> None:
    from history_check import decoded_history, engine_history

    setup = Setup.create(name, players=players, max_hands=3, max_size=3)
    assert setup.rules.bidding == "in-turn"  # every bid is public once made
    encoder = ObservationEncoder(setup, perfect_recall=True)
    plain = ObservationEncoder(setup)
    seen_finished = seen_trick_winner = 0
    for state, seat in random_states(setup, seed=3, count=400):
        expected = engine_history(state)
        seen_finished = max(seen_finished, len(expected) - 1)
        seen_trick_winner += any(winner is not None for _leader, _cards, winner in expected[-1][1])
        for observer in (seat, (seat + 1) % players):
            vector = encoder.encode(seat_view(state, observer))
            assert decoded_history(encoder, vector, observer) == expected
            # Everything before the history is the default observation, unchanged.
            assert (vector[:plain.size] == plain.encode(seat_view(state, observer))).all()
    assert seen_finished >= 2 and seen_trick_winner  # earlier hands and finished tricks were checked


def _replayed(state, deal: Deal):
    """``state``'s actions again, with ``deal`` as the deal of its last hand (in place of the
    shuffle and the cut)."""
    from ohhell.actions import Cut, Draw, Shuffle

    history = state.history
    last_shuffle = max(i for i, action in enumerate(history) if isinstance(action, Shuffle))
    assert isinstance(history[last_shuffle + 1], Cut)
    cut_for_deal = any(isinstance(action, Draw) for action in history)
    again = Game(state.rules).new_initial_state(first_dealer=None if cut_for_deal else state.first_dealer)
    for action in history[:last_shuffle]:
        again.apply(action)
    again.apply(deal)
    for action in history[last_shuffle + 2:]:
        again.apply(action)
    return again


def test_the_history_segment_holds_no_hidden_card() -> None:
    # Mid-way through the third hand of a game, two other seats swap an unplayed card (a deal
    # that fits every card played so far): the observing seat's perfect-recall tensor is the
    # same, while both seats that swapped see the difference.
    from ohhell.errors import IllegalActionError

    setup = Setup.create("classic", players=4, max_size=4, max_hands=4)
    encoder = ObservationEncoder(setup, perfect_recall=True)
    checked = 0
    for seed in range(10):
        for state, seat in random_states(setup, seed=seed, count=200):
            if state.hand_index < 2 or not state.completed_tricks():
                continue
            others = [s for s in range(4) if s != seat and state.hand(s)]
            if len(others) < 2:
                continue
            a, b = others[:2]
            original = _replayed(state, Deal(state.deal, state.turn_up))
            mine = encoder.encode(seat_view(original, seat))
            assert (mine == encoder.encode(seat_view(state, seat))).all()
            for card_a in state.hand(a):
                for card_b in state.hand(b):
                    hands = [list(cards) for cards in state.deal]
                    hands[a][hands[a].index(card_a)] = card_b
                    hands[b][hands[b].index(card_b)] = card_a
                    try:
                        twin = _replayed(state, Deal(tuple(tuple(cards) for cards in hands), state.turn_up))
                    except IllegalActionError:
                        continue  # an earlier play would not have been legal from that hand
                    assert twin.hand(seat) == state.hand(seat) and twin.hand(a) != state.hand(a)
                    assert (encoder.encode(seat_view(twin, seat)) == mine).all()
                    for swapped in (a, b):
                        assert not (encoder.encode(seat_view(twin, swapped))
                                    == encoder.encode(seat_view(original, swapped))).all()
                    checked += 1
                    break
                else:
                    continue
                break
        if checked >= 5:
            break
    assert checked >= 5
