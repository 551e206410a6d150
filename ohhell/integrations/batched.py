"""Many hands of Oh Hell stepped at once on numpy arrays, for reinforcement learning.

:class:`BatchedHands` holds ``N`` independent hands as a struct of arrays (pgx-style: no Python
loop over the games) and advances all of them with one :meth:`~BatchedHands.step` of ``N``
actions. Actions are numbered as everywhere else (:class:`~ohhell.integrations.core.ActionCodec`:
card ids ``0 … 51`` play a card, ``55 + b`` bids ``b``), legal actions come as a boolean mask
of shape ``(N, num_actions)``, and a finished hand pays every seat its score.

>>> import numpy as np
>>> from ohhell.rules import preset
>>> hands = BatchedHands(preset("classic", players=4), n=256, hand_size=5, seed=1)
>>> rng = np.random.default_rng(0)
>>> while not hands.done.all():
...     rewards = hands.step(sample_legal(hands.legal_mask(), rng))
>>> int(hands.tricks_won.sum(axis=1).min()), hands.scores.shape
(5, (256, 4))

What it plays: one hand of ``hand_size`` cards (or hand ``hand`` of the rules' schedule),
3 to 7 players, dealt from any deck of standard cards (52 or 32 cards, twos removed), with
these knobs of the rules: trump ``turn-up``, ``turn-up-low-none``, ``fixed`` and ``none``
(and the trump of a schedule's hand), in-turn bidding with or without the ``hook``,
``first_lead``, ``must_trump``, and every ``scoring`` and ``zero_bid``. Not supported (a
``ValueError`` names the knob): jokers, simultaneous bidding, Devil's Bridge's blind hand.
Bids are final (no bid-change window), as in the other learning interfaces.

The observation (:meth:`~BatchedHands.observe`) is the acting seat's: its cards, trump, the
turned card, every bid, tricks taken, the trick in progress and the cards already played,
seats relative to the observer — nothing of the other hands. Every hand is checked against
the reference engine in ``tests/integrations/test_batched.py``.
"""

from __future__ import annotations

from typing import Final

import numpy as np
import numpy.typing as npt

from ohhell.cards import SIX
from ohhell.integrations.core import ActionCodec, single_hand_rules
from ohhell.rules import Rules
from ohhell.scoring import hand_score

IntArray = npt.NDArray[np.int64]
BoolArray = npt.NDArray[np.bool_]
FloatArray = npt.NDArray[np.float32]

CARDS: Final = 52
BIDDING: Final = 0
PLAYING: Final = 1
DONE: Final = 2


def sample_legal(mask: BoolArray, rng: np.random.Generator) -> IntArray:
    """One uniformly random legal action per row of ``mask`` (rows without any give 0)."""
    keys = rng.random(mask.shape, dtype=np.float32)
    keys += 1.0  # in [1, 2): a legal action never ties with the zeros of the illegal ones
    keys *= mask
    return np.asarray(keys.argmax(axis=1), dtype=np.int64)


