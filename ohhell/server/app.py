"""The Starlette application: pages, the HTTP API and the WebSocket.

HTTP (JSON) for what happens once — creating a table, taking a seat, the scorekeeper,
exporting a record — and one WebSocket per open page for the game itself
(``docs/protocol.md``). Every page is the same single-page client from
``ohhell/server/static``; the browser needs nothing from outside the server.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import gc
import json
import logging
import sys
import time
import typing
from collections import defaultdict, deque
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any, Final

import orjson
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp
from starlette.websockets import WebSocket, WebSocketDisconnect

from ohhell.errors import OhHellError, RulesError
from ohhell.explain import describe_rules
from ohhell.fairness import verify_record
from ohhell.i18n import N_, _, normalize_language, translations
from ohhell.rules import MAX_PLAYERS, MIN_PLAYERS, PRESETS, Rules, preset
from ohhell.scorekeeper import ScoreError, ScoreSheet
from ohhell.server.community import duplicate
from ohhell.server.community.analyses import Analyses
from ohhell.server.config import ServerConfig
from ohhell.server.live.tables import (
    MAX_QUEUED_MESSAGES,
    OPEN,
    TIMER_MODES,
    Connection,
    TableManager,
    TableRoom,
    chat_text,
    check_reaction,
    clean_text,
    normalize_code,
)
from ohhell.server.metrics import METRICS
from ohhell.server.storage.store import Store, StoreError
from ohhell.server.texts import KNOB_LABELS, client_catalog, pick_language, speaking
from ohhell.server.web.routes import accounts as accounts_api
from ohhell.server.web.security import SecurityHeadersMiddleware, allowed_origin
from ohhell.server.web.sheets import SheetService, sheet_json
from ohhell.server.wire.protocol import ClientMessage, ProtocolError, error_message, message_id, parse_client_message
from ohhell.server.ws.outbox import Outbox

if typing.TYPE_CHECKING:
    from ohhell.server.cluster.node import Cluster

log = logging.getLogger("ohhell.server")

TableRecord = tuple[str, dict[str, Any]]
"""A table's code and its ``ohhell/1`` record."""

STATIC: Final = Path(__file__).parent / "static"
MAX_BODY: Final = 16384
"""The largest HTTP request body the API reads."""
WEB_KNOBS: Final = tuple(KNOB_LABELS)
"""The rule knobs a table's creator may set (``real_cards`` is the scorekeeper's)."""
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


class Server:
    """What the application holds while it runs: the store, the tables, the sheets."""

    def __init__(self, config: ServerConfig) -> None:
        self.config = config
        self.store = Store(config.database, sqlite_sync=config.sqlite_sync)
        self.tables = TableManager(self.store, config)
        self.sheets = SheetService(self.store, shared=config.broker is not None)
        self.analyses = Analyses(self.store)
        self.cluster: Cluster | None = None
        self._created: dict[str, deque[float]] = defaultdict(deque)

    async def start(self) -> None:
        # Bots think (and PostgreSQL commits) in threads; hand the GIL back to the event loop
        # within a millisecond rather than Python's default five, so no message waits on them.
        sys.setswitchinterval(0.001)
        self.store.start()
        if self.config.broker is not None:
            from ohhell.server.cluster.broker import Broker
            from ohhell.server.cluster.node import Cluster

            self.cluster = Cluster(self.tables, Broker(self.config.broker))
            self.tables.cluster = self.cluster
            await self.cluster.start()
        METRICS.owned.set_function(lambda: len(self.tables.tables))
        METRICS.mirrored.set_function(lambda: len(self.tables.mirrors))
        METRICS.connections.set_function(self.tables.connection_count)
        count = await self.tables.load()
        if count:
            log.info("resumed %d tables", count)

    async def stop(self) -> None:
        self.tables.close()
        self.analyses.close()
        if self.cluster is not None:
            await self.cluster.close()
        self.store.close()

    async def ready(self) -> bool:
        """Whether this process can serve: its database answers. (Without its broker it still
        serves its own tables, the lobby and the scorekeeper — players of other processes' tables
        wait until the broker is back — so a Redis restart does not take the whole site out of
        the load balancer; ``/ready`` says how the broker is.)"""
        try:
            await asyncio.wait_for(asyncio.to_thread(self.store.table_exists, "-"), 2.0)
        except Exception:
            return False
        return True

    async def may_create(self, address: str) -> bool:
        """At most ``max_tables_per_minute`` tables (or sheets) per address per minute (counted
        in Redis with several processes, so that the limit holds for the whole site)."""
        if self.cluster is not None:
            try:
                return await self.cluster.broker.count_within(f"create:{address}", 60,
                                                              self.config.max_tables_per_minute)
            except Exception:  # Redis away: count in this process meanwhile
                pass
        stamps = self._created[address]
        now = time.monotonic()
        while stamps and now - stamps[0] > 60:
            stamps.popleft()
        if len(stamps) >= self.config.max_tables_per_minute:
            return False
        stamps.append(now)
        return True


