#!/usr/bin/env python3
"""Where the club player (`basic`) loses to the expert (`strong`): bids or card play, and at
which hand sizes (issue 29).

Plays duplicate deals in the arena (every deal once per rotation of the bots through the seats)
under the outside AI's rules — `classic`, 4 players, 10 … 1 … 10 with one 1-card hand per player,
`triangular-penalty` scoring, no bid changes — with bots given as ``BIDDER/PLAYER`` specs: the
first bids, the second plays the cards (``strong/basic`` bids as the expert and plays as the
club player). Either part may carry options, ``level:name=value:name=value`` (numbers and
booleans parsed: ``basic:read_bids=false`` is the club player as released, dealing its
look-ahead's cards without reading the bids). A plain ``basic`` is ``basic/basic``.

Prints the arena's table and paired differences, then for every pair of bots the paired
difference per hand size (the deal is the unit of the 95% interval). The last line is
``gap FIRST-SECOND=D ci95=[lo,hi]`` for the first two bots.

Usage::

    python benchmarks/basic_gap.py --bot strong --bot basic --bot strong/basic --bot basic/strong \\
        --games 8 --jobs 2 --seed 1
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
from collections.abc import Sequence
from typing import Any

from ohhell.actions import Action
from ohhell.arena import DealResult, format_table, paired_differences, run_arena
from ohhell.bots import Bot, Budget, make_bot
from ohhell.game import Phase
from ohhell.rules import Rules, preset
from ohhell.views import SeatView

Z95 = 1.959963984540054


def outside_rules() -> Rules:
    """The outside AI's rules (docs/bots.md, "Measuring strength")."""
    return preset("classic", players=4, scoring="triangular-penalty", one_card_hand_per_player=True,
                  bid_changes=False)


def _value(text: str) -> Any:
    lowered = text.lower()
    if lowered in ("true", "false"):
        return lowered == "true"
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


def _part(spec: str, seed: int | None, budget: Budget | None) -> Bot:
    level, *pairs = spec.split(":")
    options = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep:
            raise ValueError(f"a bot option is name=value, not {pair!r}")
        options[name] = _value(value)
    return make_bot(level, seed=seed, budget=budget, **options)


class Split(Bot):
    """One bot's bids and another's card play (and every other decision)."""

    name = "split"

    def __init__(self, bidder: Bot, player: Bot, seed: int | None = None) -> None:
        super().__init__(seed=seed)
        self.bidder = bidder
        self.player = player

    def choose(self, view: SeatView) -> Action:
        return (self.bidder if view.phase == Phase.BIDDING else self.player).choose(view)

    def close(self) -> None:
        self.bidder.close()
        self.player.close()


def make_split(spec: str, seed: int | None = None, budget: Budget | None = None) -> Bot:
    """The bot of a ``BIDDER/PLAYER`` spec (module level: the arena's processes call it)."""
    bidder, sep, player = spec.partition("/")
    if not sep:
        return _part(spec, seed, budget)
    return Split(_part(bidder, seed, budget), _part(player, seed, budget), seed=seed)


def by_hand_size(rules: Rules, specs: Sequence[str], results: Sequence[DealResult]
                 ) -> dict[tuple[str, str], dict[int, tuple[float, float, float]]]:
    """For every pair of bots, per hand size: the mean per-deal difference of their scores a
    hand, with its 95% interval."""
    names = list(dict.fromkeys(specs))
    means: dict[str, dict[int, list[float]]] = {name: {} for name in names}
    for deal in results:
        scores: dict[str, dict[int, list[int]]] = {name: {} for name in names}
        for game in deal.games:
            for seat in game:
                for index, score in enumerate(seat.hand_scores):
                    plan = rules.hand_plan(index)
                    assert plan is not None
                    scores[seat.spec].setdefault(plan.size, []).append(score)
        for name in names:
            for size, values in scores[name].items():
                means[name].setdefault(size, []).append(statistics.fmean(values))
    out: dict[tuple[str, str], dict[int, tuple[float, float, float]]] = {}
    for index, first in enumerate(names):
        for second in names[index + 1:]:
            table = {}
            for size in sorted(means[first]):
                diffs = [a - b for a, b in zip(means[first][size], means[second][size], strict=True)]
                mean = statistics.fmean(diffs)
                half = Z95 * statistics.stdev(diffs) / math.sqrt(len(diffs)) if len(diffs) > 1 else 0.0
                table[size] = (mean, mean - half, mean + half)
            out[(first, second)] = table
    return out


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bot", action="append", required=True, metavar="SPEC",
                        help="a seat's bot, BIDDER/PLAYER or a level (four of them, repeated as needed)")
    parser.add_argument("--games", type=int, default=4, help="deals (each played once per rotation)")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", default=None, help="write every deal's hand scores as JSON here")
    args = parser.parse_args(argv)
    rules = outside_rules()
    if len(args.bot) != rules.players:
        parser.error(f"give {rules.players} bots (--bot), not {len(args.bot)}")

    def progress(deal: DealResult) -> None:
        print(f"deal {deal.deal} done in {deal.seconds:.0f} s", file=sys.stderr, flush=True)
        if args.out:  # every deal as it comes, one JSON line each (a long run may be cut short)
            with open(args.out + ".partial", "a", encoding="utf-8") as handle:
                handle.write(json.dumps([[{"spec": s.spec, "scores": list(s.hand_scores)} for s in game]
                                         for game in deal.games]) + "\n")

    result = run_arena(rules, args.bot, args.games, seed=args.seed, jobs=args.jobs, progress=progress,
                       factory=make_split)
    print(format_table(result))
    print()
    for (first, second), table in by_hand_size(rules, result.specs, result.deal_results).items():
        print(f"{first} − {second}, per hand size:")
        for size, (mean, low, high) in table.items():
            print(f"  {size:2d} cards: {mean:+6.2f} [{low:+6.2f}, {high:+6.2f}]")
    if args.out:
        with open(args.out, "w", encoding="utf-8") as handle:
            json.dump({"specs": list(result.specs), "seed": args.seed,
                       "deals": [[[{"spec": s.spec, "scores": list(s.hand_scores)} for s in game]
                                  for game in deal.games] for deal in result.deal_results]}, handle)
    gap = paired_differences(result)[0]
    low, high = gap.ci_hand
    print(f"gap {gap.first}-{gap.second}={gap.mean_hand:.2f} ci95=[{low:.2f},{high:.2f}]")


if __name__ == "__main__":
    main()
