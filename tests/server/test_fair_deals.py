"""Provably fair deals on the server: the commitment before the deal, the players' own
contributions in it, the seed only after the hand — and every record verifies."""

from __future__ import annotations

import asyncio
import os
import random
import signal
from pathlib import Path
from typing import Any

import httpx
from wsclient import Client, create_table, join_table

from conftest import LiveServer, free_port, run_async, spawn_server, start_server, stop_process
from ohhell.fairness import verify_record

SHORT = {"schedule": "explicit", "hands": [[3, "turn-up"], [2, "turn-up"]]}


async def _play(clients: list[Client], rng: random.Random) -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + 60
    while not all(client.state.get("game_over") for client in clients):
        assert loop.time() < deadline, "the game did not finish"
        for client in clients:
            action = client.my_move(rng)
            if action is not None:
                await client.act(action)
        await asyncio.sleep(0.01)


def _states(messages: list[dict[str, Any]]) -> list[tuple[int, dict[str, Any]]]:
    """The state a connection had after each of its state messages, with the message's index."""
    state: dict[str, Any] = {}
    out = []
    for index, message in enumerate(messages):
        if message["type"] == "state":
            state = ({} if message["full"] else dict(state)) | message["changes"]
            out.append((index, state))
    return out


def test_every_hand_is_dealt_from_the_commitment_and_the_players_contributions(tmp_path: Path) -> None:
    live: LiveServer = start_server(f"sqlite:///{tmp_path / 'fair.db'}", fair_window=5.0)
    try:
        created = create_table(live.url, "Ann", players=4, seats=["open", "open", "open"], knobs=SHORT)
        code = created["code"]
        tokens = [created["token"]] + [join_table(live.url, code, name)["token"] for name in ("Bob", "Cy")]

        async def scenario() -> tuple[list[Client], Client]:
            clients = [await Client(live.ws_url, code, token).connect() for token in tokens]
            watcher = await Client(live.ws_url, code).connect()
            await clients[0].send({"type": "start"})  # everyone is here; a bot takes the last seat
            await _play(clients, random.Random(4))
            await asyncio.sleep(0.3)
            for client in [*clients, watcher]:
                await client.close()
            return clients, watcher

        clients, watcher = run_async(scenario())  # type: ignore[misc]
        record = httpx.get(f"{live.url}/api/tables/{code}/record", timeout=10).json()
        verdicts = verify_record(record, scope=code)
        assert [v.verdict for v in verdicts] == ["verified", "verified"]
        for index, hand in enumerate(record["hands"]):
            fair = hand["fair"]
            for seat, client in enumerate(clients):  # each person's own randomness is in the deal
                assert fair["contributions"][seat] == client.contributions[index]
            assert fair["contributions"][3] is None and fair["missing"][3] == "bot"
        checked = httpx.get(f"{live.url}/api/tables/{code}/verify", timeout=10).json()
        assert checked["verified"] and [h["verdict"] for h in checked["hands"]] == ["verified", "verified"]
        # Order and secrecy, for every connection: the commitment of a hand came before any of
        # its cards, and its seed only once the hand was over.
        for client in [*clients, watcher]:
            commitments = [m for m in client.received if m["type"] == "fair" and "commitment" in m]
            reveals = [m for m in client.received if m["type"] == "fair" and "reveal" in m]
            assert [m["hand"] for m in commitments] == [0, 1] and [m["hand"] for m in reveals] == [0, 1]
            states = _states(client.received)
            for hand in (0, 1):
                seed = record["hands"][hand]["fair"]["seed"]
                announced = client.received.index(commitments[hand])
                first_cards = next(i for i, state in states if state.get("hand_index") == hand
                                   and state.get("turn_up") is not None)
                assert announced < first_cards
                revealed = client.received.index(reveals[hand])
                assert not any(seed in text for text in client.raw[:revealed])
                ended = next(i for i, state in states if len(state.get("finished_hands", [])) > hand)
                assert revealed > ended
    finally:
        live.stop()


def test_a_silent_player_is_recorded_and_a_commitment_outlives_kill_9(tmp_path: Path) -> None:
    database = f"sqlite:///{tmp_path / 'fair.db'}"
    port = free_port()
    pace = ("--bot-delay", "0", "--trick-pause", "0", "--hand-pause", "0", "--fair-window", "4")
    server = spawn_server(database, port, tmp_path / "server.log", *pace)
    try:
        created = create_table(server.url, "Ann", players=3, seats=["random", "random"], knobs=SHORT)
        code = created["code"]

        async def announced() -> dict[str, Any]:
            ann = Client(server.ws_url, code, created["token"])
            ann.contributes = False  # Ann's page says nothing: the deal waits, then goes without her
            await ann.connect()
            await ann.wait_for(lambda: any(m["type"] == "fair" for m in ann.received))
            message = next(m for m in ann.received if m["type"] == "fair")
            os.kill(server.process.pid, signal.SIGKILL)  # before the deal
            await ann.close()
            return message

        first = run_async(announced())
        assert isinstance(first, dict)
        server.process.wait(timeout=10)
        server = spawn_server(database, port, tmp_path / "server.log", *pace)

        async def after_restart() -> Client:
            ann = Client(server.ws_url, code, created["token"])
            ann.contributes = False
            await ann.connect()
            # The same commitment (its seed was stored before it was shown), then the deal.
            await ann.wait_for(lambda: any(m["type"] == "fair" for m in ann.received), timeout=10)
            again = next(m for m in ann.received if m["type"] == "fair")
            assert (again["hand"], again["commitment"]) == (first["hand"], first["commitment"])
            await ann.wait_for(lambda: ann.state.get("phase") == "bidding", timeout=15)
            await _play([ann], random.Random(1))
            await ann.close()
            return ann

        run_async(after_restart())
        record = httpx.get(f"{server.url}/api/tables/{code}/record", timeout=10).json()
        assert [v.verdict for v in verify_record(record, scope=code)] == ["verified", "verified"]
        assert record["hands"][0]["fair"]["missing"][0] == "timeout"
        assert record["hands"][0]["fair"]["commitment"] == first["commitment"]
    finally:
        stop_process(server)
