"""Many games of Oh Hell stepped at once on NumPy arrays, for reinforcement learning.

:class:`BatchedGames` holds ``N`` independent games — whole games or single hands of a preset,
as :class:`~ohhell.integrations.core.Setup` describes them — and advances all of them with one
:meth:`~BatchedGames.step` of ``N`` actions. The loop over the games runs in C
(``ohhell.fastsim._batch``) on the arrays, with the GIL released. Actions are numbered as
everywhere else (:class:`~ohhell.integrations.core.ActionCodec`: card ids ``0 … 51`` play a
card, ``55 + b`` bids ``b``), legal actions come as a boolean mask of shape
``(N, num_actions)``, each finished hand pays every seat its score, and the observation is the
one of every other interface (:mod:`ohhell.integrations.encoding`, perfect recall included).

>>> import numpy as np
>>> from ohhell.integrations.core import Setup
>>> games = BatchedGames(Setup.create("classic", players=4, mode="hand", hand=5), n=256, seed=1)
>>> while not games.done.all():
...     rewards = games.step(games.sample_actions())
>>> int(games.tricks_won.sum(axis=1).min()), games.totals.shape
(5, (256, 4))

:class:`BatchedHands` is the same for one hand of a given size (``hand_size``) or of the
schedule (``hand``).

What it plays (:func:`unsupported` names what it does not): any pack of standard cards (52, 32,
twos removed), any schedule of a fixed length (a whole game, or one of its hands), trump
``turn-up``, ``turn-up-low-none``, ``rotation``, ``fixed`` and ``none``, no-trump hands,
in-turn bidding with or without the hook, ``first_lead``, ``must_trump``, every ``scoring``
and ``zero_bid``, a target score that bounces. Not: jokers, simultaneous bidding, Devil's
Bridge's blind hand, ``no_bid_from``, games without a fixed number of hands. Bids are final (no
bid-change window), as in the other learning interfaces. Every action is checked against the
reference engine in ``tests/integrations/test_batched.py``.
"""

from __future__ import annotations

import secrets
from typing import TYPE_CHECKING, Final

import numpy as np
import numpy.typing as npt

from ohhell.actions import Deal, make_bid, make_play
from ohhell.cards import JOKERS_MASK
from ohhell.game import Game, State
from ohhell.integrations.core import CARD_IDS, ActionCodec, Setup, single_hand_rules
from ohhell.integrations.dealing import seed_state
from ohhell.integrations.encoding import ObservationEncoder
from ohhell.rules import Rules
from ohhell.scoring import hand_score

if TYPE_CHECKING:
    import ohhell.fastsim._batch as _batch
else:
    try:
        import ohhell.fastsim._batch as _batch
    except ImportError:  # pragma: no cover - built by pip install; optional without a compiler
        _batch = None

IntArray = npt.NDArray[np.int64]
BoolArray = npt.NDArray[np.bool_]
FloatArray = npt.NDArray[np.float32]

CARDS: Final = 52
BIDDING: Final = 0
PLAYING: Final = 1
OVER: Final = 2

_TRUMP_CODES: Final = {"turn-up": 0, "turn-up-low-none": 1, "none": 2, "S": 3, "H": 4, "D": 5, "C": 6}
_OBSERVATION_SEGMENTS: Final = (
    "hand", "blind", "visible_hands", "phase", "hand_size", "progress", "dealer", "trump", "turn_up", "bidders",
    "has_bid", "bids", "forbidden_bid", "tricks_won", "cards_left", "acting", "trick_leader", "current_trick",
    "led_suit", "played", "totals", "history",
)

RECORD: Final = np.dtype({
    "names": ["phase", "turn", "dealer", "first_dealer", "leader", "led", "trump", "turn_up", "n_bids", "in_trick",
              "tricks_played", "hand", "size", "bids", "trick", "hands", "tricks_won", "totals"],
    "formats": ["i1", "i1", "i1", "i1", "i1", "i1", "i1", "i1", "i1", "i1", "i1", "i1", "i1", ("i1", 8), ("i1", 8),
                ("<u8", 8), ("i1", 8), ("<i4", 8)],
    "offsets": [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 16, 24, 32, 96, 104],
    "itemsize": 136,
})
"""One game in C (``Game`` in ``_batch.c``), read as a NumPy record."""


def available() -> bool:
    """Whether the C batch core is built."""
    return _batch is not None


