"""A latecomer in a site of several processes (docs/protocol.md, "Quick play"): the request for a
bot's seat comes in through a process that does not own the table (it forwards ``latecomer`` to
the owner, which promises and later gives the seat); the newcomer watches through that process's
copy of the table, which closes their connection when the seat change reaches it; they come back
seated, and the record says who played which hands."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Iterator
from typing import Any

import httpx
import jsonschema
import pytest
from test_quickplay_latecomers import BASIC, SCHEMA
from wsclient import Client

from conftest import fresh_postgres_database, need, run_async
from ohhell.record import replay
from ohhell.server.cluster.local import LocalCluster, missing_parts

PACE = ("--bot-delay", "0", "--trick-pause", "0", "--hand-pause", "0", "--leave-grace", "30")


@pytest.fixture(scope="module")
def site(postgres_url: str) -> Iterator[LocalCluster]:
    missing = missing_parts()
    need(not missing, f"a local cluster needs {', '.join(missing)} (apt-get install redis-server postgresql haproxy)")
    cluster = LocalCluster(processes=2, serve_args=PACE, database=fresh_postgres_database(postgres_url), affinity=False)
    cluster.start()
    yield cluster
    cluster.stop()


def test_a_latecomer_through_another_process_is_promised_the_seat_by_the_owner(site: LocalCluster) -> None:
    owner, other = site.nodes
    created = httpx.post(f"{owner.url}/api/tables", timeout=10, json={
        "name": "Ann", "preset": "classic", "players": 3, "seats": ["basic", "basic"], "latecomers": True,
        "knobs": {"schedule": "explicit", "hands": [[2, "turn-up"], [1, "turn-up"], [2, "turn-up"]]}})
    assert created.status_code == 200, created.text
    code, ann_token = created.json()["code"], created.json()["token"]

    async def scenario() -> dict[str, Any]:
        rng = random.Random(7)
        ann = await Client(f"ws://127.0.0.1:{owner.port}/ws", code, ann_token).connect()
        await ann.wait_for(lambda: ann.state.get("phase") in ("bidding", "playing"))
        async with httpx.AsyncClient(timeout=10) as http:
            joined = await http.post(f"{other.url}/api/tables/{code}/join", json={"name": "Bob"})
        assert joined.status_code == 200, joined.text
        late = joined.json()
        assert late["later"] is True
        seat = late["seat"]
        bob = await Client(f"ws://127.0.0.1:{other.port}/ws", code, late["token"]).connect()
        assert bob.welcome is not None and bob.welcome["server"] != ann.welcome["server"], "through the copy"
        assert bob.welcome["seat"] is None and bob.welcome["next_seat"] == seat
        loop = asyncio.get_running_loop()
        deadline = loop.time() + 30
        while bob._reader is not None and not bob._reader.done():  # the copy closes it at the next hand
            assert loop.time() < deadline, "the latecomer's connection was not closed at the next hand"
            action = ann.my_move(rng)
            if action is not None:
                await ann.act(action)
            await asyncio.sleep(0.01)
        seated = await Client(f"ws://127.0.0.1:{other.port}/ws", code, late["token"]).connect()
        assert seated.welcome is not None and seated.welcome["seat"] == seat
        await asyncio.gather(ann.play_to_the_end(rng), seated.play_to_the_end(rng))
        for one in (ann, bob, seated):
            await one.close()
        async with httpx.AsyncClient(timeout=10) as http:
            record: dict[str, Any] = (await http.get(f"{other.url}/api/tables/{code}/record")).json()
        return {"record": record, "seat": seat}

    found = run_async(scenario())
    assert isinstance(found, dict)
    record, seat = found["record"], found["seat"]
    jsonschema.validate(record, SCHEMA)
    assert replay(record)["complete"] and record["names"][seat] == "Bob"
    assert record["seat_history"] == [{"seat": seat, "from_hand": 0, "name": f"Bot {seat + 1} ({BASIC})"},
                                      {"seat": seat, "from_hand": 1, "name": "Bob"}]
