"""Faults across simulated hosts, Jepsen's way: a nemesis that partitions, pauses, kills and
restarts while clients play, and a checker over every client's history.

Each part of a site gets a host of its own: PostgreSQL, Redis and every ``ohhell serve``
process run in their own network namespace (``ip netns``), joined by veth pairs to one bridge,
with ``tc netem`` delay on every link, so that what crosses a "network" really does. The
clients (the harness, in the root namespace, itself on the bridge) play every seat of every
table; a seat's connection goes to one process, and moves to the next when it breaks or falls
silent, as a load balancer would send it.

The nemesis injects one fault at a time, with play going on (:data:`FAULTS`): a partition of a
server process from Redis, from PostgreSQL or from its clients (``iptables`` inside its
namespace), a pause past its lease (SIGSTOP, then SIGCONT), ``kill -9`` (and a start again),
a Redis restart, a PostgreSQL restart.

The checker (:func:`check`) reads every message every client received and each table's final
record, and counts as an anomaly:

* an acknowledged action (its seat saw a later version without a refusal of it) that is not in
  its table's record at its version, or is there twice;
* a version that goes back in what one seat was shown (across its reconnections too);
* a state shown that the final record contradicts (the seat's own cards, the bids, the tricks
  won, the trick on the table, whose turn, the trump) — which is also how a write of a
  fenced-out owner would show, had it landed or been shown;
* a card of another seat's hand shown to a seat;
* a table that did not finish.

Only addresses of the private range :data:`SUBNET` are used, on interfaces this module creates
and removes; nothing else is ever a target. It needs root, ``ip``, ``tc`` and ``iptables``
(Debian's iproute2 and iptables), Redis and PostgreSQL. ``benchmarks/nemesis.py`` runs it
long; the test suite runs a short version.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import ipaddress
import json
import os
import random
import secrets
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any, Final

import httpx

from ohhell.actions import Deal, action_to_json
from ohhell.cards import parse_card
from ohhell.record import state_from_record
from ohhell.views import seat_view

SUBNET: Final = ipaddress.ip_network("10.213.77.0/24")
"""The only addresses the harness uses: the bridge's and the hosts' it creates."""
BRIDGE_ADDRESS: Final = "10.213.77.1"
"""The clients' address (the root namespace, on the bridge)."""
SERVE_PORT: Final = 8000
LEASE_SECONDS: Final = 3.0
"""The cluster's lease (ohhell.server.cluster.broker.LEASE_MS): a pause longer than this loses it."""


# ---------------------------------------------------------------------------------------- hosts


def missing_tools() -> list[str]:
    """What this machine lacks for the harness (empty: it can run)."""
    missing = []
    if os.geteuid() != 0:
        missing.append("root (network namespaces)")
    for tool, package in (("ip", "iproute2"), ("tc", "iproute2"), ("iptables", "iptables")):
        if shutil.which(tool) is None:
            missing.append(f"{tool} ({package})")
    from ohhell.server.cluster.local import postgres_binaries, redis_binary

    if redis_binary() is None:
        missing.append("redis-server")
    if postgres_binaries() is None:
        missing.append("postgresql")
    return missing


def run(*command: str, check: bool = True) -> subprocess.CompletedProcess[str]:
    return subprocess.run(command, check=check, capture_output=True, text=True, timeout=30)


@dataclasses.dataclass
class Host:
    """A network namespace on the bridge, with one address of :data:`SUBNET`."""

    namespace: str
    address: str
    veth: str

    def exec(self, *command: str) -> list[str]:
        """``command`` run inside this host's namespace."""
        return ["ip", "netns", "exec", self.namespace, *command]

    def partition(self, peer: str) -> None:
        """Drop every packet between this host and ``peer`` (inside this host only)."""
        assert ipaddress.ip_address(peer) in SUBNET
        run(*self.exec("iptables", "-A", "INPUT", "-s", peer, "-j", "DROP"))
        run(*self.exec("iptables", "-A", "OUTPUT", "-d", peer, "-j", "DROP"))

    def heal(self) -> None:
        run(*self.exec("iptables", "-F"), check=False)


