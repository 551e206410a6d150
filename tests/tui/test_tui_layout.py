"""Both terminal apps at the smallest size they promise (80 × 24) and below it: every player in
view, the status line and the keys on screen, names that never run into each other, and a
notice instead of a broken screen when the terminal is too small."""

from __future__ import annotations

import pytest
from rich.text import Text
from textual.widgets import DataTable
from tui_helpers import plain, run, wait_until

from ohhell.actions import Bid
from ohhell.cards import parse_card
from ohhell.rules import preset
from ohhell.scorekeeper import ScoreSheet, ScoreStore
from ohhell.tui.dialogs import TooSmallScreen
from ohhell.tui.play_app import GameScreen, PlayApp, minimum_size
from ohhell.tui.score_app import ScoreApp, SheetScreen, sheet_layout
from ohhell.tui.session import PlaySession, TableOptions
from ohhell.tui.widgets import KeyBar, fit, players_table, trick_cards
from ohhell.views import seat_view

SMALL = (80, 24)


def _session(tmp_path, players: int, name: str | None = None) -> PlaySession:
    rules = preset("classic", players=players, max_size=3)
    names = None
    if name is not None:
        from ohhell.tui.session import default_names
        names = default_names(players, 0, name)
    return PlaySession.new(rules, bots="random", seed=3, names=names, save_path=tmp_path / "game.json",
                           options=TableOptions(delay=0.0, window=0.0))


def _fits(app) -> None:
    """Every widget of the game screen is inside the terminal, the status line at the top."""
    screen = app.screen
    assert isinstance(screen, GameScreen)
    assert screen.query_one("#status").region.y == 0
    for widget in screen.query("#status, #middle, #log, #hand-box, #prompt, KeyBar"):
        region = widget.region
        assert region.height > 0 and region.bottom <= app.size.height, (widget, region)


@pytest.mark.parametrize("players", [3, 4, 5, 6, 7])
def test_every_player_is_in_view_at_80_by_24(tmp_path, players):
    session = _session(tmp_path, players, name="Alexandra")
    app = PlayApp(session)

    async def body():
        async with app.run_test(size=SMALL) as pilot:
            await wait_until(pilot, lambda: isinstance(app.screen, GameScreen) and session.human_turn() is not None)
            await pilot.pause(0.1)
            _fits(app)
            screen = app.screen
            panel = plain(screen.query_one("#players").content, width=screen.query_one("#players").content_size.width)
            for name in session.names:
                assert fit(name, 7)[:4] in panel, (name, panel)
            log = screen.query_one("#log")
            assert log.content_size.height >= 2  # the log shows lines, not only its border
            keys = plain(screen.query_one(KeyBar).render(), width=80)
            assert "Save & quit" in keys and "Play / bid" in keys
            # The dealer's mark is never cut: the word where it fits, else the chip.
            dealer = session.names[session.state.dealer]
            assert f"{dealer} (dealer)" in panel or f"D {dealer}" in panel or "D " + fit(dealer, 6)[:3] in panel, panel
            # Play on: the layout stays put as cards are played.
            for _turn in range(3):
                if session.human_turn() == "bid":
                    legal = [a.bid for a in session.view().legal_actions if isinstance(a, Bid)]
                    await pilot.press(str(legal[0]), "enter")
                elif session.human_turn() == "play":
                    await pilot.press("enter")
                await wait_until(pilot, lambda: isinstance(app.screen, GameScreen) and screen._busy is None
                                 and screen._timer is None)
                if isinstance(app.screen, GameScreen):
                    _fits(app)

    run(body())


def test_below_the_smallest_size_the_terminal_says_how_large_it_must_be(tmp_path):
    session = _session(tmp_path, 7)
    app = PlayApp(session)
    assert minimum_size(session.rules) == (80, 24)

    async def body():
        async with app.run_test(size=(70, 20)) as pilot:
            await wait_until(pilot, lambda: isinstance(app.screen, TooSmallScreen))
            assert "The terminal is too small (needs 80×24)." in plain(app.screen.query_one("#too-small").content)
            history = len(session.state.history)
            await pilot.pause(0.3)
            assert len(session.state.history) == history  # the bots wait while nobody can see the table
            await pilot.resize_terminal(80, 24)
            await wait_until(pilot, lambda: isinstance(app.screen, GameScreen))
            await wait_until(pilot, lambda: session.human_turn() is not None)

    run(body())


def test_names_under_the_trick_never_run_into_each_other():
    state_names = ("Alexandra", "Ada", "Bartholomew", "Cy")
    rules = preset("classic", players=4, max_size=3)
    from ohhell.game import Game

    state = Game(rules).new_initial_state(0)
    view = seat_view(state, 0, state_names)
    trick = [(0, parse_card("KS")), (1, parse_card("QS")), (2, parse_card("2S")), (3, parse_card("AS"))]
    rows = trick_cards(view, trick)
    names = rows[-1].plain
    assert names.split() == ["Alex…", "Ada", "Bart…", "Cy"]
    assert "AlexanAda" not in names
    narrow = trick_cards(view, trick, width=21)[-1].plain  # the cards close up: names of 4
    assert narrow.split() == ["Ale…", "Ada", "Bar…", "Cy"]
    assert fit("Ada", 5) == "Ada" and fit("Alexandra", 5) == "Alex…"


