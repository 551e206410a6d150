"""A table in its owner process: the engine state of its game, its seats, bots and timers.

A :class:`LiveTable` holds the one real :class:`~ohhell.game.State` of a game. Every change
goes the same way, one at a time under the table's lock:

1. check it (the sender holds the seat; the ``version`` it saw is the current one; the
   engine accepts the action — tried on the state and taken back at once, before anything
   else can run);
2. store it durably (:meth:`Store.append_actions` returns once the commit is done; if the
   database refuses, nothing changed and the sender is told);
3. only then apply it to the table's state, tell every connection, each from its own seat's
   view (spectators from the spectator view), and plan what happens next: a bot's move after
   a human-looking pause, the next deal, a turn timer.

**Nothing is shown before it is saved**, by construction rather than path by path: the
table's :attr:`LiveTable.state`, its seats and its status only ever hold what the database
has committed (:meth:`LiveTable._commit` is the one way an action enters the state; seats and
status are written before they change in memory). So every reader — a new spectator's hello,
a reconnection, the history, a hint, the HTTP summary and record — shows a committed version,
whatever write is waiting for the database at that moment.

Chance is the server's: the cut for the deal, each shuffle and the cut of the pack are drawn
from the operating system's random source and stored like any action, so a table rebuilt
from its log after a restart is exactly the table that stopped.

Seats and who is away: :mod:`ohhell.server.live.seats`. With several processes, every other
process that holds connections to the table keeps a copy (:class:`~ohhell.server.live.room.TableRoom`),
told of each committed change through :class:`~ohhell.server.live.peers.Peers`.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import dataclasses
import functools
import logging
import random
import time
from collections.abc import Callable, Sequence
from typing import Any, Final, Protocol, TypeVar

from ohhell.actions import Action, action_to_json
from ohhell.bots import Bot
from ohhell.bots.base import forward_actions
from ohhell.errors import IllegalActionError, OhHellError
from ohhell.fairness import FairnessError, FairTable
from ohhell.game import Phase
from ohhell.i18n import _
from ohhell.rules import Rules
from ohhell.server.live.chat import CHAT_KEPT
from ohhell.server.live.deals import FAIR, DealSource, deal_source
from ohhell.server.live.peers import Peers
from ohhell.server.live.room import Site, TableRoom
from ohhell.server.live.seats import (
    TIMEOUTS_BEFORE_AWAY,
    PlacedBot,
    RemotePresence,
    Seat,
    SeatChange,
    TableSettings,
    new_token,
    token_hash,
)
from ohhell.server.live.subscriber import Sender, Subscriber
from ohhell.server.metrics import METRICS
from ohhell.server.storage.kinds import SeatKind, TableStatus
from ohhell.server.storage.store import ChatLine, FencedOut, SeatRow, StoreError
from ohhell.server.texts import speaking
from ohhell.server.wire.protocol import ClientMessage, ProtocolError, encode, parse_player_action
from ohhell.views import SeatView, seat_view

log = logging.getLogger("ohhell.server.live.owner")

T = TypeVar("T")

DEALS_RETRY: Final = 3.0
"""Seconds before a table whose deal source is not ready (a duplicate event's table of bots,
before the event has begun) asks it again."""


class OwnerSite(Site, Protocol):
    """What an owned table needs of the process that runs it (the table manager is one)."""

    @property
    def peers(self) -> Peers: ...

    def finished(self, table: LiveTable) -> None:
        """The table's game has just ended (its last action committed)."""

    async def create_rematch(self, table: LiveTable) -> str:
        """A new game with the table's rules, settings and seats; its code."""

    def let_go(self, table: LiveTable) -> None:
        """Stop running the table in this process."""

    def maybe_unload(self, table: LiveTable) -> None:
        """Drop the table from memory after a while if nobody is connected to it."""

    def turn_waits(self, table: LiveTable, seat: int, away: bool) -> None:
        """The turn has reached ``seat``, a person's with no connection to the table (``away``: a
        stand-in plays for them): tell them wherever else they may hear (Web Push). Must not block."""


