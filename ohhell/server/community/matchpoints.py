"""Duplicate scoring: matchpoints of a hand played with the same cards at several tables.

For each hand, a seat gets **one matchpoint for every other table where the same seat scored
less with the same cards, and half a point for every table where it scored the same**. A
seat's matchpoints are compared with the most it could have had (the other tables that played
the hand), so a percentage says how it did against everyone who held its cards, whatever the
cards were. The plain total of points is kept beside it.

>>> matchpoints([12, 10, 12, 0])
[2.5, 1.0, 2.5, 0.0]
>>> matchpoints([7])
[0.0]
"""

from __future__ import annotations

import bisect
from collections.abc import Sequence


def matchpoints(scores: Sequence[int]) -> list[float]:
    """The matchpoints of one seat of one hand at each table, from its score at each table
    (sorted once: fast for a daily deal played thousands of times)."""
    ordered = sorted(scores)
    out = []
    for score in scores:
        below = bisect.bisect_left(ordered, score)
        equal = bisect.bisect_right(ordered, score) - below - 1
        out.append(below + 0.5 * equal)
    return out


def percentage(points: float, most: float) -> float | None:
    """Matchpoints as a share of the most possible (``None`` when nothing was compared).

    >>> percentage(3, 4), percentage(0, 0)
    (75.0, None)
    """
    return round(100 * points / most, 1) if most else None