def unsupported(rules: Rules) -> str | None:
    """The knob the batched simulator cannot play with these rules, or ``None`` when it can.

    >>> from ohhell.rules import preset
    >>> unsupported(preset("classic")), unsupported(preset("jokers")), unsupported(preset("boerenbridge"))
    (None, 'deck', 'bidding')
    """
    if rules.deck_mask & JOKERS_MASK:
        return "deck"
    if rules.bidding != "in-turn":
        return "bidding"
    if rules.no_bid_from is not None:
        return "no_bid_from"
    if rules.is_open_ended:
        return "target_score"
    length = rules.schedule_length() or 0
    plans = [rules.hand_plan(index) for index in range(length)]
    if rules.devils_bridge and any(plan is not None and plan.size == 1 and index == length - 1
                                   for index, plan in enumerate(plans)):
        return "devils_bridge"
    if any(plan is not None and plan.trump == "chosen" for plan in plans):
        return "trump"
    if rules.players > 8 or rules.largest_hand > 31:
        return "players"
    return None


_REASONS: Final = {
    "deck": "the batched simulator plays standard cards only (no jokers)",
    "bidding": "the batched simulator plays in-turn bidding only",
    "no_bid_from": "every seat bids in the batched simulator",
    "target_score": "the batched simulator plays games of a fixed number of hands (set hand_count or max_hands)",
    "devils_bridge": "the batched simulator has no blind hand",
    "players": "too many players or cards for the batched simulator",
    "trump": "the batched simulator has no choice of trump by the highest bidder (trump: chosen)",
}


def sample_legal(mask: BoolArray, rng: np.random.Generator) -> IntArray:
    """One uniformly random legal action per row of ``mask`` (rows without any give 0)."""
    keys = rng.random(mask.shape, dtype=np.float32)
    keys += 1.0  # in [1, 2): a legal action never ties with the zeros of the illegal ones
    keys *= mask
    return np.asarray(keys.argmax(axis=1), dtype=np.int64)


