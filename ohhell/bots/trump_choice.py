"""Choosing trump as the highest bidder (``trump: chosen``, Al Okuneff's rules).

The chooser knows its own cards and every bid, nothing else. For each suit it estimates the
tricks its hand takes with that suit as trump (:func:`~ohhell.bots.heuristics.estimate_tricks`,
the bidding formula, with the bowers when they are played), turns the estimate into a chance of
each trick count, and takes the suit whose expected score for the bid it made is highest: the
suit that brings its tricks nearest its bid, not simply the most tricks (a chooser who bid low
against a higher bid may choose so as to stay low). Ties go to the larger estimate, then to the
first suit in S, H, D, C order, so the choice is deterministic.

>>> from ohhell.cards import mask_of, parse_cards
>>> from ohhell.rules import preset
>>> hand = mask_of(parse_cards("AH KH QH JH TH 2S 3S 4D 5D 6C"))
>>> estimates = trump_estimates(preset("okuneff"), hand, 10)
>>> max(estimates, key=estimates.__getitem__)  # hearts
1
"""

from __future__ import annotations

from ohhell import fastsim
from ohhell.actions import ChooseTrump
from ohhell.bots.heuristics import estimate_tricks, expected_scores, trick_distribution
from ohhell.cards import SUIT_MASKS, CardMask, Suit, mask_of
from ohhell.rules import Rules
from ohhell.views import SeatView

_LEFT_BOWERS = (9 + 13 * 3, 9 + 13 * 2, 9 + 13 * 1, 9 + 13 * 0)
"""The left bower of each trump suit (the jack of the other suit of its colour), as in the engine."""


def trump_cards(rules: Rules, suit: Suit) -> CardMask:
    """The cards that are trump when ``suit`` is chosen (the left bower too, with bowers)."""
    mask = SUIT_MASKS[suit]
    if rules.bowers:
        mask |= 1 << _LEFT_BOWERS[suit]
    return mask


def trump_estimates(rules: Rules, hand: CardMask, size: int) -> dict[Suit, float]:
    """The expected tricks of ``hand`` with each suit as trump, before a card is played."""
    unseen = rules.deck_mask & ~hand
    return {suit: estimate_tricks(hand, trump_cards(rules, suit), unseen, rules.players, size) for suit in range(4)}


def suit_values(view: SeatView) -> dict[Suit, float]:
    """Each suit's expected score for the chooser's bid (the chooser's view)."""
    seat = view.seat
    assert seat is not None
    rules = view.rules
    bid = view.bids[seat]
    row = fastsim.score_row(rules, bid, view.totals[seat], view.hand_size)
    estimates = trump_estimates(rules, _own_cards(view), view.hand_size)
    return {suit: expected_scores(trick_distribution(estimate, view.hand_size), {0: row})[0]
            for suit, estimate in estimates.items()}


def _own_cards(view: SeatView) -> CardMask:
    """The chooser's cards (none it can see in a blind hand: every suit is then alike)."""
    return 0 if view.blind else mask_of(view.hand)


def choose_trump(view: SeatView) -> tuple[ChooseTrump, dict[Suit, float]]:
    """The suit the chooser names, with each suit's expected score."""
    seat = view.seat
    assert seat is not None
    values = suit_values(view)
    estimates = trump_estimates(view.rules, _own_cards(view), view.hand_size)
    best = max(range(4), key=lambda suit: (round(values[suit], 9), round(estimates[suit], 9), -suit))
    return ChooseTrump(seat, best), values


__all__ = ["choose_trump", "suit_values", "trump_cards", "trump_estimates"]
