"""Live tables: the engine state of each game, its seats, connections, bots and timers.

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

A seat is ``open`` (waiting for a person), ``human`` or ``bot``. A person who leaves (no
connection for ``leave_grace`` seconds) or whose turn timer runs out is *away*: a stand-in
bot plays for them until they come back (reconnect, act, or press "I'm back").
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import functools
import hashlib
import hmac
import logging
import random
import secrets
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Final, Protocol, TypeVar

from ohhell.actions import Action, action_from_json, action_to_json
from ohhell.bots import Bot, bot_names, make_bot, strongest_bot
from ohhell.bots.base import forward_actions
from ohhell.bots.external import external_bot_options
from ohhell.errors import IllegalActionError, OhHellError
from ohhell.explain import describe_rules
from ohhell.fairness import FairnessError, FairTable
from ohhell.game import Game, Phase, State
from ohhell.i18n import _, level_name
from ohhell.record import record_from_state
from ohhell.rules import Rules
from ohhell.server.config import ServerConfig
from ohhell.server.live.deals import FAIR, DealSource, deal_source
from ohhell.server.metrics import METRICS
from ohhell.server.storage.store import ChatLine, FencedOut, SeatRow, Store, StoredTable, StoreError, TableRow
from ohhell.server.texts import speaking
from ohhell.server.wire.protocol import (
    PROTOCOL,
    ClientMessage,
    ProtocolError,
    dumps,
    error_message,
    parse_player_action,
)
from ohhell.server.wire.stream import Broadcast, HandCache, StateStream
from ohhell.server.ws.outbox import Outbox
from ohhell.views import SeatView, seat_view, seat_views, spectator_view

if TYPE_CHECKING:
    from ohhell.server.cluster.mirror import TableMirror
    from ohhell.server.cluster.node import Cluster

log = logging.getLogger("ohhell.server.live.tables")

T = TypeVar("T")

CODE_ALPHABET: Final = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
"""Table codes use letters and digits that cannot be mistaken for each other (no I, O, 0, 1)."""
CODE_LENGTH: Final = 6

WAITING: Final = "waiting"
PLAYING: Final = "playing"
FINISHED: Final = "finished"

OPEN: Final = "open"
NO_HOST: Final = -1
"""The host of a table nobody may start early (a duplicate event's)."""
HUMAN: Final = "human"
BOT: Final = "bot"

MAX_QUEUED_MESSAGES: Final = 500
"""A connection that falls this many messages behind is closed (it reconnects and gets a fresh state)."""

TIMER_MODES: Final[dict[str, float]] = {"none": 0.0, "relaxed": 60.0, "fast": 15.0}
"""The turn timers a table may choose by name (seconds a turn; 0: no timer)."""
TIMEOUTS_BEFORE_AWAY: Final = 2
"""A person who lets the timer run out this many turns in a row is away: a stand-in plays for
them until they are back. Fewer timeouts only cost the turn (the strong bot plays it)."""
DEALS_RETRY: Final = 3.0
"""Seconds before a table whose deal source is not ready (a duplicate event's table of bots,
before the event has begun) asks it again."""
CHAT_KEPT: Final = 50
"""How many chat lines a table keeps in memory and sends to a new connection."""
MAX_CHAT_LENGTH: Final = 300
REACTIONS: Final = ("👍", "👏", "😮", "😂", "😢", "🔥")
"""The quick reactions people may send."""


def new_token() -> str:
    """A seat's secret: 192 random bits, URL-safe."""
    return secrets.token_urlsafe(24)


def token_hash(token: str) -> str:
    """What the database keeps of a token (its SHA-256): a stolen database does not give seats away."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def new_code() -> str:
    """A short table code to share (6 characters, about 10⁹ codes)."""
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def clean_text(text: str, limit: int) -> str:
    r"""A text a person typed, fit to show: control characters and lone surrogates dropped,
    runs of white space made one space, at most ``limit`` characters.

    >>> clean_text("  hi\x00 there\n\n you\ud800 ", 100)
    'hi there you'
    """
    kept = "".join(ch for ch in text if ch.isprintable() or ch.isspace())
    kept = kept.encode("utf-8", "ignore").decode("utf-8")
    return " ".join(kept.split())[:limit]


def chat_text(text: Any, message_id: Any = None) -> str:
    """A chat line as sent, made fit to show (:func:`clean_text`); :class:`ProtocolError` if
    it is not a text or nothing is left of it."""
    if not isinstance(text, str):
        raise ProtocolError("bad-field", "text", message_id)
    cleaned = clean_text(text, MAX_CHAT_LENGTH)
    if not cleaned:
        raise ProtocolError("bad-field", "text", message_id)
    return cleaned


def check_reaction(reaction: Any, message_id: Any = None) -> str:
    """A reaction as sent, if it is one of :data:`REACTIONS`."""
    if reaction not in REACTIONS:
        raise ProtocolError("bad-field", "reaction", message_id)
    return str(reaction)


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


class Sender(Protocol):
    """Who sends a request to a table: a seat (``None``: a spectator), the language to answer
    in, and a spectator's name. A :class:`Connection` of this process is one; so is a
    connection of another process, whose request the owner receives through the broker."""

    @property
    def seat(self) -> int | None: ...

    @property
    def language(self) -> str: ...

    @property
    def name(self) -> str | None: ...


@dataclass(frozen=True)
class Asker:
    """A :class:`Sender` that is not a connection of this process."""

    seat: int | None
    language: str = "en"
    name: str | None = None


@dataclass
class RemotePresence:
    """The connections another process holds to a table: how many per seat, how many
    spectators, and until when this report holds (it is renewed while they last)."""

    seats: dict[int, int]
    spectators: int
    until: float


class Connection:
    """One WebSocket client of a table: its seat (``None``: a spectator), its language, what
    it was last told, and the :class:`~ohhell.server.ws.outbox.Outbox` its messages go through."""

    def __init__(self, language: str, config: ServerConfig, outbox: Outbox) -> None:
        self.language = language
        self.seat: int | None = None
        self.table: TableRoom | None = None
        self.stream = StateStream()
        self.outbox = outbox
        self.bucket = TokenBucket(config.rate_per_second, config.rate_burst)
        self.chat_bucket = TokenBucket(config.chat_per_second, config.chat_burst)
        self.react_bucket = TokenBucket(1.0, 1.0)
        self.name: str | None = None
        """A spectator's name for the chat (a seat's comes from the seat)."""
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
    timeouts: int = 0
    """Turns in a row this person let the timer run out (see :data:`TIMEOUTS_BEFORE_AWAY`)."""
    fallback: bool = False
    """This seat's bot (an operator's external program) failed in this game, and a built-in
    bot plays in its place (:attr:`ohhell.bots.external.ExternalBot.on_fallback`)."""

    def row(self) -> SeatRow:
        return SeatRow(self.index, self.kind, self.bot_level, self.name, self.token_hash)

    @property
    def automated(self) -> bool:
        """Whether a bot acts for this seat now."""
        return self.kind == BOT or (self.kind == HUMAN and self.away)

    def public(self, online: bool) -> dict[str, Any]:
        return {"kind": self.kind, "name": self.name, "bot": self.bot_level if self.kind == BOT else None,
                "online": online, "away": self.away, "timeouts": self.timeouts, "fallback": self.fallback}


@dataclass(frozen=True)
class TableSettings:
    """What the creator chose besides the rules, and what the table became."""

    timer: float = 0.0
    host: int = 0
    stand_in: str = "random"
    deals: dict[str, Any] = field(default_factory=lambda: {"kind": "random"})
    """The deal source (:func:`ohhell.server.live.deals.deal_source`)."""
    next: str | None = None
    """The code of the rematch, once there is one."""
    extra: dict[str, Any] = field(default_factory=dict)
    """What other parts of the server keep with a table (a rated game, an event's table…)."""

    @property
    def timer_mode(self) -> str:
        """The named timer this is (``custom`` for another number of seconds)."""
        return next((name for name, seconds in TIMER_MODES.items() if seconds == self.timer), "custom")

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"timer": self.timer, "host": self.host, "stand_in": self.stand_in, "deals": self.deals}
        if self.next is not None:
            out["next"] = self.next
        if self.extra:
            out["extra"] = self.extra
        return out

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> TableSettings:
        return cls(float(data.get("timer", 0.0)), int(data.get("host", 0)), str(data.get("stand_in", "random")),
                   dict(data.get("deals") or {"kind": "random"}), data.get("next"), dict(data.get("extra") or {}))


