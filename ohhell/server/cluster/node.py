"""Several server processes, one site: who owns each table, and what crosses the broker.

``ohhell serve --database postgresql://… --broker redis://…`` may run as any number of
processes behind a load balancer without sticky sessions. This module is the glue between a
process's :class:`~ohhell.server.live.manager.TableManager` and the others: it implements
:class:`ohhell.server.live.peers.Peers` (see docs/architecture.md):

* **Ownership.** The first process a table is asked of takes its lease in Redis and a new
  fencing token in the database (:meth:`Store.take_fence`), loads it and runs it: the
  :class:`~ohhell.server.live.owner.LiveTable`, with its timers and bots. Any other process with a
  connection to it keeps a :class:`~ohhell.server.cluster.mirror.TableMirror`. The owner renews its
  leases every second; a lease it lost (it was paused, Redis forgot it) makes it let the table
  go — and if it did not notice, the database refuses its writes (the fencing token).
* **Changes** go from the owner to the mirrors on the table's channel, only after the commit
  (:meth:`publish_update`), in order (one publishing task); requests go from a mirror to the
  owner's process channel and wait for the answer (:meth:`forward`).
* **Presence.** Each mirror reports its connections to the owner when they change and every
  second; the owner counts them for who is online, who is away and whether the game is paused,
  and forgets a report that is not renewed within a few seconds (a process that died).
* **Affinity.** A load balancer that hashes each table's code sends all of a table's
  connections to one process; the table should be run there, with no broker hop. The owner
  counts where its table's connections are (its own, and each copy's presence reports); when
  one other process has held most of them for :data:`HANDOFF_HOLD` seconds — the balancer's
  choice changed: a process was added, removed or came back — and the owner has run the table
  for at least :data:`MIN_TENURE` (or at once, :data:`QUICK_HOLD`, when the owner holds none
  of them: a table made through one process and played through another), it hands the table
  over: under the table's lock (no action,
  bot or timer in between), the lease goes to the successor in one step, this process lets the
  table go (its connections reconnect, through the balancer, to the successor), and the
  successor takes a new fencing token (so nothing the old owner might still try is written),
  loads the table as committed and runs it, keeping its copy's connections open.
* **Failover.** When the owner stops being heard (it beats every second), a mirror looks at the
  lease; once it has expired, the mirror takes it, becomes the owner by loading the table from
  the database, and closes its connections, which reconnect (through the load balancer) and
  play on. No committed action is lost (they are all in the database) and none is applied
  twice (an action is applied only by the owner whose fencing token the database accepts).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Coroutine
from typing import Any, Final

from ohhell.actions import action_to_json
from ohhell.errors import OhHellError
from ohhell.server.cluster.broker import Broker, BrokerError
from ohhell.server.cluster.messages import (
    Answer,
    Beat,
    Command,
    Done,
    Failed,
    Gone,
    Handoff,
    Joined,
    Presence,
    Sync,
    TableEvent,
    Told,
    Update,
    answer_from_json,
    event_from_json,
    request_from_json,
)
from ohhell.server.cluster.mirror import TableMirror
from ohhell.server.live import commands
from ohhell.server.live.manager import TableManager
from ohhell.server.live.owner import LiveTable
from ohhell.server.live.room import TableRoom
from ohhell.server.live.seats import Seat, TableSettings
from ohhell.server.live.subscriber import Asker
from ohhell.server.metrics import METRICS
from ohhell.server.storage.kinds import TableStatus
from ohhell.server.storage.store import StoreError
from ohhell.server.texts import speaking
from ohhell.server.wire.protocol import ClientMessage, ProtocolError

log = logging.getLogger("ohhell.server.cluster.node")

BEAT: Final = 1.0
"""How often an owner renews its leases and tells the mirrors it is alive, and a mirror reports
its connections (seconds)."""
PRESENCE_HOLDS: Final = 4.0
"""How long an owner trusts a mirror's report of its connections without a new one."""
OWNER_SILENT: Final = 2.5
"""How long a mirror waits without a word from the owner before it looks at the lease."""
UNATTENDED_EVERY: Final = 10
"""Every this many beats a process looks for unattended tables nobody runs."""
MIRROR_KEPT: Final = 30.0
"""How long a mirror with no connection is kept (a reload comes back to it)."""
HANDOFF_HOLD: Final = 5.0
"""How long most of a table's connections must be at one other process before the table
moves there (a balancer's choice that changed, not a moment's reconnections)."""
MIN_TENURE: Final = 10.0
"""How long a process runs a table at least before it hands it over (no table bounces)."""
QUICK_HOLD: Final = 0.0
"""The hold instead, and no tenure, when the owner holds no connection of the table itself: nobody
here is disturbed (a table made through one process and played through another, the balancer's
choice for its code: the usual way a table starts), so it moves at the first presence report
that shows it; every action after it is done where its players are."""


