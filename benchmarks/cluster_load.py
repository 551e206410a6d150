"""Scaling out: the load benchmark on one process and on two processes through Redis, side by
side in one run, on this machine; then the broker hop's added latency and the failover time.

    python benchmarks/cluster_load.py                       # everything (several minutes)
    python benchmarks/cluster_load.py --tables 100,200,300 --seconds 15 --kills 10

1. **Capacity.** For each configuration — one ``ohhell serve`` (no broker: what a single
   machine runs today) and two ``ohhell serve --broker`` behind HAProxy — the load benchmark
   (``benchmarks/server_load.py``: tables of four WebSocket players acting at full speed) runs
   at each number of tables in ``--tables``; the configuration's capacity is the highest
   actions/s among the runs whose p99 (an action to *every* seat's screen) stays under 100 ms.
   Both use the same fresh PostgreSQL. Last line: ``cluster_scaling=R`` (two processes ÷ one).
2. **The broker hop.** At a light load (``--light`` tables), the p50 latency with one process
   and with two (where most tables have players on both processes: the owner's change crosses
   Redis to the other); the difference is what the hop adds. Also the publish-to-arrival
   latency the processes measured themselves (``ohhell_broker_latency_seconds``).
3. **Failover.** ``--kills`` times: a table of four players, mid-hand; ``kill -9`` of its
   owner; the time until an action is accepted again (the players reconnect through HAProxy
   as the browser does). p50 and max.

Everything runs on loopback; the load generator shares the machine's two cores with the
servers, HAProxy, Redis and PostgreSQL (see docs/architecture.md for the figures and why).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import signal
import statistics
import sys
import time
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "benchmarks"), str(ROOT / "tests" / "server"), str(ROOT / "tests")]

import server_load  # noqa: E402

from ohhell.server.cluster.local import LocalCluster, free_port, wait_for_port  # noqa: E402

LOAD_PACE = ("--bot-delay", "0", "--trick-pause", "0", "--hand-pause", "0", "--leave-grace", "600",
             "--max-new-tables", "100000")


def load_run(base: str, tables: int, seconds: float, seed: int) -> dict[str, Any]:
    args = SimpleNamespace(tables=tables, seconds=seconds, warmup=min(3.0, seconds / 4), seed=seed, knobs="{}")
    result: dict[str, Any] = asyncio.run(server_load.run(args, base, base.replace("http", "ws", 1) + "/ws"))  # type: ignore[arg-type]
    return result


def single_process(database: str) -> tuple[Any, str]:
    import subprocess

    port = free_port()
    log = open(os.devnull, "wb")  # noqa: SIM115
    server = subprocess.Popen([sys.executable, "-m", "ohhell.cli", "serve", "--port", str(port), "--database",
                               database, "--log-level", "warning", *LOAD_PACE], stdout=log, stderr=log, cwd=ROOT)
    wait_for_port(port, 30)
    return server, f"http://127.0.0.1:{port}"


def fresh_database(site: LocalCluster, name: str) -> str:
    import psycopg

    assert site.database is not None
    with psycopg.connect(site.database, autocommit=True) as conn:
        conn.execute(f"CREATE DATABASE {name}")
    return site.database.rsplit("/", 1)[0] + "/" + name


def capacity(label: str, base: str, counts: list[int], seconds: float) -> tuple[float, list[dict[str, Any]]]:
    runs = []
    best = 0.0
    for count in counts:
        result = load_run(base, count, seconds, seed=count)
        runs.append(result)
        ok = result["p99_ms"] < 100
        print(f"  {label}: {count} tables: {result['actions_per_second']} actions/s, p50 {result['p50_ms']} ms, "
              f"p99 {result['p99_ms']} ms {'✔' if ok else '✘ (over 100 ms)'}", flush=True)
        if ok:
            best = max(best, result["actions_per_second"])
    return best, runs


def broker_latency(urls: list[str]) -> float | None:
    """The median publish-to-arrival latency (ms) the processes measured, from their /metrics."""
    buckets: dict[float, float] = {}
    for url in urls:
        for line in httpx.get(url + "/metrics", timeout=10).text.splitlines():
            if line.startswith("ohhell_broker_latency_seconds_bucket"):
                bound = line.split('le="', 1)[1].split('"', 1)[0]
                value = float(line.rsplit(" ", 1)[1])
                key = float("inf") if bound == "+Inf" else float(bound)
                buckets[key] = buckets.get(key, 0.0) + value
    if not buckets or buckets.get(float("inf"), 0) == 0:
        return None
    total = buckets[float("inf")]
    for bound in sorted(buckets):
        if buckets[bound] >= total / 2:
            return bound * 1000
    return None


async def one_failover(site: LocalCluster, rng: random.Random) -> float:
    from test_cluster import Player, owner_of, play
    from wsclient import create_table, join_table

    created = create_table(site.url, "Ann", players=4, knobs={"schedule": "explicit", "hands": [[5, "turn-up"]] * 2})
    code = created["code"]
    tokens = [created["token"]] + [join_table(site.url, code, name)["token"] for name in ("B", "C", "D")]
    clients = [await Player(site.ws_url, code, token).connect() for token in tokens]
    await play(clients, rng, lambda: clients[0].state["phase"] == "playing")
    await asyncio.sleep(0.2)
    version = max(client.state["version"] for client in clients)
    victim = owner_of(site, code)
    killed = time.monotonic()
    site.kill_process(victim)
    await play(clients, rng, lambda: any(c.state.get("version", 0) > version for c in clients), limit=60)
    elapsed = time.monotonic() - killed
    for client in clients:
        await client.close()
    site.start_process(victim)
    return elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", default="50,100,150,200,250,300",
                        help="numbers of tables to try (comma-separated)")
    parser.add_argument("--seconds", type=float, default=15.0, help="seconds per load run")
    parser.add_argument("--light", type=int, default=10, help="tables for the broker-hop measurement")
    parser.add_argument("--kills", type=int, default=10, help="failovers to time")
    args = parser.parse_args()
    counts = [int(x) for x in args.tables.split(",")]
    try:
        import uvloop

        uvloop.install()
    except ImportError:
        pass
    print(f"load average at the start: {os.getloadavg()}", flush=True)
    # Stopped by a signal, the cluster's Redis, PostgreSQL and processes are stopped too.
    signal.signal(signal.SIGTERM, lambda *_args: sys.exit(143))
    with LocalCluster(processes=2, serve_args=LOAD_PACE) as site:
        # One process, no broker, on a database of its own in the same PostgreSQL.
        single, single_url = single_process(fresh_database(site, "single"))
        try:
            light_one = load_run(single_url, args.light, 10, seed=1)
            best_one, runs_one = capacity("1 process", single_url, counts, args.seconds)
        finally:
            single.terminate()
            single.wait(timeout=10)
        light_two = load_run(site.url, args.light, 10, seed=1)
        hop = broker_latency([node.url for node in site.nodes])
        best_two, runs_two = capacity("2 processes", site.url, counts, args.seconds)
        failovers = [asyncio.run(one_failover(site, random.Random(k))) for k in range(args.kills)]
    ratio = best_two / best_one if best_one else float("nan")
    summary = {
        "one_process": {"best_actions_per_second": best_one, "runs": runs_one},
        "two_processes": {"best_actions_per_second": best_two, "runs": runs_two},
        "light_load_p50_ms": {"one": light_one["p50_ms"], "two": light_two["p50_ms"],
                              "added": round(light_two["p50_ms"] - light_one["p50_ms"], 2)},
        "broker_publish_to_arrival_p50_ms": hop,
        "failover_seconds": {"p50": round(statistics.median(failovers), 2) if failovers else None,
                             "max": round(max(failovers), 2) if failovers else None,
                             "all": [round(f, 2) for f in failovers]},
        "load_average_at_the_end": os.getloadavg(),
    }
    print(json.dumps(summary))
    print(f"capacity at p99 < 100 ms: 1 process {best_one} actions/s, 2 processes {best_two} actions/s; "
          f"broker hop +{summary['light_load_p50_ms']['added']} ms at p50 (publish to arrival "
          f"{hop} ms); failover p50 {summary['failover_seconds']['p50']} s, max {summary['failover_seconds']['max']} s")
    print(f"cluster_scaling={ratio:.2f}")


if __name__ == "__main__":
    main()
