"""The HTTP API of the games this part of the server creates: rated tables, duplicate events
and the daily deal (see :mod:`ohhell.server.community.events` and :mod:`ohhell.server.community.daily` for what
each shows and withholds).

Tables are created through the table manager (``create_seated`` for an event's table,
``create`` for a try or a rated table) with a deal source and ``extra`` settings.
"""

from __future__ import annotations

import secrets
import time
from typing import Any, Final

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from ohhell.errors import OhHellError, RulesError
from ohhell.explain import describe_rules
from ohhell.i18n import N_, _, ngettext
from ohhell.rules import Rules
from ohhell.server.community import fair_pool
from ohhell.server.community.accounts import AccountError, Session
from ohhell.server.community.daily import Day, next_day, today
from ohhell.server.community.duplicate import EventDeals
from ohhell.server.community.events import OPEN, check_seats, new_event_id
from ohhell.server.live.manager import TableManager
from ohhell.server.storage.kinds import SeatKind, TableStatus
from ohhell.server.storage.store import StoreError
from ohhell.server.web.forms import BadTimer, rules_from_request, turn_timer
from ohhell.server.web.http import (
    community,
    creation_body,
    current_session,
    daily_service,
    event_service,
    guard,
    json_body,
    may_create,
    refuse,
    refuse_error,
    say,
    site,
    text_field,
)

GUEST_COOKIE: Final = "ohhell_guest"
MAX_EVENT_NAME: Final = 64
GUEST_DAYS: Final = 400


def manager(request: Request) -> TableManager:
    return site(request).tables


def person_name(request: Request, session: Session | None, data: dict[str, Any]) -> str | None:
    """The name a person plays under: their account's, else the one they typed."""
    if session is not None:
        return session.account.name
    name = " ".join(text_field(data, "name").split())[:site(request).config.max_name_length]
    return name or None


def timer_of(request: Request, data: dict[str, Any]) -> float | JSONResponse:
    """The turn timer a form asks for (as ``POST /api/tables``), or the refusal."""
    try:
        return turn_timer(data, site(request).config)
    except BadTimer as problem:
        return JSONResponse({"error": str(problem), "code": "bad-timer"}, status_code=400)


async def create_table(request: Request, rules: Rules, seats: list[str], extra: dict[str, Any],
                       deals: EventDeals, timer: float, name: str | None = None) -> tuple[Any, str | None]:
    """A table dealt from ``deals`` with ``extra`` settings: all seats given (``name`` None: a
    duplicate event's table, nobody its host) or seat 0 for the person ``name``; the table and
    seat 0's token."""
    tables = manager(request)
    try:
        if name is None:
            return await tables.create_seated(rules, seats, timer, deals=deals.to_json(), extra=extra), None
        table, token = await tables.create(rules, name, seats[1:], timer, deals=deals.to_json(), extra=extra)
    except OhHellError as error:
        raise AccountError("bad-table", str(error)) from error
    except StoreError as error:
        raise AccountError("storage", N_("The server could not save that; try again."), 503) from error
    return table, token


# ----------------------------------------------------------------------------- rated tables


async def api_create_rated_table(request: Request) -> Response:
    """A rated table (the same form as ``POST /api/tables``): its creator, signed in, takes seat 0
    under their account's name; the game counts for the ratings of every account at the table."""
    session, refused = await guard(request)
    if refused is not None:
        return refused
    if session is None:
        return refuse(401, "sign-in", N_("Sign in to play rated games."))
    data = await creation_body(request)
    if isinstance(data, JSONResponse):
        return data
    try:
        rules = rules_from_request(data)
    except (RulesError, TypeError, ValueError) as error:
        return JSONResponse({"error": str(error), "code": "bad-rules"}, status_code=400)
    if rules.real_cards:
        return refuse(400, "bad-rules", N_("Games with real cards are not rated."))
    others = data.get("seats", [OPEN] * (rules.players - 1))
    if not isinstance(others, list) or len(others) != rules.players - 1 or not all(
            isinstance(level, str) and (level == OPEN or level in manager(request).levels) for level in others):
        return refuse(400, "bad-seats", N_("seats must be a list of bot levels or \"open\""))
    timer = timer_of(request, data)
    if isinstance(timer, JSONResponse):
        return timer
    latecomers = data.get("latecomers", False)
    if not isinstance(latecomers, bool):
        return refuse(400, "bad-latecomers", N_("latecomers must be true or false"))
    tables = manager(request)
    try:
        table, token = await tables.create(rules, session.account.name, others, timer, extra={"rated": True},
                                           latecomers=latecomers)
    except OhHellError as error:
        return JSONResponse({"error": str(error), "code": "bad-table"}, status_code=400)
    except StoreError:
        return refuse(503, "storage", N_("The server could not save that; try again."))
    await community(request).claim(session.account.id, table.code, token)
    return JSONResponse({"code": table.code, "seat": 0, "token": token, "rated": True})


