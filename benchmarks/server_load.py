"""Load on the web server: N tables of 4 WebSocket players each, playing at full speed on loopback.

The server runs as a real ``ohhell serve`` subprocess on a fresh database; this process plays
every seat of every table: as soon as a seat's view says it must act, it sends a random legal
action, and it answers each provably fair deal's commitment with its contribution at once, as
the web client does (so no table waits out the contribution window). For every action we
measure the time from sending it to the moment *every* seat of its table has received (and
parsed) the state that includes it, and print actions per second, the p50/p99 of that latency,
and the CPU time the server and the clients spent per action.

    python benchmarks/server_load.py --tables 200 --seconds 30
    python benchmarks/server_load.py --tables 200 --database postgresql://user@127.0.0.1/db
    python benchmarks/server_load.py --tables 200 --against 90d85bc --rounds 3   # side by side

With ``--against REF`` the servers of this tree and of git ``REF`` (exported and built once under
``~/.cache/ohhell/benchmarks``) run in turn, ``--rounds`` times each, the order swapped every
round; the medians are printed side by side, with the processor time per action's ratio, and
each server's resident memory per table (grown from its idle size, with every table playing).

The clients share the machine with the server, so they are kept cheap: each connection is the
``websockets`` library's sans-I/O protocol (handshake, framing, masking, ping/pong, close) on a
plain asyncio protocol, without a task per connection, and messages are parsed with orjson.
Every message is still parsed and applied to the seat's state before it counts as received.

Traffic goes to 127.0.0.1 only, and the run stops by itself after ``--seconds``.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
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
import orjson
from websockets.client import ClientProtocol
from websockets.frames import Opcode
from websockets.http11 import Response
from websockets.protocol import State
from websockets.uri import parse_uri

ROOT = Path(__file__).resolve().parents[1]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


class Seat(asyncio.Protocol):
    """One player's connection: applies the server's state changes and acts when it must."""

    def __init__(self, table: Table, token: str, url: str, rng: random.Random) -> None:
        self.table = table
        self.token = token
        self.rng = rng
        self.state: dict[str, Any] = {}
        self.seen_version = 0
        """Every action sent before this version has been counted as reaching this seat."""
        # The table's code in the URL, as the browser sends it: a balancer with affinity hashes it.
        self.ws = ClientProtocol(parse_uri(f"{url}?table={table.code}"), max_size=1 << 22)
        self.transport: asyncio.Transport | None = None
        self.open = False
        self.closed: asyncio.Future[None] = asyncio.get_running_loop().create_future()

    # -- asyncio.Protocol

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport  # type: ignore[assignment]  # uvloop's is not an asyncio.Transport
        self.ws.send_request(self.ws.connect())
        self._flush()

    def data_received(self, data: bytes) -> None:
        self.ws.receive_data(data)
        for event in self.ws.events_received():
            if isinstance(event, Response):
                if self.ws.handshake_exc is not None:
                    raise self.ws.handshake_exc
                self.open = True
                self.send({"type": "hello", "table": self.table.code, "token": self.token})
            elif event.opcode is Opcode.TEXT:
                self.on_message(orjson.loads(event.data))
        self._flush()  # the handshake, our actions, pongs and close frames the protocol queued

    def eof_received(self) -> bool | None:
        self.ws.receive_eof()
        self._flush()
        return None

    def connection_lost(self, exc: Exception | None) -> None:
        self.open = False
        if not self.closed.done():
            self.closed.set_result(None)

    def _flush(self) -> None:
        assert self.transport is not None
        for chunk in self.ws.data_to_send():
            if chunk:
                self.transport.write(chunk)
            else:  # the protocol asks to half-close
                self.transport.close()

    # -- the game

    def send(self, message: dict[str, Any]) -> None:
        self.ws.send_text(orjson.dumps(message))
        self._flush()

    def close(self) -> None:
        # Only an open connection can start a close: one the server (or a balancer) is already
        # closing has sent its close frame, and the protocol finishes that handshake by itself.
        if self.open and self.transport is not None:
            self.open = False
            if self.ws.state is State.OPEN:
                self.ws.send_close()
                self._flush()

    def on_message(self, message: dict[str, Any]) -> None:
        if not self.open:
            return
        if message["type"] == "error":  # refused (rate-limited, stale…): not a sample; try again soon
            self.table.refused(self, message.get("version"))
            asyncio.get_running_loop().call_later(0.05, self.maybe_act)
            return
        if message["type"] == "fair":  # a provably fair deal: answer at once, as the web client does
            if self.state.get("seat") in message.get("waiting", ()):
                self.send({"type": "contribute", "hand": message["hand"], "value": os.urandom(32).hex()})
            return
        if message["type"] != "state":
            return
        if message["full"]:
            self.state = {}
        self.state.update(message["changes"])
        self.table.seen(self, self.state["version"], time.perf_counter())
        if self.state.get("game_over"):
            self.table.games += 1
            self.close()
            return
        self.maybe_act()

    def maybe_act(self) -> None:
        state = self.state
        seat = state.get("seat")
        if state.get("table", {}).get("status") != "playing" or seat is None or not self.table.running:
            return
        if not (state["turn"] == seat or (state["turn"] is None and seat in state["actors"])):
            return
        legal = [a for a in state["legal_actions"] if not (a["type"] == "bid" and state["bids"][seat] is not None)]
        if not legal or self.table.pending.get(seat) == state["version"] or not self.open:
            return
        action = dict(self.rng.choice(legal))
        action.pop("seat", None)
        version = state["version"]
        self.table.pending[seat] = version
        self.table.sent(version, time.perf_counter())
        self.send({"type": "act", "version": version, "action": action})


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
        self.running = True

    def sent(self, version: int, now: float) -> None:
        self.sent_at[version] = now
        self.waiting[version] = len(self.seats)

    def refused(self, seat: Seat, version: int | None) -> None:
        """The server refused this seat's last action: forget it."""
        index = seat.state.get("seat")
        sent = self.pending.pop(index, None) if index is not None else None
        if sent is not None and sent == version:
            self.sent_at.pop(sent, None)
            self.waiting.pop(sent, None)

    def seen(self, seat: Seat, version: int, now: float) -> None:
        """A seat got the state at ``version``: every action sent before it has reached that seat."""
        start = seat.seen_version
        if version <= start:
            return
        seat.seen_version = version
        for sent_version in [v for v in self.waiting if start <= v < version]:
            self.waiting[sent_version] -= 1
            if self.waiting[sent_version] == 0:
                self.latencies.append(now - self.sent_at.pop(sent_version))
                del self.waiting[sent_version]
                self.actions += 1


