"""The HTTP API of accounts, players, ratings, duplicate events and the daily deal.

Every answer is JSON; every refusal a 4xx with a translated ``error`` (and a ``code`` for
programs). The session cookie (:data:`SESSION_COOKIE`) is ``HttpOnly``, ``SameSite=Lax``,
``Secure`` when the request came over HTTPS; every state-changing request passes
:func:`guard` (the site's own origin and the CSRF header, :mod:`ohhell.server.web.csrf`).

Private data — the signed-in account's own sessions and unfinished games — is only ever
served from ``/api/account…`` to that account's session; the public pages (``/api/players/…``,
``/api/bots/…``, ``/api/ratings…``) hold finished games, figures and ratings only.
"""

from __future__ import annotations

import asyncio
import ipaddress
import json
from collections.abc import Awaitable, Callable
from typing import Any, Final

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from ohhell.i18n import N_, _, normalize_language, translations
from ohhell.server.community import duplicate, fair_pool
from ohhell.server.community.accounts import AccountError, Session, SignedIn
from ohhell.server.community.daily import DailyService
from ohhell.server.community.events import EventService
from ohhell.server.community.ratings import FAMILIES, FAMILY_NAMES, account_ratings, leaderboard, rating_chart
from ohhell.server.community.service import Community, table_extra
from ohhell.server.community.stats import embargo_of, game_json, player_statistics, results_for_account, results_for_bot
from ohhell.server.texts import pick_language
from ohhell.server.web.csrf import CSRF_HEADER, origin_allowed, token_matches

SESSION_COOKIE: Final = "ohhell_session"
GUEST_COOKIE: Final = "ohhell_guest"
MAX_BODY: Final = 16384
MAX_CLAIMS: Final = 200
"""Seats one request may claim (a browser's whole history of tables)."""

Endpoint = Callable[[Request], Awaitable[Response]]


# ----------------------------------------------------------------------------- helpers


def community(request: Request) -> Community:
    found: Community = request.app.state.community
    return found


def language(request: Request) -> str:
    asked = request.query_params.get("lang")
    return normalize_language(asked) if asked else pick_language(request.headers.get("accept-language"))


def say(request: Request, message: str, **params: Any) -> str:
    """``message`` (marked with ``N_``) in the request's language."""
    text = translations(language(request)).gettext(message)
    return text % params if params else text


def refuse(request: Request, status: int, code: str, message: str, **params: Any) -> JSONResponse:
    return JSONResponse({"error": say(request, message, **params), "code": code}, status_code=status)


def refuse_error(request: Request, error: AccountError) -> JSONResponse:
    return refuse(request, error.status, error.code, error.message, **error.params)


def client_address(request: Request) -> str:
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


def allowed_origins(request: Request) -> tuple[str, ...]:
    server = getattr(request.app.state, "server", None)
    config = getattr(server, "config", None)
    found = getattr(config, "allowed_origins", ())
    return tuple(found) if isinstance(found, (list, tuple)) else ()


async def current_session(request: Request) -> Session | None:
    return await community(request).accounts.session(request.cookies.get(SESSION_COOKIE))


async def guard(request: Request) -> tuple[Session | None, JSONResponse | None]:
    """The session of a state-changing request, after the cross-site checks; or the refusal."""
    scheme = request.url.scheme
    host = request.headers.get("host", "")
    if not origin_allowed(request.headers, scheme, host, allowed_origins(request)):
        return None, refuse(request, 403, "cross-site", N_("This request did not come from this site's pages."))
    session = await current_session(request)
    if not token_matches(request.headers.get(CSRF_HEADER), session.csrf if session is not None else None):
        return None, refuse(request, 403, "csrf", N_("This request did not come from this site's pages."))
    return session, None


async def body(request: Request) -> dict[str, Any] | JSONResponse:
    raw = await request.body()
    try:
        if len(raw) > MAX_BODY:
            raise ValueError("too large")
        data = json.loads(raw or b"{}")
    except (ValueError, RecursionError):
        data = None
    if not isinstance(data, dict):
        return refuse(request, 400, "bad-request", N_("send a JSON object"))
    return data


def text_field(data: dict[str, Any], key: str) -> str:
    value = data.get(key)
    if not isinstance(value, str):
        return ""
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate
        return ""
    return value if "\x00" not in value else ""


def set_session_cookie(request: Request, response: Response, signed: SignedIn, days: float) -> None:
    response.set_cookie(SESSION_COOKIE, signed.cookie, max_age=int(days * 86400), path="/", httponly=True,
                        samesite="lax", secure=request.url.scheme == "https")


