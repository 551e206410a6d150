"""Duplicate events through the API: the same deals in the same seats at every table, nothing
of a hand shown before every table has played it, matchpoints, standings, the export."""

from __future__ import annotations

import asyncio
import hashlib
import json
import random
from typing import Any

import pytest
from accounts_helpers import Browser, app_client
from fake_tables import FakeTable, FakeTables, use_fake_tables
from starlette.testclient import TestClient

from ohhell.fairness import verify_record
from ohhell.game import Game
from ohhell.record import state_from_record
from ohhell.server.community.duplicate import EventDeals

SHORT = {"schedule": "explicit", "hands": [[3, "turn-up"], [2, "turn-up"], [1, "turn-up"]]}


def new_event(browser: Browser, tables: int = 3, seats: Any = None, **extra: Any) -> Any:
    body = {"name": "Club night", "preset": "classic", "players": 3, "knobs": SHORT, "tables": tables,
            "seats": seats if seats is not None else ["open", "basic", "random"], **extra}
    return browser.post("/api/events", body)


def tables_of(fake: FakeTables) -> list[FakeTable]:
    return sorted(fake.tables.values(), key=lambda table: table.settings.extra["event_table"])


def advance(fake: FakeTables, table: FakeTable, seed: int, hands: int | None = None) -> None:
    asyncio.run(fake.advance(table, random.Random(seed), hands))


@pytest.fixture
def event_app(sqlite_url: str) -> Any:
    with app_client(sqlite_url) as client:
        yield client, use_fake_tables(client)


def test_every_table_gets_the_same_deals_in_the_same_seats(event_app: tuple[TestClient, FakeTables]) -> None:
    client, fake = event_app
    created = new_event(Browser(client))
    assert created.status_code == 200, created.text
    tables = tables_of(fake)
    assert len(tables) == 3
    for number, table in enumerate(tables):
        advance(fake, table, seed=number)  # different play at each table
    deals = [[hand.deal for hand in table.state.finished_hands] for table in tables]
    turn_ups = [[hand.turn_up for hand in table.state.finished_hands] for table in tables]
    assert deals[0] == deals[1] == deals[2] and turn_ups[0] == turn_ups[1] == turn_ups[2]
    assert [table.state.first_dealer for table in tables] == [tables[0].state.first_dealer] * 3
    bids = [[hand.bids for hand in table.state.finished_hands] for table in tables]
    assert bids[0] != bids[1] or bids[1] != bids[2]  # the play did differ
    # Another event deals other cards.
    new_event(Browser(client))
    other = next(t for t in fake.tables.values() if t not in tables)
    advance(fake, other, seed=9, hands=1)
    assert other.state.finished_hands[0].deal != deals[0][0]


def test_nothing_of_a_hand_is_shown_before_every_table_has_played_it(
        event_app: tuple[TestClient, FakeTables]) -> None:
    client, fake = event_app
    event_id = new_event(Browser(client)).json()["id"]
    tables = tables_of(fake)
    ann = Browser(client)
    joined = ann.post(f"/api/events/{event_id}/join", {"table": 0, "seat": 0, "name": "Ann"})
    assert joined.status_code == 200, joined.text
    assert joined.json()["code"] == tables[0].code
    advance(fake, tables[0], seed=1, hands=1)
    advance(fake, tables[1], seed=2, hands=1)
    view = ann.get(f"/api/events/{event_id}").json()
    assert view["revealed_hands"] == 0 and [t["hands_done"] for t in view["tables"]] == [1, 1, 0]
    assert all(row["matchpoints"] == 0 and row["total"] == 0 for row in view["standings"])
    text = ann.get(f"/api/events/{event_id}").text
    for table in tables:
        assert table.code not in text  # no way to watch another table or fetch its record
    assert "seed" not in view
    hidden = ann.get(f"/api/events/{event_id}/hands/0")
    assert hidden.status_code == 409
    assert ann.get(f"/api/events/{event_id}/export").status_code == 409
    advance(fake, tables[2], seed=3, hands=1)
    shown = ann.get(f"/api/events/{event_id}/hands/0")
    assert shown.status_code == 200
    assert len(shown.json()["tables"]) == 3
    assert ann.get(f"/api/events/{event_id}/hands/1").status_code == 409
    assert ann.get(f"/api/events/{event_id}/hands/x").status_code == 409