class Network:
    """A bridge and a namespace per host, made by :meth:`add` and all removed by :meth:`close`."""

    def __init__(self, delay_ms: float = 2.0, jitter_ms: float = 1.0) -> None:
        self.tag = secrets.token_hex(2)
        self.bridge = f"ohnm{self.tag}br"
        self.delay, self.jitter = delay_ms, jitter_ms
        self.hosts: list[Host] = []
        self.netem = True
        """Whether the links have netem's delay (False on a kernel built without sch_netem)."""
        prefix = SUBNET.prefixlen
        for stale in self._stale_namespaces():  # a run killed before its clean-up
            run("ip", "netns", "delete", stale, check=False)
        run("ip", "link", "add", self.bridge, "type", "bridge")
        run("ip", "addr", "add", f"{BRIDGE_ADDRESS}/{prefix}", "dev", self.bridge)
        run("ip", "link", "set", self.bridge, "up")

    @staticmethod
    def _stale_namespaces() -> list[str]:
        listed = run("ip", "netns", "list", check=False).stdout.split("\n")
        return [line.split()[0] for line in listed if line.startswith("ohnm")]

    def add(self, name: str) -> Host:
        index = len(self.hosts) + 2
        address = str(SUBNET.network_address + index)
        host = Host(f"ohnm{self.tag}-{name}", address, f"ohnm{self.tag}v{index}")
        run("ip", "netns", "add", host.namespace)
        run("ip", "link", "add", host.veth, "type", "veth", "peer", "name", "eth0", "netns", host.namespace)
        run("ip", "link", "set", host.veth, "master", self.bridge)
        run("ip", "link", "set", host.veth, "up")
        run(*host.exec("ip", "addr", "add", f"{address}/{SUBNET.prefixlen}", "dev", "eth0"))
        run(*host.exec("ip", "link", "set", "eth0", "up"))
        run(*host.exec("ip", "link", "set", "lo", "up"))
        if self.delay > 0 and self.netem:
            added = run(*host.exec("tc", "qdisc", "add", "dev", "eth0", "root", "netem", "delay",
                                   f"{self.delay}ms", f"{self.jitter}ms"), check=False)
            if added.returncode != 0:  # this kernel has no sch_netem (CONFIG_NET_SCH_NETEM unset)
                self.netem = False
        self.hosts.append(host)
        return host

    def close(self) -> None:
        for host in self.hosts:
            run("ip", "netns", "delete", host.namespace, check=False)
        run("ip", "link", "delete", self.bridge, check=False)
        self.hosts.clear()


