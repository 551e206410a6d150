"""Fixtures of the server tests: a live server (in a thread, or a real subprocess), a temporary
PostgreSQL cluster, and headless Chromium.

System services may be missing on a developer's machine: then the tests that need them skip
with the reason, except under ``CI=true``, where a missing service fails them.
"""

from __future__ import annotations

import asyncio
import os
import random
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

import pytest
import uvicorn

from ohhell.server.app import create_app
from ohhell.server.cluster.local import free_port, postgres_binaries, wait_for_port
from ohhell.server.config import ServerConfig

CI = os.environ.get("CI", "").lower() == "true"
ROOT = Path(__file__).resolve().parents[2]


def need(condition: bool, reason: str) -> None:
    """Skip (or, under CI=true, fail) when a system service is missing."""
    if condition:
        return
    if CI:
        pytest.fail(f"CI=true but {reason}")
    pytest.skip(reason)




@dataclass
class LiveServer:
    """A server running in a thread of the test process."""

    url: str
    port: int
    database: str
    server: uvicorn.Server
    thread: threading.Thread

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/ws"

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=10)


def start_server(database: str, **changes: object) -> LiveServer:
    config = ServerConfig.fast(database=database, **changes)
    port = free_port()
    uv_config = uvicorn.Config(create_app(config), host="127.0.0.1", port=port, log_level="warning",
                               ws_max_size=config.max_frame_bytes, lifespan="on")
    server = uvicorn.Server(uv_config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("the test server did not start")
        time.sleep(0.02)
    return LiveServer(f"http://127.0.0.1:{port}", port, database, server, thread)


@pytest.fixture
def sqlite_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'ohhell.db'}"


@pytest.fixture
def live_server(sqlite_url: str) -> Iterator[LiveServer]:
    server = start_server(sqlite_url)
    yield server
    server.stop()


# ----------------------------------------------------------------------------- a real subprocess


@dataclass
class ServerProcess:
    """``ohhell serve`` in a subprocess (for the kill -9 test and the browser tests)."""

    process: subprocess.Popen[bytes]
    port: int
    database: str
    log: Path

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/ws"


def spawn_server(database: str, port: int, log: Path, *extra: str) -> ServerProcess:
    command = [sys.executable, "-m", "ohhell.cli", "serve", "--host", "127.0.0.1", "--port", str(port),
               "--database", database, "--log-level", "warning", *extra]
    handle = log.open("ab")
    process = subprocess.Popen(command, stdout=handle, stderr=subprocess.STDOUT, cwd=ROOT,
                               env={**os.environ, "OHHELL_LANG": "en"})
    try:
        wait_for_port(port)
    except TimeoutError:
        process.kill()
        raise RuntimeError(f"ohhell serve did not start: {log.read_text()}") from None
    return ServerProcess(process, port, database, log)


def stop_process(server: ServerProcess) -> None:
    if server.process.poll() is None:
        server.process.terminate()
        try:
            server.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            server.process.kill()
            server.process.wait()


def served(folder: str, *options: str) -> Any:
    """A module-scoped ``server`` fixture for a test file: ``ohhell serve`` in a subprocess with
    ``options`` (the file's pace, its bots…), its SQLite database and log in a temporary folder
    named ``folder``. A file says ``server = served("browser-table", *PACE)``."""

    @pytest.fixture(scope="module")
    def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
        place = tmp_path_factory.mktemp(folder)
        process = spawn_server(f"sqlite:///{place / 'ohhell.db'}", free_port(), place / "server.log", *options)
        yield process
        stop_process(process)

    return server


# ----------------------------------------------------------------------------- PostgreSQL


@pytest.fixture(scope="session")
def postgres_url() -> Iterator[str]:
    """A temporary PostgreSQL cluster on a free port, run as the ``postgres`` user when root."""
    binaries = postgres_binaries()
    need(binaries is not None, "PostgreSQL is not installed (apt-get install postgresql)")
    assert binaries is not None
    folder = Path(tempfile.mkdtemp(prefix="ohhell-pg-"))
    data = folder / "data"
    port = free_port()
    as_user: list[str] = []
    if os.geteuid() == 0:
        need(shutil.which("runuser") is not None, "runuser is needed to run PostgreSQL as a non-root user")
        as_user = ["runuser", "-u", "postgres", "--"]
        shutil.chown(folder, "postgres")
    run = lambda *args: subprocess.run([*as_user, *args], check=True, capture_output=True)  # noqa: E731
    run(str(binaries / "initdb"), "-D", str(data), "-U", "ohhell", "--auth=trust", "-E", "UTF8")
    run(str(binaries / "pg_ctl"), "-D", str(data), "-l", str(folder / "log"), "-w", "-o",
        f"-p {port} -k {folder} -c listen_addresses=127.0.0.1 -c fsync=off", "start")
    try:
        run(str(binaries / "createdb"), "-h", "127.0.0.1", "-p", str(port), "-U", "ohhell", "ohhell")
        yield f"postgresql://ohhell@127.0.0.1:{port}/ohhell"
    finally:
        subprocess.run([*as_user, str(binaries / "pg_ctl"), "-D", str(data), "-m", "immediate", "stop"],
                       capture_output=True)
        shutil.rmtree(folder, ignore_errors=True)


