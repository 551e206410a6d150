"""Friends' HTTP API (docs/protocol.md, "Friends"; the logic in
:mod:`ohhell.server.community.friends`): the list, asking and accepting by name, removing,
inviting a friend to a table, and the event stream an open page keeps for the friends' online
status and the invitations it receives. Every route is for a signed-in player (401 for a guest:
guests send the table's link); every change passes :func:`~ohhell.server.web.http.guard`.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Callable
from typing import Any, Final, TypeVar

import orjson
from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import Route

from ohhell.i18n import N_
from ohhell.server.community import friends
from ohhell.server.community.accounts import AccountError, Session
from ohhell.server.storage.errors import StoreError
from ohhell.server.web.http import SESSION_COOKIE, account_change, community, refuse, refuse_error, signed_in

POLL: Final = 3.0
"""Seconds between two looks of an event stream at the database (its check-in, the friends'
presence, new invitations). The database, not a process's memory, so that friends served by
two processes of a site see each other; one small read per open page every few seconds."""
KEEP_ALIVE: Final = 15.0
"""Seconds after which a stream with nothing to say sends a comment (proxies close idle streams)."""
MAX_NAME: Final = 64


GUEST: Final = N_("Sign in to have friends; a guest can send the table's link.")
"""What a guest is told by every route of friends."""

T = TypeVar("T")


async def _write(request: Request, call: Callable[[Any], Any]) -> Any:
    return await community(request).store.write(call)


async def _read(request: Request, call: Callable[[Any], Any]) -> Any:
    return await community(request).read(call)


def _name(data: dict[str, Any]) -> str | JSONResponse:
    """The friend's ``name`` in a change's body, or the 400 of a missing one."""
    name = data.get("name")
    if not isinstance(name, str) or not 0 < len(name.strip()) <= MAX_NAME:
        return refuse(400, "bad-name", N_("Give the user name of a player."))
    return name.strip()


async def _check_then_write(request: Request, check: Callable[[Any], str],
                            change: Callable[[Any, str], T]) -> T | JSONResponse:
    """``check`` in a read, then ``change`` of the friend's id it found in a write; or the
    refusal (what the check refused, or a 503 when the database did not save it). Checked in a
    read first: a refusal is no failed write (the writer commits in batches)."""
    try:
        friend_id: str = await _read(request, check)
        done: T = await _write(request, lambda conn: change(conn, friend_id))
    except AccountError as problem:
        return refuse_error(problem)
    except StoreError:
        return refuse(503, "storage", N_("The server could not save that; try again."))
    return done


async def _listing(request: Request, account_id: str, **extra: Any) -> JSONResponse:
    found: list[friends.Friend] = await _read(request, lambda conn: friends.friends_of(conn, account_id, time.time()))
    return JSONResponse({**extra, "friends": [friend.to_json() for friend in found]})


async def api_friends(request: Request) -> Response:
    """The signed-in player's friends and requests: ``{friends: [{name, status, online}]}``."""
    session = await signed_in(request, GUEST)
    if isinstance(session, JSONResponse):
        return session
    return await _listing(request, session.account.id)


@account_change(GUEST)
async def api_ask(request: Request, session: Session, data: dict[str, Any]) -> Response:
    """Ask ``{name}`` to be friends, or accept their request: ``status`` (``friend`` or
    ``asked``) and the list after."""
    name = _name(data)
    if isinstance(name, JSONResponse):
        return name
    account_id, now = session.account.id, time.time()
    status = await _check_then_write(request, lambda conn: friends.check_ask(conn, account_id, name),
                                     lambda conn, friend_id: friends.ask(conn, account_id, friend_id, now))
    if isinstance(status, JSONResponse):
        return status
    return await _listing(request, account_id, status=status)


