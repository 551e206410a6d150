"""Web Push: telling a player whose page is closed that it is their turn (docs/protocol.md, "Web Push").

A page that may notify (the player switched "Notify me" on and the browser allowed it) subscribes
through its service worker with the site's **VAPID** public key, and gives the server its
subscription (the push service's endpoint and the keys its messages are encrypted to), for the
signed-in account, or for a guest's seat token. When the turn reaches a person's seat and no page
of theirs is connected to the table (in any process), the table's owner process asks
:meth:`Pusher.turn` to push: once per turn, and once only while they are away (a stand-in plays
for them: one message says so, not one per turn). The message holds no hidden information — the
table's code and "your turn", in the language the page subscribed in — and goes out in a task of
its own, so it never holds up the game and its failure never fails an action: a push service that
answers 404 or 410 (the subscription expired or was withdrawn) has the subscription dropped,
anything else is logged.

The keys are made once, at the first start, and kept in the database (every process of a site
signs with the same key; a restart does not invalidate the browsers' subscriptions). ``pywebpush``
(with ``py_vapid`` and ``http_ece``) does the signing (RFC 8292) and the encryption (RFC 8291).
"""

from __future__ import annotations

import asyncio
import base64
import binascii
import contextlib
import json
import logging
import os
import time
from dataclasses import dataclass
from typing import Any, Final
from urllib.parse import urlsplit

from sqlalchemy import Column, Float, Integer, String, Table, Text, delete, or_, select
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import IntegrityError
from sqlalchemy.sql.elements import ColumnElement

from ohhell.i18n import _
from ohhell.server.community.accounts import seat_links
from ohhell.server.storage.schema import metadata
from ohhell.server.storage.store import Store
from ohhell.server.texts import speaking

log = logging.getLogger("ohhell.server.community.push")

push_keys = Table(
    "ohhell_push_keys", metadata,
    Column("id", Integer, primary_key=True),
    Column("private_pem", Text, nullable=False),
    Column("public_key", String(100), nullable=False),
    Column("created", Float, nullable=False),
)
"""The site's VAPID key pair (one row, ``id`` 1): made at the first start, never again."""

push_subscriptions = Table(
    "ohhell_push_subscriptions", metadata,
    Column("endpoint", String(1000), primary_key=True),
    Column("p256dh", String(120), nullable=False),
    Column("auth", String(60), nullable=False),
    Column("account_id", String(40), nullable=True, index=True),
    Column("token_hash", String(64), nullable=True, index=True),
    Column("language", String(16), nullable=False),
    Column("created", Float, nullable=False),
)
"""The browsers to push to: a signed-in account's (``account_id``), or a guest seat's (the
``token_hash`` of its seat token: the same token keeps its seat in a rematch, so its
subscription follows). ``endpoint`` is the push service's URL for that browser (a secret of
the browser's: whoever knows it may withdraw it)."""

SUBJECT_ENV: Final = "OHHELL_PUSH_SUBJECT"
"""The environment variable with the contact the push services may reach the operator at
(the VAPID ``sub`` claim: ``mailto:…`` or ``https://…``)."""
DEFAULT_SUBJECT: Final = "mailto:ohhell@localhost"
MAX_PER_OWNER: Final = 10
"""Subscriptions kept per account or seat token (the oldest go): a few browsers and phones."""
TTL: Final = 600
"""Seconds a push service keeps a message for a browser that is offline (a turn goes stale)."""
GONE: Final = (404, 410)
"""The push service's answers that mean the subscription is no more."""
MAX_ENDPOINT: Final = 1000


class PushError(ValueError):
    """A subscription refused (``message`` translated)."""


@dataclass(frozen=True)
class Subscription:
    """A browser to push to (a row of :data:`push_subscriptions`)."""

    endpoint: str
    p256dh: str
    auth: str
    account_id: str | None = None
    token_hash: str | None = None
    language: str = "en"

    def info(self) -> dict[str, Any]:
        """What ``pywebpush`` takes (the browser's ``PushSubscription.toJSON()``)."""
        return {"endpoint": self.endpoint, "keys": {"p256dh": self.p256dh, "auth": self.auth}}


def b64url_decode(text: str) -> bytes:
    """Base64url, with or without its padding (:class:`ValueError` if it is not)."""
    try:
        return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    except (binascii.Error, ValueError) as error:
        raise ValueError(str(error)) from error


