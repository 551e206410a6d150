#!/usr/bin/env python3
"""Decision time of the ``strong`` bot on 10-card hands (4 players, classic rules).

Four strong bots play whole 10-card hands (default budget); every decision that has a
choice (more than one legal action) is timed: bids and card plays separately and together.

The last line is ``strong_decision_ms p50=X p95=Y``.

Usage: python benchmarks/decision_time.py [--hands 10] [--seed 1]
"""

from __future__ import annotations

import argparse
import random
import time

from ohhell.bots import make_bot
from ohhell.bots.base import forward_actions
from ohhell.game import Game, Phase
from ohhell.rules import HandPlan, preset
from ohhell.views import seat_view


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--hands", type=int, default=10)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rules = preset("classic", players=4, schedule="explicit", hands=[HandPlan(10, "turn-up")])
    times: dict[str, list[float]] = {"bid": [], "play": []}
    for hand in range(args.hands):
        bots = [make_bot("strong", seed=args.seed * 100 + hand * 4 + seat) for seat in range(4)]
        state = Game(rules).new_initial_state()
        chance = random.Random(args.seed * 1_000_003 + hand)
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply(state.sample_chance(chance))
                continue
            seat = state.turn
            assert seat is not None
            view = seat_view(state, seat)
            started = time.perf_counter()
            action = bots[seat].choose(view)
            elapsed = time.perf_counter() - started
            if len(forward_actions(view)) > 1:
                times["bid" if state.phase == Phase.BIDDING else "play"].append(elapsed)
            state.apply(action)
    every = times["bid"] + times["play"]
    for name, values in (("bid", times["bid"]), ("play", times["play"]), ("all", every)):
        print(f"{name:5s} decisions={len(values):4d}  p50={1000 * percentile(values, 0.5):6.1f} ms  "
              f"p95={1000 * percentile(values, 0.95):6.1f} ms  max={1000 * max(values):6.1f} ms")
    print(f"strong_decision_ms p50={1000 * percentile(every, 0.5):.1f} p95={1000 * percentile(every, 0.95):.1f}")


if __name__ == "__main__":
    main()
