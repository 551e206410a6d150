"""The HTTP API of the tables (``docs/protocol.md``): what the lobby's forms offer, creating a
table, taking a seat, a table's summary, its record, the verdicts on its deals, its analysis.

The game itself is played over the WebSocket (``ohhell.server.ws``); these are what happens once.
"""

from __future__ import annotations

import json
import logging
from typing import Any, Final

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from ohhell.errors import OhHellError, RulesError
from ohhell.fairness import verify_record
from ohhell.i18n import N_, _
from ohhell.rules import MAX_PLAYERS, MIN_PLAYERS, PRESET_TITLES, PRESETS
from ohhell.server.community import duplicate
from ohhell.server.live.codes import normalize_code
from ohhell.server.live.manager import OPEN
from ohhell.server.live.room import TableRoom
from ohhell.server.storage.kinds import TableStatus
from ohhell.server.storage.store import StoreError
from ohhell.server.web.forms import (
    BadTimer,
    knob_schema,
    person_name,
    rules_from_request,
    rules_json,
    turn_timer,
)
from ohhell.server.web.http import community, creation_body, error, json_body, refuse, site
from ohhell.server.web.seat_names import name_is_taken

log = logging.getLogger("ohhell.server")

TableRecord = tuple[str, dict[str, Any]]
"""A table's code and its ``ohhell/1`` record."""


async def api_config(request: Request) -> Response:
    """The presets, the knobs, the bot levels: what the lobby's forms offer."""
    server = site(request)
    presets = [{"name": name, "title": _(PRESET_TITLES.get(name, name)), "summary": _(found.summary),
                "players": list(found.players)}
               for name, found in PRESETS.items()]
    return JSONResponse({"presets": presets, "knobs": knob_schema(), "levels": server.tables.levels,
                         "stand_in": server.tables.stand_in_level, "min_players": MIN_PLAYERS,
                         "max_players": MAX_PLAYERS, "max_timer": server.config.max_timer})


async def api_rules(request: Request) -> Response:
    """Check a preset and knobs; the knobs' values and the rules in plain words."""
    data = await json_body(request)
    if isinstance(data, Response):
        return data
    try:
        rules = rules_from_request(data, real_cards=bool(data.get("real_cards")))
    except (RulesError, TypeError, ValueError) as problem:
        return error(400, str(problem), knob=getattr(problem, "knob", None))
    return JSONResponse(rules_json(rules))


async def api_create_table(request: Request) -> Response:
    server = site(request)
    data = await creation_body(request)
    if isinstance(data, Response):
        return data
    name = person_name(data.get("name"), server.config.max_name_length)
    if name is None:
        return error(400, _("Please enter your name."))
    try:
        rules = rules_from_request(data)
    except (RulesError, TypeError, ValueError) as problem:
        return error(400, str(problem), knob=getattr(problem, "knob", None))
    others = data.get("seats", [OPEN] * (rules.players - 1))
    if not isinstance(others, list) or not all(isinstance(level, str) for level in others):
        return error(400, _("seats must be a list of bot levels or \"open\""))
    if len(others) != rules.players - 1:
        return error(400, _("seats must name one seat for each other player: %(n)d for %(players)d players")
                     % {"n": rules.players - 1, "players": rules.players})
    try:
        timer = turn_timer(data, server.config)
    except BadTimer as problem:
        return error(400, str(problem))
    stand_in = data.get("stand_in")
    latecomers = data.get("latecomers", False)
    if not isinstance(latecomers, bool):
        return error(400, _("latecomers must be true or false"))
    try:
        table, token = await server.tables.create(rules, name, others, timer,
                                                  stand_in if isinstance(stand_in, str) else None,
                                                  latecomers=latecomers)
    except OhHellError as problem:
        return error(400, str(problem))
    except StoreError:
        return error(503, _("the server could not save the table; try again"))
    return JSONResponse({"code": table.code, "seat": 0, "token": token, "table": table.summary()})


async def _table(request: Request) -> TableRoom | None:
    return await site(request).tables.get(normalize_code(str(request.path_params["code"])))


async def api_table(request: Request) -> Response:
    table = await _table(request)
    if table is None:
        return error(404, _("There is no table with that code."))
    return JSONResponse(table.summary())


