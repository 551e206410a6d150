"""The database of the web app: tables, seats, the action log, scoresheets.

One schema, written with SQLAlchemy Core, serves SQLite (the default, a file in the
current directory) and PostgreSQL (``postgresql://user:password@host/db``, through
psycopg 3).

What is stored is what a game needs to come back exactly after any stop, ``kill -9``
included: a table's rules, settings and seats (names, bot levels, the SHA-256 of each seat's
secret token — never the token), and its **action log**: every action the engine accepted,
chance included (the cut, each shuffle and cut of the pack), in order. A table is rebuilt
by replaying its log through the engine.

Writes are committed in order, in batches: whatever is waiting when a commit starts joins it
(*group commit*), so a busy server makes few, larger transactions, while each caller still
learns only after its own write is durable. Commits happen in one writer thread (or, for
SQLite with ``sqlite_sync="normal"``, in the event loop's thread once per turn of the loop).
A batch of nothing but action rows (the hot path: every move of every game) goes straight
through the database driver, one ``executemany`` and one commit on a connection the writer
keeps; everything else goes through SQLAlchemy:

>>> import asyncio, tempfile, os
>>> async def demo(path: str) -> list[str]:
...     store = Store(f"sqlite:///{path}")
...     store.start()
...     await store.create_table(TableRow("ABC234", 1.0, "waiting", {"preset": "classic", "players": 3}, {}),
...                              [SeatRow(0, "human", None, "Ann", "hash")])
...     await store.append_actions("ABC234", [(0, {"type": "draw", "seat": 0, "card": "AS"})])
...     store.close()
...     return [row.id for row in Store(f"sqlite:///{path}").load_tables()]
>>> with tempfile.TemporaryDirectory() as folder:
...     asyncio.run(demo(os.path.join(folder, "demo.db")))
['ABC234']
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import queue
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Final, TypeVar

import orjson
from sqlalchemy import (
    Column,
    Engine,
    Float,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    bindparam,
    create_engine,
    event,
    func,
    inspect,
    select,
    text,
    update,
)
from sqlalchemy.engine import Connection
from sqlalchemy.engine.interfaces import DBAPIConnection
from sqlalchemy.pool import ConnectionPoolEntry, PoolProxiedConnection

log = logging.getLogger("ohhell.server.storage.store")

T = TypeVar("T")

SCHEMA_VERSION: Final = 5
"""1: the first schema; 2: scoresheets keep their undo history (column ``undo``); 3: table chat
(a new table, which ``create_all`` makes); 4: each table's fencing token (column ``fence``) and
each scoresheet's revision (column ``rev``), for several server processes on one database; 5: the
seeds of provably fair deals (column ``fair``)."""

metadata = MetaData()

game_tables = Table(
    "ohhell_tables", metadata,
    Column("id", String(16), primary_key=True),
    Column("created", Float, nullable=False),
    Column("updated", Float, nullable=False),
    Column("status", String(16), nullable=False),
    Column("rules", Text, nullable=False),
    Column("settings", Text, nullable=False),
    Column("fence", Integer, nullable=False, server_default="0"),
    Column("fair", Text, nullable=True),
)
"""One row per table: its code, status (``waiting``, ``playing``, ``finished``), the rules
(the record's ``rules`` object) and settings (timer, host seat…), both JSON; ``fence``: the
fencing token of the table's latest owner when several server processes share the database
(:meth:`Store.take_fence`); ``fair``: the secret side of its provably fair deals (the seeds,
revealed hand by hand; :class:`ohhell.fairness.FairTable`), never sent anywhere as it is."""

seats = Table(
    "ohhell_seats", metadata,
    Column("table_id", String(16), ForeignKey("ohhell_tables.id", ondelete="CASCADE"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("kind", String(8), nullable=False),
    Column("bot", String(64), nullable=True),
    Column("name", String(64), nullable=True),
    Column("token_hash", String(64), nullable=True),
)
"""One row per seat: ``open`` (waiting for a person), ``human`` or ``bot`` (with its level)."""

actions = Table(
    "ohhell_actions", metadata,
    Column("table_id", String(16), ForeignKey("ohhell_tables.id", ondelete="CASCADE"), primary_key=True),
    Column("seq", Integer, primary_key=True),
    Column("action", Text, nullable=False),
    Column("created", Float, nullable=False),
)
"""The action log: ``seq`` is the action's index in the game's history (its version before it)."""

ACTION_COLUMNS: Final = ("table_id", "seq", "action", "created")
"""The columns of an action row, in the order of the tuples :meth:`Store.append_actions` queues."""

sheets = Table(
    "ohhell_sheets", metadata,
    Column("id", String(40), primary_key=True),
    Column("created", Float, nullable=False),
    Column("updated", Float, nullable=False),
    Column("record", Text, nullable=False),
    Column("undo", Text, nullable=True),
    Column("rev", Integer, nullable=False, server_default="0"),
)
"""Scorekeeper sheets: the ``ohhell/1`` record of scoresheet hands, JSON; ``undo``: the records
before the changes that can still be taken back (JSON list, oldest first)."""

chat = Table(
    "ohhell_chat", metadata,
    Column("table_id", String(16), ForeignKey("ohhell_tables.id", ondelete="CASCADE"), primary_key=True),
    Column("id", Integer, primary_key=True),
    Column("seat", Integer, nullable=True),
    Column("name", String(64), nullable=True),
    Column("text", Text, nullable=False),
    Column("created", Float, nullable=False),
)
"""A table's chat: ``id`` counts the lines of the table from 0; ``seat`` is null for a spectator."""

analyses = Table(
    "ohhell_analyses", metadata,
    Column("table_id", String(16), ForeignKey("ohhell_tables.id", ondelete="CASCADE"), primary_key=True),
    Column("created", Float, nullable=False),
    Column("result", Text, nullable=False),
)
"""The post-game analysis of finished games (``ohhell.analysis``), JSON, computed once."""

schema_info = Table(
    "ohhell_schema", metadata,
    Column("version", Integer, primary_key=True),
)


CHAT_LOADED: Final = 50
"""How many of a table's last chat lines are loaded with it."""


class StoreError(RuntimeError):
    """The database refused a write (the action it carried is not accepted)."""


class FencedOut(StoreError):
    """A write of a table's former owner, refused: another process has taken the table since
    (its fencing token is newer). The writer must let the table go."""


class Conflict(StoreError):
    """A write based on an old version of a row (another process changed it first)."""


@dataclass(frozen=True)
class TableRow:
    """A table as stored (rules and settings decoded)."""

    id: str
    created: float
    status: str
    rules: dict[str, Any]
    settings: dict[str, Any]


@dataclass(frozen=True)
class SeatRow:
    """A seat as stored."""

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
    """The last :data:`CHAT_LOADED` lines of its chat, oldest first."""
    fair: dict[str, Any] | None = None
    """The secret side of its fair deals (the server's only)."""

    @property
    def id(self) -> str:
        return self.row.id


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
        cursor.close()

    return set_pragmas


ActionRow = tuple[str, int, str, float]
"""An action row: table, seq, the action's JSON text, when (``ACTION_COLUMNS``)."""


@dataclass
class _Job:
    """A write waiting for the writer thread: action rows to insert, or a function to run."""

    rows: list[ActionRow] | None
    call: Callable[[Connection], Any] | None
    future: asyncio.Future[Any] | None
    loop: asyncio.AbstractEventLoop | None
    done: threading.Event | None = None
    result: Any = None
    error: BaseException | None = None
    fence: tuple[str, int] | None = None
    """For action rows of a fenced owner: the table and the owner's fencing token, checked in
    the same transaction as the insert."""


_STOP: Final = object()


class Store:
    """The database of a server. :meth:`start` the writer thread before writing."""

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
        self.max_batch = max_batch
        self._queue: queue.SimpleQueue[_Job | object] = queue.SimpleQueue()
        self._thread: threading.Thread | None = None
        self._running = False
        self.inline = self.is_sqlite and sqlite_sync == "normal"
        """Commit in the event loop's own thread, once per turn of the loop (SQLite without fsync:
        a commit costs less than handing the work to a thread and back); else in the writer
        thread (an fsync, or PostgreSQL's round trip, that the event loop must not wait for)."""
        self._pending: list[_Job] = []
        self._flush_scheduled = False
        self.commits = 0
        """How many transactions the writer committed (for tests and the benchmark)."""
        insert = actions.insert().compile(dialect=self.engine.dialect, column_keys=list(ACTION_COLUMNS))
        self._insert_sql = str(insert)
        """The driver's own INSERT of action rows (its parameter style: ``?`` for SQLite, named for psycopg)."""
        self._insert_named = not insert.positional
        assert self._insert_named or tuple(insert.positiontup or ()) == ACTION_COLUMNS
        fence = (update(game_tables).where(game_tables.c.id == bindparam("id"),
                                           game_tables.c.fence == bindparam("fence"))
                 .values(fence=game_tables.c.fence).compile(dialect=self.engine.dialect))
        self._fence_sql = str(fence)
        """The driver's own check of a fencing token (the row is locked until the commit)."""
        fair = (update(game_tables).where(game_tables.c.id == bindparam("id")).values(fair=bindparam("fair"))
                .compile(dialect=self.engine.dialect))
        self._fair_sql = str(fair)
        self._fair_order = tuple(fair.positiontup or ()) if fair.positional else None
        """The driver's own update of a table's fair-deal secrets: twice a hand at every table,
        so kept as cheap as an action row (see :meth:`save_fair`)."""
        self._raw: PoolProxiedConnection | None = None
        """The connection the writer keeps for batches of action rows (checked out at the first)."""
        self._commit_lock = threading.Lock()
        """One commit at a time (the writer's connection is not shared between threads)."""
        self._create_schema()

    def _create_schema(self) -> None:
        metadata.create_all(self.engine)
        with self.engine.begin() as conn:
            found = conn.execute(select(schema_info.c.version)).scalar()
            if found is None:
                conn.execute(schema_info.insert().values(version=SCHEMA_VERSION))
            elif found > SCHEMA_VERSION:
                raise StoreError(f"the database was written by a newer ohhell (schema {found}); "
                                 f"this one knows schema {SCHEMA_VERSION}")
            elif found < SCHEMA_VERSION:
                _migrate(conn, found)
                conn.execute(update(schema_info).values(version=SCHEMA_VERSION))
                log.info("database schema %d upgraded to %d", found, SCHEMA_VERSION)

    # ------------------------------------------------------------------ writer thread

    def start(self) -> None:
        """Start writing (the writer thread, unless commits are inline)."""
        self._running = True
        if self._thread is None and not self.inline:
            self._thread = threading.Thread(target=self._writer, name="ohhell-store-writer", daemon=True)
            self._thread.start()

    def close(self) -> None:
        """Finish every write already submitted, stop the writer and close the connections."""
        self._running = False
        if self._pending:
            self._flush_inline()
        if self._thread is not None:
            self._queue.put(_STOP)
            self._thread.join()
            self._thread = None
        self._drop_raw(invalidate=False)
        self.engine.dispose()

    def _writer(self) -> None:
        while True:
            first = self._queue.get()
            if first is _STOP:
                return
            batch: list[_Job] = [first]  # type: ignore[list-item]
            stop = False
            while len(batch) < self.max_batch:
                try:
                    item = self._queue.get_nowait()
                except queue.Empty:
                    break
                if item is _STOP:
                    stop = True
                    break
                batch.append(item)  # type: ignore[arg-type]
            self._commit(batch)
            if stop:
                return

    def _commit(self, batch: list[_Job]) -> None:
        with self._commit_lock:
            try:
                if all(job.rows is not None for job in batch):
                    fences = {job.fence for job in batch if job.fence is not None}
                    self._insert_rows([row for job in batch for row in job.rows or ()], fences)
                else:
                    with self.engine.begin() as conn:
                        self._run(conn, batch)
                self.commits += 1
            except Exception as error:  # find the write at fault: run each alone
                if isinstance(error, FencedOut):  # a former owner's write: expected, not a failure
                    log.info("a batch of %d writes held a stale fencing token (%s); retrying them one by one",
                             len(batch), error)
                else:
                    log.exception("a batch of %d writes failed; retrying them one by one", len(batch))
                for job in batch:
                    job.result, job.error = None, None
                    try:
                        with self.engine.begin() as conn:
                            self._run(conn, [job])
                        self.commits += 1
                    except Exception as error:  # reported to the caller
                        job.error = error
        self._finish(batch)

    def _insert_rows(self, rows: list[ActionRow], fences: set[tuple[str, int]]) -> None:
        """Insert action rows and commit, through the driver itself: SQLAlchemy's statement
        machinery would cost more than the insert (this runs for every move of every game).
        ``fences``: the owners' fencing tokens the rows' tables must still have."""
        raw = self._raw
        if raw is None:
            raw = self._raw = self.engine.raw_connection()
        params: list[Any] = [dict(zip(ACTION_COLUMNS, row, strict=True)) for row in rows] \
            if self._insert_named else rows
        try:
            cursor = raw.cursor()
            try:
                for table_id, fence in fences:
                    cursor.execute(self._fence_sql, {"id": table_id, "fence": fence} if self._insert_named
                                   else (table_id, fence))
                    if cursor.rowcount != 1:
                        raise FencedOut(f"table {table_id}: the fencing token {fence} is no longer the owner's")
                cursor.executemany(self._insert_sql, params)
            finally:
                cursor.close()
            raw.commit()
        except Exception:
            self._drop_raw(invalidate=True)  # a broken connection must not serve the next batch
            raise

    def _drop_raw(self, invalidate: bool) -> None:
        raw, self._raw = self._raw, None
        if raw is None:
            return
        with contextlib.suppress(Exception):
            raw.rollback()
        with contextlib.suppress(Exception):
            if invalidate:
                raw.invalidate()
            else:
                raw.close()

    def _run(self, conn: Connection, batch: list[_Job]) -> None:
        pending: list[ActionRow] = []
        for job in batch:
            if job.rows is not None:
                if job.fence is not None:
                    _check_fence(conn, *job.fence)
                pending.extend(job.rows)
                continue
            if pending:  # keep the order: earlier action rows before a later call
                self._insert_in(conn, pending)
                pending = []
            assert job.call is not None
            job.result = job.call(conn)
        if pending:
            self._insert_in(conn, pending)

    def _insert_in(self, conn: Connection, rows: list[ActionRow]) -> None:
        """Action rows inserted in ``conn``'s transaction by the driver's own statement: a batch
        that also holds other writes (a seat, a fair deal's seeds) stays as cheap per row as one
        of action rows alone, and the writer holds the interpreter lock no longer than it must."""
        params: list[Any] = [dict(zip(ACTION_COLUMNS, row, strict=True)) for row in rows] \
            if self._insert_named else list(rows)
        conn.exec_driver_sql(self._insert_sql, params)

    def _flush_inline(self) -> None:
        """Commit every write submitted during this turn of the event loop, in one transaction."""
        self._flush_scheduled = False
        batch, self._pending = self._pending, []
        if batch:
            self._commit(batch)

    def _finish(self, batch: list[_Job]) -> None:
        """Tell every writer of a committed batch: one wake-up of each event loop for the
        whole batch, not one per write."""
        by_loop: dict[asyncio.AbstractEventLoop, list[_Job]] = {}
        for job in batch:
            if job.done is not None:
                job.done.set()
            else:
                assert job.loop is not None
                by_loop.setdefault(job.loop, []).append(job)
        for loop, jobs in by_loop.items():
            if self.inline:
                _settle(jobs)
            else:
                with contextlib.suppress(RuntimeError):  # a closed loop: nobody waits any more
                    loop.call_soon_threadsafe(_settle, jobs)

    def _submit(self, rows: list[ActionRow] | None, call: Callable[[Connection], Any] | None,
                fence: tuple[str, int] | None = None) -> Any:
        if not self._running:
            raise StoreError("the store's writer is not running (call start())")
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            loop = None
        if loop is None:  # a caller outside the event loop waits on a plain event
            job = _Job(rows, call, None, None, done=threading.Event(), fence=fence)
            if self.inline:
                self._commit([job])
            else:
                self._queue.put(job)
            assert job.done is not None
            job.done.wait()
            if job.error is not None:
                raise job.error if isinstance(job.error, StoreError) else StoreError(str(job.error))
            return job.result
        future: asyncio.Future[Any] = loop.create_future()
        if self.inline:
            self._pending.append(_Job(rows, call, future, loop, fence=fence))
            if not self._flush_scheduled:
                self._flush_scheduled = True
                loop.call_soon(self._flush_inline)
        else:
            self._queue.put(_Job(rows, call, future, loop, fence=fence))
        return future

    def write(self, call: Callable[[Connection], T]) -> asyncio.Future[T]:
        """Run ``call(connection)`` in the writer's next transaction; the future is done once
        it is committed (outside an event loop: blocks and returns the result)."""
        result: asyncio.Future[T] = self._submit(None, call)
        return result

    # ------------------------------------------------------------------ writes

    def append_actions(self, table_id: str, items: Iterable[tuple[int, dict[str, Any]]],
                       fence: int | None = None) -> asyncio.Future[None]:
        """Store actions ``(seq, action JSON)`` of a table; done once they are durable.
        ``fence``: the writer's fencing token (several processes; :class:`FencedOut` if stale)."""
        now = time.time()
        rows = [(table_id, seq, orjson.dumps(action).decode(), now) for seq, action in items]
        result: asyncio.Future[None] = self._submit(rows, None, (table_id, fence) if fence is not None else None)
        return result

    def save_fair(self, table_id: str, fair: dict[str, Any], fence: int | None = None) -> asyncio.Future[None]:
        """Store the secret side of a table's fair deals (before its commitment is shown)."""
        values = {"id": table_id, "fair": json.dumps(fair)}
        params: Any = tuple(values[name] for name in self._fair_order) if self._fair_order is not None else values

        def call(conn: Connection) -> None:
            _check_fence(conn, table_id, fence)
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
            _check_fence(conn, table_id, fence)
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
            _check_fence(conn, table_id, fence)
            for seat in seat_rows:
                conn.execute(seats.delete().where(seats.c.table_id == table_id, seats.c.seat == seat.seat))
            if seat_rows:
                conn.execute(seats.insert(), [_seat_values(table_id, seat) for seat in seat_rows])
            conn.execute(update(game_tables).where(game_tables.c.id == table_id).values(**values))

        return self.write(call)

    def add_chat(self, table_id: str, line: ChatLine, fence: int | None = None) -> asyncio.Future[None]:
        """Store one line of a table's chat."""
        def call(conn: Connection) -> None:
            _check_fence(conn, table_id, fence)
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
            _check_fence(conn, table_id, fence)
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
                found[row.id] = StoredTable(TableRow(row.id, row.created, row.status, json.loads(row.rules),
                                                     json.loads(row.settings)), [],
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
        return TableRow(row.id, row.created, row.status, json.loads(row.rules), json.loads(row.settings))

    def unattended_tables(self) -> list[str]:
        """The playing tables that play on with nobody connected (settings ``extra.unattended``:
        a duplicate event's tables of bots)."""
        with self.engine.connect() as conn:
            rows = conn.execute(select(game_tables.c.id, game_tables.c.settings)
                                .where(game_tables.c.status == "playing")).all()
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


def _check_fence(conn: Connection, table_id: str, fence: int | None) -> None:
    """Raise :class:`FencedOut` unless ``fence`` is still the table's fencing token (``None``: a
    single process, nothing to check). The row stays locked until the transaction ends, so a
    new owner's :meth:`Store.take_fence` waits for this write or comes before it."""
    if fence is None:
        return
    done = conn.execute(update(game_tables).where(game_tables.c.id == table_id, game_tables.c.fence == fence)
                        .values(fence=game_tables.c.fence))
    if done.rowcount != 1:
        raise FencedOut(f"table {table_id}: the fencing token {fence} is no longer the owner's")


def _settle(jobs: list[_Job]) -> None:
    """In the event loop's thread: hand each committed write's result (or error) to its caller."""
    for job in jobs:
        future = job.future
        assert future is not None
        if future.done():  # cancelled: nobody waits any more
            continue
        if job.error is not None:
            future.set_exception(job.error if isinstance(job.error, StoreError) else StoreError(str(job.error)))
        else:
            future.set_result(job.result)


def _seat_values(table_id: str, seat: SeatRow) -> dict[str, Any]:
    return {"table_id": table_id, "seat": seat.seat, "kind": seat.kind, "bot": seat.bot, "name": seat.name,
            "token_hash": seat.token_hash}


def _migrate(conn: Connection, version: int) -> None:
    """Bring a database of schema ``version`` up to :data:`SCHEMA_VERSION` (the tables
    ``create_all`` made are already current; older tables get their new columns)."""
    sheet_columns = {column["name"] for column in inspect(conn).get_columns("ohhell_sheets")}
    table_columns = {column["name"] for column in inspect(conn).get_columns("ohhell_tables")}
    if version < 2 and "undo" not in sheet_columns:
        conn.execute(text("ALTER TABLE ohhell_sheets ADD COLUMN undo TEXT"))
    if version < 5 and "fair" not in table_columns:
        conn.execute(text("ALTER TABLE ohhell_tables ADD COLUMN fair TEXT"))
    if version < 4:
        if "fence" not in table_columns:
            conn.execute(text("ALTER TABLE ohhell_tables ADD COLUMN fence INTEGER NOT NULL DEFAULT 0"))
        if "rev" not in sheet_columns:
            conn.execute(text("ALTER TABLE ohhell_sheets ADD COLUMN rev INTEGER NOT NULL DEFAULT 0"))


def _chunks(items: list[str], size: int) -> Iterable[list[str]]:
    for start in range(0, len(items), size):
        yield items[start:start + size]
