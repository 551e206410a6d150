"""The fast simulation core of the bots: one hand played on card masks, in C.

The reference engine (:mod:`ohhell.game`) is the authority on the rules; this core plays the
card-play of one hand about a hundred times faster, for the strong bot's rollouts and its
exact endgame solver, and for the simulator benchmark. ``tests/test_fastsim.py`` checks
that it gives exactly the engine's legal moves, trick winners and scores on many random
games of every preset it covers (:func:`covers`).

The core lives in the C extension ``ohhell.fastsim._core`` built by ``pip install``
(``setup.py``). When it could not be built, :data:`AVAILABLE` is false and the bots fall
back to the reference engine.

A position is three plain tuples, so that one call hands the core a whole batch of work:

* ``cfg`` = ``(players, hand_size, trump_mask, must_trump, bids, score_rows)``, where
  ``bids[seat]`` is ``-1`` for a seat that does not bid and ``score_rows[seat][t]`` is what
  the seat gains by ending the hand with ``t`` tricks (what every simulated player aims at);
* ``pos`` = ``(tricks_won, leader, cards_of_the_trick_in_progress, tricks_left, gone_mask)``;
* the hands: one mask per seat (a "world": every seat's cards).

>>> from ohhell.rules import preset
>>> covers(preset("classic")), covers(preset("ne-blackout", players=5))
(True, False)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Final

from ohhell.cards import CardMask
from ohhell.rules import Rules
from ohhell.scoring import add_to_total, hand_score

if TYPE_CHECKING:
    from ohhell.game import State

if TYPE_CHECKING:
    from ohhell.fastsim import _core as core
else:
    try:
        from ohhell.fastsim import _core as core
    except ImportError:  # pragma: no cover - the extension is optional
        core = None

AVAILABLE: Final = core is not None
"""Whether the C core is installed."""

MAX_SEATS: Final = 10
MAX_TRICKS: Final = 31

Cfg = tuple[int, int, int, int, tuple[int, ...], tuple[tuple[float, ...], ...]]
Pos = tuple[tuple[int, ...], int, tuple[int, ...], int, int]


def covers(rules: Rules) -> bool:
    """Whether the fast core plays these rules exactly (all but NE-Blackout's high-low jokers,
    bowers, and Bust's second pack, whose two copies of a card need masks wider than the core's
    64 bits and a trick winner by play order; for those the bots use the reference engine).

    It may still be missing (:data:`AVAILABLE`); :func:`usable` says both.
    """
    return (not rules.high_low_jokers and not rules.bowers and rules.players <= MAX_SEATS
            and rules.largest_hand <= MAX_TRICKS and not rules.deck_mask >> 64)


def usable(rules: Rules) -> bool:
    """Whether the bots can use the fast core for these rules."""
    return AVAILABLE and covers(rules)


def score_row(rules: Rules, bid: int | None, total: int, size: int) -> tuple[float, ...]:
    """What a seat with ``total`` points gains from each trick count ``0 … size`` after bidding
    ``bid`` (``None``: it does not bid): the change of its total, so a bounce past a target
    score counts as the loss it is.

    >>> from ohhell.rules import preset
    >>> score_row(preset("classic"), 1, 0, 3)
    (0.0, 11.0, 0.0, 0.0)
    >>> score_row(preset("boerenbridge"), 2, 95, 4)
    (0.0, 1.0, -2.0, 3.0, 4.0)
    """
    return tuple(float(add_to_total(rules, total, hand_score(rules, bid, tricks, size)) - total)
                 for tricks in range(size + 1))


def cfg_from_state(state: State, rows: Sequence[Sequence[float]] | None = None) -> Cfg:
    """The core's rules tuple for the hand in progress of a reference-engine state (its bids
    must be in; ``rows`` default to every seat's score rows)."""
    rules = state.rules
    n, size = state.num_players, state.hand_size
    bids = tuple(-1 if bid is None else bid for bid in state.bids)
    if rows is None:
        rows = [score_row(rules, state.bids[seat], state.totals[seat], size) for seat in range(n)]
    return (n, size, state.trump_mask, int(rules.must_trump), bids, tuple(tuple(row) for row in rows))


def pos_from_state(state: State) -> tuple[Pos, tuple[CardMask, ...]]:
    """The core's position and hands for the card-play in progress of a reference-engine state."""
    n = state.num_players
    trick = state.current_trick()
    leader = trick[0][0] if trick else state.turn
    assert leader is not None
    gone = 0
    for _leader, cards, _winner in state.completed_tricks():
        for _seat, card in cards:
            gone |= 1 << card
    left = state.hand_size - len(state.trick_winners)
    pos: Pos = (tuple(state.tricks_won), leader, tuple(card for _seat, card in trick), left, gone)
    return pos, tuple(state.hands[seat] for seat in range(n))


def simulate(players: int, size: int, count: int, deck: CardMask, *, turn_up: bool = True, hook: bool = True,
             must_trump: bool = False, dealer: int = 0, seed: int = 0) -> int:
    """Play ``count`` random complete hands in the core (shuffle, deal, turn-up, random bids
    with the hook, random play, exact scoring) and return the total score (a checksum)."""
    _need_core()
    total: int = core.simulate(players, size, count, deck, int(turn_up), int(hook), int(must_trump), dealer,
                               seed & 0xFFFFFFFFFFFFFFFF)
    return total


def random_hand(players: int, size: int, deck: CardMask, *, turn_up: bool = True, hook: bool = True,
                must_trump: bool = False, dealer: int = 0, seed: int = 0) -> tuple[Any, ...]:
    """One random hand played in the core: ``(hands, turn_up, bids, plays, tricks)``."""
    _need_core()
    result: tuple[Any, ...] = core.random_hand(players, size, 1, deck, int(turn_up), int(hook), int(must_trump),
                                               dealer, seed & 0xFFFFFFFFFFFFFFFF)
    return result


def _need_core() -> None:
    if core is None:
        raise RuntimeError("the fast simulation core (ohhell.fastsim._core) is not built; "
                           "reinstall ohhell with a C compiler")


__all__ = ["AVAILABLE", "Cfg", "Pos", "cfg_from_state", "core", "covers", "pos_from_state", "random_hand",
           "score_row", "simulate", "usable"]
