"""``ohhell score`` driven headlessly with key presses (Textual's pilot)."""

from __future__ import annotations

import csv
import io
import json

import pytest
from textual.widgets import DataTable, Input, Static
from tui_helpers import plain, run, static_text, type_number, wait_until

from ohhell.errors import RulesError
from ohhell.record import play_random_game, state_from_record
from ohhell.rules import preset
from ohhell.scorekeeper import ScoreSheet, ScoreStore
from ohhell.tui.score_app import (
    ChartScreen,
    ConfirmScreen,
    EditHandScreen,
    ExportSheetScreen,
    GamesScreen,
    NewGameScreen,
    ScoreApp,
    SheetScreen,
    StatsScreen,
    export_sheet,
)

SIZE = (120, 40)
NAMES = ["Ann", "Bob", "Cy", "Dee"]


def new_app(data_dir, rules=None, first_dealer=0, names=NAMES):
    store = ScoreStore()
    sheet = ScoreSheet(rules or preset("classic", players=len(names)), names, first_dealer=first_dealer)
    sheet_id = store.new_id()
    store.save(sheet_id, sheet)
    return ScoreApp(store, sheet, sheet_id), sheet, sheet_id


def sheet_screen(app) -> SheetScreen:
    return next(screen for screen in app.screen_stack if isinstance(screen, SheetScreen))


def total_row(app) -> list[str]:
    table = sheet_screen(app).query_one(DataTable)
    return [plain(cell).strip() for cell in table.get_row("total")]


async def enter_hand(pilot, result, dealer, players) -> None:
    """Type one hand of a finished engine game: the bids in order, then the tricks from the left
    of the dealer."""
    for seat in result.bid_order:
        await type_number(pilot, result.bids[seat])
    for offset in range(players):
        seat = (dealer + 1 + offset) % players
        await type_number(pilot, result.tricks[seat])


def test_keep_score_of_a_whole_game_and_check_the_totals_against_the_engine(data_dir):
    rules = preset("classic", players=4, max_size=3)
    game = play_random_game(rules, seed=21)
    app, sheet, sheet_id = new_app(data_dir, rules, first_dealer=game.first_dealer)

    async def body():
        async with app.run_test(size=SIZE) as pilot:
            await wait_until(pilot, lambda: isinstance(app.screen, SheetScreen))
            for result in game.finished_hands:
                assert sheet.dealer == result.dealer and sheet.hand_size == result.size
                assert f"deals {result.size} card" in static_text(app, "#prompt")
                await enter_hand(pilot, result, result.dealer, 4)
                assert sheet.totals == list(result.totals)
            assert sheet.finished
            assert sheet.totals == list(game.totals)
            assert total_row(app)[4:] == [str(total) for total in game.totals]
            prompt = static_text(app, "#prompt")
            assert "The game is over" in prompt
            assert all(NAMES[seat] in prompt for seat in game.winners())

    run(body())
    # Saved as it went: the store has the same game, and its record replays to the same totals.
    loaded = ScoreStore().load(sheet_id)
    assert loaded.totals == list(game.totals)
    assert state_from_record(loaded.record).totals == game.totals


def test_the_hook_refuses_the_dealer_and_undo_takes_back(data_dir):
    app, sheet, _id = new_app(data_dir, first_dealer=3)

    async def body():
        async with app.run_test(size=SIZE) as pilot:
            await wait_until(pilot, lambda: isinstance(app.screen, SheetScreen))
            for bid in (1, 2, 0):
                await type_number(pilot, bid)
            assert "Dee may not bid 7" in static_text(app, "#prompt")
            await type_number(pilot, 7)
            assert sheet.bids[3] is None
            assert "The dealer may not bid 7" in static_text(app, "#message")
            await type_number(pilot, 3)
            assert sheet.bids == [1, 2, 0, 3]
            await pilot.press("u")
            assert sheet.bids[3] is None and sheet.bids[2] == 0
            await type_number(pilot, 6)
            # Tricks that do not add up are refused when typed; the good entries stay.
            for tricks in (1, 3, 0):
                await type_number(pilot, tricks)
            assert sheet_screen(app).buffer == "6"  # the last player's tricks are proposed
            await type_number(pilot, 5)
            assert "The tricks must add up to 10: Dee took the 6 left" in static_text(app, "#message")
            assert not sheet.state.finished_hands and sheet_screen(app).tricks == [1, 3, 0, None]
            assert sheet_screen(app).buffer == "6"
            await pilot.press("enter")
            assert sheet.totals == [11, 0, 10, 16]

    run(body())


