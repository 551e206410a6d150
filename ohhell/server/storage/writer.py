"""The group-commit writer: every write of a server, committed in order, in batches.

Whatever is waiting when a commit starts joins it (*group commit*), so a busy server makes
few, larger transactions, while each caller still learns only after its own write is
durable. Commits happen in one writer thread (or, for SQLite with ``sqlite_sync="normal"``,
in the event loop's thread once per turn of the loop: :attr:`Writer.inline`). A batch of
nothing but action rows (the hot path: every move of every game) goes straight through the
database driver, one ``executemany`` and one commit on a connection the writer keeps;
everything else runs as functions of a SQLAlchemy connection, in one transaction.

On SQLite, a batch's action rows go in as a few multi-row ``INSERT … VALUES (…), (…)``
statements rather than one ``executemany``: the driver lets go of the interpreter lock around
every step of a statement, and ``executemany`` steps once per row, so with the event loop's
thread busy the writer waited for the lock back once per row (up to the interpreter's switch
interval each time, and a thread switch both ways); one statement is one step.

A write that the database refuses fails alone: the batch it was in is retried write by
write, and the next batches work as before.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import queue
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final, TypeVar

from sqlalchemy import Engine, bindparam, update
from sqlalchemy.engine import Connection
from sqlalchemy.pool import PoolProxiedConnection

from ohhell.server.storage.errors import FencedOut, StoreError
from ohhell.server.storage.schema import ACTION_COLUMNS, ActionRow, actions, game_tables

log = logging.getLogger("ohhell.server.storage.writer")

T = TypeVar("T")


@dataclass
class _Job:
    """A write waiting for the writer: action rows to insert, or a function to run."""

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

SQLITE_ROWS_PER_INSERT: Final = 200
"""Action rows per multi-row INSERT on SQLite: 800 parameters, within SQLite's smallest limit
of a statement's parameters (999)."""

FENCES_SQL: Final = (f"UPDATE {game_tables.name} AS t SET fence = t.fence "
                     "FROM unnest(%(ids)s::varchar[], %(fences)s::integer[]) AS f(id, fence) "
                     "WHERE t.id = f.id AND t.fence = f.fence")
"""Check several tables' fencing tokens at once (PostgreSQL): one round trip however many
tables a batch writes to, where one statement per table cost a round trip, and the driver's
work for it, per table and commit — about one per action in a cluster (measured with
pg_stat_statements: 1.2–1.4 fence checks per action). Each matching row stays locked until
the commit, as with :func:`check_fence`; the row count says whether every token still holds."""


_CHECK_FENCE: Final = (update(game_tables)
                       .where(game_tables.c.id == bindparam("fence_id"), game_tables.c.fence == bindparam("fence"))
                       .values(fence=game_tables.c.fence))
"""Built once: made anew for every fenced write, the statement cost more than its round trip."""


def check_fence(conn: Connection, table_id: str, fence: int | None) -> None:
    """Raise :class:`FencedOut` unless ``fence`` is still the table's fencing token (``None``: a
    single process, nothing to check). The row stays locked until the transaction ends, so a
    new owner's :meth:`~ohhell.server.storage.store.Store.take_fence` waits for this write or
    comes before it."""
    if fence is None:
        return
    done = conn.execute(_CHECK_FENCE, {"fence_id": table_id, "fence": fence})
    if done.rowcount != 1:
        raise FencedOut(f"table {table_id}: the fencing token {fence} is no longer the owner's")


