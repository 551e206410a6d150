"""The web client and what the server gained after the card table was built, in Debian's Chromium
driven by Playwright: provably fair deals (the browser's own contribution, sent on connecting
while a deal waits, kept, and checked against the record on the history page), the history page
of a game with its post-game analysis and the verdict on every deal, the closing trick and the
hook's number sent to every seat, a server process that stops answering (the client pings,
reconnects, and the action lost with the old connection can be sent again), a seat whose
external bot failed, and the site's pages linked from the header and the lobby.

Games are short (hands of at most 2 cards) on a fast server; every page fails on a script error
or a Content-Security-Policy violation (``Pages`` of test_browser_table.py).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
import threading
import time
from typing import Any

from table_page import AXE, GAME_OVER, MY_MOVE, axe_problems, create_table, dismiss_summary, keep_seat, play_until, shot
from test_browser_i18n import PAGE_TEXTS, english_leftovers
from websockets.sync.client import connect
from wsclient import create_table as create_table_by_api
from wsclient import join_table

from conftest import PHONE, Pages, ServerProcess, free_port, served

# A long window for the players' contributions: a deal waits for every connected person, so a
# browser that connects while it waits has time to add its own (the browsers answer at once).
PACE = ("--bot-delay", "0.05", "--trick-pause", "0.15", "--hand-pause", "0.3", "--leave-grace", "60",
        "--fair-window", "30", "--bot-command", "broken=cmd:/bin/false")

server = served("browser-history", *PACE)


def stored_contributions(page: Any, code: str) -> dict[str, str]:
    """This browser's contributions at a table, by hand (fair.js keeps them in localStorage)."""
    return dict(page.evaluate("""(code) => {
        const all = JSON.parse(localStorage.getItem('ohhell.fair') || '{}');
        return Object.fromEntries(Object.entries((all[code] || {}).hands || {}).map(([h, e]) => [h, e.value]));
    }""", code))


