"""The one "not public yet" rule: results, records and tables of a daily deal or a duplicate
event stay hidden until its day is over or every table of the event has finished.

An embargo is a string, ``daily:YYYY-MM-DD`` or ``event:<id>``
(:func:`~ohhell.server.community.stats.embargo_of` reads it from a table's settings); a seat's
stored result carries its table's embargo, and is shown once the embargo has lifted.
"""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy import select
from sqlalchemy.engine import Connection

from ohhell.server.community.daily import today
from ohhell.server.community.events import event_tables
from ohhell.server.community.stats import SeatResult
from ohhell.server.storage.kinds import TableStatus
from ohhell.server.storage.schema import game_tables


def lifted(conn: Connection, embargoes: set[str]) -> set[str]:
    """Which of these embargoes are over: a daily deal's day that has passed, a duplicate
    event every table of which has finished (as stored)."""
    out = set()
    for embargo in embargoes:
        kind, _sep, key = embargo.partition(":")
        if kind == "daily" and key < today():
            out.add(embargo)
        elif kind == "event":
            statuses = [row.status for row in conn.execute(
                select(game_tables.c.status).join(event_tables, event_tables.c.code == game_tables.c.id)
                .where(event_tables.c.event_id == key))]
            if statuses and all(status == TableStatus.FINISHED for status in statuses):
                out.add(embargo)
    return out


def public(conn: Connection, results: Sequence[SeatResult]) -> list[SeatResult]:
    """The results anyone may see: those whose event or day is over (see ``game_results``)."""
    embargoes = {row.embargo for row in results if row.embargo is not None}
    done = lifted(conn, embargoes) if embargoes else set()
    return [row for row in results if row.embargo is None or row.embargo in done]
