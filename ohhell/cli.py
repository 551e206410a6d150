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

from ohhell.i18n import LANGUAGES, _, set_language

set_language()  # from the environment; --lang changes it before a command runs

# name -> "module:attribute" of commands defined elsewhere.
LAZY_COMMANDS: dict[str, str] = {
    "serve": "ohhell.server.cli:serve",
    "play": "ohhell.tui.cli:play",
    "score": "ohhell.tui.cli:score",
    "suggest": "ohhell.bots.cli:suggest",
    "arena": "ohhell.arena:arena_command",
    "bot-stdio": "ohhell.bots.external:bot_stdio_command",
}


class LazyGroup(click.Group):
    """A group whose commands are imported on first use."""

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
            return command if isinstance(command, click.Command) else _unavailable(cmd_name)
        return super().get_command(ctx, cmd_name)


def _unavailable(name: str) -> click.Command:
    @click.command(name=name, help=_("(not available in this version)"))
    def command() -> None:
        raise click.ClickException(_("the %(name)s command is not available in this version") % {"name": name})

    return command


def _set_lang(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    if value:
        set_language(value)
    return value


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--lang", type=click.Choice(LANGUAGES), callback=_set_lang, is_eager=True, expose_value=False,
              help="Language of messages (en, ru, uk, bg, ro, ky); default: LANG.")
@click.version_option(package_name="ohhell")
def main() -> None:
    """Oh Hell: play, keep score, replay records, and pit bots against each other."""


@main.command()
@click.argument("file", type=click.Path(exists=True, dir_okay=False, allow_dash=True))
@click.option("--json", "as_json", is_flag=True, help="Print the result as one JSON object.")
def replay(file: str, as_json: bool) -> None:
    """Replay a game record, check every rule, and print the scores.

    Exit code 0: a legal record (finished or not); 1: it breaks a rule or the format;
    2: a usage problem.
    """
    from ohhell.errors import RecordError
    from ohhell.record import load_record, replay_result, state_from_record
    from ohhell.textsheet import format_scoresheet

    try:
        with click.open_file(file, "rb") as handle:
            raw = handle.read()
        try:
            text = raw.decode("utf-8-sig")
        except UnicodeDecodeError as error:
            raise RecordError("bad-format", _("the record is not UTF-8 text: %(error)s") % {"error": error}) from error
        data = load_record(text)
        state = state_from_record(data)
        result = replay_result(state, started=len(data["hands"]))
    except RecordError as error:
        if as_json:
            click.echo(json.dumps(error.to_json(), ensure_ascii=False))
        else:
            where = ""
            if error.hand is not None:
                where = _("hand %(hand)d") % {"hand": error.hand}
                if error.index is not None:
                    where += ", " + _("position %(index)d") % {"index": error.index}
                where += ": "
            click.echo(f"{error.kind}: {where}{error.message}", err=True)
        sys.exit(1)
    if as_json:
        click.echo(json.dumps(result, ensure_ascii=False))
        return
    names = data.get("names") if isinstance(data, dict) else None
    click.echo(format_scoresheet(result, names))


@main.command()
@click.argument("name", required=False)
@click.option("--players", type=click.IntRange(3, 10), default=None, help="Explain for this many players.")
@click.option("--json", "as_json", is_flag=True, help="Print the knobs as JSON.")
def rules(name: str | None, players: int | None, as_json: bool) -> None:
    """List the presets, or explain one in plain words."""
    from ohhell.errors import RulesError
    from ohhell.explain import describe_rules, preset_summary
    from ohhell.rules import PRESETS, find_preset, preset

    if name is None:
        width = max(len(key) for key in PRESETS)
        for key in PRESETS:
            click.echo(f"{key:<{width}}  {preset_summary(key)}")
        return
    try:
        found = find_preset(name)
        count = players if players is not None else (4 if 4 in found.players else found.players[0])
        chosen = preset(found.name, players=count)
    except RulesError as error:
        raise click.BadParameter(str(error), param_hint="NAME" if error.knob == "preset" else "--players") from error
    if as_json:
        import dataclasses

        knobs = {f.name: getattr(chosen, f.name) for f in dataclasses.fields(chosen)}
        knobs["hands"] = [plan.to_json() for plan in chosen.hand_plans()]
        click.echo(json.dumps(knobs, default=list, ensure_ascii=False, indent=1))
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


def build_rules(preset_name: str, players: int, settings: tuple[str, ...]) -> Any:
    """Rules from command-line options, or a usage error naming the knob."""
    from ohhell.errors import RulesError
    from ohhell.rules import preset

    try:
        return preset(preset_name, players=players, **parse_knobs(settings))
    except RulesError as error:
        raise click.BadParameter(str(error), param_hint=f"'{error.knob}'") from error


@main.command()
@click.option("--preset", "preset_name", default="classic", show_default=True, help="Preset name.")
@click.option("--players", type=int, default=4, show_default=True)
@click.option("--seed", type=int, default=None, help="Seed for a reproducible game.")
@click.option("--set", "settings", multiple=True, metavar="KNOB=VALUE", help="Override a rule knob.")
@click.option("--derived", is_flag=True, help="Add tricks, scores, totals and winners to the record.")
def deal(preset_name: str, players: int, seed: int | None, settings: tuple[str, ...], derived: bool) -> None:
    """Play a whole game with random legal moves and print its record."""
    from ohhell.record import dump_record, play_random_game, record_from_state

    rules_value = build_rules(preset_name, players, settings)
    state = play_random_game(rules_value, seed=seed)
    click.echo(dump_record(record_from_state(state, derived=derived)))


if __name__ == "__main__":  # pragma: no cover
    main()
