"""Fair matches between bots: duplicate deals, confidence intervals, parallel processes.

In a duplicate match every deal (the seed of the game's chance events: the cut for the
first deal and every shuffle) is played once per rotation of the bots through the seats,
with the same cards, so that every bot holds every seat's cards once and luck of the deal
cancels out. For every bot the arena reports:

* the mean score per hand and per game, each with a 95% confidence interval (the unit of
  independence is the deal: each deal gives one mean per bot over its rotations);
* the share of bids made;
* wins: a game won alone counts 1, a win shared by k players 1/k each.

>>> from ohhell.rules import preset
>>> result = run_arena(preset("classic", players=3, schedule="explicit", hands=[[3, "turn-up"]]),
...                    ["basic", "random", "random"], games=4, seed=1)
>>> [bot.name for bot in result.bots], result.games_played
(['basic', 'random'], 12)

On the command line: ``ohhell arena --bots strong,basic,basic,basic --preset classic --games 200
--jobs 2 --seed 1``.
"""

from __future__ import annotations

import json
import math
import statistics
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any

import click

from ohhell.bots import Bot, Budget, make_bot
from ohhell.bots.driver import BotError, play_game
from ohhell.i18n import N_, _, ngettext
from ohhell.rules import Rules

Z95 = 1.959963984540054


@dataclass(frozen=True)
class SeatResult:
    """How one bot did in one game: its hand scores, bids made and bids, final total, win
    share, and whether it failed (an external program that a fallback bot replaced)."""

    spec: str
    hand_scores: tuple[int, ...]
    bids_made: int
    bids: int
    total: int
    win_share: float
    failed: bool = False


@dataclass(frozen=True)
class DealResult:
    """Every rotation of one deal: ``games[r][seat]``."""

    deal: int
    games: tuple[tuple[SeatResult, ...], ...]
    seconds: float


@dataclass
class BotStats:
    """The summary of one bot over a match."""

    name: str
    seats: int
    """How many seats this bot filled at each table."""
    hands: int = 0
    games: int = 0
    mean_hand: float = 0.0
    ci_hand: tuple[float, float] = (0.0, 0.0)
    mean_game: float = 0.0
    ci_game: tuple[float, float] = (0.0, 0.0)
    bids_made: int = 0
    bids: int = 0
    wins: float = 0.0
    failed_games: int = 0
    """Games in which the bot failed and a fallback bot finished for it (external programs)."""

    @property
    def made_share(self) -> float:
        return self.bids_made / self.bids if self.bids else 0.0

    @property
    def win_share(self) -> float:
        """Wins per game played by one seat of this bot."""
        return self.wins / self.games if self.games else 0.0

    def to_json(self) -> dict[str, Any]:
        return {
            "bot": self.name, "seats": self.seats, "hands": self.hands, "games": self.games,
            "score_per_hand": {"mean": self.mean_hand, "ci95": list(self.ci_hand)},
            "score_per_game": {"mean": self.mean_game, "ci95": list(self.ci_game)},
            "bids_made": self.bids_made, "bids": self.bids, "made_share": self.made_share,
            "wins": self.wins, "win_share": self.win_share, "failed_games": self.failed_games,
        }


@dataclass(frozen=True)
class PairedDifference:
    """Who is better: ``first`` − ``second`` over the same deals and the same seats.

    Each deal gives one difference — the first bot's mean over its seats and rotations minus
    the second's, with the same cards — and the deal is the unit of independence: ``mean`` is
    the mean of those differences and ``ci`` its 95 % confidence interval, per hand and per
    game. When the whole interval lies above 0, ``first`` beats ``second`` on these rules.
    """

    first: str
    second: str
    deals: int
    mean_hand: float
    ci_hand: tuple[float, float]
    mean_game: float
    ci_game: tuple[float, float]

    @property
    def mean(self) -> float:
        """The difference of points per hand (the figure the leaderboards rank by)."""
        return self.mean_hand

    @property
    def ci(self) -> tuple[float, float]:
        return self.ci_hand

    @property
    def verdict(self) -> str:
        """``better``, ``worse`` or ``undecided``: where the whole per-hand interval lies."""
        if self.ci_hand[0] > 0:
            return "better"
        if self.ci_hand[1] < 0:
            return "worse"
        return "undecided"

    def to_json(self) -> dict[str, Any]:
        return {"first": self.first, "second": self.second, "deals": self.deals,
                "difference_per_hand": {"mean": self.mean_hand, "ci95": list(self.ci_hand)},
                "difference_per_game": {"mean": self.mean_game, "ci95": list(self.ci_game)},
                "verdict": self.verdict}


