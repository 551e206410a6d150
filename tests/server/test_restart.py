"""Never lose a game: ``kill -9`` the server mid-hand, start it again, everything continues.

Run against SQLite and, when PostgreSQL is installed (always under CI), against a temporary
PostgreSQL cluster through the same code.
"""

from __future__ import annotations

import asyncio
import os
import random
import signal
from pathlib import Path

import httpx
import sqlalchemy
from wsclient import Client, create_table

from conftest import free_port, run_async, spawn_server, stop_process
from ohhell.record import replay

SHORT = {"schedule": "explicit", "hands": [[4, "turn-up"], [3, "turn-up"]]}
FAST = ("--bot-delay", "0", "--trick-pause", "0", "--hand-pause", "0", "--leave-grace", "30")


def test_kill_9_mid_hand_loses_nothing(database: str, tmp_path: Path) -> None:
    port = free_port()
    log = tmp_path / "server.log"
    server = spawn_server(database, port, log, *FAST)
    try:
        # Ann plays with three bots; a second table of bots only keeps playing all along.
        created = create_table(server.url, "Ann", seats=["random", "random", "random"], knobs=SHORT)
        busy = create_table(server.url, "Zed", seats=["random", "random", "random"],
                            knobs={"schedule": "explicit", "hands": [[8, "turn-up"]] * 6})
        code, token = created["code"], created["token"]
        rng = random.Random(5)

        async def play_until_mid_hand() -> dict[str, object]:
            ann = await Client(server.ws_url, code, token).connect()
            zed = await Client(server.ws_url, busy["code"], busy["token"]).connect()
            while True:
                for client in (ann, zed):
                    action = client.my_move(rng)
                    if action is not None:
                        if client is ann and ann.state["phase"] == "playing" and len(ann.state["hand"]) == 2:
                            # Ann is mid-hand, on turn: stop the server dead, now.
                            os.kill(server.process.pid, signal.SIGKILL)
                            await asyncio.sleep(0.3)
                            state = dict(ann.state)
                            await ann.close()
                            await zed.close()
                            return state
                        await client.act(action)
                await asyncio.sleep(0.005)

        before = run_async(play_until_mid_hand())
        assert isinstance(before, dict)
        server.process.wait(timeout=10)
        assert server.process.returncode == -signal.SIGKILL

        # Start again on the same database: the table is back exactly as it was.
        server = spawn_server(database, port, log, *FAST)

        async def resume_and_finish() -> dict[str, object]:
            ann = await Client(server.ws_url, code, token).connect()
            after = ann.state
            for key in ("version", "hand", "hand_index", "bids", "tricks_won", "current_trick", "completed_tricks",
                        "totals", "legal_actions", "turn", "turn_up", "finished_hands"):
                assert after[key] == before[key], key
            assert after["table"]["seats"][0]["online"]
            await ann.play_to_the_end(rng)
            zed = await Client(server.ws_url, busy["code"], busy["token"]).connect()
            await zed.play_to_the_end(rng)
            await zed.close()
            final = dict(ann.state)
            await ann.close()
            return final

        final = run_async(resume_and_finish())
        assert isinstance(final, dict) and final["game_over"]
        for table in (code, busy["code"]):
            record = httpx.get(f"{server.url}/api/tables/{table}/record", timeout=10).json()
            result = replay(record)
            assert result["complete"]
        record = httpx.get(f"{server.url}/api/tables/{code}/record", timeout=10).json()
        assert replay(record)["totals"] == final["totals"]
    finally:
        stop_process(server)


def test_a_game_stopped_between_its_last_action_and_its_status_is_finished_on_restart(
        database: str, tmp_path: Path) -> None:
    """The status is written just after the game's last action; a server stopped between the two
    leaves a finished game stored as ``playing``. Started again, the server stores it as finished
    (a duplicate event's embargo lifts on that status: otherwise never)."""
    port = free_port()
    log = tmp_path / "server.log"
    server = spawn_server(database, port, log, *FAST)
    try:
        created = create_table(server.url, "Ann", seats=["random", "random", "random"], knobs=SHORT)
        code, token = created["code"], created["token"]
        rng = random.Random(3)

        async def finish() -> None:
            ann = await Client(server.ws_url, code, token).connect()
            await ann.play_to_the_end(rng)
            await ann.close()

        run_async(finish())
        engine = sqlalchemy.create_engine(database)
        status = sqlalchemy.text("SELECT status FROM ohhell_tables WHERE id = :id")
        try:
            with engine.connect() as conn:
                assert conn.execute(status, {"id": code}).scalar_one() == "finished"
            stop_process(server)
            with engine.begin() as conn:  # as if the server had died before writing it
                conn.execute(sqlalchemy.text("UPDATE ohhell_tables SET status = 'playing' WHERE id = :id"),
                             {"id": code})
            server = spawn_server(database, port, log, *FAST)
            with engine.connect() as conn:
                assert conn.execute(status, {"id": code}).scalar_one() == "finished"
        finally:
            engine.dispose()
        assert replay(httpx.get(f"{server.url}/api/tables/{code}/record", timeout=10).json())["complete"]
    finally:
        stop_process(server)
