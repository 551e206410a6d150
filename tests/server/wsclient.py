"""A small WebSocket client of the game protocol for the tests: it keeps every message it
receives (for the leak checks) and the state they add up to."""

from __future__ import annotations

import asyncio
import itertools
import json
import random
import secrets
from collections.abc import Callable
from typing import Any

import httpx
import websockets
from websockets.asyncio.client import ClientConnection

_ids = itertools.count(1)


def create_table(base: str, name: str = "Ann", seats: list[str] | None = None, players: int = 4,
                 preset: str = "classic", knobs: dict[str, Any] | None = None, timer: float = 0) -> dict[str, Any]:
    body = {"name": name, "preset": preset, "players": players, "knobs": knobs or {},
            "seats": seats if seats is not None else ["open"] * (players - 1), "timer": timer}
    response = httpx.post(f"{base}/api/tables", json=body, timeout=10)
    assert response.status_code == 200, response.text
    result: dict[str, Any] = response.json()
    return result


def join_table(base: str, code: str, name: str) -> dict[str, Any]:
    response = httpx.post(f"{base}/api/tables/{code}/join", json={"name": name}, timeout=10)
    assert response.status_code == 200, response.text
    result: dict[str, Any] = response.json()
    return result


class Client:
    """One connection: a seat (with its token) or a spectator (without)."""

    def __init__(self, ws_url: str, table: str, token: str | None = None, lang: str = "en") -> None:
        self.ws_url, self.table, self.token, self.lang = ws_url, table, token, lang
        self.ws: ClientConnection | None = None
        self.received: list[dict[str, Any]] = []
        self.raw: list[str] = []
        self.state: dict[str, Any] = {}
        self.welcome: dict[str, Any] | None = None
        self.errors: list[dict[str, Any]] = []
        self._changed = asyncio.Event()
        self._reader: asyncio.Task[None] | None = None
        self._acted_at: int | None = None
        self._errors_at_act = 0
        self._last_act = 0.0
        self.contributes = True
        """Answer each deal's commitment with a contribution (provably fair deals)."""
        self.contributions: dict[int, str] = {}

    async def connect(self) -> Client:
        self.ws = await websockets.connect(f"{self.ws_url}?table={self.table}", max_size=1 << 22)
        self._reader = asyncio.create_task(self._read())
        await self.send({"type": "hello", "table": self.table, "token": self.token, "lang": self.lang})
        await self.wait_for(lambda: "version" in self.state)
        return self

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()
        if self._reader is not None:
            self._reader.cancel()

    async def _read(self) -> None:
        assert self.ws is not None
        try:
            async for text in self.ws:
                assert isinstance(text, str)
                self.raw.append(text)
                message = json.loads(text)
                self.received.append(message)
                if message["type"] == "welcome":
                    self.welcome = message
                elif message["type"] == "state":
                    if message["full"]:
                        self.state = {}
                    self.state.update(message["changes"])
                elif message["type"] == "error":
                    self.errors.append(message)
                if message["type"] == "fair" and "commitment" in message:
                    self._contribute(message["hand"])
                elif message["type"] == "state":
                    fair = self.state.get("table", {}).get("fair")
                    if fair and fair.get("open"):  # a deal announced before we came
                        self._contribute(fair["hand"])
                self._changed.set()
        except websockets.ConnectionClosed:
            pass

    def _contribute(self, hand: int) -> None:
        """As the browser does: 32 random bytes of our own for the coming deal, once per hand."""
        if not self.contributes or not self.token or hand in self.contributions:
            return
        value = secrets.token_hex(32)
        self.contributions[hand] = value
        asyncio.get_running_loop().create_task(self.send({"type": "contribute", "hand": hand, "value": value}))

    async def send(self, message: dict[str, Any] | str) -> None:
        assert self.ws is not None
        await self.ws.send(message if isinstance(message, str) else json.dumps(message))

    async def wait_for(self, condition: Callable[[], bool], timeout: float = 10.0) -> None:
        async def loop() -> None:
            while not condition():
                self._changed.clear()
                await self._changed.wait()

        await asyncio.wait_for(loop(), timeout)

    async def next_message(self, kind: str, after: int, timeout: float = 5.0) -> dict[str, Any]:
        """The first message of ``kind`` received after the first ``after`` messages."""
        await self.wait_for(lambda: any(m["type"] == kind for m in self.received[after:]), timeout)
        return next(m for m in self.received[after:] if m["type"] == kind)

    async def act(self, action: dict[str, Any], version: int | None = None, message_id: Any = None) -> None:
        # Stay under the server's rate limit (20 messages a second) even against instant bots.
        loop = asyncio.get_running_loop()
        wait = self._last_act + 0.06 - loop.time()
        if wait > 0:
            await asyncio.sleep(wait)
        self._last_act = loop.time()
        self._acted_at = self.state["version"]
        self._errors_at_act = len(self.errors)
        await self.send({"type": "act", "version": self.state["version"] if version is None else version,
                         "action": action, "id": message_id if message_id is not None else next(_ids)})

    async def play_to_the_end(self, rng: random.Random, pause: float = 0.005) -> None:
        """This seat's random legal moves (:meth:`my_move`) until the game is over."""
        while not self.state.get("game_over"):
            action = self.my_move(rng)
            if action is not None:
                await self.act(action)
            await asyncio.sleep(pause)

    def my_move(self, rng: random.Random) -> dict[str, Any] | None:
        """A random legal action that moves the game on, when this seat must act."""
        state = self.state
        seat = state.get("seat")
        if seat is None or state.get("game_over") or state.get("table", {}).get("status") != "playing":
            return None
        must = state["turn"] == seat or (state["turn"] is None and seat in state["actors"])
        if not must:
            return None
        if self._acted_at == state["version"] and len(self.errors) == self._errors_at_act:
            return None  # our last action is on its way: wait for the server's answer
        legal = [a for a in state["legal_actions"] if not (a["type"] == "bid" and state["bids"][seat] is not None)]
        if not legal:
            return None
        action = dict(rng.choice(legal))
        action.pop("seat", None)
        return action