@dataclass
class ArenaResult:
    """A whole match."""

    rules: Rules
    specs: tuple[str, ...]
    deals: int
    seed: int
    bots: list[BotStats] = field(default_factory=list)
    games_played: int = 0
    seconds: float = 0.0
    deal_results: list[DealResult] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {
            "rules": self.rules.to_json(), "bots": [bot.to_json() for bot in self.bots],
            "differences": [difference.to_json() for difference in paired_differences(self)],
            "seats": list(self.specs), "deals": self.deals, "games": self.games_played, "seed": self.seed,
            "seconds": round(self.seconds, 3),
        }


def deal_seed(seed: int, deal: int) -> int:
    """The seed of the chance events of deal number ``deal`` of a match seeded ``seed``."""
    return (seed * 1_000_003 + deal * 7_919 + 17) & 0x7FFFFFFFFFFFFFFF


def bot_seed(seed: int, deal: int, rotation: int, seat: int) -> int:
    """The seed of the bot at ``seat`` in one rotation of one deal."""
    return (deal_seed(seed, deal) * 131 + rotation * 11 + seat) & 0x7FFFFFFFFFFFFFFF


def rotation_specs(specs: Sequence[str], rotation: int) -> list[str]:
    """The bot spec of each seat in rotation ``rotation``: every bot moves one seat left."""
    n = len(specs)
    return [specs[(seat - rotation) % n] for seat in range(n)]


BotFactory = Callable[..., Bot]
"""Makes a bot from its spec: ``factory(spec, seed=…, budget=…)`` (default :func:`ohhell.bots.make_bot`)."""


def play_deal(rules: Rules, specs: Sequence[str], deal: int, seed: int,
              budget: Budget | None = None, factory: BotFactory | None = None) -> DealResult:
    """Play one deal in every rotation of the bots (the same cards each time); ``factory``
    makes the bots (for bots of your own, e.g. a trained policy)."""
    started = time.perf_counter()
    games = []
    chance_seed = deal_seed(seed, deal)
    make = factory or make_bot
    for rotation in range(len(specs)):
        seat_specs = rotation_specs(specs, rotation)
        bots = [make(spec, seed=bot_seed(seed, deal, rotation, seat), budget=budget)
                for seat, spec in enumerate(seat_specs)]
        try:
            state = play_game(rules, bots, seed=chance_seed)
        finally:
            for bot in bots:
                bot.close()
        failed = [bool(getattr(bot, "incidents", ())) for bot in bots]
        winners = state.winners()
        results = []
        for seat, spec in enumerate(seat_specs):
            scores = tuple(hand.scores[seat] for hand in state.finished_hands)
            bid_list = [hand.bids[seat] for hand in state.finished_hands if hand.bids[seat] is not None]
            made = sum(1 for hand in state.finished_hands
                       if hand.bids[seat] is not None and hand.bids[seat] == hand.tricks[seat])
            share = 1.0 / len(winners) if seat in winners else 0.0
            results.append(SeatResult(spec, scores, made, len(bid_list), state.totals[seat], share, failed[seat]))
        games.append(tuple(results))
    return DealResult(deal, tuple(games), time.perf_counter() - started)


def _play_deal_task(args: tuple[dict[str, Any], tuple[str, ...], int, int, Budget | None, BotFactory | None]
                    ) -> DealResult:
    rules_json, specs, deal, seed, budget, factory = args
    return play_deal(Rules.from_json(rules_json), specs, deal, seed, budget, factory)


