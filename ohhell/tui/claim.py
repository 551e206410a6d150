"""Claiming the remaining tricks: the proof that they belong to a player whatever the others do.

A player who claims shows nothing and is told only "accepted" or "refused"; the proof is the
engine's, so it may look at every hand (:class:`~ohhell.game.State`, not a view). The claim is
proved when the claimant has a way of playing that wins every trick left in the hand against
every legal play of the others:

1. the trick in progress, and any position small enough, are searched exhaustively (the
   claimant picks a card, every other player may answer with any legal card);
2. when the claimant is on lead, a quick sufficient test is tried first: every card it holds
   is higher than every card the others hold in that suit, and it holds at least as many
   trumps as anyone else (it draws their trumps first, then cashes the rest).

The search has a budget of positions; a claim that cannot be proved within it is refused
("not yet"), never accepted wrongly.

>>> from ohhell.game import Game
>>> from ohhell.actions import Deal, Bid
>>> from ohhell.cards import parse_cards
>>> from ohhell.rules import preset
>>> state = Game(preset("classic", players=3, max_size=2)).new_initial_state(first_dealer=2)
>>> hands = tuple(tuple(parse_cards(text)) for text in ("AS AH", "QS 2H", "3H KS"))
>>> state.apply(Deal(hands, parse_cards("5H")[0]))
>>> for seat in (0, 1, 2):
...     state.apply(Bid(seat, (2, 1, 0)[seat]))
>>> can_claim(state, 0), can_claim(state, 1)
(True, False)
>>> from ohhell.cards import card_name
>>> card_name(winning_card(state, 0))
'AH'
"""

from __future__ import annotations

from typing import Final

from ohhell.actions import Action, Declare, Play
from ohhell.cards import CARD_RANKS, JOKERS_MASK, SUIT_MASKS, Card, iter_cards
from ohhell.game import Phase, State

DEFAULT_BUDGET: Final = 60_000
"""Positions the search may visit before it gives up (a fraction of a second)."""


class _OutOfBudget(Exception):
    pass


class _Search:
    def __init__(self, state: State, seat: int, budget: int) -> None:
        self.state = state.clone()
        self.seat = seat
        self.budget = budget
        self.hand_index = state.hand_index
        self.won0 = state.tricks_won[seat]
        self.done0 = len(state.trick_winners)
        self.size = state.hand_size

    def _lost_a_trick(self) -> bool:
        state = self.state
        if state.hand_index != self.hand_index:
            result = state.finished_hands[-1]
            return result.tricks[self.seat] - self.won0 != self.size - self.done0
        completed = len(state.trick_winners) - self.done0
        return state.tricks_won[self.seat] - self.won0 != completed

    def _moves(self) -> list[Action]:
        state = self.state
        turn = state.turn
        assert turn is not None
        moves = [action for action in state.legal_actions(turn) if isinstance(action, (Play, Declare))]
        # Strong cards first: the claimant finds a winning line sooner, the others a refutation.
        trump_mask = state.trump_mask

        def strength(action: Action) -> int:
            if isinstance(action, Play):
                card = action.card
                return (1 << 8 if trump_mask >> card & 1 else 0) + (CARD_RANKS[card] if CARD_RANKS[card] < 13 else 20)
            return 1 if isinstance(action, Declare) and action.high else 0

        return sorted(moves, key=strength, reverse=True)

    def wins_all(self) -> bool:
        """Whether the claimant wins every remaining trick from here with best play."""
        state = self.state
        if state.hand_index != self.hand_index or state.phase not in (Phase.PLAYING, Phase.DECLARING):
            return True
        self.budget -= 1
        if self.budget < 0:
            raise _OutOfBudget
        turn = state.turn
        leading = state.phase == Phase.PLAYING and len(state.plays) % state.num_players == 0
        if turn == self.seat and leading and masters_claim(state, self.seat):
            return True
        claimant = turn == self.seat
        for move in self._moves():
            good = self._wins_all_after(move)
            if claimant and good:
                return True
            if not claimant and not good:
                return False
        return not claimant

    def best_move(self) -> Action | None:
        """A move of the claimant (on turn) that keeps every remaining trick, if one is proved."""
        return next((move for move in self._moves() if self._wins_all_after(move)), None)

    def _wins_all_after(self, move: Action) -> bool:
        """Whether the claimant still wins every trick after ``move`` (the state is restored)."""
        self.state.apply(move)
        try:
            return not self._lost_a_trick() and self.wins_all()
        finally:
            self.state.undo()


def masters_claim(state: State, seat: int) -> bool:
    """The quick test for a claimant on lead: every card of ``seat`` beats every card the others
    hold in its suit, and ``seat`` holds at least as many trumps as any other player (all higher
    than theirs), so it draws their trumps and then cashes its side cards. Only for plain tricks
    (no jokers)."""
    if not state.game.plain_tricks or state.phase != Phase.PLAYING:
        return False
    mine = state.hands[seat]
    others = [state.hands[other] for other in range(state.num_players) if other != seat]
    out = 0
    for hand in others:
        out |= hand
    for suit_mask in SUIT_MASKS[:4]:
        my_cards = mine & suit_mask
        their_cards = out & suit_mask
        if my_cards and their_cards and _lowest(my_cards) < _highest(their_cards):
            return False
    trump_mask = state.trump_mask & ~JOKERS_MASK
    if not trump_mask:
        return True
    my_trumps = (mine & trump_mask).bit_count()
    return all((hand & trump_mask).bit_count() <= my_trumps for hand in others)


def _lowest(mask: int) -> Card:
    return next(iter_cards(mask))


def _highest(mask: int) -> Card:
    return mask.bit_length() - 1


def can_claim(state: State, seat: int, budget: int = DEFAULT_BUDGET) -> bool:
    """Whether the engine can prove that ``seat`` takes every remaining trick of the hand."""
    if state.phase not in (Phase.PLAYING, Phase.DECLARING) or state.is_blind_hand:
        return False
    search = _Search(state, seat, budget)
    try:
        return search.wins_all()
    except _OutOfBudget:
        return False


def winning_card(state: State, seat: int, budget: int = DEFAULT_BUDGET) -> Card | None:
    """The card ``seat`` (on turn) plays to keep winning every trick after a claim, or ``None``
    if no such card is proved."""
    move = winning_move(state, seat, budget)
    return move.card if isinstance(move, Play) else None


def winning_move(state: State, seat: int, budget: int = DEFAULT_BUDGET) -> Action | None:
    """The card (or joker declaration) ``seat`` plays next in a proved claim."""
    if state.turn != seat or state.phase not in (Phase.PLAYING, Phase.DECLARING):
        return None
    search = _Search(state, seat, budget)
    try:
        return search.best_move()
    except _OutOfBudget:
        return None
