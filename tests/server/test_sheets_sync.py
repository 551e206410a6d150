"""The sync of a scoresheet's offline changes (POST /api/sheets/{id}/sync), the manifest and the
service worker, over HTTP against a live server: changes made in order, a hand another device
changed refused with the server's version of it, a change the rules refuse, bad input answered
400 with a message, and a worker whose text changes when a static file does."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
import pytest

from conftest import LiveServer, start_server
from ohhell.server.web.routes import sheets_sync


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Any:
    live = start_server(f"sqlite:///{tmp_path_factory.mktemp('sync') / 'sync.db'}", max_tables_per_minute=100_000)
    yield live
    live.stop()


def _sheet(server: LiveServer) -> dict[str, Any]:
    answer = httpx.post(f"{server.url}/api/sheets?lang=en", timeout=10,
                        json={"names": ["Ann", "Bob", "Cy", "Dee"], "first_dealer": 3, "knobs": {"max_size": 5}})
    assert answer.status_code == 200, answer.text
    sheet: dict[str, Any] = answer.json()
    return sheet


def _sync(server: LiveServer, sheet_id: str, body: Any) -> httpx.Response:
    return httpx.post(f"{server.url}/api/sheets/{sheet_id}/sync?lang=en", json=body, timeout=10)


SEED_000 = [{"op": "bid", "seat": seat, "bid": bid, "hand": 0} for seat, bid in ((0, 1), (1, 2), (2, 0), (3, 1))] + [
    {"op": "tricks", "tricks": [1, 3, 0, 1], "hand": 0}]


def test_the_changes_of_a_whole_hand_are_made_in_order(server: LiveServer) -> None:
    sheet = _sheet(server)
    assert sheet["plan"]["hands"][0] == {"size": 5, "turned": True, "chosen": False, "trump": None}
    answer = _sync(server, sheet["id"], {"changes": SEED_000, "base": {"0": None}})
    assert answer.status_code == 200, answer.text
    body = answer.json()
    assert body["applied"] == 5 and body["conflict"] is None
    assert body["sheet"]["totals"] == [11, 0, 10, 11] and body["sheet"]["hand_index"] == 1


def test_a_hand_another_device_changed_is_a_conflict_with_the_servers_version(server: LiveServer) -> None:
    sheet = _sheet(server)
    other = httpx.post(f"{server.url}/api/sheets/{sheet['id']}?lang=en", json={"op": "bid", "seat": 0, "bid": 3},
                       timeout=10)
    assert other.status_code == 200
    answer = _sync(server, sheet["id"], {"changes": SEED_000, "base": {"0": None}})
    assert answer.status_code == 409
    conflict = answer.json()["conflict"]
    assert conflict["hand"] == 0 and conflict["reason"] == "changed"
    assert conflict["server"] == {"bids": [3, None, None, None], "tricks": None}
    assert answer.json()["applied"] == 0 and answer.json()["sheet"]["bids"] == [3, None, None, None]


def test_a_change_the_rules_refuse_stops_the_sync_there(server: LiveServer) -> None:
    sheet = _sheet(server)
    hooked = [*SEED_000[:3], {"op": "bid", "seat": 3, "bid": 2, "hand": 0}]  # the dealer may not bid 2
    answer = _sync(server, sheet["id"], {"changes": hooked, "base": {"0": None}})
    assert answer.status_code == 409
    body = answer.json()
    assert body["applied"] == 3 and body["conflict"]["reason"] == "refused" and body["conflict"]["message"]
    assert body["sheet"]["bids"] == [1, 2, 0, None]


@pytest.mark.parametrize("body", [b"[]", b'{"changes": 3}', b'{"changes": [1]}', b'{"changes": [], "base": {"x": 1}}',
                                  b'{"changes": [], "base": []}', b"not json"])
def test_bad_input_is_answered_400_with_a_message(server: LiveServer, body: bytes) -> None:
    sheet = _sheet(server)
    answer = httpx.post(f"{server.url}/api/sheets/{sheet['id']}/sync?lang=en", content=body, timeout=10)
    assert answer.status_code == 400 and "send the changes" in answer.json()["error"]
    assert httpx.post(f"{server.url}/api/sheets/nosuchsheet1/sync", json={"changes": []},
                      timeout=10).status_code == 404


def test_the_manifest_and_the_worker(server: LiveServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    manifest = httpx.get(f"{server.url}/manifest.webmanifest?lang=ru", timeout=10)
    assert manifest.headers["content-type"].startswith("application/manifest+json")
    assert manifest.json()["name"].startswith("Оу-хелл")
    worker = httpx.get(f"{server.url}/sw.js", timeout=10)
    assert worker.headers["content-type"].startswith("text/javascript")
    assert "{{VERSION}}" not in worker.text and '"/static/js/pages/scorekeeper.js"' in worker.text
    assert '"/i18n/ky.json"' in worker.text and "content-security-policy" in worker.headers
    # A new version of a static file is a new worker text: the browser installs it.
    copy = tmp_path / "static"
    copy.mkdir()
    for name in ("sw.js", "style.css"):
        (copy / name).write_bytes((sheets_sync.STATIC / name).read_bytes())
    monkeypatch.setattr(sheets_sync, "STATIC", copy)
    sheets_sync.static_files.cache_clear()
    try:
        before = sheets_sync.static_files()[1]
        (copy / "style.css").write_text("body { color: red; }\n")
        sheets_sync.static_files.cache_clear()
        assert sheets_sync.static_files()[1] != before
    finally:
        sheets_sync.static_files.cache_clear()