# ----------------------------------------------------------------------------- helpers


def _language(request: Request) -> str:
    asked = request.query_params.get("lang")
    return normalize_language(asked) if asked else pick_language(request.headers.get("accept-language"))


def _t(language: str, message: str) -> str:
    """``message`` (marked with ``N_``) in ``language``."""
    return translations(language).gettext(message)


def _error(status: int, message: str, **extra: Any) -> JSONResponse:
    return JSONResponse({"error": message, **extra}, status_code=status)


async def _body(request: Request) -> dict[str, Any]:
    """The request's JSON object. orjson is strict where the standard module is lenient: no
    NaN or Infinity, no lone surrogates, no invalid UTF-8, at most 1024 levels of nesting —
    each of these is a :class:`ValueError` (answered 400), never a 500."""
    raw = await request.body()
    if len(raw) > MAX_BODY:
        raise ValueError("too large")
    data = orjson.loads(raw or b"{}")
    if not isinstance(data, dict):
        raise ValueError("not an object")
    return data


async def _json_object(request: Request, language: str) -> dict[str, Any] | Response:
    """The request's JSON object, or the error response that says it is not one (in the
    request's language)."""
    try:
        return await _body(request)
    except ValueError:
        return _error(400, _t(language, N_("send a JSON object")))


async def _creation_body(request: Request, server: Server, language: str) -> dict[str, Any] | Response:
    """The JSON object of a request that creates something (a table, a seat, a sheet), or the
    error response: too many creations from this address this minute, or not a JSON object."""
    if not await server.may_create(_client(request)):
        return _error(429, _t(language, N_("Too many new tables; wait a minute.")))
    return await _json_object(request, language)


def _client(request: Request) -> str:
    return request.client.host if request.client else "?"


def _server(request: Request) -> Server:
    server: Server = request.app.state.server
    return server


class BadName(ValueError):
    """A name that cannot be shown as it was given (its message, translated, says why)."""


def _name(value: Any, limit: int) -> str | None:
    """A person's name as given, with runs of white space made one space and cut to ``limit``
    characters; ``None`` if it is empty or not a text. Raise :class:`BadName` for a name with
    control characters or lone surrogates: stored, they would break a database or a screen."""
    if not isinstance(value, str):
        return None
    if any(not (ch.isprintable() or ch.isspace()) for ch in value) or any(ch in "\n\r\t\v\f" for ch in value):
        raise BadName(_("a name may not contain control characters"))
    name = " ".join(value.split())[:limit]
    return name or None


def knob_schema() -> list[dict[str, Any]]:
    """The rule knobs a table form offers: name, kind (``choice``, ``bool``, ``int``,
    ``number``, ``json``), the choices, whether it may be empty."""
    hints = typing.get_type_hints(Rules)
    out = []
    for f in dataclasses.fields(Rules):
        if f.name not in WEB_KNOBS:
            continue
        hint = hints[f.name]
        args = typing.get_args(hint)
        entry: dict[str, Any] = {"name": f.name, "optional": type(None) in args}
        if hint is bool:
            entry["kind"] = "bool"
        elif typing.get_origin(hint) is typing.Literal:
            entry.update(kind="choice", choices=list(args))
        elif f.name == "max_size":
            literal = next(arg for arg in args if typing.get_origin(arg) is typing.Literal)
            entry.update(kind="choice", choices=list(typing.get_args(literal)), number=True)
        elif f.name == "fixed_trump":
            entry.update(kind="choice", choices=["S", "H", "D", "C"])
        elif int in args or hint is int:
            entry["kind"] = "int"
        elif float in args:
            entry["kind"] = "number"
        else:
            entry["kind"] = "json"
        out.append(entry)
    return out


