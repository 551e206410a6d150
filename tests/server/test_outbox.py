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

    async def send_text(self, data: bytes) -> None:
        if not self.writable.is_set():
            self.waits += 1
        await self.writable.wait()
        if self.fail:
            raise ConnectionResetError("the client went away")
        self.written.append(data.decode())

    async def close(self) -> None:
        self.closed = True


def run(coroutine: object) -> None:
    asyncio.run(coroutine)  # type: ignore[arg-type]


def test_writes_at_once_in_order() -> None:
    async def scenario() -> None:
        socket = Socket()
        outbox = Outbox(socket.send_text, socket.close, limit=5)
        for text in "abc":
            outbox.put(text.encode())
        assert socket.written == ["a", "b", "c"]  # before any other task could run
        assert outbox.backlog == 0 and not outbox.closed

    run(scenario())


def test_a_slow_socket_keeps_the_order_then_writes_at_once_again() -> None:
    async def scenario() -> None:
        socket = Socket()
        outbox = Outbox(socket.send_text, socket.close, limit=50)
        outbox.put(b"1")
        socket.writable.clear()  # the client stops reading
        for text in "23456":
            outbox.put(text.encode())
        assert socket.written == ["1"] and outbox.backlog == 4 and socket.waits == 1
        await asyncio.sleep(0.01)
        assert socket.written == ["1"]
        socket.writable.set()  # it reads again
        for _ in range(20):
            await asyncio.sleep(0)
        assert socket.written == list("123456") and outbox.backlog == 0
        outbox.put(b"7")
        assert socket.written[-1] == "7"  # at once again

    run(scenario())


def test_a_client_too_far_behind_is_cut_off() -> None:
    async def scenario() -> None:
        socket = Socket()
        outbox = Outbox(socket.send_text, socket.close, limit=3)
        socket.writable.clear()
        for index in range(10):
            outbox.put(str(index).encode())
        assert outbox.closed and not outbox.broken
        await outbox.wait_closed()
        assert socket.closed and socket.written == []
        outbox.put(b"late")
        assert outbox.backlog == 0

    run(scenario())


def test_a_broken_socket_closes_the_outbox() -> None:
    async def scenario() -> None:
        socket = Socket()
        socket.fail = True
        outbox = Outbox(socket.send_text, socket.close, limit=3)
        outbox.put(b"a")
        assert outbox.broken and outbox.closed
        await outbox.wait_closed()
        assert socket.closed

        # Broken while waiting: noticed when the slow write fails.
        socket = Socket()
        outbox = Outbox(socket.send_text, socket.close, limit=3)
        socket.writable.clear()
        outbox.put(b"a")
        outbox.put(b"b")
        socket.fail = True
        socket.writable.set()
        for _ in range(10):
            await asyncio.sleep(0)
        assert outbox.broken and outbox.closed and socket.written == []

    run(scenario())


def test_closing_cancels_a_waiting_write() -> None:
    async def scenario() -> None:
        released: list[str] = []

        async def send(data: bytes) -> None:
            try:
                await asyncio.sleep(10)
            finally:
                released.append(data.decode())

        async def close() -> None:
            released.append("<closed>")

        outbox = Outbox(send, close, limit=3)
        outbox.put(b"a")
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


class DirectSocket(Socket):
    """A socket that also takes writes at once (``write_now``) while its buffer has room."""

    def __init__(self) -> None:
        super().__init__()
        self.direct: list[str] = []

    def write_now(self, data: bytes) -> bool:
        if not self.writable.is_set():
            return False
        self.direct.append(data.decode())
        self.written.append(data.decode())
        return True


def test_write_now_goes_straight_to_the_socket_and_the_send_takes_over_when_it_cannot() -> None:
    async def scenario() -> None:
        socket = DirectSocket()
        outbox = Outbox(socket.send_text, socket.close, limit=50, write_now=socket.write_now)
        outbox.put(b"1")
        outbox.put(b"2")
        assert socket.direct == ["1", "2"] and socket.waits == 0  # no coroutine ran
        socket.writable.clear()  # the client stops reading: the send waits, the rest queues
        for text in "345":
            outbox.put(text.encode())
        assert socket.written == ["1", "2"] and outbox.backlog == 2 and socket.waits == 1
        socket.writable.set()
        for _ in range(20):
            await asyncio.sleep(0)
        assert socket.written == list("12345") and outbox.backlog == 0
        assert socket.direct == ["1", "2", "4", "5"]  # after the slow write, straight again, in order
        outbox.put(b"6")
        assert socket.direct[-1] == "6" and socket.written == list("123456")

    run(scenario())


def test_a_direct_write_that_fails_closes_the_outbox() -> None:
    async def scenario() -> None:
        socket = Socket()

        def write_now(data: bytes) -> bool:
            raise ConnectionResetError("the client went away")

        outbox = Outbox(socket.send_text, socket.close, limit=3, write_now=write_now)
        outbox.put(b"a")
        assert outbox.broken and outbox.closed
        await outbox.wait_closed()
        assert socket.closed and socket.written == []

    run(scenario())
