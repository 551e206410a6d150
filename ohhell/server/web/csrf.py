"""Cross-site request protection of the requests that change something.

A browser sends the session cookie with every request to the site, whoever's page started it;
so every state-changing request of the accounts' API (``POST``/``PUT``/``DELETE``) must prove
it comes from the site's own pages, twice over:

1. **its origin**: the ``Origin`` header (or, when a browser sends none, the ``Referer``) must
   be the site itself — the scheme, host and port the request was made to (behind a reverse
   proxy, uvicorn's proxy headers give the original scheme) — or one of the operator's
   ``allowed_origins``;
2. **a token no other site can read**: the header :data:`CSRF_HEADER` must carry the session's
   CSRF token (signed in), or be present at all (signing up or in: a custom header cannot be
   set by a cross-site form, and a cross-site ``fetch`` that sets it needs a CORS preflight the
   server never grants).

>>> same_origin("https://example.org", "https", "example.org")
True
>>> same_origin("https://example.org:443", "https", "example.org")
True
>>> same_origin("http://example.org", "https", "example.org")
False
>>> same_origin("https://evil.example", "https", "example.org")
False
"""

from __future__ import annotations

import hmac
from collections.abc import Iterable, Mapping
from typing import Final
from urllib.parse import urlsplit

CSRF_HEADER: Final = "x-ohhell-csrf"
"""The header a page of the site sets on every state-changing request."""

DEFAULT_PORTS: Final = {"http": 80, "https": 443, "ws": 80, "wss": 443}


def _origin_tuple(scheme: str, netloc: str) -> tuple[str, str, int] | None:
    parts = urlsplit(f"{scheme}://{netloc}")
    try:
        port = parts.port
    except ValueError:
        return None
    if not parts.hostname:
        return None
    return scheme.lower(), parts.hostname.lower(), port or DEFAULT_PORTS.get(scheme.lower(), 0)


def same_origin(origin: str, scheme: str, host: str) -> bool:
    """Whether ``origin`` (``scheme://host[:port]``) is the site at ``scheme`` and ``host``
    (a ``Host`` header, with its port when not the default)."""
    parts = urlsplit(origin)
    theirs = _origin_tuple(parts.scheme, parts.netloc) if parts.scheme and parts.netloc else None
    ours = _origin_tuple(scheme, host)
    return theirs is not None and theirs == ours


def origin_allowed(headers: Mapping[str, str], scheme: str, host: str, allowed: Iterable[str] = ()) -> bool:
    """Whether a request's ``Origin`` (else ``Referer``) names the site or an allowed origin.
    A request with neither (not from a browser page) passes this check; the token check remains."""
    origin = headers.get("origin")
    if origin is None or origin == "null":
        referer = headers.get("referer")
        if referer is None:
            return origin is None  # "null": a sandboxed or opaque origin is never the site
        parts = urlsplit(referer)
        origin = f"{parts.scheme}://{parts.netloc}"
    if same_origin(origin, scheme, host):
        return True
    return any(same_origin(origin, *_split_allowed(item)) for item in allowed)


def _split_allowed(origin: str) -> tuple[str, str]:
    parts = urlsplit(origin)
    return parts.scheme, parts.netloc


def token_matches(sent: str | None, expected: str | None) -> bool:
    """The CSRF header's check: the session's token when signed in, else any non-empty value.

    >>> token_matches("abc", "abc"), token_matches("abd", "abc"), token_matches(None, None), token_matches("1", None)
    (True, False, False, True)
    """
    if not sent:
        return False
    if expected is None:
        return True
    return hmac.compare_digest(sent.encode(), expected.encode())
