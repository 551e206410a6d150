"""Friends in a real headless Chromium: two browsers, two accounts. Ann (desktop) adds Bob by
name, Bob (a phone) accepts, each sees the other online; Ann makes a table and invites Bob from
it, Bob's open page shows the invitation and he joins from it and plays. Screenshots of the
friends panel and the invitation (desktop, phone, Russian) go to docs/screenshots with
``OHHELL_SCREENSHOTS=1``."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from table_page import shot

from conftest import PHONE, LiveServer, Pages, start_server
from ohhell.server.web.routes import friends as friends_routes

PACE = {"bot_delay": 0.05, "trick_pause": 0.15, "hand_pause": 0.3, "leave_grace": 5.0}


# The event stream looks at the database every half second (3 s on a site): each live change
# (a request, an answer, "online", an invitation) reaches the other page sooner; no time is measured.
POLL = 0.5


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    # In a thread of the test process: no new interpreter to start (slow on a loaded machine).
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(friends_routes, "POLL", POLL)
        live = start_server(f"sqlite:///{tmp_path_factory.mktemp('browser-friends') / 'ohhell.db'}", **PACE)
        yield live
        live.stop()


def sign_up(page: Any, url: str, name: str) -> None:
    page.goto(url + "/account")
    page.fill("#account-name", name)
    page.fill("#account-password", "correct horse")
    page.click("#sign-up")
    page.wait_for_selector("#account")
    page.goto(url + "/")  # a new page: the friends button comes with the signed-in account
    page.wait_for_selector("#friends-button")


def friend_line(page: Any, name: str) -> Any:
    return page.locator(f"#friends-list .friend[data-name='{name}']")


def test_add_a_friend_see_them_online_invite_them_and_they_join(server: LiveServer, pages: Pages) -> None:
    ann, bob = pages.new(), pages.new(**PHONE)
    # A guest has no friends button: guests send the table's link.
    ann.goto(server.url + "/")
    ann.wait_for_selector("#create")
    assert ann.locator("#friends-button").count() == 0
    sign_up(ann, server.url, "Ann")
    sign_up(bob, server.url, "Bob")

    ann.click("#friends-button")
    ann.wait_for_selector("#friends-panel")
    assert "No friends yet" in ann.inner_text("#friends-panel")
    ann.fill("#friend-name", "bob")
    ann.click("#friend-add")
    friend_line(ann, "Bob").wait_for()
    assert "waiting for an answer" in friend_line(ann, "Bob").inner_text()

    bob.locator("#friends-button .badge-count", has_text="1").wait_for(timeout=20_000)  # Ann's request, live
    bob.click("#friends-button")
    friend_line(bob, "Ann").locator(".friend-accept").click()
    friend_line(bob, "Ann").locator(".friend-status", has_text="online").wait_for(timeout=20_000)
    friend_line(ann, "Bob").locator(".friend-status", has_text="online").wait_for(timeout=20_000)
    assert "1 online" in ann.inner_text("#friends-button")
    bob.click("#friends-panel .friends-close")

    # Ann makes a table with a seat open and invites Bob from it.
    ann.goto(server.url + "/")
    ann.fill("#name", "Ann")
    ann.select_option("#players", "3")
    ann.wait_for_function("document.querySelectorAll('#seat-choices select').length === 2")
    selects = ann.query_selector_all("#seat-choices select")
    selects[0].select_option("open")
    selects[1].select_option("basic")
    ann.click("#create")
    ann.wait_for_selector("#invite-link")
    code = ann.input_value("#invite-link").rsplit("/", 1)[1]
    ann.click("#friends-button")
    friend_line(ann, "Bob").locator(".friend-invite").click()
    ann.locator("#friends-panel .friends-notice", has_text="Invitation sent to Bob").wait_for()
    shot(ann, "friends-panel-desktop.png", table=False)

    toast = bob.locator(f"#friend-toasts .friend-toast[data-code='{code}']")
    toast.wait_for(timeout=20_000)
    assert f"Ann invites you to table {code}" in toast.inner_text()
    shot(bob, "friends-invite-phone.png", table=False)
    toast.locator("a", has_text="Join").click()
    bob.wait_for_url(f"**/t/{code}")
    assert bob.locator("#friend-toasts .friend-toast").count() == 0
    bob.fill("#join-name", "Bob")
    bob.click("#take-seat")
    for page in (ann, bob):
        page.wait_for_selector("#hand .card", timeout=30_000)
    assert "Bob" in ann.inner_text(".felt")
    shot(bob, "friends-at-table-phone.png")  # the button moves to the top: the hand keeps the bottom

    # In Russian, on the phone: the panel and the next invitation.
    bob.evaluate("() => localStorage.setItem('ohhell.lang', 'ru')")
    bob.goto(server.url + "/")
    bob.wait_for_selector("#friends-button")
    assert "Друзья" in bob.inner_text("#friends-button")
    if ann.locator("#friends-panel").count() == 0:
        ann.click("#friends-button")
    friend_line(ann, "Bob").locator(".friend-invite").click()
    ru_toast = bob.locator("#friend-toasts .friend-toast").last
    ru_toast.wait_for(timeout=20_000)
    assert f"Ann приглашает вас за стол {code}" in ru_toast.inner_text()
    shot(bob, "friends-invite-phone-ru.png", table=False)
    bob.click("#friends-button")
    bob.wait_for_selector("#friends-panel")
    shot(bob, "friends-panel-phone-ru.png", table=False)
