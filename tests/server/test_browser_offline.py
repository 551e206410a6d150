"""The scorekeeper offline first, in a real headless Chromium with Playwright's offline mode
(``context.set_offline``): the browser's rules (static/js/rules.js) against the server's answers
on the same entries for every preset, a new sheet set up like the game being played (seed 000),
a whole hand entered offline, a reload offline, the sync after, a conflict between two devices,
and the site's manifest and service worker. Screenshots on a 390 × 844 phone go to
docs/screenshots with OHHELL_SCREENSHOTS=1."""

from __future__ import annotations

import csv
import io
import json
import os
import random
import re
import tempfile
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from conftest import ROOT, ServerProcess, record_page_errors, served
from ohhell.rules import PRESETS, preset
from ohhell.scorekeeper import ScoreError, ScoreSheet
from ohhell.server.web.sheets import sheet_json

SHOTS = ROOT / "docs" / "screenshots" if os.environ.get("OHHELL_SCREENSHOTS") else \
    Path(tempfile.mkdtemp(prefix="ohhell-shots-"))
PHONE = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 2, "is_mobile": True, "has_touch": True,
         "locale": "en-US"}
# The browser says so on its console when a request meets no network: expected here, not an error.
OFFLINE_NOISE = ("ERR_INTERNET_DISCONNECTED", "Failed to fetch", "ERR_FAILED")


server = served("offline")


@pytest.fixture
def errors() -> Iterator[list[str]]:
    found: list[str] = []
    yield found
    real = [error for error in found if not any(noise in error for noise in OFFLINE_NOISE)]
    assert real == [], real


def phone(browser: Any, errors: list[str]) -> tuple[Any, Any]:
    context = browser.new_context(**PHONE)
    page = context.new_page()
    record_page_errors(page, errors)
    return context, page


def shot(page: Any, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / name), full_page=True)


def get_json(url: str) -> Any:
    with urllib.request.urlopen(url, timeout=10) as response:
        return json.loads(response.read())


def new_sheet(page: Any, base: str, names: list[str], dealer: int = 0, max_size: int | None = None) -> str:
    page.goto(base + "/score")
    page.wait_for_selector("#sk-create")
    while len(page.query_selector_all(".sk-name")) < len(names):
        page.click("#sk-add")
    for box, name in zip(page.query_selector_all(".sk-name"), names, strict=True):
        box.fill(name)
    page.select_option("#sk-dealer", str(dealer))
    if max_size is not None:
        page.wait_for_selector("#knob-max_size")
        page.select_option("#knob-max_size", str(max_size))
        page.wait_for_function("size => (document.querySelector('#sk-sizes') || {}).textContent?.startsWith(size)",
                               arg=str(max_size))
    page.click("#sk-create")
    page.wait_for_url(re.compile(r"/score/[A-Za-z0-9_-]+$"))
    page.wait_for_selector("#sk-heading")
    return str(page.url.rsplit("/", 1)[1])


def controlled(page: Any) -> None:
    """Wait until the service worker controls the page (it has kept the site for offline)."""
    page.wait_for_function("() => !!navigator.serviceWorker.controller", timeout=20_000)


def bid(page: Any, value: int) -> None:
    before = page.inner_text("#sk-current .prompt")
    page.click(f'.bid-button[data-bid="{value}"]')
    page.wait_for_function("text => !document.querySelector('#sk-current .prompt') || "
                           "document.querySelector('#sk-current .prompt').textContent !== text", arg=before)


def tricks(page: Any, by_seat: list[int | None]) -> None:
    page.wait_for_selector("#sk-score")
    for seat, value in enumerate(by_seat):
        if value is not None:
            page.fill(f'#sk-tricks input[data-seat="{seat}"]', str(value))
    page.click("#sk-score")


def totals(page: Any) -> list[str]:
    return page.inner_text(".score-table tfoot").split()[1:]


# ---------------------------------------------------------------------- the rules, both sides


