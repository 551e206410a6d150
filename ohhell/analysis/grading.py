"""How much a decision cost, in words and as an accuracy figure.

A decision's **cost** is what the reviewing bot expects the seat to lose by it: the expected
points of the bot's best action minus those of the action taken (never below zero), both
estimated from the seat's own view at that moment.

Points mean different things under different scorings, so the cost is measured against the
**stake** of the hand for that seat: what making its bid is worth over missing it by one trick
(the better of one trick fewer and one more; :func:`stake`) — 10 + bid under the classic
scoring, where a made bid scores 10 + bid and a missed one nothing. The **loss** is the cost
as a percentage of the stake, at most 100: under the classic scoring it is exactly the chance
of making the bid that the decision gave away, in percentage points.

Labels (lichess names the same three steps inaccuracy, mistake and blunder):

=============  ==================
loss           label
=============  ==================
under 5        (none)
5 to 15        small slip
15 to 30       mistake
30 and more    blunder
=============  ==================

**Accuracy** of a decision, in per cent, is lichess's formula on the loss (lichess applies it
to the drop of the winning chance of a chess move):
``103.1668 × exp(−0.04354 × loss) − 3.1669``, kept within 0–100: a decision that loses
nothing scores 100, a loss of 5 about 80, of 15 about 50, of 30 about 25. A seat's accuracy
for the game is the mean over its decisions that were a real choice (more than one legal
action) and that the bot could evaluate.

>>> round(decision_accuracy(0.0), 1), round(decision_accuracy(15.0), 1), round(decision_accuracy(100.0), 1)
(100.0, 50.5, 0.0)
>>> label(3.0), label(5.0), label(20.0), label(45.0)
(None, 'slip', 'mistake', 'blunder')
>>> from ohhell.rules import preset
>>> stake(preset("classic"), 2, 3)
12.0
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Final, Literal

from ohhell.rules import Rules
from ohhell.scoring import hand_score

Label = Literal["slip", "mistake", "blunder"]

SLIP: Final = 5.0
"""The loss (per cent of the stake) from which a decision is a small slip."""
MISTAKE: Final = 15.0
"""The loss from which a decision is a mistake."""
BLUNDER: Final = 30.0
"""The loss from which a decision is a blunder."""

THRESHOLDS: Final = {"slip": SLIP, "mistake": MISTAKE, "blunder": BLUNDER}


def stake(rules: Rules, bid: int | None, size: int) -> float:
    """What making ``bid`` in a hand of ``size`` cards is worth over missing it by one trick
    (the better miss; at least 1 point); a seat that does not bid: the spread of its possible
    scores."""
    scores = [hand_score(rules, bid, tricks, size) for tricks in range(size + 1)]
    if bid is None or not 0 <= bid <= size:
        return float(max(1, max(scores) - min(scores)))
    misses = [scores[tricks] for tricks in (bid - 1, bid + 1) if 0 <= tricks <= size]
    return float(max(1, scores[bid] - max(misses))) if misses else 1.0


def loss(cost: float, stake_points: float) -> float:
    """The cost as a percentage of the stake, from 0 to 100."""
    if stake_points <= 0:
        return 0.0
    return min(100.0, max(0.0, 100.0 * cost / stake_points))


def label(loss_percent: float) -> Label | None:
    """The plain-words label of a decision that lost ``loss_percent`` of its stake."""
    if loss_percent >= BLUNDER:
        return "blunder"
    if loss_percent >= MISTAKE:
        return "mistake"
    if loss_percent >= SLIP:
        return "slip"
    return None


def decision_accuracy(loss_percent: float) -> float:
    """The accuracy of one decision (lichess's formula on the loss)."""
    value = 103.1668 * math.exp(-0.04354 * loss_percent) - 3.1669
    return min(100.0, max(0.0, value))


def game_accuracy(losses: Iterable[float]) -> float | None:
    """The mean accuracy of the decisions; ``None`` when there were none."""
    values = [decision_accuracy(value) for value in losses]
    return sum(values) / len(values) if values else None


__all__ = ["BLUNDER", "MISTAKE", "SLIP", "THRESHOLDS", "Label", "decision_accuracy", "game_accuracy", "label",
           "loss", "stake"]
