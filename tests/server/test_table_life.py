"""Life at a table beyond the game itself: chat and reactions, the rematch, fair timers, a game
nobody watches pausing, the hello deadline, and refusals that repeat the message's id."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import httpx
import pytest
import websockets
from wsclient import Client, create_table, join_table

from conftest import LiveServer, run_async, start_server
from ohhell.actions import Action, action_to_json
from ohhell.bots import Bot, make_bot, strongest_bot
from ohhell.server.live import manager as tables_manager
from ohhell.server.storage.store import Store
from ohhell.views import SeatView

ONE_HAND = {"schedule": "explicit", "hands": [[2, "turn-up"]]}


@pytest.fixture
def server(tmp_path: Path) -> Any:
    live = start_server(f"sqlite:///{tmp_path / 'life.db'}", hello_timeout=0.5)
    yield live
    live.stop()


def _errors(client: Client, code: str) -> list[dict[str, Any]]:
    return [error for error in client.errors if error["code"] == code]


# ----------------------------------------------------------------------------- chat


def test_chat_is_stored_shown_to_everyone_and_sent_to_newcomers(server: LiveServer) -> None:
    async def scenario() -> None:
        created = create_table(server.url, "Ann", players=3)
        code = created["code"]
        ann = await Client(server.ws_url, code, created["token"]).connect()
        watcher = Client(server.ws_url, code)
        await watcher.connect()
        await ann.send({"type": "chat", "text": "  hello\x00   <b>all</b>\n ", "id": 1})
        for client in (ann, watcher):
            await client.wait_for(lambda c=client: any(m["type"] == "chat" for m in c.received))  # type: ignore[misc]
        line = next(m for m in watcher.received if m["type"] == "chat")
        # Control characters dropped, white space made single; the markup is the client's to
        # escape (it is shown as text), so it arrives as typed.
        assert (line["seat"], line["name"], line["text"], line["id"]) == (0, "Ann", "hello <b>all</b>", 0)
        # A spectator writes under the name it gave in its hello.
        named = Client(server.ws_url, code)
        named.ws = await websockets.connect(server.ws_url)
        named._reader = asyncio.create_task(named._read())
        await named.send({"type": "hello", "table": code, "name": "Zoe"})
        await named.wait_for(lambda: "version" in named.state)
        assert named.welcome is not None and [m["text"] for m in named.welcome["chat"]] == ["hello <b>all</b>"]
        await named.send({"type": "chat", "text": "hi from the rail"})
        await ann.wait_for(lambda: sum(m["type"] == "chat" for m in ann.received) == 2)
        second = [m for m in ann.received if m["type"] == "chat"][1]
        assert (second["seat"], second["name"], second["id"]) == (None, "Zoe", 1)
        # Empty, too long and flooding: refused with the message's id, nothing shown.
        await ann.send({"type": "chat", "text": "   ", "id": "e"})
        await ann.wait_for(lambda: any(e.get("id") == "e" for e in ann.errors))
        for n in range(8):
            await ann.send({"type": "chat", "text": f"spam {n}", "id": f"s{n}"})
        await ann.wait_for(lambda: len(_errors(ann, "rate-limited")) >= 1)
        await asyncio.sleep(0.2)
        lines = [m for m in ann.received if m["type"] == "chat"]
        assert len(lines) <= 2 + 5
        for client in (ann, watcher, named):
            await client.close()

    run_async(scenario())
    # The chat outlives the server: it is in the database.
    store = Store(server.database)
    tables = store.load_tables()
    assert [line.text for line in tables[0].chat][:2] == ["hello <b>all</b>", "hi from the rail"]
    store.close()


def test_reactions_are_checked_and_shown(server: LiveServer) -> None:
    async def scenario() -> None:
        created = create_table(server.url, "Ann", players=3)
        ann = await Client(server.ws_url, created["code"], created["token"]).connect()
        watcher = await Client(server.ws_url, created["code"]).connect()
        await ann.send({"type": "react", "reaction": "👏"})
        await watcher.wait_for(lambda: any(m["type"] == "reaction" for m in watcher.received))
        shown = next(m for m in watcher.received if m["type"] == "reaction")
        assert (shown["seat"], shown["name"], shown["reaction"]) == (0, "Ann", "👏")
        await ann.send({"type": "react", "reaction": "<script>", "id": 9})
        await ann.wait_for(lambda: any(e.get("id") == 9 and e["code"] == "bad-field" for e in ann.errors))
        await ann.send({"type": "react", "reaction": "👍", "id": 10})  # a second one within the second
        await ann.wait_for(lambda: any(e.get("id") == 10 and e["code"] == "rate-limited" for e in ann.errors))
        await ann.close()
        await watcher.close()

    run_async(scenario())


# ----------------------------------------------------------------------------- rematch


def test_rematch_makes_a_new_game_with_the_same_seats_and_an_old_link_leads_to_it(server: LiveServer) -> None:
    async def scenario() -> None:
        created = create_table(server.url, "Ann", players=3, knobs=ONE_HAND, seats=["open", "random"])
        code = created["code"]
        bob_token = join_table(server.url, code, "Bob")["token"]
        ann = await Client(server.ws_url, code, created["token"]).connect()
        bob = await Client(server.ws_url, code, bob_token).connect()
        await ann.send({"type": "rematch", "id": "early"})
        await ann.wait_for(lambda: any(e.get("id") == "early" and e["code"] == "not-over" for e in ann.errors))
        rng = __import__("random").Random(1)
        while not ann.state.get("game_over"):
            for client in (ann, bob):
                action = client.my_move(rng)
                if action is not None:
                    await client.act(action)
            await asyncio.sleep(0.01)
        await bob.send({"type": "rematch", "id": "bob"})
        await bob.wait_for(lambda: any(e.get("id") == "bob" and e["code"] == "not-host" for e in bob.errors))
        await ann.send({"type": "rematch"})
        for client in (ann, bob):
            await client.wait_for(lambda c=client: any(m["type"] == "moved" for m in c.received))  # type: ignore[misc]
        new_code = next(m for m in bob.received if m["type"] == "moved")["table"]
        assert new_code != code
        old = httpx.get(f"{server.url}/api/tables/{code}", timeout=10).json()
        assert old["next"] == new_code and old["game_over"]
        # The same tokens hold the same seats at the new game; the bot is there again.
        ann2 = await Client(server.ws_url, new_code, created["token"]).connect()
        bob2 = await Client(server.ws_url, new_code, bob_token).connect()
        assert (ann2.state["seat"], bob2.state["seat"]) == (0, 1)
        seats = ann2.state["table"]["seats"]
        assert [(s["kind"], s["name"], s["bot"]) for s in seats] == [("human", "Ann", None), ("human", "Bob", None),
                                                                    ("bot", None, "random")]
        assert ann2.state["table"]["status"] == "playing"
        # Asking again does not make a third game.
        await ann.send({"type": "rematch"})
        await ann.wait_for(lambda: sum(m["type"] == "moved" for m in ann.received) == 2)
        assert [m["table"] for m in ann.received if m["type"] == "moved"] == [new_code, new_code]
        for client in (ann, bob, ann2, bob2):
            await client.close()

    run_async(scenario())


# ----------------------------------------------------------------------------- timers


def test_a_timeout_costs_one_turn_and_two_in_a_row_bring_the_stand_in(tmp_path: Path) -> None:
    live = start_server(f"sqlite:///{tmp_path / 'timer.db'}")
    try:
        async def scenario() -> None:
            created = create_table(live.url, "Ann", players=3, seats=["random", "random"], timer=0.4,
                                   knobs={"schedule": "explicit", "hands": [[5, "turn-up"]] * 2})
            ann = await Client(live.ws_url, created["code"], created["token"]).connect()
            seat = ann.state["seat"]

            def my_turn() -> bool:
                return bool(ann.state.get("turn") == seat and ann.state.get("legal_actions"))

            # Ann lets the timer run out: a move is made for her, she is not away.
            await ann.wait_for(my_turn, timeout=10)
            version = ann.state["version"]
            await ann.wait_for(lambda: ann.state["version"] > version, timeout=5)
            me = ann.state["table"]["seats"][seat]
            assert me["timeouts"] == 1 and not me["away"]
            # Twice in a row: now a stand-in plays for her until she is back.
            await ann.wait_for(lambda: ann.state["table"]["seats"][seat]["away"], timeout=15)
            assert ann.state["table"]["seats"][seat]["timeouts"] == 2
            await ann.send({"type": "back"})
            await ann.wait_for(lambda: not ann.state["table"]["seats"][seat]["away"], timeout=5)
            assert ann.state["table"]["seats"][seat]["timeouts"] == 0
            await ann.close()

        run_async(scenario())
    finally:
        live.stop()


def test_a_timed_out_turn_is_played_as_the_strongest_bot_would(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The move made when a person's timer runs out is the strongest bot's choice for that seat's
    view: the same move a fresh bot of that level (with the same seed) suggests for it."""
    made: list[tuple[str, int | None, Any]] = []  # (level, seed, bot) of every bot the server makes
    chosen: list[tuple[Bot, SeatView, Action]] = []

    def recording_make_bot(spec: str, seed: int | None = None, **options: Any) -> Bot:
        bot = make_bot(spec, seed=seed, **options)
        choose = bot.choose

        def recorded(view: SeatView) -> Action:
            action = choose(view)
            chosen.append((bot, view, action))
            return action

        bot.choose = recorded  # type: ignore[method-assign]
        made.append((spec, seed, bot))
        return bot

    monkeypatch.setattr(tables_manager, "make_bot", recording_make_bot)
    live = start_server(f"sqlite:///{tmp_path / 'timeout.db'}")
    try:
        async def scenario() -> None:
            created = create_table(live.url, "Ann", players=3, seats=["random", "random"], timer=0.5,
                                   knobs={"schedule": "explicit", "hands": [[5, "turn-up"]]})
            ann = await Client(live.ws_url, created["code"], created["token"]).connect()
            seat = ann.state["seat"]
            await ann.wait_for(lambda: bool(ann.state.get("turn") == seat and ann.state.get("legal_actions")),
                               timeout=10)
            assert ann.state["phase"] == "bidding"
            await ann.wait_for(lambda: ann.state["bids"][seat] is not None, timeout=15)
            assert ann.state["table"]["seats"][seat]["timeouts"] == 1
            bid = ann.state["bids"][seat]
            await ann.close()

            strongest = strongest_bot()
            for_ann = [(bot, view, action) for bot, view, action in chosen if view.seat == seat]
            assert len(for_ann) == 1, for_ann
            bot, view, action = for_ann[0]
            level, seed, _ = next(entry for entry in made if entry[2] is bot)
            assert level == strongest
            assert action_to_json(action) == {"type": "bid", "seat": seat, "bid": bid}  # the game shows that bot's
            assert view.phase.name == "BIDDING" and action in view.legal_actions
            fresh = make_bot(strongest, seed=seed)
            try:
                assert fresh.suggest(view).action == action  # and the same bot suggests it for the same view
            finally:
                fresh.close()

        run_async(scenario())
    finally:
        live.stop()


