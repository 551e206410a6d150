"""The review of one decision: the strong bot's evaluation from the seat's view at the time.

For a decision (a bid, a card, the declaration of a joker) the seat's view of the game just
before it (:func:`ohhell.views.seat_view` of the state replayed to that point: its own cards,
the turned card, the bids and cards so far, never the other hands) is handed to the strong
bot's :meth:`~ohhell.bots.base.Bot.suggest`. Its public answer (:class:`~ohhell.bots.base.Suggestion`)
holds, for each action it weighed, the expected points (``details["expected_score"]``) and,
once the seat has bid, the chance of making the bid (``estimates``). From it:

* **best**: the action the bot suggests, and its expected points and chance;
* **taken**: the same for the action the seat took;
* **cost**: best minus taken expected points, never below zero; **loss** and **label** as
  :mod:`ohhell.analysis.grading` defines them.

A decision with one legal action is *forced* (no cost, left out of the accuracy). When the bot
gives no number for the action taken (a heuristic answer, under rules its search does not
cover), the decision is *not evaluated*.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from ohhell.actions import Action, Bid, Declare, Play
from ohhell.analysis import grading
from ohhell.bots.base import Bot, Suggestion, forward_actions
from ohhell.cards import card_name
from ohhell.views import SeatView

Kind = Literal["bid", "play", "declare"]

PROBABILITY_KIND = "probability of making the bid"
"""The ``Suggestion.kind`` whose estimates are chances of making the bid."""


@dataclass(frozen=True)
class Review:
    """One decision and what the reviewing bot thought of it."""

    hand: int
    seat: int
    kind: Kind
    action: Action
    trick: int | None
    """For a card or a declaration: the trick (0-based) it was played to."""
    forced: bool
    best: Action | None
    taken_value: float | None
    best_value: float | None
    taken_chance: float | None
    best_chance: float | None
    cost: float | None
    loss: float | None
    label: grading.Label | None
    stake: float

    @property
    def evaluated(self) -> bool:
        return self.loss is not None

    def to_json(self) -> dict[str, Any]:
        return {"hand": self.hand, "seat": self.seat, "kind": self.kind, "action": action_text(self.action),
                "trick": self.trick, "forced": self.forced,
                "best": action_text(self.best) if self.best is not None else None,
                "taken_value": _round(self.taken_value), "best_value": _round(self.best_value),
                "taken_chance": _round(self.taken_chance), "best_chance": _round(self.best_chance),
                "cost": _round(self.cost), "loss": _round(self.loss), "label": self.label,
                "stake": self.stake}


def _round(value: float | None) -> float | None:
    return round(value, 4) if value is not None else None


def action_text(action: Action) -> str:
    """An action as the JSON shows it: a bid's number, a card's name (``TH``), ``high``/``low``.

    >>> action_text(Bid(0, 3)), action_text(Play(1, 21)), action_text(Declare(2, True))
    ('3', 'TH', 'high')
    """
    if isinstance(action, Bid):
        return str(action.bid)
    if isinstance(action, Play):
        return card_name(action.card)
    if isinstance(action, Declare):
        return "high" if action.high else "low"
    return str(action)


def kind_of(action: Action) -> Kind:
    if isinstance(action, Bid):
        return "bid"
    if isinstance(action, Play):
        return "play"
    return "declare"


def _labels(action: Action) -> list[str]:
    """The keys under which a bot's suggestion may name ``action``."""
    if isinstance(action, Bid):
        return [f"bid {action.bid}", str(action.bid)]
    if isinstance(action, Play):
        name = card_name(action.card)
        return [f"play {name}", name]
    if isinstance(action, Declare):
        word = "high" if action.high else "low"
        return [f"declare {word}", word]
    return [str(action)]


def _lookup(table: Mapping[str, Any], action: Action) -> float | None:
    for key in _labels(action):
        value = table.get(key)
        if isinstance(value, (int, float)):
            return float(value)
    return None


def values_of(suggestion: Suggestion, action: Action) -> tuple[float | None, float | None]:
    """The expected points and the chance of making the bid that ``suggestion`` gives
    ``action`` (``None`` where it gives none)."""
    expected_table = suggestion.details.get("expected_score")
    expected = _lookup(expected_table, action) if isinstance(expected_table, Mapping) else None
    chance = _lookup(suggestion.estimates, action) if suggestion.kind == PROBABILITY_KIND else None
    if expected is None and suggestion.kind == "expected score":
        expected = _lookup(suggestion.estimates, action)
    return expected, chance


def stake_of(view: SeatView, action: Action) -> float:
    """The stake of a decision (:func:`ohhell.analysis.grading.stake`): for a bid, that of
    ``action`` (the best bid); for a card, that of the seat's bid."""
    assert view.seat is not None
    bid = action.bid if isinstance(action, Bid) else view.bids[view.seat]
    return grading.stake(view.rules, bid, view.hand_size)


def review(bot: Bot, view: SeatView, action: Action, hand: int, trick: int | None) -> Review:
    """Review ``action`` taken by the seat of ``view``."""
    assert view.seat is not None
    kind = kind_of(action)
    choices = forward_actions(view)
    if len(choices) <= 1:
        return Review(hand, view.seat, kind, action, trick, True, action, None, None, None, None, 0.0, None, None,
                      stake_of(view, action))
    suggestion = bot.suggest(view)
    best = suggestion.action
    stake = stake_of(view, best)
    taken_value, taken_chance = values_of(suggestion, action)
    best_value, best_chance = values_of(suggestion, best)
    cost = loss = None
    label = None
    if taken_value is not None and best_value is not None:
        cost = max(0.0, best_value - taken_value)
        loss = grading.loss(cost, stake)
        label = grading.label(loss)
    return Review(hand, view.seat, kind, action, trick, False, best, taken_value, best_value, taken_chance,
                  best_chance, cost, loss, label, stake)


__all__ = ["PROBABILITY_KIND", "Kind", "Review", "action_text", "kind_of", "review", "stake_of", "values_of"]