@dataclasses.dataclass
class Site:
    """PostgreSQL, Redis and ``processes`` server processes, each on a host of its own."""

    processes: int = 3
    folder: Path = dataclasses.field(default_factory=lambda: Path(tempfile.mkdtemp(prefix="ohhell-nemesis-")))
    network: Network = dataclasses.field(default_factory=Network)
    pg_host: Host | None = None
    redis_host: Host | None = None
    server_hosts: list[Host] = dataclasses.field(default_factory=list)
    servers: list[subprocess.Popen[bytes] | None] = dataclasses.field(default_factory=list)
    redis: subprocess.Popen[bytes] | None = None
    serve_args: Sequence[str] = ()

    @property
    def database(self) -> str:
        assert self.pg_host is not None
        return f"postgresql://ohhell@{self.pg_host.address}:5432/ohhell"

    @property
    def broker(self) -> str:
        assert self.redis_host is not None
        return f"redis://{self.redis_host.address}:6379/0"

    def url(self, index: int) -> str:
        return f"http://{self.server_hosts[index].address}:{SERVE_PORT}"

    def start(self) -> Site:
        try:
            self.pg_host = self.network.add("pg")
            self.redis_host = self.network.add("redis")
            self._init_postgres()
            self.start_postgres()
            self.start_redis()
            for index in range(self.processes):
                self.server_hosts.append(self.network.add(f"s{index}"))
                self.servers.append(None)
            for index in range(self.processes):
                self.start_server(index)
        except BaseException:
            self.stop()
            raise
        return self

    def stop(self) -> None:
        for index in range(len(self.servers)):
            self.kill_server(index)
        if self.redis is not None and self.redis.poll() is None:
            self.redis.kill()
            self.redis.wait()
        with contextlib.suppress(Exception):
            self.stop_postgres()
        self.network.close()
        shutil.rmtree(self.folder, ignore_errors=True)

    # -- PostgreSQL

    def _pg(self, *args: str) -> list[str]:
        from ohhell.server.cluster.local import postgres_binaries

        binaries = postgres_binaries()
        assert binaries is not None and self.pg_host is not None
        return self.pg_host.exec("runuser", "-u", "postgres", "--", str(binaries / args[0]), *args[1:])

    def _init_postgres(self) -> None:
        shutil.chown(self.folder, "postgres")
        subprocess.run(self._pg("initdb", "-D", str(self.folder / "pg"), "-U", "ohhell", "--auth=trust", "-E", "UTF8"),
                       check=True, capture_output=True)
        with (self.folder / "pg" / "pg_hba.conf").open("a") as hba:
            hba.write(f"host all all {SUBNET} trust\n")

    def start_postgres(self) -> None:
        assert self.pg_host is not None
        subprocess.run(self._pg("pg_ctl", "-D", str(self.folder / "pg"), "-l", str(self.folder / "pg.log"), "-w",
                                "-o", f"-p 5432 -k {self.folder} -c listen_addresses={self.pg_host.address} "
                                      "-c fsync=off -c max_connections=300", "start"),
                       check=True, capture_output=True, timeout=60)
        subprocess.run(self._pg("createdb", "-h", self.folder.as_posix(), "-p", "5432", "-U", "ohhell", "ohhell"),
                       capture_output=True)  # once; an error after a restart (it exists) is expected

    def stop_postgres(self) -> None:
        subprocess.run(self._pg("pg_ctl", "-D", str(self.folder / "pg"), "-m", "immediate", "stop"),
                       capture_output=True, timeout=60)

    # -- Redis

    def start_redis(self) -> None:
        from ohhell.server.cluster.local import redis_binary

        assert self.redis_host is not None
        binary = redis_binary()
        assert binary is not None
        log = (self.folder / "redis.log").open("ab")
        command = self.redis_host.exec(binary, "--port", "6379", "--bind", self.redis_host.address,
                                       "--save", "", "--appendonly", "no", "--protected-mode", "no")
        self.redis = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, cwd=self.folder)
        wait_for(self.redis_host.address, 6379)

    def kill_redis(self) -> None:
        if self.redis is not None and self.redis.poll() is None:
            self.redis.kill()
            self.redis.wait()

    # -- the server processes

    def start_server(self, index: int, timeout: float = 180.0) -> None:
        host = self.server_hosts[index]
        log = (self.folder / f"serve-{index}.log").open("ab")
        command = host.exec(sys.executable, "-m", "ohhell.cli", "serve", "--host", host.address, "--port",
                            str(SERVE_PORT), "--database", self.database, "--broker", self.broker,
                            "--log-level", "warning", *self.serve_args)
        self.servers[index] = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT,
                                               env={**os.environ, "OHHELL_LANG": "en"})
        wait_for(host.address, SERVE_PORT, timeout=timeout)

    def kill_server(self, index: int) -> None:
        process = self.servers[index]
        if process is not None and process.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.kill(process.pid, signal.SIGCONT)  # a paused one too
            process.kill()
            process.wait()

    def signal_server(self, index: int, sig: int) -> None:
        process = self.servers[index]
        if process is not None and process.poll() is None:
            os.kill(process.pid, sig)

    def log(self, index: int) -> str:
        path = self.folder / f"serve-{index}.log"
        return path.read_text(errors="replace") if path.exists() else ""


def wait_for(address: str, port: int, timeout: float = 20.0) -> None:
    import socket

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with contextlib.suppress(OSError), socket.create_connection((address, port), timeout=0.5):
            return
        time.sleep(0.05)
    raise TimeoutError(f"nothing listens on {address}:{port}")


# ---------------------------------------------------------------------------------------- clients


@dataclasses.dataclass
class Event:
    """One line of a client's history."""

    at: float
    kind: str
    """``state`` (a state message, applied: ``data`` is the seat's whole state after it),
    ``send`` (an action sent: ``data`` has ``version``, ``action``, ``id``), ``error`` (a refusal),
    ``connect`` (``data["server"]``), ``drop`` (the connection broke or fell silent)."""
    data: dict[str, Any]