def test_matchpoints_and_standings(event_app: tuple[TestClient, FakeTables]) -> None:
    client, fake = event_app
    event_id = new_event(Browser(client), tables=4, seats=["basic", "random", "basic"]).json()["id"]
    tables = tables_of(fake)
    for number, table in enumerate(tables):
        advance(fake, table, seed=10 + number)
    view = client.get(f"/api/events/{event_id}").json()
    assert view["over"] and view["revealed_hands"] == 3
    # Recount by hand: a point for each table beaten in the same seat, half for a tie.
    expected: dict[tuple[int, int], float] = {}
    for hand in range(3):
        for seat in range(3):
            scores = [t.state.finished_hands[hand].scores[seat] for t in tables]
            for i, mine in enumerate(scores):
                beaten = sum(1 for j, other in enumerate(scores) if j != i and mine > other)
                tied = sum(1 for j, other in enumerate(scores) if j != i and mine == other)
                expected[i, seat] = expected.get((i, seat), 0.0) + beaten + 0.5 * tied
    for row in view["standings"]:
        assert row["matchpoints"] == expected[row["table"], row["seat"]]
        assert row["most"] == 9  # 3 other tables × 3 hands
        assert row["total"] == tables[row["table"]].state.totals[row["seat"]]
    percents = [row["percent"] for row in view["standings"]]
    assert percents == sorted(percents, reverse=True)
    hand = client.get(f"/api/events/{event_id}/hands/1").json()
    for entry in hand["tables"]:
        at = entry["table"]
        assert entry["matchpoints"] == [
            sum(1.0 if mine > other else 0.5 if mine == other else 0.0
                for k, other in enumerate(t.state.finished_hands[1].scores[seat] for t in tables) if k != at)
            for seat, mine in enumerate(tables[at].state.finished_hands[1].scores)]


def test_the_export_once_over_reveals_the_seed_and_every_record(event_app: tuple[TestClient, FakeTables]) -> None:
    client, fake = event_app
    event_id = new_event(Browser(client), seats=[["basic", "basic", "basic"], ["random", "basic", "basic"],
                                                 ["basic", "random", "random"]]).json()["id"]
    commitment = client.get(f"/api/events/{event_id}").json()["commitment"]
    tables = tables_of(fake)
    for number, table in enumerate(tables):
        advance(fake, table, seed=20 + number)
    exported = client.get(f"/api/events/{event_id}/export")
    assert exported.status_code == 200 and "attachment" in exported.headers["content-disposition"]
    data = exported.json()
    assert hashlib.sha256(bytes.fromhex(data["seed"])).hexdigest() == commitment == data["commitment"]
    assert [entry["code"] for entry in data["tables"]] == [t.code for t in tables]
    # Anyone can check every deal of every exported record against the commitment.
    for entry in data["tables"]:
        verdicts = verify_record(entry["record"], scope=event_id)
        assert verdicts and all(verdict.verified for verdict in verdicts), [v.message for v in verdicts]
        assert entry["record"]["hands"][0]["fair"]["commitment"] == commitment
        replayed = state_from_record(entry["record"])
        assert [hand.deal for hand in replayed.finished_hands] == [hand.deal for hand in tables[0].state.finished_hands]
    # A record whose deal was changed afterwards fails.
    forged = json.loads(json.dumps(data["tables"][0]["record"]))
    first = forged["hands"][0]["deal"]
    first[0][0], first[1][0] = first[1][0], first[0][0]
    assert not verify_record(forged, scope=event_id)[0].verified
    view = client.get(f"/api/events/{event_id}").json()
    assert view["seed"] == data["seed"] and all("code" in t for t in view["tables"])


