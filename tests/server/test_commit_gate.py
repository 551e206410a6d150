"""Nothing is shown before it is saved — on every path that shows a table.

The database's write lock is held from outside (SQLite: ``BEGIN IMMEDIATE``; PostgreSQL:
``LOCK TABLE ohhell_actions IN EXCLUSIVE MODE``), so an action a seat sends cannot be committed.
While it waits, every way a table leaves the server — a new spectator's hello, the seat's own
reconnection, a ping, a hint, the history, the HTTP summary, record and fairness verdicts — must
show the version before it; a chat line or a rematch waiting for the database is not in a new
connection's welcome or state either. Then either the lock is released and everyone sees the action, or the server is
killed with ``kill -9`` and, started again, the table is back at the version everyone was shown.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import signal
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
from wsclient import Client, create_table, join_table

from conftest import free_port, run_async, spawn_server, stop_process

ONE_CARD_HANDS = {"schedule": "explicit", "hands": [[1, "turn-up"], [2, "turn-up"]]}
PACE = ("--bot-delay", "0", "--trick-pause", "0", "--hand-pause", "0", "--leave-grace", "30")


@contextlib.contextmanager
def write_lock(database: str) -> Iterator[None]:
    """Hold the database's write lock from another connection until the block ends."""
    if database.startswith("sqlite"):
        conn = sqlite3.connect(database.removeprefix("sqlite:///"), timeout=10, isolation_level=None)
        conn.execute("BEGIN IMMEDIATE")
        try:
            yield
        finally:
            conn.execute("ROLLBACK")
            conn.close()
    else:
        import psycopg

        with psycopg.connect(database) as pg:
            pg.execute("LOCK TABLE ohhell_actions, ohhell_seats, ohhell_tables, ohhell_sheets, ohhell_chat "
                       "IN EXCLUSIVE MODE")
            try:
                yield
            finally:
                pg.rollback()


async def _seated(base: str, ws_url: str) -> tuple[str, list[Client]]:
    """Four people at a table of one-card hands, bidding."""
    created = create_table(base, "Ann", players=4, knobs=ONE_CARD_HANDS)
    code = created["code"]
    clients = [await Client(ws_url, code, created["token"]).connect()]
    for name in ("Bob", "Cy", "Dee"):
        joined = join_table(base, code, name)
        clients.append(await Client(ws_url, code, joined["token"]).connect())
    for client in clients:
        await client.wait_for(lambda c=client: c.state.get("phase") == "bidding")  # type: ignore[misc]
    return code, clients


def _on_turn(clients: list[Client]) -> Client:
    turn = clients[0].state["turn"]
    return next(client for client in clients if client.state["seat"] == turn)


def _highest_version(client: Client, after: int) -> int:
    return max((m["version"] for m in client.received[after:] if m["type"] == "state"), default=-1)


async def _every_path_shows(base: str, ws_url: str, code: str, clients: list[Client], version: int,
                            hands: int) -> None:
    """Every way of looking at the table shows ``version`` (with ``hands`` finished hands)."""
    # A new spectator's hello (the path the outside probe broke).
    spectator = await Client(ws_url, code).connect()
    assert spectator.state["version"] == version
    assert len(spectator.state["finished_hands"]) == hands
    # The acting seat's own reconnection, from a second page.
    mover = _on_turn(clients)
    again = await Client(ws_url, code, mover.token).connect()
    assert again.state["version"] == version
    # A ping's answer and a hint for the seat on turn, from that second page (the first one
    # waits for its own action's answer: a connection's messages are handled in order).
    mark = len(again.received)
    await again.send({"type": "ping", "id": "p"})
    assert (await again.next_message("pong", mark))["version"] == version
    mark = len(again.received)
    await again.send({"type": "hint", "version": version, "id": "h"})
    answer = await again.next_message("hint", mark, timeout=10)
    assert answer["version"] == version
    # The history of finished hands.
    mark = len(spectator.received)
    await spectator.send({"type": "history"})
    history = await spectator.next_message("history", mark)
    assert history["version"] == version and len(history["hands"]) == hands
    # HTTP: the summary and the record.
    async with httpx.AsyncClient(timeout=10) as http:
        summary = (await http.get(f"{base}/api/tables/{code}")).json()
        assert summary["version"] == version
        record = (await http.get(f"{base}/api/tables/{code}/record")).json()
        assert len(record.get("hands", [])) == hands
        verify = (await http.get(f"{base}/api/tables/{code}/verify")).json()
        assert len(verify["hands"]) == hands
    # Nobody was told of anything newer meanwhile (the pages opened here included).
    for client in [*clients, spectator, again]:
        assert _highest_version(client, 0) <= version, client.state.get("seat")
    await spectator.close()
    await again.close()