def test_edit_a_past_hand_scores_every_later_hand_again(data_dir):
    rules = preset("classic", players=4, max_size=3)
    game = play_random_game(rules, seed=5)
    app, sheet, _id = new_app(data_dir, rules, first_dealer=game.first_dealer)
    first, second = game.finished_hands[0], game.finished_hands[1]
    # The change: in hand 1, the first two seats swap their tricks.
    tricks = list(first.tricks)
    tricks[0], tricks[1] = tricks[1], tricks[0]
    assert tricks != list(first.tricks) or first.bids[0] != first.bids[1]
    reference = ScoreSheet(rules, NAMES, first_dealer=game.first_dealer)
    for result, taken in ((first, tricks), (second, list(second.tricks))):
        for seat in result.bid_order:
            reference.bid(seat, result.bids[seat])
        reference.record_tricks(taken)

    async def body():
        async with app.run_test(size=SIZE) as pilot:
            await wait_until(pilot, lambda: isinstance(app.screen, SheetScreen))
            for result in (first, second):
                await enter_hand(pilot, result, result.dealer, 4)
            assert sheet.totals == list(second.totals)
            await pilot.press("up", "up")
            await pilot.press("e")
            assert isinstance(app.screen, EditHandScreen) and app.screen.index == 0
            app.screen.query_one("#tricks-0", Input).value = str(tricks[0])
            app.screen.query_one("#tricks-1", Input).value = str(tricks[1])
            await pilot.press("ctrl+s")
            await wait_until(pilot, lambda: isinstance(app.screen, SheetScreen))
            assert "Hand 1 changed" in static_text(app, "#message")
            assert sheet.totals == reference.totals
            assert sheet.hands()[0]["tricks"] == tricks
            # The sheet goes on at hand 3.
            assert sheet.hand_index == 2

    run(body())


def test_an_edit_that_breaks_a_rule_is_refused_in_the_dialog(data_dir):
    app, sheet, _id = new_app(data_dir, preset("classic", players=4, max_size=2), first_dealer=0)

    async def body():
        async with app.run_test(size=SIZE) as pilot:
            await wait_until(pilot, lambda: isinstance(app.screen, SheetScreen))
            for value in (0, 0, 1, 0, 1, 0, 1, 0):  # bids 0 0 1 0 (Bob..Ann), tricks
                await type_number(pilot, value)
            assert len(sheet.state.finished_hands) == 1
            before = sheet.totals
            await pilot.press("up", "e")
            assert isinstance(app.screen, EditHandScreen)
            app.screen.query_one("#tricks-0", Input).value = "2"  # now they add up to 3 of 2
            await pilot.press("ctrl+s")
            assert isinstance(app.screen, EditHandScreen)
            assert plain(app.screen.query_one("#error").content).strip()
            await pilot.press("escape")
            assert sheet.totals == before

    run(body())


