"""The card table in a browser, as the browser tests drive it: a table made through the HTTP
API with its seat kept in localStorage (as the lobby does), pages that play their turns until a
condition holds, the boxes of what is drawn, screenshots, and axe-core's accessibility check.

The pages themselves and the server come from conftest.py (``pages``, :func:`~conftest.served`).
"""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
from pathlib import Path
from typing import Any, Final

from conftest import ROOT

SHOTS: Final = ROOT / "docs" / "screenshots" if os.environ.get("OHHELL_SCREENSHOTS") else \
    Path(tempfile.mkdtemp(prefix="ohhell-table-shots-"))
"""Where :func:`shot` keeps its screenshots: docs/screenshots with ``OHHELL_SCREENSHOTS=1``, else
a temporary folder."""
# A long grace: a reload on a busy machine must not hand the seat to a stand-in bot.
PACE: Final = ("--bot-delay", "0.05", "--trick-pause", "0.15", "--hand-pause", "0.3", "--leave-grace", "60")
"""The options of a fast server: bots at once, tricks and hands gone in a moment."""
MY_MOVE: Final = ".bid-button:not([disabled]), #hand button.card.legal"
GAME_OVER: Final = "document.querySelector('#game-over')"


def create_table(page: Any, base: str, seats: list[str], max_size: int | None = 2, name: str = "Ann",
                 timer: float = 0, preset: str = "classic", knobs: dict[str, Any] | None = None) -> str:
    """Create a table through the API from ``page`` and keep its seat as the lobby would."""
    page.goto(base + "/")
    page.wait_for_selector("#create")
    body = {"name": name, "preset": preset, "players": len(seats) + 1, "seats": seats, "timer": timer,
            "knobs": {**({"max_size": max_size} if max_size else {}), **(knobs or {})}}
    result = page.evaluate("""async (body) => {
        const answer = await fetch('/api/tables', {method: 'POST', headers: {'Content-Type': 'application/json'},
                                                   body: JSON.stringify(body)});
        return answer.json();
    }""", body)
    assert "code" in result, result
    keep_seat(page, result["code"], result["token"], name)
    page.goto(f"{base}/t/{result['code']}")
    return str(result["code"])


def keep_seat(page: Any, code: str, token: str, name: str) -> None:
    page.evaluate("""([code, token, name]) => {
        const seats = JSON.parse(localStorage.getItem('ohhell.seats') || '{}');
        seats[code] = {token, seat: null, name, at: Date.now()};
        localStorage.setItem('ohhell.seats', JSON.stringify(seats));
    }""", [code, token, name])


def my_token(page: Any, code: str) -> str:
    return str(page.evaluate("(code) => JSON.parse(localStorage.getItem('ohhell.seats'))[code].token", code))


def move_once(page: Any) -> bool:
    """Bid or play whatever this page may (the first allowed bid, the first playable card)."""
    target = page.query_selector(MY_MOVE)
    if target is None:
        return False
    try:
        target.click(timeout=1500)
    except Exception:  # the page was patched under the click (the card was played): look again
        return False
    return True


def dismiss_summary(page: Any) -> None:
    """Close the hand's summary if it is open (it may close itself meanwhile)."""
    button = page.query_selector("#summary-close")
    if button is not None:
        with contextlib.suppress(Exception):
            button.click(timeout=1500)


FIRST_MOVE: Final = f"document.querySelector({json.dumps(MY_MOVE)})"
"""The move :func:`play_until` makes: the first allowed bid, else the first playable card."""
HIGHEST_BID: Final = """[...document.querySelectorAll('.bid-button:not([disabled])')].pop()
    || document.querySelector('#hand button.card.legal')"""
"""The highest bid allowed, else the first playable card (to win the bidding)."""


