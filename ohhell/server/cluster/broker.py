"""The message broker between the server processes of one site: Redis (or Valkey).

lichess's way, and boardgame.io's: every process holds WebSocket connections of any table;
each table has one owner process, which alone changes it; the processes talk through Redis
pub/sub on named channels:

* ``ohhell:table:CODE`` — the owner's committed changes of a table (published only after the
  database has committed them), heard by every process with a connection to it;
* ``ohhell:proc:ID`` — requests to one process (a player's action forwarded to the table's
  owner, a presence report) and the answers to its own requests.

Who owns a table is a **lease** in Redis (``ohhell:lease:CODE``: the owner's process id, with
a time to live the owner keeps renewing); the safety does not rest on it but on the database's
**fencing token** (:meth:`ohhell.server.storage.store.Store.take_fence`), so an owner that was paused
and wakes up after losing its lease can never write.

Pub/sub delivers at most once: a process that misses a message notices the gap in the table's
version and reads what it missed from the database; when the connection to Redis breaks, the
client reconnects by itself (redis-py re-subscribes its channels) and every watched table is
brought up to date from the database.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import secrets
import time
from collections.abc import Awaitable, Callable, Collection
from typing import Any, Final

import orjson

log = logging.getLogger("ohhell.server.cluster.broker")

PREFIX: Final = "ohhell:"
LEASE_MS: Final = 3000
"""How long a lease lasts unless renewed (an owner renews every third of it)."""

_RENEW: Final = """
local out = {}
for i, key in ipairs(KEYS) do
  if redis.call('get', key) == ARGV[1] then
    redis.call('pexpire', key, ARGV[2])
    out[#out + 1] = i
  end
end
return out
"""
"""Renew every lease of KEYS held by ARGV[1] for ARGV[2] ms; the indexes of those renewed."""

_HAND_OVER: Final = """
if redis.call('get', KEYS[1]) == ARGV[1] then
  redis.call('set', KEYS[1], ARGV[2], 'PX', ARGV[3])
  return 1
end
return 0
"""
"""Give the lease KEYS[1], if ARGV[1] holds it, to ARGV[2] for ARGV[3] ms (one step: nobody can
take it in between)."""

_RELEASE: Final = """
if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end
"""


REDIS_CONNECTIONS: Final = 128
"""Connections to Redis a process keeps at most (one of them its subscription)."""


class BrokerError(RuntimeError):
    """The broker could not deliver a request, or no answer came in time."""


def table_channel(code: str) -> str:
    return f"{PREFIX}table:{code}"


def process_channel(process: str) -> str:
    return f"{PREFIX}proc:{process}"


def lease_key(code: str) -> str:
    return f"{PREFIX}lease:{code}"


EventHandler = Callable[[str, dict[str, Any]], None]
"""Called with a table's code and an event its owner published."""
RequestHandler = Callable[[dict[str, Any]], Awaitable[dict[str, Any] | None]]
"""Answers a request from another process (``None``: no answer is expected)."""


class Broker:
    """This process's link to the others, through Redis (see the module docstring)."""

    def __init__(self, url: str, lease_ms: int = LEASE_MS) -> None:
        from redis.asyncio import BlockingConnectionPool, Redis  # the optional cluster extra

        self.url = url
        self.process = secrets.token_hex(6)
        """This process's id (new at every start: a restarted process is a new one)."""
        self.lease_ms = lease_ms
        # A pool that makes a burst of publishes wait for a free connection (up to 5 s) instead
        # of failing: with the default pool, hundreds of players acting at once through a
        # process raised "Too many connections" (found by benchmarks/cluster_load.py).
        pool = BlockingConnectionPool.from_url(url, max_connections=REDIS_CONNECTIONS, timeout=5,
                                               socket_timeout=5, socket_connect_timeout=5,
                                               health_check_interval=10, retry_on_timeout=True)
        self.redis: Redis = Redis.from_pool(pool)
        self._pubsub: Any = None
        self._reader: asyncio.Task[None] | None = None
        self._waiting: dict[str, asyncio.Future[dict[str, Any]]] = {}
        self._ids = itertools.count()
        self._watched: set[str] = set()
        self.on_event: EventHandler = lambda _code, _event: None
        self.on_request: RequestHandler | None = None
        self.on_reconnect: Callable[[], None] = lambda: None
        """Called when the link to Redis is back after a break (messages may have been lost)."""
        self.connected = False
        self.latency: Callable[[float], None] = lambda _seconds: None
        """Told how long each event took from its publisher to here (for the metrics)."""
        self._renew = self.redis.register_script(_RENEW)
        self._release = self.redis.register_script(_RELEASE)
        self._hand_over = self.redis.register_script(_HAND_OVER)

    # ------------------------------------------------------------------ life

    async def start(self) -> None:
        """Connect and listen on this process's channel (raise if Redis cannot be reached)."""
        await self.redis.ping()
        self._pubsub = self.redis.pubsub(ignore_subscribe_messages=True)
        await self._pubsub.subscribe(process_channel(self.process))
        self.connected = True
        self._reader = asyncio.get_running_loop().create_task(self._read())

    async def close(self) -> None:
        if self._reader is not None:
            self._reader.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._reader
        with contextlib.suppress(Exception):
            if self._pubsub is not None:
                await self._pubsub.aclose()
        with contextlib.suppress(Exception):
            await self.redis.aclose()
        for future in self._waiting.values():
            if not future.done():
                future.set_exception(BrokerError("the broker is closing"))

    async def ready(self) -> bool:
        """Whether Redis answers now."""
        try:
            return bool(await asyncio.wait_for(self.redis.ping(), 1.0))
        except Exception:
            return False

    async def _read(self) -> None:
        """Receive every message of the subscribed channels, for as long as the process runs;
        across a break of the link, wait and go on (redis-py reconnects and re-subscribes)."""
        pause = 0.1
        while True:
            try:
                message = await self._pubsub.get_message(timeout=1.0)
            except asyncio.CancelledError:
                raise
            except Exception as error:
                if self.connected:
                    log.warning("lost the broker (%s); trying again", error)
                self.connected = False
                await asyncio.sleep(pause)
                pause = min(2.0, pause * 2)
                try:
                    await self._pubsub.ping()  # reconnects, and re-subscribes every channel
                except Exception:
                    continue
                continue
            if not self.connected:
                self.connected = True
                pause = 0.1
                log.warning("the broker is back")
                try:
                    self.on_reconnect()
                except Exception:
                    log.exception("catching up after the broker came back failed")
            if message is None or message.get("type") != "message":
                continue
            try:
                self._dispatch(message["channel"].decode(), orjson.loads(message["data"]))
            except Exception:
                log.exception("a message from the broker could not be handled")

    def _dispatch(self, channel: str, data: dict[str, Any]) -> None:
        sent = data.get("sent")
        if isinstance(sent, (int, float)):
            self.latency(max(0.0, time.time() - sent))
        if channel.startswith(PREFIX + "table:"):
            self.on_event(channel[len(PREFIX) + 6:], data)
            return
        answer_to = data.get("re")
        if answer_to is not None:
            future = self._waiting.pop(str(answer_to), None)
            if future is not None and not future.done():
                future.set_result(data)
            return
        if self.on_request is not None:
            task = asyncio.get_running_loop().create_task(self._answer(data))
            task.add_done_callback(_log_failure)

    async def _answer(self, request: dict[str, Any]) -> None:
        assert self.on_request is not None
        answer = await self.on_request(request)
        reply_to, rid = request.get("from"), request.get("rid")
        if answer is None or reply_to is None or rid is None:
            return
        await self._publish(process_channel(str(reply_to)), {**answer, "re": rid})

    async def _publish(self, channel: str, data: dict[str, Any]) -> None:
        await self.redis.publish(channel, orjson.dumps({**data, "sent": time.time()}))

    # ------------------------------------------------------------------ tables' events

    async def publish(self, code: str, event: dict[str, Any]) -> None:
        """Tell every process watching ``code`` (at most once; see the module docstring)."""
        await self._publish(table_channel(code), event)

    async def publish_many(self, events: list[tuple[str, dict[str, Any]]]) -> None:
        """Publish several tables' events, in order, in one round trip."""
        sent = time.time()
        async with self.redis.pipeline(transaction=False) as pipe:
            for code, event in events:
                pipe.publish(table_channel(code), orjson.dumps({**event, "sent": sent}))
            await pipe.execute()

    async def watch(self, code: str, again: bool = False) -> None:
        """Hear the events of ``code`` from now on (``again``: subscribe even if it is watched
        already, for a copy that stopped hearing its owner).

        Counted as watched only once the subscription went through: redis-py re-subscribes
        after a reconnection only the channels whose SUBSCRIBE succeeded, so a code marked
        watched before a failed one (Redis restarting) was never subscribed again, and the
        copy of that table never heard its owner: its players were left waiting for ever."""
        if code in self._watched and not again:
            return
        await self._pubsub.subscribe(table_channel(code))
        self._watched.add(code)

    async def unwatch(self, code: str) -> None:
        if code in self._watched:
            self._watched.discard(code)
            with contextlib.suppress(Exception):
                await self._pubsub.unsubscribe(table_channel(code))

    # ------------------------------------------------------------------ requests

    async def send(self, process: str, message: dict[str, Any]) -> None:
        """A message to one process that needs no answer."""
        await self._publish(process_channel(process), {**message, "from": self.process})

    async def request(self, process: str, message: dict[str, Any], timeout: float = 5.0) -> dict[str, Any]:
        """A message to one process, and its answer (:class:`BrokerError` if none comes in
        ``timeout`` seconds: the process may be gone)."""
        rid = f"{self.process}-{next(self._ids)}"
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._waiting[rid] = future
        try:
            await self._publish(process_channel(process), {**message, "from": self.process, "rid": rid})
            return await asyncio.wait_for(future, timeout)
        except TimeoutError as error:
            raise BrokerError(f"no answer from process {process}") from error
        except BrokerError:
            raise
        except Exception as error:
            raise BrokerError(str(error)) from error
        finally:
            self._waiting.pop(rid, None)

    async def count_within(self, key: str, seconds: int, limit: int) -> bool:
        """Count one more event of ``key`` in the current ``seconds``-long window; whether the
        window's count is still within ``limit`` (a limit shared by every process)."""
        window = int(time.time() // seconds)
        name = f"{PREFIX}rate:{key}:{window}"
        async with self.redis.pipeline(transaction=True) as pipe:
            pipe.incr(name)
            pipe.expire(name, seconds * 2)
            count, _ok = await pipe.execute()
        return int(count) <= limit

    # ------------------------------------------------------------------ leases

    async def acquire(self, code: str) -> bool:
        """Take the lease of ``code`` if nobody holds it."""
        return bool(await self.redis.set(lease_key(code), self.process, nx=True, px=self.lease_ms))

    async def renew(self, codes: Collection[str]) -> set[str]:
        """Renew the leases of ``codes`` this process holds; the codes whose lease it still holds."""
        if not codes:
            return set()
        ordered = list(codes)
        found = await self._renew(keys=[lease_key(code) for code in ordered], args=[self.process, self.lease_ms])
        return {ordered[int(index) - 1] for index in found}

    async def release(self, code: str) -> None:
        with contextlib.suppress(Exception):
            await self._release(keys=[lease_key(code)], args=[self.process])

    async def hand_over(self, code: str, successor: str) -> bool:
        """Give the lease of ``code``, if this process holds it, to the process ``successor``."""
        return bool(await self._hand_over(keys=[lease_key(code)], args=[self.process, successor, self.lease_ms]))

    async def owner(self, code: str) -> str | None:
        """The process that holds the lease of ``code``, if any."""
        found = await self.redis.get(lease_key(code))
        if found is None:
            return None
        return found.decode() if isinstance(found, bytes) else str(found)


def _log_failure(task: asyncio.Task[Any]) -> None:
    if not task.cancelled() and task.exception() is not None:
        log.error("answering a request failed", exc_info=task.exception())
