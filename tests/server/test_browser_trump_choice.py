"""The web table under Al Okuneff's rules, in a real headless Chromium: the highest bidder gets
four suit buttons (the first focused, so the keyboard answers at once: Tab, Enter), everyone sees
who chooses and, once chosen, the trump and who chose it. Screenshots on a desktop, a phone and
in Russian (docs/screenshots/ with OHHELL_SCREENSHOTS=1)."""

from __future__ import annotations

from typing import Any

from table_page import HIGHEST_BID, PACE, create_table, dismiss_summary, keep_seat, my_token, play_until, shot

from conftest import DESKTOP, PHONE, Pages, ServerProcess, served

KNOBS = {"schedule": "constant", "max_size": 2, "hand_count": 16}
CHOOSING = "document.querySelector('#trump-choice')"

server = served("browser-trump", *PACE)


def play_until_chooser(page: Any) -> None:
    """Play (bidding the most allowed, to become the chooser) until the trump choice is on screen."""
    play_until([page], CHOOSING, timeout_s=90, move=HIGHEST_BID)


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


def test_the_choice_on_a_phone_in_russian_and_in_english(server: ServerProcess, pages: Pages) -> None:
    """The Russian phone chooses; an English phone of the same seat, there all game, shows the
    same choice (one game for both)."""
    phone = pages.new(locale="ru-RU", **PHONE)
    code = create_table(phone, server.url, ["random"] * 3, max_size=None, preset="okuneff", knobs=KNOBS, name="Анна")
    english = pages.new(**PHONE)
    english.goto(server.url + "/")
    keep_seat(english, code, my_token(phone, code), "Анна")
    english.goto(f"{server.url}/t/{code}")
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
    english.wait_for_selector("#trump-choice button[data-suit='S']", timeout=10_000)
    dismiss_summary(english)  # nobody closed it on this page
    assert "trump" in english.inner_text("#actions").lower()
    shot(english, "trump-choice-phone.png")
    phone.click("#trump-choice button[data-suit='D']")
    phone.wait_for_function("() => !document.querySelector('#trump-choice')", timeout=10_000)
    shot(phone, "trump-chosen-phone-ru.png")