def test_new_game_form_list_and_resume(data_dir):
    app = ScoreApp(ScoreStore())

    async def body():
        async with app.run_test(size=SIZE) as pilot:
            await wait_until(pilot, lambda: isinstance(app.screen, GamesScreen))
            assert "No saved games" in static_text(app, "#info")
            await pilot.press("n")
            assert isinstance(app.screen, NewGameScreen)
            for name in ("Ann", "Bob", "Cy"):
                await pilot.press(*name, "enter")
            await pilot.click("#remove")  # three players
            await pilot.pause()
            app.screen.query_one("#max-size", Input).value = "2"
            await pilot.press("ctrl+s")
            await wait_until(pilot, lambda: isinstance(app.screen, SheetScreen))
            sheet = app.screen.sheet
            assert sheet.names == ["Ann", "Bob", "Cy"] and sheet.rules.max_size == 2
            assert [plan.size for plan in sheet.rules.hand_plans()] == [2, 1, 2]
            await type_number(pilot, 1)
            await pilot.press("escape")
            await wait_until(pilot, lambda: isinstance(app.screen, GamesScreen))
            table = app.screen.query_one(DataTable)
            assert table.row_count == 1
            assert "Ann, Bob, Cy" in plain(table.get_row_at(0)[0])
            await pilot.press("enter")
            await wait_until(pilot, lambda: isinstance(app.screen, SheetScreen))
            assert app.screen.sheet.bids[1] == 1  # Bob bid first (Ann deals)

    run(body())


def test_delete_a_saved_game_after_confirming(data_dir):
    store = ScoreStore()
    for names in (["Ann", "Bob", "Cy"], ["Dan", "Eve", "Fay"]):
        sheet = ScoreSheet(preset("classic", players=3, real_cards=True, max_size=2), names)
        store.save(store.new_id(), sheet)
    app = ScoreApp(store)

    async def body():
        async with app.run_test(size=SIZE) as pilot:
            await wait_until(pilot, lambda: isinstance(app.screen, GamesScreen))
            table = app.screen.query_one(DataTable)
            assert table.row_count == 2
            first = plain(table.get_row_at(0)[0]).strip()
            await pilot.press("d")
            assert isinstance(app.screen, ConfirmScreen) and first in app.screen.question
            await pilot.press("n")  # no: nothing is deleted
            await wait_until(pilot, lambda: isinstance(app.screen, GamesScreen))
            assert len(store.list()) == 2
            await pilot.press("d", "y")
            await wait_until(pilot, lambda: len(store.list()) == 1)
            table = app.screen.query_one(DataTable)
            assert table.row_count == 1 and first not in plain(table.get_row_at(0)[0])
            await pilot.press("d", "y")
            await wait_until(pilot, lambda: not store.list())
            await pilot.press("d")  # nothing left to delete: a message, no dialog
            assert isinstance(app.screen, GamesScreen)

    run(body())


def _engine_cannot_record_ten_players() -> bool:
    try:
        preset("classic", players=10, real_cards=True, max_size=4).to_json()
    except RulesError:
        return True
    return False


@pytest.mark.xfail(_engine_cannot_record_ten_players(), strict=True,
                   reason="engine: Rules.to_json() refuses more than 7 players even with real_cards")
def test_ten_players_with_a_chosen_largest_hand(data_dir):
    app = ScoreApp(ScoreStore())

    async def body():
        async with app.run_test(size=(160, 50)) as pilot:
            await wait_until(pilot, lambda: isinstance(app.screen, GamesScreen))
            await pilot.press("n")
            for _click in range(6):
                await pilot.click("#add")
                await pilot.pause(0.25)  # a button ignores clicks while it shows it was pressed
            assert len(app.screen.query("Input.name")) == 10
            app.screen.query_one("#max-size", Input).value = "4"
            await pilot.press("ctrl+s")
            await wait_until(pilot, lambda: isinstance(app.screen, SheetScreen)
                             or plain(app.screen.query_one("#error").content).strip() != "")
            assert isinstance(app.screen, SheetScreen), plain(app.screen.query_one("#error").content)
            rules = app.screen.sheet.rules
            assert rules.players == 10 and rules.real_cards and rules.largest_hand == 4
            assert app.screen.sheet.names[9] == "Player 10"

    run(body())


