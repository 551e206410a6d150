"""Friends (``community/friends.py``, ``web/routes/friends.py``): asking and accepting by name,
the list and its online status, invitations, the event stream, and every refusal."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from typing import Any

import httpx
from accounts_helpers import Browser, app_client

from conftest import start_server
from ohhell.server.community import friends
from ohhell.server.web.csrf import CSRF_HEADER


def table_code(browser: Browser) -> str:
    made = browser.client.post("/api/tables", json={"name": "Ann", "preset": "classic", "players": 3,
                                                    "seats": ["open", "basic"]})
    assert made.status_code == 200, made.text
    return str(made.json()["code"])


def test_asking_accepting_listing_and_removing(sqlite_url: str) -> None:
    with app_client(sqlite_url) as site:
        ann, bob, cid = Browser(site), Browser(site), Browser(site)
        ann.signup("Ann")
        bob.signup("Bob")
        cid.signup("Cid")
        asked = ann.post("/api/friends", {"name": "bob"})  # names compare case-folded
        assert asked.status_code == 200, asked.text
        assert asked.json() == {"status": "asked", "friends": [{"name": "Bob", "status": "asked", "online": False}]}
        assert bob.get("/api/friends").json()["friends"] == [{"name": "Ann", "status": "asking", "online": False}]
        accepted = bob.post("/api/friends", {"name": "Ann"})  # asking back is accepting
        assert accepted.json()["status"] == "friend"
        assert ann.get("/api/friends").json()["friends"] == [{"name": "Bob", "status": "friend", "online": False}]
        assert ann.post("/api/friends", {"name": "Bob"}).json()["status"] == "friend"  # asking again changes nothing
        cid.post("/api/friends", {"name": "Ann"})
        assert [f["name"] for f in ann.get("/api/friends").json()["friends"]] == ["Bob", "Cid"]
        declined = ann.post("/api/friends/remove", {"name": "Cid"})
        assert declined.json()["friends"] == [{"name": "Bob", "status": "friend", "online": False}]
        assert cid.get("/api/friends").json()["friends"] == []
        assert bob.post("/api/friends/remove", {"name": "Ann"}).json()["friends"] == []
        assert ann.get("/api/friends").json()["friends"] == []


def test_refusals_are_clear_4xx(sqlite_url: str) -> None:
    with app_client(sqlite_url) as site:
        guest = Browser(site)
        assert guest.get("/api/friends").status_code == 401
        assert guest.get("/api/friends/events").status_code == 401
        refused = guest.post("/api/friends", {"name": "Ann"})
        assert refused.status_code == 401 and "link" in refused.json()["error"]
        ann, bob = Browser(site), Browser(site)
        ann.signup("Ann")
        bob.signup("Bob")
        for body, status, code in [({"name": "Nobody"}, 404, "no-such-player"), ({"name": "ann"}, 400, "self"),
                                   ({}, 400, "bad-name"), ({"name": 7}, 400, "bad-name"),
                                   ({"name": "x" * 65}, 400, "bad-name")]:
            answer = ann.post("/api/friends", body)
            assert (answer.status_code, answer.json()["code"]) == (status, code), (body, answer.text)
            assert answer.json()["error"]
        assert ann.client.post("/api/friends", content=b"[", headers=ann.headers()).status_code == 400
        # The CSRF token is required once signed in; another site's origin is refused.
        assert ann.client.post("/api/friends", json={"name": "Bob"},
                               headers={"Origin": ann.origin, CSRF_HEADER: "wrong"}).status_code == 403
        assert ann.post("/api/friends", {"name": "Bob"}, Origin="https://evil.example").status_code == 403
        code = table_code(ann)
        not_yet = ann.post("/api/friends/invite", {"name": "Bob", "code": code})
        assert not_yet.status_code == 403 and not_yet.json()["code"] == "not-friends"
        ann.post("/api/friends", {"name": "Bob"})
        assert ann.post("/api/friends/invite", {"name": "Bob", "code": code}).json()["code"] == "not-friends"
        bob.post("/api/friends", {"name": "Ann"})
        for body, status in [({"name": "Bob", "code": "ZZZZZZ"}, 404), ({"name": "Bob", "code": "no/pe"}, 400),
                             ({"name": "Bob"}, 400), ({"name": "Bob", "code": 5}, 400)]:
            assert ann.post("/api/friends/invite", body).status_code == status, body
        assert ann.post("/api/friends/invite", {"name": "Bob", "code": code.lower()}).status_code == 200
        for _ in range(friends.MAX_INVITES_PER_MINUTE - 1):
            assert ann.post("/api/friends/invite", {"name": "Bob", "code": code}).status_code == 200
        assert ann.post("/api/friends/invite", {"name": "Bob", "code": code}).status_code == 429


def test_a_deleted_account_leaves_its_friends_lists(sqlite_url: str) -> None:
    with app_client(sqlite_url) as site:
        ann, bob = Browser(site), Browser(site)
        ann.signup("Ann")
        bob.signup("Bob")
        ann.post("/api/friends", {"name": "Bob"})
        bob.post("/api/friends", {"name": "Ann"})
        ann.post("/api/friends/invite", {"name": "Bob", "code": table_code(ann)})
        deleted = bob.post("/api/account/delete", {"password": "correct horse"})
        assert deleted.status_code == 200, deleted.text
        assert ann.get("/api/friends").json()["friends"] == []


def read_events(response: httpx.Response) -> Iterator[tuple[str, Any]]:
    kind = None
    for line in response.iter_lines():
        if line.startswith("event: "):
            kind = line[len("event: "):]
        elif line.startswith("data: ") and kind is not None:
            yield kind, json.loads(line[len("data: "):])
            kind = None


def test_the_event_stream_tells_presence_and_invitations(sqlite_url: str) -> None:
    """Bob's open page shows Ann online once hers is open, and her invitation to a table;
    through two server processes on one database, as in the cluster."""
    first, second = start_server(sqlite_url), start_server(sqlite_url)
    try:
        ann, bob = Browser(first.url), Browser(second.url)
        ann.signup("Ann")
        bob.signup("Bob")
        ann.post("/api/friends", {"name": "Bob"})
        bob.post("/api/friends", {"name": "Ann"})
        with ann.client.stream("GET", "/api/friends/events") as ann_stream:
            ann_events = read_events(ann_stream)
            assert next(ann_events) == ("friends", {"friends": [{"name": "Bob", "status": "friend", "online": False}]})
            with bob.client.stream("GET", "/api/friends/events") as bob_stream:
                bob_events = read_events(bob_stream)
                assert next(bob_events) == ("friends", {"friends": [
                    {"name": "Ann", "status": "friend", "online": True}]})
                assert next(ann_events)[1]["friends"][0]["online"] is True  # Ann's page sees Bob come
                code = table_code(ann)
                sent = time.monotonic()
                assert ann.post("/api/friends/invite", {"name": "Bob", "code": code}).status_code == 200
                kind, invite = next(bob_events)
                assert kind == "invite" and invite["from"] == "Ann" and invite["code"] == code
                assert time.monotonic() - sent < 15  # one look (3 s), with room for a loaded machine
        # A page opened just after the invitation still shows it.
        with bob.client.stream("GET", "/api/friends/events") as again:
            kinds = read_events(again)
            assert next(kinds)[0] == "friends"
            assert next(kinds) == ("invite", invite)
    finally:
        first.stop()
        second.stop()


def test_presence_goes_when_the_page_does(sqlite_url: str) -> None:
    from sqlalchemy import create_engine

    engine = create_engine(sqlite_url)
    with app_client(sqlite_url) as site:
        ann, bob = Browser(site), Browser(site)
        ann.signup("Ann")
        bob.signup("Bob")
        ann.post("/api/friends", {"name": "Bob"})
        bob.post("/api/friends", {"name": "Ann"})
        with engine.begin() as conn:
            bob_id = friends.account_named(conn, "Bob")[0]
            friends.check_in(conn, bob_id, time.time() - friends.ONLINE - 1)
        assert ann.get("/api/friends").json()["friends"][0]["online"] is False
        with engine.begin() as conn:
            friends.check_in(conn, bob_id, time.time())
        assert ann.get("/api/friends").json()["friends"][0]["online"] is True
        # Someone who only asked does not see whether you are online.
        cid = Browser(site)
        cid.signup("Cid")
        cid.post("/api/friends", {"name": "Bob"})
        assert cid.get("/api/friends").json()["friends"] == [{"name": "Bob", "status": "asked", "online": False}]
    engine.dispose()


def test_the_event_stream_ends_when_the_player_signs_out(live_server: Any) -> None:
    ann = Browser(live_server.url)
    ann.signup("Ann")
    with ann.client.stream("GET", "/api/friends/events") as stream:
        assert stream.headers["content-type"].startswith("text/event-stream")
        events = read_events(stream)
        assert next(events) == ("friends", {"friends": []})
        assert ann.post("/api/account/logout").status_code == 200
        started = time.monotonic()
        assert list(events) == []  # the stream ends: this page is no longer Ann's
        assert time.monotonic() - started < 10
