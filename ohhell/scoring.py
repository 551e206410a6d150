"""Scoring: pure functions of the rules, a bid, the tricks taken and the hand size.

>>> from ohhell.rules import preset
>>> classic = preset("classic")
>>> hand_score(classic, bid=4, tricks=4, size=10), hand_score(classic, bid=0, tricks=0, size=10)
(14, 10)
>>> hand_score(preset("contract-whist"), bid=3, tricks=4, size=10)
4
>>> hand_score(classic.replace(zero_bid="5-plus-size"), bid=0, tricks=0, size=7)
12
"""

from __future__ import annotations

from collections.abc import Sequence

from ohhell.rules import Rules


def hand_score(rules: Rules, bid: int | None, tricks: int, size: int) -> int:
    """The score of one seat for one hand.

    ``bid`` is ``None`` for a player who did not bid (Boerenbridge, at 80 or
    more): they score 1 per trick.

    >>> from ohhell.rules import preset
    >>> g = preset("german-bridge")
    >>> hand_score(g, 3, 3, 5), hand_score(g, 3, 1, 5)
    (19, -4)
    >>> t = preset("7-truf")
    >>> hand_score(t, 2, 2, 5), hand_score(t, 0, 0, 5), hand_score(t, 2, 3, 5)
    (20, 25, 3)
    >>> b = preset("boerenbridge")
    >>> hand_score(b, 2, 2, 13), hand_score(b, 0, 0, 13), hand_score(b, 2, 5, 13), hand_score(b, None, 4, 13)
    (12, 20, 5, 4)
    >>> p = preset("classic", scoring="triangular-penalty")
    >>> hand_score(p, 3, 3, 5), hand_score(p, 1, 4, 5)
    (19, -30)
    """
    scoring = rules.scoring
    if bid is None:
        return tricks
    if bid == tricks:
        if bid == 0:
            if rules.zero_bid == "5":
                return 5
            if rules.zero_bid == "5-plus-size":
                return 5 + size
            if scoring == "7-truf":
                return 5 * size
            if scoring == "boerenbridge":
                return 20
        if scoring == "exact":
            return 10 + bid
        if scoring in ("trick-plus-bonus", "boerenbridge"):
            return 10 + tricks
        if scoring in ("german-bridge", "triangular-penalty"):
            return 10 + bid * bid
        return 10 * bid  # 7-truf
    if scoring == "exact":
        return 0
    if scoring == "german-bridge":
        return -((bid - tricks) ** 2)
    if scoring == "triangular-penalty":
        miss = abs(bid - tricks)
        return -5 * miss * (miss + 1) // 2
    return tricks  # trick-plus-bonus, 7-truf, boerenbridge: 1 per trick


def add_to_total(rules: Rules, total: int, score: int) -> int:
    """The new total after a hand; past a target score it bounces back.

    >>> from ohhell.rules import preset
    >>> add_to_total(preset("boerenbridge"), 95, 8)
    97
    """
    new = total + score
    target = rules.target_score
    if target is not None and new > target:
        new = target - (new - target)
    return new


def bids_made(rules: Rules, total: int) -> bool:
    """Whether a player with ``total`` points bids (Boerenbridge: not from 80 on)."""
    return rules.no_bid_from is None or total < rules.no_bid_from


def winners(rules: Rules, totals: Sequence[int]) -> list[int]:
    """The winning seats of a finished game: the highest total, or everyone at the
    target score; several when tied.

    >>> from ohhell.rules import preset
    >>> winners(preset("classic"), [30, 41, 41, 7])
    [1, 2]
    """
    if rules.target_score is not None and rules.target_score in totals:
        best = rules.target_score
    else:
        best = max(totals)
    return [seat for seat, total in enumerate(totals) if total == best]


def settlement(totals: Sequence[int], stake: float = 1.0) -> list[float]:
    """What each player receives (positive) or pays (negative): the difference between
    their total and the average total, times the stake per point.

    >>> settlement([30, 10, 20])
    [10.0, -10.0, 0.0]
    """
    average = sum(totals) / len(totals)
    return [round((total - average) * stake, 10) for total in totals]


def payments(totals: Sequence[int], stake: float) -> list[tuple[int, int, float]]:
    """Who pays whom how much to settle :func:`settlement`: ``(payer, payee, amount)``.

    Each player who owes pays the players who receive, both taken in seat order, so that
    everyone pays or receives exactly their difference from the average, times the stake.

    >>> payments([30, 10, 20], 0.5)
    [(1, 0, 5.0)]
    >>> payments([40, 10, 10], 1)
    [(1, 0, 10.0), (2, 0, 10.0)]
    """
    nets = settlement(totals, stake)
    owing = [[seat, -net] for seat, net in enumerate(nets) if net < 0]
    owed = [[seat, net] for seat, net in enumerate(nets) if net > 0]
    out: list[tuple[int, int, float]] = []
    payer = payee = 0
    while payer < len(owing) and payee < len(owed):
        amount = min(owing[payer][1], owed[payee][1])
        if amount > 1e-9:
            out.append((int(owing[payer][0]), int(owed[payee][0]), round(amount, 10)))
        owing[payer][1] -= amount
        owed[payee][1] -= amount
        if owing[payer][1] <= 1e-9:
            payer += 1
        if owed[payee][1] <= 1e-9:
            payee += 1
    return out