# ----------------------------------------------------------------------------- events


async def api_create_event(request: Request) -> Response:
    session, refused = await guard(request)
    if refused is not None:
        return refused
    data = await creation_body(request)
    if isinstance(data, JSONResponse):
        return data
    name = " ".join(text_field(data, "name").split())[:MAX_EVENT_NAME]
    if not name:
        return refuse(400, "bad-name", N_("Give the event a name."))
    try:
        rules = rules_from_request(data)
    except (RulesError, TypeError, ValueError) as error:
        return JSONResponse({"error": str(error), "code": "bad-rules"}, status_code=400)
    timer = timer_of(request, data)
    if isinstance(timer, JSONResponse):
        return timer
    try:
        seats = check_seats(data.get("seats"), data.get("tables"), rules.players, manager(request).levels)
        service = event_service(request)
        deals = EventDeals(new_event_id(), pooled=True)
        event_id = deals.event_id
        # The pool exists before any table does: a table dealing at once finds it.
        await fair_pool.open_pool(site(request).store, event_id)
        people = any(OPEN in row for row in seats)
        codes = []
        for index, row in enumerate(seats):
            # A table of bots only plays on with nobody watching: the event's people wait for it.
            extra = {"event": event_id, "event_table": index, "unattended": OPEN not in row}
            # ... and it deals only once a table of people has begun the event (closing the pool
            # of contributions), unless nobody is to come at all.
            source = EventDeals(event_id, deals.seed, pooled=True, wait=people and OPEN not in row)
            table, _token = await create_table(request, rules, row, extra, source, timer)
            codes.append(table.code)
        await service.save(name, session.account.id if session else None, rules, seats, deals, codes)
    except AccountError as error:
        return refuse_error(error)
    return JSONResponse({"id": event_id, "url": f"/e/{event_id}"})


async def _event(request: Request) -> tuple[Any, Any] | JSONResponse:
    service = event_service(request)
    event = await service.load(str(request.path_params["event"]))
    if event is None:
        return refuse(404, "no-event", N_("There is no such event."))
    return event, await service.progress(event)


async def api_event(request: Request) -> Response:
    found = await _event(request)
    if isinstance(found, JSONResponse):
        return found
    event, tables = found
    view = event_service(request).view(event, tables)
    view["rules_text"] = [list(pair) for pair in describe_rules(event.rules)]
    return JSONResponse(view)


async def api_events(request: Request) -> Response:
    return JSONResponse({"events": await event_service(request).recent()})


async def api_event_hand(request: Request) -> Response:
    found = await _event(request)
    if isinstance(found, JSONResponse):
        return found
    event, tables = found
    try:
        hand = int(request.path_params["hand"])
    except ValueError:
        hand = -1
    shown = event_service(request).hand(event, tables, hand)
    if shown is None:
        return refuse(409, "not-yet", N_("This hand is shown once every table has played it."))
    return JSONResponse(shown)


async def api_event_export(request: Request) -> Response:
    found = await _event(request)
    if isinstance(found, JSONResponse):
        return found
    event, tables = found
    exported = event_service(request).export(event, tables)
    if exported is None:
        return refuse(409, "not-yet", N_("The records are exported once every table has finished."))
    filename = f"ohhell-event-{event.id}.json"
    return JSONResponse(exported, headers={"Content-Disposition": f'attachment; filename="{filename}"'})


