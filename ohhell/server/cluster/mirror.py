"""A table whose owner is another server process: the copy this process keeps for its own
connections.

With several processes (``ohhell serve --broker``), a player may reach any of them. The process
that owns a table (:class:`~ohhell.server.live.tables.LiveTable`) alone changes it; every other
process with connections to it holds a :class:`TableMirror`: the committed game rebuilt from the
database, then kept up to date by the owner's published changes — which the owner publishes
only after the database has committed them, so a mirror, like the owner, never shows anything
that is not saved. Each connection is still told only what its own seat may see
(:func:`ohhell.views.seat_views`, as in the owner). What a connection asks to change (an action,
a chat line, a start…) goes to the owner through the broker, and the owner's refusal comes back
as the same error it would have sent itself.

A change that did not arrive (pub/sub delivers at most once) shows as a gap in the version:
the mirror then reads the actions it missed from the database.
"""

from __future__ import annotations

import asyncio
import logging
from collections import deque
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ohhell.fairness import FairTable
from ohhell.rules import Rules
from ohhell.server.live.tables import (
    CHAT_KEPT,
    PLAYING,
    Connection,
    Seat,
    Sender,
    TableRoom,
    TableSettings,
)
from ohhell.server.storage.store import ChatLine, SeatRow
from ohhell.server.wire.protocol import ClientMessage

if TYPE_CHECKING:
    from ohhell.server.live.tables import TableManager

log = logging.getLogger("ohhell.server.cluster.mirror")


