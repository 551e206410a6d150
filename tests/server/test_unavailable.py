"""When the database or a table's owning process cannot be reached in time, the HTTP API
answers 503 with a message the client can show (and retry), or 409 for the owner's refusal —
never a 500. Found by the cluster benchmark: a join forwarded to a busy owner answered 500."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from conftest import LiveServer
from ohhell.server.live.manager import TableManager
from ohhell.server.live.owner import LiveTable
from ohhell.server.storage.store import StoreError
from ohhell.server.wire.protocol import ProtocolError


def _new_table(server: LiveServer) -> str:
    created = httpx.post(f"{server.url}/api/tables", json={"name": "Ann", "preset": "classic", "players": 3,
                                                           "seats": ["open", "random"]})
    assert created.status_code == 200, created.text
    code: str = created.json()["code"]
    return code


def test_an_unreachable_owner_is_a_503_and_a_refusal_a_409(live_server: LiveServer,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    code = _new_table(live_server)

    async def owner_gone(self: Any, name: str, seat_wanted: int | None = None) -> tuple[int, str]:
        raise ProtocolError("storage")

    monkeypatch.setattr(LiveTable, "join", owner_gone)
    answer = httpx.post(f"{live_server.url}/api/tables/{code}/join", json={"name": "Bob"},
                        headers={"Accept-Language": "ru"})
    assert answer.status_code == 503, answer.text
    assert answer.json()["code"] == "unavailable" and "Internal" not in answer.text
    assert answer.json()["error"] != "The server is busy; try again in a moment."  # in Russian

    async def refused(self: Any, name: str, seat_wanted: int | None = None) -> tuple[int, str]:
        raise ProtocolError("not-host", "detail from the owner")

    monkeypatch.setattr(LiveTable, "join", refused)
    answer = httpx.post(f"{live_server.url}/api/tables/{code}/join", json={"name": "Bob"})
    assert answer.status_code == 409 and answer.json()["code"] == "not-host", answer.text
    assert "detail from the owner" in answer.json()["error"]


def test_a_table_that_cannot_be_opened_is_a_503(live_server: LiveServer, monkeypatch: pytest.MonkeyPatch) -> None:
    code = _new_table(live_server)

    async def cannot_open(self: Any, code: str) -> Any:
        raise StoreError(f"table {code}: could not reach its owner")

    monkeypatch.setattr(TableManager, "get", cannot_open)
    for path in (f"/api/tables/{code}", f"/api/tables/{code}/record", f"/api/tables/{code}/verify"):
        answer = httpx.get(live_server.url + path)
        assert answer.status_code == 503 and answer.json()["code"] == "unavailable", (path, answer.text)
    answer = httpx.post(f"{live_server.url}/api/tables/{code}/join", json={"name": "Bob"})
    assert answer.status_code == 503, answer.text
