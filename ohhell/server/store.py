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

log = logging.getLogger("ohhell.server.store")

T = TypeVar("T")

SCHEMA_VERSION: Final = 3
"""1: the first schema; 2: scoresheets keep their undo history (column ``undo``); 3: table chat
(a new table, which ``create_all`` makes)."""

metadata = MetaData()

game_tables = Table(
    "ohhell_tables", metadata,
    Column("id", String(16), primary_key=True),
    Column("created", Float, nullable=False),
    Column("updated", Float, nullable=False),
    Column("status", String(16), nullable=False),
    Column("rules", Text, nullable=False),
    Column("settings", Text, nullable=False),
)
"""One row per table: its code, status (``waiting``, ``playing``, ``finished``), the rules
(the record's ``rules`` object) and settings (timer, host seat…), both JSON."""

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

schema_info = Table(
    "ohhell_schema", metadata,
    Column("version", Integer, primary_key=True),
)


CHAT_LOADED: Final = 50
"""How many of a table's last chat lines are loaded with it."""


class StoreError(RuntimeError):
    """The database refused a write (the action it carried is not accepted)."""


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


@dataclass
class StoredTable:
    """Everything stored about one table: enough to rebuild it exactly."""

    row: TableRow
    seats: list[SeatRow]
    actions: list[dict[str, Any]] = field(default_factory=list)
    chat: list[ChatLine] = field(default_factory=list)
    """The last :data:`CHAT_LOADED` lines of its chat, oldest first."""

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
                    self._insert_rows([row for job in batch for row in job.rows or ()])
                else:
                    with self.engine.begin() as conn:
                        self._run(conn, batch)
                self.commits += 1
            except Exception:  # find the write at fault: run each alone
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

    def _insert_rows(self, rows: list[ActionRow]) -> None:
        """Insert action rows and commit, through the driver itself: SQLAlchemy's statement
        machinery would cost more than the insert (this runs for every move of every game)."""
        raw = self._raw
        if raw is None:
            raw = self._raw = self.engine.raw_connection()
        params: list[Any] = [dict(zip(ACTION_COLUMNS, row, strict=True)) for row in rows] \
            if self._insert_named else rows
        try:
            cursor = raw.cursor()
            try:
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
                pending.extend(job.rows)
                continue
            if pending:  # keep the order: earlier action rows before a later call
                conn.execute(actions.insert(), [dict(zip(ACTION_COLUMNS, row, strict=True)) for row in pending])
                pending = []
            assert job.call is not None
            job.result = job.call(conn)
        if pending:
            conn.execute(actions.insert(), [dict(zip(ACTION_COLUMNS, row, strict=True)) for row in pending])

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

    def _submit(self, rows: list[ActionRow] | None, call: Callable[[Connection], Any] | None) -> Any:
        if not self._running:
            raise StoreError("the store's writer is not running (call start())")
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            loop = None
        if loop is None:  # a caller outside the event loop waits on a plain event
            job = _Job(rows, call, None, None, done=threading.Event())
            if self.inline:
                self._commit([job])
            else:
                self._queue.put(job)
            assert job.done is not None
            job.done.wait()
            if job.error is not None:
                raise StoreError(str(job.error))
            return job.result
        future: asyncio.Future[Any] = loop.create_future()
        if self.inline:
            self._pending.append(_Job(rows, call, future, loop))
            if not self._flush_scheduled:
                self._flush_scheduled = True
                loop.call_soon(self._flush_inline)
        else:
            self._queue.put(_Job(rows, call, future, loop))
        return future

    def write(self, call: Callable[[Connection], T]) -> asyncio.Future[T]:
        """Run ``call(connection)`` in the writer's next transaction; the future is done once
        it is committed (outside an event loop: blocks and returns the result)."""
        result: asyncio.Future[T] = self._submit(None, call)
        return result

    # ------------------------------------------------------------------ writes

    def append_actions(self, table_id: str, items: Iterable[tuple[int, dict[str, Any]]]) -> asyncio.Future[None]:
        """Store actions ``(seq, action JSON)`` of a table; done once they are durable."""
        now = time.time()
        rows = [(table_id, seq, orjson.dumps(action).decode(), now) for seq, action in items]
        result: asyncio.Future[None] = self._submit(rows, None)
        return result

    def create_table(self, row: TableRow, seat_rows: Sequence[SeatRow]) -> asyncio.Future[None]:
        """Store a new table with its seats."""
        def call(conn: Connection) -> None:
            conn.execute(game_tables.insert().values(
                id=row.id, created=row.created, updated=row.created, status=row.status,
                rules=json.dumps(row.rules), settings=json.dumps(row.settings)))
            conn.execute(seats.insert(), [_seat_values(row.id, seat) for seat in seat_rows])

        return self.write(call)

    def save_seat(self, table_id: str, seat: SeatRow) -> asyncio.Future[None]:
        """Replace one seat (a person joined, a seat was given to a bot)."""
        def call(conn: Connection) -> None:
            conn.execute(seats.delete().where(seats.c.table_id == table_id, seats.c.seat == seat.seat))
            conn.execute(seats.insert().values(**_seat_values(table_id, seat)))

        return self.write(call)

    def save_table(self, table_id: str, seat_rows: Sequence[SeatRow] = (), status: str | None = None,
                   settings: dict[str, Any] | None = None) -> asyncio.Future[None]:
        """Replace some seats and change the status and settings of a table, in one transaction."""
        values: dict[str, Any] = {"updated": time.time()}
        if status is not None:
            values["status"] = status
        if settings is not None:
            values["settings"] = json.dumps(settings)

        def call(conn: Connection) -> None:
            for seat in seat_rows:
                conn.execute(seats.delete().where(seats.c.table_id == table_id, seats.c.seat == seat.seat))
            if seat_rows:
                conn.execute(seats.insert(), [_seat_values(table_id, seat) for seat in seat_rows])
            conn.execute(update(game_tables).where(game_tables.c.id == table_id).values(**values))

        return self.write(call)

    def add_chat(self, table_id: str, line: ChatLine) -> asyncio.Future[None]:
        """Store one line of a table's chat."""
        def call(conn: Connection) -> None:
            conn.execute(chat.insert().values(table_id=table_id, id=line.id, seat=line.seat, name=line.name,
                                              text=line.text, created=line.at))

        return self.write(call)

    def set_status(self, table_id: str, status: str, settings: dict[str, Any] | None = None) -> asyncio.Future[None]:
        """Change a table's status (and settings)."""
        values: dict[str, Any] = {"status": status, "updated": time.time()}
        if settings is not None:
            values["settings"] = json.dumps(settings)

        def call(conn: Connection) -> None:
            conn.execute(update(game_tables).where(game_tables.c.id == table_id).values(**values))

        return self.write(call)

    def save_sheet(self, sheet_id: str, record: dict[str, Any], created: bool = False,
                   undo: Sequence[dict[str, Any]] = ()) -> asyncio.Future[None]:
        """Store a scorekeeper sheet's record and undo history (insert it if ``created``)."""
        now = time.time()
        record_text = json.dumps(record, ensure_ascii=False)
        undo_text = json.dumps(list(undo), ensure_ascii=False)

        def call(conn: Connection) -> None:
            if created:
                conn.execute(sheets.insert().values(id=sheet_id, created=now, updated=now, record=record_text,
                                                    undo=undo_text))
            else:
                conn.execute(update(sheets).where(sheets.c.id == sheet_id).values(updated=now, record=record_text,
                                                                                   undo=undo_text))

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
                                                     json.loads(row.settings)), [])
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

    def table_exists(self, table_id: str) -> bool:
        with self.engine.connect() as conn:
            return conn.execute(select(game_tables.c.id).where(game_tables.c.id == table_id)).first() is not None

    def load_sheet(self, sheet_id: str) -> tuple[dict[str, Any], list[dict[str, Any]]] | None:
        """A scorekeeper sheet's record and undo history, or ``None``."""
        with self.engine.connect() as conn:
            row = conn.execute(select(sheets.c.record, sheets.c.undo).where(sheets.c.id == sheet_id)).first()
        if row is None:
            return None
        undo = json.loads(row.undo) if row.undo else []
        return json.loads(row.record), [entry for entry in undo if isinstance(entry, dict)]

    def count_actions(self, table_id: str) -> int:
        with self.engine.connect() as conn:
            return len(conn.execute(select(actions.c.seq).where(actions.c.table_id == table_id)).all())


def _settle(jobs: list[_Job]) -> None:
    """In the event loop's thread: hand each committed write's result (or error) to its caller."""
    for job in jobs:
        future = job.future
        assert future is not None
        if future.done():  # cancelled: nobody waits any more
            continue
        if job.error is not None:
            future.set_exception(StoreError(str(job.error)))
        else:
            future.set_result(job.result)


def _seat_values(table_id: str, seat: SeatRow) -> dict[str, Any]:
    return {"table_id": table_id, "seat": seat.seat, "kind": seat.kind, "bot": seat.bot, "name": seat.name,
            "token_hash": seat.token_hash}


def _migrate(conn: Connection, version: int) -> None:
    """Bring a database of schema ``version`` up to :data:`SCHEMA_VERSION` (the tables
    ``create_all`` made are already current; older tables get their new columns)."""
    if version < 2:
        columns = {column["name"] for column in inspect(conn).get_columns("ohhell_sheets")}
        if "undo" not in columns:
            conn.execute(text("ALTER TABLE ohhell_sheets ADD COLUMN undo TEXT"))


def _chunks(items: list[str], size: int) -> Iterable[list[str]]:
    for start in range(0, len(items), size):
        yield items[start:start + size]