async def setup(base: str, count: int, knobs: dict[str, Any]) -> list[tuple[str, list[str]]]:
    """Create ``count`` tables of four people (the creator and three who join)."""
    out = []
    async with httpx.AsyncClient(base_url=base, timeout=60) as client:
        for index in range(count):
            created = answer(await post(client, "/api/tables", {"name": f"P{index}", "preset": "classic",
                                                                 "players": 4, "seats": ["open"] * 3,
                                                                 "knobs": knobs}))
            tokens = [created["token"]]
            for name in ("B", "C", "D"):
                joined = answer(await post(client, f"/api/tables/{created['code']}/join", {"name": name}))
                tokens.append(joined["token"])
            out.append((created["code"], tokens))
    return out


RETRIES: list[str] = []
"""The requests the server answered 503 (busy: try again), retried as a client would."""


async def post(client: httpx.AsyncClient, path: str, body: dict[str, Any]) -> httpx.Response:
    """POST, retried after a moment while the server answers 503 (at most 5 times)."""
    for attempt in range(5):
        response = await client.post(path, json=body)
        if response.status_code != 503:
            return response
        try:
            why = response.json().get("error")
        except ValueError:  # a load balancer's own 503 (no process answered its check in time)
            why = response.text[:80]
        RETRIES.append(f"{path}: {why}")
        await asyncio.sleep(0.2 * (attempt + 1))
    return response