async def api_join(request: Request) -> Response:
    server = site(request)
    table = await _table(request)
    if table is None:
        return error(404, _("There is no table with that code."))
    data = await creation_body(request)
    if isinstance(data, Response):
        return data
    name = person_name(data.get("name"), server.config.max_name_length)
    if name is None:
        return error(400, _("Please enter your name."))
    # A guest called "Bot 3" beside the bot at seat 3, or by a signed-in player's name, would
    # pass for them: refused, with the reason.
    linked = await community(request).accounts.links(table.code)
    signed_in = [str(table.seats[seat].name or "") for seat in linked if 0 <= seat < len(table.seats)]
    if name_is_taken(name, len(table.seats), signed_in):
        return refuse(409, "name-taken", N_("That name belongs to a bot or a signed-in player at this table; "
                                            "please choose another."))
    seat = data.get("seat")
    # A game being played at a table that takes latecomers: a bot's seat, theirs at the next hand.
    later = table.status == TableStatus.PLAYING and table.settings.latecomers
    try:
        if later:
            index, token = await table.take_bot_seat(name)
        else:
            index, token = await table.join(name, seat if isinstance(seat, int) else None)
    except OhHellError as problem:
        return error(409, str(problem))
    except StoreError:
        return error(503, _("the server could not save the seat; try again"))
    return JSONResponse({"code": table.code, "seat": index, "token": token, **({"later": True} if later else {})})


async def _table_record(request: Request) -> tuple[TableRoom, TableRecord] | Response:
    """The table of the request and its record (with the fairness of the revealed hands), or
    the error response: no such table, one that is private for now, or no hand to show yet."""
    table = await _table(request)
    if table is None:
        return error(404, _("There is no table with that code."))
    tables = site(request).tables
    reason = await tables.why_private(table)
    if reason is not None:
        return error(403, reason)
    try:
        return table, (table.code, await tables.record_of(table))
    except OhHellError as problem:
        return error(409, str(problem))


async def api_record(request: Request) -> Response:
    """The ``ohhell/1`` record: the whole game once over, else its finished hands."""
    found = await _table_record(request)
    if isinstance(found, Response):
        return found
    _found, (code, record) = found
    return Response(json.dumps(record, ensure_ascii=False, indent=1), media_type="application/json",
                    headers={"Content-Disposition": f'attachment; filename="ohhell-{code}.json"'})


MAX_ANALYSIS_WAIT: Final = 30.0
"""The longest ``?wait=`` an analysis request may wait for the analysis here (seconds)."""


async def api_analysis(request: Request) -> Response:
    """The post-game analysis of a finished game (``ohhell analyze``, docs/analysis.md): made
    once, in a worker process, and kept. While it is being made the answer is 202 with
    ``{"status": "running"}``; ask again (``?wait=SECONDS``, at most 30, waits for it here)."""
    found = await _table_record(request)
    if isinstance(found, Response):
        return found
    table, (code, record) = found
    if not table.state.is_terminal():
        return error(409, _("The game is not over yet."))
    try:
        wait = min(MAX_ANALYSIS_WAIT, max(0.0, float(request.query_params.get("wait", "0"))))
    except ValueError:
        wait = 0.0
    try:
        result = await site(request).analyses.get(code, record, wait)
    except Exception:
        log.exception("table %s: the analysis failed", code)
        return error(500, _("The analysis of this game failed."))
    if result is None:
        return JSONResponse({"status": "running"}, status_code=202)
    return JSONResponse({"status": "done", "analysis": result})


async def api_verify(request: Request) -> Response:
    """Each finished hand of a table checked as ``ohhell verify`` checks a record: were its
    cards dealt from the committed seed and the players' contributions?"""
    found = await _table_record(request)
    if isinstance(found, Response):
        return found
    table, (code, record) = found
    deals = table.settings.deals
    # A duplicate event's table is dealt in the event's scope (its id), any other in its own.
    scope = str(deals["event"]) if deals and deals.get("kind") == duplicate.KIND else code
    verdicts = verify_record(record, scope=scope)
    return JSONResponse({"code": code, "hands": [verdict.to_json() for verdict in verdicts],
                         "verified": bool(verdicts) and all(verdict.verified for verdict in verdicts)})


ROUTES: Final = [
    Route("/api/config", api_config),
    Route("/api/rules", api_rules, methods=["POST"]),
    Route("/api/tables", api_create_table, methods=["POST"]),
    Route("/api/tables/{code}", api_table),
    Route("/api/tables/{code}/join", api_join, methods=["POST"]),
    Route("/api/tables/{code}/record", api_record),
    Route("/api/tables/{code}/verify", api_verify),
    Route("/api/tables/{code}/analysis", api_analysis),
]
