"""Open-hand facts of a hand: with every card face up, which bids each seat could make.

At the start of the card play (every bid in), for each seat: the trick counts it could make
**for certain** (forcible: whatever the others play), **only with help** (reachable in some
play of every seat, but not forcible) and **not at all** (impossible). Then the verdict on its
bid: a *sure thing*, a *gamble* or *impossible*.

The solver (:mod:`ohhell.analysis.solver`) is exact; a search that passes its node limit is
not guessed at: the whole set stays unknown (``None``) and the bid alone is asked about,
which is cheaper. A verdict that still cannot be settled is ``None``.

>>> from ohhell.cards import mask_of, parse_cards, SUIT_MASKS
>>> from ohhell.analysis.solver import OpenHand
>>> hands = tuple(mask_of(parse_cards(text)) for text in ("AH 2D", "KH 3D", "QS 4D"))
>>> position = OpenHand(players=3, hands=hands, trump=SUIT_MASKS[0], leader=0)
>>> facts = seat_facts(position, seat=0, bid=1, tricks=0, limit=0)
>>> sorted(facts.forcible), sorted(facts.reachable), facts.verdict
([0], [0, 1], 'gamble')
>>> sorted(facts.impossible)
[2]
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from ohhell.analysis.solver import OpenHand, SearchLimitReached, TrickCounts, forcible, reachable

Verdict = Literal["sure", "gamble", "impossible"]


@dataclass(frozen=True)
class SeatFacts:
    """What one seat could make with the cards face up, and what it bid and took."""

    seat: int
    size: int
    bid: int | None
    tricks: int
    forcible: TrickCounts | None
    """The counts the seat could force (``None``: not settled within the limit)."""
    reachable: TrickCounts | None
    """The counts it could reach with help (``None``: not settled)."""
    verdict: Verdict | None
    """Its bid: a sure thing, a gamble or impossible (``None``: no bid, or not settled)."""

    @property
    def with_help(self) -> TrickCounts | None:
        """Reachable but not forcible."""
        if self.forcible is None or self.reachable is None:
            return None
        return self.reachable - self.forcible

    @property
    def impossible(self) -> TrickCounts | None:
        """Counts no play at all gives the seat."""
        if self.reachable is None:
            return None
        return frozenset(range(self.size + 1)) - self.reachable

    def to_json(self) -> dict[str, Any]:
        def counts(value: TrickCounts | None) -> list[int] | None:
            return sorted(value) if value is not None else None

        return {"seat": self.seat, "bid": self.bid, "tricks": self.tricks, "sure": counts(self.forcible),
                "with_help": counts(self.with_help), "impossible": counts(self.impossible),
                "verdict": self.verdict}


def _settled(query: Any) -> Any:
    try:
        return query()
    except SearchLimitReached:
        return None


def seat_facts(position: OpenHand, seat: int, bid: int | None, tricks: int, limit: int) -> SeatFacts:
    """The open-hand facts of one seat at ``position`` (the start of the card play), each
    search stopped after ``limit`` positions (0: none)."""
    size = position.remaining + position.tricks[seat]
    force: TrickCounts | None = _settled(lambda: forcible(position, seat, limit=limit))
    reach: TrickCounts | None = _settled(lambda: reachable(position, seat, limit=limit))
    verdict: Verdict | None = None
    if bid is not None:
        sure = (bid in force) if force is not None else _settled(
            lambda: bool(forcible(position, seat, (bid,), limit=limit)))
        if sure:
            verdict = "sure"
        elif sure is not None:
            possible = (bid in reach) if reach is not None else _settled(
                lambda: bool(reachable(position, seat, (bid,), limit=limit)))
            if possible is not None:
                verdict = "gamble" if possible else "impossible"
    return SeatFacts(seat, size, bid, tricks, force, reach, verdict)


__all__ = ["SeatFacts", "Verdict", "seat_facts"]