def b64url_encode(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode("ascii")


def parse_subscription(data: Any, allow_http: bool = False) -> tuple[str, str, str]:
    """The endpoint and keys of a browser's ``PushSubscription.toJSON()``, checked
    (:class:`PushError`: not an https URL, keys that are not a P-256 point and a 16-byte secret).

    >>> key = "B" + "A" * 86
    >>> parse_subscription({"endpoint": "https://push.example/x", "keys": {"p256dh": key, "auth": "A" * 22}})[0]
    'https://push.example/x'
    >>> parse_subscription({"endpoint": "http://push.example/x", "keys": {}})
    Traceback (most recent call last):
    ...
    ohhell.server.community.push.PushError: the push service's address must be an https:// address
    """
    if not isinstance(data, dict):
        raise PushError(_("give the subscription your browser made (endpoint and keys)"))
    endpoint, keys = data.get("endpoint"), data.get("keys")
    if not isinstance(endpoint, str) or not endpoint or len(endpoint) > MAX_ENDPOINT:
        raise PushError(_("give the subscription your browser made (endpoint and keys)"))
    parts = urlsplit(endpoint)
    loopback = parts.hostname in ("127.0.0.1", "localhost", "::1")
    if not (parts.scheme == "https" or (allow_http and parts.scheme == "http" and loopback)) or not parts.hostname:
        raise PushError(_("the push service's address must be an https:// address"))
    if not isinstance(keys, dict) or not isinstance(keys.get("p256dh"), str) or not isinstance(keys.get("auth"), str):
        raise PushError(_("give the subscription your browser made (endpoint and keys)"))
    p256dh, auth = str(keys["p256dh"]), str(keys["auth"])
    try:
        point, secret = b64url_decode(p256dh), b64url_decode(auth)
    except ValueError:
        point, secret = b"", b""
    if len(point) != 65 or point[0] != 4 or len(secret) != 16 or len(p256dh) > 120 or len(auth) > 60:
        raise PushError(_("the subscription's keys are not a browser's push keys"))
    return endpoint, p256dh, auth


# ----------------------------------------------------------------------------- the keys


def _make_keys() -> tuple[str, str]:
    """A new VAPID key pair: the private key (PEM) and the public key (the raw P-256 point,
    base64url: what a page gives ``pushManager.subscribe`` as ``applicationServerKey``)."""
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import ec

    private = ec.generate_private_key(ec.SECP256R1())
    pem = private.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                serialization.NoEncryption()).decode("ascii")
    raw = private.public_key().public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
    return pem, b64url_encode(raw)


def load_or_make_keys(engine: Engine) -> tuple[str, str]:
    """The site's VAPID keys (private PEM, public base64url): read, or made and stored at the
    first start. Two processes starting at once store one pair (the second insert fails and
    reads the first's)."""
    with engine.connect() as conn:
        row = conn.execute(select(push_keys).where(push_keys.c.id == 1)).first()
    if row is not None:
        return str(row.private_pem), str(row.public_key)
    pem, public = _make_keys()
    try:
        with engine.begin() as conn:
            conn.execute(push_keys.insert().values(id=1, private_pem=pem, public_key=public, created=time.time()))
        log.info("made the site's VAPID keys (Web Push)")
    except IntegrityError:
        return load_or_make_keys(engine)
    return pem, public


# ----------------------------------------------------------------------------- subscriptions


def save_subscription(conn: Connection, subscription: Subscription, now: float) -> None:
    """Keep ``subscription`` (replacing one of the same endpoint), and at most
    :data:`MAX_PER_OWNER` of its account's or token's."""
    conn.execute(delete(push_subscriptions).where(push_subscriptions.c.endpoint == subscription.endpoint))
    conn.execute(push_subscriptions.insert().values(
        endpoint=subscription.endpoint, p256dh=subscription.p256dh, auth=subscription.auth,
        account_id=subscription.account_id, token_hash=subscription.token_hash, language=subscription.language,
        created=now))
    owner = (push_subscriptions.c.account_id == subscription.account_id if subscription.account_id is not None
             else push_subscriptions.c.token_hash == subscription.token_hash)
    kept = [row.endpoint for row in conn.execute(select(push_subscriptions.c.endpoint).where(owner)
                                                 .order_by(push_subscriptions.c.created.desc()))]
    if len(kept) > MAX_PER_OWNER:
        conn.execute(delete(push_subscriptions).where(push_subscriptions.c.endpoint.in_(kept[MAX_PER_OWNER:])))


def remove_subscription(conn: Connection, endpoint: str) -> bool:
    """Forget a subscription; whether there was one."""
    return bool(conn.execute(delete(push_subscriptions).where(push_subscriptions.c.endpoint == endpoint)).rowcount)


