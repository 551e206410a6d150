"""The core's one replay of an action log and its one public record of a running game."""

from __future__ import annotations

import pytest

from ohhell import Game, OhHellError, preset
from ohhell.actions import action_to_json
from ohhell.game import Phase, State
from ohhell.record import apply_log, play_random_game, public_record, record_from_state, replay_log


def record_at_last_shuffle(state: State) -> dict[str, object]:
    """The public record as the server built it before: the game replayed up to the shuffle of
    the hand in progress (the reference the one function must match)."""
    if state.is_terminal():
        return record_from_state(state)
    probe = Game(state.rules).new_initial_state()
    start = None
    for index, action in enumerate(state.history):
        if probe.phase == Phase.SHUFFLE:
            start = index
        probe.apply(action)
    if probe.phase == Phase.SHUFFLE:
        start = len(state.history)
    assert start is not None
    return record_from_state(replay_log(state.rules, state.history[:start]))


@pytest.mark.parametrize("name", ["classic", "jokers", "devils-bridge", "la-podrida"])
def test_the_public_record_holds_the_finished_hands_at_every_moment(name: str) -> None:
    rules = preset(name, players=4)
    game = play_random_game(rules, seed=7)
    seen_hidden = False
    state = Game(rules).new_initial_state()
    for length in range(len(game.history) + 1):
        if length:
            state.apply(game.history[length - 1])
        if length % 3 and length < len(game.history):  # every third moment: each check replays the game so far
            continue
        if state.first_dealer is None:
            with pytest.raises(OhHellError):
                public_record(state)
            continue
        record = public_record(state, ["A", "B", "C", "D"])
        assert record == {**record_at_last_shuffle(state), "names": ["A", "B", "C", "D"]}
        assert len(record["hands"]) == len(state.finished_hands)
        seen_hidden |= state.phase in (Phase.BIDDING, Phase.PLAYING)
    assert seen_hidden
    assert public_record(game) == record_from_state(game)


def test_a_stored_log_and_the_engine_history_replay_alike() -> None:
    game = play_random_game(preset("classic", players=3), seed=3)
    stored = [action_to_json(action) for action in game.history]
    assert replay_log(game.rules, stored) == replay_log(game.rules, game.history) == game
    half = len(stored) // 2
    resumed = apply_log(replay_log(game.rules, stored[:half]), stored[half:])
    assert resumed == game
    first_dealt = Game(game.rules).new_initial_state(first_dealer=1)
    assert replay_log(game.rules, [], first_dealer=1) == first_dealt
