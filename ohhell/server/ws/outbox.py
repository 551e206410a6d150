"""Writing a connection's messages: at once while the socket takes them, in order always.

After every action the server writes a message to every connection of the table. Handing
each one to a sender task through a queue costs a task switch per message, which with
hundreds of busy tables was a good share of the server's time; yet writing a WebSocket
message is nearly always immediate (the socket takes the bytes into its buffer), and only a
client that stops reading makes the writer wait.

So an :class:`Outbox` writes each message at once: straight to the socket when it can
(``write_now``, :mod:`ohhell.server.ws.direct`), else by starting the ASGI send the way Python
3.12's eager tasks start a coroutine: it runs until it finishes or first has to wait. Only in
the second case (the socket's buffer is full) is a task made to finish that write, and later
messages queue behind it, in order, until the client catches up — or falls ``limit`` messages
behind and is cut off (it reconnects and gets a fresh state).

Messages are the UTF-8 bytes of their JSON text, as the encoder makes them and the socket takes
them: only the ASGI send, which wants a ``str``, decodes them.

>>> import asyncio
>>> async def demo() -> list[bytes]:
...     written: list[bytes] = []
...     async def send(data: bytes) -> None:
...         written.append(data)
...     async def close() -> None:
...         written.append(b"<closed>")
...     outbox = Outbox(send, close, limit=10)
...     outbox.put(b"a"); outbox.put(b"b")
...     seen = list(written)  # written at once, before any other task ran
...     outbox.close()
...     await outbox.wait_closed()
...     return seen + written
>>> asyncio.run(demo())
[b'a', b'b', b'a', b'b', b'<closed>']
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import functools
from collections.abc import Callable, Coroutine
from typing import Any

Send = Callable[[bytes], Coroutine[Any, Any, None]]
"""Writes one text message, given as its UTF-8 bytes (the ASGI send)."""
WriteNow = Callable[[bytes], bool]
"""Writes one text message at once and returns ``True``, or returns ``False``: it must go
through the :data:`Send` (:func:`ohhell.server.ws.direct.direct_writer`)."""
Close = Callable[[], Coroutine[Any, Any, None]]
"""Closes the socket (``WebSocket.close``)."""


def start_eagerly(coroutine: Coroutine[Any, Any, None]) -> asyncio.Task[None] | None:
    """Run ``coroutine`` now, until it finishes (``None``) or first waits: then a task finishes
    it (the returned task). An exception raised before it waits is raised here.

    >>> async def demo() -> tuple[bool, bool]:
    ...     async def quick() -> None:
    ...         pass
    ...     async def slow() -> None:
    ...         await asyncio.sleep(0.01)
    ...     task = start_eagerly(slow())
    ...     assert task is not None
    ...     await task
    ...     return start_eagerly(quick()) is None, task.done()
    >>> asyncio.run(demo())
    (True, True)
    """
    try:
        waiting = coroutine.send(None)
    except StopIteration:
        return None
    except BaseException:
        coroutine.close()
        raise
    task = asyncio.get_running_loop().create_task(_resume(coroutine, waiting))
    # A task cancelled before its first step never runs ``_resume``: close the coroutine then
    # (a no-op once it has finished), so that its cleanup runs at once, not whenever it is freed.
    task.add_done_callback(lambda _task: coroutine.close())
    return task


async def _resume(coroutine: Coroutine[Any, Any, None], waiting: Any) -> None:
    """Drive a started coroutine to its end as a task would: when what it waits for is done,
    resume it (it reads the result itself); if this task is cancelled, so is the coroutine."""
    loop = asyncio.get_running_loop()
    while True:
        try:
            if waiting is None:  # a bare yield (``asyncio.sleep(0)``): just let others run
                await asyncio.sleep(0)
            else:
                ready: asyncio.Future[None] = loop.create_future()
                waiting.add_done_callback(functools.partial(_set_ready, ready))
                await ready
        except BaseException as error:  # cancelled: the coroutine gets the error where it waits
            try:
                waiting = coroutine.throw(error)
            except StopIteration:
                return
            continue
        try:
            waiting = coroutine.send(None)
        except StopIteration:
            return


def _set_ready(ready: asyncio.Future[None], _done: Any) -> None:
    if not ready.done():
        ready.set_result(None)


class Outbox:
    """The messages of one connection, written in order (see the module docstring)."""

    def __init__(self, send: Send, close: Close, limit: int, write_now: WriteNow | None = None) -> None:
        self._send = send
        self._write_now = write_now
        self._close = close
        self.limit = limit
        self._waiting: collections.deque[bytes] = collections.deque()
        self._writer: asyncio.Task[None] | None = None
        """The task that writes while the socket is slow (``None``: writes start at once)."""
        self._closing: asyncio.Task[None] | None = None
        self.closed = False
        self.broken = False
        """The socket failed (the client went away)."""

    def put(self, data: bytes) -> None:
        """Write ``data`` (a message's UTF-8 text) after everything put before (at once if
        nothing waits)."""
        if self.closed:
            return
        if self._writer is None:
            self._start(data)
        elif len(self._waiting) >= self.limit:
            self.close()  # too far behind: cut off
        else:
            self._waiting.append(data)

    def _start(self, data: bytes) -> None:
        write_now = self._write_now
        try:
            if write_now is not None and write_now(data):
                return
            self._writer = start_eagerly(self._send(data))
        except Exception:  # the socket failed: the client went away
            self.broken = True
            self.close()
            return
        if self._writer is not None:  # the socket is full: a task finishes the write
            self._writer.add_done_callback(self._written)

    def _written(self, task: asyncio.Task[None]) -> None:
        """A slow write finished: write what waits, or go back to writing at once."""
        self._writer = None
        if task.cancelled():
            return
        if task.exception() is not None:
            self.broken = True
            self.close()
            return
        while self._waiting and self._writer is None and not self.closed:
            self._start(self._waiting.popleft())

    @property
    def backlog(self) -> int:
        """How many messages wait behind a slow write."""
        return len(self._waiting)

    def close(self) -> None:
        """Stop writing: drop what waits and close the socket (in a task)."""
        if self.closed:
            return
        self.closed = True
        self._waiting.clear()
        writer, self._writer = self._writer, None
        if writer is not None:
            writer.cancel()
        with contextlib.suppress(RuntimeError):  # no running loop: nothing to close any more
            self._closing = asyncio.get_running_loop().create_task(self._close_socket(writer))

    async def _close_socket(self, writer: asyncio.Task[None] | None) -> None:
        if writer is not None:  # the write it cancels gives up first
            await asyncio.wait([writer])
        with contextlib.suppress(Exception):
            await self._close()

    async def wait_closed(self) -> None:
        """Wait until the socket is closed (after :meth:`close`)."""
        if self._closing is not None:
            await self._closing
