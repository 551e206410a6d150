"""The outbox of a connection: writes at once while the socket takes them, keeps the order when
it does not, cuts off a client that falls too far behind, notices a broken socket."""

from __future__ import annotations

import asyncio

import pytest

from ohhell.server.ws.outbox import Outbox, start_eagerly


class Socket:
    """A fake WebSocket whose buffer can be full (``paused``): a write then waits."""

    def __init__(self) -> None:
        self.written: list[str] = []
        self.writable = asyncio.Event()
        self.writable.set()
        self.closed = False
        self.fail = False
        self.waits = 0

    async def send_text(self, text: str) -> None:
        if not self.writable.is_set():
            self.waits += 1
        await self.writable.wait()
        if self.fail:
            raise ConnectionResetError("the client went away")
        self.written.append(text)

    async def close(self) -> None:
        self.closed = True


def run(coroutine: object) -> None:
    asyncio.run(coroutine)  # type: ignore[arg-type]


def test_writes_at_once_in_order() -> None:
    async def scenario() -> None:
        socket = Socket()
        outbox = Outbox(socket.send_text, socket.close, limit=5)
        for text in "abc":
            outbox.put(text)
        assert socket.written == ["a", "b", "c"]  # before any other task could run
        assert outbox.backlog == 0 and not outbox.closed

    run(scenario())


def test_a_slow_socket_keeps_the_order_then_writes_at_once_again() -> None:
    async def scenario() -> None:
        socket = Socket()
        outbox = Outbox(socket.send_text, socket.close, limit=50)
        outbox.put("1")
        socket.writable.clear()  # the client stops reading
        for text in "23456":
            outbox.put(text)
        assert socket.written == ["1"] and outbox.backlog == 4 and socket.waits == 1
        await asyncio.sleep(0.01)
        assert socket.written == ["1"]
        socket.writable.set()  # it reads again
        for _ in range(20):
            await asyncio.sleep(0)
        assert socket.written == list("123456") and outbox.backlog == 0
        outbox.put("7")
        assert socket.written[-1] == "7"  # at once again

    run(scenario())


def test_a_client_too_far_behind_is_cut_off() -> None:
    async def scenario() -> None:
        socket = Socket()
        outbox = Outbox(socket.send_text, socket.close, limit=3)
        socket.writable.clear()
        for index in range(10):
            outbox.put(str(index))
        assert outbox.closed and not outbox.broken
        await outbox.wait_closed()
        assert socket.closed and socket.written == []
        outbox.put("late")
        assert outbox.backlog == 0

    run(scenario())


def test_a_broken_socket_closes_the_outbox() -> None:
    async def scenario() -> None:
        socket = Socket()
        socket.fail = True
        outbox = Outbox(socket.send_text, socket.close, limit=3)
        outbox.put("a")
        assert outbox.broken and outbox.closed
        await outbox.wait_closed()
        assert socket.closed

        # Broken while waiting: noticed when the slow write fails.
        socket = Socket()
        outbox = Outbox(socket.send_text, socket.close, limit=3)
        socket.writable.clear()
        outbox.put("a")
        outbox.put("b")
        socket.fail = True
        socket.writable.set()
        for _ in range(10):
            await asyncio.sleep(0)
        assert outbox.broken and outbox.closed and socket.written == []

    run(scenario())


def test_closing_cancels_a_waiting_write() -> None:
    async def scenario() -> None:
        released: list[str] = []

        async def send(text: str) -> None:
            try:
                await asyncio.sleep(10)
            finally:
                released.append(text)

        async def close() -> None:
            released.append("<closed>")

        outbox = Outbox(send, close, limit=3)
        outbox.put("a")
        outbox.close()
        await outbox.wait_closed()
        await asyncio.sleep(0)
        assert released == ["a", "<closed>"]

    run(scenario())


def test_start_eagerly_hands_errors_and_results_on() -> None:
    async def scenario() -> None:
        async def fails_at_once() -> None:
            raise ValueError("now")

        async def fails_later() -> None:
            await asyncio.sleep(0)
            raise KeyError("later")

        with pytest.raises(ValueError):
            start_eagerly(fails_at_once())
        task = start_eagerly(fails_later())
        assert task is not None
        with pytest.raises(KeyError):
            await task

        future: asyncio.Future[int] = asyncio.get_running_loop().create_future()
        got: list[int] = []

        async def waits() -> None:
            got.append(await future)

        task = start_eagerly(waits())
        assert task is not None and not got
        future.set_result(7)
        await task
        assert got == [7]

    run(scenario())
