"""What every HTTP route shares: the site it serves, the request's language (and the scope every
request is answered in), its JSON body, its client's address, the refusals.

Each request is answered inside its own language scope (:class:`RequestLanguage`): the
language it asks for (``?lang=``, else its ``Accept-Language``), for this request only. The
server answers many requests at once on one thread and its handlers await, so the language is
a context variable of :mod:`ohhell.i18n`, never a process-wide switch: what one request sets is
seen by nobody else, and a request that asks for no language is answered in English. So a
handler translates with ``_()`` anywhere; :func:`say` fills in a text marked with ``N_``.
"""

from __future__ import annotations

import functools
import ipaddress
import logging
from collections.abc import Awaitable, Callable, Mapping
from typing import Any, Final

import orjson
from starlette.requests import HTTPConnection, Request
from starlette.responses import JSONResponse, Response
from starlette.types import ASGIApp, Receive, Scope, Send

from ohhell.i18n import N_, _, normalize_language
from ohhell.server.community.accounts import AccountError, Session
from ohhell.server.community.daily import DailyService
from ohhell.server.community.events import EventService
from ohhell.server.community.service import Community
from ohhell.server.storage.store import StoreError
from ohhell.server.texts import pick_language, speaking
from ohhell.server.web.csrf import CSRF_HEADER, origin_allowed, token_matches
from ohhell.server.web.forms import BadName
from ohhell.server.web.site import Site
from ohhell.server.wire.protocol import ProtocolError, error_message

log = logging.getLogger("ohhell.server")

SESSION_COOKIE: Final = "ohhell_session"
"""The cookie of a signed-in session (``HttpOnly``, ``SameSite=Lax``, ``Secure`` over HTTPS)."""
MAX_BODY: Final = 16384
"""The largest HTTP request body the API reads."""


# ----------------------------------------------------------------------------- the site


def site(request: HTTPConnection) -> Site:
    """What the application holds while it runs (:class:`~ohhell.server.web.site.Site`)."""
    found: Site = request.app.state.server
    return found


def community(request: HTTPConnection) -> Community:
    """The site's accounts, results and ratings."""
    found: Community = request.app.state.community
    return found


def event_service(request: HTTPConnection) -> EventService:
    found: EventService = request.app.state.events
    return found


def daily_service(request: HTTPConnection) -> DailyService:
    found: DailyService = request.app.state.daily
    return found


# ----------------------------------------------------------------------------- the language


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


def say(message: str, **params: Any) -> str:
    """``message`` (marked with ``N_``) in the request's language, ``params`` filled in."""
    text = _(message)
    return text % params if params else text


# ----------------------------------------------------------------------------- answers


def error(status: int, message: str, **extra: Any) -> JSONResponse:
    """A refusal: ``{"error": message, **extra}`` (``message`` already in the request's language)."""
    return JSONResponse({"error": message, **extra}, status_code=status)


def refuse(status: int, code: str, message: str, **params: Any) -> JSONResponse:
    """A refusal with a ``code`` for programs: ``message`` (marked with ``N_``) translated."""
    return error(status, say(message, **params), code=code)


# ----------------------------------------------------------------------------- the request


async def json_body(request: Request, limit: int = MAX_BODY) -> dict[str, Any] | JSONResponse:
    """The request's JSON object, or the 400 that says it is not one.

    orjson is strict where the standard module is lenient: no NaN or Infinity, no lone
    surrogates, no invalid UTF-8, at most 1024 levels of nesting — each is refused (400),
    never a 500. So is a body over ``limit`` bytes (:data:`MAX_BODY` unless a route says more).
    """
    raw = await request.body()
    data: Any = None
    if len(raw) <= limit:
        try:
            data = orjson.loads(raw or b"{}")
        except orjson.JSONDecodeError:
            data = None
    if not isinstance(data, dict):
        return refuse(400, "bad-request", N_("send a JSON object"))
    return data


def client_address(request: HTTPConnection) -> str:
    """The address limits count by: the client's IPv4 address, or its IPv6 /64 network (one
    household or server gets a whole /64, so counting single IPv6 addresses would count nothing).
    Behind a reverse proxy this is the real client only when uvicorn trusts the proxy's headers
    (``--forwarded-allow-ips``).

    >>> from types import SimpleNamespace
    >>> client_address(SimpleNamespace(client=SimpleNamespace(host="2001:db8:1:2:3:4:5:6")))
    '2001:db8:1:2::/64'
    >>> client_address(SimpleNamespace(client=SimpleNamespace(host="203.0.113.9")))
    '203.0.113.9'
    """
    host = request.client.host if request.client else "?"
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return host
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        return str(ipaddress.ip_network(f"{address}/64", strict=False))
    return str(address)


async def may_create(request: Request) -> JSONResponse | None:
    """The 429 of a request that would create one table (or sheet) too many from its address this
    minute, else ``None`` (counted, see :meth:`~ohhell.server.web.site.Site.may_create`)."""
    if await site(request).may_create(client_address(request)):
        return None
    return refuse(429, "rate-limited", N_("Too many new tables; wait a minute."))


