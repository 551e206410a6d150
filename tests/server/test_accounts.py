"""Accounts: password storage, sessions and their cookie, sign-in limits that do not tell
whether a name exists, cross-site refusal, signing out everywhere, changing the password,
deleting the account, claiming a guest's seats, and private data never served to others."""

from __future__ import annotations

import statistics
import time
from pathlib import Path
from typing import Any

import pytest
from accounts_helpers import CHEAP, Browser, app_client
from sqlalchemy import select
from starlette.testclient import TestClient

from conftest import run_async
from ohhell.actions import action_to_json
from ohhell.record import play_random_game
from ohhell.rules import preset
from ohhell.server.community.accounts import FORMER_PLAYER, AccountsConfig, accounts, seat_links
from ohhell.server.live.seats import new_token, token_hash
from ohhell.server.storage.store import SeatRow, Store, TableRow, seats
from ohhell.server.web.csrf import CSRF_HEADER

SHORT = {"schedule": "explicit", "hands": [[3, "turn-up"], [2, "turn-up"]]}


def stored_game(store: Store, code: str, kinds: list[tuple[str, str | None, str | None]], seed: int = 1,
                finished: bool = True, settings: dict[str, Any] | None = None,
                tokens: list[str | None] | None = None) -> list[str | None]:
    """A game stored as the server stores one (played to the end at random); the seats' tokens."""
    rules = preset("classic", players=len(kinds), **SHORT)
    state = play_random_game(rules, seed=seed)
    tokens = tokens or [new_token() if kind == "human" else None for kind, _bot, _name in kinds]
    rows = [SeatRow(i, kind, bot, name, token_hash(token) if token else None)
            for i, ((kind, bot, name), token) in enumerate(zip(kinds, tokens, strict=True))]
    store.create_table(TableRow(code, time.time(), "finished" if finished else "playing", rules.to_json(),
                                settings or {"timer": 0, "host": 0, "stand_in": "random"}), rows)
    history = state.history if finished else state.history[:20]
    store.append_actions(code, [(i, action_to_json(action)) for i, action in enumerate(history)])
    return tokens


def store_of(client: TestClient) -> Store:
    store: Store = client.app.state.server.store  # type: ignore[attr-defined]
    return store


@pytest.fixture
def client(sqlite_url: str) -> Any:
    with app_client(sqlite_url) as found:
        yield found


# ----------------------------------------------------------------------------- passwords and cookies


def test_passwords_are_stored_as_argon2id_with_rfc_parameters(client: TestClient) -> None:
    Browser(client).signup("Ann", "correct horse")
    with store_of(client).engine.connect() as conn:
        stored = conn.execute(select(accounts.c.password_hash)).scalar_one()
    assert stored.startswith("$argon2id$") and "correct horse" not in stored
    default = AccountsConfig().hasher().hash("x")
    assert default.startswith("$argon2id$v=19$m=65536,t=3,p=4$")


def test_a_weaker_hash_is_replaced_at_the_next_sign_in(sqlite_url: str) -> None:
    with app_client(sqlite_url) as client:
        Browser(client).signup("Ann")
    stronger = AccountsConfig(hash_time_cost=2, hash_memory_kib=2048, hash_parallelism=1)
    with app_client(sqlite_url, config=stronger) as client:
        assert Browser(client).login("Ann").status_code == 200
        with store_of(client).engine.connect() as conn:
            assert "m=2048,t=2,p=1" in conn.execute(select(accounts.c.password_hash)).scalar_one()


def cookie_header(response: Any) -> str:
    return next(value for key, value in response.headers.multi_items()
                if key == "set-cookie" and value.startswith("ohhell_session="))


def test_session_cookie_is_httponly_samesite_and_secure_only_over_https(sqlite_url: str) -> None:
    with app_client(sqlite_url) as client:
        browser = Browser(client)
        cookie = cookie_header(browser.signup("Ann")).lower()
        assert "httponly" in cookie and "samesite=lax" in cookie and "path=/" in cookie
        assert "secure" not in cookie
        assert browser.get("/api/account").json()["account"]["name"] == "Ann"
    with app_client(sqlite_url, base_url="https://testserver") as client:
        cookie = cookie_header(Browser(client).login("Ann")).lower()
        assert "secure" in cookie and "httponly" in cookie


