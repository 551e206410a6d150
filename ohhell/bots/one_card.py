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

Bids already made are soft evidence: each bidder's card is weighed by how likely its bid was
for a careful player who reckoned that card's worth from its place in the trick
(:func:`uniform_chances`), or for a random one
(:func:`~ohhell.bots.knowledge.bid_likelihoods`). The weighted count over
deals in which no card is held twice is exact by inclusion and exclusion over the ways the
bidders could share a card (:func:`distinct_sum`): its work grows as 2^k plus the set
partitions of the k bidders, about 40 ms for the six others at a table of seven (the most
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
from ohhell.cards import CARD_COUNT, CARD_SUITS, CardMask

Weights = Mapping[int, float]
"""A seat's weight for each card it may hold (a card missing from it: weight 0)."""


def _suit(card: int) -> int:
    return CARD_SUITS[card]


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
    cards = [c for c in range(CARD_COUNT) if unseen >> c & 1]
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
    """The others' cards are a uniform draw without replacement from ``cards``.

    Not leading, the leader's card is summed over by its suit: every lead of one suit that
    the seat's card beats leaves the same numbers of weaker and equal cards for the others
    (one fewer weaker card: the lead itself), so each suit costs one pass over the cards."""
    if position == 0:
        led = _suit(card)
        mine = power(card, led, trump)
        good = sum(1 for c in cards if power(c, led, trump) <= mine)
        return _falling(good, after) / _falling(len(cards), after)
    rest = len(cards) - 1
    total = 0.0
    for led in sorted({_suit(c) for c in cards}):
        mine = power(card, led, trump)
        weaker = equal = leads = 0
        for c in cards:
            strength = power(c, led, trump)
            if strength < mine:
                weaker += 1
                if _suit(c) == led:
                    leads += 1
            elif strength == mine:
                equal += 1
        if leads:
            weaker -= 1  # the lead itself is not among the others' cards
            total += leads * _falling(weaker, before) * _falling(weaker + equal - before, after) \
                / _falling(rest, before + after)
    return total / len(cards)


def uniform_chances(cards: Sequence[int], trump: CardMask, pack: CardMask, position: int, players: int,
                    ) -> list[float]:
    """For each card of ``cards``: the chance that a seat holding it, playing at ``position``,
    takes the trick when the other seats' cards are drawn from ``pack`` less that card — what a
    careful player reckons its card is worth before any bid (:func:`win_chance` without
    weights)."""
    return [win_chance(card, trump, pack & ~(1 << card), position, players) for card in cards]


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


def trick_winner(table: Mapping[int, int], leader: int, players: int, trump: CardMask) -> int:
    """The seat that takes a trick in which every seat plays its card of ``table`` (in turn
    from ``leader``; of two equally strong cards the first played wins)."""
    order = [(leader + k) % players for k in range(players)]
    led = _suit(table[leader])
    best = leader
    best_power = power(table[leader], led, trump)
    for seat in order[1:]:
        strength = power(table[seat], led, trump)
        if strength > best_power:
            best, best_power = seat, strength
    return best


def blind_win_chance(others: Mapping[int, int], seat: int, candidates: Sequence[int], trump: CardMask,
                     leader: int, players: int, bids: Sequence[int | None] | None = None,
                     prior: Sequence[float] | None = None, hooked_dealer: int | None = None,
                     ) -> tuple[float, list[float]]:
    """Devil's Bridge: the chance that a seat which sees every card but its own takes the
    trick, and each other seat's chance of bidding at random.

    ``others``: every other seat's card; ``candidates``: the cards the seat may hold. With no
    bids this is the share of the candidates that take the trick. The seats that bid before
    saw the seat's card, so their bids are evidence about it: for each candidate, each bidder's
    own chance is counted as it would have counted it (its candidates are the seat's plus the
    card it really holds, less the one it sees in the seat's hand), and the candidate is
    weighed by how likely its bid was at that chance
    (:func:`~ohhell.bots.knowledge.bid_likelihoods`, a dealer ``hooked_dealer`` forced by the
    hook counting less).

    >>> from ohhell.cards import SUIT_MASKS, parse_card
    >>> spades = SUIT_MASKS[parse_card("2S") // 13]
    >>> others = {0: parse_card("5H"), 2: parse_card("9D")}
    >>> pack = [c for c in range(52) if c not in (parse_card("5H"), parse_card("9D"), parse_card("TS"))]
    >>> chance, _ = blind_win_chance(others, 1, pack, spades, leader=0, players=3)
    >>> round(chance * len(pack))  # the 12 spades left, and the 9 hearts above the 5
    21
    """
    from ohhell.bots.knowledge import DEFAULT_RANDOM_PRIOR, bid_likelihoods

    def takes(table: dict[int, int], who: int) -> bool:
        return trick_winner(table, leader, players, trump) == who

    def chance_of(table: dict[int, int], who: int, pool: Sequence[int]) -> float:
        wins = 0
        for card in pool:
            table[who] = card
            wins += takes(table, who)
        return wins / len(pool) if pool else 0.0

    randomness = [0.0] * players
    weights = [1.0] * len(candidates)
    bidders = [p for p in range(players) if p != seat and bids is not None and bids[p] is not None and p in others]
    for bidder in bidders:
        assert bids is not None
        bid = bids[bidder]
        assert bid is not None
        estimates = []
        for card in candidates:
            table = dict(others)
            table[seat] = card
            pool = [c for c in candidates if c != card] + [others[bidder]]
            estimates.append(chance_of(table, bidder, pool))
        seat_prior = prior[bidder] if prior is not None else DEFAULT_RANDOM_PRIOR
        factors, randomness[bidder] = bid_likelihoods(bid, estimates, 1, seat_prior, bidder == hooked_dealer)
        weights = [w * f for w, f in zip(weights, factors, strict=True)]
    total = sum(weights)
    if total <= 0.0:
        return 0.0, randomness
    table = dict(others)
    wins = 0.0
    for card, weight in zip(candidates, weights, strict=True):
        table[seat] = card
        if takes(table, seat):
            wins += weight
    return wins / total, randomness


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


__all__ = ["blind_win_chance", "distinct_sum", "trick_winner", "uniform_chances", "win_chance"]
