"""Live tables: the engine state of each game, its seats, connections, bots and timers.

A :class:`LiveTable` holds the one real :class:`~ohhell.game.State` of a game. Every change
goes the same way, one at a time under the table's lock:

1. check it (the sender holds the seat; the ``version`` it saw is the current one; the
   engine accepts the action — the state is unchanged otherwise);
2. store it durably (:meth:`Store.append_actions` returns once the commit is done; if the
   database refuses, the action is taken back and the sender told);
3. only then tell every connection, each from its own seat's view (spectators from the
   spectator view), and plan what happens next: a bot's move after a human-looking pause,
   the next deal, a turn timer.

Chance is the server's: the cut for the deal, each shuffle and the cut of the pack are drawn
from the operating system's random source and stored like any action, so a table rebuilt
from its log after a restart is exactly the table that stopped.

A seat is ``open`` (waiting for a person), ``human`` or ``bot``. A person who leaves (no
connection for ``leave_grace`` seconds) or whose turn timer runs out is *away*: a stand-in
bot plays for them until they come back (reconnect, act, or press "I'm back").
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import hashlib
import hmac
import logging
import random
import secrets
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from ohhell.actions import Action, action_from_json, action_to_json
from ohhell.bots import Bot, bot_names, make_bot, strongest_bot
from ohhell.bots.base import forward_actions
from ohhell.bots.external import external_bot_options
from ohhell.errors import IllegalActionError, OhHellError
from ohhell.explain import describe_rules
from ohhell.game import Game, Phase, State
from ohhell.i18n import _, level_name
from ohhell.record import record_from_state
from ohhell.rules import Rules
from ohhell.server.config import ServerConfig
from ohhell.server.outbox import Outbox
from ohhell.server.protocol import (
    PROTOCOL,
    Broadcast,
    ClientMessage,
    HandCache,
    ProtocolError,
    StateStream,
    dumps,
    error_message,
    parse_player_action,
)
from ohhell.server.store import SeatRow, Store, StoredTable, StoreError, TableRow
from ohhell.server.texts import speaking
from ohhell.views import SeatView, seat_view, seat_views, spectator_view

log = logging.getLogger("ohhell.server.tables")

CODE_ALPHABET: Final = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
"""Table codes use letters and digits that cannot be mistaken for each other (no I, O, 0, 1)."""
CODE_LENGTH: Final = 6

WAITING: Final = "waiting"
PLAYING: Final = "playing"
FINISHED: Final = "finished"

OPEN: Final = "open"
HUMAN: Final = "human"
BOT: Final = "bot"

MAX_QUEUED_MESSAGES: Final = 500
"""A connection that falls this many messages behind is closed (it reconnects and gets a fresh state)."""


def new_token() -> str:
    """A seat's secret: 192 random bits, URL-safe."""
    return secrets.token_urlsafe(24)