async def api_event_join(request: Request) -> Response:
    session, refused = await guard(request)
    if refused is not None:
        return refused
    data = await creation_body(request)
    if isinstance(data, JSONResponse):
        return data
    event = await event_service(request).load(str(request.path_params["event"]))
    if event is None:
        return refuse(404, "no-event", N_("There is no such event."))
    name = person_name(request, session, data)
    if name is None:
        return refuse(400, "bad-name", N_("Please enter your name."))
    index, seat = data.get("table"), data.get("seat")
    if not isinstance(index, int) or not 0 <= index < len(event.codes) or not isinstance(seat, int) \
            or not 0 <= seat < event.rules.players or event.seats[index][seat] != OPEN:
        return refuse(400, "bad-seat", N_("Choose an open seat of one of the event's tables."))
    if session is not None and await seated_in_event(request, session.account.id, event.codes):
        return refuse(409, "seated", N_("You already have a seat in this event."))
    table = await manager(request).get(event.codes[index])
    if table is None:
        return refuse(404, "no-event", N_("There is no such event."))
    if getattr(table, "status", TableStatus.WAITING) != TableStatus.WAITING or not any(
            place.kind == OPEN and place.index == seat for place in table.seats):
        return refuse(409, "seat-taken", N_("That seat is taken; choose another."))
    # The contribution is stored before the seat is taken: taking the last seat of a table
    # starts it, and its first deal closes the pool. One that comes too late is not taken; the
    # seat is (the answer says so).
    contribution: dict[str, Any] | None = None
    if data.get("contribution") is not None and event.pool is not None:
        contribution = await add_contribution(request, event.id, f"{index}:{seat}", data["contribution"])
        if contribution.get("code") == "bad-contribution":
            return JSONResponse(contribution, status_code=400)
    try:
        seat_index, token = await table.join(name, seat)
    except OhHellError:
        return refuse(409, "seat-taken", N_("That seat is taken; choose another."))
    except StoreError:
        return refuse(503, "storage", N_("The server could not save that; try again."))
    if session is not None:
        await community(request).claim(session.account.id, table.code, token)
    return JSONResponse({"code": table.code, "seat": seat_index, "token": token, "table": index,
                         "contribution": contribution})


async def add_contribution(request: Request, scope: str, contributor: str, value: Any) -> dict[str, Any]:
    """Add a contribution to a pool: ``{"value": …}`` when taken, else ``{"error", "code"}``
    (the pool's refusal, in the request's language)."""
    try:
        taken = await fair_pool.add(site(request).store, scope, contributor, value)
    except fair_pool.PoolError as error:
        return {"error": say(str(error)), "code": error.kind}
    return {"value": taken}


POOL_REFUSALS: Final = {"closed": 409, "full": 409, "already-contributed": 409, "no-pool": 409,
                        "bad-contribution": 400}


async def api_event_contribute(request: Request) -> Response:
    """An entrant's contribution to the event's pool (``{"table", "seat", "token", "value"}``:
    the seat's token proves whose it is), any time before the event begins."""
    _session, refused = await guard(request)
    if refused is not None:
        return refused
    data = await json_body(request)
    if isinstance(data, JSONResponse):
        return data
    event = await event_service(request).load(str(request.path_params["event"]))
    if event is None:
        return refuse(404, "no-event", N_("There is no such event."))
    index, seat, token = data.get("table"), data.get("seat"), data.get("token")
    if not isinstance(index, int) or not 0 <= index < len(event.codes) or not isinstance(seat, int) \
            or not 0 <= seat < event.rules.players or not isinstance(token, str) or not token:
        return refuse(400, "bad-seat", N_("Choose an open seat of one of the event's tables."))
    if not await event_service(request).holds_seat(event.codes[index], seat, token):
        return refuse(403, "not-your-seat", N_("Only the person in that seat may contribute for it."))
    if event.pool is None:
        return refuse(409, "no-pool", N_("This game takes no contributions."))
    result = await add_contribution(request, event.id, f"{index}:{seat}", data.get("value"))
    if "error" in result:
        return JSONResponse(result, status_code=POOL_REFUSALS.get(result["code"], 409))
    return JSONResponse(result)


async def seated_in_event(request: Request, account_id: str, codes: list[str]) -> bool:
    """Whether the account already holds a seat at one of these tables (one seat per event:
    two seats would show the same cards twice)."""
    for code in codes:
        if account_id in (await community(request).accounts.links(code)).values():
            return True
    return False


# ----------------------------------------------------------------------------- the daily deal


def daily_player(request: Request, session: Session | None) -> str | None:
    """Who tries the daily deal: an account, else this browser (its guest cookie)."""
    if session is not None:
        return f"a:{session.account.id}"
    guest = request.cookies.get(GUEST_COOKIE)
    return f"g:{guest}" if guest and 16 <= len(guest) <= 64 else None


