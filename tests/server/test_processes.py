"""Accounts, ratings and events with the server run as several processes on one database.

Two real ``ohhell serve`` processes share one database (a SQLite file, and PostgreSQL) and a
Redis broker, as a site behind a load balancer does; each test talks to each process directly.
A rated game is created through one process and played through the other (the table's owner is
the first, the second forwards the moves), and its rating is read from both — and it is rated
exactly once, even after the owner is restarted and loads the finished table again. A duplicate
event is created through one process, its two tables joined and played through different
processes, and the standings read from either are the same, complete ones.
"""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Callable, Iterator
from typing import Any

import httpx
import pytest
from accounts_helpers import Browser
from sqlalchemy import create_engine, func, select
from wsclient import Client

from conftest import fresh_postgres_database, need, run_async
from ohhell.server.cluster.local import LocalCluster, missing_parts
from ohhell.server.community.ratings import rated_games, rating_history
from ohhell.server.storage.store import database_url

PACE = ("--bot-delay", "0", "--trick-pause", "0", "--hand-pause", "0", "--leave-grace", "30",
        "--fair-window", "0.2")
SHORT = {"schedule": "explicit", "hands": [[3, "turn-up"], [2, "turn-up"], [1, "turn-up"]]}


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def site(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[LocalCluster]:
    missing = missing_parts(need_postgres=False)
    need(not missing, f"two server processes need {', '.join(missing)} (apt-get install redis-server haproxy)")
    folder = tmp_path_factory.mktemp(f"processes-{request.param}")
    if request.param == "sqlite":
        database = f"sqlite:///{folder / 'ohhell.db'}"
    else:
        database = fresh_postgres_database(request.getfixturevalue("postgres_url"))
    cluster = LocalCluster(processes=2, serve_args=PACE, database=database, folder=folder / "site")
    cluster.folder.mkdir()
    cluster.start()
    yield cluster
    cluster.stop()


def eventually(read: Callable[[], Any], done: Callable[[Any], bool], timeout: float = 60.0) -> Any:
    """``read()`` again and again until ``done`` says its answer is the awaited one."""
    deadline = time.monotonic() + timeout
    while True:
        answer = read()
        if done(answer):
            return answer
        assert time.monotonic() < deadline, f"still {answer!r}"
        time.sleep(0.2)


async def play(ws_url: str, code: str, token: str, seed: int) -> None:
    """Play one seat to the end of the game with random legal moves, through ``ws_url``'s process."""
    client = await Client(ws_url, code, token).connect()
    rng = random.Random(seed)
    loop = asyncio.get_running_loop()
    deadline = loop.time() + 90
    while not client.state.get("game_over"):
        assert loop.time() < deadline, "the game did not finish"
        action = client.my_move(rng)
        if action is not None:
            await client.act(action)
        await asyncio.sleep(0.01)
    await client.close()


def ws_url(node: Any) -> str:
    return f"ws://127.0.0.1:{node.port}/ws"


def classic_rating(url: str, name: str) -> dict[str, Any] | None:
    answer = httpx.get(f"{url}/api/players/{name}", timeout=10)
    assert answer.status_code == 200, answer.text
    found: dict[str, Any] | None = answer.json()["ratings"].get("classic")
    return found


def count_rows(database: str, table: Any, code: str) -> int:
    engine = create_engine(database_url(database))
    try:
        with engine.connect() as conn:
            query = select(func.count()).select_from(table).where(table.c.table_id == code)
            return int(conn.execute(query).scalar_one())
    finally:
        engine.dispose()


def test_a_rated_game_played_through_another_process_is_rated_once_and_read_anywhere(site: LocalCluster) -> None:
    first, second = site.nodes
    assert site.database is not None
    ann = Browser(first.url)
    ann.signup("Ann")
    created = ann.post("/api/rated-tables", {"preset": "classic", "players": 3, "knobs": SHORT,
                                              "seats": ["basic", "random"]})
    assert created.status_code == 200, created.text
    code, token = created.json()["code"], created.json()["token"]
    # Made by the first process (it owns the table); played through the second.
    run_async(play(ws_url(second), code, token, 1))
    rating = eventually(lambda: classic_rating(second.url, "Ann"), lambda found: found and found["games"] == 1)
    assert classic_rating(first.url, "Ann") == rating
    assert rating["mu"] != 1500.0  # it moved: the game counted
    for node in (first, second):
        board = httpx.get(f"{node.url}/api/ratings/classic", timeout=10).json()["players"]
        assert [(row["name"], row["games"]) for row in board] == [("Ann", 1)]
        page = httpx.get(f"{node.url}/api/players/Ann", timeout=10).json()
        assert [(game["table"], game["rated"]) for game in page["games"]] == [(code, True)]
    assert count_rows(site.database, rated_games, code) == 1
    assert count_rows(site.database, rating_history, code) == 1
    # The owner restarts and loads the finished table again: the game is not rated a second time.
    site.stop_process(0)
    site.start_process(0)
    assert httpx.get(f"{first.url}/api/tables/{code}", timeout=10).json()["game_over"]
    time.sleep(1.0)
    for node in (first, second):
        assert classic_rating(node.url, "Ann") == rating
    assert count_rows(site.database, rated_games, code) == 1
    assert count_rows(site.database, rating_history, code) == 1


def test_an_event_played_through_both_processes_has_the_same_standings_on_each(site: LocalCluster) -> None:
    first, second = site.nodes
    host = Browser(first.url)
    created = host.post("/api/events", {"name": "Two processes", "preset": "classic", "players": 3, "knobs": SHORT,
                                        "tables": 2, "seats": ["open", "random", "basic"]})
    assert created.status_code == 200, created.text
    event = created.json()["id"]
    # One person takes seat 0 of table 0 through the second process, another table 1's through the first.
    joined = []
    for index, (node, name) in enumerate(((second, "Pia"), (first, "Quin"))):
        answer = Browser(node.url).post(f"/api/events/{event}/join", {"table": index, "seat": 0, "name": name})
        assert answer.status_code == 200, answer.text
        joined.append((node, answer.json()["code"], answer.json()["token"]))

    async def both() -> None:
        await asyncio.gather(*(play(ws_url(node), code, token, seed)
                               for seed, (node, code, token) in enumerate(joined)))

    run_async(both())

    def view(node: Any) -> dict[str, Any]:
        answer = httpx.get(f"{node.url}/api/events/{event}", timeout=10)
        assert answer.status_code == 200, answer.text
        found: dict[str, Any] = answer.json()
        return found

    over = eventually(lambda: view(second), lambda found: found["over"])
    assert view(first) == over
    standings = over["standings"]
    assert len(standings) == 6
    assert {row["name"] for row in standings if row["kind"] == "human"} == {"Pia", "Quin"}
    # Matchpoints: in each seat, the two tables share one point per hand (a point for beating the
    # other table, half each for a tie), so each seat's pair adds up to the number of hands.
    hands = len(SHORT["hands"])
    for seat in range(3):
        pair = [row["matchpoints"] for row in standings if row["seat"] == seat]
        assert len(pair) == 2 and sum(pair) == hands, (seat, pair)
    assert over["revealed_hands"] == hands
    export = httpx.get(f"{second.url}/api/events/{event}/export", timeout=10).json()
    assert len(export["tables"]) == 2 and export["standings"] == standings
    assert {t["table"]: t.get("code") for t in over["tables"]} == {0: joined[0][1], 1: joined[1][1]}


def test_the_sites_processes_are_two(site: LocalCluster) -> None:
    """The premise: two processes, each with its own id, on the one database."""
    ids = {httpx.get(f"{node.url}/health", timeout=10).json()["process"] for node in site.nodes}
    assert len(ids) == 2 and None not in ids
