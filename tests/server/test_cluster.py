"""Many server processes, one site: three ``ohhell serve`` processes on PostgreSQL and Redis
behind HAProxy (a load balancer without sticky sessions), all on loopback.

Four players of one table reach different processes and play a whole game; every message each
of them receives passes the leak check; the table's owner is killed with ``kill -9`` mid-trick
and the game finishes with every acknowledged action; an owner that was paused past its lease
cannot write when it wakes up (the fencing token); a Redis restart pauses nothing for long.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import signal
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
import redis
import websockets
from leaks import Truth, check_messages
from wsclient import Client, create_table, join_table

from conftest import fresh_postgres_database, need, run_async
from ohhell.cards import card_name
from ohhell.record import replay
from ohhell.rules import Rules
from ohhell.server.cluster.local import LocalCluster, missing_parts
from ohhell.server.storage.store import FencedOut, SeatRow, Store, TableRow

PACE = ("--bot-delay", "0", "--trick-pause", "0", "--hand-pause", "0", "--leave-grace", "30")
SHORT = {"schedule": "explicit", "hands": [[4, "turn-up"], [3, "turn-up"]]}


def running_cluster(postgres_url: str, processes: int, affinity: bool) -> Iterator[LocalCluster]:
    """A module's site (yielded once, stopped after): ``processes`` servers at :data:`PACE` on a
    new database of the suite's PostgreSQL, Redis, HAProxy hashing the table's code or not
    (``affinity``). Skipped, or failed under CI=true, when a part is not installed."""
    missing = missing_parts()
    need(not missing, f"a local cluster needs {', '.join(missing)} (apt-get install redis-server postgresql haproxy)")
    cluster = LocalCluster(processes=processes, serve_args=PACE, database=fresh_postgres_database(postgres_url),
                           affinity=affinity)
    cluster.start()
    yield cluster
    cluster.stop()


@pytest.fixture(scope="module")
def site(postgres_url: str) -> Iterator[LocalCluster]:
    # Round robin: these tests are of the path without affinity (mirrors, forwarding, failover).
    yield from running_cluster(postgres_url, processes=3, affinity=False)


class Player(Client):
    """A client that reconnects through the load balancer when its process goes away — or
    stops answering (a process that is stopped, not dead, keeps its sockets open): it pings
    every second and reconnects when nothing came back for three (as the browser client does)."""

    async def connect(self) -> Player:
        await super().connect()
        self._watchdog = asyncio.create_task(self._watch())
        return self

    async def _watch(self) -> None:
        while not self.closing:
            heard = len(self.received)
            with contextlib.suppress(Exception):
                await self.send({"type": "ping"})
            await asyncio.sleep(3.0)
            if len(self.received) == heard and not self.closing and self.ws is not None:
                with contextlib.suppress(Exception):
                    self.ws.transport.abort()  # the reader sees the socket closed and reconnects

    async def _read(self) -> None:
        while True:
            await super()._read()
            if self.closing:
                return
            await asyncio.sleep(0.2)
            while not self.closing:
                try:
                    self.ws = await websockets.connect(self.ws_url, max_size=1 << 22)
                    break
                except OSError:
                    await asyncio.sleep(0.2)
            self.reconnects += 1
            self._acted_at = None  # an action sent into the lost connection is gone: act again
            await self.send({"type": "hello", "table": self.table, "token": self.token, "lang": self.lang})

    async def close(self) -> None:
        self.closing = True
        if self._watchdog is not None:
            self._watchdog.cancel()
        await super().close()

    closing = False
    reconnects = 0
    _watchdog: asyncio.Task[None] | None = None


def owner_of(site: LocalCluster, code: str) -> int:
    """The index of the process that owns ``code`` (its lease in Redis)."""
    holder = redis.Redis(port=site.redis_port).get(f"ohhell:lease:{code}")
    assert holder is not None
    for index, node in enumerate(site.nodes):
        if node.popen is not None and node.popen.poll() is None:
            try:
                answer = httpx.get(node.url + "/health", timeout=1).json()
            except httpx.TimeoutException:  # a stopped process does not answer
                continue
            if answer["process"] == holder.decode():
                return index
    raise AssertionError("no live process owns the table")


async def play(clients: list[Client], rng: random.Random, until: Any, limit: float = 60.0) -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + limit
    while not until():
        assert loop.time() < deadline, "the game did not go on"
        for client in clients:
            action = client.my_move(rng)
            if action is not None:
                await client.act(action)
        await asyncio.sleep(0.01)


def _seated(site: LocalCluster, knobs: dict[str, Any]) -> tuple[str, list[str]]:
    created = create_table(site.url, "Ann", players=4, knobs=knobs)
    code = created["code"]
    return code, [created["token"]] + [join_table(site.url, code, name)["token"] for name in ("Bob", "Cy", "Dee")]


def test_four_players_on_different_processes_play_a_whole_game(site: LocalCluster) -> None:
    code, tokens = _seated(site, SHORT)

    async def scenario() -> tuple[list[Client], Client]:
        clients: list[Client] = [await Player(site.ws_url, code, token).connect() for token in tokens]
        spectator = await Player(site.ws_url, code).connect()
        await spectator.send({"type": "chat", "text": "good luck from the rail"})
        await play(clients, random.Random(1), lambda: all(c.state.get("game_over") for c in [*clients, spectator]))
        for client in [*clients, spectator]:  # the chat line reached every process's connections
            await client.wait_for(lambda c=client: any(m["type"] == "chat" for m in c.received))  # type: ignore[misc]
        for client in [*clients, spectator]:
            await client.close()
        return clients, spectator

    clients, spectator = run_async(scenario())  # type: ignore[misc]
    processes = {client.welcome["server"] for client in [*clients, spectator] if client.welcome}
    assert len(processes) >= 2, "the load balancer should spread the players over the processes"
    assert site.database is not None
    store = Store(site.database)
    stored = store.load_table(code)
    store.close()
    assert stored is not None
    truth = Truth(Rules.from_json(stored.row.rules), stored.actions, 4)
    assert truth.final.is_terminal()
    for seat, client in enumerate(clients):
        assert check_messages(truth, seat, client.received) > 10
        assert client.state["totals"] == truth.final.totals
        assert not any(e["code"] not in ("stale", "out-of-turn", "too-late") for e in client.errors), client.errors
    assert check_messages(truth, None, spectator.received) > 10
    record = httpx.get(f"{site.url}/api/tables/{code}/record", timeout=10).json()
    assert replay(record)["totals"] == truth.final.totals


def seeds_before_their_hand_ended(received: list[dict[str, Any]]) -> list[int]:
    """The hands whose seed (a ``fair`` reveal) a client received before a state that showed
    the hand finished: each message in the order it arrived, the state as it stood then."""
    finished = 0
    early = []
    for message in received:
        if message["type"] == "state":
            changes = message["changes"]
            if "finished_hands" in changes:
                finished = len(changes["finished_hands"])
            elif message["full"]:
                finished = 0
        elif message["type"] == "fair" and "reveal" in message and message["hand"] >= finished:
            early.append(message["hand"])
    return early


def test_no_client_of_any_process_sees_a_seed_before_its_hand_ended(site: LocalCluster) -> None:
    """A mirror delivers a table's events in the order the owner published them: the state
    that ends a hand comes before the hand's seed (issue 24: the seed overtook the state)."""
    code, tokens = _seated(site, {"schedule": "explicit", "hands": [[3, "turn-up"], [2, "turn-up"],
                                                                     [3, "turn-up"], [2, "turn-up"]]})

    async def scenario() -> list[Client]:
        clients: list[Client] = [await Player(site.ws_url, code, token).connect() for token in tokens]
        spectators: list[Client] = [await Player(site.ws_url, code).connect() for _ in range(3)]
        everyone = [*clients, *spectators]
        await play(clients, random.Random(3), lambda: all(c.state.get("game_over") for c in everyone))
        for client in everyone:
            await client.close()
        return everyone

    everyone = run_async(scenario())
    assert isinstance(everyone, list)
    assert len({client.welcome["server"] for client in everyone if client.welcome}) >= 2
    for client in everyone:
        reveals = [m["hand"] for m in client.received if m["type"] == "fair" and "reveal" in m]
        assert reveals == [0, 1, 2, 3], reveals
        assert seeds_before_their_hand_ended(client.received) == [], client.welcome


