"""Levels named for people: a beginner and a casual player.

Both are the ``basic`` heuristic (:class:`~ohhell.bots.basic.BasicBot`) without its look-ahead,
with the mistakes people make rather than random ones (:class:`Foibles`):

* **misjudging a marginal bid**: the hand's worth is misread by a little (a normal error of
  ``bid_error`` tricks), which changes the bid only when the hand is near the line between
  two bids — and a little optimism about high cards;
* **forgetting which cards are out**: of the cards played more than ``recent`` tricks ago,
  each is remembered only with the chance ``memory`` (a forgotten ace still looks out there,
  a forgotten trump still looks dangerous), and a seat's void is forgotten as often;
* **playing by habit**: now and then (``habit``) the card a beginner reaches for — the
  highest card when it still wants tricks, the lowest when it does not — instead of the
  considered one.

Their strength is measured in the arena (docs/bots.md, "Levels"): each level is clearly
above the one below it.

>>> from ohhell.rules import preset
>>> from ohhell.bots.driver import play_game
>>> state = play_game(preset("classic", players=3, max_size=3), [BeginnerBot(seed=s) for s in range(3)], seed=2)
>>> state.is_terminal()
True
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import ClassVar

from ohhell.actions import Action, Play
from ohhell.bots.base import Budget
from ohhell.bots.basic import BasicBot, tricks_wanted
from ohhell.bots.heuristics import power
from ohhell.bots.knowledge import Knowledge
from ohhell.cards import CARD_RANKS, CARD_SUITS, JOKERS, RED_JOKER, SUIT_MASKS
from ohhell.views import SeatView


@dataclass(frozen=True)
class Foibles:
    """How a player errs (see the module)."""

    bid_error: float
    """The spread (standard deviation, in tricks) of the error in judging a hand's worth."""
    optimism: float
    """Tricks added for each ace and each trump honour (king, queen) held."""
    memory: float
    """The chance of remembering each card played before the last ``recent`` tricks (and a
    seat's void shown then)."""
    recent: int
    """How many of the last tricks are always remembered."""
    habit: float
    """The chance of playing the habitual card instead of the considered one."""


class PersonBot(BasicBot):
    """The basic heuristic with a person's :class:`Foibles`; its bids come from its own
    judgement of the hand (never from the look-ahead), its cards are checked by a look-ahead
    over :attr:`lookahead` deals only (none for a beginner)."""

    foibles: ClassVar[Foibles]
    lookahead: ClassVar[int] = 0

    def __init__(self, seed: int | None = None, budget: Budget | None = None) -> None:
        # People's levels deal the look-ahead's cards without reading the bids (a club
        # player's skill, issue 29): their strength is set by their foibles alone.
        super().__init__(seed=seed, budget=budget, worlds=self.lookahead, read_bids=False)

    def lookahead_bids(self, view: SeatView, bids: list[int]) -> dict[int, float] | None:
        return None

    def knowledge(self, view: SeatView) -> Knowledge:
        known = super().knowledge(view)
        foibles = self.foibles
        old_tricks = view.completed_tricks[:max(0, len(view.completed_tricks) - foibles.recent)]
        if not old_tricks or foibles.memory >= 1.0:
            return known
        forgotten = 0
        for trick in old_tricks:
            for player, card in trick.cards:
                if player != known.seat and self.rng.random() > foibles.memory:
                    forgotten |= 1 << card
        played = tuple(mask & ~forgotten for mask in known.played)
        excluded = tuple(mask if self.rng.random() <= foibles.memory else 0 for mask in known.excluded)
        return dataclasses.replace(known, unseen=known.unseen | forgotten, played=played, excluded=excluded)

    def estimate(self, view: SeatView) -> float:
        worth = super().estimate(view)
        if view.blind or view.hand_size <= 1:
            return min(1.0, max(0.0, worth + self.rng.gauss(0.0, self.foibles.bid_error / 2)))
        trump = self.knowledge(view).trump
        honours = sum(1 for card in view.hand if card < RED_JOKER and
                      (card % 13 == 12 or (trump >> card & 1 and card % 13 >= 10)))
        worth += self.foibles.optimism * honours + self.rng.gauss(0.0, self.foibles.bid_error)
        return min(float(view.hand_size), max(0.0, worth))

    def _play(self, view: SeatView, actions: list[Action]) -> Action:
        plays = [a for a in actions if isinstance(a, Play)]
        if len(plays) > 1 and self.rng.random() < self.foibles.habit:
            return self._habit(view, plays)
        return super()._play(view, actions)

    def _habit(self, view: SeatView, plays: list[Play]) -> Play:
        """The card reached for without thinking: the highest while tricks are wanted, else
        the lowest."""
        assert view.seat is not None
        trump = self.knowledge(view).trump
        led = view.trick_suit
        wanted = tricks_wanted(view, view.seat) > 0

        def strength(play: Play) -> tuple[int, int]:
            card = play.card
            suit = CARD_SUITS[card]
            return (power(card, led if led is not None else suit, trump),
                    13 if suit == JOKERS else CARD_RANKS[card] + (13 if SUIT_MASKS[suit] & trump else 0))

        return max(plays, key=strength) if wanted else min(plays, key=strength)


class BeginnerBot(PersonBot):
    """Misjudges many bids, forgets most of the cards played earlier in the hand, and often
    plays by habit."""

    name = "beginner"
    foibles = Foibles(bid_error=0.7, optimism=0.2, memory=0.35, recent=1, habit=0.3)


class CasualBot(PersonBot):
    """Misjudges the odd marginal bid and sometimes plays by habit, but thinks a little ahead
    (a look-ahead over a few deals) and remembers the cards."""

    name = "casual"
    foibles = Foibles(bid_error=0.45, optimism=0.1, memory=1.0, recent=2, habit=0.08)
    lookahead = 8


__all__ = ["BeginnerBot", "CasualBot", "Foibles", "PersonBot"]
