"""Messages written straight to uvicorn's socket (``ohhell.server.ws.direct``): the same bytes as
the server's own ``send`` writes, only while it would write at once, and whole games through a
real server with and without permessage-deflate."""

from __future__ import annotations

import asyncio
import json
import random
from pathlib import Path
from typing import Any, cast

import pytest
import websockets
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.extensions.permessage_deflate import PerMessageDeflate
from websockets.frames import Frame, Opcode
from websockets.protocol import State
from websockets.server import ServerProtocol
from wsclient import Client, create_table

from conftest import run_async, start_server
from ohhell.server.ws import endpoint
from ohhell.server.ws.direct import direct_writer, frame_header
from ohhell.server.ws.outbox import WriteNow


@pytest.mark.parametrize("length", [0, 1, 125, 126, 127, 1000, 65535, 65536, 70_000])
def test_the_frame_header_is_the_one_websockets_writes(length: int) -> None:
    data = b"x" * length
    assert frame_header(length) + data == Frame(Opcode.TEXT, data).serialize(mask=False)


class FakeTransport:
    def __init__(self) -> None:
        self.written: list[bytes] = []
        self.closing = False

    def write(self, data: bytes) -> None:
        self.written.append(data)

    def is_closing(self) -> bool:
        return self.closing


def accepted_protocol(deflate: bool = False) -> tuple[WebSocketsSansIOProtocol, FakeTransport]:
    """uvicorn's protocol object as it is once a WebSocket is accepted (without a server)."""
    protocol = object.__new__(WebSocketsSansIOProtocol)
    protocol.conn = ServerProtocol()
    protocol.conn.state = State.OPEN
    if deflate:
        protocol.conn.extensions = [PerMessageDeflate(False, False, 15, 15)]
    transport = FakeTransport()
    protocol.transport = transport  # type: ignore[assignment]
    protocol.writable = asyncio.Event()
    protocol.writable.set()
    protocol.close_sent = False
    protocol.disconnected = False
    return protocol, transport


def test_direct_writes_are_what_the_server_writes_and_only_while_it_would_write_at_once() -> None:
    protocol, transport = accepted_protocol()
    write = direct_writer(protocol.send)
    assert write is not None
    message = json.dumps({"type": "state", "text": "é" * 100}).encode()
    assert write(message)
    assert transport.written == [Frame(Opcode.TEXT, message).serialize(mask=False)]
    protocol.writable.clear()  # the socket's buffer is full: the server's send must wait
    assert not write(b"{}")
    protocol.writable.set()
    protocol.close_sent = True  # the server is closing
    assert not write(b"{}")
    protocol.close_sent = False
    protocol.conn.state = State.CLOSING  # the client is closing
    assert not write(b"{}")
    protocol.conn.state = State.OPEN
    transport.closing = True
    assert not write(b"{}")
    transport.closing = False
    protocol.disconnected = True
    assert not write(b"{}")
    assert len(transport.written) == 1


def test_with_permessage_deflate_websockets_frames_and_compresses_in_order() -> None:
    protocol, transport = accepted_protocol(deflate=True)
    reference, _ = accepted_protocol(deflate=True)
    write = direct_writer(protocol.send)
    assert write is not None
    messages = [json.dumps({"type": "state", "version": index, "pad": "ab" * index}).encode() for index in range(5)]
    for message in messages:
        assert write(message)
        reference.conn.send_text(message)
    assert transport.written == reference.conn.data_to_send()


def test_no_direct_writer_for_another_server() -> None:
    async def send(message: Any) -> None:
        pass

    assert direct_writer(send) is None
    assert direct_writer(None) is None


def test_whole_games_through_a_real_server_with_and_without_compression(tmp_path: Path,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """A seat (permessage-deflate, as browsers) and a spectator (no compression) follow a whole
    game whose messages nearly all went straight to the socket, and end up with the same state."""
    written: dict[bool, int] = {True: 0, False: 0}  # by "compressed"

    def counting_writer(send: object) -> WriteNow | None:
        write = direct_writer(send)
        assert write is not None, "uvicorn's sans-I/O protocol is what the tests' server runs"
        compressed = bool(cast(Any, send).__self__.conn.extensions)

        def counted(data: bytes) -> bool:
            done = write(data)
            written[compressed] += done
            return done

        return counted

    monkeypatch.setattr(endpoint, "direct_writer", counting_writer)
    live = start_server(f"sqlite:///{tmp_path / 'direct.db'}")
    try:
        async def scenario() -> None:
            created = create_table(live.url, "Ann", players=3, seats=["random", "random"],
                                   knobs={"schedule": "explicit", "hands": [[3, "turn-up"], [2, "turn-up"]]})
            code = created["code"]
            spectator_state: dict[str, Any] = {}
            async with websockets.connect(f"{live.ws_url}?table={code}", compression=None) as watcher:
                await watcher.send(json.dumps({"type": "hello", "table": code}))
                ann = await Client(live.ws_url, code, created["token"]).connect()
                await ann.play_to_the_end(random.Random(3))

                async def watch() -> None:
                    async for text in watcher:
                        message = json.loads(text)
                        if message["type"] == "state":
                            if message["full"]:
                                spectator_state.clear()
                            spectator_state.update(message["changes"])
                            if spectator_state.get("game_over"):
                                return

                await asyncio.wait_for(watch(), 10)
                await ann.close()
            assert spectator_state["totals"] == ann.state["totals"]
            assert spectator_state["version"] == ann.state["version"]

        run_async(scenario())
    finally:
        live.stop()
    assert written[True] > 10 and written[False] > 10