class TableRoom:
    """A table as a process that holds connections to it sees it: the committed game, the
    seats, the chat; what each connection is sent. The owner process has the table itself
    (:class:`LiveTable`), the other processes a copy kept up to date by the owner
    (:class:`ohhell.server.cluster.mirror.TableMirror`)."""

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
        """The game as committed to the database: nothing else is ever shown."""
        self.hands = HandCache()
        self._info: dict[str, Any] | None = None
        self.connections: set[Connection] = set()
        """This process's connections to the table."""
        self.chat: list[ChatLine] = []
        """The last :data:`CHAT_KEPT` lines of the chat (all stored)."""
        self.chat_count = 0
        """How many chat lines the table has had (the next line's id)."""
        self.closed = False

    @property
    def paused(self) -> bool:
        """Whether the game waits because nobody is connected to it."""
        raise NotImplementedError

    def public_info(self) -> dict[str, Any]:
        """What everyone may know about the table itself (not the game)."""
        raise NotImplementedError

    def seat_online(self, seat: int) -> bool:
        """Whether the seat's person has a connection (to any process)."""
        raise NotImplementedError

    async def attach(self, conn: Connection, token: str | None, name: str | None = None,
                     message_id: Any = None) -> None:
        raise NotImplementedError

    def detach(self, conn: Connection) -> None:
        raise NotImplementedError

    def close(self) -> None:
        raise NotImplementedError

    # What a connection may ask: the owner does it, a mirror asks the owner.

    async def act(self, conn: Sender, message: ClientMessage) -> None:
        raise NotImplementedError

    async def say(self, conn: Sender, text: str, message_id: Any = None) -> None:
        raise NotImplementedError

    def react(self, conn: Sender, reaction: str, message_id: Any = None) -> None:
        raise NotImplementedError

    async def start(self, conn: Sender | None, message_id: Any = None) -> None:
        raise NotImplementedError

    async def back(self, conn: Sender, message_id: Any = None) -> None:
        raise NotImplementedError

    async def rematch(self, conn: Sender, message_id: Any = None) -> None:
        raise NotImplementedError

    async def join(self, name: str, seat_wanted: int | None = None) -> tuple[int, str]:
        raise NotImplementedError

    async def contribute(self, conn: Sender, hand: Any, value: Any, message_id: Any = None) -> None:
        raise NotImplementedError

    async def full_record(self) -> dict[str, Any]:
        """The ``ohhell/1`` record (:meth:`record`) with the fairness data of the revealed hands."""
        raise NotImplementedError

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

    def summary(self) -> dict[str, Any]:
        """The table for the lobby and the join page (public)."""
        return {"code": self.code, "status": self.status, "version": self.version, "rules": self.rules.to_json(),
                "seats": [seat.public(self.seat_online(seat.index)) for seat in self.seats],
                "timer": self.settings.timer,
                "timer_mode": self.settings.timer_mode, "names": self.names(),
                "open_seats": [seat.index for seat in self.seats if seat.kind == OPEN],
                "paused": self.paused, "game_over": self.state.is_terminal(), "next": self.settings.next}

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

    # ------------------------------------------------------------------ telling everyone

    def broadcast(self) -> None:
        """Tell every connection what changed, each from its own seat's view (a spectator
        from the spectator view)."""
        info = self.public_info()
        if info == self._info:
            info = self._info  # the same object: each connection compares it by identity
        self._info = info
        if not self.connections:
            return
        connections = list(self.connections)
        seats = list(dict.fromkeys(conn.seat for conn in connections))
        views = dict(zip(seats, seat_views(self.state, seats), strict=True))
        shared = Broadcast(self.hands, info)
        for conn in connections:
            conn.send_state(views[conn.seat], shared)

    def _admit(self, conn: Connection, seat: int | None, token: str | None, name: str | None,
               message_id: Any) -> int | None:
        """Let a connection in (``seat``: the seat its ``token`` holds, ``None`` for a spectator),
        or refuse it: a token that holds no seat, or a table with too many connections."""
        if token and seat is None:
            raise ProtocolError("bad-token", message_id=message_id)
        if len(self.connections) >= self.config.max_connections_per_table:
            raise ProtocolError("full", message_id=message_id)
        conn.seat, conn.table = seat, self
        conn.name = name if seat is None else None
        self.connections.add(conn)
        if seat is not None:
            self.seats[seat].connections.add(conn)
        return seat

    def welcome(self, conn: Connection) -> None:
        """The first message of a connection that said hello: who it is, the rules, the recent chat."""
        with speaking(conn.language):
            rules_text = describe_rules(self.rules)
        seat = conn.seat
        message = {"type": "welcome", "protocol": PROTOCOL, "table": self.code, "seat": seat,
                   "host": seat is not None and seat == self.settings.host, "rules": self.rules.to_json(),
                   "rules_text": [list(pair) for pair in rules_text], "version": self.version,
                   "chat": [line.to_json() for line in self.chat], "reactions": list(REACTIONS)}
        cluster = self.manager.cluster
        if cluster is not None:  # which process answers (several processes behind a balancer)
            message["server"] = cluster.broker.process
        conn.push(message)

    def send_error(self, conn: Connection, error: ProtocolError) -> None:
        conn.push(error_message(error.code, conn.language, error.detail, error.message_id, self.version))

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


