"""The fixed ratings of the bot levels, measured by the bots playing each other.

People's ratings move against the bots' fixed ones (``ohhell/server/community/ratings.py``,
``BOT_RATINGS``), so those must say how strong each level is on the people's scale. This plays
duplicate deals between the levels (the arena: every level holds every seat's cards once) and
counts, for each pair of levels, the share of games one finished ahead of the other (a tie counts
half). The Plackett–Luce model says a player rated Δ above another finishes ahead of them with
chance 1 / (1 + e^(−Δ/c)), c = √2 β (β = 250, σ small), so each pair's gap is c ln(p / (1 − p)),
and the levels are placed by least squares over the pairs, the anchor level (``basic``) at 1500,
a newcomer's starting rating: an unknown person is assumed to play about as well as ``basic``. A
share is capped at 0.99 (a gap of at most 1626): beyond it, a few hundred games cannot tell.

(Rating the bots with OpenSkill game after game does not work here: when one level nearly always
beats another, the gap grows with every game played and says nothing but how many games were.)

    python benchmarks/bot_ratings.py --deals 40 --jobs 2

Last line: ``bot_rating_gap_strong_minus_basic=G`` (rating points against the anchor ``basic``).
"""

from __future__ import annotations

import argparse
import itertools
import math
import time

from ohhell.arena import run_arena
from ohhell.rules import preset
from ohhell.server.community.ratings import BETA

CAP = 0.99


def gap(share: float) -> float:
    """The rating gap that makes finishing ahead this likely (two players of small σ)."""
    share = min(max(share, 1 - CAP), CAP)
    return math.sqrt(2) * BETA * math.log(share / (1 - share))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--deals", type=int, default=40)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--preset", default="classic")
    parser.add_argument("--levels", default="strong,basic,random")
    parser.add_argument("--anchor", default="basic")
    args = parser.parse_args()
    levels = args.levels.split(",")
    rules = preset(args.preset, players=len(levels))
    started = time.perf_counter()
    result = run_arena(rules, levels, games=args.deals, seed=args.seed, jobs=args.jobs)
    ahead = {pair: 0.0 for pair in itertools.permutations(levels, 2)}
    games = 0
    for deal in result.deal_results:
        for game in deal.games:
            games += 1
            for one, other in itertools.permutations(game, 2):
                if one.total > other.total:
                    ahead[one.spec, other.spec] += 1.0
                elif one.total == other.total:
                    ahead[one.spec, other.spec] += 0.5
    # Least squares over the pairs: minimise sum (r_a - r_b - gap_ab)^2 with the anchor fixed,
    # solved by iteration (a handful of levels).
    ratings = dict.fromkeys(levels, 0.0)
    pairs = [(a, b, gap(ahead[a, b] / games)) for a, b in itertools.combinations(levels, 2)]
    for _round in range(200):
        for level in levels:
            terms = [ratings[b] + g for a, b, g in pairs if a == level] + \
                    [ratings[a] - g for a, b, g in pairs if b == level]
            ratings[level] = sum(terms) / len(terms)
    shift = 1500.0 - ratings.get(args.anchor, 0.0)
    print(f"{games} games of {args.preset} ({len(levels)} players) in {time.perf_counter() - started:.0f} s")
    for a, b in itertools.combinations(levels, 2):
        print(f"{a} ahead of {b}: {ahead[a, b] / games:.3f} of games -> gap {gap(ahead[a, b] / games):.0f}")
    for level in levels:
        mean = next(b.mean_game for b in result.bots if b.name == level)
        print(f"{level:>8}: rating {ratings[level] + shift:7.0f}  (score per game {mean:.1f})")
    if "strong" in ratings and args.anchor in ratings:
        print(f"bot_rating_gap_strong_minus_basic={ratings['strong'] - ratings[args.anchor]:.0f}")


if __name__ == "__main__":
    main()
