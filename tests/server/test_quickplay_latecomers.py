"""Latecomers take a bot's seat at the next hand (issue 26; docs/protocol.md, "Quick play"):
a later quick-play request of the same game is promised a bot's seat at a running table that
takes latecomers (for a signed-in player only within the table's rating band); the bot finishes
the hand; the newcomer watches, then is seated at the start of the next hand; the record says
who played which hands of that seat; the part-game is not rated for the newcomer."""

from __future__ import annotations

import asyncio
import json
import random
import time
from importlib import resources
from pathlib import Path
from typing import Any

import httpx
import jsonschema
import pytest
from wsclient import Client

from conftest import LiveServer, run_async
from ohhell.errors import OhHellError
from ohhell.game import Phase
from ohhell.i18n import level_name
from ohhell.record import replay
from ohhell.rules import preset
from ohhell.server.community.quickplay import QuickPlay
from ohhell.server.config import ServerConfig
from ohhell.server.live.manager import TableManager
from ohhell.server.live.seats import SeatChange, TableSettings
from ohhell.server.storage import quickplay as pool
from ohhell.server.storage.kinds import SeatKind, TableStatus
from ohhell.server.storage.store import Store

BASIC = level_name("basic")
SCHEMA = json.loads(resources.files("ohhell").joinpath("schema/record-1.json").read_text())


def test_the_settings_keep_the_latecomers_and_their_seats() -> None:
    settings = TableSettings(latecomers=True, seat_changes=(SeatChange(2, "Zoe", "basic", None, "h"),
                                                            SeatChange(1, "Yan", "casual", 3)))
    back = TableSettings.from_json(json.loads(json.dumps(settings.to_json())))
    assert back == settings
    assert [change.seat for change in back.promised()] == [2]
    assert TableSettings.from_json({}).latecomers is False  # a table stored before: takes none
    assert "latecomers" not in TableSettings().to_json()


def run(tmp_path: Path, scenario: Any) -> Any:
    """``scenario(quick, clock, store)`` with a real store and table manager (bots think a little,
    so the test sees the first hand being played), and a clock of our own for the pool."""
    async def main() -> Any:
        url = f"sqlite:///{tmp_path / 'ohhell.db'}"
        store = Store(url)
        store.start()
        tables = TableManager(store, ServerConfig.fast(database=url, bot_delay=0.05, leave_grace=30.0))
        clock = [1000.0]
        try:
            return await scenario(QuickPlay(store, tables, clock=lambda: clock[0]), clock, store)
        finally:
            tables.close()
            store.close()
    return asyncio.run(main())


class Watcher:
    """A connection of this process that only watches (the game pauses when nobody is there)."""

    def __init__(self) -> None:
        self.seat: int | None = None
        self.name: str | None = None
        self.language = "en"
        self.hinting = False
        self.table: Any = None
        self.closed = False
        self.messages: list[Any] = []

    def push(self, message: Any) -> None:
        self.messages.append(message)

    def send_state(self, view: Any, shared: Any) -> None:
        pass

    def close(self) -> None:
        self.closed = True


async def until(condition: Any, timeout: float = 20.0) -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not condition():
        assert loop.time() < deadline, "timed out"
        await asyncio.sleep(0.01)