def day_fairness(day: Day, revealed: bool) -> dict[str, Any]:
    """A day's provably fair deals as anyone may see them: the scheme, the commitment, the pool
    (open or not, how many; once closed, its contributions, never whose), a plain word on who
    chose the cards; the seed once the day is over (``revealed``)."""
    pool = fair_pool.public(day.pool, labelled=False)
    out: dict[str, Any] = {"scheme": "per-event" if day.pool is None else "per-event-pool",
                           "commitment": day.commitment, "pool": pool}
    if day.pool is None:
        out["summary"] = _("No contributions (a day from before they were taken): the server alone chose this seed.")
    elif day.pool.open:
        out["summary"] = _("Contributions are taken until the day begins.")
    elif not day.pool.entries:
        out["summary"] = _("Nobody contributed to this day's deal: the server alone chose its seed.")
    else:
        count = len(day.pool.entries)
        out["summary"] = ngettext("The cards come from the server's seed and %(n)d contribution sent the day before.",
                                  "The cards come from the server's seed and %(n)d contributions sent the day "
                                  "before.", count) % {"n": count}
    if revealed:
        out["seed"] = day.seed
    return out


async def api_daily(request: Request) -> Response:
    """Today's deal (its commitment, published the day before, and its pool), tomorrow's
    commitment (drawn now if need be: the browser then contributes to it), yesterday's seed."""
    service = daily_service(request)
    day = await service.day(today(), create=True)
    assert day is not None
    tomorrow = await service.day(next_day(day.day), create=True)
    assert tomorrow is not None
    session = await current_session(request)
    player = daily_player(request, session)
    mine = await service.find_try(day.day, player) if player else None
    yesterday = await service.day(today(time.time() - 86400))
    described = [list(pair) for pair in describe_rules(day.rules)]
    return JSONResponse({
        "day": day.day, "commitment": day.commitment, "rules": day.rules.to_json(), "rules_text": described,
        "fair": day_fairness(day, revealed=False),
        "tomorrow": {"day": tomorrow.day, "commitment": tomorrow.commitment,
                     "pool": fair_pool.public(tomorrow.pool, labelled=False)},
        "try": {"table": mine.table_id, "finished": mine.finished is not None} if mine else None,
        "yesterday": {"day": yesterday.day, "seed": yesterday.seed, "commitment": yesterday.commitment,
                      "fair": day_fairness(yesterday, revealed=True)} if yesterday else None,
    }, headers={"Cache-Control": "no-store"})


def guest_player(request: Request, session: Session | None) -> tuple[str, str | None]:
    """Who this is for the daily deal, and a new guest cookie to set when the browser has none."""
    player = daily_player(request, session)
    if player is not None:
        return player, None
    new_guest = secrets.token_urlsafe(24)
    return f"g:{new_guest}", new_guest


def set_guest(request: Request, response: Response, new_guest: str | None) -> None:
    if new_guest is not None:
        response.set_cookie(GUEST_COOKIE, new_guest, max_age=GUEST_DAYS * 86400, path="/", httponly=True,
                            samesite="lax", secure=request.url.scheme == "https")


async def api_daily_contribute(request: Request) -> Response:
    """A browser's contribution to tomorrow's deal (``{"day": D, "value": 64 hex}``), taken from
    whoever opens the daily page or plays on the day before D, until D begins."""
    session, refused = await guard(request)
    if refused is not None:
        return refused
    data = await json_body(request)
    if isinstance(data, JSONResponse):
        return data
    day = data.get("day")
    if not isinstance(day, str) or len(day) != 10:
        return refuse(400, "no-day", N_("There is no daily deal for that day."))
    service = daily_service(request)
    if day > today() and await service.day(day) is None:
        return refuse(404, "no-day", N_("There is no daily deal for that day."))
    player, new_guest = guest_player(request, session)
    try:
        taken = await service.contribute(day, player, data.get("value"))
    except fair_pool.PoolError as error:
        return refuse(POOL_REFUSALS.get(error.kind, 409), error.kind, str(error))
    response = JSONResponse({"day": day, "value": taken})
    set_guest(request, response, new_guest)
    return response


