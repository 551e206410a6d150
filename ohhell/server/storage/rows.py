"""The stored values, as the rest of the server reads and writes them (JSON columns decoded)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class TableRow:
    """A table as stored (rules and settings decoded); ``status`` is a
    :class:`~ohhell.server.storage.kinds.TableStatus` value."""

    id: str
    created: float
    status: str
    rules: dict[str, Any]
    settings: dict[str, Any]


@dataclass(frozen=True)
class SeatRow:
    """A seat as stored: ``kind`` is ``open`` (waiting for a person) or a
    :class:`~ohhell.server.storage.kinds.SeatKind` value."""

    seat: int
    kind: str
    bot: str | None
    name: str | None
    token_hash: str | None


@dataclass(frozen=True)
class ChatLine:
    """One line of a table's chat."""

    id: int
    seat: int | None
    name: str | None
    text: str
    at: float

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "seat": self.seat, "name": self.name, "text": self.text, "at": round(self.at, 3)}


@dataclass(frozen=True)
class StoredSheet:
    """A scorekeeper sheet as stored: its record, its undo history, its revision."""

    record: dict[str, Any]
    undo: list[dict[str, Any]]
    rev: int


@dataclass
class StoredTable:
    """Everything stored about one table: enough to rebuild it exactly."""

    row: TableRow
    seats: list[SeatRow]
    actions: list[dict[str, Any]] = field(default_factory=list)
    chat: list[ChatLine] = field(default_factory=list)
    """The last :data:`~ohhell.server.storage.store.CHAT_LOADED` lines of its chat, oldest first."""
    fair: dict[str, Any] | None = None
    """The secret side of its fair deals (the server's only)."""

    @property
    def id(self) -> str:
        return self.row.id
