"""The options of ``ohhell play`` and ``ohhell score`` (the apps themselves are replaced by a
recorder: the pilot tests drive them)."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from ohhell.cli import main
from ohhell.rules import preset
from ohhell.scorekeeper import ScoreSheet, ScoreStore
from ohhell.tui.session import SPEEDS, PlaySession, TableOptions


@pytest.fixture
def played(monkeypatch):
    """Record the session ``ohhell play`` would run; the app "returns" its save path."""
    calls: list[PlaySession] = []

    def fake_run_play(session, new_session=None):
        calls.append(session)
        return str(session.save())

    monkeypatch.setattr("ohhell.tui.play_app.run_play", fake_run_play)
    return calls


@pytest.fixture
def scored(monkeypatch):
    calls: list[tuple] = []

    def fake_run_score(store, sheet=None, sheet_id=None, defaults=None):
        calls.append((store, sheet, sheet_id, defaults))

    monkeypatch.setattr("ohhell.tui.score_app.run_score", fake_run_score)
    return calls


def test_play_options_make_the_table(played, data_dir):
    result = CliRunner().invoke(main, ["play", "--players", "3", "--bots", "random", "--seed", "4", "--speed",
                                       "instant", "--take-back", "--set", "max_size=2", "--name", "Zoe"])
    assert result.exit_code == 0, result.output
    session = played[0]
    assert session.rules.players == 3 and session.rules.max_size == 2
    assert session.bot_level == "random" and session.seed == 4
    assert session.options.take_back and session.options.delay == SPEEDS["instant"]
    assert session.names[0] == "Zoe"
    assert "ohhell play --resume" in result.output and str(data_dir / "games") in result.output


def test_play_resume_the_last_game_or_a_file(played, data_dir, tmp_path):
    runner = CliRunner()
    result = runner.invoke(main, ["play", "--resume"])
    assert result.exit_code == 1 and "no saved game" in result.output
    runner.invoke(main, ["play", "--bots", "random", "--seed", "8", "--take-back"])
    result = runner.invoke(main, ["play", "--resume", "--speed", "slow"])
    assert result.exit_code == 0, result.output
    resumed = played[-1]
    assert resumed.seed == 8 and resumed.options.take_back and resumed.options.delay == SPEEDS["slow"]
    custom = tmp_path / "mine.json"
    PlaySession.new(preset("classic", players=5), bots="random", seed=2, options=TableOptions()).save(custom)
    result = runner.invoke(main, ["play", "--resume", str(custom)])
    assert result.exit_code == 0, result.output
    assert played[-1].rules.players == 5 and played[-1].save_path == custom


def test_play_refuses_bad_options(played):
    runner = CliRunner()
    assert runner.invoke(main, ["play", "--bots", "nonsense"]).exit_code == 1
    result = runner.invoke(main, ["play", "--set", "max_size=40"])
    assert result.exit_code == 2 and "max_size" in result.output
    assert runner.invoke(main, ["play", "--players", "9"]).exit_code == 2
    assert not played


def test_score_new_game_from_the_command_line_and_list(scored, data_dir):
    runner = CliRunner()
    result = runner.invoke(main, ["score", "--list"])
    assert result.exit_code == 0 and "No saved games" in result.output
    result = runner.invoke(main, ["score", "--names", "Ann, Bob,Cy", "--first-dealer", "2", "--set", "max_size=3"])
    assert result.exit_code == 0, result.output
    _store, sheet, sheet_id, _defaults = scored[-1]
    assert sheet.names == ["Ann", "Bob", "Cy"] and sheet.dealer == 1 and sheet.rules.max_size == 3
    listed = runner.invoke(main, ["score", "--list"])
    assert sheet_id in listed.output and "Ann, Bob, Cy" in listed.output
    assert runner.invoke(main, ["score", "--names", "A,B", "--players", "3"]).exit_code == 2


def test_score_resume(scored, data_dir):
    store = ScoreStore()
    sheet = ScoreSheet(preset("classic", players=3), ["A", "B", "C"])
    sheet.bid(1, 2)
    store.save("game-1", sheet)
    runner = CliRunner()
    result = runner.invoke(main, ["score", "--resume"])
    assert result.exit_code == 0, result.output
    assert scored[-1][2] == "game-1" and scored[-1][1].bids[1] == 2
    assert runner.invoke(main, ["score", "--resume", "nope"]).exit_code == 1
    runner.invoke(main, ["score"])
    assert scored[-1][1] is None  # no options: the list of saved games


def test_score_names_are_checked_with_a_message_about_the_names(scored, data_dir):
    runner = CliRunner()
    twice = runner.invoke(main, ["score", "--names", "A,A,B"])
    assert twice.exit_code == 2 and "--names" in twice.output and "same name: A, A" in twice.output
    two = runner.invoke(main, ["score", "--names", "A,B"])
    assert two.exit_code == 2 and "--names" in two.output and "give 3 to 10 names" in two.output
    assert "--players" not in two.output
    assert not scored


def test_score_says_how_to_go_on_after_quitting(monkeypatch, data_dir):
    monkeypatch.setattr("ohhell.tui.score_app.run_score", lambda *args, **kwargs: "20250101-abc")
    result = CliRunner().invoke(main, ["score", "--names", "Ann,Bob,Cy"])
    assert result.exit_code == 0, result.output
    assert "ohhell score --resume 20250101-abc" in result.output


def test_play_with_a_bots_name_gives_that_bot_another(played, data_dir):
    result = CliRunner().invoke(main, ["play", "--players", "4", "--bots", "random", "--name", "Ada"])
    assert result.exit_code == 0, result.output
    assert played[0].names == ("Ada", "Ben", "Cleo", "Dev")


def test_a_damaged_save_is_explained(played, data_dir, tmp_path):
    import json

    runner = CliRunner()
    broken = tmp_path / "broken.json"
    broken.write_text(json.dumps({"format": "ohhell-play/1", "seed": 1}), encoding="utf-8")
    result = runner.invoke(main, ["play", "--resume", str(broken)])
    assert result.exit_code == 1
    assert "is damaged and cannot be resumed: the game itself is missing from it." in result.output
    assert "'record'" not in result.output and "KeyError" not in result.output
    other = tmp_path / "other.json"
    other.write_text("[1, 2]", encoding="utf-8")
    assert "is not a game saved by ohhell play" in runner.invoke(main, ["play", "--resume", str(other)]).output
    folder = runner.invoke(main, ["play", "--resume", str(tmp_path)])
    assert "is a folder, not a saved game" in folder.output
    assert not played


def test_click_names_a_missing_file_in_the_language(tmp_path):
    result = CliRunner().invoke(main, ["--lang", "ru", "replay", str(tmp_path / "nonexist.json")])
    assert result.exit_code == 2 and "Файл" in result.output and "File" not in result.output
    result = CliRunner().invoke(main, ["--lang", "bg", "play", "--save", str(tmp_path)])
    assert result.exit_code == 2 and "File" not in result.output and "Файл" in result.output


def test_a_damaged_scoresheet_is_explained(scored, data_dir):
    folder = data_dir / "scoresheets"
    folder.mkdir(parents=True)
    (folder / "nothing.json").write_text('{"id": "nothing"}', encoding="utf-8")
    (folder / "broken.json").write_text("{broken", encoding="utf-8")
    runner = CliRunner()
    for name in ("nothing", "broken"):
        result = runner.invoke(main, ["score", "--resume", name])
        assert result.exit_code == 1 and "KeyError" not in result.output, result.output
        assert f"the saved game {name} is damaged: " in result.output and "is not a scoresheet" in result.output
    assert not scored
