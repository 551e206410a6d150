"""The fields of the site's forms, read once for every route that takes them: a person's name,
the rules (a preset and its knobs), the turn timer.

Each reader raises a :class:`ValueError` whose message (in the request's language) says what is
wrong; the routes answer it with a 400.
"""

from __future__ import annotations

import dataclasses
import typing
from typing import Any, Final

from ohhell.errors import RulesError
from ohhell.explain import describe_rules
from ohhell.i18n import _
from ohhell.rules import Rules, preset
from ohhell.server.config import ServerConfig
from ohhell.server.live.seats import TIMER_MODES
from ohhell.server.texts import KNOB_LABELS

WEB_KNOBS: Final = tuple(KNOB_LABELS)
"""The rule knobs a table's creator may set (``real_cards`` is the scorekeeper's)."""


class BadName(ValueError):
    """A name that cannot be shown as it was given (its message, translated, says why)."""


class BadTimer(ValueError):
    """A turn timer that is not one of the modes nor a number of seconds within the limit."""


def person_name(value: Any, limit: int) -> str | None:
    """A person's name as given, with runs of white space made one space and cut to ``limit``
    characters; ``None`` if it is empty or not a text. Raise :class:`BadName` for a name with
    control characters or lone surrogates: stored, they would break a database or a screen."""
    if not isinstance(value, str):
        return None
    if any(not (ch.isprintable() or ch.isspace()) for ch in value) or any(ch in "\n\r\t\v\f" for ch in value):
        raise BadName(_("a name may not contain control characters"))
    name = " ".join(value.split())[:limit]
    return name or None


def turn_timer(data: dict[str, Any], config: ServerConfig) -> float:
    """The turn timer a form asks for: ``timer_mode`` (one of :data:`TIMER_MODES`), else
    ``timer`` seconds (0: none; the server's default when absent). Raise :class:`BadTimer`."""
    mode = data.get("timer_mode")
    if mode is not None:
        if mode not in TIMER_MODES:
            raise BadTimer(_("the timer must be one of: %(modes)s") % {"modes": ", ".join(TIMER_MODES)})
        return TIMER_MODES[mode]
    timer = data.get("timer", config.default_timer)
    if not isinstance(timer, (int, float)) or isinstance(timer, bool) or not 0 <= timer <= config.max_timer:
        raise BadTimer(_("the turn timer must be from 0 to %(max)d seconds") % {"max": config.max_timer})
    return float(timer)


def rules_from_request(data: dict[str, Any], real_cards: bool = False) -> Rules:
    """Rules from a form: ``preset``, ``players`` and ``knobs`` (only the offered ones)."""
    name = data.get("preset", "classic")
    players = data.get("players", 4)
    knobs = data.get("knobs") or {}
    if not isinstance(name, str) or not isinstance(players, int) or not isinstance(knobs, dict):
        raise RulesError("rules", _("give a preset name, a number of players and an object of knobs"))
    for knob in knobs:
        if knob not in WEB_KNOBS:
            raise RulesError(str(knob), _("this rule cannot be set here"))
    if real_cards:
        knobs = {**knobs, "real_cards": True}
    return preset(name, players=players, **knobs)


def knob_schema() -> list[dict[str, Any]]:
    """The rule knobs a table form offers: name, kind (``choice``, ``bool``, ``int``,
    ``number``, ``json``), the choices, whether it may be empty."""
    hints = typing.get_type_hints(Rules)
    out = []
    for f in dataclasses.fields(Rules):
        if f.name not in WEB_KNOBS:
            continue
        hint = hints[f.name]
        args = typing.get_args(hint)
        entry: dict[str, Any] = {"name": f.name, "optional": type(None) in args}
        if hint is bool:
            entry["kind"] = "bool"
        elif typing.get_origin(hint) is typing.Literal:
            entry.update(kind="choice", choices=list(args))
        elif f.name == "max_size":
            literal = next(arg for arg in args if typing.get_origin(arg) is typing.Literal)
            entry.update(kind="choice", choices=list(typing.get_args(literal)), number=True)
        elif f.name == "fixed_trump":
            entry.update(kind="choice", choices=["S", "H", "D", "C"])
        elif int in args or hint is int:
            entry["kind"] = "int"
        elif float in args:
            entry["kind"] = "number"
        else:
            entry["kind"] = "json"
        out.append(entry)
    return out


def _knob_value(value: Any) -> Any:
    if isinstance(value, tuple):
        return [_knob_value(item) for item in value]
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return [getattr(value, f.name) for f in dataclasses.fields(value)]
    return value


def _changed_knobs(rules: Rules) -> list[str]:
    """The knobs whose value differs from the preset's (the lobby's one-line summary names them)."""
    if rules.real_cards:
        return []
    base = preset(rules.preset, players=rules.players)
    return [name for name in WEB_KNOBS if getattr(rules, name) != getattr(base, name)]


def rules_json(rules: Rules) -> dict[str, Any]:
    """Rules as the forms show them: the record's rules, the knobs' values, the hand sizes, the
    knobs that would do nothing here (with why), the knobs changed from the preset, and the
    rules in plain words."""
    knobs = {f.name: _knob_value(getattr(rules, f.name)) for f in dataclasses.fields(rules) if f.name in WEB_KNOBS}
    return {"record": rules.to_json(), "knobs": knobs, "hand_sizes": [plan.size for plan in rules.hand_plans()],
            "inert": {knob: reason for knob, reason in rules.inert_knobs().items() if knob in WEB_KNOBS},
            "changed": _changed_knobs(rules),
            "described": [list(pair) for pair in describe_rules(rules)]}