def test_an_action_waiting_for_the_database_is_shown_nowhere_and_lost_by_kill_9(database: str,
                                                                                 tmp_path: Path) -> None:
    port = free_port()
    server = spawn_server(database, port, tmp_path / "server.log", *PACE)
    try:
        async def bid_under_the_lock() -> tuple[str, int, str]:
            code, clients = await _seated(server.url, server.ws_url)
            version = clients[0].state["version"]
            mover = _on_turn(clients)
            with write_lock(database):
                await mover.act({"type": "bid", "bid": 1})
                await asyncio.sleep(0.5)  # the bid has reached the server and waits for the database
                await _every_path_shows(server.url, server.ws_url, code, clients, version, hands=0)
                os.kill(server.process.pid, signal.SIGKILL)
                server.process.wait(timeout=10)
            for client in clients:
                await client.close()
            assert mover.token is not None
            return code, version, mover.token

        code, version, token = run_async(bid_under_the_lock())  # type: ignore[misc]
        assert server.process.returncode == -signal.SIGKILL
        server = spawn_server(database, port, tmp_path / "server.log", *PACE)

        async def after_restart() -> dict[str, Any]:
            mover = await Client(server.ws_url, code, token).connect()
            state = dict(mover.state)
            # The bid was never saved, so it was never shown; the seat bids again.
            await mover.act({"type": "bid", "bid": 0})
            await mover.wait_for(lambda: mover.state["version"] == version + 1)
            await mover.close()
            return state

        state = run_async(after_restart())
        assert isinstance(state, dict)
        assert state["version"] == version
        assert state["bids"][state["seat"]] is None
    finally:
        stop_process(server)


def test_the_last_card_of_a_hand_waiting_for_the_database_is_shown_once_saved(database: str,
                                                                              tmp_path: Path) -> None:
    server = spawn_server(database, free_port(), tmp_path / "server.log", *PACE)
    rng = random.Random(3)
    try:
        async def last_card_under_the_lock() -> None:
            code, clients = await _seated(server.url, server.ws_url)
            # Everyone bids, then every card but the last is played.
            while True:
                state = clients[0].state
                if state["phase"] == "playing" and len(state["current_trick"]) == 3:
                    break
                for client in clients:
                    action = client.my_move(rng)
                    if action is not None:
                        await client.act(action)
                await asyncio.sleep(0.01)
            await asyncio.sleep(0.2)
            version = clients[0].state["version"]
            mover = _on_turn(clients)
            action = mover.my_move(rng)
            assert action is not None and action["type"] == "play"
            with write_lock(database):
                await mover.act(action)
                await asyncio.sleep(0.5)
                await _every_path_shows(server.url, server.ws_url, code, clients, version, hands=0)
            # The lock is gone: the card is saved, and only now does everyone see it.
            for client in clients:
                await client.wait_for(lambda c=client: c.state["version"] > version)  # type: ignore[misc]
                await client.wait_for(lambda c=client: len(c.state["finished_hands"]) == 1)  # type: ignore[misc]
            async with httpx.AsyncClient(timeout=10) as http:
                record = (await http.get(f"{server.url}/api/tables/{code}/record")).json()
                verify = (await http.get(f"{server.url}/api/tables/{code}/verify")).json()
            assert len(record["hands"]) == 1
            assert [hand["hand"] for hand in verify["hands"]] == [0] and verify["verified"]
            for client in clients:
                await client.close()

        run_async(last_card_under_the_lock())
    finally:
        stop_process(server)


def test_a_seat_and_a_scoresheet_waiting_for_the_database_are_not_shown(database: str, tmp_path: Path) -> None:
    server = spawn_server(database, free_port(), tmp_path / "server.log", *PACE)
    try:
        async def under_the_lock() -> None:
            created = create_table(server.url, "Ann", players=4)
            code = created["code"]
            ann = await Client(server.ws_url, code, created["token"]).connect()
            sheet = httpx.post(f"{server.url}/api/sheets", json={"names": ["A", "B", "C"]}, timeout=10).json()
            async with httpx.AsyncClient(timeout=30) as http:
                with write_lock(database):
                    joining = asyncio.create_task(http.post(f"{server.url}/api/tables/{code}/join",
                                                            json={"name": "Bob"}))
                    bidding = asyncio.create_task(http.post(f"{server.url}/api/sheets/{sheet['id']}",
                                                            json={"op": "bid", "seat": sheet["next_bidder"],
                                                                  "bid": 1}))
                    await asyncio.sleep(0.5)
                    assert not joining.done() and not bidding.done()
                    summary = (await http.get(f"{server.url}/api/tables/{code}")).json()
                    assert summary["open_seats"] == [1, 2, 3]
                    spectator = await Client(server.ws_url, code).connect()
                    assert [seat["kind"] for seat in spectator.state["table"]["seats"]] == ["human", "open", "open",
                                                                                           "open"]
                    shown = (await http.get(f"{server.url}/api/sheets/{sheet['id']}")).json()
                    assert shown["bids"] == [None, None, None]
                    assert all(seat["kind"] != "human" or seat["name"] == "Ann"
                               for m in ann.received if m["type"] == "state"
                               for seat in m["changes"].get("table", {}).get("seats", []))
                assert (await joining).status_code == 200
                assert (await bidding).status_code == 200
            await ann.wait_for(lambda: ann.state["table"]["seats"][1]["kind"] == "human")
            await spectator.close()
            await ann.close()

        run_async(under_the_lock())
    finally:
        stop_process(server)


