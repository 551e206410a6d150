"""The daily deal: one game's deals a day for everyone, played against the strong bots.

Each day (UTC) has a seed, drawn and committed (its SHA-256 published) the day before — when
anyone asks for the daily deal on day D−1, day D's seed is drawn and its commitment shown — and
a pool of contributions (:mod:`ohhell.server.community.fair_pool`): every browser that opens the daily page
or plays on day D−1 sends 256 random bits for day D, until day D begins. The pool closes when
day D's first try deals; every deal of the day derives from the seed and the whole pool (scheme
``per-event-pool``, docs/fairness.md). The seed is revealed the next day (day D+1). A day made
on the day itself (nobody asked the day before) has an empty pool: the server alone chose its
seed, and the page says so. Days from before the pool keep the scheme ``per-event``.

Every try of the day is a table of its own with the same rules, the player in seat 0 and the
strongest bots in the others, and the day's deal source (:class:`~ohhell.server.community.duplicate.
EventDeals`, scope ``daily-DAY``): everyone holds the same cards against the same bots' cards.

One try per account, and per browser for a guest (an ``HttpOnly`` cookie of its own). When a
try ends, its hand scores are stored; its player then sees how everyone did with the same
cards: per hand, a matchpoint for every other try that scored less in seat 0 and half for
each that scored the same (:mod:`ohhell.server.community.matchpoints`), the percentage of the most
possible, and the plain total. Nobody sees the results before finishing their own try (or
before the day is over).
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime
import json
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final

from sqlalchemy import Column, Float, ForeignKey, String, Table, Text, select, update
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError

from ohhell.i18n import N_
from ohhell.record import record_from_state
from ohhell.rules import Rules, preset
from ohhell.server.community import fair_pool
from ohhell.server.community.duplicate import EventDeals
from ohhell.server.community.matchpoints import matchpoints, percentage
from ohhell.server.community.replay import rebuild_state
from ohhell.server.storage.schema import metadata
from ohhell.server.storage.store import Store, StoredTable

DAILY_PRESET: Final = "classic"
DAILY_PLAYERS: Final = 4

daily_days = Table(
    "ohhell_daily_days", metadata,
    Column("day", String(10), primary_key=True),
    Column("rules", Text, nullable=False),
    Column("seed", String(64), nullable=False),
    Column("commitment", String(64), nullable=False),
    Column("created", Float, nullable=False),
)
"""A day's rules and seed (secret until the day is over) with its published commitment."""

daily_tries = Table(
    "ohhell_daily_tries", metadata,
    Column("day", String(10), ForeignKey("ohhell_daily_days.day", ondelete="CASCADE"), primary_key=True),
    Column("player", String(80), primary_key=True),
    Column("account_id", String(32), ForeignKey("ohhell_accounts.id", ondelete="SET NULL"), nullable=True),
    Column("name", String(64), nullable=False),
    Column("table_id", String(16), nullable=False),
    Column("started", Float, nullable=False),
    Column("finished", Float, nullable=True),
    Column("scores", Text, nullable=True),
)
"""One try per player a day (``player``: ``a:ACCOUNT`` or ``g:BROWSER``); ``scores``: seat 0's
score of each hand once the try is over (JSON list)."""


def today(now: float | None = None) -> str:
    """The day (UTC) of a moment, ``YYYY-MM-DD``.

    >>> today(0.0)
    '1970-01-01'
    """
    moment = datetime.datetime.fromtimestamp(time.time() if now is None else now, datetime.UTC)
    return moment.strftime("%Y-%m-%d")


def next_day(day: str) -> str:
    """The day after ``day``.

    >>> next_day("2024-02-28"), next_day("2024-02-29")
    ('2024-02-29', '2024-03-01')
    """
    return (datetime.date.fromisoformat(day) + datetime.timedelta(days=1)).isoformat()


def scope_of(day: str) -> str:
    """The scope of a day's fair deals (and of its pool)."""
    return f"daily-{day}"


