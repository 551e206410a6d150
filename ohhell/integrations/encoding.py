"""Observation tensors built from a seat's view: what PettingZoo, Gymnasium and OpenSpiel see.

An :class:`ObservationEncoder` turns a :class:`~ohhell.views.SeatView` — the only place that
decides what a seat may know — into a flat ``float32`` vector of fixed size for one set-up.
Nothing here looks at the game state itself, so a tensor can never hold more than the view.

Seats are **relative**: row 0 is the observing seat, row 1 the seat to its left, and so on,
so that one policy can play every seat. Cards use their ids ``0 … 53`` (``suit * 13 + rank``
for S, H, D, C, then the two jokers). The segments, in order (``n`` players, ``C`` = 54 card
ids, ``B`` = the largest bid + 1):

=================  ===========  ==========================================================
segment            shape        meaning
=================  ===========  ==========================================================
``hand``           C            the cards the seat holds
``blind``          1            1 when the seat cannot see its own cards (Devil's Bridge)
``visible_hands``  n × C        other seats' cards it can see (only with Devil's Bridge)
``phase``          4            bidding, playing, declaring a joker, anything else
``hand_size``      1            cards dealt to each seat / the largest hand
``progress``       1            hands finished / hands in the game
``dealer``         n            the dealer
``trump``          6            S, H, D, C, the other joker, no trump
``turn_up``        C            the turned-up card
``bidders``        n            the seats that bid this hand
``has_bid``        n            the seats that have bid (a secret bid counts, unseen)
``bids``           n × B        each visible bid
``forbidden_bid``  B            the bid the hook forbids the dealer
``tricks_won``     n            tricks taken this hand / the largest hand
``cards_left``     n            cards in each hand / the largest hand
``acting``         n            the seat that acts now
``trick_leader``   n            the leader of the trick in progress
``current_trick``  n × C        the card each seat played to the trick in progress
``led_suit``       5            the suit to follow (S, H, D, C, jokers)
``played``         n × C        the cards each seat played to finished tricks of this hand
``joker_high``     2            the first joker was declared high / low (high-low jokers)
``totals``         n            each total, scaled into [-1, 1] by the game's score bounds
``history``        G × K        with ``perfect_recall`` only: one block per hand of the game
                                (G = the most hands it can last), see below
=================  ===========  ==========================================================

**What the default leaves out.** The default observation is the *situation*: it holds
every card each seat played this hand, but not in which trick, in what order, who led or
who won each trick (only how many tricks each seat took), and of earlier hands only the
totals. A perfect-recall observation (``perfect_recall=True``, in every environment) adds
``history``: for every hand so far (the current one included, finished hands in full), in
this order, ``bids`` (n × B, one-hot, as visible), ``tricks`` (H × n × C: the card each seat
played to trick t, H = the largest hand), ``leaders`` (H × n), ``winners`` (H × n), ``trump``
(6) and ``turn_up`` (C). With it, the tensor determines everything the seat has seen in the
game (its own earlier hands are the cards it played).

>>> import random
>>> from ohhell.integrations.core import Setup
>>> from ohhell.views import seat_view
>>> setup = Setup.create("classic", players=4)
>>> state = setup.new_state(random.Random(1)); setup.advance_chance(state, random.Random(2))
>>> encoder = ObservationEncoder(setup)
>>> vector = encoder.encode(seat_view(state, 0))
>>> vector.shape, int(vector[:54].sum()), encoder.size
((645,), 10, 645)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

import numpy as np
import numpy.typing as npt

from ohhell.cards import HIDDEN_CARD
from ohhell.game import Phase
from ohhell.integrations.core import CARD_IDS, Setup, score_bounds
from ohhell.views import SeatView

FloatArray = npt.NDArray[np.float32]

_PHASES: Final = {Phase.BIDDING: 0, Phase.PLAYING: 1, Phase.DECLARING: 2}
_NO_TRUMP: Final = 5


class ObservationEncoder:
    """Fixed-size tensors of a set-up's views (see the module docstring for the layout).

    ``perfect_recall`` adds the ``history`` segment (OpenSpiel's information-state tensor):
    with it, the tensor determines everything the seat saw in the game.
    """

    def __init__(self, setup: Setup, perfect_recall: bool = False) -> None:
        rules = setup.base_rules
        n = self.players = rules.players
        self.largest = rules.largest_hand
        bids = self.largest + 1
        self.hand_count = setup.hand_count
        low, high = score_bounds(setup)
        self.total_scale = float(max(abs(low), abs(high), 1))
        self.devils_bridge = setup.rules.devils_bridge or rules.devils_bridge
        self.high_low = rules.high_low_jokers
        segments: list[tuple[str, tuple[int, ...]]] = [("hand", (CARD_IDS,)), ("blind", (1,))]
        if self.devils_bridge:
            segments.append(("visible_hands", (n, CARD_IDS)))
        segments += [
            ("phase", (4,)), ("hand_size", (1,)), ("progress", (1,)), ("dealer", (n,)), ("trump", (6,)),
            ("turn_up", (CARD_IDS,)), ("bidders", (n,)), ("has_bid", (n,)), ("bids", (n, bids)),
            ("forbidden_bid", (bids,)), ("tricks_won", (n,)), ("cards_left", (n,)), ("acting", (n,)),
            ("trick_leader", (n,)), ("current_trick", (n, CARD_IDS)), ("led_suit", (5,)),
            ("played", (n, CARD_IDS)),
        ]
        if self.high_low:
            segments.append(("joker_high", (2,)))
        segments.append(("totals", (n,)))
        self.perfect_recall = perfect_recall
        self.history_block = n * bids + self.largest * n * CARD_IDS + 2 * self.largest * n + 6 + CARD_IDS
        if perfect_recall:
            segments.append(("history", (self.hand_count, self.history_block)))
        self.segments = segments
        self.offsets: dict[str, tuple[int, tuple[int, ...]]] = {}
        offset = 0
        for name, shape in segments:
            self.offsets[name] = (offset, shape)
            offset += int(np.prod(shape))
        self.size = offset
        self.low = np.zeros(self.size, np.float32)
        self.high = np.ones(self.size, np.float32)
        start, _shape = self.offsets["totals"]
        self.low[start:start + n] = -1.0

    def views_of(self, tensor: FloatArray) -> dict[str, FloatArray]:
        """Named, reshaped views into a flat tensor (they share its memory)."""
        out = {}
        for name, (start, shape) in self.offsets.items():
            out[name] = tensor[start:start + int(np.prod(shape))].reshape(shape)
        return out

    def encode(self, view: SeatView, out: FloatArray | None = None) -> FloatArray:
        """The tensor of ``view`` (written into ``out`` when given)."""
        if out is None:
            out = np.zeros(self.size, np.float32)
        else:
            out.fill(0.0)
        n = self.players
        me = view.seat if view.seat is not None else 0
        offsets = self.offsets
        largest = self.largest

        def at(name: str) -> int:
            return offsets[name][0]

        def rel(seat: int) -> int:
            return (seat - me) % n

        hand = at("hand")
        for card in view.hand:
            if card != HIDDEN_CARD:
                out[hand + card] = 1.0
        out[at("blind")] = 1.0 if view.blind else 0.0
        if self.devils_bridge:
            base = at("visible_hands")
            for seat, cards in view.visible_hands.items():
                for card in cards:
                    out[base + rel(seat) * CARD_IDS + card] = 1.0
        out[at("phase") + _PHASES.get(view.phase, 3)] = 1.0
        out[at("hand_size")] = view.hand_size / largest if view.dealt else 0.0
        out[at("progress")] = min(view.hand_index / self.hand_count, 1.0)
        if view.dealer is not None:
            out[at("dealer") + rel(view.dealer)] = 1.0
        if view.dealt:
            out[at("trump") + (view.trump if view.trump is not None else _NO_TRUMP)] = 1.0
        if view.turn_up is not None:
            out[at("turn_up") + view.turn_up] = 1.0
        bids_at, bid_width = at("bids"), largest + 1
        for seat in view.bid_order:
            out[at("bidders") + rel(seat)] = 1.0
        for seat in range(n):
            if view.has_bid[seat]:
                out[at("has_bid") + rel(seat)] = 1.0
            bid = view.bids[seat]
            if bid is not None and bid <= largest:
                out[bids_at + rel(seat) * bid_width + bid] = 1.0
            out[at("tricks_won") + rel(seat)] = view.tricks_won[seat] / largest
            out[at("cards_left") + rel(seat)] = view.hand_counts[seat] / largest
            out[at("totals") + rel(seat)] = max(-1.0, min(1.0, view.totals[seat] / self.total_scale))
        if view.forbidden_bid is not None and view.forbidden_bid <= largest:
            out[at("forbidden_bid") + view.forbidden_bid] = 1.0
        acting = view.turn if view.turn is not None else (view.actors[0] if view.actors else None)
        if acting is not None and not view.game_over:
            out[at("acting") + rel(acting)] = 1.0
        if view.current_trick:
            out[at("trick_leader") + rel(view.current_trick[0][0])] = 1.0
            trick = at("current_trick")
            for seat, card in view.current_trick:
                out[trick + rel(seat) * CARD_IDS + card] = 1.0
        elif view.phase == Phase.PLAYING and view.turn is not None:
            out[at("trick_leader") + rel(view.turn)] = 1.0
        if view.trick_suit is not None:
            out[at("led_suit") + view.trick_suit] = 1.0
        played = at("played")
        for trick_done in view.completed_tricks:
            for seat, card in trick_done.cards:
                out[played + rel(seat) * CARD_IDS + card] = 1.0
        if self.high_low and view.joker_high is not None:
            out[at("joker_high") + (0 if view.joker_high else 1)] = 1.0
        if self.perfect_recall:
            self._encode_history(view, out, at("history"), rel)
        return out

    def _encode_history(self, view: SeatView, out: FloatArray, start: int, rel: Callable[[int], int]) -> None:
        """One block per hand so far (see the module docstring)."""
        n, largest = self.players, self.largest
        bid_width = largest + 1
        tricks_at = n * bid_width
        leaders_at = tricks_at + largest * n * CARD_IDS
        winners_at = leaders_at + largest * n
        trump_at = winners_at + largest * n
        turn_up_at = trump_at + 6
        hands: list[tuple[int, tuple[int | None, ...], list[tuple[int, list[tuple[int, int]], int | None]],
                          int | None, int | None]] = []
        for summary in view.finished_hands:
            tricks: list[tuple[int, list[tuple[int, int]], int | None]] = []
            plays = list(summary.plays or ())
            for index in range(0, len(plays), n):
                cards = plays[index:index + n]
                winner = summary.trick_winners[index // n] if index // n < len(summary.trick_winners) else None
                tricks.append((cards[0][0], cards, winner))
            hands.append((summary.index, summary.bids, tricks, summary.trump, summary.turn_up))
        if view.dealt:
            current: list[tuple[int, list[tuple[int, int]], int | None]] = [
                (trick.leader, list(trick.cards), trick.winner) for trick in view.completed_tricks]
            if view.current_trick:
                current.append((view.current_trick[0][0], list(view.current_trick), None))
            hands.append((view.hand_index, view.bids, current, view.trump, view.turn_up))
        for index, bids, tricks, trump, turn_up in hands:
            if index >= self.hand_count:
                continue
            base = start + index * self.history_block
            for seat, bid in enumerate(bids):
                if bid is not None and bid <= largest:
                    out[base + rel(seat) * bid_width + bid] = 1.0
            for number, (leader, cards, winner) in enumerate(tricks[:largest]):
                for seat, card in cards:
                    out[base + tricks_at + (number * n + rel(seat)) * CARD_IDS + card] = 1.0
                out[base + leaders_at + number * n + rel(leader)] = 1.0
                if winner is not None:
                    out[base + winners_at + number * n + rel(winner)] = 1.0
            out[base + trump_at + (trump if trump is not None else _NO_TRUMP)] = 1.0
            if turn_up is not None:
                out[base + turn_up_at + turn_up] = 1.0
