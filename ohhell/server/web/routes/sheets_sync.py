"""What makes the site installable and the scorekeeper work offline: the web app manifest, the
service worker, and the sync of the changes a phone made without the network.

* ``GET /manifest.webmanifest`` — the site's name, icons (PNG in every size a phone asks for,
  made from ``favicon.svg`` by ``scripts/icons``), theme colour, ``display: standalone``.
* ``GET /sw.js`` — the service worker, served from the site's root so that its scope is the
  whole site. Its text carries the version of the static files (a hash of their contents):
  a new version served is a new worker text, which the browser installs in place of the old
  one (the page then reloads itself once).
* ``POST /api/sheets/{sheet}/sync`` — ``{"changes": [...], "base": {"<hand>": {...} | null}}``:
  the changes entered offline, in order, and how the phone last saw each hand they touch. The
  server stays the judge (:meth:`~ohhell.server.web.sheets.SheetService.sync`): a hand another
  device changed meanwhile, or a change the rules refuse, comes back as a ``conflict`` (409)
  with the server's version of the hand, and the phone shows both versions.
"""

from __future__ import annotations

import hashlib
import json
from functools import lru_cache
from pathlib import Path
from typing import Final

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from ohhell.i18n import LANGUAGES, N_, translations
from ohhell.server.storage.store import StoreError
from ohhell.server.web.http import error, json_body, request_language, say, site
from ohhell.server.web.sheets import SheetService, SyncResult, sheet_json

STATIC: Final = Path(__file__).resolve().parents[2] / "static"
MAX_SYNC_BODY: Final = 262144
"""The largest sync the server reads: a whole game entered offline is a few kilobytes."""
MAX_SYNC_CHANGES: Final = 2000
"""The most changes one sync may carry (a game of 20 hands and 10 players is about 220)."""

PAGE_PATHS: Final = ("/", "/score")
"""Pages the worker keeps for a start without the network (the single-page client's shell)."""
OFFLINE_DATA: Final = tuple(url for language in LANGUAGES
                            for url in (f"/i18n/{language}.json", f"/api/config?lang={language}"))
"""What the pages read before they show anything, in every language (the page fetched them before
the worker was there to keep them)."""


def _sheets(request: Request) -> SheetService:
    sheets: SheetService = site(request).sheets
    return sheets


@lru_cache(maxsize=1)
def static_files() -> tuple[tuple[str, ...], str]:
    """Every static file's URL, and the version of the whole set: the hash of their contents
    (computed once per process; a new release is a new process)."""
    digest = hashlib.sha256()
    urls = []
    for path in sorted(STATIC.rglob("*")):
        if not path.is_file() or path.name in ("sw.js", "index.html") or path.suffix in (".md", ".txt"):
            continue
        relative = path.relative_to(STATIC).as_posix()
        digest.update(relative.encode() + b"\0" + path.read_bytes())
        urls.append("/static/" + relative)
    return tuple(urls), digest.hexdigest()[:16]


async def service_worker(request: Request) -> Response:
    urls, version = static_files()
    text = (STATIC / "sw.js").read_text(encoding="utf-8")
    text = text.replace('"{{VERSION}}"', json.dumps(version)).replace(
        '"{{PRECACHE}}"', json.dumps([*PAGE_PATHS, *OFFLINE_DATA, *urls]))
    # The browser checks the worker at every visit when it may not cache it (no-cache).
    return Response(text, media_type="text/javascript", headers={"Cache-Control": "no-cache"})


async def manifest(request: Request) -> Response:
    catalog = translations(request_language(request))
    data = json.loads((STATIC / "manifest.webmanifest").read_text(encoding="utf-8"))
    data["name"] = catalog.gettext(N_("Oh Hell — cards and scorekeeper"))
    data["description"] = catalog.gettext(N_("Play Oh Hell, and keep the score of a game with real cards, "
                                             "offline too."))
    return Response(json.dumps(data, ensure_ascii=False), media_type="application/manifest+json",
                    headers={"Cache-Control": "no-cache"})


def _hand_index(key: str) -> int:
    if not key.isdigit() or len(key) > 4:
        raise ValueError(key)
    return int(key)


async def sync_sheet(request: Request) -> Response:
    language = request_language(request)
    sheet_id = str(request.path_params["sheet"])
    data = await json_body(request, MAX_SYNC_BODY)
    try:
        if isinstance(data, JSONResponse):
            raise ValueError("not an object")
        changes = data.get("changes")
        base = data.get("base", {})
        if not isinstance(changes, list) or not all(isinstance(change, dict) for change in changes) \
                or not isinstance(base, dict) or len(changes) > MAX_SYNC_CHANGES:
            raise ValueError("changes")
        seen = {_hand_index(key): value for key, value in base.items()}
    except ValueError:
        return error(400, say(N_("send the changes as a list of objects and the hands they were made on")))
    try:
        result: SyncResult = await _sheets(request).sync(sheet_id, changes, seen, language)
    except KeyError:
        return error(404, say(N_("There is no such scoresheet.")))
    except StoreError:
        return error(503, say(N_("The server could not save that; try again.")))
    body = {"sheet": sheet_json(sheet_id, result.sheet), "applied": result.applied, "conflict": result.conflict}
    return JSONResponse(body, status_code=409 if result.conflict else 200)


ROUTES: list[Route] = [
    Route("/sw.js", service_worker),
    Route("/manifest.webmanifest", manifest),
    Route("/api/sheets/{sheet}/sync", sync_sheet, methods=["POST"]),
]
"""The routes of this module, for the application to add to its own."""
