"""A game against bots without the screen: turns, bots, take-back, hints, saving and resuming."""

from __future__ import annotations

import json

import pytest

from ohhell.actions import Bid, Play
from ohhell.bots import Suggestion, bot_names
from ohhell.errors import IllegalActionError
from ohhell.rules import preset
from ohhell.tui.session import (
    SAVE_FORMAT,
    PlaySession,
    SessionError,
    TableOptions,
    describe_action,
    estimate_label,
    latest_save,
    strongest_bot,
)


def new(seed=9, players=3, max_size=3, **options) -> PlaySession:
    return PlaySession.new(preset("classic", players=players, max_size=max_size), bots="random", seed=seed,
                           options=TableOptions(delay=0.0, window=0.0, **options))


def step(session: PlaySession) -> None:
    """One move of the game: the person takes their first legal action, else a bot acts."""
    session.advance_chance()
    turn = session.human_turn()
    if turn is not None:
        legal = [a for a in session.view().legal_actions if isinstance(a, (Bid, Play))]
        action = legal[0]
        if isinstance(action, Bid):
            session.bid(action.bid)
        else:
            session.play(action.card)
        return
    task = session.next_bot_task()
    assert task is not None
    session.apply_bot(task, session.run_task(task))


def run_until(session: PlaySession, done) -> None:
    for _ in range(10_000):
        if done(session):
            return
        step(session)
    raise AssertionError("the game did not get there")


def dealt(hand: int):
    return lambda s: s.state.hand_index == hand and s.state.phase.name == "BIDDING"


def test_a_resumed_game_gets_the_same_cards(tmp_path):
    plain = new(seed=9)
    run_until(plain, dealt(2))
    expected = plain.record()["hands"]

    paused = new(seed=9)
    run_until(paused, lambda s: s.state.hand_index == 1 and len(s.state.plays) == 2)
    path = paused.save(tmp_path / "g.json")
    resumed = PlaySession.load(path, options=TableOptions(delay=0.0, window=0.0))
    assert resumed.record() == paused.record()
    run_until(resumed, dealt(2))
    # The deal of every hand comes from the seed and the hand's number, not from what happened before.
    assert resumed.record()["hands"][1]["deal"] == expected[1]["deal"]
    assert resumed.record()["hands"][2]["deal"] == expected[2]["deal"]


def test_the_save_file_holds_the_record_seeds_and_options(tmp_path):
    session = new(seed=3, take_back=True)
    run_until(session, lambda s: s.human_turn() == "play")
    path = session.save(tmp_path / "g.json")
    data = json.loads(path.read_text())
    assert data["format"] == SAVE_FORMAT
    assert (data["seed"], data["bots"], data["human"]) == (3, "random", 0)
    assert data["options"]["take_back"] is True
    assert data["record"]["format"] == "ohhell/1" and data["record"]["names"][0] == "You"
    again = PlaySession.load(path)
    assert again.options.take_back and again.bot_seed == session.bot_seed


def test_a_stale_bot_decision_is_dropped():
    session = new(seed=4)
    session.advance_chance()
    task = session.next_bot_task()
    while task is None or task.kind != "choose":
        step(session)
        task = session.next_bot_task()
    action = session.run_task(task)
    session.generation += 1  # something changed meanwhile
    assert not session.apply_bot(task, action)
    history = len(session.state.history)
    fresh = session.next_bot_task()
    assert session.apply_bot(fresh, session.run_task(fresh))
    assert len(session.state.history) == history + 1


def test_take_back_needs_the_table_option():
    off = new(seed=6)
    run_until(off, lambda s: s.human_turn() == "play")
    off.play(next(a.card for a in off.view().legal_actions if isinstance(a, Play)))
    with pytest.raises(SessionError):
        off.take_back()

    on = new(seed=6, take_back=True)
    run_until(on, lambda s: s.human_turn() == "play")
    hand = on.view().hand
    card = next(a.card for a in on.view().legal_actions if isinstance(a, Play))
    on.play(card)
    run_until(on, lambda s: s.human_turn() is not None or s.state.hand_index > 0)
    assert on.can_take_back()
    on.take_back()
    assert on.view().hand == hand and on.human_turn() == "play"


def test_illegal_actions_are_refused_with_the_engines_reason():
    session = new(seed=2)
    run_until(session, lambda s: s.human_turn() == "bid")
    with pytest.raises(IllegalActionError):
        session.bid(99)
    assert session.state.bids[0] is None


