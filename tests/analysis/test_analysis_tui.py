"""The analysis on the terminal game's end screen (``a``)."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent.parent / "tui"))

from tui_helpers import run, static_text, wait_until

from ohhell.i18n import set_language
from ohhell.rules import preset
from ohhell.tui import analysis_screen
from ohhell.tui.analysis_screen import AnalysisScreen
from ohhell.tui.play_app import GameOverScreen, PlayApp
from ohhell.tui.session import PlaySession, TableOptions


def finished_session(tmp_path: Path) -> PlaySession:
    """A game of hands of 2, 1 and 2 cards, played to the end by random bots in every seat."""
    rules = preset("classic", players=3, max_size=2)
    session = PlaySession.new(rules, bots="random", seed=2, options=TableOptions(delay=0.0, window=0.0),
                              save_path=tmp_path / "game.json")
    state = session.state
    import random

    rng = random.Random(1)
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply(state.sample_chance(rng))
            continue
        actor = state.turn if state.turn is not None else state.actors()[0]
        legal = state.legal_actions(actor)
        state.apply(legal[rng.randrange(len(legal))])
    return session


def test_end_screen_shows_the_analysis(tmp_path, monkeypatch):
    monkeypatch.setattr(analysis_screen, "TERMINAL_BUDGET", 100)
    session = finished_session(tmp_path)
    app = PlayApp(session)

    async def body():
        async with app.run_test(size=(120, 40)) as pilot:
            await wait_until(pilot, lambda: isinstance(app.screen, GameOverScreen), what="the end screen")
            await pilot.press("a")
            assert isinstance(app.screen, AnalysisScreen)
            screen = app.screen
            await wait_until(pilot, lambda: screen.result is not None, timeout=60, what="the analysis")
            await pilot.pause()
            text = static_text(app, "#analysis")
            assert "accuracy" in text and session.names[0] in text and "Hand 3" in text
            await pilot.press("escape")
            assert isinstance(app.screen, GameOverScreen)

    run(body())


def test_leaving_stops_the_analysis(tmp_path, monkeypatch):
    stopped = []

    def slow_analysis(record, budget, progress):
        import time

        try:
            for done in range(1000):
                progress(done, 1000)
                time.sleep(0.01)
        except analysis_screen.AnalysisStopped:
            stopped.append(True)
            raise
        return {}

    monkeypatch.setattr(analysis_screen, "analyze_record", slow_analysis)
    session = finished_session(tmp_path)
    app = PlayApp(session)

    async def body():
        async with app.run_test(size=(120, 40)) as pilot:
            await wait_until(pilot, lambda: isinstance(app.screen, GameOverScreen), what="the end screen")
            await pilot.press("a")
            screen = app.screen
            await pilot.pause(0.2)
            await pilot.press("escape")
            assert isinstance(app.screen, GameOverScreen)
            await wait_until(pilot, lambda: bool(stopped), what="the analysis to stop")
            assert screen.result is None

    set_language("en")
    run(body())