def run_arena(rules: Rules, specs: Sequence[str], games: int, seed: int = 0, jobs: int = 1,
              budget: Budget | None = None, progress: Callable[[DealResult], None] | None = None,
              ray: str | None = None, factory: BotFactory | None = None) -> ArenaResult:
    """Play ``games`` deals, each in every rotation of ``specs`` through the seats, in ``jobs``
    processes — or as Ray tasks (``ray``: ``"local"`` for a local Ray cluster of ``jobs``
    workers, else a cluster's address; :mod:`ohhell.arena_ray`); ``progress`` is called after
    each deal. The result depends on neither ``jobs`` nor ``ray``. ``factory`` makes the bots
    from their specs (default :func:`ohhell.bots.make_bot`; with ``jobs`` > 1 or Ray it must be a
    module-level function, to reach the other processes)."""
    specs = tuple(specs)
    if len(specs) != rules.players:
        raise ValueError(f"{rules.players} players need {rules.players} bots, not {len(specs)}")
    if games < 1:
        raise ValueError("a match needs at least one game")
    started = time.perf_counter()
    results: list[DealResult] = []
    for result in _deal_results(rules, specs, games, seed, jobs, budget, ray, factory):
        results.append(result)
        if progress is not None:
            progress(result)
    results.sort(key=lambda r: r.deal)
    out = ArenaResult(rules=rules, specs=specs, deals=games, seed=seed, deal_results=results)
    out.bots = summarize(specs, results)
    out.games_played = sum(len(r.games) for r in results)
    out.seconds = time.perf_counter() - started
    return out


def _deal_results(rules: Rules, specs: tuple[str, ...], games: int, seed: int, jobs: int,
                  budget: Budget | None, ray: str | None = None, factory: BotFactory | None = None
                  ) -> Iterator[DealResult]:
    if ray is not None:
        from ohhell.arena_ray import ray_deal_results

        tasks = [(rules.to_json(), specs, deal, seed, budget, factory) for deal in range(games)]
        yield from ray_deal_results(_play_deal_task, tasks, ray, jobs)
        return
    if jobs <= 1:
        for deal in range(games):
            yield play_deal(rules, specs, deal, seed, budget, factory)
        return
    tasks = [(rules.to_json(), specs, deal, seed, budget, factory) for deal in range(games)]
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        yield from pool.map(_play_deal_task, tasks)


def _interval(values: Sequence[float]) -> tuple[float, tuple[float, float]]:
    mean = statistics.fmean(values) if values else 0.0
    if len(values) < 2:
        return mean, (mean, mean)
    half = Z95 * statistics.stdev(values) / math.sqrt(len(values))
    return mean, (mean - half, mean + half)


def summarize(specs: Sequence[str], results: Sequence[DealResult]) -> list[BotStats]:
    """Per-bot statistics (bots with the same spec are one bot filling several seats)."""
    names = list(dict.fromkeys(specs))
    stats = {name: BotStats(name=name, seats=specs.count(name)) for name in names}
    per_deal_hand: dict[str, list[float]] = {name: [] for name in names}
    per_deal_game: dict[str, list[float]] = {name: [] for name in names}
    for deal in results:
        hand_scores: dict[str, list[int]] = {name: [] for name in names}
        totals: dict[str, list[int]] = {name: [] for name in names}
        for game in deal.games:
            for seat in game:
                bot = stats[seat.spec]
                hand_scores[seat.spec].extend(seat.hand_scores)
                totals[seat.spec].append(seat.total)
                bot.hands += len(seat.hand_scores)
                bot.games += 1
                bot.bids_made += seat.bids_made
                bot.bids += seat.bids
                bot.wins += seat.win_share
                bot.failed_games += seat.failed
        for name in names:
            if hand_scores[name]:
                per_deal_hand[name].append(statistics.fmean(hand_scores[name]))
            if totals[name]:
                per_deal_game[name].append(statistics.fmean(totals[name]))
    for name in names:
        bot = stats[name]
        bot.mean_hand, bot.ci_hand = _interval(per_deal_hand[name])
        bot.mean_game, bot.ci_game = _interval(per_deal_game[name])
    return [stats[name] for name in names]


