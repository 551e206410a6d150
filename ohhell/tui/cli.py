"""The commands ``ohhell play`` and ``ohhell score`` (registered lazily by :mod:`ohhell.cli`)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from ohhell.i18n import N_, _, ngettext


def _rules(preset_name: str, players: int | None, settings: tuple[str, ...], **extra: Any) -> Any:
    from ohhell.cli import parse_knobs
    from ohhell.errors import RulesError
    from ohhell.rules import default_players, preset

    knobs = parse_knobs(settings)
    knobs.update(extra)
    try:
        count = players if players is not None else default_players(preset_name)
        return preset(preset_name, players=count, **knobs)
    except RulesError as error:
        hint = "--preset" if error.knob == "preset" else "--players" if error.knob == "players" else "--set"
        raise click.BadParameter(str(error), param_hint=hint) from error


@click.command(help=N_("Play Oh Hell against bots in the terminal.\n\n"
                       "The game is saved when you quit (Esc or Ctrl+Q) and after every hand; resume it with "
                       "--resume. Keys: ←/→ or a rank letter pick a card, digits pick a bid, Enter plays or bids, "
                       "h hint, c claim, u take back, p scores, s speed, x export, r rules, ? keys."))
@click.option("--preset", "preset_name", default="classic", show_default=True,
              help=N_("Preset name (see ohhell rules)."))
@click.option("--players", type=click.IntRange(2, 7), default=None,
              help=N_("Players, you included (default: 4, or the preset's own)."))
@click.option("--bots", default=None, metavar="LEVEL",
              help=N_("Bot level: random, beginner, casual, basic (club player), strong (expert); "
                      "default: the strongest installed."))
@click.option("--seed", type=int, default=None, help=N_("Seed of the deals, for a reproducible game."))
@click.option("--resume", default=None, is_flag=False, flag_value="", metavar="[FILE]",
              help=N_("Resume a saved game (without FILE: the last one not finished)."))
@click.option("--set", "settings", multiple=True, metavar="KNOB=VALUE", help=N_("Override a rule knob."))
@click.option("--name", default=None, help=N_("Your name at the table."))
@click.option("--take-back/--no-take-back", default=None,
              help=N_("Allow taking back your last card (off by default)."))
@click.option("--speed", type=click.Choice(["slow", "normal", "fast", "instant"]), default=None,
              help=N_("How fast the bots play (default: normal)."))
@click.option("--think", type=float, default=None, metavar="SECONDS",
              help=N_("How long a bot may think per decision (default: the bot's own)."))
@click.option("--save", "save_file", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help=N_("Where to save the game (default: the user's data directory)."))
def play(preset_name: str, players: int | None, bots: str | None, seed: int | None, resume: str | None,
         settings: tuple[str, ...], name: str | None, take_back: bool | None, speed: str | None,
         think: float | None, save_file: Path | None) -> None:
    """Play Oh Hell against bots in the terminal (the help text is above, translated)."""
    from ohhell.tui.play_app import run_play
    from ohhell.tui.session import (
        SPEEDS,
        PlaySession,
        SessionError,
        TableOptions,
        default_names,
        latest_save,
        strongest_bot,
    )

    def options(base: TableOptions | None = None) -> TableOptions:
        chosen = base or TableOptions()
        if take_back is not None:
            chosen.take_back = take_back
        if speed is not None:
            chosen.delay = SPEEDS[speed]
        if think is not None:
            chosen.budget_seconds = think
        return chosen

    try:
        if resume is not None:
            path = Path(resume) if resume else latest_save()
            if path is None:
                raise click.ClickException(_("there is no saved game to resume"))
            session = PlaySession.load(path)
            chosen = options(session.options)  # the saved options, with the ones given now
            if think is not None:  # the bots take their budget when they are made
                session.close()
                session = PlaySession.load(path, options=chosen)
            if save_file is not None:
                session.save_path = save_file
            new_rules = session.rules
            level = session.bot_level
            you = session.names[session.human]
        else:
            new_rules = _rules(preset_name, players, settings)
            level = bots or strongest_bot()
            you = name or _("You")
            session = PlaySession.new(new_rules, bots=level, seed=seed, options=options(),
                                      names=default_names(new_rules.players, 0, you), save_path=save_file)
    except SessionError as error:
        raise click.ClickException(str(error)) from error

    def new_session() -> PlaySession:
        return PlaySession.new(new_rules, bots=level, options=session.options,
                               names=default_names(new_rules.players, 0, you))

    saved = run_play(session, new_session)
    if saved:
        click.echo(_("The game is saved in %(path)s") % {"path": saved})
        if _finished(Path(saved)):
            # A finished game has nothing left to resume: its record can be replayed or analysed.
            click.echo(_("The game is over; its record is in the file (ohhell replay, ohhell analyze)."))
        else:
            click.echo(_("Resume it with: ohhell play --resume %(path)s") % {"path": saved})


def _finished(path: Path) -> bool:
    """Whether the game saved in ``path`` is over (an unreadable file: not known to be)."""
    from ohhell.tui.session import PlaySession, SessionError

    try:
        session = PlaySession.load(path)
    except (OSError, SessionError):
        return False
    session.close()
    return session.state.is_terminal()


@click.command(help=N_("Keep score of a game played with real cards.\n\n"
                       "Without options it opens the list of saved games (n starts a new one). Every change is "
                       "saved at once in the user's data directory. Export a game as an ohhell/1 record or CSV "
                       "with x."))
@click.option("--preset", "preset_name", default="classic", show_default=True, help=N_("Preset of a new game."))
@click.option("--players", type=click.IntRange(3, 10), default=None, help=N_("Players of a new game (3–10)."))
@click.option("--names", default=None, metavar="A,B,C",
              help=N_("Start a new game at once with these players (comma-separated, in seat order)."))
@click.option("--first-dealer", type=int, default=1, show_default=True,
              help=N_("Who deals first in a new game (1 = the first name)."))
@click.option("--set", "settings", multiple=True, metavar="KNOB=VALUE",
              help=N_("Override a rule knob of a new game (e.g. max_size=7, hook=false)."))
@click.option("--resume", default=None, is_flag=False, flag_value="", metavar="[ID]",
              help=N_("Resume a saved game (without ID: the last one changed)."))
@click.option("--list", "list_games", is_flag=True, help=N_("List the saved games and exit."))
def score(preset_name: str, players: int | None, names: str | None, first_dealer: int,
          settings: tuple[str, ...], resume: str | None, list_games: bool) -> None:
    """Keep score of a game played with real cards (the help text is above, translated)."""
    from ohhell.rules import MAX_PLAYERS_REAL_CARDS, MIN_PLAYERS
    from ohhell.scorekeeper import ScoreError, ScoreSheet, ScoreStore, checked_names
    from ohhell.tui.score_app import run_score

    store = ScoreStore()
    if list_games:
        saved = store.list()
        if not saved:
            click.echo(_("No saved games in %(path)s") % {"path": store.directory})
        for game in saved:
            state = _("finished") if game.finished else _("in progress")
            click.echo(f"{game.id}  {game.preset:<12} {', '.join(game.names)}  "
                       + ngettext("%(hands)d hand, %(state)s", "%(hands)d hands, %(state)s", game.hands_done)
                       % {"hands": game.hands_done, "state": state})
        return
    sheet: ScoreSheet | None = None
    sheet_id: str | None = None
    if resume is not None:
        if resume:
            sheet_id = resume
        else:
            saved = store.list()
            if not saved:
                raise click.ClickException(_("there is no saved game to resume"))
            sheet_id = saved[0].id
        try:
            sheet = store.load(sheet_id)
        except ScoreError as error:
            raise click.ClickException(str(error)) from error
    elif names:
        seats = [part.strip() for part in names.split(",") if part.strip()]
        count = len(seats)
        if players is not None and players != count:
            raise click.BadParameter(_("%(n)d names for %(players)d players") % {"n": count, "players": players},
                                     param_hint="--names")
        if not MIN_PLAYERS <= count <= MAX_PLAYERS_REAL_CARDS:
            raise click.BadParameter(ngettext("give %(min)d to %(max)d names, one per player (%(n)d name given)",
                                              "give %(min)d to %(max)d names, one per player (%(n)d names given)",
                                              count) % {"min": MIN_PLAYERS, "max": MAX_PLAYERS_REAL_CARDS, "n": count},
                                     param_hint="--names")
        try:
            seats = checked_names(seats)
        except ScoreError as error:
            raise click.BadParameter(str(error), param_hint="--names") from error
        extra: dict[str, Any] = {"real_cards": True} if count > 7 else {}
        rules = _rules(preset_name, count, settings, **extra)
        if not 1 <= first_dealer <= count:
            raise click.BadParameter(_("choose a player from 1 to %(n)d") % {"n": count}, param_hint="--first-dealer")
        try:
            sheet = ScoreSheet(rules, seats, first_dealer=first_dealer - 1)
        except ScoreError as error:
            raise click.ClickException(str(error)) from error
        sheet_id = store.new_id()
        store.save(sheet_id, sheet)
    left = run_score(store, sheet, sheet_id, defaults={"preset": preset_name, "players": players or 4})
    if left:
        click.echo(_("The game is saved. Go on with it with: ohhell score --resume %(id)s") % {"id": left})