def test_contributions_the_history_page_and_its_analysis(server: ServerProcess, pages: Pages) -> None:
    """Ann's seat is connected (by a client that sends nothing) when the first deal is announced,
    so the deal waits for her; her browser then opens the table, sees `table.fair.open` and adds
    its own contribution, and the cards come at once. After the game the history page shows each
    player's accuracy, the costliest decisions, every hand's verdict, and each browser's
    contributions as the ones in the record; in Russian too, on a phone."""
    table = create_table_by_api(server.url, "Ann", ["open", "basic", "basic"], knobs={"max_size": 2})
    code = table["code"]
    held = contextlib.ExitStack()
    silent = held.enter_context(connect(server.ws_url))  # Ann's seat, connected, silent after its hello
    silent.send(json.dumps({"type": "hello", "table": code, "token": table["token"], "lang": "en"}))
    seat = join_table(server.url, code, "Bob")  # every seat is taken: the game starts, the deal waits
    announced = None
    while announced is None:
        message = json.loads(silent.recv(timeout=10))
        if message["type"] == "fair" and "commitment" in message:
            announced = message
    assert announced["waiting"] == [0], announced  # Bob is not there: only Ann is waited for
    with contextlib.suppress(TimeoutError):  # nothing is dealt while the deal waits for Ann
        while True:
            message = json.loads(silent.recv(timeout=0.7))
            assert not (message["type"] == "state" and message["changes"].get("hand")), "dealt without Ann"
    ann = pages.new()
    ann.goto(server.url + "/")
    keep_seat(ann, code, table["token"], "Ann")
    started = time.monotonic()
    ann.goto(f"{server.url}/t/{code}")
    ann.wait_for_selector("#hand .card", timeout=20_000)
    assert time.monotonic() - started < 15, "the deal waited out its window: Ann's browser did not contribute"
    assert "0" in stored_contributions(ann, code)
    bob = pages.new(locale="ru-RU", **PHONE)
    bob.goto(server.url + "/")
    keep_seat(bob, code, seat["token"], "Bob")
    bob.goto(f"{server.url}/t/{code}")
    bob.wait_for_selector("#hand .card", timeout=20_000)
    # Discreetly, the table says that this deal holds this browser's randomness.
    ann.wait_for_selector("#fair-mark")
    assert "randomness" in (ann.get_attribute("#fair-mark", "title") or "")
    play_until([ann, bob], GAME_OVER, timeout_s=90)
    held.close()
    ann_kept, bob_kept = stored_contributions(ann, code), stored_contributions(bob, code)
    assert len(ann_kept) >= 3 and len(bob_kept) >= 2 and "0" not in bob_kept  # Bob came after the first deal

    # The history page: the analysis (once the worker has made it) and the fair deals.
    ann.click("#game-history")
    ann.wait_for_url(re.compile(rf"/t/{code}/history$"))
    ann.wait_for_selector("#fair-verdict.ok")
    ann.wait_for_selector("#accuracy .accuracy-card", timeout=90_000)
    assert len(ann.query_selector_all("#accuracy .accuracy-card")) == 4
    assert ann.query_selector("#accuracy .accuracy-card.me b").inner_text() == "Ann"
    figures = ann.eval_on_selector_all("#accuracy .acc-number", "nodes => nodes.map(n => n.textContent)")
    assert all(re.fullmatch(r"\d{1,3}%|–", figure) for figure in figures), figures
    assert ann.query_selector_all("#result li") and ann.query_selector("#costliest")
    assert ann.inner_text("#fair-own-count").startswith(f"This browser's randomness is in {len(ann_kept)} deal")
    hands = ann.query_selector_all(".hand-entry")
    assert len(hands) == len(ann_kept)
    assert all(hand.query_selector("summary .chip.fair-ok") for hand in hands)
    # A costly decision leads to its hand, opened: what each seat could make, the cards dealt,
    # the verdict and this browser's contribution in the record.
    link = ann.query_selector("#costliest .decision-link")
    if link is not None:
        link.click()
    else:
        ann.click("#hand-1 summary")
    ann.wait_for_selector(".hand-entry[open] .open-hand")
    opened = ann.query_selector(".hand-entry[open]")
    assert len(opened.query_selector_all(".open-hand")) == 4
    assert len(opened.query_selector_all(".dealt li")) >= 4
    assert re.search(r"For certain: .*; with help: .*; impossible: ", opened.inner_text())
    assert opened.query_selector(".fair-message.ok")
    assert opened.query_selector(".fair-own").inner_text() == "your contribution: ✔ in the deal"
    opened.query_selector(".fair-data summary").click()
    hexes = opened.eval_on_selector_all(".fair-data .hex", "nodes => nodes.map(n => n.textContent)")
    hand = int(opened.get_attribute("id").split("-")[1]) - 1
    assert ann_kept[str(hand)] in hexes and (hand == 0 or bob_kept[str(hand)] in hexes)
    if AXE is not None:
        assert axe_problems(ann) == [], "history page"
    shot(ann, "history-analysis.png", full_page=True)

    # Bob, in Russian on a phone: the same page, nothing in English, nothing wider than 390 px.
    bob.goto(f"{server.url}/t/{code}/history")
    bob.wait_for_selector("#accuracy .accuracy-card", timeout=60_000)
    bob.click("#hand-2 summary")
    bob.wait_for_selector("#hand-2 .fair-own.ok")
    assert "✔" in bob.inner_text("#hand-2 .fair-own")
    assert bob.evaluate("document.documentElement.scrollWidth") <= 390
    assert english_leftovers(bob.evaluate(PAGE_TEXTS), "ru") == []
    shot(bob, "history-phone-ru.png")
    bob.eval_on_selector("#hand-2", "node => node.scrollIntoView()")
    shot(bob, "history-hand-phone-ru.png")

    # The lobby lists the table as finished, with a way to its history (and its rematch).
    ann.goto(f"{server.url}/t/{code}")
    ann.wait_for_selector("#rematch")
    ann.click("#rematch")
    ann.wait_for_url(re.compile(r"/t/(?!" + code + r")[A-Z0-9]{6}$"), timeout=30_000)
    rematch = ann.url.rsplit("/", 1)[1]
    ann.goto(server.url + "/")
    row = f'#my-tables li[data-code="{code}"]'
    ann.wait_for_selector(f"{row} .history-of")
    assert ann.inner_text(f"{row} .next-game") == f"rematch: {rematch}"
    assert "finished" in ann.inner_text(row)


