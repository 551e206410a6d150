"""The small exact variant: OpenSpiel's checks, the engine's rules, and CFR's exploitability
falling on it."""

from __future__ import annotations

from rl_support import require

pyspiel = require("pyspiel")

import pytest  # noqa: E402
from open_spiel.python import policy as policy_lib  # noqa: E402
from open_spiel.python.algorithms import cfr, exploitability  # noqa: E402

from ohhell.integrations.openspiel_mini import GAME_NAME, exact_game  # noqa: E402


@pytest.mark.parametrize("spec", [GAME_NAME, f"{GAME_NAME}(cards=1)", f"{GAME_NAME}(players=4,suits=3,ranks=3)",
                                  f"{GAME_NAME}(suits=3,ranks=3,trump=turn-up,hook=false)"])
def test_random_sim_test(spec: str) -> None:
    pyspiel.random_sim_test(pyspiel.load_game(spec), num_sims=20, serialize=False, verbose=False)


def test_the_tree_is_small_and_chance_is_uniform() -> None:
    game = pyspiel.load_game(GAME_NAME)
    state = game.new_initial_state()
    assert len(state.chance_outcomes()) == 15  # C(6, 2) hands for the first seat
    state.apply_action(0)
    assert len(state.chance_outcomes()) == 6  # C(4, 2)
    state.apply_action(0)
    state.apply_action(0)  # the last two cards
    assert not state.is_chance_node() and state.current_player() == 0  # left of the dealer (seat 2)
    assert state.legal_actions() == [55, 56, 57]  # bids 0, 1, 2


def test_returns_are_the_engines_scores() -> None:
    game = pyspiel.load_game(GAME_NAME)
    state = game.new_initial_state()
    for action in (0, 0, 0):  # seat 0: AS KS... the first two cards of the pack in id order
        state.apply_action(action)
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[-1])  # the highest bid, the highest card
    assert state.returns() == [float(total) for total in state.engine.totals]
    assert all(value in (0.0, 10.0, 11.0, 12.0) for value in state.returns())


def test_the_exact_game_is_the_same_game() -> None:
    """The uniform policy is as exploitable in the C++ tree as in the Python game."""
    python_game = pyspiel.load_game(GAME_NAME, {"cards": 1, "ranks": 2})
    tree = exact_game(cards=1, ranks=2)
    uniform_python = exploitability.nash_conv(python_game, policy_lib.UniformRandomPolicy(python_game))
    assert pyspiel.nash_conv(tree, pyspiel.UniformRandomPolicy(tree)) == pytest.approx(uniform_python)


def test_cfr_exploitability_falls_in_the_python_game() -> None:
    game = pyspiel.load_game(GAME_NAME, {"cards": 1, "ranks": 2})  # one card each from AS KS AH KH
    solver = cfr.CFRSolver(game)
    values = []
    for iteration in range(1, 11):
        solver.evaluate_and_update_policy()
        if iteration in (1, 10):
            values.append(exploitability.nash_conv(game, solver.average_policy()))
    assert values[1] < values[0] / 2


def test_cfr_exploitability_falls_in_seconds_on_the_default_game() -> None:
    game = exact_game()
    solver = pyspiel.CFRSolver(game)
    values = {}
    for iteration in range(1, 21):
        solver.evaluate_and_update_policy()
        if iteration in (1, 5, 20):
            values[iteration] = pyspiel.nash_conv(game, solver.average_policy())
    assert values[1] > values[5] > values[20]
    assert values[20] < values[1] / 8  # 15.7 → below 2
