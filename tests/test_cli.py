"""The ohhell command: replay's contract (output, errors, exit codes), rules and deal."""

import json
import subprocess
import sys

import pytest
from click.testing import CliRunner

from ohhell.cli import main
from ohhell.record import play_random_game, record_from_state
from ohhell.rules import PRESETS, preset


@pytest.fixture
def runner():
    return CliRunner()


def write(tmp_path, data, name="game.json"):
    path = tmp_path / name
    path.write_text(data if isinstance(data, str) else json.dumps(data))
    return str(path)


def test_replay_json_of_a_legal_record(runner, tmp_path):
    record = record_from_state(play_random_game(preset("classic", players=4), seed=2))
    result = runner.invoke(main, ["replay", write(tmp_path, record), "--json"])
    assert result.exit_code == 0
    out = json.loads(result.stdout)
    assert set(out) == {"complete", "hands", "totals", "winners"}
    assert out["complete"] is True and len(out["hands"]) == 19
    assert set(out["hands"][0]) == {"dealer", "size", "trump", "bids", "tricks", "scores"}


def test_replay_json_of_a_broken_record_exits_1_with_only_the_error_object(runner, tmp_path):
    record = record_from_state(play_random_game(preset("classic", players=4), seed=2))
    record["hands"][2]["bids"][0] = 99
    result = runner.invoke(main, ["replay", write(tmp_path, record), "--json"])
    assert result.exit_code == 1
    out = json.loads(result.stdout)
    assert out == {"error": {"hand": 2, "kind": "illegal-bid", "index": 0, "message": out["error"]["message"]}}
    assert "0 to 8" in out["error"]["message"]


def test_replay_of_bad_json_is_a_format_error(runner, tmp_path):
    result = runner.invoke(main, ["replay", write(tmp_path, "{not json"), "--json"])
    assert result.exit_code == 1
    assert json.loads(result.stdout)["error"]["kind"] == "bad-format"
    result = runner.invoke(main, ["replay", write(tmp_path, b"\xff\xfe".decode("latin-1")), "--json"])
    assert result.exit_code == 1


def test_replay_usage_problems_exit_2_with_nothing_on_stdout(tmp_path):
    for args in (["replay", str(tmp_path / "missing.json"), "--json"], ["replay", "--frobnicate"], ["replay"]):
        process = subprocess.run([sys.executable, "-m", "ohhell.cli", *args], capture_output=True, text=True)
        assert process.returncode == 2, args
        assert process.stdout == ""
        assert process.stderr


def test_replay_without_json_prints_a_scoresheet(runner, tmp_path):
    record = record_from_state(play_random_game(preset("classic", players=3), seed=2), names=["Ann", "Bob", "Cy"])
    result = runner.invoke(main, ["replay", write(tmp_path, record)])
    assert result.exit_code == 0
    assert "Ann" in result.stdout and "total" in result.stdout and "Winner" in result.stdout
    record["hands"][0]["plays"][0] = "ZZ"
    result = runner.invoke(main, ["replay", write(tmp_path, record)])
    assert result.exit_code == 1 and "bad-card" in result.stderr and result.stdout == ""


def test_rules_lists_and_explains_every_preset(runner):
    result = runner.invoke(main, ["rules"])
    assert result.exit_code == 0
    for name in PRESETS:
        assert name in result.stdout
        explained = runner.invoke(main, ["rules", name])
        assert explained.exit_code == 0, name
        for topic in ("Hands", "Trump", "Bidding", "Scoring"):
            assert topic in explained.stdout
    assert "hook" in runner.invoke(main, ["rules", "classic"]).stdout
    assert runner.invoke(main, ["rules", "bridge"]).exit_code == 2
    assert runner.invoke(main, ["rules", "7-truf", "--players", "5"]).exit_code == 2


def test_deal_prints_a_record_that_replays(runner, tmp_path):
    result = runner.invoke(main, ["deal", "--preset", "classic", "--players", "4", "--seed", "7"])
    assert result.exit_code == 0
    record = json.loads(result.stdout)
    assert record["format"] == "ohhell/1" and record["rules"] == {"preset": "classic", "players": 4}
    again = runner.invoke(main, ["deal", "--preset", "classic", "--players", "4", "--seed", "7"])
    assert again.stdout == result.stdout  # reproducible from the seed
    replayed = runner.invoke(main, ["replay", write(tmp_path, result.stdout), "--json"])
    assert json.loads(replayed.stdout)["complete"] is True


def test_deal_with_knobs_and_bad_knobs(runner):
    result = runner.invoke(main, ["deal", "--players", "3", "--seed", "1", "--set", "must_trump=true",
                                  "--set", "max_size=4"])
    assert result.exit_code == 0
    assert json.loads(result.stdout)["rules"] == {"preset": "classic", "players": 3, "max_size": 4,
                                                  "must_trump": True}
    bad = runner.invoke(main, ["deal", "--players", "7", "--set", "max_size=10"])
    assert bad.exit_code == 2 and "max_size" in bad.stderr


def test_players_and_preset_are_not_knobs(runner):
    result = runner.invoke(main, ["deal", "--set", "players=5"])
    assert result.exit_code == 2 and "--players" in result.stderr


def test_replay_text_errors_count_hands_and_positions_from_1_the_json_from_0(runner, tmp_path):
    record = record_from_state(play_random_game(preset("classic", players=4), seed=2))
    record["hands"][2]["bids"][1] = 99
    path = write(tmp_path, record)
    text = runner.invoke(main, ["replay", path])
    assert text.exit_code == 1 and "illegal-bid: hand 3, position 2:" in text.output
    data = json.loads(runner.invoke(main, ["replay", path, "--json"]).stdout)["error"]
    assert (data["hand"], data["index"]) == (2, 1)


def test_the_river_summary_says_the_largest_hands_the_schedule_deals(runner):
    listed = runner.invoke(main, ["rules"]).output
    line = next(line for line in listed.splitlines() if line.startswith("up-and-down-the-river"))
    assert "up to 15, 13, 10, 8 or 7 cards for 3 to 7 players" in line
    largest = [max(plan.size for plan in preset("up-and-down-the-river", players=n).hand_plans()) for n in range(3, 8)]
    assert largest == [15, 13, 10, 8, 7]
    assert "The classic rules:" in next(line for line in listed.splitlines() if line.startswith("classic "))
