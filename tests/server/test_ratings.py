"""Ratings (OpenSkill Plackett–Luce per family, bots held fixed), results and player pages,
on SQLite and PostgreSQL."""

from __future__ import annotations

import asyncio
import itertools
import random
from typing import Any

from accounts_helpers import Browser, app_client
from fake_tables import FakeTables, use_fake_tables
from sqlalchemy import select
from starlette.testclient import TestClient

from ohhell.rules import PRESETS, preset
from ohhell.server.community.ratings import (
    BOT_RATINGS,
    FAMILIES,
    MU,
    SIGMA,
    Competitor,
    places,
    rate_game,
    rated_games,
    rating_family,
    update_ratings,
    win_probability,
)
from ohhell.server.storage.store import Store

SHORT = {"schedule": "explicit", "hands": [[3, "turn-up"], [2, "turn-up"]]}


def test_every_preset_has_a_family() -> None:
    found = {name: rating_family(preset(name, players=found.players[0])) for name, found in PRESETS.items()}
    assert set(found.values()) <= set(FAMILIES)
    assert found["classic"] == found["contract-whist"] == found["oh-shit"] == found["kachuful"] == "classic"
    assert found["german-bridge"] == "bid-squared" and found["boerenbridge"] == "secret-bids"
    assert found["jokers"] == found["ne-blackout"] == "jokers" and found["7-truf"] == "7-truf"
    assert rating_family(preset("classic", bidding="simultaneous", hook=False, bid_changes=False)) == "secret-bids"


def test_places_share_ties() -> None:
    assert places([10, 10, 5]) == [1, 1, 3]
    assert places([0, 30, 30, 30]) == [4, 1, 1, 1]


def test_update_moves_people_and_never_bots() -> None:
    bot = Competitor(bot="strong")
    new = update_ratings({"a": (1600.0, 100.0)}, [Competitor("a"), bot, Competitor("b")], [50, 40, 10])
    assert set(new) == {"a", "b"}
    assert new["a"][0] > 1600 and new["b"][0] < MU and new["b"][1] < SIGMA
    # Beating a strong bot is worth more than beating a weak one.
    strong = update_ratings({}, [Competitor("a"), Competitor(bot="strong")], [50, 40])["a"][0]
    weak = update_ratings({}, [Competitor("a"), Competitor(bot="random")], [50, 40])["a"][0]
    assert strong > weak > MU
    # Shared first place between equals changes little; a tie is not a win.
    tie = update_ratings({}, [Competitor("a"), Competitor("b")], [30, 30])
    assert abs(tie["a"][0] - MU) < 1e-6 and tie["a"][1] < SIGMA
    # Nobody rated: nothing. One account in two seats: not rated by that game.
    assert update_ratings({}, [Competitor(bot="basic"), Competitor(bot="random")], [1, 2]) == {}
    assert update_ratings({}, [Competitor("a"), Competitor("a"), Competitor("b")], [3, 2, 1]).keys() == {"b"}


def test_ratings_and_bot_ratings_are_ordered_sensibly() -> None:
    assert BOT_RATINGS["random"][0] < BOT_RATINGS["basic"][0] < BOT_RATINGS["strong"][0]
    levels = ["random", "beginner", "casual", "basic", "strong"]
    assert [BOT_RATINGS[level][0] for level in levels] == sorted(BOT_RATINGS[level][0] for level in levels)


def test_the_bots_fixed_ratings_keep_the_arenas_odds() -> None:
    """Converted from the arena's Elo scale (docs/bots.md), every pair of levels keeps the chance
    of finishing ahead the arena measured: Elo's 1 / (1 + 10^(−Δ/400)) is the model's own
    :func:`win_probability` here (σ left out: the chance between two exactly known strengths)."""
    from ohhell.server.community.ratings import ARENA_ELO

    assert ARENA_ELO == {"random": 508, "beginner": 1027, "casual": 1286, "basic": 1500, "strong": 1593}
    assert BOT_RATINGS["basic"] == (1500.0, 100.0) and BOT_RATINGS["strong"] == (1689.0, 100.0)
    for a, b in itertools.combinations(ARENA_ELO, 2):
        elo_chance = 1 / (1 + 10 ** (-(ARENA_ELO[a] - ARENA_ELO[b]) / 400))
        here = win_probability((BOT_RATINGS[a][0], 0.0), (BOT_RATINGS[b][0], 0.0))
        assert abs(here - elo_chance) < 0.002, (a, b, here, elo_chance)


