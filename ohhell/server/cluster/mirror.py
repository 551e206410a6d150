"""A table whose owner is another server process: the copy this process keeps for its own
connections.

With several processes (``ohhell serve --broker``), a player may reach any of them. The process
that owns a table (:class:`~ohhell.server.live.owner.LiveTable`) alone changes it; every other
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
from collections.abc import Coroutine, Sequence
from typing import Any, Protocol

from ohhell.fairness import FairTable
from ohhell.i18n import current_language
from ohhell.rules import Rules
from ohhell.server.cluster.messages import Answer, Command, Joined, Told, Update
from ohhell.server.live.chat import CHAT_KEPT
from ohhell.server.live.room import Site, TableRoom
from ohhell.server.live.seats import Seat, TableSettings
from ohhell.server.live.subscriber import Sender, Subscriber
from ohhell.server.storage.kinds import TableStatus
from ohhell.server.storage.store import ChatLine, SeatRow
from ohhell.server.wire.protocol import ClientMessage

log = logging.getLogger("ohhell.server.cluster.mirror")


class Forwarder(Protocol):
    """What a copy needs to reach its table's owner (:class:`ohhell.server.cluster.node.Cluster`)."""

    async def forward(self, mirror: TableMirror, command: Command) -> Answer:
        """Send a connection's request to the owner; its answer (a refusal is raised)."""

    def report_presence(self, mirror: TableMirror, watching: bool = True) -> None:
        """Tell the owner how many connections this process holds to the table."""

    def spawn(self, coroutine: Coroutine[Any, Any, Any]) -> None:
        """Run ``coroutine`` as a task of the cluster's (its failure is logged)."""


class TableMirror(TableRoom):
    """A table owned by another process (see the module docstring)."""

    def __init__(self, site: Site, forwarder: Forwarder, code: str, rules: Rules, settings: TableSettings,
                 seats: Sequence[Seat], status: TableStatus, created: float, owner: str) -> None:
        super().__init__(site, code, rules, settings, seats, status, created)
        self.forwarder = forwarder
        self.owner = owner
        """The owner's process id."""
        self.info: dict[str, Any] = {}
        """The table's public information as the owner last told it."""
        self.heard = asyncio.get_running_loop().time()
        """When the owner was last heard of (its changes and its heartbeats)."""
        self.catching_up = asyncio.Lock()
        self.created_here = asyncio.get_running_loop().time()
        self.idle_since: float | None = None
        self._events: deque[Update | Told] = deque()
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

    async def attach(self, conn: Subscriber, token: str | None, name: str | None = None,
                     message_id: Any = None) -> None:
        # First what the database has committed: this seat may have been shown it already by the
        # owner (or by a copy of another process) whose changes are still on their way here, and
        # a connection must never be shown a version older than one it saw.
        async with self.catching_up:
            await self.catch_up()
        if self.closed:  # given up meanwhile (its owner let the table go, or it is owned here now):
            conn.close()  # the connection comes back and finds the table where it is
            return
        seat = self.seat_of_token(token) if token else None
        self._admit(conn, seat, token, name, message_id)
        self.idle_since = None
        self.welcome(conn)
        self.broadcast()
        self.forwarder.report_presence(self)

    def detach(self, conn: Subscriber) -> None:
        conn.close()
        self.connections.discard(conn)
        self.newcomers.pop(conn, None)
        if conn.seat is not None:
            self.seats[conn.seat].connections.discard(conn)
        if not self.connections:
            self.idle_since = asyncio.get_running_loop().time()
        if not self.closed:
            self.forwarder.report_presence(self)

    def give_up_connections(self) -> list[Subscriber]:
        """Close this copy but not its connections, and return them (for the table owned here
        now: :meth:`~ohhell.server.live.room.TableRoom.adopt`)."""
        connections = list(self.connections)
        self.connections.clear()
        for seat in self.seats:
            seat.connections.clear()
        self.close()
        return connections

    def close(self) -> None:
        self.closed = True
        self._events.clear()
        if self._delivering is not None:
            self._delivering.cancel()
        for conn in list(self.connections):
            conn.close()

    # ------------------------------------------------------------------ the owner's changes

    def receive(self, event: Update | Told) -> None:
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
                if isinstance(event, Told):
                    self.message(event.message)
                else:
                    await self.update(event)
            except Exception:  # one bad event must not stop the table's others
                log.exception("table %s: an event of the owner could not be delivered", self.code)

    async def update(self, event: Update) -> None:
        """Apply a change the owner published: new actions (only committed ones), the table's
        information, its seats, settings and status."""
        self.heard = asyncio.get_running_loop().time()
        async with self.catching_up:
            first = event.first if event.first is not None else self.version
            actions = event.actions
            if first > self.version:  # a change did not arrive: read what was missed
                await self.catch_up()
            skip = self.version - first
            if 0 <= skip < len(actions):
                self.replay(actions[skip:])
            if event.to is not None and event.to > self.version:
                await self.catch_up()
        if event.seats is not None:
            self.set_seats(event.seats)
        if event.settings is not None:
            self.settings = TableSettings.from_json(event.settings)
        if event.status is not None:
            self.status = TableStatus(event.status)
        if event.info is not None:
            self.info = event.info
        self.seat_newcomers()  # a latecomer's seat is theirs now: they reconnect to it
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
            self.status, self.settings = TableStatus(row.status), TableSettings.from_json(row.settings)
        await self.reload_seats()
        self.seat_newcomers()

    async def reload_seats(self) -> None:
        """The seats as stored (the owner writes them before it shows them)."""
        self.set_seats(await asyncio.to_thread(self.store.load_seats, self.code))

    def set_seats(self, rows: Sequence[SeatRow]) -> None:
        for row in rows:
            self.seats[row.seat].set_row(row)

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
        return self.status == TableStatus.PLAYING

    # ------------------------------------------------------------------ asking the owner

    async def act(self, conn: Sender, message: ClientMessage) -> None:
        await self._ask(conn, "act", dict(message.data), message.message_id)

    async def say(self, conn: Sender, text: str, message_id: Any = None) -> None:
        await self._ask(conn, "chat", {"text": text}, message_id)

    def react(self, conn: Sender, reaction: str, message_id: Any = None) -> None:
        self.forwarder.spawn(self._ask(conn, "react", {"reaction": reaction}, message_id))

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
        answer = await self.forwarder.forward(self, Command(self.code, "join", None, "en", None, None,
                                                            {"name": name, "seat": seat_wanted}))
        assert isinstance(answer, Joined), answer
        return answer.seat, answer.token

    async def take_bot_seat(self, name: str) -> tuple[int, str]:
        command = Command(self.code, "latecomer", None, current_language(), None, None, {"name": name})
        answer = await self.forwarder.forward(self, command)
        assert isinstance(answer, Joined), answer
        return answer.seat, answer.token

    async def _ask(self, conn: Sender, op: str, data: dict[str, Any], message_id: Any) -> None:
        """Forward a connection's request to the owner; its refusal is raised here."""
        await self.forwarder.forward(self, Command(self.code, op, conn.seat, conn.language, conn.name, message_id,
                                                   data))