def test_killing_the_owner_mid_trick_loses_no_acknowledged_action(site: LocalCluster) -> None:
    code, tokens = _seated(site, {"schedule": "explicit", "hands": [[5, "turn-up"], [4, "turn-up"]]})
    rng = random.Random(7)

    async def scenario() -> tuple[list[dict[str, Any]], float]:
        clients: list[Client] = [await Player(site.ws_url, code, token).connect() for token in tokens]
        await play(clients, rng, lambda: clients[0].state["phase"] == "playing"
                   and len(clients[0].state["current_trick"]) == 2)
        await asyncio.sleep(0.3)
        seen = [dict(client.state) for client in clients]  # what each player has been shown
        victim = owner_of(site, code)
        killed = time.monotonic()
        site.kill_process(victim)
        version = max(s["version"] for s in seen)
        # The game goes on: the first action accepted after the kill marks the failover.
        await play(clients, rng, lambda: any(c.state.get("version", 0) > version for c in clients), limit=30)
        failover = time.monotonic() - killed
        await play(clients, rng, lambda: all(c.state.get("game_over") for c in clients))
        for client in clients:
            await client.close()
        site.start_process(victim)
        return seen, failover

    seen, failover = run_async(scenario())  # type: ignore[misc]
    assert failover < 15, failover
    assert site.database is not None
    store = Store(site.database)
    stored = store.load_table(code)
    store.close()
    assert stored is not None
    final = Truth(Rules.from_json(stored.row.rules), stored.actions, 4).final
    assert final.is_terminal()
    # Every action a player had been shown is in the log, at its place: replaying the log up to
    # each player's last version gives what that player saw.
    rules = Rules.from_json(stored.row.rules)
    for state in seen:
        assert state["version"] <= len(stored.actions)
        then = Truth(rules, stored.actions[:state["version"]], 4).final
        assert list(then.bids) == state["bids"] and list(then.tricks_won) == state["tricks_won"]
        assert [[seat, card_name(card)] for seat, card in then.current_trick()] == state["current_trick"]
    # None was applied twice: one bid per seat per hand, every card played once.
    for hand in final.finished_hands:
        assert len(hand.bids) == 4 and all(bid is not None for bid in hand.bids)
    record = httpx.get(f"{site.url}/api/tables/{code}/record", timeout=10).json()
    assert replay(record)["complete"]