def play_rated(client: TestClient, fake: FakeTables, browsers: list[Browser], seed: int,
               bots: list[str] | None = None) -> str:
    """A rated game: the browsers' accounts in the first seats (claimed with their tokens), bots after."""
    bots = bots or []
    players = len(browsers) + len(bots)
    rules = preset("classic", players=players, **SHORT)

    async def create() -> Any:
        return await fake.create(rules, "host", ["open"] * (len(browsers) - 1) + bots, 0, extra={"rated": True})

    table, token = asyncio.run(create())
    tokens = [token]
    for _browser in browsers[1:]:
        tokens.append(asyncio.run(table.join("x"))[1])
    for browser, seat_token in zip(browsers, tokens, strict=True):
        claimed = browser.post("/api/account/claim", {"seats": [{"table": table.code, "token": seat_token}]})
        assert claimed.json()["claimed"][0]["claimed"], claimed.text
    asyncio.run(fake.advance(table, random.Random(seed)))
    return str(table.code)


def rated_scenario(client: TestClient, fake: FakeTables) -> None:
    ann, bob = Browser(client), Browser(client)
    ann.signup("Ann")
    bob.signup("Bob")
    codes = [play_rated(client, fake, [ann, bob], seed, bots=["basic"]) for seed in range(3)]
    page = ann.get("/api/players/Ann").json()
    rating = page["ratings"]["classic"]
    assert rating["games"] == 3 and rating["provisional"] is True
    assert rating["low"] < rating["mu"] < rating["high"] and rating["sigma"] < SIGMA
    chart = page["chart"]["classic"]
    assert [point["table"] for point in chart] == codes
    assert chart[-1]["mu"] == rating["mu"]
    assert [game["rated"] for game in page["games"]] == [True, True, True]
    board = client.get("/api/ratings/classic").json()["players"]
    assert [row["name"] for row in board] == sorted(["Ann", "Bob"], key=lambda name: -next(
        r["ordinal"] for r in board if r["name"] == name))
    assert [row["rank"] for row in board] == [1, 2]
    # The bot's page: its fixed rating and its games.
    bot = client.get("/api/bots/basic").json()
    assert bot["rating"]["mu"] == BOT_RATINGS["basic"][0] and bot["statistics"]["games"] == 3
    assert bot["arena_elo"] == 1500 and client.get("/api/bots/strong").json()["rating"]["mu"] == 1689
    assert client.get("/api/bots/nope").status_code == 404
    assert client.get("/api/ratings/nope").status_code == 404
    families = client.get("/api/ratings?lang=ru").json()["families"]
    assert [item["family"] for item in families] == list(FAMILIES)


def test_rated_games_update_ratings_history_and_leaderboards(sqlite_url: str) -> None:
    with app_client(sqlite_url) as client:
        rated_scenario(client, use_fake_tables(client))


def fresh_database(postgres_url: str, name: str) -> str:
    """A new, empty database of the test cluster (the others' tables untouched)."""
    from sqlalchemy import create_engine, text

    engine = create_engine(postgres_url.replace("postgresql://", "postgresql+psycopg://"),
                           isolation_level="AUTOCOMMIT")
    with engine.connect() as conn:
        conn.execute(text(f"DROP DATABASE IF EXISTS {name}"))
        conn.execute(text(f"CREATE DATABASE {name}"))
    engine.dispose()
    return postgres_url.rsplit("/", 1)[0] + "/" + name


def test_on_postgresql(postgres_url: str) -> None:
    with app_client(fresh_database(postgres_url, "ohhell_accounts_test")) as client:
        rated_scenario(client, use_fake_tables(client))
        events_and_daily_scenario(client)
        # The accounts' own security paths on PostgreSQL too.
        browser = Browser(client)
        assert browser.login("Ann").status_code == 200
        assert Browser(client).login("Ann", "wrong password").status_code == 401
        assert browser.post("/api/account/logout-everywhere").status_code == 200


def test_a_game_is_rated_once(sqlite_url: str) -> None:
    store = Store(sqlite_url)
    store.start()
    try:
        def call(conn: Any) -> Any:
            from ohhell.server.community.accounts import accounts

            conn.execute(accounts.insert().values(id="a", name="Ann", name_key="ann", password_hash="x", created=0.0))
            first = rate_game(conn, "TABLE1", "classic", [Competitor("a"), Competitor(bot="basic")], [20, 10])
            second = rate_game(conn, "TABLE1", "classic", [Competitor("a"), Competitor(bot="basic")], [20, 10])
            return first, second

        first, second = store.write(call)
        assert first is not None and len(first) == 1 and second is None
        with store.engine.connect() as conn:
            assert len(conn.execute(select(rated_games)).all()) == 1
    finally:
        store.close()


