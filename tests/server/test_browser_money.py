"""A game played for money (issue 28): the game-over screen and the score sheet say who pays
whom how much, with the same sums as ``ohhell replay``."""

from __future__ import annotations

import os
import tempfile
import time
from pathlib import Path
from typing import Any

import pytest
from table_page import PACE, create_table, dismiss_summary, move_once

from conftest import ROOT, ServerProcess, served
from ohhell.scoring import payments

SHOTS = ROOT / "docs" / "screenshots" if os.environ.get("OHHELL_SCREENSHOTS") else \
    Path(tempfile.gettempdir()) / "ohhell-screenshots"


server = served("browser-money", *PACE)


def test_the_web_settlement_sums_are_the_engines(server: ServerProcess, browser: Any) -> None:
    context = browser.new_context(locale="en-US")
    try:
        page = context.new_page()
        page.goto(server.url + "/")
        for totals, stake in (([30, 10, 20], 0.5), ([40, 10, 10, 0], 1), ([13, 13, 13], 2), ([7, 3, 3, 3, 9], 0.1)):
            web = page.evaluate("""async ([totals, stake]) => {
                const money = await import('/static/js/settlement.js');
                return money.payments(totals, stake);
            }""", [totals, stake])
            engine = payments(totals, stake)
            assert [(p["from"], p["to"]) for p in web] == [(a, b) for a, b, _amount in engine]
            assert [p["amount"] for p in web] == pytest.approx([amount for _a, _b, amount in engine])
    finally:
        context.close()


def test_game_over_says_who_pays_whom(server: ServerProcess, browser: Any) -> None:
    context = browser.new_context(locale="en-US", viewport={"width": 1366, "height": 900})
    try:
        page = context.new_page()
        create_table(page, server.url, ["random", "random"], max_size=None,
                     knobs={"schedule": "down", "max_size": 2, "stake": 0.5})
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline and page.query_selector("#game-over") is None:
            dismiss_summary(page)
            if not move_once(page):
                page.wait_for_timeout(150)
        page.wait_for_selector("#game-over #settlement")
        text = page.inner_text("#settlement")
        assert "For money, at 0.50 per point:" in text
        totals = [int(cell) for cell in page.eval_on_selector_all(
            "#game-over .places li", "(items) => items.map((li) => li.querySelector('b').textContent)")]
        assert totals and (" pays " in text) == (len(set(totals)) > 1)
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.locator("#game-over").screenshot(path=str(SHOTS / "game-over-money.png"))
        page.click("#show-sheet-end")
        page.wait_for_selector("#sheet #settlement")
        assert page.inner_text("#sheet #settlement") == text
    finally:
        context.close()
