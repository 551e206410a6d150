"""What ties accounts, results, ratings, events and the daily deal to the live server.

:class:`Community` is created once per server process (:func:`install`): it listens for
finished games (stores each seat's result, rates rated games, scores daily-deal tries) and claims seats for
accounts. Everything it keeps is in the database, so any number of server processes
can share it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Sequence
from typing import Any, Protocol

from sqlalchemy import select, update
from sqlalchemy.engine import Connection

from ohhell.game import State
from ohhell.rules import Rules
from ohhell.server.community import embargo, friends
from ohhell.server.community.accounts import FORMER_PLAYER, AccountsConfig, AccountService, seat_links
from ohhell.server.community.ratings import Competitor, rate_game, rating_family
from ohhell.server.community.replay import rebuild_state
from ohhell.server.community.stats import BOT, HUMAN, SeatResult, embargo_of, game_results, results_of, store_results
from ohhell.server.storage.kinds import TableStatus
from ohhell.server.storage.schema import game_tables
from ohhell.server.storage.store import Store

log = logging.getLogger("ohhell.server.community.service")


class SeatLike(Protocol):
    index: int
    kind: str
    bot_level: str | None
    name: str | None


class TableLike(Protocol):
    """What :class:`Community` reads of a live table (``ohhell.server.live.owner.LiveTable``)."""

    code: str
    rules: Rules
    state: State
    seats: list[Any]
    settings: Any


def table_extra(table: TableLike) -> dict[str, Any]:
    """The extra settings of a table (``{"rated": true}``, ``{"event": …}``…), if it has any."""
    extra = getattr(table.settings, "extra", None)
    return extra if isinstance(extra, dict) else {}


class Community:
    """Accounts, results and ratings of one server process (see the module docstring)."""

    def __init__(self, store: Store, config: AccountsConfig | None = None) -> None:
        self.store = store
        self.accounts = AccountService(store, config)
        self.accounts.on_delete.append(self._forget_account)
        self.accounts.on_delete.append(friends.forget)
        self.finish_listeners: list[Any] = []
        """More callables ``(table, results)`` run when a game has finished (events, daily deal)."""

    async def start(self) -> None:
        """Once the server has started: catch up on results a stopped process left undone."""
        done = await self.catch_up()
        if done:
            log.info("stored the results of %d finished games", done)

    # ------------------------------------------------------------------ reading

    def _read(self, call: Any) -> Any:
        with self.store.engine.connect() as conn:
            return call(conn)

    async def read(self, call: Any) -> Any:
        """``call(connection)`` in a thread (the event loop never waits on the database)."""
        return await asyncio.to_thread(self._read, call)

    # ------------------------------------------------------------------ hooks of the table manager

    async def game_finished(self, table: TableLike) -> None:
        """A game is over: store each seat's result, rate it if rated (each once, whichever
        process calls), then tell the events and the daily deal."""
        await self.accounts.inherit_links(table.code)
        links = await self.accounts.links(table.code)
        kinds = [(seat.kind, seat.bot_level, seat.name) for seat in table.seats]
        extra = table_extra(table)
        results = results_of(table.code, table.state, kinds, links, bool(extra.get("rated")), time.time(),
                             embargo_of(extra))
        await self.record(table.code, table.state, results)
        for listener in self.finish_listeners:
            try:
                await listener(table, results)
            except Exception:  # one listener's failure must not stop the others
                log.exception("table %s: a finished-game listener failed", table.code)

    async def record(self, table_id: str, state: State, results: Sequence[SeatResult]) -> None:
        """Store a finished game's results and rate it when it is rated (both idempotent)."""
        def call(conn: Connection) -> None:
            store_results(conn, results)
            if results and results[0].rated:
                competitors = [Competitor(account_id=row.account_id) if row.kind == HUMAN
                               else Competitor(bot=row.bot) for row in results]
                rate_game(conn, table_id, rating_family(state.rules), competitors, list(state.totals))

        await self.store.write(call)

    async def ensure_results(self, table_id: str) -> bool:
        """Store the results of a finished game that has none yet (a game that ended before this
        server knew about results, or while a process died); whether the game is finished."""
        existing = await self.read(lambda conn: conn.execute(
            select(game_results.c.seat).where(game_results.c.table_id == table_id)).first())
        if existing is not None:
            return True
        stored = await asyncio.to_thread(self.store.load_table, table_id)
        if stored is None:
            return False
        state = rebuild_state(stored)
        if not state.is_terminal():
            return False
        await self.accounts.inherit_links(table_id)
        links = await self.accounts.links(table_id)
        kinds = [(seat.kind, seat.bot, seat.name) for seat in stored.seats]
        extra = stored.row.settings.get("extra")
        extra = extra if isinstance(extra, dict) else {}
        await self.record(table_id, state, results_of(table_id, state, kinds, links, bool(extra.get("rated")),
                                                      time.time(), embargo_of(extra)))
        return True

    async def catch_up(self, limit: int = 200) -> int:
        """At start: results for finished games with a claimed seat that have none (a process
        died between the end of a game and its results). Returns how many were stored."""
        def call(conn: Connection) -> list[str]:
            query = select(game_tables.c.id).where(
                game_tables.c.status == TableStatus.FINISHED,
                game_tables.c.id.in_(select(seat_links.c.table_id)),
                game_tables.c.id.not_in(select(game_results.c.table_id))).limit(limit)
            return [row.id for row in conn.execute(query)]

        done = 0
        for table_id in await self.read(call):
            with contextlib.suppress(Exception):
                done += await self.ensure_results(table_id)
        return done

    # ------------------------------------------------------------------ claims

    async def claim(self, account_id: str, table_id: str, token: str) -> int:
        """Link a seat to an account (its token proves it) and give the account the seat's
        result if the game is over."""
        seat = await self.accounts.claim(account_id, table_id, token)
        await self.ensure_results(table_id)

        def call(conn: Connection) -> None:
            conn.execute(update(game_results).where(game_results.c.table_id == table_id, game_results.c.seat == seat,
                                                    game_results.c.kind == HUMAN, game_results.c.account_id.is_(None))
                         .values(account_id=account_id))

        await self.store.write(call)
        return seat

    def lifted(self, conn: Connection, embargoes: set[str]) -> set[str]:
        """Which of these embargoes are over (:func:`ohhell.server.community.embargo.lifted`)."""
        return embargo.lifted(conn, embargoes)

    async def is_lifted(self, embargo: str) -> bool:
        """Whether one embargo is over (:meth:`lifted`), read in a thread."""
        return bool(await self.read(lambda conn: embargo in self.lifted(conn, {embargo})))

    def public(self, conn: Connection, results: Sequence[SeatResult]) -> list[SeatResult]:
        """The results anyone may see (:func:`ohhell.server.community.embargo.public`)."""
        return embargo.public(conn, results)

    def _forget_account(self, conn: Connection, account_id: str) -> None:
        """In the deleting transaction: the account's results keep a neutral name."""
        conn.execute(update(game_results).where(game_results.c.account_id == account_id)
                     .values(account_id=None, name=FORMER_PLAYER))


__all__ = ["BOT", "HUMAN", "Community", "TableLike", "table_extra"]