def token_hash(token: str) -> str:
    """What the database keeps of a token (its SHA-256): a stolen database does not give seats away."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def new_code() -> str:
    """A short table code to share (6 characters, about 10⁹ codes)."""
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def normalize_code(code: str) -> str:
    """A table code as typed by a person (spaces, lower case, O for 0…) in canonical form.

    >>> normalize_code(" ab-c 2o1 ")
    'ABC2O1'
    """
    return "".join(ch for ch in code.upper() if ch.isalnum())[:16]


class TokenBucket:
    """At most ``rate`` messages per second on average and ``burst`` at once."""

    def __init__(self, rate: float, burst: float) -> None:
        self.rate, self.burst = rate, burst
        self.tokens = burst
        self.stamp = time.monotonic()

    def take(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


class Connection:
    """One WebSocket client of a table: its seat (``None``: a spectator), its language, what
    it was last told, and the :class:`~ohhell.server.outbox.Outbox` its messages go through."""

    def __init__(self, language: str, config: ServerConfig, outbox: Outbox) -> None:
        self.language = language
        self.seat: int | None = None
        self.table: LiveTable | None = None
        self.stream = StateStream()
        self.outbox = outbox
        self.bucket = TokenBucket(config.rate_per_second, config.rate_burst)
        self.closed = False
        self.hinting = False

    def push(self, message: dict[str, Any] | str) -> None:
        """Send a message after those before it (a slow client that falls far behind is cut off)."""
        if self.closed:
            return
        self.outbox.put(message if isinstance(message, str) else dumps(message))
        if self.outbox.closed:
            self.closed = True

    def close(self) -> None:
        """Stop sending and close the socket (the client's receive loop then ends)."""
        self.closed = True
        self.outbox.close()

    def send_state(self, view: SeatView, shared: Broadcast) -> None:
        """Send what changed in ``view`` (this connection's own) since the last state it was told."""
        message = self.stream.message(view, shared)
        if message is not None:
            self.push(message)


@dataclass
class Seat:
    """A seat of a table."""

    index: int
    kind: str
    bot_level: str | None = None
    name: str | None = None
    token_hash: str | None = None
    connections: set[Connection] = field(default_factory=set)
    away: bool = False
    bot: Bot | None = None
    """The seat's bot (a bot seat), or the stand-in of an away person."""
    last_message_id: Any = None

    def row(self) -> SeatRow:
        return SeatRow(self.index, self.kind, self.bot_level, self.name, self.token_hash)

    @property
    def automated(self) -> bool:
        """Whether a bot acts for this seat now."""
        return self.kind == BOT or (self.kind == HUMAN and self.away)

    def public(self) -> dict[str, Any]:
        return {"kind": self.kind, "name": self.name, "bot": self.bot_level if self.kind == BOT else None,
                "online": bool(self.connections), "away": self.away}


@dataclass(frozen=True)
class TableSettings:
    """What the creator chose besides the rules."""

    timer: float = 0.0
    host: int = 0
    stand_in: str = "random"

    def to_json(self) -> dict[str, Any]:
        return {"timer": self.timer, "host": self.host, "stand_in": self.stand_in}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> TableSettings:
        return cls(float(data.get("timer", 0.0)), int(data.get("host", 0)), str(data.get("stand_in", "random")))


class LiveTable:
    """One table in memory. See the module docstring."""

    def __init__(self, manager: TableManager, code: str, rules: Rules, settings: TableSettings,
                 seats: Sequence[Seat], status: str, created: float) -> None:
        self.manager = manager
        self.config = manager.config
        self.store = manager.store
        self.code = code
        self.rules = rules
        self.settings = settings
        self.seats = list(seats)
        self.status = status
        self.created = created
        self.state: State = Game(rules).new_initial_state()
        self.lock = asyncio.Lock()
        self.hands = HandCache()
        self._info: dict[str, Any] | None = None
        self.connections: set[Connection] = set()
        self.chance = random.SystemRandom()
        self.bot_ready: dict[int, float] = {}
        self.deadline: dict[int, float] = {}
        self.chance_ready: float | None = None
        self._timer: asyncio.TimerHandle | None = None
        self._task: asyncio.Task[None] | None = None
        self._background: set[asyncio.Task[Any]] = set()
        self._extra_pause = 0.0
        self.closed = False

    # ------------------------------------------------------------------ reading

    @property
    def version(self) -> int:
        return len(self.state.history)

    def names(self) -> list[str]:
        """A name for every seat (a bot: its level; an open seat: its number)."""
        out = []
        for seat in self.seats:
            if seat.kind == HUMAN and seat.name:
                out.append(seat.name)
            elif seat.kind == BOT:
                out.append(_("Bot %(n)d (%(level)s)")
                           % {"n": seat.index + 1, "level": level_name(seat.bot_level or "")})
            else:
                out.append(_("Seat %(seat)d") % {"seat": seat.index + 1})
        return out

    def public_info(self) -> dict[str, Any]:
        """What everyone may know about the table itself (not the game)."""
        now = asyncio.get_running_loop().time()
        return {
            "code": self.code,
            "status": self.status,
            "host": self.settings.host,
            "timer": self.settings.timer,
            "seats": [seat.public() for seat in self.seats],
            "deadlines": {str(seat): round(max(0.0, when - now), 1) for seat, when in self.deadline.items()},
            "spectators": sum(1 for conn in self.connections if conn.seat is None),
        }

    def summary(self) -> dict[str, Any]:
        """The table for the lobby and the join page (public)."""
        return {"code": self.code, "status": self.status, "rules": self.rules.to_json(),
                "seats": [seat.public() for seat in self.seats], "timer": self.settings.timer,
                "open_seats": [seat.index for seat in self.seats if seat.kind == OPEN]}

    def seat_of_token(self, token: str) -> int | None:
        digest = token_hash(token)
        for seat in self.seats:
            if seat.token_hash is not None and hmac.compare_digest(seat.token_hash, digest):
                return seat.index
        return None

    def record(self) -> dict[str, Any]:
        """The ``ohhell/1`` record of what everyone may see: the whole game once it is over,
        else the finished hands only (the hand in progress holds cards nobody may see)."""
        state = self.state
        if not state.is_terminal():
            # Rebuild the game up to the shuffle of the hand in progress (undoing a clone would
            # share the live state's undo snapshots).
            history = state.history
            state = Game(self.rules).new_initial_state()
            start = None
            probe = Game(self.rules).new_initial_state()
            for index, action in enumerate(history):
                if probe.phase == Phase.SHUFFLE:
                    start = index
                probe.apply(action)
            if probe.phase == Phase.SHUFFLE:
                start = len(history)
            if start is None:
                raise OhHellError(_("the game has not started yet"))
            for action in history[:start]:
                state.apply(action)
        return record_from_state(state, self.names())

    # ------------------------------------------------------------------ rebuilding

    def replay(self, stored_actions: Sequence[dict[str, Any]]) -> None:
        """Rebuild the state from the stored action log."""
        for data in stored_actions:
            self.state.apply(action_from_json(data))

    # ------------------------------------------------------------------ connections

    async def attach(self, conn: Connection, token: str | None) -> None:
        """Add a connection (with a seat's token, or as a spectator) and send it everything."""
        seat: int | None = None
        if token:
            seat = self.seat_of_token(token)
            if seat is None:
                raise ProtocolError("bad-token")
        if len(self.connections) >= self.config.max_connections_per_table:
            raise ProtocolError("full")
        conn.seat, conn.table = seat, self
        self.connections.add(conn)
        if seat is not None:
            place = self.seats[seat]
            place.connections.add(conn)
            if place.away:
                place.away = False  # back: the stand-in bot steps aside
                self.bot_ready.pop(seat, None)
        with speaking(conn.language):
            rules_text = describe_rules(self.rules)
        conn.push({"type": "welcome", "protocol": PROTOCOL, "table": self.code, "seat": seat,
                   "host": seat is not None and seat == self.settings.host, "rules": self.rules.to_json(),
                   "rules_text": [list(pair) for pair in rules_text], "version": self.version})
        self.replan()
        self.broadcast()

    def detach(self, conn: Connection) -> None:
        """Forget a closed connection; a person with no connection left is away after a grace."""
        conn.close()
        self.connections.discard(conn)
        if conn.seat is not None:
            place = self.seats[conn.seat]
            place.connections.discard(conn)
            if not place.connections:
                self._later(self.config.leave_grace, lambda: self._check_left(place.index))
        if not self.closed:
            self.broadcast()
        self.manager.maybe_unload(self)

    def _check_left(self, seat: int) -> None:
        place = self.seats[seat]
        if place.kind == HUMAN and not place.connections and not place.away and self.status == PLAYING:
            place.away = True
            self.deadline.pop(seat, None)
            self.replan()
            self.broadcast()

    def _later(self, delay: float, callback: Callable[[], None]) -> None:
        loop = asyncio.get_running_loop()
        loop.call_later(max(0.0, delay), lambda: None if self.closed else callback())

    # ------------------------------------------------------------------ telling everyone

    def broadcast(self) -> None:
        """Tell every connection what changed, each from its own seat's view (a spectator
        from the spectator view)."""
        if not self.connections:
            return
        info = self.public_info()
        if info == self._info:
            info = self._info  # the same object: each connection compares it by identity
        self._info = info
        connections = list(self.connections)
        seats = list(dict.fromkeys(conn.seat for conn in connections))
        views = dict(zip(seats, seat_views(self.state, seats), strict=True))
        shared = Broadcast(self.hands, info)
        for conn in connections:
            conn.send_state(views[conn.seat], shared)

    def send_error(self, conn: Connection, error: ProtocolError) -> None:
        conn.push(error_message(error.code, conn.language, error.detail, error.message_id, self.version))

    # ------------------------------------------------------------------ people acting

    async def act(self, conn: Connection, message: ClientMessage) -> None:
        """A seat's bid, play or declaration; a :class:`ProtocolError` leaves everything unchanged."""
        seat = conn.seat
        if seat is None:
            raise ProtocolError("spectator", message_id=message.message_id)
        if self.status == WAITING:
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
            with speaking(conn.language):
                try:
                    self.state.apply(action)
                except IllegalActionError as error:
                    code = "out-of-turn" if error.rule == "not-your-turn" else "illegal"
                    raise ProtocolError(code, str(error), message.message_id) from error
            try:
                await self._store([action])
            except StoreError as error:
                raise ProtocolError("storage", message_id=message.message_id) from error
            place.last_message_id = message.message_id
            if place.away:
                place.away = False
            self.bot_ready.pop(seat, None)
            self.deadline.pop(seat, None)
            await self._changed()

    async def back(self, conn: Connection) -> None:
        """A person says they are back: their stand-in bot stops."""
        if conn.seat is None:
            raise ProtocolError("spectator")
        place = self.seats[conn.seat]
        if place.away:
            place.away = False
            self.bot_ready.pop(conn.seat, None)
            self.replan()
            self.broadcast()

    async def start(self, conn: Connection | None) -> None:
        """Start the game; bots take the open seats. Only the host may (``conn`` ``None``: the server)."""
        if conn is not None and (conn.seat is None or conn.seat != self.settings.host):
            raise ProtocolError("not-host")
        async with self.lock:
            if self.status != WAITING:
                return
            for seat in self.seats:
                if seat.kind == OPEN:
                    seat.kind, seat.bot_level = BOT, self.settings.stand_in
                    await self.store.save_seat(self.code, seat.row())
            self.status = PLAYING
            await self.store.set_status(self.code, PLAYING)
            now = asyncio.get_running_loop().time()
            for seat in self.seats:
                if seat.kind == HUMAN and not seat.connections:
                    self._later(self.config.leave_grace, functools.partial(self._check_left, seat.index))
            self.chance_ready = now
            self.replan()
            self.broadcast()

    async def join(self, name: str, seat_wanted: int | None = None) -> tuple[int, str]:
        """Give an open seat to a person; returns the seat and its secret token."""
        async with self.lock:
            open_seats = [seat for seat in self.seats if seat.kind == OPEN]
            if seat_wanted is not None:
                open_seats = [seat for seat in open_seats if seat.index == seat_wanted]
            if not open_seats or self.status != WAITING:
                raise OhHellError(_("there is no open seat at this table"))
            place = open_seats[0]
            token = new_token()
            previous = (place.kind, place.name, place.token_hash)
            place.kind, place.name, place.token_hash = HUMAN, name, token_hash(token)
            try:
                await self.store.save_seat(self.code, place.row())
            except StoreError:
                place.kind, place.name, place.token_hash = previous
                raise
        if not any(seat.kind == OPEN for seat in self.seats):
            await self.start(None)
        else:
            self.broadcast()
        return place.index, token

    async def history(self, conn: Connection) -> None:
        """Every finished hand with its cards (all played face up, so public)."""
        view = seat_view(self.state, conn.seat) if conn.seat is not None else spectator_view(self.state)
        conn.push({"type": "history", "version": view.version, "names": self.names(),
                   "hands": self.hands.full(view)})

    async def hint(self, conn: Connection, message: ClientMessage) -> None:
        """Ask a bot what it would do in this seat's place."""
        seat = conn.seat
        if seat is None:
            raise ProtocolError("spectator", message_id=message.message_id)
        view = seat_view(self.state, seat)
        if not forward_actions(view) or conn.hinting:
            raise ProtocolError("no-hint", message_id=message.message_id)
        conn.hinting = True
        try:
            bot = self.manager.new_bot(self.manager.hint_level)
            try:
                suggestion = await asyncio.to_thread(bot.suggest, view)
            finally:
                bot.close()
        finally:
            conn.hinting = False
        reply: dict[str, Any] = {"type": "hint", "version": view.version, "action": action_to_json(suggestion.action),
                                 "estimates": {str(k): float(v) for k, v in suggestion.estimates.items()},
                                 "kind": suggestion.kind}
        if message.message_id is not None:
            reply["id"] = message.message_id
        conn.push(reply)

    # ------------------------------------------------------------------ storing and planning

    async def _store(self, applied: list[Action]) -> None:
        """Store the actions just applied to the state; on failure take them back."""
        start = self.version - len(applied)
        try:
            await self.store.append_actions(self.code, [(start + i, action_to_json(action))
                                                        for i, action in enumerate(applied)])
        except StoreError:
            log.exception("table %s: could not store %d actions; taking them back", self.code, len(applied))
            for _action in applied:
                self.state.undo()
            raise

    async def _changed(self) -> None:
        """After an accepted change: finish the game if it is over, tell everyone, plan on."""
        if self.state.is_terminal() and self.status != FINISHED:
            self.status = FINISHED
            self.deadline.clear()
            self.bot_ready.clear()
            with contextlib.suppress(StoreError):
                await self.store.set_status(self.code, FINISHED)
            self._release_bots()
        self.replan()  # first: the turn timer just started is part of what everyone is told
        self.broadcast()

    def _must_act(self) -> list[int]:
        """The seats the game waits for (not a seat that merely may still change its bid)."""
        state = self.state
        if self.status != PLAYING or state.is_chance_node() or state.is_terminal():
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
        if self.status != PLAYING:
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
            self._timer = loop.call_later(max(0.0, min(times) - now), self._wake)

    def _wake(self) -> None:
        self._timer = None
        if self.closed or (self._task is not None and not self._task.done()):
            return
        self._task = asyncio.get_running_loop().create_task(self._step())

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
        if self.status != PLAYING or state.is_terminal():
            return
        if state.is_chance_node():
            if self.chance_ready is not None and now >= self.chance_ready:
                applied: list[Action] = []
                while state.is_chance_node():
                    action = state.sample_chance(self.chance)
                    state.apply(action)
                    applied.append(action)
                self.chance_ready = None
                await self._store(applied)
                await self._changed()
            return
        for seat, when in sorted(self.deadline.items(), key=lambda item: item[1]):
            if when <= now:  # the timer ran out: a bot plays for this person until they are back
                self.seats[seat].away = True
                del self.deadline[seat]
                self.bot_ready[seat] = now
        for seat, when in sorted(self.bot_ready.items(), key=lambda item: item[1]):
            if when <= now and seat in self._must_act() and self.seats[seat].automated:
                del self.bot_ready[seat]
                await self._bot_move(seat)
                return

    async def _bot_move(self, seat: int) -> None:
        view = seat_view(self.state, seat)
        bot = self._bot(seat)
        try:
            if bot.name == "random":  # instant: not worth a thread
                action = bot.choose(view)
            else:
                action = await asyncio.to_thread(bot.choose, view)
        except Exception:  # a broken bot must not stop the game
            log.exception("table %s: the bot of seat %d failed; a random legal move is played", self.code, seat)
            action = random.choice(forward_actions(view))
        try:
            self.state.apply(action)
        except IllegalActionError:
            log.warning("table %s: the bot of seat %d chose an illegal %s; a random legal move is played",
                        self.code, seat, action)
            action = random.choice(forward_actions(view))
            self.state.apply(action)
        await self._store([action])
        await self._changed()

    def _bot(self, seat: int) -> Bot:
        place = self.seats[seat]
        level = place.bot_level if place.kind == BOT and place.bot_level else self.settings.stand_in
        if place.bot is None or getattr(place.bot, "_ohhell_level", None) != level:
            if place.bot is not None:
                place.bot.close()
            place.bot = self.manager.new_bot(level)
            place.bot._ohhell_level = level  # type: ignore[attr-defined]
        return place.bot

    def _release_bots(self) -> None:
        for seat in self.seats:
            if seat.bot is not None:
                with contextlib.suppress(Exception):
                    seat.bot.close()
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


class TableManager:
    """Every live table, by code; creates tables and brings stored ones back."""

    def __init__(self, store: Store, config: ServerConfig) -> None:
        self.store = store
        self.config = config
        self.tables: dict[str, LiveTable] = {}
        installed = bot_names()
        self.levels: list[str] = installed + [name for name in config.bot_commands if name not in installed]
        """The bot levels people may choose: the installed ones and those the operator registered."""
        self.hint_level = config.hint_level or strongest_bot()
        self.stand_in_level = config.stand_in_level or ("basic" if "basic" in installed else "random")
        self._loading: dict[str, asyncio.Future[LiveTable | None]] = {}

    def new_bot(self, level: str) -> Bot:
        """A bot of a level people may choose (an operator's ``cmd:`` bot only by its registered name)."""
        spec = self.config.bot_commands.get(level, level)
        if level not in self.levels:
            raise ValueError(f"bot level {level!r} is not offered by this server")
        options = external_bot_options(spec, timeout=self.config.bot_timeout)
        return make_bot(spec, seed=secrets.randbits(32), **options)

    async def load(self) -> int:
        """Bring back every stored table that is not finished; returns how many."""
        stored = await asyncio.to_thread(self.store.load_tables, [WAITING, PLAYING])
        for item in stored:
            table = self._rebuild(item)
            self.tables[table.code] = table
            if table.status == PLAYING:
                for seat in table.seats:
                    if seat.kind == HUMAN:
                        table._later(self.config.leave_grace, functools.partial(table._check_left, seat.index))
                table.replan()
        return len(stored)

    def _rebuild(self, item: StoredTable) -> LiveTable:
        rules = Rules.from_json(item.row.rules)
        seats = [Seat(row.seat, row.kind, row.bot, row.name, row.token_hash) for row in item.seats]
        table = LiveTable(self, item.id, rules, TableSettings.from_json(item.row.settings), seats, item.row.status,
                          item.row.created)
        table.replay(item.actions)
        if table.state.is_terminal():
            table.status = FINISHED
        return table

    async def get(self, code: str) -> LiveTable | None:
        """The table with this code, from memory or (a finished game) from the database."""
        code = normalize_code(code)
        table = self.tables.get(code)
        if table is not None:
            return table
        if len(code) != CODE_LENGTH:
            return None
        pending = self._loading.get(code)
        if pending is None:
            loop = asyncio.get_running_loop()
            pending = loop.create_future()
            self._loading[code] = pending
            try:
                item = await asyncio.to_thread(self.store.load_table, code)
                found = self._rebuild(item) if item is not None else None
                if found is not None:
                    self.tables[code] = found
                    self.maybe_unload(found)
                pending.set_result(found)
            except Exception as error:
                pending.set_exception(error)
                raise
            finally:
                del self._loading[code]
        return await asyncio.shield(pending)

    async def create(self, rules: Rules, name: str, others: Sequence[str], timer: float,
                     stand_in: str | None = None) -> tuple[LiveTable, str]:
        """A new table: seat 0 is its creator (``name``); ``others`` gives every other seat:
        ``"open"`` for a person to join, or a bot level. Returns the table and the creator's token."""
        if len(others) != rules.players - 1:
            raise OhHellError(_("%(n)d players need %(m)d other seats") % {"n": rules.players, "m": rules.players - 1})
        for level in others:
            if level != OPEN and level not in self.levels:
                raise OhHellError(_("there is no bot called %(name)s here") % {"name": level})
        stand_in = stand_in or self.stand_in_level
        if stand_in not in self.levels:
            raise OhHellError(_("there is no bot called %(name)s here") % {"name": stand_in})
        code = new_code()
        while code in self.tables or await asyncio.to_thread(self.store.table_exists, code):
            code = new_code()
        token = new_token()
        seats = [Seat(0, HUMAN, None, name, token_hash(token))]
        seats += [Seat(i + 1, OPEN) if level == OPEN else Seat(i + 1, BOT, level) for i, level in enumerate(others)]
        settings = TableSettings(timer=timer, host=0, stand_in=stand_in)
        status = WAITING
        created = time.time()
        await self.store.create_table(TableRow(code, created, status, rules.to_json(), settings.to_json()),
                                      [seat.row() for seat in seats])
        table = LiveTable(self, code, rules, settings, seats, status, created)
        self.tables[code] = table
        if not any(seat.kind == OPEN for seat in seats):
            await table.start(None)
        return table, token

    def maybe_unload(self, table: LiveTable) -> None:
        """Drop a finished table nobody watches from memory after a while (it stays stored)."""
        if table.status != FINISHED or table.connections:
            return

        def unload() -> None:
            if table.status == FINISHED and not table.connections and self.tables.get(table.code) is table:
                table.close()
                del self.tables[table.code]

        asyncio.get_running_loop().call_later(self.config.unload_after, unload)

    def close(self) -> None:
        for table in self.tables.values():
            table.close()