def test_chart_stats_trump_and_export(data_dir, tmp_path):
    app, sheet, _id = new_app(data_dir, preset("classic", players=3, max_size=2), first_dealer=2, names=NAMES[:3])

    async def body():
        async with app.run_test(size=SIZE) as pilot:
            await wait_until(pilot, lambda: isinstance(app.screen, SheetScreen))
            await pilot.press("t")
            app.screen.query_one(Input).value = "7h"
            await pilot.press("enter")
            assert sheet.trump == "H"
            for value in (0, 1, 0, 0, 1, 1):  # bids Ann 0, Bob 1, Cy 0; tricks 0 1 1
                await type_number(pilot, value)
            assert sheet.totals == [10, 11, 0]
            await pilot.press("c")
            assert isinstance(app.screen, ChartScreen)
            chart = plain(app.screen.query_one("Static").content)
            assert "Ann 10" in chart and "Bob 11" in chart and "Cy 0" in chart
            await pilot.press("escape", "s")
            assert isinstance(app.screen, StatsScreen)
            stats = plain(app.screen.query_one("Static").content)
            assert "Zero bids made" in stats and "1/1" in stats
            await pilot.press("escape", "x")
            assert isinstance(app.screen, ExportSheetScreen)
            target = tmp_path / "sheet.csv"
            app.screen.query_one(Input).value = str(target)
            await pilot.press("enter")
            await wait_until(pilot, lambda: isinstance(app.screen, SheetScreen))

    run(body())
    rows = list(csv.reader(io.StringIO((tmp_path / "sheet.csv").read_text())))
    assert rows[0][:4] == ["hand", "dealer", "cards", "trump"] and rows[1][3] == "7H"  # the turned card
    export_sheet(sheet, tmp_path / "sheet.json")
    record = json.loads((tmp_path / "sheet.json").read_text())
    assert record["format"] == "ohhell/1" and record["hands"][0]["trump"] == "7H"
    assert state_from_record(record).totals == [10, 11, 0]


# ---------------------------------------------------------------------- issue 18: as a player finds it


def test_an_impossible_trick_count_is_refused_when_typed_and_the_good_ones_stay(data_dir):
    # A hand of 5 cards, Ann deals: Bob 1 and Cy 3 are fine, Dee 2 would make 6 of 5.
    rules = preset("classic", players=4, max_size=5)
    app, sheet, _id = new_app(data_dir, rules, first_dealer=0)

    async def body():
        async with app.run_test(size=SIZE) as pilot:
            await wait_until(pilot, lambda: isinstance(app.screen, SheetScreen))
            assert sheet.hand_size == 5
            for bid in (1, 3, 0, 0):  # Bob, Cy, Dee, Ann (the dealer)
                await type_number(pilot, bid)
            for tricks in (1, 3):
                await type_number(pilot, tricks)
            assert "1 of 5 tricks left to give" in static_text(app, "#prompt")
            await pilot.press("2")  # refused as it is typed
            message = static_text(app, "#message")
            assert "Dee cannot have taken 2 tricks: 4 of the 5 are already given, so at most 1 is left." in message
            screen = sheet_screen(app)
            assert screen.tricks == [None, 1, 3, None] and not sheet.state.finished_hands
            assert "-1" not in static_text(app, "#prompt")
            await type_number(pilot, 0)
            assert screen.buffer == "1"  # Ann's tricks are what is left
            await pilot.press("enter")
            assert sheet.state.finished_hands[0].tricks == (1, 1, 3, 0)

    run(body())