def clear_session_cookie(request: Request, response: Response) -> None:
    response.delete_cookie(SESSION_COOKIE, path="/", httponly=True, samesite="lax",
                           secure=request.url.scheme == "https")


def account_json(session: Session | None) -> dict[str, Any]:
    if session is None:
        return {"account": None, "csrf": None}
    return {"account": {"name": session.account.name, "since": session.account.created}, "csrf": session.csrf}


def seats_to_claim(data: dict[str, Any]) -> list[tuple[str, str]] | None:
    """The ``seats`` of a request: ``[{"table": code, "token": token}, …]`` (``None``: malformed)."""
    found = data.get("seats", [])
    if not isinstance(found, list) or len(found) > MAX_CLAIMS:
        return None
    out = []
    for item in found:
        if not isinstance(item, dict):
            return None
        table, token = item.get("table"), item.get("token")
        if not isinstance(table, str) or not isinstance(token, str) or not 0 < len(table) <= 16 \
                or not 0 < len(token) <= 200:
            return None
        out.append((table.upper(), token))
    return out


async def claim_all(request: Request, account_id: str, claims: list[tuple[str, str]]) -> list[dict[str, Any]]:
    """Claim each seat; the answer says which were claimed and why not the others."""
    out = []
    for table, token in claims:
        try:
            seat = await community(request).claim(account_id, table, token)
            out.append({"table": table, "seat": seat, "claimed": True})
        except AccountError as error:
            out.append({"table": table, "claimed": False, "code": error.code,
                        "error": say(request, error.message, **error.params)})
    return out


# ----------------------------------------------------------------------------- accounts


async def api_account(request: Request) -> Response:
    """Who is signed in here (and the CSRF token the pages send back), or nobody."""
    return JSONResponse(account_json(await current_session(request)), headers={"Cache-Control": "no-store"})


async def api_signup(request: Request) -> Response:
    _session, refused = await guard(request)
    if refused is not None:
        return refused
    data = await body(request)
    if isinstance(data, JSONResponse):
        return data
    claims = seats_to_claim(data)
    if claims is None:
        return refuse(request, 400, "bad-seats", N_("seats must be a list of tables and their tokens"))
    service = community(request).accounts
    try:
        signed = await service.signup(text_field(data, "name"), text_field(data, "password"), client_address(request))
    except AccountError as error:
        return refuse_error(request, error)
    claimed = await claim_all(request, signed.account.id, claims)
    response = JSONResponse({"account": {"name": signed.account.name, "since": signed.account.created},
                             "csrf": signed.csrf, "claimed": claimed})
    set_session_cookie(request, response, signed, service.config.session_days)
    return response


async def api_login(request: Request) -> Response:
    _session, refused = await guard(request)
    if refused is not None:
        return refused
    data = await body(request)
    if isinstance(data, JSONResponse):
        return data
    service = community(request).accounts
    try:
        signed = await service.login(text_field(data, "name"), text_field(data, "password"), client_address(request))
    except AccountError as error:
        return refuse_error(request, error)
    claims = seats_to_claim(data) or []
    claimed = await claim_all(request, signed.account.id, claims)
    response = JSONResponse({"account": {"name": signed.account.name, "since": signed.account.created},
                             "csrf": signed.csrf, "claimed": claimed})
    set_session_cookie(request, response, signed, service.config.session_days)
    return response


async def _signed_in(request: Request) -> tuple[Session, dict[str, Any]] | JSONResponse:
    """The session and body of a state-changing request that needs an account."""
    session, refused = await guard(request)
    if refused is not None:
        return refused
    if session is None:
        return refuse(request, 401, "sign-in", N_("Sign in first."))
    data = await body(request)
    if isinstance(data, JSONResponse):
        return data
    return session, data


async def api_logout(request: Request) -> Response:
    found = await _signed_in(request)
    if isinstance(found, JSONResponse):
        return found
    session, _data = found
    await community(request).accounts.logout(session)
    response = JSONResponse({"account": None})
    clear_session_cookie(request, response)
    return response


async def api_logout_everywhere(request: Request) -> Response:
    found = await _signed_in(request)
    if isinstance(found, JSONResponse):
        return found
    session, _data = found
    ended = await community(request).accounts.logout_everywhere(session.account.id)
    response = JSONResponse({"account": None, "ended": ended})
    clear_session_cookie(request, response)
    return response


