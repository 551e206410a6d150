"""Who talks to a table: a :class:`Sender` asks it something; a :class:`Subscriber` is also told
everything that happens at it (a connection of this process implements it:
:class:`ohhell.server.ws.connection.Connection`). The game master defines these; the transports
implement them, so ``live`` imports nothing of them."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

from ohhell.server.wire.stream import Broadcast
from ohhell.views import SeatView


class Sender(Protocol):
    """Who sends a request to a table: a seat (``None``: a spectator), the language to answer
    in, and a spectator's name. A connection of this process is one; so is a connection of
    another process, whose request the owner receives through the broker (:class:`Asker`)."""

    @property
    def seat(self) -> int | None: ...

    @property
    def language(self) -> str: ...

    @property
    def name(self) -> str | None: ...


@dataclass(frozen=True)
class Asker:
    """A :class:`Sender` that is not a connection of this process."""

    seat: int | None
    language: str = "en"
    name: str | None = None


class Subscriber(Protocol):
    """A connection of this process to a table: it sends requests and is told, in order, every
    message of the table and what changed in its own view of the game."""

    seat: int | None
    """Its seat (``None``: a spectator), set by the table that admits it."""
    name: str | None
    """A spectator's name for the chat (a seat's comes from the seat), set by the table."""
    language: str
    hinting: bool
    table: Any
    """The table (a :class:`~ohhell.server.live.room.TableRoom`) that holds it: a handoff moves it
    from a copy to the table owned here, open all along (typed loosely: ``room`` imports this)."""
    """A hint is being worked out for it (one at a time)."""

    @property
    def closed(self) -> bool: ...

    def push(self, message: dict[str, Any] | str | bytes) -> None:
        """Send a message (or its JSON, as text or UTF-8 bytes) after those before it."""

    def send_state(self, view: SeatView, shared: Broadcast) -> None:
        """Send what changed in ``view`` (its own) since the last state it was told."""

    def close(self) -> None:
        """Stop sending and close the connection."""
