"""A vectorized Gymnasium environment: ``num_envs`` games, one learning seat in each, against
bots inside the batch.

>>> from ohhell.integrations.vector import OhHellVectorEnv
>>> envs = OhHellVectorEnv(num_envs=64, preset="classic", players=4, mode="hand", hand=5)
>>> observations, infos = envs.reset(seed=1)
>>> observations["observation"].shape, observations["action_mask"].shape
((64, 645), (64, 68))
>>> for _ in range(20):
...     actions = envs.sample_legal_actions()
...     observations, rewards, terminations, truncations, infos = envs.step(actions)
>>> rewards.shape, envs.backend
((64,), 'fast')

It is a :class:`gymnasium.vector.VectorEnv` with the ``NEXT_STEP`` autoreset mode: a game that
ends in one step is reset by the next, whose action is ignored and whose reward is 0. Each
game's single observation is that of :class:`~ohhell.integrations.gymnasium.OhHellEnv` —
``{"observation": float32[size], "action_mask": int8[num_actions]}`` — so a batch is a dict of
``(num_envs, …)`` arrays; :meth:`OhHellVectorEnv.action_masks` gives the masks as booleans
(sb3-contrib's MaskablePPO asks for them).

``opponents`` play every other seat: ``"random"``, ``"basic"``, ``"learned"`` or ``"strong"`` (one for all, or
one per other seat, as :func:`ohhell.bots.make_bot` names them). With random opponents and rules
the C core plays (:func:`ohhell.integrations.batched.unsupported`), the whole batch — the
learner's actions, the opponents' random actions, the masks and observations — runs in C
(``backend == "fast"``); otherwise the games run on the reference engine, the bots see their
own views, and the batch loops in Python (``backend == "engine"``): any preset and knob, whole
games or single hands, at the engine's and the bots' speed.

Rewards are the learner's score of each hand as it ends (``reward="score"``) or its placement at
the end (``"placement"``). An action outside the mask raises ``ValueError``.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, Final

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from gymnasium.vector import AutoresetMode
from gymnasium.vector.utils import batch_space

from ohhell.bots import Bot, make_bot
from ohhell.integrations import batched
from ohhell.integrations.core import REWARDS, Setup, acting_seat, placement_rewards
from ohhell.integrations.engine_batch import EngineGames
from ohhell.views import seat_view

IntArray = npt.NDArray[np.int64]
BoolArray = npt.NDArray[np.bool_]

OPPONENTS: Final = ("random", "basic", "learned", "strong")


class OhHellVectorEnv(gymnasium.vector.VectorEnv):
    """``num_envs`` games of one set-up, a learner's seat in each (see the module docstring).

    ``seat``: the learner's seat, or ``None`` (default) for a seat drawn at every reset of each
    game. ``perfect_recall`` chooses the observation (:mod:`ohhell.integrations.encoding`).
    ``backend``: ``"auto"``, ``"fast"`` (the C core; an error when it cannot) or ``"engine"``.
    The other arguments are those of :class:`~ohhell.integrations.gymnasium.OhHellEnv`.
    """

    metadata: dict[str, Any] = {"autoreset_mode": AutoresetMode.NEXT_STEP, "render_modes": []}  # noqa: RUF012

    def __init__(self, num_envs: int = 16, preset: str = "classic", players: int = 4, mode: str = "game",
                 hand: int = 0, seat: int | None = None, opponents: str | Sequence[str] = "random",
                 dealer: int | None = None, max_hands: int | None = None, reward: str = "score",
                 perfect_recall: bool = False, backend: str = "auto", **knobs: Any) -> None:
        self.setup = Setup.create(preset, players=players, mode=mode, hand=hand, dealer=dealer,
                                  max_hands=max_hands, **knobs)
        if reward not in REWARDS:
            raise ValueError(f"reward must be one of {', '.join(REWARDS)}, not {reward!r}")
        if seat is not None and not 0 <= seat < players:
            raise ValueError(f"the learner's seat must be 0 to {players - 1}, not {seat}")
        specs = [opponents] * (players - 1) if isinstance(opponents, str) else list(opponents)
        if len(specs) != players - 1:
            raise ValueError(f"{players} players need {players - 1} opponents, not {len(specs)}")
        for spec in specs:
            if spec not in OPPONENTS:
                raise ValueError(f"opponents are {', '.join(OPPONENTS)}, not {spec!r}")
        if backend not in ("auto", "fast", "engine"):
            raise ValueError(f"backend must be auto, fast or engine, not {backend!r}")
        reason = None if batched.available() else "the C batch core is not built"
        reason = reason or (None if batched.unsupported(self.setup.rules) is None
                            else f"{batched.unsupported(self.setup.rules)}: not played by the C core")
        if reason is None and any(spec != "random" for spec in specs):
            reason = "the basic, learned and strong bots play on the engine"
        if backend == "fast" and reason is not None:
            raise ValueError(f"backend='fast' cannot be used: {reason}")
        self.backend = "fast" if backend != "engine" and reason is None else "engine"
        self.num_envs = int(num_envs)
        self.opponent_specs = specs
        self.fixed_seat = seat
        self.reward_kind = reward
        games_class = batched.BatchedGames if self.backend == "fast" else EngineGames
        self.games: batched.BatchedGames | EngineGames = games_class(self.setup, self.num_envs,
                                                                     perfect_recall=perfect_recall)
        encoder = self.games.encoder
        self.codec = self.setup.codec
        self.single_observation_space = spaces.Dict({
            "observation": spaces.Box(encoder.low, encoder.high, dtype=np.float32),
            "action_mask": spaces.Box(0, 1, (self.codec.num_actions,), dtype=np.int8),
        })
        self.single_action_space = spaces.Discrete(self.codec.num_actions)
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        self.action_space = batch_space(self.single_action_space, self.num_envs)
        self._rng = random.Random()
        self.seats = np.zeros(self.num_envs, dtype=np.int64)
        """The learner's seat in each game."""
        self._bots: list[dict[int, Bot]] = [{} for _ in range(self.num_envs)]
        self._needs_reset = np.zeros(self.num_envs, dtype=np.bool_)
        self._mask = np.zeros((self.num_envs, self.codec.num_actions), dtype=np.int8)

    # -- the Gymnasium API ---------------------------------------------------------------

    def reset(self, *, seed: int | list[int] | None = None, options: dict[str, Any] | None = None
              ) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        if isinstance(seed, list):
            seed = seed[0] if seed else None
        if seed is not None:
            self._rng = random.Random(seed)
        self.games.seed(self._rng.randrange(2**63))
        self._restart(np.ones(self.num_envs, dtype=np.bool_))
        self._needs_reset[:] = False
        return self._observations(), self._infos()

    def step(self, actions: npt.ArrayLike) -> tuple[dict[str, np.ndarray], np.ndarray, np.ndarray, np.ndarray,
                                                     dict[str, Any]]:
        chosen = np.asarray(actions, dtype=np.int64).reshape(self.num_envs)
        rewards = np.zeros(self.num_envs, dtype=np.float64)
        restarting = self._needs_reset.copy()
        playing = ~restarting & ~self.games.done
        if playing.any():
            mask = self._learner_mask()
            rows = np.flatnonzero(playing)
            legal = mask[rows, np.clip(chosen[rows], 0, self.codec.num_actions - 1)].astype(np.bool_)
            legal &= (chosen[rows] >= 0) & (chosen[rows] < self.codec.num_actions)
            if not legal.all():
                game = int(rows[np.flatnonzero(~legal)[0]])
                raise ValueError(f"game {game}: seat {int(self.seats[game])} may not "
                                 f"{self.codec.label(int(chosen[game]))} now")
            paid = self.games.step(chosen, which=playing)
            rewards += paid[np.arange(self.num_envs), self.seats] * playing
            rewards += self._play_opponents(playing)
        if restarting.any():
            self._restart(restarting)
        done = self.games.done & ~restarting
        terminal = self.games.terminal() & done
        truncated = done & ~terminal
        if self.reward_kind == "placement" and done.any():
            totals = self.games.totals
            for ended in np.flatnonzero(done).tolist():
                rewards[ended] += placement_rewards(totals[ended].tolist())[int(self.seats[ended])]
        self._needs_reset = done.copy()
        return self._observations(), rewards, terminal, truncated, self._infos()

    def reset_games(self, which: npt.ArrayLike) -> dict[str, np.ndarray]:
        """Start new games now in the rows of ``which`` (a boolean mask) and return every row's
        observation: the ``SAME_STEP`` autoreset that Stable-Baselines3 expects
        (:mod:`ohhell.integrations.sb3`), instead of the step that ``NEXT_STEP`` would spend."""
        rows = np.asarray(which, dtype=np.bool_).reshape(self.num_envs)
        if rows.any():
            self._restart(rows)
            self._needs_reset[rows] = False
        return self._observations()

    def action_masks(self) -> BoolArray:
        """``(num_envs, num_actions)``: the legal actions of each learner now, as booleans."""
        return self._learner_mask().astype(np.bool_)

    def sample_legal_actions(self) -> IntArray:
        """A uniformly random legal action for each learner (0 where a game waits for its reset)."""
        mask = self._learner_mask()
        keys = np.random.default_rng(self._rng.randrange(2**63)).random(mask.shape) + 1.0
        return np.asarray((keys * mask).argmax(axis=1), dtype=np.int64)

    def close_extras(self, **kwargs: Any) -> None:
        for bots in self._bots:
            for bot in bots.values():
                bot.close()

    # -- inside ---------------------------------------------------------------------------

    def _restart(self, which: BoolArray) -> None:
        """New games in the rows of ``which``: seats, bots, chance and the opponents' first moves."""
        self.games.reset(which)
        players = self.setup.players
        for game in np.flatnonzero(which).tolist():
            seat = self.fixed_seat if self.fixed_seat is not None else self._rng.randrange(players)
            self.seats[int(game)] = int(seat)
            if self.backend == "engine":
                for bot in self._bots[game].values():
                    bot.close()
                others = [other for other in range(players) if other != seat]
                self._bots[game] = {other: make_bot(spec, seed=self._rng.randrange(2**31))
                                    for other, spec in zip(others, self.opponent_specs, strict=True)}
        self._play_opponents(which)

    def _play_opponents(self, which: BoolArray) -> np.ndarray:
        """Let the opponents act in the games of ``which`` until each learner must act or the
        game is over; returns the learner's rewards meanwhile."""
        rewards = np.zeros(self.num_envs, dtype=np.float64)
        rows = np.arange(self.num_envs)
        while True:
            current = self.games.current_player()
            waiting = which & (current >= 0) & (current != self.seats)
            if not waiting.any():
                return rewards
            if self.backend == "fast":
                actions = self.games.sample_actions()
            else:
                actions = np.zeros(self.num_envs, dtype=np.int64)
                assert isinstance(self.games, EngineGames)
                for game in np.flatnonzero(waiting):
                    state = self.games.engine_state(int(game))
                    seat = acting_seat(state)
                    assert seat is not None
                    actions[game] = self.codec.encode(self._bots[game][seat].choose(seat_view(state, seat)))
            paid = self.games.step(actions, which=waiting)
            rewards += paid[rows, self.seats] * waiting

    def _learner_mask(self) -> np.ndarray:
        """Masks of the learners (zeros where the game is over or waits for its reset)."""
        legal = self.games.legal_mask()
        current = self.games.current_player()
        mine = (current == self.seats) & ~self._needs_reset
        np.multiply(legal, mine[:, None], out=self._mask, casting="unsafe")
        return self._mask

    def _observations(self) -> dict[str, np.ndarray]:
        vectors = self.games.observe(seats=self.seats)
        return {"observation": vectors, "action_mask": self._learner_mask().copy()}

    def _infos(self) -> dict[str, Any]:
        return {"seat": self.seats.copy(), "totals": self.games.totals}


__all__ = ["OhHellVectorEnv"]