def subscriptions_of(conn: Connection, table_id: str, seat: int, token_hash: str | None) -> list[Subscription]:
    """The browsers of the person at ``seat`` of ``table_id``: their seat token's, and their
    account's if the seat is linked to one."""
    accounts = select(seat_links.c.account_id).where(seat_links.c.table_id == table_id, seat_links.c.seat == seat)
    mine: ColumnElement[bool] = push_subscriptions.c.account_id.in_(accounts)
    if token_hash is not None:
        mine = or_(mine, push_subscriptions.c.token_hash == token_hash)
    return [Subscription(row.endpoint, row.p256dh, row.auth, row.account_id, row.token_hash, row.language)
            for row in conn.execute(select(push_subscriptions).where(mine))]


# ----------------------------------------------------------------------------- sending


def turn_message(code: str, away: bool, language: str) -> dict[str, Any]:
    """What a push says: the table's code and that the turn is theirs (or, away, that a bot plays
    for them) — nothing of the game itself — in ``language``."""
    with speaking(language):
        body = (_("A bot is playing for you at table %(code)s. Come back to play.") if away
                else _("Your turn at table %(code)s")) % {"code": code}
        title = _("Oh Hell")
    return {"title": title, "body": body, "url": f"/t/{code}", "tag": f"ohhell-turn-{code}"}


class Pusher:
    """The site's Web Push: its keys, its subscriptions, and the pushes of turns (module docstring)."""

    def __init__(self, store: Store, subject: str | None = None, allow_http: bool = False) -> None:
        self.store = store
        self.subject = subject or os.environ.get(SUBJECT_ENV) or DEFAULT_SUBJECT
        self.allow_http = allow_http
        """Accept push services at http://127.0.0.1 (the tests' fake push service)."""
        self.public_key: str | None = None
        self._vapid: Any = None
        self._tasks: set[asyncio.Task[None]] = set()
        self.sent = 0
        """Pushes the push services accepted (for the tests and the log)."""

    @staticmethod
    def available() -> bool:
        """Whether ``pywebpush`` is installed (the ``server`` extra installs it)."""
        try:
            import pywebpush  # noqa: F401
        except ImportError:
            return False
        return True

    async def start(self) -> None:
        """Read the keys, or make them (the first start)."""
        if not self.available():
            log.info("pywebpush is not installed: no Web Push")
            return
        from py_vapid import Vapid

        pem, public = await asyncio.to_thread(load_or_make_keys, self.store.engine)
        self._vapid = Vapid.from_pem(pem.encode("ascii"))
        self.public_key = public

    async def subscribe(self, subscription: Subscription) -> None:
        await self.store.write(lambda conn: save_subscription(conn, subscription, time.time()))

    async def unsubscribe(self, endpoint: str) -> bool:
        removed: bool = await self.store.write(lambda conn: remove_subscription(conn, endpoint))
        return removed

    def turn(self, table_id: str, seat: int, token_hash: str | None, away: bool = False) -> None:
        """The turn is the person's at ``seat``, and no page of theirs is open: push to their
        browsers, in a task of its own (the game goes on at once, whatever the push services do)."""
        if self._vapid is None:
            return
        task = asyncio.get_running_loop().create_task(self._push_turn(table_id, seat, token_hash, away))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def settled(self) -> None:
        """Wait for the pushes on their way (tests; the server's stop)."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)

    async def _push_turn(self, table_id: str, seat: int, token_hash: str | None, away: bool) -> None:
        try:
            def read() -> list[Subscription]:
                with self.store.engine.connect() as conn:
                    return subscriptions_of(conn, table_id, seat, token_hash)

            found = await asyncio.to_thread(read)
            await asyncio.gather(*(self._send(one, turn_message(table_id, away, one.language)) for one in found))
        except Exception:  # nothing of a push may reach the game
            log.exception("table %s: could not push the turn of seat %d", table_id, seat)

    async def _send(self, subscription: Subscription, message: dict[str, Any]) -> None:
        from pywebpush import WebPushException, webpush

        data = json.dumps(message, ensure_ascii=False)
        try:
            # pywebpush posts with requests (blocking): in a thread. Fresh claims each time (it
            # fills in the audience and the expiry).
            await asyncio.to_thread(webpush, subscription.info(), data, vapid_private_key=self._vapid,
                                    vapid_claims={"sub": self.subject}, ttl=TTL, timeout=10)
        except WebPushException as error:
            status = getattr(error.response, "status_code", None)
            if status in GONE:
                log.info("a push subscription is gone (%s): dropped", status)
                with contextlib.suppress(Exception):
                    await self.unsubscribe(subscription.endpoint)
            else:
                log.warning("a push service refused a push (%s)", status if status is not None else error.message)
            return
        except Exception as error:  # the push service out of reach, a timeout…
            log.warning("could not reach a push service (%s)", error)
            return
        self.sent += 1

    def close(self) -> None:
        for task in list(self._tasks):
            task.cancel()
