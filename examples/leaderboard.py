#!/usr/bin/env python3
"""A leaderboard of the bots: ``random``, ``basic``, ``strong`` and a trained policy, rated
from duplicate matches in the arena.

Each pair of bots plays a duplicate match (``ohhell.arena.run_arena``) at a table of four, the
two bots in alternate seats (A B A B), every deal played once per rotation so that each bot
holds every seat's cards. A match gives the mean difference of their scores per hand with a
95% confidence interval (deals are the unit of independence). The ratings are the least-squares
fit of ``rating[A] − rating[B]`` to those differences, ``basic`` fixed at 0: points per hand
above or below ``basic``.

The differences and their intervals are the arena's own (``ohhell.arena.paired_differences``,
what ``ohhell arena`` prints for every pair of bots).

``--game`` chooses the game: ``classic`` (default) — whole games of the classic rules, 4
players, hands of 10 cards down to 1 and back, the game the ``learned`` level was trained for
(``scripts/train_policy.py``) — or ``hand`` — one 5-card hand of those rules, the game the
example policy learned (``examples/train_maskable_ppo.py``). ``--bots`` chooses the levels
(by default ``random,basic,learned`` in whole games, where ``strong`` takes about a minute a
game on a loaded 2-core machine, and ``random,basic,strong`` in the hand; every level:
``--bots random,beginner,casual,learned,basic,strong``); ``--policy`` adds a trained policy.

    python examples/leaderboard.py --deals 40 --jobs 2
    python examples/leaderboard.py --game hand --policy runs/ppo/policy.zip --deals 150 --jobs 2
"""

from __future__ import annotations

import argparse
import itertools
import json
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from ohhell.arena import paired_differences, run_arena
from ohhell.bots import Bot, Budget, bot_names, make_bot
from ohhell.integrations.core import single_hand_rules
from ohhell.rules import preset

POLICY_PREFIX = "policy:"


def make(spec: str, seed: int | None = None, budget: Budget | None = None, **options: Any) -> Bot:
    """Built-in bots by name, a trained policy as ``policy:PATH``."""
    if spec.startswith(POLICY_PREFIX):
        from train_maskable_ppo import PolicyBot

        return PolicyBot(spec[len(POLICY_PREFIX):], seed=seed)
    return make_bot(spec, seed=seed, budget=budget)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--game", choices=["classic", "hand"], default="classic",
                        help="whole classic games (the learned level's) or one 5-card hand (the example policy's)")
    parser.add_argument("--bots", default=None,
                        help="the built-in levels to rate, comma-separated (basic, the anchor, always among them); "
                             "default random,basic,learned for whole games (strong takes about a minute a game "
                             "there), random,basic,strong for the hand")
    parser.add_argument("--policy", default=None, help="a policy saved by train_maskable_ppo.py")
    parser.add_argument("--deals", type=int, default=150)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--cache", default=None, help="a JSON file keeping each match's result between runs")
    args = parser.parse_args()
    cache: dict[str, list[float]] = {}  # each match's difference per hand: [mean, low, high]
    if args.cache and Path(args.cache).exists():
        cache = json.loads(Path(args.cache).read_text(encoding="utf-8"))
    classic = preset("classic", players=4)
    rules = classic if args.game == "classic" else single_hand_rules(classic, 5)
    chosen = args.bots or ("random,basic,learned" if args.game == "classic" else "random,basic,strong")
    levels = [name.strip() for name in chosen.split(",") if name.strip()]
    unknown = sorted(set(levels) - set(bot_names()))
    if unknown:
        parser.error(f"unknown bot {', '.join(unknown)} (the levels: {', '.join(bot_names())})")
    if "basic" not in levels:
        levels.insert(0, "basic")
    names = list(dict.fromkeys(levels)) + ([POLICY_PREFIX + args.policy] if args.policy else [])
    short = {name: ("ppo (example)" if name.startswith(POLICY_PREFIX) else name) for name in names}
    rows: list[tuple[int, int, float, float, float]] = []
    print("| match (A vs B, seats A B A B) | deals | A − B per hand | 95% CI |")
    print("|---|---|---|---|")
    for a, b in itertools.combinations(names, 2):
        started = time.perf_counter()
        key = f"{args.game}|{a}|{b}|{args.deals}|{args.seed}"
        figures = cache.get(key, [])
        if len(figures) != 3:
            result = run_arena(rules, [a, b, a, b], args.deals, seed=args.seed, jobs=args.jobs, factory=make)
            (difference,) = paired_differences(result)
            figures = [difference.mean, *difference.ci]
            if args.cache:
                cache[key] = figures
                Path(args.cache).write_text(json.dumps(cache), encoding="utf-8")
        mean, low, high = figures
        rows.append((names.index(a), names.index(b), mean, low, high))
        print(f"| {short[a]} vs {short[b]} | {args.deals} | {mean:+.2f} | [{low:+.2f}, {high:+.2f}] "
              f"| ({time.perf_counter() - started:.0f} s)", flush=True)
    # Least squares: rating[a] - rating[b] = difference, basic = 0.
    base = names.index("basic")
    matrix = np.zeros((len(rows) + 1, len(names)))
    target = np.zeros(len(rows) + 1)
    for row, (a_index, b_index, mean, _low, _high) in enumerate(rows):
        matrix[row, a_index], matrix[row, b_index], target[row] = 1.0, -1.0, mean
    matrix[-1, base] = 1.0
    ratings, *_rest = np.linalg.lstsq(matrix, target, rcond=None)
    print()
    print("| rank | bot | rating (points per hand above basic) |")
    print("|---|---|---|")
    for rank, index in enumerate(np.argsort(-ratings), start=1):
        print(f"| {rank} | {short[names[index]]} | {ratings[index]:+.2f} |")


if __name__ == "__main__":
    main()
