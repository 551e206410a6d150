"""Whole games through the WebSocket API: every message every seat and a spectator receive is
checked for hidden cards; wrong messages are answered with an error and change nothing."""

from __future__ import annotations

import asyncio
import json
import random
from pathlib import Path
from typing import Any

import httpx
import pytest
import websockets
from leaks import Truth, check_messages
from wsclient import Client, create_table, join_table

from conftest import LiveServer, free_port, run_async, spawn_server, start_server, stop_process
from ohhell.record import replay
from ohhell.rules import Rules
from ohhell.server.storage.store import Store

SHORT = {"schedule": "explicit", "hands": [[3, "turn-up"], [2, "turn-up"]]}

VARIANTS: dict[str, dict[str, Any]] = {
    "classic": SHORT,
    "simultaneous-bids": {**SHORT, "bidding": "simultaneous", "hook": False, "bid_changes": False},
    "devils-bridge": {"schedule": "explicit", "hands": [[2, "turn-up"], [1, "turn-up"]], "devils_bridge": True},
}


async def play_out(server: LiveServer, clients: list[Client], spectator: Client, rng: random.Random,
                   misbehave: bool = True, limit: float = 30.0) -> None:
    """Humans play random legal moves until the game is over; along the way they also send
    wrong messages, which must be refused."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + limit
    tries = 0
    while not all(client.state.get("game_over") for client in [*clients, spectator]):
        assert loop.time() < deadline, "the game did not finish"
        for client in clients:
            action = client.my_move(rng)
            if action is None:
                continue
            if misbehave and tries < 6 and rng.random() < 0.3:
                tries += 1
                await misbehave_once(client, clients, rng)
            await client.act(action)
        await asyncio.sleep(0.005)


async def misbehave_once(client: Client, everyone: list[Client], rng: random.Random) -> None:
    """A stale action, a duplicate id, an action for another seat or out of turn: each refused."""
    state = client.state
    before = len(client.errors)
    kind = rng.choice(["stale", "other-seat", "chance", "out-of-turn"])
    if kind == "stale":
        await client.act({"type": "bid", "bid": 0}, version=state["version"] - 1)
    elif kind == "other-seat":
        await client.act({"type": "bid", "seat": (state["seat"] + 1) % len(everyone), "bid": 0})
    elif kind == "chance":
        await client.act({"type": "cut", "position": 3})
    else:
        other = next(c for c in everyone if c is not client)
        await other.act({"type": "bid", "bid": 0}, version=state["version"])
        client = other
        before = len(other.errors) - 0
    await client.wait_for(lambda: len(client.errors) > before or False, timeout=5)


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_whole_games_leak_no_hidden_card(live_server: LiveServer, variant: str) -> None:
    knobs = VARIANTS[variant]

    async def scenario() -> tuple[str, list[Client], Client]:
        created = create_table(live_server.url, "Ann", seats=["open", "open", "random"], knobs=knobs)
        code = created["code"]
        tokens = [created["token"]] + [join_table(live_server.url, code, name)["token"] for name in ("Bob", "Cy")]
        spectator = await Client(live_server.ws_url, code).connect()
        clients = [await Client(live_server.ws_url, code, token).connect() for token in tokens]
        await play_out(live_server, clients, spectator, random.Random(variant))
        # After the game: the history, over the WebSocket, to everyone.
        for client in [*clients, spectator]:
            count = len(client.received)
            await client.send({"type": "history"})
            history = await client.next_message("history", count)
            assert len(history["hands"]) == 2
        for client in [*clients, spectator]:
            await client.close()
        return code, clients, spectator

    code, clients, spectator = run_async(scenario())  # type: ignore[misc]
    stored = Store(live_server.database).load_table(code)
    assert stored is not None
    truth = Truth(Rules.from_json(stored.row.rules), stored.actions, 4)
    assert truth.final.is_terminal()
    for seat, client in enumerate(clients):
        assert client.welcome is not None and client.welcome["seat"] == seat
        assert check_messages(truth, seat, client.received) > 10
        assert client.state["version"] == len(stored.actions)
        assert client.state["totals"] == truth.final.totals
        expected = {"stale", "not-your-seat", "not-allowed", "out-of-turn", "illegal", "game-over", "too-late"}
        assert {error["code"] for error in client.errors} <= expected, client.errors
    assert check_messages(truth, None, spectator.received) > 10
    assert all(message.get("changes", {}).get("hand", []) == [] for message in spectator.received)
    assert spectator.welcome is not None and spectator.welcome["seat"] is None
    # The record of the finished game replays to the same totals.
    record = httpx.get(f"{live_server.url}/api/tables/{code}/record", timeout=10).json()
    assert replay(record)["totals"] == truth.final.totals


def test_wrong_messages_change_nothing(live_server: LiveServer) -> None:
    async def scenario() -> None:
        created = create_table(live_server.url, "Ann", seats=["open", "random", "random"], knobs=SHORT)
        code = created["code"]
        bob_token = join_table(live_server.url, code, "Bob")["token"]
        ann = await Client(live_server.ws_url, code, created["token"]).connect()
        bob = await Client(live_server.ws_url, code, bob_token).connect()
        spectator = await Client(live_server.ws_url, code).connect()
        await ann.wait_for(lambda: ann.state["table"]["status"] == "playing" and ann.state["phase"] == "bidding",
                           timeout=30)

        async def someone_to_move() -> None:
            # Polled, not waited on one client's news: Bob may hear that it is his turn after
            # Ann has heard it (and nothing more comes to Ann until he acts).
            while not any(c.my_move(random.Random(0)) is not None for c in (ann, bob)):
                await asyncio.sleep(0.02)

        await asyncio.wait_for(someone_to_move(), timeout=30)
        actor, other = (ann, bob) if ann.my_move(random.Random(0)) else (bob, ann)
        version = actor.state["version"]
        await asyncio.sleep(0.2)  # let the news of the spectator's arrival settle
        stored_before = Store(live_server.database).count_actions(code)
        seen = {id(c): len(c.received) for c in (ann, bob, spectator)}

        async def expect(client: Client, payload: dict[str, Any] | str, code_wanted: str) -> dict[str, Any]:
            count = len(client.received)
            await client.send(payload)
            error = await client.next_message("error", count)
            assert error["code"] == code_wanted, error
            assert error["message"]
            return error

        await expect(actor, "{not json", "malformed")
        await expect(actor, "[1, 2]", "malformed")
        await expect(actor, json.dumps({"type": "act", "version": version, "pad": "x" * 5000}), "too-large")
        await expect(actor, {"type": "shout"}, "unknown-type")
        await expect(actor, {"type": "act", "action": {"type": "bid", "bid": 1}}, "bad-field")
        await expect(actor, {"type": "act", "version": version, "action": {"type": "bid", "bid": 99}}, "illegal")
        await expect(actor, {"type": "act", "version": version, "action": {"type": "play", "card": "AS"}}, "illegal")
        await expect(actor, {"type": "act", "version": version - 1, "action": {"type": "bid", "bid": 1}}, "stale")
        await expect(actor, {"type": "act", "version": version, "action": {"type": "shuffle", "order": []}},
                     "not-allowed")
        await expect(other, {"type": "act", "version": version, "action": {"type": "bid", "bid": 1}}, "out-of-turn")
        await expect(spectator, {"type": "act", "version": version, "action": {"type": "bid", "bid": 1}},
                     "spectator")
        await expect(actor, {"type": "hello", "table": code}, "bad-field")
        # Nothing changed: no new action stored, and nobody was told of any change.
        await asyncio.sleep(0.2)
        assert Store(live_server.database).count_actions(code) == stored_before
        assert actor.state["version"] == version
        for client in (ann, bob, spectator):
            assert [m for m in client.received[seen[id(client)]:] if m["type"] == "state"
                    and "version" in m["changes"]] == []
        # A duplicate: the same id twice is applied once.
        bid = next(a for a in actor.state["legal_actions"] if a["type"] == "bid")["bid"]
        await actor.send({"type": "act", "version": version, "action": {"type": "bid", "bid": bid}, "id": "dup-1"})
        await actor.wait_for(lambda: actor.state["version"] > version)
        count = len(actor.received)
        await actor.send({"type": "act", "version": actor.state["version"], "action": {"type": "bid", "bid": bid},
                          "id": "dup-1"})
        error = await actor.next_message("error", count)
        assert error["code"] == "duplicate"
        for client in (ann, bob, spectator):
            await client.close()

        # Hello with a wrong token or table; anything before hello.
        stranger = Client(live_server.ws_url, code, "not-a-token")
        import websockets

        async with websockets.connect(live_server.ws_url) as ws:
            await ws.send(json.dumps({"type": "act", "version": 0, "action": {"type": "bid", "bid": 0}}))
            assert json.loads(await ws.recv())["code"] == "hello-first"
            await ws.send(json.dumps({"type": "hello", "table": "ZZZZZZ"}))
            assert json.loads(await ws.recv())["code"] == "no-such-table"
            await ws.send(json.dumps({"type": "hello", "table": code, "token": stranger.token}))
            assert json.loads(await ws.recv())["code"] == "bad-token"

    run_async(scenario())


def test_rate_limit_answers_with_errors(sqlite_url: str) -> None:
    server = start_server(sqlite_url, rate_per_second=5.0, rate_burst=5.0)
    try:
        async def scenario() -> None:
            created = create_table(server.url, "Ann", seats=["random", "random", "random"], knobs=SHORT)
            client = Client(server.ws_url, created["code"], created["token"])
            client.contributes = False  # only our pings count against the limit
            await client.connect()
            for n in range(30):
                await client.send({"type": "ping", "id": f"p{n}"})
            await client.wait_for(lambda: len([m for m in client.received
                                               if m["type"] == "pong" or m.get("code") == "rate-limited"]) == 30)
            limited = [e for e in client.errors if e["code"] == "rate-limited"]
            # Each refusal repeats the id of the message it refused (docs/protocol.md: every error does).
            assert limited and all(e.get("id", "").startswith("p") for e in limited)
            answered = {m["id"] for m in client.received if m["type"] == "pong"}
            assert not answered & {e["id"] for e in limited}
            assert len(answered) + len(limited) == 30
            await client.close()

        run_async(scenario())
    finally:
        server.stop()


def test_the_hello_timeout_is_set_on_the_command_line(tmp_path: Path) -> None:
    """``ohhell serve --hello-timeout 0.5``: a socket that says nothing is closed after half a
    second (the default, 10 s, would outlast the test's wait)."""
    from click.testing import CliRunner

    from ohhell.server.cli import serve

    refused = CliRunner().invoke(serve, ["--hello-timeout", "0"])
    assert refused.exit_code == 2 and "--hello-timeout" in refused.output
    live = spawn_server(f"sqlite:///{tmp_path / 'h.db'}", free_port(), tmp_path / "log", "--hello-timeout", "0.5")
    try:
        async def scenario() -> tuple[list[dict[str, Any]], float]:
            loop = asyncio.get_running_loop()
            started = loop.time()
            received = []
            async with websockets.connect(live.ws_url) as ws:
                try:
                    async for text in ws:
                        received.append(json.loads(text))
                except websockets.ConnectionClosed:
                    pass
            return received, loop.time() - started

        received, took = run_async(asyncio.wait_for(scenario(), 8))  # type: ignore[misc]
        assert [m["code"] for m in received] == ["hello-timeout"]
        assert 0.4 <= took < 5
    finally:
        stop_process(live)


def test_bots_timer_and_absent_players(sqlite_url: str) -> None:
    """A person whose timer runs out gets a stand-in bot until they are back; one who leaves too."""
    server = start_server(sqlite_url, leave_grace=0.3)
    try:
        async def scenario() -> None:
            created = create_table(server.url, "Ann", seats=["random", "random", "random"], knobs=SHORT, timer=0.4)
            code = created["code"]
            ann = await Client(server.ws_url, code, created["token"]).connect()
            # Ann does nothing: when her turn comes, the timer runs out and a bot plays for her.
            await ann.wait_for(lambda: ann.state["table"]["seats"][0]["away"], timeout=10)
            version = ann.state["version"]
            await ann.wait_for(lambda: ann.state["version"] > version + 4, timeout=10)
            await ann.send({"type": "back"})
            await ann.wait_for(lambda: not ann.state["table"]["seats"][0]["away"])
            # She leaves: after the grace a bot plays for her; she comes back with the same token.
            await ann.close()
            await asyncio.sleep(0.8)
            again = await Client(server.ws_url, code, created["token"]).connect()
            assert again.state["seat"] == 0 and again.received[0]["type"] == "welcome"
            assert not again.state["table"]["seats"][0]["away"]
            assert again.state["table"]["seats"][0]["online"]
            assert "hand" in again.state and "legal_actions" in again.state
            # Hints come from a bot, for the seat that must act.
            await again.wait_for(lambda: again.my_move(random.Random(1)) is not None or again.state["game_over"],
                                 timeout=10)
            if not again.state["game_over"]:
                count = len(again.received)
                await again.send({"type": "hint", "version": again.state["version"]})
                hint = await again.next_message("hint", count)
                assert hint["action"] in again.state["legal_actions"] or hint["action"]["type"] in ("bid", "play")
            await again.close()

        run_async(scenario())
    finally:
        server.stop()


def test_web_cannot_start_programs(live_server: LiveServer) -> None:
    response = httpx.post(f"{live_server.url}/api/tables", json={
        "name": "Eve", "preset": "classic", "players": 3, "seats": ["cmd:sh -c 'touch /tmp/pwned'", "random"]})
    assert response.status_code == 400
    response = httpx.post(f"{live_server.url}/api/tables", json={
        "name": "Eve", "preset": "classic", "players": 3, "seats": ["random", "random"], "stand_in": "cmd:sh"})
    assert response.status_code == 400


def test_lobby_api_and_pages(live_server: LiveServer) -> None:
    config = httpx.get(f"{live_server.url}/api/config").json()
    assert "random" in config["levels"] and any(p["name"] == "classic" for p in config["presets"])
    assert any(knob["name"] == "hook" and knob["kind"] == "bool" for knob in config["knobs"])
    rules = httpx.post(f"{live_server.url}/api/rules", json={"preset": "classic", "players": 5,
                                                             "knobs": {"must_trump": True}}).json()
    assert rules["knobs"]["must_trump"] is True and rules["described"]
    bad = httpx.post(f"{live_server.url}/api/rules", json={"preset": "classic", "players": 7,
                                                           "knobs": {"max_size": 10}})
    assert bad.status_code == 400 and bad.json()["knob"] == "max_size"
    for path in ("/", "/t/ABCDEF", "/score", "/static/js/main.js", "/static/style.css", "/i18n/en.json"):
        assert httpx.get(live_server.url + path).status_code == 200, path
    page = httpx.get(live_server.url + "/", headers={"Accept-Language": "ru-RU,ru;q=0.9"}).text
    assert '<html lang="ru">' in page
    assert httpx.get(f"{live_server.url}/api/tables/NOPE99").status_code == 404
    # A body that is not a JSON object is refused, in the language the browser asked for.
    for path in ("/api/rules", "/api/tables", "/api/sheets"):
        for body in (b"{not json", b"[1, 2]"):
            answer = httpx.post(live_server.url + path, content=body,
                                headers={"Accept-Language": "ru", "Content-Type": "application/json"})
            assert answer.status_code == 400 and answer.json()["error"] == "отправьте объект JSON", path


def test_record_of_a_running_game_has_finished_hands_only(live_server: LiveServer) -> None:
    async def scenario() -> None:
        created = create_table(live_server.url, "Ann", seats=["random", "random", "random"], knobs=SHORT)
        code = created["code"]
        ann = await Client(live_server.ws_url, code, created["token"]).connect()
        rng = random.Random(3)
        while ann.state["hand_index"] < 1 or ann.state["phase"] != "bidding":
            action = ann.my_move(rng)
            if action is not None:
                await ann.act(action)
            await asyncio.sleep(0.01)
        record = httpx.get(f"{live_server.url}/api/tables/{code}/record").json()
        assert len(record["hands"]) == 1 and len(record["hands"][0]["plays"]) == 12
        played = set(record["hands"][0]["plays"])
        assert {card for hand in record["hands"][0]["deal"] for card in hand} == played
        assert not set(ann.state["hand"]) & {card for hand in record["hands"][0]["deal"] for card in hand} - played
        await ann.close()

    run_async(scenario())


def test_scorekeeper_api(live_server: LiveServer) -> None:
    base = f"{live_server.url}/api/sheets"
    sheet = httpx.post(base, json={"names": ["Ann", "Bob", "Cy"], "preset": "classic"}).json()
    sheet_id = sheet["id"]
    assert sheet["hand_size"] == 10 and sheet["next_bidder"] == 1
    for seat, bid in ((1, 3), (2, 4)):
        sheet = httpx.post(f"{base}/{sheet_id}", json={"op": "bid", "seat": seat, "bid": bid}).json()
    assert sheet["forbidden_bid"] == 3
    refused = httpx.post(f"{base}/{sheet_id}", json={"op": "bid", "seat": 0, "bid": 3})
    assert refused.status_code == 400 and "3" in refused.json()["error"]
    httpx.post(f"{base}/{sheet_id}", json={"op": "bid", "seat": 0, "bid": 2})
    wrong = httpx.post(f"{base}/{sheet_id}", json={"op": "tricks", "tricks": [1, 1, 1]})
    assert wrong.status_code == 400
    sheet = httpx.post(f"{base}/{sheet_id}", json={"op": "tricks", "tricks": [2, 3, 5]}).json()
    assert sheet["totals"] == [12, 13, 0] and sheet["hand_index"] == 1
    sheet = httpx.post(f"{base}/{sheet_id}", json={"op": "edit", "hand": 0, "bids": [2, 3, 4],
                                                   "tricks": [2, 4, 4]}).json()
    assert sheet["totals"] == [12, 0, 14]
    record = httpx.get(f"{base}/{sheet_id}?format=record").json()
    assert record["hands"][0]["tricks"] == [2, 4, 4]
    assert "Ann" in httpx.get(f"{base}/{sheet_id}?format=csv").text
    # Stored with its undo history: a new server on the same database has it and can undo.
    other = start_server(live_server.database)
    try:
        stored = httpx.get(f"{other.url}/api/sheets/{sheet_id}").json()
        assert stored["totals"] == [12, 0, 14] and stored["can_undo"]
        undone = httpx.post(f"{other.url}/api/sheets/{sheet_id}", json={"op": "undo"}).json()
        assert undone["totals"] == [12, 13, 0]  # the edit is taken back
    finally:
        other.stop()
