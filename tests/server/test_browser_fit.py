"""What fits the screen, of the table's rough edges of issue 26, in Debian's Chromium driven by
Playwright: the phone's top bar (nothing runs under a button, the table code back at the end,
places whole, Kyrgyz seats whole), and Rematch and History in view at game over on 1366x800 (in
English and Russian), in the same game as "on target" until a hand is over (what the seats say).

Screenshots of each (``edges-*.png``) go to docs/screenshots when OHHELL_SCREENSHOTS is set.
The other edges: test_browser_edges.py; axe-core on every page: test_browser_axe.py.
"""

from __future__ import annotations

from typing import Any

import pytest
from table_page import GAME_OVER, MY_MOVE, PACE, boxes, create_table, keep_seat, my_token, overlap, play_until, shot

from conftest import PHONE, Pages, ServerProcess, served

TALL_DESKTOP = {"width": 1366, "height": 800}

server = served("browser-fit", *PACE, "--max-new-tables", "1000")


# ----------------------------------------------------------------------------- the phone's top bar


def nothing_under_a_tool(page: Any) -> None:
    """No part of the information bar (the hand's label, the fair-deal mark…) lies under a tool button."""
    tools = boxes(page, ".tools .tool")
    for selector in (".info-bar > *", ".info-bar .fair-mark"):
        for part in boxes(page, selector):
            assert not any(overlap(part, tool) for tool in tools), (selector, part, tools)


def nothing_cut(page: Any, selector: str) -> None:
    cut = page.eval_on_selector_all(selector, """nodes => nodes.filter(n => n.scrollWidth > n.clientWidth + 0.5
        || n.getBoundingClientRect().right > innerWidth + 0.5 || n.getBoundingClientRect().left < -0.5)
        .map(n => n.textContent)""")
    assert cut == [], (selector, cut)


# Seven seats; a first hand of three cards, then one of a card, so that the end comes soon.
SHORT = {"schedule": "explicit", "hands": [[3, "turn-up"], [1, "turn-up"]]}


@pytest.mark.parametrize("locale", ["ru-RU", "ky-KG"])
def test_the_phone_top_bar_and_the_seats_fit(server: ServerProcess, pages: Pages, locale: str) -> None:
    page = pages.new(locale=locale, **PHONE)
    create_table(page, server.url, ["basic"] * 6, max_size=None, name="Анна", knobs=SHORT)
    page.wait_for_selector(MY_MOVE, timeout=30_000)
    play_until([page], "document.querySelector('#hand button.card.legal') && document.querySelector('#fair-mark')")
    nothing_under_a_tool(page)
    nothing_cut(page, ".seat-standing, .seat-name, .seat-score")
    lang = locale[:2]
    shot(page, f"edges-phone-top-bar-{lang}.png")
    if lang == "ky":
        return
    play_until([page], GAME_OVER, timeout_s=120)
    page.wait_for_selector(".trick .played", state="detached", timeout=5000)
    # At the end: the table's code is there (the rematch's link), each seat's place whole.
    code = page.url.rsplit("/", 1)[1]
    assert page.is_visible(".info-bar .table-code") and code in page.inner_text(".info-bar")
    nothing_under_a_tool(page)
    nothing_cut(page, ".seat-text, .seat-score, .seat-score .place")
    shot(page, f"edges-phone-game-over-{lang}.png")


# ----------------------------------------------------------------------------- one game on a desktop


RECORD_STANDINGS = """() => {
    window.__standings = [];
    const look = () => {
        const cards = document.querySelectorAll('#hand .card').length;
        for (const node of document.querySelectorAll('.seat-standing'))
            window.__standings.push([node.textContent.trim(), cards, node.closest('.seat').dataset.seat]);
    };
    new MutationObserver(look).observe(document.body, {subtree: true, childList: true, characterData: true});
}"""


def test_on_target_and_at_game_over_rematch_and_history_in_view(server: ServerProcess, pages: Pages,
                                                                 subtests: pytest.Subtests) -> None:
    """One game, two checks (each its own sub-test, so a failure says which edge broke): every
    seat's standing says "on target", not "made", until nobody holds a card of the hand; and at
    the end Rematch, History and New table are in view on 1366x800 without scrolling, in
    English and in Russian (a second page of the same seat, there all game)."""
    page = pages.new(viewport=TALL_DESKTOP)
    code = create_table(page, server.url, ["basic"] * 3, max_size=3)
    page.wait_for_selector(".seat", timeout=30_000)
    page.evaluate(RECORD_STANDINGS)
    russian = pages.new(locale="ru-RU", viewport=TALL_DESKTOP)
    russian.goto(server.url + "/")
    keep_seat(russian, code, my_token(page, code), "Ann")
    russian.goto(f"{server.url}/t/{code}")
    russian.wait_for_selector(".seat", timeout=30_000)
    play_until([page], "document.querySelectorAll('#hand .card').length === 2 && "
                       "[...document.querySelectorAll('.seat-standing')].some(n => n.textContent === 'on target')"
                       " || document.querySelector('#game-over')", timeout_s=120)
    shot(page, "edges-on-target-en.png")
    play_until([page], GAME_OVER, timeout_s=120)
    with subtests.test(msg="on target until the hand is over"):
        seen = page.evaluate("window.__standings")
        # "made" only once nobody holds a card of the hand; while this player still holds some, a
        # seat with as many tricks as its bid is "on target".
        assert not [entry for entry in seen if entry[0] == "made" and entry[1] > 0], seen[:40]
        assert any(entry[0] == "on target" and entry[1] > 0 for entry in seen)
    for view, lang in ((page, "en"), (russian, "ru")):
        with subtests.test(msg=f"rematch and history in view at game over ({lang})"):
            view.wait_for_selector("#game-over", timeout=30_000)
            view.wait_for_selector(".trick .played", state="detached", timeout=5000)
            view.evaluate("window.scrollTo(0, 0)")
            for selector in ("#rematch", "#game-history", "#new-table"):
                box = boxes(view, selector)[0]
                assert box["y"] + box["h"] <= TALL_DESKTOP["height"], (selector, box)
            shot(view, f"edges-desktop-game-over-{lang}.png")