class BatchedGames:
    """``n`` games of one set-up, stepped together (see the module docstring).

    ``seed`` seeds the deals (and :meth:`sample_actions`); ``perfect_recall`` chooses the
    observation (see :mod:`ohhell.integrations.encoding`).
    """

    def __init__(self, setup: Setup, n: int, seed: int | None = None, perfect_recall: bool = False) -> None:
        if _batch is None:
            raise RuntimeError("the batched simulator (ohhell.fastsim._batch) is not built; reinstall ohhell "
                               "with a C compiler")
        rules = setup.rules
        reason = unsupported(rules)
        if reason is not None:
            raise ValueError(f"{reason}: {_REASONS[reason]}")
        if int(n) < 1:
            raise ValueError(f"a batch needs at least one game, not {n}")
        self.setup = setup
        self.rules = rules
        self.n = int(n)
        self.players = rules.players
        self.codec: ActionCodec = setup.codec
        self.num_actions = self.codec.num_actions
        self.encoder = ObservationEncoder(setup, perfect_recall=perfect_recall)
        self.perfect_recall = perfect_recall
        self.hand_count = setup.hand_count
        self.deck = np.array([card for card in range(CARDS) if rules.deck_mask >> card & 1], dtype=np.int64)
        self.cfg = self._config()
        self.total_scale = float(self.encoder.total_scale)
        self._games = np.zeros((self.n, RECORD.itemsize), dtype=np.uint8)
        self.records = self._games.view(RECORD).reshape(self.n)
        assert _batch.record_size() == RECORD.itemsize, "ohhell.fastsim._batch was built from another _batch.c"
        block = _batch.hist_block(self.cfg)
        self._history = np.zeros((self.n, self.hand_count * block), dtype=np.int8)
        self._rng = np.zeros(1, dtype=np.uint64)
        self.seed(seed)
        self._mask = np.zeros((self.n, self.num_actions), dtype=np.bool_)
        self._mask_version = -1
        self._version = 0
        self._rewards = np.zeros((self.n, self.players), dtype=np.float32)
        self._actions = np.zeros(self.n, dtype=np.int64)
        self._one_seat = np.zeros(1, dtype=np.int64)
        self._one_action = np.zeros(1, dtype=np.int64)
        self.live = 0
        """How many games are still playing (``0``: every game is over; cheaper than ``done.all()``)."""
        self.reset()

    def _config(self) -> IntArray:
        rules = self.rules
        largest = self.encoder.largest  # of the whole schedule (in "hand" mode too): the observation's widths
        hands = self.hand_count
        sizes, trumps = [], []
        for index in range(hands):
            plan = rules.hand_plan(index)
            assert plan is not None
            sizes.append(plan.size)
            trumps.append(_TRUMP_CODES[plan.trump])
        width = largest + 1
        scores = np.zeros((width, width, width), dtype=np.int64)
        for size in set(sizes):
            for bid in range(size + 1):
                for tricks in range(size + 1):
                    scores[size, bid, tricks] = hand_score(rules, bid, tricks, size)
        offsets = [self.encoder.size]
        for name in _OBSERVATION_SEGMENTS:
            offsets.append(self.encoder.offsets[name][0] if name in self.encoder.offsets else -1)
        offsets.append(self.encoder.hand_count)
        header = [rules.players, hands, largest, int(rules.hook), int(rules.must_trump),
                  0 if rules.first_lead == "dealer" else 1, rules.deck_mask,
                  rules.target_score or 0, self.codec.BID_BASE, self.num_actions]
        return np.array([*header, *offsets, *sizes, *trumps, *scores.ravel()], dtype=np.int64)

    # -- dealing ----------------------------------------------------------------------------

    def reset(self, which: npt.ArrayLike | None = None, dealer: npt.ArrayLike | None = None) -> None:
        """Start new games in the rows of ``which`` (a boolean mask; all by default), first
        dealers at random (as :class:`Setup` says) unless given (``dealer``: one per game)."""
        rows = None if which is None else np.ascontiguousarray(np.asarray(which, dtype=np.bool_).reshape(self.n),
                                                                dtype=np.uint8)
        dealers = self._dealers(dealer)
        self._version += 1
        _batch.reset(self.cfg, self._games, self._history, self._rng, rows, dealers, None)
        self.live = self.n if rows is None else int((self.records["phase"] != OVER).sum())

    def set_deals(self, packs: npt.ArrayLike, dealer: npt.ArrayLike) -> None:
        """Start every game with its first hand dealt from a given pack order (``(n, deck)``,
        top card first) and first dealer: cards go one at a time from the left of the dealer,
        then the next is turned up. Later hands are shuffled."""
        packs_array = np.ascontiguousarray(packs, dtype=np.int64)
        if packs_array.shape != (self.n, self.deck.size):
            raise ValueError(f"packs must have shape {(self.n, self.deck.size)}, not {packs_array.shape}")
        if not (np.sort(packs_array, axis=1) == self.deck[None, :]).all():
            raise ValueError("each pack must hold every card of the deck once")
        self._version += 1
        _batch.reset(self.cfg, self._games, self._history, self._rng, None, self._dealers(dealer), packs_array)
        self.live = self.n

    def seed(self, seed: int | None) -> None:
        """Seed the deals and :meth:`sample_actions` again (``None``: from the operating system)."""
        # splitmix64 in C mixes any start well; ohhell.integrations.dealing replays the same
        # stream on the engine (one seed, one deal, whatever the backend).
        self._rng[0] = secrets.randbits(64) if seed is None else seed_state(seed)

    def _dealers(self, dealer: npt.ArrayLike | None) -> IntArray | None:
        if dealer is None:
            if self.setup.dealer is None:
                return None
            return np.full(self.n, self.setup.dealer, dtype=np.int64)
        return np.ascontiguousarray(np.asarray(dealer, dtype=np.int64).reshape(self.n))

    # -- queries -------------------------------------------------------------------------------

    @property
    def done(self) -> BoolArray:
        """Which games are over."""
        return np.asarray(self.records["phase"] == OVER)

    def current_player(self) -> IntArray:
        """The seat to act in each game (-1 when the game is over)."""
        return np.where(self.done, -1, self.records["turn"].astype(np.int64))

    def terminal(self) -> BoolArray:
        """Which games ended by their rules (not cut short by the set-up's hand cap)."""
        length = self.rules.schedule_length() or 0
        target = self.rules.target_score
        reached = (self.totals == target).any(axis=1) if target is not None else np.zeros(self.n, dtype=np.bool_)
        return self.done & ((self.hand_index >= length) | reached)

    @property
    def hand_index(self) -> IntArray:
        """The hand being played in each game (0-based; the number of hands when over)."""
        return self.records["hand"].astype(np.int64)

    @property
    def dealer(self) -> IntArray:
        return self.records["dealer"].astype(np.int64)

    @property
    def trump(self) -> IntArray:
        """The trump suit of the current hand (-1: none)."""
        return self.records["trump"].astype(np.int64)

    @property
    def turn_up(self) -> IntArray:
        """The turned-up card of the current hand (-1: none)."""
        return self.records["turn_up"].astype(np.int64)

    @property
    def size(self) -> IntArray:
        """The cards dealt to each seat in the current hand."""
        return self.records["size"].astype(np.int64)

    @property
    def bids(self) -> IntArray:
        """``(n, players)``: the bids of the current hand (-1: not yet)."""
        return self.records["bids"][:, :self.players].astype(np.int64)

    @property
    def tricks_won(self) -> IntArray:
        return self.records["tricks_won"][:, :self.players].astype(np.int64)

    @property
    def totals(self) -> IntArray:
        return self.records["totals"][:, :self.players].astype(np.int64)

    @property
    def hands(self) -> BoolArray:
        """``(n, players, 52)``: the cards each seat holds (a copy: for inspection only)."""
        masks = self.records["hands"][:, :self.players]
        bits = (masks[:, :, None] >> np.arange(CARDS, dtype=np.uint64)[None, None, :]) & np.uint64(1)
        return bits.astype(np.bool_)

    def legal_mask(self) -> BoolArray:
        """``(n, num_actions)``: the legal actions of the seat to act in each game (all false
        in games that are over). The array is reused: copy it to keep it past a step."""
        if self._mask_version != self._version:
            _batch.legal_mask(self.cfg, self._games, self._mask)
            self._mask_version = self._version
        return self._mask

    def sample_actions(self) -> IntArray:
        """A uniformly random legal action for every game (0 where the game is over), drawn in C."""
        out = np.empty(self.n, dtype=np.int64)
        _batch.sample(self.cfg, self._games, self._rng, out)
        return out

    # -- stepping --------------------------------------------------------------------------------

    def step(self, actions: npt.ArrayLike, copy: bool = True, which: npt.ArrayLike | None = None) -> FloatArray:
        """Apply one action per game (ignored in games that are over, and in those outside
        ``which``, a boolean mask, when given). Returns ``(n, players)``
        rewards: each seat's score of the hands that ended with this step, else 0 (with
        ``copy=False`` an array that the next step overwrites). Raises ``ValueError`` when an
        action is illegal (no game is changed then) and ``RuntimeError`` when every game is
        over (call :meth:`reset`)."""
        chosen = self._actions
        chosen[:] = np.asarray(actions, dtype=np.int64).reshape(self.n)
        rows = None if which is None else np.ascontiguousarray(np.asarray(which, dtype=np.bool_).reshape(self.n),
                                                                dtype=np.uint8)
        live = _batch.step(self.cfg, self._games, self._history, self._rng, chosen, self._rewards, rows)
        if live == -1:
            raise RuntimeError("every game of the batch is over: call reset() (or reset(which=batch.done))")
        if live < -1:
            bad = -live - 2
            seat = int(self.records["turn"][bad])
            raise ValueError(f"game {bad}: seat {seat} may not {self.codec.label(int(chosen[bad]))} now")
        self.live = live
        self._version += 1
        return self._rewards.copy() if copy else self._rewards

    def play_random(self, steps: int) -> int:
        """Step every game ``steps`` times with uniformly random legal actions, all in C;
        returns how many hands ended (games that are over stay over)."""
        self._version += 1
        ended: int = _batch.play_random(self.cfg, self._games, self._history, self._rng, int(steps))
        self.live = int((self.records["phase"] != OVER).sum())
        return ended

    def engine_state(self, game: int) -> State:
        """Game ``game`` of the batch as a reference-engine state (replayed from its history:
        every deal, bid and card), e.g. for :func:`ohhell.record.record_from_state`."""
        record = self.records[game]
        n, largest = self.players, self.encoder.largest
        block = _batch.hist_block(self.cfg)
        history = self._history[game]
        state = Game(self.rules).new_initial_state(first_dealer=int(record["first_dealer"]))
        over = int(record["phase"]) == OVER
        last = int(record["hand"]) - (1 if over else 0)
        for index in range(last + 1):
            hand = history[index * block:(index + 1) * block]
            bids = hand[:n]
            cards = hand[n:n + largest * n].reshape(largest, n)
            leaders = hand[n + largest * n:n + largest * n + largest]
            turn_up = int(hand[n + largest * n + 2 * largest + 1])
            dealer = state.dealer
            held = [{int(card) for card in cards[:, seat] if card >= 0} for seat in range(n)]
            if index == last and not over:
                masks = record["hands"]
                for seat in range(n):
                    held[seat] |= {card for card in range(CARDS) if int(masks[seat]) >> card & 1}
            state.apply(Deal(tuple(tuple(sorted(cards_of_seat)) for cards_of_seat in held),
                             None if turn_up < 0 else turn_up))
            for offset in range(n):
                seat = (dealer + 1 + offset) % n
                if bids[seat] < 0:
                    break
                state.apply(make_bid(seat, int(bids[seat])))
            for trick in range(largest):
                if leaders[trick] < 0:
                    break
                for offset in range(n):
                    seat = (int(leaders[trick]) + offset) % n
                    if cards[trick, seat] < 0:
                        break
                    state.apply(make_play(seat, int(cards[trick, seat])))
        return state

    # -- one game at a time (the PettingZoo and Gymnasium environments) ----------------------------

    def observe_one(self, seat: int) -> FloatArray:
        """The observation of ``seat`` in game 0, as a new vector (the one-game batch of an
        environment; no checks)."""
        self._one_seat[0] = seat
        out = np.empty(self.encoder.size, dtype=np.float32)
        _batch.observe(self.cfg, self._games, self._history, self._one_seat, self.total_scale, out)
        return out

    def mask_one(self, out: npt.NDArray[np.int8]) -> None:
        """Write the legal actions of game 0 into ``out`` (``int8[num_actions]``)."""
        _batch.legal_mask(self.cfg, self._games, out)

    def step_one(self, action: int) -> FloatArray | None:
        """Play ``action`` in game 0: the rewards of the seats when it ended a hand, else
        ``None``; ``ValueError`` when it is illegal, ``RuntimeError`` when the game is over."""
        self._one_action[0] = action
        hand = self._games[0, 11]
        live = _batch.step(self.cfg, self._games, self._history, self._rng, self._one_action, self._rewards)
        if live < 0:
            if live == -1:
                raise RuntimeError("the game is over: call reset()")
            raise ValueError(f"seat {int(self._games[0, 1])} may not {self.codec.label(action)} now")
        self.live = live
        self._version += 1
        return self._rewards[0] if self._games[0, 11] != hand else None

    @property
    def over_one(self) -> bool:
        """Whether game 0 is over."""
        return bool(self._games[0, 0] == OVER)

    @property
    def turn_one(self) -> int:
        """The seat to act in game 0."""
        return int(self._games[0, 1])

    # -- observations ------------------------------------------------------------------------------

    @property
    def observation_size(self) -> int:
        return int(self.encoder.size)

    def observe(self, seats: npt.ArrayLike | None = None, out: FloatArray | None = None) -> FloatArray:
        """``(n, observation_size)`` float32: what a seat of each game may know (by default the
        seat to act; ``seats``: one seat per game), in the layout of
        :mod:`ohhell.integrations.encoding` — the same vector as the other interfaces give."""
        if out is None:
            out = np.empty((self.n, self.encoder.size), dtype=np.float32)
        who = None if seats is None else np.ascontiguousarray(np.asarray(seats, dtype=np.int64).reshape(self.n))
        _batch.observe(self.cfg, self._games, self._history, who, self.total_scale, out)
        return out