def test_m_enters_made_bids(data_dir):
    rules = preset("classic", players=3, max_size=3, hook=False)
    app, sheet, _id = new_app(data_dir, rules, first_dealer=0, names=NAMES[:3])

    async def body():
        async with app.run_test(size=SIZE) as pilot:
            await wait_until(pilot, lambda: isinstance(app.screen, SheetScreen))
            for bid in (1, 2, 0):  # Bob, Cy, Ann: they add up to 3
                await type_number(pilot, bid)
            assert "m: Bob made the bid (1)" in static_text(app, "#prompt")
            await pilot.press("m")  # everyone made it: the hand is entered at once
            assert sheet.state.finished_hands[0].tricks == (0, 1, 2)
            assert "everyone made their bid" in static_text(app, "#message")
            for bid in (2, 1, 1):  # Cy, Ann, Bob (Bob deals): 4 of 2 cards, not everyone made it
                await type_number(pilot, bid)
            await pilot.press("m")  # Cy made 2: entered for Cy alone
            assert sheet_screen(app).tricks == [None, None, 2]
            await pilot.press("m")  # Ann would make 3 of 2: refused
            assert "cannot have taken 1 trick" in static_text(app, "#message") or \
                "at most 0" in static_text(app, "#message")
            await pilot.press("m")  # before the bids: says what m is for
            await type_number(pilot, 0)
            await pilot.press("enter")
            assert sheet.state.finished_hands[1].tricks == (0, 0, 2)

    run(body())


def test_rename_the_players_and_undo(data_dir):
    app, sheet, _id = new_app(data_dir, first_dealer=0)

    async def body():
        async with app.run_test(size=SIZE) as pilot:
            await wait_until(pilot, lambda: isinstance(app.screen, SheetScreen))
            await pilot.press("r")
            from ohhell.tui.score_app import RenameScreen

            assert isinstance(app.screen, RenameScreen)
            app.screen.query_one("#name-1", Input).value = "ann"
            await pilot.press("ctrl+s")
            assert isinstance(app.screen, RenameScreen)
            assert "same name: Ann, ann" in plain(app.screen.query_one("#error").content)
            app.screen.query_one("#name-1", Input).value = "Robert"
            await pilot.press("ctrl+s")
            await wait_until(pilot, lambda: isinstance(app.screen, SheetScreen))
            assert sheet.names == ["Ann", "Robert", "Cy", "Dee"]
            headers = [plain(column.label).strip() for column in app.screen.query_one(DataTable).columns.values()]
            assert "Robert" in headers
            assert ScoreStore().load(_id).names[1] == "Robert"
            await pilot.press("u")
            assert sheet.names[1] == "Bob"
            headers = [plain(column.label).strip() for column in app.screen.query_one(DataTable).columns.values()]
            assert "Bob" in headers and "Robert" not in headers

    run(body())


def test_the_edit_dialog_has_headers_and_shows_the_trump_as_a_card(data_dir):
    app, sheet, _id = new_app(data_dir, preset("classic", players=3, max_size=2), first_dealer=2,
                              names=NAMES[:3])

    async def body():
        async with app.run_test(size=SIZE) as pilot:
            await wait_until(pilot, lambda: isinstance(app.screen, SheetScreen))
            await pilot.press("t")
            app.screen.query_one(Input).value = "q♥"
            await pilot.press("enter")
            for value in (0, 1, 0, 0, 1, 1):
                await type_number(pilot, value)
            await pilot.press("up", "e")
            dialog = app.screen
            assert isinstance(dialog, EditHandScreen)
            headings = [plain(widget.content).strip() for widget in dialog.query(".heading Static")]
            assert "Bid" in headings and "Tricks" in headings
            assert dialog.query_one("#trump", Input).value == "Q♥"
            await pilot.press("ctrl+s")  # unchanged: the trump stays the turned Q♥
            await wait_until(pilot, lambda: isinstance(app.screen, SheetScreen))
            assert sheet.record["hands"][0]["trump"] == "QH"
            await pilot.press("up", "e")
            app.screen.query_one("#trump", Input).value = "10♠"
            await pilot.press("ctrl+s")
            await wait_until(pilot, lambda: isinstance(app.screen, SheetScreen))
            assert sheet.record["hands"][0]["trump"] == "TS"
            await pilot.press("x")
            assert isinstance(app.screen, ExportSheetScreen)
            assert app.screen.query_one(Input).value == f"ohhell-score-{_id}.json"

    run(body())