def play_until(pages: list[Any], condition: str, timeout_s: float = 60, hold: str = ".trick .collecting",
               move: str = FIRST_MOVE) -> None:
    """Make every page play its turns until ``condition`` (a JS expression) is true on the first
    (a hand's summary is closed on the way, unless the condition waits for it); ``move`` (a JS
    expression) is the button a page presses, if any.

    Each page's look and move are one script, so no message from the server lands between them:
    the first page never moves when the condition has just come true (the move would undo it).
    Like a person, a page waits while cards move and while the selector ``hold`` matches (by
    default a finished trick still on the table: playing on at once on this fast server, tricks
    would follow each other before the last one has gone, and the hand's summary, shown when it
    has, would never come)."""
    deadline = timeout_s * 1000
    waited = 0
    dismiss = "hand-summary" not in condition
    step = f"""() => {{
        if (CONDITION) return "done";
        {"document.querySelector('#summary-close')?.click();" if dismiss else ""}
        const moving = (a) => !(a instanceof CSSAnimation) && a.playState === "running";
        if (document.getAnimations().some(moving)) return "held";
        if (document.querySelector({json.dumps(hold)})) return "held";
        const target = {move};
        if (!target) return "waiting";
        target.click();
        return "moved";
    }}"""
    while True:
        moved = False
        for index, page in enumerate(pages):
            done = condition if index == 0 else "false"
            outcome = page.evaluate(step.replace("CONDITION", f"Boolean({done})"))
            if outcome == "done":
                return
            moved = moved or outcome == "moved"
        if not moved:
            pages[0].wait_for_timeout(40)
            waited += 40
            if waited > deadline:
                seen = pages[0].evaluate("""() => ({url: location.href, title: document.title,
                    status: document.querySelector('#status, .prompt, .turn-banner')?.innerText,
                    trick: [...document.querySelectorAll('.trick .card')].map(n => n.dataset.card),
                    hand: [...document.querySelectorAll('#hand .card')].map(n => n.dataset.card + (
                        n.classList.contains('legal') ? '*' : '')),
                    summary: Boolean(document.querySelector('#summary-close')),
                    banner: document.querySelector('[role=alert], .error, .toast')?.innerText,
                    text: document.body.innerText.slice(0, 600)})""")
                raise AssertionError(f"timed out waiting for {condition}; the page: {seen}")


def settle(page: Any) -> None:
    """Wait until no card is moving (a new hand's cards fly in from the dealer)."""
    page.wait_for_function("() => !document.getAnimations().some(a => a.id === 'flip' && a.playState === 'running')",
                           timeout=5000)


def boxes(page: Any, selector: str) -> list[dict[str, float]]:
    return list(page.eval_on_selector_all(selector, """nodes => nodes.map(n => {
        const r = n.getBoundingClientRect(); return {x: r.left, y: r.top, w: r.width, h: r.height};
    })"""))


def overlap(a: dict[str, float], b: dict[str, float]) -> bool:
    return a["x"] < b["x"] + b["w"] - 1 and b["x"] < a["x"] + a["w"] - 1 and \
        a["y"] < b["y"] + b["h"] - 1 and b["y"] < a["y"] + a["h"] - 1


def shot(page: Any, name: str, full_page: bool = False, table: bool = True) -> None:
    """A screenshot ``name`` in :data:`SHOTS`; of a ``table``, once its cards are still."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    if table:
        page.wait_for_timeout(450)  # the cards end their moves
        with contextlib.suppress(Exception):  # and a finished trick has gone to its winner
            page.wait_for_function("() => !document.querySelector('.trick .collecting')", timeout=2000)
    page.screenshot(path=str(SHOTS / name), full_page=full_page)


AXE: Final = Path(__import__("axe_playwright_python").__file__).with_name("axe.min.js") \
    if __import__("importlib").util.find_spec("axe_playwright_python") else None
"""axe-core's script (axe-playwright-python ships it), or ``None`` where it is not installed."""


def axe_problems(page: Any, strict: bool = False) -> list[str]:
    """What axe-core finds on the page of level serious or critical. ``strict`` adds its
    experimental rules (label-content-name-mismatch is one), a page without a level-one heading
    and headings out of order (rules axe-core calls moderate, which issue 26 asked for)."""
    assert AXE is not None
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        page.evaluate(AXE.read_text(encoding="utf-8") + "\n;0")
    return list(page.evaluate("""async (strict) => {
        const found = await axe.run(document, {resultTypes: ['violations'],
            rules: strict ? {'label-content-name-mismatch': {enabled: true}} : {}});
        const asked = strict ? ['page-has-heading-one', 'heading-order'] : [];
        return found.violations.filter(v => v.impact === 'serious' || v.impact === 'critical' || asked.includes(v.id))
            .map(v => v.id + ': ' + v.nodes.slice(0, 5).map(n => n.target.join(' ')).join(', '));
    }""", strict))


def press_play_now(page: Any, url: str, name: str, language: str | None = None) -> None:
    """Open the lobby (in ``language``, if given) and press "Play now" for a game of three."""
    if language is not None:
        page.add_init_script(f"localStorage.setItem('ohhell.lang', '{language}')")
    page.goto(url + "/")
    page.wait_for_selector("#play-now")
    page.locator("#qp-family option").nth(1).wait_for(state="attached")
    page.fill("#qp-name", name)
    page.select_option("#qp-players", "3")
    page.click("#play-now")