def test_a_chat_line_waiting_for_the_database_is_not_in_a_welcome(database: str, tmp_path: Path) -> None:
    server = spawn_server(database, free_port(), tmp_path / "server.log", *PACE)
    try:
        async def under_the_lock() -> None:
            code, clients = await _seated(server.url, server.ws_url)
            ann = clients[0]
            await ann.send({"type": "chat", "text": "first", "id": "c1"})
            await ann.wait_for(lambda: any(m["type"] == "chat" and m["text"] == "first" for m in ann.received))
            with write_lock(database):
                await ann.send({"type": "chat", "text": "not saved yet", "id": "c2"})
                await asyncio.sleep(0.5)
                spectator = await Client(server.ws_url, code).connect()
                assert spectator.welcome is not None
                assert [line["text"] for line in spectator.welcome["chat"]] == ["first"]
                again = await Client(server.ws_url, code, clients[1].token).connect()
                assert again.welcome is not None
                assert [line["text"] for line in again.welcome["chat"]] == ["first"]
                for client in [*clients, spectator, again]:
                    assert not any(m["type"] == "chat" and m["text"] == "not saved yet" for m in client.received)
            # Saved: now everyone sees it, and a new connection's welcome has it.
            for client in [*clients, spectator, again]:
                await client.wait_for(lambda c=client: any(  # type: ignore[misc]
                    m["type"] == "chat" and m["text"] == "not saved yet" for m in c.received))
            late = await Client(server.ws_url, code).connect()
            assert late.welcome is not None
            assert [line["text"] for line in late.welcome["chat"]] == ["first", "not saved yet"]
            for client in [*clients, spectator, again, late]:
                await client.close()

        run_async(under_the_lock())
    finally:
        stop_process(server)


def test_a_rematch_waiting_for_the_database_is_not_shown(database: str, tmp_path: Path) -> None:
    server = spawn_server(database, free_port(), tmp_path / "server.log", *PACE)
    rng = random.Random(5)
    try:
        async def under_the_lock() -> None:
            code, clients = await _seated(server.url, server.ws_url)
            while not clients[0].state.get("game_over"):
                for client in clients:
                    action = client.my_move(rng)
                    if action is not None:
                        await client.act(action)
                await asyncio.sleep(0.01)
            host = next(client for client in clients if client.welcome and client.welcome["host"])
            with write_lock(database):
                await host.send({"type": "rematch", "id": "r"})
                await asyncio.sleep(0.5)
                spectator = await Client(server.ws_url, code).connect()
                assert spectator.state["table"]["next"] is None
                again = await Client(server.ws_url, code, host.token).connect()
                assert again.state["table"]["next"] is None
                async with httpx.AsyncClient(timeout=10) as http:
                    summary = (await http.get(f"{server.url}/api/tables/{code}")).json()
                assert summary["next"] is None and summary["game_over"]
                for client in [*clients, spectator, again]:
                    assert not any(m["type"] == "moved" for m in client.received)
                    assert all(m["changes"].get("table", {}).get("next") is None
                               for m in client.received if m["type"] == "state")
            # Saved: everyone is told to move to the new game, which exists.
            for client in [*clients, spectator, again]:
                await client.wait_for(lambda c=client: any(m["type"] == "moved" for m in c.received))  # type: ignore[misc]
            new_code = next(m for m in spectator.received if m["type"] == "moved")["table"]
            async with httpx.AsyncClient(timeout=10) as http:
                assert (await http.get(f"{server.url}/api/tables/{code}")).json()["next"] == new_code
                assert (await http.get(f"{server.url}/api/tables/{new_code}")).status_code == 200
            for client in [*clients, spectator, again]:
                await client.close()

        run_async(under_the_lock())
    finally:
        stop_process(server)
