"""Scaling out: the load benchmark on 1, 2 and 3 server processes, each held to a fixed CPU
quota, side by side in one run; then the broker hop's added latency and the failover time.

    python benchmarks/cluster_load.py                               # everything (many minutes)
    python benchmarks/cluster_load.py --processes 1,2 --quota 0.3 --tables 20,40,60 --kills 3
    python benchmarks/cluster_load.py --modes affinity,roundrobin --processes 1,2,3 --kills 0

1. **Capacity.** Each ``ohhell serve`` runs in a cgroup of its own held to ``--quota`` of one
   core (``ohhell.server.cluster.quota``: cgroup v1 ``cpu.cfs_quota_us`` or v2 ``cpu.max``, a
   short ``--period-ms`` so that a throttled process stalls milliseconds, not 70 ms), so N
   processes get N times the processor while PostgreSQL, Redis, HAProxy and the load generator
   share what is left: the way N machines behave, measured on two cores. For each size in
   ``--processes`` (1: one process, no broker — what a single machine runs today; more: that
   many ``ohhell serve --broker`` behind HAProxy, once for each of ``--modes``: ``affinity``, the
   balancer hashing each table's code to one process; ``roundrobin``, no affinity) the load benchmark
   (``benchmarks/server_load.py``: tables of four WebSocket players acting at full speed) runs at
   each number of tables in ``--tables``; the capacity is the highest actions/s among the runs
   whose p99 (an action to *every* seat's screen) stays under 100 ms. Each run also reports the
   servers' CPU seconds per 1 000 actions (their quota groups' accounting), the load generator's
   CPU share and the machine's idle share (a saturated machine shows). Every size gets a fresh
   database in one PostgreSQL.
2. **The broker hop.** At a light load (``--light`` tables), the p50 latency with one process
   and with two; the difference is what the hop adds. Also the publish-to-arrival latency the
   processes measured themselves (``ohhell_broker_latency_seconds``).
3. **Failover.** ``--kills`` times on two processes: a table of four players, mid-hand;
   ``kill -9`` of its owner; the time until an action is accepted again. p50 and max.

Last line: ``cluster_scaling=R2 cluster_scaling_3=R3 forwarded_share=F cpu_per_action_ratio=C``
(capacity of 2 and 3 processes ÷ 1; the share of actions forwarded to another process's owner;
the cluster's CPU per action ÷ one process's; all of the first of ``--modes``, the others' on the
line before). Everything runs on loopback.
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
from ohhell.server.cluster.quota import CpuQuota, cgroup_support  # noqa: E402

LOAD_PACE = ("--bot-delay", "0", "--trick-pause", "0", "--hand-pause", "0", "--leave-grace", "600",
             "--max-new-tables", "100000")


def load_run(base: str, tables: int, seconds: float, seed: int) -> dict[str, Any]:
    args = SimpleNamespace(tables=tables, seconds=seconds, warmup=min(3.0, seconds / 4), seed=seed, knobs="{}")
    result: dict[str, Any] = asyncio.run(server_load.run(args, base, base.replace("http", "ws", 1) + "/ws"))  # type: ignore[arg-type]
    return result


def single_process(database: str, quota: CpuQuota | None = None) -> tuple[Any, str]:
    import subprocess

    port = free_port()
    log = open(os.devnull, "wb")  # noqa: SIM115
    server = subprocess.Popen([sys.executable, "-m", "ohhell.cli", "serve", "--port", str(port), "--database",
                               database, "--log-level", "warning", *LOAD_PACE], stdout=log, stderr=log, cwd=ROOT)
    if quota is not None:
        quota.add(server.pid)
    wait_for_port(port, 60)
    return server, f"http://127.0.0.1:{port}"


def idle_share() -> tuple[float, float]:
    """The machine's (idle, total) jiffies so far (/proc/stat), to say how saturated a run left it."""
    fields = [float(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    return fields[3] + fields[4], sum(fields)


def fresh_database(site: LocalCluster, name: str) -> str:
    import psycopg

    assert site.database is not None
    with psycopg.connect(site.database, autocommit=True) as conn:
        conn.execute(f"CREATE DATABASE {name}")
    return site.database.rsplit("/", 1)[0] + "/" + name


def capacity(label: str, base: str, counts: list[int], seconds: float,
             quotas: list[CpuQuota]) -> tuple[float, list[dict[str, Any]]]:
    """The most actions/s at p99 < 100 ms over ``counts`` tables; each run also reports the
    servers' CPU seconds per 1 000 actions (their quota groups), the load generator's CPU share
    and the machine's idle share. Stops at the second run over the limit."""
    runs = []
    best = 0.0
    over = 0
    for count in counts:
        cpu_before = sum(quota.cpu_seconds() for quota in quotas)
        idle_before, total_before = idle_share()
        result = load_run(base, count, seconds, seed=count)
        cpu = sum(quota.cpu_seconds() for quota in quotas) - cpu_before
        idle_after, total_after = idle_share()
        per_1000 = round(cpu / result["actions"] * 1000, 3) if result["actions"] and quotas else None
        result["servers_cpu_s_per_1000_actions"] = per_1000
        result["machine_idle_share"] = round((idle_after - idle_before) / max(1.0, total_after - total_before), 3)
        result["throttled"] = [quota.stat().get("nr_throttled", 0) for quota in quotas]
        runs.append(result)
        ok = result["p99_ms"] < 100
        print(f"  {label}: {count} tables: {result['actions_per_second']} actions/s, p50 {result['p50_ms']} ms, "
              f"p99 {result['p99_ms']} ms {'✔' if ok else '✘ (over 100 ms)'}; servers "
              f"{result['servers_cpu_s_per_1000_actions']} CPU s / 1000 actions, load generator "
              f"{result.get('client_cpu_share')} CPU, machine idle {result['machine_idle_share']:.0%}", flush=True)
        if ok:
            best = max(best, result["actions_per_second"])
        else:
            over += 1
            if over >= 2:
                break
    return best, runs


def forwarded_share(urls: list[str]) -> float | None:
    """Forwarded actions ÷ all actions, from the processes' /metrics (None: not counted there)."""
    forwarded = total = 0.0
    seen = False
    for url in urls:
        for line in httpx.get(url + "/metrics", timeout=10).text.splitlines():
            if line.startswith("ohhell_forwarded_actions_total"):
                forwarded += float(line.rsplit(" ", 1)[1])
                seen = True
            elif line.startswith("ohhell_actions_total"):
                total += float(line.rsplit(" ", 1)[1])
    return forwarded / total if seen and total else None


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
    parser.add_argument("--tables", default="20,40,60,80,100,130,160,200,250,300",
                        help="numbers of tables to try (comma-separated, increasing)")
    parser.add_argument("--processes", default="1,2,3", help="cluster sizes to measure (1: no broker)")
    parser.add_argument("--quota", type=float, default=0.3,
                        help="CPU each server process may use (0: no quota, the whole machine shared)")
    parser.add_argument("--period-ms", type=float, default=10.0, help="the quota's period")
    parser.add_argument("--seconds", type=float, default=15.0, help="seconds per load run")
    parser.add_argument("--light", type=int, default=10, help="tables for the broker-hop measurement")
    parser.add_argument("--kills", type=int, default=10, help="failovers to time")
    parser.add_argument("--modes", default="affinity",
                        help="balancer modes for 2+ processes, comma-separated: affinity, roundrobin")
    args = parser.parse_args()
    counts = [int(x) for x in args.tables.split(",")]
    sizes = [int(x) for x in args.processes.split(",")]
    modes = [mode.strip() for mode in args.modes.split(",") if mode.strip()]
    if not modes or any(mode not in ("affinity", "roundrobin") for mode in modes):
        raise SystemExit("--modes: affinity and/or roundrobin")
    try:
        import uvloop

        uvloop.install()
    except ImportError:
        pass
    print(f"load average at the start: {os.getloadavg()}", flush=True)
    support, how = cgroup_support()
    if args.quota > 0 and support is None:
        raise SystemExit(f"cannot hold the processes to a CPU quota here: {how} (use --quota 0 to share the "
                         "machine, which cannot show scaling on two cores)")
    if args.quota > 0:
        print(f"each server process held to {CpuQuota.describe(args.quota, args.period_ms)} ({how})", flush=True)
    # Stopped by a signal, the cluster's Redis, PostgreSQL and processes are stopped too.
    signal.signal(signal.SIGTERM, lambda *_args: sys.exit(143))
    quotas: list[CpuQuota] = []

    def held(_index: int, pid: int) -> None:
        if args.quota > 0:
            quota = CpuQuota(args.quota, args.period_ms)
            quota.add(pid)
            quotas.append(quota)

    best: dict[str, float] = {}
    runs: dict[str, list[dict[str, Any]]] = {}
    cpu_per_1000: dict[str, float | None] = {}
    shares: dict[str, float | None] = {}
    light: dict[str, float] = {}
    hop = None
    failovers: list[float] = []
    configurations = [("1", 1, None)] if 1 in sizes else []
    configurations += [(f"{size} {mode}", size, mode) for mode in modes for size in sizes if size > 1]
    try:
        postgres_site = LocalCluster(processes=0)
        postgres_site.start_database()
        try:
            for key, size, mode in configurations:
                quotas.clear()
                if size == 1:  # one process, no broker: what a single machine runs today
                    quota = CpuQuota(args.quota, args.period_ms) if args.quota > 0 else None
                    quotas.extend([quota] if quota else [])
                    single, url = single_process(fresh_database(postgres_site, "single"), quota)
                    try:
                        light[key] = load_run(url, args.light, 10, seed=1)["p50_ms"]
                        best[key], runs[key] = capacity("1 process", url, counts, args.seconds, quotas)
                    finally:
                        single.terminate()
                        single.wait(timeout=10)
                else:
                    database = fresh_database(postgres_site, f"cluster{size}{mode}")
                    with LocalCluster(processes=size, database=database, serve_args=LOAD_PACE,
                                      on_start=held, affinity=mode == "affinity") as site:
                        light[key] = load_run(site.url, args.light, 10, seed=1)["p50_ms"]
                        if hop is None:
                            hop = broker_latency([node.url for node in site.nodes])
                        best[key], runs[key] = capacity(f"{size} processes, {mode}", site.url, counts,
                                                        args.seconds, quotas)
                        shares[key] = forwarded_share([node.url for node in site.nodes])
                        if size == 2 and args.kills and mode == modes[0]:
                            failovers = [asyncio.run(one_failover(site, random.Random(k))) for k in range(args.kills)]
                for quota in quotas:
                    quota.remove()
                good = [run for run in runs[key] if run["p99_ms"] < 100 and run["servers_cpu_s_per_1000_actions"]]
                cpu_per_1000[key] = good[-1]["servers_cpu_s_per_1000_actions"] if good else None
        finally:
            postgres_site.stop()
    finally:
        for quota in quotas:
            quota.remove()
    one = best.get("1") or float("nan")

    def ratios(mode: str) -> tuple[float, float, float | None, float]:
        r2 = best.get(f"2 {mode}", float("nan")) / one
        r3 = best.get(f"3 {mode}", float("nan")) / one
        cpu, cpu_one = cpu_per_1000.get(f"2 {mode}"), cpu_per_1000.get("1")
        cpu_ratio = cpu / cpu_one if cpu and cpu_one else float("nan")
        return r2, r3, shares.get(f"2 {mode}"), cpu_ratio

    failover = {"p50": round(statistics.median(failovers), 2) if failovers else None,
                "max": round(max(failovers), 2) if failovers else None, "all": [round(f, 2) for f in failovers]}
    added = {key: round(light[key] - light["1"], 2) for key in light if key != "1"} if "1" in light else None
    summary = {
        "quota": {"cpus": args.quota, "period_ms": args.period_ms, "cgroup": how},
        "capacity_actions_per_second": best, "runs": runs, "servers_cpu_s_per_1000_actions": cpu_per_1000,
        "forwarded_share": shares,
        "light_load_p50_ms": light,
        "broker_hop_added_p50_ms": added,
        "broker_publish_to_arrival_p50_ms": hop,
        "failover_seconds": failover,
        "load_average_at_the_end": os.getloadavg(),
    }
    print(json.dumps(summary))
    measured = ", ".join(f"{key} {best[key]} actions/s" for key, _size, _mode in configurations)
    print(f"capacity at p99 < 100 ms: {measured}"
          + f"; latency added at a light load (p50) {added} ms (publish to arrival "
          f"{hop} ms); failover p50 {failover['p50']} s, max {failover['max']} s")
    for mode in [*modes[1:], modes[0]]:  # the first mode's line last
        r2, r3, share, cpu_ratio = ratios(mode)
        print(f"{'' if mode == modes[0] else mode + ': '}cluster_scaling={r2:.2f} cluster_scaling_3={r3:.2f} "
              f"forwarded_share={'nan' if share is None else f'{share:.3f}'} cpu_per_action_ratio={cpu_ratio:.2f}")

if __name__ == "__main__":
    main()
