"""Latecomers in a real headless Chromium (issue 26): a first browser presses "Play now" alone, the
countdown ends, bots fill the table and the game starts; a second browser (desktop, English) and
a third (a phone, in Russian) press "Play now" for the same game: each is told it takes a bot's
seat at the next hand, watches meanwhile, and is seated when the first hand is over. Screenshots
of the "you take the seat at the next hand" screen: ``docs/screenshots/latecomer-*.png`` with
``OHHELL_SCREENSHOTS=1``."""

from __future__ import annotations

import contextlib
import os
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from table_page import press_play_now

from conftest import ROOT, ServerProcess, record_page_errors, served

SHOTS = ROOT / "docs" / "screenshots" if os.environ.get("OHHELL_SCREENSHOTS") else \
    Path(tempfile.mkdtemp(prefix="ohhell-shots-"))
PACE = ("--bot-delay", "0.05", "--trick-pause", "0.15", "--hand-pause", "0.3", "--leave-grace", "10")
DESKTOP = {"viewport": {"width": 1366, "height": 768}}
PHONE = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 2, "is_mobile": True, "has_touch": True}
MOVE = "document.querySelector('.bid-button:not([disabled]), button.card.legal')"


server = served("browser-latecomer", *PACE)


@pytest.fixture
def errors() -> Iterator[list[str]]:
    found: list[str] = []
    yield found
    assert found == [], found


def play_one_move(page: Any) -> None:
    """Click a bid or a legal card if it is this player's turn."""
    target = page.evaluate_handle(f"() => {MOVE}").as_element()
    if target is not None:
        with contextlib.suppress(Exception):  # the page re-rendered under the click: next time
            target.click(timeout=1000)


def test_latecomers_take_the_bots_seats_at_the_next_hand(server: ServerProcess, browser: Any,
                                                         errors: list[str]) -> None:
    contexts = [browser.new_context(**DESKTOP), browser.new_context(**DESKTOP),
                browser.new_context(**PHONE, locale="ru")]
    ann, bob, cy = (context.new_page() for context in contexts)
    for page in (ann, bob, cy):
        record_page_errors(page, errors)
    press_play_now(ann, server.url, "Ann")
    ann.wait_for_url("**/t/*", timeout=30_000)  # nobody comes: bots fill the table after the countdown
    ann.wait_for_selector("#hand .card", timeout=30_000)
    code = ann.url.rsplit("/", 1)[1]
    ann.wait_for_function(f"() => {MOVE}", timeout=20_000)  # the first hand waits for Ann: it is on
    # Bob presses Play now for the same game: a bot's seat, from the next hand; he watches.
    press_play_now(bob, server.url, "Bob")
    bob.wait_for_url(f"**/t/{code}", timeout=10_000)
    note = bob.locator("#latecomer-note")
    note.wait_for(timeout=10_000)
    assert note.inner_text().startswith("At the next hand you take the seat of Bot ")
    assert bob.locator("#hand .card").count() == 0, "watching: no cards"
    SHOTS.mkdir(parents=True, exist_ok=True)
    bob.screenshot(path=str(SHOTS / "latecomer-desktop-en.png"))
    # Cy, on a phone in Russian, takes the other bot's seat.
    press_play_now(cy, server.url, "Cy", "ru")
    cy.wait_for_url(f"**/t/{code}", timeout=10_000)
    cy_note = cy.locator("#latecomer-note")
    cy_note.wait_for(timeout=10_000)
    assert cy_note.inner_text().startswith("Со следующей сдачи место «Бот")
    cy.screenshot(path=str(SHOTS / "latecomer-phone-ru.png"))
    summary = ann.evaluate("async (code) => (await fetch('/api/tables/' + code)).json()", code)
    assert sorted(p["name"] for p in summary["promised"]) == ["Bob", "Cy"]
    assert [seat["kind"] for seat in summary["seats"]] == ["human", "bot", "bot"], "not mid-hand"
    # Ann plays the first hand out; then Bob and Cy hold their seats, with cards.
    deadline = time.monotonic() + 90
    while bob.locator("#hand .card").count() == 0 or cy.locator("#hand .card").count() == 0:
        assert time.monotonic() < deadline, "the latecomers were not seated at the next hand"
        play_one_move(ann)
        ann.wait_for_timeout(60)
    for page, name in ((bob, "Bob"), (cy, "Cy")):
        assert page.locator("#latecomer-note").count() == 0
        assert name in page.inner_text(".felt")
    summary = ann.evaluate("async (code) => (await fetch('/api/tables/' + code)).json()", code)
    assert [seat["kind"] for seat in summary["seats"]] == ["human"] * 3 and summary["promised"] == []
    assert summary["names"][1:] in (["Bob", "Cy"], ["Cy", "Bob"])
    for context in contexts:
        context.close()