class LiveTable(TableRoom):
    """One table, in its owner process. See the module docstring."""

    def __init__(self, manager: TableManager, code: str, rules: Rules, settings: TableSettings,
                 seats: Sequence[Seat], status: str, created: float, fence: int | None = None) -> None:
        super().__init__(manager, code, rules, settings, seats, status, created)
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

    # ------------------------------------------------------------------ reading

    @property
    def paused(self) -> bool:
        """A game nobody is connected to (in any process) waits, bots included, until someone
        comes back: bots playing for nobody would only spend the server's time. (Not a table whose
        settings' ``extra`` says ``unattended``: a duplicate event's table of bots, whose results
        the event's people wait for.)"""
        return self.status == PLAYING and not self.connections and not any(
            presence.seats or presence.spectators for presence in self.remote.values()) \
            and not self.settings.extra.get("unattended")

    def seat_online(self, seat: int) -> bool:
        if self.seats[seat].connections:
            return True
        return any(presence.seats.get(seat) for presence in self.remote.values())

    def public_info(self) -> dict[str, Any]:
        """What everyone may know about the table itself (not the game)."""
        now = asyncio.get_running_loop().time()
        spectators = sum(1 for conn in self.connections if conn.seat is None)
        spectators += sum(presence.spectators for presence in self.remote.values())
        return {
            "code": self.code,
            "status": self.status,
            "host": self.settings.host,
            "timer": self.settings.timer,
            "timer_mode": self.settings.timer_mode,
            "seats": [seat.public(self.seat_online(seat.index)) for seat in self.seats],
            "deadlines": {str(seat): round(max(0.0, when - now), 1) for seat, when in self.deadline.items()},
            "spectators": spectators,
            "paused": self.paused,
            "next": self.settings.next,
            "fair": self.fair_public,
        }

    def broadcast(self) -> None:
        """Tell this process's connections what changed, and the other processes that hold
        connections of the table (each tells its own, from each one's own view)."""
        super().broadcast()
        cluster = self.manager.cluster
        if cluster is not None and self.remote:
            cluster.publish_update(self, self._info)

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

    async def attach(self, conn: Connection, token: str | None, name: str | None = None,
                     message_id: Any = None) -> None:
        """Add a connection (with a seat's token, or as a spectator called ``name``) and send it
        everything: the welcome with the recent chat, then the whole state."""
        seat = self._admit(conn, self.seat_of_token(token) if token else None, token, name, message_id)
        if seat is not None:
            self._back(seat)
        self.welcome(conn)
        self.replan()  # someone is here: a paused game goes on
        self.broadcast()

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
            self.replan()  # nobody left: the game pauses
            self.broadcast()
        self.manager.maybe_unload(self)

    def _check_left(self, seat: int) -> None:
        place = self.seats[seat]
        if place.kind == HUMAN and not self.seat_online(seat) and not place.away and self.status == PLAYING:
            place.away = True
            self.deadline.pop(seat, None)
            self.replan()
            self.broadcast()

    def _later(self, delay: float, callback: Callable[[], None]) -> None:
        loop = asyncio.get_running_loop()
        loop.call_later(max(0.0, delay), lambda: None if self.closed else callback())

    # ------------------------------------------------------------------ people acting

    async def act(self, conn: Sender, message: ClientMessage) -> None:
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
                    self._check([action])
                except IllegalActionError as error:
                    code = "out-of-turn" if error.rule == "not-your-turn" else "illegal"
                    raise ProtocolError(code, str(error), message.message_id) from error
            try:
                await self._commit([action])
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
            if self.status != WAITING:
                return
            filled = [SeatRow(seat.index, BOT, self.settings.stand_in, None, None)
                      for seat in self.seats if seat.kind == OPEN]
            await self._write(self.store.save_table(self.code, filled, status=PLAYING, fence=self.fence))
            for row in filled:  # saved: now it may be shown
                self.seats[row.seat].kind, self.seats[row.seat].bot_level = BOT, row.bot
            self.status = PLAYING
            now = asyncio.get_running_loop().time()
            for seat in self.seats:
                if seat.kind == HUMAN and not self.seat_online(seat.index):
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
            row = SeatRow(place.index, HUMAN, None, name, token_hash(token))
            await self._write(self.store.save_seat(self.code, row, fence=self.fence))
            place.kind, place.name, place.token_hash = row.kind, row.name, row.token_hash  # saved: now shown
        if not any(seat.kind == OPEN for seat in self.seats):
            await self.start(None)
        else:
            self.broadcast()
        return place.index, token

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
        text = dumps(message)
        for other in list(self.connections):
            other.push(text)
        cluster = self.manager.cluster
        if cluster is not None and self.remote:
            cluster.publish(self, {"t": "message", "message": message})

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
            self.manager.let_go(self)

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
                successor = await self.manager.create_rematch(self)
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
        if self.state.is_terminal() and self.status != FINISHED:
            # The game is over once its last action is committed; the status only mirrors it.
            self.status = FINISHED
            self.deadline.clear()
            self.bot_ready.clear()
            with contextlib.suppress(StoreError):
                await self._write(self.store.set_status(self.code, FINISHED, fence=self.fence))
            self._release_bots()
            self.manager.finished(self)
        self.replan()  # first: the turn timer just started is part of what everyone is told
        self.broadcast()
        self._reveal()

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
        if self.status != PLAYING or self.paused:
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
                    await self._bot_move(seat, self.manager.hint_level)
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
            absent = {seat.index: "bot" for seat in self.seats if seat.kind == BOT}
            absent.update({seat.index: "away" for seat in self.seats
                           if seat.kind == HUMAN and (seat.away or not self.seat_online(seat.index))})
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
        bot = self._bot(seat) if level is None else self.manager.new_bot(level)
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
        level = place.bot_level if place.kind == BOT and place.bot_level else self.settings.stand_in
        if place.bot is None or getattr(place.bot, "_ohhell_level", None) != level:
            if place.bot is not None:
                place.bot.close()
            place.bot = self.manager.new_bot(level)
            place.bot._ohhell_level = level  # type: ignore[attr-defined]
            if hasattr(place.bot, "on_fallback"):  # an external program: say so when it fails
                loop = asyncio.get_running_loop()
                place.bot.on_fallback = lambda _incident: loop.call_soon_threadsafe(self._fell_back, seat)
        return place.bot

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
        self._loading: dict[str, asyncio.Future[TableRoom | None]] = {}
        self.cluster: Cluster | None = None
        """This process's part in a site of several processes (``--broker``), else ``None``."""
        self.mirrors: dict[str, TableMirror] = {}
        """The tables other processes own that this one holds connections to."""
        self.look_guards: list[Callable[[TableRoom], Awaitable[str | None]]] = []
        """Asked before anyone but the table's own seats looks at it (a spectator's hello, the
        record, the verdicts, the analysis): a reason (translated) why not yet, or ``None``. A
        duplicate event's table is private until the event is over (its cards are still to be
        played at the other tables)."""
        self.record_annotators: list[Callable[[TableRoom, dict[str, Any]], Awaitable[dict[str, Any]]]] = []
        """Asked, once :attr:`look_guards` let a reader look, to add to a table's record what only
        another part knows (a duplicate event's deals: its seed and contributions pool)."""
        self.on_finished: list[Callable[[LiveTable], Any]] = []
        """Called with each table whose game has just ended (its last action committed): rate
        it, score it for an event… A coroutine function's call runs as a task of its own."""
        self._listening: set[asyncio.Task[Any]] = set()

    def new_bot(self, level: str) -> Bot:
        """A bot of a level people may choose (an operator's ``cmd:`` bot only by its registered name)."""
        spec = self.config.bot_commands.get(level, level)
        if level not in self.levels:
            raise ValueError(f"bot level {level!r} is not offered by this server")
        options = external_bot_options(spec, timeout=self.config.bot_timeout)
        return make_bot(spec, seed=secrets.randbits(32), **options)

    async def load(self) -> int:
        """Bring back every stored table that is not finished; returns how many. (With several
        processes, a table is brought back by the first process someone asks it of.)"""
        if self.cluster is not None:
            return 0
        stored = await asyncio.to_thread(self.store.load_tables, [WAITING, PLAYING])
        for item in stored:
            table = self.rebuild(item)
            if table.status == FINISHED:
                # Stopped between the last action's commit and the status's: the status mirrors
                # the game (a duplicate event's embargo lifts on it).
                await self.store.set_status(table.code, FINISHED)
            self.tables[table.code] = table
            if table.status == PLAYING:
                for seat in table.seats:
                    if seat.kind == HUMAN:
                        table._later(self.config.leave_grace, functools.partial(table._check_left, seat.index))
                table.replan()
        return len(stored)

    def finished(self, table: LiveTable) -> None:
        """Tell the :attr:`on_finished` listeners that ``table``'s game is over (a failing
        listener is logged; the game is over all the same)."""
        for listener in self.on_finished:
            try:
                result = listener(table)
                if asyncio.iscoroutine(result):
                    task = asyncio.get_running_loop().create_task(result)
                    self._listening.add(task)
                    task.add_done_callback(self._listener_done)
            except Exception:
                log.exception("table %s: a listener of finished games failed", table.code)

    def _listener_done(self, task: asyncio.Task[Any]) -> None:
        self._listening.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("a listener of finished games failed", exc_info=task.exception())

    @staticmethod
    def rules_of(item: StoredTable) -> Rules:
        return Rules.from_json(item.row.rules)

    def rebuild(self, item: StoredTable, fence: int | None = None) -> LiveTable:
        """The table as stored, owned by this process (with ``fence``: its fencing token)."""
        seats = [Seat(row.seat, row.kind, row.bot, row.name, row.token_hash) for row in item.seats]
        table = LiveTable(self, item.id, self.rules_of(item), TableSettings.from_json(item.row.settings), seats,
                          item.row.status, item.row.created, fence)
        table.replay(item.actions)
        if table.fair is not None and item.fair is not None:
            table.fair = FairTable.from_json(item.fair)
            table.fair_revealed = len(table.state.finished_hands)
        table.chat = item.chat[-CHAT_KEPT:]
        table.chat_count = table.chat[-1].id + 1 if table.chat else 0
        if table.state.is_terminal():
            table.status = FINISHED
        return table

    async def get(self, code: str) -> TableRoom | None:
        """The table with this code, from memory or (a finished game) from the database; with
        several processes, owned here or a mirror of its owner's."""
        code = normalize_code(code)
        table: TableRoom | None = self.tables.get(code) or self.mirrors.get(code)
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
                found: TableRoom | None
                if self.cluster is not None:
                    found = await self.cluster.open(code)
                else:
                    item = await asyncio.to_thread(self.store.load_table, code)
                    found = self.rebuild(item) if item is not None else None
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
                     stand_in: str | None = None, deals: dict[str, Any] | None = None,
                     extra: dict[str, Any] | None = None) -> tuple[LiveTable, str]:
        """A new table: seat 0 is its creator (``name``); ``others`` gives every other seat:
        ``"open"`` for a person to join, or a bot level. ``deals`` names its deal source
        (:func:`ohhell.server.live.deals.deal_source`; default: random), ``extra`` what other parts
        of the server keep with it. Returns the table and the creator's token."""
        if len(others) != rules.players - 1:
            raise OhHellError(_("%(n)d players need %(m)d other seats") % {"n": rules.players, "m": rules.players - 1})
        try:
            deal_source(deals)
        except (ValueError, KeyError, TypeError) as error:
            raise OhHellError(str(error)) from error
        for level in others:
            if level != OPEN and level not in self.levels:
                raise OhHellError(_("there is no bot called %(name)s here") % {"name": level})
        stand_in = stand_in or self.stand_in_level
        if stand_in not in self.levels:
            raise OhHellError(_("there is no bot called %(name)s here") % {"name": stand_in})
        token = new_token()
        seats = [Seat(0, HUMAN, None, name, token_hash(token))]
        seats += [Seat(i + 1, OPEN) if level == OPEN else Seat(i + 1, BOT, level) for i, level in enumerate(others)]
        settings = TableSettings(timer=timer, host=0, stand_in=stand_in, deals=dict(deals or {"kind": FAIR}),
                                 extra=dict(extra or {}))
        table = await self._new_table(rules, settings, seats)
        return table, token

    async def create_seated(self, rules: Rules, seats: Sequence[str], timer: float, stand_in: str | None = None,
                            deals: dict[str, Any] | None = None, extra: dict[str, Any] | None = None) -> LiveTable:
        """A new table with no creator and no host (a duplicate event's table): ``seats`` gives
        every seat, ``"open"`` for a person to join or a bot level; it starts when its last open
        seat is taken, and nobody can start it earlier (that would hand people's seats to bots)."""
        if len(seats) != rules.players:
            raise OhHellError(_("%(n)d players need %(m)d other seats") % {"n": rules.players, "m": rules.players - 1})
        try:
            deal_source(deals)
        except (ValueError, KeyError, TypeError) as error:
            raise OhHellError(str(error)) from error
        stand_in = stand_in or self.stand_in_level
        for level in [*seats, stand_in]:
            if level != OPEN and level not in self.levels:
                raise OhHellError(_("there is no bot called %(name)s here") % {"name": level})
        places = [Seat(i, OPEN) if level == OPEN else Seat(i, BOT, level) for i, level in enumerate(seats)]
        settings = TableSettings(timer=timer, host=NO_HOST, stand_in=stand_in, deals=dict(deals or {"kind": "random"}),
                                 extra=dict(extra or {}))
        return await self._new_table(rules, settings, places)

    async def _new_table(self, rules: Rules, settings: TableSettings, seats: list[Seat]) -> LiveTable:
        """Store a new table with these seats and bring it to life (started if no seat is open)."""
        code = new_code()
        while code in self.tables or await asyncio.to_thread(self.store.table_exists, code):
            code = new_code()
        status = WAITING
        created = time.time()
        await self.store.create_table(TableRow(code, created, status, rules.to_json(), settings.to_json()),
                                      [seat.row() for seat in seats])
        fence = None
        if self.cluster is not None:  # a new table belongs to the process that made it
            if not await self.cluster.broker.acquire(code):
                raise StoreError(f"table {code}: its lease is taken")
            fence = await self.store.take_fence(code)
        table = LiveTable(self, code, rules, settings, seats, status, created, fence)
        self.tables[code] = table
        if not any(seat.kind == OPEN for seat in seats):
            await table.start(None)
        return table

    async def create_rematch(self, table: LiveTable) -> str:
        """A new game with ``table``'s rules, settings and seats (people keep their tokens);
        returns its code."""
        seats = [Seat(seat.index, seat.kind, seat.bot_level, seat.name, seat.token_hash) for seat in table.seats]
        deals = table.settings.deals if table.settings.deals.get("kind") in ("random", FAIR) else {"kind": FAIR}
        settings = dataclasses.replace(table.settings, next=None, deals=deals)
        successor = await self._new_table(table.rules, settings, seats)
        return successor.code

    def maybe_unload(self, table: LiveTable) -> None:
        """Drop a table nobody is connected to from memory after a while — a finished game, or
        one that everybody left (it is paused: nothing would happen at it anyway). It stays
        stored, and comes back as it was the next time someone asks for it."""
        if not self._idle(table):
            return

        def unload() -> None:
            if self._idle(table) and self.tables.get(table.code) is table:
                log.info("table %s: nobody came back; unloaded (it stays stored)", table.code)
                self.let_go(table)

        asyncio.get_running_loop().call_later(self.config.unload_after, unload)

    @staticmethod
    def _idle(table: LiveTable) -> bool:
        nobody = not table.connections and not any(p.seats or p.spectators for p in table.remote.values())
        if table.status == PLAYING and table.settings.extra.get("unattended"):
            return False  # it plays on with nobody there (a duplicate event's table of bots)
        return nobody and table.status in (FINISHED, PLAYING)

    async def record_of(self, table: TableRoom) -> dict[str, Any]:
        """The table's record as a reader may see it (after :meth:`why_private`): with the
        fairness of its revealed hands, its own and what :attr:`record_annotators` add."""
        record = await table.full_record()
        for annotate in self.record_annotators:
            record = await annotate(table, record)
        return record

    async def why_private(self, table: TableRoom) -> str | None:
        """Why nobody but the table's seats may look at it now (:attr:`look_guards`), or ``None``."""
        for guard in self.look_guards:
            reason = await guard(table)
            if reason is not None:
                return reason
        return None

    def let_go(self, table: LiveTable) -> None:
        """Stop running ``table`` in this process: unloaded, or owned by another process now.
        Its connections are closed (they reconnect to wherever it is run)."""
        table.close()
        if self.tables.get(table.code) is table:
            del self.tables[table.code]
            if self.cluster is not None:
                self.cluster.let_go(table)

    def connection_count(self) -> int:
        return sum(len(table.connections) for table in [*self.tables.values(), *self.mirrors.values()])

    def close(self) -> None:
        for table in self.tables.values():
            table.close()
        for mirror in self.mirrors.values():
            mirror.close()
