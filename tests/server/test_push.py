"""Web Push (``community/push.py``, ``web/routes/push.py``; docs/protocol.md, "Web Push"): the
VAPID keys are made once and kept; subscriptions are checked (4xx on anything wrong); a turn that
reaches a person with no open connection pushes exactly one message — signed with the site's
VAPID key, encrypted to the browser's keys, holding nothing but the table and "your turn" — to a
fake push service on loopback, and a turn with an open connection pushes none; a push service
that says the subscription is gone (410) has it dropped, one that fails (500) fails nothing."""

from __future__ import annotations

import asyncio
import base64
import json
import os
import random
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from sqlalchemy import create_engine, select
from wsclient import Client, create_table

from conftest import LiveServer, run_async, start_server

pytest.importorskip("pywebpush")

from aiohttp import web
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec, utils

from ohhell.server.community.push import load_or_make_keys, parse_subscription, push_subscriptions
from ohhell.server.storage.store import Store


def b64url(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def unb64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class Browser:
    """A browser's push subscription: the keys the push service's messages are encrypted to."""

    def __init__(self, endpoint: str) -> None:
        self.endpoint = endpoint
        self.private = ec.generate_private_key(ec.SECP256R1())
        self.auth = os.urandom(16)

    def subscription(self) -> dict[str, Any]:
        point = self.private.public_key().public_bytes(serialization.Encoding.X962,
                                                       serialization.PublicFormat.UncompressedPoint)
        return {"endpoint": self.endpoint, "keys": {"p256dh": b64url(point), "auth": b64url(self.auth)}}

    def decrypt(self, body: bytes) -> dict[str, Any]:
        import http_ece

        plain = http_ece.decrypt(body, private_key=self.private, auth_secret=self.auth, version="aes128gcm")
        found: dict[str, Any] = json.loads(plain)
        return found


def check_vapid(authorization: str, audience: str, site_key: str) -> dict[str, Any]:
    """The VAPID header (RFC 8292: ``vapid t=JWT, k=KEY``): signed by the site's key, for this
    push service, not expired. Its claims."""
    scheme, _space, rest = authorization.partition(" ")
    assert scheme == "vapid", authorization
    fields = dict(part.strip().split("=", 1) for part in rest.split(","))
    assert fields["k"] == site_key, "signed with the site's VAPID key"
    header, payload, signature = fields["t"].split(".")
    raw = unb64url(signature)
    der = utils.encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big"))
    public = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64url(fields["k"]))
    public.verify(der, f"{header}.{payload}".encode(), ec.ECDSA(hashes.SHA256()))  # raises if forged
    assert json.loads(unb64url(header)) == {"typ": "JWT", "alg": "ES256"}
    claims: dict[str, Any] = json.loads(unb64url(payload))
    assert claims["aud"] == audience and claims["exp"] > time.time() and claims["sub"].startswith("mailto:")
    return claims


class FakePushService:
    """A push service on loopback: records every message; ``/gone/…`` answers 410, ``/broken/…`` 500."""

    def __init__(self) -> None:
        self.received: list[tuple[str, dict[str, str], bytes]] = []
        self.port = 0
        self.runner: web.AppRunner | None = None

    async def start(self) -> FakePushService:
        async def push(request: web.Request) -> web.Response:
            headers = {key.lower(): value for key, value in request.headers.items()}
            self.received.append((request.path, headers, await request.read()))
            if request.path.startswith("/gone/"):
                return web.Response(status=410)
            if request.path.startswith("/broken/"):
                return web.Response(status=500)
            return web.Response(status=201)

        app = web.Application()
        app.router.add_post("/{tail:.*}", push)
        self.runner = web.AppRunner(app)
        await self.runner.setup()
        site = web.TCPSite(self.runner, "127.0.0.1", 0)
        await site.start()
        self.port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
        return self

    def url(self, path: str) -> str:
        return f"http://127.0.0.1:{self.port}{path}"

    def to(self, path: str) -> list[tuple[str, dict[str, str], bytes]]:
        return [item for item in self.received if item[0] == path]

    async def stop(self) -> None:
        if self.runner is not None:
            await self.runner.cleanup()


