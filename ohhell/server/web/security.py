"""What protects the users' browsers: security headers on every HTTP answer (the WebSocket's
Origin check is :mod:`ohhell.server.ws.origin`).

Every answer carries a Content-Security-Policy that lets the page run only the app's own
scripts and styles (no inline script or style, no other site's), talk only to its own server
(HTTP and WebSocket), and not be framed by another site (clickjacking); ``nosniff`` so a
download is never run as a script; ``Referrer-Policy: no-referrer`` so a table's link does not
leak to other sites; and, when the request came over HTTPS (directly or through a proxy the
server trusts: ``ohhell serve --forwarded-allow-ips``), ``Strict-Transport-Security``.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final
from urllib.parse import urlsplit

from starlette.datastructures import MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

CONTENT_SECURITY_POLICY: Final = "; ".join((
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "font-src 'self'",
    "media-src 'self' data: blob:",
    "connect-src 'self'",
    "manifest-src 'self'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
))
"""The policy of every page: only the app's own scripts, styles and server."""

HSTS: Final = "max-age=31536000; includeSubDomains"
"""Strict-Transport-Security over HTTPS: a year (browsers then never try plain HTTP)."""


def security_headers(scheme: str, host: str | None) -> list[tuple[bytes, bytes]]:
    """The headers every answer carries; ``connect-src`` names the page's own WebSocket
    explicitly (``'self'`` covers it in current browsers, not in every older one)."""
    policy = CONTENT_SECURITY_POLICY
    if host:
        socket = "wss" if scheme == "https" else "ws"
        policy = policy.replace("connect-src 'self'", f"connect-src 'self' {socket}://{host}")
    headers = [
        (b"content-security-policy", policy.encode("latin-1")),
        (b"x-content-type-options", b"nosniff"),
        (b"referrer-policy", b"no-referrer"),
        (b"x-frame-options", b"DENY"),
        (b"cross-origin-opener-policy", b"same-origin"),
        (b"permissions-policy", b"camera=(), microphone=(), geolocation=(), payment=()"),
    ]
    if scheme == "https":
        headers.append((b"strict-transport-security", HSTS.encode("latin-1")))
    return headers


def _host(scope: Scope) -> str | None:
    for key, value in scope.get("headers", ()):
        if key == b"host":
            host: str = value.decode("latin-1")
            # Only a plausible host name goes into the policy (it is the client's text).
            if host and all(ch.isalnum() or ch in ".-:[]" for ch in host):
                return host
            return None
    return None


class SecurityHeadersMiddleware:
    """Add :func:`security_headers` to every HTTP answer (a plain ASGI middleware: it costs a
    few list operations per answer, nothing per WebSocket message)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        extra = security_headers(scope.get("scheme", "http"), _host(scope))

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                for key, value in extra:
                    name = key.decode("latin-1")
                    if name not in headers:
                        headers.append(name, value.decode("latin-1"))
            await send(message)

        await self.app(scope, receive, send_with_headers)


def origins(values: Iterable[str]) -> tuple[str, ...]:
    """The ``--allowed-origin`` values as origins (``scheme://host[:port]``), checked.

    >>> origins(["https://play.example/", "http://localhost:8000"])
    ('https://play.example', 'http://localhost:8000')
    >>> origins(["play.example"])
    Traceback (most recent call last):
    ...
    ValueError: 'play.example' is not an origin like https://example.org
    """
    out = []
    for value in values:
        parts = urlsplit(value.strip())
        if parts.scheme not in ("http", "https") or not parts.netloc or parts.path not in ("", "/"):
            raise ValueError(f"{value!r} is not an origin like https://example.org")
        out.append(f"{parts.scheme}://{parts.netloc}".lower())
    return tuple(out)