def _knob_value(value: Any) -> Any:
    if isinstance(value, tuple):
        return [_knob_value(item) for item in value]
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return [getattr(value, f.name) for f in dataclasses.fields(value)]
    return value


def rules_from_request(data: dict[str, Any], real_cards: bool = False) -> Rules:
    """Rules from a form: ``preset``, ``players`` and ``knobs`` (only the offered ones)."""
    name = data.get("preset", "classic")
    players = data.get("players", 4)
    knobs = data.get("knobs") or {}
    if not isinstance(name, str) or not isinstance(players, int) or not isinstance(knobs, dict):
        raise RulesError("rules", _("give a preset name, a number of players and an object of knobs"))
    for knob in knobs:
        if knob not in WEB_KNOBS:
            raise RulesError(str(knob), _("this rule cannot be set here"))
    if real_cards:
        knobs = {**knobs, "real_cards": True}
    return preset(name, players=players, **knobs)


def _changed_knobs(rules: Rules) -> list[str]:
    """The knobs whose value differs from the preset's (the lobby's one-line summary names them)."""
    if rules.real_cards:
        return []
    base = preset(rules.preset, players=rules.players)
    return [name for name in WEB_KNOBS if getattr(rules, name) != getattr(base, name)]


def _rules_json(rules: Rules) -> dict[str, Any]:
    knobs = {f.name: _knob_value(getattr(rules, f.name)) for f in dataclasses.fields(rules) if f.name in WEB_KNOBS}
    return {"record": rules.to_json(), "knobs": knobs, "hand_sizes": [plan.size for plan in rules.hand_plans()],
            "inert": {knob: reason for knob, reason in rules.inert_knobs().items() if knob in WEB_KNOBS},
            "changed": _changed_knobs(rules),
            "described": [list(pair) for pair in describe_rules(rules)]}


# ----------------------------------------------------------------------------- pages


async def page(request: Request) -> Response:
    """The single-page client (every page path)."""
    html = (STATIC / "index.html").read_text(encoding="utf-8")
    language = _language(request)
    return HTMLResponse(html.replace("{{LANG}}", language),
                        headers={"Cache-Control": "no-cache", "Content-Language": language})


async def i18n(request: Request) -> Response:
    language = str(request.path_params["lang"]).removesuffix(".json")
    return JSONResponse(client_catalog(normalize_language(language)), headers={"Cache-Control": "no-cache"})


async def api_config(request: Request) -> Response:
    """The presets, the knobs, the bot levels: what the lobby's forms offer."""
    server = _server(request)
    language = _language(request)
    catalog = translations(language)
    presets = []
    for name, found in PRESETS.items():
        presets.append({"name": name, "summary": catalog.gettext(found.summary), "players": list(found.players)})
    return JSONResponse({"presets": presets, "knobs": knob_schema(), "levels": server.tables.levels,
                         "stand_in": server.tables.stand_in_level, "min_players": MIN_PLAYERS,
                         "max_players": MAX_PLAYERS, "max_timer": server.config.max_timer})


async def api_rules(request: Request) -> Response:
    """Check a preset and knobs; the knobs' values and the rules in plain words."""
    language = _language(request)
    data = await _json_object(request, language)
    if isinstance(data, Response):
        return data
    with speaking(language):
        try:
            rules = rules_from_request(data, real_cards=bool(data.get("real_cards")))
        except (RulesError, TypeError, ValueError) as error:
            knob = getattr(error, "knob", None)
            return _error(400, str(error), knob=knob)
        return JSONResponse(_rules_json(rules))