class LiveTable(TableRoom):
    """One table, in its owner process. See the module docstring."""

    def __init__(self, site: OwnerSite, code: str, rules: Rules, settings: TableSettings,
                 seats: Sequence[Seat], status: TableStatus, created: float, fence: int | None = None) -> None:
        super().__init__(site, code, rules, settings, seats, status, created)
        self.site: OwnerSite = site
        self.fence = fence
        """This process's fencing token for the table (several processes), checked by every write."""
        self.lock = asyncio.Lock()
        """Held by every change of the game or the table: changes happen one at a time."""
        self.chat_lock = asyncio.Lock()
        self.deals: DealSource = deal_source(settings.deals)
        self.fair: FairTable | None = FairTable(code, rules.players) if settings.deals.get("kind") == FAIR else None
        """The table's provably fair deals (its secrets are stored, never shown before the reveal)."""
        self.fair_public: dict[str, Any] | None = None
        """The hand whose commitment is out, the commitment, and whether contributions are still
        taken (``open``), for every connection (one that arrives late contributes from this)."""
        self.fair_revealed = 0
        """How many finished hands' seeds have been revealed to the connections."""
        self.remote: dict[str, RemotePresence] = {}
        """The connections other processes hold, by process (several processes)."""
        self.bot_ready: dict[int, float] = {}
        self.deadline: dict[int, float] = {}
        self.chance_ready: float | None = None
        self._timer: asyncio.TimerHandle | None = None
        self._task: asyncio.Task[None] | None = None
        self._told_turns: set[int] = set()
        """The seats whose current turn was told to their absent person (:meth:`_tell_absent_turns`)."""
        self._told_away: set[int] = set()
        """The away seats told once that a stand-in plays for them (until they are back)."""
        self._info_made_of: tuple[tuple[Any, ...], dict[str, Any]] | None = None
        """What the last :meth:`public_info` was made of, and what it made."""

    # ------------------------------------------------------------------ reading

    @property
    def paused(self) -> bool:
        """A game nobody is connected to (in any process) waits, bots included, until someone
        comes back: bots playing for nobody would only spend the server's time. (Not a table whose
        settings' ``extra`` says ``unattended``: a duplicate event's table of bots, whose results
        the event's people wait for.)"""
        return self.status == TableStatus.PLAYING and not self.connections and not any(
            presence.seats or presence.spectators for presence in self.remote.values()) \
            and not self.settings.extra.get("unattended")

    def seat_online(self, seat: int) -> bool:
        if self.seats[seat].connections:
            return True
        return any(presence.seats.get(seat) for presence in self.remote.values())

    def public_info(self) -> dict[str, Any]:
        """What everyone may know about the table itself (not the game): the very object of the
        last call while nothing of it has changed."""
        spectators = sum(1 for conn in self.connections if conn.seat is None)
        spectators += sum(presence.spectators for presence in self.remote.values())
        deadlines = self.deadline
        if deadlines:
            now = asyncio.get_running_loop().time()
            shown = tuple((str(seat), round(max(0.0, when - now), 1)) for seat, when in deadlines.items())
        else:
            shown = ()
        # Built after every action for every broadcast, yet it changes only now and then: what
        # it is made of, in a flat tuple, is cheaper to build and compare than the message.
        made_of = (self.status, self.settings, spectators, self.paused, self.fair_public, shown,
                   *((seat.kind, seat.name, seat.bot_level, self.seat_online(seat.index), seat.away, seat.timeouts,
                      seat.fallback) for seat in self.seats))
        cached = self._info_made_of
        if cached is not None and cached[0] == made_of:
            return cached[1]
        settings = self.settings
        info = {
            "code": self.code,
            "status": self.status,
            "host": settings.host,
            "timer": settings.timer,
            "timer_mode": settings.timer_mode,
            "seats": [seat.public(self.seat_online(seat.index)) for seat in self.seats],
            "deadlines": dict(shown),
            "spectators": spectators,
            "paused": self.paused,
            "next": settings.next,
            "fair": self.fair_public,
            "promised": self.promises(),
        }
        self._info_made_of = (made_of, info)
        return info

    def broadcast(self) -> None:
        """Tell this process's connections what changed, and the other processes that hold
        connections of the table (each tells its own, from each one's own view)."""
        super().broadcast()
        if self.remote and self._info is not None:
            self.site.peers.changed(self, self._info)

    # ------------------------------------------------------------------ rebuilding

    def _draw_chance(self) -> list[Action]:
        """The chance actions from the current state to the next decision (the deal source's),
        tried on the state and taken back at once."""
        state = self.state
        drawn: list[Action] = []
        try:
            while state.is_chance_node():
                action = self.deals.draw(state)
                state.apply(action)
                drawn.append(action)
        finally:
            for _undone in drawn:
                state.undo()
        return drawn

    # ------------------------------------------------------------------ connections

    async def attach(self, conn: Subscriber, token: str | None, name: str | None = None,
                     message_id: Any = None) -> None:
        """Add a connection (with a seat's token, or as a spectator called ``name``) and send it
        everything: the welcome with the recent chat, then the whole state."""
        seat = self._admit(conn, self.seat_of_token(token) if token else None, token, name, message_id)
        if seat is not None:
            self._back(seat)
        self.welcome(conn)
        self.replan()  # someone is here: a paused game goes on
        self.broadcast()

    def adopt(self, conn: Subscriber) -> None:
        super().adopt(conn)
        if conn.seat is not None:
            self._back(conn.seat)

    def _back(self, seat: int) -> None:
        """The seat's person has a connection again: their stand-in bot steps aside."""
        place = self.seats[seat]
        if place.away:
            place.away = False
            self.bot_ready.pop(seat, None)

    def presence(self, process: str, seats: dict[int, int], spectators: int, until: float,
                 watching: bool = True) -> None:
        """Another process reports its connections to this table; ``watching`` false: it no
        longer keeps a copy of the table (while it does, every change is published to it)."""
        before = self.remote.get(process)
        if not watching:
            self.remote.pop(process, None)
        else:
            self.remote[process] = RemotePresence(seats, spectators, until)
        changed = before is None or before.seats != seats or before.spectators != spectators
        if not changed:
            return
        for seat, count in seats.items():
            if count and 0 <= seat < len(self.seats):
                self._back(seat)
        for seat in (before.seats if before is not None else {}):
            if not self.seat_online(seat):
                self._later(self.config.leave_grace, functools.partial(self._check_left, seat))
        self.replan()
        self.broadcast()

    def expire_presence(self, now: float) -> None:
        """Forget the reports of processes that stopped renewing them (a process that died)."""
        for process, presence in list(self.remote.items()):
            if presence.until < now:
                self.presence(process, {}, 0, 0.0, watching=False)

    def detach(self, conn: Subscriber) -> None:
        """Forget a closed connection; a person with no connection left is away after a grace."""
        conn.close()
        self.connections.discard(conn)
        self.newcomers.pop(conn, None)
        if conn.seat is not None:
            place = self.seats[conn.seat]
            place.connections.discard(conn)
            if not place.connections:
                self._later(self.config.leave_grace, lambda: self._check_left(place.index))
        if not self.closed:
            self.replan()  # nobody left: the game pauses
            self.broadcast()
        self.site.maybe_unload(self)

    def _check_left(self, seat: int) -> None:
        place = self.seats[seat]
        if (place.kind == SeatKind.HUMAN and not self.seat_online(seat) and not place.away
                and self.status == TableStatus.PLAYING):
            place.away = True
            self.deadline.pop(seat, None)
            self.replan()
            self.broadcast()

    def _later(self, delay: float, callback: Callable[[], None]) -> None:
        loop = asyncio.get_running_loop()
        loop.call_later(max(0.0, delay), lambda: None if self.closed else callback(), context=contextvars.Context())

    # ------------------------------------------------------------------ people acting

    async def act(self, conn: Sender, message: ClientMessage) -> None:
        """A seat's bid, play or declaration; a :class:`ProtocolError` leaves everything unchanged."""
        seat = conn.seat
        if seat is None:
            raise ProtocolError("spectator", message_id=message.message_id)
        if self.status == TableStatus.WAITING:
            raise ProtocolError("not-started", message_id=message.message_id)
        action = parse_player_action(message.data["action"], seat, message.message_id)
        place = self.seats[seat]
        async with self.lock:
            if message.message_id is not None and message.message_id == place.last_message_id:
                raise ProtocolError("duplicate", message_id=message.message_id)
            if self.state.is_terminal():
                raise ProtocolError("game-over", message_id=message.message_id)
            if message.version != self.version:
                raise ProtocolError("stale", message_id=message.message_id)
            try:
                await self._commit([action])
            except IllegalActionError:
                # Checked again for the refusal's words, in the player's language: a refusal is
                # rare, and the language scope costs a little on every accepted action.
                with speaking(conn.language):
                    try:
                        self._check([action])
                    except IllegalActionError as error:
                        code = "out-of-turn" if error.rule == "not-your-turn" else "illegal"
                        raise ProtocolError(code, str(error), message.message_id) from error
                raise
            except StoreError as error:
                self._fenced(error)
                raise ProtocolError("storage", message_id=message.message_id) from error
            place.last_message_id = message.message_id
            place.timeouts = 0
            if place.away:
                place.away = False
            self.bot_ready.pop(seat, None)
            self.deadline.pop(seat, None)
            await self._changed()

    async def back(self, conn: Sender, message_id: Any = None) -> None:
        """A person says they are back: their stand-in bot stops."""
        if conn.seat is None:
            raise ProtocolError("spectator", message_id=message_id)
        place = self.seats[conn.seat]
        place.timeouts = 0
        if place.away:
            place.away = False
            self.bot_ready.pop(conn.seat, None)
        self.replan()
        self.broadcast()

    async def start(self, conn: Sender | None, message_id: Any = None) -> None:
        """Start the game; bots take the open seats. Only the host may (``conn`` ``None``: the server)."""
        if conn is not None and (conn.seat is None or conn.seat != self.settings.host):
            raise ProtocolError("not-host", message_id=message_id)
        async with self.lock:
            if self.status != TableStatus.WAITING:
                return
            filled = [SeatRow(seat.index, SeatKind.BOT, self.settings.stand_in, None, None)
                      for seat in self.seats if seat.kind == SeatKind.OPEN]
            await self._write(self.store.save_table(self.code, filled, status=TableStatus.PLAYING, fence=self.fence))
            for row in filled:  # saved: now it may be shown
                self.seats[row.seat].kind, self.seats[row.seat].bot_level = SeatKind.BOT, row.bot
            self.status = TableStatus.PLAYING
            now = asyncio.get_running_loop().time()
            for seat in self.seats:
                if seat.kind == SeatKind.HUMAN and not self.seat_online(seat.index):
                    self._later(self.config.leave_grace, functools.partial(self._check_left, seat.index))
            self.chance_ready = now
            self.replan()
            self.broadcast()

    async def join(self, name: str, seat_wanted: int | None = None) -> tuple[int, str]:
        """Give an open seat to a person; returns the seat and its secret token."""
        async with self.lock:
            open_seats = [seat for seat in self.seats if seat.kind == SeatKind.OPEN]
            if seat_wanted is not None:
                open_seats = [seat for seat in open_seats if seat.index == seat_wanted]
            if not open_seats or self.status != TableStatus.WAITING:
                raise OhHellError(_("there is no open seat at this table"))
            place = open_seats[0]
            token = new_token()
            row = SeatRow(place.index, SeatKind.HUMAN, None, name, token_hash(token))
            await self._write(self.store.save_seat(self.code, row, fence=self.fence))
            place.set_row(row)  # saved: now shown
        if not any(seat.kind == SeatKind.OPEN for seat in self.seats):
            await self.start(None)
        else:
            self.broadcast()
        return place.index, token

    async def take_bot_seat(self, name: str) -> tuple[int, str]:
        """Promise a latecomer the first bot's seat not promised yet; it is theirs at the start of
        the next hand (at once if no hand is being played now). Stored before it is shown."""
        async with self.lock:
            state = self.state
            promised = {change.seat for change in self.settings.promised()}
            free = [seat for seat in self.seats if seat.kind == SeatKind.BOT and seat.index not in promised]
            length = self.rules.schedule_length()
            next_hand = len(state.finished_hands) + (0 if state.is_chance_node() else 1)
            if not self.settings.latecomers or self.status != TableStatus.PLAYING or state.is_terminal():
                raise OhHellError(_("this table does not take people after its game began"))
            if not free or (length is not None and next_hand >= length):
                raise OhHellError(_("there is no bot's seat to take at this table"))
            place = free[0]
            token = new_token()
            change = SeatChange(place.index, name, place.bot_level or self.settings.stand_in, None, token_hash(token))
            settings = dataclasses.replace(self.settings, seat_changes=(*self.settings.seat_changes, change))
            await self._write(self.store.set_status(self.code, self.status, settings.to_json(), fence=self.fence))
            self.settings = settings  # saved: now it may be shown
            if state.is_chance_node():  # between hands: the seat is theirs now
                await self._seat_latecomers()
            self.replan()
            self.broadcast()
        return place.index, token

    async def _seat_latecomers(self) -> None:
        """Between two hands: every seat promised to a latecomer becomes theirs (its bot has
        finished its last hand), seats and settings in one write, then shown. Their connections,
        which watched until now, are closed: they come back with the token and sit down."""
        hand = len(self.state.finished_hands)
        rows: list[SeatRow] = []
        changes: list[SeatChange] = []
        for change in self.settings.seat_changes:
            if change.hand is None and self.seats[change.seat].kind == SeatKind.BOT:
                rows.append(SeatRow(change.seat, SeatKind.HUMAN, None, change.name, change.token_hash))
                changes.append(dataclasses.replace(change, hand=hand, token_hash=None))
            else:
                changes.append(change)
        if not rows:
            return
        settings = dataclasses.replace(self.settings, seat_changes=tuple(changes))
        await self._write(self.store.save_table(self.code, rows, settings=settings.to_json(), fence=self.fence))
        for row in rows:  # saved: now shown
            place = self.seats[row.seat]
            if place.bot is not None:
                with contextlib.suppress(Exception):
                    place.bot.bot.close()
                place.bot = None
            place.set_row(row)
            place.away, place.timeouts, place.fallback = False, 0, False
            self.bot_ready.pop(row.seat, None)
            self._later(self.config.leave_grace, functools.partial(self._check_left, row.seat))
            log.info("table %s: seat %d is %s's from hand %d", self.code, row.seat, row.name, hand + 1)
        self.settings = settings
        self.seat_newcomers()

    async def say(self, conn: Sender, text: str, message_id: Any = None) -> None:
        """A chat line (already cleaned: :func:`chat_text`) from a seat or a spectator: stored,
        then shown to everyone at the table."""
        name = self.names()[conn.seat] if conn.seat is not None else conn.name
        async with self.chat_lock:
            line = ChatLine(self.chat_count, conn.seat, name, text, time.time())
            try:
                await self._write(self.store.add_chat(self.code, line, fence=self.fence))
            except StoreError as error:
                raise ProtocolError("storage", message_id=message_id) from error
            self.chat_count += 1
            self.chat = [*self.chat[-(CHAT_KEPT - 1):], line]
        self.tell({"type": "chat", **line.to_json()})

    def react(self, conn: Sender, reaction: str, message_id: Any = None) -> None:
        """A quick reaction (checked: :data:`REACTIONS`), shown to everyone at once (not stored:
        it is over in a second)."""
        name = self.names()[conn.seat] if conn.seat is not None else conn.name
        self.tell({"type": "reaction", "seat": conn.seat, "name": name, "reaction": reaction})

    def tell(self, message: dict[str, Any]) -> None:
        """Send a message to every connection of the table, in this process and the others."""
        data = encode(message)
        for other in list(self.connections):
            other.push(data)
        if self.remote:
            self.site.peers.told(self, message)

    async def _write(self, write: asyncio.Future[T]) -> T:
        """Wait for a write of this table; a :class:`FencedOut` lets the table go."""
        try:
            return await write
        except StoreError as error:
            self._fenced(error)
            raise

    def _fenced(self, error: StoreError) -> None:
        """Another process has taken this table (its fencing token is newer): let it go."""
        if isinstance(error, FencedOut) and not self.closed:
            log.warning("table %s: another process owns it now; letting it go", self.code)
            self.site.let_go(self)

    async def rematch(self, conn: Sender, message_id: Any = None) -> None:
        """The host asks for a new game at this table once this one is over: the same rules,
        seats, bots and timer, each person keeping their seat and token. Every connection is
        told to move to the new game (whose code an old link also leads to)."""
        if conn.seat is None or conn.seat != self.settings.host:
            raise ProtocolError("not-host", message_id=message_id)
        async with self.lock:
            if not self.state.is_terminal():
                raise ProtocolError("not-over", message_id=message_id)
            if self.settings.next is None:
                successor = await self.site.create_rematch(self)
                settings = dataclasses.replace(self.settings, next=successor)
                await self._write(self.store.set_status(self.code, self.status, settings.to_json(), fence=self.fence))
                self.settings = settings  # saved: now it may be shown
        self.broadcast()
        self.tell({"type": "moved", "table": self.settings.next})

    # ------------------------------------------------------------------ storing and planning

    def _check(self, actions: Sequence[Action]) -> None:
        """Raise :class:`IllegalActionError` unless the engine accepts ``actions`` in order from
        the current state. They are applied and taken back at once: no other task runs in
        between, so nobody ever sees them."""
        state = self.state
        applied = 0
        try:
            for action in actions:
                state.apply(action)
                applied += 1
        finally:
            for _undone in range(applied):
                state.undo()

    async def _commit(self, actions: Sequence[Action]) -> None:
        """The one way an action enters the table's state: check it, store it durably, and
        only then apply it. Called under :attr:`lock` (writers take turns), so the state the
        actions were checked against is still the state when the commit returns. On a
        :class:`StoreError` nothing has changed."""
        self._check(actions)
        start = self.version
        began = time.perf_counter()
        try:
            await self.store.append_actions(self.code, [(start + i, action_to_json(action))
                                                        for i, action in enumerate(actions)], fence=self.fence)
        except StoreError as error:
            if not isinstance(error, FencedOut):
                log.exception("table %s: could not store %d actions; nothing changed", self.code, len(actions))
            self._fenced(error)
            raise
        assert self.version == start, "the state changed while its next action was being stored"
        for action in actions:
            self.state.apply(action)
        METRICS.commit.observe(time.perf_counter() - began)
        METRICS.actions.inc(len(actions))

    async def _changed(self) -> None:
        """After an accepted change: finish the game if it is over, tell everyone, plan on."""
        if self.state.is_terminal() and self.status != TableStatus.FINISHED:
            # The game is over once its last action is committed; the status only mirrors it.
            self.status = TableStatus.FINISHED
            self.deadline.clear()
            self.bot_ready.clear()
            with contextlib.suppress(StoreError):
                await self._write(self.store.set_status(self.code, TableStatus.FINISHED, fence=self.fence))
            self._release_bots()
            self.site.finished(self)
        elif self.state.is_chance_node() and self.settings.promised() and self.status == TableStatus.PLAYING:
            try:  # a hand is over: the latecomers take their seats before the next is dealt
                await self._seat_latecomers()
            except StoreError:  # not saved: they take them at the next chance (their bots play on)
                log.warning("table %s: could not seat the latecomers; trying again at the next deal", self.code)
        self.replan()  # first: the turn timer just started is part of what everyone is told
        self.broadcast()
        self._reveal()
        self._tell_absent_turns()

    def _tell_absent_turns(self) -> None:
        """The turns that have just reached a person with no connection to the table: tell each
        once (:meth:`OwnerSite.turn_waits`); an away person only at their first turn while away."""
        pending = set(self._must_act())
        self._told_turns &= pending
        for seat in sorted(pending - self._told_turns):
            self._told_turns.add(seat)
            place = self.seats[seat]
            if place.kind != SeatKind.HUMAN:
                continue
            if self.seat_online(seat):  # their page is open: it tells them itself
                self._told_away.discard(seat)
                continue
            if not place.away:
                self._told_away.discard(seat)
            elif seat in self._told_away:
                continue
            else:
                self._told_away.add(seat)
            try:
                self.site.turn_waits(self, seat, place.away)
            except Exception:  # telling must never fail the action that made the turn
                log.exception("table %s: telling seat %d of its turn failed", self.code, seat)

    def _must_act(self) -> list[int]:
        """The seats the game waits for (not a seat that merely may still change its bid)."""
        state = self.state
        if self.status != TableStatus.PLAYING or state.is_chance_node() or state.is_terminal():
            return []
        if state.turn is not None:
            return [state.turn]
        return list(state.actors())

    def replan(self) -> None:
        """Work out when the next automatic step is due (a bot, the deal, a timer) and wake then."""
        if self.closed:
            return
        loop = asyncio.get_running_loop()
        now = loop.time()
        state = self.state
        config = self.config
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        if self.status != TableStatus.PLAYING or self.paused:
            self.bot_ready.clear()
            self.deadline.clear()
            self.chance_ready = None
            return
        if state.is_chance_node():
            if self.chance_ready is None:
                self.chance_ready = now + (config.hand_pause if state.finished_hands else 0.0)
        else:
            self.chance_ready = None
        pending = set(self._must_act())
        for seat in list(self.bot_ready):
            if seat not in pending or not self.seats[seat].automated:
                del self.bot_ready[seat]
        for seat in list(self.deadline):
            if seat not in pending or self.seats[seat].automated:
                del self.deadline[seat]
        trick_done: bool | None = None  # worked out only if a bot or a timer is to be planned
        for seat in pending:
            automated = self.seats[seat].automated
            if automated:
                if seat in self.bot_ready:
                    continue
            elif self.settings.timer <= 0 or seat in self.deadline:
                continue
            if trick_done is None:
                trick_done = (state.phase == Phase.PLAYING and not state.current_trick()
                              and bool(state.completed_tricks()))
            pause = config.trick_pause if trick_done else 0.0
            if automated:
                jitter = config.bot_delay * config.bot_jitter * (2 * random.random() - 1)
                self.bot_ready[seat] = now + max(0.0, config.bot_delay + jitter) + pause
            else:
                self.deadline[seat] = now + self.settings.timer + pause
        times = list(self.bot_ready.values()) + list(self.deadline.values())
        if self.chance_ready is not None:
            times.append(self.chance_ready)
        if times:
            # In a context of its own: a timer set while answering a request must not take that
            # request's language (a context variable) into the table's later steps.
            self._timer = loop.call_later(max(0.0, min(times) - now), self._wake, context=contextvars.Context())

    def _wake(self) -> None:
        self._timer = None
        if self.closed or (self._task is not None and not self._task.done()):
            return
        self._task = asyncio.get_running_loop().create_task(self._step(), context=contextvars.Context())

    async def _step(self) -> None:
        """Do whatever automatic step is due: deal, a bot's move, a timer that ran out."""
        try:
            async with self.lock:
                await self._step_locked()
        except Exception:  # a failing step must not kill the table
            log.exception("table %s: an automatic step failed", self.code)
            self._later(1.0, self.replan)
            return
        if not self.closed:
            self.replan()

    async def _step_locked(self) -> None:
        loop = asyncio.get_running_loop()
        now = loop.time()
        state = self.state
        if self.status != TableStatus.PLAYING or state.is_terminal():
            return
        if state.is_chance_node():
            if self.chance_ready is not None and now >= self.chance_ready:
                if self.fair is not None:
                    await self._fair_deal(now)
                    return
                if not await self.deals.ready(self.store):  # a source that must prepare first (an event's pool)
                    self.chance_ready = now + DEALS_RETRY  # the event has not begun: ask again later
                    return
                drawn = self._draw_chance()
                self.chance_ready = None
                await self._commit(drawn)
                await self._changed()
            return
        for seat, when in sorted(self.deadline.items(), key=lambda item: item[1]):
            if when <= now and seat in self._must_act():
                # The timer ran out: the strongest bot plays this turn for the person; after
                # TIMEOUTS_BEFORE_AWAY turns in a row a stand-in plays until they are back.
                del self.deadline[seat]
                place = self.seats[seat]
                place.timeouts += 1
                if place.timeouts >= TIMEOUTS_BEFORE_AWAY:
                    place.away = True
                    self.bot_ready[seat] = now
                else:
                    await self._bot_move(seat, self.site.hint_level)
                    return
        for seat, when in sorted(self.bot_ready.items(), key=lambda item: item[1]):
            if when <= now and seat in self._must_act() and self.seats[seat].automated:
                del self.bot_ready[seat]
                await self._bot_move(seat)
                return

    async def _fair_deal(self, now: float) -> None:
        """Deal a hand the provably fair way: first publish the commitment to a fresh seed
        (stored before it is shown) and give the seated people a moment to send their
        contributions; then deal from the seed and the contributions."""
        fair = self.fair
        assert fair is not None
        state = self.state
        hand = state.hand_index
        if self.fair_public is None or self.fair_public["hand"] != hand:
            absent = {seat.index: "bot" for seat in self.seats if seat.kind == SeatKind.BOT}
            absent.update({seat.index: "away" for seat in self.seats
                           if seat.kind == SeatKind.HUMAN and (seat.away or not self.seat_online(seat.index))})
            commitment = fair.open_hand(state, absent)
            await self._write(self.store.save_fair(self.code, fair.to_json(), fence=self.fence))
            window = self.config.fair_window if fair.waiting() else 0.0
            self.fair_public = {"hand": hand, "commitment": commitment, "open": True}
            self.tell({"type": "fair", "hand": hand, "commitment": commitment, "deadline": window,
                       "waiting": list(fair.waiting())})
            self.broadcast()
            if window > 0:
                self.chance_ready = now + window
                return
        actions = fair.deal(state)
        await self._write(self.store.save_fair(self.code, fair.to_json(), fence=self.fence))
        self.fair_public = {"hand": hand, "commitment": self.fair_public["commitment"], "open": False}
        self.chance_ready = None
        await self._commit(actions)
        await self._changed()

    async def contribute(self, conn: Sender, hand: Any, value: Any, message_id: Any = None) -> None:
        """A seated person's contribution to the next deal (see :meth:`_fair_deal`)."""
        if conn.seat is None:
            raise ProtocolError("spectator", message_id=message_id)
        fair = self.fair
        if fair is None or self.fair_public is None:
            raise ProtocolError("no-deal-open", message_id=message_id)
        if not isinstance(hand, int) or isinstance(hand, bool) or hand != self.fair_public["hand"]:
            raise ProtocolError("bad-field", "hand", message_id)
        try:
            fair.contribute(conn.seat, value, hand)
        except FairnessError as error:
            code = "too-late" if error.kind == "closed" else "bad-contribution"
            raise ProtocolError(code, str(error), message_id) from error
        if not fair.waiting():  # everyone is in: deal now
            self.chance_ready = asyncio.get_running_loop().time()
            self.replan()

    def _reveal(self) -> None:
        """Send the seed of every hand just finished (its cards are all played: nothing to hide)."""
        fair = self.fair
        finished = len(self.state.finished_hands)
        if fair is None or self.fair_revealed >= finished:
            return
        for hand in range(self.fair_revealed, finished):
            with contextlib.suppress(FairnessError):  # a hand dealt before fairness (an old table)
                self.tell({"type": "fair", "hand": hand, "reveal": fair.entry(hand, self.state).to_json()})
        self.fair_revealed = finished

    async def full_record(self) -> dict[str, Any]:
        """The record, with every revealed hand's fairness data."""
        record = self.record()
        return self.fair.annotate(record, self.state) if self.fair is not None else record

    async def _bot_move(self, seat: int, level: str | None = None) -> None:
        """A bot's move for ``seat``: the seat's own bot or stand-in, or a bot of ``level``
        playing this one turn (a person's timer ran out)."""
        view = seat_view(self.state, seat)
        bot = self._bot(seat) if level is None else self.site.new_bot(level)
        try:
            await self._bot_act(seat, bot, view)
        finally:
            if level is not None:
                bot.close()

    async def _bot_act(self, seat: int, bot: Bot, view: SeatView) -> None:
        try:
            if bot.name == "random":  # instant: not worth a thread
                action = bot.choose(view)
            else:
                action = await asyncio.to_thread(bot.choose, view)
        except Exception:  # a broken bot must not stop the game
            log.exception("table %s: the bot of seat %d failed; a random legal move is played", self.code, seat)
            action = random.choice(forward_actions(view))
        try:
            self._check([action])
        except IllegalActionError:
            log.warning("table %s: the bot of seat %d chose an illegal %s; a random legal move is played",
                        self.code, seat, action)
            action = random.choice(forward_actions(view))
        await self._commit([action])
        await self._changed()

    def _bot(self, seat: int) -> Bot:
        place = self.seats[seat]
        level = place.bot_level if place.kind == SeatKind.BOT and place.bot_level else self.settings.stand_in
        if place.bot is None or place.bot.level != level:
            if place.bot is not None:
                place.bot.bot.close()
            bot = self.site.new_bot(level)
            place.bot = PlacedBot(level, bot)
            if hasattr(bot, "on_fallback"):  # an external program: say so when it fails
                loop = asyncio.get_running_loop()
                bot.on_fallback = lambda _incident: loop.call_soon_threadsafe(self._fell_back, seat)
        return place.bot.bot

    def _fell_back(self, seat: int) -> None:
        """The external bot of ``seat`` failed: a built-in bot plays on; everyone is told (the
        seat's ``fallback`` in the table's information)."""
        log.warning("table %s: the bot of seat %d failed; a built-in bot plays in its place", self.code, seat)
        self.seats[seat].fallback = True
        if not self.closed:
            self.broadcast()

    def _release_bots(self) -> None:
        for seat in self.seats:
            if seat.bot is not None:
                with contextlib.suppress(Exception):
                    seat.bot.bot.close()
                seat.bot = None

    def close(self) -> None:
        """Stop timers and bots (the server is stopping, or the table is unloaded)."""
        self.closed = True
        if self._timer is not None:
            self._timer.cancel()
        if self._task is not None:
            self._task.cancel()
        self._release_bots()
        for conn in list(self.connections):
            conn.close()