def test_a_later_request_is_promised_a_bots_seat_and_takes_it_at_the_next_hand(tmp_path: Path) -> None:
    async def scenario(quick: QuickPlay, clock: list[float], store: Store) -> None:
        ann, _first = await quick.join("Ann", "classic", 3, "basic")
        clock[0] += 10.0
        seated = await quick.poll(ann)
        assert seated.status == pool.SEATED and seated.code is not None
        table = quick.tables.owned(seated.code)
        assert table is not None and table.settings.latecomers and table.status == TableStatus.PLAYING
        # Someone watches (a game nobody is connected to pauses); Ann has no connection and a long
        # grace: the game waits for her in the first hand.
        await table.attach(Watcher(), None, "Rail")  # type: ignore[arg-type]
        await until(lambda: table.state.phase in (Phase.BIDDING, Phase.PLAYING))
        ticket, late = await quick.join("Bob", "classic", 3, "basic")
        assert ticket is None, "a latecomer takes a seat rather than waiting"
        assert late.status == pool.SEATED and late.later and late.code == seated.code and late.token
        assert late.seat in (1, 2) and late.bot == f"Bot {late.seat + 1} ({BASIC})"
        assert late.to_json()["later"] is True and "ticket" not in late.to_json()
        seat = late.seat
        assert table.seats[seat].kind == SeatKind.BOT, "not mid-hand: the bot finishes the hand"
        assert table.promised_seat(late.token) == seat and table.seat_of_token(late.token) is None
        assert table.public_info()["promised"] == [{"seat": seat, "name": "Bob"}]
        stored = await asyncio.to_thread(store.load_table_row, seated.code)
        assert stored is not None and stored.settings["seat_changes"][0]["hand"] is None  # saved before shown
        item = await asyncio.to_thread(store.load_table, seated.code)  # a restart keeps the promise
        assert item is not None
        rebuilt = quick.tables.rebuild(item)
        assert rebuilt.promised_seat(late.token) == seat and rebuilt.seats[seat].kind == SeatKind.BOT
        rebuilt.close()
        # Cid is promised the other bot's seat; Dan finds none left and waits in the pool.
        _cid, cid = await quick.join("Cid", "classic", 3, "basic")
        assert cid.later and {cid.seat, seat} == {1, 2}
        dan, waiting = await quick.join("Dan", "classic", 3, "basic")
        assert dan is not None and waiting.status == pool.WAITING
        # Bob's page connects with the token: let in to watch, told the seat it takes.
        bob = Watcher()
        await table.attach(bob, late.token)  # type: ignore[arg-type]
        assert bob.seat is None and table.newcomers[bob] == seat  # type: ignore[index]
        assert any(isinstance(m, dict) and m.get("next_seat") == seat for m in bob.messages)
        # Ann's turns are played for her (she went away): the first hand ends, the seats change.
        table._check_left(0)
        assert table.seats[0].away
        await until(lambda: table.seats[seat].kind == SeatKind.HUMAN)
        assert len(table.state.finished_hands) == 1  # at the end of the first hand
        assert table.seats[seat].name == "Bob" and table.seat_of_token(late.token) == seat
        assert table.settings.promised() == []
        assert bob.closed, "the watching connection is closed: it comes back seated"
        assert [(c.seat, c.hand, c.token_hash) for c in table.settings.seat_changes if c.name == "Bob"] == [
            (seat, 1, None)]
        history = table.record()["seat_history"]
        assert {"seat": seat, "from_hand": 0, "name": f"Bot {seat + 1} ({BASIC})"} in history
        assert {"seat": seat, "from_hand": 1, "name": "Bob"} in history
        jsonschema.validate(table.record(), SCHEMA)
        reloaded = await asyncio.to_thread(store.load_table, seated.code)
        assert reloaded is not None
        assert [row.name for row in reloaded.seats if row.seat == seat] == ["Bob"]
    run(tmp_path, scenario)


def test_a_signed_in_latecomer_takes_a_seat_only_within_the_tables_rating_band(tmp_path: Path) -> None:
    from ohhell.server.community.accounts import accounts

    async def scenario(quick: QuickPlay, clock: list[float], store: Store) -> None:
        def add_accounts(conn: Any) -> None:
            for key in ("ann", "bea", "cal"):
                conn.execute(accounts.insert().values(id=f"acc-{key}", name=key.title(), name_key=key,
                                                      password_hash="x", created=0.0))
        await store.write(add_accounts)
        ann, _a = await quick.join("Ann", "classic", 3, "basic", account="acc-ann", rating=1500.0)
        clock[0] += 10.0
        seated = await quick.poll(ann)
        assert seated.code is not None
        table = quick.tables.owned(seated.code)
        assert table is not None
        nobody, waits = await quick.join("Dee", "classic", 3, "basic")
        assert nobody is not None and waits.status == pool.WAITING, "a game nobody is at is not offered"
        await quick.leave(nobody)
        await table.attach(Watcher(), None, "Rail")  # type: ignore[arg-type]
        listed = await asyncio.to_thread(lambda: pool.open_tables(store.engine.connect(), "classic", 3, 0.0))
        assert [(t.table_id, t.low, t.high, t.bot_seats) for t in listed] == [(seated.code, 1500.0, 1500.0, 2)]
        far, answer = await quick.join("Cal", "classic", 3, "basic", account="acc-cal", rating=2000.0)
        assert far is not None and answer.status == pool.WAITING, "400 above the table: waits for a game"
        near, taken = await quick.join("Bea", "classic", 3, "basic", account="acc-bea", rating=1750.0)
        assert near is None and taken.later and taken.code == seated.code
        other, elsewhere = await quick.join("Gus", "classic", 4, "basic")
        assert other is not None and elsewhere.status == pool.WAITING, "another number of players"
    run(tmp_path, scenario)


def test_a_table_that_takes_no_latecomers_gives_no_seat(tmp_path: Path) -> None:
    async def scenario(quick: QuickPlay, clock: list[float], store: Store) -> None:
        table, _token = await quick.tables.create(preset("classic", players=3), "Ann", ["basic", "basic"], 0.0)
        assert table.status == TableStatus.PLAYING and not table.settings.latecomers
        with pytest.raises(OhHellError, match="does not take people"):
            await table.take_bot_seat("Bob")
    run(tmp_path, scenario)


# ----------------------------------------------------------------------------- over the wire