async def api_create_table(request: Request) -> Response:
    server = _server(request)
    language = _language(request)
    data = await _creation_body(request, server, language)
    if isinstance(data, Response):
        return data
    with speaking(language):
        name = _name(data.get("name"), server.config.max_name_length)
        if name is None:
            return _error(400, _("Please enter your name."))
        try:
            rules = rules_from_request(data)
        except (RulesError, TypeError, ValueError) as error:
            return _error(400, str(error), knob=getattr(error, "knob", None))
        others = data.get("seats", [OPEN] * (rules.players - 1))
        if not isinstance(others, list) or not all(isinstance(level, str) for level in others):
            return _error(400, _("seats must be a list of bot levels or \"open\""))
        if len(others) != rules.players - 1:
            return _error(400, _("seats must name one seat for each other player: %(n)d for %(players)d players")
                          % {"n": rules.players - 1, "players": rules.players})
        mode = data.get("timer_mode")
        if mode is not None:
            if mode not in TIMER_MODES:
                return _error(400, _("the timer must be one of: %(modes)s") % {"modes": ", ".join(TIMER_MODES)})
            timer = TIMER_MODES[mode]
        else:
            timer = data.get("timer", server.config.default_timer)
        if not isinstance(timer, (int, float)) or isinstance(timer, bool) or not 0 <= timer <= server.config.max_timer:
            return _error(400, _("the turn timer must be from 0 to %(max)d seconds")
                          % {"max": server.config.max_timer})
        stand_in = data.get("stand_in")
        try:
            table, token = await server.tables.create(rules, name, others, float(timer),
                                                      stand_in if isinstance(stand_in, str) else None)
        except OhHellError as error:
            return _error(400, str(error))
        except StoreError:
            return _error(503, _("the server could not save the table; try again"))
    return JSONResponse({"code": table.code, "seat": 0, "token": token, "table": table.summary()})


async def _table(request: Request) -> TableRoom | None:
    return await _server(request).tables.get(normalize_code(str(request.path_params["code"])))


async def api_table(request: Request) -> Response:
    table = await _table(request)
    if table is None:
        return _error(404, _t(_language(request), N_("There is no table with that code.")))
    return JSONResponse(table.summary())


async def api_join(request: Request) -> Response:
    server = _server(request)
    language = _language(request)
    table = await _table(request)
    if table is None:
        return _error(404, _t(language, N_("There is no table with that code.")))
    data = await _creation_body(request, server, language)
    if isinstance(data, Response):
        return data
    with speaking(language):
        name = _name(data.get("name"), server.config.max_name_length)
        if name is None:
            return _error(400, _("Please enter your name."))
        seat = data.get("seat")
        try:
            index, token = await table.join(name, seat if isinstance(seat, int) else None)
        except OhHellError as error:
            return _error(409, str(error))
        except StoreError:
            return _error(503, _("the server could not save the seat; try again"))
    return JSONResponse({"code": table.code, "seat": index, "token": token})


async def _table_record(request: Request) -> tuple[TableRecord, str] | Response:
    """The table of the request and its record (with the fairness of the revealed hands), or
    the error response: no such table, one that is private for now, or no hand to show yet."""
    table = await _table(request)
    language = _language(request)
    if table is None:
        return _error(404, _t(language, N_("There is no table with that code.")))
    with speaking(language):
        tables = _server(request).tables
        reason = await tables.why_private(table)
        if reason is not None:
            return _error(403, reason)
        try:
            return (table.code, await tables.record_of(table)), language
        except OhHellError as error:
            return _error(409, str(error))


async def api_record(request: Request) -> Response:
    """The ``ohhell/1`` record: the whole game once over, else its finished hands."""
    found = await _table_record(request)
    if isinstance(found, Response):
        return found
    (code, record), _language_used = found
    return Response(json.dumps(record, ensure_ascii=False, indent=1), media_type="application/json",
                    headers={"Content-Disposition": f'attachment; filename="ohhell-{code}.json"'})


async def api_analysis(request: Request) -> Response:
    """The post-game analysis of a finished game (``ohhell analyze``, docs/analysis.md): made
    once, in a worker process, and kept. While it is being made the answer is 202 with
    ``{"status": "running"}``; ask again (``?wait=SECONDS``, at most 30, waits for it here)."""
    found = await _table_record(request)
    if isinstance(found, Response):
        return found
    (code, record), language = found
    table = await _table(request)
    if table is None or not table.state.is_terminal():
        return _error(409, _t(language, N_("The game is not over yet.")))
    try:
        wait = min(30.0, max(0.0, float(request.query_params.get("wait", "0"))))
    except ValueError:
        wait = 0.0
    try:
        result = await _server(request).analyses.get(code, record, wait)
    except Exception:
        log.exception("table %s: the analysis failed", code)
        return _error(500, _t(language, N_("The analysis of this game failed.")))
    if result is None:
        return JSONResponse({"status": "running"}, status_code=202)
    return JSONResponse({"status": "done", "analysis": result})


