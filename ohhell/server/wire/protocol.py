"""The JSON messages of the WebSocket protocol (``docs/protocol.md``).

Clients send small JSON objects with a ``type``; :func:`parse_client_message` checks them
(size, JSON, type, fields) and raises :class:`ProtocolError` with a stable ``code`` for
anything wrong, so the caller can answer with an ``error`` message and change nothing.

The ``state`` messages about a game are built in :mod:`ohhell.server.wire.stream`. Messages are
encoded with orjson (:func:`encode`: the UTF-8 bytes a socket takes; :func:`dumps`: text).

>>> parse_client_message('{"type": "act", "version": 3, "action": {"type": "bid", "bid": 2}}', 4096).kind
'act'
>>> parse_client_message('{"type": "act"', 4096)
Traceback (most recent call last):
...
ohhell.server.wire.protocol.ProtocolError: malformed
>>> parse_client_message("x" * 5000, 4096).kind
Traceback (most recent call last):
...
ohhell.server.wire.protocol.ProtocolError: too-large
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

import orjson

from ohhell.actions import Action, Bid, ChooseTrump, Declare, InvalidActionError, Play, action_from_json
from ohhell.i18n import N_, translations

PROTOCOL: Final = "ohhell-ws/1"
"""The protocol's name and version, sent in ``welcome``."""

CLIENT_TYPES: Final = ("hello", "act", "hint", "start", "back", "history", "ping", "chat", "react", "rematch",
                        "contribute")
"""The message types a client may send."""

PLAYER_ACTIONS: Final = ("bid", "play", "declare", "trump")
"""The actions a seat may send; chance and scoresheet actions are the server's."""

ERRORS: Final[dict[str, str]] = {
    "malformed": N_("That message is not valid JSON of the protocol."),
    "too-large": N_("That message is too large."),
    "unknown-type": N_("The server does not know that kind of message."),
    "bad-field": N_("A field of that message is missing or wrong."),
    "hello-first": N_("Say hello first: the first message must be a hello."),
    "no-such-table": N_("There is no table with that code."),
    "bad-token": N_("That seat token is not valid for this table."),
    "spectator": N_("Spectators cannot act."),
    "not-your-seat": N_("You can only act for your own seat."),
    "not-started": N_("The game has not started yet."),
    "game-over": N_("The game is over."),
    "stale": N_("The game has moved on since you acted; look again."),
    "duplicate": N_("That message was already received."),
    "out-of-turn": N_("It is not your turn."),
    "not-allowed": N_("Players may bid, play, declare a joker and choose trump; nothing else."),
    "illegal": N_("That is not allowed now."),
    "not-host": N_("Only the player who created the table may do that."),
    "rate-limited": N_("Too many messages; slow down."),
    "storage": N_("The server could not save that action; try again."),
    "no-hint": N_("There is nothing to suggest now."),
    "full": N_("Too many people are connected to this table."),
    "not-over": N_("The game is not over yet."),
    "hello-timeout": N_("No hello came in time; the connection is closed."),
    "bad-origin": N_("This page may not connect to the game from another site."),
    "no-deal-open": N_("No deal is waiting for contributions now."),
    "bad-contribution": N_("That contribution to the deal was refused."),
    "too-late": N_("The cards were dealt before your contribution arrived; it was not used."),
    "private": N_("This table cannot be watched yet."),
}
"""Every error code the server sends, with the text a person reads (translated per connection)."""


class ProtocolError(ValueError):
    """A client message that is answered with an ``error`` and changes nothing."""

    def __init__(self, code: str, detail: str | None = None, message_id: Any = None) -> None:
        assert code in ERRORS, code
        self.code = code
        self.detail = detail
        self.message_id = message_id
        super().__init__(code)


@dataclass(frozen=True)
class ClientMessage:
    """A checked client message."""

    kind: str
    data: Mapping[str, Any]
    message_id: Any = None

    @property
    def version(self) -> int | None:
        value = self.data.get("version")
        return value if isinstance(value, int) and not isinstance(value, bool) else None


