"""What people say at a table: chat lines and quick reactions, checked and made fit to show."""

from __future__ import annotations

from typing import Any, Final

from ohhell.server.wire.protocol import ProtocolError

CHAT_KEPT: Final = 50
"""How many chat lines a table keeps in memory and sends to a new connection."""
MAX_CHAT_LENGTH: Final = 300
REACTIONS: Final = ("👍", "👏", "😮", "😂", "😢", "🔥")
"""The quick reactions people may send."""


def clean_text(text: str, limit: int) -> str:
    r"""A text a person typed, fit to show: control characters and lone surrogates dropped,
    runs of white space made one space, at most ``limit`` characters.

    >>> clean_text("  hi\x00 there\n\n you\ud800 ", 100)
    'hi there you'
    """
    kept = "".join(ch for ch in text if ch.isprintable() or ch.isspace())
    kept = kept.encode("utf-8", "ignore").decode("utf-8")
    return " ".join(kept.split())[:limit]


def chat_text(text: Any, message_id: Any = None) -> str:
    """A chat line as sent, made fit to show (:func:`clean_text`); :class:`ProtocolError` if
    it is not a text or nothing is left of it."""
    if not isinstance(text, str):
        raise ProtocolError("bad-field", "text", message_id)
    cleaned = clean_text(text, MAX_CHAT_LENGTH)
    if not cleaned:
        raise ProtocolError("bad-field", "text", message_id)
    return cleaned


def check_reaction(reaction: Any, message_id: Any = None) -> str:
    """A reaction as sent, if it is one of :data:`REACTIONS`."""
    if reaction not in REACTIONS:
        raise ProtocolError("bad-field", "reaction", message_id)
    return str(reaction)
