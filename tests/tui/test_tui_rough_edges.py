"""The terminal apps' rough edges of issue 27, each seen as a person sees it: at 80 × 24 (the
screen as text, a capture) and through Textual's pilot."""

from __future__ import annotations

import random
import re
from pathlib import Path

from click.testing import CliRunner
from tui_helpers import run, screen_text, static_text, type_number, wait_until

from ohhell.actions import Bid
from ohhell.analysis import analyze_record
from ohhell.cards import BLACK_JOKER, RED_JOKER
from ohhell.i18n import set_language
from ohhell.record import play_random_game, record_from_state
from ohhell.rules import preset
from ohhell.scorekeeper import ScoreSheet, ScoreStore
from ohhell.tui.analysis_screen import analysis_text
from ohhell.tui.play_app import GameScreen, HelpScreen, PlayApp, ScoresScreen
from ohhell.tui.play_app import minimum_size as play_minimum
from ohhell.tui.render import card_label
from ohhell.tui.score_app import EditHandScreen, KeysScreen, ScoreApp, SheetScreen
from ohhell.tui.score_app import minimum_size as score_minimum
from ohhell.tui.session import PlaySession, TableOptions

SMALL = (80, 24)
DOCS = Path(__file__).resolve().parents[2] / "docs" / "terminal.md"


def _session(tmp_path, players=4, max_size=None, bots="random", **options) -> PlaySession:
    rules = preset("classic", players=players) if max_size is None else preset("classic", players=players,
                                                                                max_size=max_size)
    return PlaySession.new(rules, bots=bots, seed=3, save_path=tmp_path / "game.json",
                           options=TableOptions(delay=0.0, window=0.0, **options))


def _play_on(session: PlaySession, hands: int | None = None) -> None:
    """Play ``hands`` hands (all: None) without the screen (random legal moves for the person)."""
    chooser = random.Random(1)
    while not session.state.is_terminal() and (hands is None or len(session.state.finished_hands) < hands):
        session.advance_chance()
        task = session.next_bot_task()
        if task is not None:
            session.apply_bot(task, session.run_task(task))
            continue
        session._apply(chooser.choice(session.view().legal_actions))


def _sheet_app(names=("Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus"), max_size=5):
    store = ScoreStore()
    sheet = ScoreSheet(preset("classic", players=len(names), max_size=max_size), list(names))
    sheet_id = store.new_id()
    store.save(sheet_id, sheet)
    return ScoreApp(store, sheet, sheet_id), sheet


def test_the_edit_dialog_shows_save_and_says_how_to_save_at_80_by_24(data_dir):
    app, sheet = _sheet_app()

    async def body():
        async with app.run_test(size=SMALL) as pilot:
            await wait_until(pilot, lambda: isinstance(app.screen, SheetScreen))
            await pilot.press("1", "enter", "e")
            await wait_until(pilot, lambda: isinstance(app.screen, EditHandScreen))
            await pilot.pause(0.1)
            screen = screen_text(app)
            assert "Ctrl+S or Enter saves, Esc cancels." in screen
            save = app.screen.query_one("#save")
            assert 0 < save.region.bottom <= SMALL[1], save.region  # the Save button is on screen
            assert "Gus" in screen and "Trump" in screen
            app.screen.query_one("#bid-2").value = "2"
            await pilot.press("ctrl+s")
            await wait_until(pilot, lambda: isinstance(app.screen, SheetScreen))
            assert sheet.bids[2] == 2

    run(body())


def test_the_score_sheet_keeps_its_headings_on_top_after_many_hands(tmp_path):
    session = _session(tmp_path)
    _play_on(session, 17)
    app = PlayApp(session)

    async def body():
        async with app.run_test(size=SMALL) as pilot:
            await wait_until(pilot, lambda: isinstance(app.screen, GameScreen))
            await pilot.press("p")
            await wait_until(pilot, lambda: isinstance(app.screen, ScoresScreen))
            await pilot.pause(0.2)
            lines = screen_text(app).splitlines()
            heading = next(index for index, line in enumerate(lines) if "Cards" in line)
            assert all(name in lines[heading] for name in session.names)
            assert re.search(r"\b17\s+\d+ ", "\n".join(lines[heading:])), "the last hand is in view"
            assert "bid/tricks and the total" in "\n".join(lines)
            # The headings and the hands line up: each name ends where its cells end.
            ends = [lines[heading].index(name) + len(name) for name in session.names]
            row = next(line for line in lines[heading + 1:] if re.search(r"\b17\s", line))
            for end in ends:
                assert row[end - 1] != " ", (row, end)

    run(body())


def test_the_analysis_table_fits_80_columns(tmp_path):
    state = play_random_game(preset("classic", players=4, max_size=2), seed=3)
    result = analyze_record(record_from_state(state), budget=100)
    from rich.console import Console

    console = Console(width=75, record=True, color_system=None)
    console.print(analysis_text(result, ("You", "Ada", "Ben", "Cleo"), 75))
    lines = console.export_text().splitlines()
    heading = next(index for index, line in enumerate(lines) if line.startswith("player"))
    assert "impossible" in lines[heading] and "accuracy" in lines[heading]
    for name in ("You", "Ada", "Ben", "Cleo"):
        row = next(line for line in lines[heading:] if line.startswith(name))
        assert len(row.split()) == 10, row  # every cell on the player's own line


