"""The one-card hand, solved exactly: every card's chance of taking the trick, the best bid and
its expected score, at every place at the table.

**The game.** ``n`` players each get one card from the deck of the rules; when the rules of
the one-card hand turn a card up, the next card is turned (its suit is trump; a turned joker
makes the other joker the only trump; under ``turn-up-low-none`` a turned 2–6 means no
trump), else the trump is the hand's fixed suit or none. The *places* are the bidding order:
place 1 bids first (left of the dealer), place ``n`` is the dealer. Each player sees its own
card, the turned card and the bids before it (under simultaneous bidding, no bid), and bids 0
or 1; the dealer may not make the bids add up to 1 when the hook is on. Nobody chooses a card
in the play (each plays the only card it holds, the first bidder leading, or the dealer when
the dealer leads), so the trick goes to the highest trump, else the highest card of the suit
led (of two jokers, the first played). A player scores the rules' score for its bid and its
trick (``hand_score(rules, bid, tricks, 1)``, from a total of 0).

**Optimal bidding.** A player's score depends only on its own bid and on whether its card
takes the trick, which the deal alone decides; the bids of the others change only what it
knows (and, for the dealer, which bids the hook allows). So the game is solved by induction
along the bidding order: the first bidder bids the allowed bid with the best expected score
given its card; every later player knows the earlier players' rule, reads each earlier bid as
"that player holds one of the cards for which its rule gives this bid", and bids the allowed
bid with the best expected score given its card and that knowledge. Ties go to the lower bid.
This is the backward induction of the game over what each player knows (each player's rule is
a best reply to the others' whatever they are, so it is also the game's unique equilibrium
with that tie rule).

**Others bidding at random.** Each other player bids 0 or 1 with equal chance (a dealer among
the bids the hook allows), whatever its card: the bids tell nothing, and the player's best bid
depends on its card alone (the dealer's, also on what the hook allows after random bids).

**Exactly.** Every number is a ratio of counts of deals, computed with integers: for each
player's card and each sequence of earlier bids, the number of ways to deal the other cards
that are consistent with the bids (each earlier player holding a card for which its rule gives
its bid) and in which the card takes the trick. Distinct cards are counted by inclusion and
exclusion over the set partitions of the constrained players (:func:`count_distinct`); the
others choose from what is left. Cards that play alike (a plain suit is any plain suit) are
counted once.

Because play is forced, a card's chance of taking the trick is the same whether the others bid
optimally or at random: averaged over what the bids reveal, the chance given the bids is the
chance before them (the tables show both, and the tests check it). What changes is which bid
is best, the chance of making it and the expected score.

>>> from ohhell.rules import preset
>>> table = solve_one_card(preset("classic", players=3), turned="2S")
>>> row = table.row(place=1, role="trump", rank=12)   # the ace of trumps, bidding first
>>> row.win, row.optimal.bid_one
(Fraction(1, 1), Fraction(1, 1))
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cache
from itertools import product
from typing import Any, Final, Literal

from ohhell.bots.heuristics import power
from ohhell.cards import BLACK_JOKER, RED_JOKER, SIX, SUIT_MASKS, Card, CardMask, card_name, parse_card
from ohhell.i18n import _
from ohhell.rules import HandPlan, Rules
from ohhell.scoring import hand_score

Role = Literal["trump", "plain", "turned-suit", "joker"]
"""What a card is in the one-card hand: a trump, a card of a plain suit, a card of the suit of
a turned card that did not make trump (``turn-up-low-none``), or a joker that is not trump."""

ROLES: Final[tuple[Role, ...]] = ("trump", "plain", "turned-suit", "joker")


def _popcount(mask: int) -> int:
    return mask.bit_count()


def _falling(n: int, k: int) -> int:
    out = 1
    for i in range(k):
        out *= n - i
    return out


@cache
def _partitions(size: int) -> tuple[tuple[int, tuple[int, ...]], ...]:
    """The set partitions of ``size`` items as (coefficient, block masks): the coefficient is
    the product over blocks of ``(-1)^(|B|-1) (|B|-1)!``."""
    def build(items: list[int]) -> Iterator[list[list[int]]]:
        if not items:
            yield []
            return
        first, rest = items[0], items[1:]
        for partition in build(rest):
            yield [[first], *partition]
            for index in range(len(partition)):
                yield [*partition[:index], [first, *partition[index]], *partition[index + 1:]]

    out = []
    for partition in build(list(range(size))):
        coefficient = 1
        blocks = []
        for block in partition:
            coefficient *= (-1) ** (len(block) - 1) * _falling(len(block) - 1, len(block) - 1)
            blocks.append(sum(1 << item for item in block))
        out.append((coefficient, tuple(blocks)))
    return tuple(out)


def count_distinct(rows: Sequence[CardMask]) -> int:
    """The number of ways to give each row a different card of its mask.

    >>> count_distinct([0b111, 0b111]), count_distinct([0b1, 0b1]), count_distinct([0b11, 0b1, 0b110])
    (6, 0, 1)
    """
    size = len(rows)
    if size == 0:
        return 1
    common = [0] * (1 << size)
    for subset in range(1, 1 << size):
        low = subset & -subset
        index = low.bit_length() - 1
        rest = subset ^ low
        common[subset] = rows[index] if not rest else common[rest] & rows[index]
    sizes = [_popcount(mask) for mask in common]
    total = 0
    for coefficient, blocks in _partitions(size):
        term = coefficient
        for block in blocks:
            term *= sizes[block]
            if not term:
                break
        total += term
    return total


def count_with_free(constrained: Sequence[CardMask], free: Sequence[CardMask]) -> int:
    """Ways to give every row (constrained and free) a different card of its mask; when the
    free rows share one mask holding every constrained mask, they just take what is left."""
    if free and all(mask == free[0] for mask in free) and all(mask & ~free[0] == 0 for mask in constrained):
        return count_distinct(constrained) * _falling(_popcount(free[0]) - len(constrained), len(free))
    return count_distinct([*constrained, *free])


# ------------------------------------------------------------------------- the game


@dataclass(frozen=True)
class Setup:
    """One one-card hand to solve: the rules' view of it and the turned card."""

    players: int
    deck: CardMask
    turned: Card | None
    trump: CardMask
    hooked: bool
    simultaneous: bool
    dealer_leads: bool
    score: Callable[[int, bool], int]

    @property
    def pool(self) -> CardMask:
        """The cards the players may hold."""
        return self.deck & ~(1 << self.turned) if self.turned is not None else self.deck

    @property
    def leader_place(self) -> int:
        return self.players - 1 if self.dealer_leads else 0

    def role(self, card: Card) -> Role:
        if self.trump >> card & 1:
            return "trump"
        if card >= RED_JOKER:
            return "joker"
        if self.turned is not None and self.turned < RED_JOKER and card // 13 == self.turned // 13:
            return "turned-suit"
        return "plain"

    def kind(self, card: Card) -> tuple[Role, int]:
        """The class of a card: cards of one class play alike (plain suits are interchangeable)."""
        return self.role(card), (13 if card >= RED_JOKER else card % 13)


