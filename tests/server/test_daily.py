"""The daily deal: the same cards for every try of the day, one try per account or browser,
results only for those who finished (or once the day is over), scored by matchpoints."""

from __future__ import annotations

import asyncio
import hashlib
import random
import time
from typing import Any

import pytest
from accounts_helpers import Browser, app_client
from fake_tables import FakeTables, use_fake_tables
from starlette.testclient import TestClient

from ohhell.server.community import daily as daily_module


@pytest.fixture
def daily_app(sqlite_url: str) -> Any:
    with app_client(sqlite_url) as client:
        yield client, use_fake_tables(client)


def play(fake: FakeTables, code: str, seed: int) -> None:
    asyncio.run(fake.advance(fake.tables[code], random.Random(seed)))


def test_one_try_a_day_with_the_same_cards_and_results_after_finishing(
        daily_app: tuple[TestClient, FakeTables], monkeypatch: pytest.MonkeyPatch) -> None:
    client, fake = daily_app
    # Short games keep the test quick: the day's rules are a short classic game.
    monkeypatch.setattr(daily_module, "daily_rules", lambda: daily_module.preset(
        "classic", players=4, schedule="explicit", hands=[[3, "turn-up"], [2, "turn-up"]]))
    guest = Browser(client)
    today = guest.get("/api/daily").json()
    assert len(today["commitment"]) == 64 and today["try"] is None
    started = guest.post("/api/daily/start", {"name": "Gus"})
    assert started.status_code == 200, started.text
    cookie = next(v for k, v in started.headers.multi_items() if k == "set-cookie" and v.startswith("ohhell_guest="))
    assert "httponly" in cookie.lower() and "samesite=lax" in cookie.lower()
    again = guest.post("/api/daily/start", {"name": "Gus"})
    assert again.status_code == 409 and again.json()["table"] == started.json()["code"]
    assert guest.get("/api/daily").json()["try"] == {"table": started.json()["code"], "finished": False}
    table = fake.tables[started.json()["code"]]
    assert [seat.kind for seat in table.seats] == ["human", "bot", "bot", "bot"]
    assert table.seats[1].bot_level == "strong"
    # Before finishing: no results.
    assert guest.get("/api/daily/results").status_code == 403
    ann = Browser(client)
    ann.signup("Ann")
    ann_try = ann.post("/api/daily/start", {"name": "not used"}).json()
    assert fake.tables[ann_try["code"]].seats[0].name == "Ann"
    assert ann.post("/api/daily/start", {}).status_code == 409
    # Signed in from another browser: still one try for the account.
    elsewhere = Browser(client)
    elsewhere.login("Ann")
    assert elsewhere.post("/api/daily/start", {}).status_code == 409
    play(fake, started.json()["code"], 1)
    play(fake, ann_try["code"], 2)
    first, second = fake.tables[started.json()["code"]], fake.tables[ann_try["code"]]
    assert [h.deal for h in first.state.finished_hands] == [h.deal for h in second.state.finished_hands]
    results = guest.get("/api/daily/results")
    assert results.status_code == 200, results.text
    rows = results.json()["players"]
    assert sorted(row["name"] for row in rows) == ["Ann", "Gus"]
    assert [row["you"] for row in rows].count(True) == 1
    assert next(row for row in rows if row["you"])["name"] == "Gus"
    assert results.json()["seed"] is None  # revealed tomorrow
    for row in rows:
        mine = first if row["name"] == "Gus" else second
        other = second if mine is first else first
        assert row["total"] == mine.state.totals[0]
        expected = sum(1.0 if a.scores[0] > b.scores[0] else 0.5 if a.scores[0] == b.scores[0] else 0.0
                       for a, b in zip(mine.state.finished_hands, other.state.finished_hands, strict=True))
        assert row["matchpoints"] == expected
        assert "table" not in row and "player" not in row
    # Someone who has not played sees nothing yet.
    assert Browser(client).get("/api/daily/results").status_code == 403
    assert "table" not in str(Browser(client).get("/api/daily").json()["try"])