def paired_differences(result: ArenaResult) -> list[PairedDifference]:
    """For every pair of bots of a match (in the order of their first seats), the per-deal
    difference of their means with its 95 % interval (:class:`PairedDifference`).

    >>> from ohhell.rules import preset
    >>> result = run_arena(preset("classic", players=4, schedule="explicit", hands=[[4, "turn-up"]]),
    ...                    ["basic", "random", "basic", "random"], games=6, seed=1)
    >>> [(d.first, d.second, d.deals, d.verdict) for d in paired_differences(result)]
    [('basic', 'random', 6, 'better')]
    """
    names = list(dict.fromkeys(result.specs))
    hand_means: dict[str, list[float]] = {name: [] for name in names}
    game_means: dict[str, list[float]] = {name: [] for name in names}
    for deal in result.deal_results:
        hand_scores: dict[str, list[int]] = {name: [] for name in names}
        totals: dict[str, list[int]] = {name: [] for name in names}
        for game in deal.games:
            for seat in game:
                hand_scores[seat.spec].extend(seat.hand_scores)
                totals[seat.spec].append(seat.total)
        for name in names:
            hand_means[name].append(statistics.fmean(hand_scores[name]) if hand_scores[name] else math.nan)
            game_means[name].append(statistics.fmean(totals[name]) if totals[name] else math.nan)
    differences = []
    for index, first in enumerate(names):
        for second in names[index + 1:]:
            per_hand = [a - b for a, b in zip(hand_means[first], hand_means[second], strict=True)
                        if not (math.isnan(a) or math.isnan(b))]
            per_game = [a - b for a, b in zip(game_means[first], game_means[second], strict=True)]
            mean_hand, ci_hand = _interval(per_hand)
            mean_game, ci_game = _interval(per_game)
            differences.append(PairedDifference(first, second, len(per_game), mean_hand, ci_hand, mean_game, ci_game))
    return differences


def format_differences(result: ArenaResult) -> str:
    """The paired differences of a match as text: one line per pair of bots, so that "A beats
    B" is read off one line (translated)."""
    verdicts = {"better": _("%(first)s beats %(second)s"), "worse": _("%(second)s beats %(first)s"),
                "undecided": _("no difference shown")}
    headers = [_("A − B"), _("per hand"), _("95% CI"), _("per game"), _("95% CI"), _("verdict")]
    rows = []
    for difference in paired_differences(result):
        names = {"first": difference.first, "second": difference.second}
        rows.append([f"{difference.first} − {difference.second}", f"{difference.mean_hand:+.2f}",
                     f"[{difference.ci_hand[0]:+.2f}, {difference.ci_hand[1]:+.2f}]", f"{difference.mean_game:+.1f}",
                     f"[{difference.ci_game[0]:+.1f}, {difference.ci_game[1]:+.1f}]",
                     verdicts[difference.verdict] % names])
    widths = [max(len(str(row[i])) for row in [headers, *rows]) for i in range(len(headers))]
    return "\n".join("  ".join(str(cell).ljust(width) for cell, width in zip(row, widths, strict=True)).rstrip()
                     for row in [headers, *rows])


