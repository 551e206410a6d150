"""What a seat knows about the hidden cards, read from its view, and worlds consistent with it.

A bot sees a :class:`~ohhell.views.SeatView`, never the state. :class:`Knowledge` gathers
what the view implies about the hands of the others: the cards that cannot be anywhere else
(its own hand, the turned-up card, the cards played, the hands it may see under Devil's
Bridge), how many cards each seat still holds, and the suits a seat has shown it lacks by
failing to follow (with must-trump, failing to trump too; a forced joker lead under
high-low jokers shows a hand of jokers only).

:meth:`Knowledge.sample` deals the unseen cards into "worlds" (every seat's hand) that never
contradict any of it; :meth:`Knowledge.bid_weights` weighs worlds by how well each hand
explains the bid its seat made (bids are soft evidence).

>>> import random
>>> from ohhell.game import Game
>>> from ohhell.rules import preset
>>> from ohhell.views import seat_view
>>> state = Game(preset("classic", players=4)).new_initial_state(first_dealer=3)
>>> rng = random.Random(2)
>>> state.apply(state.sample_chance(rng)); state.apply(state.sample_chance(rng))
>>> knowledge = Knowledge.from_view(seat_view(state, 0))
>>> worlds = knowledge.sample(10, random.Random(1))
>>> all(world[0] == state.hands[0] for world in worlds), [w.bit_count() for w in worlds[0]]
(True, [10, 10, 10, 10])
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass

from ohhell import fastsim
from ohhell.bots.heuristics import estimate_tricks, trump_mask_of
from ohhell.cards import (
    CARD_COUNT,
    CARD_SUITS,
    FULL_SUIT_MASKS,
    HIDDEN_CARD,
    JOKERS_MASK,
    RED_JOKER,
    CardMask,
    card_colour,
)
from ohhell.views import SeatView

ROBUST_FLOOR = 0.15
"""The least share of a bid's likelihood that does not depend on the hand."""
DEFAULT_RANDOM_PRIOR = 0.2
"""The prior chance that an opponent bids and plays at random (before any evidence)."""

World = tuple[CardMask, ...]
"""Every seat's hand (the cards it holds now), indexed by seat."""


