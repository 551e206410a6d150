#!/usr/bin/env python3
"""Decision time of every bot level on 10-card hands (4 players, classic rules).

For each level, four bots of that level play whole 10-card hands (default budget); every
decision that has a choice (more than one legal action) is timed: bids and card plays
separately and together. The target is p95 ≤ 100 ms a decision for every level, the expert
(``strong``) being the slowest.

The last line is ``strong_decision_ms p50=X p95=Y p95_vs_100ms=R`` (R: the strong bot's p95
over the 100 ms target; below 1 meets it).

Usage: python benchmarks/decision_time.py [--hands 10] [--seed 1] [--levels beginner,casual,basic,strong]
"""

from __future__ import annotations

import argparse
import random
import time

from ohhell.bots import bot_names, make_bot
from ohhell.bots.base import forward_actions
from ohhell.game import Game, Phase
from ohhell.rules import HandPlan, preset
from ohhell.views import seat_view

TARGET_MS = 100.0


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def time_level(level: str, hands: int, seed: int) -> dict[str, list[float]]:
    rules = preset("classic", players=4, schedule="explicit", hands=[HandPlan(10, "turn-up")])
    times: dict[str, list[float]] = {"bid": [], "play": []}
    for hand in range(hands):
        bots = [make_bot(level, seed=seed * 100 + hand * 4 + seat) for seat in range(4)]
        state = Game(rules).new_initial_state()
        chance = random.Random(seed * 1_000_003 + hand)
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
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--hands", type=int, default=10)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--levels", default=",".join(level for level in bot_names() if level != "random"))
    args = parser.parse_args()
    levels = [level for level in args.levels.split(",") if level]
    summary: dict[str, tuple[float, float]] = {}
    for level in levels:
        times = time_level(level, args.hands, args.seed)
        every = times["bid"] + times["play"]
        for name, values in (("bid", times["bid"]), ("play", times["play"]), ("all", every)):
            print(f"{level:8s} {name:5s} decisions={len(values):4d}  p50={1000 * percentile(values, 0.5):6.1f} ms  "
                  f"p95={1000 * percentile(values, 0.95):6.1f} ms  max={1000 * max(values):6.1f} ms")
        summary[level] = (1000 * percentile(every, 0.5), 1000 * percentile(every, 0.95))
    print("p95 per level: " + ", ".join(f"{level} {p95:.1f} ms" for level, (_p50, p95) in summary.items()))
    if "strong" in summary:
        p50, p95 = summary["strong"]
        print(f"strong_decision_ms p50={p50:.1f} p95={p95:.1f} p95_vs_{TARGET_MS:.0f}ms={p95 / TARGET_MS:.2f}")


if __name__ == "__main__":
    main()
