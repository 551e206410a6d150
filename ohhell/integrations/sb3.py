"""Stable-Baselines3 on the vector environment: :class:`OhHellVecEnv`, an SB3 ``VecEnv``.

>>> from sb3_contrib import MaskablePPO
>>> from ohhell.integrations.sb3 import OhHellVecEnv
>>> envs = OhHellVecEnv(num_envs=16, preset="classic", players=4, mode="hand", hand=5, opponents="random")
>>> model = MaskablePPO("MlpPolicy", envs, n_steps=8, batch_size=64, seed=1, device="cpu")
>>> model.learn(total_timesteps=128).num_timesteps
128

It wraps :class:`~ohhell.integrations.vector.OhHellVectorEnv` (the same arguments; the games,
the opponents inside the batch, the C core or the engine), so the vector environment trains
with SB3's algorithms without a hand-written loop:

* **observations** are the observation vectors, ``(num_envs, size)`` ``float32`` (SB3's
  ``MlpPolicy``); the legal actions come apart, from :meth:`OhHellVecEnv.action_masks`, which
  sb3-contrib's ``MaskablePPO`` asks for on its own (through ``env_method("action_masks")``);
* **autoreset is handled inside**, the way SB3 expects it: a game that ends in a step is reset
  in that same step — the observation returned is the new game's, the last one of the ended
  game is in ``infos[i]["terminal_observation"]``, and a game cut short by ``max_hands`` says
  ``infos[i]["TimeLimit.truncated"]``. No step is spent on a game that is over (the
  ``NEXT_STEP`` step of the Gymnasium vector API, whose action is ignored), so none leaks into
  training: every step SB3 records is a decision of the learner;
* rewards are the learner's (its score of each hand as it ends, or the placement at the end);
  ``infos[i]`` also holds its ``seat`` and the ``totals``.

PyTorch, Stable-Baselines3 and sb3-contrib are not dependencies of ohhell: ``pip install -e
".[rl,examples]"`` and a PyTorch build (``docs/integrations.md``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import gymnasium
import numpy as np
from stable_baselines3.common.vec_env import VecEnv  # type: ignore[import-not-found, import-untyped, unused-ignore]

from ohhell.integrations.vector import OhHellVectorEnv


class OhHellVecEnv(VecEnv):  # type: ignore[misc, unused-ignore]
    """``num_envs`` games of one set-up as an SB3 ``VecEnv`` (see the module docstring); the
    arguments are those of :class:`~ohhell.integrations.vector.OhHellVectorEnv`."""

    def __init__(self, num_envs: int = 16, **kwargs: Any) -> None:
        self.env = OhHellVectorEnv(num_envs=num_envs, **kwargs)
        single = self.env.single_observation_space
        assert isinstance(single, gymnasium.spaces.Dict)
        observation_space = single["observation"]
        super().__init__(num_envs, observation_space, self.env.single_action_space)
        self._actions = np.zeros(num_envs, dtype=np.int64)
        self._started = False

    # -- the VecEnv API --------------------------------------------------------------------

    def reset(self) -> np.ndarray:
        seed = self._seeds[0]  # one stream for the batch: the first seed SB3 gave (seed + i for the others)
        observations, infos = self.env.reset(seed=seed)
        self._reset_seeds()
        self.reset_infos = self._info_list(infos)
        self._started = True
        return np.asarray(observations["observation"])

    def step_async(self, actions: np.ndarray) -> None:
        if not self._started:
            raise RuntimeError("call reset() before step()")
        self._actions = np.asarray(actions, dtype=np.int64).reshape(self.num_envs)

    def step_wait(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, list[dict[str, Any]]]:
        observations, rewards, terminated, truncated, infos = self.env.step(self._actions)
        done = terminated | truncated
        info_list = self._info_list(infos)
        if done.any():
            vectors = observations["observation"]
            for row in np.flatnonzero(done).tolist():
                info_list[row]["terminal_observation"] = vectors[row].copy()
                info_list[row]["TimeLimit.truncated"] = bool(truncated[row] and not terminated[row])
            observations = self.env.reset_games(done)  # SAME_STEP: the new games' first observations
            for row in np.flatnonzero(done).tolist():
                info_list[row]["next_seat"] = int(self.env.seats[row])
        return (np.asarray(observations["observation"]), rewards.astype(np.float32), done, info_list)

    def action_masks(self) -> np.ndarray:
        """``(num_envs, num_actions)`` booleans: the learner's legal actions in each game."""
        return self.env.action_masks()

    def close(self) -> None:
        self.env.close()

    def get_attr(self, attr_name: str, indices: Any = None) -> list[Any]:
        rows = list(self._get_indices(indices))
        if attr_name == "render_mode":
            return [None for _ in rows]
        value = getattr(self, attr_name)  # AttributeError when missing: has_attr() relies on it
        return [value for _ in rows]

    def set_attr(self, attr_name: str, value: Any, indices: Any = None) -> None:
        setattr(self.env, attr_name, value)

    def env_method(self, method_name: str, *method_args: Any, indices: Any = None, **method_kwargs: Any
                   ) -> list[Any]:
        rows = list(self._get_indices(indices))
        if method_name == "action_masks":  # what MaskablePPO calls, one mask per game
            masks = self.action_masks()
            return [masks[row] for row in rows]
        result = getattr(self.env, method_name)(*method_args, **method_kwargs)
        return [result for _ in rows]

    def env_is_wrapped(self, wrapper_class: type[gymnasium.Wrapper], indices: Any = None) -> list[bool]:
        return [False for _ in self._get_indices(indices)]

    # -- inside ----------------------------------------------------------------------------

    def _info_list(self, infos: dict[str, Any]) -> list[dict[str, Any]]:
        seats: Sequence[int] = infos["seat"].tolist()
        totals: Iterable[Any] = infos["totals"].tolist()
        return [{"seat": seat, "totals": total} for seat, total in zip(seats, totals, strict=True)]


__all__ = ["OhHellVecEnv"]
