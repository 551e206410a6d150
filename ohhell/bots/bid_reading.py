"""What the bids made say about the hidden hands, by the learned bid model.

A deal of the unseen cards is more likely the better its hands explain the bids their seats
made: a seat that bid 4 of 10 holds, in a likely deal, a hand a strong player bids 4 with.
:func:`careful_bids` gives, for each other seat that bid, how likely its bid is from a strong
player holding each deal's hand (the model's policy, :mod:`ohhell.bots.bid_model`), and
:func:`weighed_worlds` draws deals by the weight the bids give them, each bidder judged careful
or, by the bids it made and missed in the hands before (:func:`random_prior`), random. The strong
bot weighs its search's worlds this way; the club player (:mod:`ohhell.bots.basic`) its
look-ahead's deals.

>>> import random
>>> from ohhell.actions import Bid
>>> from ohhell.bots.driver import deal_only
>>> from ohhell.game import Game
>>> from ohhell.rules import preset
>>> from ohhell.views import seat_view
>>> state = deal_only(Game(preset("classic", players=4)).new_initial_state(), seed=3)
>>> first, second, third = state.bid_order[:3]
>>> state.apply(Bid(first, 2)); state.apply(Bid(second, 5))
>>> view = seat_view(state, third)
>>> knowledge = Knowledge.from_view(view)
>>> likely = careful_bids(view, knowledge, knowledge.sample(6, random.Random(1)))
>>> sorted(likely) == sorted([first, second]), [len(chances) for chances in likely.values()]
(True, [6, 6])
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Final

from ohhell import fastsim
from ohhell.bots import bid_model
from ohhell.bots.knowledge import DEFAULT_RANDOM_PRIOR, Knowledge, World, resample
from ohhell.views import SeatView

MADE_IF_RANDOM: Final = 0.2
"""About how often a random player makes its bid (measured: 19% in 4-player classic)."""
MADE_IF_CAREFUL: Final = 0.6
"""About how often a careful player makes its bid."""


def random_prior(view: SeatView, base: float = DEFAULT_RANDOM_PRIOR) -> list[float]:
    """Each seat's prior chance of playing at random, from the hands finished so far: a
    careful player makes its bid far more often than a random one."""
    prior = [base] * view.players
    for player in range(view.players):
        odds = base / (1 - base)
        for hand in view.finished_hands[-12:]:
            bid = hand.bids[player]
            if bid is None:
                continue
            made = bid == hand.tricks[player]
            odds *= (MADE_IF_RANDOM / MADE_IF_CAREFUL) if made else ((1 - MADE_IF_RANDOM) / (1 - MADE_IF_CAREFUL))
        prior[player] = min(0.95, max(0.02, odds / (1 + odds)))
    if view.seat is not None:
        prior[view.seat] = 0.0
    return prior


def model_table(view: SeatView) -> bid_model.Table | None:
    """The bid model's view of the hand being bid (``None`` when the model or the fast core is
    missing, or the model does not know these rules or this hand size)."""
    if not fastsim.AVAILABLE or view.blind or not bid_model.available() \
            or not bid_model.covers(view.rules, view.hand_size):
        return None
    return bid_model.Table.of(view.rules, view.trump, view.turn_up, view.hand_size, view.bid_order)


def careful_bids(view: SeatView, knowledge: Knowledge, pool: Sequence[World],
                 model: bid_model.BidModel | None = None) -> dict[int, list[float]] | None:
    """For each other seat that bid and whose hand is hidden: how likely its bid is, in each
    world of ``pool``, from a strong player holding that world's hand (with the cards it has
    played) — the learned model's policy, the hooked dealer choosing among the bids the hook
    left it. ``None`` where the model does not apply (then the bids are read from the hands'
    estimated worth: :meth:`Knowledge.bid_evidence`)."""
    table = model_table(view)
    if table is None:
        return None
    model = model or bid_model.load()
    seats = [p for p in range(view.players) if p != view.seat and view.bids[p] is not None
             and knowledge.known[p].bit_count() < knowledge.counts[p]]
    if not seats or not pool:
        return None
    size = view.hand_size
    hands = [world[p] | knowledge.played[p] for world in pool for p in seats]
    _values, policy_bytes = bid_model.batch(model, table, hands, [p for _w in pool for p in seats], view.bids, None)
    policy = memoryview(policy_bytes).cast("d")
    width = size + 1
    hooked = view.rules.hook and view.rules.bidding == "in-turn"
    careful: dict[int, list[float]] = {}
    for k, player in enumerate(seats):
        bid = view.bids[player]
        assert bid is not None
        forbidden = None
        if hooked and player == view.dealer:
            forbidden = size - sum(b for p, b in enumerate(view.bids) if p != player and b is not None)
            if not 0 <= forbidden <= size or forbidden == bid:
                forbidden = None
        likely = []
        for w in range(len(pool)):
            base = (w * len(seats) + k) * width
            chance = policy[base + bid]
            if forbidden is not None:  # the dealer chose among the bids the hook left
                chance /= max(1e-12, 1.0 - policy[base + forbidden])
            likely.append(chance)
        careful[player] = likely
    return careful


def weighed_worlds(view: SeatView, knowledge: Knowledge, count: int, pool_size: int, prior: Sequence[float],
                   rng: random.Random) -> list[World]:
    """``count`` worlds drawn from ``pool_size`` sampled ones by the weight the bids made give
    them (each other seat careful — :func:`careful_bids` — or, with chance ``prior[seat]``,
    bidding at random); plain samples when nobody else has bid."""
    if not any(b is not None for p, b in enumerate(view.bids) if p != view.seat):
        return knowledge.sample(count, rng)
    pool = knowledge.sample(max(count, pool_size), rng)
    hooked = view.rules.hook and view.rules.bidding == "in-turn"
    weights, _randomness = knowledge.bid_evidence(pool, view.bids, view.dealer, hooked, prior,
                                                  careful_bids(view, knowledge, pool))
    return resample(pool, weights, count, rng)


__all__ = ["MADE_IF_CAREFUL", "MADE_IF_RANDOM", "careful_bids", "model_table", "random_prior", "weighed_worlds"]
