"""The lobby's "Change any rule" panel (issue 28): a knob that can do nothing under the other
rules is greyed out with the reason, a change that would do nothing is refused naming the knob,
and the one-line summary names every knob that differs from the preset."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import Any

import httpx

from conftest import ROOT, ServerProcess, served
from ohhell.rules import PRESET_TITLES, PRESETS

SHOTS = ROOT / "docs" / "screenshots" if os.environ.get("OHHELL_SCREENSHOTS") else \
    Path(tempfile.gettempdir()) / "ohhell-screenshots"


server = served("rules-panel")


def test_the_rules_api_says_which_knobs_can_do_nothing_and_which_differ(server: ServerProcess) -> None:
    classic = httpx.post(f"{server.url}/api/rules", json={"preset": "classic", "players": 4, "knobs": {}}).json()
    assert "hand_count" in classic["inert"] and "devils_bridge" in classic["inert"]
    assert "hook" not in classic["inert"] and classic["changed"] == []
    constant = httpx.post(f"{server.url}/api/rules", json={"preset": "classic", "players": 4,
                                                           "knobs": {"schedule": "constant"}}).json()
    assert "hand_count" not in constant["inert"] and constant["changed"] == ["schedule"]
    simultaneous = httpx.post(f"{server.url}/api/rules", json={"preset": "classic", "players": 4,
                                                               "knobs": {"bidding": "simultaneous"}}).json()
    assert set(simultaneous["changed"]) == {"bidding", "hook", "bid_changes"}
    refused = httpx.post(f"{server.url}/api/rules", json={"preset": "classic", "players": 4,
                                                          "knobs": {"hand_count": 3}})
    assert refused.status_code == 400 and refused.json()["knob"] == "hand_count"
    assert "constant schedule" in refused.json()["error"]


def test_the_panel_greys_out_a_knob_that_cannot_apply_and_the_summary_follows(server: ServerProcess,
                                                                               browser: Any) -> None:
    context = browser.new_context(locale="en-US", viewport={"width": 1000, "height": 1400})
    try:
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(server.url + "/")
        page.click("details.more summary >> text=Change any rule")
        page.wait_for_selector("#knob-hand_count")
        assert page.is_disabled("#knob-hand_count")
        assert "constant schedule" in (page.get_attribute("#knob-hand_count", "title") or "")
        assert page.inner_text("#preset-summary").startswith("The classic rules")
        assert "Changed" not in page.inner_text("#preset-summary")
        page.select_option("#knob-schedule", "constant")
        page.wait_for_selector("#knob-hand_count:enabled")
        page.wait_for_selector("#preset-summary:has-text('Changed from the preset')")
        summary = page.inner_text("#preset-summary")
        assert "Changed from the preset:" in summary
        page.select_option("#knob-schedule", "down-up")
        page.wait_for_selector("#knob-hand_count:disabled")
        page.wait_for_selector("#preset-summary:not(:has-text('Changed'))")
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.locator("#knobs").screenshot(path=str(SHOTS / "lobby-rules-panel.png"))
        assert errors == []
    finally:
        context.close()


def test_the_lobby_offers_the_new_presets_and_a_two_player_table_with_bowers(server: ServerProcess) -> None:
    config = httpx.get(f"{server.url}/api/config").json()
    offered = {p["name"]: p["players"] for p in config["presets"]}
    assert {"romanian-whist", "la-pocha", "bowers"} <= set(offered) and 2 in offered["bowers"]
    created = httpx.post(f"{server.url}/api/tables", json={"name": "Ann", "preset": "bowers", "players": 2,
                                                           "seats": ["random"], "timer": 0, "knobs": {}})
    assert created.status_code == 200, created.text
    assert httpx.get(f"{server.url}/api/tables/{created.json()['code']}").json()["rules"]["players"] == 2
    refused = httpx.post(f"{server.url}/api/tables", json={"name": "Ann", "preset": "classic", "players": 2,
                                                           "seats": ["random"], "timer": 0, "knobs": {}})
    assert refused.status_code == 400


def test_the_lobby_offers_bust_for_4_to_6_and_says_why_its_knob_does_nothing_with_4(server: ServerProcess) -> None:
    config = httpx.get(f"{server.url}/api/config").json()
    offered = {p["name"]: p["players"] for p in config["presets"]}
    assert offered["bust"] == [4, 5, 6]
    four = httpx.post(f"{server.url}/api/rules", json={"preset": "bust", "players": 4, "knobs": {}}).json()
    assert "5 or 6 players" in four["inert"]["second_pack"]
    six = httpx.post(f"{server.url}/api/rules", json={"preset": "bust", "players": 6, "knobs": {}}).json()
    assert "second_pack" not in six["inert"]
    created = httpx.post(f"{server.url}/api/tables", json={"name": "Ann", "preset": "bust", "players": 6,
                                                           "seats": ["random"] * 5, "timer": 0, "knobs": {}})
    assert created.status_code == 200, created.text
    rules = httpx.get(f"{server.url}/api/tables/{created.json()['code']}").json()["rules"]
    assert rules["preset"] == "bust" and rules["players"] == 6
    refused = httpx.post(f"{server.url}/api/tables", json={"name": "Ann", "preset": "classic", "players": 4,
                                                           "seats": ["random"] * 3, "timer": 0,
                                                           "knobs": {"second_pack": True}})
    assert refused.status_code == 400 and "second_pack" in refused.text


def test_the_forms_name_every_preset_in_the_page_language(server: ServerProcess) -> None:
    english = {p["name"]: p["title"] for p in httpx.get(f"{server.url}/api/config").json()["presets"]}
    assert set(english) == set(PRESET_TITLES) == set(PRESETS)
    assert english["classic"] == "Classic" and english["devils-bridge"] == "Devil's Bridge"
    russian = {p["name"]: p["title"] for p in httpx.get(f"{server.url}/api/config?lang=ru").json()["presets"]}
    assert russian["classic"] == "Классика"