def _entries(rules: Any, names: list[str], seed: int, hands: int) -> tuple[list[dict[str, Any]], list[Any]]:
    """Random entries of ``hands`` hands (with a refused one now and then: the hooked bid, too
    many tricks) and the server's answer to each: the sheet's state after it, or "refused"."""
    chooser = random.Random(seed)
    sheet = ScoreSheet(rules, names, first_dealer=seed % len(names))
    entries: list[dict[str, Any]] = []
    answers: list[Any] = []

    def offer(entry: dict[str, Any]) -> None:
        entries.append(entry)
        try:
            if entry["op"] == "bid":
                sheet.bid(entry["seat"], entry["bid"])
            elif entry["op"] == "choose_trump":
                sheet.choose_trump(entry["suit"])
            else:
                sheet.record_tricks(entry["tricks"])
        except ScoreError:
            answers.append("refused")
            return
        answers.append([sheet.totals, sheet.next_bidder, sheet.forbidden_bid, sheet.finished,
                        None if sheet.finished else sheet.dealer, None if sheet.finished else sheet.hand_size,
                        sheet.hand_index])

    while not sheet.finished and sheet.hand_index < hands:
        size = sheet.hand_size
        while sheet.next_bidder is not None:
            seat = sheet.next_bidder
            if sheet.forbidden_bid is not None and chooser.random() < 0.5:
                offer({"op": "bid", "seat": seat, "bid": sheet.forbidden_bid})
            choices = [b for b in range(size + 1) if b != sheet.forbidden_bid]
            offer({"op": "bid", "seat": seat, "bid": chooser.choice(choices)})
        if sheet.trump_chooser is not None:  # okuneff: the highest bidder names trump (a bad suit refused)
            if chooser.random() < 0.3:
                offer({"op": "choose_trump", "suit": "X"})
            offer({"op": "choose_trump", "suit": chooser.choice("SHDC")})
        split = [0] * len(names)
        for _trick in range(size):
            split[chooser.randrange(len(names))] += 1
        if chooser.random() < 0.3:
            offer({"op": "tricks", "tricks": [split[0] + 1, *split[1:]]})
        offer({"op": "tricks", "tricks": split})
    return entries, answers


BROWSER_RULES = """async ([sheet, entries]) => {
  const rules = await import('/static/js/rules.js');
  const out = [];
  for (const entry of entries) {
    try {
      sheet = rules.applyEntry(sheet, entry);
      out.push([sheet.totals, sheet.next_bidder, sheet.forbidden_bid, sheet.finished, sheet.dealer, sheet.hand_size,
                sheet.hand_index]);
    } catch (error) {
      if (!(error instanceof rules.Refusal)) throw error;
      out.push('refused');
    }
  }
  return out;
}"""


def test_the_browsers_rules_answer_as_the_server_for_every_preset(server: ServerProcess, browser: Any,
                                                                  errors: list[str]) -> None:
    context, page = phone(browser, errors)
    page.goto(server.url + "/score")
    page.wait_for_selector("#sk-create")
    checked = 0
    for number, (name, found) in enumerate(sorted(PRESETS.items())):
        players = 4 if 4 in found.players else found.players[0]
        names = [f"P{seat}" for seat in range(players)]
        rules = preset(name, players=players, real_cards=True)
        entries, answers = _entries(rules, names, seed=number, hands=8)
        # The same sheet as the entries were made on (the first dealer follows the seed).
        start = sheet_json("test", ScoreSheet(rules, names, first_dealer=number % players))
        browser_answers = page.evaluate(BROWSER_RULES, [start, entries])
        assert browser_answers == json.loads(json.dumps(answers)), name
        checked += len(entries)
    assert checked > 300
    context.close()


# ---------------------------------------------------------------------- a game at the table


def test_the_seed_000_game_set_up_as_written_and_a_whole_hand_offline(server: ServerProcess, browser: Any,
                                                                       errors: list[str]) -> None:
    context, page = phone(browser, errors)
    page.goto(server.url + "/score")
    page.wait_for_selector("#sk-create")
    shot(page, "scorekeeper-new-phone.png")
    sheet_id = new_sheet(page, server.url, ["Ann", "Bob", "Cy", "Dee"], dealer=3, max_size=5)
    assert page.inner_text("#sk-heading") == "Hand 1 of 9 · 5 cards · Dealer: Dee"
    controlled(page)
    context.set_offline(True)
    # Seed 000: bids 1, 2, 0; the dealer may not bid 2 and bids 1; tricks 1, 3, 0, 1.
    for value in (1, 2, 0):
        bid(page, value)
    hook = page.inner_text("#sk-hook")
    assert hook == "Dee deals and may not bid 2: the bids must not add up to the number of cards.", hook
    assert page.is_disabled('.bid-button[data-bid="2"]')
    bid(page, 1)
    tricks(page, [1, 3, 0, None])  # Dee, left empty, takes the one trick left
    page.wait_for_selector('[data-edit="0"]')
    assert totals(page) == ["11", "0", "10", "11"]
    assert "5 changes are kept on this phone" in page.inner_text("#sk-status")
    assert page.inner_text(".score-table tbody tr:first-child .cell:nth-of-type(2) .bt") == "2/3"  # bid/tricks
    shot(page, "scorekeeper-offline-phone.png")
    page.reload()
    page.wait_for_selector("#sk-status")
    assert totals(page) == ["11", "0", "10", "11"]
    assert "kept on this phone" in page.inner_text("#sk-status")
    assert page.inner_text("#sk-heading") == "Hand 2 of 9 · 4 cards · Dealer: Ann"
    context.set_offline(False)
    page.wait_for_function("() => document.querySelector('#sk-status').textContent.includes('Saved on the server')",
                           timeout=20_000)
    stored = get_json(f"{server.url}/api/sheets/{sheet_id}")
    assert stored["totals"] == [11, 0, 10, 11] and stored["hand_index"] == 1
    shot(page, "scorekeeper-synced-phone.png")
    context.close()


