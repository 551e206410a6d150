"""Quick play with two real ``ohhell serve`` processes on one database (a SQLite file, and
PostgreSQL): people pressing "Play now" at the same moment, half through each process, and
every one of them asking both processes at once, are each seated exactly once — whole tables of
people, none split, nobody at two tables."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from sqlalchemy import create_engine, func, select

from conftest import ServerProcess, spawn_server, stop_process
from ohhell.server.cluster.local import free_port
from ohhell.server.storage.schema import game_tables, quickplay
from ohhell.server.storage.store import database_url

PEOPLE = 9
PLAYERS = 3


@pytest.fixture
def two_processes(database: str, tmp_path: Path) -> Iterator[list[ServerProcess]]:
    servers: list[ServerProcess] = []
    try:
        for index in range(2):
            servers.append(spawn_server(database, free_port(), tmp_path / f"serve-{index}.log",
                                        "--bot-delay", "0"))
        yield servers
    finally:
        for server in servers:
            stop_process(server)


async def press_and_wait(urls: list[str]) -> list[dict[str, object]]:
    """Everyone presses at once (person i through process i % 2), then asks both processes
    about their place, both at once, until seated; each person's seat."""
    async with httpx.AsyncClient(timeout=30) as client:
        async def press(index: int) -> dict[str, object]:
            answer = await client.post(f"{urls[index % 2]}/api/quickplay",
                                       json={"name": f"P{index}", "players": PLAYERS, "level": "basic"})
            assert answer.status_code == 200, answer.text
            return dict(answer.json())

        tickets = await asyncio.gather(*(press(index) for index in range(PEOPLE)))

        async def wait(pressed: dict[str, object]) -> dict[str, object]:
            if pressed["status"] == "seated":  # the one who filled a table is told at once
                return pressed
            ticket, seen = pressed["ticket"], []
            for _ in range(60):
                answers = await asyncio.gather(*(client.post(f"{url}/api/quickplay/poll", json={"ticket": ticket})
                                                 for url in urls))
                seated = [answer.json() for answer in answers
                          if answer.status_code == 200 and answer.json()["status"] == "seated"]
                if seated:
                    assert len(seated) == 1, "a seat is told once"
                    return dict(seated[0])
                seen.append([answer.status_code for answer in answers])
                assert all(answer.status_code in (200, 404) for answer in answers), [a.text for a in answers]
                await asyncio.sleep(0.3)
            raise AssertionError(f"ticket never seated: {seen}")

        return await asyncio.gather(*(wait(ticket) for ticket in tickets))


def test_people_pressing_at_once_in_two_processes_are_each_seated_once(two_processes: list[ServerProcess],
                                                                       database: str) -> None:
    seats = asyncio.run(press_and_wait([server.url for server in two_processes]))
    tables: dict[object, list[object]] = {}
    for seat in seats:
        tables.setdefault(seat["code"], []).append(seat["seat"])
    assert len(tables) == PEOPLE // PLAYERS  # whole tables of people: none split, no bots needed
    assert all(sorted(int(str(index)) for index in found) == list(range(PLAYERS)) for found in tables.values()), tables
    assert len({seat["token"] for seat in seats}) == PEOPLE
    engine = create_engine(database_url(database))
    try:
        with engine.connect() as conn:
            assert conn.execute(select(func.count()).select_from(game_tables)).scalar() == PEOPLE // PLAYERS
            assert conn.execute(select(func.count()).select_from(quickplay)).scalar() == 0
    finally:
        engine.dispose()
