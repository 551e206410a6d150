"""Every table of this process, by code: creates tables, brings stored ones back, unloads idle
ones, and holds the hooks other parts of the server add (who may look at a table, what its
record carries, what happens when a game ends)."""

from __future__ import annotations

import asyncio
import contextvars
import dataclasses
import functools
import logging
import secrets
import time
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

from ohhell.bots import Bot, bot_names, make_bot, strongest_bot
from ohhell.bots.external import external_bot_options
from ohhell.errors import OhHellError
from ohhell.fairness import FairTable
from ohhell.i18n import _
from ohhell.rules import Rules
from ohhell.server.config import ServerConfig
from ohhell.server.live.chat import CHAT_KEPT
from ohhell.server.live.codes import CODE_LENGTH, new_code, normalize_code
from ohhell.server.live.deals import FAIR, deal_source
from ohhell.server.live.owner import LiveTable
from ohhell.server.live.peers import LocalPeers, Peers
from ohhell.server.live.room import TableRoom
from ohhell.server.live.seats import NO_HOST, Seat, TableSettings, new_token, token_hash
from ohhell.server.storage.kinds import SeatKind, TableStatus
from ohhell.server.storage.store import Store, StoredTable, TableRow

log = logging.getLogger("ohhell.server.live.manager")

OPEN = SeatKind.OPEN
"""A seat for a person to join, as the creator of a table names it among the bot levels."""


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
        self.peers: Peers = LocalPeers(self._load_here)
        """The other processes of the site (:meth:`use`); at first, none."""
        self.mirrors: dict[str, TableRoom] = {}
        """The tables other processes own that this one holds connections to (copies kept by
        :attr:`peers`: :meth:`keep_copy`, :meth:`forget_copy`)."""
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
        self.on_turn: list[Callable[[LiveTable, int, bool], None]] = []
        """Called when the turn reaches a person's seat with no connection to the table (and
        whether they are away): Web Push tells them. Each must return at once (it may start a task)."""

    def use(self, peers: Peers) -> None:
        """Be one process of a site of several (before :meth:`load`)."""
        self.peers = peers

    @property
    def process(self) -> str | None:
        """This process's id among several (``None``: the only one)."""
        return self.peers.process

    # ------------------------------------------------------------------ the tables held here

    def owned(self, code: str) -> LiveTable | None:
        """The table ``code`` if this process runs it."""
        return self.tables.get(code)

    def owned_tables(self) -> dict[str, LiveTable]:
        """Every table this process runs, by code (a copy: the caller may await while using it)."""
        return dict(self.tables)

    def copy_of(self, code: str) -> TableRoom | None:
        """The copy this process keeps of another process's table ``code``, if any."""
        return self.mirrors.get(code)

    def keep_copy(self, room: TableRoom) -> None:
        """Hold ``room``, a copy of a table another process runs, for this process's connections."""
        self.mirrors[room.code] = room

    def forget_copy(self, room: TableRoom) -> bool:
        """No longer hold ``room``; whether it was held."""
        if self.mirrors.get(room.code) is not room:
            return False
        del self.mirrors[room.code]
        return True

    def bring_back(self, item: StoredTable, fence: int | None = None) -> LiveTable:
        """Run the stored table ``item`` here from now on (with ``fence``: its fencing token),
        as committed: its game goes on if someone is there."""
        table = self.rebuild(item, fence)
        self.tables[table.code] = table
        table.replan()
        self.maybe_unload(table)
        return table

    async def _load_here(self, code: str) -> TableRoom | None:
        """A stored table, run here (a site of one process)."""
        item = await asyncio.to_thread(self.store.load_table, code)
        if item is None:
            return None
        return await self.settle(self.bring_back(item), item)

    async def settle(self, table: LiveTable, item: StoredTable) -> LiveTable:
        """Store the status of a table brought back whose game is over, if it was not stored:
        its runner stopped between the last action's commit and the status's (the status
        mirrors the game; a duplicate event's embargo lifts on it)."""
        if table.status == TableStatus.FINISHED and item.row.status != TableStatus.FINISHED:
            await self.store.set_status(table.code, TableStatus.FINISHED, fence=table.fence)
        return table

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
        if not self.peers.resumes_at_start:
            return 0
        stored = await asyncio.to_thread(self.store.load_tables, [TableStatus.WAITING, TableStatus.PLAYING])
        for item in stored:
            table = await self.settle(self.rebuild(item), item)
            self.tables[table.code] = table
            if table.status == TableStatus.PLAYING:
                for seat in table.seats:
                    if seat.kind == SeatKind.HUMAN:
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
                    task = asyncio.get_running_loop().create_task(result, context=contextvars.Context())
                    self._listening.add(task)
                    task.add_done_callback(self._listener_done)
            except Exception:
                log.exception("table %s: a listener of finished games failed", table.code)

    def turn_waits(self, table: LiveTable, seat: int, away: bool) -> None:
        """Tell the :attr:`on_turn` listeners that the turn waits for an absent person."""
        for listener in self.on_turn:
            try:
                listener(table, seat, away)
            except Exception:
                log.exception("table %s: a listener of turns failed", table.code)

    def _listener_done(self, task: asyncio.Task[Any]) -> None:
        self._listening.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("a listener of finished games failed", exc_info=task.exception())

    @staticmethod
    def rules_of(item: StoredTable) -> Rules:
        return Rules.from_json(item.row.rules)

    def rebuild(self, item: StoredTable, fence: int | None = None) -> LiveTable:
        """The table as stored, owned by this process (with ``fence``: its fencing token)."""
        seats = [Seat.from_row(row) for row in item.seats]
        table = LiveTable(self, item.id, self.rules_of(item), TableSettings.from_json(item.row.settings), seats,
                          TableStatus(item.row.status), item.row.created, fence)
        table.replay(item.actions)
        if table.fair is not None and item.fair is not None:
            table.fair = FairTable.from_json(item.fair)
            table.fair_revealed = len(table.state.finished_hands)
        table.chat = item.chat[-CHAT_KEPT:]
        table.chat_count = table.chat[-1].id + 1 if table.chat else 0
        if table.state.is_terminal():
            table.status = TableStatus.FINISHED
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
                pending.set_result(await self.peers.open(code))
            except Exception as error:
                pending.set_exception(error)
                raise
            finally:
                del self._loading[code]
        return await asyncio.shield(pending)

    async def create(self, rules: Rules, name: str, others: Sequence[str], timer: float,
                     stand_in: str | None = None, deals: dict[str, Any] | None = None,
                     extra: dict[str, Any] | None = None, latecomers: bool = False) -> tuple[LiveTable, str]:
        """A new table: seat 0 is its creator (``name``); ``others`` gives every other seat:
        ``"open"`` for a person to join, or a bot level. ``deals`` names its deal source
        (:func:`ohhell.server.live.deals.deal_source`; default: random), ``extra`` what other parts
        of the server keep with it; ``latecomers``: a person who comes once the game is on may
        take a bot's seat at the next hand. Returns the table and the creator's token."""
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
        seats = [Seat(0, SeatKind.HUMAN, None, name, token_hash(token))]
        seats += [Seat(i + 1, SeatKind.OPEN) if level == OPEN else Seat(i + 1, SeatKind.BOT, level)
                  for i, level in enumerate(others)]
        settings = TableSettings(timer=timer, host=0, stand_in=stand_in, deals=dict(deals or {"kind": FAIR}),
                                 extra=dict(extra or {}), latecomers=latecomers)
        table = await self._new_table(rules, settings, seats)
        return table, token

    async def create_seated(self, rules: Rules, seats: Sequence[str], timer: float, stand_in: str | None = None,
                            deals: dict[str, Any] | None = None, extra: dict[str, Any] | None = None,
                            latecomers: bool = False) -> LiveTable:
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
        places = [Seat(i, SeatKind.OPEN) if level == OPEN else Seat(i, SeatKind.BOT, level)
                  for i, level in enumerate(seats)]
        settings = TableSettings(timer=timer, host=NO_HOST, stand_in=stand_in, deals=dict(deals or {"kind": "random"}),
                                 extra=dict(extra or {}), latecomers=latecomers)
        return await self._new_table(rules, settings, places)

    async def _new_table(self, rules: Rules, settings: TableSettings, seats: list[Seat]) -> LiveTable:
        """Store a new table with these seats and bring it to life (started if no seat is open)."""
        code = new_code()
        while code in self.tables or await asyncio.to_thread(self.store.table_exists, code):
            code = new_code()
        status = TableStatus.WAITING
        created = time.time()
        await self.store.create_table(TableRow(code, created, status, rules.to_json(), settings.to_json()),
                                      [seat.row() for seat in seats])
        fence = await self.peers.claim(code)  # a new table belongs to the process that made it
        table = LiveTable(self, code, rules, settings, seats, status, created, fence)
        self.tables[code] = table
        if not any(seat.kind == SeatKind.OPEN for seat in seats):
            await table.start(None)
        return table

    async def create_rematch(self, table: LiveTable) -> str:
        """A new game with ``table``'s rules, settings and seats (people keep their tokens);
        returns its code."""
        seats = [Seat(seat.index, seat.kind, seat.bot_level, seat.name, seat.token_hash) for seat in table.seats]
        deals = table.settings.deals if table.settings.deals.get("kind") in ("random", FAIR) else {"kind": FAIR}
        settings = dataclasses.replace(table.settings, next=None, deals=deals, seat_changes=())
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

        asyncio.get_running_loop().call_later(self.config.unload_after, unload, context=contextvars.Context())

    @staticmethod
    def _idle(table: LiveTable) -> bool:
        nobody = not table.connections and not any(p.seats or p.spectators for p in table.remote.values())
        if table.status == TableStatus.PLAYING and table.settings.extra.get("unattended"):
            return False  # it plays on with nobody there (a duplicate event's table of bots)
        return nobody and table.status in (TableStatus.FINISHED, TableStatus.PLAYING)

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
            self.peers.let_go(table)

    def connection_count(self) -> int:
        return sum(len(table.connections) for table in [*self.tables.values(), *self.mirrors.values()])

    def close(self) -> None:
        for table in self.tables.values():
            table.close()
        for mirror in self.mirrors.values():
            mirror.close()

