"""Quick play (``community/quickplay.py``): matching by rating, the countdown and the bots that
fill the empty seats, one match per person, and the HTTP API's refusals."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import httpx
import pytest

from conftest import LiveServer
from ohhell.server.community.quickplay import QuickPlay, QuickPlayError, choose_group, family_rules
from ohhell.server.config import ServerConfig
from ohhell.server.live.manager import TableManager
from ohhell.server.storage import quickplay as pool
from ohhell.server.storage.errors import Conflict
from ohhell.server.storage.kinds import SeatKind, TableStatus
from ohhell.server.storage.quickplay import Ticket
from ohhell.server.storage.store import Store


def ticket(name: str, created: float, rating: float | None = None, players: int = 3) -> Ticket:
    return Ticket(name, created, created + 10.0, "classic", players, "basic", name, rating=rating)


def test_the_longest_waiter_is_seated_with_those_nearest_their_rating() -> None:
    waiting = [ticket("ann", 0, 1500), ticket("bob", 1, 2500), ticket("cid", 2, 1400), ticket("dee", 3, 1650),
               ticket("eve", 4, 1510)]
    group = choose_group(waiting, 3, now=5.0)
    assert group is not None and [t.id for t in group] == ["ann", "eve", "cid"]


def test_a_guest_counts_as_a_newcomer_and_ties_go_to_who_came_first() -> None:
    waiting = [ticket("ann", 0, None), ticket("bob", 1, 1600), ticket("cid", 2, 1400), ticket("dee", 3, 1500)]
    group = choose_group(waiting, 3, now=5.0)
    assert group is not None and [t.id for t in group] == ["ann", "dee", "bob"]


def test_nobody_is_seated_before_the_countdown_unless_the_table_is_full() -> None:
    waiting = [ticket("ann", 0), ticket("bob", 1)]
    assert choose_group(waiting, 3, now=9.9) is None
    group = choose_group(waiting, 3, now=10.0)
    assert group is not None and [t.id for t in group] == ["ann", "bob"]
    assert choose_group([], 3, now=100.0) is None


def test_families_are_played_by_their_preset_and_bad_ones_refused() -> None:
    assert family_rules("classic", 4).players == 4
    assert family_rules("bid-squared", 3).scoring == "german-bridge"
    with pytest.raises(QuickPlayError, match="no family"):
        family_rules("poker", 4)
    with pytest.raises(QuickPlayError, match="played by 4 to 4"):
        family_rules("7-truf", 5)


Scenario = Callable[[QuickPlay, list[float], Store], Awaitable[Any]]


def run(tmp_path: Path, scenario: Scenario) -> Any:
    """``scenario(quick, clock, store)`` with a real store and table manager, a clock of our own."""
    async def main() -> Any:
        url = f"sqlite:///{tmp_path / 'ohhell.db'}"
        store = Store(url)
        store.start()
        tables = TableManager(store, ServerConfig.fast(database=url, bot_delay=0.5))
        clock = [1000.0]
        try:
            return await scenario(QuickPlay(store, tables, clock=lambda: clock[0]), clock, store)
        finally:
            tables.close()
            store.close()
    return asyncio.run(main())


def test_a_lone_player_sees_the_countdown_then_bots_of_their_level_fill_the_table(tmp_path: Path) -> None:
    async def scenario(quick: QuickPlay, clock: list[float], store: Store) -> None:
        ticket, first = await quick.join("Ann", "classic", 4, "casual")
        assert first.status == pool.WAITING and first.seconds_left == 10.0 and first.waiting == 1
        clock[0] += 4.0
        later = await quick.poll(ticket)
        assert later.status == pool.WAITING and later.seconds_left == 6.0
        clock[0] += 6.0
        seated = await quick.poll(ticket)
        assert seated.status == pool.SEATED and seated.code is not None and seated.token
        table = quick.tables.owned(seated.code)
        assert table is not None and table.status == TableStatus.PLAYING
        assert [(s.kind, s.bot_level, s.name) for s in table.seats] == [
            (SeatKind.HUMAN, None, "Ann"), *[(SeatKind.BOT, "casual", None)] * 3]
        assert table.seat_of_token(seated.token) == 0
        with pytest.raises(QuickPlayError):  # the seat was told once; the ticket is gone
            await quick.poll(ticket)
    run(tmp_path, scenario)


def test_people_waiting_for_the_same_game_are_seated_together(tmp_path: Path) -> None:
    async def scenario(quick: QuickPlay, clock: list[float], store: Store) -> None:
        ann, _a = await quick.join("Ann", "classic", 3, "basic")
        other, _o = await quick.join("Olga", "bid-squared", 3, "basic")  # another pool
        clock[0] += 1.0
        bob, second = await quick.join("Bob", "classic", 3, "basic")
        assert second.status == pool.WAITING and second.waiting == 2
        clock[0] += 1.0
        _cid, third = await quick.join("Cid", "classic", 3, "basic")
        assert third.status == pool.SEATED  # the table is full: no countdown to wait for
        answers = [await quick.poll(ann), await quick.poll(bob)]
        assert {answer.code for answer in answers} == {third.code}
        assert sorted(answer.seat or 0 for answer in [*answers, third]) == [0, 1, 2]
        table = quick.tables.owned(str(third.code))
        assert table is not None and all(seat.kind == SeatKind.HUMAN for seat in table.seats)
        assert (await quick.poll(other)).status == pool.WAITING
        assert await quick.counts() == {"waiting": 1, "playing": 3}
    run(tmp_path, scenario)


def test_one_match_per_person(tmp_path: Path) -> None:
    async def scenario(quick: QuickPlay, clock: list[float], store: Store) -> None:
        # An account pressing twice holds one place: the second replaces the first.
        first, _f = await quick.join("Ann", "classic", 3, "basic", account="a1", rating=1500)
        second, answer = await quick.join("Ann", "classic", 3, "basic", account="a1", rating=1500)
        assert answer.waiting == 1
        with pytest.raises(QuickPlayError):
            await quick.poll(first)
        # A group is claimed whole or not at all: a ticket someone else took makes the claim fail.
        bob, _b = await quick.join("Bob", "classic", 3, "basic")
        ids = [t.id for t in await asyncio.to_thread(read_waiting, store)]
        def claim(ticket_ids: list[str]) -> Callable[[Any], None]:
            return lambda conn: pool.claim(conn, ticket_ids, clock[0])

        await store.write(claim(ids[:1]))
        with pytest.raises(Conflict):
            await store.write(claim(ids))
        left = await asyncio.to_thread(read_waiting, store)
        assert [t.id for t in left] == ids[1:]  # the failed claim took nobody
        # Two matches at once in one process: one seats the pool, the other finds nobody.
        clock[0] += 10.0
        await store.write(lambda conn: pool.release(conn, ids[:1]))
        def touch_all(conn: Any) -> None:  # both pages are still there
            for key in ids:
                pool.touch(conn, key, clock[0])

        await store.write(touch_all)
        results = await asyncio.gather(quick.match("classic", 3), quick.match("classic", 3))
        assert sorted(result is None for result in results) == [False, True]
        codes = {(await quick.poll(t)).code for t in (second, bob)}
        assert len(codes) == 1 and None not in codes
    run(tmp_path, scenario)


def test_people_claimed_by_a_process_that_stopped_go_back_to_the_pool(tmp_path: Path) -> None:
    async def scenario(quick: QuickPlay, clock: list[float], store: Store) -> None:
        ann, _a = await quick.join("Ann", "classic", 3, "basic")
        ids = [t.id for t in await asyncio.to_thread(read_waiting, store)]
        await store.write(lambda conn: pool.claim(conn, ids, clock[0]))  # ... and that process died
        clock[0] += 5.0
        assert (await quick.poll(ann)).status == pool.MATCHED
        clock[0] += 26.0  # 31 s after the claim (Ann's page kept asking meanwhile: touch it)
        await store.write(lambda conn: pool.touch(conn, ids[0], clock[0]))
        assert (await quick.poll(ann)).status == pool.SEATED  # back in the pool, past her countdown: bots
    run(tmp_path, scenario)


def read_waiting(store: Store) -> list[Ticket]:
    with store.engine.connect() as conn:
        return pool.waiting(conn, "classic", 3, 0.0)


def test_leaving_the_pool(tmp_path: Path) -> None:
    async def scenario(quick: QuickPlay, clock: list[float], store: Store) -> None:
        ann, _a = await quick.join("Ann", "classic", 3, "basic")
        assert await quick.leave(ann) is True
        assert await quick.leave(ann) is False
        assert (await quick.counts())["waiting"] == 0
    run(tmp_path, scenario)


def test_a_page_that_stops_asking_leaves_the_pool(tmp_path: Path) -> None:
    async def scenario(quick: QuickPlay, clock: list[float], store: Store) -> None:
        await quick.join("Ann", "classic", 3, "basic")
        clock[0] += 7.0
        _bob, answer = await quick.join("Bob", "classic", 3, "basic")
        assert answer.waiting == 1 and answer.status == pool.WAITING  # Ann's tab is closed
    run(tmp_path, scenario)


def test_the_http_api(live_server: LiveServer) -> None:
    with httpx.Client(base_url=live_server.url) as client:
        offer = client.get("/api/quickplay").json()
        assert offer["wait"] == 10.0 and offer["waiting"] == 0 and offer["playing"] == 0
        assert offer["families"][0]["family"] == "classic"
        joined = client.post("/api/quickplay", json={"name": "Ann", "players": 3})
        assert joined.status_code == 200, joined.text
        body = joined.json()
        assert body["status"] == "waiting" and body["ticket"] and 9 <= body["seconds_left"] <= 10
        assert client.get("/api/quickplay").json()["waiting"] == 1
        polled = client.post("/api/quickplay/poll", json={"ticket": body["ticket"]}).json()
        assert polled["status"] == "waiting" and "token" not in polled
        assert client.post("/api/quickplay/leave", json={"ticket": body["ticket"]}).json() == {"left": True}
        refusals = [
            ({"players": 3}, "name"),
            ({"name": "Ann", "family": "poker"}, "family"),
            ({"name": "Ann", "players": 9}, "played by"),
            ({"name": "Ann", "players": "four"}, "number of players"),
            ({"name": "Ann", "level": "godlike"}, "no bot"),
        ]
        for data, words in refusals:
            answer = client.post("/api/quickplay", json=data)
            assert answer.status_code == 400 and words in answer.json()["error"], (data, answer.text)
        gone = client.post("/api/quickplay/poll", json={"ticket": "nonsense"})
        assert gone.status_code == 404 and "Play now" in gone.json()["error"]
        assert client.post("/api/quickplay/poll", json={}).status_code == 400
        assert client.post("/api/quickplay/poll", content=b"[").status_code == 400


def test_a_signed_in_player_waits_under_their_account_with_their_rating(sqlite_url: str) -> None:
    from accounts_helpers import Browser, app_client
    from sqlalchemy import create_engine, select

    from ohhell.server.community.accounts import accounts
    from ohhell.server.community.ratings import ratings
    from ohhell.server.storage.schema import quickplay

    with app_client(sqlite_url) as site:
        ann = Browser(site)
        ann.signup("Ann")
        engine = create_engine(sqlite_url)
        with engine.begin() as conn:
            account = conn.execute(select(accounts.c.id).where(accounts.c.name == "Ann")).scalar_one()
            conn.execute(ratings.insert().values(account_id=account, family="bid-squared", mu=1800.0, sigma=120.0,
                                                 games=9, updated=0.0))
        joined = ann.post("/api/quickplay", {"name": "Somebody else", "family": "bid-squared", "players": 3})
        assert joined.status_code == 200, joined.text
        guest = Browser(site).post("/api/quickplay", {"name": "Gus", "players": 3})
        assert guest.status_code == 200, guest.text
        again = ann.post("/api/quickplay", {"family": "bid-squared", "players": 3})  # one place per account
        assert again.status_code == 200, again.text
        with engine.connect() as conn:
            rows = conn.execute(select(quickplay.c.name, quickplay.c.family, quickplay.c.rating, quickplay.c.account)
                                .order_by(quickplay.c.created)).all()
        engine.dispose()
        assert [(row.name, row.family, row.rating, row.account is not None) for row in rows] == [
            ("Gus", "classic", None, False), ("Ann", "bid-squared", 1800.0, True)]


def test_a_quick_play_game_is_rated_and_a_signed_in_players_seat_is_theirs(tmp_path: Path) -> None:
    """docs/accounts.md: quick-play games are rated; the seat of a signed-in player is linked to
    their account as the table is made (so their rating moves when it ends), a guest's is not."""
    from sqlalchemy import select

    from ohhell.server.community.accounts import accounts, seat_links

    async def scenario(quick: QuickPlay, clock: list[float], store: Store) -> None:
        await store.write(lambda conn: conn.execute(accounts.insert().values(
            id="acc-ann", name="Ann", name_key="ann", password_hash="x", created=0.0)))
        ann, _a = await quick.join("Ann", "classic", 3, "basic", account="acc-ann", rating=1500.0)
        gus, _g = await quick.join("Gus", "classic", 3, "basic")
        clock[0] += 5.0
        await quick.poll(gus)
        clock[0] += 5.0
        seated = await quick.poll(ann)
        assert seated.status == pool.SEATED and seated.code is not None
        table = quick.tables.owned(seated.code)
        assert table is not None and table.settings.extra.get("rated") is True
        with store.engine.connect() as conn:
            links = conn.execute(select(seat_links.c.seat, seat_links.c.account_id)
                                 .where(seat_links.c.table_id == seated.code)).all()
        assert [(row.seat, row.account_id) for row in links] == [(seated.seat, "acc-ann")]
        assert (await quick.poll(gus)).status == pool.SEATED
    run(tmp_path, scenario)