async def api_verify(request: Request) -> Response:
    """Each finished hand of a table checked as ``ohhell verify`` checks a record: were its
    cards dealt from the committed seed and the players' contributions?"""
    found = await _table_record(request)
    if isinstance(found, Response):
        return found
    (code, record), language = found
    table = await _table(request)
    deals = table.settings.deals if table is not None else None
    # A duplicate event's table is dealt in the event's scope (its id), any other in its own.
    scope = str(deals["event"]) if deals and deals.get("kind") == duplicate.KIND else code
    with speaking(language):
        verdicts = verify_record(record, scope=scope)
        return JSONResponse({"code": code, "hands": [verdict.to_json() for verdict in verdicts],
                             "verified": bool(verdicts) and all(verdict.verified for verdict in verdicts)})


# ----------------------------------------------------------------------------- scorekeeper


async def api_create_sheet(request: Request) -> Response:
    server = _server(request)
    language = _language(request)
    data = await _creation_body(request, server, language)
    if isinstance(data, Response):
        return data
    with speaking(language):
        names = data.get("names")
        if not isinstance(names, list) or not all(isinstance(name, str) for name in names):
            return _error(400, _("names must be a list of texts"))
        names = [_name(name, server.config.max_name_length) or "" for name in names]
        first_dealer = data.get("first_dealer", 0)
        try:
            rules = rules_from_request({**data, "players": len(names)}, real_cards=True)
            if not isinstance(first_dealer, int) or not 0 <= first_dealer < len(names):
                raise ScoreError(_("the first dealer must be one of the players"))
            sheet = ScoreSheet(rules, names, first_dealer)
        except (RulesError, ScoreError, TypeError, ValueError) as error:
            return _error(400, str(error))
        try:
            sheet_id = await server.sheets.create(sheet)
        except StoreError:
            return _error(503, _("the server could not save the sheet; try again"))
    return JSONResponse(sheet_json(sheet_id, sheet))


async def api_sheet(request: Request) -> Response:
    server = _server(request)
    sheet_id = str(request.path_params["sheet"])
    sheet = await server.sheets.get(sheet_id)
    if sheet is None:
        return _error(404, _t(_language(request), N_("There is no such scoresheet.")))
    kind = request.query_params.get("format")
    if kind == "record":
        return Response(json.dumps(sheet.record, ensure_ascii=False, indent=1), media_type="application/json",
                        headers={"Content-Disposition": 'attachment; filename="ohhell-scoresheet.json"'})
    if kind == "csv":
        with speaking(_language(request)):
            text = sheet.to_csv()
        return Response(text, media_type="text/csv",
                        headers={"Content-Disposition": 'attachment; filename="ohhell-scoresheet.csv"'})
    return JSONResponse(sheet_json(sheet_id, sheet))


async def api_change_sheet(request: Request) -> Response:
    server = _server(request)
    language = _language(request)
    sheet_id = str(request.path_params["sheet"])
    data = await _json_object(request, language)
    if isinstance(data, Response):
        return data
    try:
        sheet = await server.sheets.change(sheet_id, data, language)
    except KeyError:
        return _error(404, _t(language, N_("There is no such scoresheet.")))
    except ScoreError as error:
        return _error(400, str(error))
    except StoreError:
        return _error(503, _t(language, N_("The server could not save that; try again.")))
    return JSONResponse(sheet_json(sheet_id, sheet))


# ----------------------------------------------------------------------------- the WebSocket


async def websocket_endpoint(websocket: WebSocket) -> None:
    """One client: a hello (table code, and a seat token or none for a spectator), then
    actions, hints and so on; see ``docs/protocol.md``."""
    server: Server = websocket.app.state.server
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


