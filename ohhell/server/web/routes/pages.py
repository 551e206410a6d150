"""The pages: every page path serves the same single-page client from ``ohhell/server/static``
(the browser needs nothing from outside the server), its static files and its texts per
language (``/i18n/{lang}.json``, ``/i18n/community/{lang}.json``)."""

from __future__ import annotations

from pathlib import Path
from typing import Final

from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import BaseRoute, Mount, Route
from starlette.staticfiles import StaticFiles

from ohhell.i18n import normalize_language
from ohhell.server.texts import client_catalog
from ohhell.server.web.community_texts import community_catalog
from ohhell.server.web.http import request_language

STATIC: Final = Path(__file__).resolve().parents[2] / "static"

PAGE_PATHS: Final = ("/", "/t/{code}", "/t/{code}/history", "/score", "/score/{sheet}",
                     # the community's pages
                     "/account", "/u/{name}", "/bots/{level}", "/ratings", "/ratings/{family}", "/events",
                     "/e/{event}", "/daily")
"""The client's pages (each served by the single-page client, which shows the one its path names)."""


async def page(request: Request) -> Response:
    """The single-page client (every page path)."""
    html = (STATIC / "index.html").read_text(encoding="utf-8")
    language = request_language(request)
    return HTMLResponse(html.replace("{{LANG}}", language),
                        headers={"Cache-Control": "no-cache", "Content-Language": language})


async def i18n(request: Request) -> Response:
    """The client's texts in a language (``/i18n/{lang}.json``)."""
    language = str(request.path_params["lang"]).removesuffix(".json")
    return JSONResponse(client_catalog(normalize_language(language)), headers={"Cache-Control": "no-cache"})


async def community_texts(request: Request) -> Response:
    """The texts of the community's pages in a language (``/i18n/community/{lang}.json``)."""
    language = str(request.path_params["lang"]).removesuffix(".json")
    return JSONResponse(community_catalog(normalize_language(language)), headers={"Cache-Control": "no-cache"})


ROUTES: Final[list[BaseRoute]] = [
    *(Route(path, page) for path in PAGE_PATHS),
    Route("/i18n/community/{lang}", community_texts),
    Route("/i18n/{lang}", i18n),
    Mount("/static", app=StaticFiles(directory=STATIC), name="static"),
]