class TableMirror(TableRoom):
    """A table owned by another process (see the module docstring)."""

    def __init__(self, manager: TableManager, code: str, rules: Rules, settings: TableSettings,
                 seats: Sequence[Seat], status: str, created: float, owner: str) -> None:
        super().__init__(manager, code, rules, settings, seats, status, created)
        self.owner = owner
        """The owner's process id."""
        self.info: dict[str, Any] = {}
        """The table's public information as the owner last told it."""
        self.heard = asyncio.get_running_loop().time()
        """When the owner was last heard of (its changes and its heartbeats)."""
        self.catching_up = asyncio.Lock()
        self.created_here = asyncio.get_running_loop().time()
        self.idle_since: float | None = None
        self._events: deque[dict[str, Any]] = deque()
        """The owner's events not delivered yet, in the order it published them."""
        self._delivering: asyncio.Task[None] | None = None

    # ------------------------------------------------------------------ reading

    @property
    def paused(self) -> bool:
        return bool(self.info.get("paused")) and not self.connections

    def seat_online(self, seat: int) -> bool:
        seats = self.info.get("seats") or []
        return bool(self.seats[seat].connections) or (seat < len(seats) and bool(seats[seat].get("online")))

    def public_info(self) -> dict[str, Any]:
        return self.info

    def presence(self) -> tuple[dict[int, int], int]:
        """This process's connections to the table: how many per seat, how many spectators."""
        seats: dict[int, int] = {}
        spectators = 0
        for conn in self.connections:
            if conn.seat is None:
                spectators += 1
            else:
                seats[conn.seat] = seats.get(conn.seat, 0) + 1
        return seats, spectators

    # ------------------------------------------------------------------ connections

    async def attach(self, conn: Connection, token: str | None, name: str | None = None,
                     message_id: Any = None) -> None:
        seat = self.seat_of_token(token) if token else None
        if token and seat is None:  # a seat taken a moment ago, whose news is still on its way: look
            await self.reload_seats()
            seat = self.seat_of_token(token)
        self._admit(conn, seat, token, name, message_id)
        self.idle_since = None
        self.welcome(conn)
        self.broadcast()
        cluster = self.manager.cluster
        if cluster is not None:
            cluster.report_presence(self)

    def detach(self, conn: Connection) -> None:
        conn.close()
        self.connections.discard(conn)
        if conn.seat is not None:
            self.seats[conn.seat].connections.discard(conn)
        if not self.connections:
            self.idle_since = asyncio.get_running_loop().time()
        cluster = self.manager.cluster
        if cluster is not None and not self.closed:
            cluster.report_presence(self)

    def close(self) -> None:
        self.closed = True
        self._events.clear()
        if self._delivering is not None:
            self._delivering.cancel()
        for conn in list(self.connections):
            conn.close()

    # ------------------------------------------------------------------ the owner's changes

    def receive(self, event: dict[str, Any]) -> None:
        """An event the owner published (``update``: a change; ``message``: a message for every
        connection), delivered after every event before it: one queue per table, so a message
        never overtakes the change it follows (a hand's seed would reach a connection still
        shown the hand's last trick unplayed; an update may wait for the database)."""
        self.heard = asyncio.get_running_loop().time()
        self._events.append(event)
        if self._delivering is None or self._delivering.done():
            self._delivering = asyncio.get_running_loop().create_task(self._deliver())

    async def settled(self) -> None:
        """Wait until every event received so far is delivered."""
        while self._delivering is not None and not self._delivering.done():
            await asyncio.shield(self._delivering)

    async def _deliver(self) -> None:
        while self._events and not self.closed:
            event = self._events.popleft()
            try:
                if event.get("t") == "message":
                    self.message(event["message"])
                else:
                    await self.update(event)
            except Exception:  # one bad event must not stop the table's others
                log.exception("table %s: an event of the owner could not be delivered", self.code)

    async def update(self, event: dict[str, Any]) -> None:
        """Apply a change the owner published: new actions (only committed ones), the table's
        information, its seats, settings and status."""
        self.heard = asyncio.get_running_loop().time()
        async with self.catching_up:
            first, actions = int(event.get("from", self.version)), event.get("actions") or []
            if first > self.version:  # a change did not arrive: read what was missed
                await self.catch_up()
            skip = self.version - first
            if 0 <= skip < len(actions):
                self.replay(actions[skip:])
            target = event.get("to")
            if isinstance(target, int) and target > self.version:
                await self.catch_up()
        seats = event.get("seats")
        if isinstance(seats, list):
            self.set_seats([SeatRow(*row) for row in seats])
        if "settings" in event:
            self.settings = TableSettings.from_json(event["settings"])
        if "status" in event:
            self.status = str(event["status"])
        if isinstance(event.get("info"), dict):
            self.info = event["info"]
        self.broadcast()

    async def catch_up(self) -> None:
        """Read from the database what this copy has missed: the committed actions it has not
        seen, and the table's seats, settings and status."""
        found = await asyncio.to_thread(self.store.load_actions, self.code, self.version)
        if found:
            log.info("table %s: caught up %d actions from the database", self.code, len(found))
            self.replay(found)
        row = await asyncio.to_thread(self.store.load_table_row, self.code)
        if row is not None:
            self.status, self.settings = row.status, TableSettings.from_json(row.settings)
        await self.reload_seats()

    async def reload_seats(self) -> None:
        """The seats as stored (the owner writes them before it shows them)."""
        self.set_seats(await asyncio.to_thread(self.store.load_seats, self.code))

    def set_seats(self, rows: Sequence[SeatRow]) -> None:
        for row in rows:
            place = self.seats[row.seat]
            place.kind, place.bot_level, place.name, place.token_hash = row.kind, row.bot, row.name, row.token_hash

    def message(self, message: dict[str, Any]) -> None:
        """A message for every connection that the owner sent to all (chat, reaction, moved)."""
        self.heard = asyncio.get_running_loop().time()
        if message.get("type") == "chat":
            line = ChatLine(int(message["id"]), message.get("seat"), message.get("name"), str(message["text"]),
                            float(message["at"]))
            if not self.chat or line.id > self.chat[-1].id:
                self.chat = [*self.chat[-(CHAT_KEPT - 1):], line]
                self.chat_count = line.id + 1
        for conn in list(self.connections):
            conn.push(message)

    @property
    def playing(self) -> bool:
        return self.status == PLAYING

    # ------------------------------------------------------------------ asking the owner

    async def act(self, conn: Sender, message: ClientMessage) -> None:
        await self._ask(conn, "act", {"data": dict(message.data)}, message.message_id)

    async def say(self, conn: Sender, text: str, message_id: Any = None) -> None:
        await self._ask(conn, "chat", {"text": text}, message_id)

    def react(self, conn: Sender, reaction: str, message_id: Any = None) -> None:
        cluster = self.manager.cluster
        if cluster is not None:
            cluster.spawn(self._ask(conn, "react", {"reaction": reaction}, message_id, answer=False))

    async def start(self, conn: Sender | None, message_id: Any = None) -> None:
        assert conn is not None
        await self._ask(conn, "start", {}, message_id)

    async def back(self, conn: Sender, message_id: Any = None) -> None:
        await self._ask(conn, "back", {}, message_id)

    async def rematch(self, conn: Sender, message_id: Any = None) -> None:
        await self._ask(conn, "rematch", {}, message_id)

    async def contribute(self, conn: Sender, hand: Any, value: Any, message_id: Any = None) -> None:
        await self._ask(conn, "contribute", {"hand": hand, "value": value}, message_id)

    async def full_record(self) -> dict[str, Any]:
        """The record, with the fairness data of the hands whose seeds are revealed (read from
        the database: the owner stores them before it shows anything of them)."""
        record = self.record()
        stored = await asyncio.to_thread(self.store.load_fair, self.code)
        if stored is None:
            return record
        return FairTable.from_json(stored).annotate(record, self.state)

    async def join(self, name: str, seat_wanted: int | None = None) -> tuple[int, str]:
        cluster = self.manager.cluster
        assert cluster is not None
        answer = await cluster.forward(self, {"op": "join", "name": name, "seat": seat_wanted})
        return int(answer["seat"]), str(answer["token"])

    async def _ask(self, conn: Sender, op: str, fields: dict[str, Any], message_id: Any,
                   answer: bool = True) -> None:
        """Forward a connection's request to the owner; its refusal is raised here."""
        cluster = self.manager.cluster
        assert cluster is not None
        await cluster.forward(self, {"op": op, "seat": conn.seat, "language": conn.language, "name": conn.name,
                                     "id": message_id, **fields}, answer=answer)
