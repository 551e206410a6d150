"""The store's writes: action rows from many tables share commits (group commit) through the
driver's own statements (on SQLite a few multi-row INSERTs, on PostgreSQL ``executemany``), in
order with the other writes of the same batch; a write the database refuses fails alone, and
the next batches still work. SQLite (both sync modes) and PostgreSQL run the same checks."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

import pytest

from ohhell.server.storage.store import SCHEMA_VERSION, FencedOut, SeatRow, Store, StoreError, TableRow
from ohhell.server.storage.writer import SQLITE_ROWS_PER_INSERT

TABLES = 40
MOVES = 5
SEATS = [SeatRow(0, "human", None, "Ann", "hash")]


@pytest.fixture(params=["sqlite-full", "sqlite-normal", "postgresql"])
def store_url(request: pytest.FixtureRequest, tmp_path: Path) -> tuple[str, str]:
    if request.param.startswith("sqlite"):
        return f"sqlite:///{tmp_path / 'store.db'}", request.param.removeprefix("sqlite-")
    url: str = request.getfixturevalue("postgres_url")
    import psycopg

    name = f"s{random.randrange(10**9)}"
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(f"CREATE DATABASE {name}")
    return url.rsplit("/", 1)[0] + "/" + name, "full"


def table_row(code: str) -> TableRow:
    return TableRow(code, 1.0, "playing", {"preset": "classic", "players": 3}, {})


def move(seq: int) -> dict[str, object]:
    return {"type": "bid", "seat": seq % 3, "bid": seq}


def test_group_commit_in_order(store_url: tuple[str, str]) -> None:
    url, sync = store_url
    store = Store(url, sqlite_sync=sync)
    store.start()
    codes = [f"T{index:05d}" for index in range(TABLES)]

    async def play(code: str) -> None:
        # The table and its first move may share a batch: the table's row must come first.
        first = store.create_table(table_row(code), SEATS)
        await asyncio.gather(first, store.append_actions(code, [(0, move(0))]))
        for seq in range(1, MOVES):
            await store.append_actions(code, [(seq, move(seq))])

    async def scenario() -> None:
        await asyncio.gather(*(play(code) for code in codes))

    asyncio.run(scenario())
    writes = TABLES * (MOVES + 1)
    assert store.commits < writes / 2, (store.commits, writes)  # tables' moves shared commits
    store.close()
    stored = {table.id: table for table in Store(url).load_tables()}
    assert sorted(stored) == codes
    for table in stored.values():
        assert table.actions == [move(seq) for seq in range(MOVES)]


def test_a_refused_write_fails_alone(store_url: tuple[str, str]) -> None:
    url, sync = store_url
    store = Store(url, sqlite_sync=sync)
    store.start()

    async def scenario() -> list[BaseException | None]:
        await asyncio.gather(*(store.create_table(table_row(code), SEATS) for code in ("AAAAAA", "BBBBBB")))
        await store.append_actions("AAAAAA", [(0, move(0))])
        # One batch: good moves of both tables and a second move 0 of AAAAAA (its key is taken).
        results = await asyncio.gather(
            store.append_actions("BBBBBB", [(0, move(0))]),
            store.append_actions("AAAAAA", [(0, move(9))]),
            store.append_actions("AAAAAA", [(1, move(1))]),
            return_exceptions=True)
        # The writer's own connection was dropped with the failed batch: the next ones still work.
        await store.append_actions("BBBBBB", [(1, move(1))])
        await store.append_actions("AAAAAA", [(2, move(2))])
        return [result if isinstance(result, BaseException) else None for result in results]

    outcomes = asyncio.run(scenario())
    assert outcomes[0] is None and outcomes[2] is None
    assert isinstance(outcomes[1], StoreError)
    store.close()
    stored = {table.id: table.actions for table in Store(url).load_tables()}
    assert stored == {"AAAAAA": [move(0), move(1), move(2)], "BBBBBB": [move(0), move(1)]}


def test_sqlite_takes_a_batch_of_action_rows_in_a_few_statements(tmp_path: Path) -> None:
    """One statement per SQLITE_ROWS_PER_INSERT rows, not one step per row (each step lets go
    of the interpreter lock, and the writer waits to get it back)."""
    url = f"sqlite:///{tmp_path / 'many.db'}"
    store = Store(url, sqlite_sync="full")
    store.start()
    codes = [f"M{index:05d}" for index in range(9)]
    count = 50
    statements: list[str] = []

    async def scenario() -> None:
        await asyncio.gather(*(store.create_table(table_row(code), SEATS) for code in codes))
        # Every table's first move: the writer's own connection is open after it.
        await asyncio.gather(*(store.append_actions(code, [(0, move(0))]) for code in codes))
        raw = store._writer._raw
        assert raw is not None
        raw.driver_connection.set_trace_callback(statements.append)  # type: ignore[union-attr]
        # One batch: 9 tables' 50 moves each.
        await asyncio.gather(*(store.append_actions(code, [(seq, move(seq)) for seq in range(1, count + 1)])
                               for code in codes))

    asyncio.run(scenario())
    inserts = [sql for sql in statements if sql.startswith("INSERT")]
    assert len(inserts) == -(-9 * count // SQLITE_ROWS_PER_INSERT), len(inserts)
    store.close()
    stored = {table.id: table.actions for table in Store(url).load_tables()}
    assert all(stored[code] == [move(seq) for seq in range(count + 1)] for code in codes)


def test_fenced_writes_of_many_tables_share_a_commit_and_a_stale_token_lands_nothing(
        store_url: tuple[str, str]) -> None:
    """The cluster's hot path: the moves of many tables, each with its owner's fencing token,
    in one batch; on PostgreSQL every token is checked in one statement. A stale token (a
    fenced-out owner) among them is refused alone, before anything of it lands, with and
    without other writes (a fair deal's secret, a seat) in the same batch."""
    url, sync = store_url
    store = Store(url, sqlite_sync=sync)
    store.start()
    codes = [f"F{index:05d}" for index in range(12)]

    async def scenario() -> tuple[list[BaseException | None], list[BaseException | None]]:
        await asyncio.gather(*(store.create_table(table_row(code), SEATS) for code in codes))
        fences = dict(zip(codes, await asyncio.gather(*(store.take_fence(code) for code in codes)), strict=True))
        commits = store.commits
        await asyncio.gather(*(store.append_actions(code, [(0, move(0))], fence=fences[code]) for code in codes))
        assert store.commits - commits < len(codes)  # fenced moves of several tables shared commits
        stale = codes[3]
        old = fences[stale]
        fences[stale] = await store.take_fence(stale)  # another owner took the table
        rows_only = await asyncio.gather(
            *(store.append_actions(code, [(1, move(1))], fence=fences[code]) for code in codes),
            store.append_actions(stale, [(2, move(7))], fence=old), return_exceptions=True)
        mixed = await asyncio.gather(
            *(store.append_actions(code, [(2, move(2))], fence=fences[code]) for code in codes),
            store.save_fair(codes[0], {"hand": 1}, fence=fences[codes[0]]),
            store.save_seat(stale, SeatRow(0, "human", None, "Eve", "x"), fence=old),
            store.append_actions(stale, [(3, move(7))], fence=old), return_exceptions=True)
        return ([r if isinstance(r, BaseException) else None for r in rows_only],
                [r if isinstance(r, BaseException) else None for r in mixed])

    rows_only, mixed = asyncio.run(scenario())
    assert rows_only[:-1] == [None] * len(codes) and isinstance(rows_only[-1], FencedOut)
    assert mixed[:len(codes) + 1] == [None] * (len(codes) + 1)
    assert isinstance(mixed[-2], FencedOut) and isinstance(mixed[-1], FencedOut)
    store.close()
    stored = {table.id: table for table in Store(url).load_tables()}
    for code in codes:
        assert stored[code].actions == [move(0), move(1), move(2)], code
    assert [seat.name for seat in stored[codes[3]].seats] == ["Ann"]


def test_writes_outside_the_event_loop_block_until_durable(store_url: tuple[str, str]) -> None:
    url, sync = store_url
    store = Store(url, sqlite_sync=sync)
    store.start()
    store.create_table(table_row("CCCCCC"), SEATS)
    store.append_actions("CCCCCC", [(0, move(0)), (1, move(1))])
    with pytest.raises(StoreError):
        store.append_actions("CCCCCC", [(1, move(5))])
    assert Store(url).count_actions("CCCCCC") == 2
    store.close()


def test_sheets_keep_their_undo_history(store_url: tuple[str, str]) -> None:
    url, sync = store_url
    store = Store(url, sqlite_sync=sync)
    store.start()
    record = {"format": "ohhell/1", "rules": {"preset": "classic", "players": 3}, "hands": []}
    earlier = [dict(record, names=["A", "B", "C"])]

    async def scenario() -> None:
        await store.save_sheet("sheet-0001", record, created=True)
        await store.save_sheet("sheet-0001", record, undo=earlier)

    asyncio.run(scenario())
    found = store.load_sheet("sheet-0001")
    assert found is not None and (found.record, found.undo, found.rev) == (record, earlier, 1)
    assert store.load_sheet("sheet-9999") is None
    store.close()


def test_a_schema_1_database_is_upgraded_and_keeps_its_sheets(tmp_path: Path) -> None:
    import sqlite3

    path = tmp_path / "old.db"
    with sqlite3.connect(path) as conn:  # what ohhell wrote before schema 2
        conn.execute("CREATE TABLE ohhell_sheets (id VARCHAR(40) PRIMARY KEY, created FLOAT NOT NULL, "
                     "updated FLOAT NOT NULL, record TEXT NOT NULL)")
        conn.execute("CREATE TABLE ohhell_schema (version INTEGER PRIMARY KEY)")
        conn.execute("INSERT INTO ohhell_schema VALUES (1)")
        conn.execute("INSERT INTO ohhell_sheets VALUES ('old-sheet', 1.0, 1.0, '{\"format\": \"ohhell/1\"}')")
    store = Store(f"sqlite:///{path}")
    store.start()
    found = store.load_sheet("old-sheet")
    assert found is not None and (found.record, found.undo, found.rev) == ({"format": "ohhell/1"}, [], 0)
    store.close()
    with sqlite3.connect(path) as conn:
        assert conn.execute("SELECT version FROM ohhell_schema").fetchall() == [(SCHEMA_VERSION,)]
    newer = tmp_path / "newer.db"
    with sqlite3.connect(newer) as conn:
        conn.execute("CREATE TABLE ohhell_schema (version INTEGER PRIMARY KEY)")
        conn.execute("INSERT INTO ohhell_schema VALUES (99)")
    with pytest.raises(StoreError, match="newer ohhell"):
        Store(f"sqlite:///{newer}")
