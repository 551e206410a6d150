"""Quick play's HTTP API (``docs/protocol.md``, "Quick play"): enter the pool, ask about your
place in it (once a second, until seated), leave it, and the lobby's counts of people playing
and waiting. The pool's logic is :mod:`ohhell.server.community.quickplay`."""

from __future__ import annotations

import asyncio
from typing import Final

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from ohhell.i18n import _
from ohhell.server.community.quickplay import (
    DEFAULT_FAMILY,
    DEFAULT_PLAYERS,
    QuickPlay,
    QuickPlayError,
    families,
)
from ohhell.server.community.ratings import MU, account_ratings
from ohhell.server.storage.store import StoreError
from ohhell.server.web.forms import person_name
from ohhell.server.web.http import creation_body, current_session, error, json_body, site

_LOCK: Final = asyncio.Lock()


async def quick_play(request: Request) -> QuickPlay:
    """The site's quick play, made at its first use (it needs only the store and the tables)."""
    state = request.app.state
    found: QuickPlay | None = getattr(state, "quickplay", None)
    if found is None:
        async with _LOCK:
            found = getattr(state, "quickplay", None)
            if found is None:
                server = site(request)
                found = state.quickplay = QuickPlay(server.store, server.tables)
    return found


def _refused(problem: QuickPlayError | StoreError) -> Response:
    if isinstance(problem, StoreError):
        return error(503, _("the server could not save that; try again"))
    return error(problem.status, problem.message)


async def api_join(request: Request) -> Response:
    """Enter the pool: ``{name, family, players, level}`` (a signed-in player plays under their
    account's name, matched by their rating in the family)."""
    data = await creation_body(request)
    if isinstance(data, Response):
        return data
    server = site(request)
    session = await current_session(request)
    name = session.account.name if session is not None else person_name(data.get("name"),
                                                                         server.config.max_name_length)
    if name is None:
        return error(400, _("Please enter your name."))
    family, players = data.get("family", DEFAULT_FAMILY), data.get("players", DEFAULT_PLAYERS)
    level = data.get("level", server.tables.stand_in_level)
    if not isinstance(family, str) or not isinstance(players, int) or isinstance(players, bool) \
            or not isinstance(level, str):
        return error(400, _("give a family of rules, a number of players and a bot level"))
    rating: float | None = None
    account: str | None = None
    if session is not None:
        account = session.account.id
        account_id = account

        def read_rating() -> float:
            with server.store.engine.connect() as conn:
                return float(account_ratings(conn, account_id).get(family, {}).get("mu", MU))

        rating = await asyncio.to_thread(read_rating)
    quick = await quick_play(request)
    try:
        ticket, answer = await quick.join(name, family, players, level, account, rating)
    except (QuickPlayError, StoreError) as problem:
        return _refused(problem)
    # A latecomer promised a bot's seat at a game being played has no ticket: the answer is the seat.
    return JSONResponse({**({"ticket": ticket} if ticket is not None else {}), "wait": quick.wait, **answer.to_json()})


async def api_poll(request: Request) -> Response:
    """Your place in the pool (``POST`` with ``{ticket}``, once a second): ``waiting`` with the
    seconds left and how many wait with you, or ``seated`` with the table, seat and token."""
    data = await json_body(request)
    if isinstance(data, Response):
        return data
    ticket = data.get("ticket")
    if not isinstance(ticket, str) or not ticket:
        return error(400, _("give the ticket Play now gave you"))
    try:
        answer = await (await quick_play(request)).poll(ticket)
    except (QuickPlayError, StoreError) as problem:
        return _refused(problem)
    return JSONResponse(answer.to_json())


async def api_leave(request: Request) -> Response:
    """Leave the pool (``{ticket}``): whether you were still waiting."""
    data = await json_body(request)
    if isinstance(data, Response):
        return data
    ticket = data.get("ticket")
    if not isinstance(ticket, str) or not ticket:
        return error(400, _("give the ticket Play now gave you"))
    try:
        left = await (await quick_play(request)).leave(ticket)
    except StoreError as problem:
        return _refused(problem)
    return JSONResponse({"left": left})


async def api_counts(request: Request) -> Response:
    """What quick play offers and how many people are playing and waiting on the site."""
    quick = await quick_play(request)
    return JSONResponse({"families": families(), "wait": quick.wait, **await quick.counts()})


ROUTES: Final = [
    Route("/api/quickplay", api_counts),
    Route("/api/quickplay", api_join, methods=["POST"]),
    Route("/api/quickplay/poll", api_poll, methods=["POST"]),
    Route("/api/quickplay/leave", api_leave, methods=["POST"]),
]