class Client:
    """One seat of one table: plays random legal moves, paced, and keeps its whole history."""

    def __init__(self, table: str, seat: int, token: str, urls: Sequence[str], first: int, rng: random.Random,
                 think: Callable[[], float], deadline: float) -> None:
        self.table, self.seat, self.token = table, seat, token
        self.urls, self.server = list(urls), first
        self.rng, self.think, self.deadline = rng, think, deadline
        self.history: list[Event] = []
        self.state: dict[str, Any] = {}
        self.over = False
        self._ids = 0
        self._sent_at_version: int | None = None

    def note(self, kind: str, data: dict[str, Any]) -> None:
        self.history.append(Event(time.monotonic(), kind, data))

    async def play(self) -> None:
        import websockets

        while not self.over and time.monotonic() < self.deadline:
            url = self.urls[self.server % len(self.urls)].replace("http", "ws", 1) + f"/ws?table={self.table}"
            try:
                async with websockets.connect(url, open_timeout=3, close_timeout=1, ping_interval=None,
                                              max_size=1 << 22) as socket:
                    self.note("connect", {"server": self.server % len(self.urls)})
                    await socket.send(json.dumps({"type": "hello", "table": self.table, "token": self.token,
                                                  "lang": "en"}))
                    await self._session(socket)
            except (TimeoutError, OSError, Exception) as error:
                if self.over:
                    return
                self.note("drop", {"why": type(error).__name__})
            if not self.over:
                self.server += 1  # the balancer sends the next connection elsewhere
                self._sent_at_version = None
                await asyncio.sleep(0.2 + self.rng.random() * 0.3)

    async def _session(self, socket: Any) -> None:
        import websockets

        self.state = {}
        last_heard = time.monotonic()
        pinger = asyncio.create_task(self._ping(socket))
        actor: asyncio.Task[None] | None = None
        try:
            while not self.over and time.monotonic() < self.deadline:
                try:
                    raw = await asyncio.wait_for(socket.recv(), timeout=1.0)
                except TimeoutError:
                    if time.monotonic() - last_heard > 4.0:  # silent past every ping: the host is gone
                        raise ConnectionError("silent") from None
                    continue
                except websockets.ConnectionClosed as closed:
                    raise ConnectionError(f"closed {closed.rcvd.code if closed.rcvd else None}") from None
                last_heard = time.monotonic()
                message = json.loads(raw)
                kind = message.get("type")
                if kind == "state":
                    if message.get("full"):
                        self.state = {}
                    self.state.update(message["changes"])
                    self.note("state", {key: self.state.get(key) for key in WATCHED})
                    if self.state.get("phase") == "game_over" or self.state.get("game_over"):
                        self.over = True
                        return
                    if actor is None or actor.done():
                        actor = asyncio.create_task(self._maybe_act(socket))
                elif kind == "error":
                    self.note("error", {"code": message.get("code"), "id": message.get("id"),
                                        "version": message.get("version")})
                    if message.get("code") in ("no-such-table", "bad-token"):
                        raise ConnectionError(message.get("code"))
                    self._sent_at_version = None
                    # A refusal (stale, busy, the database away a moment): look again soon, as a
                    # person would tap again; the state may not change until someone acts.
                    if actor is None or actor.done():
                        actor = asyncio.create_task(self._maybe_act(socket, after=0.5))
                elif kind == "fair" and self.seat in message.get("waiting", ()):
                    await socket.send(json.dumps({"type": "contribute", "hand": message["hand"],
                                                  "value": os.urandom(32).hex()}))
        finally:
            pinger.cancel()
            if actor is not None:
                actor.cancel()

    async def _ping(self, socket: Any) -> None:
        with contextlib.suppress(Exception):
            while True:
                await asyncio.sleep(1.0)
                await socket.send('{"type": "ping"}')

    async def _maybe_act(self, socket: Any, after: float = 0.0) -> None:
        if after:
            await asyncio.sleep(after)
        # While this seat thinks, the state may move on (a message that arrives meanwhile starts
        # no second actor): look again at the newer state rather than give up, or the seat
        # would wait for a message that never comes.
        for _look in range(100):
            state = self.state
            if state.get("table", {}).get("status") != "playing" or state.get("seat") != self.seat:
                return
            if not (state.get("turn") == self.seat
                    or (state.get("turn") is None and self.seat in state.get("actors", ()))):
                return
            version = state["version"]
            if self._sent_at_version == version:
                return
            legal = [a for a in state.get("legal_actions", ())
                     if not (a["type"] == "bid" and state["bids"][self.seat] is not None)]
            if not legal:
                return
            await asyncio.sleep(self.think())
            if self.state.get("version") == version:
                break
        else:
            return
        action = dict(self.rng.choice(legal))
        action.pop("seat", None)
        self._ids += 1
        self._sent_at_version = version
        self.note("send", {"version": version, "action": action, "id": self._ids})
        await socket.send(json.dumps({"type": "act", "version": version, "id": self._ids, "action": action}))


