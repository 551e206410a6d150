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
from ohhell.server.storage.schema import game_tables, quickplay, quickplay_tables, seats

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


@dataclass(frozen=True)
class OpenTable:
    """A running quick-play table with bots' seats a latecomer may take (a row of
    ``ohhell_quickplay_tables``)."""

    table_id: str
    created: float
    family: str
    players: int
    low: float | None
    high: float | None
    bot_seats: int


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


def add_table(conn: Connection, table: OpenTable) -> None:
    """A quick-play table that takes latecomers, just made."""
    conn.execute(insert(quickplay_tables).values(
        table_id=table.table_id, created=table.created, family=table.family, players=table.players, low=table.low,
        high=table.high, bot_seats=table.bot_seats))


def open_tables(conn: Connection, family: str, players: int, created_since: float) -> list[OpenTable]:
    """The quick-play tables of this game being played, made since ``created_since``, that may
    still have a bot's seat to give, newest first (the most hands left)."""
    query = select(quickplay_tables).join(game_tables, game_tables.c.id == quickplay_tables.c.table_id).where(and_(
        quickplay_tables.c.family == family, quickplay_tables.c.players == players,
        quickplay_tables.c.bot_seats > 0, quickplay_tables.c.created >= created_since,
        game_tables.c.status == TableStatus.PLAYING)).order_by(quickplay_tables.c.created.desc())
    return [OpenTable(row.table_id, row.created, row.family, row.players, row.low, row.high, row.bot_seats)
            for row in conn.execute(query)]


def seat_given(conn: Connection, table_id: str) -> None:
    """A latecomer was promised one of the table's bots' seats."""
    conn.execute(update(quickplay_tables).where(and_(quickplay_tables.c.table_id == table_id,
                                                     quickplay_tables.c.bot_seats > 0))
                 .values(bot_seats=quickplay_tables.c.bot_seats - 1))


def close_table(conn: Connection, table_id: str) -> None:
    """The table has no bot's seat to give any more (its owner said so)."""
    conn.execute(delete(quickplay_tables).where(quickplay_tables.c.table_id == table_id))


def forget_tables(conn: Connection, created_before: float) -> int:
    """Forget the tables made before ``created_before`` (their games are long over); how many."""
    return int(conn.execute(delete(quickplay_tables).where(quickplay_tables.c.created < created_before)).rowcount or 0)
