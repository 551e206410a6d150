"""Writing a message straight to the socket, when the server is uvicorn's sans-I/O WebSocket
protocol (what ``ohhell serve`` runs: uvicorn 0.35 or later with websockets 14 or later).

After every action a message goes to every seat of the table. Written through the ASGI
``send``, each one runs a coroutine of the server that waits for the socket to be writable,
checks the connection's state, encodes the text a second time and frames it with websockets'
general ``Frame`` (a dataclass, its checks, a ``BytesIO``), driven by the outbox's eager start:
several times the Python of what it does. Yet a text frame from a server is two, four or ten
bytes of header before the UTF-8 text (RFC 6455 §5.2: a server masks nothing), and the socket
nearly always takes it at once. So :func:`direct_writer` gives the outbox a function that,
while the socket takes data and the connection is open, frames the message itself and writes it
with one ``transport.write``, exactly as the server would have (with permessage-deflate, which
browsers ask for, websockets still frames it: the compressor's state is the connection's).
In any other case (the buffer is full, the connection is closing or closed, another server)
it answers ``False`` and the outbox sends through the ASGI ``send``, which waits or fails as
it always did.

>>> from ohhell.server.ws.direct import frame_header
>>> frame_header(5), frame_header(126), frame_header(70_000)
(b'\\x81\\x05', b'\\x81~\\x00~', b'\\x81\\x7f\\x00\\x00\\x00\\x00\\x00\\x01\\x11p')
"""

from __future__ import annotations

import functools
import importlib
import struct
from typing import Any, Final

from ohhell.server.ws.outbox import WriteNow

_TEXT_FIN: Final = 0x81
"""The first byte of a whole text message's frame: FIN, no extension bits, opcode 1 (text)."""
_SHORT: Final = tuple(bytes((_TEXT_FIN, length)) for length in range(126))
_MEDIUM: Final = struct.Struct("!BBH")
_LONG: Final = struct.Struct("!BBQ")


def frame_header(length: int) -> bytes:
    """The header of an unmasked, unfragmented text frame of ``length`` bytes (RFC 6455 §5.2)."""
    if length < 126:
        return _SHORT[length]
    if length < 65536:
        return _MEDIUM.pack(_TEXT_FIN, 126, length)
    return _LONG.pack(_TEXT_FIN, 127, length)


@functools.cache
def _sansio_protocol() -> type | None:
    """uvicorn's sans-I/O WebSocket protocol class, or ``None`` (an older uvicorn, or none)."""
    try:
        module = importlib.import_module("uvicorn.protocols.websockets.websockets_sansio_impl")
        state = importlib.import_module("websockets.protocol").State
    except ImportError:
        return None
    found: type | None = getattr(module, "WebSocketsSansIOProtocol", None)
    if found is None or not hasattr(state, "OPEN"):
        return None
    return found


def direct_writer(send: object) -> WriteNow | None:
    """How to write a text message straight to the socket behind ``send``, the ASGI ``send`` of
    an accepted WebSocket (see the module docstring); ``None`` when ``send`` is not that of
    uvicorn's sans-I/O protocol (Starlette's test client, another server)."""
    kind = _sansio_protocol()
    found = getattr(send, "__self__", None)
    if kind is None or not isinstance(found, kind):
        return None
    from websockets.protocol import State

    protocol: Any = found  # uvicorn's, whose attributes are read as its own send reads them

    ws = protocol.conn
    transport = protocol.transport
    writable = protocol.writable
    is_open = State.OPEN

    def can_write() -> bool:
        # What the server's own ``send`` checks before it writes (it would wait for ``writable``
        # or raise), and the transport's own state: anything else goes the server's way.
        return (writable.is_set() and not protocol.close_sent and not protocol.disconnected
                and ws.state is is_open and not transport.is_closing())

    if ws.extensions:  # permessage-deflate: websockets compresses and frames, in order
        def write_framed(data: bytes) -> bool:
            if not can_write():
                return False
            ws.send_text(data)
            transport.write(b"".join(ws.data_to_send()))
            return True

        return write_framed

    def write(data: bytes) -> bool:
        if not can_write():
            return False
        transport.write(frame_header(len(data)) + data)
        return True

    return write
