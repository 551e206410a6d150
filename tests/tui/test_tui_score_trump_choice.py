"""``ohhell score`` under Al Okuneff's rules: after the bids, the keeper enters the suit the
highest bidder chose, then the tricks."""

from __future__ import annotations

import pytest
from tui_helpers import run, static_text, type_number, wait_until

from ohhell.record import state_from_record
from ohhell.rules import preset
from ohhell.scorekeeper import ScoreError, ScoreSheet, ScoreStore
from ohhell.tui.score_app import ScoreApp, SheetScreen

SIZE = (120, 40)
NAMES = ["Ann", "Bob", "Cy", "Dee"]


def okuneff_sheet() -> ScoreSheet:
    return ScoreSheet(preset("okuneff", players=4, real_cards=True), NAMES, first_dealer=3)


def test_the_sheet_asks_for_the_chosen_suit_after_the_bids() -> None:
    sheet = okuneff_sheet()  # Dee deals: Ann, Bob, Cy, Dee bid
    with pytest.raises(ScoreError, match="once every player has bid"):
        sheet.set_trump("H")
    with pytest.raises(ScoreError, match="once every player has bid"):
        sheet.choose_trump("H")
    for seat, bid in enumerate((2, 4, 4, 1)):
        sheet.bid(seat, bid)
    assert sheet.trump_chooser == 1  # Bob bid 4 before Cy
    with pytest.raises(ScoreError, match="enter the trump Bob chose before the tricks"):
        sheet.record_tricks([2, 4, 3, 1])
    with pytest.raises(ScoreError, match="Bob chooses a suit"):
        sheet.choose_trump("7H")
    sheet.choose_trump("♥")
    assert sheet.trump == "H" and sheet.trump_chooser is None
    sheet.record_tricks([2, 4, 3, 1])
    record = sheet.record
    assert record["hands"][0]["chosen_trump"] == "H"
    assert state_from_record(record).finished_hands[0].trump == 1
    assert sheet.hands()[0]["trump"] == "H"
    sheet.edit_hand(0, [2, 4, 4, 1], [2, 4, 3, 1], "S")
    assert sheet.record["hands"][0]["chosen_trump"] == "S"


def test_the_keeper_presses_the_suit_letter(data_dir) -> None:
    store = ScoreStore()
    sheet = okuneff_sheet()
    sheet_id = store.new_id()
    store.save(sheet_id, sheet)
    app = ScoreApp(store, sheet, sheet_id)

    async def body():
        async with app.run_test(size=SIZE) as pilot:
            await wait_until(pilot, lambda: isinstance(app.screen, SheetScreen))
            for bid in (2, 4, 4, 1):
                await type_number(pilot, bid)
            await wait_until(pilot, lambda: app.screen.sheet.trump_chooser == 1)
            assert "Bob bid highest: which suit did they choose as trump?" in static_text(app, "#prompt")
            await pilot.press("x")  # not a suit: refused, nothing changes
            assert "Press S, H, D or C" in static_text(app, "#message")
            await pilot.press("c")  # clubs (not the chart)
            await wait_until(pilot, lambda: app.screen.sheet.trump == "C")
            assert isinstance(app.screen, SheetScreen)
            for tricks in (2, 4, 3, 1):
                await type_number(pilot, tricks)
            await wait_until(pilot, lambda: app.screen.sheet.hand_index == 1)
            assert app.screen.sheet.state.finished_hands[0].trump == 3

    run(body())