# ----------------------------------------------------------------------------- the keys


def test_the_vapid_keys_are_made_once_and_kept(sqlite_url: str) -> None:
    store = Store(sqlite_url)
    pem, public = load_or_make_keys(store.engine)
    store.close()
    again = Store(sqlite_url)  # a restart: the same keys, the browsers' subscriptions still valid
    assert load_or_make_keys(again.engine) == (pem, public)
    again.close()
    point = unb64url(public)
    assert len(point) == 65 and point[0] == 4
    private = serialization.load_pem_private_key(pem.encode(), None)
    assert isinstance(private, ec.EllipticCurvePrivateKey)
    assert private.public_key().public_bytes(serialization.Encoding.X962,
                                             serialization.PublicFormat.UncompressedPoint) == point


@pytest.fixture
def push_server(sqlite_url: str) -> Iterator[LiveServer]:
    server = start_server(sqlite_url, push_loopback=True, leave_grace=30.0)
    yield server
    server.stop()


def test_the_key_is_served_and_kept_across_a_restart(sqlite_url: str) -> None:
    first = start_server(sqlite_url)
    key = httpx.get(f"{first.url}/api/push/key").json()["key"]
    first.stop()
    second = start_server(sqlite_url)
    try:
        assert httpx.get(f"{second.url}/api/push/key").json()["key"] == key
    finally:
        second.stop()


# ----------------------------------------------------------------------------- subscribing


def test_subscriptions_are_checked(push_server: LiveServer) -> None:
    base = push_server.url
    created = create_table(base, "Ann", seats=["open", "basic"], players=3)
    code, token = created["code"], created["token"]
    good = Browser("http://127.0.0.1:9/push/ann").subscription()
    headers = {"Origin": base, "X-OhHell-CSRF": "1"}

    def post(body: Any, **extra: str) -> httpx.Response:
        return httpx.post(f"{base}/api/push/subscription", json=body, headers={**headers, **extra}, timeout=10)

    bad_point = {**good, "keys": {**good["keys"], "p256dh": b64url(b"\x04" + b"\x01" * 10)}}
    bad_auth = {**good, "keys": {**good["keys"], "auth": "not base64!"}}
    refusals: list[tuple[Any, int, str]] = [
        ({"subscription": "x", "table": code, "token": token}, 400, "subscription"),
        ({"subscription": {"keys": good["keys"]}, "table": code, "token": token}, 400, "subscription"),
        ({"subscription": {**good, "endpoint": "ftp://127.0.0.1/x"}, "table": code, "token": token}, 400, "https"),
        ({"subscription": {**good, "endpoint": "http://example.com/x"}, "table": code, "token": token}, 400, "https"),
        ({"subscription": {**good, "endpoint": "https://x/" + "a" * 1000}, "table": code, "token": token}, 400,
         "subscription"),
        ({"subscription": bad_point, "table": code, "token": token}, 400, "keys"),
        ({"subscription": bad_auth, "table": code, "token": token}, 400, "keys"),
        ({"subscription": good}, 400, "Sign in"),
        ({"subscription": good, "table": code}, 400, "Sign in"),
        ({"subscription": good, "table": "ZZZZZZ", "token": token}, 404, "no table"),
        ({"subscription": good, "table": code, "token": "not-a-seat"}, 403, "no seat"),
    ]
    for body, status, words in refusals:
        answer = post(body)
        assert answer.status_code == status and words in answer.json()["error"], (body, answer.text)
    assert httpx.post(f"{base}/api/push/subscription", content=b"[", headers=headers).status_code == 400
    no_csrf = httpx.post(f"{base}/api/push/subscription", json={"subscription": good, "table": code, "token": token},
                         headers={"Origin": base})
    assert no_csrf.status_code == 403
    assert post({"subscription": good, "table": code, "token": token}, Origin="https://evil.example").status_code == 403
    assert post({"subscription": good, "table": code, "token": token}).json() == {"subscribed": True}
    assert post({"subscription": good, "table": code, "token": token}).status_code == 200  # again: one row
    engine = create_engine(push_server.database)
    with engine.connect() as conn:
        assert len(conn.execute(select(push_subscriptions)).all()) == 1
    engine.dispose()

    def delete(body: Any) -> httpx.Response:
        return httpx.request("DELETE", f"{base}/api/push/subscription", json=body, headers=headers)

    assert delete({}).status_code == 400
    assert delete({"endpoint": 5}).status_code == 400
    assert delete({"endpoint": good["endpoint"]}).json() == {"removed": True}
    assert delete({"endpoint": good["endpoint"]}).json() == {"removed": False}