async def api_password(request: Request) -> Response:
    found = await _signed_in(request)
    if isinstance(found, JSONResponse):
        return found
    session, data = found
    try:
        await community(request).accounts.change_password(session, text_field(data, "old"), text_field(data, "new"))
    except AccountError as error:
        return refuse_error(request, error)
    return JSONResponse({"changed": True})


async def api_delete(request: Request) -> Response:
    found = await _signed_in(request)
    if isinstance(found, JSONResponse):
        return found
    session, data = found
    try:
        renamed = await community(request).accounts.delete(session, text_field(data, "password"))
    except AccountError as error:
        return refuse_error(request, error)
    rename_live_seats(request, renamed)
    response = JSONResponse({"deleted": True})
    clear_session_cookie(request, response)
    return response


def rename_live_seats(request: Request, renamed: list[tuple[str, int]]) -> None:
    """The seats of a deleted account take the neutral name in the tables this process holds too."""
    from ohhell.server.community.accounts import FORMER_PLAYER

    server = getattr(request.app.state, "server", None)
    tables = getattr(getattr(server, "tables", None), "tables", {})
    for code, seat in renamed:
        table = tables.get(code)
        if table is not None and 0 <= seat < len(table.seats):
            table.seats[seat].name = FORMER_PLAYER


async def api_claim(request: Request) -> Response:
    found = await _signed_in(request)
    if isinstance(found, JSONResponse):
        return found
    session, data = found
    claims = seats_to_claim(data)
    if claims is None:
        return refuse(request, 400, "bad-seats", N_("seats must be a list of tables and their tokens"))
    return JSONResponse({"claimed": await claim_all(request, session.account.id, claims)})


async def api_my_games(request: Request) -> Response:
    """The signed-in account's own tables, unfinished ones included (private)."""
    session = await current_session(request)
    if session is None:
        return refuse(request, 401, "sign-in", N_("Sign in first."))
    rows = await community(request).accounts.linked_tables(session.account.id)
    return JSONResponse({"games": [{"table": table, "seat": seat, "status": status, "created": created}
                                   for table, seat, status, created in rows],
                         "sessions": await community(request).accounts.session_count(session.account.id)},
                        headers={"Cache-Control": "no-store"})


# ----------------------------------------------------------------------------- players and bots


async def api_player(request: Request) -> Response:
    """A player's public page: figures, ratings, the rating chart, finished games."""
    hub = community(request)
    account = await hub.accounts.by_name(str(request.path_params["name"]))
    if account is None:
        return refuse(request, 404, "no-player", N_("There is no player with that name."))

    def read(conn: Any) -> dict[str, Any]:
        results = hub.public(conn, results_for_account(conn, account.id))
        return {"name": account.name, "since": account.created, "ratings": account_ratings(conn, account.id),
                "chart": rating_chart(conn, account.id), "statistics": player_statistics(results),
                "games": [game_json(result) for result in results[:200]]}

    return JSONResponse(await hub.read(read))


async def api_bot(request: Request) -> Response:
    """A bot level's page: its fixed rating (and ``arena_elo``, the arena's measurement on the Elo
    scale it is derived from), figures and recent games."""
    from ohhell.server.community.ratings import ARENA_ELO, BOT_RATINGS, rating_json

    level = str(request.path_params["level"])
    levels = getattr(getattr(getattr(request.app.state, "server", None), "tables", None), "levels", None)
    if level not in BOT_RATINGS and (levels is None or level not in levels):
        return refuse(request, 404, "no-bot", N_("There is no bot called that here."))

    def read(conn: Any) -> dict[str, Any]:
        results = community(request).public(conn, results_for_bot(conn, level))
        fixed = BOT_RATINGS.get(level)
        return {"bot": level, "rating": rating_json(*fixed) if fixed else None, "arena_elo": ARENA_ELO.get(level),
                "statistics": player_statistics(results), "games": [game_json(result) for result in results[:100]]}

    return JSONResponse(await community(request).read(read))


async def api_families(request: Request) -> Response:
    return JSONResponse({"families": [{"family": family, "name": say(request, FAMILY_NAMES[family]),
                                       "about": say(request, about)} for family, about in FAMILIES.items()]})


async def api_leaderboard(request: Request) -> Response:
    family = str(request.path_params["family"])
    if family not in FAMILIES:
        return refuse(request, 404, "no-family", N_("There is no such family of rules."))
    rows = await community(request).read(lambda conn: leaderboard(conn, family))
    return JSONResponse({"family": family, "name": say(request, FAMILY_NAMES[family]),
                         "about": say(request, FAMILIES[family]), "players": rows})


# ----------------------------------------------------------------------------- the pages' texts


