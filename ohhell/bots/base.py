"""The one interface every bot has.

A bot is asked to act with the view of its seat (:class:`~ohhell.views.SeatView`), which
holds the rules, what the seat may know and its legal actions; it answers one of those
actions. Drivers (the arena, the server, the terminal app) ask:

* :meth:`Bot.choose` when the seat must act (its turn to bid or play, its secret bid
  under simultaneous bidding, or declaring a joker);
* :meth:`Bot.change_bid` when the seat may still change its bid (the bid-change window);
  ``None`` keeps the bid.

:meth:`Bot.suggest` returns the action with the bot's estimates (the hint button and
``ohhell suggest``).
"""

from __future__ import annotations

import abc
import random
import time
from dataclasses import dataclass, field
from typing import Any, ClassVar

from ohhell.actions import Action, Bid
from ohhell.views import SeatView


@dataclass(frozen=True)
class Budget:
    """How long a bot may think per decision: seconds, iterations (whichever ends first), or
    ``None`` for the bot's default."""

    seconds: float | None = None
    iterations: int | None = None

    def deadline(self, default_seconds: float) -> float:
        """The ``time.perf_counter()`` value at which to stop."""
        seconds = self.seconds if self.seconds is not None else default_seconds
        return time.perf_counter() + seconds


@dataclass(frozen=True)
class Suggestion:
    """A bot's choice with its estimates.

    ``estimates`` maps a short label of each candidate action (``"bid 2"``,
    ``"play AS"``) to a number, ``kind`` says what the number is
    (``"probability of making the bid"``, ``"expected score"``), and ``details``
    holds anything more (for a bid: the probability of each trick count).
    """

    action: Action
    estimates: dict[str, float] = field(default_factory=dict)
    kind: str = ""
    details: dict[str, Any] = field(default_factory=dict)


class Bot(abc.ABC):
    """Base class of bots. Subclasses implement :meth:`choose`."""

    name: ClassVar[str] = "bot"

    def __init__(self, seed: int | None = None, budget: Budget | None = None) -> None:
        self.seed = seed
        self.rng = random.Random(seed)
        self.budget = budget or Budget()

    @abc.abstractmethod
    def choose(self, view: SeatView) -> Action:
        """One of ``view.legal_actions`` (never a bid change unless it is the only kind)."""

    def change_bid(self, view: SeatView) -> Bid | None:
        """A bid change inside the bid-change window, or ``None`` to keep the bid."""
        return None

    def suggest(self, view: SeatView) -> Suggestion:
        """The action with estimates; by default just the action."""
        return Suggestion(self.choose(view))

    def game_over(self, view: SeatView) -> None:  # noqa: B027 - most bots need not know
        """Told once when the game ends, with the seat's final view (an external bot passes
        the result on to its program)."""

    def close(self) -> None:  # noqa: B027 - most bots hold nothing
        """Release anything the bot holds (an external process)."""

    def __repr__(self) -> str:
        return f"{type(self).__name__}(seed={self.seed!r})"


def forward_actions(view: SeatView) -> list[Action]:
    """The legal actions of the seat that move the game on (not a change of an earlier bid)."""
    if view.seat is None:
        return []
    changing = view.can_change_bid and view.turn != view.seat
    if changing:
        return []
    if view.can_change_bid:
        return [a for a in view.legal_actions if not isinstance(a, Bid)] or list(view.legal_actions)
    return list(view.legal_actions)
