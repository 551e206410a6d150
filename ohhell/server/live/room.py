"""A table as a process that holds connections to it sees it: the committed game, the seats,
the chat, and what each connection is told.

The owner process of a table runs the table itself (:class:`~ohhell.server.live.owner.LiveTable`);
with several processes, the others keep a copy its owner keeps up to date
(:class:`ohhell.server.cluster.mirror.TableMirror`). Both are a :class:`TableRoom`: what they
share is here, what they do differently (act, or ask the owner) is abstract.
"""

from __future__ import annotations

import abc
import asyncio
import hmac
from collections.abc import Sequence
from typing import Any, Protocol

from ohhell.actions import action_to_json
from ohhell.bots import Bot
from ohhell.bots.base import forward_actions
from ohhell.explain import describe_rules
from ohhell.game import Game, State
from ohhell.i18n import _, level_name
from ohhell.record import apply_log, public_record
from ohhell.rules import Rules
from ohhell.server.config import ServerConfig
from ohhell.server.live.chat import REACTIONS
from ohhell.server.live.seats import Seat, TableSettings, token_hash
from ohhell.server.live.subscriber import Sender, Subscriber
from ohhell.server.storage.kinds import SeatKind, TableStatus
from ohhell.server.storage.store import ChatLine, Store
from ohhell.server.texts import speaking
from ohhell.server.wire.protocol import PROTOCOL, ClientMessage, ProtocolError, error_message
from ohhell.server.wire.stream import Broadcast, HandCache
from ohhell.views import seat_view, seat_views, spectator_view

__all__ = ["Site", "Subscriber", "TableRoom", "bot_name"]


def bot_name(seat: int, level: str) -> str:
    """How a bot's seat is named (at the table, in the record)."""
    return _("Bot %(n)d (%(level)s)") % {"n": seat + 1, "level": level_name(level)}


class Site(Protocol):
    """What a table needs of the process it lives in (the table manager is one)."""

    @property
    def config(self) -> ServerConfig: ...

    @property
    def store(self) -> Store: ...

    @property
    def process(self) -> str | None:
        """This process's id among several (``None``: the only one)."""

    @property
    def hint_level(self) -> str: ...

    def new_bot(self, level: str) -> Bot: ...