def test_timer_modes_by_name(server: LiveServer) -> None:
    def create(**body: Any) -> httpx.Response:
        return httpx.post(f"{server.url}/api/tables", timeout=10,
                          json={"name": "Ann", "players": 3, "seats": ["open", "open"], **body})

    assert create(timer_mode="fast").json()["table"]["timer"] == 15
    assert create(timer_mode="relaxed").json()["table"]["timer_mode"] == "relaxed"
    assert create(timer_mode="none").json()["table"]["timer"] == 0
    refused = create(timer_mode="glacial")
    assert refused.status_code == 400 and "relaxed" in refused.json()["error"]


# ----------------------------------------------------------------------------- nobody there


def test_a_game_nobody_is_connected_to_pauses_and_goes_on_when_someone_comes(server: LiveServer) -> None:
    async def scenario() -> None:
        created = create_table(server.url, "Ann", players=3, seats=["random", "random"],
                               knobs={"schedule": "explicit", "hands": [[5, "turn-up"]] * 3})
        code = created["code"]
        ann = await Client(server.ws_url, code, created["token"]).connect()
        await ann.wait_for(lambda: ann.state.get("phase") == "bidding")
        await ann.close()
        await asyncio.sleep(0.6)  # past the leave grace: her stand-in would play, if anyone watched
        first = httpx.get(f"{server.url}/api/tables/{code}", timeout=10).json()
        assert first["paused"]
        await asyncio.sleep(0.5)
        assert httpx.get(f"{server.url}/api/tables/{code}", timeout=10).json()["version"] == first["version"]
        watcher = await Client(server.ws_url, code).connect()  # someone comes to look: it goes on
        await watcher.wait_for(lambda: watcher.state["version"] > first["version"], timeout=10)
        assert not watcher.state["table"]["paused"]
        await watcher.close()

    run_async(scenario())