def test_unrated_games_change_no_rating(sqlite_url: str) -> None:
    with app_client(sqlite_url) as client:
        fake = use_fake_tables(client)
        ann = Browser(client)
        ann.signup("Ann")
        rules = preset("classic", players=3, **SHORT)
        table, token = asyncio.run(fake.create(rules, "Ann", ["basic", "random"], 0))
        ann.post("/api/account/claim", {"seats": [{"table": table.code, "token": token}]})
        asyncio.run(fake.advance(table, random.Random(5)))
        page = ann.get("/api/players/Ann").json()
        assert page["ratings"] == {} and page["games"][0]["rated"] is False
        assert page["statistics"]["games"] == 1 and page["games"][0]["points"] == \
            [hand.scores[0] for hand in table.state.finished_hands]
        # The figures against a recount from the game itself.
        hands = table.state.finished_hands
        stats = page["statistics"]
        assert stats["points_per_hand"] == round(sum(h.scores[0] for h in hands) / len(hands), 2)
        for size in {h.size for h in hands}:
            of_size = [h for h in hands if h.size == size]
            assert stats["by_size"][str(size)]["made"] == sum(h.bids[0] == h.tricks[0] for h in of_size)
            assert stats["by_size"][str(size)]["hands"] == len(of_size)
        for bid in {h.bids[0] for h in hands}:
            assert stats["by_bid"][str(bid)]["hands"] == sum(h.bids[0] == bid for h in hands)
        dealt = [h for h in hands if h.dealer == 0]
        hooked = [h for h in dealt if h.size - sum(b or 0 for s, b in enumerate(h.bids) if s != 0) >= 0]
        assert stats["hook_as_dealer"]["hands"] == len(hooked)
        assert stats["hook_as_dealer"]["made"] == sum(h.bids[0] == h.tricks[0] for h in hooked)
        assert client.get("/api/players/Nobody").status_code == 404


def test_rated_tables_are_created_by_signed_in_players(sqlite_url: str) -> None:
    with app_client(sqlite_url) as client:
        fake = use_fake_tables(client)
        guest = Browser(client)
        body = {"preset": "classic", "players": 3, "knobs": SHORT, "seats": ["open", "basic"]}
        assert guest.post("/api/rated-tables", body).status_code == 401
        ann = Browser(client)
        ann.signup("Ann")
        assert ann.post("/api/rated-tables", {**body, "seats": ["open", "nope"]}).status_code == 400
        assert ann.post("/api/rated-tables", {**body, "preset": "nope"}).status_code == 400
        created = ann.post("/api/rated-tables", body)
        assert created.status_code == 200, created.text
        table = fake.tables[created.json()["code"]]
        assert table.settings.extra == {"rated": True} and table.seats[0].name == "Ann"
        bob = Browser(client)
        bob.signup("Bob")
        _seat, token = asyncio.run(table.join("Bob"))
        bob.post("/api/account/claim", {"seats": [{"table": table.code, "token": token}]})
        asyncio.run(fake.advance(table, random.Random(8)))
        for name in ("Ann", "Bob"):
            assert client.get(f"/api/players/{name}").json()["ratings"]["classic"]["games"] == 1


def events_and_daily_scenario(client: TestClient) -> None:
    """A whole event and a daily try (on whatever database the client's server uses)."""
    fake: FakeTables = client.app.state.server.tables  # type: ignore[attr-defined]
    browser = Browser(client)
    event = browser.post("/api/events", {"name": "PG night", "preset": "classic", "players": 3, "knobs": SHORT,
                                         "tables": 2, "seats": ["basic", "random", "basic"]})
    assert event.status_code == 200, event.text
    tables = [t for t in fake.tables.values() if t.settings.extra.get("event") == event.json()["id"]]
    for number, table in enumerate(tables):
        asyncio.run(fake.advance(table, random.Random(number)))
    exported = browser.get(f"/api/events/{event.json()['id']}/export").json()
    assert len(exported["tables"]) == 2 and len(exported["standings"]) == 6
    started = browser.post("/api/daily/start", {"name": "Gus"}).json()
    asyncio.run(fake.advance(fake.tables[started["code"]], random.Random(1)))
    assert browser.get("/api/daily/results").json()["players"][0]["you"] is True
