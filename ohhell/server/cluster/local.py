"""A whole site on one machine: Redis, PostgreSQL, several ``ohhell serve`` processes and a load
balancer (HAProxy, else nginx), all on loopback — for trying the cluster, for its tests and for
its benchmark.

    python -m ohhell.server.cluster.local --processes 3          # scripts/cluster does this
    python -m ohhell.server.cluster.local --processes 2 --database postgresql://me@127.0.0.1/ohhell

It prints the address of the load balancer and keeps everything running until Ctrl+C. Nothing
is installed here: it needs Debian's ``redis-server`` (or ``valkey-server``), ``postgresql``
(unless ``--database`` names a server) and ``haproxy`` (or ``nginx``) — ``scripts/test``
installs them. The load balancer sends every connection and request of one table to one
process (table affinity: it hashes the table's code, consistently, so that a process added or
removed moves only its share of the tables), round-robin for the rest; ``--no-affinity``: round
robin for everything. It checks each process's ``/ready`` and sends a new connection elsewhere
when a process is down.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final

import httpx


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def wait_for_port(port: int, timeout: float = 20.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), timeout=0.5):
            return
        time.sleep(0.05)
    raise TimeoutError(f"nothing listens on port {port}")


def postgres_binaries() -> Path | None:
    root = Path("/usr/lib/postgresql")
    if not root.is_dir():
        return None
    versions = sorted((p for p in root.iterdir() if (p / "bin" / "initdb").exists()),
                      key=lambda p: int(p.name) if p.name.isdigit() else 0)
    return versions[-1] / "bin" if versions else None


def redis_binary() -> str | None:
    return shutil.which("redis-server") or shutil.which("valkey-server")


def balancer_binary() -> str | None:
    return shutil.which("haproxy") or shutil.which("nginx") or (
        "/usr/sbin/haproxy" if Path("/usr/sbin/haproxy").exists() else None) or (
        "/usr/sbin/nginx" if Path("/usr/sbin/nginx").exists() else None)


def missing_parts(need_postgres: bool = True) -> list[str]:
    """The Debian packages this machine lacks for a local cluster."""
    missing = []
    if redis_binary() is None:
        missing.append("redis-server (or valkey-server)")
    if need_postgres and postgres_binaries() is None:
        missing.append("postgresql")
    if balancer_binary() is None:
        missing.append("haproxy (or nginx)")
    return missing


@dataclass
class Process:
    """One ``ohhell serve`` of the cluster."""

    port: int
    log: Path
    popen: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"


@dataclass
class LocalCluster:
    """Everything a site needs, on loopback, in a folder of its own (see the module docstring)."""

    processes: int = 3
    database: str | None = None
    """A PostgreSQL URL to use; ``None``: a new PostgreSQL cluster in the folder."""
    serve_args: Sequence[str] = ()
    on_start: Callable[[int, int], None] | None = None
    """Called with (index, pid) as each server process starts (e.g. to hold it to a CPU quota)."""
    """More options for every ``ohhell serve`` (the pace of bots, …)."""
    port: int = 0
    """The load balancer's port (0: a free one)."""
    affinity: bool = True
    """Whether the balancer hashes each table's code to one process (else: round robin)."""
    folder: Path = field(default_factory=lambda: Path(tempfile.mkdtemp(prefix="ohhell-cluster-")))
    nodes: list[Process] = field(default_factory=list)
    redis_port: int = 0
    _redis: subprocess.Popen[bytes] | None = None
    _balancer: subprocess.Popen[bytes] | None = None
    _pg_data: Path | None = None
    _as_user: list[str] = field(default_factory=list)

    @property
    def url(self) -> str:
        """The site's address (the load balancer)."""
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/ws"

    @property
    def broker(self) -> str:
        return f"redis://127.0.0.1:{self.redis_port}/0"

    # ------------------------------------------------------------------ start and stop

    def start(self) -> LocalCluster:
        missing = missing_parts(need_postgres=self.database is None)
        if missing:
            raise RuntimeError("a local cluster needs " + ", ".join(missing))
        try:
            self.start_redis()
            if self.database is None:
                self.database = self._start_postgres()
            for _index in range(self.processes):
                self.nodes.append(Process(free_port(), self.folder / f"serve-{len(self.nodes)}.log"))
            for index in range(self.processes):
                self.start_process(index)
            self._start_balancer()
        except BaseException:
            self.stop()
            raise
        return self

    def start_database(self) -> str:
        """Only PostgreSQL (for a benchmark that starts sites of several sizes on one server);
        :meth:`stop` stops it."""
        if self.database is None:
            self.database = self._start_postgres()
        return self.database

    def stop(self) -> None:
        for index in range(len(self.nodes)):
            self.stop_process(index)
        for proc in (self._balancer, self._redis):
            if proc is not None and proc.poll() is None:
                proc.terminate()
                with contextlib.suppress(subprocess.TimeoutExpired):
                    proc.wait(timeout=10)
        if self._pg_data is not None:
            subprocess.run([*self._as_user, str(postgres_binaries() / "pg_ctl"),  # type: ignore[operator]
                            "-D", str(self._pg_data), "-m", "immediate", "stop"], capture_output=True)
        shutil.rmtree(self.folder, ignore_errors=True)

    def __enter__(self) -> LocalCluster:
        return self.start()

    def __exit__(self, *_exc: object) -> None:
        self.stop()

    # ------------------------------------------------------------------ the parts

    def start_redis(self) -> None:
        binary = redis_binary()
        assert binary is not None
        self.redis_port = self.redis_port or free_port()
        log = (self.folder / "redis.log").open("ab")
        self._redis = subprocess.Popen([binary, "--port", str(self.redis_port), "--bind", "127.0.0.1",
                                        "--save", "", "--appendonly", "no", "--protected-mode", "no"],
                                       stdout=log, stderr=subprocess.STDOUT, cwd=self.folder)
        wait_for_port(self.redis_port)

    def stop_redis(self) -> None:
        """Stop Redis (to see the cluster ride out a Redis restart: :meth:`start_redis` again)."""
        if self._redis is not None and self._redis.poll() is None:
            self._redis.kill()
            self._redis.wait()

    def _start_postgres(self) -> str:
        binaries = postgres_binaries()
        assert binaries is not None
        data = self.folder / "pg"
        port = free_port()
        if os.geteuid() == 0:
            self._as_user = ["runuser", "-u", "postgres", "--"]
            shutil.chown(self.folder, "postgres")
        def run(*args: str) -> None:
            subprocess.run([*self._as_user, *args], check=True, capture_output=True)

        run(str(binaries / "initdb"), "-D", str(data), "-U", "ohhell", "--auth=trust", "-E", "UTF8")
        run(str(binaries / "pg_ctl"), "-D", str(data), "-l", str(self.folder / "pg.log"), "-w", "-o",
            f"-p {port} -k {self.folder} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200",
            "start")
        self._pg_data = data
        run(str(binaries / "createdb"), "-h", "127.0.0.1", "-p", str(port), "-U", "ohhell", "ohhell")
        return f"postgresql://ohhell@127.0.0.1:{port}/ohhell"

    def start_process(self, index: int) -> None:
        """Start (or start again) the ``index``-th server process."""
        node = self.nodes[index]
        assert self.database is not None
        command = [sys.executable, "-m", "ohhell.cli", "serve", "--host", "127.0.0.1", "--port", str(node.port),
                   "--database", self.database, "--broker", self.broker, "--log-level", "warning",
                   *self.serve_args]
        handle = node.log.open("ab")
        node.popen = subprocess.Popen(command, stdout=handle, stderr=subprocess.STDOUT,
                                      env={**os.environ, "OHHELL_LANG": "en"})
        if self.on_start is not None:
            self.on_start(index, node.popen.pid)
        try:
            wait_for_port(node.port, timeout=30)
        except TimeoutError:
            node.popen.kill()
            raise RuntimeError(f"ohhell serve did not start: {node.log.read_text()}") from None
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(node.url + "/ready", timeout=1).status_code == 200:
                    return
            time.sleep(0.05)

    def kill_process(self, index: int) -> None:
        """``kill -9`` the ``index``-th server process."""
        popen = self.nodes[index].popen
        if popen is not None and popen.poll() is None:
            popen.send_signal(signal.SIGKILL)
            popen.wait()

    def stop_process(self, index: int) -> None:
        popen = self.nodes[index].popen
        if popen is not None and popen.poll() is None:
            popen.terminate()
            try:
                popen.wait(timeout=10)
            except subprocess.TimeoutExpired:
                popen.kill()
                popen.wait()

    def _start_balancer(self) -> None:
        binary = balancer_binary()
        assert binary is not None
        self.port = self.port or free_port()
        if "haproxy" in binary:
            config = self.folder / "haproxy.cfg"
            config.write_text(haproxy_config(self.port, [node.port for node in self.nodes], self.affinity))
            command = [binary, "-f", str(config), "-db"]
        else:
            config = self.folder / "nginx.conf"
            config.write_text(nginx_config(self.port, [node.port for node in self.nodes], self.folder, self.affinity))
            command = [binary, "-c", str(config), "-g", "daemon off;"]
        log = (self.folder / "balancer.log").open("ab")
        self._balancer = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT)
        wait_for_port(self.port)