def test_the_closing_trick_and_the_hook_for_everybody(server: ServerProcess, pages: Pages) -> None:
    """Three seats, two of them people who bid 0 when they can: whenever one of them deals, the
    bids before theirs add up to no more than the cards, so the hook bites — and the other person
    is told the dealer's forbidden number from `hook_bid` (no rules lookup). The last trick of
    each hand is shown whole from `closing_trick` and gathered; no `history` is asked for."""
    ann = pages.new()
    bob = pages.new()
    for page in (ann, bob):
        page.add_init_script("""
            window.__closing = {};
            new MutationObserver(() => {
                const trick = document.querySelector('.trick[data-collecting$="-last"]');
                const id = trick && trick.dataset.collecting;
                if (id) window.__closing[id] = Math.max(window.__closing[id] || 0,
                                                        trick.querySelectorAll('.played.collecting').length);
            }).observe(document, {subtree: true, childList: true, attributes: true});
        """)
    sent: list[str] = []
    requests: list[str] = []
    for page in (ann, bob):
        page.on("websocket", lambda ws: ws.on("framesent", lambda payload: sent.append(str(payload))))
    code = create_table(ann, server.url, ["open", "basic"], max_size=2)
    # Requests made by the table page (not by the lobby it was created from): no rules lookup.
    ann.on("request", lambda request: requests.append(request.url) if "/t/" in request.frame.url else None)
    ann.wait_for_selector("#invite-link")
    seat = join_table(server.url, code, "Bob")
    bob.goto(server.url + "/")
    keep_seat(bob, code, seat["token"], "Bob")
    bob.on("request", lambda request: requests.append(request.url) if "/t/" in request.frame.url else None)
    bob.goto(f"{server.url}/t/{code}")
    explained: dict[str, int] = {}
    deadline = time.monotonic() + 90
    while not ann.query_selector("#game-over"):
        assert time.monotonic() < deadline, "the game did not end"
        for page, other, name in ((ann, bob, "Ann"), (bob, ann, "Bob")):
            dismiss_summary(page)
            # The move is looked for first: a dealer's bids come with their forbidden one in the
            # same update, so one found now is not bid before its hook has been checked.
            zero = page.query_selector('.bid-button[data-bid="0"]:not([disabled])')
            target = zero or page.query_selector(MY_MOVE)
            forbidden = page.query_selector(".bid-button.forbidden")
            if forbidden is not None and name not in explained:
                number = int(forbidden.get_attribute("data-bid"))
                assert forbidden.is_disabled()
                assert page.inner_text(".prompt-bar .hook") == (
                    f"As the dealer you may not bid {number}: the bids would add up to the number of cards.")
                other.wait_for_selector(".prompt-bar .hook", timeout=5000)
                assert other.inner_text(".prompt-bar .hook") == (
                    f"{name} deals and may not bid {number}: the bids must not add up to the number of cards.")
                explained[name] = number
            if target is not None:
                with contextlib.suppress(Exception):
                    target.click(timeout=1500)
        ann.wait_for_timeout(40)
    assert set(explained) == {"Ann", "Bob"}, explained
    closing = ann.evaluate("window.__closing")
    assert len(closing) >= 3 and all(count == 3 for count in closing.values()), closing
    assert not any('"type":"history"' in frame for frame in sent)
    assert not any("/api/rules" in url for url in requests), [url for url in requests if "/api/rules" in url]


class FreezingProxy:
    """A TCP proxy in front of the server, as a load balancer is: ``freeze()`` makes every
    connection open at that moment stop passing bytes either way while it stays open — what a
    stopped (SIGSTOP), not dead, server process does — and new connections pass as before, as
    the load balancer sends them to a process that answers."""

    def __init__(self, upstream: int) -> None:
        self.upstream = upstream
        self.port = free_port()
        self.connections: list[dict[str, bool]] = []
        self.loop = asyncio.new_event_loop()
        self.ready = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()
        self.ready.wait(10)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def freeze(self) -> None:
        for connection in self.connections:
            connection["frozen"] = True

    def close(self) -> None:
        asyncio.run_coroutine_threadsafe(self._shutdown(), self.loop).result(timeout=10)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(timeout=5)
        self.loop.close()

    async def _shutdown(self) -> None:
        self.listener.close()
        tasks = [task for task in asyncio.all_tasks() if task is not asyncio.current_task()]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    def _run(self) -> None:
        asyncio.set_event_loop(self.loop)
        self.listener = self.loop.run_until_complete(asyncio.start_server(self._serve, "127.0.0.1", self.port))
        self.ready.set()
        self.loop.run_forever()

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        up_reader, up_writer = await asyncio.open_connection("127.0.0.1", self.upstream)
        state = {"frozen": False}
        self.connections.append(state)

        async def pump(source: asyncio.StreamReader, sink: asyncio.StreamWriter) -> None:
            with contextlib.suppress(ConnectionError, asyncio.CancelledError):
                while data := await source.read(65536):
                    if state["frozen"]:
                        await asyncio.Event().wait()  # hold the connection open, pass nothing, forever
                    sink.write(data)
                    await sink.drain()
            sink.close()

        await asyncio.gather(pump(reader, up_writer), pump(up_reader, writer))


