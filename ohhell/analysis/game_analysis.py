"""The analysis of a game record: open-hand facts and a review of every decision.

:func:`analyze_record` takes an ``ohhell/1`` record (the JSON document, parsed) and returns
one JSON-able dictionary (its fields: ``docs/analysis.md``). It is what ``ohhell analyze``
prints with ``--json``, what the web app's history page and the terminal game's end screen
show; it runs in the caller's thread (the server calls it in a worker thread) and reports its
progress through a callback.

The work per hand: the open-hand facts (:mod:`ohhell.analysis.open_hands`) at the start of
its card play, and the review (:mod:`ohhell.analysis.review`) of every decision of every
seat, bots included, from the seat's view replayed to that moment. Hands kept as score sheets
(no deal) have neither.

``budget`` trades speed for depth: the reviewing strong bot runs ``budget`` simulations per
card decision (twice that per bid), and each open-hand search may visit
``budget × NODES_PER_BUDGET`` positions. The results depend only on the record, the budget and
the seed, not on ``jobs`` (hands analysed in parallel processes) nor on the machine.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any, Final

from ohhell.actions import Action, Bid, Declare, Play
from ohhell.analysis import grading, solver
from ohhell.analysis.open_hands import SeatFacts, seat_facts
from ohhell.analysis.review import Review, review
from ohhell.bots import make_bot
from ohhell.bots.base import Budget
from ohhell.cards import card_name, suit_letter
from ohhell.game import Game, Phase, State
from ohhell.record import state_from_record
from ohhell.views import seat_view

FORMAT: Final = "ohhell-analysis/1"
DEFAULT_BUDGET: Final = 10000
"""Strong-bot simulations per card decision by default."""
MIN_BUDGET: Final = 100
NODES_PER_BUDGET: Final = 1000
"""Open-hand search positions per query, per unit of budget (C solver)."""
PYTHON_NODES_PER_BUDGET: Final = 10
"""The same for the pure-Python solver, about a hundred times slower: big hands stay unsettled
rather than take hours."""
COSTLIEST: Final = 10
"""How many of the costliest decisions the result lists."""

Progress = Callable[[int, int], None]
"""Told ``(done, total)`` units of work as the analysis goes (a unit: a decision, or a hand's
open-hand facts)."""


@dataclass(frozen=True)
class Settings:
    """How deep the analysis goes (see the module)."""

    budget: int = DEFAULT_BUDGET
    seed: int = 0

    @property
    def solver_limit(self) -> int:
        return self.budget * (NODES_PER_BUDGET if solver.NATIVE else PYTHON_NODES_PER_BUDGET)


@dataclass
class HandAnalysis:
    """The analysis of one hand."""

    index: int
    facts: list[SeatFacts] | None = None
    reviews: list[Review] = field(default_factory=list)


def _replay(final: State) -> Iterator[tuple[State, Action]]:
    """The game of ``final`` replayed from the start: every action, with the state before it."""
    state = Game(final.rules).new_initial_state(None if final.draws else final.first_dealer)
    for action in final.history:
        yield state, action
        state.apply(action)


def _is_decision(state: State, action: Action) -> bool:
    return isinstance(action, (Bid, Play, Declare)) and state.phase in (Phase.BIDDING, Phase.PLAYING,
                                                                          Phase.DECLARING)


def work_per_hand(final: State) -> dict[int, int]:
    """Units of work of each hand that has a deal: its decisions, and one for its facts."""
    units: dict[int, int] = {}
    for state, action in _replay(final):
        if state.scoresheet or state.hand_index >= len(final.finished_hands):
            continue
        if _is_decision(state, action):
            units[state.hand_index] = units.get(state.hand_index, 0) + 1
    return {hand: count + 1 for hand, count in units.items()}


def _analyze_hand(final: State, hand: int, settings: Settings, tick: Callable[[], None]) -> HandAnalysis:
    result = HandAnalysis(hand)
    finished = final.finished_hands[hand]
    for state, action in _replay(final):
        if state.hand_index < hand:
            continue
        if state.hand_index > hand or state.is_terminal():
            break
        if (state.phase == Phase.PLAYING and not state.plays and result.facts is None
                and solver.covers(state.rules)):
            position = solver.OpenHand.from_state(state)
            result.facts = [seat_facts(position, seat, finished.bids[seat], finished.tricks[seat],
                                       settings.solver_limit) for seat in range(state.num_players)]
            tick()
        if not _is_decision(state, action) or not isinstance(action, (Bid, Play, Declare)):
            continue
        seat = action.seat
        view = seat_view(state, seat)
        index = len(result.reviews)
        # One bot per decision, seeded by the decision: the same answers in any order.
        bot = make_bot("strong", seed=settings.seed * 1_000_003 + hand * 1009 + index,
                       budget=Budget(iterations=settings.budget))
        trick = len(state.trick_winners) if not isinstance(action, Bid) else None
        result.reviews.append(review(bot, view, action, hand, trick))
        tick()
    return result


def _analyze_hand_job(record: Any, hand: int, settings: Settings) -> HandAnalysis:
    """One hand in a worker process (the record is replayed there)."""
    return _analyze_hand(state_from_record(record), hand, settings, lambda: None)


def analyze_record(record: Any, *, budget: int = DEFAULT_BUDGET, seed: int = 0, jobs: int = 1,
                   progress: Progress | None = None) -> dict[str, Any]:
    """The analysis of a game record (raises :class:`~ohhell.errors.RecordError` for a record
    that is not a legal ``ohhell/1`` game). ``jobs`` > 1 analyses hands in that many worker
    processes (not from a server's event loop: use a thread and ``jobs=1`` there)."""
    started = time.perf_counter()
    if budget < MIN_BUDGET:
        raise ValueError(f"the budget must be at least {MIN_BUDGET}")
    final = state_from_record(record)
    settings = Settings(budget=budget, seed=seed)
    units = work_per_hand(final)
    total = sum(units.values())
    done = 0

    def tick() -> None:
        nonlocal done
        done += 1
        if progress is not None:
            progress(done, total)

    if progress is not None:
        progress(0, total)
    hands = sorted(units)
    analyses: list[HandAnalysis] = []
    if jobs > 1 and len(hands) > 1:
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            futures = [pool.submit(_analyze_hand_job, record, hand, settings) for hand in hands]
            # Longest hands first would balance better; results are taken in order anyway.
            for hand, future in zip(hands, futures, strict=True):
                analyses.append(future.result())
                for _ in range(units[hand]):
                    tick()
    else:
        for hand in hands:
            analyses.append(_analyze_hand(final, hand, settings, tick))
    names = record.get("names") if isinstance(record, dict) else None
    return _result(final, analyses, settings, names, time.perf_counter() - started)


# ------------------------------------------------------------------------- the result


def _seat_summary(seat: int, name: str | None, reviews: Sequence[Review], facts: Sequence[SeatFacts],
                  made: int, bids: int) -> dict[str, Any]:
    mine = [r for r in reviews if r.seat == seat]
    choices = [r for r in mine if not r.forced]
    evaluated = [r for r in choices if r.loss is not None]
    accuracy = grading.game_accuracy(r.loss for r in evaluated if r.loss is not None)
    verdicts = [f.verdict for f in facts if f.seat == seat and f.bid is not None]
    return {
        "seat": seat, "name": name,
        "accuracy": round(accuracy, 1) if accuracy is not None else None,
        "decisions": len(mine), "choices": len(choices), "evaluated": len(evaluated),
        "slips": sum(1 for r in evaluated if r.label == "slip"),
        "mistakes": sum(1 for r in evaluated if r.label == "mistake"),
        "blunders": sum(1 for r in evaluated if r.label == "blunder"),
        "points_lost": round(sum(r.cost or 0.0 for r in evaluated), 2),
        "bids": {"made": made, "total": bids,
                 "sure": verdicts.count("sure"), "gamble": verdicts.count("gamble"),
                 "impossible": verdicts.count("impossible"), "unsettled": verdicts.count(None)},
    }


def _result(final: State, analyses: Sequence[HandAnalysis], settings: Settings, names: Any,
            seconds: float) -> dict[str, Any]:
    n = final.num_players
    seat_names = list(names) if isinstance(names, list) and len(names) == n else [None] * n
    hands_json = []
    all_reviews: list[Review] = []
    all_facts: list[SeatFacts] = []
    made = [0] * n
    bids = [0] * n
    by_index = {analysis.index: analysis for analysis in analyses}
    for result in final.finished_hands:
        analysis = by_index.get(result.index)
        for seat in range(n):
            if result.bids[seat] is not None:
                bids[seat] += 1
                made[seat] += result.bids[seat] == result.tricks[seat]
        entry: dict[str, Any] = {
            "index": result.index, "dealer": result.dealer, "size": result.size,
            "trump": suit_letter(result.trump) if result.trump is not None else None,
            "turn_up": card_name(result.turn_up) if result.turn_up is not None else None,
            "bids": list(result.bids), "tricks": list(result.tricks), "scores": list(result.scores),
            "open_hand": None, "decisions": [],
        }
        if analysis is not None:
            if analysis.facts is not None:
                entry["open_hand"] = [facts.to_json() for facts in analysis.facts]
                all_facts.extend(analysis.facts)
            entry["decisions"] = [r.to_json() for r in analysis.reviews]
            all_reviews.extend(analysis.reviews)
        hands_json.append(entry)
    costly = sorted((r for r in all_reviews if r.cost is not None and r.cost > 0 and r.loss is not None),
                    key=lambda r: (-(r.loss or 0.0), -(r.cost or 0.0), r.hand))[:COSTLIEST]
    return {
        "format": FORMAT,
        "rules": final.rules.to_json(),
        "players": n,
        "names": seat_names if any(seat_names) else None,
        "complete": final.is_terminal(),
        "totals": list(final.totals),
        "winners": final.winners(),
        "settings": {"bot": "strong", "budget": settings.budget, "seed": settings.seed,
                     "solver_limit": settings.solver_limit, "solver": "c" if solver.NATIVE else "python"},
        "thresholds": dict(grading.THRESHOLDS),
        "seats": [_seat_summary(seat, seat_names[seat], all_reviews, all_facts, made[seat], bids[seat])
                  for seat in range(n)],
        "hands": hands_json,
        "costliest": [r.to_json() for r in costly],
        "seconds": round(seconds, 2),
    }


__all__ = ["COSTLIEST", "DEFAULT_BUDGET", "FORMAT", "MIN_BUDGET", "NODES_PER_BUDGET", "Progress", "Settings",
           "analyze_record", "work_per_hand"]