async def _dispatch(server: Server, conn: Connection, message: ClientMessage,
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


# ----------------------------------------------------------------------------- operations


async def health(request: Request) -> Response:
    """Liveness: the process answers."""
    return JSONResponse({"ok": True, "process": _process(request)})


async def ready(request: Request) -> Response:
    """Readiness: the process can serve (its database answers); a load balancer sends nobody to
    a process that answers 503 here. ``broker``: whether its broker answers (``null``: it has none)."""
    server = _server(request)
    broker = None if server.cluster is None else server.cluster.broker.connected and await server.cluster.broker.ready()
    body = {"process": _process(request), "broker": broker}
    if await server.ready():
        return JSONResponse({"ready": True, **body})
    return JSONResponse({"ready": False, **body}, status_code=503)


async def metrics(request: Request) -> Response:
    """The process's metrics in Prometheus's text format (``ohhell.server.metrics``)."""
    if not METRICS.available:
        return _error(501, "install the metrics client: pip install -e '.[cluster]'")
    body, content_type = METRICS.exposition()
    return Response(body, media_type=content_type)


def _process(request: Request) -> str | None:
    cluster = _server(request).cluster
    return cluster.broker.process if cluster is not None else None


# ----------------------------------------------------------------------------- the application


def create_app(config: ServerConfig | None = None) -> Starlette:
    """The web application (its lifespan opens the database and resumes every table)."""
    config = config or ServerConfig()

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        server = Server(config)
        app.state.server = server
        community = accounts_api.install(app, server)
        await server.start()
        await community.start()
        try:
            yield
        finally:
            await server.stop()

    routes = [
        Route("/", page),
        Route("/t/{code}", page),
        Route("/t/{code}/history", page),
        Route("/score", page),
        Route("/score/{sheet}", page),
        Route("/i18n/{lang}", i18n),
        Route("/health", health),
        Route("/ready", ready),
        Route("/metrics", metrics),
        Route("/api/config", api_config),
        Route("/api/rules", api_rules, methods=["POST"]),
        Route("/api/tables", api_create_table, methods=["POST"]),
        Route("/api/tables/{code}", api_table),
        Route("/api/tables/{code}/join", api_join, methods=["POST"]),
        Route("/api/tables/{code}/record", api_record),
        Route("/api/tables/{code}/verify", api_verify),
        Route("/api/tables/{code}/analysis", api_analysis),
        Route("/api/sheets", api_create_sheet, methods=["POST"]),
        Route("/api/sheets/{sheet}", api_sheet),
        Route("/api/sheets/{sheet}", api_change_sheet, methods=["POST"]),
        *accounts_api.routes(page),
        WebSocketRoute("/ws", websocket_endpoint),
        Mount("/static", app=StaticFiles(directory=STATIC), name="static"),
    ]
    async def bad_name(request: Request, error: Exception) -> Response:
        return _error(400, str(error))

    async def unavailable(request: Request, error: Exception) -> Response:
        """The database, or the process that owns the table (several processes), could not be
        reached in time: a 503 the client may retry, never a 500."""
        log.warning("%s %s: %s", request.method, request.url.path, error)
        return _error(503, _t(_language(request), N_("The server is busy; try again in a moment.")),
                      code="unavailable")

    async def refused(request: Request, error: Exception) -> Response:
        """The owner of the table (another process) refused a forwarded request."""
        assert isinstance(error, ProtocolError)
        if error.code == "storage":
            return await unavailable(request, error)
        message = error_message(error.code, _language(request), error.detail)
        return _error(409, message["message"] + (f" ({error.detail})" if error.detail else ""), code=error.code)

    return _App(routes=routes, lifespan=lifespan, exception_handlers={
        BadName: bad_name, StoreError: unavailable, ProtocolError: refused})


class _App(Starlette):
    """Starlette with the security headers as the outermost layer: a middleware given to
    ``Starlette(middleware=...)`` sits *inside* its ``ServerErrorMiddleware``, so the 500 answer
    to an unhandled exception would go out without them. Wrapping the whole stack gives every
    HTTP answer the headers, that one included."""

    def build_middleware_stack(self) -> ASGIApp:
        return SecurityHeadersMiddleware(super().build_middleware_stack())
