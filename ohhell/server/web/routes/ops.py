"""What operators and load balancers ask a process: is it alive, can it serve, its metrics."""

from __future__ import annotations

from typing import Final

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from ohhell.server.metrics import METRICS
from ohhell.server.web.http import error, site


async def health(request: Request) -> Response:
    """Liveness: the process answers."""
    return JSONResponse({"ok": True, "process": site(request).process()})


async def ready(request: Request) -> Response:
    """Readiness: the process can serve (its database answers); a load balancer sends nobody to
    a process that answers 503 here. ``broker``: whether its broker answers (``null``: it has none)."""
    server = site(request)
    broker = None if server.cluster is None else server.cluster.broker.connected and await server.cluster.broker.ready()
    body = {"process": server.process(), "broker": broker}
    if await server.ready():
        return JSONResponse({"ready": True, **body})
    return JSONResponse({"ready": False, **body}, status_code=503)


async def metrics(request: Request) -> Response:
    """The process's metrics in Prometheus's text format (``ohhell.server.metrics``)."""
    if not METRICS.available:
        return error(501, "install the metrics client: pip install -e '.[cluster]'")
    body, content_type = METRICS.exposition()
    return Response(body, media_type=content_type)


ROUTES: Final = [
    Route("/health", health),
    Route("/ready", ready),
    Route("/metrics", metrics),
]
