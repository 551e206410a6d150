"""Browser-side hardening: the security headers on every answer, the WebSocket's Origin check,
and CSV exports that a spreadsheet cannot turn into formulas."""

from __future__ import annotations

import asyncio
import csv
import io
import json
from pathlib import Path
from typing import Any

import httpx
import pytest
import websockets
from wsclient import create_table

from conftest import LiveServer, run_async, start_server
from ohhell.spreadsheet import FORMULA_TRIGGERS


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Any:
    live = start_server(f"sqlite:///{tmp_path_factory.mktemp('sec') / 'sec.db'}",
                        allowed_origins=("https://play.example",))
    yield live
    live.stop()


def _paths(server: LiveServer) -> list[tuple[str, str]]:
    code = create_table(server.url, "Ann", players=3)["code"]
    sheet = httpx.post(f"{server.url}/api/sheets", json={"names": ["A", "B", "C"]}, timeout=10).json()["id"]
    return [("GET", "/"), ("GET", f"/t/{code}"), ("GET", "/score"), ("GET", f"/score/{sheet}"),
            ("GET", "/static/app.js"), ("GET", "/static/style.css"), ("GET", "/i18n/ru.json"),
            ("GET", "/api/config"), ("GET", f"/api/tables/{code}"), ("GET", "/api/tables/NOSUCH"),
            ("GET", f"/api/sheets/{sheet}?format=csv"), ("POST", "/api/tables"), ("GET", "/nowhere"),
            ("GET", f"/t/{code}/history"), ("GET", "/events"), ("GET", "/e/NOSUCH"), ("GET", "/daily"),
            ("GET", "/account"), ("GET", "/u/Ann"), ("GET", "/bots/basic"), ("GET", "/ratings"),
            ("GET", "/ratings/classic"), ("GET", "/api/account"), ("GET", "/api/events"),
            ("GET", "/api/players/Ann"), ("GET", "/api/ratings"), ("POST", "/api/account/login")]


def test_every_answer_carries_the_security_headers(server: LiveServer) -> None:
    for method, path in _paths(server):
        answer = httpx.request(method, server.url + path, timeout=10, content=b"{}" if method == "POST" else None)
        headers = answer.headers
        policy = headers.get("content-security-policy", "")
        assert "script-src 'self'" in policy and "frame-ancestors 'none'" in policy, path
        assert "'unsafe-inline'" not in policy and "default-src 'none'" in policy, path
        assert f"ws://127.0.0.1:{server.port}" in policy, path
        assert headers.get("x-content-type-options") == "nosniff", path
        assert headers.get("referrer-policy") == "no-referrer", path
        assert headers.get("x-frame-options") == "DENY", path
        assert "strict-transport-security" not in headers, path  # plain HTTP: no HSTS


def test_https_through_a_trusted_proxy_adds_hsts(server: LiveServer) -> None:
    answer = httpx.get(server.url + "/", headers={"x-forwarded-proto": "https"}, timeout=10)
    assert answer.headers["strict-transport-security"].startswith("max-age=")
    assert "wss://" in answer.headers["content-security-policy"]


