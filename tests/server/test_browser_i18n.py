"""The web app in every language, in a real headless Chromium (Debian's) driven by Playwright.

A new player whose browser asks for a language (``Accept-Language``) gets the lobby and the
table in it: every text the client shows comes from the server's gettext catalogs, and no text
is left in English where a translation exists; the cards keep their suit symbols and take the
rank letters of the language (Т К Д В in Russian). The language switch in the header changes
the page at once and is remembered. Screenshots go to a temporary folder (to docs/screenshots
with ``OHHELL_SCREENSHOTS=1``). Every page (the lobby, the table, its panels, the scorekeeper)
must run without an uncaught exception or a Content-Security-Policy violation.
"""

from __future__ import annotations

import os
import re
import tempfile
from pathlib import Path
from typing import Any

import pytest

from conftest import ROOT, ServerProcess, record_page_errors, served
from ohhell.i18n import LANGUAGES, rank_letters
from ohhell.server.texts import client_catalog

SHOTS = ROOT / "docs" / "screenshots" if os.environ.get("OHHELL_SCREENSHOTS") else \
    Path(tempfile.mkdtemp(prefix="ohhell-i18n-shots-"))
PACE = ("--bot-delay", "0.02", "--trick-pause", "0.1", "--hand-pause", "0.2")
BROWSER_LOCALES = {"en": "en-US", "ru": "ru-RU", "uk": "uk-UA", "bg": "bg-BG", "ro": "ro-RO", "ky": "ky-KG"}

# Everything a person reads on the page: text nodes, and the titles, labels and placeholders.
PAGE_TEXTS = """() => {
  const out = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) {
    const text = walker.currentNode.textContent.trim();
    if (text && !walker.currentNode.parentElement.closest('script,style')) out.push(text);
  }
  for (const node of document.querySelectorAll('[title],[aria-label],[placeholder]')) {
    for (const name of ['title', 'aria-label', 'placeholder']) {
      const value = node.getAttribute(name);
      if (value) out.push(value.trim());
    }
  }
  out.push(document.title);
  return out;
}"""


server = served("browser-i18n", *PACE)


def new_page(browser: Any, language: str) -> tuple[Any, Any, list[str]]:
    context = browser.new_context(viewport={"width": 1200, "height": 900}, locale=BROWSER_LOCALES[language])
    page = context.new_page()
    errors: list[str] = []
    record_page_errors(page, errors)  # uncaught exceptions and CSP violations: any fails the test
    return context, page, errors


def english_leftovers(texts: list[str], language: str) -> list[str]:
    """The English texts of the client found on a page in ``language``, where that language has
    a translation of its own (texts with placeholders are checked through their fixed words)."""
    english = client_catalog("en")
    translated = client_catalog(language)
    pairs = [(source, translated[group][key]) for group in ("texts", "knobs")
             for key, source in english[group].items()]
    pairs += [(source, translated["choices"][knob][value]) for knob, labels in english["choices"].items()
              for value, source in labels.items()]
    suspects: set[str] = set()
    for source, translation in pairs:
        if translation == source:
            continue  # the same word in both languages (Romanian "Total")
        for piece in re.split(r"%\(\w+\)[sd]", source):
            piece = piece.strip(" :·,.()")
            if len(piece) >= 4:
                suspects.add(piece)
    found = []
    for text in texts:
        if text in suspects or any(len(s) >= 8 and s in text for s in suspects):
            found.append(text)
    return found


def test_the_leftover_check_finds_english() -> None:
    assert english_leftovers(["Create a table", "Создать стол", "Seat 3", "Waiting for Ann"], "ru") == [
        "Create a table", "Waiting for Ann"]
    assert english_leftovers(["the next card is turned up"], "bg") == ["the next card is turned up"]
    assert english_leftovers(["Total"], "ro") == []  # Romanian says Total too


