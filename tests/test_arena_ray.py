"""The arena on Ray: the same deals give the same results as with a process pool."""

from __future__ import annotations

import os

import pytest

from ohhell.arena import run_arena
from ohhell.rules import preset


def test_ray_gives_the_same_results_as_jobs() -> None:
    if os.environ.get("CI", "").lower() == "true":
        import ray  # noqa: F401  - in CI a missing Ray is a failure, not a skip
    else:
        pytest.importorskip("ray", reason="Ray is not installed (pip install -e '.[cluster]')")
    rules = preset("classic", players=4, schedule="explicit", hands=((5, "turn-up"), (3, "turn-up")))
    specs = ["basic", "random", "basic", "random"]
    seen: list[int] = []
    on_ray = run_arena(rules, specs, 4, seed=11, jobs=2, ray="local", progress=lambda deal: seen.append(deal.deal))
    in_pool = run_arena(rules, specs, 4, seed=11, jobs=2)
    assert sorted(seen) == [0, 1, 2, 3]  # the progress bar is told of every deal
    assert [bot.to_json() for bot in on_ray.bots] == [bot.to_json() for bot in in_pool.bots]
    assert [r.games for r in on_ray.deal_results] == [r.games for r in in_pool.deal_results]