def answer(response: httpx.Response) -> dict[str, Any]:
    """The JSON of a successful answer; else stop with what the server said."""
    if response.status_code != 200:
        raise SystemExit(f"{response.request.method} {response.request.url}: {response.status_code} "
                         f"{response.text[:300]!r}")
    data: dict[str, Any] = response.json()
    return data


def cpu_seconds(pid: int | None, task: int | None = None) -> float:
    """CPU time (user + system) used so far by a process (this one when ``pid`` is None), or by
    one of its threads (``task``: its thread id; the process's own id is its main thread)."""
    if pid is None:
        times = os.times()
        return times.user + times.system
    path = f"/proc/{pid}/task/{task}/stat" if task is not None else f"/proc/{pid}/stat"
    try:
        fields = Path(path).read_text().rsplit(")", 1)[1].split()
    except FileNotFoundError:  # the process (or thread) has ended
        return float("nan")
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def run(args: argparse.Namespace, base: str, ws_url: str, server_pid: int | None = None) -> dict[str, Any]:
    tables_spec = await setup(base, args.tables, json.loads(args.knobs))
    loop = asyncio.get_running_loop()
    latencies: list[float] = []
    tables = []
    rng = random.Random(args.seed)
    for code, tokens in tables_spec:
        table = Table(code, latencies)
        table.seats = [Seat(table, token, ws_url, random.Random(rng.random())) for token in tokens]
        tables.append(table)
    uri = parse_uri(ws_url)
    # The clients' garbage collector, like the server's (see ohhell.server.app.tune_gc): rare
    # collections, that never walk what exists already, so no client pause inflates a latency.
    gc.collect()
    gc.freeze()
    gc.set_threshold(50_000, 2, 10)
    start = time.perf_counter()
    for table in tables:
        for seat in table.seats:
            await loop.create_connection(lambda seat=seat: seat, uri.host, uri.port)
    await asyncio.sleep(args.warmup)
    warm = time.perf_counter()
    warm_actions = sum(table.actions for table in tables)
    warm_latencies = len(latencies)
    load_before = os.getloadavg()
    cpu_client, cpu_server = cpu_seconds(None), cpu_seconds(server_pid) if server_pid else 0.0
    # The event loop's own thread (the process's main thread): the rest is the database writer's
    # thread and the bots' and hints' threads.
    cpu_loop = cpu_seconds(server_pid, server_pid) if server_pid else 0.0
    await asyncio.sleep(max(0.0, start + args.seconds - time.perf_counter()))
    end = time.perf_counter()
    actions = sum(table.actions for table in tables) - warm_actions
    measured = latencies[warm_latencies:]
    cpu_client = cpu_seconds(None) - cpu_client
    cpu_server = (cpu_seconds(server_pid) - cpu_server) if server_pid else float("nan")
    cpu_loop = (cpu_seconds(server_pid, server_pid) - cpu_loop) if server_pid else float("nan")
    load_after = os.getloadavg()
    resident = rss_kib(server_pid)
    for table in tables:
        table.running = False
        for seat in table.seats:
            seat.close()
    await asyncio.wait([seat.closed for table in tables for seat in table.seats], timeout=10)
    measured.sort()

    def pct(p: float) -> float:
        return measured[min(len(measured) - 1, int(p * len(measured)))] * 1000 if measured else float("nan")

    elapsed = end - warm
    return {"tables": args.tables, "seconds": round(elapsed, 1), "actions": actions,
            "actions_per_second": round(actions / elapsed, 1), "p50_ms": round(pct(0.50), 2),
            "p90_ms": round(pct(0.90), 2), "p99_ms": round(pct(0.99), 2), "max_ms": round(pct(1.0), 2),
            "mean_ms": round(statistics.fmean(measured) * 1000, 2) if measured else None,
            "games_finished": sum(table.games for table in tables) // 4,
            "server_cpu_share": round(cpu_server / elapsed, 2), "client_cpu_share": round(cpu_client / elapsed, 2),
            "server_cpu_ms_per_action": round(cpu_server / actions * 1000, 3) if actions else None,
            "server_loop_cpu_ms_per_action": round(cpu_loop / actions * 1000, 3) if actions else None,
            "client_cpu_ms_per_action": round(cpu_client / actions * 1000, 3) if actions else None,
            "load_before": [round(x, 2) for x in load_before], "load_after": [round(x, 2) for x in load_after],
            "setup_retries": len(RETRIES), "rss_kib": resident}


