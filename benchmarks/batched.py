#!/usr/bin/env python3
"""Hands per second of the batched simulator (``ohhell.integrations.batched``, the loop in C), for
batch sizes N = 1 … 4096, against the reference engine stepping one hand at a time.

One hand: classic rules, 4 players, 10 cards each (4 bids and 40 cards), every action drawn
uniformly among the legal ones from the legal-action mask (``sample_legal`` in NumPy; see
``benchmarks/rl_envs.py`` for the loop with the sampling in C). "with observations" also builds the
acting seat's observation tensor at every step, as a learning loop does. The reference loop
deals with the engine's shuffle and cut and picks among ``legal_actions`` with ``random``.

Usage: python benchmarks/batched.py [--seconds 2] [--sizes 1,64,1024,4096]
The last line is ``batched_hands_per_second_n1024=X``.
"""

from __future__ import annotations

import argparse
import random
import time

import numpy as np

from ohhell import Game, preset
from ohhell.integrations.batched import BatchedHands, sample_legal

RULES = preset("classic", players=4)
SIZE = 10


def batched(n: int, seconds: float, observe: bool) -> float:
    hands = BatchedHands(RULES, n=n, hand_size=SIZE, seed=1)
    rng = np.random.default_rng(2)
    played = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        hands.reset()
        while not hands.done.all():
            if observe:
                hands.observe()
            hands.step(sample_legal(hands.legal_mask(), rng))
        played += n
    return played / (time.perf_counter() - start)


def reference(seconds: float) -> float:
    rules = RULES.replace(schedule="explicit", hands=[[SIZE, "turn-up"]])
    game = Game(rules)
    rng = random.Random(3)
    played = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = game.new_initial_state(first_dealer=rng.randrange(4))
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply(state.sample_chance(rng))
            else:
                seat = state.turn
                choices = [a for a in state.legal_actions(seat) if getattr(a, "seat", seat) == seat]
                state.apply(rng.choice(choices))
        played += 1
    return played / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--sizes", default="1,64,1024,4096")
    args = parser.parse_args()
    sizes = [int(size) for size in args.sizes.split(",")]
    print(f"classic, 4 players, {SIZE}-card hands, random legal actions; {args.seconds:g} s per measurement")
    engine = reference(args.seconds)
    print(f"{'reference engine, one hand at a time':<40} {engine:>10.0f} hands/s")
    result = {}
    for n in sizes:
        plain = batched(n, args.seconds, observe=False)
        with_observations = batched(n, args.seconds, observe=True)
        result[n] = plain
        print(f"{f'batched N={n}':<40} {plain:>10.0f} hands/s   with observations {with_observations:>10.0f} hands/s"
              f"   ({plain / engine:.1f}x the engine)")
    if 1024 in result:
        print(f"batched_hands_per_second_n1024={result[1024]:.0f}")


if __name__ == "__main__":
    main()