HAPROXY_AFFINITY: Final = """\
    # Table affinity: the table's code, from /ws?table=CODE or /api/tables/CODE/…, hashed
    # consistently (a process added or removed moves only its share of the tables); a request
    # without a code (the lobby, a new table) goes round robin. A client's own header is dropped.
    http-request del-header X-Ohhell-Table
    http-request set-header X-Ohhell-Table %[url_param(table),upper] if { url_param(table) -m found }
    http-request set-header X-Ohhell-Table %[path,field(4,/),upper] if { path_beg /api/tables/ }
    balance hdr(X-Ohhell-Table)
    hash-type consistent
"""
"""The lines of an HAProxy backend that send each table to one process (deploy/haproxy.cfg too)."""


def haproxy_config(port: int, backends: Sequence[int], affinity: bool = True) -> str:
    """Each table to one process (``affinity``; else round robin), WebSockets passed through, a
    process that fails its /ready check taken out within a second, and a connection that fails
    sent to another process."""
    servers = "\n".join(f"    server ohhell{index} 127.0.0.1:{backend} check inter 500 fall 2 rise 2"
                        for index, backend in enumerate(backends))
    balance = HAPROXY_AFFINITY if affinity else "    balance roundrobin\n"
    return f"""global
    maxconn 4000

defaults
    mode http
    timeout connect 1s
    timeout client 60s
    timeout server 60s
    timeout tunnel 1h
    option redispatch
    retries 3

frontend site
    bind 127.0.0.1:{port}
    default_backend ohhell

backend ohhell
{balance}    option httpchk GET /ready
{servers}
"""


