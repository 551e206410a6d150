"""Game strings of ``python_ohhell`` load the same game again, whatever the preset and knobs.

OpenSpiel splits a game string's parameters at every comma, so the ``knobs`` parameter is
written without commas (JSON with ``;``): ``str(game)`` and ``serialize_game_and_state`` must
round-trip with any number of knobs.
"""

from __future__ import annotations

import random
from typing import Any

from rl_support import require

pyspiel = require("pyspiel")

import pytest  # noqa: E402

import ohhell.integrations.openspiel as ohhell_spiel  # noqa: E402
from ohhell.errors import RulesError  # noqa: E402
from ohhell.rules import PRESETS, preset  # noqa: E402

# A value other than the classic default for every knob (some only make sense with others:
# those combinations a preset refuses are skipped, and enough of them remain).
KNOB_VALUES: dict[str, Any] = {
    "deck": "32",
    "remove_twos_with": [3, 4, 5, 6, 7],
    "schedule": "up",
    "max_size": 3,
    "turning_point": "twice",
    "one_card_hand_per_player": True,
    "trump": "rotation",
    "trump_rotation": ["H", "NT", "S"],
    "fixed_trump": "D",
    "no_trump_last_hand": True,
    "no_trump_largest_hands": True,
    "hook": False,
    "bid_changes": False,
    "no_bid_from": 50,
    "first_lead": "dealer",
    "must_trump": True,
    "scoring": "german-bridge",
    "zero_bid": "5-plus-size",
    "target_score": 250,
    "stake": 0.5,
    "devils_bridge": True,
}

COMBINATIONS: list[dict[str, Any]] = [
    {},
    *({name: value} for name, value in KNOB_VALUES.items()),
    {"hook": False, "must_trump": True},
    {"schedule": "explicit", "hands": [[1, "turn-up"], [3, "none"], [2, "H"]], "scoring": "trick-plus-bonus",
     "zero_bid": "5"},
    {"bidding": "simultaneous", "hook": False, "bid_changes": False, "max_size": 4, "first_lead": "dealer"},
    {"trump": "rotation", "trump_rotation": ["C", "NT"], "max_size": 2, "must_trump": True, "stake": 1.5},
    {"schedule": "constant", "hand_count": 2, "max_size": 3, "scoring": "triangular-penalty", "hook": False},
]


def playable(name: str, knobs: dict[str, Any]) -> int | None:
    """A player count that ``name`` with ``knobs`` is played with, or None (OpenSpiel's game is
    for 3 to 7: the two-player bowers game is not offered there)."""
    for players in [count for count in PRESETS[name].players if count >= 3]:
        try:
            preset(name, players=players, **knobs)
        except RulesError:
            continue
        return players
    return None


CASES = [(name, knobs) for name in PRESETS for knobs in COMBINATIONS if playable(name, knobs) is not None]


def test_enough_combinations_are_played() -> None:
    assert len({name for name, _knobs in CASES}) == len(PRESETS)
    assert sum(1 for _name, knobs in CASES if len(knobs) >= 2) >= 3 * len(PRESETS)


@pytest.mark.parametrize("name,knobs", CASES, ids=[f"{n}-{'+'.join(k) or 'preset'}" for n, k in CASES])
def test_the_game_string_loads_the_same_game(name: str, knobs: dict[str, Any]) -> None:
    players = playable(name, knobs)
    game = ohhell_spiel.load(name, players=players, knobs=knobs)
    text = str(game)
    again = pyspiel.load_game(text)
    assert str(again) == text
    assert again.setup.rules == game.setup.rules
    assert again.get_parameters() == game.get_parameters()


@pytest.mark.parametrize("name,knobs", CASES, ids=[f"{n}-{'+'.join(k) or 'preset'}" for n, k in CASES])
def test_a_state_survives_serialization(name: str, knobs: dict[str, Any]) -> None:
    players = playable(name, knobs)
    game = ohhell_spiel.load(name, players=players, knobs=knobs, mode="hand", hand=1 if len(knobs) % 2 else 0)
    rng = random.Random(len(knobs))
    state = game.new_initial_state()
    for _ in range(rng.randrange(20, 80)):
        if state.is_terminal():
            break
        if state.is_chance_node():
            state.apply_action(rng.choice(state.chance_outcomes())[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    text = pyspiel.serialize_game_and_state(game, state)
    game_again, state_again = pyspiel.deserialize_game_and_state(text)
    assert str(game_again) == str(game)
    assert state_again.history() == state.history()
    assert str(state_again) == str(state)


def test_knobs_may_be_written_with_commas_in_a_parameter_dict() -> None:
    game = pyspiel.load_game("python_ohhell", {"players": 3, "knobs": '{"hook": false, "must_trump": true}'})
    assert game.setup.rules.must_trump and not game.setup.rules.hook
    assert pyspiel.load_game(str(game)).setup.rules == game.setup.rules
    assert ',"' not in str(game).split("knobs=")[1].split(",max_hands")[0]


def test_the_docs_knobs_example_loads_as_written() -> None:
    """A list of hands implies the explicit schedule (docs/integrations.md writes it without one)."""
    game = pyspiel.load_game('python_ohhell(preset=classic,players=4,knobs={"hands":[[1;"turn-up"];[3;"none"]]})')
    assert [plan.size for plan in game.setup.rules.hand_plans()] == [1, 3]
    assert pyspiel.load_game(str(game)).setup.rules == game.setup.rules
    with pytest.raises(RulesError):  # another schedule named with a list of hands is still refused
        ohhell_spiel.load("classic", 4, knobs={"hands": [[1, "turn-up"]], "schedule": "up"})


def test_the_information_state_tensor_carries_the_whole_game() -> None:
    """As the module docstring says: 645 + 19 × 2 344 values for classic with 4 players."""
    game = pyspiel.load_game("python_ohhell(preset=classic,players=4)")
    assert game.observation_tensor_shape() == [645]
    assert game.information_state_tensor_shape() == [645 + 19 * 2344]
    assert "645 + 19 × 2 344 = 45 181" in " ".join((ohhell_spiel.__doc__ or "").split())