def test_joining_and_refusals(event_app: tuple[TestClient, FakeTables]) -> None:
    client, fake = event_app
    browser = Browser(client)
    assert new_event(browser, tables=1).status_code == 400
    assert new_event(browser, seats=["open", "basic"]).status_code == 400
    assert new_event(browser, seats=["open", "basic", "no-such-bot"]).status_code == 400
    assert new_event(browser, name="").status_code == 400
    assert new_event(browser, players=3, preset="no-such-preset").status_code == 400
    event_id = new_event(browser).json()["id"]
    assert client.get("/api/events/nope").status_code == 404
    first = browser.post(f"/api/events/{event_id}/join", {"table": 1, "seat": 0, "name": "Bob"})
    assert first.status_code == 200
    assert browser.post(f"/api/events/{event_id}/join", {"table": 1, "seat": 0, "name": "Cy"}).status_code == 409
    assert browser.post(f"/api/events/{event_id}/join", {"table": 1, "seat": 1, "name": "Cy"}).status_code == 400
    assert browser.post(f"/api/events/{event_id}/join", {"table": 7, "seat": 0, "name": "Cy"}).status_code == 400
    assert browser.post(f"/api/events/{event_id}/join", {"table": 2, "seat": 0}).status_code == 400
    evil = client.post(f"/api/events/{event_id}/join", json={"table": 2, "seat": 0, "name": "Eve"},
                       headers={"Origin": "https://evil.example", "x-ohhell-csrf": "1"})
    assert evil.status_code == 403
    # A signed-in person joins under their account's name, and the seat is theirs.
    dana = Browser(client)
    dana.signup("Dana")
    joined = dana.post(f"/api/events/{event_id}/join", {"table": 2, "seat": 0, "name": "ignored"}).json()
    assert fake.tables[joined["code"]].seats[0].name == "Dana"
    assert [game["table"] for game in dana.get("/api/account/games").json()["games"]] == [joined["code"]]
    view = client.get(f"/api/events/{event_id}").json()
    assert [t["seats"][0]["name"] for t in view["tables"]] == [None, "Bob", "Dana"]
    assert client.get("/api/events").json()["events"][0]["id"] == event_id


def test_tables_get_their_deals_back_after_a_restart(event_app: tuple[TestClient, FakeTables]) -> None:
    """The table's settings name its deal source (kept in the database, never sent out): a
    restarted server builds the same source from them."""
    from ohhell.server.live.deals import deal_source
    from ohhell.server.storage.store import Store

    client, fake = event_app
    new_event(Browser(client))
    table = tables_of(fake)[0]
    store: Store = client.app.state.server.store  # type: ignore[attr-defined]
    stored = store.load_table(table.code)
    assert stored is not None
    rebuilt = deal_source(stored.row.settings["deals"])
    assert isinstance(rebuilt, EventDeals) and rebuilt.seed == table.deals.seed
    assert stored.row.settings["extra"]["event_table"] == 0
    with pytest.raises(ValueError):
        deal_source({"kind": "fair-event", "event": "x", "seed": "00"})


def test_an_account_holds_one_seat_per_event(event_app: tuple[TestClient, FakeTables]) -> None:
    client, _fake = event_app
    event_id = new_event(Browser(client)).json()["id"]
    ann = Browser(client)
    ann.signup("Ann")
    assert ann.post(f"/api/events/{event_id}/join", {"table": 0, "seat": 0}).status_code == 200
    again = ann.post(f"/api/events/{event_id}/join", {"table": 1, "seat": 0})
    assert again.status_code == 409 and again.json()["code"] == "seated"


def test_a_finished_event_table_is_on_no_public_page_before_the_event_is_over(
        event_app: tuple[TestClient, FakeTables]) -> None:
    """A table that finished early must not lead anyone (through its players' or bots' pages and
    its code) to cards the other tables are still playing."""
    client, fake = event_app
    event_id = new_event(Browser(client)).json()["id"]
    tables = tables_of(fake)
    ann = Browser(client)
    ann.signup("Ann")
    ann.post(f"/api/events/{event_id}/join", {"table": 0, "seat": 0})
    advance(fake, tables[0], seed=1)  # table 0 is over; the others have not started
    for path in ("/api/players/Ann", "/api/bots/basic", "/api/bots/random"):
        text = Browser(client).get(path).text
        assert tables[0].code not in text, path
    assert Browser(client).get("/api/players/Ann").json()["statistics"]["games"] == 0
    # Her own private list still has it (she played it).
    assert ann.get("/api/account/games").json()["games"][0]["table"] == tables[0].code
    for number, table in enumerate(tables[1:]):
        advance(fake, table, seed=2 + number)
    assert [game["table"] for game in Browser(client).get("/api/players/Ann").json()["games"]] == [tables[0].code]
    assert tables[1].code in Browser(client).get("/api/bots/basic").text


def test_event_tables_take_the_timer_asked_for(event_app: tuple[TestClient, FakeTables]) -> None:
    client, fake = event_app
    browser = Browser(client)
    assert new_event(browser, timer_mode="slow").status_code == 400
    assert new_event(browser, timer=-1).status_code == 400
    assert new_event(browser, timer_mode="fast").status_code == 200
    assert [table.timer for table in fake.tables.values()] == [15.0] * 3