def test_quick_entry_the_trump_box_and_the_csv(server: ServerProcess, browser: Any, errors: list[str]) -> None:
    context, page = phone(browser, errors)
    sheet_id = new_sheet(page, server.url, ["Ann", "Bob", "Cy", "Dee"], dealer=0, max_size=3)
    page.fill("#sk-trump", "7H")
    page.click("#sk-set-trump")
    page.wait_for_selector("#sk-trump-shown")
    assert "7♥" in page.inner_text("#sk-trump-shown")
    for value in (1, 1, 0, 0):  # Bob, Cy, Dee, Ann (the dealer: not 1)
        bid(page, value)
    page.wait_for_selector("#sk-score")
    for seat in (1, 2, 3):  # "made it": the bids as the tricks; Ann, left empty, takes the trick left
        page.click(f'[data-made="{seat}"]')
    page.wait_for_function("() => document.querySelector('#sk-tricks input[data-seat=\"1\"]').value === '1'")
    page.click("#sk-score")
    page.wait_for_function("() => document.querySelector('#sk-heading').textContent.startsWith('Hand 2')")
    assert totals(page) == ["0", "11", "11", "10"]  # Ann bid 0 and took the trick left
    # The new hand's trump box is empty (not the last hand's 7H).
    assert page.input_value("#sk-trump") == ""
    page.wait_for_function("() => document.querySelector('#sk-status').textContent.includes('Saved on the server')",
                           timeout=20_000)
    with urllib.request.urlopen(f"{server.url}/api/sheets/{sheet_id}?format=csv", timeout=10) as response:
        rows = list(csv.reader(io.StringIO(response.read().decode("utf-8-sig"))))
    assert rows[1][3] == "7H", rows
    # Undo is by the sheet, and takes back the last hand.
    page.click("#sk-undo")
    page.wait_for_function("() => document.querySelector('#sk-heading').textContent.startsWith('Hand 1')")
    context.close()


def test_a_conflict_between_two_devices_shows_both_versions(server: ServerProcess, browser: Any,
                                                            errors: list[str]) -> None:
    mine, page = phone(browser, errors)
    sheet_id = new_sheet(page, server.url, ["Ann", "Bob", "Cy", "Dee"], dealer=0, max_size=3)
    controlled(page)
    theirs, other = phone(browser, errors)
    other.goto(f"{server.url}/score/{sheet_id}")
    other.wait_for_selector("#sk-heading")
    mine.set_offline(True)
    for value in (2, 0):  # this phone: Bob 2, Cy 0
        bid(page, value)
    for value in (1, 1):  # the other device, online: Bob 1, Cy 1
        bid(other, value)
    other.wait_for_function("() => document.querySelector('#sk-status').textContent.includes('Saved on the server')",
                            timeout=20_000)
    mine.set_offline(False)
    page.wait_for_selector("#sk-conflict", timeout=20_000)
    text = page.inner_text("#sk-conflict")
    assert "Hand 1 was changed on another device" in text
    phone_side, server_side = (part.inner_text() for part in page.query_selector_all(".sk-version"))
    assert "On this phone" in phone_side and "2/–" in phone_side and "0/–" in phone_side
    assert "On the server" in server_side and server_side.count("1/–") == 2
    shot(page, "scorekeeper-conflict-phone.png")
    page.click("#sk-keep-mine")
    page.wait_for_function("() => !document.querySelector('#sk-conflict') && "
                           "document.querySelector('#sk-status').textContent.includes('Saved on the server')",
                           timeout=20_000)
    stored = get_json(f"{server.url}/api/sheets/{sheet_id}")
    assert stored["bids"] == [None, 2, 0, None]
    mine.close()
    theirs.close()


# ---------------------------------------------------------------------- the site as an app


def test_the_site_is_installable_and_starts_offline(server: ServerProcess, browser: Any, errors: list[str]) -> None:
    manifest = get_json(server.url + "/manifest.webmanifest")
    assert manifest["display"] == "standalone" and manifest["theme_color"] == "#154a2e"
    sizes = {icon["sizes"] for icon in manifest["icons"]}
    assert {"192x192", "512x512", "48x48", "144x144"} <= sizes
    assert any(icon["purpose"] == "maskable" for icon in manifest["icons"])
    for icon in manifest["icons"]:
        with urllib.request.urlopen(server.url + icon["src"], timeout=10) as response:
            assert response.read(8) == b"\x89PNG\r\n\x1a\n", icon
    context, page = phone(browser, errors)
    page.goto(server.url + "/")
    page.wait_for_selector("#create")
    controlled(page)
    context.set_offline(True)
    page.goto(server.url + "/t/ABCDEF")  # a table needs the server: the offline page says so
    page.wait_for_selector("#offline")
    assert page.inner_text("#offline-title") == "You are offline"
    page.click("#offline-open")
    page.wait_for_selector("#sk-create")  # the scorekeeper opens offline
    context.set_offline(False)
    context.close()
