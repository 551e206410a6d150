"""The ``random`` bot: a uniformly random legal action (never changes a bid)."""

from __future__ import annotations

from ohhell.actions import Action
from ohhell.bots.base import Bot, forward_actions
from ohhell.views import SeatView


class RandomBot(Bot):
    """Plays uniformly at random among the legal actions that move the game on."""

    name = "random"

    def choose(self, view: SeatView) -> Action:
        actions = forward_actions(view)
        if not actions:
            raise ValueError(f"seat {view.seat} has nothing to do now")
        return actions[self.rng.randrange(len(actions))]
