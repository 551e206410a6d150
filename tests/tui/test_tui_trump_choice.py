"""`ohhell play` under Al Okuneff's rules: the highest bidder (here the person) chooses trump."""

from __future__ import annotations

from tui_helpers import log_text, plain, run, static_text, wait_until

from ohhell.actions import Bid, Deal
from ohhell.cards import parse_cards
from ohhell.game import Game, Phase
from ohhell.rules import preset
from ohhell.tui.play_app import GameScreen, PlayApp
from ohhell.tui.session import PlaySession, TableOptions
from ohhell.tui.widgets import ChoiceBar, table_panel

SIZE = (120, 40)


def _session(tmp_path, bids: tuple[int, int, int]) -> PlaySession:
    """Three players, two cards each, you (seat 0) the dealer; seats 1, 2, 0 bid ``bids``."""
    rules = preset("okuneff", players=3, schedule="down", max_size=2)
    state = Game(rules).new_initial_state(first_dealer=0)
    state.apply(Deal(tuple(tuple(parse_cards(text)) for text in ("AH KH", "2S 3S", "4D 5C"))))
    for seat, bid in zip((1, 2, 0), bids, strict=True):
        state.apply(Bid(seat, bid))
    return PlaySession(rules, bots="basic", seed=1, bot_seed=1, state=state,
                       options=TableOptions(delay=0.0, window=0.0), save_path=tmp_path / "p.json")


def test_the_person_chooses_trump_with_the_keyboard(tmp_path):
    session = _session(tmp_path, (0, 0, 1))
    assert session.state.phase == Phase.CHOOSING_TRUMP and session.human_turn() == "trump"
    app = PlayApp(session)

    async def body():
        async with app.run_test(size=SIZE) as pilot:
            await wait_until(pilot, lambda: isinstance(app.screen, GameScreen) and app.screen.choices.active)
            assert "choose the trump suit" in static_text(app, "#prompt")
            bar = plain(app.screen.query_one(ChoiceBar).render())
            assert "♠ spades" in bar and "♣ clubs" in bar
            await pilot.press("h", "enter")
            await wait_until(pilot, lambda: session.state.trump is not None)
            assert session.state.trump == 1
            assert "You choose ♥ hearts as trump" in log_text(app.screen)

    run(body())


def test_a_bot_chooses_and_the_table_says_who_chose(tmp_path):
    session = _session(tmp_path, (1, 0, 0))  # seat 1 bid highest
    panel = plain(table_panel(session.view()))
    assert "Trump: " in panel and "chooses" in panel
    app = PlayApp(session)

    async def body():
        async with app.run_test(size=SIZE) as pilot:
            await wait_until(pilot, lambda: session.state.trump is not None, what="the bot's choice")
            assert "chooses" in log_text(app.screen) and "as trump" in log_text(app.screen)
            assert "(chosen by" in plain(table_panel(session.view()))

    run(body())