def test_the_players_panel_marks_the_dealer_with_a_chip_when_the_word_does_not_fit():
    rules = preset("classic", players=7, max_size=3)
    import random

    from ohhell.game import Game

    state = Game(rules).new_initial_state(3)
    state.apply(state.sample_chance(random.Random(1)))
    while state.is_chance_node():
        state.apply(state.sample_chance(random.Random(1)))
    names = ("Alexandra", "Ada", "Ben", "Cleo", "Dev", "Eli", "Fay")
    view = seat_view(state, 0, names)
    wide = plain(players_table(view, width=60), width=60)
    assert "Cleo (dealer)" in wide
    narrow = plain(players_table(view, width=34), width=34)
    assert "D Cleo" in narrow and "(dealer)" not in narrow
    for name in names[1:]:
        assert name in narrow


def _sheet(names, max_size=3, hands=3):
    rules = preset("classic", players=len(names), max_size=max_size,
                   **({"real_cards": True} if len(names) > 7 else {}))
    sheet = ScoreSheet(rules, names)
    for _hand in range(hands):
        for seat in sheet.bid_order:
            if sheet.forbidden_bid == 0 and seat == sheet.dealer:
                sheet.bid(seat, 1)
            else:
                sheet.bid(seat, 0)
        size = sheet.hand_size
        tricks = [0] * len(names)
        tricks[sheet.dealer] = size
        sheet.record_tricks(tricks)
    return sheet


@pytest.mark.parametrize("names", [
    ["Ann", "Bob", "Cy", "Dee", "Eve"],
    ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay"],
    ["Alexandra", "Bartholomew", "Cy", "Dee", "Eve", "Fay", "Gus"],
    ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jo"],
])
def test_the_scoresheet_shows_every_player_at_80_columns(data_dir, names):
    store = ScoreStore()
    sheet = _sheet(names, max_size=3 if len(names) <= 7 else 2, hands=2)
    store.save("game", sheet)
    app = ScoreApp(store, sheet, "game")

    async def body():
        async with app.run_test(size=SMALL) as pilot:
            await wait_until(pilot, lambda: isinstance(app.screen, SheetScreen))
            await pilot.pause(0.1)
            table = app.screen.query_one(DataTable)
            columns = list(table.columns.values())
            assert sum(column.get_render_width(table) for column in columns) <= 80
            headers = [plain(column.label).strip() for column in columns]
            for name in names:
                assert any(header and name.startswith(header.rstrip("…")) for header in headers), (name, headers)
            totals = [plain(cell).strip() for cell in table.get_row("total")]
            assert [int(total) for total in totals[-len(names):]] == sheet.totals
            keys = plain(app.screen.query_one(KeyBar).render(), width=80)
            assert "Quit" in keys and "Enter" in keys

    run(body())


def test_the_sheet_layout_goes_from_wide_to_compact():
    names = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jo"]
    from ohhell.tui.score_app import SheetCell

    rows = [([SheetCell(Text("1/1"), Text("110"), seat == 0) for seat in range(10)], (1, 0, 2, "H"), "hand-0")]
    totals = [Text("110") for _ in names]
    assert sheet_layout(names[:4], [(cells[:4], info, key) for cells, info, key in rows], totals[:4], 120).kind \
        == "wide"
    assert sheet_layout(names[:6], [(cells[:6], info, key) for cells, info, key in rows], totals[:6], 80).kind \
        == "medium"
    compact = sheet_layout(names, rows, totals, 80)
    assert compact.kind == "compact" and compact.height == 2
    assert sum(width + 2 for _label, _key, width in compact.columns) + 1 <= 80
    cell = compact.row(1, "Ann", 2, "H", rows[0][0])[2]
    assert cell.plain.splitlines()[0] == "1/1" and cell.plain.splitlines()[1].startswith("D")


def test_the_scorekeeper_below_its_smallest_size(data_dir):
    store = ScoreStore()
    sheet = _sheet(["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jo"], max_size=2, hands=0)
    store.save("game", sheet)
    app = ScoreApp(store, sheet, "game")

    async def body():
        async with app.run_test(size=(70, 24)) as pilot:
            await wait_until(pilot, lambda: isinstance(app.screen, TooSmallScreen))
            assert "needs 80×16" in plain(app.screen.query_one("#too-small").content)
            await pilot.resize_terminal(80, 24)
            await wait_until(pilot, lambda: isinstance(app.screen, SheetScreen))

    run(body())