def test_secure_behind_a_proxy_that_says_https(sqlite_url: str) -> None:
    """Behind a reverse proxy, uvicorn's proxy headers give the request its original scheme."""
    from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware

    from ohhell.server.app import create_app
    from ohhell.server.config import ServerConfig

    app = create_app(ServerConfig.fast(database=sqlite_url))
    app.state.accounts_config = CHEAP
    proxied = ProxyHeadersMiddleware(app, trusted_hosts="*")
    with TestClient(proxied, base_url="http://site.example") as client:  # type: ignore[arg-type]
        response = client.post("/api/account/signup", json={"name": "Ann", "password": "correct horse"},
                               headers={"Origin": "https://site.example", CSRF_HEADER: "1",
                                        "X-Forwarded-Proto": "https", "X-Forwarded-For": "203.0.113.9"})
        assert response.status_code == 200, response.text
        assert "secure" in cookie_header(response).lower()
        # The proxy's answer for a plain-HTTP page: the origin https://… is another site's.
        response = client.post("/api/account/login", json={"name": "Ann", "password": "correct horse"},
                               headers={"Origin": "https://site.example", CSRF_HEADER: "1"})
        assert response.status_code == 403


# ----------------------------------------------------------------------------- signing in


def test_sign_in_answers_do_not_tell_whether_a_name_exists(client: TestClient) -> None:
    Browser(client).signup("Ann")
    wrong = Browser(client).login("Ann", "wrong password")
    unknown = Browser(client).login("Nobody", "wrong password")
    assert wrong.status_code == unknown.status_code == 401
    assert wrong.json() == unknown.json()
    assert Browser(client).login("ann").status_code == 200  # names ignore case


def test_an_unknown_name_costs_a_password_check_too(client: TestClient) -> None:
    service = client.app.state.community.accounts  # type: ignore[attr-defined]
    Browser(client).signup("Ann")
    checked: list[str] = []
    original = service._verify

    def spy(stored: str, password: str) -> bool:
        checked.append(stored)
        result: bool = original(stored, password)
        return result

    service._verify = spy
    Browser(client).login("Nobody", "wrong password")
    Browser(client).login("Ann", "wrong password")
    assert len(checked) == 2 and all(item.startswith("$argon2id$") for item in checked)


def test_sign_in_timing_is_similar_for_known_and_unknown_names(sqlite_url: str) -> None:
    """With the real (default) Argon2 parameters, the hash check dominates both answers."""
    with app_client(sqlite_url, config=AccountsConfig(max_failures_per_name=50,
                                                      max_failures_per_address=100)) as client:
        Browser(client).signup("Ann")
        times: dict[str, list[float]] = {"Ann": [], "Nobody": []}
        for _ in range(4):
            for name in times:
                start = time.perf_counter()
                Browser(client).login(name, "wrong password")
                times[name].append(time.perf_counter() - start)
        known, unknown = statistics.median(times["Ann"]), statistics.median(times["Nobody"])
        assert 1 / 3 < known / unknown < 3, times  # without the dummy check: tens of times faster


def test_sign_in_is_limited_per_name_and_per_address(sqlite_url: str) -> None:
    config = AccountsConfig(hash_time_cost=1, hash_memory_kib=1024, hash_parallelism=1,
                            max_failures_per_name=3, max_failures_per_address=8)
    with app_client(sqlite_url, config=config) as client:
        Browser(client).signup("Ann")
        Browser(client).signup("Bob")
        for _ in range(3):
            assert Browser(client).login("Ann", "wrong password").status_code == 401
        limited = Browser(client).login("Ann")  # even the right password, now
        assert limited.status_code == 429 and limited.json()["code"] == "rate-limited"
        # A name that does not exist is limited the same way.
        for _ in range(3):
            assert Browser(client).login("Ghost", "wrong password").status_code == 401
        assert Browser(client).login("Ghost", "wrong password").status_code == 429
        # The address has now failed 8 times: Bob cannot sign in from it either.
        assert Browser(client).login("Bob").status_code == 429