# ----------------------------------------------------------------------------- the pool of contributions


def contribution(byte: int) -> str:
    return f"{byte:02x}" * 32


def test_entrants_contributions_make_the_deals_and_close_at_the_first_deal(
        event_app: tuple[TestClient, FakeTables]) -> None:
    client, fake = event_app
    event_id = new_event(Browser(client), seats=[["open", "basic", "basic"], ["open", "open", "basic"],
                                                 ["basic", "basic", "basic"]]).json()["id"]
    view = client.get(f"/api/events/{event_id}").json()
    assert view["fair"]["scheme"] == "per-event-pool"
    assert view["fair"]["pool"] == {"open": True, "count": 0} and "seed" not in view["fair"]
    tables = tables_of(fake)
    # The table of bots waits for the event to begin: nobody could have contributed yet.
    advance(fake, tables[2], seed=1)
    assert not tables[2].state.history
    ann, bob = Browser(client), Browser(client)
    joined = ann.post(f"/api/events/{event_id}/join", {"table": 0, "seat": 0, "name": "Ann",
                                                       "contribution": contribution(0xAA).upper()})
    assert joined.status_code == 200 and joined.json()["contribution"] == {"value": contribution(0xAA)}
    bad = bob.post(f"/api/events/{event_id}/join", {"table": 1, "seat": 0, "name": "Bob", "contribution": "xyz"})
    assert bad.status_code == 400 and bad.json()["code"] == "bad-contribution"
    bob_seat = bob.post(f"/api/events/{event_id}/join", {"table": 1, "seat": 0, "name": "Bob"}).json()
    # A seat contributes later with its token (not with someone else's).
    late_form = {"table": 1, "seat": 0, "value": contribution(0x11)}
    wrong = bob.post(f"/api/events/{event_id}/contribute", {**late_form, "token": joined.json()["token"]})
    assert wrong.status_code == 403
    assert bob.post(f"/api/events/{event_id}/contribute", {**late_form, "token": bob_seat["token"]}).status_code == 200
    again = bob.post(f"/api/events/{event_id}/contribute", {**late_form, "token": bob_seat["token"]})
    assert again.status_code == 409 and again.json()["code"] == "already-contributed"
    assert client.get(f"/api/events/{event_id}").json()["fair"]["pool"] == {"open": True, "count": 2}
    # The first deal closes the pool: a contribution after it is refused, clearly.
    advance(fake, tables[0], seed=2, hands=1)
    late = Browser(client).post(f"/api/events/{event_id}/join", {"table": 1, "seat": 1, "name": "Cy",
                                                                 "contribution": contribution(0x22)})
    assert late.status_code == 200 and late.json()["contribution"]["code"] == "closed"
    refused = bob.post(f"/api/events/{event_id}/contribute", {"table": 1, "seat": 1, "token": late.json()["token"],
                                                              "value": contribution(0x22)})
    assert refused.status_code == 409 and refused.json()["code"] == "closed" and "Too late" in refused.json()["error"]
    pool = client.get(f"/api/events/{event_id}").json()["fair"]["pool"]
    assert pool == {"open": False, "count": 2, "contributions": [contribution(0x11), contribution(0xAA)],
                    "contributors": ["1:0", "0:0"]}
    # Every table deals from the frozen pool; the deals are those of the seed and the pool.
    for number, table in enumerate(tables):
        advance(fake, table, seed=10 + number)
    assert tables[1].state.finished_hands[0].deal == tables[0].state.finished_hands[0].deal
    event = asyncio.run(client.app.state.events.load(event_id))  # type: ignore[attr-defined]
    without = EventDeals(event_id, event.seed)
    state = Game(tables[0].rules).new_initial_state()
    while state.is_chance_node():
        state.apply(without.draw(state))
    assert state.deal != tables[0].state.finished_hands[0].deal  # the contributions changed the cards
    # Over: the seed, every table's verdict, records that verify with the pool.
    view = client.get(f"/api/events/{event_id}").json()
    assert view["fair"]["verified"] and [t["verified"] for t in view["fair"]["tables"]] == [True] * 3
    assert "2 contributions" in view["fair"]["tables"][0]["message"]
    exported = client.get(f"/api/events/{event_id}/export").json()
    record = exported["tables"][1]["record"]
    assert record["hands"][0]["fair"]["contributions"] == pool["contributions"]
    assert all(v.verified for v in verify_record(record, scope=event_id))
    forged = json.loads(json.dumps(record))
    for hand in forged["hands"]:
        hand["fair"]["contributions"] = [contribution(0x11)]
        hand["fair"]["contributors"] = ["1:0"]
    assert not any(v.verified for v in verify_record(forged, scope=event_id))


