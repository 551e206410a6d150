"""What the application holds while it runs (:class:`Site`: the store, the tables, the sheets,
the analyses, the cluster) and how the community is hooked to its tables
(:func:`install_community`).

The app (``ohhell.server.app``) builds one site in its lifespan; every route reaches it through
:func:`ohhell.server.web.http.site`.
"""

from __future__ import annotations

import asyncio
import logging
import sys
import time
from collections import defaultdict, deque
from typing import TYPE_CHECKING, Any

from ohhell.i18n import _
from ohhell.server.community import duplicate, fair_pool
from ohhell.server.community.accounts import FORMER_PLAYER, AccountsConfig
from ohhell.server.community.analyses import Analyses
from ohhell.server.community.daily import DailyService
from ohhell.server.community.events import EventService
from ohhell.server.community.push import Pusher
from ohhell.server.community.service import Community, table_extra
from ohhell.server.community.stats import embargo_of
from ohhell.server.config import ServerConfig
from ohhell.server.live.manager import TableManager
from ohhell.server.live.room import TableRoom
from ohhell.server.metrics import METRICS
from ohhell.server.storage.store import Store
from ohhell.server.web.sheets import SheetService

if TYPE_CHECKING:
    from ohhell.server.cluster.node import Cluster

log = logging.getLogger("ohhell.server")


class Site:
    """What the application holds while it runs: the store, the tables, the sheets."""

    def __init__(self, config: ServerConfig) -> None:
        self.config = config
        self.store = Store(config.database, sqlite_sync=config.sqlite_sync)
        self.tables = TableManager(self.store, config)
        self.sheets = SheetService(self.store, shared=config.broker is not None)
        self.analyses = Analyses(self.store)
        self.pusher = Pusher(self.store, allow_http=config.push_loopback)
        # The owner of a table tells an absent person of their turn through Web Push.
        self.tables.on_turn.append(
            lambda table, seat, away: self.pusher.turn(table.code, seat, table.seats[seat].token_hash, away))
        self.cluster: Cluster | None = None
        self._created: dict[str, deque[float]] = defaultdict(deque)

    async def start(self) -> None:
        # Bots think (and PostgreSQL commits) in threads; hand the GIL back to the event loop
        # within a millisecond rather than Python's default five, so no message waits on them.
        sys.setswitchinterval(0.001)
        self.store.start()
        await self.pusher.start()
        if self.config.broker is not None:
            # Only a server of several processes loads the cluster (and its Redis client).
            from ohhell.server.cluster.broker import Broker
            from ohhell.server.cluster.node import Cluster

            self.cluster = Cluster(self.tables, Broker(self.config.broker))
            self.tables.use(self.cluster)
            await self.cluster.start()
        METRICS.owned.set_function(lambda: len(self.tables.tables))
        METRICS.mirrored.set_function(lambda: len(self.tables.mirrors))
        METRICS.connections.set_function(self.tables.connection_count)
        count = await self.tables.load()
        if count:
            log.info("resumed %d tables", count)

    async def stop(self) -> None:
        self.tables.close()
        self.pusher.close()
        self.analyses.close()
        if self.cluster is not None:
            await self.cluster.close()
        self.store.close()

    async def ready(self) -> bool:
        """Whether this process can serve: its database answers. (Without its broker it still
        serves its own tables, the lobby and the scorekeeper — players of other processes' tables
        wait until the broker is back — so a Redis restart does not take the whole site out of
        the load balancer; ``/ready`` says how the broker is.)"""
        try:
            await asyncio.wait_for(asyncio.to_thread(self.store.table_exists, "-"), 2.0)
        except Exception:
            return False
        return True

    async def may_create(self, address: str) -> bool:
        """At most ``max_tables_per_minute`` tables (or sheets) per address per minute (counted
        in Redis with several processes, so that the limit holds for the whole site)."""
        if self.cluster is not None:
            try:
                return await self.cluster.broker.count_within(f"create:{address}", 60,
                                                              self.config.max_tables_per_minute)
            except Exception:  # Redis away: count in this process meanwhile
                pass
        stamps = self._created[address]
        now = time.monotonic()
        while stamps and now - stamps[0] > 60:
            stamps.popleft()
        if len(stamps) >= self.config.max_tables_per_minute:
            return False
        stamps.append(now)
        return True

    def process(self) -> str | None:
        """The name of this process among several (``None``: it is the only one)."""
        return self.cluster.broker.process if self.cluster is not None else None

    def rename_seats(self, renamed: list[tuple[str, int]]) -> None:
        """The seats of a deleted account take the neutral name in the tables this process holds too."""
        tables = getattr(self.tables, "tables", {})
        for code, seat in renamed:
            table = tables.get(code)
            if table is not None and 0 <= seat < len(table.seats):
                table.seats[seat].name = FORMER_PLAYER


def install_community(state: Any, site: Site, config: AccountsConfig | None = None) -> Community:
    """Give a server process its :class:`Community` (``state.community``), its events
    (``state.events``) and daily deal (``state.daily``), listening to the table manager's
    finished games (before the site loads its tables, so a game that ends right after a restart
    is heard). ``config``, else ``state.accounts_config`` if set, replaces the accounts' defaults."""
    hub = Community(site.store, config or getattr(state, "accounts_config", None))
    state.community = hub
    state.events = EventService(site.store)
    daily = state.daily = DailyService(site.store)

    async def daily_finished(table: Any, results: Any) -> None:
        if isinstance(table_extra(table).get("daily"), str):
            await daily.finish_try(table.code, [hand.scores[0] for hand in table.state.finished_hands])

    hub.finish_listeners.append(daily_finished)
    site.tables.on_finished.append(hub.game_finished)

    async def private_until_over(table: TableRoom) -> str | None:
        """A duplicate event's table, or a daily deal's game, is nobody's to watch, download
        or analyse but its seats' until the event (the day) is over: the same cards are still
        to be played elsewhere."""
        embargo = embargo_of(table_extra(table))
        if embargo is None or await hub.is_lifted(embargo):
            return None
        if embargo.startswith("daily:"):
            return _("This is one of today's daily deals: it can be watched once the day is over.")
        return _("This table plays in a duplicate event: it can be watched once the event is over.")

    site.tables.look_guards.append(private_until_over)

    async def event_fairness(table: TableRoom, record: dict[str, Any]) -> dict[str, Any]:
        """A duplicate event's or daily deal's table dealt from the event's seed (and pool):
        its record carries every hand's fairness, the seed once the event (the day) is over —
        as the event's export does — so the table's own record and verdicts check it too."""
        spec = table.settings.deals or {}
        if spec.get("kind") != duplicate.KIND:
            return record
        deals = duplicate.EventDeals.from_json(spec)
        embargo = embargo_of(table_extra(table))
        pool = await fair_pool.load(hub.store, deals.event_id) if deals.pooled else None
        revealed = embargo is None or await hub.is_lifted(embargo)
        if deals.pooled:
            if pool is None or pool.open:
                return record  # nothing dealt from the pool yet
            deals.use(pool)
        return deals.annotate(record, revealed=revealed)

    site.tables.record_annotators.append(event_fairness)
    return hub
