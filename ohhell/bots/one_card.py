"""One-card hands, exactly: the chance that a seat's card takes the only trick.

In a hand of one card nobody chooses a card: every seat plays the card it was dealt, so
whether a seat takes the trick depends on the deal alone, and the bid is the only decision.
Sampling worlds answers that with an error of a few per cent (enough to bid 1 on a card that
wins 47% of the time, where 0 scores more); here the chance is counted exactly, as the
published one-card tables do, over every way the unseen cards can lie.

A seat's card ``m`` takes the trick when every card played before it is weaker and no card
played after it is stronger (of two equally strong jokers the first played wins). When the
seat leads, the others' cards are a uniformly random draw from the unseen cards, so the
chance is a ratio of falling factorials; otherwise the leader's card fixes the led suit and
the count is made for each card the leader may hold.

Bids already made are soft evidence (:meth:`~ohhell.bots.knowledge.Knowledge.bid_factors`):
each bidder's card is then weighed by how well it explains the bid. The weighted count over
deals in which no card is held twice is exact by inclusion and exclusion over the ways the
bidders could share a card (:func:`distinct_sum`): its work grows as 2^k plus the set
partitions of the k bidders, about 30 ms for the six others at a table of seven (the most
any preset seats).

>>> from math import comb
>>> from ohhell.cards import SUIT_MASKS, parse_card
>>> spades = SUIT_MASKS[parse_card("2S") // 13]
>>> unseen = ((1 << 52) - 1) & ~(1 << parse_card("KS")) & ~(1 << parse_card("9S"))
>>> chance = win_chance(parse_card("KS"), spades, unseen, position=0, players=4)
>>> chance == comb(49, 3) / comb(50, 3)  # loses only to the ace of trumps
True
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from itertools import combinations

from ohhell.bots.heuristics import power
from ohhell.cards import CardMask

Weights = Mapping[int, float]
"""A seat's weight for each card it may hold (missing: weight 1)."""


def _suit(card: int) -> int:
    return card // 13


def _falling(n: int, k: int) -> int:
    out = 1
    for i in range(k):
        out *= n - i
    return out


def win_chance(card: int, trump: CardMask, unseen: CardMask, position: int, players: int,
               weights: Sequence[Weights | None] | None = None) -> float:
    """The chance that ``card`` takes a one-card trick.

    ``position``: where the seat plays in the trick (0 leads); ``players``: cards in the
    trick; ``unseen``: the cards each other seat may hold (the rest of them stay in the
    stock). ``weights``, by position in the trick (the seat's own entry is ignored), weigh
    each card a seat may hold — the evidence of its bid; ``None``: every card alike.

    >>> from ohhell.cards import parse_card, SUIT_MASKS
    >>> deck = (1 << 52) - 1
    >>> five = parse_card("5D")
    >>> # Leading the 5 of diamonds with spades trump and no turned card, against three:
    >>> # 29 of the 51 unseen cards lose to it (the relevantmisc.com table).
    >>> spades = SUIT_MASKS[parse_card("2S") // 13]
    >>> round(win_chance(five, spades, deck & ~(1 << five), 0, 4), 12) == round(29 * 28 * 27 / (51 * 50 * 49), 12)
    True
    """
    cards = [c for c in range(54) if unseen >> c & 1]
    before = list(range(1, position)) if position > 0 else []
    after = list(range(position + 1, players))
    others = ([0] if position > 0 else []) + before + after
    if len(cards) < len(others):
        raise ValueError("fewer unseen cards than seats to hold them")
    weighed = weights is not None and any(weights[p] is not None for p in others)
    if not weighed:
        return _uniform(card, trump, cards, position, len(before), len(after))
    assert weights is not None
    return _weighed(card, trump, cards, position, before, after, weights)