def daily_rules() -> Rules:
    return preset(DAILY_PRESET, players=DAILY_PLAYERS)


@dataclass(frozen=True)
class Day:
    day: str
    rules: Rules
    seed: str
    commitment: str
    pool: fair_pool.Pool | None = None
    """The day's pool of contributions (``None``: a day from before the pool, scheme ``per-event``)."""

    @property
    def deals(self) -> EventDeals:
        """The day's deals (with the pool once it is closed; a try closes it at its first deal)."""
        closed = self.pool if self.pool is not None and not self.pool.open else None
        return EventDeals(scope_of(self.day), self.seed, pooled=self.pool is not None, labelled=False, pool=closed)


@dataclass(frozen=True)
class Try:
    day: str
    player: str
    account_id: str | None
    name: str
    table_id: str
    finished: float | None
    scores: list[int] | None


class DailyService:
    def __init__(self, store: Store) -> None:
        self.store = store

    def _read(self, call: Any) -> Any:
        with self.store.engine.connect() as conn:
            return call(conn)

    async def read(self, call: Any) -> Any:
        return await asyncio.to_thread(self._read, call)

    def day_sync(self, conn: Connection, day: str) -> Day | None:
        row = conn.execute(select(daily_days).where(daily_days.c.day == day)).first()
        if row is None:
            return None
        return Day(row.day, Rules.from_json(json.loads(row.rules)), row.seed, row.commitment,
                   fair_pool.read(conn, scope_of(day)))

    async def day(self, day: str, create: bool = False) -> Day | None:
        """A day's rules and seed; made (seed drawn and committed, its pool opened) the first time
        if ``create``. Two processes making it at once: one insert wins and both use its seed."""
        found: Day | None = await self.read(lambda conn: self.day_sync(conn, day))
        if found is not None or not create:
            return found
        deals = EventDeals(scope_of(day))
        rules = daily_rules()

        def call(conn: Connection) -> None:
            if conn.execute(select(daily_days.c.day).where(daily_days.c.day == day)).first() is None:
                conn.execute(daily_days.insert().values(day=day, rules=json.dumps(rules.to_json()), seed=deals.seed,
                                                        commitment=deals.commitment, created=time.time()))
                fair_pool.create_pool(conn, scope_of(day))

        with contextlib.suppress(Exception):  # another process inserted it between our read and write
            await self.store.write(call)
        return await self.read(lambda conn: self.day_sync(conn, day))  # type: ignore[no-any-return]

    async def contribute(self, day: str, player: str, value: Any, now: float | None = None) -> str:
        """``player``'s contribution to the pool of ``day``, which must be still to come (a
        contribution for today or earlier is too late: the day has begun). :class:`~ohhell.
        server.fair_pool.PoolError` when refused."""
        if day <= today(now):
            raise fair_pool.PoolError("closed", N_("Too late: contributions closed when the first cards were "
                                                   "dealt."))
        return await fair_pool.add(self.store, scope_of(day), player, value)

    async def find_try(self, day: str, player: str) -> Try | None:
        def call(conn: Connection) -> Try | None:
            row = conn.execute(select(daily_tries).where(daily_tries.c.day == day,
                                                         daily_tries.c.player == player)).first()
            return _try(row) if row is not None else None

        return await self.read(call)  # type: ignore[no-any-return]

    async def add_try(self, day: str, player: str, account_id: str | None, name: str, table_id: str) -> bool:
        """Note a new try; ``False`` if this player has one today already (another process was faster)."""
        def call(conn: Connection) -> bool:
            if conn.execute(select(daily_tries.c.player).where(daily_tries.c.day == day,
                                                                daily_tries.c.player == player)).first() is not None:
                return False
            conn.execute(daily_tries.insert().values(day=day, player=player, account_id=account_id, name=name,
                                                     table_id=table_id, started=time.time()))
            return True

        try:
            return bool(await self.store.write(call))
        except IntegrityError:
            return False
        except Exception as error:  # the store wraps the driver's error
            if "UNIQUE" in str(error).upper() or "DUPLICATE" in str(error).upper():
                return False
            raise

    async def finish_try(self, table_id: str, scores: Sequence[int]) -> None:
        def call(conn: Connection) -> None:
            conn.execute(update(daily_tries).where(daily_tries.c.table_id == table_id, daily_tries.c.finished.is_(None))
                         .values(finished=time.time(), scores=json.dumps(list(scores))))

        await self.store.write(call)

    async def stored_try(self, code: str) -> tuple[StoredTable, Day] | None:
        """The stored table of a try (``code``) and its day; ``None`` if no try has that code."""
        found = await asyncio.to_thread(self.store.load_table, code) if 0 < len(code) <= 16 else None
        extra = found.row.settings.get("extra", {}) if found is not None else None
        day_text = extra.get("daily") if isinstance(extra, dict) else None
        day = await self.day(day_text) if isinstance(day_text, str) else None
        return (found, day) if found is not None and day is not None else None

    async def try_record(self, stored: StoredTable, day: Day) -> dict[str, Any]:
        """The record of a try with every hand's ``fair`` entry and the day's seed (for ``ohhell
        verify``): only for a day that is over, whose seed tells nothing any more."""
        state = await asyncio.to_thread(rebuild_state, stored)
        names = [row.name or row.bot or "" for row in stored.seats]
        return day.deals.annotate(record_from_state(state, names), revealed=True)

    async def results(self, day: str) -> list[dict[str, Any]]:
        """Every finished try of the day, best first: matchpoints against every other try, hand
        by hand, the percentage of the most possible, and the plain total."""
        def call(conn: Connection) -> list[Try]:
            query = select(daily_tries).where(daily_tries.c.day == day, daily_tries.c.finished.is_not(None))
            return [_try(row) for row in conn.execute(query.order_by(daily_tries.c.finished))]

        tries: list[Try] = await self.read(call)
        return leaderboard(tries)