def fresh_postgres_database(url: str) -> str:
    """A new, empty database on the suite's PostgreSQL cluster (its URL)."""
    import psycopg

    name = f"t{random.randrange(10**9)}"
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(f"CREATE DATABASE {name}")
    return url.rsplit("/", 1)[0] + "/" + name


@pytest.fixture(params=["sqlite", "postgresql"])
def database(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A fresh database of each kind: a SQLite file, and a new database on the suite's PostgreSQL."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'ohhell.db'}"
    return fresh_postgres_database(request.getfixturevalue("postgres_url"))


# ----------------------------------------------------------------------------- Chromium

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-extensions"]


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    """Headless Chromium (Debian's) driven by Playwright. Module-scoped: Playwright's sync API
    keeps an event loop running in the main thread while it is open, which later tests (and
    doctests) calling ``asyncio.run`` must not meet."""
    need(Path(CHROMIUM).exists(), f"{CHROMIUM} is missing (apt-get install chromium)")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        need(False, "the playwright package is missing (pip install -e '.[test]')")
        raise
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        try:
            yield launched
        finally:
            launched.close()


def record_page_errors(page: Any, errors: list[str]) -> None:
    """Add to ``errors`` every uncaught exception of ``page`` and every Content-Security-Policy
    violation it reports: Chromium refuses what the server's policy forbids (an inline script or
    style, another site's resource) and says so on the console, so a browser test that checks
    ``errors`` is empty fails on any violation."""
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("console", lambda message: errors.append(f"console: {message.text}")
            if message.type == "error" and "Content Security Policy" in message.text else None)


DESKTOP: Final = {"width": 1366, "height": 768}
"""The viewport of a desktop (the default of :meth:`Pages.new`)."""
PHONE: Final = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 2, "is_mobile": True,
                "has_touch": True}
"""The options of a phone's context (``pages.new(**PHONE)``)."""
PHONE_LANDSCAPE: Final = {"viewport": {"width": 844, "height": 390}, "device_scale_factor": 2, "is_mobile": True,
                          "has_touch": True}


class Pages:
    """Browser contexts opened by a test, each page checked for script errors and
    Content-Security-Policy violations (:func:`record_page_errors`) at the end."""

    def __init__(self, browser: Any) -> None:
        self.browser = browser
        self.contexts: list[Any] = []
        self.errors: list[str] = []

    def new(self, locale: str = "en-US", **options: Any) -> Any:
        """A page in a new context (its own storage: another person), a desktop unless told."""
        if "viewport" not in options:
            options["viewport"] = DESKTOP
        context = self.browser.new_context(locale=locale, **options)
        self.contexts.append(context)
        page = context.new_page()
        record_page_errors(page, self.errors)
        return page

    def close(self) -> None:
        for context in self.contexts:
            context.close()


@pytest.fixture
def pages(browser: Any) -> Iterator[Pages]:
    """The test's pages (:class:`Pages`), closed after it; the test fails on any page's error."""
    opened = Pages(browser)
    yield opened
    opened.close()
    assert opened.errors == [], opened.errors


def run_async(coroutine: object) -> object:
    """Run a coroutine to completion in a fresh event loop, in a thread of its own (the tests are
    plain functions, and Playwright's sync API keeps a loop running in the main thread)."""
    result: list[object] = []
    errors: list[BaseException] = []

    def target() -> None:
        try:
            result.append(asyncio.run(coroutine))  # type: ignore[arg-type]
        except BaseException as error:  # handed to the test's thread
            errors.append(error)

    thread = threading.Thread(target=target)
    thread.start()
    thread.join()
    if errors:
        raise errors[0]
    return result[0]