def test_only_https_push_services_outside_the_tests() -> None:
    key = b64url(b"\x04" + b"\x02" * 64)
    with pytest.raises(ValueError, match="https"):
        parse_subscription({"endpoint": "http://127.0.0.1/x", "keys": {"p256dh": key, "auth": b64url(b"a" * 16)}})
    assert parse_subscription({"endpoint": "http://127.0.0.1/x", "keys": {"p256dh": key, "auth": b64url(b"a" * 16)}},
                              allow_http=True)[0] == "http://127.0.0.1/x"


# ----------------------------------------------------------------------------- pushing


def test_a_turn_with_no_open_connection_pushes_once_and_an_open_one_none(push_server: LiveServer) -> None:
    base = push_server.url
    # A short game for three: Ann and Cy (connected all along), Bob (his page closed at first).
    created = create_table(base, "Ann", seats=["open", "open"], players=3,
                           knobs={"schedule": "explicit", "hands": [[3, "turn-up"], [2, "turn-up"]]})
    code, ann_token = created["code"], created["token"]
    key = httpx.get(f"{base}/api/push/key").json()["key"]

    async def scenario() -> tuple[FakePushService, dict[str, Browser], int]:
        service = await FakePushService().start()
        browsers = {name: Browser(service.url(f"/push/{name}")) for name in ("ann", "bob")}
        browsers["gone"] = Browser(service.url("/gone/bob"))
        browsers["broken"] = Browser(service.url("/broken/bob"))
        async with httpx.AsyncClient(base_url=base, timeout=10, headers={"Origin": base, "X-OhHell-CSRF": "1"}) as http:
            ann = await Client(push_server.ws_url, code, ann_token).connect()
            bob_token = (await http.post(f"/api/tables/{code}/join", json={"name": "Bob"})).json()["token"]
            for name, token in (("ann", ann_token), ("bob", bob_token), ("gone", bob_token), ("broken", bob_token)):
                path = "/api/push/subscription?lang=ru" if name == "bob" else "/api/push/subscription"
                body = {"subscription": browsers[name].subscription(), "table": code, "token": token}
                answer = await http.post(path, json=body)
                assert answer.status_code == 200, answer.text
            # Cy takes the last seat only now: the game starts once Bob's browsers are subscribed.
            cy_token = (await http.post(f"/api/tables/{code}/join", json={"name": "Cy"})).json()["token"]
        cy = await Client(push_server.ws_url, code, cy_token).connect()
        await ann.wait_for(lambda: ann.state.get("table", {}).get("status") == "playing")
        bob_seat = 1
        rng = random.Random(5)

        def bobs_turn() -> bool:
            state = ann.state
            return state.get("turn") == bob_seat or (state.get("turn") is None and bob_seat in state.get("actors", []))

        loop = asyncio.get_running_loop()
        deadline = loop.time() + 20
        while not bobs_turn():  # Ann and Cy play (their pages are open: no push for their turns)
            assert loop.time() < deadline
            for player in (ann, cy):
                action = player.my_move(rng)
                if action is not None:
                    await player.act(action)
            await asyncio.sleep(0.01)
        await asyncio.sleep(1.0)  # the push is on its way (a task of its own)
        pushed_before_bob_came = len(service.to("/push/bob"))
        # Bob comes back and the game goes on to its end: his turns now have an open connection.
        bob = await Client(push_server.ws_url, code, bob_token).connect()
        await asyncio.gather(ann.play_to_the_end(rng), bob.play_to_the_end(rng), cy.play_to_the_end(rng))
        await asyncio.sleep(0.5)
        for player in (ann, bob, cy):
            await player.close()
        await service.stop()
        return service, browsers, pushed_before_bob_came

    found = run_async(scenario())
    assert isinstance(found, tuple)
    service, browsers, before = found
    assert before == 1 and len(service.to("/push/bob")) == 1, "exactly one push, for the turn nobody could see"
    assert service.to("/push/ann") == [], "Ann's page was open at each of her turns"
    _path, headers, body = service.to("/push/bob")[0]
    check_vapid(headers["authorization"], f"http://127.0.0.1:{service.port}", key)
    assert headers["content-encoding"] == "aes128gcm" and int(headers["ttl"]) > 0
    message = browsers["bob"].decrypt(body)
    assert message == {"title": "Оу-хелл", "body": f"Ваш ход за столом {code}", "url": f"/t/{code}",
                       "tag": f"ohhell-turn-{code}"}, "the table and the turn: nothing of the game"
    # The push service said the subscription is gone: dropped. The broken one is kept, and the
    # game did not notice either.
    assert len(service.to("/gone/bob")) == 1 and len(service.to("/broken/bob")) == 1
    engine = create_engine(push_server.database)
    with engine.connect() as conn:
        kept = sorted(row.endpoint for row in conn.execute(select(push_subscriptions.c.endpoint)))
    engine.dispose()
    assert kept == sorted(browsers[name].endpoint for name in ("ann", "bob", "broken"))


