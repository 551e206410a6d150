"""The WebSocket endpoint (``/ws``): the origin check, the hello and its deadline, the rate
limits, then each message to the table it concerns (``docs/protocol.md``)."""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Final, Protocol

from starlette.types import ASGIApp, Receive, Scope, Send
from starlette.websockets import WebSocket, WebSocketDisconnect

from ohhell.i18n import normalize_language
from ohhell.server.config import ServerConfig
from ohhell.server.live.chat import clean_text
from ohhell.server.live.commands import perform
from ohhell.server.live.manager import TableManager
from ohhell.server.texts import pick_language, speaking
from ohhell.server.wire.protocol import ClientMessage, ProtocolError, error_message, message_id, parse_client_message
from ohhell.server.ws.connection import MAX_QUEUED_MESSAGES, Connection
from ohhell.server.ws.direct import direct_writer
from ohhell.server.ws.origin import allowed_origin
from ohhell.server.ws.outbox import Outbox
from ohhell.server.ws.outbox import Send as SendText

log = logging.getLogger("ohhell.server.ws.endpoint")

VIOLATIONS_ALLOWED = 50
"""Messages over the rate limit a connection may send before it is closed."""

SERVER_SEND: Final = "ohhell.server_send"
"""Where :class:`KeepServerSend` leaves the server's own ``send`` in a WebSocket's scope."""


class KeepServerSend:
    """The outermost ASGI layer: keeps the server's own ``send`` of each WebSocket in its scope.

    Every message of a game goes to every seat after every action, and each one written
    through Starlette's ``WebSocket.send_text`` passes its state checks and the exception
    handler's wrapper of ``send``, a few coroutines more per message, which none of them needs
    once the socket is accepted (nothing else wraps a WebSocket's ``send``). The endpoint
    writes its messages through the kept ``send`` instead; the handshake and the closing still
    go through Starlette.
    """

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket":
            scope[SERVER_SEND] = send
        await self.app(scope, receive, send)


def text_sender(websocket: WebSocket) -> SendText:
    """How to write one text message (its UTF-8 bytes) to an accepted ``websocket``: straight
    to the server's ``send`` when :class:`KeepServerSend` kept it, else through Starlette."""
    send = websocket.scope.get(SERVER_SEND)
    if send is None:
        async def send_through_starlette(data: bytes) -> None:
            await websocket.send_text(data.decode())

        return send_through_starlette

    async def send_text(data: bytes) -> None:
        await send({"type": "websocket.send", "text": data.decode()})

    return send_text


class Served(Protocol):
    """What the endpoint needs of the running server (``app.state.server``)."""

    @property
    def config(self) -> ServerConfig: ...

    @property
    def tables(self) -> TableManager: ...


async def websocket_endpoint(websocket: WebSocket) -> None:
    """One client: a hello (table code, and a seat token or none for a spectator), then
    actions, hints and so on; see ``docs/protocol.md``."""
    server: Served = websocket.app.state.server
    config = server.config
    headers = websocket.headers
    if not allowed_origin(headers.get("origin"), headers.get("host"), websocket.url.scheme, config.allowed_origins):
        # Refused before it is accepted: the browser sees the handshake fail (403).
        log.info("a WebSocket from origin %r was refused", headers.get("origin"))
        await websocket.close(code=1008)
        return
    await websocket.accept()
    outbox = Outbox(text_sender(websocket), websocket.close, MAX_QUEUED_MESSAGES,
                    direct_writer(websocket.scope.get(SERVER_SEND)))
    conn = Connection(pick_language(websocket.headers.get("accept-language")), config, outbox)
    # The connection's messages are served by a task of its own. This coroutine runs under the
    # whole ASGI stack (a dozen middleware and routing coroutines), and each time a task
    # resumes, it resumes through every coroutine it awaits in: once for each message from the
    # client and once for each commit it waits for, on every action. The task resumes only
    # its own few; this one waits for it (and cancels it if it is cancelled).
    await asyncio.create_task(_serve(websocket, server, conn, outbox))


async def _serve(websocket: WebSocket, server: Served, conn: Connection, outbox: Outbox) -> None:
    """Read the client's messages and answer each, until it goes away or must be cut off."""
    config = server.config
    background: set[asyncio.Task[None]] = set()
    violations = 0
    hello_by = time.monotonic() + config.hello_timeout
    try:
        while not conn.closed:
            if conn.table is None:  # no hello yet: wait only until the hello deadline
                try:
                    message = await asyncio.wait_for(websocket.receive(), max(0.0, hello_by - time.monotonic()))
                except TimeoutError:
                    conn.push(error_message("hello-timeout", conn.language))
                    break
            else:
                message = await websocket.receive()
            if message["type"] == "websocket.disconnect":
                break
            raw = message.get("text")
            if raw is None:
                raw = message.get("bytes") or b""
            if not conn.bucket.take():
                violations += 1
                conn.push(error_message("rate-limited", conn.language,
                                        message_id=message_id(raw, config.max_message_bytes)))
                if violations > VIOLATIONS_ALLOWED:
                    break
                continue
            try:
                parsed = parse_client_message(raw, config.max_message_bytes)
                await _dispatch(server, conn, parsed, background)
            except ProtocolError as error:
                version = conn.table.version if conn.table is not None else None
                conn.push(error_message(error.code, conn.language, error.detail, error.message_id, version))
    except WebSocketDisconnect:
        pass
    finally:
        if conn.table is not None:
            conn.table.detach(conn)
        conn.close()
        for task in background:
            task.cancel()
        await outbox.wait_closed()


async def _dispatch(server: Served, conn: Connection, message: ClientMessage,
                    background: set[asyncio.Task[None]]) -> None:
    table = conn.table
    kind = message.kind
    if kind == "ping":
        conn.push({"type": "pong", "id": message.message_id,
                   "version": table.version if table is not None else None})
        return
    if table is None:
        if kind != "hello":
            raise ProtocolError("hello-first", message_id=message.message_id)
        await _hello(server, conn, message)
        return
    if kind == "hello":
        raise ProtocolError("bad-field", "hello", message.message_id)
    if kind == "hint":
        async def hint() -> None:
            try:
                await table.hint(conn, message)
            except ProtocolError as error:
                table.send_error(conn, error)

        task = asyncio.create_task(hint())
        background.add(task)
        task.add_done_callback(background.discard)
    elif kind == "history":
        await table.history(conn)
    else:
        await perform(table, conn, message, conn.allowed)


async def _hello(server: Served, conn: Connection, message: ClientMessage) -> None:
    """Let the connection in at the table it names (with a seat's token, or as a spectator)."""
    language = message.data.get("lang")
    if isinstance(language, str):
        conn.language = normalize_language(language)
    found = await server.tables.get(str(message.data["table"]))
    if found is None:
        raise ProtocolError("no-such-table", message_id=message.message_id)
    token = message.data.get("token")
    name = message.data.get("name")
    if not (isinstance(token, str) and token):  # a spectator: is the table open to watch yet?
        with speaking(conn.language):
            reason = await server.tables.why_private(found)
        if reason is not None:
            raise ProtocolError("private", reason, message.message_id)
    await found.attach(conn, token if isinstance(token, str) and token else None,
                       clean_text(name, server.config.max_name_length) or None if isinstance(name, str) else None,
                       message.message_id)
    conn.table = found