async def api_daily_start(request: Request) -> Response:
    session, refused = await guard(request)
    if refused is not None:
        return refused
    limited = await may_create(request)  # a try is a new table
    if limited is not None:
        return limited
    data = await json_body(request)
    if isinstance(data, JSONResponse):
        return data
    name = person_name(request, session, data)
    if name is None:
        return refuse(400, "bad-name", N_("Please enter your name."))
    service = daily_service(request)
    day = await service.day(today(), create=True)
    assert day is not None
    player, new_guest = guest_player(request, session)
    existing = await service.find_try(day.day, player)
    if existing is not None:
        return JSONResponse({"error": say(N_("You have played today's deal; come back tomorrow.")),
                             "code": "played", "table": existing.table_id}, status_code=409)
    tables = manager(request)
    strongest = max(("strong", "basic", "random"), key=lambda level: level in tables.levels)
    seats: list[str] = [SeatKind.HUMAN, *([strongest] * (day.rules.players - 1))]
    try:
        table, token = await create_table(request, day.rules, seats, {"daily": day.day}, day.deals, 0.0, name=name)
    except AccountError as error:
        return refuse_error(error)
    if not await service.add_try(day.day, player, session.account.id if session else None, name, table.code):
        return refuse(409, "played", N_("You have played today's deal; come back tomorrow."))
    if session is not None and token is not None:
        await community(request).claim(session.account.id, table.code, token)
    contribution: dict[str, Any] | None = None
    if data.get("contribution") is not None:  # who plays today contributes to tomorrow's deal
        tomorrow = next_day(day.day)
        await service.day(tomorrow, create=True)
        try:
            contribution = {"day": tomorrow, "value": await service.contribute(tomorrow, player,
                                                                               data["contribution"])}
        except fair_pool.PoolError as error:
            contribution = {"day": tomorrow, "error": say(str(error)), "code": error.kind}
    response = JSONResponse({"code": table.code, "seat": 0, "token": token, "day": day.day,
                             "contribution": contribution})
    set_guest(request, response, new_guest)
    return response


async def api_daily_results(request: Request) -> Response:
    service = daily_service(request)
    day = request.query_params.get("day") or today()
    if len(day) != 10:
        return refuse(404, "no-day", N_("There is no daily deal for that day."))
    found = await service.day(day)
    if found is None:
        return refuse(404, "no-day", N_("There is no daily deal for that day."))
    session = await current_session(request)
    player = daily_player(request, session)
    mine = await service.find_try(day, player) if player else None
    if day >= today() and (mine is None or mine.finished is None):
        return refuse(403, "play-first", N_("Finish today's deal first; then you see how everyone did."))
    rows = await service.results(day)
    own = mine.table_id if mine else None
    for row in rows:
        row["you"] = row.pop("table") == own
    fair = day_fairness(found, revealed=day < today())
    return JSONResponse({"day": day, "players": rows, "seed": found.seed if day < today() else None,
                         "commitment": found.commitment, "fair": fair})


async def api_daily_record(request: Request) -> Response:
    """The record of a try of a past day (``?table=CODE``), with every hand's ``fair`` entry and
    the day's seed, for ``ohhell verify``; 409 while the day is not over (its seed, and any
    try's cards, would tell today's deal)."""
    service = daily_service(request)
    code = request.query_params.get("table", "").upper()
    found = await service.stored_try(code)
    if found is None:
        return refuse(404, "no-day", N_("There is no daily deal for that day."))
    stored, day = found
    if day.day >= today():
        return refuse(409, "not-yet", N_("The records of a day's deal are shown once the day is over."))
    record = await service.try_record(stored, day)
    return JSONResponse(record, headers={"Content-Disposition": f'attachment; filename="ohhell-daily-{code}.json"'})


ROUTES: Final = [
    Route("/api/rated-tables", api_create_rated_table, methods=["POST"]),
    Route("/api/events", api_events),
    Route("/api/events", api_create_event, methods=["POST"]),
    Route("/api/events/{event}", api_event),
    Route("/api/events/{event}/join", api_event_join, methods=["POST"]),
    Route("/api/events/{event}/contribute", api_event_contribute, methods=["POST"]),
    Route("/api/events/{event}/hands/{hand}", api_event_hand),
    Route("/api/events/{event}/export", api_event_export),
    Route("/api/daily", api_daily),
    Route("/api/daily/start", api_daily_start, methods=["POST"]),
    Route("/api/daily/results", api_daily_results),
    Route("/api/daily/contribute", api_daily_contribute, methods=["POST"]),
    Route("/api/daily/record", api_daily_record),
]