@dataclass(frozen=True)
class Knowledge:
    """What ``seat`` knows of the current hand (see the module docstring)."""

    seat: int
    players: int
    size: int
    deck: CardMask
    trump: CardMask
    turn_up: int | None
    known: tuple[CardMask, ...]
    """Cards known to be in each seat's hand now (its own hand; visible hands)."""
    counts: tuple[int, ...]
    """How many cards each seat holds now."""
    played: tuple[CardMask, ...]
    """The cards each seat has played in this hand."""
    excluded: tuple[CardMask, ...]
    """Cards each seat cannot hold (the suits it showed it lacks)."""
    unseen: CardMask
    """Cards that may be in any hand whose cards are not known, or in the stock."""

    @classmethod
    def from_view(cls, view: SeatView) -> Knowledge:
        """Read a seat's view (bidding, play or a joker declaration)."""
        if view.seat is None:
            raise ValueError("a spectator has no hand to reason from")
        rules = view.rules
        n = view.players
        seat = view.seat
        deck = rules.deck_mask
        trump = trump_mask_of(view.trump, view.turn_up, deck)
        known = [0] * n
        if not view.blind:
            for card in view.hand:
                known[seat] |= 1 << card
        for other, cards in view.visible_hands.items():
            for card in cards:
                if card != HIDDEN_CARD:
                    known[other] |= 1 << card
        played = [0] * n
        excluded = [0] * n
        high_low = rules.high_low_jokers
        tricks: list[tuple[tuple[int, int], ...]] = [trick.cards for trick in view.completed_tricks]
        if view.current_trick:
            tricks.append(view.current_trick)
        for trick_cards in tricks:
            led: int | None = None
            for index, (player, card) in enumerate(trick_cards):
                played[player] |= 1 << card
                if index == 0:
                    if high_low and card >= RED_JOKER:
                        # A joker is led only by a hand of jokers.
                        excluded[player] |= deck & ~JOKERS_MASK
                        led = None
                    else:
                        led = CARD_SUITS[card]
                    continue
                if high_low and card >= RED_JOKER:
                    continue  # a joker may be played to any trick: it shows nothing
                if led is None:
                    first = trick_cards[0][1]
                    if high_low and card_colour(card) == card_colour(first):
                        led = CARD_SUITS[card]  # the first card of the joker's colour sets the suit
                    continue
                if CARD_SUITS[card] != led:
                    excluded[player] |= FULL_SUIT_MASKS[led] & deck
                    if rules.must_trump and not trump >> card & 1:
                        excluded[player] |= trump
        seen = 0
        for mask in known:
            seen |= mask
        for mask in played:
            seen |= mask
        if view.turn_up is not None:
            seen |= 1 << view.turn_up
        for player in range(n):
            excluded[player] &= ~known[player]
        return cls(seat=seat, players=n, size=view.hand_size, deck=deck, trump=trump, turn_up=view.turn_up,
                   known=tuple(known), counts=tuple(view.hand_counts), played=tuple(played),
                   excluded=tuple(excluded), unseen=deck & ~seen)

    @property
    def fits_core(self) -> bool:
        """Whether the masks fit the C core's 64 bits (not so with Bust's second copies: the
        Python sampler and estimates take over)."""
        return fastsim.AVAILABLE and not self.deck >> 64

    # -- sampling -----------------------------------------------------------------------

    def _places(self) -> tuple[list[int], list[int], list[CardMask]]:
        """The seats whose hands are partly hidden, how many hidden cards each holds, and the
        cards each may hold; the stock is the last place (any card)."""
        seats: list[int] = []
        capacities: list[int] = []
        allowed: list[CardMask] = []
        for player in range(self.players):
            hidden = self.counts[player] - self.known[player].bit_count()
            if hidden > 0:
                seats.append(player)
                capacities.append(hidden)
                allowed.append(self.unseen & ~self.excluded[player])
        stock = self.unseen.bit_count() - sum(capacities)
        if stock < 0:
            raise ValueError("the view holds more hidden cards than the pack has left")
        capacities.append(stock)
        allowed.append(self.unseen)
        return seats, capacities, allowed

    def sample(self, count: int, rng: random.Random) -> list[World]:
        """Up to ``count`` worlds consistent with everything seen (fewer only when almost
        none exists)."""
        seats, capacities, allowed = self._places()
        if not seats:
            return [self.known] * count
        if self.fits_core:
            deals = fastsim.core.sample(self.unseen, tuple(capacities), tuple(allowed), count,
                                        rng.getrandbits(63), 20 * count + 100)
        else:
            deals = _sample_python(self.unseen, capacities, allowed, count, rng, 20 * count + 100)
        worlds = []
        for deal in deals:
            hands = list(self.known)
            for index, player in enumerate(seats):
                hands[player] |= deal[index]
            worlds.append(tuple(hands))
        return worlds

    def bid_evidence(self, worlds: Sequence[World], bids: Sequence[int | None], dealer: int | None = None,
                     hooked: bool = False, random_prior: Sequence[float] | None = None,
                     careful: dict[int, list[float]] | None = None) -> tuple[list[float], list[float]]:
        """Weigh worlds by the bids made so far, and judge each bidder.

        A seat is either *careful* — its bid is near what its hand (with the cards it has
        played) looks worth — or *random* (any bid alike): see :func:`bid_likelihoods`.
        ``random_prior[seat]`` is the prior chance of the second (from earlier hands).
        Returns the weight of each world (the product of the likelihoods of the bids in it)
        and each seat's posterior chance of being random. Seats whose hand this seat sees,
        and seats that did not bid, are not judged. ``careful[seat]``, when given, is how likely
        the seat's bid is from a careful player in each world (a learned model); otherwise it is
        the Gaussian around the hand's estimated worth."""
        n = self.players
        prior = list(random_prior) if random_prior is not None else [DEFAULT_RANDOM_PRIOR] * n
        randomness = [0.0] * n
        weights = [1.0] * len(worlds)
        others = [player for player in range(n)
                  if player != self.seat and bids[player] is not None
                  and self.known[player].bit_count() < self.counts[player]]
        if not worlds:
            return weights, [prior[p] if p != self.seat else 0.0 for p in range(n)]
        base_unseen = self.deck & ~(1 << self.turn_up if self.turn_up is not None else 0)
        for player in range(n):
            if player != self.seat and player not in others:
                randomness[player] = prior[player]
        for player in others:
            bid = bids[player]
            assert bid is not None
            if careful is not None and player in careful:
                factors, randomness[player] = mixed_likelihoods(careful[player], self.size, prior[player])
                for index, value in enumerate(factors):
                    weights[index] *= value
                continue
            hands = [world[player] | self.played[player] for world in worlds]
            if self.fits_core:
                estimates = fastsim.core.estimate(hands, self.trump, base_unseen, self.players, self.size)
            else:
                estimates = [estimate_tricks(hand, self.trump, base_unseen & ~hand, self.players, self.size)
                             for hand in hands]
            factors, randomness[player] = bid_likelihoods(bid, estimates, self.size, prior[player],
                                                          hooked and player == dealer)
            for index, value in enumerate(factors):
                weights[index] *= value
        return weights, randomness

    def bid_weights(self, worlds: Sequence[World], bids: Sequence[int | None], dealer: int | None = None,
                    forbidden_for_dealer: bool = False) -> list[float]:
        """The likelihood of the bids made so far in each world (see :meth:`bid_evidence`)."""
        return self.bid_evidence(worlds, bids, dealer, forbidden_for_dealer)[0]