def create_table(page: Any, base: str, players: int = 3) -> None:
    page.goto(base + "/")
    page.wait_for_selector("#create")
    page.fill("#name", "Ann")
    page.select_option("#players", str(players))
    page.wait_for_function(f"document.querySelectorAll('#seat-choices select').length === {players - 1}")
    for select in page.query_selector_all("#seat-choices select"):
        select.select_option("random")
    page.click("#create")
    page.wait_for_url(re.compile(r"/t/[A-Z0-9]{6}$"))
    page.wait_for_selector("#hand .card", timeout=30_000)
    page.wait_for_selector(".bid-button:not([disabled]), button.card.legal", timeout=30_000)  # my turn


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_new_player_sees_lobby_and_table_in_the_browser_language(server: ServerProcess, browser: Any,
                                                                    language: str) -> None:
    catalog = client_catalog(language)
    texts = catalog["texts"]
    context, page, errors = new_page(browser, language)
    try:
        page.goto(server.url + "/")
        page.wait_for_selector("#create")
        assert page.evaluate("document.documentElement.lang") == language
        assert page.input_value("#lang") == language
        lobby = page.evaluate(PAGE_TEXTS)
        for key in ("create_table", "your_name", "join_by_code", "tagline", "turn_timer", "rules_explained"):
            assert texts[key] in lobby, (key, texts[key])
        page.wait_for_selector("#described p", state="attached")  # the rules in plain words, from the server
        described = page.text_content("#described") or ""
        assert described.strip()
        if language != "en":
            assert "Players and cards" not in described and "The deal passes" not in described
        page.screenshot(path=str(SHOTS / f"lobby-{language}.png"), full_page=True)

        create_table(page, server.url)
        table = page.evaluate(PAGE_TEXTS)
        for key in ("trump", "dealer", "bid", "tricks", "total", "score_sheet", "rules", "hint"):
            assert any(texts[key] in text for text in table), (key, texts[key])
        # The cards: suit symbols always, rank letters of the language; the dealer's chip.
        faces = page.eval_on_selector_all("#hand .card .index b", "nodes => nodes.map(n => n.textContent)")
        assert faces and set(faces) <= set(rank_letters(language)) | {"🃏"}, faces
        assert page.inner_text(".dealer-chip") == catalog["dealer_chip"]
        page.screenshot(path=str(SHOTS / f"table-{language}.png"), full_page=True)
        page.click("#show-sheet")  # the score sheet and the rules of the table, as panels
        page.wait_for_selector("#sheet")
        page.click("#show-rules")
        page.wait_for_selector("#rules p")
        panels = page.evaluate(PAGE_TEXTS)
        page.goto(server.url + "/score")  # the scorekeeper for real cards
        page.wait_for_selector("#sk-create")
        scorekeeper = page.evaluate(PAGE_TEXTS)
        assert texts["sk_start"] in scorekeeper
        leftovers = english_leftovers(lobby + table + panels + scorekeeper, language) if language != "en" else []
        assert leftovers == [], leftovers
        assert errors == [], errors
    finally:
        context.close()


def test_the_language_switch_changes_the_page_and_is_remembered(server: ServerProcess, browser: Any) -> None:
    context, page, errors = new_page(browser, "en")
    try:
        page.goto(server.url + "/")
        page.wait_for_selector("#create")
        assert page.inner_text("#create") == "Create"
        page.select_option("#lang", "uk")
        page.wait_for_function("() => document.documentElement.lang === 'uk'")
        page.wait_for_selector("#create")
        page.wait_for_function("() => document.querySelector('#create').textContent === 'Створити'")
        assert page.evaluate("localStorage.getItem('ohhell.lang')") == "uk"
        page.reload()  # the browser still asks for English: the choice wins
        page.wait_for_selector("#create")
        page.wait_for_function("() => document.querySelector('#create').textContent === 'Створити'")
        assert page.input_value("#lang") == "uk"
        create_table(page, server.url)
        assert client_catalog("uk")["texts"]["trump"] in page.inner_text(".info-bar")
        page.select_option("#lang", "bg")  # at the table too
        page.wait_for_function("() => document.querySelector('.info-bar') && "
                               "document.querySelector('.info-bar').textContent.includes('Коз')")
        assert errors == [], errors
    finally:
        context.close()
