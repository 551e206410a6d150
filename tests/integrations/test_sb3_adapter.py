"""Stable-Baselines3 directly on the vector environment (``ohhell.integrations.sb3``).

Skipped, with the reason, when PyTorch or sb3-contrib is missing — failed under ``CI=true``
(``pip install -e .[rl,examples]`` and a PyTorch build)."""

from __future__ import annotations

from rl_support import require

require("torch")
require("stable_baselines3")
sb3_contrib = require("sb3_contrib")

import numpy as np  # noqa: E402
import pytest  # noqa: E402
from stable_baselines3.common.vec_env import VecEnv  # noqa: E402

from ohhell.integrations.encoding import ObservationEncoder  # noqa: E402
from ohhell.integrations.sb3 import OhHellVecEnv  # noqa: E402

FIVE_CARDS = {"preset": "classic", "players": 4, "mode": "hand", "hand": 5}


def random_legal(envs: OhHellVecEnv, rng: np.random.Generator) -> np.ndarray:
    masks = np.stack(envs.env_method("action_masks"))  # what MaskablePPO calls
    return np.array([rng.choice(np.flatnonzero(mask)) for mask in masks])


@pytest.mark.parametrize("opponents", ["random", "basic"])
def test_every_step_is_a_decision_of_the_learner_and_games_reset_in_the_step_they_end(opponents: str) -> None:
    """A 5-card hand is six decisions of the learner (a bid, five cards): every episode SB3 sees
    is six steps long — no step after the end of a game — and its rewards add up to the
    learner's total."""
    envs = OhHellVecEnv(num_envs=8, opponents=opponents, **FIVE_CARDS)
    assert isinstance(envs, VecEnv) and envs.has_attr("action_masks")
    envs.seed(3)
    observations = envs.reset()
    views = ObservationEncoder(envs.env.setup).views_of
    assert observations.shape == (8, 645)
    rng = np.random.default_rng(3)
    lengths, returns = np.zeros(8, dtype=int), np.zeros(8)
    episodes = 0
    for _ in range(30):
        observations, rewards, dones, infos = envs.step(random_legal(envs, rng))
        lengths += 1
        returns += rewards
        for row in np.flatnonzero(dones):
            info = infos[row]
            assert lengths[row] == 6
            assert returns[row] == info["totals"][info["seat"]]
            assert not info["TimeLimit.truncated"]
            assert views(info["terminal_observation"])["phase"][3] == 1.0  # the ended game, over
            fresh = views(observations[row])
            assert fresh["phase"][0] == 1.0 and fresh["played"].sum() == 0  # the new game, bidding
            assert envs.action_masks()[row].any()
            lengths[row], returns[row] = 0, 0.0
            episodes += 1
    assert episodes >= 8 * 4


def test_maskable_ppo_trains_through_the_adapter() -> None:
    import torch

    torch.set_num_threads(1)  # a small network: more threads only contend on a shared machine
    envs = OhHellVecEnv(num_envs=16, opponents="random", **FIVE_CARDS)
    model = sb3_contrib.MaskablePPO("MlpPolicy", envs, n_steps=128, batch_size=512, n_epochs=1, seed=1,
                                    device="cpu")
    model.learn(total_timesteps=4096)
    assert model.num_timesteps >= 4096
    observations = envs.reset()
    actions, _state = model.predict(observations, action_masks=envs.action_masks(), deterministic=True)
    assert envs.action_masks()[np.arange(16), actions].all()  # masked: only legal actions