async def creation_body(request: Request) -> dict[str, Any] | JSONResponse:
    """The JSON object of a request that creates something (a table, a seat, a sheet), or the
    refusal: too many creations from this address this minute, or not a JSON object."""
    refused = await may_create(request)
    return refused if refused is not None else await json_body(request)


# ----------------------------------------------------------------------------- sessions and cross-site checks


def refuse_error(problem: AccountError) -> JSONResponse:
    """The refusal an :class:`~ohhell.server.community.accounts.AccountError` stands for."""
    return refuse(problem.status, problem.code, problem.message, **problem.params)


SIGN_IN: Final = N_("Sign in first.")
"""What a guest is told by a route that needs an account (unless the route says why)."""


async def current_session(request: Request) -> Session | None:
    return await community(request).accounts.session(request.cookies.get(SESSION_COOKIE))


async def signed_in(request: Request, why: str = SIGN_IN) -> Session | JSONResponse:
    """The session of a request that needs an account, or the 401 that tells a guest ``why``
    (a text marked with ``N_``)."""
    session = await current_session(request)
    return session if session is not None else refuse(401, "sign-in", why)


async def guard(request: Request) -> tuple[Session | None, JSONResponse | None]:
    """The session of a state-changing request, after the cross-site checks; or the refusal."""
    scheme = request.url.scheme
    host = request.headers.get("host", "")
    if not origin_allowed(request.headers, scheme, host, site(request).config.allowed_origins):
        return None, refuse(403, "cross-site", N_("This request did not come from this site's pages."))
    session = await current_session(request)
    if not token_matches(request.headers.get(CSRF_HEADER), session.csrf if session is not None else None):
        return None, refuse(403, "csrf", N_("This request did not come from this site's pages."))
    return session, None


async def change_body(request: Request) -> dict[str, Any] | JSONResponse:
    """The JSON body of a state-changing request a guest may make too (signing up, signing in),
    after the cross-site checks (:func:`guard`); or the refusal."""
    _session, refused = await guard(request)
    if refused is not None:
        return refused
    return await json_body(request)


async def signed_in_change(request: Request, why: str = SIGN_IN) -> tuple[Session, dict[str, Any]] | JSONResponse:
    """The session and JSON body of a state-changing request that needs an account, or its
    refusal: from another site (403, :func:`guard`), from a guest (401, telling ``why``), not a
    JSON object (400)."""
    session, refused = await guard(request)
    if refused is not None:
        return refused
    if session is None:
        return refuse(401, "sign-in", why)
    data = await json_body(request)
    if isinstance(data, JSONResponse):
        return data
    return session, data


Endpoint = Callable[[Request], Awaitable[Response]]
AccountChange = Callable[[Request, Session, dict[str, Any]], Awaitable[Response]]


def account_change(why: str = SIGN_IN) -> Callable[[AccountChange], Endpoint]:
    """Make a handler of ``(request, session, body)`` the route of a state-changing request that
    needs an account: called once :func:`signed_in_change` has the session and the body, else
    that refusal is the answer (a guest is told ``why``)."""

    def route(handler: AccountChange) -> Endpoint:
        @functools.wraps(handler)
        async def endpoint(request: Request) -> Response:
            found = await signed_in_change(request, why)
            if isinstance(found, JSONResponse):
                return found
            return await handler(request, *found)

        return endpoint

    return route


def text_field(data: dict[str, Any], key: str) -> str:
    value = data.get(key)
    if not isinstance(value, str):
        return ""
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate
        return ""
    return value if "\x00" not in value else ""


# ----------------------------------------------------------------------------- errors the routes let through


async def _bad_name(request: Request, problem: Exception) -> Response:
    return error(400, str(problem))


async def _unavailable(request: Request, problem: Exception) -> Response:
    """The database, or the process that owns the table (several processes), could not be
    reached in time: a 503 the client may retry, never a 500."""
    log.warning("%s %s: %s", request.method, request.url.path, problem)
    return error(503, _("The server is busy; try again in a moment."), code="unavailable")


async def _refused(request: Request, problem: Exception) -> Response:
    """The owner of the table (another process) refused a forwarded request."""
    assert isinstance(problem, ProtocolError)
    if problem.code == "storage":
        return await _unavailable(request, problem)
    message = error_message(problem.code, request_language(request), problem.detail)
    return error(409, message["message"] + (f" ({problem.detail})" if problem.detail else ""), code=problem.code)


EXCEPTION_HANDLERS: Final[Mapping[Any, Callable[[Request, Exception], Awaitable[Response]]]] = {
    BadName: _bad_name, StoreError: _unavailable, ProtocolError: _refused}
"""The answers to what a route raises and does not catch: a bad name (400), the database or the
table's owner out of reach (503), the table's owner refusing (409)."""