WATCHED: Final = ("version", "phase", "hand_index", "hand", "bids", "tricks_won", "current_trick", "turn", "trump",
                  "seat")
"""The fields of a seat's state the checker compares with the final record's replay."""


# ---------------------------------------------------------------------------------------- the nemesis


FAULTS: Final = ("partition-redis", "partition-postgres", "partition-clients", "pause", "kill",
                 "restart-redis", "restart-postgres")


@dataclasses.dataclass
class Fault:
    kind: str
    target: int | None
    start: float
    end: float = 0.0
    note: str = ""


async def nemesis(site: Site, faults: Sequence[str], hold: float, quiet: float, rng: random.Random,
                  log: list[Fault], progress: Callable[[Fault], None] | None = None) -> None:
    """Inject ``faults`` one at a time, each held ``hold`` seconds, with ``quiet`` seconds of
    healthy play after each; ``log`` gets every fault as it is injected."""
    loop = asyncio.get_running_loop()
    for kind in faults:
        target = rng.randrange(site.processes) if kind in ("partition-redis", "partition-postgres",
                                                          "partition-clients", "pause", "kill") else None
        fault = Fault(kind, target, time.monotonic())
        log.append(fault)
        host = site.server_hosts[target] if target is not None else None
        if kind == "partition-redis":
            assert host is not None and site.redis_host is not None
            host.partition(site.redis_host.address)
            await asyncio.sleep(hold)
            host.heal()
        elif kind == "partition-postgres":
            assert host is not None and site.pg_host is not None
            host.partition(site.pg_host.address)
            await asyncio.sleep(hold)
            host.heal()
        elif kind == "partition-clients":
            assert host is not None
            host.partition(BRIDGE_ADDRESS)
            await asyncio.sleep(hold)
            host.heal()
        elif kind == "pause":
            assert target is not None
            site.signal_server(target, signal.SIGSTOP)
            await asyncio.sleep(max(hold, LEASE_SECONDS + 1.5))
            site.signal_server(target, signal.SIGCONT)
        elif kind == "kill":
            assert target is not None
            site.kill_server(target)
            await asyncio.sleep(hold / 2)
            try:  # a busy machine can take long to start a process (it loads its tables): play goes on
                await loop.run_in_executor(None, site.start_server, target, 300.0)
            except TimeoutError:
                fault.note = "not listening again within 300 s"
        elif kind == "restart-redis":
            site.kill_redis()
            await asyncio.sleep(0.5)
            await loop.run_in_executor(None, site.start_redis)
        elif kind == "restart-postgres":
            await loop.run_in_executor(None, site.stop_postgres)
            await asyncio.sleep(0.5)
            await loop.run_in_executor(None, site.start_postgres)
        fault.end = time.monotonic()
        if progress is not None:
            progress(fault)
        await asyncio.sleep(quiet)


# ---------------------------------------------------------------------------------------- the checker


@dataclasses.dataclass
class Verdict:
    anomalies: list[str]
    tables: int
    finished: int
    acknowledged: int
    states: int
    failovers: list[float]
    unanswered: list[str] = dataclasses.field(default_factory=list)
    """Actions sent twice at one version (the first on a connection that broke), where the second
    got no answer at all: indeterminate in Jepsen's terms, not lost — the first was applied."""

    def line(self, events: int) -> str:
        """The benchmark's last line."""
        p50 = statistics.median(self.failovers) if self.failovers else float("nan")
        worst = max(self.failovers) if self.failovers else float("nan")
        return (f"nemesis: events={events} anomalies={len(self.anomalies)} tables={self.tables} "
                f"failover_p50={p50:.2f}s failover_max={worst:.2f}s unanswered={len(self.unanswered)}")


