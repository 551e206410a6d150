"""Playwright runs of the pages of players who come back: a duplicate event of three tables and
the daily deal, in Debian's Chromium. People sign up, create the event, take their seats and see
the standings, the hand comparisons and the export through the pages; the games themselves are
played over the WebSocket with each browser's own seat token (the table page has tests of its
own), which keeps these runs quick. Any console error (a CSP violation included) fails them."""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from wsclient import Client

from conftest import ROOT, LiveServer, run_async, start_server
from ohhell.server.community import daily as daily_module

NEW_CLIENT = (ROOT / "ohhell/server/static/js/html.js").exists() and \
    "showCommunity" in (ROOT / "ohhell/server/static/js/main.js").read_text(encoding="utf-8")
pytestmark = pytest.mark.skipif(not NEW_CLIENT, reason="the new web client (ES modules) is not on this branch yet")

SHORT = {"schedule": "explicit", "hands": [[3, "turn-up"], [2, "turn-up"], [1, "turn-up"]]}


@pytest.fixture
def server(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[LiveServer]:
    # Short games keep the runs quick: the daily deal's rules, and the event's (chosen below).
    monkeypatch.setattr(daily_module, "daily_rules", lambda: daily_module.preset(
        "classic", players=4, schedule="explicit", hands=[[2, "turn-up"], [1, "turn-up"]]))
    live = start_server(f"sqlite:///{tmp_path / 'browser.db'}")
    yield live
    live.stop()


class Watch:
    """A browser page that records every console error and uncaught exception."""

    def __init__(self, browser: Any, base: str) -> None:
        self.context = browser.new_context(viewport={"width": 1100, "height": 900})
        self.page = self.context.new_page()
        self.errors: list[str] = []
        self.page.on("console", lambda message: self.errors.append(message.text) if message.type == "error" else None)
        self.page.on("pageerror", lambda error: self.errors.append(str(error)))
        self.base = base

    def goto(self, path: str) -> Any:
        self.page.goto(self.base + path)
        return self.page

    def token(self, code: str) -> str:
        seats = self.page.evaluate("() => JSON.parse(localStorage.getItem('ohhell.seats') || '{}')")
        return str(seats[code]["token"])

    def close(self) -> None:
        self.context.close()
        assert not self.errors, self.errors


async def play(ws_url: str, code: str, token: str, seed: int) -> None:
    client = await Client(ws_url, code, token).connect()
    rng = random.Random(seed)
    loop = asyncio.get_running_loop()
    deadline = loop.time() + 60
    while not client.state.get("game_over"):
        assert loop.time() < deadline, "the game did not finish"
        action = client.my_move(rng)
        if action is not None:
            await client.act(action)
        await asyncio.sleep(0.01)
    await client.close()


def test_an_event_of_three_tables_in_the_browser(server: LiveServer, browser: Any) -> None:
    host = Watch(browser, server.url)
    page = host.goto("/events")
    page.fill("#event-name", "Club night")
    page.select_option("#event-preset", "classic")
    page.select_option("#event-players", "3")
    page.select_option("#event-tables", "3")
    page.select_option("[data-event-seat='1']", "random")
    page.select_option("[data-event-seat='2']", "random")
    # The form's rules are the preset's; a short schedule keeps the run quick (the API takes knobs).
    page.evaluate("""() => { const original = window.fetch; window.fetch = (url, options) => {
        if (String(url).startsWith('/api/events?') && options && options.method === 'POST') {
          const body = JSON.parse(options.body);
          body.knobs = {schedule: 'explicit', hands: [[3, 'turn-up'], [2, 'turn-up'], [1, 'turn-up']]};
          options = {...options, body: JSON.stringify(body)};
        }
        return original(url, options); }; }""")
    page.click("#create-event")
    page.wait_for_selector("#event-page")
    event_path = page.evaluate("() => location.pathname")
    assert page.locator(".event-table").count() == 3
    # Three people take seat 1 at each table, each in a browser of their own.
    people = [Watch(browser, server.url) for _ in range(3)]
    tokens = []
    for number, person in enumerate(people):
        their = person.goto(event_path)
        their.wait_for_selector("#event-join-name")
        their.fill("#event-join-name", f"Player {number + 1}")
        their.click(f"[data-join='{number}-0']")
        their.wait_for_url("**/t/*")
        code = their.evaluate("() => location.pathname.split('/').pop()")
        tokens.append((code, person.token(code)))
    # Two tables play to the end: nothing is compared yet, the third has not played a hand.
    async def two_tables() -> None:
        await asyncio.gather(*(play(server.ws_url, code, token, seed) for seed, (code, token) in enumerate(tokens[:2])))

    run_async(two_tables())
    page.reload()
    page.wait_for_selector("#standings")
    assert page.locator("#hand-buttons button").count() == 0
    assert page.locator("#export").count() == 0
    run_async(play(server.ws_url, *tokens[2], 9))
    page.wait_for_selector("#hand-buttons button >> nth=2", timeout=15000)
    page.wait_for_selector("#export")
    page.click("[data-hand='0']")
    page.wait_for_selector("#hand-comparison")
    assert page.locator("#hand-comparison tr").count() == 4  # a header and the three tables
    names = page.locator("#standings").inner_text()
    assert all(f"Player {n}" in names for n in (1, 2, 3))
    page.screenshot(path=str(Path(server.database.removeprefix("sqlite:///")).parent / "event.png"), full_page=True)
    for watch in (host, *people):
        watch.close()


def test_the_daily_deal_in_the_browser(server: LiveServer, browser: Any) -> None:
    dana = Watch(browser, server.url)
    page = dana.goto("/account")
    page.fill("#account-name", "Dana")
    page.fill("#account-password", "correct horse")
    page.click("#sign-up")
    page.wait_for_selector("#account")
    page = dana.goto("/daily")
    page.click("#daily-start")
    page.wait_for_url("**/t/*")
    code = page.evaluate("() => location.pathname.split('/').pop()")
    token = dana.token(code)
    page = dana.goto("/daily")
    page.wait_for_selector("#daily-continue")  # her try is under way: no results yet
    assert page.locator("#daily-results").count() == 0
    run_async(play(server.ws_url, code, token, 1))
    guest = Watch(browser, server.url)
    their = guest.goto("/daily")
    their.fill("#daily-name", "Gus")
    their.click("#daily-start")
    their.wait_for_url("**/t/*")
    guest_code = their.evaluate("() => location.pathname.split('/').pop()")
    run_async(play(server.ws_url, guest_code, guest.token(guest_code), 2))
    # A finished try is scored by a listener of the game's end, a moment after the last card:
    # the page may be opened before it (then opened again).
    deadline = time.monotonic() + 15
    while True:
        page = dana.goto("/daily")
        page.wait_for_selector("#daily-results")
        rows = page.locator("#daily-results tr")
        if rows.count() == 3 or time.monotonic() > deadline:
            break
        page.wait_for_timeout(200)
    assert rows.count() == 3  # a header, Dana and Gus
    assert page.locator("#daily-results tr.you").inner_text().startswith(("1", "2"))
    assert "Dana" in page.locator("#daily-results tr.you").inner_text()
    # One try a day: the start button is gone for her, in any browser she signs in from.
    assert page.locator("#daily-start").count() == 0
    page = dana.goto("/u/Dana")
    page.wait_for_selector("#player-page")
    for watch in (dana, guest):
        watch.close()


def test_a_rated_table_from_the_lobby(server: LiveServer, browser: Any) -> None:
    """The lobby's form offers "Rated game" to a signed-in player only; a rated table is made
    through ``POST /api/rated-tables`` under the account's name, and its finished game counts
    for her rating."""
    guest = Watch(browser, server.url)
    page = guest.goto("/")
    page.wait_for_selector("#create-form #seat-choices")
    page.wait_for_load_state("networkidle")  # the account question has been answered
    assert page.locator("#rated").count() == 0  # a guest has no rating
    rita = Watch(browser, server.url)
    page = rita.goto("/account")
    page.fill("#account-name", "Rita")
    page.fill("#account-password", "correct horse")
    page.click("#sign-up")
    page.wait_for_selector("#account")
    page = rita.goto("/")
    page.wait_for_selector("#rated")
    assert page.locator("#rated-hint").count() == 0
    page.fill("#name", "Someone else")
    page.check("#rated")
    page.wait_for_selector("#rated-hint")
    assert page.locator("#name").is_disabled() and page.input_value("#name") == "Rita"
    page.locator("#create-form").screenshot(path=str(Path(server.database.removeprefix("sqlite:///")).parent
                                                     / "rated.png"))
    page.select_option("#players", "3")
    page.select_option("[data-seat='1']", "basic")
    page.select_option("[data-seat='2']", "random")
    # The form's rules are the preset's; a short schedule keeps the run quick (the API takes knobs).
    page.evaluate("""() => { const original = window.fetch; window.fetch = (url, options) => {
        if (String(url).startsWith('/api/rated-tables?') && options && options.method === 'POST') {
          const body = JSON.parse(options.body);
          body.knobs = {schedule: 'explicit', hands: [[2, 'turn-up'], [1, 'turn-up']]};
          options = {...options, body: JSON.stringify(body)};
        }
        return original(url, options); }; }""")
    page.click("#create")
    page.wait_for_url("**/t/*")
    code = page.evaluate("() => location.pathname.split('/').pop()")
    app = server.server.config.app
    table = app.state.server.tables.tables[code]
    assert table.settings.extra == {"rated": True}
    assert table.seats[0].name == "Rita"
    run_async(play(server.ws_url, code, rita.token(code), 4))
    # Rated by a listener of the game's end, a moment after the last card: opened again until then.
    deadline = time.monotonic() + 15
    while True:
        page = rita.goto("/u/Rita")
        page.wait_for_selector("#player-page")
        if "1 rated game" in page.inner_text("#player-page") or time.monotonic() > deadline:
            break
        page.wait_for_timeout(200)
    assert "1 rated game" in page.inner_text("#player-page")
    # A bot's page says which scale its fixed rating is on, and the arena's Elo figure it comes from.
    page = rita.goto("/bots/strong")
    page.wait_for_selector("#bot-scale")
    assert "1689" in page.inner_text("#ratings") and "1593" in page.inner_text("#bot-scale")
    for watch in (guest, rita):
        watch.close()