class BatchedHands:
    """``n`` hands of the same rules, stepped together (see the module docstring).

    ``rules`` gives the knobs; ``hand_size`` the cards per seat, or else ``hand`` picks a hand
    of the rules' schedule (size and trump). ``seed`` seeds the deals.
    """

    def __init__(self, rules: Rules, n: int, hand_size: int | None = None, hand: int = 0,
                 seed: int | None = None) -> None:
        if hand_size is None:
            one = single_hand_rules(rules, hand)
            plan = one.hand_plans()[0]
        else:
            plan_size = int(hand_size)
            if plan_size < 1:
                raise ValueError(f"hand_size must be at least 1, not {hand_size}")
            base = rules.hand_plan(0)
            trump = base.trump if base is not None else "turn-up"
            one = single_hand_rules(rules.replace(schedule="explicit", hands=[[plan_size, trump]],
                                                  one_card_hand_per_player=False, no_trump_last_hand=False,
                                                  no_trump_largest_hands=False, target_score=None,
                                                  hand_count=None, devils_bridge=False), 0)
            plan = one.hand_plans()[0]
        _check_supported(one, plan.size)
        self.rules = one
        self.n = int(n)
        self.players = one.players
        self.size = plan.size
        self.plan_trump = plan.trump
        self.deck = np.array([card for card in range(CARDS) if one.deck_mask >> card & 1], dtype=np.int64)
        self.codec = ActionCodec(one)
        self.num_actions = self.codec.num_actions
        self.bid_base = self.codec.BID_BASE
        self.hook = one.hook
        self.must_trump = one.must_trump
        self.lead_offset = 0 if one.first_lead == "dealer" else 1
        # score_table[bid, tricks]: every scoring system and zero-bid rule, from the engine's scoring.
        self.score_table = np.array([[hand_score(one, bid, tricks, self.size) for tricks in range(self.size + 1)]
                                     for bid in range(self.size + 1)], dtype=np.int64)
        self.rng = np.random.default_rng(seed)
        self._suit_masks = np.arange(CARDS)[None, :] // 13 == np.arange(4)[:, None]  # (4, 52)
        n_, p = self.n, self.players
        self.hands = np.zeros((n_, p, CARDS), dtype=bool)
        self.dealer = np.zeros(n_, dtype=np.int64)
        self.trump = np.full(n_, -1, dtype=np.int64)
        self.turn_up = np.full(n_, -1, dtype=np.int64)
        self.bids = np.full((n_, p), -1, dtype=np.int64)
        self.n_bids = np.zeros(n_, dtype=np.int64)
        self.phase = np.zeros(n_, dtype=np.int64)
        self.turn = np.zeros(n_, dtype=np.int64)
        self.trick = np.full((n_, p), -1, dtype=np.int64)
        self.trick_leader = np.zeros(n_, dtype=np.int64)
        self.led_suit = np.full(n_, -1, dtype=np.int64)
        self.in_trick = np.zeros(n_, dtype=np.int64)
        self.played = np.zeros((n_, CARDS), dtype=bool)
        self.tricks_won = np.zeros((n_, p), dtype=np.int64)
        self.tricks_played = np.zeros(n_, dtype=np.int64)
        self.scores = np.zeros((n_, p), dtype=np.int64)
        self._version = 0  # bumped by every change, so that step() reuses the mask legal_mask() made
        self._mask: tuple[int, BoolArray] | None = None
        self.reset()

    # -- dealing ----------------------------------------------------------------------------

    def reset(self, which: BoolArray | None = None, dealer: IntArray | None = None) -> None:
        """Deal new hands to the games in ``which`` (all by default), dealers at random unless given."""
        rows = np.arange(self.n) if which is None else np.flatnonzero(which)
        if rows.size == 0:
            return
        self._version += 1
        keys = self.rng.random((rows.size, self.deck.size))
        packs = self.deck[np.argsort(keys, axis=1)]
        dealers = self.rng.integers(0, self.players, rows.size) if dealer is None else np.asarray(dealer)[rows]
        self._deal(rows, packs, dealers)

    def set_deals(self, packs: IntArray, dealer: IntArray) -> None:
        """Deal every game from a given pack order (``(n, deck)``, top card first) and dealer:
        cards go one at a time from the left of the dealer, then the next is turned up."""
        self._version += 1
        self._deal(np.arange(self.n), np.asarray(packs, dtype=np.int64), np.asarray(dealer, dtype=np.int64))

    def _deal(self, rows: IntArray, packs: IntArray, dealers: IntArray) -> None:
        p, size = self.players, self.size
        dealt = p * size
        self.hands[rows] = False
        positions = np.arange(dealt)
        seats = (dealers[:, None] + 1 + positions[None, :]) % p  # (rows, dealt)
        row_index = np.repeat(rows, dealt)
        self.hands[row_index, seats.ravel(), packs[:, :dealt].ravel()] = True
        self.dealer[rows] = dealers
        turn_up = np.full(rows.size, -1, dtype=np.int64)
        trump = np.full(rows.size, -1, dtype=np.int64)
        rule = self.plan_trump
        if rule in ("turn-up", "turn-up-low-none") and packs.shape[1] > dealt:
            turn_up = packs[:, dealt].copy()
            trump = turn_up // 13
            if rule == "turn-up-low-none":
                trump = np.where(turn_up % 13 <= SIX, -1, trump)
        elif rule in ("S", "H", "D", "C"):
            trump[:] = "SHDC".index(rule)
        self.turn_up[rows] = turn_up
        self.trump[rows] = trump
        self.bids[rows] = -1
        self.n_bids[rows] = 0
        self.phase[rows] = BIDDING
        self.turn[rows] = (dealers + 1) % p
        self.trick[rows] = -1
        self.led_suit[rows] = -1
        self.in_trick[rows] = 0
        self.played[rows] = False
        self.tricks_won[rows] = 0
        self.tricks_played[rows] = 0
        self.scores[rows] = 0

    # -- queries -------------------------------------------------------------------------------

    @property
    def done(self) -> BoolArray:
        """Which hands are finished."""
        return np.asarray(self.phase == DONE)

    def current_player(self) -> IntArray:
        """The seat to act in each game (-1 when the hand is finished)."""
        return np.where(self.phase == DONE, -1, self.turn)

    def forbidden_bid(self) -> IntArray:
        """The bid the hook forbids the seat bidding now (-1 when none)."""
        others = np.where(self.bids >= 0, self.bids, 0).sum(axis=1)
        forbidden = self.size - others
        dealer_bids = (self.phase == BIDDING) & (self.turn == self.dealer) & self.hook
        return np.where(dealer_bids & (forbidden >= 0) & (forbidden <= self.size), forbidden, -1)

    def legal_mask(self) -> BoolArray:
        """``(n, num_actions)``: the legal actions of the seat to act in each game (do not
        modify it: :meth:`step` checks actions against it)."""
        if self._mask is not None and self._mask[0] == self._version:
            return self._mask[1]
        mask = np.zeros((self.n, self.num_actions), dtype=bool)
        rows = np.arange(self.n)
        bidding = self.phase == BIDDING
        bid_mask = np.zeros((self.n, self.size + 1), dtype=bool)
        bid_mask[bidding] = True
        forbidden = self.forbidden_bid()
        hooked = forbidden >= 0
        bid_mask[rows[hooked], forbidden[hooked]] = False
        mask[:, self.bid_base:self.bid_base + self.size + 1] = bid_mask
        playing = self.phase == PLAYING
        hand = self.hands[rows, self.turn] & playing[:, None]  # (n, 52)
        led = self.led_suit
        following = playing & (led >= 0)
        follow = hand & self._suit_masks[np.maximum(led, 0)] & following[:, None]
        can_follow = follow.any(axis=1)
        legal = np.where(can_follow[:, None], follow, hand)
        if self.must_trump:
            trumps = hand & self._suit_masks[np.maximum(self.trump, 0)] & (self.trump >= 0)[:, None]
            must = following & ~can_follow & trumps.any(axis=1)
            legal = np.where(must[:, None], trumps, legal)
        mask[:, :CARDS] = legal
        self._mask = (self._version, mask)
        return mask

    # -- stepping --------------------------------------------------------------------------------

    def step(self, actions: npt.ArrayLike) -> IntArray:
        """Apply one action per game (ignored for finished hands). Returns ``(n, players)``
        rewards: each seat's score in the games whose hand ended with this step, else 0.
        Raises ``ValueError`` when an action is illegal (no game is changed then)."""
        actions = np.asarray(actions, dtype=np.int64).reshape(self.n)
        live = self.phase != DONE
        rows = np.arange(self.n)
        legal = self.legal_mask()
        ok = legal[rows, np.clip(actions, 0, self.num_actions - 1)] & (actions >= 0) & (actions < self.num_actions)
        bad = live & ~ok
        if bad.any():
            game = int(np.flatnonzero(bad)[0])
            raise ValueError(f"game {game}: seat {int(self.turn[game])} may not "
                             f"{self.codec.label(int(actions[game]))} now")
        rewards = np.zeros((self.n, self.players), dtype=np.int64)
        self._version += 1
        bidding = live & (self.phase == BIDDING)
        if bidding.any():
            self._bid(np.flatnonzero(bidding), actions)
        playing = live & ~bidding
        if playing.any():
            ended = self._play(np.flatnonzero(playing), actions)
            if ended.size:
                rewards[ended] = self.scores[ended]
        return rewards

    def _bid(self, rows: IntArray, actions: IntArray) -> None:
        seats = self.turn[rows]
        self.bids[rows, seats] = actions[rows] - self.bid_base
        self.n_bids[rows] += 1
        self.turn[rows] = (seats + 1) % self.players
        over = rows[self.n_bids[rows] == self.players]
        if over.size:
            self.phase[over] = PLAYING
            leader = (self.dealer[over] + self.lead_offset) % self.players
            self.turn[over] = leader
            self.trick_leader[over] = leader

    def _play(self, rows: IntArray, actions: IntArray) -> IntArray:
        p = self.players
        seats = self.turn[rows]
        cards = actions[rows]
        self.hands[rows, seats, cards] = False
        self.trick[rows, seats] = cards
        leading = self.in_trick[rows] == 0
        self.led_suit[rows[leading]] = cards[leading] // 13
        self.in_trick[rows] += 1
        self.turn[rows] = (seats + 1) % p
        complete = rows[self.in_trick[rows] == p]
        if complete.size == 0:
            return np.asarray(complete, dtype=np.int64)
        trick = self.trick[complete]  # (k, p), by seat
        suits, ranks = trick // 13, trick % 13
        trumps = suits == self.trump[complete, None]
        follows = suits == self.led_suit[complete, None]
        power = np.where(trumps, 100 + ranks, np.where(follows, ranks, -1))
        winner = power.argmax(axis=1)
        self.tricks_won[complete, winner] += 1
        self.tricks_played[complete] += 1
        self.played[np.repeat(complete, p), trick.ravel()] = True
        self.trick[complete] = -1
        self.in_trick[complete] = 0
        self.led_suit[complete] = -1
        self.turn[complete] = winner
        self.trick_leader[complete] = winner
        ended = complete[self.tricks_played[complete] == self.size]
        if ended.size:
            self.phase[ended] = DONE
            self.scores[ended] = self.score_table[self.bids[ended], self.tricks_won[ended]]
        return np.asarray(ended, dtype=np.int64)

    # -- observations ------------------------------------------------------------------------------

    @property
    def observation_size(self) -> int:
        p, bids = self.players, self.size + 2
        return CARDS + 5 + CARDS + p * bids + p + p * CARDS + CARDS + 2 + p

    def observe(self) -> FloatArray:
        """``(n, observation_size)`` float32: what the seat to act in each game may know, seats
        relative to it — its hand (52), trump (S H D C none), the turned card (52), each bid
        one-hot with a last column for "not yet" (players × (size + 2)), tricks taken / size
        (players), the trick in progress (players × 52), cards played to finished tricks (52),
        the phase (bidding, playing) and the dealer (players)."""
        n, p, bid_width = self.n, self.players, self.size + 2
        rows = np.arange(n)
        me = self.turn
        order = (me[:, None] + np.arange(p)[None, :]) % p  # relative position -> seat
        out = np.zeros((n, self.observation_size), np.float32)
        at = 0
        out[:, :CARDS] = self.hands[rows, me]
        at += CARDS
        out[rows, at + np.where(self.trump >= 0, self.trump, 4)] = 1.0
        at += 5
        has_turn = self.turn_up >= 0
        out[rows[has_turn], at + self.turn_up[has_turn]] = 1.0
        at += CARDS
        bids = np.take_along_axis(self.bids, order, axis=1)
        columns = at + np.arange(p)[None, :] * bid_width + np.where(bids >= 0, bids, self.size + 1)
        out[rows[:, None], columns] = 1.0
        at += p * bid_width
        out[:, at:at + p] = np.take_along_axis(self.tricks_won, order, axis=1) / self.size
        at += p
        trick = np.take_along_axis(self.trick, order, axis=1)
        game, position = np.nonzero(trick >= 0)
        out[game, at + position * CARDS + trick[game, position]] = 1.0
        at += p * CARDS
        out[:, at:at + CARDS] = self.played
        at += CARDS
        live = self.phase != DONE
        out[rows[live], at + self.phase[live]] = 1.0
        at += 2
        out[rows, at + (self.dealer - me) % p] = 1.0
        return out


def _check_supported(rules: Rules, size: int) -> None:
    if rules.has_jokers:
        raise ValueError("deck: the batched simulator plays standard cards only (no jokers)")
    if rules.bidding != "in-turn":
        raise ValueError("bidding: the batched simulator plays in-turn bidding only")
    if rules.devils_bridge and size == 1:
        raise ValueError("devils_bridge: the batched simulator has no blind hand")
    if rules.no_bid_from is not None and rules.no_bid_from <= 0:
        raise ValueError("no_bid_from: every seat bids in the batched simulator")
