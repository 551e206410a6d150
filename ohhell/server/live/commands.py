"""What a person may ask of a table, dispatched in one place: a connection of this process (the
WebSocket) and a connection of another process (its request forwarded by the broker) go through
:func:`perform` alike, so each request is mapped to the table, and its fields checked, once.

``hello``, ``ping``, ``hint`` and ``history`` are not here: they concern one connection, not
the table (the transport answers them itself).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Final

from ohhell.server.live.chat import chat_text, check_reaction
from ohhell.server.live.room import TableRoom
from ohhell.server.live.subscriber import Sender
from ohhell.server.wire.protocol import ClientMessage, ProtocolError

COMMANDS: Final = ("act", "chat", "react", "start", "back", "rematch", "contribute", "join", "latecomer")
"""The requests :func:`perform` carries out (``join`` and ``latecomer`` only from another process:
a person takes a seat, or is promised a bot's, over HTTP, which a process that does not own the
table forwards)."""


@dataclass(frozen=True)
class Joined:
    """The answer to a ``join``: the seat taken and its secret token."""

    seat: int
    token: str


def _always(_kind: str) -> bool:
    return True


async def perform(table: TableRoom, sender: Sender, command: ClientMessage,
                  allowed: Callable[[str], bool] = _always) -> Joined | None:
    """Carry out ``command`` from ``sender`` at ``table``; a refusal is raised
    (:class:`ProtocolError`, or :class:`~ohhell.errors.OhHellError` for a join). ``allowed``
    says whether the sender may send one more of this kind now (its rate limits); it is asked
    once the command's fields are checked, so a malformed one is refused for what it is."""
    kind, data, message_id = command.kind, command.data, command.message_id
    if kind == "act":  # the busiest first
        await table.act(sender, command)
    elif kind == "chat":
        text = chat_text(data.get("text"), message_id)
        _admit(allowed, kind, message_id)
        await table.say(sender, text, message_id)
    elif kind == "react":
        reaction = check_reaction(data.get("reaction"), message_id)
        _admit(allowed, kind, message_id)
        table.react(sender, reaction, message_id)
    elif kind == "start":
        await table.start(sender, message_id)
    elif kind == "back":
        await table.back(sender, message_id)
    elif kind == "rematch":
        await table.rematch(sender, message_id)
    elif kind == "contribute":
        await table.contribute(sender, data.get("hand"), data.get("value"), message_id)
    elif kind == "join":
        seat, token = await table.join(str(data.get("name")), _seat_wanted(data))
        return Joined(seat, token)
    elif kind == "latecomer":
        seat, token = await table.take_bot_seat(str(data.get("name")))
        return Joined(seat, token)
    else:
        raise ProtocolError("unknown-type", message_id=message_id)
    return None


def _admit(allowed: Callable[[str], bool], kind: str, message_id: Any) -> None:
    if not allowed(kind):
        raise ProtocolError("rate-limited", message_id=message_id)


def _seat_wanted(data: Mapping[str, Any]) -> int | None:
    seat = data.get("seat")
    return seat if isinstance(seat, int) and not isinstance(seat, bool) else None
