"""Quick play in a real headless Chromium: two browsers that know nothing of each other press
"Play now" for a game of three, see the countdown, and land at the same table, where a bot takes
the third seat once the countdown is over; they play it. Screenshots of the lobby's "Play now"
and of the countdown (desktop and phone, English and Russian) are kept in docs/screenshots with
``OHHELL_SCREENSHOTS=1``."""

from __future__ import annotations

import pytest
from table_page import press_play_now, shot

from conftest import PHONE, Pages, ServerProcess, served

PACE = ("--bot-delay", "0.05", "--trick-pause", "0.15", "--hand-pause", "0.3", "--leave-grace", "5")

server = served("browser-quickplay", *PACE)


def test_two_strangers_press_play_now_and_land_at_the_same_table(server: ServerProcess, pages: Pages) -> None:
    first, second = pages.new(), pages.new(**PHONE)
    press_play_now(first, server.url, "Ann")
    first.wait_for_selector("#qp-countdown")
    assert "1 of 3 players here" in first.inner_text("#qp-here")
    assert "Bots take the empty seats in" in first.inner_text("#qp-countdown")
    press_play_now(second, server.url, "Bob")
    first.locator("#qp-here", has_text="2 of 3").wait_for(timeout=5_000)
    # Nobody else comes: a bot takes the third seat when Ann's countdown is over, and the game starts.
    for page in (first, second):
        page.wait_for_url("**/t/*", timeout=20_000)
    assert first.url.rsplit("/", 1)[1] == second.url.rsplit("/", 1)[1]
    for page in (first, second):
        page.wait_for_selector("#hand .card", timeout=30_000)
    felt = first.inner_text(".felt")
    assert "Bob" in felt and "Ann" in second.inner_text(".felt")
    summary = first.evaluate("async (code) => (await fetch('/api/tables/' + code)).json()", first.url.rsplit("/", 1)[1])
    assert [seat["kind"] for seat in summary["seats"]] == ["human", "human", "bot"], summary


def test_cancel_leaves_the_pool(server: ServerProcess, pages: Pages) -> None:
    page = pages.new()
    press_play_now(page, server.url, "Cid")
    page.wait_for_selector("#qp-cancel")
    page.click("#qp-cancel")
    page.wait_for_selector("#play-now")
    counts = page.evaluate("async () => (await fetch('/api/quickplay')).json()")
    assert counts["waiting"] == 0


@pytest.mark.parametrize("language", ["en", "ru"])
@pytest.mark.parametrize("screen", ["desktop", "phone"])
def test_screenshots_of_play_now_and_its_countdown(server: ServerProcess, pages: Pages, language: str,
                                                   screen: str) -> None:
    page = pages.new(locale=language, **({} if screen == "desktop" else PHONE))
    page.add_init_script(f"localStorage.setItem('ohhell.lang', '{language}')")
    page.goto(server.url + "/")
    page.wait_for_selector("#play-now")
    page.locator("#qp-family option").nth(1).wait_for(state="attached")
    assert page.inner_text("#play-now") == ("Play now" if language == "en" else "Играть сейчас")
    page.fill("#qp-name", "Ann")
    shot(page, f"quickplay-lobby-{screen}-{language}.png", table=False)
    page.click("#play-now")
    page.wait_for_selector("#qp-countdown")
    page.wait_for_timeout(2_500)
    shot(page, f"quickplay-countdown-{screen}-{language}.png", table=False)
    page.click("#qp-cancel")
    page.wait_for_selector("#play-now")