def test_the_seed_is_shown_nowhere_before_the_event_is_over(event_app: tuple[TestClient, FakeTables]) -> None:
    client, fake = event_app
    event_id = new_event(Browser(client)).json()["id"]
    ann = Browser(client)
    ann.post(f"/api/events/{event_id}/join", {"table": 0, "seat": 0, "name": "Ann", "contribution": contribution(3)})
    tables = tables_of(fake)
    advance(fake, tables[0], seed=1)
    advance(fake, tables[1], seed=2)
    advance(fake, tables[2], seed=3, hands=2)  # one table is still playing
    event = asyncio.run(client.app.state.events.load(event_id))  # type: ignore[attr-defined]
    for path in (f"/api/events/{event_id}", f"/api/events/{event_id}/export", f"/api/events/{event_id}/hands/0",
                 "/api/events"):
        assert event.seed not in ann.get(path).text, path
    assert client.get(f"/api/events/{event_id}/export").status_code == 409
    advance(fake, tables[2], seed=3)
    assert client.get(f"/api/events/{event_id}").json()["fair"]["seed"] == event.seed


def test_an_event_stored_before_the_pool_deals_and_verifies_as_before(
        event_app: tuple[TestClient, FakeTables]) -> None:
    """An event made before pools (no pool row; its tables' settings name no pool): scheme
    ``per-event``, its deals unchanged, its verdicts still given."""
    client, fake = event_app
    from ohhell.server.community.fair_pool import fair_pool_entries, fair_pools

    event_id = new_event(Browser(client), seats=[["basic", "basic", "basic"]] * 2, tables=2).json()["id"]
    store = client.app.state.server.store  # type: ignore[attr-defined]
    with store.engine.begin() as conn:  # as an old server stored it
        conn.execute(fair_pool_entries.delete())
        conn.execute(fair_pools.delete())
    tables = tables_of(fake)
    for table in tables:
        table.settings.deals = {"kind": "fair-event", "event": event_id, "seed": table.deals.seed}
        table.deals = EventDeals.from_json(table.settings.deals)
        advance(fake, table, seed=4)
    event = asyncio.run(client.app.state.events.load(event_id))  # type: ignore[attr-defined]
    plain = EventDeals(event_id, event.seed)
    state = Game(tables[0].rules).new_initial_state()
    while state.is_chance_node():
        state.apply(plain.draw(state))
    assert state.deal == tables[0].state.finished_hands[0].deal
    view = client.get(f"/api/events/{event_id}").json()
    assert view["fair"]["scheme"] == "per-event" and view["fair"]["pool"] is None and view["fair"]["verified"]
    record = client.get(f"/api/events/{event_id}/export").json()["tables"][0]["record"]
    assert record["hands"][0]["fair"]["scheme"] == "per-event"
    assert all(v.verified for v in verify_record(record, scope=event_id))


def test_a_table_is_over_for_its_event_once_its_finished_status_is_stored() -> None:
    """The event's embargo on its tables lifts on their stored status, written just after the
    last action: until then the event does not call the table (or itself) over."""
    from ohhell.rules import preset
    from ohhell.server.community.events import TableProgress

    state = Game(preset("classic", players=3, max_size=2)).new_initial_state()
    rng = random.Random(2)
    while not state.is_terminal():
        state.apply(state.sample_chance(rng) if state.is_chance_node() else rng.choice(state.legal_actions(state.turn)))
    seats: tuple[list[str | None], list[str], list[str | None]] = (["Ann", None, None], ["human", "bot", "bot"],
                                                                 [None, "basic", "basic"])
    assert not TableProgress(0, "ABCDEF", state, *seats).over
    assert TableProgress(0, "ABCDEF", state, *seats, stored_finished=True).over
    assert not TableProgress(0, "ABCDEF", None, [], [], [], stored_finished=True).over
