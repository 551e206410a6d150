"""One seed, one deal, whatever the backend: the C core's dealing, replayed in Python for the engine.

The learning environments run a game either in the C batch core (``backend="fast"``) or on the
reference engine (``backend="engine"``), and choose between them from the rules and the
opponents. For a seed to pin the deals across set-ups, both backends must deal the same cards
from the same seed. The C core draws its chance from one splitmix64 stream per batch: the
first dealer (``below(players)``), then each hand's cards by a partial Fisher–Yates shuffle of
the pack in card-id order — only the cards dealt and the turned card are drawn — dealt one at a
time from the left of the dealer, the next card turned up. :class:`DealStream` is that stream
and that shuffle in Python; :func:`advance_chance` gives the engine its deals from it, as
:class:`~ohhell.actions.Deal` actions.

>>> from ohhell.integrations.core import Setup
>>> setup = Setup.create("classic", players=4, mode="hand", hand=7)
>>> stream = DealStream(5)
>>> state = new_state(setup, stream)
>>> advance_chance(setup, state, stream)
>>> state.dealer, [bin(cards).count("1") for cards in state.hands]   # hands are bit masks
(3, [3, 3, 3, 3])
>>> from ohhell.integrations.batched import BatchedGames
>>> int(BatchedGames(setup, n=1, seed=5).turn_up[0]) == state.turn_up   # the C core's deal
True
"""

from __future__ import annotations

import random
from typing import Final

from ohhell.actions import Deal
from ohhell.game import Game, Phase, State
from ohhell.integrations.core import Setup

MASK64: Final = 2**64 - 1
GAMMA: Final = 0x9E3779B97F4A7C15
"""splitmix64's increment (the golden ratio), as in ``ohhell/fastsim/_batch.c``."""


def seed_state(seed: int) -> int:
    """The 64-bit state a seed starts the stream at (``BatchedGames.seed`` uses the same)."""
    return (int(seed) * GAMMA + 0x632BE5AB) & MASK64


class DealStream:
    """The C batch core's random numbers (splitmix64) and its shuffle, in Python."""

    def __init__(self, seed: int) -> None:
        self.state = seed_state(seed)

    def next(self) -> int:
        """The next 64-bit number (``rng_next`` in C)."""
        self.state = (self.state + GAMMA) & MASK64
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """A number in ``0 … n-1`` (``rng_below`` in C: the top 32 bits, scaled)."""
        return ((self.next() >> 32) * n) >> 32

    def pack(self, deck: list[int], needed: int) -> list[int]:
        """``deck`` (card-id order) with its first ``needed`` places shuffled, as C deals."""
        cards = list(deck)
        for i in range(min(needed, len(cards))):
            j = i + self.below(len(cards) - i)
            cards[i], cards[j] = cards[j], cards[i]
        return cards

    def deal(self, state: State) -> Deal:
        """The next hand of ``state`` (at its shuffle) as the C core would deal it."""
        n, size = state.num_players, state.hand_size
        deck = sorted(state.game.deck)
        dealt = n * size
        cards = self.pack(deck, min(dealt + 1, len(deck)))
        hands: list[list[int]] = [[] for _ in range(n)]
        for i in range(dealt):
            hands[(state.dealer + 1 + i) % n].append(cards[i])
        plan = state.plan
        turns_up = plan is not None and plan.trump in ("turn-up", "turn-up-low-none") and len(deck) > dealt
        return Deal(tuple(tuple(hand) for hand in hands), cards[dealt] if turns_up else None)


def new_state(setup: Setup, stream: DealStream) -> State:
    """A new game of ``setup``, its first dealer drawn from ``stream`` (unless the set-up fixes it)."""
    dealer = setup.dealer if setup.dealer is not None else stream.below(setup.players)
    return Game(setup.rules).new_initial_state(first_dealer=dealer)


def advance_chance(setup: Setup, state: State, stream: DealStream) -> None:
    """Deal from ``stream`` until a player acts or the game is over (any other chance event —
    none in the games the environments set up — is drawn from the stream too)."""
    while state.is_chance_node() and not setup.is_truncated(state):
        if state.phase == Phase.SHUFFLE:
            state.apply(stream.deal(state))
        else:
            state.apply(state.sample_chance(random.Random(stream.next())))


__all__ = ["DealStream", "advance_chance", "new_state", "seed_state"]