def rss_kib(pid: int | None) -> int:
    """A process's resident memory (KiB), 0 when unknown."""
    if not pid:
        return 0
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def prepared_tree(ref: str) -> Path:
    """A copy of this repository at git ``ref`` with its compiled parts built, made once and
    kept under ``~/.cache/ohhell/benchmarks`` (building the engine takes about a minute)."""
    sha = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--verify", f"{ref}^{{commit}}"], check=True,
                         capture_output=True, text=True).stdout.strip()
    tree = Path.home() / ".cache" / "ohhell" / "benchmarks" / sha
    if (tree / ".built").exists():
        return tree
    tree.mkdir(parents=True, exist_ok=True)
    print(f"preparing {ref} ({sha[:9]}) in {tree}: exporting and building its engine (about a minute)…",
          file=sys.stderr, flush=True)
    archive = subprocess.Popen(["git", "-C", str(ROOT), "archive", sha], stdout=subprocess.PIPE)
    subprocess.run(["tar", "-x", "-C", str(tree)], stdin=archive.stdout, check=True)
    archive.wait()
    subprocess.run([sys.executable, "setup.py", "build_ext", "--inplace"], cwd=tree, check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    (tree / ".built").touch()
    return tree


def serve_and_load(args: argparse.Namespace, tree: Path) -> dict[str, Any]:
    """Start ``ohhell serve`` from ``tree`` on a fresh database, run the load, stop it."""
    folder = tempfile.mkdtemp(prefix="ohhell-load-", dir=args.folder)
    database = args.database or f"sqlite:///{folder}/load.db"
    port = free_port()
    environment = {**os.environ, "PYTHONPATH": str(tree)}
    with open(os.path.join(folder, "server.log"), "wb") as log:
        server = subprocess.Popen([sys.executable, "-m", "ohhell.cli", "serve", "--port", str(port),
                                   "--database", database, "--sqlite-sync", args.sqlite_sync, "--bot-delay", "0",
                                   "--trick-pause", "0", "--hand-pause", "0", "--leave-grace", "600",
                                   "--max-new-tables", str(args.tables * 5 + 10), "--log-level", "warning"],
                                  stdout=log, stderr=subprocess.STDOUT, cwd=tree, env=environment)
        try:
            deadline = time.monotonic() + 60
            while True:
                try:
                    with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                        break
                except OSError:
                    if time.monotonic() > deadline or server.poll() is not None:
                        raise SystemExit(f"the server from {tree} did not start (see {folder}/server.log)") from None
                    time.sleep(0.1)
            idle_kib = rss_kib(server.pid)
            result = asyncio.run(run(args, f"http://127.0.0.1:{port}", f"ws://127.0.0.1:{port}/ws", server.pid))
        finally:
            server.terminate()
            server.wait(timeout=10)
    result["rss_idle_mib"] = round(idle_kib / 1024, 1)
    result["rss_per_table_kib"] = round((result.pop("rss_kib") - idle_kib) / args.tables, 1)
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--warmup", type=float, default=3.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--knobs", default="{}", help='rule knobs of the tables (JSON), e.g. longer games for long '
                        'runs: \'{"schedule": "explicit", "hands": [[13, "turn-up"], ...]}\'')
    parser.add_argument("--database", default=None, help="default: a SQLite file in a temporary folder")
    parser.add_argument("--folder", default=None, help="where the SQLite files go (default: the system's temporary "
                        "folder; /dev/shm measures processor time without the disk's waits)")
    parser.add_argument("--sqlite-sync", choices=["full", "normal"], default="full")
    parser.add_argument("--url", default=None, help="use a server already running there (started with a high "
                        "--max-new-tables and no bot delays) instead of starting one")
    parser.add_argument("--server-pid", type=int, default=None, help="with --url: the server's process, to measure "
                        "its CPU time")
    parser.add_argument("--against", default=None, metavar="REF",
                        help="also run the server of git REF (e.g. a release), alternating with this one, and "
                             "print both side by side and their ratio")
    parser.add_argument("--rounds", type=int, default=3, help="with --against: runs of each server (alternating)")
    args = parser.parse_args()
    try:
        import uvloop

        uvloop.install()
    except ImportError:
        pass
    if args.url:
        base = args.url.rstrip("/")
        result = asyncio.run(run(args, base, base.replace("http", "ws", 1) + "/ws", args.server_pid))
        result.pop("rss_kib")
        print(json.dumps(result))
        return
    if args.against is None:
        result = serve_and_load(args, ROOT)
        print(json.dumps(result))
        print(f"{result['tables']} tables x 4 players: {result['actions_per_second']} actions/s, "
              f"latency to every seat p50 {result['p50_ms']} ms, p99 {result['p99_ms']} ms, "
              f"{result['server_cpu_ms_per_action']} ms of server CPU per action, "
              f"{result['rss_per_table_kib']} KiB resident per table")
        return
    other = prepared_tree(args.against)
    runs: dict[str, list[dict[str, Any]]] = {"this": [], "other": []}
    for index in range(args.rounds):
        # Alternate, and swap who goes first each round, so a machine that gets busier or
        # quieter during the run weighs on both alike.
        order = [("this", ROOT), ("other", other)] if index % 2 == 0 else [("other", other), ("this", ROOT)]
        for name, tree in order:
            result = serve_and_load(args, tree)
            runs[name].append(result)
            print(json.dumps({"round": index + 1, "server": "this" if name == "this" else args.against, **result}),
                  flush=True)

    def median(name: str, key: str) -> float:
        return float(statistics.median(run[key] for run in runs[name]))

    cpu, cpu_other = median("this", "server_cpu_ms_per_action"), median("other", "server_cpu_ms_per_action")
    print(f"{args.tables} tables, median of {args.rounds} alternating runs each: "
          f"this tree {cpu:.3f} ms CPU/action, p99 {median('this', 'p99_ms'):.1f} ms, "
          f"{median('this', 'actions_per_second'):.0f} actions/s, {median('this', 'rss_per_table_kib'):.0f} KiB/table; "
          f"{args.against} {cpu_other:.3f} ms CPU/action, p99 {median('other', 'p99_ms'):.1f} ms, "
          f"{median('other', 'actions_per_second'):.0f} actions/s, "
          f"{median('other', 'rss_per_table_kib'):.0f} KiB/table")
    loop, loop_other = median("this", "server_loop_cpu_ms_per_action"), \
        median("other", "server_loop_cpu_ms_per_action")
    print(f"server_cpu_ms_per_action={cpu:.3f} against_cpu_ms_per_action={cpu_other:.3f} "
          f"cpu_ratio={cpu / cpu_other:.2f} loop_cpu_ms_per_action={loop:.3f} against_loop_cpu_ms_per_action="
          f"{loop_other:.3f} p99_ms={median('this', 'p99_ms'):.1f} "
          f"against_p99_ms={median('other', 'p99_ms'):.1f} rss_per_table_kib={median('this', 'rss_per_table_kib'):.0f}")


if __name__ == "__main__":
    main()