def test_the_owner_tells_an_absent_persons_turn_once_and_once_only_while_away(tmp_path: Any) -> None:
    """The hook Web Push hangs on (``LiveTable._tell_absent_turns`` → ``TableManager.on_turn``):
    each turn of a person with no connection once; once they are away (a stand-in plays), only
    their first turn; none for a seat whose page is open."""
    from test_quickplay_latecomers import Watcher, until

    from ohhell.rules import preset
    from ohhell.server.config import ServerConfig
    from ohhell.server.live.manager import TableManager

    async def main() -> list[tuple[int, bool, int]]:
        url = f"sqlite:///{tmp_path / 'ohhell.db'}"
        store = Store(url)
        store.start()
        tables = TableManager(store, ServerConfig.fast(database=url, bot_delay=0.01, leave_grace=30.0))
        told: list[tuple[int, bool, int]] = []
        tables.on_turn.append(lambda table, seat, away: told.append((seat, away, table.version)))
        try:
            table, _token = await tables.create(preset("classic", players=3), "Ann", ["basic", "basic"], 0.0)
            await table.attach(Watcher(), None, "Rail")  # type: ignore[arg-type]  (a game nobody watches pauses)
            await until(lambda: bool(told))
            await asyncio.sleep(0.3)
            assert told == [(0, False, told[0][2])], "Ann's turn, told once: the game waits for her"
            table._check_left(0)  # her grace is over: a stand-in plays her turns from now on
            await until(lambda: len(table.state.finished_hands) >= 2, timeout=60)
            return told
        finally:
            tables.close()
            store.close()

    told = asyncio.run(main())
    assert [(seat, away) for seat, away, _version in told] == [(0, False), (0, True)]
    assert not any(seat != 0 for seat, _away, _version in told), "bots' seats are never told"