def test_limits_are_shared_by_server_processes(sqlite_url: str) -> None:
    """Two apps on one database (two processes of one site): failures add up."""
    config = AccountsConfig(hash_time_cost=1, hash_memory_kib=1024, hash_parallelism=1,
                            max_failures_per_name=3, max_failures_per_address=100)
    with app_client(sqlite_url, config=config) as first, app_client(sqlite_url, config=config) as second:
        Browser(first).signup("Ann")
        assert Browser(first).login("Ann", "wrong password").status_code == 401
        assert Browser(second).login("Ann", "wrong password").status_code == 401
        assert Browser(first).login("Ann", "wrong password").status_code == 401
        assert Browser(second).login("Ann").status_code == 429
        # A session made by one process is known to the other.
        browser = Browser(first)
        browser.signup("Bob")
        other = TestClient(second.app, base_url="http://testserver", cookies=dict(browser.client.cookies))
        assert other.get("/api/account").json()["account"]["name"] == "Bob"


def test_signups_are_limited_per_address(sqlite_url: str) -> None:
    config = AccountsConfig(hash_time_cost=1, hash_memory_kib=1024, hash_parallelism=1, max_signups_per_address=2)
    with app_client(sqlite_url, config=config) as client:
        Browser(client).signup("Ann")
        Browser(client).signup("Bob")
        response = Browser(client).post("/api/account/signup", {"name": "Cyd", "password": "correct horse"})
        assert response.status_code == 429


@pytest.mark.parametrize(("name", "password", "code"), [
    ("A", "correct horse", "bad-name"), ("x" * 25, "correct horse", "bad-name"), ("Ann<script>", "correct horse",
                                                                                  "bad-name"),
    ("Ann", "short", "bad-password"), ("Ann", "", "bad-password"),
])
def test_bad_names_and_passwords_are_refused(client: TestClient, name: str, password: str, code: str) -> None:
    response = Browser(client).post("/api/account/signup", {"name": name, "password": password})
    assert response.status_code == 400 and response.json()["code"] == code


def test_a_taken_name_and_bad_bodies(client: TestClient) -> None:
    Browser(client).signup("Ann")
    taken = Browser(client).post("/api/account/signup", {"name": "ANN", "password": "correct horse"})
    assert taken.status_code == 409
    browser = Browser(client)
    for raw in (b"[1]", b"{", b"[" * 5000, b'{"name": "\\ud800", "password": "correct horse"}'):
        response = client.post("/api/account/signup", content=raw, headers=browser.headers())
        assert 400 <= response.status_code < 500, (raw[:10], response.text)
    translated = Browser(client).post("/api/account/login?lang=ru", {"name": "x", "password": "wrong password"})
    assert translated.status_code == 401 and translated.json()["error"] != \
        Browser(client).login("x", "wrong password").json()["error"]


def test_every_route_reads_its_json_body_alike(client: TestClient) -> None:
    """The account, event and table routes share one body reader: what the table API refuses
    (NaN, a body over 16 KiB) the account API refuses too, 400 with the same message and code."""
    browser = Browser(client)
    for raw in (b'{"name": "Ann", "password": "correct horse", "n": NaN}',
                b'{"name": "Ann", "password": "correct horse", "pad": "' + b"x" * 17000 + b'"}'):
        answers = [client.post(path, content=raw, headers={**browser.headers(), "content-type": "application/json"})
                   for path in ("/api/account/signup", "/api/events", "/api/tables")]
        assert [answer.status_code for answer in answers] == [400, 400, 400], [answer.text for answer in answers]
        assert {answer.json()["code"] for answer in answers} == {"bad-request"}
        assert {answer.json()["error"] for answer in answers} == {"send a JSON object"}


# ----------------------------------------------------------------------------- cross-site requests


