"""The database of the web app: tables, seats, the action log, scoresheets.

One schema, written with SQLAlchemy Core, serves SQLite (the default, a file in the
current directory) and PostgreSQL (``postgresql://user:password@host/db``, through
psycopg 3).

What is stored is what a game needs to come back exactly after any stop, ``kill -9``
included: a table's rules, settings and seats (names, bot levels, the SHA-256 of each seat's
secret token — never the token), and its **action log**: every action the engine accepted,
chance included (the cut, each shuffle and cut of the pack), in order. A table is rebuilt
by replaying its log through the engine.

:class:`Store` is the facade the rest of the server uses: its writes go through the
group-commit writer (:mod:`ohhell.server.storage.writer`: committed in order, in batches,
each caller told once its own write is durable), its reads run on any thread; the tables
and their migrations are in :mod:`ohhell.server.storage.schema`, the stored values in
:mod:`ohhell.server.storage.rows`, the errors in :mod:`ohhell.server.storage.errors`:

>>> import asyncio, tempfile, os
>>> async def demo(path: str) -> list[str]:
...     store = Store(f"sqlite:///{path}")
...     store.start()
...     await store.create_table(TableRow("ABC234", 1.0, TableStatus.WAITING, {"preset": "classic", "players": 3}, {}),
...                              [SeatRow(0, SeatKind.HUMAN, None, "Ann", "hash")])
...     await store.append_actions("ABC234", [(0, {"type": "draw", "seat": 0, "card": "AS"})])
...     store.close()
...     return [row.id for row in Store(f"sqlite:///{path}").load_tables()]
>>> with tempfile.TemporaryDirectory() as folder:
...     asyncio.run(demo(os.path.join(folder, "demo.db")))
['ABC234']
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Callable, Iterable, Sequence
from typing import Any, Final, TypeVar

import orjson
from sqlalchemy import Engine, bindparam, create_engine, event, func, select, update
from sqlalchemy.engine import Connection
from sqlalchemy.engine.interfaces import DBAPIConnection
from sqlalchemy.pool import ConnectionPoolEntry

from ohhell.server.storage.errors import Conflict, FencedOut, StoreError
from ohhell.server.storage.kinds import SeatKind, TableStatus
from ohhell.server.storage.rows import ChatLine, SeatRow, StoredSheet, StoredTable, TableRow
from ohhell.server.storage.schema import (
    ACTION_COLUMNS,
    SCHEMA_VERSION,
    actions,
    analyses,
    chat,
    create_schema,
    game_tables,
    metadata,
    schema_info,
    seats,
    sheets,
)
from ohhell.server.storage.writer import Writer, check_fence

T = TypeVar("T")

CHAT_LOADED: Final = 50
"""How many of a table's last chat lines are loaded with it."""