class Cluster:
    """This process's part in a site of several processes (see the module docstring): the
    :class:`~ohhell.server.live.peers.Peers` of its :class:`~ohhell.server.live.manager.TableManager`,
    and the :class:`~ohhell.server.cluster.mirror.Forwarder` of its mirrors."""

    def __init__(self, manager: TableManager, broker: Broker) -> None:
        self.manager = manager
        self.broker = broker
        self.store = manager.store
        self.mirrors: dict[str, TableMirror] = {}
        """The tables other processes own that this one keeps a copy of (for its connections)."""
        self._outgoing: asyncio.Queue[tuple[str, TableEvent]] = asyncio.Queue()
        self._tasks: set[asyncio.Task[Any]] = set()
        self._published: dict[str, int] = {}
        """The version each owned table last published."""
        self._meta_published: dict[str, tuple[TableStatus, dict[str, Any], list[Any]]] = {}
        """The seats, settings and status each owned table last published."""
        self._owned_since: dict[str, float] = {}
        """When this process began to run each table it owns."""
        self._leaning: dict[str, tuple[str, float]] = {}
        """For an owned table, the other process that holds most of its connections, and since when."""
        self._handing: set[str] = set()
        """Tables being handed over now."""
        self._succession = asyncio.Lock()
        """One succession at a time (a handoff's request and a forwarded action may race to it)."""
        broker.on_event = self._event
        broker.on_request = self._request
        broker.on_reconnect = self._reconnected
        broker.latency = METRICS.broker_latency.observe

    # ------------------------------------------------------------------ life

    async def start(self) -> None:
        await self.broker.start()
        self.spawn(self._publisher())
        self.spawn(self._beat())
        log.info("process %s joined the site through %s", self.broker.process, _safe_url(self.broker.url))

    async def close(self) -> None:
        for mirror in list(self.mirrors.values()):
            mirror.close()
        for code in self.manager.owned_tables():
            await self.broker.release(code)
        for task in list(self._tasks):
            task.cancel()
        await self.broker.close()

    def spawn(self, coroutine: Coroutine[Any, Any, Any]) -> None:
        task = asyncio.get_running_loop().create_task(coroutine)
        self._tasks.add(task)
        task.add_done_callback(self._done)

    def _done(self, task: asyncio.Task[Any]) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("a cluster task failed", exc_info=task.exception())

    # ------------------------------------------------------------------ Peers

    @property
    def process(self) -> str | None:
        return self.broker.process

    @property
    def resumes_at_start(self) -> bool:
        return False  # a table is brought back by the first process someone asks it of

    async def claim(self, code: str) -> int | None:
        if not await self.broker.acquire(code):
            raise StoreError(f"table {code}: its lease is taken")
        self._owned_since[code] = asyncio.get_running_loop().time()
        return await self.store.take_fence(code)

    def changed(self, table: TableRoom, info: dict[str, Any]) -> None:
        if isinstance(table, LiveTable) and not table.remote:
            # Nobody keeps a copy (affinity: the usual case): nothing to publish, and no broker
            # work per action. A copy made meanwhile starts from its sync, and a change it then
            # misses shows as a gap in versions, read from the database.
            self._published[table.code] = table.version
            return
        self.publish_update(table, info)

    def told(self, table: TableRoom, message: dict[str, Any]) -> None:
        self.publish(table.code, Told(message))

    def let_go(self, table: TableRoom) -> None:
        """Stop owning ``table`` (another process owns it, or it is unloaded)."""
        self._published.pop(table.code, None)
        self._meta_published.pop(table.code, None)
        self._owned_since.pop(table.code, None)
        self._leaning.pop(table.code, None)
        self.spawn(self.broker.release(table.code))
        self.publish(table.code, Gone())

    # ------------------------------------------------------------------ opening a table

    async def open(self, code: str) -> TableRoom | None:
        """The table ``code`` in this process: owned (if nobody else holds its lease) or a mirror
        of its owner's; ``None`` if there is no such table."""
        mirror = self.mirrors.get(code)
        if mirror is not None:
            return mirror
        if not await asyncio.to_thread(self.store.table_exists, code):
            return None
        for _attempt in range(20):
            if await self.broker.acquire(code):
                return await self._own(code)
            owner = await self.broker.owner(code)
            if owner is not None:
                found = await self._mirror(code, owner)
                if found is not None:
                    return found
            await asyncio.sleep(0.05)
        raise StoreError(f"table {code}: could not reach its owner")

    async def _own(self, code: str) -> LiveTable | None:
        """Become the owner of ``code`` (its lease is this process's): a new fencing token, then
        the table as committed."""
        try:
            fence = await self.store.take_fence(code)
            item = await asyncio.to_thread(self.store.load_table, code)
        except Exception:
            await self.broker.release(code)
            raise
        if item is None:
            await self.broker.release(code)
            return None
        table = self.manager.bring_back(item, fence)
        self._published[code] = table.version
        self._owned_since[code] = asyncio.get_running_loop().time()
        await self.manager.settle(table, item)
        log.info("table %s: owned here (fencing token %d)", code, fence)
        return table

    async def _succeed(self, code: str) -> LiveTable | None:
        """Own ``code``, whose lease another process handed to this one: a new fencing token,
        the table as committed, and this process's copy's connections kept open."""
        async with self._succession:
            owned = self.manager.owned(code)
            if owned is not None:
                return owned
            mirror = self.mirrors.pop(code, None)
            if mirror is not None:
                self.manager.forget_copy(mirror)
            try:
                table = await self._own(code)
            except Exception:
                if mirror is not None:
                    mirror.close()  # its connections reconnect and find the table wherever it is
                raise
            if mirror is not None:
                for conn in mirror.give_up_connections():
                    if table is None:
                        conn.close()
                    else:
                        table.adopt(conn)
                self.spawn(self.broker.unwatch(code))
            if table is not None:
                table.replan()
                table.broadcast()
                log.info("table %s: handed over to this process", code)
            return table

    async def _mirror(self, code: str, owner: str) -> TableMirror | None:
        """A copy of ``code`` kept up to date by ``owner``'s changes."""
        await self.broker.watch(code)  # first: no change is missed between the load and the watch
        item = await asyncio.to_thread(self.store.load_table, code)
        if item is None:
            await self.broker.unwatch(code)
            return None
        mirror = TableMirror(self.manager, self, code, self.manager.rules_of(item),
                             TableSettings.from_json(item.row.settings), [Seat.from_row(row) for row in item.seats],
                             TableStatus(item.row.status), item.row.created, owner)
        mirror.replay(item.actions)
        mirror.chat = item.chat
        mirror.chat_count = item.chat[-1].id + 1 if item.chat else 0
        try:
            answer = answer_from_json(await self.broker.request(owner, Sync(code).to_json(), timeout=3.0))
        except BrokerError:
            await self.broker.unwatch(code)
            return None
        if not isinstance(answer, Update):
            await self.broker.unwatch(code)
            return None
        mirror.receive(answer)  # first in the table's queue: the events after it follow
        self.mirrors[code] = mirror
        self.manager.keep_copy(mirror)
        self.report_presence(mirror)  # from now on the owner publishes every change to this process
        await mirror.settled()
        return mirror

    # ------------------------------------------------------------------ owner → mirrors

    def publish_update(self, table: TableRoom, info: dict[str, Any] | None = None) -> None:
        """Tell the mirrors of ``table`` what changed: the actions committed since the last
        telling, the table's information, and its seats, settings and status when they changed
        (called after every committed change)."""
        first = self._published.get(table.code, table.version)
        history = table.state.history
        meta = self._meta(table)
        changed = meta != self._meta_published.get(table.code)
        if changed:
            self._meta_published[table.code] = meta
        self._published[table.code] = table.version
        self.publish(table.code, self._update(table, first, info, list(history[first:]), with_meta=changed))

    @staticmethod
    def _meta(table: TableRoom) -> tuple[TableStatus, dict[str, Any], list[Any]]:
        return table.status, table.settings.to_json(), [seat.row() for seat in table.seats]

    @staticmethod
    def _update(table: TableRoom, first: int, info: dict[str, Any] | None, actions: list[Any],
                with_meta: bool) -> Update:
        return Update(first, table.version, info if info is not None else table.public_info(),
                      [action_to_json(a) for a in actions],
                      table.status if with_meta else None, table.settings.to_json() if with_meta else None,
                      [seat.row() for seat in table.seats] if with_meta else None)

    def publish(self, code: str, event: TableEvent) -> None:
        self._outgoing.put_nowait((code, event))

    async def _publisher(self) -> None:
        """Publish the owners' events in order (every mirror hears a table's changes in the
        order they were committed): whatever waits goes out in one round trip to Redis."""
        while True:
            batch = [await self._outgoing.get()]
            while not self._outgoing.empty():
                batch.append(self._outgoing.get_nowait())
            try:
                await self.broker.publish_many([(code, event.to_json()) for code, event in batch])
                METRICS.published.inc(len(batch))
            except Exception as error:  # the mirrors catch up from the database later
                log.warning("could not publish %d changes (%s)", len(batch), error)

    # ------------------------------------------------------------------ mirrors → owner

    async def forward(self, mirror: TableMirror, command: Command) -> Answer:
        """Send a connection's request to the table's owner and return its answer; the owner's
        refusal is raised as the error it would have sent. If the owner is gone, take the table
        over and do it here."""
        if command.op == "act":
            METRICS.forwarded_actions.inc()
        for _attempt in range(3):
            here = self.manager.owned(mirror.code)
            if here is not None:  # the table was handed to this process meanwhile: do it here
                found: Answer = await self._perform(here, command)
            else:
                try:
                    started = asyncio.get_running_loop().time()
                    found = answer_from_json(await self.broker.request(mirror.owner, command.to_json(), timeout=5.0))
                    METRICS.forward_latency.observe(asyncio.get_running_loop().time() - started)
                except BrokerError:
                    found = Failed("gone")
            if not isinstance(found, Failed):
                return found
            if found.kind == "protocol":
                raise ProtocolError(found.code or "storage", found.detail, command.id)
            if found.kind == "refused":
                raise OhHellError(str(found.message))
            # The owner is gone or is no longer the owner: find the table's owner now (this
            # process, perhaps: then the next attempt does it here).
            if await self._take_over_if_free(mirror):
                continue
            owner = await self.broker.owner(mirror.code)
            if owner is not None:
                mirror.owner = owner
        raise ProtocolError("storage", message_id=command.id)

    async def _request(self, data: dict[str, Any]) -> dict[str, Any] | None:
        """Answer another process's request about a table this process owns."""
        request = request_from_json(data)
        table = self.manager.owned(request.code)
        if isinstance(request, Presence):
            if table is not None:
                now = asyncio.get_running_loop().time()
                table.presence(str(data.get("from")), request.seats, request.spectators, now + PRESENCE_HOLDS,
                               watching=request.watching)
                self._consider_handoff(table, now)
            return None
        if isinstance(request, Handoff):
            if await self.broker.owner(request.code) != self.broker.process:
                return Failed("not-owner").to_json()
            taken = await self._succeed(request.code)
            return (Done() if taken is not None else Failed("gone")).to_json()
        if table is None or table.closed:
            return Failed("not-owner").to_json()
        if isinstance(request, Sync):  # everything, for a new copy
            return self._update(table, table.version, None, [], with_meta=True).to_json()
        return (await self._perform(table, request)).to_json()

    @staticmethod
    async def _perform(table: LiveTable, command: Command) -> Done | Joined | Failed:
        """Carry out a command another process forwarded (:func:`ohhell.server.live.commands.perform`)."""
        sender = Asker(command.seat, command.language, command.name)
        try:
            with speaking(sender.language):
                joined = await commands.perform(table, sender, ClientMessage(command.op, command.data, command.id))
        except ProtocolError as error:
            return Failed("protocol", code=error.code, detail=error.detail)
        except OhHellError as error:
            return Failed("refused", message=str(error))
        except StoreError:
            return Failed("protocol", code="storage")
        return Joined(joined.seat, joined.token) if joined is not None else Done()

    def report_presence(self, mirror: TableMirror, watching: bool = True) -> None:
        """Tell the owner that this process keeps a copy of ``mirror``'s table (so every change
        is published to it) and how many connections it holds to it."""
        seats, spectators = mirror.presence()
        self.spawn(self._send_presence(mirror.owner, Presence(mirror.code, seats, spectators, watching)))

    async def _send_presence(self, owner: str, presence: Presence) -> None:
        with contextlib.suppress(Exception):
            await self.broker.send(owner, presence.to_json())

    # ------------------------------------------------------------------ events

    def _event(self, code: str, data: dict[str, Any]) -> None:
        mirror = self.mirrors.get(code)
        if mirror is None:
            return
        event = event_from_json(data)
        if isinstance(event, (Update, Told)):
            mirror.receive(event)
        elif isinstance(event, Beat):
            mirror.heard = asyncio.get_running_loop().time()
            if event.to > mirror.version:
                mirror.receive(Update(to=event.to))
        elif isinstance(event, Gone):  # the owner let the table go: look at the lease at the next beat
            if mirror.connections:
                mirror.heard = 0.0
            else:
                self.drop_mirror(mirror)

    def _reconnected(self) -> None:
        """The link to Redis is back: messages may have been lost; every mirror catches up."""
        for mirror in list(self.mirrors.values()):
            mirror.receive(Update(to=1 << 60))
            self.report_presence(mirror)

    # ------------------------------------------------------------------ every second

    async def _beat(self) -> None:
        beats = 0
        while True:
            await asyncio.sleep(BEAT)
            beats += 1
            try:
                await self._renew()
                await self._watch_mirrors()
                if beats % UNATTENDED_EVERY == 1:
                    await self._adopt_unattended()
            except Exception as error:  # Redis away: the fencing token keeps every write safe
                log.warning("the cluster's heartbeat failed (%s)", error)

    async def _adopt_unattended(self) -> None:
        """Run the tables that play with nobody connected (a duplicate event's tables of bots)
        whose owner is gone: nobody would come and ask for them."""
        for code in await asyncio.to_thread(self.store.unattended_tables):
            if self.manager.owned(code) is not None or code in self.mirrors:
                continue  # run here already, or watched here (a mirror takes over by itself)
            if await self.broker.owner(code) is None and await self.broker.acquire(code):
                await self._own(code)

    async def _renew(self) -> None:
        owned = self.manager.owned_tables()
        if not owned:
            return
        kept = await self.broker.renew(list(owned))
        now = asyncio.get_running_loop().time()
        for code, table in owned.items():
            if code not in kept:
                if await self.broker.acquire(code):
                    # Redis forgot the lease (it restarted): take it again, with a new token; if
                    # somebody else owned the table meanwhile, start again from the database.
                    fence = await self.store.take_fence(code)
                    if table.fence is not None and fence == table.fence + 1:
                        table.fence = fence
                        continue
                    await self.broker.release(code)
                log.warning("table %s: the lease is lost; letting the table go", code)
                self.manager.let_go(table)
                continue
            table.expire_presence(now)
            if table.remote:
                self.publish(code, Beat(table.version))
                self._consider_handoff(table, now)

    def _consider_handoff(self, table: LiveTable, now: float) -> None:
        """Hand ``table`` over if one other process has held most of its connections for
        :data:`HANDOFF_HOLD` and this one has run it for :data:`MIN_TENURE` (module docstring)."""
        code = table.code
        counts = {process: sum(report.seats.values()) + report.spectators
                  for process, report in table.remote.items()}
        total = len(table.connections) + sum(counts.values())
        successor = max(counts, key=lambda process: counts[process], default=None)
        if successor is None or counts[successor] * 2 <= total:
            self._leaning.pop(code, None)
            return
        leaning = self._leaning.get(code)
        if leaning is None or leaning[0] != successor:
            leaning = self._leaning[code] = (successor, now)
        if table.connections:
            if now - leaning[1] < HANDOFF_HOLD or now - self._owned_since.get(code, now) < MIN_TENURE:
                return
        elif now - leaning[1] < QUICK_HOLD:
            return
        if code not in self._handing:
            self._handing.add(code)
            self.spawn(self._hand_over(table, successor))

    async def _hand_over(self, table: LiveTable, successor: str) -> None:
        """Give ``table`` to the process ``successor`` (the lease, then the table: see the module
        docstring); the successor's new fencing token fences this process out."""
        code = table.code
        try:
            async with table.lock:  # no action, bot move or timer of this table in between
                if table.closed or self.manager.owned(code) is not table:
                    return
                if not await self.broker.hand_over(code, successor):
                    return  # the lease is not this process's any more: the renewal lets the table go
                version = table.version
                self.manager.let_go(table)
            METRICS.handoffs.inc()
            log.info("table %s: handed over at version %d to process %s", code, version, successor)
            try:
                await self.broker.request(successor, Handoff(code, version).to_json(), timeout=5.0)
            except BrokerError:  # it takes the table when next asked of it, or once the lease expires
                log.warning("table %s: the successor %s did not answer the handoff", code, successor)
        finally:
            self._handing.discard(code)

    async def _watch_mirrors(self) -> None:
        now = asyncio.get_running_loop().time()
        for mirror in list(self.mirrors.values()):
            if not mirror.connections and now - (mirror.idle_since or mirror.created_here) > MIRROR_KEPT:
                self.drop_mirror(mirror)
                continue
            self.report_presence(mirror)
            if now - mirror.heard > OWNER_SILENT and mirror.connections and \
                    not await self._take_over_if_free(mirror) and self.mirrors.get(mirror.code) is mirror:
                # The owner is alive (it holds the lease) yet unheard here: this process may have
                # lost the table's channel. Subscribe again, and catch up from the database.
                await self.broker.watch(mirror.code, again=True)
                mirror.receive(Update(to=1 << 60))

    async def _take_over_if_free(self, mirror: TableMirror) -> bool:
        """If nobody holds ``mirror``'s lease, become the table's owner; the mirror's
        connections are closed and reconnect to the table as it is now."""
        owner = await self.broker.owner(mirror.code)
        if owner is not None and owner == self.broker.process:  # handed to this process
            return await self._succeed(mirror.code) is not None
        if owner is not None and owner != mirror.owner:
            mirror.owner = owner
            self.report_presence(mirror)
            return False
        if owner is not None or not await self.broker.acquire(mirror.code):
            return False
        log.warning("table %s: its owner is gone; taking it over", mirror.code)
        self.drop_mirror(mirror)
        table = await self._own(mirror.code)
        METRICS.takeovers.inc()
        return table is not None

    def drop_mirror(self, mirror: TableMirror) -> None:
        if self.mirrors.get(mirror.code) is mirror:
            del self.mirrors[mirror.code]
            self.manager.forget_copy(mirror)
            self.report_presence(mirror, watching=False)
        mirror.close()
        self.spawn(self.broker.unwatch(mirror.code))


def _safe_url(url: str) -> str:
    """A broker URL without its password, for the log."""
    if "@" not in url:
        return url
    scheme, rest = url.split("://", 1) if "://" in url else ("", url)
    return f"{scheme}://…@{rest.split('@', 1)[1]}"
