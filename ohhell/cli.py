"""The ``ohhell`` command.

Commands live in their own modules and are imported only when used, so that
``ohhell replay`` starts fast and does not need the web or terminal stacks.
"""

from __future__ import annotations

import importlib
import json
import sys
from typing import Any

import click

from ohhell.i18n import LANGUAGES, N_, _, set_language, translate_click

set_language()  # from the environment; --lang changes it before a command runs
translate_click()  # click's own texts (Usage:, Options, its error messages) from our catalogs

# name -> "module:attribute" of commands defined elsewhere.
LAZY_COMMANDS: dict[str, str] = {
    "serve": "ohhell.server.cli:serve",
    "play": "ohhell.tui.cli:play",
    "score": "ohhell.tui.cli:score",
    "suggest": "ohhell.bots.cli:suggest",
    "arena": "ohhell.arena:arena_command",
    "bot-stdio": "ohhell.bots.external:bot_stdio_command",
    "language": "ohhell.i18n_cli:language",
    "analyze": "ohhell.analysis.cli:analyze",
    "verify": "ohhell.verify_cli:verify",
}


class LazyGroup(click.Group):
    """A group whose commands are imported on first use, and whose help speaks the language
    chosen with ``--lang`` (which may stand anywhere on the command line)."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(set(super().list_commands(ctx)) | set(LAZY_COMMANDS))

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name in LAZY_COMMANDS:
            module_name, attribute = LAZY_COMMANDS[cmd_name].split(":")
            try:
                module = importlib.import_module(module_name)
            except ModuleNotFoundError as error:
                if not (error.name or "").startswith("ohhell"):
                    raise
                return _unavailable(cmd_name)
            command = getattr(module, attribute, None)
            found: click.Command | None = command if isinstance(command, click.Command) else _unavailable(cmd_name)
        else:
            found = super().get_command(ctx, cmd_name)
        return _localized(found, ctx) if found is not None else None

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        # --lang is taken out wherever it stands (``ohhell play --lang ky`` as well as
        # ``ohhell --lang ky play``) and applied before any help or message is printed.
        args = _take_language(self, ctx, args)
        _localized(self, ctx)
        return super().parse_args(ctx, args)


_CLICK_HELP = {"help": N_("Show this message and exit."), "version": N_("Show the version and exit.")}


def _localized(command: click.Command, ctx: click.Context) -> click.Command:
    """Translate the help texts of ``command`` and its options into the language now in force.

    Help texts are written in English and marked with ``N_`` where a command is defined; they
    are translated here, when the command is looked up or its help is shown, so that the
    language chosen on this command line applies whatever was imported before.
    """
    help_option = command.get_help_option(ctx)
    for item in (command, *command.get_params(ctx)):
        if not hasattr(item, "help"):  # arguments have no help of their own
            continue
        # click makes --help and --version with texts already translated (through the gettext
        # that i18n.translate_click installs): their English source is click's.
        default = None
        if item is help_option:
            default = _CLICK_HELP["help"]
        elif isinstance(item, click.Option) and item.is_eager and "--version" in item.opts:
            default = _CLICK_HELP["version"]
        source = item.__dict__.setdefault("_ohhell_help_source", default or item.help)
        if source:
            item.help = _(source)
    for param in command.get_params(ctx):
        if isinstance(param.type, click.Path):
            # click names the kind of path ("File '…' does not exist.") when the option is made,
            # in the language of that moment: name it again in the language now in force.
            kind = param.type
            kind.name = (_("file") if kind.file_okay and not kind.dir_okay
                         else _("directory") if kind.dir_okay and not kind.file_okay else _("path"))
    return command


def _take_language(group: click.Group, ctx: click.Context, args: list[str]) -> list[str]:
    """``args`` without its ``--lang CODE`` options, the last of which sets the language."""
    kept: list[str] = []
    chosen: str | None = None
    index = 0
    while index < len(args):
        arg = args[index]
        if arg == "--":
            kept.extend(args[index:])
            break
        if arg == "--lang" and index + 1 < len(args):
            chosen = args[index + 1]
            index += 2
            continue
        if arg.startswith("--lang="):
            chosen = arg.split("=", 1)[1]
            index += 1
            continue
        kept.append(arg)
        index += 1
    if chosen is not None:
        param = next(p for p in group.params if p.name == "lang")
        set_language(click.Choice(LANGUAGES).convert(chosen, param, ctx))
    else:  # the environment of this invocation (OHHELL_LANG, the remembered language, LANG)
        set_language()
    return kept


def _unavailable(name: str) -> click.Command:
    @click.command(name=name, help=_("(not available in this version)"))
    def command() -> None:
        raise click.ClickException(_("the %(name)s command is not available in this version") % {"name": name})

    return command


def _show_version(ctx: click.Context, param: click.Parameter, value: bool) -> None:
    # click's version_option fixes its message when the module is imported; this one speaks
    # the language chosen on the command line.
    if not value or ctx.resilient_parsing:
        return
    from importlib.metadata import version

    click.echo(_("%(prog)s, version %(version)s") % {"prog": ctx.find_root().info_name, "version": version("ohhell")})
    ctx.exit()


def _set_lang(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    if value:
        set_language(value)
    return value


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]},
             help=N_("Oh Hell: play, keep score, replay records, and pit bots against each other."))
@click.option("--lang", type=click.Choice(LANGUAGES), callback=_set_lang, is_eager=True, expose_value=False,
              help=N_("Language of messages and screens (en, ru, uk, bg, ro, ky); default: the one remembered "
                      "with 'ohhell language', else LANG."))
@click.option("--version", is_flag=True, expose_value=False, is_eager=True, callback=_show_version,
              help=N_("Show the version and exit."))
def main() -> None:
    """Oh Hell: play, keep score, replay records, and pit bots against each other."""


@main.command(help=N_("Replay a game record, check every rule, and print the scores.\n\n"
                      "Exit code 0: a legal record (finished or not); 1: it breaks a rule or the format; "
                      "2: a usage problem."))
@click.argument("file", type=click.Path(exists=True, dir_okay=False, allow_dash=True))
@click.option("--json", "as_json", is_flag=True, help=N_("Print the result as one JSON object."))
def replay(file: str, as_json: bool) -> None:
    """Replay a game record, check every rule, and print the scores."""
    from ohhell.errors import RecordError
    from ohhell.record import read_record_file, replay_result, state_from_record
    from ohhell.textsheet import format_scoresheet

    try:
        data = read_record_file(file)
        state = state_from_record(data)
        result = replay_result(state, started=len(data["hands"]))
    except RecordError as error:
        if as_json:
            click.echo(json.dumps(error.to_json(), ensure_ascii=False))
        else:
            # People count from 1 (hand 1 is the first); the JSON keeps the record's 0-based indexes.
            values = {"kind": error.kind, "message": error.message,
                      "hand": None if error.hand is None else error.hand + 1,
                      "index": None if error.index is None else error.index + 1}
            if error.hand is not None and error.index is not None:
                text = _("%(kind)s: hand %(hand)d, position %(index)d: %(message)s") % values
            elif error.hand is not None:
                text = _("%(kind)s: hand %(hand)d: %(message)s") % values
            else:
                text = _("%(kind)s: %(message)s") % values
            click.echo(text, err=True)
        sys.exit(1)
    if as_json:
        click.echo(json.dumps(result, ensure_ascii=False))
        return
    names = data.get("names") if isinstance(data, dict) else None
    click.echo(format_scoresheet(result, names))


@main.command(help=N_("List the presets, or explain one in plain words."))
@click.argument("name", required=False)
@click.option("--players", type=click.IntRange(3, 10), default=None, help=N_("Explain for this many players."))
@click.option("--json", "as_json", is_flag=True, help=N_("Print the knobs as JSON."))
def rules(name: str | None, players: int | None, as_json: bool) -> None:
    """List the presets, or explain one in plain words."""
    from ohhell.errors import RulesError
    from ohhell.explain import describe_rules, preset_summary
    from ohhell.rules import PRESETS, default_players, find_preset, preset

    if name is None:
        width = max(len(key) for key in PRESETS)
        for key in PRESETS:
            click.echo(f"{key:<{width}}  {preset_summary(key)}")
        return
    try:
        found = find_preset(name)
        chosen = preset(found.name, players=players if players is not None else default_players(found.name))
    except RulesError as error:
        raise click.BadParameter(str(error), param_hint="NAME" if error.knob == "preset" else "--players") from error
    if as_json:
        # Every knob, as a record's rules object names them, so that Rules.from_json reads it back.
        click.echo(json.dumps(chosen.to_json(every_knob=True), ensure_ascii=False, indent=1))
        return
    click.echo(f"{found.name} — {preset_summary(found.name)}")
    click.echo()
    for topic, sentence in describe_rules(chosen):
        click.echo(click.style(topic, bold=True))
        click.echo(click.wrap_text(sentence, width=78, initial_indent="  ", subsequent_indent="  "))


def parse_knobs(settings: tuple[str, ...]) -> dict[str, Any]:
    """``KNOB=VALUE`` pairs, each value read as JSON when it can be (``hook=false``, ``max_size=7``)."""
    knobs: dict[str, Any] = {}
    for setting in settings:
        if "=" not in setting:
            raise click.BadParameter(_("expected KNOB=VALUE, not %(setting)r") % {"setting": setting},
                                     param_hint="--set")
        key, value = setting.split("=", 1)
        try:
            knobs[key.strip().replace("-", "_")] = json.loads(value)
        except json.JSONDecodeError:
            knobs[key.strip().replace("-", "_")] = value
    return knobs


def build_rules(preset_name: str, players: int | None, settings: tuple[str, ...]) -> Any:
    """Rules from command-line options, or a usage error naming the knob (without ``--players``,
    the preset's own player count)."""
    from ohhell.errors import RulesError
    from ohhell.rules import default_players, preset

    knobs = parse_knobs(settings)
    if "players" in knobs or "preset" in knobs:
        key = "players" if "players" in knobs else "preset"
        raise click.BadParameter(_("set %(knob)s with --%(knob)s, not with --set") % {"knob": key},
                                 param_hint="--set")
    try:
        count = players if players is not None else default_players(preset_name)
        return preset(preset_name, players=count, **knobs)
    except RulesError as error:
        raise click.BadParameter(str(error), param_hint=f"'{error.knob}'") from error


@main.command(help=N_("Play a whole game with random legal moves and print its record."))
@click.option("--preset", "preset_name", default="classic", show_default=True, help=N_("Preset name."))
@click.option("--players", type=int, default=None, help=N_("Number of players (default: 4, or the preset's own)."))
@click.option("--seed", type=int, default=None, help=N_("Seed for a reproducible game."))
@click.option("--set", "settings", multiple=True, metavar="KNOB=VALUE", help=N_("Override a rule knob."))
@click.option("--derived", is_flag=True, help=N_("Add tricks, scores, totals and winners to the record."))
def deal(preset_name: str, players: int | None, seed: int | None, settings: tuple[str, ...], derived: bool) -> None:
    """Play a whole game with random legal moves and print its record."""
    from ohhell.record import dump_record, play_random_game, record_from_state

    rules_value = build_rules(preset_name, players, settings)
    state = play_random_game(rules_value, seed=seed)
    click.echo(dump_record(record_from_state(state, derived=derived)))


if __name__ == "__main__":  # pragma: no cover
    main()