def database_url(url: str) -> str:
    """The SQLAlchemy URL of a ``--database`` value: PostgreSQL URLs go through psycopg 3.

    >>> database_url("postgresql://u@localhost/db"), database_url("postgres://h/db")
    ('postgresql+psycopg://u@localhost/db', 'postgresql+psycopg://h/db')
    >>> database_url("sqlite:///ohhell.db")
    'sqlite:///ohhell.db'
    """
    for prefix in ("postgresql://", "postgres://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix):]
    return url


SQLITE_SYNC: Final = ("full", "normal")
"""How SQLite commits: ``full`` (the default) fsyncs every commit, so a committed action
survives even a power cut; ``normal`` (WAL) skips the fsync: a committed action survives the
server's death, ``kill -9`` included, but not the machine's."""


def _sqlite_pragmas(sync: str) -> Callable[[DBAPIConnection, ConnectionPoolEntry], None]:
    def set_pragmas(dbapi_connection: DBAPIConnection, _record: ConnectionPoolEntry) -> None:
        # WAL lets readers run beside the writer; commits are batched, so the fsync of
        # synchronous=FULL is paid once per batch, not once per action.
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA synchronous=FULL" if sync == "full" else "PRAGMA synchronous=NORMAL")
        cursor.execute("PRAGMA busy_timeout=10000")
        cursor.execute("PRAGMA foreign_keys=ON")
        # A statement that writes several rows (the writer's multi-row INSERTs) keeps a journal
        # of its own to undo itself alone; in memory, not a temporary file made and deleted
        # for each batch (what SQLite's temporary tables and indexes hold goes there too).
        cursor.execute("PRAGMA temp_store=MEMORY")
        cursor.close()

    return set_pragmas


class Store:
    """The database of a server. :meth:`start` the writer before writing."""

    def __init__(self, url: str, max_batch: int = 2000, sqlite_sync: str = "full") -> None:
        self.url = database_url(url)
        self.is_sqlite = self.url.startswith("sqlite")
        options: dict[str, Any] = {}
        if not self.is_sqlite:
            options.update(pool_size=4, max_overflow=4, pool_pre_ping=True)
        self.engine: Engine = create_engine(self.url, **options)
        if sqlite_sync not in SQLITE_SYNC:
            raise StoreError(f"sqlite_sync must be one of {', '.join(SQLITE_SYNC)}, not {sqlite_sync!r}")
        if self.is_sqlite:
            event.listen(self.engine, "connect", _sqlite_pragmas(sqlite_sync))
        self._writer = Writer(self.engine, inline=self.is_sqlite and sqlite_sync == "normal", max_batch=max_batch)
        fair = (update(game_tables).where(game_tables.c.id == bindparam("id")).values(fair=bindparam("fair"))
                .compile(dialect=self.engine.dialect))
        self._fair_sql = str(fair)
        self._fair_order = tuple(fair.positiontup or ()) if fair.positional else None
        """The driver's own update of a table's fair-deal secrets: twice a hand at every table,
        so kept as cheap as an action row (see :meth:`save_fair`)."""
        create_schema(self.engine)

    @property
    def commits(self) -> int:
        """How many transactions the writer committed (for tests and the benchmark)."""
        return self._writer.commits

    @property
    def inline(self) -> bool:
        """Whether commits run in the event loop's thread (see :attr:`Writer.inline`)."""
        return self._writer.inline

    def start(self) -> None:
        """Start writing (the writer thread, unless commits are inline)."""
        self._writer.start()

    def close(self) -> None:
        """Finish every write already submitted, stop the writer and close the connections."""
        self._writer.close()
        self.engine.dispose()

    def write(self, call: Callable[[Connection], T]) -> asyncio.Future[T]:
        """Run ``call(connection)`` in the writer's next transaction; the future is done once
        it is committed (outside an event loop: blocks and returns the result)."""
        return self._writer.write(call)

    # ------------------------------------------------------------------ writes

    def append_actions(self, table_id: str, items: Iterable[tuple[int, dict[str, Any]]],
                       fence: int | None = None) -> asyncio.Future[None]:
        """Store actions ``(seq, action JSON)`` of a table; done once they are durable.
        ``fence``: the writer's fencing token (several processes; :class:`FencedOut` if stale)."""
        now = time.time()
        rows = [(table_id, seq, orjson.dumps(action).decode(), now) for seq, action in items]
        result: asyncio.Future[None] = self._writer.submit(rows, None, (table_id, fence) if fence is not None else None)
        return result

    def save_fair(self, table_id: str, fair: dict[str, Any], fence: int | None = None) -> asyncio.Future[None]:
        """Store the secret side of a table's fair deals (before its commitment is shown)."""
        values = {"id": table_id, "fair": orjson.dumps(fair).decode()}  # twice a hand at every table
        params: Any = tuple(values[name] for name in self._fair_order) if self._fair_order is not None else values

        def call(conn: Connection) -> None:
            check_fence(conn, table_id, fence)
            conn.exec_driver_sql(self._fair_sql, params)

        return self.write(call)

    def load_fair(self, table_id: str) -> dict[str, Any] | None:
        """The secret side of a table's fair deals, as stored (``None``: none yet)."""
        with self.engine.connect() as conn:
            found = conn.execute(select(game_tables.c.fair).where(game_tables.c.id == table_id)).scalar()
        return json.loads(found) if found else None

    def save_analysis(self, table_id: str, result: dict[str, Any]) -> asyncio.Future[None]:
        """Keep a finished game's analysis (a second one of the same game is dropped)."""
        text_value = orjson.dumps(result).decode()

        def call(conn: Connection) -> None:
            if conn.execute(select(analyses.c.table_id).where(analyses.c.table_id == table_id)).first() is None:
                conn.execute(analyses.insert().values(table_id=table_id, created=time.time(), result=text_value))

        return self.write(call)

    def load_analysis(self, table_id: str) -> dict[str, Any] | None:
        """A finished game's analysis, if it has been made."""
        with self.engine.connect() as conn:
            found = conn.execute(select(analyses.c.result).where(analyses.c.table_id == table_id)).scalar()
        return orjson.loads(found) if found else None

    def take_fence(self, table_id: str) -> asyncio.Future[int]:
        """Make this process the table's owner in the database: a new fencing token, greater than
        every earlier one; from now on the writes of earlier owners are refused."""
        def call(conn: Connection) -> int:
            conn.execute(update(game_tables).where(game_tables.c.id == table_id)
                         .values(fence=game_tables.c.fence + 1))
            found = conn.execute(select(game_tables.c.fence).where(game_tables.c.id == table_id)).scalar()
            if found is None:
                raise StoreError(f"there is no table {table_id}")
            return int(found)

        return self.write(call)

    def create_table(self, row: TableRow, seat_rows: Sequence[SeatRow]) -> asyncio.Future[None]:
        """Store a new table with its seats."""
        def call(conn: Connection) -> None:
            conn.execute(game_tables.insert().values(
                id=row.id, created=row.created, updated=row.created, status=row.status,
                rules=json.dumps(row.rules), settings=json.dumps(row.settings)))
            conn.execute(seats.insert(), [_seat_values(row.id, seat) for seat in seat_rows])

        return self.write(call)

    def save_seat(self, table_id: str, seat: SeatRow, fence: int | None = None) -> asyncio.Future[None]:
        """Replace one seat (a person joined, a seat was given to a bot)."""
        def call(conn: Connection) -> None:
            check_fence(conn, table_id, fence)
            conn.execute(seats.delete().where(seats.c.table_id == table_id, seats.c.seat == seat.seat))
            conn.execute(seats.insert().values(**_seat_values(table_id, seat)))

        return self.write(call)

    def save_table(self, table_id: str, seat_rows: Sequence[SeatRow] = (), status: str | None = None,
                   settings: dict[str, Any] | None = None, fence: int | None = None) -> asyncio.Future[None]:
        """Replace some seats and change the status and settings of a table, in one transaction."""
        values: dict[str, Any] = {"updated": time.time()}
        if status is not None:
            values["status"] = status
        if settings is not None:
            values["settings"] = json.dumps(settings)

        def call(conn: Connection) -> None:
            check_fence(conn, table_id, fence)
            for seat in seat_rows:
                conn.execute(seats.delete().where(seats.c.table_id == table_id, seats.c.seat == seat.seat))
            if seat_rows:
                conn.execute(seats.insert(), [_seat_values(table_id, seat) for seat in seat_rows])
            conn.execute(update(game_tables).where(game_tables.c.id == table_id).values(**values))

        return self.write(call)

    def add_chat(self, table_id: str, line: ChatLine, fence: int | None = None) -> asyncio.Future[None]:
        """Store one line of a table's chat."""
        def call(conn: Connection) -> None:
            check_fence(conn, table_id, fence)
            conn.execute(chat.insert().values(table_id=table_id, id=line.id, seat=line.seat, name=line.name,
                                              text=line.text, created=line.at))

        return self.write(call)

    def set_status(self, table_id: str, status: str, settings: dict[str, Any] | None = None,
                   fence: int | None = None) -> asyncio.Future[None]:
        """Change a table's status (and settings)."""
        values: dict[str, Any] = {"status": status, "updated": time.time()}
        if settings is not None:
            values["settings"] = json.dumps(settings)

        def call(conn: Connection) -> None:
            check_fence(conn, table_id, fence)
            conn.execute(update(game_tables).where(game_tables.c.id == table_id).values(**values))

        return self.write(call)

    def save_sheet(self, sheet_id: str, record: dict[str, Any], created: bool = False,
                   undo: Sequence[dict[str, Any]] = (), rev: int | None = None) -> asyncio.Future[int]:
        """Store a scorekeeper sheet's record and undo history (insert it if ``created``); the
        result is the sheet's new revision. ``rev``: the revision the change was made on — if
        the stored sheet has moved on meanwhile (another process changed it), nothing is written
        and :class:`Conflict` is raised."""
        now = time.time()
        record_text = json.dumps(record, ensure_ascii=False)
        undo_text = json.dumps(list(undo), ensure_ascii=False)

        def call(conn: Connection) -> int:
            if created:
                conn.execute(sheets.insert().values(id=sheet_id, created=now, updated=now, record=record_text,
                                                    undo=undo_text, rev=0))
                return 0
            query = update(sheets).where(sheets.c.id == sheet_id)
            if rev is not None:
                query = query.where(sheets.c.rev == rev)
            done = conn.execute(query.values(updated=now, record=record_text, undo=undo_text, rev=sheets.c.rev + 1))
            if done.rowcount != 1:
                raise Conflict(f"scoresheet {sheet_id} changed meanwhile")
            return (rev + 1) if rev is not None else int(conn.execute(
                select(sheets.c.rev).where(sheets.c.id == sheet_id)).scalar_one())

        return self.write(call)

    # ------------------------------------------------------------------ reads (any thread)

    def load_tables(self, statuses: Sequence[str] | None = None, ids: Sequence[str] | None = None) -> list[StoredTable]:
        """Every stored table (of those statuses, or those ids) with its seats and action log."""
        with self.engine.connect() as conn:
            query = select(game_tables)
            if statuses is not None:
                query = query.where(game_tables.c.status.in_(list(statuses)))
            if ids is not None:
                query = query.where(game_tables.c.id.in_(list(ids)))
            found: dict[str, StoredTable] = {}
            for row in conn.execute(query.order_by(game_tables.c.created)):
                found[row.id] = StoredTable(TableRow(row.id, row.created, TableStatus(row.status),
                                                     json.loads(row.rules), json.loads(row.settings)), [],
                                            fair=json.loads(row.fair) if row.fair else None)
            if not found:
                return []
            keys = list(found)
            for chunk in _chunks(keys, 500):
                for row in conn.execute(select(seats).where(seats.c.table_id.in_(chunk)).order_by(seats.c.seat)):
                    found[row.table_id].seats.append(SeatRow(row.seat, row.kind, row.bot, row.name, row.token_hash))
                query = select(actions.c.table_id, actions.c.seq, actions.c.action).where(
                    actions.c.table_id.in_(chunk)).order_by(actions.c.table_id, actions.c.seq)
                for row in conn.execute(query):
                    stored = found[row.table_id]
                    if row.seq != len(stored.actions):
                        raise StoreError(f"table {row.table_id}: action {len(stored.actions)} is missing")
                    stored.actions.append(orjson.loads(row.action))
                latest = select(chat, func.row_number().over(partition_by=chat.c.table_id, order_by=chat.c.id.desc())
                                .label("back")).where(chat.c.table_id.in_(chunk)).subquery()
                for row in conn.execute(select(latest).where(latest.c.back <= CHAT_LOADED)
                                        .order_by(latest.c.table_id, latest.c.id)):
                    found[row.table_id].chat.append(ChatLine(row.id, row.seat, row.name, row.text, row.created))
            return list(found.values())

    def load_table(self, table_id: str) -> StoredTable | None:
        """One stored table, or ``None``."""
        found = self.load_tables(ids=[table_id])
        return found[0] if found else None

    def load_table_row(self, table_id: str) -> TableRow | None:
        """A table's row (its status, rules and settings), without its seats and actions."""
        with self.engine.connect() as conn:
            row = conn.execute(select(game_tables).where(game_tables.c.id == table_id)).first()
        if row is None:
            return None
        return TableRow(row.id, row.created, TableStatus(row.status), json.loads(row.rules), json.loads(row.settings))

    def unattended_tables(self) -> list[str]:
        """The playing tables that play on with nobody connected (settings ``extra.unattended``:
        a duplicate event's tables of bots)."""
        with self.engine.connect() as conn:
            rows = conn.execute(select(game_tables.c.id, game_tables.c.settings)
                                .where(game_tables.c.status == TableStatus.PLAYING)).all()
        return [row.id for row in rows if json.loads(row.settings).get("extra", {}).get("unattended")]

    def load_seats(self, table_id: str) -> list[SeatRow]:
        """A table's seats as stored."""
        with self.engine.connect() as conn:
            rows = conn.execute(select(seats).where(seats.c.table_id == table_id).order_by(seats.c.seat)).all()
        return [SeatRow(row.seat, row.kind, row.bot, row.name, row.token_hash) for row in rows]

    def load_actions(self, table_id: str, start: int) -> list[dict[str, Any]]:
        """A table's stored actions from the ``start``-th on, in order."""
        with self.engine.connect() as conn:
            rows = conn.execute(select(actions.c.seq, actions.c.action).where(
                actions.c.table_id == table_id, actions.c.seq >= start).order_by(actions.c.seq)).all()
        out: list[dict[str, Any]] = []
        for row in rows:
            if row.seq != start + len(out):
                raise StoreError(f"table {table_id}: action {start + len(out)} is missing")
            out.append(orjson.loads(row.action))
        return out

    def table_exists(self, table_id: str) -> bool:
        with self.engine.connect() as conn:
            return conn.execute(select(game_tables.c.id).where(game_tables.c.id == table_id)).first() is not None

    def load_sheet(self, sheet_id: str) -> StoredSheet | None:
        """A scorekeeper sheet's record, undo history and revision, or ``None``."""
        with self.engine.connect() as conn:
            row = conn.execute(select(sheets.c.record, sheets.c.undo, sheets.c.rev)
                               .where(sheets.c.id == sheet_id)).first()
        if row is None:
            return None
        undo = json.loads(row.undo) if row.undo else []
        return StoredSheet(json.loads(row.record), [entry for entry in undo if isinstance(entry, dict)], row.rev)

    def sheet_revision(self, sheet_id: str) -> int | None:
        """A scorekeeper sheet's revision (how many times it was saved), or ``None``."""
        with self.engine.connect() as conn:
            found = conn.execute(select(sheets.c.rev).where(sheets.c.id == sheet_id)).scalar()
        return None if found is None else int(found)

    def count_actions(self, table_id: str) -> int:
        with self.engine.connect() as conn:
            return len(conn.execute(select(actions.c.seq).where(actions.c.table_id == table_id)).all())


def _seat_values(table_id: str, seat: SeatRow) -> dict[str, Any]:
    return {"table_id": table_id, "seat": seat.seat, "kind": seat.kind, "bot": seat.bot, "name": seat.name,
            "token_hash": seat.token_hash}


def _chunks(items: list[str], size: int) -> Iterable[list[str]]:
    for start in range(0, len(items), size):
        yield items[start:start + size]


__all__ = [
    "ACTION_COLUMNS", "CHAT_LOADED", "SCHEMA_VERSION", "SQLITE_SYNC", "ChatLine", "Conflict", "FencedOut",
    "SeatKind", "SeatRow", "Store", "StoreError", "StoredSheet", "StoredTable", "TableRow", "TableStatus",
    "actions", "analyses", "chat", "database_url", "game_tables", "metadata", "schema_info", "seats", "sheets",
]