def test_an_owner_that_slept_through_its_lease_cannot_write(site: LocalCluster) -> None:
    """SIGSTOP the owner: another process takes the table over; SIGCONT: the old owner's writes
    are refused by the fencing token, and the game is unharmed."""
    code, tokens = _seated(site, SHORT)
    rng = random.Random(3)

    async def scenario() -> int:
        clients: list[Client] = [await Player(site.ws_url, code, token).connect() for token in tokens]
        await play(clients, rng, lambda: clients[0].state["phase"] == "playing")
        victim = owner_of(site, code)
        popen = site.nodes[victim].popen
        assert popen is not None
        os.kill(popen.pid, signal.SIGSTOP)
        try:
            version = clients[0].state["version"]
            await play(clients, rng, lambda: any(c.state.get("version", 0) > version + 2 for c in clients), limit=30)
            assert owner_of(site, code) != victim
        finally:
            os.kill(popen.pid, signal.SIGCONT)
        await play(clients, rng, lambda: all(c.state.get("game_over") for c in clients))
        for client in clients:
            await client.close()
        return victim

    victim = run_async(scenario())
    assert isinstance(victim, int)
    record = httpx.get(f"{site.url}/api/tables/{code}/record", timeout=10).json()
    assert replay(record)["complete"]
    # Woken up, the old owner found its lease (or, writing, its fencing token) gone and let go.
    log = site.nodes[victim].log.read_text()
    assert f"table {code}: the lease is lost" in log or f"table {code}: another process owns it now" in log


def test_the_database_refuses_a_stale_fencing_token(site: LocalCluster) -> None:
    assert site.database is not None
    store = Store(site.database)
    store.start()

    async def scenario() -> None:
        await store.create_table(TableRow("FENCE2", 1.0, "playing", {"preset": "classic", "players": 3}, {}),
                                 [SeatRow(0, "human", None, "Ann", "h")])
        old = await store.take_fence("FENCE2")
        await store.append_actions("FENCE2", [(0, {"type": "draw", "seat": 0, "card": "AS"})], fence=old)
        new = await store.take_fence("FENCE2")
        assert new > old
        with pytest.raises(FencedOut):
            await store.append_actions("FENCE2", [(1, {"type": "draw", "seat": 1, "card": "KS"})], fence=old)
        with pytest.raises(FencedOut):
            await store.save_seat("FENCE2", SeatRow(1, "human", None, "Eve", "x"), fence=old)
        await store.append_actions("FENCE2", [(1, {"type": "draw", "seat": 1, "card": "QS"})], fence=new)

    try:
        asyncio.run(scenario())
        assert store.load_actions("FENCE2", 0)[1]["card"] == "QS"
    finally:
        store.close()


def test_a_redis_restart_pauses_the_game_and_it_goes_on(site: LocalCluster) -> None:
    code, tokens = _seated(site, SHORT)
    rng = random.Random(5)

    async def scenario() -> None:
        clients: list[Client] = [await Player(site.ws_url, code, token).connect() for token in tokens]
        await play(clients, rng, lambda: clients[0].state["phase"] == "playing")
        site.stop_redis()
        await asyncio.sleep(1.5)
        site.start_redis()
        await play(clients, rng, lambda: all(c.state.get("game_over") for c in clients), limit=90)
        for client in clients:
            await client.close()

    run_async(scenario())
    record = httpx.get(f"{site.url}/api/tables/{code}/record", timeout=10).json()
    assert replay(record)["complete"]
