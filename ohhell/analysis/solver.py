"""The exact open-hand solver: which trick counts can one seat force, or reach with help?

With every card face up, the card play of a hand is a game of perfect information. For one
seat against all the others (a two-sided game: the others are one side, whatever their own
scores), a final trick count ``b`` of the seat is

* **forcible** when the seat can end the hand with exactly ``b`` tricks whatever the others
  play (an AND/OR game: some card of the seat's for every answer of the others);
* **reachable** when some play of every seat ends with exactly ``b`` (the others help);
* **impossible** otherwise.

Both are computed for every count at once, as a set: at the seat's turn the sets of its
cards are united, at another seat's turn they are intersected (reachable: united
everywhere). A question about a few counts (``counts``) carries them down the search as the
set-valued form of an alpha-beta window, so "can seat 2 force exactly 3 tricks?" stops as soon
as it is answered.

Two implementations give the same answers: the C extension ``ohhell.analysis._solver`` (a
transposition table on the hands in relative ranks, equivalent cards, sure winners; see the
file's header) and the pure-Python search here, used when the extension is not built (and
as its reference in the tests; much slower). ``tests/analysis/test_analysis_solver.py`` checks both
against brute force over the reference engine's states, under every rule that changes the
play: following suit, must-trump, no trump, own-suit jokers, a turned joker, and
NE-England Blackout's high-low jokers with their declarations.

>>> from ohhell.cards import parse_cards, mask_of, SUIT_MASKS
>>> hands = tuple(mask_of(parse_cards(text)) for text in ("AH 2D", "KH 3D", "QS 4D"))
>>> position = OpenHand(players=3, hands=hands, trump=SUIT_MASKS[0], leader=0)  # spades trump
>>> sorted(forcible(position, seat=0)), sorted(reachable(position, seat=0))
([0], [0, 1])
>>> can_force(position, seat=2, tricks=2)  # it trumps the ace of hearts, or wins the 2 of diamonds
True
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Final, Literal

from ohhell.cards import JOKERS_MASK, RED_JOKER, SUIT_MASKS, Card, CardMask, card_colour
from ohhell.game import Phase

if TYPE_CHECKING:
    import ohhell.analysis._solver as native
    from ohhell.game import State
    from ohhell.rules import Rules
else:
    try:
        import ohhell.analysis._solver as native
    except ImportError:  # pragma: no cover - the extension is optional
        native = None

NATIVE: Final = native is not None
"""Whether the C solver is installed."""

Implementation = Literal["auto", "c", "python"]

MAX_TRICKS: Final = 31
"""The most tricks a position may have left (the C solver's masks are 32 bits)."""

_FORCE: Final = 0
_HELP: Final = 1


class SearchLimitReached(Exception):
    """The search passed its node limit before answering."""

    def __init__(self, nodes: int) -> None:
        super().__init__(f"the search passed its limit of {nodes} positions")
        self.nodes = nodes


@dataclass(frozen=True)
class OpenHand:
    """A moment of a hand's card play with every hand face up.

    ``hands``: each seat's cards (masks); ``leader``: the seat that led (or leads) the trick
    in progress; ``trick``: the cards played to it so far, from the leader; ``tricks``: the
    tricks each seat has taken in this hand (default none). ``joker_high`` and
    ``first_joker`` (high-low jokers only): the declaration of the first joker played in the
    hand and which joker it was.
    """

    players: int
    hands: tuple[CardMask, ...]
    trump: CardMask
    leader: int
    trick: tuple[Card, ...] = ()
    tricks: tuple[int, ...] = field(default=())
    must_trump: bool = False
    high_low: bool = False
    joker_high: bool | None = None
    first_joker: Card | None = None

    def __post_init__(self) -> None:
        if not self.tricks:
            object.__setattr__(self, "tricks", (0,) * self.players)
        if len(self.hands) != self.players or len(self.tricks) != self.players:
            raise ValueError("one hand and one trick count per seat")
        if not 0 <= self.leader < self.players or len(self.trick) >= self.players:
            raise ValueError("the leader must be a seat and the trick in progress shorter than a round")
        if self.remaining > MAX_TRICKS:
            raise ValueError(f"at most {MAX_TRICKS} tricks")

    @property
    def remaining(self) -> int:
        """Tricks not yet complete (the one in progress counts)."""
        return bin(self.hands[self.leader]).count("1") + (1 if self.trick else 0)

    @property
    def first_trick(self) -> bool:
        """Whether no trick of the hand is complete yet."""
        return sum(self.tricks) == 0

    @classmethod
    def from_state(cls, state: State) -> OpenHand:
        """The card play in progress of an engine state (every hand face up)."""
        if state.phase != Phase.PLAYING:
            raise ValueError("the state is not in the card play of a hand")
        if not covers(state.rules):
            raise ValueError("the open-hand solver does not play Bust's second pack (two copies of a card)")
        trick = state.current_trick()
        leader = trick[0][0] if trick else state.turn
        assert leader is not None
        first_joker = next((card for card in state.plays if card >= RED_JOKER), None)
        return cls(players=state.num_players, hands=tuple(state.hands), trump=state.trump_mask, leader=leader,
                   trick=tuple(card for _seat, card in trick), tricks=tuple(state.tricks_won),
                   must_trump=state.rules.must_trump, high_low=state.rules.high_low_jokers,
                   joker_high=state.joker_high if state.rules.high_low_jokers else None,
                   first_joker=first_joker if state.rules.high_low_jokers else None)


def covers(rules: Rules) -> bool:
    """Whether the solver plays these rules: not Bust's second pack, whose copies of a card are
    cards 54 … 79 (past the C solver's 64-bit masks) and beat the first copy when played later
    (the search knows only one pack). Its analyses then leave the open-hand facts out."""
    return not rules.deck_mask >> 64


TrickCounts = frozenset[int]
"""A set of final trick counts of one seat."""


def forcible(position: OpenHand, seat: int, counts: Iterable[int] | None = None, *, limit: int = 0,
             implementation: Implementation = "auto") -> TrickCounts:
    """The final trick counts (among ``counts``; default: every count) that ``seat`` can
    end the hand with whatever the others play. Raises :class:`SearchLimitReached` after
    ``limit`` positions (0: no limit)."""
    return _solve(position, seat, counts, _FORCE, limit, implementation)


def reachable(position: OpenHand, seat: int, counts: Iterable[int] | None = None, *, limit: int = 0,
              implementation: Implementation = "auto") -> TrickCounts:
    """The final trick counts (among ``counts``) that ``seat`` ends with in some play of
    every seat (the others helping)."""
    return _solve(position, seat, counts, _HELP, limit, implementation)


def can_force(position: OpenHand, seat: int, tricks: int, *, limit: int = 0,
              implementation: Implementation = "auto") -> bool:
    """Whether ``seat`` can end the hand with exactly ``tricks`` whatever the others do."""
    return tricks in forcible(position, seat, (tricks,), limit=limit, implementation=implementation)


_last_nodes = 0


def last_nodes() -> int:
    """Positions searched by the last call (for measurements)."""
    return _last_nodes


def _solve(position: OpenHand, seat: int, counts: Iterable[int] | None, mode: int, limit: int,
           implementation: Implementation) -> TrickCounts:
    global _last_nodes
    if not 0 <= seat < position.players:
        raise ValueError(f"no seat {seat}")
    want = 0
    top = position.tricks[seat] + position.remaining
    for count in (range(top + 1) if counts is None else counts):
        if 0 <= count <= top:
            want |= 1 << count
    if implementation == "c" or (implementation == "auto" and NATIVE):
        if native is None:
            raise RuntimeError("the C solver (ohhell.analysis._solver) is not built")
        jokers = position.joker_high
        mask, nodes = native.solve(
            position.players, position.hands, position.trump, position.must_trump, position.high_low,
            position.leader, position.trick, position.tricks[seat], position.remaining, seat,
            -1 if jokers is None else int(jokers), -1 if position.first_joker is None else position.first_joker,
            position.first_trick, mode, want, limit)
    else:
        search = _Search(position, seat, mode, limit)
        mask = search.run(want)
        nodes = search.nodes
    _last_nodes = nodes
    if mask < 0:
        raise SearchLimitReached(limit)
    return frozenset(count for count in range(top + 1) if mask >> count & 1)


# ----------------------------------------------------------------- the pure-Python search


@dataclass
class _Node:
    """A mutable position of the pure-Python search."""

    hands: list[CardMask]
    leader: int
    turn: int
    trick: list[Card]
    trick_suit: int | None
    mine: int
    remaining: int
    joker_high: bool | None
    first_joker: Card | None
    first_trick: bool


class _Search:
    """The same search as the C solver (sets of counts, a table at trick boundaries keyed
    by the hands, equivalent cards, sure winners), in Python."""

    def __init__(self, position: OpenHand, seat: int, mode: int, limit: int) -> None:
        self.n = position.players
        self.seat = seat
        self.mode = mode
        self.limit = limit
        self.trump = position.trump
        self.must_trump = position.must_trump
        self.high_low = position.high_low
        self.nodes = 0
        self.table: dict[tuple[object, ...], tuple[int, int]] = {}
        node = _Node(list(position.hands), position.leader, position.leader, [], None, 0, position.remaining,
                     position.joker_high, position.first_joker, position.first_trick)
        for card in position.trick:
            if self.high_low and card >= RED_JOKER and position.joker_high is None:
                raise ValueError("a joker in the trick but no declaration")
            node.hands[node.turn] |= 1 << card
            self._apply(node, card, position.joker_high)
        node.mine = position.tricks[seat]
        self.root = node

    def run(self, want: int) -> int:
        try:
            return self._search(self.root, want)
        except SearchLimitReached:
            return -1

    # -- the rules (as ohhell.game) --------------------------------------------------

    def _legal(self, node: _Node) -> CardMask:
        hand = node.hands[node.turn]
        leading = not node.trick
        if not self.high_low:
            if leading:
                return hand
            assert node.trick_suit is not None
            follow = hand & SUIT_MASKS[node.trick_suit]
            if follow:
                return follow
            if self.must_trump and hand & self.trump:
                return hand & self.trump
            return hand
        jokers = hand & JOKERS_MASK
        others = hand & ~JOKERS_MASK
        if leading:
            return others or hand
        mask = others
        if node.trick_suit is not None:
            follow = others & SUIT_MASKS[node.trick_suit]
            if follow:
                mask = follow
            elif self.must_trump and others & self.trump:
                mask = others & self.trump
        if node.first_trick:
            return mask or hand
        return mask | jokers

    def _joker_high(self, node: _Node, card: Card) -> bool:
        return bool(node.joker_high) if card == node.first_joker else not node.joker_high

    def _winner(self, node: _Node) -> int:
        led = node.trick_suit
        if led is None:
            led = next((card // 13 for card in node.trick if card < RED_JOKER), 4)
        best, best_seat = -1000, node.leader
        for index, card in enumerate(node.trick):
            if self.high_low and card >= RED_JOKER:
                power = 1000 if self._joker_high(node, card) else -1
            elif self.trump >> card & 1:
                power = 200 + (13 if card >= RED_JOKER else card % 13)
            elif card // 13 == led:
                power = 100 + (13 if card >= RED_JOKER else card % 13)
            else:
                continue
            if power > best:
                best, best_seat = power, (node.leader + index) % self.n
        return best_seat

    def _apply(self, node: _Node, card: Card, declare: bool | None) -> None:
        node.hands[node.turn] &= ~(1 << card)
        if not node.trick:
            node.trick_suit = None if self.high_low and card >= RED_JOKER else card // 13
        elif node.trick_suit is None and card < RED_JOKER and card_colour(card) == card_colour(node.trick[0]):
            node.trick_suit = card // 13
        if self.high_low and card >= RED_JOKER and node.joker_high is None:
            node.joker_high = declare
            node.first_joker = card
        node.trick.append(card)
        if len(node.trick) == self.n:
            winner = self._winner(node)
            if winner == self.seat:
                node.mine += 1
            node.leader = node.turn = winner
            node.trick = []
            node.remaining -= 1
            node.first_trick = False
        else:
            node.turn = (node.turn + 1) % self.n

    # -- the search ------------------------------------------------------------------

    def _sure_winners(self, node: _Node) -> int:
        mine = node.hands[self.seat] & self.trump
        if not mine:
            return 0
        others = other_jokers = 0
        for player in range(self.n):
            if player != self.seat:
                others |= node.hands[player] & self.trump
                other_jokers |= node.hands[player] & JOKERS_MASK
        if self.high_low and other_jokers:
            for joker in (52, 53):
                if other_jokers >> joker & 1 and (node.joker_high is None or self._joker_high(node, joker)):
                    return 0
        if not others:
            return bin(mine).count("1")
        top = others.bit_length() - 1
        return bin(mine >> (top + 1)).count("1")

    def _sure_losers(self, node: _Node) -> int:
        if not self.trump or (self.high_low and node.hands[self.seat] & JOKERS_MASK):
            return 0
        mine = node.hands[self.seat] & self.trump
        above = ~((2 << (mine.bit_length() - 1)) - 1) if mine else ~0
        return max(bin(node.hands[p] & self.trump & above).count("1") for p in range(self.n) if p != self.seat)

    def _moves(self, node: _Node) -> list[tuple[Card, bool | None]]:
        legal = self._legal(node)
        live = 0
        for hand in node.hands:
            live |= hand
        for card in node.trick:
            live |= 1 << card
        own = node.hands[node.turn]
        cards: list[Card] = []
        last = -10
        for card in range(54):
            if not legal >> card & 1:
                continue
            same_trump = (self.trump >> last & 1) == (self.trump >> card & 1) if last >= 0 else False
            if last >= 0 and card < RED_JOKER and last // 13 == card // 13 and same_trump:
                between = ((1 << card) - 1) & ~((1 << (last + 1)) - 1)
                if not between & live & ~own:
                    last = card
                    continue
            if last >= RED_JOKER and card >= RED_JOKER and not self.high_low and same_trump:
                last = card
                continue
            last = card
            cards.append(card)
        out: list[tuple[Card, bool | None]] = []
        for card in cards:
            if self.high_low and card >= RED_JOKER and node.joker_high is None:
                out += [(card, True), (card, False)]
            else:
                out.append((card, None))
        return out

    def _search(self, node: _Node, want: int) -> int:
        if not want:
            return 0
        if node.remaining == 0:
            return want & (1 << node.mine)
        self.nodes += 1
        if self.limit and self.nodes > self.limit:
            raise SearchLimitReached(self.limit)
        if node.trick:
            return self._search_moves(node, want)
        sure = self._sure_winners(node)
        span = ((1 << (node.remaining - self._sure_losers(node) + 1)) - 1) << node.mine
        want &= span & ~((1 << (node.mine + sure)) - 1)
        if not want:
            return 0
        key = (tuple(node.hands), node.leader, node.joker_high, node.first_joker, node.first_trick)
        relative = want >> node.mine
        yes, no = self.table.get(key, (0, 0))
        open_counts = relative & ~(yes | no)
        if open_counts:
            found = self._search_moves(node, open_counts << node.mine) >> node.mine
            yes |= found
            no |= open_counts & ~found
            self.table[key] = (yes, no)
        return (yes & relative) << node.mine

    def _search_moves(self, node: _Node, want: int) -> int:
        either = self.mode == _HELP or node.turn == self.seat
        result = 0 if either else want
        for card, declare in self._moves(node):
            child = _Node(list(node.hands), node.leader, node.turn, list(node.trick), node.trick_suit, node.mine,
                          node.remaining, node.joker_high, node.first_joker, node.first_trick)
            self._apply(child, card, declare)
            if either:
                result |= self._search(child, want & ~result)
                if result == want:
                    break
            else:
                result &= self._search(child, result)
                if not result:
                    break
        return result


__all__ = ["MAX_TRICKS", "NATIVE", "OpenHand", "SearchLimitReached", "TrickCounts", "can_force", "forcible",
           "last_nodes", "reachable"]
