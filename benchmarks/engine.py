#!/usr/bin/env python3
"""Random complete hands per second: ohhell's engine against OpenSpiel's ``oh_hell``, both driven
from Python, measured side by side in one run.

One hand: 4 players, 10 cards, classic rules. For ohhell every chance event and action goes
through the public API: the cut for the first deal (``Draw``), the shuffle, the cut of the
pack (after which the cards are dealt one at a time and a card turned up), the bids and the 40
cards, each chosen uniformly among the legal actions of the seat on turn. For OpenSpiel the
loop is the project's reference timing loop for it: chance outcomes sampled with Python's
``random`` from ``chance_outcomes()``, actions uniform over ``legal_actions()``.

The two are measured in alternating rounds (the machine is noisy) and the medians compared.
The last line is ``engine_vs_openspiel_python=R``.

Usage: python benchmarks/engine.py [--seconds 2] [--rounds 5]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time

from ohhell import Game, preset


def ohhell_hands(seconds: float, rng: random.Random) -> float:
    game = Game(preset("classic", players=4))
    randrange = rng.randrange
    hands = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        state = game.new_initial_state()
        while state.hand_index == 0:  # until the first hand (10 cards) is scored
            if state.is_chance_node():
                state.apply(state.sample_chance(rng))
            else:
                legal = state.legal_actions(state.turn)
                state.apply(legal[randrange(len(legal))])
        hands += 1
        now = time.perf_counter()
        if now >= deadline:
            return hands / (now - start)


def openspiel_hands(seconds: float, rng: random.Random) -> float:
    import pyspiel

    game = pyspiel.load_game("oh_hell", {"players": 4, "num_tricks_fixed": 10})
    hands = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                r = rng.random()
                acc = 0.0
                action = outcomes[-1][0]
                for candidate, probability in outcomes:
                    acc += probability
                    if r < acc:
                        action = candidate
                        break
            else:
                legal = state.legal_actions()
                action = legal[rng.randrange(len(legal))]
            state.apply_action(action)
        hands += 1
        now = time.perf_counter()
        if now >= deadline:
            return hands / (now - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="length of one measurement")
    parser.add_argument("--rounds", type=int, default=5, help="alternating rounds of each")
    args = parser.parse_args()
    try:
        import pyspiel  # noqa: F401
    except ImportError:
        sys.exit("OpenSpiel is needed for the comparison: pip install -e '.[bench]'")
    rng = random.Random(1234)
    ours, theirs = [], []
    for round_index in range(args.rounds):
        ours.append(ohhell_hands(args.seconds, rng))
        theirs.append(openspiel_hands(args.seconds, rng))
        print(f"round {round_index + 1}: ohhell {ours[-1]:,.0f} hands/s, openspiel {theirs[-1]:,.0f} hands/s",
              flush=True)
    ratio = statistics.median(ours) / statistics.median(theirs)
    print(f"ohhell_hands_per_s={statistics.median(ours):.0f} openspiel_python_hands_per_s="
          f"{statistics.median(theirs):.0f}")
    print(f"engine_vs_openspiel_python={ratio:.2f}")


if __name__ == "__main__":
    main()