def test_the_first_dealer_follows_the_names_and_duplicates_are_refused(data_dir):
    app = ScoreApp(ScoreStore())

    async def body():
        async with app.run_test(size=SIZE) as pilot:
            await wait_until(pilot, lambda: isinstance(app.screen, GamesScreen))
            await pilot.press("escape")  # Esc does not quit the scorekeeper
            assert isinstance(app.screen, GamesScreen) and app.is_running
            await pilot.press("n")
            for name in ("Ann", "Bob", "Ann", "Dee"):
                await pilot.press(*name, "enter")
            await pilot.pause()
            from textual.widgets import Select

            dealer = app.screen.query_one("#dealer", Select)
            shown = plain(dealer.query_one("SelectCurrent #label", Static).content)
            assert "Ann" in shown and "Player 1" not in shown
            await pilot.press("ctrl+s")
            assert isinstance(app.screen, NewGameScreen)
            assert "Two players may not have the same name: Ann, Ann." in plain(app.screen.query_one("#error").content)

    run(body())


def test_q_leaves_the_id_of_the_game_for_the_resume_hint(data_dir):
    app, _sheet, sheet_id = new_app(data_dir)

    async def body():
        async with app.run_test(size=SIZE) as pilot:
            await wait_until(pilot, lambda: isinstance(app.screen, SheetScreen))
            await pilot.press("q")

    run(body())
    assert app.return_value == sheet_id


def test_an_export_that_cannot_be_written_says_why_in_words(data_dir, tmp_path):
    app, _sheet, _id = new_app(data_dir)

    async def body():
        async with app.run_test(size=SIZE) as pilot:
            await wait_until(pilot, lambda: isinstance(app.screen, SheetScreen))
            await pilot.press("x")
            app.screen.query_one(Input).value = str(tmp_path)
            await pilot.press("enter")
            assert isinstance(app.screen, ExportSheetScreen)
            error = plain(app.screen.query_one("#error").content)
            assert f"Could not write {tmp_path}: that is a folder" in error and "Errno" not in error

    run(body())


def test_the_terminal_csv_export_of_hostile_names_has_no_formula(data_dir, tmp_path):
    # Names a spreadsheet would run as formulas (issue 21): exported from the terminal's
    # export screen, no cell may begin with a trigger; the numbers stay numbers.
    from ohhell.spreadsheet import FORMULA_TRIGGERS

    hostile = ["=1+1", '=HYPERLINK("http://evil.example","a")', "+SUM(A1)", "@cmd"]
    app, sheet, _id = new_app(data_dir, preset("classic", players=4, max_size=2), first_dealer=3, names=hostile)

    async def body():
        async with app.run_test(size=SIZE) as pilot:
            await wait_until(pilot, lambda: isinstance(app.screen, SheetScreen))
            size = sheet.hand_size
            for value in (0, 0, 0, 0, size, 0, 0, 0):  # everyone bids 0; the first player takes every trick
                await type_number(pilot, value)
            assert len(sheet.hands()) == 1 and sheet.hands()[0]["scores"] is not None
            await pilot.press("x")
            assert isinstance(app.screen, ExportSheetScreen)
            app.screen.query_one(Input).value = str(tmp_path / "hostile.csv")
            await pilot.press("enter")
            await wait_until(pilot, lambda: isinstance(app.screen, SheetScreen))

    run(body())
    rows = list(csv.reader(io.StringIO((tmp_path / "hostile.csv").read_text(encoding="utf-8"), newline="")))
    cells = [cell for row in rows for cell in row]
    for cell in cells:
        assert not cell.startswith(FORMULA_TRIGGERS) or int(cell) < 0, cell  # only a negative number may
    assert rows[0][4] == "'=1+1 bid" and rows[1][1] == "'@cmd"  # the dealer's name, neutralised too
    assert "'=HYPERLINK(\"http://evil.example\",\"a\") total" in rows[0]
    assert [int(rows[1][4 + 4 * seat + 3]) for seat in range(4)] == sheet.totals