def format_table(result: ArenaResult) -> str:
    """The result as a text table (translated headings)."""
    headers = [_("bot"), _("score/hand"), _("95% CI"), _("score/game"), _("95% CI"), _("bids made"),
               _("wins/games")]
    rows = []
    for bot in result.bots:
        rows.append([
            bot.name if bot.seats == 1 else f"{bot.name} ×{bot.seats}",
            f"{bot.mean_hand:.2f}", f"[{bot.ci_hand[0]:.2f}, {bot.ci_hand[1]:.2f}]",
            f"{bot.mean_game:.1f}", f"[{bot.ci_game[0]:.1f}, {bot.ci_game[1]:.1f}]",
            f"{100 * bot.made_share:.1f}%",
            f"{bot.wins:.2f}".rstrip("0").rstrip(".") + f"/{bot.games} ({100 * bot.win_share:.1f}%)",
        ])
    widths = [max(len(str(row[i])) for row in [headers, *rows]) for i in range(len(headers))]
    lines = ["  ".join(str(cell).ljust(width) for cell, width in zip(row, widths, strict=True)).rstrip()
             for row in [headers, *rows]]
    summary = _("%(deals)d deals, %(games)d games (every deal once per rotation of the bots), seed %(seed)d, "
                "%(seconds).1f s") % {"deals": result.deals, "games": result.games_played, "seed": result.seed,
                                      "seconds": result.seconds}
    failures = [ngettext("%(bot)s failed in %(count)d game of %(games)d; a fallback bot finished it "
                         "(the warnings above say why), so its figures are not its own.",
                         "%(bot)s failed in %(count)d games of %(games)d; a fallback bot finished them "
                         "(the warnings above say why), so its figures are not its own.", bot.failed_games)
                % {"bot": bot.name, "count": bot.failed_games, "games": bot.games}
                for bot in result.bots if bot.failed_games]
    legend = _("wins/games: the games each bot won (a win shared by k players counts 1/k) of the games it "
               "played, and that share in per cent.")
    differences = [_("Paired differences (the same deals and seats; the deal is the unit):"),
                   format_differences(result)] if len(result.bots) > 1 else []
    return "\n".join([*lines, "", *differences, *([""] if differences else []), summary, legend, *failures])


def _split_specs(bots: str | None, bot: tuple[str, ...], args: Sequence[str] | None = None) -> list[str]:
    """The bot of each seat, in the order given on the command line: ``--bots`` lists are
    split at commas, each ``--bot`` is one spec; ``args`` are the command's arguments (without
    them ``--bots`` come first)."""
    def split(text: str) -> list[str]:
        return [part.strip() for part in text.split(",") if part.strip()]

    if args is not None:
        ordered: list[str] = []
        items = iter(args)
        for arg in items:
            if arg == "--":
                break
            name, sep, inline = arg.partition("=")
            if name not in ("--bots", "--bot"):
                continue
            value = inline if sep else next(items, "")
            ordered.extend(split(value) if name == "--bots" else [value])
        expected = (split(bots) if bots else []) + list(bot)
        if sorted(ordered) == sorted(expected):  # the same specs: only their order is taken from args
            return ordered
    specs: list[str] = []
    if bots:
        specs.extend(split(bots))
    specs.extend(bot)
    return specs