async def api_texts(request: Request) -> Response:
    """The texts of this module's pages in a language (``/i18n/community/{lang}.json``)."""
    from ohhell.server.web.community_texts import community_catalog

    lang = str(request.path_params["lang"]).removesuffix(".json")
    return JSONResponse(community_catalog(normalize_language(lang)), headers={"Cache-Control": "no-cache"})


# ----------------------------------------------------------------------------- routes

PAGE_PATHS: Final = ("/account", "/u/{name}", "/bots/{level}", "/ratings", "/ratings/{family}", "/events",
                     "/e/{event}", "/daily")
"""The client's pages of this module (served by the single-page client)."""


def routes(page: Endpoint | None = None) -> list[BaseRoute]:
    """Every route of this module (the pages too, when ``page`` serves the client)."""
    found: list[BaseRoute] = [
        Route("/i18n/community/{lang}", api_texts),
        Route("/api/account", api_account),
        Route("/api/account/signup", api_signup, methods=["POST"]),
        Route("/api/account/login", api_login, methods=["POST"]),
        Route("/api/account/logout", api_logout, methods=["POST"]),
        Route("/api/account/logout-everywhere", api_logout_everywhere, methods=["POST"]),
        Route("/api/account/password", api_password, methods=["POST"]),
        Route("/api/account/delete", api_delete, methods=["POST"]),
        Route("/api/account/claim", api_claim, methods=["POST"]),
        Route("/api/account/games", api_my_games),
        Route("/api/players/{name}", api_player),
        Route("/api/bots/{level}", api_bot),
        Route("/api/ratings", api_families),
        Route("/api/ratings/{family}", api_leaderboard),
    ]
    from ohhell.server.web.routes import events as events_api

    found += events_api.routes()
    if page is not None:
        found += [Route(path, page) for path in PAGE_PATHS]
    return found


def install(app: Any, server: Any, config: Any = None) -> Community:
    """Give a server process its :class:`Community`, listening to the table manager's finished
    games (before the server loads its tables, so a game that ends right after a restart is
    heard). ``app.state.accounts_config`` (an :class:`~ohhell.server.community.accounts.AccountsConfig`), if
    set, replaces the defaults."""
    hub = Community(server.store, config or getattr(app.state, "accounts_config", None))
    app.state.community = hub
    app.state.events = EventService(server.store)
    daily = app.state.daily = DailyService(server.store)

    async def daily_finished(table: Any, results: Any) -> None:
        if isinstance(table_extra(table).get("daily"), str):
            await daily.finish_try(table.code, [hand.scores[0] for hand in table.state.finished_hands])

    hub.finish_listeners.append(daily_finished)
    server.tables.on_finished.append(hub.game_finished)

    async def private_until_over(table: Any) -> str | None:
        """A duplicate event's table, or a daily deal's game, is nobody's to watch, download
        or analyse but its seats' until the event (the day) is over: the same cards are still
        to be played elsewhere."""
        embargo = embargo_of(table_extra(table))
        if embargo is None:
            return None
        lifted = await asyncio.to_thread(lambda: _lifted(hub, embargo))
        if lifted:
            return None
        if embargo.startswith("daily:"):
            return _("This is one of today's daily deals: it can be watched once the day is over.")
        return _("This table plays in a duplicate event: it can be watched once the event is over.")

    server.tables.look_guards.append(private_until_over)

    async def event_fairness(table: Any, record: dict[str, Any]) -> dict[str, Any]:
        """A duplicate event's or daily deal's table dealt from the event's seed (and pool):
        its record carries every hand's fairness, the seed once the event (the day) is over —
        as the event's export does — so the table's own record and verdicts check it too."""
        spec = table.settings.deals or {}
        if spec.get("kind") != duplicate.KIND:
            return record
        deals = duplicate.EventDeals.from_json(spec)
        embargo = embargo_of(table_extra(table))

        def look() -> tuple[fair_pool.Pool | None, bool]:
            with hub.store.engine.connect() as conn:
                pool = fair_pool.read(conn, deals.event_id) if deals.pooled else None
                return pool, embargo is None or embargo in hub.lifted(conn, {embargo})

        pool, revealed = await asyncio.to_thread(look)
        if deals.pooled:
            if pool is None or pool.open:
                return record  # nothing dealt from the pool yet
            deals.use(pool)
        return deals.annotate(record, revealed=revealed)

    server.tables.record_annotators.append(event_fairness)
    return hub


def _lifted(hub: Community, embargo: str) -> bool:
    with hub.store.engine.connect() as conn:
        return embargo in hub.lifted(conn, {embargo})
