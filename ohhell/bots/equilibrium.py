"""The one-card equilibrium bidder: a good bidder to measure against (issue 29).

In a hand of one card the bid is the only decision, and a seat's score depends on its own bid
and on whether its card takes the trick, which the deal alone decides. The equilibrium
(:class:`ohhell.bots.exact_one_card.Equilibrium`) gives every place, after every sequence of
earlier bids, the best bid of each card against the earlier places bidding by their own
equilibrium rules. This bot bids it; it is the field of good bidders in which
``benchmarks/strength.py --field one-card`` measures the strong bot, not a level people meet.
Every other decision (hands of more cards, the only card it holds) is the club player's
(:class:`~ohhell.bots.basic.BasicBot`). The strong and club bots read the one-card bids made
before theirs by the same rules (:func:`earlier_bid_weights`).

>>> from ohhell.bots.driver import play_game
>>> from ohhell.bots.equilibrium_bot import EquilibriumBot
>>> from ohhell.rules import HandPlan, preset
>>> rules = preset("classic", players=3, schedule="explicit", hands=[HandPlan(1, "turn-up")])
>>> play_game(rules, [EquilibriumBot(seed=s) for s in range(3)], seed=4).is_terminal()
True
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Final

from ohhell.bots.heuristics import trump_mask_of
from ohhell.bots.knowledge import mixed_likelihoods
from ohhell.rules import Rules
from ohhell.views import SeatView

if TYPE_CHECKING:
    from ohhell.bots.exact_one_card import Equilibrium


RANDOM_PRIOR: Final = 0.02
"""The prior chance that an earlier one-card bidder bid at random rather than by the equilibrium
(the least :func:`ohhell.bots.strong.random_prior` gives; measured in docs/bots.md)."""


def covers(rules: Rules, view: SeatView) -> bool:
    """Whether the equilibrium knows this hand: one card, seen by its holder, bid 0 or 1 in
    turn or at once, and no high-low jokers nor Bust's second copies (the one-card tables cover
    one pack, where no two cards are equal)."""
    return (view.hand_size == 1 and not view.blind and not rules.high_low_jokers and len(view.hand) == 1
            and not rules.deck_mask >> 54)


def place_and_history(view: SeatView) -> tuple[int, tuple[int, ...]]:
    """The seat's place in the bidding (0 bids first) and the bids made before it, in order
    (none under simultaneous bidding: nobody hears a bid)."""
    assert view.seat is not None
    place = view.bid_order.index(view.seat)
    if view.rules.bidding == "simultaneous":
        return place, ()
    history = []
    for seat in view.bid_order[:place]:
        bid = view.bids[seat]
        if bid is None or bid not in (0, 1):
            raise ValueError(f"seat {seat} has no bid of 0 or 1 before seat {view.seat}")
        history.append(bid)
    return place, tuple(history)


def equilibrium_of(view: SeatView) -> Equilibrium:
    """The equilibrium of the view's one-card hand (its turned card and trump)."""
    from ohhell.bots.exact_one_card import Equilibrium

    return Equilibrium(view.rules, view.turn_up, trump_mask_of(view.trump, view.turn_up))


def earlier_bid_weights(view: SeatView, cards: Sequence[int], game: Equilibrium, prior: Sequence[float],
                        floor: float = 0.0) -> tuple[list[dict[int, float] | None], list[float]]:
    """What the bids made before this seat's say about the other seats' cards, by position in
    the trick (the weights of :func:`~ohhell.bots.one_card.win_chance`), each bidder read as
    bidding by the equilibrium rule of its place after the bids it heard, or at random (its
    ``prior`` share, updated by how well the rule explains its bid, never below ``floor``);
    and each seat's posterior chance of bidding at random."""
    assert view.seat is not None
    n = view.players
    leader = view.first_leader
    assert leader is not None
    weights: list[dict[int, float] | None] = [None] * n
    randomness = [0.0 if p == view.seat else prior[p] for p in range(n)]
    for player, bid in enumerate(view.bids):
        if player == view.seat or bid is None:
            continue
        place = view.bid_order.index(player)
        history = tuple(int(view.bids[p] or 0) for p in view.bid_order[:place])
        shown = game.bid_set(place, history, bid)
        likely, randomness[player] = mixed_likelihoods([float(shown >> card & 1) for card in cards], 1,
                                                       prior[player], floor)
        weights[(player - leader) % n] = dict(zip(cards, likely, strict=True))
    return weights, randomness


def reads_bids(view: SeatView) -> bool:
    """Whether a one-card hand's earlier bids can be read by the equilibrium: bid in turn, each
    0 or 1 (nobody hears a bid made at once)."""
    return (view.rules.bidding == "in-turn" and covers(view.rules, view)
            and all(b in (0, 1) for b in view.bids if b is not None))


__all__ = [
    "RANDOM_PRIOR",
    "covers",
    "earlier_bid_weights",
    "equilibrium_of",
    "place_and_history",
    "reads_bids",
]
