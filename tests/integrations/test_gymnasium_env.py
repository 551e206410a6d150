"""The Gymnasium environment: Gymnasium's own checker, and one seat against the bots."""

from __future__ import annotations

import warnings

from rl_support import require

gymnasium = require("gymnasium")

import numpy as np  # noqa: E402
import pytest  # noqa: E402
from gymnasium.utils.env_checker import check_env  # noqa: E402

from ohhell.integrations.gymnasium import ENV_ID, OhHellEnv, default_opponent  # noqa: E402


@pytest.mark.parametrize("kwargs", [
    {"preset": "classic", "players": 4},
    {"preset": "jokers", "players": 5, "mode": "hand", "hand": 2, "seat": None, "reward": "placement"},
    {"preset": "boerenbridge", "players": 4, "max_hands": 1, "opponents": "random"},
])
def test_gymnasium_check_env(kwargs: dict) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        warnings.filterwarnings("ignore", message=".*Not able to test alternative render modes.*")
        check_env(OhHellEnv(**kwargs), skip_render_check=True)


def test_made_through_the_registry() -> None:
    game = gymnasium.make(ENV_ID, preset="classic", players=3, mode="hand", hand=9)
    observation, info = game.reset(seed=1)
    assert observation["action_mask"].any() and info["seat"] == 0
    game.close()


def play(game: OhHellEnv, seed: int) -> tuple[float, dict]:
    observation, info = game.reset(seed=seed)
    rng = np.random.default_rng(seed)
    total = 0.0
    while True:
        action = int(rng.choice(np.flatnonzero(observation["action_mask"])))
        observation, reward, terminated, truncated, info = game.step(action)
        total += reward
        if terminated or truncated:
            return total, info


def test_the_learner_plays_its_seat_and_is_paid_its_total() -> None:
    game = OhHellEnv(preset="classic", players=4, seat=2, max_size=4,
                     opponents=["random", default_opponent(), "random"])
    total, info = play(game, seed=5)
    assert game.game_state.is_terminal()
    assert total == info["totals"][2] and info["seat"] == 2
    assert not game.action_masks().any()
    game.close()


def test_the_same_seed_plays_the_same_game() -> None:
    first = play(OhHellEnv(players=4, max_size=3, seat=None), seed=9)
    second = play(OhHellEnv(players=4, max_size=3, seat=None), seed=9)
    assert first == second


def test_illegal_actions_are_replaced_or_refused() -> None:
    game = OhHellEnv(players=4, max_size=3, illegal_penalty=5.0)
    observation, _info = game.reset(seed=1)
    illegal = int(np.flatnonzero(observation["action_mask"] == 0)[0])
    _observation, reward, _terminated, _truncated, info = game.step(illegal)
    assert info["illegal_action"] and reward <= -5.0
    strict = OhHellEnv(players=4, max_size=3, illegal_action="raise")
    observation, _info = strict.reset(seed=1)
    with pytest.raises(ValueError, match="may not"):
        strict.step(int(np.flatnonzero(observation["action_mask"] == 0)[0]))


def test_wrong_arguments_are_refused() -> None:
    with pytest.raises(ValueError, match="opponents"):
        OhHellEnv(players=4, opponents=["random"])
    with pytest.raises(ValueError, match="seat"):
        OhHellEnv(players=4, seat=4)
