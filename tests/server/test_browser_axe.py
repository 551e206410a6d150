"""axe-core on every page, in Debian's Chromium driven by Playwright (issue 26): the lobby, the
score keeper and a sheet being kept, the account (signed out and in), a player's page, the
ratings, the events, the daily deal, a bot's page, and the table through one whole game —
waiting, joining, bidding, playing, each of the drawer's panels, the hand's summary, the score
sheet and the replay after a hand, the end — and the game's history page. Nothing serious or
critical, axe-core's experimental rules on, a level-one heading and headings in order
(:func:`~table_page.axe_problems`, ``strict``).
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from table_page import AXE, GAME_OVER, PACE, axe_problems, create_table, dismiss_summary, play_until

from conftest import Pages, ServerProcess, served

server = served("browser-axe", *PACE, "--max-new-tables", "1000")


def test_axe_on_every_page(server: ServerProcess, pages: Pages) -> None:
    if AXE is None:
        pytest.fail("axe-core is missing (pip install -e '.[test]' brings axe-playwright-python)")
    problems: dict[str, list[str]] = {}

    def check(page: Any, name: str) -> None:
        found = axe_problems(page, strict=True)
        if found:
            problems[name] = found

    page = pages.new()
    base = server.url
    for path, ready in (("/", "#create"), ("/score", "#sk-new"), ("/account", "#sign-forms"),
                        ("/ratings", "#ratings-page"), ("/events", "#events-page"), ("/daily", "#daily-page"),
                        ("/bots/basic", "#player-page")):
        page.goto(base + path)
        page.wait_for_selector(ready, timeout=15_000)
        check(page, path)
    # A score sheet being kept.
    page.goto(base + "/score")
    page.wait_for_selector("#sk-create")
    for input_box, name in zip(page.query_selector_all(".sk-name"), ["Ann", "Bob", "Cy", "Dee"], strict=True):
        input_box.fill(name)
    page.click("#sk-create")
    page.wait_for_url(re.compile(r"/score/[A-Za-z0-9_-]+$"), timeout=15_000)
    page.wait_for_selector("#sk-current", timeout=15_000)
    check(page, "/score/{sheet}")
    # Signed in: the account page and the player's own.
    signed = page.evaluate("""async () => {
        const answer = await fetch('/api/account/signup', {method: 'POST', headers: {'Content-Type': 'application/json',
            'x-ohhell-csrf': '1'}, body: JSON.stringify({name: 'Axel', password: 'correct horse battery'})});
        return answer.status;
    }""")
    if signed == 200:
        page.goto(base + "/account")
        page.wait_for_selector("#account", timeout=15_000)
        check(page, "/account (signed in)")
        page.goto(base + "/u/Axel")
        page.wait_for_selector("#player-page", timeout=15_000)
        check(page, "/u/{name}")
    # The table: waiting, joining, bidding, playing, the drawer's panels, the end, the history.
    host = pages.new()
    create_table(host, base, ["open", "basic"], max_size=2)
    host.wait_for_selector("#invite-link")
    check(host, "table, waiting")
    code = host.url.rsplit("/", 1)[1]
    guest = pages.new()
    guest.goto(f"{base}/t/{code}")
    guest.wait_for_selector("#join-name")
    check(guest, "table, joining")
    create_table(page, base, ["basic"] * 3, max_size=2)
    page.wait_for_selector(".bid-button:not([disabled])", timeout=30_000)
    check(page, "table, bidding")
    play_until([page], "document.querySelector('#hand button.card.legal')")
    check(page, "table, playing")
    for tool, ready in (("#show-sheet", "#sheet"), ("#show-chat", "#chat"), ("#show-rules", "#rules"),
                        ("#show-settings", "#settings")):
        page.click(tool)
        page.wait_for_selector(ready)
        check(page, f"table, {tool}")
        page.click(tool)
    play_until([page], "document.querySelector('#hand-summary')")
    check(page, "table, hand summary")
    dismiss_summary(page)
    # After a hand: the score sheet with its row, and the replay of the hand's tricks.
    page.click("#show-sheet")
    page.wait_for_selector("#sheet .score-table tbody tr")
    check(page, "table, the score sheet after a hand")
    page.click("#show-history")
    page.wait_for_selector("#history #replay-next")
    page.click("#replay-next")
    check(page, "table, the replay after a hand")
    page.click("#show-history")
    play_until([page], GAME_OVER, timeout_s=120)
    check(page, "table, game over")
    page.click("#game-history")
    page.wait_for_selector(".history-head h1", timeout=15_000)
    check(page, "/t/{code}/history")
    assert problems == {}, problems
