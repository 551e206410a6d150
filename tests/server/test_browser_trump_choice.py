"""The web table under Al Okuneff's rules, in a real headless Chromium: the highest bidder gets
four suit buttons (the first focused, so the keyboard answers at once: Tab, Enter), everyone sees
who chooses and, once chosen, the trump and who chose it. Screenshots on a desktop, a phone and
in Russian (docs/screenshots/ with OHHELL_SCREENSHOTS=1)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from test_browser_table import DESKTOP, PHONE, SHOTS, Pages, create_table, shot

from conftest import ServerProcess, free_port, spawn_server, stop_process

PACE = ("--bot-delay", "0.05", "--trick-pause", "0.15", "--hand-pause", "0.3", "--leave-grace", "60")
KNOBS = {"schedule": "constant", "max_size": 2, "hand_count": 16}
CHOOSING = "document.querySelector('#trump-choice')"

# One step of the person's play: bid the highest bid allowed (to become the chooser), play the
# first playable card, close a hand's summary; stop when the trump choice is on screen.
STEP = """() => {
    if (CONDITION) return "done";
    document.querySelector('#summary-close')?.click();
    if (document.getAnimations().some((a) => !(a instanceof CSSAnimation) && a.playState === "running")) return "held";
    if (document.querySelector('.trick .collecting')) return "held";
    const bids = [...document.querySelectorAll('.bid-button:not([disabled])')];
    const target = bids.length ? bids[bids.length - 1] : document.querySelector('#hand button.card.legal');
    if (!target) return "waiting";
    target.click();
    return "moved";
}"""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    folder = tmp_path_factory.mktemp("browser-trump")
    process = spawn_server(f"sqlite:///{folder / 'ohhell.db'}", free_port(), folder / "server.log", *PACE)
    yield process
    stop_process(process)


@pytest.fixture
def pages(browser: Any) -> Iterator[Pages]:
    opened = Pages(browser)
    yield opened
    opened.close()
    assert opened.errors == [], opened.errors


def play_until_chooser(page: Any, timeout_ms: int = 90_000) -> None:
    waited = 0
    step = STEP.replace("CONDITION", f"Boolean({CHOOSING})")
    while page.evaluate(step) != "done":
        page.wait_for_timeout(40)
        waited += 40
        assert waited < timeout_ms, page.evaluate("document.body.innerText.slice(0, 500)")


def state(page: Any) -> dict[str, Any]:
    return dict(page.evaluate("""() => ({
        trump: document.querySelector('#trump strong')?.innerText || '',
        chooser: document.querySelector('#trump-chooser')?.innerText || '',
        focused: document.activeElement?.dataset?.suit || null})"""))


def test_the_highest_bidder_chooses_with_the_keyboard_on_a_desktop(server: ServerProcess, pages: Pages) -> None:
    page = pages.new(viewport=DESKTOP)
    create_table(page, server.url, ["random"] * 3, max_size=None, preset="okuneff", knobs=KNOBS)
    page.wait_for_selector(".bid-button:not([disabled])", timeout=30_000)
    assert "chosen after the bidding" in state(page)["trump"]
    play_until_chooser(page)
    assert page.eval_on_selector_all("#trump-choice button", "nodes => nodes.map(n => n.dataset.suit)") == \
        ["S", "H", "D", "C"]
    assert state(page)["focused"] == "S"  # the first suit has the focus
    assert "Ann chooses" in state(page)["trump"]
    shot(page, "trump-choice-desktop.png")
    page.keyboard.press("Tab")
    assert state(page)["focused"] == "H"
    page.keyboard.press("Enter")
    page.wait_for_function("() => !document.querySelector('#trump-choice')", timeout=10_000)
    page.wait_for_function("() => (document.querySelector('#trump strong')?.innerText || '').includes('hearts')",
                           timeout=10_000)
    assert "chosen by Ann" in state(page)["chooser"]
    shot(page, "trump-chosen-desktop.png")


def test_the_choice_on_a_phone_in_russian(server: ServerProcess, pages: Pages) -> None:
    phone = pages.new(locale="ru-RU", **PHONE)
    create_table(phone, server.url, ["random"] * 3, max_size=None, preset="okuneff", knobs=KNOBS, name="Анна")
    phone.wait_for_selector(".bid-button:not([disabled])", timeout=30_000)
    play_until_chooser(phone)
    buttons = phone.eval_on_selector_all("#trump-choice button", """nodes => nodes.map(n => {
        const r = n.getBoundingClientRect(); return {x: r.left, y: r.top, w: r.width, h: r.height,
                                                     text: n.innerText};})""")
    assert len(buttons) == 4
    for box in buttons:
        assert box["x"] >= 0 and box["x"] + box["w"] <= 390 and box["y"] + box["h"] <= 844, box
        assert box["h"] >= 40  # big enough for a finger
    assert "козыр" in phone.inner_text("#actions").lower()
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    shot(phone, "trump-choice-phone-ru.png")
    phone.click("#trump-choice button[data-suit='D']")
    phone.wait_for_function("() => !document.querySelector('#trump-choice')", timeout=10_000)
    shot(phone, "trump-chosen-phone-ru.png")


def test_the_choice_on_a_phone_in_english(server: ServerProcess, pages: Pages) -> None:
    phone = pages.new(**PHONE)
    create_table(phone, server.url, ["random"] * 3, max_size=None, preset="okuneff", knobs=KNOBS)
    phone.wait_for_selector(".bid-button:not([disabled])", timeout=30_000)
    play_until_chooser(phone)
    shot(phone, "trump-choice-phone.png")
    assert json.dumps(SHOTS.name)  # the folder of the screenshots exists