class TableRoom(abc.ABC):
    """A table as a process that holds connections to it sees it (see the module docstring)."""

    def __init__(self, site: Site, code: str, rules: Rules, settings: TableSettings,
                 seats: Sequence[Seat], status: TableStatus, created: float) -> None:
        self.site = site
        self.config = site.config
        self.store = site.store
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
        self.connections: set[Subscriber] = set()
        """This process's connections to the table."""
        self.chat: list[ChatLine] = []
        """The last :data:`~ohhell.server.live.chat.CHAT_KEPT` lines of the chat (all stored)."""
        self.chat_count = 0
        """How many chat lines the table has had (the next line's id)."""
        self.closed = False
        self.newcomers: dict[Subscriber, int] = {}
        """This process's connections of latecomers promised a bot's seat (:meth:`promised_seat`):
        they watch until the seat is theirs, then are closed, and reconnect to it."""

    @property
    @abc.abstractmethod
    def paused(self) -> bool:
        """Whether the game waits because nobody is connected to it."""

    @abc.abstractmethod
    def public_info(self) -> dict[str, Any]:
        """What everyone may know about the table itself (not the game)."""

    @abc.abstractmethod
    def seat_online(self, seat: int) -> bool:
        """Whether the seat's person has a connection (to any process)."""

    @abc.abstractmethod
    async def attach(self, conn: Subscriber, token: str | None, name: str | None = None,
                     message_id: Any = None) -> None:
        """Let a connection in (with a seat's token, or as a spectator called ``name``) and send
        it everything: the welcome with the recent chat, then the whole state."""

    @abc.abstractmethod
    def detach(self, conn: Subscriber) -> None:
        """Forget a closed connection."""

    @abc.abstractmethod
    def close(self) -> None:
        """Stop: this process no longer holds the table (its connections are closed)."""

    # What a connection may ask (:mod:`ohhell.server.live.commands`): the owner does it, a
    # mirror asks the owner.

    @abc.abstractmethod
    async def act(self, conn: Sender, message: ClientMessage) -> None: ...

    @abc.abstractmethod
    async def say(self, conn: Sender, text: str, message_id: Any = None) -> None: ...

    @abc.abstractmethod
    def react(self, conn: Sender, reaction: str, message_id: Any = None) -> None: ...

    @abc.abstractmethod
    async def start(self, conn: Sender | None, message_id: Any = None) -> None: ...

    @abc.abstractmethod
    async def back(self, conn: Sender, message_id: Any = None) -> None: ...

    @abc.abstractmethod
    async def rematch(self, conn: Sender, message_id: Any = None) -> None: ...

    @abc.abstractmethod
    async def join(self, name: str, seat_wanted: int | None = None) -> tuple[int, str]: ...

    @abc.abstractmethod
    async def take_bot_seat(self, name: str) -> tuple[int, str]:
        """Promise a latecomer a bot's seat (a table whose settings allow latecomers, whose game
        is on): it is theirs from the start of the next hand. The seat and its secret token;
        :class:`~ohhell.errors.OhHellError` if the table has no bot seat to give."""

    @abc.abstractmethod
    async def contribute(self, conn: Sender, hand: Any, value: Any, message_id: Any = None) -> None: ...

    @abc.abstractmethod
    async def full_record(self) -> dict[str, Any]:
        """The ``ohhell/1`` record (:meth:`record`) with the fairness data of the revealed hands."""

    @property
    def version(self) -> int:
        return len(self.state.history)

    def names(self) -> list[str]:
        """A name for every seat (a bot: its level; an open seat: its number)."""
        out = []
        for seat in self.seats:
            if seat.kind == SeatKind.HUMAN and seat.name:
                out.append(seat.name)
            elif seat.kind == SeatKind.BOT:
                out.append(bot_name(seat.index, seat.bot_level or ""))
            else:
                out.append(_("Seat %(seat)d") % {"seat": seat.index + 1})
        return out

    def seat_history(self) -> list[dict[str, Any]]:
        """Who played each seat that changed hands, from which hand on (the record's optional
        ``seat_history``, docs/record-format.md): the bot that began it, then each latecomer."""
        out: list[dict[str, Any]] = []
        for change in self.settings.seat_changes:
            if change.hand is None:
                continue
            if not any(entry["seat"] == change.seat for entry in out):
                out.append({"seat": change.seat, "from_hand": 0, "name": bot_name(change.seat, change.bot)})
            out.append({"seat": change.seat, "from_hand": change.hand, "name": change.name})
        out.sort(key=lambda entry: (entry["seat"], entry["from_hand"]))
        return out

    def promised_seat(self, token: str) -> int | None:
        """The bot's seat promised to the latecomer holding ``token`` (not theirs yet), if any."""
        digest = token_hash(token)
        for change in self.settings.promised():
            if change.token_hash is not None and hmac.compare_digest(change.token_hash, digest):
                return change.seat
        return None

    def promises(self) -> list[dict[str, Any]]:
        """The seats promised to latecomers, for everyone: who takes which seat at the next hand."""
        return [{"seat": change.seat, "name": change.name} for change in self.settings.promised()]

    def seat_newcomers(self) -> None:
        """Close the connections of latecomers whose promised seat is theirs now: they come
        back with the same token and are let in at the seat."""
        waiting = {change.seat for change in self.settings.promised()}
        for conn, seat in list(self.newcomers.items()):
            if seat not in waiting:
                del self.newcomers[conn]
                conn.close()

    def summary(self) -> dict[str, Any]:
        """The table for the lobby and the join page (public)."""
        return {"code": self.code, "status": self.status, "version": self.version, "rules": self.rules.to_json(),
                "seats": [seat.public(self.seat_online(seat.index)) for seat in self.seats],
                "timer": self.settings.timer,
                "timer_mode": self.settings.timer_mode, "names": self.names(),
                "open_seats": [seat.index for seat in self.seats if seat.kind == SeatKind.OPEN],
                "paused": self.paused, "game_over": self.state.is_terminal(), "next": self.settings.next,
                "latecomers": self.settings.latecomers, "promised": self.promises()}

    def seat_of_token(self, token: str) -> int | None:
        digest = token_hash(token)
        for seat in self.seats:
            if seat.token_hash is not None and hmac.compare_digest(seat.token_hash, digest):
                return seat.index
        return None

    def record(self) -> dict[str, Any]:
        """The ``ohhell/1`` record of what everyone may see: the whole game once it is over,
        else the finished hands only (the hand in progress holds cards nobody may see)."""
        record = public_record(self.state, self.names())
        history = self.seat_history()
        if history:
            record["seat_history"] = history
        return record

    # ------------------------------------------------------------------ rebuilding

    def replay(self, stored_actions: Sequence[dict[str, Any]]) -> None:
        """Rebuild the state from the stored action log."""
        apply_log(self.state, stored_actions)

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

    def _admit(self, conn: Subscriber, seat: int | None, token: str | None, name: str | None,
               message_id: Any) -> int | None:
        """Let a connection in (``seat``: the seat its ``token`` holds, ``None`` for a spectator),
        or refuse it: a token that holds no seat, or a table with too many connections."""
        promised = self.promised_seat(token) if token and seat is None else None
        if token and seat is None and promised is None:
            raise ProtocolError("bad-token", message_id=message_id)
        if len(self.connections) >= self.config.max_connections_per_table:
            raise ProtocolError("full", message_id=message_id)
        conn.seat = seat
        conn.name = name if seat is None else None
        self.connections.add(conn)
        if seat is not None:
            self.seats[seat].connections.add(conn)
        if promised is not None:  # a latecomer: watches (a spectator's view) until the seat is theirs
            conn.name = next(change.name for change in self.settings.promised() if change.seat == promised)
            self.newcomers[conn] = promised
        return seat

    def adopt(self, conn: Subscriber) -> None:
        """Hold ``conn``, admitted by another room of this table in this process (a copy that
        gave way to the table owned here now): it stays open and keeps its seat; the next
        broadcast tells it what changed since its last state."""
        conn.table = self
        self.connections.add(conn)
        if conn.seat is not None:
            self.seats[conn.seat].connections.add(conn)

    def welcome(self, conn: Subscriber) -> None:
        """The first message of a connection that said hello: who it is, the rules, the recent chat."""
        with speaking(conn.language):
            rules_text = describe_rules(self.rules)
        seat = conn.seat
        message = {"type": "welcome", "protocol": PROTOCOL, "table": self.code, "seat": seat,
                   "host": seat is not None and seat == self.settings.host, "rules": self.rules.to_json(),
                   "rules_text": [list(pair) for pair in rules_text], "version": self.version,
                   "chat": [line.to_json() for line in self.chat], "reactions": list(REACTIONS)}
        if conn in self.newcomers:  # a latecomer: the bot's seat they take at the next hand
            message["next_seat"] = self.newcomers[conn]
        process = self.site.process
        if process is not None:  # which process answers (several processes behind a balancer)
            message["server"] = process
        conn.push(message)

    def send_error(self, conn: Subscriber, error: ProtocolError) -> None:
        conn.push(error_message(error.code, conn.language, error.detail, error.message_id, self.version))

    async def history(self, conn: Subscriber) -> None:
        """Every finished hand with its cards (all played face up, so public)."""
        view = seat_view(self.state, conn.seat) if conn.seat is not None else spectator_view(self.state)
        conn.push({"type": "history", "version": view.version, "names": self.names(),
                   "hands": self.hands.full(view)})

    async def hint(self, conn: Subscriber, message: ClientMessage) -> None:
        """Ask a bot what it would do in this seat's place."""
        seat = conn.seat
        if seat is None:
            raise ProtocolError("spectator", message_id=message.message_id)
        view = seat_view(self.state, seat)
        if not forward_actions(view) or conn.hinting:
            raise ProtocolError("no-hint", message_id=message.message_id)
        conn.hinting = True
        try:
            bot = self.site.new_bot(self.site.hint_level)
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
