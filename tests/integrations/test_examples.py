"""Every script in ``examples/`` runs, with the smallest arguments, as a reader would run it (so
the examples cannot rot). An optional package a script needs that is missing skips its test,
with the reason, except under ``CI=true``, where it fails (``pip install -e .[examples]``)."""

from __future__ import annotations

import csv
import subprocess
import sys
from pathlib import Path

import pytest
from rl_support import require

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"

SMOKE_TESTED = {
    "train_maskable_ppo.py": "test_the_training_example_learns_saves_and_draws_its_curve",
    "leaderboard.py": "test_the_leaderboard_example_rates_the_levels_and_a_trained_policy",
    "openspiel_ismcts.py": "test_the_openspiel_ismcts_example_plays_its_games",
    "bots/simple_bot.py": "tests/test_external_bot.py (played in whole games there)",
}


def run_example(script: str, *arguments: str, cwd: Path, timeout: float = 240) -> str:
    result = subprocess.run([sys.executable, str(EXAMPLES / script), *arguments], cwd=cwd, capture_output=True,
                            text=True, timeout=timeout, check=False)
    assert result.returncode == 0, f"{script} failed:\n{result.stdout}\n{result.stderr}"
    return result.stdout


def test_every_example_script_has_a_smoke_test() -> None:
    scripts = {path.relative_to(EXAMPLES).as_posix() for path in EXAMPLES.rglob("*.py")}
    assert scripts == set(SMOKE_TESTED), "add a smoke test here for every new example script"


@pytest.fixture(scope="module")
def trained_policy(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The training example, for one rollout of 16 steps: it must evaluate, save and plot."""
    for module in ("torch", "sb3_contrib", "matplotlib"):
        require(module)
    out = tmp_path_factory.mktemp("ppo")
    output = run_example("train_maskable_ppo.py", "--steps", "16", "--envs", "1", "--rollout", "16",
                         "--eval-every", "1000000", "--eval-hands", "2", "--out", str(out), cwd=out)
    assert "basic in the learner's seat" in output and "(untrained)" in output
    return out


def test_the_training_example_learns_saves_and_draws_its_curve(trained_policy: Path) -> None:
    with open(trained_policy / "curve.csv", encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    assert rows and rows[0]["steps"] == "0"
    assert all(float(row["score_per_hand"]) >= -100 for row in rows)
    assert (trained_policy / "policy.zip").stat().st_size > 0
    assert (trained_policy / "learning_curve.png").read_bytes().startswith(b"\x89PNG")


def test_the_leaderboard_example_rates_the_levels_and_a_trained_policy(trained_policy: Path, tmp_path: Path) -> None:
    output = run_example("leaderboard.py", "--game", "hand", "--deals", "1", "--bots", "beginner,basic",
                         "--policy", str(trained_policy / "policy.zip"), cwd=tmp_path)
    ratings = output.split("| rank | bot |", 1)[1]
    for name in ("beginner", "basic", "ppo (example)"):
        assert f"| {name} |" in ratings
    assert "| beginner vs ppo (example) | 1 |" in output


def test_the_leaderboard_example_rates_the_learned_level_in_whole_classic_games(tmp_path: Path) -> None:
    require("numpy")
    output = run_example("leaderboard.py", "--deals", "1", "--bots", "random,learned", cwd=tmp_path, timeout=600)
    assert "| random vs learned | 1 |" in output and "| basic vs learned | 1 |" in output
    assert "| learned |" in output.split("| rank | bot |", 1)[1]


def test_the_leaderboard_example_refuses_an_unknown_level(tmp_path: Path) -> None:
    require("numpy")
    result = subprocess.run([sys.executable, str(EXAMPLES / "leaderboard.py"), "--bots", "basic,grandmaster"],
                            cwd=tmp_path, capture_output=True, text=True, timeout=60, check=False)
    assert result.returncode == 2 and "unknown bot grandmaster" in result.stderr


def test_the_openspiel_ismcts_example_plays_its_games(tmp_path: Path) -> None:
    require("pyspiel")
    output = run_example("openspiel_ismcts.py", "--players", "3", "--hand", "9", "--games", "2",
                         "--simulations", "10", "--knobs", '{"hook": false, "must_trump": true}', cwd=tmp_path)
    assert output.count("ISMCTS in seat") == 2
    assert "average score: ISMCTS" in output