def test_an_unhandled_exception_answers_500_with_the_headers_and_no_traceback(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The 500 of a handler that raises comes from Starlette's outermost error layer: the
    security headers must wrap even that one."""
    from starlette.routing import Route
    from starlette.testclient import TestClient

    from ohhell.server import app as app_module
    from ohhell.server.config import ServerConfig
    from ohhell.server.web.routes import tables

    async def broken(request: object) -> None:
        raise RuntimeError("secret detail of a bug")

    monkeypatch.setattr(tables, "ROUTES", [Route("/api/config", broken), *tables.ROUTES])
    application = app_module.create_app(ServerConfig.fast(database=f"sqlite:///{tmp_path / 'x.db'}"))
    with TestClient(application, raise_server_exceptions=False) as client:
        answer = client.get("/api/config")
        assert answer.status_code == 500
        assert "secret detail" not in answer.text and "Traceback" not in answer.text
        assert "RuntimeError" not in answer.text
        assert "frame-ancestors 'none'" in answer.headers["content-security-policy"]
        assert answer.headers["x-content-type-options"] == "nosniff"
        assert answer.headers["referrer-policy"] == "no-referrer"
        assert answer.headers["x-frame-options"] == "DENY"
        assert client.get("/health").status_code == 200  # the process goes on


def test_https_from_an_untrusted_address_gives_no_hsts(tmp_path: Path) -> None:
    """``X-Forwarded-Proto`` is the client's text unless it comes from a trusted proxy: from an
    address not in ``--forwarded-allow-ips`` it must not switch HSTS on (nor ``wss:``)."""
    from conftest import spawn_server, stop_process
    from ohhell.server.cluster.local import free_port

    live = spawn_server(f"sqlite:///{tmp_path / 'p.db'}", free_port(), tmp_path / "log",
                        "--forwarded-allow-ips", "10.9.8.7")
    try:
        answer = httpx.get(live.url + "/", headers={"x-forwarded-proto": "https"}, timeout=10)
        assert answer.status_code == 200
        assert "strict-transport-security" not in answer.headers
        assert "wss://" not in answer.headers["content-security-policy"]
        assert "script-src 'self'" in answer.headers["content-security-policy"]
    finally:
        stop_process(live)


async def _handshake(url: str, origin: str | None) -> str:
    """``accepted`` or the HTTP status the handshake was refused with."""
    headers = {"Origin": origin} if origin else {}
    try:
        async with websockets.connect(url, additional_headers=headers, origin=None) as ws:
            await ws.send(json.dumps({"type": "ping"}))
            await asyncio.wait_for(ws.recv(), 5)
            return "accepted"
    except websockets.InvalidStatus as error:
        return str(error.response.status_code)


def test_a_websocket_from_another_site_is_refused(server: LiveServer) -> None:
    own = f"http://127.0.0.1:{server.port}"
    results = {origin: run_async(_handshake(server.ws_url, origin))
               for origin in (own, None, "https://play.example", "https://evil.example", "null",
                              f"https://127.0.0.1:{server.port}", "http://127.0.0.1:1")}
    assert results == {own: "accepted", None: "accepted", "https://play.example": "accepted",
                       "https://evil.example": "403", "null": "403", f"https://127.0.0.1:{server.port}": "403",
                       "http://127.0.0.1:1": "403"}


HOSTILE = ["=1+1", '=HYPERLINK("http://evil.example","a")', "+SUM(A1)", "-2+3", "@cmd", "-Ann"]


def test_the_scoresheet_csv_has_no_formula(server: LiveServer, tmp_path: Path) -> None:
    names = HOSTILE[:6]
    sheet = httpx.post(f"{server.url}/api/sheets", json={"names": names}, timeout=10).json()
    sheet_id = sheet["id"]
    # One hand scored, so there are names (the dealer) and numbers in the rows too.
    for _ in range(len(names)):
        sheet = httpx.post(f"{server.url}/api/sheets/{sheet_id}", timeout=10,
                           json={"op": "bid", "seat": sheet["next_bidder"], "bid": 1 if sheet["forbidden_bid"] != 1
                                 else 0}).json()
        if sheet.get("next_bidder") is None:
            break
    size = sheet["hands"][0]["size"]
    tricks = [size] + [0] * (len(names) - 1)
    httpx.post(f"{server.url}/api/sheets/{sheet_id}", json={"op": "tricks", "tricks": tricks}, timeout=10)
    text = httpx.get(f"{server.url}/api/sheets/{sheet_id}?format=csv", timeout=10).text
    cells = [cell for row in csv.reader(io.StringIO(text)) for cell in row]
    for cell in cells:
        if cell and cell[0] in "".join(FORMULA_TRIGGERS):
            int(cell)  # only a number may begin with "-" (a negative score), and it stays a number
    assert any(cell.startswith("'=HYPERLINK") for cell in cells)