def test_a_stuck_server_process(server: ServerProcess, pages: Pages) -> None:
    """The connection stops answering (its server process is stopped) while the player's bid is on
    its way: within a few seconds the page notices (no pong), connects again, and the bid, which
    never arrived, can be made again — and this time it counts."""
    proxy = FreezingProxy(server.port)
    try:
        page = pages.new()
        sockets: list[str] = []
        page.on("websocket", lambda ws: sockets.append(ws.url))
        page.add_init_script("""new MutationObserver(() => {
            if (document.querySelector('.conn-lost')) window.__sawReconnecting = true;
        }).observe(document, {subtree: true, childList: true});""")
        create_table(page, proxy.url, ["basic"] * 3)
        page.wait_for_selector(".bid-button:not([disabled])", timeout=30_000)
        assert len(sockets) == 1
        proxy.freeze()
        frozen_at = time.monotonic()
        page.click(".bid-button:not([disabled])")
        page.wait_for_selector(".bid-button:not([disabled])", state="detached", timeout=2000)  # the bid waits
        while len(sockets) < 2:  # no answer to the pings: the page gives the connection up and opens another
            assert time.monotonic() - frozen_at < 20, "the page did not notice that the server stopped answering"
            page.wait_for_timeout(100)
        page.wait_for_function("() => !document.querySelector('.conn-lost')", timeout=10_000)
        assert page.evaluate("window.__sawReconnecting") is True  # and said so meanwhile
        page.wait_for_selector(".bid-button:not([disabled])", timeout=5000)  # the lost bid can be made again
        assert page.query_selector(".seat.bottom .bid-tricks").inner_text().endswith("/–")  # the server never had it
        bid = page.get_attribute(".bid-button:not([disabled])", "data-bid")
        page.click(f'.bid-button[data-bid="{bid}"]')
        page.wait_for_function(
            f"() => document.querySelector('.seat.bottom .bid-tricks').textContent.endsWith('/{bid}')", timeout=10_000)
    finally:
        proxy.close()


def test_a_failed_bot_and_the_site_pages(server: ServerProcess, pages: Pages) -> None:
    """A seat whose external bot failed says so; the header links the daily deal, the events, the
    ratings and the account on a desktop and behind a menu on a phone; the community pages have
    the table's look; the lobby tells a table nobody is at (paused)."""
    page = pages.new()
    create_table(page, server.url, ["broken", "basic", "basic"])
    play_until([page], "document.querySelector('.seat.fallback .bot-mark.fallback')")  # once seat 2 must act
    failed = "stand-in bot (the chosen bot failed)"
    assert failed in (page.get_attribute(".seat.fallback", "aria-label") or "")
    assert page.query_selector(".seat.fallback .seat-text").get_attribute("title") == failed
    # The header: the site's pages, one click away from the table.
    for link, path in (("#nav-daily", "/daily"), ("#nav-events", "/events"), ("#nav-ratings", "/ratings"),
                       ("#nav-account", "/account")):
        assert page.get_attribute(link, "href") == path
    page.click("#nav-daily")
    page.wait_for_selector("#daily-page")
    assert page.evaluate("document.querySelector('main').className") == "community"
    assert page.get_attribute("#nav-daily", "aria-current") == "page"
    if AXE is not None:
        assert axe_problems(page) == [], "daily deal"
    shot(page, "community-daily.png", full_page=True)
    # A table nobody is connected to waits: the lobby says so.
    page.goto(server.url + "/")
    page.wait_for_selector("#more-to-play a[href='/daily']")
    row = page.query_selector("#my-tables li")
    code = row.get_attribute("data-code")
    page.wait_for_selector(f'#my-tables li[data-code="{code}"] .table-status', timeout=10_000)
    page.wait_for_function(f"""() => document.querySelector('#my-tables li[data-code="{code}"] .table-status')
        .textContent === 'paused'""", timeout=10_000)
    if AXE is not None:
        assert axe_problems(page) == [], "lobby"
    shot(page, "lobby-tables.png", full_page=True)
    # The history of a game still being played: its finished hands' deals; the analysis comes later.
    page.click(f'#my-tables li[data-code="{code}"] .history-of')
    page.wait_for_selector("#fair-title")
    assert page.inner_text("#history-page .notice") == "The game is still being played: here are its finished hands."
    assert "The analysis is made once the game is over." in page.inner_text("#analysis")
    finished = len(page.query_selector_all(".hand-entry"))
    if finished:
        assert finished == len(page.query_selector_all(".hand-entry summary .chip.fair-ok"))
    else:
        assert "No hand has been finished yet." in page.inner_text("#fair")
    # On a phone the links hide behind a menu button.
    phone = pages.new(**PHONE)
    phone.goto(server.url + "/events")
    phone.wait_for_selector("#events-page")
    assert not phone.is_visible("#nav-ratings")
    phone.click("#menu-button")
    assert phone.get_attribute("#menu-button", "aria-expanded") == "true"
    phone.click("#nav-ratings")
    phone.wait_for_selector("#ratings-page")
    assert not phone.is_visible("#nav-ratings")
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    if AXE is not None:
        assert axe_problems(phone) == [], "ratings on a phone"
    phone.goto(server.url + "/daily")
    phone.wait_for_selector("#daily-page")
    shot(phone, "community-daily-phone.png")
