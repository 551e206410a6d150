"""Card sense shared by the bots: trick estimates for bidding, card power, chances to win.

:func:`estimate_tricks` is the same formula as the C core's (``estimate_tricks`` in
``ohhell/fastsim/_core.c``; ``tests/test_bots.py`` checks that they agree): a sum over the
hand of each card's chance to take a trick, from how many higher cards are unseen, how much
of the pack is dealt, the suit's length and the trumps held.

>>> from ohhell.cards import parse_cards, mask_of, SUIT_MASKS
>>> hand = mask_of(parse_cards("AS KS 2H 3D 4C"))
>>> round(estimate_tricks(hand, SUIT_MASKS[0], ((1 << 52) - 1) & ~hand, 4, 5), 2)
2.31
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

from ohhell.cards import (
    BLACK_JOKER,
    CARD_RANKS,
    CARD_SUITS,
    FIRST_COPY,
    FULL_SUIT_MASKS,
    JOKERS,
    RED_JOKER,
    SECOND_COPIES_MASK,
    SUIT_MASKS,
    CardMask,
    Suit,
    cards_of,
)

ONE_PACK: CardMask = (1 << FIRST_COPY) - 1
"""The cards of one pack and the jokers: no second copies (Bust's)."""


def trump_mask_of(trump: Suit | None, turn_up: int | None, deck: CardMask = ONE_PACK) -> CardMask:
    """The trump cards of a hand from its trump suit and turned card (a turned joker makes
    the other joker the only trump), among the cards of ``deck`` (give the pack of a Bust game
    for its second copies to count)."""
    if trump is None:
        return 0
    if trump == JOKERS:
        if turn_up == RED_JOKER:
            return 1 << BLACK_JOKER
        if turn_up == BLACK_JOKER:
            return 1 << RED_JOKER
        return SUIT_MASKS[JOKERS]
    return FULL_SUIT_MASKS[trump] & deck


def rank_of(card: int) -> int:
    return CARD_RANKS[card]


def _higher(card: int, same: CardMask) -> CardMask:
    """The cards of ``same`` (one suit, or the trumps) that rank above ``card``."""
    if card < FIRST_COPY and not same & SECOND_COPIES_MASK:
        return same & ~((1 << (card + 1)) - 1)  # one pack: a higher card of a suit is a higher number
    rank = CARD_RANKS[card]
    out = 0
    for other in cards_of(same):
        if CARD_RANKS[other] > rank:
            out |= 1 << other
    return out


def power(card: int, led: Suit | None, trump: CardMask) -> int:
    """How strongly ``card`` stands in a trick led with ``led``: 200 + rank for a trump,
    100 + rank for the led suit, 0 otherwise (a card leads a trick only with more power)."""
    if trump >> card & 1:
        return 200 + rank_of(card)
    if led is not None and CARD_SUITS[card] == led:
        return 100 + rank_of(card)
    return 0


def estimate_tricks(hand: CardMask, trump: CardMask, unseen: CardMask, players: int, size: int) -> float:
    """Expected tricks of ``hand`` before the bidding; ``unseen``: the cards that may be in
    the other hands (not the hand itself, not the turned card)."""
    unseen_count = unseen.bit_count()
    frac = min(1.0, (players - 1) * size / unseen_count) if unseen_count else 0.0
    trumps = (hand & trump).bit_count()
    total = 0.0
    for suit in range(5):
        mine = hand & FULL_SUIT_MASKS[suit]
        if not mine:
            continue
        length = mine.bit_count()
        # Highest first: by number within one pack (as the C core), by rank with second copies.
        order = sorted(cards_of(mine), reverse=True) if not mine & SECOND_COPIES_MASK else sorted(
            cards_of(mine), key=CARD_RANKS.__getitem__, reverse=True)
        for index, card in enumerate(order):
            is_trump = bool(trump >> card & 1)
            same = trump if is_trump else FULL_SUIT_MASKS[suit]
            higher = _higher(card, same & unseen)
            h = higher.bit_count()
            clear = (1.0 - frac) ** h
            guards = length - 1 - index
            if h == 0:
                p = 1.0
            elif guards >= h:
                p = clear + (1.0 - clear) * (0.75 if is_trump else 0.45)
            else:
                p = clear * (0.9 if is_trump else 0.6)
            if not is_trump:
                ruff = min(0.9, 0.08 * (players - 1) * (1 + index) * frac) if trump else 0.0
                p *= 1.0 - ruff
                if index >= 3:
                    p *= 0.5
            total += p
    if trumps > 0:
        for suit in range(4):
            if SUIT_MASKS[suit] & trump:
                continue
            length = (hand & FULL_SUIT_MASKS[suit]).bit_count()
            if size >= 4 and length == 0:
                total += 0.35 * (2 if trumps > 2 else trumps - 0.5) * frac
            elif size >= 4 and length == 1:
                total += 0.25 * frac
    # Centre the estimates: a random hand is worth its fair share, size / players, on average
    # (fitted on random deals of 3-7 players and 1-13 cards; without it small hands are
    # overvalued by about 0.25 tricks and 10-card hands undervalued by 0.75).
    total -= 0.27 - 0.0406 * size - 0.0303 * size * size / players + 0.00377 * size * players
    return min(max(total, 0.0), float(size))


def trick_distribution(estimate: float, size: int) -> list[float]:
    """The chance of taking each number of tricks 0 … ``size`` for a hand expected to take
    ``estimate``: binomial, as if each of the ``size`` tricks fell to the hand alike (never
    certain: nothing a heuristic estimates is).

    >>> [round(p, 3) for p in trick_distribution(1.0, 2)]
    [0.25, 0.5, 0.25]
    """
    if size <= 0:
        return [1.0]
    p = min(0.99, max(0.01, estimate / size))
    return [math.comb(size, k) * p ** k * (1.0 - p) ** (size - k) for k in range(size + 1)]


def expected_scores(distribution: Sequence[float], rows: Mapping[int, Sequence[float]]) -> dict[int, float]:
    """Each bid's expected score: ``rows[bid][tricks]`` (what the rules give the seat for each
    final count after that bid) weighed by the chance of each count.

    >>> expected_scores([0.5, 0.5], {0: [10.0, 0.0], 1: [0.0, 11.0]})
    {0: 5.0, 1: 5.5}
    """
    return {bid: sum(p * value for p, value in zip(distribution, row, strict=False)) for bid, row in rows.items()}


def sure_tricks(hand: CardMask, trump: CardMask, unseen: CardMask) -> int:
    """How many tricks ``hand`` takes whatever happens: its trumps that no unseen trump beats,
    counted from the top (the ace, then the king once the ace is accounted for, …).

    >>> from ohhell.cards import mask_of, parse_cards, SUIT_MASKS
    >>> hand = mask_of(parse_cards("AS KS 9S 2H"))
    >>> sure_tricks(hand, SUIT_MASKS[0], ((1 << 52) - 1) & ~hand)
    2
    """
    against = [rank_of(card) for card in cards_of(trump & unseen)]
    top = max(against, default=-1)
    count = 0
    for card in sorted(cards_of(hand & trump), key=rank_of, reverse=True):
        if rank_of(card) <= top:  # an equal joker played first would win
            break
        count += 1
    return count


def chance_none(pool: int, held: int, targets: int) -> float:
    """The chance that a hand of ``held`` cards drawn from ``pool`` cards holds none of
    ``targets`` particular cards of the pool (hypergeometric)."""
    if targets <= 0 or held <= 0:
        return 1.0
    if held > pool - targets:
        return 0.0
    return math.comb(pool - targets, held) / math.comb(pool, held)


def chance_beaten(card_power: int, led: Suit, trump: CardMask, possible: Sequence[CardMask],
                  held: Sequence[int], extra_beaters: CardMask = 0) -> float:
    """The chance that at least one of the seats still to play beats a card of power
    ``card_power`` in a trick led with ``led``: seat ``i`` holds ``held[i]`` cards from
    ``possible[i]`` (the unseen cards it may hold). A seat beats with a higher card of the
    led suit, or — when it has none of the led suit — with a higher trump;
    ``extra_beaters`` may be played whatever the seat holds (a joker that would be high)."""
    not_beaten = 1.0
    led_mask = FULL_SUIT_MASKS[led] if led is not None else 0
    for cards, count in zip(possible, held, strict=True):
        if count <= 0:
            continue
        pool = cards.bit_count()
        higher_led = 0
        higher_trump = 0
        for card in cards_of(cards & (led_mask | trump)):
            if power(card, led, trump) > card_power:
                if led_mask >> card & 1:
                    higher_led |= 1 << card
                else:
                    higher_trump |= 1 << card
        p_follow_high = 1.0 - chance_none(pool, count, higher_led.bit_count())
        p_void = chance_none(pool, count, (cards & led_mask).bit_count())
        rest = pool - (cards & led_mask).bit_count()
        p_ruff = p_void * (1.0 - chance_none(rest, count, higher_trump.bit_count())) if higher_trump else 0.0
        p_extra = 1.0 - chance_none(pool, count, (cards & extra_beaters).bit_count())
        p = min(1.0, p_follow_high + p_ruff + p_extra)
        not_beaten *= 1.0 - p
    return 1.0 - not_beaten