def _uniform(card: int, trump: CardMask, cards: list[int], position: int, before: int, after: int) -> float:
    """The others' cards are a uniform draw without replacement from ``cards``."""
    if position == 0:
        led = _suit(card)
        mine = power(card, led, trump)
        good = sum(1 for c in cards if power(c, led, trump) <= mine)
        return _falling(good, after) / _falling(len(cards), after)
    total = 0.0
    rest = len(cards) - 1
    for lead in cards:
        led = _suit(lead)
        mine = power(card, led, trump)
        if power(lead, led, trump) >= mine:
            continue
        weaker = sum(1 for c in cards if c != lead and power(c, led, trump) < mine)
        equal = sum(1 for c in cards if c != lead and power(c, led, trump) == mine)
        total += _falling(weaker, before) * _falling(weaker + equal - before, after) / _falling(rest, before + after)
    return total / len(cards)


def _weighed(card: int, trump: CardMask, cards: list[int], position: int, before: list[int], after: list[int],
             weights: Sequence[Weights | None]) -> float:
    def weight(seat: int, c: int) -> float:
        table = weights[seat]
        return 1.0 if table is None else table.get(c, 0.0)

    others = ([0] if position > 0 else []) + before + after
    everything = [[weight(p, c) for c in cards] for p in others]
    denominator = distinct_sum(everything)
    if denominator <= 0.0:
        return 0.0
    if position == 0:
        led = _suit(card)
        mine = power(card, led, trump)
        allowed = [power(c, led, trump) <= mine for c in cards]
        return distinct_sum([[w if ok else 0.0 for w, ok in zip(row, allowed, strict=True)]
                             for row in everything]) / denominator
    numerator = 0.0
    for index, lead in enumerate(cards):
        led = _suit(lead)
        mine = power(card, led, trump)
        if power(lead, led, trump) >= mine or everything[0][index] == 0.0:
            continue
        strengths = [power(c, led, trump) for c in cards]
        rows = [[everything[0][index] if j == index else 0.0 for j in range(len(cards))]]
        for row, seat in zip(everything[1:], others[1:], strict=True):
            strict = seat in before
            rows.append([w if (s < mine if strict else s <= mine) else 0.0
                         for w, s in zip(row, strengths, strict=True)])
        numerator += distinct_sum(rows)
    return numerator / denominator


def distinct_sum(rows: Sequence[Sequence[float]]) -> float:
    """The sum, over every way to give each row a different column, of the product of the
    chosen entries (the permanent of a rectangular matrix), by inclusion and exclusion over
    the set partitions of the rows: each block of rows sharing one column counts with the
    sign ``(-1)^(size-1) (size-1)!``.

    >>> distinct_sum([[1, 1, 1], [1, 1, 1]])  # 3 * 2 ordered pairs of different columns
    6.0
    >>> distinct_sum([[1, 2], [3, 4]])  # 1*4 + 2*3
    10.0
    """
    k = len(rows)
    if k == 0:
        return 1.0
    columns = len(rows[0])
    block: dict[frozenset[int], float] = {}
    for size in range(1, k + 1):
        for members in combinations(range(k), size):
            total = 0.0
            for j in range(columns):
                product = 1.0
                for i in members:
                    product *= rows[i][j]
                    if product == 0.0:
                        break
                total += product
            block[frozenset(members)] = total
    out = 0.0
    for partition in _partitions(list(range(k))):
        term = 1.0
        for part in partition:
            size = len(part)
            term *= (-1) ** (size - 1) * _falling(size - 1, size - 1) * block[frozenset(part)]
        out += term
    return out


def _partitions(items: list[int]) -> Iterator[list[list[int]]]:
    """Every set partition of ``items``."""
    if not items:
        yield []
        return
    first, rest = items[0], items[1:]
    for partition in _partitions(rest):
        yield [[first], *partition]
        for index in range(len(partition)):
            yield [*partition[:index], [first, *partition[index]], *partition[index + 1:]]


__all__ = ["distinct_sum", "win_chance"]
