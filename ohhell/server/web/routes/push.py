"""Web Push's HTTP API (``docs/protocol.md``, "Web Push"): the site's VAPID public key, and a
browser's push subscription given or withdrawn — for the signed-in account, or for a guest's seat
token. The sending is :mod:`ohhell.server.community.push`."""

from __future__ import annotations

from typing import Any, Final

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from ohhell.i18n import N_
from ohhell.server.community.accounts import Session
from ohhell.server.community.push import Pusher, PushError, Subscription, parse_subscription
from ohhell.server.live.codes import normalize_code
from ohhell.server.live.seats import token_hash
from ohhell.server.web.http import guard, json_body, refuse, request_language, site


def _pusher(request: Request) -> Pusher | None:
    """The site's Web Push, if it has one (``pywebpush`` installed, its keys read)."""
    pusher = site(request).pusher
    return pusher if pusher.public_key is not None else None


def _unavailable() -> JSONResponse:
    return refuse(404, "no-push", N_("This server does not send push notifications."))


async def api_key(request: Request) -> Response:
    """The VAPID public key a page subscribes with (``applicationServerKey``)."""
    pusher = _pusher(request)
    if pusher is None:
        return _unavailable()
    return JSONResponse({"key": pusher.public_key})


async def _change(request: Request) -> tuple[Session | None, Pusher, dict[str, Any]] | Response:
    """What a change of subscriptions needs: the session after the cross-site checks, the
    pusher, and the JSON body; or the refusal (403, 503 without Web Push, 400)."""
    session, refused = await guard(request)
    if refused is not None:
        return refused
    pusher = _pusher(request)
    if pusher is None:
        return _unavailable()
    data = await json_body(request)
    if isinstance(data, Response):
        return data
    return session, pusher, data


async def api_subscribe(request: Request) -> Response:
    """Keep a browser's subscription: ``{subscription: PushSubscription.toJSON(), table, token}``
    (``table`` and ``token``: the seat held in this page, required of a guest; a signed-in
    player's subscription is also their account's)."""
    change = await _change(request)
    if isinstance(change, Response):
        return change
    session, pusher, data = change
    try:
        endpoint, p256dh, auth = parse_subscription(data.get("subscription"), pusher.allow_http)
    except PushError as problem:
        return JSONResponse({"error": str(problem), "code": "bad-subscription"}, status_code=400)
    language = request_language(request)
    code, token = data.get("table"), data.get("token")
    digest: str | None = None
    if code is not None or token is not None:  # a seat's token: checked, whoever is signed in
        if not isinstance(code, str) or not isinstance(token, str) or not code or not token:
            return refuse(400, "no-seat", N_("Sign in, or give the table and your seat's token."))
        table = await site(request).tables.get(normalize_code(code))
        if table is None:
            return refuse(404, "no-such-table", N_("There is no table with that code."))
        if table.seat_of_token(token) is None and table.promised_seat(token) is None:
            return refuse(403, "bad-token", N_("That token holds no seat at this table."))
        digest = token_hash(token)
    elif session is None:
        return refuse(400, "no-seat", N_("Sign in, or give the table and your seat's token."))
    subscription = Subscription(endpoint, p256dh, auth, account_id=session.account.id if session is not None else None,
                                token_hash=digest, language=language)
    await pusher.subscribe(subscription)
    return JSONResponse({"subscribed": True})


async def api_unsubscribe(request: Request) -> Response:
    """Forget a browser's subscription: ``{endpoint}`` (whoever knows it is that browser)."""
    change = await _change(request)
    if isinstance(change, Response):
        return change
    _session, pusher, data = change
    endpoint = data.get("endpoint")
    if not isinstance(endpoint, str) or not endpoint:
        return refuse(400, "bad-subscription", N_("give the subscription's endpoint"))
    return JSONResponse({"removed": await pusher.unsubscribe(endpoint)})


ROUTES: Final = [
    Route("/api/push/key", api_key),
    Route("/api/push/subscription", api_subscribe, methods=["POST"]),
    Route("/api/push/subscription", api_unsubscribe, methods=["DELETE"]),
]
