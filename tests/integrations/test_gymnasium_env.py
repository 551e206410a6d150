"""The Gymnasium environment: Gymnasium's own checker, and one seat against the bots."""

from __future__ import annotations

import warnings

from rl_support import require

gymnasium = require("gymnasium")

import numpy as np  # noqa: E402
import pytest  # noqa: E402
from gymnasium.utils.env_checker import check_env  # noqa: E402

from ohhell.integrations.gymnasium import ENV_ID, IllegalActionWarning, OhHellEnv, default_opponent  # noqa: E402


@pytest.mark.parametrize("kwargs", [
    {"preset": "classic", "players": 4},
    {"preset": "jokers", "players": 5, "mode": "hand", "hand": 2, "seat": None, "reward": "placement"},
    {"preset": "boerenbridge", "players": 4, "max_hands": 1, "opponents": "random"},
    {"preset": "classic", "players": 3, "max_size": 2, "perfect_recall": True},
])
def test_gymnasium_check_env(kwargs: dict) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        warnings.filterwarnings("ignore", message=".*Not able to test alternative render modes.*")
        warnings.filterwarnings("ignore", category=IllegalActionWarning)  # check_env steps unmasked actions
        check_env(OhHellEnv(**kwargs), skip_render_check=True)


def test_made_through_the_registry() -> None:
    game = gymnasium.make(ENV_ID, preset="classic", players=3, mode="hand", hand=9)
    observation, info = game.reset(seed=1)
    assert observation["action_mask"].any() and 0 <= info["seat"] < 3
    game.close()


def test_the_default_seat_is_drawn_at_every_reset() -> None:
    game = OhHellEnv(preset="classic", players=4, mode="hand", hand=9)
    seats = {game.reset(seed=seed)[1]["seat"] for seed in range(20)}
    assert seats == {0, 1, 2, 3}
    assert {OhHellEnv(players=4, seat=1).reset(seed=seed)[1]["seat"] for seed in range(5)} == {1}


def test_metadata_has_a_frame_rate() -> None:
    assert OhHellEnv.metadata["render_fps"] > 0


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


def test_illegal_actions_are_replaced_with_a_warning_or_refused() -> None:
    game = OhHellEnv(players=4, max_size=3, illegal_penalty=5.0)  # the default: replaced
    observation, _info = game.reset(seed=1)
    illegal = int(np.flatnonzero(observation["action_mask"] == 0)[0])
    with pytest.warns(IllegalActionWarning, match="random legal action was played instead"):
        _observation, reward, _terminated, _truncated, info = game.step(illegal)
    assert info["illegal_action"] and reward <= -5.0
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # once per environment
        game.step(int(np.flatnonzero(game.action_masks() == 0)[0]))
    strict = OhHellEnv(players=4, max_size=3, illegal_action="raise")
    observation, _info = strict.reset(seed=1)
    with pytest.raises(ValueError, match="may not"):
        strict.step(int(np.flatnonzero(observation["action_mask"] == 0)[0]))


def test_wrong_arguments_are_refused() -> None:
    with pytest.raises(ValueError, match="opponents"):
        OhHellEnv(players=4, opponents=["random"])
    with pytest.raises(ValueError, match="seat"):
        OhHellEnv(players=4, seat=4)


def test_random_opponents_play_in_the_c_core() -> None:
    fast = OhHellEnv(preset="classic", players=4, max_size=3, opponents="random", seat=None)
    assert fast.backend == "fast"
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        warnings.filterwarnings("ignore", message=".*Not able to test alternative render modes.*")
        warnings.filterwarnings("ignore", category=IllegalActionWarning)
        check_env(OhHellEnv(preset="classic", players=4, mode="hand", hand=4, opponents="random"),
                  skip_render_check=True)
    total, info = play(fast, seed=4)
    state = fast.game_state
    assert state.is_terminal() and total == info["totals"][info["seat"]] == state.totals[info["seat"]]
    assert info["hand_scores"] == list(state.finished_hands[-1].scores)
    assert play(fast, seed=4) == play(OhHellEnv(preset="classic", players=4, max_size=3, opponents="random"), seed=4)
    strict = OhHellEnv(players=4, max_size=3, opponents="random", illegal_action="raise")
    observation, _info = strict.reset(seed=1)
    with pytest.raises(ValueError, match="may not"):
        strict.step(int(np.flatnonzero(observation["action_mask"] == 0)[0]))
    assert OhHellEnv(players=4, opponents="random", backend="engine").backend == "engine"
    with pytest.raises(ValueError, match="fast"):
        OhHellEnv(players=4, opponents="basic", backend="fast")


def test_check_env_in_raise_mode_fails_only_at_its_unmasked_random_steps() -> None:
    """Gymnasium's ``check_env`` steps with ``action_space.sample()``, which knows no mask; with
    ``illegal_action="raise"`` the first of those steps (in ``env_step_passive_checker``) is an
    illegal action, refused as it must be. Every other check passes, and so do the step checks
    when they step legal actions, as a masked learner does."""
    from gymnasium.utils import env_checker
    from gymnasium.utils.env_checker import data_equivalence

    def raising() -> OhHellEnv:
        return OhHellEnv(preset="classic", players=4, mode="hand", hand=4, opponents="random", illegal_action="raise")

    with pytest.raises(ValueError, match=r"may not .* now; its legal actions are") as refused:
        check_env(raising(), skip_render_check=True)
    # Refused at the first of check_env's steps with an unmasked sample: the passive step check,
    # or the step-determinism check when the passive check's sample happened to be legal (which
    # of them depends on the sampler's state, so either is right; no other check may fail).
    unmasked_steps = {"env_step_passive_checker", "check_step_determinism"}
    assert len([entry.name for entry in refused.traceback if entry.name in unmasked_steps]) == 1

    game = raising()
    env_checker.check_action_space(game.action_space)
    env_checker.check_observation_space(game.observation_space)
    env_checker.check_reset_return_type(game)
    env_checker.check_reset_seed_determinism(game)
    env_checker.check_reset_options(game)
    env_checker.env_reset_passive_checker(game)
    observation, _info = game.reset(seed=123)
    action = game.action_space.sample(observation["action_mask"])
    env_checker.env_step_passive_checker(game, action)
    steps = []
    for _ in range(2):  # check_step_determinism, with a legal action
        game.reset(seed=123)
        steps.append(game.step(action))
    for first, second in zip(*steps, strict=True):
        assert data_equivalence(first, second)
    observation, _info = game.reset(seed=5)  # check_returned_data_not_reused, with legal actions
    after, *_rest = game.step(game.action_space.sample(observation["action_mask"]))
    assert after["observation"] is not observation["observation"]
