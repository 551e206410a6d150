"""A duplicate event, a daily try and rated games on a real server: the real table manager, real
bots, people playing over the WebSocket."""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from accounts_helpers import Browser
from wsclient import Client

from conftest import LiveServer, run_async, start_server
from ohhell.record import state_from_record
from ohhell.server.community import daily as daily_module

SHORT = {"schedule": "explicit", "hands": [[3, "turn-up"], [2, "turn-up"], [1, "turn-up"]]}


@pytest.fixture
def server(tmp_path: Path) -> Iterator[LiveServer]:
    live = start_server(f"sqlite:///{tmp_path / 'community.db'}")
    yield live
    live.stop()


def wait_until(condition: Any, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.05)


async def play_to_the_end(client: Client, seed: int, on_hand: Any = None, limit: float = 60.0) -> None:
    """Random legal moves for this seat until the game is over; ``on_hand(n)`` after each hand
    the seat has seen finish."""
    rng = random.Random(seed)
    loop = asyncio.get_running_loop()
    deadline = loop.time() + limit
    seen = 0
    while not client.state.get("game_over"):
        assert loop.time() < deadline, "the game did not finish"
        finished = len(client.state.get("finished_hands") or client.state.get("hands") or [])
        if on_hand is not None and finished > seen:
            seen = finished
            await asyncio.to_thread(on_hand, seen)
        action = client.my_move(rng)
        if action is not None:
            await client.act(action)
        await asyncio.sleep(0.01)


def test_an_event_of_three_tables_on_a_real_server(server: LiveServer) -> None:
    host = Browser(server.url)
    created = host.post("/api/events", {"name": "Club night", "preset": "classic", "players": 3, "knobs": SHORT,
                                        "tables": 3, "seats": [["random", "basic", "random"],
                                                               ["random", "basic", "random"],
                                                               ["open", "basic", "random"]]})
    assert created.status_code == 200, created.text
    event_id = created.json()["id"]
    view = lambda: host.get(f"/api/events/{event_id}").json()  # noqa: E731
    # The tables of bots wait for the event to begin (the first deal closes the pool of the
    # entrants' contributions, docs/fairness.md); the third waits for its person.
    time.sleep(0.5)
    assert [t["hands_done"] for t in view()["tables"]] == [0, 0, 0]
    assert view()["fair"]["pool"] == {"open": True, "count": 0}
    assert view()["revealed_hands"] == 0
    assert host.get(f"/api/events/{event_id}/hands/0").status_code == 409
    assert all(row["total"] == 0 for row in view()["standings"])
    # A person takes the open seat (with her contribution) and plays; the tables of bots begin
    # too; hands are revealed only as every table finishes them.
    joined = Browser(server.url).post(f"/api/events/{event_id}/join", {"table": 2, "seat": 0, "name": "Ann",
                                                                       "contribution": "5e" * 32})
    assert joined.status_code == 200, joined.text
    assert joined.json()["contribution"] == {"value": "5e" * 32}
    code, token = joined.json()["code"], joined.json()["token"]
    revealed_during: list[tuple[int, int]] = []

    def seen_hand(finished: int) -> None:
        revealed_during.append((finished, host.get(f"/api/events/{event_id}").json()["revealed_hands"]))

    assert host.get(f"/api/tables/{code}/verify").status_code == 403  # private while the event runs

    async def play() -> None:
        ann = await Client(server.ws_url, code, token).connect()
        assert host.get(f"/api/events/{event_id}/hands/0").status_code == 409  # her table has not played it
        await play_to_the_end(ann, 7, seen_hand)
        await ann.close()

    run_async(play())
    assert len(revealed_during) >= 2, revealed_during  # she saw hands finish during the game
    assert all(revealed <= finished for finished, revealed in revealed_during), revealed_during
    wait_until(lambda: view()["over"])
    final = view()
    assert final["revealed_hands"] == 3 and all("code" in t for t in final["tables"])
    assert final["fair"]["pool"]["contributions"] == ["5e" * 32] and final["fair"]["verified"]
    exported = host.get(f"/api/events/{event_id}/export").json()
    states = [state_from_record(entry["record"]) for entry in exported["tables"]]
    deals = [[hand.deal for hand in state.finished_hands] for state in states]
    assert deals[0] == deals[1] == deals[2]
    comparison = host.get(f"/api/events/{event_id}/hands/2").json()
    assert len(comparison["tables"]) == 3
    # Each table's own record and verdicts carry the event's deals (its scope, seed and pool).
    for entry in final["tables"]:
        verdict = host.get(f"/api/tables/{entry['code']}/verify").json()
        assert verdict["verified"] and len(verdict["hands"]) == 3, verdict
        record = host.get(f"/api/tables/{entry['code']}/record").json()
        assert all(hand["fair"]["scope"] == event_id and hand["fair"]["seed"] == exported["seed"]
                   for hand in record["hands"]), record["hands"][0].get("fair")
    ann_row = next(row for row in final["standings"] if row["table"] == 2 and row["seat"] == 0)
    assert ann_row["name"] == "Ann" and ann_row["most"] == 6


def test_a_daily_try_and_rated_games_on_a_real_server(server: LiveServer, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(daily_module, "daily_rules", lambda: daily_module.preset(
        "classic", players=4, schedule="explicit", hands=[[2, "turn-up"], [1, "turn-up"]]))
    ann, bob = Browser(server.url), Browser(server.url)
    ann.signup("Ann")
    bob.signup("Bob")
    started = ann.post("/api/daily/start", {})
    assert started.status_code == 200, started.text
    assert ann.get("/api/daily/results").status_code == 403

    async def daily() -> None:
        client = await Client(server.ws_url, started.json()["code"], started.json()["token"]).connect()
        await play_to_the_end(client, 3)
        await client.close()

    run_async(daily())
    wait_until(lambda: ann.get("/api/daily/results").status_code == 200)
    rows = ann.get("/api/daily/results").json()["players"]
    assert rows[0]["name"] == "Ann" and rows[0]["you"] is True
    # A rated table: Ann creates it, Bob joins (the ordinary join) and claims his seat.
    rated = ann.post("/api/rated-tables", {"preset": "classic", "players": 3, "knobs": SHORT,
                                           "seats": ["open", "random"]})
    assert rated.status_code == 200, rated.text
    code = rated.json()["code"]
    joined = Browser(server.url).client.post(f"/api/tables/{code}/join", json={"name": "Bob"})
    assert joined.status_code == 200, joined.text
    claim = bob.post("/api/account/claim", {"seats": [{"table": code, "token": joined.json()["token"]}]})
    assert claim.json()["claimed"][0]["claimed"] is True

    async def rated_game() -> None:
        first = await Client(server.ws_url, code, rated.json()["token"]).connect()
        second = await Client(server.ws_url, code, joined.json()["token"]).connect()
        await asyncio.gather(play_to_the_end(first, 1), play_to_the_end(second, 2))
        await first.close()
        await second.close()

    run_async(rated_game())
    wait_until(lambda: "classic" in ann.get("/api/players/Ann").json()["ratings"])
    for browser, name in ((ann, "Ann"), (bob, "Bob")):
        page = browser.get(f"/api/players/{name}").json()
        assert page["ratings"]["classic"]["games"] == 1 and page["chart"]["classic"][0]["table"] == code
    board = ann.get("/api/ratings/classic").json()["players"]
    assert sorted(row["name"] for row in board) == ["Ann", "Bob"]
