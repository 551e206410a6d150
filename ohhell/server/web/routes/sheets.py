"""The HTTP API of the scorekeeper for real cards: a new sheet, a sheet (as JSON, its record or
CSV), a change to a sheet (the sheets themselves are :mod:`ohhell.server.web.sheets`')."""

from __future__ import annotations

import json
from typing import Final

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from ohhell.errors import RulesError
from ohhell.i18n import _
from ohhell.scorekeeper import ScoreError, ScoreSheet
from ohhell.server.storage.store import StoreError
from ohhell.server.texts import speaking
from ohhell.server.web.forms import person_name, rules_from_request
from ohhell.server.web.http import creation_body, error, json_body, request_language, site
from ohhell.server.web.sheets import sheet_json


async def api_create_sheet(request: Request) -> Response:
    server = site(request)
    data = await creation_body(request)
    if isinstance(data, Response):
        return data
    names = data.get("names")
    if not isinstance(names, list) or not all(isinstance(name, str) for name in names):
        return error(400, _("names must be a list of texts"))
    names = [person_name(name, server.config.max_name_length) or "" for name in names]
    first_dealer = data.get("first_dealer", 0)
    try:
        rules = rules_from_request({**data, "players": len(names)}, real_cards=True)
        if not isinstance(first_dealer, int) or not 0 <= first_dealer < len(names):
            raise ScoreError(_("the first dealer must be one of the players"))
        sheet = ScoreSheet(rules, names, first_dealer)
    except (RulesError, ScoreError, TypeError, ValueError) as problem:
        return error(400, str(problem))
    try:
        sheet_id = await server.sheets.create(sheet)
    except StoreError:
        return error(503, _("the server could not save the sheet; try again"))
    return JSONResponse(sheet_json(sheet_id, sheet))


async def api_sheet(request: Request) -> Response:
    server = site(request)
    sheet_id = str(request.path_params["sheet"])
    sheet = await server.sheets.get(sheet_id)
    if sheet is None:
        return error(404, _("There is no such scoresheet."))
    kind = request.query_params.get("format")
    if kind == "record":
        return Response(json.dumps(sheet.record, ensure_ascii=False, indent=1), media_type="application/json",
                        headers={"Content-Disposition": 'attachment; filename="ohhell-scoresheet.json"'})
    if kind == "csv":
        with speaking(request_language(request)):
            text = sheet.to_csv()
        return Response(text, media_type="text/csv",
                        headers={"Content-Disposition": 'attachment; filename="ohhell-scoresheet.csv"'})
    return JSONResponse(sheet_json(sheet_id, sheet))


async def api_change_sheet(request: Request) -> Response:
    server = site(request)
    language = request_language(request)
    sheet_id = str(request.path_params["sheet"])
    data = await json_body(request)
    if isinstance(data, Response):
        return data
    try:
        sheet = await server.sheets.change(sheet_id, data, language)
    except KeyError:
        return error(404, _("There is no such scoresheet."))
    except ScoreError as problem:
        return error(400, str(problem))
    except StoreError:
        return error(503, _("The server could not save that; try again."))
    return JSONResponse(sheet_json(sheet_id, sheet))


ROUTES: Final = [
    Route("/api/sheets", api_create_sheet, methods=["POST"]),
    Route("/api/sheets/{sheet}", api_sheet),
    Route("/api/sheets/{sheet}", api_change_sheet, methods=["POST"]),
]