def test_quitting_a_finished_game_does_not_offer_to_resume_it(monkeypatch, data_dir, tmp_path):
    from ohhell.cli import main

    def finished_game(session, new_session=None):
        _play_on(session)
        return str(session.save())

    monkeypatch.setattr("ohhell.tui.play_app.run_play", finished_game)
    result = CliRunner().invoke(main, ["play", "--players", "3", "--bots", "random", "--set", "max_size=1",
                                       "--speed", "instant"])
    assert result.exit_code == 0, result.output
    assert "--resume" not in result.output and "The game is over" in result.output


def test_the_header_names_the_bots_as_the_command_does_and_the_title_is_translated(tmp_path):
    session = _session(tmp_path, bots="expert", max_size=2)
    app = PlayApp(session)

    async def body():
        async with app.run_test(size=SMALL) as pilot:
            await wait_until(pilot, lambda: isinstance(app.screen, GameScreen))
            assert "bots: strong" in static_text(app, "#status")

    run(body())
    set_language("ru")
    try:
        russian = PlayApp(_session(tmp_path, max_size=2))

        async def in_russian():
            async with russian.run_test(size=SMALL) as pilot:
                await wait_until(pilot, lambda: isinstance(russian.screen, GameScreen))
                assert static_text(russian, "#status").startswith("Оу-хелл")

        run(in_russian())
    finally:
        set_language("en")


def test_a_hint_in_the_bid_change_window_says_to_keep_or_change_the_bid(tmp_path):
    session = _session(tmp_path, players=3, max_size=3)
    session.options.window = 30.0  # the bots wait while the person may change the bid
    app = PlayApp(session)

    async def body():
        async with app.run_test(size=SMALL) as pilot:
            await wait_until(pilot, lambda: isinstance(app.screen, GameScreen) and session.human_turn() == "bid")
            first = next(a.bid for a in session.view().legal_actions if isinstance(a, Bid))
            await type_number(pilot, first)
            assert session.human_may_change_bid() and session.human_turn() is None
            await pilot.press("h")
            await wait_until(pilot, lambda: "Hint:" in static_text(app, "#prompt") or "✗" in
                             static_text(app, "#prompt"), what="the hint")
            prompt = static_text(app, "#prompt")
            assert "failed" not in prompt and "nothing to do" not in prompt
            assert "keep your bid" in prompt or re.search(r"Hint: bid \d", prompt), prompt

    run(body())


def test_the_docs_give_the_sizes_the_apps_need():
    docs = DOCS.read_text(encoding="utf-8")
    for players in range(3, 8):
        width, height = play_minimum(preset("classic", players=players))
        assert f"{width} × {height}" in docs, (players, width, height)
    for players in (3, 10):
        width, height = score_minimum(players)
        assert f"{width} × {height}" in docs, (players, width, height)
    assert "needs 80×24" not in docs or play_minimum(preset("classic", players=4)) == (80, 24)


def test_the_keys_dialogs_say_how_to_close_them(tmp_path, data_dir):
    app, _sheet = _sheet_app()

    async def body():
        async with app.run_test(size=SMALL) as pilot:
            await wait_until(pilot, lambda: isinstance(app.screen, SheetScreen))
            await pilot.press("question_mark")
            await wait_until(pilot, lambda: isinstance(app.screen, KeysScreen))
            await pilot.pause(0.1)
            assert "Esc, Enter or ? closes this list." in screen_text(app)

    run(body())
    play = PlayApp(_session(tmp_path, max_size=2))

    async def in_play():
        async with play.run_test(size=SMALL) as pilot:
            await wait_until(pilot, lambda: isinstance(play.screen, GameScreen))
            await pilot.press("question_mark")
            await wait_until(pilot, lambda: isinstance(play.screen, HelpScreen))
            await pilot.pause(0.1)
            assert "Esc or Enter closes this." in screen_text(play)

    run(in_play())


def test_a_refusal_is_cleared_by_the_next_key_and_too_many_is_refused_as_typed(data_dir):
    app, sheet = _sheet_app(names=("Ann", "Bob", "Cy", "Dee"), max_size=3)

    async def body():
        async with app.run_test(size=SMALL) as pilot:
            await wait_until(pilot, lambda: isinstance(app.screen, SheetScreen))
            await pilot.press("1", "enter")  # Bob bids 1
            await pilot.press("9")  # Cy: more than the 3 cards, refused at once
            assert "Cy may bid 0 to 3." in static_text(app, "#message")
            assert app.screen.buffer == ""
            await pilot.press("down")  # any next key clears the old refusal
            assert static_text(app, "#message").strip() == ""
            for bid in (0, 1, 0):  # Cy, Dee, and Ann the dealer (not 1: the hook)
                await type_number(pilot, bid)
            assert all(bid is not None for bid in sheet.bids)
            await type_number(pilot, 2)  # Bob took 2 of the 3 tricks
            assert "(0–1)" in static_text(app, "#prompt")  # the range left, not (0–3)
            await pilot.press("2")
            assert "at most 1 is left" in static_text(app, "#message")
            assert app.screen.buffer == ""

    run(body())


def test_the_jokers_differ_by_more_than_colour():
    assert card_label(RED_JOKER) != card_label(BLACK_JOKER)
    assert {card_label(RED_JOKER), card_label(BLACK_JOKER)} == {"Jk1", "Jk2"}
    assert "Jk1" in DOCS.read_text(encoding="utf-8")
