"""A batch of games on the reference engine, with the interface of the C batch.

:class:`EngineGames` plays what :class:`~ohhell.integrations.batched.BatchedGames` cannot — any
preset and knob (jokers, simultaneous bids, Devil's Bridge, games to a target score) — and lets
ohhell's bots play seats, since they see :class:`~ohhell.views.SeatView` values built from the
engine. It loops over its games in Python: the engine's speed, not the C core's.

>>> from ohhell.integrations.core import Setup
>>> games = EngineGames(Setup.create("jokers", players=3, mode="hand", hand=8), n=4, seed=1)
>>> while games.live:
...     rewards = games.step(games.sample_actions())
>>> games.totals.shape, bool(games.done.all())
((4, 3), True)
"""

from __future__ import annotations

import random
from typing import Final

import numpy as np
import numpy.typing as npt

from ohhell.game import State
from ohhell.integrations.core import ActionCodec, Setup, acting_seat, rl_legal_actions
from ohhell.integrations.encoding import ObservationEncoder
from ohhell.views import seat_view

IntArray = npt.NDArray[np.int64]
BoolArray = npt.NDArray[np.bool_]
FloatArray = npt.NDArray[np.float32]

NO_SEAT: Final = -1


class EngineGames:
    """``n`` engine games of one set-up (see the module docstring)."""

    def __init__(self, setup: Setup, n: int, seed: int | None = None, perfect_recall: bool = False) -> None:
        if int(n) < 1:
            raise ValueError(f"a batch needs at least one game, not {n}")
        self.setup = setup
        self.rules = setup.rules
        self.n = int(n)
        self.players = setup.players
        self.codec: ActionCodec = setup.codec
        self.num_actions = self.codec.num_actions
        self.encoder = ObservationEncoder(setup, perfect_recall=perfect_recall)
        self.perfect_recall = perfect_recall
        self._rng = random.Random(seed)
        self.states: list[State] = []
        self.live = 0
        """How many games are still playing."""
        self.reset()

    def seed(self, seed: int | None) -> None:
        self._rng = random.Random(seed)

    def reset(self, which: npt.ArrayLike | None = None, dealer: npt.ArrayLike | None = None) -> None:
        """Start new games in the rows of ``which`` (all by default); ``dealer``: one first
        dealer per game (default: as the set-up says)."""
        rows = range(self.n) if which is None else np.flatnonzero(np.asarray(which, dtype=np.bool_)).tolist()
        dealers = None if dealer is None else np.asarray(dealer, dtype=np.int64).reshape(self.n)
        if not self.states:
            self.states = [self.setup.new_state(self._rng) for _ in range(self.n)]
        for row in rows:
            if dealers is not None:
                state = self._new_state(int(dealers[row]))
            else:
                state = self.setup.new_state(self._rng)
            self.setup.advance_chance(state, self._rng)
            self.states[row] = state
        self.live = sum(1 for state in self.states if not self.setup.is_over(state))

    def _new_state(self, dealer: int) -> State:
        from ohhell.game import Game

        return Game(self.rules).new_initial_state(first_dealer=dealer)

    # -- queries -------------------------------------------------------------------------------

    @property
    def done(self) -> BoolArray:
        return np.array([self.setup.is_over(state) for state in self.states], dtype=np.bool_)

    def terminal(self) -> BoolArray:
        """Which games ended by their rules (not cut short by the hand cap)."""
        return np.array([state.is_terminal() for state in self.states], dtype=np.bool_)

    def current_player(self) -> IntArray:
        return np.array([NO_SEAT if self.setup.is_over(state) else (acting_seat(state) or 0)
                         for state in self.states], dtype=np.int64)

    @property
    def totals(self) -> IntArray:
        return np.array([state.totals for state in self.states], dtype=np.int64).reshape(self.n, self.players)

    @property
    def hand_index(self) -> IntArray:
        return np.array([state.hand_index for state in self.states], dtype=np.int64)

    def engine_state(self, game: int) -> State:
        return self.states[game]

    def legal_mask(self) -> BoolArray:
        mask = np.zeros((self.n, self.num_actions), dtype=np.bool_)
        for row, state in enumerate(self.states):
            if self.setup.is_over(state):
                continue
            seat = acting_seat(state)
            assert seat is not None
            for action in rl_legal_actions(seat_view(state, seat)):
                mask[row, self.codec.encode(action)] = True
        return mask

    def sample_actions(self) -> IntArray:
        out = np.zeros(self.n, dtype=np.int64)
        for row, state in enumerate(self.states):
            if self.setup.is_over(state):
                continue
            seat = acting_seat(state)
            assert seat is not None
            legal = rl_legal_actions(seat_view(state, seat))
            out[row] = self.codec.encode(legal[self._rng.randrange(len(legal))])
        return out

    # -- stepping --------------------------------------------------------------------------------

    def step(self, actions: npt.ArrayLike, which: npt.ArrayLike | None = None) -> FloatArray:
        """Apply one action per game in ``which`` (all by default) that is still playing;
        returns ``(n, players)`` rewards (the scores of hands that ended). ``ValueError`` for
        an illegal action (no game is changed)."""
        chosen = np.asarray(actions, dtype=np.int64).reshape(self.n)
        rows = [row for row in (range(self.n) if which is None else np.flatnonzero(np.asarray(which)).tolist())
                if not self.setup.is_over(self.states[row])]
        if not rows:
            raise RuntimeError("every game of the batch is over: call reset()")
        decoded = []
        for row in rows:
            state = self.states[row]
            seat = acting_seat(state)
            assert seat is not None
            index = int(chosen[row])
            legal = rl_legal_actions(seat_view(state, seat))
            action = self.codec.decode(index, seat) if 0 <= index < self.num_actions else None
            if action is None or action not in legal:
                raise ValueError(f"game {row}: seat {seat} may not {self.codec.label(index)} now")
            decoded.append((row, action))
        rewards = np.zeros((self.n, self.players), dtype=np.float32)
        for row, action in decoded:
            state = self.states[row]
            finished = len(state.finished_hands)
            state.apply(action)
            self.setup.advance_chance(state, self._rng)
            for result in state.finished_hands[finished:]:
                rewards[row] += np.asarray(result.scores, dtype=np.float32)
        self.live = sum(1 for state in self.states if not self.setup.is_over(state))
        return rewards

    # -- observations ------------------------------------------------------------------------------

    @property
    def observation_size(self) -> int:
        return int(self.encoder.size)

    def observe(self, seats: npt.ArrayLike | None = None, out: FloatArray | None = None) -> FloatArray:
        if out is None:
            out = np.empty((self.n, self.encoder.size), dtype=np.float32)
        who = None if seats is None else np.asarray(seats, dtype=np.int64).reshape(self.n)
        for row, state in enumerate(self.states):
            seat = int(who[row]) if who is not None and who[row] >= 0 else (acting_seat(state) or 0)
            self.encoder.encode(seat_view(state, seat), out=out[row])
        return out


__all__ = ["EngineGames"]
