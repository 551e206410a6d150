"""Every message that crosses the broker, typed, each with one ``to_json`` and one ``from_json``.

On a table's channel, from its owner to the processes that keep a copy of it (:data:`TableEvent`):
:class:`Update` (committed changes), :class:`Told` (a message for every connection),
:class:`Beat` (the owner is alive), :class:`Gone` (the owner let the table go).

On a process's channel, to a table's owner (:data:`Request`): :class:`Presence` (the sender's
connections to the table; no answer), :class:`Sync` (everything, for a new copy; answered with an
:class:`Update`), :class:`Handoff` (the lease is the receiver's now: a table moves to the process
the load balancer sends it to), :class:`Command` (a connection's request, :mod:`ohhell.server.live.commands`;
answered with :class:`Done`, :class:`Joined` or :class:`Failed`).

The broker adds its envelope to each (``sent``, and ``from``, ``rid``, ``re`` for requests);
``from_json`` ignores it.

>>> Update.from_json(Update(3, 5, actions=[{"type": "bid"}], status="playing").to_json())
Update(first=3, to=5, info=None, actions=[{'type': 'bid'}], status='playing', settings=None, seats=None)
>>> request_from_json(Command("ABCDEF", "chat", 1, "ru", None, 7, {"text": "hi"}).to_json())
Command(code='ABCDEF', op='chat', seat=1, language='ru', name=None, id=7, data={'text': 'hi'})
>>> answer_from_json(Failed("protocol", code="stale").to_json())
Failed(kind='protocol', code='stale', detail=None, message=None)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ohhell.server.storage.store import SeatRow


@dataclass(frozen=True)
class Update:
    """What changed at a table (all committed): the actions from version ``first`` to ``to``,
    the table's public information, and its status, settings and seats when they changed.
    Without ``first``: only "catch up to ``to``" (read what is missing from the database)."""

    first: int | None = None
    to: int | None = None
    info: dict[str, Any] | None = None
    actions: list[dict[str, Any]] = field(default_factory=list)
    status: str | None = None
    settings: dict[str, Any] | None = None
    seats: list[SeatRow] | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"t": "update", "actions": self.actions}
        if self.first is not None:
            out["from"] = self.first
        if self.to is not None:
            out["to"] = self.to
        if self.info is not None:
            out["info"] = self.info
        if self.status is not None:
            out["status"] = self.status
        if self.settings is not None:
            out["settings"] = self.settings
        if self.seats is not None:
            out["seats"] = [[row.seat, row.kind, row.bot, row.name, row.token_hash] for row in self.seats]
        return out

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Update:
        seats = data.get("seats")
        info = data.get("info")
        return cls(_int(data.get("from")), _int(data.get("to")), info if isinstance(info, dict) else None,
                   list(data.get("actions") or []),
                   str(data["status"]) if data.get("status") is not None else None,
                   data["settings"] if isinstance(data.get("settings"), dict) else None,
                   [SeatRow(*row) for row in seats] if isinstance(seats, list) else None)


@dataclass(frozen=True)
class Told:
    """A message the owner sent to every connection of the table (chat, reaction, fair, moved)."""

    message: dict[str, Any]

    def to_json(self) -> dict[str, Any]:
        return {"t": "message", "message": self.message}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Told:
        return cls(dict(data["message"]))


@dataclass(frozen=True)
class Beat:
    """The owner is alive; the table is at version ``to``."""

    to: int

    def to_json(self) -> dict[str, Any]:
        return {"t": "beat", "to": self.to}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Beat:
        return cls(_int(data.get("to")) or 0)


@dataclass(frozen=True)
class Gone:
    """The owner let the table go (unloaded, or lost its lease)."""

    def to_json(self) -> dict[str, Any]:
        return {"t": "gone"}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Gone:
        return cls()


TableEvent = Update | Told | Beat | Gone
_EVENTS: dict[str, type[Update] | type[Told] | type[Beat] | type[Gone]] = {
    "update": Update, "message": Told, "beat": Beat, "gone": Gone}


def event_from_json(data: dict[str, Any]) -> TableEvent | None:
    """The event a table's channel carried (``None``: a kind this version does not know)."""
    kind = _EVENTS.get(str(data.get("t")))
    return kind.from_json(data) if kind is not None else None


