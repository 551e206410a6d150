"""The HTTP API of accounts, players, bots and ratings.

Every answer is JSON; every refusal a 4xx with a translated ``error`` (and a ``code`` for
programs). The session cookie (:data:`SESSION_COOKIE`) is ``HttpOnly``, ``SameSite=Lax``,
``Secure`` when the request came over HTTPS; every state-changing request passes
:func:`guard` (the site's own origin and the CSRF header, :mod:`ohhell.server.web.csrf`).

Private data — the signed-in account's own sessions and unfinished games — is only ever
served from ``/api/account…`` to that account's session; the public pages (``/api/players/…``,
``/api/bots/…``, ``/api/ratings…``) hold finished games, figures and ratings only.
"""

from __future__ import annotations

from typing import Any, Final

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from ohhell.i18n import N_
from ohhell.server.community.accounts import AccountError, Session, SignedIn
from ohhell.server.community.ratings import (
    ARENA_ELO,
    BOT_RATINGS,
    FAMILIES,
    FAMILY_NAMES,
    leaderboard,
    rating_json,
)
from ohhell.server.community.stats import bot_page, player_page
from ohhell.server.web.http import (
    SESSION_COOKIE,
    account_change,
    change_body,
    client_address,
    community,
    current_session,
    refuse,
    refuse_error,
    say,
    signed_in,
    site,
    text_field,
)

MAX_CLAIMS: Final = 200
"""Seats one request may claim (a browser's whole history of tables)."""


# ----------------------------------------------------------------------------- helpers


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
                        "error": say(error.message, **error.params)})
    return out


# ----------------------------------------------------------------------------- accounts


async def api_account(request: Request) -> Response:
    """Who is signed in here (and the CSRF token the pages send back), or nobody."""
    return JSONResponse(account_json(await current_session(request)), headers={"Cache-Control": "no-store"})


async def api_signup(request: Request) -> Response:
    data = await change_body(request)
    if isinstance(data, JSONResponse):
        return data
    claims = seats_to_claim(data)
    if claims is None:
        return refuse(400, "bad-seats", N_("seats must be a list of tables and their tokens"))
    service = community(request).accounts
    try:
        signed = await service.signup(text_field(data, "name"), text_field(data, "password"), client_address(request))
    except AccountError as error:
        return refuse_error(error)
    claimed = await claim_all(request, signed.account.id, claims)
    response = JSONResponse({"account": {"name": signed.account.name, "since": signed.account.created},
                             "csrf": signed.csrf, "claimed": claimed})
    set_session_cookie(request, response, signed, service.config.session_days)
    return response


async def api_login(request: Request) -> Response:
    data = await change_body(request)
    if isinstance(data, JSONResponse):
        return data
    service = community(request).accounts
    try:
        signed = await service.login(text_field(data, "name"), text_field(data, "password"), client_address(request))
    except AccountError as error:
        return refuse_error(error)
    claims = seats_to_claim(data) or []
    claimed = await claim_all(request, signed.account.id, claims)
    response = JSONResponse({"account": {"name": signed.account.name, "since": signed.account.created},
                             "csrf": signed.csrf, "claimed": claimed})
    set_session_cookie(request, response, signed, service.config.session_days)
    return response


@account_change()
async def api_logout(request: Request, session: Session, _data: dict[str, Any]) -> Response:
    await community(request).accounts.logout(session)
    response = JSONResponse({"account": None})
    clear_session_cookie(request, response)
    return response


@account_change()
async def api_logout_everywhere(request: Request, session: Session, _data: dict[str, Any]) -> Response:
    ended = await community(request).accounts.logout_everywhere(session.account.id)
    response = JSONResponse({"account": None, "ended": ended})
    clear_session_cookie(request, response)
    return response


@account_change()
async def api_password(request: Request, session: Session, data: dict[str, Any]) -> Response:
    try:
        await community(request).accounts.change_password(session, text_field(data, "old"), text_field(data, "new"))
    except AccountError as error:
        return refuse_error(error)
    return JSONResponse({"changed": True})


@account_change()
async def api_delete(request: Request, session: Session, data: dict[str, Any]) -> Response:
    try:
        renamed = await community(request).accounts.delete(session, text_field(data, "password"))
    except AccountError as error:
        return refuse_error(error)
    site(request).rename_seats(renamed)
    response = JSONResponse({"deleted": True})
    clear_session_cookie(request, response)
    return response


@account_change()
async def api_claim(request: Request, session: Session, data: dict[str, Any]) -> Response:
    claims = seats_to_claim(data)
    if claims is None:
        return refuse(400, "bad-seats", N_("seats must be a list of tables and their tokens"))
    return JSONResponse({"claimed": await claim_all(request, session.account.id, claims)})


async def api_my_games(request: Request) -> Response:
    """The signed-in account's own tables, unfinished ones included (private)."""
    session = await signed_in(request)
    if isinstance(session, JSONResponse):
        return session
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
        return refuse(404, "no-player", N_("There is no player with that name."))
    page = await hub.read(lambda conn: player_page(conn, account.id, hub.public))
    return JSONResponse({"name": account.name, "since": account.created, **page})


async def api_bot(request: Request) -> Response:
    """A bot level's page: its fixed rating (and ``arena_elo``, the arena's measurement on the Elo
    scale it is derived from), figures and recent games."""
    level = str(request.path_params["level"])
    if level not in BOT_RATINGS and level not in site(request).tables.levels:
        return refuse(404, "no-bot", N_("There is no bot called that here."))
    hub = community(request)
    page = await hub.read(lambda conn: bot_page(conn, level, hub.public))
    fixed = BOT_RATINGS.get(level)
    return JSONResponse({"bot": level, "rating": rating_json(*fixed) if fixed else None,
                         "arena_elo": ARENA_ELO.get(level), **page})


async def api_families(request: Request) -> Response:
    return JSONResponse({"families": [{"family": family, "name": say(FAMILY_NAMES[family]),
                                       "about": say(about)} for family, about in FAMILIES.items()]})


async def api_leaderboard(request: Request) -> Response:
    family = str(request.path_params["family"])
    if family not in FAMILIES:
        return refuse(404, "no-family", N_("There is no such family of rules."))
    rows = await community(request).read(lambda conn: leaderboard(conn, family))
    return JSONResponse({"family": family, "name": say(FAMILY_NAMES[family]),
                         "about": say(FAMILIES[family]), "players": rows})


ROUTES: Final = [
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
