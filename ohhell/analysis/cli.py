"""``ohhell analyze RECORD`` and ``ohhell analyze one-card``.

``ohhell analyze RECORD`` is short for ``ohhell analyze game RECORD``. Exit codes: 0 done; 1 the
record is broken (format or rules); 2 a usage problem (no such file, bad options, rules without
a one-card hand).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import click

from ohhell.analysis.game_analysis import DEFAULT_BUDGET, MIN_BUDGET
from ohhell.i18n import N_, _


class AnalyzeGroup(click.Group):
    """``analyze`` with a subcommand, or with a record file (then ``game`` is meant)."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        if args and args[0] not in self.commands and (args[0] == "-" or not args[0].startswith("-")):  # "-": stdin
            args = ["game", *args]
        return super().parse_args(ctx, args)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        from ohhell.cli import _localized

        command = super().get_command(ctx, cmd_name)
        return _localized(command, ctx) if command is not None else None


@click.group("analyze", cls=AnalyzeGroup,
             help=N_("Analyse a game record (what happened, and what could have), or print the exact one-card "
                     "tables. 'ohhell analyze RECORD' is short for 'ohhell analyze game RECORD'."))
def analyze() -> None:
    """Analyse a game record, or print the exact one-card tables."""


@contextmanager
def progress_bar(show: bool, label: str) -> Iterator[Callable[[int, int], None] | None]:
    """A progress callback drawing a bar on standard error (``None`` when not shown)."""
    if not show:
        yield None
        return
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    with Progress(TextColumn(label), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                  console=Console(stderr=True), transient=True) as bar:
        task = bar.add_task(label, total=None)

        def update(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)

        yield update


def _load(record: str, as_json: bool) -> Any:
    from ohhell.errors import RecordError
    from ohhell.record import read_record_file

    try:
        return read_record_file(record)
    except OSError as error:
        raise click.BadParameter(str(error), param_hint="RECORD") from error
    except RecordError as error:
        _record_error(error, as_json)


def _record_error(error: Any, as_json: bool) -> None:
    if as_json:
        click.echo(json.dumps(error.to_json(), ensure_ascii=False))
    else:
        click.echo(f"{error.kind}: {error.message}", err=True)
    sys.exit(1)


@analyze.command("game", help=N_("Analyse a game record: with every card face up, which bids each player could "
                                 "make for certain, only with help, or not at all; and every decision reviewed by "
                                 "the strong bot from the player's own view, with its cost, the costliest ones "
                                 "labelled, and each player's accuracy."))
@click.argument("record", type=click.Path(dir_okay=False, allow_dash=True))
@click.option("--json", "as_json", is_flag=True, help=N_("Print the analysis as one JSON object."))
@click.option("--budget", type=click.IntRange(MIN_BUDGET), default=DEFAULT_BUDGET, show_default=True,
              help=N_("Depth of the analysis: the bot's simulations per card (twice that per bid); the open-hand "
                      "searches grow with it. Smaller is faster."))
@click.option("--seed", type=int, default=0, show_default=True, help=N_("Seed of the reviewing bot."))
@click.option("--jobs", type=click.IntRange(1), default=1, show_default=True,
              help=N_("Hands analysed in parallel processes."))
@click.option("--brief", is_flag=True, help=N_("Leave out the open-hand facts of every hand (text only)."))
@click.option("--progress/--no-progress", default=None,
              help=N_("Show a progress bar (default: on a terminal, and not with --json)."))
def game(record: str, as_json: bool, budget: int, seed: int, jobs: int, brief: bool, progress: bool | None) -> None:
    """Analyse a game record."""
    from ohhell.analysis.game_analysis import analyze_record
    from ohhell.analysis.text import format_analysis
    from ohhell.errors import RecordError

    data = _load(record, as_json)
    show = progress if progress is not None else (sys.stderr.isatty() and not as_json)
    try:
        with progress_bar(show, _("analysing")) as update:
            result = analyze_record(data, budget=budget, seed=seed, jobs=jobs, progress=update)
    except RecordError as error:
        _record_error(error, as_json)
        return
    if as_json:
        click.echo(json.dumps(result, ensure_ascii=False))
        return
    if not result["complete"]:
        click.echo(_("The game is not finished: the hands played so far are analysed."))
    click.echo(format_analysis(result, open_hands=not brief))


@analyze.command("one-card", help=N_("The exact one-card tables: for each place at the table and each card, the "
                                     "chance of taking the trick, the best bid, the chance of making it and the "
                                     "expected score, when everyone bids optimally and when the others bid at "
                                     "random."))
@click.option("--players", type=click.IntRange(3, 7), default=None,
              help=N_("Number of players (default: 4, or the preset's own)."))
@click.option("--preset", "preset_name", default="classic", show_default=True, help=N_("Preset name."))
@click.option("--set", "settings", multiple=True, metavar="KNOB=VALUE", help=N_("Override a rule knob."))
@click.option("--turned", default=None, metavar="CARD",
              help=N_("The turned card (e.g. 7H); default: averaged over every turned card."))
@click.option("--json", "as_json", is_flag=True, help=N_("Print the tables as one JSON object."))
@click.option("--csv", "csv_path", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help=N_("Also write the tables as CSV to this file."))
@click.option("--plot", "plot_stem", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help=N_("Also plot the chance of taking the trick by rank and place to STEM.png and STEM.svg "
                      "(needs matplotlib)."))
@click.option("--progress/--no-progress", default=None,
              help=N_("Show a progress bar (default: on a terminal, and not with --json)."))
def one_card(players: int | None, preset_name: str, settings: tuple[str, ...], turned: str | None, as_json: bool,
             csv_path: Path | None, plot_stem: Path | None, progress: bool | None) -> None:
    """The exact one-card tables."""
    from ohhell.analysis.one_card_output import equilibrium_json, format_equilibrium, format_table, plot, write_csv
    from ohhell.bots.exact_one_card import equilibrium, one_card_plan, solve_one_card
    from ohhell.cards import parse_card
    from ohhell.cli import build_rules
    from ohhell.errors import InvalidCardError

    rules = build_rules(preset_name, players, settings)
    show = progress if progress is not None else (sys.stderr.isatty() and not as_json)
    try:
        with progress_bar(show, _("counting")) as update:
            table = solve_one_card(rules, turned, progress=update)
    except InvalidCardError as error:
        raise click.BadParameter(str(error), param_hint="--turned") from error
    except ValueError as error:
        raise click.UsageError(str(error)) from error
    if csv_path is not None:
        try:
            write_csv(table, csv_path)
        except OSError as error:
            raise click.BadParameter(str(error), param_hint="--csv") from error
    if plot_stem is not None:
        try:
            plot(table, plot_stem)
        except (RuntimeError, OSError) as error:
            raise click.UsageError(str(error)) from error
    game = None
    if turned is not None or one_card_plan(rules).trump not in ("turn-up", "turn-up-low-none"):
        game = equilibrium(rules, parse_card(turned) if turned is not None else None)
    if as_json:
        data = table.to_json()
        data["equilibrium"] = equilibrium_json(game) if game is not None else None
        click.echo(json.dumps(data, ensure_ascii=False))
    else:
        click.echo(format_table(table))
        click.echo("")
        click.echo(format_equilibrium(game) if game is not None else _(
            "The equilibrium bids depend on the turned card: name one with --turned (e.g. --turned 7H)."))


__all__ = ["AnalyzeGroup", "analyze", "game", "one_card", "progress_bar"]