@dataclass(frozen=True)
class Presence:
    """The sender's connections to a table: how many per seat, how many spectators; ``watching``
    false: it no longer keeps a copy of the table."""

    code: str
    seats: dict[int, int]
    spectators: int
    watching: bool = True

    def to_json(self) -> dict[str, Any]:
        return {"op": "presence", "code": self.code, "spectators": self.spectators,
                "seats": {str(k): v for k, v in self.seats.items()}, "watching": self.watching}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Presence:
        return cls(str(data.get("code")), {int(k): int(v) for k, v in dict(data.get("seats") or {}).items()},
                   int(data.get("spectators") or 0), bool(data.get("watching", True)))


@dataclass(frozen=True)
class Sync:
    """Everything about a table, for a new copy (answered with an :class:`Update`)."""

    code: str

    def to_json(self) -> dict[str, Any]:
        return {"op": "sync", "code": self.code}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Sync:
        return cls(str(data.get("code")))


@dataclass(frozen=True)
class Handoff:
    """From a table's owner to the process the load balancer now sends the table's players to:
    the lease is yours, everything up to ``version`` is committed; own the table (answered with
    :class:`Done`, or :class:`Failed`)."""

    code: str
    version: int

    def to_json(self) -> dict[str, Any]:
        return {"op": "handoff", "code": self.code, "version": self.version}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Handoff:
        return cls(str(data.get("code")), int(data.get("version") or 0))


@dataclass(frozen=True)
class Command:
    """A connection's request to a table (``op``: one of
    :data:`ohhell.server.live.commands.COMMANDS`), from the seat ``seat`` (``None``: a
    spectator called ``name``), to be answered in ``language``."""

    code: str
    op: str
    seat: int | None
    language: str
    name: str | None
    id: Any
    data: dict[str, Any]

    def to_json(self) -> dict[str, Any]:
        return {"op": self.op, "code": self.code, "seat": self.seat, "language": self.language, "name": self.name,
                "id": self.id, "data": self.data}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Command:
        name = data.get("name")
        return cls(str(data.get("code")), str(data.get("op")), _int(data.get("seat")),
                   str(data.get("language") or "en"), name if isinstance(name, str) else None, data.get("id"),
                   dict(data.get("data") or {}))


Request = Presence | Sync | Handoff | Command


def request_from_json(data: dict[str, Any]) -> Request:
    op = data.get("op")
    if op == "presence":
        return Presence.from_json(data)
    if op == "sync":
        return Sync.from_json(data)
    if op == "handoff":
        return Handoff.from_json(data)
    return Command.from_json(data)


@dataclass(frozen=True)
class Done:
    """The command was carried out."""

    def to_json(self) -> dict[str, Any]:
        return {"ok": True}


@dataclass(frozen=True)
class Joined:
    """A ``join`` took the seat ``seat``, whose secret token is ``token``."""

    seat: int
    token: str

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "token": self.token}


@dataclass(frozen=True)
class Failed:
    """The owner did not carry the request out. ``kind``: ``protocol`` (refused as the
    :class:`~ohhell.server.wire.protocol.ProtocolError` ``code``), ``refused`` (an
    :class:`~ohhell.errors.OhHellError` whose text is ``message``), ``not-owner`` (the process
    no longer runs the table) or ``gone`` (no answer came)."""

    kind: str
    code: str | None = None
    detail: str | None = None
    message: str | None = None

    def to_json(self) -> dict[str, Any]:
        error: dict[str, Any] = {"kind": self.kind}
        for key in ("code", "detail", "message"):
            if getattr(self, key) is not None:
                error[key] = getattr(self, key)
        return {"error": error}


Answer = Update | Done | Joined | Failed


def answer_from_json(data: dict[str, Any]) -> Answer:
    error = data.get("error")
    if isinstance(error, dict):
        return Failed(str(error.get("kind")), _str(error.get("code")), _str(error.get("detail")),
                      _str(error.get("message")))
    if "token" in data:
        return Joined(int(data["seat"]), str(data["token"]))
    if "to" in data:
        return Update.from_json(data)
    return Done()


def _int(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _str(value: Any) -> str | None:
    return None if value is None else str(value)