def _replayed_views(record: dict[str, Any], players: int) -> list[list[dict[str, Any]]]:
    """For every version of the finished game, every seat's view of it (the watched fields)."""
    final = state_from_record(record)
    state = final.game.new_initial_state()
    views: list[list[dict[str, Any]]] = []

    def snapshot() -> None:
        views.append([_watched(seat_view(state, seat).to_json()) for seat in range(players)])

    snapshot()
    for action in final.history:
        if isinstance(action, Deal):
            # A record keeps a hand's cards as one deal; the server's game shuffled, then cut
            # (two versions): the version between the two shows the pack not yet cut.
            views.append([{**view, "phase": "cut"} for view in views[-1]])
        state.apply(action)
        snapshot()
    return views


def _watched(view: dict[str, Any]) -> dict[str, Any]:
    return {key: view.get(key) for key in WATCHED}


def _same(shown: dict[str, Any], truth: dict[str, Any]) -> list[str]:
    """The watched fields where what a seat was shown differs from the record's replay."""
    differ: list[str] = []
    for key in WATCHED:
        if key in ("version", "seat"):
            continue
        mine, real = shown.get(key), truth.get(key)
        if key == "hand":
            if sorted(mine or []) != sorted(real or []):
                differ.append(key)
        elif key == "current_trick":
            if [list(x) for x in (mine or [])] != [list(x) for x in (real or [])]:
                differ.append(key)
        elif mine != real:
            differ.append(key)
    return differ


def check(clients: Sequence[Client], records: dict[str, dict[str, Any] | None], players: int,
          faults: Sequence[Fault]) -> Verdict:
    """Every client's history against its table's final record (see the module docstring)."""
    anomalies: list[str] = []
    unanswered: list[str] = []
    by_table: dict[str, list[Client]] = {}
    for client in clients:
        by_table.setdefault(client.table, []).append(client)
    acknowledged = states = finished = 0
    progress: dict[str, list[float]] = {}
    for code, seats in by_table.items():
        record = records.get(code)
        if record is None:
            anomalies.append(f"{code}: no final record")
            continue
        try:
            views = _replayed_views(record, players)
        except Exception as error:
            anomalies.append(f"{code}: the final record does not replay: {error}")
            continue
        final_state = state_from_record(record)
        if final_state.is_terminal():
            finished += 1
        else:  # the table is the anomaly: its public record stops before what its seats saw
            anomalies.append(f"{code}: the game did not finish ({len(final_state.history)} actions)")
            continue
        history: list[Any] = []  # the record's actions at the server's versions (a deal took two)
        for action in final_state.history:
            history.extend((None, action) if isinstance(action, Deal) else (action,))
        times = progress.setdefault(code, [])
        for client in seats:
            seen = -1
            pending: dict[int, dict[str, Any]] = {}  # sent on this connection, not yet answered
            # Followed by a later state on this connection; a refusal of one may still come after
            # that state (the state of another seat's move overtakes the refusal of a stale send):
            # then it was not acknowledged. Settled when the connection ends.
            followed: list[dict[str, Any]] = []
            confirmed: list[dict[str, Any]] = []
            for event in client.history:
                if event.kind == "send":
                    pending[event.data["id"]] = event.data
                elif event.kind == "error":
                    refused = int(event.data.get("id") or 0)
                    pending.pop(refused, None)
                    followed = [sent for sent in followed if sent["id"] != refused]
                elif event.kind in ("connect", "drop"):
                    pending.clear()  # what became of those is unknown to this seat: not acknowledged
                    confirmed.extend(followed)
                    followed = []
                elif event.kind == "state":
                    states += 1
                    version = event.data["version"]
                    if version < seen:
                        anomalies.append(f"{code} seat {client.seat}: version {version} after {seen}")
                    if version > seen:
                        times.append(event.at)
                    seen = max(seen, version)
                    for ident in [i for i, sent in pending.items() if sent["version"] < version]:
                        followed.append(pending.pop(ident))  # a later state on the same connection
                    if version >= len(views):
                        anomalies.append(f"{code} seat {client.seat}: shown version {version}, "
                                         f"the record has {len(views) - 1}")
                        continue
                    truth = views[version][client.seat]
                    wrong = _same(event.data, truth)
                    if wrong:
                        anomalies.append(f"{code} seat {client.seat} v{version}: shown {wrong} the record "
                                         f"contradicts: {[event.data.get(k) for k in wrong]} vs "
                                         f"{[truth.get(k) for k in wrong]}")
                    for card in event.data.get("hand") or ():
                        if card != "??" and card not in (truth.get("hand") or ()):
                            anomalies.append(f"{code} seat {client.seat} v{version}: shown a card not its own: {card}")
            confirmed.extend(followed)
            everything_sent = [event.data for event in client.history if event.kind == "send"]
            for sent in confirmed:
                acknowledged += 1
                version = sent["version"]
                applied = history[version] if version < len(history) else None
                if not _matches(applied, sent["action"], client.seat):
                    # Whose was the action applied instead: this seat's own, sent before (on an
                    # earlier connection: this one's refusal never came), or nobody's it sent?
                    own = [other for other in everything_sent if other["version"] == version
                           and other is not sent and _matches(applied, other["action"], client.seat)]
                    if own:  # indeterminate, not lost: the seat's own other send won; this one got no answer
                        unanswered.append(f"{code} seat {client.seat}: {sent['action']} at v{version} was never "
                                          f"answered; its earlier send {own[0]['action']} was applied")
                        continue
                    anomalies.append(f"{code} seat {client.seat}: acknowledged {sent['action']} at v{version} "
                                     f"not in the record (it has {applied}, which this seat never sent)")
    failovers = []
    for fault in faults:
        # The longest time any table went without a new version, from the fault's start.
        gaps = []
        for times in progress.values():
            after = [t for t in sorted(times) if t >= fault.start]
            if after:
                gaps.append(after[0] - fault.start)
        if gaps:
            failovers.append(max(gaps))
    return Verdict(anomalies, len(by_table), finished, acknowledged, states, failovers, unanswered)