def leaderboard(tries: Sequence[Try]) -> list[dict[str, Any]]:
    """The day's finished tries scored against each other (duplicate scoring).

    >>> rows = leaderboard([Try("d", "a:1", "1", "Ann", "T1", 1.0, [11, 0]),
    ...                     Try("d", "a:2", "2", "Bob", "T2", 2.0, [11, 10]),
    ...                     Try("d", "g:x", None, "Cy", "T3", 3.0, [0, 10])])
    >>> [(row["name"], row["matchpoints"], row["percent"], row["total"]) for row in rows]
    [('Bob', 3.0, 75.0, 21), ('Ann', 1.5, 37.5, 11), ('Cy', 1.5, 37.5, 10)]
    """
    finished = [item for item in tries if item.scores is not None]
    hands = max((len(item.scores or []) for item in finished), default=0)
    points = [0.0] * len(finished)
    most = [0.0] * len(finished)
    for hand in range(hands):
        played = [i for i, item in enumerate(finished) if item.scores is not None and len(item.scores) > hand]
        scores = [finished[i].scores[hand] for i in played]  # type: ignore[index]
        for i, value in zip(played, matchpoints(scores), strict=True):
            points[i] += value
            most[i] += len(played) - 1
    rows: list[dict[str, Any]] = []
    for i, item in enumerate(finished):
        rows.append({"name": item.name, "account": item.account_id is not None, "matchpoints": points[i],
                     "most": most[i], "percent": percentage(points[i], most[i]), "total": sum(item.scores or []),
                     "scores": item.scores, "finished": item.finished, "table": item.table_id})
    rows.sort(key=lambda row: (-(row["percent"] or 0.0), -row["total"], row["finished"] or 0.0))
    for rank, row in enumerate(rows, start=1):
        row["rank"] = rank
    return rows


def _try(row: Any) -> Try:
    return Try(row.day, row.player, row.account_id, row.name, row.table_id, row.finished,
               json.loads(row.scores) if row.scores else None)