# ----------------------------------------------------------------------------- the protocol's edges


def test_a_connection_without_hello_is_closed_after_the_deadline(server: LiveServer) -> None:
    async def scenario() -> list[dict[str, Any]]:
        received = []
        async with websockets.connect(server.ws_url) as ws:
            await ws.send(json.dumps({"type": "ping", "id": 1}))  # not a hello: does not count
            try:
                async for text in ws:
                    received.append(json.loads(text))
            except websockets.ConnectionClosed:
                pass
        return received

    received = run_async(scenario())
    assert isinstance(received, list)
    assert received[-1]["code"] == "hello-timeout"


def test_refusals_repeat_the_message_id(server: LiveServer) -> None:
    async def scenario() -> None:
        created = create_table(server.url, "Ann", players=3)
        code = created["code"]
        bob = await Client(server.ws_url, code, join_table(server.url, code, "Bob")["token"]).connect()
        watcher = await Client(server.ws_url, code).connect()
        await bob.send({"type": "start", "id": "s1"})
        await bob.wait_for(lambda: any(e.get("id") == "s1" and e["code"] == "not-host" for e in bob.errors))
        await watcher.send({"type": "back", "id": "b1"})
        await watcher.wait_for(lambda: any(e.get("id") == "b1" and e["code"] == "spectator" for e in watcher.errors))
        await bob.close()
        await watcher.close()

    run_async(scenario())


