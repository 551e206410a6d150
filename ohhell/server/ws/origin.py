"""The Origin check of the WebSocket.

A WebSocket whose ``Origin`` is another site's is refused before it is accepted: once cookies
authenticate people, no other site may open a socket in a player's name. A page's own origin is
always allowed (the ``Host`` it asked for, on the same scheme family); a deployment behind several
names lists the others (``ohhell serve --allowed-origin``). A client that sends no ``Origin``
(a program, not a browser) is not a browser page acting for someone, so it is let in.

>>> allowed_origin("https://cards.example", "cards.example", "https", ())
True
>>> allowed_origin("https://evil.example", "cards.example", "https", ())
False
>>> allowed_origin("https://play.example", "cards.example", "https", ("https://play.example",))
True
>>> allowed_origin("null", "cards.example", "http", ())
False
"""

from __future__ import annotations

from collections.abc import Sequence
from urllib.parse import urlsplit


def allowed_origin(origin: str | None, host: str | None, scheme: str, others: Sequence[str]) -> bool:
    """Whether a WebSocket from a page of ``origin`` may connect to this server, reached as
    ``host`` over ``scheme`` (``ws``/``http`` or ``wss``/``https``); ``others``: the other
    origins a deployment allows."""
    if origin is None:
        return True
    origin = origin.strip().lower()
    if origin in (item.strip().lower().rstrip("/") for item in others):
        return True
    parts = urlsplit(origin)
    if parts.scheme not in ("http", "https") or not parts.netloc or host is None:
        return False
    secure = scheme in ("https", "wss")
    if (parts.scheme == "https") != secure:
        return False
    return _with_port(parts.netloc, parts.scheme) == _with_port(host.lower(), parts.scheme)


def _with_port(netloc: str, scheme: str) -> str:
    """``host:port``, the default port written out (``example.org`` = ``example.org:443``)."""
    if netloc.startswith("["):  # an IPv6 address
        end = netloc.find("]")
        return netloc if netloc[end + 1:end + 2] == ":" else f"{netloc}:{443 if scheme == 'https' else 80}"
    return netloc if ":" in netloc else f"{netloc}:{443 if scheme == 'https' else 80}"