def nginx_config(port: int, backends: Sequence[int], folder: Path, affinity: bool = True) -> str:
    """The same with nginx (passive checks only: a failing process is skipped for 2 seconds);
    with ``affinity``, ``hash $ohhell_table consistent`` (an empty key: round robin)."""
    servers = "\n".join(f"        server 127.0.0.1:{backend} max_fails=1 fail_timeout=2s;" for backend in backends)
    hashing = "        hash $ohhell_table consistent;\n" if affinity else ""
    return f"""worker_processes 1;
error_log {folder}/nginx-error.log;
pid {folder}/nginx.pid;
events {{ worker_connections 20000; }}
http {{
    access_log off;
    client_body_temp_path {folder}/nginx-body;
    proxy_temp_path {folder}/nginx-proxy;
    map $uri $ohhell_table {{
        ~^/api/tables/(?<code>[^/]+) $code;
        default $arg_table;
    }}
    upstream ohhell {{
{hashing}{servers}
    }}
    server {{
        listen 127.0.0.1:{port};
        location / {{
            proxy_pass http://ohhell;
            proxy_http_version 1.1;
            proxy_set_header Host $http_host;
            proxy_set_header Upgrade $http_upgrade;
            proxy_set_header Connection "upgrade";
            proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
            proxy_next_upstream error timeout http_502 http_503;
            proxy_read_timeout 1h;
        }}
    }}
}}
"""


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--processes", type=int, default=3, help="ohhell serve processes (default 3)")
    parser.add_argument("--port", type=int, default=8000, help="the load balancer's port (default 8000)")
    parser.add_argument("--no-affinity", dest="affinity", action="store_false",
                        help="round robin for everything (default: each table's requests to one process)")
    parser.add_argument("--database", default=None,
                        help="a PostgreSQL URL (default: a new PostgreSQL cluster in a temporary folder)")
    args, serve_args = parser.parse_known_args(argv)
    cluster = LocalCluster(processes=args.processes, database=args.database, serve_args=serve_args, port=args.port,
                           affinity=args.affinity)
    try:
        cluster.start()
    except RuntimeError as error:
        sys.exit(f"scripts/cluster: {error}")
    print(f"Oh Hell is served at {cluster.url}/ by {args.processes} processes "
          f"({', '.join(str(node.port) for node in cluster.nodes)}), Redis on port {cluster.redis_port}, "
          f"database {cluster.database}; {'table affinity' if args.affinity else 'round robin'}; "
          f"logs in {cluster.folder}. Stop with Ctrl+C.", flush=True)
    signal.signal(signal.SIGTERM, lambda *_args: (_ for _ in ()).throw(KeyboardInterrupt()))
    try:
        while True:
            time.sleep(3600)
    except KeyboardInterrupt:
        pass
    finally:
        cluster.stop()


if __name__ == "__main__":
    main()
