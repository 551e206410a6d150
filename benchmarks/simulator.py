#!/usr/bin/env python3
"""Random complete hands per second: ohhell's fast core against OpenSpiel's C++ loop,
measured side by side in one run.

One hand: 4 players, 10 cards, classic rules (a turned-up trump, the hook). The fast core
(:mod:`ohhell.fastsim`, C) plays each hand whole: shuffle and deal, turn up the trump card,
bid uniformly at random (the dealer honouring the hook), play uniformly random legal cards
and score the hand. OpenSpiel's loop is the project's reference timing loop for it:
``pyspiel.evaluate_bots`` with uniform random C++ bots, the whole playthrough (chance
included) in C++. Both run in alternating rounds (the machine is noisy) and the medians are
compared.

The last line is ``simulator_vs_openspiel_cpp=R`` (R = fast core hands/s ÷ OpenSpiel hands/s).

Usage: python benchmarks/simulator.py [--seconds 2] [--rounds 5]   (needs ``open-spiel``)
"""

from __future__ import annotations

import argparse
import statistics
import time

import pyspiel

from ohhell import fastsim
from ohhell.rules import preset

PLAYERS = 4
SIZE = 10


def fast_core_rate(seconds: float, seed: int) -> float:
    deck = preset("classic", players=PLAYERS).deck_mask
    batch = 20_000
    hands = 0
    started = time.perf_counter()
    while True:
        fastsim.simulate(PLAYERS, SIZE, batch, deck, seed=seed + hands)
        hands += batch
        elapsed = time.perf_counter() - started
        if elapsed >= seconds:
            return hands / elapsed


def openspiel_rate(seconds: float, seed: int) -> float:
    game = pyspiel.load_game("oh_hell", {"players": PLAYERS, "num_tricks_fixed": SIZE})
    bots = [pyspiel.make_uniform_random_bot(player, seed + player) for player in range(PLAYERS)]
    hands = 0
    started = time.perf_counter()
    while True:
        for _ in range(200):
            pyspiel.evaluate_bots(game.new_initial_state(), bots, seed + hands)
            hands += 1
        elapsed = time.perf_counter() - started
        if elapsed >= seconds:
            return hands / elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=2.0, help="seconds per measurement")
    parser.add_argument("--rounds", type=int, default=5, help="alternating rounds of both")
    parser.add_argument("--seed", type=int, default=1234)
    args = parser.parse_args()
    if not fastsim.AVAILABLE:
        raise SystemExit("the fast core is not built (reinstall ohhell with a C compiler)")
    ours: list[float] = []
    theirs: list[float] = []
    for round_index in range(args.rounds):
        ours.append(fast_core_rate(args.seconds, args.seed + 1_000_003 * round_index))
        theirs.append(openspiel_rate(args.seconds, args.seed + 1_000_003 * round_index))
    mine, other = statistics.median(ours), statistics.median(theirs)
    print(f"fastsim players={PLAYERS} cards={SIZE} random_hands_per_s min/med/max="
          f"{min(ours):.0f}/{mine:.0f}/{max(ours):.0f}")
    print(f"openspiel_cpp evaluate_bots players={PLAYERS} tricks={SIZE} random_hands_per_s min/med/max="
          f"{min(theirs):.0f}/{other:.0f}/{max(theirs):.0f}")
    print(f"simulator_vs_openspiel_cpp={mine / other:.2f}")


if __name__ == "__main__":
    main()
