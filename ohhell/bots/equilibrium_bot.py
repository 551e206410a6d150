"""The one-card equilibrium bidder as a bot (benchmarks/strength.py's one-card field): it bids
every one-card hand as :mod:`ohhell.bots.equilibrium` says, and plays everything else as the
club player, whose own one-card reading uses that module too (so the bot lives apart from it).
"""

from __future__ import annotations

from ohhell.actions import Action, Bid
from ohhell.bots.base import Bot, Budget, forward_actions
from ohhell.bots.basic import BasicBot
from ohhell.bots.equilibrium import covers, equilibrium_of, place_and_history
from ohhell.game import Phase
from ohhell.views import SeatView


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


__all__ = ["EquilibriumBot"]
