"""The quick-play pool's queries (table ``ohhell_quickplay``, :mod:`ohhell.server.storage.schema`).

Every function takes a connection inside a transaction (``Store.write`` for a write, one of
``Store.engine``'s for a read). The pool is in the database, not in a process, so that every
process of a site sees the same people waiting; :func:`claim` is what makes one match per
person: it takes a group only if every one of them is still waiting, in one conditional
``UPDATE``, so of two processes forming groups at once the second finds its rows taken and
takes none (its transaction is rolled back).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from sqlalchemy import and_, delete, func, insert, select, update
from sqlalchemy.engine import Connection

from ohhell.server.storage.errors import Conflict
from ohhell.server.storage.kinds import SeatKind, TableStatus
from ohhell.server.storage.schema import game_tables, quickplay, seats

WAITING: Final = "waiting"
MATCHED: Final = "matched"
SEATED: Final = "seated"


@dataclass(frozen=True)
class Ticket:
    """One person in the pool (a row of ``ohhell_quickplay``)."""

    id: str
    created: float
    deadline: float
    family: str
    players: int
    level: str
    name: str
    account: str | None = None
    rating: float | None = None
    status: str = WAITING
    table_id: str | None = None
    seat: int | None = None
    token: str | None = None


def _ticket(row: object) -> Ticket:
    return Ticket(*(getattr(row, name) for name in (
        "id", "created", "deadline", "family", "players", "level", "name", "account", "rating", "status",
        "table_id", "seat", "token")))


def add(conn: Connection, ticket: Ticket, now: float) -> None:
    """Put ``ticket`` in the pool; an account's earlier waiting ticket leaves it (one place a person)."""
    if ticket.account is not None:
        conn.execute(delete(quickplay).where(and_(quickplay.c.account == ticket.account,
                                                  quickplay.c.status == WAITING)))
    conn.execute(insert(quickplay).values(
        id=ticket.id, created=ticket.created, deadline=ticket.deadline, seen=now, family=ticket.family,
        players=ticket.players, level=ticket.level, name=ticket.name, account=ticket.account, rating=ticket.rating,
        status=WAITING))


def find(conn: Connection, ticket_id: str) -> Ticket | None:
    row = conn.execute(select(quickplay).where(quickplay.c.id == ticket_id)).first()
    return None if row is None else _ticket(row)


def touch(conn: Connection, ticket_id: str, now: float) -> None:
    """The ticket's page is still there."""
    conn.execute(update(quickplay).where(quickplay.c.id == ticket_id).values(seen=now))


def waiting(conn: Connection, family: str, players: int, seen_since: float) -> list[Ticket]:
    """The people waiting for this family and number of players whose page asked since
    ``seen_since``, oldest first."""
    query = select(quickplay).where(and_(
        quickplay.c.family == family, quickplay.c.players == players, quickplay.c.status == WAITING,
        quickplay.c.seen >= seen_since)).order_by(quickplay.c.created, quickplay.c.id)
    return [_ticket(row) for row in conn.execute(query)]


def claim(conn: Connection, ticket_ids: Sequence[str], now: float) -> None:
    """Take these waiting tickets into one game, all or none (:class:`Conflict` if any of them
    is no longer waiting: another process took it first)."""
    result = conn.execute(update(quickplay).where(and_(quickplay.c.id.in_(list(ticket_ids)),
                                                       quickplay.c.status == WAITING)).values(status=MATCHED,
                                                                                               matched=now))
    if result.rowcount != len(ticket_ids):
        raise Conflict("someone in this group was matched by another process first")


def release(conn: Connection, ticket_ids: Sequence[str]) -> None:
    """Put claimed tickets back in the pool (their table could not be made)."""
    conn.execute(update(quickplay).where(and_(quickplay.c.id.in_(list(ticket_ids)),
                                              quickplay.c.status == MATCHED)).values(status=WAITING, matched=None))


def release_abandoned(conn: Connection, matched_before: float) -> int:
    """Put back in the pool the tickets claimed before ``matched_before`` and never seated: the
    process that claimed them stopped before it made their table; how many."""
    result = conn.execute(update(quickplay).where(and_(quickplay.c.status == MATCHED,
                                                       quickplay.c.matched < matched_before))
                          .values(status=WAITING, matched=None))
    return int(result.rowcount or 0)


def seat(conn: Connection, ticket_id: str, table_id: str, seat_index: int, token: str) -> None:
    """The claimed ticket's seat: its table, seat and token (until its page reads them)."""
    conn.execute(update(quickplay).where(quickplay.c.id == ticket_id).values(
        status=SEATED, table_id=table_id, seat=seat_index, token=token))


def deliver(conn: Connection, ticket_id: str) -> Ticket | None:
    """A seated ticket, read once: the row (and the token in it) is gone after, and a second
    reader at the same moment (another process) gets ``None``, as for a ticket that is gone."""
    found = find(conn, ticket_id)
    if found is not None and found.status == SEATED:
        taken = conn.execute(delete(quickplay).where(and_(quickplay.c.id == ticket_id, quickplay.c.status == SEATED)))
        if taken.rowcount != 1:
            return None
    return found


def leave(conn: Connection, ticket_id: str) -> bool:
    """The ticket leaves the pool (only while it waits); whether it was waiting."""
    result = conn.execute(delete(quickplay).where(and_(quickplay.c.id == ticket_id, quickplay.c.status == WAITING)))
    return bool(result.rowcount)


def drop_stale(conn: Connection, seen_before: float) -> int:
    """Forget the tickets whose page stopped asking before ``seen_before`` (a closed tab, a
    seat never read); how many."""
    return int(conn.execute(delete(quickplay).where(quickplay.c.seen < seen_before)).rowcount or 0)


def waiting_count(conn: Connection, seen_since: float) -> int:
    """How many people wait in the pool now (every family)."""
    query = select(func.count()).select_from(quickplay).where(and_(quickplay.c.status == WAITING,
                                                                  quickplay.c.seen >= seen_since))
    return int(conn.execute(query).scalar() or 0)


def playing_count(conn: Connection, updated_since: float) -> int:
    """How many people sit at tables whose game is being played (changed since ``updated_since``)."""
    query = select(func.count()).select_from(seats.join(game_tables, game_tables.c.id == seats.c.table_id)).where(
        and_(game_tables.c.status == TableStatus.PLAYING, seats.c.kind == SeatKind.HUMAN,
             game_tables.c.updated >= updated_since))
    return int(conn.execute(query).scalar() or 0)