def last_moments(clients: Sequence[Client], code: str, count: int = 6) -> str:
    """What each seat of table ``code`` saw and did last: for a table that did not finish, where
    it stopped (whose turn, at which version, waiting for what)."""
    lines = []
    for client in clients:
        if client.table != code:
            continue
        tail = []
        for event in client.history[-count:]:
            data = event.data
            if event.kind == "state":
                data = {key: data.get(key) for key in ("version", "turn", "phase")}
            tail.append(f"{event.kind}{data}")
        lines.append(f"seat {client.seat} over={client.over}: " + "; ".join(tail))
    return "\n".join(lines)


def _matches(applied: Any, sent: dict[str, Any], seat: int) -> bool:
    """Whether the engine's action ``applied`` is the client's ``sent`` (its ``action_to_json`` form)."""
    if applied is None:
        return False
    mine = action_to_json(applied)
    if mine.get("seat") != seat:
        return False
    for key, value in sent.items():
        if key == "card" and value != "hidden":
            if parse_card(str(mine.get("card"))) != parse_card(str(value)):
                return False
        elif mine.get(key) != value:
            return False
    return True


# ---------------------------------------------------------------------------------------- a run


@dataclasses.dataclass
class Outcome:
    verdict: Verdict
    faults: list[Fault]
    seconds: float
    clients: list[Client] = dataclasses.field(default_factory=list)

    def unfinished(self) -> str:
        """Where each table that did not finish stopped (:func:`last_moments`), for a report."""
        codes = [line.split(":")[0] for line in self.verdict.anomalies if "did not finish" in line]
        return "\n".join(f"{code}:\n{last_moments(self.clients, code)}" for code in codes)

    @property
    def line(self) -> str:
        return self.verdict.line(len(self.faults))


