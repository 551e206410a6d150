"""Bust at the web table (a real headless Chromium): six players, 78 cards, the small cards twice.
Two identical cards in one trick, or in one hand, are drawn as two cards with keys of their own
(table/card.js `cardKeys`), and the one played second wins the trick."""

from __future__ import annotations

import httpx
from table_page import PACE, SHOTS, create_table, play_until

from conftest import DESKTOP, Pages, ServerProcess, served

# On the player's turn, a trick in progress that holds one card twice.
TWICE_IN_TRICK = """(() => {
    if (!document.querySelector('#hand button.card.legal')) return false;
    const cards = [...document.querySelectorAll('.trick .played:not(.collecting) .card')].map((n) => n.dataset.card);
    return cards.length >= 2 && new Set(cards).size < cards.length;
})()"""


server = served("browser-bust", *PACE)


def test_a_six_player_bust_table_draws_two_identical_cards_in_a_trick(server: ServerProcess, pages: Pages) -> None:
    page = pages.new(viewport=DESKTOP)
    code = create_table(page, server.url, ["random"] * 5, max_size=None, preset="bust")
    page.wait_for_selector("#hand .card", timeout=30_000)
    assert len(page.query_selector_all("#hand .card")) == 13  # 78 cards: 13 each
    play_until([page], TWICE_IN_TRICK, timeout_s=300)
    trick = page.eval_on_selector_all(".trick .played:not(.collecting)", """nodes => nodes.map((n) => ({
        key: n.querySelector('.card').dataset.key, card: n.querySelector('.card').dataset.card,
        box: (({left, top, width}) => ({left, top, width}))(n.getBoundingClientRect())}))""")
    keys = [place["key"] for place in trick]
    assert len(set(keys)) == len(keys), keys  # two siblings never share a key
    names = [place["card"] for place in trick]
    twice = next(name for name in names if names.count(name) == 2)
    first, second = (place["box"] for place in trick if place["card"] == twice)
    assert first != second and first["width"] > 0  # two cards, each in front of its player
    hand = page.eval_on_selector_all("#hand .card", "nodes => nodes.map((n) => n.dataset.key)")
    assert len(set(hand)) == len(hand), hand
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "bust-table-desktop.png"))
    state = httpx.get(f"{server.url}/api/tables/{code}").json()
    assert state["rules"]["preset"] == "bust" and state["rules"]["players"] == 6
