"""What every HTTP route shares: the request's language (and the scope every request is
answered in), its JSON body, the refusals.

Each request is answered inside its own language scope (:class:`RequestLanguage`): the
language it asks for (``?lang=``, else its ``Accept-Language``), for this request only. The
server answers many requests at once on one thread and its handlers await, so the language is
a context variable of :mod:`ohhell.i18n`, never a process-wide switch: what one request sets is
seen by nobody else, and a request that asks for no language is answered in English.
"""

from __future__ import annotations

from starlette.requests import HTTPConnection
from starlette.types import ASGIApp, Receive, Scope, Send

from ohhell.i18n import normalize_language
from ohhell.server.texts import pick_language, speaking


def request_language(request: HTTPConnection) -> str:
    """The language a request asks for: ``?lang=``, else the first of its ``Accept-Language``
    that ohhell speaks, else English."""
    asked = request.query_params.get("lang")
    return normalize_language(asked) if asked else pick_language(request.headers.get("accept-language"))


class RequestLanguage:
    """Answer each HTTP request in its own language (:func:`request_language`), naming cards
    as people see them, in a scope that ends with the request (ASGI middleware)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":  # a WebSocket takes the language of its hello, per connection
            await self.app(scope, receive, send)
            return
        with speaking(request_language(HTTPConnection(scope))):
            await self.app(scope, receive, send)