def test_yesterdays_results_and_seed_are_for_everyone(daily_app: tuple[TestClient, FakeTables],
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    client, fake = daily_app
    monkeypatch.setattr(daily_module, "daily_rules", lambda: daily_module.preset(
        "classic", players=4, schedule="explicit", hands=[[2, "turn-up"]]))
    player = Browser(client)
    code = player.post("/api/daily/start", {"name": "Gus"}).json()["code"]
    play(fake, code, 3)
    commitment = player.get("/api/daily").json()["commitment"]
    tomorrow = time.time() + 86400
    monkeypatch.setattr(daily_module.time, "time", lambda: tomorrow)
    import ohhell.server.web.routes.events as events_api

    monkeypatch.setattr(events_api, "today", lambda now=None: daily_module.today(tomorrow if now is None else now))
    page = Browser(client).get("/api/daily").json()
    assert page["yesterday"]["commitment"] == commitment
    assert hashlib.sha256(bytes.fromhex(page["yesterday"]["seed"])).hexdigest() == commitment
    yesterday = page["yesterday"]["day"]
    results = Browser(client).get(f"/api/daily/results?day={yesterday}")
    assert results.status_code == 200 and results.json()["players"][0]["name"] == "Gus"
    assert Browser(client).get("/api/daily/results?day=1999-01-01").status_code == 404
    assert Browser(client).get("/api/daily/results?day=bad").status_code == 404


def test_starting_needs_a_name_and_the_sites_own_page(daily_app: tuple[TestClient, FakeTables]) -> None:
    client, _fake = daily_app
    assert Browser(client).post("/api/daily/start", {}).status_code == 400
    evil = client.post("/api/daily/start", json={"name": "Eve"}, headers={"Origin": "https://evil.example",
                                                                          "x-ohhell-csrf": "1"})
    assert evil.status_code == 403


def test_todays_tries_are_on_no_public_page_before_the_day_is_over(
        daily_app: tuple[TestClient, FakeTables], monkeypatch: pytest.MonkeyPatch) -> None:
    client, fake = daily_app
    monkeypatch.setattr(daily_module, "daily_rules", lambda: daily_module.preset(
        "classic", players=4, schedule="explicit", hands=[[2, "turn-up"]]))
    ann = Browser(client)
    ann.signup("Ann")
    code = ann.post("/api/daily/start", {}).json()["code"]
    play(fake, code, 4)
    assert ann.get("/api/daily/results").status_code == 200
    for path in ("/api/players/Ann", "/api/bots/strong"):
        assert code not in Browser(client).get(path).text, path
    tomorrow = time.time() + 86400
    monkeypatch.setattr(daily_module.time, "time", lambda: tomorrow)
    assert code in Browser(client).get("/api/players/Ann").text


def test_new_tries_count_against_the_addresss_table_limit(sqlite_url: str) -> None:
    """A guest who clears the browser's cookies may try again, but a try is a new table: the
    server's limit of new tables per address per minute holds."""
    with app_client(sqlite_url, max_tables_per_minute=2) as client:
        use_fake_tables(client)
        codes = [Browser(client).post("/api/daily/start", {"name": "Gus"}).status_code for _ in range(3)]
        assert codes == [200, 200, 429]


def test_tomorrows_deal_is_committed_today_and_takes_contributions_until_it_begins(
        daily_app: tuple[TestClient, FakeTables], monkeypatch: pytest.MonkeyPatch) -> None:
    client, fake = daily_app
    monkeypatch.setattr(daily_module, "daily_rules", lambda: daily_module.preset(
        "classic", players=4, schedule="explicit", hands=[[2, "turn-up"]]))
    import ohhell.server.web.routes.events as events_api

    guest = Browser(client)
    page = guest.get("/api/daily").json()
    assert page["fair"]["pool"]["open"] and page["tomorrow"]["pool"] == {"open": True, "count": 0}
    tomorrow_day, commitment = page["tomorrow"]["day"], page["tomorrow"]["commitment"]
    value = "ab" * 32
    sent = guest.post("/api/daily/contribute", {"day": tomorrow_day, "value": value})
    assert sent.status_code == 200 and sent.json()["value"] == value
    assert guest.post("/api/daily/contribute", {"day": tomorrow_day, "value": value}).status_code == 409
    # Today's deal has begun: too late for it.
    late = Browser(client).post("/api/daily/contribute", {"day": page["day"], "value": value})
    assert late.status_code == 409 and late.json()["code"] == "closed"
    assert Browser(client).post("/api/daily/contribute", {"day": tomorrow_day, "value": "zz"}).status_code == 400
    # Playing today contributes to tomorrow too.
    ann = Browser(client)
    started = ann.post("/api/daily/start", {"name": "Ann", "contribution": "cd" * 32}).json()
    assert started["contribution"] == {"day": tomorrow_day, "value": "cd" * 32}
    play(fake, started["code"], 1)
    # Tomorrow comes.
    moment = time.time() + 86400
    monkeypatch.setattr(daily_module.time, "time", lambda: moment)
    monkeypatch.setattr(events_api, "today", lambda now=None: daily_module.today(moment if now is None else now))
    assert Browser(client).post("/api/daily/contribute", {"day": tomorrow_day, "value": "ef" * 32}).status_code == 409
    page = Browser(client).get("/api/daily").json()
    assert page["day"] == tomorrow_day and page["commitment"] == commitment
    assert "seed" not in page["fair"]
    gus = Browser(client)
    code = gus.post("/api/daily/start", {"name": "Gus"}).json()["code"]
    play(fake, code, 2)  # the first deal of the day closes its pool
    page = Browser(client).get("/api/daily").json()
    assert page["fair"]["pool"] == {"open": False, "count": 2, "contributions": ["ab" * 32, "cd" * 32]}
    assert "2 contributions" in page["fair"]["summary"]
    assert Browser(client).get(f"/api/daily/record?table={code}").status_code == 409  # not before the day is over
    # The day after: the seed and a record that verifies with the pool.
    after = moment + 86400
    monkeypatch.setattr(daily_module.time, "time", lambda: after)
    monkeypatch.setattr(events_api, "today", lambda now=None: daily_module.today(after if now is None else now))
    record = Browser(client).get(f"/api/daily/record?table={code}")
    assert record.status_code == 200
    fair = record.json()["hands"][0]["fair"]
    assert fair["scheme"] == "per-event-pool" and fair["contributions"] == ["ab" * 32, "cd" * 32]
    assert "contributors" not in fair  # browsers are never named
    assert hashlib.sha256(bytes.fromhex(fair["seed"])).hexdigest() == commitment
    from ohhell.fairness import verify_record

    verdicts = verify_record(record.json(), scope=f"daily-{tomorrow_day}")
    assert verdicts and all(verdict.verified for verdict in verdicts)
    forged = record.json()
    forged["hands"][0]["fair"]["contributions"] = ["ab" * 32]
    assert not verify_record(forged)[0].verified


def test_a_day_nobody_contributed_to_says_the_server_alone_chose(
        daily_app: tuple[TestClient, FakeTables], monkeypatch: pytest.MonkeyPatch) -> None:
    client, fake = daily_app
    monkeypatch.setattr(daily_module, "daily_rules", lambda: daily_module.preset(
        "classic", players=4, schedule="explicit", hands=[[2, "turn-up"]]))
    code = Browser(client).post("/api/daily/start", {"name": "Gus"}).json()["code"]
    play(fake, code, 3)
    page = Browser(client).get("/api/daily").json()
    assert page["fair"]["pool"]["count"] == 0 and "server alone chose" in page["fair"]["summary"]
    import ohhell.server.web.routes.events as events_api

    after = time.time() + 86400
    monkeypatch.setattr(daily_module.time, "time", lambda: after)
    monkeypatch.setattr(events_api, "today", lambda now=None: daily_module.today(after if now is None else now))
    from ohhell.fairness import verify_record

    verdicts = verify_record(Browser(client).get(f"/api/daily/record?table={code}").json())
    assert all(verdict.verified for verdict in verdicts) and "server alone chose" in verdicts[0].message
    assert "server alone chose" in Browser(client).get("/api/daily").json()["yesterday"]["fair"]["summary"]


def test_the_daily_deal_on_two_processes_of_one_database(sqlite_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Two apps on one database (two processes of one site): a try started on one counts on the
    other (one per account), and the results read from either hold both tries, scored alike."""
    monkeypatch.setattr(daily_module, "daily_rules", lambda: daily_module.preset(
        "classic", players=4, schedule="explicit", hands=[[3, "turn-up"], [2, "turn-up"]]))
    with app_client(sqlite_url) as one, app_client(sqlite_url) as other:
        fake_one, fake_other = use_fake_tables(one), use_fake_tables(other)
        ann = Browser(one)
        ann.signup("Ann")
        ann_try = ann.post("/api/daily/start", {}).json()
        ann_there = Browser(other)
        ann_there.login("Ann")
        refused = ann_there.post("/api/daily/start", {})
        assert refused.status_code == 409 and refused.json()["table"] == ann_try["code"]
        gus = Browser(other)
        gus_try = gus.post("/api/daily/start", {"name": "Gus"}).json()
        asyncio.run(fake_one.advance(fake_one.tables[ann_try["code"]], random.Random(1)))
        asyncio.run(fake_other.advance(fake_other.tables[gus_try["code"]], random.Random(2)))
        mine, theirs = fake_one.tables[ann_try["code"]], fake_other.tables[gus_try["code"]]
        assert [h.deal for h in mine.state.finished_hands] == [h.deal for h in theirs.state.finished_hands]
        from_one = ann.get("/api/daily/results").json()["players"]
        from_other = ann_there.get("/api/daily/results").json()["players"]
        assert from_one == from_other
        assert {row["name"]: row["total"] for row in from_one} == {"Ann": mine.state.totals[0],
                                                                  "Gus": theirs.state.totals[0]}
        # Two tries: each hand gives one point between them (1 + 0, or a half each).
        assert sum(row["matchpoints"] for row in from_one) == len(mine.state.finished_hands)
        assert [row["name"] for row in gus.get("/api/daily/results").json()["players"] if row["you"]] == ["Gus"]
