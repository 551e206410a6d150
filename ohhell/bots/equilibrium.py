"""The one-card equilibrium bidder: a good bidder to measure against (issue 29).

In a hand of one card the bid is the only decision, and a seat's score depends on its own bid
and on whether its card takes the trick, which the deal alone decides. The equilibrium
(:class:`ohhell.analysis.one_card.Equilibrium`) gives every place, after every sequence of
earlier bids, the best bid of each card against the earlier places bidding by their own
equilibrium rules. This bot bids it; it is the field of good bidders in which
``benchmarks/strength.py --field one-card`` measures the strong bot, not a level people meet.
Every other decision (hands of more cards, the only card it holds) is the club player's
(:class:`~ohhell.bots.basic.BasicBot`).

>>> from ohhell.bots.driver import play_game
>>> from ohhell.rules import HandPlan, preset
>>> rules = preset("classic", players=3, schedule="explicit", hands=[HandPlan(1, "turn-up")])
>>> play_game(rules, [EquilibriumBot(seed=s) for s in range(3)], seed=4).is_terminal()
True
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ohhell.actions import Action, Bid
from ohhell.bots.base import Bot, Budget, forward_actions
from ohhell.bots.basic import BasicBot
from ohhell.bots.heuristics import trump_mask_of
from ohhell.game import Phase
from ohhell.rules import Rules
from ohhell.views import SeatView

if TYPE_CHECKING:
    from ohhell.analysis.one_card import Equilibrium


def covers(rules: Rules, view: SeatView) -> bool:
    """Whether the equilibrium knows this hand: one card, seen by its holder, bid 0 or 1 in
    turn or at once, and no high-low jokers (the one-card tables do not cover them)."""
    return view.hand_size == 1 and not view.blind and not rules.high_low_jokers and len(view.hand) == 1


def place_and_history(view: SeatView) -> tuple[int, tuple[int, ...]]:
    """The seat's place in the bidding (0 bids first) and the bids made before it, in order
    (none under simultaneous bidding: nobody hears a bid)."""
    assert view.seat is not None
    place = view.bid_order.index(view.seat)
    if view.rules.bidding == "simultaneous":
        return place, ()
    history = []
    for seat in view.bid_order[:place]:
        bid = view.bids[seat]
        if bid is None or bid not in (0, 1):
            raise ValueError(f"seat {seat} has no bid of 0 or 1 before seat {view.seat}")
        history.append(bid)
    return place, tuple(history)


def equilibrium_of(view: SeatView) -> Equilibrium:
    """The equilibrium of the view's one-card hand (its turned card and trump)."""
    from ohhell.analysis.one_card import Equilibrium

    return Equilibrium(view.rules, view.turn_up, trump_mask_of(view.trump, view.turn_up))


class EquilibriumBot(Bot):
    """Bids the one-card equilibrium; everything else as :class:`~ohhell.bots.basic.BasicBot`."""

    name = "equilibrium"

    def __init__(self, seed: int | None = None, budget: Budget | None = None) -> None:
        super().__init__(seed=seed, budget=budget)
        self._basic = BasicBot(seed=seed)

    def choose(self, view: SeatView) -> Action:
        actions = forward_actions(view)
        if view.phase == Phase.BIDDING and covers(view.rules, view) and len(actions) > 1:
            place, history = place_and_history(view)
            bid = equilibrium_of(view).bid(place, history, view.hand[0])
            chosen = next((a for a in actions if isinstance(a, Bid) and a.bid == bid), None)
            if chosen is not None:
                return chosen
        return self._basic.choose(view)


__all__ = ["EquilibriumBot", "covers", "equilibrium_of", "place_and_history"]
