"""The Starlette application, the composition root: it builds the site (:class:`~ohhell.server.
web.site.Site`), hooks the community to its tables, and serves every routes module's ``ROUTES``
(``ohhell.server.web.routes``: the pages, the tables, the scoresheets, operations, accounts,
events) and the WebSocket (``docs/protocol.md``).

HTTP (JSON) for what happens once — creating a table, taking a seat, the scorekeeper,
exporting a record — and one WebSocket per open page for the game itself.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import time
from collections.abc import AsyncIterator
from typing import Final

from starlette.applications import Starlette
from starlette.routing import BaseRoute, WebSocketRoute
from starlette.types import ASGIApp
from starlette.websockets import WebSocket, WebSocketDisconnect

from ohhell.i18n import normalize_language
from ohhell.server.config import ServerConfig
from ohhell.server.live.tables import (
    MAX_QUEUED_MESSAGES,
    Connection,
    chat_text,
    check_reaction,
    clean_text,
)
from ohhell.server.texts import pick_language, speaking
from ohhell.server.web.http import EXCEPTION_HANDLERS, RequestLanguage
from ohhell.server.web.routes import accounts, events, ops, pages, sheets, tables
from ohhell.server.web.security import SecurityHeadersMiddleware, allowed_origin
from ohhell.server.web.site import Site, install_community
from ohhell.server.wire.protocol import ClientMessage, ProtocolError, error_message, message_id, parse_client_message
from ohhell.server.ws.outbox import Outbox

log = logging.getLogger("ohhell.server")

ROUTE_MODULES: Final = (pages, tables, sheets, ops, accounts, events)
"""Every module of HTTP routes; the app serves the ``ROUTES`` of each."""

GC_THRESHOLDS: Final = (50_000, 2, 10)
"""The garbage collector's thresholds in a server process (Python's default: 700, 10, 10)."""


def tune_gc() -> None:
    """Make the garbage collector suit a busy server (call once, in a process that only serves).

    Nearly everything a server allocates is freed by reference counting: the views, messages
    and diffs of every broadcast. The cycle collector only finds the rare cycle, yet with
    Python's defaults it ran every 700 net allocations, and every few seconds walked the whole
    heap, which grows with the games' state: with 200 busy tables that took about 9% of the
    server's time, in pauses of up to 275 ms that every table waited through. So: what exists
    once the application is loaded (modules, classes, functions) is moved out of the
    collector's sight for good (:func:`gc.freeze`), and young objects are collected 70 times
    less often, older ones after every second young collection, so that no collection has much
    to walk (:data:`GC_THRESHOLDS`). Measured with 200 tables for three minutes: 0.7% of the
    time, pauses of 30 to 110 ms. Cycles are still collected, just less often.
    """
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)


# ----------------------------------------------------------------------------- the WebSocket


async def websocket_endpoint(websocket: WebSocket) -> None:
    """One client: a hello (table code, and a seat token or none for a spectator), then
    actions, hints and so on; see ``docs/protocol.md``."""
    server: Site = websocket.app.state.server
    config = server.config
    headers = websocket.headers
    if not allowed_origin(headers.get("origin"), headers.get("host"), websocket.url.scheme, config.allowed_origins):
        # Refused before it is accepted: the browser sees the handshake fail (403).
        log.info("a WebSocket from origin %r was refused", headers.get("origin"))
        await websocket.close(code=1008)
        return
    await websocket.accept()
    outbox = Outbox(websocket.send_text, websocket.close, MAX_QUEUED_MESSAGES)
    conn = Connection(pick_language(websocket.headers.get("accept-language")), config, outbox)
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
                if violations > 50:
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


async def _dispatch(server: Site, conn: Connection, message: ClientMessage,
                    background: set[asyncio.Task[None]]) -> None:
    config = server.config
    table = conn.table
    kind = message.kind
    if kind == "ping":
        conn.push({"type": "pong", "id": message.message_id,
                   "version": table.version if table is not None else None})
        return
    if table is None:
        if kind != "hello":
            raise ProtocolError("hello-first", message_id=message.message_id)
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
                           clean_text(name, config.max_name_length) or None if isinstance(name, str) else None,
                           message.message_id)
        return
    if kind == "act":  # the busiest message first
        await table.act(conn, message)
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
        return
    if kind == "chat":
        text = chat_text(message.data.get("text"), message.message_id)
        if not conn.chat_bucket.take():
            raise ProtocolError("rate-limited", message_id=message.message_id)
        await table.say(conn, text, message.message_id)
    elif kind == "react":
        reaction = check_reaction(message.data.get("reaction"), message.message_id)
        if not conn.react_bucket.take():
            raise ProtocolError("rate-limited", message_id=message.message_id)
        table.react(conn, reaction, message.message_id)
    elif kind == "start":
        await table.start(conn, message.message_id)
    elif kind == "back":
        await table.back(conn, message.message_id)
    elif kind == "rematch":
        await table.rematch(conn, message.message_id)
    elif kind == "contribute":
        await table.contribute(conn, message.data.get("hand"), message.data.get("value"), message.message_id)
    elif kind == "history":
        await table.history(conn)


# ----------------------------------------------------------------------------- the application


def create_app(config: ServerConfig | None = None) -> Starlette:
    """The web application (its lifespan opens the database and resumes every table)."""
    config = config or ServerConfig()

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        site = Site(config)
        app.state.server = site
        community = install_community(app.state, site)
        await site.start()
        await community.start()
        try:
            yield
        finally:
            await site.stop()

    routes: list[BaseRoute] = [route for module in ROUTE_MODULES for route in module.ROUTES]
    routes.append(WebSocketRoute("/ws", websocket_endpoint))
    return _App(routes=routes, lifespan=lifespan, exception_handlers=dict(EXCEPTION_HANDLERS))


class _App(Starlette):
    """Starlette with the security headers as the outermost layer: a middleware given to
    ``Starlette(middleware=...)`` sits *inside* its ``ServerErrorMiddleware``, so the 500 answer
    to an unhandled exception would go out without them. Wrapping the whole stack gives every
    HTTP answer the headers, that one included. Inside them, every request is answered in its
    own language (:class:`~ohhell.server.web.http.RequestLanguage`), its error pages too."""

    def build_middleware_stack(self) -> ASGIApp:
        return SecurityHeadersMiddleware(RequestLanguage(super().build_middleware_stack()))
