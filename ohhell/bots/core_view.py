"""A seat's view as the fast core's position: the rules tuple and the card-play position
(:mod:`ohhell.fastsim`), shared by the bots that search with the core.

>>> from ohhell.bots.driver import deal_only
>>> from ohhell.game import Game
>>> from ohhell.rules import preset
>>> from ohhell.views import seat_view
>>> from ohhell.bots.knowledge import Knowledge
>>> state = deal_only(Game(preset("classic", players=3)).new_initial_state(), seed=1)
>>> view = seat_view(state, state.turn)
>>> score_rows(view)[0]  # nobody has bid yet
(0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0)
"""

from __future__ import annotations

from dataclasses import dataclass

from ohhell import fastsim
from ohhell.bots.knowledge import Knowledge
from ohhell.views import SeatView


def score_rows(view: SeatView) -> tuple[tuple[float, ...], ...]:
    """Every seat's score row for the bids as they stand (a seat yet to bid: zeros)."""
    rows = []
    for player in range(view.players):
        bid = view.bids[player]
        if bid is None and player in view.bid_order:
            rows.append((0.0,) * (view.hand_size + 1))
        else:
            rows.append(fastsim.score_row(view.rules, bid, view.totals[player], view.hand_size))
    return tuple(rows)


def play_position(view: SeatView, knowledge: Knowledge) -> tuple[fastsim.Cfg, fastsim.Pos]:
    """The core's rules tuple and position for the card play in progress of ``view``."""
    cfg: fastsim.Cfg = (view.players, view.hand_size, knowledge.trump, int(view.rules.must_trump),
                        tuple(-1 if b is None else b for b in view.bids), score_rows(view))
    gone = 0
    for trick in view.completed_tricks:
        for _player, card in trick.cards:
            gone |= 1 << card
    leader = view.current_trick[0][0] if view.current_trick else view.turn
    assert leader is not None
    left = view.hand_size - len(view.completed_tricks)
    pos: fastsim.Pos = (tuple(view.tricks_won), leader, tuple(c for _p, c in view.current_trick), left, gone)
    return cfg, pos


@dataclass(frozen=True)
class BidSetup:
    """What the core's bidding searches need besides the worlds (see ``fastsim.core.search``)."""

    cfg: fastsim.Cfg
    seat: int
    candidates: tuple[int, ...]
    my_rows: tuple[tuple[float, ...], ...]
    """The seat's score row after each candidate bid."""
    rows_by_bid: tuple[tuple[float, ...], ...]
    """Anyone's score row after each bid 0 … size (from a total of 0)."""
    bid_order: tuple[int, ...]
    known: tuple[int, ...]
    """Each seat's bid: made (other seats), -1 still to bid (or this seat), -2 does not bid."""
    dealer: int
    hook: int
    leader: int
    unseen: int
    """The cards that may be in another hand before any card is played (all but the turned card)."""

    def bidding(self, values: object = None) -> tuple[object, ...]:
        """The ``bidding`` argument of ``fastsim.core.search``."""
        return (self.seat, self.candidates, self.my_rows, self.rows_by_bid, self.bid_order, self.known, self.dealer,
                self.hook, self.leader, self.unseen, values)


def bid_setup(view: SeatView, knowledge: Knowledge, candidates: tuple[int, ...]) -> BidSetup:
    """The core's bidding position for ``view`` (the seat to bid) and its candidate bids."""
    rules = view.rules
    seat = view.seat
    assert seat is not None and view.dealer is not None and view.first_leader is not None
    size = view.hand_size
    known = []
    for player in range(view.players):
        made_bid = view.bids[player]
        if player not in view.bid_order:
            known.append(-2)
        elif made_bid is not None and player != seat:
            known.append(made_bid)
        else:
            known.append(-1)
    cfg: fastsim.Cfg = (view.players, size, knowledge.trump, int(rules.must_trump),
                        tuple(max(k, -1) for k in known), score_rows(view))
    return BidSetup(
        cfg=cfg, seat=seat, candidates=candidates,
        my_rows=tuple(fastsim.score_row(rules, b, view.totals[seat], size) for b in candidates),
        rows_by_bid=tuple(fastsim.score_row(rules, b, 0, size) for b in range(size + 1)),
        bid_order=tuple(view.bid_order), known=tuple(known), dealer=view.dealer,
        hook=int(rules.hook and rules.bidding == "in-turn"), leader=view.first_leader,
        unseen=knowledge.deck & ~(1 << view.turn_up if view.turn_up is not None else 0))


__all__ = ["BidSetup", "bid_setup", "play_position", "score_rows"]