def test_a_latecomer_watches_then_is_seated_over_the_websocket(live_server: LiveServer) -> None:
    base = live_server.url
    with httpx.Client(base_url=base, timeout=10) as client:
        refused = client.post("/api/tables", json={"name": "Ann", "preset": "classic", "players": 3,
                                                   "seats": ["basic", "basic"], "latecomers": "yes"})
        assert refused.status_code == 400 and "latecomers" in refused.json()["error"]
        created = client.post("/api/tables", json={
            "name": "Ann", "preset": "classic", "players": 3, "seats": ["basic", "basic"], "latecomers": True,
            "knobs": {"schedule": "explicit", "hands": [[2, "turn-up"], [1, "turn-up"], [2, "turn-up"]]}})
        assert created.status_code == 200, created.text
        code, ann_token = created.json()["code"], created.json()["token"]
        plain = client.post("/api/tables", json={"name": "Ann", "preset": "classic", "players": 3,
                                                 "seats": ["basic", "basic"]}).json()["code"]

    async def scenario() -> dict[str, Any]:
        rng = random.Random(3)
        ann = await Client(live_server.ws_url, code, ann_token).connect()
        await ann.wait_for(lambda: ann.state.get("phase") in ("bidding", "playing"))
        async with httpx.AsyncClient(base_url=base, timeout=10) as client:
            no = await client.post(f"/api/tables/{plain}/join", json={"name": "Bob"})
            assert no.status_code == 409, "a table that takes no latecomers has no seat once it plays"
            joined = await client.post(f"/api/tables/{code}/join", json={"name": "Bob"})
            assert joined.status_code == 200, joined.text
            late = joined.json()
            assert late["later"] is True
            summary = (await client.get(f"/api/tables/{code}")).json()
            assert summary["promised"] == [{"seat": late["seat"], "name": "Bob"}] and summary["latecomers"]
        seat = late["seat"]
        bob = await Client(live_server.ws_url, code, late["token"]).connect()
        assert bob.welcome is not None and bob.welcome["seat"] is None and bob.welcome["next_seat"] == seat
        assert bob.state["seat"] is None and not bob.state.get("hand"), "watching: no cards"
        assert bob.state["table"]["promised"] == [{"seat": seat, "name": "Bob"}]
        # Ann plays the first hand out; the server then closes Bob's watching connection.
        while bob._reader is not None and not bob._reader.done():
            action = ann.my_move(rng)
            if action is not None:
                await ann.act(action)
            await asyncio.sleep(0.01)
        seated = await Client(live_server.ws_url, code, late["token"]).connect()
        assert seated.welcome is not None and seated.welcome["seat"] == seat and "next_seat" not in seated.welcome
        await asyncio.gather(ann.play_to_the_end(rng), seated.play_to_the_end(rng))
        for one in (ann, bob, seated):
            await one.close()
        async with httpx.AsyncClient(base_url=base, timeout=10) as client:
            record: dict[str, Any] = (await client.get(f"/api/tables/{code}/record")).json()
        return {"record": record, "seat": seat}

    found = run_async(scenario())
    assert isinstance(found, dict)
    record, seat = found["record"], found["seat"]
    jsonschema.validate(record, SCHEMA)
    assert replay(record)["complete"]
    assert record["names"][seat] == "Bob"
    assert record["seat_history"] == [{"seat": seat, "from_hand": 0, "name": f"Bot {seat + 1} ({BASIC})"},
                                      {"seat": seat, "from_hand": 1, "name": "Bob"}]


def test_a_latecomers_part_game_is_not_rated_for_them(live_server: LiveServer) -> None:
    """docs/accounts.md: the newcomer's seat is not linked to their account; the game is rated
    for the others, the seat counting as a guest's (a newcomer held fixed)."""
    from accounts_helpers import Browser
    from sqlalchemy import create_engine, select

    from ohhell.server.community.accounts import seat_links

    bea = Browser(live_server.url)
    bea.signup("Bea")
    ann = Browser(live_server.url)
    ann.signup("Ann")
    started = ann.post("/api/quickplay", {"players": 3})
    assert started.status_code == 200, started.text
    ticket = started.json()["ticket"]
    seated: dict[str, Any] = {}
    for _attempt in range(150):  # the countdown (10 s), then the bots fill the table
        answer = ann.post("/api/quickplay/poll", {"ticket": ticket}).json()
        if answer["status"] == "seated":
            seated = answer
            break
        time.sleep(0.1)
    code = seated["code"]

    async def scenario() -> Any:
        here = await Client(live_server.ws_url, code, seated["token"]).connect()  # Ann is at her table
        late = await asyncio.to_thread(bea.post, "/api/quickplay", {"players": 3})
        await here.close()
        return late

    late = run_async(scenario())
    assert late.status_code == 200, late.text  # type: ignore[attr-defined]
    body = late.json()  # type: ignore[attr-defined]
    assert body["later"] is True and body["code"] == code and "ticket" not in body
    engine = create_engine(live_server.database)
    with engine.connect() as conn:
        links = conn.execute(select(seat_links.c.seat).where(seat_links.c.table_id == code)).scalars().all()
    engine.dispose()
    assert body["seat"] not in links and links == [0]