def test_hint_suggests_a_legal_action():
    session = new(seed=2)
    run_until(session, lambda s: s.human_turn() == "bid")
    suggestion = session.hint()
    assert isinstance(suggestion, Suggestion)
    assert suggestion.action in session.view().legal_actions


def test_the_hint_comes_from_the_strongest_bot_with_its_estimates_whoever_the_opponents_are():
    session = new(seed=2)  # random opponents
    run_until(session, lambda s: s.human_turn() == "bid")
    suggestion = session.hint()
    assert suggestion.kind == "probability of making the bid"
    assert set(suggestion.estimates) == {f"bid {a.bid}" for a in session.view().legal_actions}
    assert all(0.0 <= value <= 1.0 for value in suggestion.estimates.values())


def test_latest_save_is_the_newest_unfinished_game(tmp_path, data_dir):
    assert latest_save() is None
    older = new(seed=1)
    older.advance_chance()
    first = older.save()
    finished = new(seed=2, players=3, max_size=1)
    run_until(finished, lambda s: s.state.is_terminal())
    done = finished.save()
    assert first.parent == done.parent == data_dir / "games"
    assert latest_save() == first


def test_damaged_saves_are_refused(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    with pytest.raises(SessionError):
        PlaySession.load(bad)
    bad.write_text(json.dumps({"format": "something else"}))
    with pytest.raises(SessionError):
        PlaySession.load(bad)
    with pytest.raises(SessionError):
        PlaySession.load(tmp_path / "missing.json")


def test_words_for_the_log_and_the_bots():
    names = ("You", "Ada", "Ben")
    assert describe_action(Bid(1, 2), names) == "Ada bids 2"
    assert describe_action(Bid(0, 2), names, you=0) == "You bid 2"
    assert describe_action(Play(2, 51), names) == "Ben plays A♣"
    assert estimate_label("play TH") == "10♥" and estimate_label("bid 3") == "bid 3"
    assert strongest_bot() in bot_names()
    with pytest.raises(SessionError):
        PlaySession.new(preset("classic", players=3), bots="no-such-bot")


@pytest.mark.parametrize("name", ["classic", "boerenbridge", "ne-blackout", "devils-bridge", "kachuful",
                                  "la-podrida", "jokers"])
def test_every_preset_moves_on_to_the_end_of_two_hands(name):
    """The person or a bot can always act: no preset leaves the table waiting for nobody."""
    from ohhell.actions import Declare
    from ohhell.rules import find_preset

    players = 5 if 5 in find_preset(name).players else 4
    knobs = {"max_size": 3} if name in ("classic", "kachuful", "la-podrida", "jokers", "devils-bridge") else {}
    session = PlaySession.new(preset(name, players=players, **knobs), bots="random", seed=12,
                              options=TableOptions(delay=0.0, window=0.0))
    rng = __import__("random").Random(1)
    seen = set()
    for _ in range(2000):
        session.advance_chance()
        if session.state.is_terminal() or len(session.state.finished_hands) >= 2:
            break
        view = session.view()
        turn = session.human_turn()
        seen.add(turn)
        if turn is not None:
            action = rng.choice([a for a in view.legal_actions if isinstance(a, (Bid, Play, Declare))
                                 and not (isinstance(a, Bid) and turn != "bid")])
            if isinstance(action, Bid):
                session.bid(action.bid)
            elif isinstance(action, Play):
                session.play(action.card)
            else:
                session.declare(action.high)
            continue
        task = session.next_bot_task()
        assert task is not None, f"nobody may act in {session.state!r}"
        session.apply_bot(task, session.run_task(task))
    else:
        raise AssertionError("the game did not move on")
    assert {"bid", "play"} <= seen


def test_the_bots_are_told_once_that_the_game_is_over():
    session = new(seed=2, players=3, max_size=1)
    told = []
    for seat, bot in session.bots.items():
        bot.game_over = lambda view, seat=seat: told.append((seat, view.game_over))  # type: ignore[method-assign]
    session.tell_game_over()
    assert told == []  # not before the end
    run_until(session, lambda s: s.state.is_terminal())
    session.tell_game_over()
    session.tell_game_over()
    assert sorted(told) == [(1, True), (2, True)]


def test_the_table_says_the_game_is_over_once_it_is_not_that_cards_are_being_dealt():
    from rich.console import Console

    from ohhell.tui.widgets import table_panel

    session = new(seed=4, players=3, max_size=1)
    run_until(session, lambda s: s.state.is_terminal())
    console = Console(width=80, record=True)
    console.print(table_panel(session.view()))
    text = console.export_text()
    assert "The game is over." in text and "being dealt" not in text
