"""``ohhell suggest`` (issue 4, part 4)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from ohhell.bots.cli import suggest_for_state
from ohhell.cli import main
from ohhell.record import play_random_game, record_from_state, state_from_record
from ohhell.rules import preset


def _partial(bids: int, plays: int) -> dict[str, Any]:
    """The record of the first hand of a random game, cut after ``bids`` bids and ``plays`` cards."""
    record = record_from_state(play_random_game(preset("classic", players=4, max_size=4), seed=3))
    hand = dict(record["hands"][0])
    hand["bids"] = hand["bids"][:bids]
    hand["plays"] = hand["plays"][:plays] if bids == 4 else []
    return dict(record, hands=[hand])


def _write(tmp_path: Path, record: Any) -> str:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record) if not isinstance(record, str) else record, encoding="utf-8")
    return str(path)


def test_suggests_a_bid_with_the_chance_of_each(tmp_path: Path) -> None:
    path = _write(tmp_path, _partial(bids=2, plays=0))
    out = CliRunner().invoke(main, ["suggest", path, "--bot", "strong", "--json", "--iterations", "500"])
    assert out.exit_code == 0, out.output
    data = json.loads(out.output)
    state = state_from_record(_partial(bids=2, plays=0))
    assert data["seat"] == state.turn
    assert data["action"]["type"] == "bid"
    assert set(data["estimates"]) == {f"bid {b}" for b in range(5)}
    assert sum(data["details"]["tricks_distribution"].values()) == pytest.approx(1.0)


def test_suggests_a_card_in_words(tmp_path: Path) -> None:
    path = _write(tmp_path, _partial(bids=4, plays=2))
    out = CliRunner().invoke(main, ["suggest", path, "--iterations", "500"])
    assert out.exit_code == 0, out.output
    state = state_from_record(_partial(bids=4, plays=2))
    assert out.output.startswith(f"Seat {state.turn}: play ")


def test_the_hint_is_reproducible_and_legal() -> None:
    state = state_from_record(_partial(bids=4, plays=5))
    seat, first = suggest_for_state(state, "strong", seed=4)
    _seat, second = suggest_for_state(state, "strong", seed=4)
    assert first.action == second.action
    assert first.action in state.legal_actions(seat)


def test_broken_records_exit_1(tmp_path: Path) -> None:
    broken = _partial(bids=4, plays=2)
    broken["hands"][0]["plays"] = ["AS", "AS"]
    runner = CliRunner()
    assert runner.invoke(main, ["suggest", _write(tmp_path, broken)]).exit_code == 1
    assert runner.invoke(main, ["suggest", _write(tmp_path, "{not json")]).exit_code == 1
    out = runner.invoke(main, ["suggest", _write(tmp_path, {"format": "ohhell/9"}), "--json"])
    assert out.exit_code == 1 and json.loads(out.output)["error"]["kind"] == "bad-format"


def test_usage_problems_exit_2(tmp_path: Path) -> None:
    runner = CliRunner()
    finished = record_from_state(play_random_game(preset("classic", players=3, max_size=2), seed=1))
    assert runner.invoke(main, ["suggest", _write(tmp_path, finished)]).exit_code == 2
    path = _write(tmp_path, _partial(bids=2, plays=0))
    assert runner.invoke(main, ["suggest", path, "--bot", "grandmaster"]).exit_code == 2
    assert runner.invoke(main, ["suggest", path, "--seat", "0"]).exit_code == 2
    assert runner.invoke(main, ["suggest", str(tmp_path / "missing.json")]).exit_code == 2


def test_a_forced_move_says_why_and_a_seat_not_to_act_is_explained(tmp_path: Path) -> None:
    record = record_from_state(play_random_game(preset("classic", players=4, max_size=4), seed=3))
    hand = record["hands"][0]
    last_trick = dict(record, hands=[dict(hand, plays=hand["plays"][:13])])  # one card left each
    out = CliRunner().invoke(main, ["suggest", _write(tmp_path, last_trick), "--bot", "basic"])
    assert out.exit_code == 0, out.output
    assert "It is the only card left in the hand." in out.output
    early = _partial(bids=2, plays=0)
    state = state_from_record(early)
    other = (state.turn + 1) % 4
    out = CliRunner().invoke(main, ["suggest", _write(tmp_path, early), "--seat", str(other)])
    assert out.exit_code == 2
    assert f"seat {other} is not to act in this position: seat {state.turn} is, to bid." in out.output
    assert "Leave out --seat" in out.output