async def _setup_tables(site: Site, count: int, knobs: dict[str, Any]) -> list[tuple[str, list[str]]]:
    tables = []
    for index in range(count):
        base = site.url(index % site.processes)
        async with httpx.AsyncClient(base_url=base, timeout=30) as client:
            for _attempt in range(20):
                response = await client.post("/api/tables", json={"name": f"P{index}", "preset": "classic",
                                                                  "players": 4, "seats": ["open"] * 3,
                                                                  "knobs": knobs})
                if response.status_code == 200:
                    break
                await asyncio.sleep(0.3)
            response.raise_for_status()
            created = response.json()
            tokens = [created["token"]]
            for name in ("B", "C", "D"):
                for _attempt in range(20):
                    joined = await client.post(f"/api/tables/{created['code']}/join", json={"name": name})
                    if joined.status_code == 200:
                        break
                    await asyncio.sleep(0.3)
                joined.raise_for_status()
                tokens.append(joined.json()["token"])
            tables.append((created["code"], tokens))
    return tables


async def _final_records(site: Site, codes: Sequence[str]) -> dict[str, dict[str, Any] | None]:
    records: dict[str, dict[str, Any] | None] = {}
    for code in codes:
        records[code] = None
        for attempt in range(30):
            base = site.url(attempt % site.processes)
            with contextlib.suppress(httpx.HTTPError):
                async with httpx.AsyncClient(base_url=base, timeout=10) as client:
                    response = await client.get(f"/api/tables/{code}/record")
                    if response.status_code == 200:
                        records[code] = response.json()
                        break
            await asyncio.sleep(0.3)
    return records


async def play_under_faults(site: Site, tables: int, faults: Sequence[str], hold: float, quiet: float,
                            seed: int, knobs: dict[str, Any] | None = None, finish_within: float = 240.0,
                            progress: Callable[[str], None] | None = None) -> Outcome:
    """The whole run: tables set up, clients playing, the nemesis, the end of every game, the checker."""
    rng = random.Random(seed)
    start = time.monotonic()
    spec = await _setup_tables(site, tables, knobs or {})
    urls = [site.url(index) for index in range(site.processes)]
    # Paced so that the games last about as long as the faults: ~ (actions a game) / seconds.
    fault_seconds = len(faults) * (hold + quiet) + 5
    actions_per_game = 4 * 100 + 19 * 4
    pace = max(0.0, fault_seconds / actions_per_game * 0.9)
    playing = True

    def think() -> float:
        return rng.uniform(0.5, 1.5) * pace if playing else 0.0

    deadline = time.monotonic() + fault_seconds + finish_within
    clients = [Client(code, seat, token, urls, index + seat, random.Random(rng.random()), think, deadline)
               for index, (code, tokens) in enumerate(spec) for seat, token in enumerate(tokens)]
    tasks = [asyncio.create_task(client.play()) for client in clients]
    log: list[Fault] = []
    await asyncio.sleep(2.0)

    def said(fault: Fault) -> None:
        if progress is not None:
            done = sum(client.over for client in clients) // 4
            progress(f"{len(log):3d}/{len(faults)} {fault.kind:18s} target={fault.target} "
                     f"{fault.end - fault.start:4.1f}s  tables over {done}/{len(spec)}")

    await nemesis(site, faults, hold, quiet, rng, log, said)
    playing = False  # the faults are over: play out every game at full speed
    await asyncio.wait(tasks, timeout=max(1.0, deadline - time.monotonic()))
    for task in tasks:
        task.cancel()
    records = await _final_records(site, [code for code, _ in spec])
    verdict = check(clients, records, 4, log)
    return Outcome(verdict, log, time.monotonic() - start, clients)


def schedule(count: int, rng: random.Random) -> list[str]:
    """``count`` faults: every kind in turn (shuffled each round), so each kind comes about as often."""
    out: list[str] = []
    while len(out) < count:
        kinds = list(FAULTS)
        rng.shuffle(kinds)
        out.extend(kinds)
    return out[:count]


@contextlib.contextmanager
def site_on_hosts(processes: int, serve_args: Sequence[str] = (), delay_ms: float = 2.0) -> Iterator[Site]:
    """A :class:`Site` started on its own hosts, and everything removed after."""
    site = Site(processes=processes, network=Network(delay_ms=delay_ms), serve_args=serve_args)
    site.start()
    try:
        yield site
    finally:
        site.stop()