def test_cross_site_requests_are_refused(client: TestClient) -> None:
    browser = Browser(client)
    browser.signup("Ann")
    csrf = browser.csrf
    assert csrf
    client = browser.client
    evil = {"Origin": "https://evil.example", CSRF_HEADER: csrf}
    assert client.post("/api/account/logout-everywhere", json={}, headers=evil).status_code == 403
    no_token = {"Origin": browser.origin}
    assert client.post("/api/account/logout-everywhere", json={}, headers=no_token).status_code == 403
    wrong_token = {"Origin": browser.origin, CSRF_HEADER: "1"}
    assert client.post("/api/account/logout-everywhere", json={}, headers=wrong_token).status_code == 403
    referer = {"Referer": "https://evil.example/page", CSRF_HEADER: csrf}
    assert client.post("/api/account/logout-everywhere", json={}, headers=referer).status_code == 403
    opaque = {"Origin": "null", CSRF_HEADER: csrf}
    assert client.post("/api/account/logout-everywhere", json={}, headers=opaque).status_code == 403
    other_port = {"Origin": "http://testserver:8080", CSRF_HEADER: csrf}
    assert client.post("/api/account/password", json={"old": "correct horse", "new": "new password!"},
                       headers=other_port).status_code == 403
    # A cross-site form cannot sign someone in either (no custom header).
    assert client.post("/api/account/login", json={"name": "Ann", "password": "correct horse"},
                       headers={"Origin": browser.origin}).status_code == 403
    # Still signed in: nothing above changed anything.
    assert client.get("/api/account").json()["account"]["name"] == "Ann"
    good = {"Referer": f"{browser.origin}/account", CSRF_HEADER: csrf}
    assert client.post("/api/account/logout-everywhere", json={}, headers=good).status_code == 200
    assert client.get("/api/account").json()["account"] is None


def test_no_cors_is_granted(client: TestClient) -> None:
    response = client.options("/api/account/login", headers={"Origin": "https://evil.example",
                                                              "Access-Control-Request-Method": "POST"})
    assert "access-control-allow-origin" not in response.headers


# ----------------------------------------------------------------------------- sessions, password, deletion


def test_sign_out_and_sign_out_everywhere(sqlite_url: str) -> None:
    with app_client(sqlite_url) as first, app_client(sqlite_url) as second:
        one, two, three = Browser(first), Browser(second), Browser(first)
        one.signup("Ann")
        two.login("Ann")
        three.login("Ann")
        assert three.post("/api/account/logout").status_code == 200
        assert three.get("/api/account").json()["account"] is None
        assert two.get("/api/account").json()["account"]["name"] == "Ann"
        response = one.post("/api/account/logout-everywhere")
        assert response.status_code == 200 and response.json()["ended"] == 2
        for browser in (one, two):
            assert browser.get("/api/account").json()["account"] is None
        # The old cookie is dead for good, even sent by hand.
        assert two.post("/api/account/claim", {"seats": []}).status_code in (401, 403)


def test_change_password(sqlite_url: str) -> None:
    with app_client(sqlite_url) as client:
        here, elsewhere = Browser(client), Browser(client)
        here.signup("Ann")
        elsewhere.login("Ann")
        wrong = here.post("/api/account/password", {"old": "not it at all", "new": "battery staple"})
        assert wrong.status_code == 403
        short = here.post("/api/account/password", {"old": "correct horse", "new": "short"})
        assert short.status_code == 400
        assert here.post("/api/account/password", {"old": "correct horse", "new": "battery staple"}).status_code == 200
        assert here.get("/api/account").json()["account"]["name"] == "Ann"  # this session stays
        assert elsewhere.get("/api/account").json()["account"] is None  # the others end
        assert Browser(client).login("Ann", "correct horse").status_code == 401
        assert Browser(client).login("Ann", "battery staple").status_code == 200


def test_delete_account_keeps_games_with_a_neutral_name(client: TestClient) -> None:
    store = store_of(client)
    tokens = stored_game(store, "DELGAM", [("human", None, "Ann"), ("bot", "basic", None), ("human", None, "Bob")])
    browser = Browser(client)
    browser.signup("Ann", seats=[{"table": "DELGAM", "token": tokens[0]}])
    assert browser.get("/api/players/Ann").json()["games"][0]["table"] == "DELGAM"
    assert browser.post("/api/account/delete", {"password": "wrong one"}).status_code == 403
    assert browser.post("/api/account/delete", {"password": "correct horse"}).status_code == 200
    assert browser.get("/api/account").json()["account"] is None
    assert Browser(client).login("Ann").status_code == 401
    assert client.get("/api/players/Ann").status_code == 404
    with store.engine.connect() as conn:
        names = [row.name for row in conn.execute(select(seats.c.name).where(seats.c.table_id == "DELGAM")
                                                  .order_by(seats.c.seat))]
        assert names == [FORMER_PLAYER, None, "Bob"]
        assert conn.execute(select(seat_links)).first() is None
    record = client.get("/api/tables/DELGAM/record").json()
    assert record["names"][0] == FORMER_PLAYER and "Ann" not in str(record["names"])
    # The name is free again.
    Browser(client).signup("Ann")


