"""The Starlette application, the composition root: it builds the site (:class:`~ohhell.server.
web.site.Site`), hooks the community to its tables, and serves every routes module's ``ROUTES``
(``ohhell.server.web.routes``: the pages, the tables, the scoresheets, operations, accounts,
events, friends, Web Push) and the WebSocket (``docs/protocol.md``).

HTTP (JSON) for what happens once — creating a table, taking a seat, the scorekeeper,
exporting a record — and one WebSocket per open page for the game itself.
"""

from __future__ import annotations

import contextlib
import gc
import logging
from collections.abc import AsyncIterator
from typing import Final

from starlette.applications import Starlette
from starlette.routing import BaseRoute, WebSocketRoute
from starlette.types import ASGIApp

from ohhell.server.config import ServerConfig
from ohhell.server.web.http import EXCEPTION_HANDLERS, RequestLanguage
from ohhell.server.web.routes import (
    accounts,
    events,
    friends,
    ops,
    pages,
    push,
    quickplay,
    sheets,
    sheets_sync,
    tables,
)
from ohhell.server.web.security import SecurityHeadersMiddleware
from ohhell.server.web.site import Site, install_community
from ohhell.server.ws.endpoint import KeepServerSend, websocket_endpoint

log = logging.getLogger("ohhell.server")

ROUTE_MODULES: Final = (pages, tables, quickplay, sheets, sheets_sync, ops, accounts, events, friends, push)
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
    own language (:class:`~ohhell.server.web.http.RequestLanguage`), its error pages too.
    Outermost, each WebSocket keeps the server's own ``send`` for its messages
    (:class:`~ohhell.server.ws.endpoint.KeepServerSend`)."""

    def build_middleware_stack(self) -> ASGIApp:
        return KeepServerSend(SecurityHeadersMiddleware(RequestLanguage(super().build_middleware_stack())))