class _ArgsKeepingCommand(click.Command):
    """A command that remembers its raw arguments (to keep ``--bots`` and ``--bot`` in order)."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        ctx.meta["ohhell.arena.args"] = list(args)
        return super().parse_args(ctx, args)


@click.command("arena", cls=_ArgsKeepingCommand,
               help=N_("Duplicate matches between bots: every deal is played once per rotation of the bots "
                                "through the seats, with the same cards. Reports each bot's mean score per hand and "
                                "per game with 95% confidence intervals, the share of bids made and the wins (a "
                                "shared win counts 1/k)."))
@click.option("--bots", "bots_list", default=None, metavar="A,B,…",
              help=N_("The bots, one per seat, comma-separated (random, basic, strong, cmd:PROGRAM)."))
@click.option("--bot", "bot_specs", multiple=True, metavar="SPEC",
              help=N_("One more bot (repeatable; for specs that contain commas). Seats follow the order of "
                      "--bots and --bot on the command line."))
@click.option("--preset", "preset_name", default="classic", show_default=True, help=N_("Preset name."))
@click.option("--players", type=int, default=None, help=N_("Players (default: the number of bots)."))
@click.option("--set", "settings", multiple=True, metavar="KNOB=VALUE", help=N_("Override a rule knob."))
@click.option("--games", type=click.IntRange(1), default=20, show_default=True,
              help=N_("Deals to play; each is played once per rotation of the bots."))
@click.option("--jobs", type=click.IntRange(1), default=1, show_default=True,
              help=N_("Processes in parallel (with --ray: the local Ray cluster's workers)."))
@click.option("--ray", "ray_address", default=None, is_flag=False, flag_value="local", metavar="[ADDRESS]",
              help=N_("Play the deals as Ray tasks: on a local Ray cluster, or on the one at ADDRESS "
                      "(pip install -e '.[cluster]'). The results are the same as with --jobs."))
@click.option("--seed", type=int, default=0, show_default=True, help=N_("Seed of the deals and the bots."))
@click.option("--budget-ms", type=click.FloatRange(min=0, min_open=True), default=None,
              help=N_("Thinking time per decision, in milliseconds (not reproducible across machines)."))
@click.option("--iterations", type=click.IntRange(1), default=None,
              help=N_("Thinking per decision in iterations (worlds sampled by the strong bot)."))
@click.option("--json", "as_json", is_flag=True, help=N_("Print the result as one JSON object."))
@click.option("--progress/--no-progress", default=None, help=N_("Show a progress bar (default: on a terminal)."))
def arena_command(bots_list: str | None, bot_specs: tuple[str, ...], preset_name: str, players: int | None,
                  settings: tuple[str, ...], games: int, jobs: int, ray_address: str | None, seed: int,
                  budget_ms: float | None, iterations: int | None, as_json: bool, progress: bool | None) -> None:
    """Duplicate matches between bots: every deal is played once per rotation of the bots
    through the seats, with the same cards. Reports each bot's mean score per hand and per
    game with 95% confidence intervals, the share of bids made and the wins (a shared win
    counts 1/k)."""
    from ohhell.bots import BOT_LEVELS, EXTERNAL_PREFIX
    from ohhell.cli import build_rules

    specs = _split_specs(bots_list, bot_specs, click.get_current_context().meta.get("ohhell.arena.args"))
    if not specs:
        raise click.UsageError(_("name the bots with --bots A,B,C or --bot SPEC"))
    for spec in specs:
        if spec not in BOT_LEVELS and not spec.startswith(EXTERNAL_PREFIX):
            raise click.BadParameter(_("there is no bot called %(name)r; the bots are %(names)s and cmd:PROGRAM")
                                     % {"name": spec, "names": ", ".join(BOT_LEVELS)}, param_hint="--bots")
    rules = build_rules(preset_name, players if players is not None else len(specs), settings)
    if len(specs) != rules.players:
        raise click.BadParameter(_("%(players)d players need %(players)d bots, not %(count)d")
                                 % {"players": rules.players, "count": len(specs)}, param_hint="--bots")
    budget = None
    if budget_ms is not None or iterations is not None:
        budget = Budget(seconds=budget_ms / 1000 if budget_ms is not None else None, iterations=iterations)
    show = progress if progress is not None else sys.stderr.isatty()
    try:
        if show:
            from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

            with Progress(TextColumn(_("deals")), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                          console=_stderr_console(), transient=True) as bar:
                task = bar.add_task("arena", total=games)
                result = run_arena(rules, specs, games, seed=seed, jobs=jobs, budget=budget,
                                   progress=lambda _deal: bar.advance(task), ray=ray_address)
        else:
            result = run_arena(rules, specs, games, seed=seed, jobs=jobs, budget=budget, ray=ray_address)
    except BotError as error:
        click.echo(_("a bot broke the rules: %(error)s") % {"error": error}, err=True)
        sys.exit(1)
    except ValueError as error:
        raise click.UsageError(str(error)) from error
    except RuntimeError as error:  # Ray is missing, or its cluster cannot be reached
        raise click.ClickException(str(error)) from error
    if as_json:
        click.echo(json.dumps(result.to_json(), ensure_ascii=False))
    else:
        click.echo(format_table(result))
    always_failed = [bot.name for bot in result.bots if bot.games and bot.failed_games == bot.games]
    if always_failed:
        # The figures above are the fallback bot's: a script must not take them for the program's.
        click.echo(_("%(bots)s failed in every game: the figures are not theirs") % {"bots": ", ".join(always_failed)},
                   err=True)
        sys.exit(1)


def _stderr_console() -> Any:
    from rich.console import Console

    return Console(stderr=True)


__all__ = ["ArenaResult", "BotStats", "DealResult", "PairedDifference", "arena_command", "deal_seed",
           "format_differences", "paired_differences", "play_deal", "rotation_specs", "run_arena", "summarize"]