# ----------------------------------------------------------------------------- seats and privacy


def test_a_guest_who_signs_up_keeps_the_games_of_this_browser(client: TestClient) -> None:
    store = store_of(client)
    first = stored_game(store, "GAMEAA", [("human", None, "Ann"), ("bot", "basic", None), ("bot", "random", None)])
    second = stored_game(store, "GAMEBB", [("bot", "basic", None), ("human", None, "Ann"), ("human", None, "Bob")],
                         seed=2)
    unfinished = stored_game(store, "GAMECC", [("human", None, "Ann"), ("human", None, "Cy"), ("bot", "basic", None)],
                             finished=False)
    browser = Browser(client)
    response = browser.signup("Ann", seats=[{"table": "GAMEAA", "token": first[0]},
                                            {"table": "gamebb", "token": second[1]},
                                            {"table": "GAMECC", "token": unfinished[0]},
                                            {"table": "GAMEBB", "token": "not a token"},
                                            {"table": "NOSUCH", "token": first[0]}])
    claimed = response.json()["claimed"]
    assert [item["claimed"] for item in claimed] == [True, True, True, False, False]
    page = browser.get("/api/players/Ann").json()
    assert sorted(game["table"] for game in page["games"]) == ["GAMEAA", "GAMEBB"]  # finished games only
    assert page["statistics"]["games"] == 2 and page["statistics"]["hands"] == 4
    mine = browser.get("/api/account/games").json()
    assert sorted(game["table"] for game in mine["games"]) == ["GAMEAA", "GAMEBB", "GAMECC"]
    # Another account cannot take a seat that is claimed, even with its token.
    other = Browser(client)
    other.signup("Mallory")
    refused = other.post("/api/account/claim", {"seats": [{"table": "GAMEAA", "token": first[0]}]}).json()
    assert refused["claimed"][0]["claimed"] is False and refused["claimed"][0]["code"] == "seat-taken"
    # Claiming the same seat twice is harmless.
    again = browser.post("/api/account/claim", {"seats": [{"table": "GAMEAA", "token": first[0]}]}).json()
    assert again["claimed"][0]["claimed"] is True


def test_another_players_private_data_is_never_served(client: TestClient, tmp_path: Path) -> None:
    store = store_of(client)
    tokens = stored_game(store, "PRIVAT", [("human", None, "Ann"), ("human", None, "Bob"), ("bot", "basic", None)])
    playing = stored_game(store, "PLAYNG", [("human", None, "Bob"), ("bot", "basic", None), ("bot", "basic", None)],
                          finished=False)
    bob = Browser(client)
    bob.signup("Bob", seats=[{"table": "PRIVAT", "token": tokens[1]}, {"table": "PLAYNG", "token": playing[0]}])
    ann = Browser(client)
    ann.signup("Ann", seats=[{"table": "PRIVAT", "token": tokens[0]}])
    # Ann reads everything public about Bob: no secret in it, no unfinished game.
    public = ann.get("/api/players/Bob")
    assert public.status_code == 200
    text = public.text
    for secret in (bob.csrf, tokens[1], playing[0], "PLAYNG", "password", "$argon2", "token", "csrf", "session"):
        assert secret is not None and secret not in text, secret
    # Her own private endpoints show her own data, never Bob's.
    mine = ann.get("/api/account/games").json()
    assert [game["table"] for game in mine["games"]] == ["PRIVAT"]
    assert ann.get("/api/account").json()["account"]["name"] == "Ann"
    # Without a session, nothing private at all.
    anonymous = TestClient(client.app, base_url="http://testserver")
    assert anonymous.get("/api/account/games").status_code == 401
    assert anonymous.get("/api/account").json() == {"account": None, "csrf": None}