class BatchedHands(BatchedGames):
    """``n`` single hands of the same rules: of ``hand_size`` cards (the trump rule of the
    schedule's first hand), or else hand ``hand`` of the schedule (its size and trump)."""

    def __init__(self, rules: Rules, n: int, hand_size: int | None = None, hand: int = 0,
                 seed: int | None = None, perfect_recall: bool = False) -> None:
        if hand_size is not None:
            size = int(hand_size)
            if size < 1:
                raise ValueError(f"hand_size must be at least 1, not {hand_size}")
            base = rules.hand_plan(0)
            trump = base.trump if base is not None else "turn-up"
            rules = single_hand_rules(rules.replace(schedule="explicit", hands=[[size, trump]],
                                                    one_card_hand_per_player=False, no_trump_last_hand=False,
                                                    no_trump_largest_hands=False, target_score=None,
                                                    hand_count=None, devils_bridge=False), 0)
            hand = 0
        super().__init__(Setup.create(rules=rules, mode="hand", hand=hand), n, seed=seed,
                         perfect_recall=perfect_recall)
        plan = self.rules.hand_plans()[0]
        self.plan_trump = plan.trump
        self.hand_size = plan.size

    @property
    def scores(self) -> IntArray:
        """``(n, players)``: each seat's score of the hand (its total: one hand is the game)."""
        return self.totals


__all__ = ["CARD_IDS", "RECORD", "BatchedGames", "BatchedHands", "available", "sample_legal", "unsupported"]