def message_id(text: str | bytes, limit: int) -> Any:
    """The ``id`` of a raw client message, if it has a valid one, else ``None`` — for an answer
    given before the message is handled (``rate-limited``), which repeats the id like every other.

    >>> message_id('{"type": "ping", "id": 7}', 4096), message_id('{"id": [1]}', 4096), message_id("[", 4096)
    (7, None, None)
    """
    if len(text) > limit:
        return None
    try:
        data = orjson.loads(text)
    except orjson.JSONDecodeError:
        return None
    found = data.get("id") if isinstance(data, dict) else None
    return found if isinstance(found, (int, str)) and not isinstance(found, bool) and len(str(found)) <= 64 else None


def parse_client_message(text: str | bytes, limit: int) -> ClientMessage:
    """Check one client message; raise :class:`ProtocolError` if it is oversized, not JSON,
    or not a message of the protocol."""
    if len(text) > limit:
        raise ProtocolError("too-large")
    try:
        data = orjson.loads(text)
    except orjson.JSONDecodeError as error:
        raise ProtocolError("malformed") from error
    if not isinstance(data, dict):
        raise ProtocolError("malformed")
    message_id = data.get("id")
    if message_id is not None and not (isinstance(message_id, (int, str)) and len(str(message_id)) <= 64):
        raise ProtocolError("bad-field", "id")
    kind = data.get("type")
    if kind not in CLIENT_TYPES:
        raise ProtocolError("unknown-type", message_id=message_id)
    version = data.get("version")
    if version is not None and (not isinstance(version, int) or isinstance(version, bool)):
        raise ProtocolError("bad-field", "version", message_id)
    if kind == "hello":
        for key in ("table", "token", "lang", "name"):
            value = data.get(key)
            if value is not None and not (isinstance(value, str) and len(value) <= 200):
                raise ProtocolError("bad-field", key, message_id)
        if not isinstance(data.get("table"), str):
            raise ProtocolError("bad-field", "table", message_id)
    if kind == "act":
        if version is None:
            raise ProtocolError("bad-field", "version", message_id)
        if not isinstance(data.get("action"), dict):
            raise ProtocolError("bad-field", "action", message_id)
    return ClientMessage(kind, data, message_id)


def parse_player_action(data: Mapping[str, Any], seat: int, message_id: Any = None) -> Action:
    """The action a seat sends (its ``seat`` field, if any, must be its own)."""
    kind = data.get("type")
    if kind not in PLAYER_ACTIONS:
        raise ProtocolError("not-allowed", message_id=message_id)
    if "seat" in data and data["seat"] != seat:
        raise ProtocolError("not-your-seat", message_id=message_id)
    try:
        action = action_from_json({**data, "seat": seat})
    except (InvalidActionError, ValueError) as error:
        raise ProtocolError("bad-field", "action", message_id) from error
    assert isinstance(action, (Bid, Play, Declare, ChooseTrump))
    return action


def error_message(code: str, language: str, detail: str | None = None, message_id: Any = None,
                  version: int | None = None) -> dict[str, Any]:
    """The ``error`` message for ``code`` in ``language`` (``detail``: a translated engine message)."""
    out: dict[str, Any] = {"type": "error", "code": code,
                           "message": translations(language).gettext(ERRORS[code])}
    if detail:
        out["detail"] = detail
    if message_id is not None:
        out["id"] = message_id
    if version is not None:
        out["version"] = version
    return out


def encode(message: Mapping[str, Any]) -> bytes:
    """Compact JSON of a message, as UTF-8 bytes (what a connection writes).

    >>> encode({"type": "pong", "id": "é", "version": (1, 2)})
    b'{"type":"pong","id":"\\xc3\\xa9","version":[1,2]}'
    """
    return orjson.dumps(message)


def dumps(message: Mapping[str, Any]) -> str:
    """Compact JSON text of a message (UTF-8 as is, not escaped).

    >>> dumps({"type": "pong", "id": "é", "version": (1, 2)})
    '{"type":"pong","id":"é","version":[1,2]}'
    """
    return orjson.dumps(message).decode()
