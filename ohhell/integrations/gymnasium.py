"""A Gymnasium single-agent environment: one seat of Oh Hell against ohhell's bots.

>>> from ohhell.integrations.gymnasium import OhHellEnv
>>> game = OhHellEnv(preset="classic", players=4, mode="hand", hand=8, opponents="random")
>>> observation, info = game.reset(seed=3)
>>> done = False
>>> while not done:
...     action = game.action_space.sample(observation["action_mask"])
...     observation, reward, terminated, truncated, info = game.step(action)
...     done = terminated or truncated
>>> sorted(info)
['hand_scores', 'illegal_action', 'seat', 'totals']

The observation and the actions are those of the PettingZoo environment
(:mod:`ohhell.integrations.pettingzoo`): ``{"observation": float32 vector, "action_mask": int8
vector}`` from the learner's view, actions numbered by
:class:`~ohhell.integrations.core.ActionCodec`. The other seats are played by bots
(``opponents``: one spec for all, or one per other seat, as for ``make_bot``: ``basic`` when
installed, else ``random``), each seeing only its own view. The reward is the learner's score
of each hand as it ends (``reward="score"``) or its placement at the end (``"placement"``).

**Illegal actions.** By default (``illegal_action="random"``) an action outside the mask is
**replaced by a random legal action** — the game goes on as if the agent had chosen that —
reported as ``info["illegal_action"]``, charged ``illegal_penalty`` (default 0: set a
penalty, or an agent without masking never learns it was wrong) and warned about once per
environment (``IllegalActionWarning``). This default lets Gymnasium's ``check_env`` and
unmasked policies step freely; a masked learner should pass ``illegal_action="raise"``,
which makes any action outside the mask a ``ValueError``.
:meth:`OhHellEnv.action_masks` serves maskable policies (e.g. sb3-contrib's MaskablePPO).
"""

from __future__ import annotations

import random
import warnings
from collections.abc import Sequence
from typing import Any, Final

import gymnasium
import numpy as np
from gymnasium import spaces

from ohhell.bots import Bot, bot_names, make_bot
from ohhell.game import State
from ohhell.integrations import batched, dealing
from ohhell.integrations.core import REWARDS, Setup, acting_seat, placement_rewards, rl_legal_actions
from ohhell.integrations.dealing import DealStream
from ohhell.integrations.encoding import ObservationEncoder
from ohhell.integrations.pettingzoo import fast_backend_reason, render_public
from ohhell.views import seat_view

Observation = dict[str, np.ndarray]

ENV_ID: Final = "ohhell/OhHell-v0"
"""The id under which importing this module registers :class:`OhHellEnv` with Gymnasium:
``gymnasium.make("ohhell/OhHell-v0", preset="la-podrida", players=5)``."""


class IllegalActionWarning(UserWarning):
    """An action outside the mask was replaced by a random legal one (``illegal_action="random"``)."""


def default_opponent() -> str:
    """The strongest plain bot installed among ``basic`` and ``random``."""
    return "basic" if "basic" in bot_names() else "random"