def test_an_older_database_gets_the_new_tables_at_start(tmp_path: Path) -> None:
    """A database written before accounts existed: the server adds their tables at start and the
    games in it can be claimed."""
    from sqlalchemy import create_engine, inspect

    url = f"sqlite:///{tmp_path / 'old.db'}"
    store = Store(url)
    store.start()
    tokens = stored_game(store, "OLDGAM", [("human", None, "Ann"), ("bot", "basic", None), ("bot", "basic", None)])
    store.close()
    engine = create_engine(url)
    mine = ("ohhell_accounts", "ohhell_sessions", "ohhell_throttle", "ohhell_seat_links", "ohhell_game_results",
            "ohhell_ratings", "ohhell_rating_history", "ohhell_rated_games", "ohhell_events", "ohhell_event_tables",
            "ohhell_daily_days", "ohhell_daily_tries")
    with engine.begin() as conn:
        for name in reversed(mine):
            conn.exec_driver_sql(f"DROP TABLE {name}")
    assert not set(mine) & set(inspect(engine).get_table_names())
    engine.dispose()
    with app_client(url) as client:
        assert set(mine) <= set(inspect(store_of(client).engine).get_table_names())
        browser = Browser(client)
        browser.signup("Ann", seats=[{"table": "OLDGAM", "token": tokens[0]}])
        assert browser.get("/api/players/Ann").json()["statistics"]["games"] == 1


def test_results_left_undone_by_a_stopped_process_are_stored_at_start(sqlite_url: str) -> None:
    from ohhell.server.community.stats import game_results

    with app_client(sqlite_url) as client:
        store = store_of(client)
        tokens = stored_game(store, "UNDONE", [("human", None, "Ann"), ("bot", "basic", None),
                                                ("bot", "random", None)], finished=False)
        browser = Browser(client)
        browser.signup("Ann", seats=[{"table": "UNDONE", "token": tokens[0]}])
        # The game ends while no process hears of it (a process died at the last card).
        rules = preset("classic", players=3, **SHORT)
        state = play_random_game(rules, seed=1)
        store.append_actions("UNDONE", [(i, action_to_json(a)) for i, a in enumerate(state.history) if i >= 20])
        store.set_status("UNDONE", "finished")
    with app_client(sqlite_url) as client:
        with store_of(client).engine.connect() as conn:
            rows = conn.execute(select(game_results).where(game_results.c.table_id == "UNDONE")).all()
        assert len(rows) == 3 and rows[0].account_id is not None


def test_old_counters_and_sessions_are_pruned(client: TestClient) -> None:
    from ohhell.server.community.accounts import sessions, throttle

    store = store_of(client)
    browser = Browser(client)
    browser.signup("Ann")
    account_id = client.get("/api/account").json()  # nobody signed in on this client
    assert account_id["account"] is None

    def age(conn: Any) -> None:
        conn.execute(throttle.insert().values(scope="login-name", key="someone-else", at=1.0))
        conn.execute(sessions.update().values(expires=2.0))

    store.write(age)
    assert browser.get("/api/account").json()["account"] is None  # an expired session is no session
    Browser(client).login("Nobody", "wrong password")
    Browser(client).login("Ann")
    with store.engine.connect() as conn:
        assert conn.execute(select(throttle).where(throttle.c.at < 10)).first() is None
        assert conn.execute(select(sessions).where(sessions.c.expires < 10)).first() is None


def test_a_rematch_is_the_same_persons_game(client: TestClient) -> None:
    """People keep their token in a rematch: the seat of the new game is the account's too."""
    store = store_of(client)
    kinds: list[tuple[str, str | None, str | None]] = [("human", None, "Ann"), ("bot", "basic", None),
                                                       ("human", None, "Bob")]
    tokens = stored_game(store, "FIRSTG", kinds)
    browser = Browser(client)
    browser.signup("Ann", seats=[{"table": "FIRSTG", "token": tokens[0]}])
    stored_game(store, "REMATC", kinds, seed=2, tokens=tokens)  # its game ends: the server lists its result
    run_async(client.app.state.community.ensure_results("REMATC"))  # type: ignore[attr-defined]
    games = browser.get("/api/players/Ann").json()["games"]
    assert sorted(game["table"] for game in games) == ["FIRSTG", "REMATC"]
    assert all(game["seat"] == 0 for game in games)