def test_players_are_told_when_an_external_bot_is_replaced(tmp_path: Path) -> None:
    crash = tmp_path / "crash.py"
    crash.write_text("import sys\nsys.stderr.write('Error: this bot always crashes\\n')\nsys.exit(3)\n")
    import sys

    live = start_server(f"sqlite:///{tmp_path / 'fallback.db'}", bot_commands={"crashy": f"cmd:{sys.executable} "
                                                                                       f"{crash}"})
    try:
        async def scenario() -> None:
            created = create_table(live.url, "Ann", players=3, seats=["crashy", "random"], knobs=ONE_HAND)
            ann = await Client(live.ws_url, created["code"], created["token"]).connect()
            # The program dies at its first decision: a built-in bot takes over, and the seat says so.
            rng = __import__("random").Random(2)
            while not ann.state.get("game_over"):
                action = ann.my_move(rng)
                if action is not None:
                    await ann.act(action)
                await asyncio.sleep(0.01)
            assert ann.state["table"]["seats"][1]["fallback"]
            assert not ann.state["table"]["seats"][2]["fallback"]
            await ann.close()

        run_async(scenario())
    finally:
        live.stop()


def test_the_analysis_of_a_finished_game_is_made_once_and_kept(server: LiveServer) -> None:
    async def scenario() -> str:
        created = create_table(server.url, "Ann", players=3, seats=["random", "basic"], knobs=ONE_HAND)
        code = created["code"]
        ann = await Client(server.ws_url, code, created["token"]).connect()
        early = httpx.get(f"{server.url}/api/tables/{code}/analysis", timeout=10)
        assert early.status_code == 409  # not over yet
        await ann.play_to_the_end(__import__("random").Random(5), pause=0.01)
        await ann.close()
        return str(code)

    code = run_async(scenario())
    first = httpx.get(f"{server.url}/api/tables/{code}/analysis", timeout=10)
    assert first.status_code in (200, 202)
    done = httpx.get(f"{server.url}/api/tables/{code}/analysis?wait=30", timeout=60)
    assert done.status_code == 200, done.text
    analysis = done.json()["analysis"]
    assert len(analysis["hands"]) == 1 and analysis["players"] == 3 and len(analysis["seats"]) == 3
    store = Store(server.database)
    assert store.load_analysis(str(code)) == analysis  # kept: the next request reads it
    store.close()
    # The history page's analysis is the one `ohhell analyze --json` gives for the game's record.
    from click.testing import CliRunner

    from ohhell.cli import main

    record = httpx.get(f"{server.url}/api/tables/{code}/record", timeout=10)
    assert record.status_code == 200
    printed = CliRunner().invoke(main, ["analyze", "-", "--json"], input=record.text)
    assert printed.exit_code == 0, printed.output
    by_command = json.loads(printed.stdout)
    assert by_command.pop("seconds") >= 0 and analysis.pop("seconds") >= 0  # how long each took: not the analysis
    assert by_command == analysis