class Writer:
    """The one writer of a database: :meth:`start` it, :meth:`submit` writes, :meth:`close` it."""

    def __init__(self, engine: Engine, inline: bool, max_batch: int = 2000) -> None:
        self.engine = engine
        self.max_batch = max_batch
        self.inline = inline
        """Commit in the event loop's own thread, once per turn of the loop (SQLite without fsync:
        a commit costs less than handing the work to a thread and back); else in the writer
        thread (an fsync, or PostgreSQL's round trip, that the event loop must not wait for)."""
        self._queue: queue.SimpleQueue[_Job | object] = queue.SimpleQueue()
        self._thread: threading.Thread | None = None
        self._running = False
        self._pending: list[_Job] = []
        self._flush_scheduled = False
        self.commits = 0
        """How many transactions the writer committed (for tests and the benchmark)."""
        insert = actions.insert().compile(dialect=engine.dialect, column_keys=list(ACTION_COLUMNS))
        self._insert_sql = str(insert)
        """The driver's own INSERT of action rows (its parameter style: ``?`` for SQLite, named for psycopg)."""
        self._insert_named = not insert.positional
        assert self._insert_named or tuple(insert.positiontup or ()) == ACTION_COLUMNS
        self._sqlite = engine.dialect.name == "sqlite"
        """Action rows go in by multi-row INSERTs (see the module docstring)."""
        self._insert_many: dict[int, str] = {}
        """The multi-row INSERT of n action rows (SQLite), by n."""
        fence = (update(game_tables).where(game_tables.c.id == bindparam("id"),
                                           game_tables.c.fence == bindparam("fence"))
                 .values(fence=game_tables.c.fence).compile(dialect=engine.dialect))
        self._fence_sql = str(fence)
        """The driver's own check of a fencing token (the row is locked until the commit)."""
        self._fences_sql: str | None = FENCES_SQL if engine.dialect.name == "postgresql" else None
        """PostgreSQL: every fencing token of a batch checked in one statement (see :data:`FENCES_SQL`)."""
        self._raw: PoolProxiedConnection | None = None
        """The connection the writer keeps for batches of action rows (checked out at the first)."""
        self._commit_lock = threading.Lock()
        """One commit at a time (the writer's connection is not shared between threads)."""

    def start(self) -> None:
        """Start writing (the writer thread, unless commits are inline)."""
        self._running = True
        if self._thread is None and not self.inline:
            self._thread = threading.Thread(target=self._write_batches, name="ohhell-store-writer", daemon=True)
            self._thread.start()

    def close(self) -> None:
        """Finish every write already submitted, stop the writer thread and let its connection go."""
        self._running = False
        if self._pending:
            self._flush_inline()
        if self._thread is not None:
            self._queue.put(_STOP)
            self._thread.join()
            self._thread = None
        self._drop_raw(invalidate=False)

    def submit(self, rows: list[ActionRow] | None, call: Callable[[Connection], Any] | None,
               fence: tuple[str, int] | None = None) -> Any:
        """Queue action rows to insert, or ``call(connection)`` to run, in the next commit: in an
        event loop, a future done once it is committed; outside one, wait and return the result."""
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
        """Run ``call(connection)`` in the next transaction (see :meth:`submit`)."""
        result: asyncio.Future[T] = self.submit(None, call)
        return result

    # ------------------------------------------------------------------ committing

    def _write_batches(self) -> None:
        """The writer thread: take whatever is queued (up to ``max_batch``), commit it, again."""
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
                if fences and self._fences_sql is not None:
                    self._checked_insert(raw, cursor, fences, params)
                else:
                    for table_id, fence in fences:
                        self._check_one(cursor, table_id, fence)
                    if self._sqlite:
                        for sql, values in self._sqlite_inserts(rows):
                            cursor.execute(sql, values)
                    else:
                        cursor.executemany(self._insert_sql, params)
            finally:
                cursor.close()
            raw.commit()
        except Exception:
            self._drop_raw(invalidate=True)  # a broken connection must not serve the next batch
            raise

    def _checked_insert(self, raw: PoolProxiedConnection, cursor: Any, fences: set[tuple[str, int]],
                        params: list[Any]) -> None:
        """PostgreSQL: check every fencing token of the batch (:data:`FENCES_SQL`) and insert its
        action rows in one round trip (psycopg's pipeline); :class:`FencedOut` before the commit
        if a token no longer holds (the transaction is then rolled back: nothing lands)."""
        ids, tokens = zip(*sorted(fences), strict=True)
        check = raw.cursor()
        try:
            with raw.driver_connection.pipeline():  # type: ignore[union-attr]
                check.execute(self._fences_sql, {"ids": list(ids), "fences": list(tokens)})
                cursor.executemany(self._insert_sql, params)
            if check.rowcount != len(fences):
                raise FencedOut(f"tables {', '.join(ids)}: a fencing token is no longer the owner's")
        finally:
            check.close()

    def _check_one(self, cursor: Any, table_id: str, fence: int) -> None:
        """One table's fencing token, through the driver (the row is locked until the commit)."""
        cursor.execute(self._fence_sql, {"id": table_id, "fence": fence} if self._insert_named else (table_id, fence))
        if cursor.rowcount != 1:
            raise FencedOut(f"table {table_id}: the fencing token {fence} is no longer the owner's")

    def _check_fences(self, conn: Connection, fences: set[tuple[str, int]]) -> None:
        """Every token of ``fences`` in ``conn``'s transaction: one statement on PostgreSQL."""
        if self._fences_sql is not None and len(fences) > 1:
            ids, tokens = zip(*sorted(fences), strict=True)
            done = conn.exec_driver_sql(self._fences_sql, {"ids": list(ids), "fences": list(tokens)})
            if done.rowcount != len(fences):
                raise FencedOut(f"tables {', '.join(ids)}: a fencing token is no longer the owner's")
            return
        for table_id, fence in fences:
            check_fence(conn, table_id, fence)

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
        checked: set[tuple[str, int]] = set()
        """Fencing tokens already checked (and their rows locked) in this transaction since the
        last call: the action rows' jobs up to the next call are checked together, once each."""
        for index, job in enumerate(batch):
            if job.rows is not None:
                if job.fence is not None and job.fence not in checked:
                    ahead = set()
                    for later in batch[index:]:
                        if later.rows is None:
                            break
                        if later.fence is not None:
                            ahead.add(later.fence)
                    self._check_fences(conn, ahead - checked)
                    checked |= ahead
                pending.extend(job.rows)
                continue
            if pending:  # keep the order: earlier action rows before a later call
                self._insert_in(conn, pending)
                pending = []
            assert job.call is not None
            job.result = job.call(conn)
            checked.clear()  # a call may change a token (a new owner's take_fence): check again
        if pending:
            self._insert_in(conn, pending)

    def _insert_in(self, conn: Connection, rows: list[ActionRow]) -> None:
        """Action rows inserted in ``conn``'s transaction by the driver's own statement: a batch
        that also holds other writes (a seat, a fair deal's seeds) stays as cheap per row as one
        of action rows alone, and the writer holds the interpreter lock no longer than it must."""
        if self._sqlite:
            for sql, values in self._sqlite_inserts(rows):
                conn.exec_driver_sql(sql, values)
            return
        params: list[Any] = [dict(zip(ACTION_COLUMNS, row, strict=True)) for row in rows] \
            if self._insert_named else list(rows)
        conn.exec_driver_sql(self._insert_sql, params)

    def _sqlite_inserts(self, rows: list[ActionRow]) -> list[tuple[str, tuple[Any, ...]]]:
        """The multi-row INSERTs of ``rows`` (SQLite), each with its parameters, in order."""
        out = []
        for start in range(0, len(rows), SQLITE_ROWS_PER_INSERT):
            chunk = rows[start:start + SQLITE_ROWS_PER_INSERT]
            sql = self._insert_many.get(len(chunk))
            if sql is None:
                sql = self._insert_many[len(chunk)] = (
                    f"INSERT INTO {actions.name} ({', '.join(ACTION_COLUMNS)}) VALUES "
                    + ", ".join(["(" + ", ".join("?" * len(ACTION_COLUMNS)) + ")"] * len(chunk)))
            out.append((sql, tuple(itertools.chain.from_iterable(chunk))))
        return out

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
