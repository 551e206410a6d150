"""Bad HTTP input is answered 400 with a message a person can read, stores nothing and leaves
the server as it was — on SQLite and PostgreSQL (a NUL in a name is fine for one, fatal for the
other's text columns)."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import LiveServer, fresh_postgres_database, start_server
from ohhell.server.storage.store import Store


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def server(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Any:
    if request.param == "sqlite":
        database = f"sqlite:///{tmp_path_factory.mktemp('http') / 'input.db'}"
    else:
        database = fresh_postgres_database(request.getfixturevalue("postgres_url"))
    live = start_server(database, max_tables_per_minute=100_000)
    yield live
    live.stop()


def _tables(server: LiveServer) -> int:
    store = Store(server.database)
    try:
        return len(store.load_tables())
    finally:
        store.close()


def _post(server: LiveServer, path: str, body: bytes | dict[str, Any], lang: str = "en") -> httpx.Response:
    content = body if isinstance(body, bytes) else None
    return httpx.post(f"{server.url}{path}?lang={lang}", content=content,
                      json=None if isinstance(body, bytes) else body, timeout=10,
                      headers={"content-type": "application/json"})


BAD_TABLES: list[tuple[str, bytes | dict[str, Any]]] = [
    ("deeply nested JSON", b'{"name": "Ann", "knobs": ' + b'{"a": ' * 5000 + b"1" + b"}" * 5001),
    ("NaN stake", b'{"name": "Ann", "players": 4, "knobs": {"stake": NaN}}'),
    ("Infinity stake", b'{"name": "Ann", "players": 4, "knobs": {"stake": Infinity}}'),
    ("huge stake", b'{"name": "Ann", "players": 4, "knobs": {"stake": 1e999}}'),
    ("lone surrogate", b'{"name": "Ann\\ud800", "players": 4}'),
    ("NUL in the name", {"name": "An\x00n", "players": 4}),
    ("a bell in the name", {"name": "Ann\x07", "players": 4}),
    ("invalid UTF-8", b'{"name": "\xff\xfe", "players": 4}'),
    ("no seats", {"name": "Ann", "players": 4, "seats": []}),
    ("too many seats", {"name": "Ann", "players": 3, "seats": ["open"] * 5}),
    ("a list", b"[1, 2]"),
    ("not JSON", b"{name: Ann}"),
    ("boolean players", {"name": "Ann", "players": True}),
    ("timer NaN", b'{"name": "Ann", "players": 4, "timer": NaN}'),
]


@pytest.mark.parametrize(("what", "body"), BAD_TABLES, ids=[what for what, _body in BAD_TABLES])
def test_a_bad_new_table_is_refused_with_a_message_and_nothing_is_stored(server: LiveServer, what: str,
                                                                         body: bytes | dict[str, Any]) -> None:
    before = _tables(server)
    answer = _post(server, "/api/tables", body)
    assert answer.status_code == 400, (what, answer.status_code, answer.text)
    assert isinstance(answer.json()["error"], str) and answer.json()["error"]
    assert _tables(server) == before


def test_the_messages_are_translated(server: LiveServer) -> None:
    english = _post(server, "/api/tables", {"name": "An\x00n", "players": 4}).json()["error"]
    russian = _post(server, "/api/tables", {"name": "An\x00n", "players": 4}, lang="ru").json()["error"]
    assert english != russian and any("а" <= ch <= "я" for ch in russian)
    english = _post(server, "/api/tables", {"name": "A", "players": 4, "seats": []}).json()["error"]
    russian = _post(server, "/api/tables", {"name": "A", "players": 4, "seats": []}, lang="ru").json()["error"]
    assert english != russian


def test_a_bad_join_or_sheet_is_refused(server: LiveServer) -> None:
    code = _post(server, "/api/tables", {"name": "Ann", "players": 3}).json()["code"]
    for body in ({"name": "Bo\x00b"}, b'{"name": "\\udc80"}', b'{"name": ' * 3000):
        assert _post(server, f"/api/tables/{code}/join", body).status_code == 400
    table = httpx.get(f"{server.url}/api/tables/{code}", timeout=10).json()
    assert table["open_seats"] == [1, 2]
    for body in ({"names": ["A\x00", "B", "C"]}, b'{"names": ["A", "B", "C"], "first_dealer": NaN}'):
        assert _post(server, "/api/sheets", body).status_code == 400


SCALARS = st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) \
    | st.text(max_size=30)
JSON = st.recursive(SCALARS,
                    lambda children: st.lists(children, max_size=5) | st.dictionaries(st.text(max_size=10), children,
                                                                                        max_size=5),
                    max_leaves=30)
FIELDS = st.fixed_dictionaries({}, optional={
    "name": JSON | st.text(max_size=40), "players": JSON | st.integers(0, 12), "preset": JSON | st.sampled_from(
        ["classic", "boerenbridge", "ne-blackout", "nonsense"]), "knobs": JSON, "seats": JSON, "timer": JSON,
    "timer_mode": JSON, "stand_in": JSON, "names": JSON, "first_dealer": JSON, "op": JSON, "seat": JSON,
})


@settings(max_examples=40, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(body=FIELDS, path=st.sampled_from(["/api/tables", "/api/rules", "/api/sheets", "/api/tables/{code}/join",
                                          "/api/sheets/{sheet}"]))
def test_no_body_makes_the_server_fail(server: LiveServer, body: dict[str, Any], path: str) -> None:
    """Whatever the fields hold, the answer is never a 5xx."""
    if "{code}" in path:
        path = path.format(code=_post(server, "/api/tables", {"name": "Ann", "players": 3}).json()["code"])
    if "{sheet}" in path:
        path = path.format(sheet=_post(server, "/api/sheets", {"names": ["A", "B", "C"]}).json()["id"])
    answer = _post(server, path, body)
    assert answer.status_code < 500, (body, answer.text)
    if answer.status_code >= 400:
        assert answer.json()["error"]
