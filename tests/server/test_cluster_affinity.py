"""Table affinity (docs/architecture.md, "Table affinity"): a table is run by the process its
players reach — the one a load balancer hashes its code to — and moves there, keeping their
connections open, when that process is not its owner. Two ``ohhell serve`` processes on
PostgreSQL and Redis, behind HAProxy hashing the table's code, on loopback."""

from __future__ import annotations

import asyncio
import random
import shutil
import subprocess
from collections.abc import Iterator

import httpx
import pytest
import redis
from leaks import Truth, check_messages
from test_cluster import SHORT, owner_of, play, running_cluster
from wsclient import Client, create_table, join_table

from conftest import need, run_async
from ohhell.rules import Rules
from ohhell.server.cluster.local import LocalCluster, haproxy_config
from ohhell.server.cluster.node import HANDOFF_HOLD, MIN_TENURE, QUICK_HOLD
from ohhell.server.storage.store import Store


@pytest.fixture(scope="module")
def site(postgres_url: str) -> Iterator[LocalCluster]:
    yield from running_cluster(postgres_url, processes=2, affinity=True)


def counter(url: str, name: str) -> float:
    """A counter of one process's /metrics."""
    for line in httpx.get(url + "/metrics", timeout=10).text.splitlines():
        if line.startswith(name + " "):
            return float(line.rsplit(" ", 1)[1])
    raise AssertionError(f"{name} is not in {url}/metrics")


def ws(url: str) -> str:
    return url.replace("http", "ws", 1) + "/ws"


def test_the_affinity_configuration_is_valid_haproxy() -> None:
    binary = shutil.which("haproxy") or "/usr/sbin/haproxy"
    need(shutil.which(binary) is not None, "haproxy (apt-get install haproxy)")
    config = haproxy_config(18000, [18001, 18002], affinity=True)
    assert "balance hdr(X-Ohhell-Table)" in config and "hash-type consistent" in config
    checked = subprocess.run([binary, "-c", "-f", "/dev/stdin"], input=config, capture_output=True, text=True)
    assert checked.returncode == 0, checked.stderr


def lease_holder(site: LocalCluster, code: str) -> str | None:
    found = redis.Redis(port=site.redis_port).get(f"ohhell:lease:{code}")
    return found.decode() if found is not None else None


def test_a_tables_connections_all_reach_one_process_which_runs_it(site: LocalCluster) -> None:
    """Through the balancer, every seat and a spectator of one table reach the same process;
    made through the other one, the table moves there at once (its owner holds none of them)."""
    for attempt in range(4):  # made, round robin, through each process in turn
        created = create_table(site.url, f"Ann{attempt}", players=4, knobs=SHORT)
        code = created["code"]
        tokens = [created["token"]] + [join_table(site.url, code, name)["token"] for name in ("B", "C", "D")]

        async def scenario(code: str = code, tokens: list[str] = tokens) -> set[str]:
            clients = [await Client(site.ws_url, code, token).connect() for token in [*tokens, None]]
            servers = {str(client.welcome["server"]) for client in clients if client.welcome}
            loop = asyncio.get_running_loop()
            deadline = loop.time() + QUICK_HOLD + 6
            while lease_holder(site, code) not in servers:
                assert loop.time() < deadline, "the table was not handed to the process its players reach"
                await asyncio.sleep(0.2)
            for client in clients:
                await client.close()
            return servers

        assert len(run_async(scenario())) == 1  # type: ignore[arg-type]


def test_a_table_moves_to_the_process_its_players_reach_keeping_their_connections(site: LocalCluster) -> None:
    """Made at process 0, watched there by a spectator, played by four seats connected to process 1:
    after the hold and the tenure (not before) the table is handed to process 1, no seat's
    connection drops, every action after it is done there with no forward, and the game ends with
    every message faithful to the record."""
    first, second = site.nodes[0].url, site.nodes[1].url
    created = create_table(first, "Ann", players=4, knobs=SHORT)
    code = created["code"]
    tokens = [created["token"]] + [join_table(first, code, name)["token"] for name in ("B", "C", "D")]
    assert owner_of(site, code) == 0
    handoffs_before = counter(first, "ohhell_table_handoffs_total")
    rng = random.Random(5)

    async def scenario() -> tuple[list[Client], float]:
        spectator = await Client(ws(first), code).connect()
        clients = [await Client(ws(second), code, token).connect() for token in tokens]
        loop = asyncio.get_running_loop()
        started = loop.time()
        deadline = started + MIN_TENURE + HANDOFF_HOLD + 20
        while owner_of(site, code) != 1:  # play slowly meanwhile: forwarded to process 0
            assert loop.time() < deadline, "the table was not handed over"
            for client in clients:
                action = client.my_move(rng)
                if action is not None:
                    await client.act(action)
            await asyncio.sleep(0.3)
        assert loop.time() - started >= HANDOFF_HOLD - 1.0  # the owner's own spectator: the whole hold
        await spectator.close()
        await asyncio.sleep(1.0)
        forwarded = counter(second, "ohhell_forwarded_actions_total")
        await play(clients, rng, lambda: all(c.state.get("game_over") for c in clients))
        for client in clients:
            await client.close()
        return clients, forwarded

    clients, forwarded = run_async(scenario())  # type: ignore[misc]
    assert counter(first, "ohhell_table_handoffs_total") == handoffs_before + 1
    assert counter(second, "ohhell_forwarded_actions_total") == forwarded  # none after the handoff
    for client in clients:  # one connection each, all along
        assert [m["type"] for m in client.received].count("welcome") == 1
    assert site.database is not None
    store = Store(site.database)
    stored = store.load_table(code)
    store.close()
    assert stored is not None
    truth = Truth(Rules.from_json(stored.row.rules), stored.actions, 4)
    assert truth.final.is_terminal()
    for seat, client in enumerate(clients):
        assert check_messages(truth, seat, client.received) > 10  # no version back, no leak, as recorded
        assert not any(e["code"] not in ("stale", "out-of-turn", "too-late") for e in client.errors), client.errors


