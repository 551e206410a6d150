"""``basic`` is worth its name (issue 20): clearly above a first attempt at a bot, the small
card-counting bot of ``tests/counting_bot.py``, in a seeded arena match."""

from __future__ import annotations

import math
import statistics

import pytest

from ohhell import fastsim
from ohhell.arena import run_arena
from ohhell.bots import BOT_LEVELS
from ohhell.rules import preset


@pytest.mark.skipif(not fastsim.AVAILABLE, reason="the C core is not built")
def test_basic_beats_the_card_counting_bot(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(BOT_LEVELS, "counting", "counting_bot:CountingBot")
    rules = preset("classic", players=4, max_size=5)
    result = run_arena(rules, ["basic", "counting", "basic", "counting"], games=12, seed=1)
    differences = []
    for deal in result.deal_results:
        scores: dict[str, list[int]] = {"basic": [], "counting": []}
        for game in deal.games:
            for seat in game:
                scores[seat.spec].extend(seat.hand_scores)
        differences.append(statistics.fmean(scores["basic"]) - statistics.fmean(scores["counting"]))
    mean = statistics.fmean(differences)
    half = 1.96 * statistics.stdev(differences) / math.sqrt(len(differences))
    assert mean - half > 0, (mean, half)
