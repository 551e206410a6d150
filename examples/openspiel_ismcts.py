#!/usr/bin/env python3
"""OpenSpiel's ISMCTS plays Oh Hell through ``python_ohhell``, against uniformly random players.

ISMCTS (information-set Monte Carlo tree search) needs the game to deal the hidden cards
again from a player's point of view: ``python_ohhell`` does it with
``resample_from_infostate``, consistently with every card played so far. The search seat's
average score should be well above that of the random seats.

    pip install -e .[rl]
    python examples/openspiel_ismcts.py --preset classic --players 4 --hand 5 --games 10

Any preset and knob works (``--preset la-podrida``, ``--knobs '{"hook": false}'``). A
counterfactual-regret method runs the same way, e.g. OpenSpiel's outcome-sampling MCCFR on
a one-card hand::

    from open_spiel.python.algorithms import outcome_sampling_mccfr
    game = ohhell.integrations.openspiel.load("classic", players=3, mode="hand", hand=9)
    solver = outcome_sampling_mccfr.OutcomeSamplingSolver(game)
    for _ in range(10_000):
        solver.iteration()
    policy = solver.average_policy()
"""

from __future__ import annotations

import argparse
import json
import statistics
import time

import numpy as np
from open_spiel.python.algorithms import ismcts, mcts

import ohhell.integrations.openspiel as ohhell_spiel


def play(game, bot: ismcts.ISMCTSBot, rng: np.random.RandomState, search_seat: int) -> list[float]:
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probabilities = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(outcomes, p=probabilities)))
        elif state.current_player() == search_seat:
            state.apply_action(bot.step(state))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    return state.returns()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--preset", default="classic")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--hand", type=int, default=5, help="which hand of the schedule (0-based)")
    parser.add_argument("--knobs", default="{}", help="more rule knobs as JSON")
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--simulations", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    game = ohhell_spiel.load(args.preset, players=args.players, mode="hand", hand=args.hand,
                             knobs=json.loads(args.knobs))
    rng = np.random.RandomState(args.seed)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=2, random_state=rng)
    bot = ismcts.ISMCTSBot(game, evaluator, uct_c=3.0, max_simulations=args.simulations, random_state=rng)
    searched: list[float] = []
    others: list[float] = []
    start = time.perf_counter()
    for number in range(args.games):
        seat = number % args.players
        returns = play(game, bot, rng, seat)
        searched.append(returns[seat])
        others.extend(value for index, value in enumerate(returns) if index != seat)
        print(f"game {number + 1}: ISMCTS in seat {seat} scored {returns[seat]:g}; "
              f"the random seats {[r for i, r in enumerate(returns) if i != seat]}")
    seconds = time.perf_counter() - start
    print(f"average score: ISMCTS {statistics.mean(searched):.2f}, random {statistics.mean(others):.2f} "
          f"({args.games} games of {game}, {seconds:.1f} s)")


if __name__ == "__main__":
    main()