class OhHellEnv(gymnasium.Env[dict[str, Any], np.int64]):
    """One learning seat against bots (see the module docstring).

    ``seat`` is the learner's seat, or ``None`` (the default) for a seat drawn at random at
    every reset, so that a policy learns every position at the table. ``perfect_recall`` adds
    the history of the game to the observation (:mod:`ohhell.integrations.encoding`). The other
    arguments are those of :func:`ohhell.integrations.pettingzoo.env`.
    """

    metadata: dict[str, Any] = {"render_modes": ["human", "ansi"], "render_fps": 4}  # noqa: RUF012

    def __init__(self, preset: str = "classic", players: int = 4, mode: str = "game", hand: int = 0,
                 seat: int | None = None, opponents: str | Sequence[str] | None = None, dealer: int | None = None,
                 max_hands: int | None = None, reward: str = "score", render_mode: str | None = None,
                 illegal_action: str = "random", illegal_penalty: float = 0.0, perfect_recall: bool = False,
                 backend: str = "auto", **knobs: Any) -> None:
        self.setup = Setup.create(preset, players=players, mode=mode, hand=hand, dealer=dealer,
                                  max_hands=max_hands, **knobs)
        if reward not in REWARDS:
            raise ValueError(f"reward must be one of {', '.join(REWARDS)}, not {reward!r}")
        if seat is not None and not 0 <= seat < players:
            raise ValueError(f"the learner's seat must be 0 to {players - 1}, not {seat}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of human, ansi or None, not {render_mode!r}")
        if illegal_action not in ("random", "raise"):
            raise ValueError(f"illegal_action must be random or raise, not {illegal_action!r}")
        self.illegal_action = illegal_action
        self._warned_illegal = False
        self.illegal_penalty = float(illegal_penalty)
        if opponents is None or isinstance(opponents, str):
            specs = [opponents or default_opponent()] * (players - 1)
        else:
            specs = list(opponents)
        if len(specs) != players - 1:
            raise ValueError(f"{players} players need {players - 1} opponents, not {len(specs)}")
        self.opponent_specs = specs
        self.fixed_seat = seat
        self.seat = seat if seat is not None else 0
        self.reward_kind = reward
        self.render_mode = render_mode
        self.codec = self.setup.codec
        self.encoder = ObservationEncoder(self.setup, perfect_recall=perfect_recall)
        self.observation_space = spaces.Dict({
            "observation": spaces.Box(self.encoder.low, self.encoder.high, dtype=np.float32),
            "action_mask": spaces.Box(0, 1, (self.codec.num_actions,), dtype=np.int8),
        })
        self.action_space = spaces.Discrete(self.codec.num_actions)
        self._rng = random.Random()
        self._opponent_rng = random.Random()
        self.bots: dict[int, Bot] = {}
        if backend not in ("auto", "fast", "engine"):
            raise ValueError(f"backend must be auto, fast or engine, not {backend!r}")
        reason = fast_backend_reason(self.setup)
        if reason is None and any(spec != "random" for spec in specs):
            reason = "only random opponents play in the C core"
        if backend == "fast" and reason is not None:
            raise ValueError(f"backend='fast' cannot be used: {reason}")
        self.backend = "fast" if backend != "engine" and reason is None else "engine"
        self._batch = (batched.BatchedGames(self.setup, n=1, perfect_recall=perfect_recall)
                       if self.backend == "fast" else None)
        self._deals = DealStream(0)
        self._state = dealing.new_state(self.setup, self._deals)
        self._last_scores: list[int] = []

    # -- the Gymnasium API ---------------------------------------------------------------

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[Observation, dict[str, Any]]:
        super().reset(seed=seed)
        if seed is not None:
            self._rng = random.Random(seed)
        self.close()
        if self.fixed_seat is None:
            self.seat = self._rng.randrange(self.setup.players)
        self._last_scores = []
        deal_seed = self._rng.randrange(2**63)  # the same deals on both backends (ohhell.integrations.dealing)
        if self._batch is not None:
            self._batch.seed(deal_seed)
            self._batch.reset()
            self._opponent_rng = random.Random(self._rng.randrange(2**31))
            self._play_random_fast()
            return self._observe(), self._info()
        others = [s for s in range(self.setup.players) if s != self.seat]
        self.bots = {other: make_bot(spec, seed=self._rng.randrange(2**31))
                     for other, spec in zip(others, self.opponent_specs, strict=True)}
        self._deals = DealStream(deal_seed)
        self._state = dealing.new_state(self.setup, self._deals)
        self._finished = 0
        self._play_bots()
        return self._observe(), self._info()

    @property
    def game_state(self) -> State:
        """The game as a reference-engine state (with the fast backend, replayed from the C
        core's history: for records and rendering, not for a loop)."""
        if self._batch is not None:
            return self._batch.engine_state(0)
        return self._state

    def step(self, action: Any) -> tuple[Observation, float, bool, bool, dict[str, Any]]:
        if self._batch is not None:
            return self._step_fast(action)
        state = self._state
        if self.setup.is_over(state):
            raise RuntimeError("the game is over: call reset()")
        legal = rl_legal_actions(seat_view(state, self.seat))
        index = int(action)
        chosen = self.codec.decode(index, self.seat) if 0 <= index < self.codec.num_actions else None
        illegal = chosen not in legal
        if illegal:
            if self.illegal_action == "raise":
                raise ValueError(f"seat {self.seat} may not {self.codec.label(index)} now; its legal actions "
                                 f"are {sorted(self.codec.encode(a) for a in legal)}")
            if not self._warned_illegal:
                self._warned_illegal = True
                warnings.warn(f"action {index} is not legal now: a random legal action was played instead "
                              f"(charged illegal_penalty={self.illegal_penalty}); pass illegal_action='raise' "
                              "to make it an error", IllegalActionWarning, stacklevel=2)
            chosen = legal[self._rng.randrange(len(legal))]
        assert chosen is not None
        state.apply(chosen)
        if state.finished_hands:
            self._last_scores = list(state.finished_hands[-1].scores)
        self._play_bots()
        reward = -self.illegal_penalty if illegal else 0.0
        if self.reward_kind == "score":
            reward += float(sum(result.scores[self.seat] for result in state.finished_hands[self._finished:]))
        self._finished = len(state.finished_hands)
        terminated = state.is_terminal()
        truncated = self.setup.is_truncated(state)
        if (terminated or truncated) and self.reward_kind == "placement":
            reward += placement_rewards(state.totals)[self.seat]
        if self.render_mode == "human":
            self.render()
        info = self._info()
        info["illegal_action"] = illegal
        return self._observe(), reward, terminated, truncated, info

    def _step_fast(self, action: Any) -> tuple[Observation, float, bool, bool, dict[str, Any]]:
        batch = self._batch
        assert batch is not None
        if batch.over_one:
            raise RuntimeError("the game is over: call reset()")
        mask = np.zeros(self.codec.num_actions, np.int8)
        batch.mask_one(mask)
        index = int(action)
        illegal = not (0 <= index < self.codec.num_actions and mask[index])
        if illegal:
            legal = np.flatnonzero(mask)
            if self.illegal_action == "raise":
                raise ValueError(f"seat {self.seat} may not {self.codec.label(index)} now; its legal actions "
                                 f"are {legal.tolist()}")
            if not self._warned_illegal:
                self._warned_illegal = True
                warnings.warn(f"action {index} is not legal now: a random legal action was played instead "
                              f"(charged illegal_penalty={self.illegal_penalty}); pass illegal_action='raise' "
                              "to make it an error", IllegalActionWarning, stacklevel=2)
            index = int(legal[self._rng.randrange(len(legal))])
        reward = -self.illegal_penalty if illegal else 0.0
        paid = batch.step_one(index)
        if paid is not None:
            self._last_scores = [int(score) for score in paid]
            if self.reward_kind == "score":
                reward += float(paid[self.seat])
        reward += self._play_random_fast()
        over = batch.over_one
        terminated = over and bool(batch.terminal()[0])
        truncated = over and not terminated  # cut short by max_hands
        if over and self.reward_kind == "placement":
            reward += placement_rewards([int(total) for total in batch.totals[0]])[self.seat]
        if self.render_mode == "human":
            self.render()
        info = self._info()
        info["illegal_action"] = illegal
        return self._observe(), reward, terminated, truncated, info

    def _play_random_fast(self) -> float:
        """Random opponents act in the C core until the learner must act or the game is over;
        returns the learner's score of the hands that ended meanwhile."""
        batch = self._batch
        assert batch is not None
        reward = 0.0
        mask = np.zeros(self.codec.num_actions, np.int8)
        while not batch.over_one and batch.turn_one != self.seat:
            # Drawn here, not by the core's sample_actions: the core's stream deals the cards
            # alone, as the engine backend's does (one seed, one deal).
            batch.mask_one(mask)
            legal = np.flatnonzero(mask)
            paid = batch.step_one(int(legal[self._opponent_rng.randrange(len(legal))]))
            if paid is not None:
                self._last_scores = [int(score) for score in paid]
                if self.reward_kind == "score":
                    reward += float(paid[self.seat])
        return reward

    def action_masks(self) -> np.ndarray:
        """The legal actions of the learner now, as booleans."""
        return self._observe()["action_mask"].astype(bool)

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        return render_public(self.game_state, self.render_mode)

    def close(self) -> None:
        for bot in self.bots.values():
            bot.close()

    # -- inside ---------------------------------------------------------------------------

    def _play_bots(self) -> None:
        """Let chance and the bots act until the learner must act or the game is over."""
        state, setup = self._state, self.setup
        while True:
            dealing.advance_chance(setup, state, self._deals)
            if setup.is_over(state):
                return
            seat = acting_seat(state)
            assert seat is not None
            if seat == self.seat:
                return
            state.apply(self.bots[seat].choose(seat_view(state, seat)))

    def _observe(self) -> Observation:
        mask = np.zeros(self.codec.num_actions, np.int8)
        if self._batch is not None:
            if self._batch.turn_one == self.seat:
                self._batch.mask_one(mask)  # all zeros when the game is over
            return {"observation": self._batch.observe_one(self.seat), "action_mask": mask}
        view = seat_view(self._state, self.seat)
        if not self.setup.is_over(self._state):
            for action in rl_legal_actions(view):
                mask[self.codec.encode(action)] = 1
        return {"observation": self.encoder.encode(view), "action_mask": mask}

    def _info(self) -> dict[str, Any]:
        if self._batch is not None:
            totals = [int(total) for total in self._batch.totals[0]]
        else:
            totals = list(self._state.totals)
        return {"seat": self.seat, "totals": totals, "hand_scores": list(self._last_scores)}


if ENV_ID not in gymnasium.registry:
    gymnasium.register(id=ENV_ID, entry_point="ohhell.integrations.gymnasium:OhHellEnv")