def bid_likelihoods(bid: int, estimates: Sequence[float], size: int, prior: float, hooked_dealer: bool = False,
                    ) -> tuple[list[float], float]:
    """How likely ``bid`` is for each hand a seat may hold, given what each hand looks worth
    (``estimates``), and the seat's posterior chance of bidding at random.

    A careful bid is near the hand's worth (Gaussian, spread 0.55 + 0.06 × cards; half as wide
    again for a dealer under the hook, whose bid may be forced off its estimate); a random bid
    is any of the ``size + 1`` alike. The likelihood is the mixture of the two, with the
    random share never below :data:`ROBUST_FLOOR` so that no single bid rules a hand out.

    >>> likely, randomness = bid_likelihoods(1, [0.9, 0.1], size=1, prior=0.2)
    >>> likely[0] > likely[1], round(randomness, 3)
    (True, 0.224)
    """
    spread = (0.55 + 0.06 * size) * (1.5 if hooked_dealer else 1.0)
    norm = 1.0 / (math.sqrt(2 * math.pi) * spread)
    careful = [norm * math.exp(-((bid - e) ** 2) / (2 * spread * spread)) for e in estimates]
    return mixed_likelihoods(careful, size, prior)


def mixed_likelihoods(careful: Sequence[float], size: int, prior: float, floor: float = ROBUST_FLOOR,
                      ) -> tuple[list[float], float]:
    """A bid's likelihood for each hand a seat may hold when the seat bids carefully
    (``careful``: how likely the bid is from that hand) or at random (any of the ``size + 1``
    bids alike), and the seat's posterior chance of bidding at random; the random share never
    falls below ``floor`` (:data:`ROBUST_FLOOR`)."""
    uniform = 1.0 / (size + 1)
    evidence = sum(careful) / len(careful) if careful else 0.0
    p_random = prior * uniform
    p_careful = (1 - prior) * evidence
    posterior = p_random / (p_random + p_careful) if p_random + p_careful > 0 else prior
    share = max(posterior, floor)
    return [share * uniform + (1 - share) * value for value in careful], posterior


def resample(worlds: Sequence[World], weights: Sequence[float], count: int, rng: random.Random) -> list[World]:
    """``count`` worlds drawn in proportion to ``weights`` (systematic resampling: low variance,
    and every world with a large weight is kept)."""
    total = sum(weights)
    if not worlds or total <= 0:
        return list(worlds[:count])
    step = total / count
    point = rng.random() * step
    out: list[World] = []
    cumulative = 0.0
    for world, weight in zip(worlds, weights, strict=True):
        cumulative += weight
        while point < cumulative and len(out) < count:
            out.append(world)
            point += step
    while len(out) < count:
        out.append(worlds[-1])
    return out


def _sample_python(unknown: CardMask, capacities: Sequence[int], allowed: Sequence[CardMask], count: int,
                   rng: random.Random, tries: int) -> list[tuple[CardMask, ...]]:
    """The sampler of the C core in Python (used when the core is not built)."""
    cards = [card for card in range(CARD_COUNT) if unknown >> card & 1]
    options = {card: sum(1 for place, cap in enumerate(capacities) if cap and allowed[place] >> card & 1)
               for card in cards}
    out: list[tuple[CardMask, ...]] = []
    failures = 0
    while len(out) < count and failures <= tries:
        order = cards[:]
        rng.shuffle(order)
        order.sort(key=options.__getitem__)
        left = list(capacities)
        dealt = [0] * len(capacities)
        ok = True
        for card in order:
            eligible = [place for place in range(len(left)) if left[place] and allowed[place] >> card & 1]
            if not eligible:
                ok = False
                break
            pick = rng.choices(eligible, weights=[left[place] for place in eligible])[0]
            dealt[pick] |= 1 << card
            left[pick] -= 1
        if ok:
            out.append(tuple(dealt))
        else:
            failures += 1
    return out
