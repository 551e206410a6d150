"""The vectorized Gymnasium environment: the Gymnasium vector API, masks, autoreset, opponents."""

from __future__ import annotations

from rl_support import require

gymnasium = require("gymnasium")

import numpy as np  # noqa: E402
import pytest  # noqa: E402

from ohhell.integrations.encoding import ObservationEncoder  # noqa: E402
from ohhell.integrations.vector import OhHellVectorEnv  # noqa: E402
from ohhell.views import seat_view  # noqa: E402


def run(envs: OhHellVectorEnv, steps: int, seed: int = 0) -> dict:
    """Play random legal actions, checking the API's promises at every step."""
    observations, infos = envs.reset(seed=seed)
    assert envs.observation_space.contains(observations)
    episodes = np.zeros(envs.num_envs, dtype=np.int64)
    returns = np.zeros(envs.num_envs)
    finished: list[float] = []
    waiting = np.zeros(envs.num_envs, dtype=bool)
    for _ in range(steps):
        masks = envs.action_masks()
        assert (masks == observations["action_mask"].astype(bool)).all()
        assert (masks.any(axis=1) == ~waiting).all()  # a learner on turn, or a game waiting for its reset
        actions = envs.sample_legal_actions()
        observations, rewards, terminations, truncations, infos = envs.step(actions)
        assert envs.observation_space.contains(observations)
        assert rewards.shape == terminations.shape == truncations.shape == (envs.num_envs,)
        assert not (rewards[waiting]).any() and not terminations[waiting].any()  # the autoreset step
        returns += rewards
        ended = terminations | truncations
        for game in np.flatnonzero(ended):
            finished.append(returns[game])
            assert returns[game] == infos["totals"][game][infos["seat"][game]] or envs.reward_kind != "score"
            returns[game] = 0.0
        episodes += ended
        waiting = ended
    return {"episodes": episodes, "returns": finished}


def test_fast_batch_of_single_hands() -> None:
    envs = OhHellVectorEnv(num_envs=32, preset="classic", players=4, mode="hand", hand=6)
    assert envs.backend == "fast" and envs.metadata["autoreset_mode"] == gymnasium.vector.AutoresetMode.NEXT_STEP
    result = run(envs, 60)
    assert (result["episodes"] >= 5).all()
    assert np.mean(result["returns"]) > 0


def test_fast_batch_of_whole_games_with_perfect_recall() -> None:
    envs = OhHellVectorEnv(num_envs=8, preset="kachuful", players=3, max_size=3, seat=1, perfect_recall=True)
    assert envs.backend == "fast"
    result = run(envs, 80)
    assert (result["episodes"] >= 2).all()
    assert envs.single_observation_space["observation"].shape[0] > ObservationEncoder(envs.setup).size


def test_observations_are_the_learners_view() -> None:
    envs = OhHellVectorEnv(num_envs=6, preset="la-podrida", players=4, max_size=2)
    observations, _infos = envs.reset(seed=3)
    for _ in range(4):
        encoder = envs.games.encoder
        for game in range(envs.num_envs):
            state = envs.games.engine_state(game)
            expected = encoder.encode(seat_view(state, int(envs.seats[game])))
            assert (observations["observation"][game] == expected).all()
        observations, *_rest = envs.step(envs.sample_legal_actions())


@pytest.mark.parametrize("kwargs", [
    {"preset": "jokers", "players": 3, "mode": "hand", "hand": 8, "opponents": ["basic", "random"]},
    {"preset": "boerenbridge", "players": 4, "max_hands": 1, "max_size": 2, "opponents": "basic"},
    {"preset": "classic", "players": 3, "mode": "hand", "hand": 9, "opponents": "strong"},
    {"preset": "devils-bridge", "players": 3, "max_size": 2, "reward": "placement"},
], ids=["jokers-basic", "boerenbridge", "strong", "devils-bridge-placement"])
def test_engine_batch_with_bots_and_any_preset(kwargs: dict) -> None:
    envs = OhHellVectorEnv(num_envs=3, **kwargs)
    assert envs.backend == "engine"
    result = run(envs, 12, seed=2)
    assert result["episodes"].sum() >= 1
    envs.close()


def test_illegal_actions_are_refused() -> None:
    envs = OhHellVectorEnv(num_envs=4, mode="hand", hand=7)
    observations, _infos = envs.reset(seed=1)
    actions = envs.sample_legal_actions()
    actions[2] = int(np.flatnonzero(observations["action_mask"][2] == 0)[0])
    with pytest.raises(ValueError, match="game 2"):
        envs.step(actions)


def test_bad_arguments_are_refused() -> None:
    with pytest.raises(ValueError, match="opponents"):
        OhHellVectorEnv(num_envs=2, opponents="nobody")
    with pytest.raises(ValueError, match="fast"):
        OhHellVectorEnv(num_envs=2, preset="jokers", backend="fast")
    with pytest.raises(ValueError, match="seat"):
        OhHellVectorEnv(num_envs=2, seat=7)