def test_a_private_table_cannot_be_watched_or_downloaded_by_others(server: LiveServer) -> None:
    """A table of a duplicate event (or a daily deal) is private until it is over everywhere:
    no spectator, no record, verdicts or analysis — its seats still play."""
    app_state = _app_state(server)
    app_state.server.tables.look_guards.append(_daily_guard)

    async def scenario() -> None:
        created = create_table(server.url, "Ann", players=3, seats=["random", "random"], knobs=ONE_HAND)
        code = created["code"]
        _PRIVATE.add(code)
        ann = await Client(server.ws_url, code, created["token"]).connect()  # a seat: welcome
        spectator = Client(server.ws_url, code)
        spectator.ws = await websockets.connect(server.ws_url)
        spectator._reader = asyncio.create_task(spectator._read())
        await spectator.send({"type": "hello", "table": code, "id": "h"})
        await spectator.wait_for(lambda: bool(spectator.errors))
        assert spectator.errors[0]["code"] == "private" and spectator.errors[0]["id"] == "h"
        assert "daily" in spectator.errors[0]["detail"]
        for path in ("record", "verify", "analysis"):
            answer = httpx.get(f"{server.url}/api/tables/{code}/{path}", timeout=10)
            assert answer.status_code == 403, path
        _PRIVATE.discard(code)  # the day is over: it may be looked at (no hand is finished yet)
        answer = httpx.get(f"{server.url}/api/tables/{code}/record", timeout=10)
        assert answer.status_code in (200, 409) and answer.json().get("hands", []) == []
        watcher = await Client(server.ws_url, code).connect()
        assert watcher.welcome is not None
        await watcher.close()
        await spectator.close()
        await ann.close()

    try:
        run_async(scenario())
    finally:
        app_state.server.tables.look_guards.remove(_daily_guard)


_PRIVATE: set[str] = set()


async def _daily_guard(table: Any) -> str | None:
    return "one of today's daily deals" if table.code in _PRIVATE else None


def _app_state(server: LiveServer) -> Any:
    return server.server.config.loaded_app.app.state  # uvicorn's app, under its middleware