def one_card_plan(rules: Rules) -> HandPlan:
    """The plan of the rules' first one-card hand (``ValueError`` when there is none)."""
    if rules.high_low_jokers:
        raise ValueError(_("the one-card tables do not cover high-low jokers (NE-England Blackout)"))
    for plan in rules.hand_plans():
        if plan.size == 1:
            return plan
    raise ValueError(_("these rules have no hand of one card"))


def setups(rules: Rules, turned: str | None = None) -> list[tuple[Setup, int]]:
    """Every distinct one-card hand of the rules with its weight (how many turned cards lead
    to it, up to the symmetry of the suits), or the one hand with ``turned`` turned."""
    plan = one_card_plan(rules)
    deck = rules.deck_mask
    n = rules.players
    hooked = rules.hook and rules.bidding == "in-turn"

    def score(bid: int, wins: bool) -> int:
        return hand_score(rules, bid, 1 if wins else 0, 1)

    def make(turn_up: Card | None) -> Setup:
        if plan.trump in ("turn-up", "turn-up-low-none") and turn_up is not None:
            if turn_up >= RED_JOKER:
                trump = 1 << (BLACK_JOKER if turn_up == RED_JOKER else RED_JOKER)
            elif plan.trump == "turn-up-low-none" and turn_up % 13 <= SIX:
                trump = 0
            else:
                trump = SUIT_MASKS[turn_up // 13]
        elif plan.trump in ("turn-up", "turn-up-low-none", "none"):
            trump = 0
        else:
            trump = SUIT_MASKS["SHDC".index(plan.trump)]
        return Setup(n, deck, turn_up, trump, hooked, rules.bidding == "simultaneous", rules.first_lead == "dealer",
                     score)

    if plan.trump not in ("turn-up", "turn-up-low-none"):
        if turned is not None:
            raise ValueError(_("no card is turned up in the one-card hand of these rules"))
        return [(make(None), 1)]
    if turned is not None:
        card = parse_card(turned)
        if not deck >> card & 1:
            raise ValueError(_("%(card)s is not a card of this deck") % {"card": turned})
        return [(make(card), 1)]
    # By symmetry a turned card of one suit stands for all four: the spades, and the jokers.
    out = [(make(card), 4) for card in range(13) if deck >> card & 1]
    out += [(make(card), 1) for card in (RED_JOKER, BLACK_JOKER) if deck >> card & 1]
    return out


# ------------------------------------------------------------------------- solving


@dataclass
class CardStats:
    """Counts for one card at one place, summed over the histories of bids (out of ``total``
    deals of the other cards)."""

    total: int = 0
    prior_wins: int = 0
    """Deals in which the card takes the trick (out of ``total``)."""
    histories_total: int = 0
    """The deals summed over the histories of optimal bids (equal to ``total``)."""
    wins: int = 0
    """Those in which it takes the trick, summed over the histories (equal to ``prior_wins``)."""
    optimal_score: Fraction = Fraction(0)
    optimal_made: int = 0
    optimal_bid_one: int = 0
    random_score: Fraction = Fraction(0)
    random_made: Fraction = Fraction(0)
    random_bid_one: Fraction = Fraction(0)


def _power(card: Card, led: int, trump: CardMask) -> int:
    return power(card, led, trump)


class _Solver:
    def __init__(self, setup: Setup) -> None:
        self.s = setup
        self.n = setup.players
        self.pool = setup.pool
        cards = [card for card in range(54) if self.pool >> card & 1]
        self.cards = cards
        self.classes: dict[tuple[Role, int], CardMask] = {}
        for card in cards:
            key = setup.kind(card)
            self.classes[key] = self.classes.get(key, 0) | 1 << card
        self.representative = {key: (mask & -mask).bit_length() - 1 for key, mask in self.classes.items()}
        # power[led][card], and the masks of the cards below a strength, computed once.
        self.power = [[_power(card, led, setup.trump) for card in range(54)] for led in range(5)]
        self._below: dict[tuple[int, int, bool], CardMask] = {}
        # strategy[(place, history)][class] = bid; counts[(place, history)][class] = (deals, wins)
        self.strategy: dict[tuple[int, tuple[int, ...]], dict[tuple[Role, int], int]] = {}
        self.counted: dict[tuple[int, tuple[int, ...]], dict[tuple[Role, int], tuple[int, int]]] = {}

    def below(self, led: int, strength: int, strictly: bool) -> CardMask:
        """The cards weaker than ``strength`` (or as strong, unless ``strictly``) when ``led`` is led."""
        key = (led, strength, strictly)
        mask = self._below.get(key)
        if mask is None:
            powers = self.power[led]
            mask = sum(1 << x for x in self.cards if (powers[x] < strength if strictly else powers[x] <= strength))
            self._below[key] = mask
        return mask

    def position(self, place: int) -> int:
        return (place - self.s.leader_place) % self.n

    def bid_set(self, place: int, history: tuple[int, ...], bid: int) -> CardMask:
        rule = self.rule(place, history[:place])
        mask = 0
        for key, chosen in rule.items():
            if chosen == bid:
                mask |= self.classes[key]
        return mask

    def allowed(self, place: int, history: Sequence[int]) -> list[int]:
        if self.s.hooked and place == self.n - 1:
            forbidden = 1 - sum(history)
            return [bid for bid in (0, 1) if bid != forbidden]
        return [0, 1]

    def rows(self, place: int, card: Card, history: tuple[int, ...]) -> list[CardMask]:
        """Each other place's possible cards (by place), given the earlier bids."""
        out = []
        for other in range(self.n):
            if other == place:
                out.append(0)
            elif other < place and not self.s.simultaneous:
                out.append(self.bid_set(other, history, history[other]) & ~(1 << card))
            else:
                out.append(self.pool & ~(1 << card))
        return out

    def is_constrained(self, place: int, other: int) -> bool:
        """Whether ``other``'s bid told ``place`` something (it bid before, in turn)."""
        return other < place and not self.s.simultaneous

    def counts(self, place: int, card: Card, rows: list[CardMask], constrained: bool = True) -> tuple[int, int]:
        """(deals consistent with ``rows``, those in which ``card`` takes the trick)."""
        held = [rows[o] for o in range(self.n) if o != place and constrained and self.is_constrained(place, o)]
        free = [rows[o] for o in range(self.n) if o != place and not (constrained and self.is_constrained(place, o))]
        everything = count_with_free(held, free)
        mine = self.position(place)
        if mine == 0:
            led = card // 13
            weaker = self.below(led, self.power[led][card], strictly=False)
            wins = self._count_masked(place, rows, lambda _other: weaker, constrained)
            return everything, wins
        leader = self.s.leader_place
        # The leader's card, summed over: leads of one suit found in the same rows count
        # alike (swapping them maps one count onto the other).
        groups: dict[tuple[Any, ...], list[int]] = {}
        leads = rows[leader]
        while leads:
            low = leads & -leads
            leads ^= low
            lead = low.bit_length() - 1
            led = lead // 13
            if self.power[led][lead] >= self.power[led][card]:
                continue
            signature = (led, tuple(bool(row & low) for row in rows))
            group = groups.get(signature)
            if group is None:
                groups[signature] = [1, lead]
            else:
                group[0] += 1
        wins = 0
        for (led, _signature), (size, lead) in groups.items():
            strength = self.power[led][card]
            strictly = self.below(led, strength, strictly=True)
            weakly = self.below(led, strength, strictly=False)

            def mask_for(other: int, strictly: int = strictly, weakly: int = weakly) -> int:
                return strictly if self.position(other) < mine else weakly

            removed = [mask & ~(1 << lead) for mask in rows]
            wins += size * self._count_masked(place, removed, mask_for, constrained, skip=leader)
        return everything, wins

    def _count_masked(self, place: int, rows: list[CardMask], mask_for: Callable[[int], int], use_bids: bool,
                      skip: int | None = None) -> int:
        """Deals in which every other place (but ``skip``) holds a card of its row within
        ``mask_for`` it; with ``use_bids``, the earlier bidders' rows are constrained."""
        held: list[CardMask] = []
        free: list[CardMask] = []
        for other in range(self.n):
            if other in (place, skip):
                continue
            mask = rows[other] & mask_for(other)
            if use_bids and self.is_constrained(place, other):
                held.append(mask)
            else:
                free.append(mask)
        return count_with_free(held, free)

    def best_bid(self, allowed: Sequence[int], wins: int, total: int) -> int:
        def value(bid: int) -> Fraction:
            return Fraction(wins * self.s.score(bid, True) + (total - wins) * self.s.score(bid, False), 1)

        return max(allowed, key=lambda bid: (value(bid), -bid))

    def histories(self, place: int) -> list[tuple[int, ...]]:
        """Every sequence of bids ``place`` may hear before its own (none when bidding at once)."""
        return [()] if self.s.simultaneous else list(product((0, 1), repeat=place))

    def rule(self, place: int, history: tuple[int, ...]) -> dict[tuple[Role, int], int]:
        """The best bid of every card at ``place`` after the earlier bids ``history``, given the
        earlier places' rules (computed on first use, along the history only: the rule after
        one history needs the rules of the earlier places after its beginnings, never the whole
        tree). Each card's deals and wins given the bids go to :attr:`counted`."""
        if self.s.simultaneous:
            history = ()
        found = self.strategy.get((place, history))
        if found is not None:
            return found
        rule: dict[tuple[Role, int], int] = {}
        counted: dict[tuple[Role, int], tuple[int, int]] = {}
        allowed = [0, 1] if self.s.simultaneous else self.allowed(place, history)
        for key, card in self.representative.items():
            everything, wins = self.counts(place, card, self.rows(place, card, history))
            counted[key] = (everything, wins)
            # A card that never hears these bids bids the lowest allowed bid (nobody asks).
            rule[key] = self.best_bid(allowed, wins, everything) if everything else min(allowed)
        self.strategy[(place, history)] = rule
        self.counted[(place, history)] = counted
        return rule

    def solve(self) -> dict[tuple[int, tuple[Role, int]], CardStats]:
        s = self.s
        n = self.n
        stats: dict[tuple[int, tuple[Role, int]], CardStats] = {}
        for place in range(n):
            for key, card in self.representative.items():
                entry = CardStats(total=_falling(_popcount(self.pool) - 1, n - 1))
                # Before any bid (and whatever random bids say): the chance of the deal alone.
                free = [self.pool & ~(1 << card) if other != place else 0 for other in range(n)]
                everything, entry.prior_wins = self.counts(place, card, free, constrained=False)
                assert everything == entry.total
                stats[(place, key)] = entry
            for history in self.histories(place):
                rule = self.rule(place, history)
                for key in self.representative:
                    everything, wins = self.counted[(place, history)][key]
                    if everything == 0:  # this card never hears these bids
                        continue
                    bid = rule[key]
                    entry = stats[(place, key)]
                    entry.histories_total += everything
                    entry.wins += wins
                    entry.optimal_score += wins * s.score(bid, True) + (everything - wins) * s.score(bid, False)
                    entry.optimal_made += wins if bid == 1 else everything - wins
                    entry.optimal_bid_one += everything if bid == 1 else 0
            # Others bidding at random tell nothing; a hooked dealer's bids depend on theirs.
            random_histories: list[tuple[int, ...] | None] = [None]
            if s.hooked and place == n - 1 and not s.simultaneous:
                random_histories = list(product((0, 1), repeat=place))
            share = Fraction(1, len(random_histories))
            for key in self.representative:
                entry = stats[(place, key)]
                total, wins = entry.total, entry.prior_wins
                for heard in random_histories:
                    allowed = [0, 1] if heard is None else self.allowed(place, heard)
                    bid = self.best_bid(allowed, wins, total)
                    entry.random_score += share * Fraction(wins * s.score(bid, True)
                                                           + (total - wins) * s.score(bid, False), total)
                    entry.random_made += share * Fraction(wins if bid == 1 else total - wins, total)
                    entry.random_bid_one += share * (1 if bid == 1 else 0)
        return stats


# ------------------------------------------------------------------------- the table


@dataclass(frozen=True)
class Model:
    """One way the others bid: the seat's chance of bidding 1, of making its bid, and its
    expected score."""

    bid_one: Fraction
    made: Fraction
    score: Fraction


@dataclass(frozen=True)
class Row:
    """One card (by role and rank) at one place."""

    place: int
    """1 = first to bid … ``players`` = the dealer."""
    role: Role
    rank: int
    """0 (two) … 12 (ace); 13 for a joker."""
    weight: int
    """How many (turned card, card) pairs of the deck this row stands for."""
    win: Fraction
    """The chance that the card takes the trick."""
    win_given_bids: Fraction
    """The same, averaged over what the optimal bids before it reveal (equal to ``win``)."""
    optimal: Model
    random: Model

    def to_json(self) -> dict[str, Any]:
        def model(m: Model) -> dict[str, Any]:
            return {"bid_one": float(m.bid_one), "made": float(m.made), "expected_score": float(m.score),
                    "best_bid": best_bid_text(m.bid_one)}

        return {"place": self.place, "role": self.role, "rank": self.rank, "card": rank_name(self.rank),
                "win": float(self.win), "win_exact": str(self.win),
                "win_given_optimal_bids": float(self.win_given_bids),
                "optimal": model(self.optimal), "random_others": model(self.random)}


def rank_name(rank: int) -> str:
    return "X" if rank == 13 else card_name(rank)[0]


def best_bid_text(bid_one: Fraction) -> str:
    """``"1"``, ``"0"``, or ``"1 (37%)"`` when the best bid depends on what the seat heard."""
    if bid_one == 1:
        return "1"
    if bid_one == 0:
        return "0"
    return f"1 ({float(bid_one) * 100:.0f}%)"


@dataclass
class OneCardTable:
    """The exact one-card tables of a set of rules (see the module)."""

    rules: Rules
    turned: str | None
    rows: list[Row] = field(default_factory=list)
    place_optimal: list[Fraction] = field(default_factory=list)
    """Each place's expected score when everyone bids optimally."""
    place_random: list[Fraction] = field(default_factory=list)
    """Each place's expected score bidding optimally when the others bid at random."""

    def row(self, place: int, role: Role, rank: int) -> Row:
        for row in self.rows:
            if (row.place, row.role, row.rank) == (place, role, rank):
                return row
        raise KeyError((place, role, rank))

    def to_json(self) -> dict[str, Any]:
        return {
            "format": "ohhell-one-card/1",
            "rules": self.rules.to_json(), "players": self.rules.players, "turned": self.turned,
            "places": [{"place": place + 1, "optimal_expected_score": float(optimal),
                        "random_others_expected_score": float(random)}
                       for place, (optimal, random) in enumerate(zip(self.place_optimal, self.place_random,
                                                                      strict=True))],
            "rows": [row.to_json() for row in self.rows],
        }


def solve_one_card(rules: Rules, turned: str | None = None,
                   progress: Callable[[int, int], None] | None = None) -> OneCardTable:
    """The exact one-card tables of ``rules`` (averaged over the turned card, or for the one
    ``turned``, e.g. ``"7H"``). Raises ``ValueError`` for rules without a one-card hand."""
    n = rules.players
    table = OneCardTable(rules, turned)
    cases = setups(rules, turned)
    sums: dict[tuple[int, Role, int], list[Any]] = {}
    place_optimal = [Fraction(0)] * n
    place_random = [Fraction(0)] * n
    place_weight = [0] * n
    for done, (setup, weight) in enumerate(cases):
        solver = _Solver(setup)
        stats = solver.solve()
        for (place, key), entry in stats.items():
            members = _popcount(solver.classes[key]) * weight
            total = entry.total
            assert entry.histories_total == total and entry.wins == entry.prior_wins, "bids must partition the deals"
            row = sums.setdefault((place, key[0], key[1]), [0, Fraction(0), Fraction(0), Fraction(0), Fraction(0),
                                                            Fraction(0), Fraction(0), Fraction(0), Fraction(0)])
            row[0] += members
            row[1] += members * Fraction(entry.prior_wins, total)
            row[2] += members * Fraction(entry.optimal_bid_one, total)
            row[3] += members * Fraction(entry.optimal_made, total)
            row[4] += members * entry.optimal_score / total
            row[5] += members * entry.random_bid_one
            row[6] += members * entry.random_made
            row[7] += members * entry.random_score
            row[8] += members * Fraction(entry.wins, total)
            place_optimal[place] += members * entry.optimal_score / total
            place_random[place] += members * entry.random_score
            place_weight[place] += members
        if progress is not None:
            progress(done + 1, len(cases))
    role_order = {role: index for index, role in enumerate(ROLES)}
    for (place, role, rank), values in sorted(sums.items(), key=lambda item: (item[0][0], role_order[item[0][1]],
                                                                               -item[0][2])):
        weight = values[0]
        table.rows.append(Row(
            place=place + 1, role=role, rank=rank, weight=weight, win=values[1] / weight,
            win_given_bids=values[8] / weight,
            optimal=Model(values[2] / weight, values[3] / weight, values[4] / weight),
            random=Model(values[5] / weight, values[6] / weight, values[7] / weight),
        ))
    table.place_optimal = [place_optimal[p] / place_weight[p] for p in range(n)]
    table.place_random = [place_random[p] / place_weight[p] for p in range(n)]
    return table


# ------------------------------------------------------------------------- the equilibrium


def _swap_suits(card: Card, suit: int) -> Card:
    """``card`` with the suits 0 (spades) and ``suit`` exchanged (jokers unchanged)."""
    if card >= RED_JOKER or suit == 0:
        return card
    own = card // 13
    return card % 13 + 13 * (suit if own == 0 else 0 if own == suit else own)


def _swap_mask(mask: CardMask, suit: int) -> CardMask:
    out = 0
    while mask:
        low = mask & -mask
        mask ^= low
        out |= 1 << _swap_suits(low.bit_length() - 1, suit)
    return out


@cache
def _solver_for(players: int, deck: CardMask, turned: Card | None, trump: CardMask, hooked: bool,
                simultaneous: bool, dealer_leads: bool, scores: tuple[tuple[int, int], tuple[int, int]]) -> _Solver:
    """One solver per distinct one-card hand (its rules' scores, the turned card and the trump),
    kept for the life of the process: every rule it works out is kept in it too."""
    def score(bid: int, wins: bool) -> int:
        return scores[bid][int(wins)]

    return _Solver(Setup(players, deck, turned, trump, hooked, simultaneous, dealer_leads, score))


class Equilibrium:
    """The equilibrium bidding of one one-card hand: every place's best bid with every card
    after every sequence of earlier bids, each a best response to the earlier places' rules
    (the later ones cannot change its score, see the module), and each card's chance of
    taking the trick given those bids.

    Rules are worked out on first use, along the bids asked about, and kept per process (a
    hand with its suits renamed shares them: a turned 7♥ asks the same solver as a turned 7♠).

    >>> from ohhell.cards import SUIT_MASKS, parse_card
    >>> from ohhell.rules import preset
    >>> game = Equilibrium(preset("classic", players=4), parse_card("2H"), SUIT_MASKS[1])
    >>> game.bid(0, (), parse_card("4H")), game.bid(0, (), parse_card("AS"))  # the first bidder (hearts trump)
    (1, 0)
    >>> game.bid(1, (0,), parse_card("9H")), game.bid(1, (1,), parse_card("9H"))  # a first 1 shows a trump
    (1, 0)
    >>> game.win_chance(1, (0,), parse_card("KH")), game.win_chance(1, (1,), parse_card("KH"))
    (Fraction(47, 49), Fraction(423, 490))
    """

    def __init__(self, rules: Rules, turned: Card | None, trump: CardMask) -> None:
        n = rules.players
        self.rules = rules
        scores = tuple(tuple(hand_score(rules, bid, tricks, 1) for tricks in (0, 1)) for bid in (0, 1))
        # The suit that plays the first part (the turned card's, else the trump suit) becomes spades.
        anchor = turned if turned is not None and turned < RED_JOKER else next(
            (card for card in range(52) if trump >> card & 1), None)
        self.suit = anchor // 13 if anchor is not None else 0
        canonical_turned = _swap_suits(turned, self.suit) if turned is not None else None
        self.solver = _solver_for(n, _swap_mask(rules.deck_mask, self.suit), canonical_turned,
                                  _swap_mask(trump, self.suit), rules.hook and rules.bidding == "in-turn",
                                  rules.bidding == "simultaneous", rules.first_lead == "dealer",
                                  (scores[0], scores[1]))
        self.pool = rules.deck_mask & ~(1 << turned) if turned is not None else rules.deck_mask

    @property
    def players(self) -> int:
        return self.solver.n

    def _key(self, card: Card) -> tuple[Role, int]:
        return self.solver.s.kind(_swap_suits(card, self.suit))

    def allowed(self, place: int, history: Sequence[int]) -> list[int]:
        """The bids ``place`` may make after ``history`` (the hook binds the dealer)."""
        return [0, 1] if self.solver.s.simultaneous else self.solver.allowed(place, history)

    def bid(self, place: int, history: Sequence[int], card: Card) -> int:
        """The equilibrium bid of ``card`` at ``place`` (0 bids first) after the bids ``history``
        of the places before it (ignored under simultaneous bidding)."""
        return self.solver.rule(place, tuple(history))[self._key(card)]

    def bid_set(self, place: int, history: Sequence[int], bid: int) -> CardMask:
        """The cards with which ``place`` bids ``bid`` after ``history``."""
        rule = self.solver.rule(place, tuple(history))
        mask = 0
        cards = self.pool
        while cards:
            low = cards & -cards
            cards ^= low
            if rule[self._key(low.bit_length() - 1)] == bid:
                mask |= low
        return mask

    def win_chance(self, place: int, history: Sequence[int], card: Card) -> Fraction | None:
        """The chance that ``card`` takes the trick given that the earlier places bid
        ``history`` by their rules; ``None`` when no deal with that card hears those bids."""
        self.solver.rule(place, tuple(history))
        everything, wins = self.solver.counted[(place, tuple(history) if not self.solver.s.simultaneous else ())][
            self._key(card)]
        return Fraction(wins, everything) if everything else None

    def histories(self, place: int) -> list[tuple[int, ...]]:
        """Every sequence of earlier bids ``place`` may hear."""
        return self.solver.histories(place)

    def classes(self) -> list[tuple[Role, int, Card]]:
        """Every class of cards that play alike, by role and rank, with one card of it (of
        this hand's suits), strongest first within each role."""
        order = {role: index for index, role in enumerate(ROLES)}
        out = [(role, rank, _swap_suits(card, self.suit)) for (role, rank), card in self.solver.representative.items()]
        return sorted(out, key=lambda item: (order[item[0]], -item[1]))


Strategy = dict[tuple[int, tuple[int, ...]], dict[tuple[Role, int], int]]
"""Every place's bid for every class of cards after every sequence of earlier bids."""


def best_responses(setup: Setup, strategy: Strategy) -> Strategy:
    """Every place's best response to the other places' rules of ``strategy`` (all places at
    once). Only the earlier places' rules can matter to a place: the later ones change
    neither what it knows when it bids nor whether its card takes the trick."""
    out: Strategy = {}
    for place in range(setup.players):
        solver = _Solver(setup)
        solver.strategy = {key: rule for key, rule in strategy.items() if key[0] != place}
        for history in solver.histories(place):
            out[(place, history)] = dict(solver.rule(place, history))
    return out


def iterate_best_responses(setup: Setup, start: Strategy | None = None, rounds: int = 20) -> tuple[Strategy, int]:
    """Best responses iterated from ``start`` (default: every card bids 1 where it may) until
    no place changes its rule: the equilibrium, and the rounds it took (at most one per place
    plus the last that confirms it, since place ``k``'s rule is fixed once the rules before
    it are). ``ValueError`` if ``rounds`` are not enough."""
    solver = _Solver(setup)
    strategy: Strategy = start if start is not None else {
        (place, history): {key: max(solver.allowed(place, history)) if not setup.simultaneous else 1
                           for key in solver.representative}
        for place in range(setup.players) for history in solver.histories(place)}
    for done in range(1, rounds + 1):
        following = best_responses(setup, strategy)
        if following == strategy:
            return strategy, done
        strategy = following
    raise ValueError(f"best responses did not settle in {rounds} rounds")


def equilibrium(rules: Rules, turned: Card | None) -> Equilibrium:
    """The equilibrium of the rules' one-card hand with ``turned`` turned up (``None``: no
    card turned), its trump found as the rules' one-card hand finds it."""
    cases = setups(rules, card_name(turned) if turned is not None else None)
    setup = cases[0][0]
    return Equilibrium(rules, turned, setup.trump)


__all__ = ["ROLES", "CardStats", "Equilibrium", "Model", "OneCardTable", "Role", "Row", "Setup", "Strategy",
           "best_bid_text", "best_responses", "count_distinct", "count_with_free", "equilibrium",
           "iterate_best_responses", "one_card_plan", "rank_name", "setups", "solve_one_card"]
