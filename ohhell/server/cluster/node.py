"""Several server processes, one site: who owns each table, and what crosses the broker.

``ohhell serve --database postgresql://… --broker redis://…`` may run as any number of
processes behind a load balancer without sticky sessions. This module is the glue between a
process's :class:`~ohhell.server.live.tables.TableManager` and the others (see docs/architecture.md):

* **Ownership.** The first process a table is asked of takes its lease in Redis and a new
  fencing token in the database (:meth:`Store.take_fence`), loads it and runs it: the
  :class:`~ohhell.server.live.tables.LiveTable`, with its timers and bots. Any other process with a
  connection to it keeps a :class:`~ohhell.server.cluster.mirror.TableMirror`. The owner renews its
  leases every second; a lease it lost (it was paused, Redis forgot it) makes it let the table
  go — and if it did not notice, the database refuses its writes (the fencing token).
* **Changes** go from the owner to the mirrors on the table's channel, only after the commit
  (:meth:`publish_update`), in order (one publishing task); requests go from a mirror to the
  owner's process channel and wait for the answer (:meth:`forward`).
* **Presence.** Each mirror reports its connections to the owner when they change and every
  second; the owner counts them for who is online, who is away and whether the game is paused,
  and forgets a report that is not renewed within a few seconds (a process that died).
* **Failover.** When the owner stops being heard (it beats every second), a mirror looks at the
  lease; once it has expired, the mirror takes it, becomes the owner by loading the table from
  the database, and closes its connections, which reconnect (through the load balancer) and
  play on. No committed action is lost (they are all in the database) and none is applied
  twice (an action is applied only by the owner whose fencing token the database accepts).
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
from collections.abc import Coroutine
from typing import TYPE_CHECKING, Any, Final

from ohhell.actions import action_to_json
from ohhell.errors import OhHellError
from ohhell.server.cluster.broker import Broker, BrokerError
from ohhell.server.cluster.mirror import TableMirror
from ohhell.server.live.tables import (
    FINISHED,
    Asker,
    LiveTable,
    Seat,
    TableRoom,
    TableSettings,
    chat_text,
    check_reaction,
)
from ohhell.server.metrics import METRICS
from ohhell.server.storage.store import StoreError
from ohhell.server.texts import speaking
from ohhell.server.wire.protocol import ClientMessage, ProtocolError

if TYPE_CHECKING:
    from ohhell.server.live.tables import TableManager

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


class Cluster:
    """This process's part in a site of several processes (see the module docstring)."""

    def __init__(self, manager: TableManager, broker: Broker) -> None:
        self.manager = manager
        self.broker = broker
        self.store = manager.store
        self._outgoing: asyncio.Queue[tuple[str, dict[str, Any]]] = asyncio.Queue()
        self._tasks: set[asyncio.Task[Any]] = set()
        self._published: dict[str, int] = {}
        """The version each owned table last published."""
        self._meta_published: dict[str, dict[str, Any]] = {}
        """The seats, settings and status each owned table last published."""
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
        for code in list(self.manager.tables):
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

    # ------------------------------------------------------------------ opening a table

    async def open(self, code: str) -> TableRoom | None:
        """The table ``code`` in this process: owned (if nobody else holds its lease) or a mirror
        of its owner's; ``None`` if there is no such table."""
        if not await asyncio.to_thread(self.store.table_exists, code):
            return None
        for _attempt in range(20):
            if await self.broker.acquire(code):
                return await self._own(code)
            owner = await self.broker.owner(code)
            if owner is not None:
                mirror = await self._mirror(code, owner)
                if mirror is not None:
                    return mirror
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
        table = self.manager.rebuild(item, fence)
        if table.status == FINISHED and item.row.status != FINISHED:
            # The owner before stopped between the last action's commit and the status's.
            await self.store.set_status(code, FINISHED, fence=fence)
        self.manager.tables[code] = table
        self._published[code] = table.version
        table.replan()
        self.manager.maybe_unload(table)
        log.info("table %s: owned here (fencing token %d)", code, fence)
        return table

    async def _mirror(self, code: str, owner: str) -> TableMirror | None:
        """A copy of ``code`` kept up to date by ``owner``'s changes."""
        await self.broker.watch(code)  # first: no change is missed between the load and the watch
        item = await asyncio.to_thread(self.store.load_table, code)
        if item is None:
            await self.broker.unwatch(code)
            return None
        rows = item.seats
        seats = [Seat(row.seat, row.kind, row.bot, row.name, row.token_hash) for row in rows]
        mirror = TableMirror(self.manager, code, self.manager.rules_of(item), TableSettings.from_json(
            item.row.settings), seats, item.row.status, item.row.created, owner)
        mirror.replay(item.actions)
        mirror.chat = item.chat
        mirror.chat_count = item.chat[-1].id + 1 if item.chat else 0
        try:
            answer = await self.broker.request(owner, {"op": "sync", "code": code}, timeout=3.0)
        except BrokerError:
            await self.broker.unwatch(code)
            return None
        if answer.get("error"):
            await self.broker.unwatch(code)
            return None
        mirror.receive({**answer, "t": "update"})  # first in the table's queue: the events after it follow
        self.manager.mirrors[code] = mirror
        self.report_presence(mirror)  # from now on the owner publishes every change to this process
        await mirror.settled()
        return mirror

    # ------------------------------------------------------------------ owner → mirrors

    def publish_update(self, table: LiveTable, info: dict[str, Any] | None = None) -> None:
        """Tell the mirrors of ``table`` what changed: the actions committed since the last
        telling, the table's information, and its seats, settings and status when they changed
        (called after every committed change)."""
        first = self._published.get(table.code, table.version)
        history = table.state.history
        event: dict[str, Any] = {"t": "update", "from": first, "to": table.version,
                                 "info": info if info is not None else table.public_info(),
                                 "actions": [action_to_json(a) for a in history[first:]]}
        meta = self._meta(table)
        if meta != self._meta_published.get(table.code):
            event.update(meta)
            self._meta_published[table.code] = meta
        self._published[table.code] = table.version
        self._outgoing.put_nowait((table.code, event))

    @staticmethod
    def _meta(table: LiveTable) -> dict[str, Any]:
        return {"status": table.status, "settings": table.settings.to_json(),
                "seats": [dataclasses.astuple(seat.row()) for seat in table.seats]}

    def publish(self, table: LiveTable, event: dict[str, Any]) -> None:
        self._outgoing.put_nowait((table.code, event))

    def _snapshot(self, table: LiveTable) -> dict[str, Any]:
        return {"to": table.version, "info": table.public_info(), **self._meta(table)}

    async def _publisher(self) -> None:
        """Publish the owners' events in order (every mirror hears a table's changes in the
        order they were committed): whatever waits goes out in one round trip to Redis."""
        while True:
            batch = [await self._outgoing.get()]
            while not self._outgoing.empty():
                batch.append(self._outgoing.get_nowait())
            try:
                await self.broker.publish_many(batch)
                METRICS.published.inc(len(batch))
            except Exception as error:  # the mirrors catch up from the database later
                log.warning("could not publish %d changes (%s)", len(batch), error)

    # ------------------------------------------------------------------ mirrors → owner

    async def forward(self, mirror: TableMirror, request: dict[str, Any], answer: bool = True) -> dict[str, Any]:
        """Send a connection's request to the table's owner and return its answer; the owner's
        refusal is raised as the error it would have sent. If the owner is gone, take the table
        over and do it here."""
        request = {**request, "code": mirror.code}
        for _attempt in range(3):
            try:
                started = asyncio.get_running_loop().time()
                found = await self.broker.request(mirror.owner, request, timeout=5.0)
                METRICS.forward_latency.observe(asyncio.get_running_loop().time() - started)
            except BrokerError:
                found = {"error": {"kind": "gone"}}
            error = found.get("error")
            if not error:
                return found
            kind = error.get("kind")
            if kind == "protocol":
                raise ProtocolError(error["code"], error.get("detail"), request.get("id"))
            if kind == "refused":
                raise OhHellError(str(error.get("message")))
            # The owner is gone or is no longer the owner: find the table's owner now.
            if await self._take_over_if_free(mirror):
                break
            owner = await self.broker.owner(mirror.code)
            if owner is not None:
                mirror.owner = owner
        raise ProtocolError("storage", message_id=request.get("id"))

    async def _request(self, request: dict[str, Any]) -> dict[str, Any] | None:
        """Answer another process's request about a table this process owns."""
        op, code = request.get("op"), str(request.get("code"))
        table = self.manager.tables.get(code)
        if op == "presence":
            if table is not None:
                table.presence(str(request["from"]), {int(k): int(v) for k, v in request["seats"].items()},
                               int(request["spectators"]), asyncio.get_running_loop().time() + PRESENCE_HOLDS,
                               watching=bool(request.get("watching", True)))
            return None
        if table is None or table.closed:
            return {"error": {"kind": "not-owner"}}
        if op == "sync":
            return {"from": table.version, "actions": [], **self._snapshot(table)}  # everything, for a new copy
        sender = Asker(request.get("seat"), str(request.get("language") or "en"), request.get("name"))
        message_id = request.get("id")
        try:
            with speaking(sender.language):
                if op == "act":
                    await table.act(sender, ClientMessage("act", request["data"], message_id))
                elif op == "chat":
                    await table.say(sender, chat_text(request.get("text"), message_id), message_id)
                elif op == "react":
                    table.react(sender, check_reaction(request.get("reaction"), message_id), message_id)
                elif op == "start":
                    await table.start(sender, message_id)
                elif op == "back":
                    await table.back(sender, message_id)
                elif op == "rematch":
                    await table.rematch(sender, message_id)
                elif op == "contribute":
                    await table.contribute(sender, request.get("hand"), request.get("value"), message_id)
                elif op == "join":
                    seat, token = await table.join(str(request["name"]), request.get("seat"))
                    return {"seat": seat, "token": token}
                else:
                    return {"error": {"kind": "protocol", "code": "unknown-type"}}
        except ProtocolError as error:
            return {"error": {"kind": "protocol", "code": error.code, "detail": error.detail}}
        except OhHellError as error:
            return {"error": {"kind": "refused", "message": str(error)}}
        except StoreError:
            return {"error": {"kind": "protocol", "code": "storage"}}
        return {"ok": True}

    def report_presence(self, mirror: TableMirror, watching: bool = True) -> None:
        """Tell the owner that this process keeps a copy of ``mirror``'s table (so every change
        is published to it) and how many connections it holds to it."""
        seats, spectators = mirror.presence()
        self.spawn(self._send_presence(mirror.owner, mirror.code, seats, spectators, watching))

    async def _send_presence(self, owner: str, code: str, seats: dict[int, int], spectators: int,
                             watching: bool) -> None:
        with contextlib.suppress(Exception):
            await self.broker.send(owner, {"op": "presence", "code": code, "spectators": spectators,
                                           "seats": {str(k): v for k, v in seats.items()}, "watching": watching})

    # ------------------------------------------------------------------ events

    def _event(self, code: str, event: dict[str, Any]) -> None:
        mirror = self.manager.mirrors.get(code)
        if mirror is None:
            return
        kind = event.get("t")
        if kind in ("update", "message"):
            mirror.receive(event)
        elif kind == "beat":
            mirror.heard = asyncio.get_running_loop().time()
            if int(event.get("to", 0)) > mirror.version:
                mirror.receive({"t": "update", "to": event["to"]})
        elif kind == "gone":  # the owner let the table go: look at the lease at the next beat
            if mirror.connections:
                mirror.heard = 0.0
            else:
                self.drop_mirror(mirror)

    def _reconnected(self) -> None:
        """The link to Redis is back: messages may have been lost; every mirror catches up."""
        for mirror in list(self.manager.mirrors.values()):
            mirror.receive({"t": "update", "to": 1 << 60})
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
            if code in self.manager.tables or code in self.manager.mirrors:
                continue  # run here already, or watched here (a mirror takes over by itself)
            if await self.broker.owner(code) is None and await self.broker.acquire(code):
                await self._own(code)

    async def _renew(self) -> None:
        owned = dict(self.manager.tables)
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
                self.publish(table, {"t": "beat", "to": table.version})

    async def _watch_mirrors(self) -> None:
        now = asyncio.get_running_loop().time()
        for mirror in list(self.manager.mirrors.values()):
            if not mirror.connections and now - (mirror.idle_since or mirror.created_here) > MIRROR_KEPT:
                self.drop_mirror(mirror)
                continue
            self.report_presence(mirror)
            if now - mirror.heard > OWNER_SILENT and mirror.connections:
                await self._take_over_if_free(mirror)

    async def _take_over_if_free(self, mirror: TableMirror) -> bool:
        """If nobody holds ``mirror``'s lease, become the table's owner; the mirror's
        connections are closed and reconnect to the table as it is now."""
        owner = await self.broker.owner(mirror.code)
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
        if self.manager.mirrors.get(mirror.code) is mirror:
            del self.manager.mirrors[mirror.code]
            self.report_presence(mirror, watching=False)
        mirror.close()
        self.spawn(self.broker.unwatch(mirror.code))

    def let_go(self, table: LiveTable) -> None:
        """Stop owning ``table`` (another process owns it, or it is unloaded)."""
        self._published.pop(table.code, None)
        self._meta_published.pop(table.code, None)
        self.spawn(self.broker.release(table.code))
        self.publish(table, {"t": "gone"})


def _safe_url(url: str) -> str:
    """A broker URL without its password, for the log."""
    if "@" not in url:
        return url
    scheme, rest = url.split("://", 1) if "://" in url else ("", url)
    return f"{scheme}://…@{rest.split('@', 1)[1]}"
