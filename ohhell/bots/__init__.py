"""Bots: players that see one seat's view (never the hidden state) and choose an action.

>>> from ohhell.rules import preset
>>> from ohhell.bots import make_bot
>>> from ohhell.bots.driver import play_game
>>> state = play_game(preset("classic", players=3), [make_bot("random", seed=s) for s in range(3)], seed=1)
>>> state.is_terminal()
True

Levels are found by name (:func:`make_bot`), weakest first: ``random``, ``beginner``,
``casual``, ``basic`` (shown to people as the club player; also called ``club``) and
``strong`` (the expert; also ``expert``), and ``cmd:PROGRAM`` for a bot in any language
speaking the line-delimited JSON protocol of ``docs/bot-protocol.md``. Their measured
strength is in docs/bots.md.
"""

from __future__ import annotations

import importlib
import importlib.util
from typing import Any, Final

from ohhell.bots.base import Bot, Budget, Suggestion

BOT_LEVELS: Final[dict[str, str]] = {
    "random": "ohhell.bots.random_bot:RandomBot",
    "beginner": "ohhell.bots.people:BeginnerBot",
    "casual": "ohhell.bots.people:CasualBot",
    "learned": "ohhell.integrations.learned:LearnedBot",
    "basic": "ohhell.bots.basic:BasicBot",
    "strong": "ohhell.bots.strong:StrongBot",
    "club": "ohhell.bots.basic:BasicBot",
    "expert": "ohhell.bots.strong:StrongBot",
}
"""Bot levels by name, weakest first: ``module:class`` imported on first use. ``club`` and
``expert`` are other names of ``basic`` and ``strong`` (:data:`ALIASES`)."""

ALIASES: Final[dict[str, str]] = {"club": "basic", "expert": "strong"}
"""Other names people may type for a level; menus list each level once, by its own name."""

EXTERNAL_PREFIX: Final = "cmd:"


def bot_names() -> list[str]:
    """The names of the bot levels that are installed."""
    names = []
    for name, target in BOT_LEVELS.items():
        if name in ALIASES:
            continue
        module_name = target.split(":")[0]
        if importlib.util.find_spec(module_name) is not None:
            names.append(name)
    return names


def strongest_bot() -> str:
    """The name of the strongest installed level: the one that gives hints.

    >>> strongest_bot()
    'strong'
    """
    installed = bot_names()
    return next((level for level in reversed(BOT_LEVELS) if level in installed), "random")


def make_bot(spec: str, seed: int | None = None, budget: Budget | None = None, **options: Any) -> Bot:
    """A bot from its name (``random``, ``basic``, ``strong``) or ``cmd:PROGRAM ARGS`` for an
    external bot; ``seed`` makes it reproducible, ``budget`` limits its thinking."""
    if spec.startswith(EXTERNAL_PREFIX):
        external = importlib.import_module("ohhell.bots.external")
        bot_from_command: Bot = external.ExternalBot(spec[len(EXTERNAL_PREFIX):], seed=seed, budget=budget,
                                                     **options)
        return bot_from_command
    if spec not in BOT_LEVELS:
        raise ValueError(f"there is no bot called {spec!r}; the bots are {', '.join(BOT_LEVELS)} "
                         f"and {EXTERNAL_PREFIX}PROGRAM")
    spec = ALIASES.get(spec, spec)
    module_name, class_name = BOT_LEVELS[spec].split(":")
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as error:
        if error.name == module_name:
            raise ValueError(f"the {spec} bot is not available in this version") from error
        raise
    bot_class = getattr(module, class_name)
    bot: Bot = bot_class(seed=seed, budget=budget, **options)
    return bot


__all__ = ["ALIASES", "BOT_LEVELS", "Bot", "Budget", "Suggestion", "bot_names", "make_bot", "strongest_bot"]
