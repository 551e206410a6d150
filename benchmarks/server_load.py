"""Load on the web server: N tables of 4 WebSocket players each, playing at full speed on loopback.

The server runs as a real ``ohhell serve`` subprocess (its own core) on a fresh database; this
process plays every seat of every table: as soon as a seat's view says it must act, it sends
a random legal action. For every action we measure the time from sending it to the moment
*every* seat of its table has received the state that includes it, and print actions per
second and the p50/p99 of that latency.

    python benchmarks/server_load.py --tables 200 --seconds 30
    python benchmarks/server_load.py --tables 200 --database postgresql://user@127.0.0.1/db

Traffic goes to 127.0.0.1 only, and the run stops by itself after ``--seconds``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
import websockets

ROOT = Path(__file__).resolve().parents[1]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


class Seat:
    """One player's connection: applies the server's state changes and acts when it must."""

    def __init__(self, table: Table, token: str) -> None:
        self.table = table
        self.token = token
        self.state: dict[str, Any] = {}
        self.ws: Any = None

    async def run(self, url: str, rng: random.Random, stop_at: float) -> None:
        async with websockets.connect(url, max_size=1 << 22, compression=None) as ws:
            self.ws = ws
            await ws.send(json.dumps({"type": "hello", "table": self.table.code, "token": self.token}))
            async for text in ws:
                message = json.loads(text)
                if message["type"] != "state":
                    continue
                if message["full"]:
                    self.state = {}
                self.state.update(message["changes"])
                now = time.perf_counter()
                self.table.seen(self, self.state["version"], now)
                if now > stop_at or self.state.get("game_over"):
                    if self.state.get("game_over"):
                        self.table.games += 1
                    break
                await self.maybe_act(rng)

    async def maybe_act(self, rng: random.Random) -> None:
        state = self.state
        seat = state.get("seat")
        if state.get("table", {}).get("status") != "playing" or seat is None:
            return
        if not (state["turn"] == seat or (state["turn"] is None and seat in state["actors"])):
            return
        legal = [a for a in state["legal_actions"] if not (a["type"] == "bid" and state["bids"][seat] is not None)]
        if not legal or self.table.pending.get(seat) == state["version"]:
            return
        action = dict(rng.choice(legal))
        action.pop("seat", None)
        version = state["version"]
        self.table.pending[seat] = version
        self.table.sent(version, time.perf_counter())
        await self.ws.send(json.dumps({"type": "act", "version": version, "action": action}))


class Table:
    """The four seats of one table and the latency of each action sent there."""

    def __init__(self, code: str, latencies: list[float]) -> None:
        self.code = code
        self.seats: list[Seat] = []
        self.sent_at: dict[int, float] = {}
        self.waiting: dict[int, int] = {}
        self.pending: dict[int, int] = {}
        self.latencies = latencies
        self.actions = 0
        self.games = 0

    def sent(self, version: int, now: float) -> None:
        self.sent_at[version] = now
        self.waiting[version] = len(self.seats)
        self.actions += 1

    def seen(self, seat: Seat, version: int, now: float) -> None:
        """A seat got the state at ``version``: every action sent before it has reached that seat."""
        for sent_version in [v for v in self.waiting if v < version]:
            key = (sent_version, id(seat))
            if key in _SEEN:
                continue
            _SEEN.add(key)
            self.waiting[sent_version] -= 1
            if self.waiting[sent_version] == 0:
                self.latencies.append(now - self.sent_at.pop(sent_version))
                del self.waiting[sent_version]
                for other in self.seats:
                    _SEEN.discard((sent_version, id(other)))


_SEEN: set[tuple[int, int]] = set()


async def setup(base: str, count: int, knobs: dict[str, Any]) -> list[tuple[str, list[str]]]:
    """Create ``count`` tables of four people (the creator and three who join)."""
    out = []
    async with httpx.AsyncClient(base_url=base, timeout=60) as client:
        for index in range(count):
            created = (await client.post("/api/tables", json={"name": f"P{index}", "preset": "classic", "players": 4,
                                                              "seats": ["open"] * 3, "knobs": knobs})).json()
            tokens = [created["token"]]
            for name in ("B", "C", "D"):
                joined = (await client.post(f"/api/tables/{created['code']}/join", json={"name": name})).json()
                tokens.append(joined["token"])
            out.append((created["code"], tokens))
    return out


def cpu_seconds(pid: int | None) -> float:
    """CPU time (user + system) used so far by a process (this one when ``pid`` is None)."""
    if pid is None:
        times = os.times()
        return times.user + times.system
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def run(args: argparse.Namespace, base: str, ws_url: str, server_pid: int | None = None) -> dict[str, Any]:
    tables_spec = await setup(base, args.tables, {})
    latencies: list[float] = []
    tables = []
    for code, tokens in tables_spec:
        table = Table(code, latencies)
        table.seats = [Seat(table, token) for token in tokens]
        tables.append(table)
    rng = random.Random(args.seed)
    start = time.perf_counter()
    stop_at = start + args.seconds
    tasks = [asyncio.create_task(seat.run(ws_url, random.Random(rng.random()), stop_at))
             for table in tables for seat in table.seats]
    warm = start + args.warmup
    await asyncio.sleep(args.warmup)
    warm_actions = sum(table.actions for table in tables)
    warm_latencies = len(latencies)
    cpu_client, cpu_server = cpu_seconds(None), cpu_seconds(server_pid) if server_pid else 0.0
    await asyncio.gather(*tasks, return_exceptions=True)
    end = time.perf_counter()
    cpu_client = cpu_seconds(None) - cpu_client
    cpu_server = (cpu_seconds(server_pid) - cpu_server) if server_pid else float("nan")
    measured = latencies[warm_latencies:]
    actions = sum(table.actions for table in tables) - warm_actions
    measured.sort()

    def pct(p: float) -> float:
        return measured[min(len(measured) - 1, int(p * len(measured)))] * 1000 if measured else float("nan")

    return {"tables": args.tables, "seconds": round(end - warm, 1), "actions": actions,
            "actions_per_second": round(actions / (end - warm), 1), "p50_ms": round(pct(0.50), 2),
            "p99_ms": round(pct(0.99), 2), "mean_ms": round(statistics.fmean(measured) * 1000, 2) if measured else None,
            "games_finished": sum(table.games for table in tables) // 4,
            "server_cpu_share": round(cpu_server / (end - warm), 2),
            "client_cpu_share": round(cpu_client / (end - warm), 2)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--warmup", type=float, default=3.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--database", default=None, help="default: a SQLite file in a temporary folder")
    parser.add_argument("--sqlite-sync", choices=["full", "normal"], default="full")
    parser.add_argument("--url", default=None, help="use a server already running there (started with a high "
                        "--max-new-tables and no bot delays) instead of starting one")
    args = parser.parse_args()
    try:
        import uvloop

        uvloop.install()
    except ImportError:
        pass
    folder = tempfile.mkdtemp(prefix="ohhell-load-")
    database = args.database or f"sqlite:///{folder}/load.db"
    port = free_port()
    log = open(os.path.join(folder, "server.log"), "wb")  # noqa: SIM115 - closed below
    if args.url:
        base = args.url.rstrip("/")
        result = asyncio.run(run(args, base, base.replace("http", "ws", 1) + "/ws"))
        print(json.dumps(result))
        return
    server = subprocess.Popen([sys.executable, "-m", "ohhell.cli", "serve", "--port", str(port), "--database", database,
                               "--sqlite-sync", args.sqlite_sync, "--bot-delay", "0", "--trick-pause", "0",
                               "--hand-pause", "0", "--leave-grace", "600",
                               "--max-new-tables", str(args.tables * 5 + 10), "--log-level", "warning"],
                              stdout=log, stderr=subprocess.STDOUT, cwd=ROOT)
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                    break
            except OSError:
                if time.monotonic() > deadline or server.poll() is not None:
                    raise SystemExit("the server did not start") from None
                time.sleep(0.1)
        result = asyncio.run(run(args, f"http://127.0.0.1:{port}", f"ws://127.0.0.1:{port}/ws", server.pid))
    finally:
        server.terminate()
        server.wait(timeout=10)
        log.close()
    print(json.dumps(result))
    print(f"{result['tables']} tables x 4 players: {result['actions_per_second']} actions/s, "
          f"latency to every seat p50 {result['p50_ms']} ms, p99 {result['p99_ms']} ms")


if __name__ == "__main__":
    main()
