"""The fixed ratings of the bot levels: the bots play each other, OpenSkill rates them.

People's ratings move against the bots' fixed ones (``ohhell/server/ratings.py``,
``BOT_RATINGS``), so those must say how strong each level is on the people's scale. This plays
duplicate deals between the levels (the arena: every level holds every seat's cards once),
rates the levels with the same Plackett–Luce model as people, game after game from the
newcomer's rating, and then shifts the scale so that the anchor level (``basic``) sits at 1500,
a newcomer's starting rating: an unknown person is assumed to play about as well as ``basic``.

    python benchmarks/bot_ratings.py --deals 60 --jobs 2

Last line: ``bot_rating_gap_strong_minus_basic=G`` (rating points; anchor: ``basic``).
"""

from __future__ import annotations

import argparse
import time

from ohhell.arena import run_arena
from ohhell.rules import preset
from ohhell.server.ratings import MODEL


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--deals", type=int, default=60)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--preset", default="classic")
    parser.add_argument("--levels", default="strong,basic,random")
    parser.add_argument("--passes", type=int, default=3, help="passes over the games (the order matters less)")
    args = parser.parse_args()
    levels = args.levels.split(",")
    rules = preset(args.preset, players=len(levels))
    started = time.perf_counter()
    result = run_arena(rules, levels, games=args.deals, seed=args.seed, jobs=args.jobs)
    ratings = {level: MODEL.rating() for level in levels}
    games = 0
    for _pass in range(args.passes):
        for deal in result.deal_results:
            for game in deal.games:
                teams = [[ratings[seat.spec]] for seat in game]
                totals = [seat.total for seat in game]
                ranks = [1.0 + sum(1 for other in totals if other > mine) for mine in totals]
                for seat, team in zip(game, MODEL.rate(teams, ranks=ranks), strict=True):
                    ratings[seat.spec] = team[0]
                games += 1
    shift = 1500.0 - ratings["basic"].mu if "basic" in ratings else 0.0
    print(f"{result.games_played} games of {args.preset} ({len(levels)} players) in "
          f"{time.perf_counter() - started:.0f} s; {args.passes} rating passes")
    for level in levels:
        rating = ratings[level]
        print(f"{level:>8}: mu {rating.mu + shift:7.1f}  sigma {rating.sigma:5.1f}  "
              f"(score per game {next(b.mean_game for b in result.bots if b.name == level):.1f})")
    if "strong" in ratings and "basic" in ratings:
        print(f"bot_rating_gap_strong_minus_basic={ratings['strong'].mu - ratings['basic'].mu:.0f}")


if __name__ == "__main__":
    main()