@account_change(GUEST)
async def api_remove(request: Request, session: Session, data: dict[str, Any]) -> Response:
    """End a friendship with ``{name}``, or withdraw or decline a request; the list after."""
    name = _name(data)
    if isinstance(name, JSONResponse):
        return name
    account_id = session.account.id
    removed = await _check_then_write(request, lambda conn: friends.account_named(conn, name)[0],
                                      lambda conn, friend_id: friends.remove(conn, account_id, friend_id))
    if isinstance(removed, JSONResponse):
        return removed
    return await _listing(request, account_id)


@account_change(GUEST)
async def api_invite(request: Request, session: Session, data: dict[str, Any]) -> Response:
    """Invite the friend ``{name}`` to the table ``{code}``: their open pages show it."""
    name = _name(data)
    if isinstance(name, JSONResponse):
        return name
    code = data.get("code")
    if not isinstance(code, str) or not 0 < len(code) <= 16 or not code.isalnum():
        return refuse(400, "bad-code", N_("Give the code of a table."))
    account_id, now, table_id = session.account.id, time.time(), code.upper()
    invited = await _check_then_write(
        request, lambda conn: friends.check_invite(conn, account_id, name, table_id, now),
        lambda conn, friend_id: friends.invite(conn, account_id, friend_id, table_id, now))
    if isinstance(invited, JSONResponse):
        return invited
    return JSONResponse({"invited": name, "code": table_id})


def _event(kind: str, data: Any) -> bytes:
    return b"event: " + kind.encode() + b"\ndata: " + orjson.dumps(data) + b"\n\n"


async def _look(request: Request, account_id: str, after_invite: int) -> tuple[list[friends.Friend],
                                                                              list[friends.Invite]]:
    """One look of a stream: check in, then read the friends list and the new invitations."""
    now = time.time()
    await _write(request, lambda conn: friends.check_in(conn, account_id, now))
    found: tuple[list[friends.Friend], list[friends.Invite]] = await _read(request, lambda conn: (
        friends.friends_of(conn, account_id, now), friends.invites_for(conn, account_id, after_invite, now)))
    return found


async def _events(request: Request, account_id: str) -> AsyncIterator[bytes]:
    """The stream's events: ``friends`` (the list, whenever it changed) and ``invite`` (each
    new invitation, those of the last minutes included at the start, so that a page opened
    just after one still shows it; the page shows each once, by its ``id``)."""
    last_list: list[dict[str, Any]] | None = None
    last_invite = 0
    quiet_since = time.monotonic()
    yield b"retry: 3000\n\n"
    cookie = request.cookies.get(SESSION_COOKIE)
    while True:
        if await community(request).accounts.session(cookie) is None:
            return  # signed out (here or everywhere): this page is no longer that player's
        try:
            listing, new = await _look(request, account_id, last_invite)
        except StoreError:
            listing, new = [], []  # the database is away for a moment: say nothing, look again
        else:
            current = [friend.to_json() for friend in listing]
            if current != last_list:
                last_list = current
                yield _event("friends", {"friends": current})
                quiet_since = time.monotonic()
        for invitation in new:
            last_invite = invitation.id
            yield _event("invite", invitation.to_json())
            quiet_since = time.monotonic()
        if time.monotonic() - quiet_since > KEEP_ALIVE:
            yield b": still here\n\n"
            quiet_since = time.monotonic()
        await asyncio.sleep(POLL)


async def api_events(request: Request) -> Response:
    """The server-sent events of the signed-in player's open page (``text/event-stream``)."""
    session = await signed_in(request, GUEST)
    if isinstance(session, JSONResponse):
        return session
    return StreamingResponse(_events(request, session.account.id), media_type="text/event-stream",
                             headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})


ROUTES: Final = [
    Route("/api/friends", api_friends),
    Route("/api/friends", api_ask, methods=["POST"]),
    Route("/api/friends/remove", api_remove, methods=["POST"]),
    Route("/api/friends/invite", api_invite, methods=["POST"]),
    Route("/api/friends/events", api_events),
]
