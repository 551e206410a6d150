#!/usr/bin/env python3
"""A baseline: MaskablePPO learns one seat of Oh Hell against three ``basic`` bots, on a CPU,
in minutes — and its learning curve.

The game is one 5-card hand of the classic rules (hand 6 of the schedule: 4 players, a turned
trump, the hook), the learner's seat drawn at every reset; the reward is the learner's score of
the hand (10 + bid when the bid is made, else 0). Every ``--eval-every`` steps the policy
plays ``--eval-hands`` hands greedily (the most likely legal action) against ``basic`` and the
mean score is written to the CSV; at the end the curve is drawn to a PNG (with ``basic``'s own
mean score in the same seat as the line to reach) and the policy is saved.

Needs PyTorch (CPU) and sb3-contrib, which are not dependencies of ohhell::

    pip install torch==2.13.0 sb3-contrib matplotlib     # or any PyTorch for your machine
    python examples/train_maskable_ppo.py --steps 150000 --out runs/ppo

The trained policy plays as a bot through :class:`PolicyBot`
(``ohhell.bots.Bot``: ``choose(view)``), so the arena and the leaderboard can rate it
(``examples/leaderboard.py``).
"""

from __future__ import annotations

import argparse
import csv
import statistics
import time
from pathlib import Path
from typing import Any

import gymnasium
import numpy as np

from ohhell.actions import Action
from ohhell.bots.base import Bot
from ohhell.integrations.core import Setup, rl_legal_actions
from ohhell.integrations.encoding import ObservationEncoder
from ohhell.integrations.gymnasium import OhHellEnv
from ohhell.views import SeatView

PRESET, PLAYERS, HAND = "classic", 4, 5  # hand 5 (0-based) of classic with 4 players: 5 cards


class VectorOnly(gymnasium.ObservationWrapper):  # type: ignore[type-arg]
    """The observation vector alone (the mask reaches MaskablePPO through ``action_masks``)."""

    def __init__(self, env: OhHellEnv) -> None:
        super().__init__(env)
        self.observation_space = env.observation_space["observation"]

    def observation(self, observation: dict[str, np.ndarray]) -> np.ndarray:
        return observation["observation"]

    def action_masks(self) -> np.ndarray:
        return self.env.unwrapped.action_masks()  # type: ignore[attr-defined, no-any-return]


def make_env(opponents: str = "basic") -> VectorOnly:
    setup = training_setup()
    assert setup.rules.hand_plans()[0].size == 5
    return VectorOnly(OhHellEnv(preset=PRESET, players=PLAYERS, mode="hand", hand=HAND, opponents=opponents,
                                illegal_action="raise"))


def evaluate(model: Any, hands: int, seed: int) -> float:
    """The policy's mean score per hand against ``basic`` (greedy, the same deals every time)."""
    env = make_env()
    scores = []
    for episode in range(hands):
        observation, _info = env.reset(seed=seed + episode)
        done, total = False, 0.0
        while not done:
            action, _state = model.predict(observation, deterministic=True, action_masks=env.action_masks())
            observation, reward, terminated, truncated, _info = env.step(int(action))
            total += float(reward)
            done = terminated or truncated
        scores.append(total)
    env.close()
    return statistics.fmean(scores)


def basic_baseline(hands: int, seed: int) -> float:
    """``basic`` itself in the learner's seat, on the same deals: the line to reach."""
    from ohhell.bots import make_bot

    env = OhHellEnv(preset=PRESET, players=PLAYERS, mode="hand", hand=HAND, opponents="basic",
                    illegal_action="raise")
    scores = []
    for episode in range(hands):
        env.reset(seed=seed + episode)
        bot = make_bot("basic", seed=episode)
        done, total = False, 0.0
        while not done:
            from ohhell.views import seat_view

            action = bot.choose(seat_view(env.game_state, env.seat))
            _observation, reward, terminated, truncated, _info = env.step(env.codec.encode(action))
            total += float(reward)
            done = terminated or truncated
        scores.append(total)
    return statistics.fmean(scores)


_MODELS: dict[str, Any] = {}


def training_setup() -> Setup:
    """The game the policy learned: its observation layout and action numbering."""
    return Setup.create(PRESET, players=PLAYERS, mode="hand", hand=HAND)


class PolicyBot(Bot):
    """A trained policy as an ohhell bot, greedy over the legal actions of its view. It plays
    the game it learned (one hand of the training set-up, any seat)."""

    name = "ppo"

    def __init__(self, model_path: str, seed: int | None = None, **options: Any) -> None:
        super().__init__(seed=seed)
        from sb3_contrib import MaskablePPO

        if model_path not in _MODELS:  # one load per process: the arena makes a bot per game
            _MODELS[model_path] = MaskablePPO.load(model_path, device="cpu")
        self.model = _MODELS[model_path]
        setup = training_setup()
        self.encoder = ObservationEncoder(setup)
        self.codec = setup.codec

    def choose(self, view: SeatView) -> Action:
        mask = np.zeros(self.codec.num_actions, dtype=bool)
        for action in rl_legal_actions(view):
            mask[self.codec.encode(action)] = True
        index, _state = self.model.predict(self.encoder.encode(view), deterministic=True, action_masks=mask)
        return self.codec.decode(int(index), view.seat if view.seat is not None else 0)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--steps", type=int, default=150_000, help="environment steps of training")
    parser.add_argument("--envs", type=int, default=4, help="environments stepped together")
    parser.add_argument("--rollout", type=int, default=512, help="steps per environment between two updates")
    parser.add_argument("--eval-every", type=int, default=10_000)
    parser.add_argument("--eval-hands", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", default="runs/ppo", help="folder for the curve (CSV, PNG) and the policy")
    args = parser.parse_args()

    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.callbacks import BaseCallback
    from stable_baselines3.common.env_util import make_vec_env

    torch.set_num_threads(1)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    eval_seed = 10_000
    baseline = basic_baseline(args.eval_hands, eval_seed)
    print(f"basic in the learner's seat: {baseline:.2f} points per hand")
    curve: list[tuple[int, float, float]] = []
    started = time.perf_counter()

    class Evaluate(BaseCallback):  # type: ignore[misc]
        def _on_step(self) -> bool:
            if self.num_timesteps // args.eval_every > len(curve) - 1:
                score = evaluate(self.model, args.eval_hands, eval_seed)
                minutes = (time.perf_counter() - started) / 60
                curve.append((self.num_timesteps, score, minutes))
                print(f"{self.num_timesteps:>8} steps  {minutes:5.1f} min  {score:5.2f} points per hand", flush=True)
                save(self.model, curve, baseline, out, args.eval_hands)  # a checkpoint: stop at any time
            return True

    envs = make_vec_env(make_env, n_envs=args.envs, seed=args.seed)
    model = MaskablePPO("MlpPolicy", envs, n_steps=args.rollout, batch_size=min(256, args.rollout * args.envs),
                        learning_rate=3e-4, gamma=1.0,
                        ent_coef=0.01, policy_kwargs={"net_arch": [256, 256]}, seed=args.seed, device="cpu",
                        verbose=0)
    curve.append((0, evaluate(model, args.eval_hands, eval_seed), 0.0))
    print(f"       0 steps    0.0 min  {curve[0][1]:5.2f} points per hand (untrained)", flush=True)
    model.learn(total_timesteps=args.steps, callback=Evaluate())
    save(model, curve, baseline, out, args.eval_hands)
    print(f"saved {out / 'policy.zip'}, {out / 'curve.csv'} and {out / 'learning_curve.png'}")


def save(model: Any, curve: list[tuple[int, float, float]], baseline: float, out: Path, hands: int) -> None:
    """The policy, the curve as CSV and as a PNG."""
    model.save(out / "policy")
    with open(out / "curve.csv", "w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(["steps", "score_per_hand", "minutes", "basic_score_per_hand"])
        for steps, score, minutes in curve:
            writer.writerow([steps, f"{score:.3f}", f"{minutes:.2f}", f"{baseline:.3f}"])
    plot(curve, baseline, out / "learning_curve.png", hands)


def plot(curve: list[tuple[int, float, float]], baseline: float, path: Path, hands: int) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    steps = [point[0] for point in curve]
    scores = [point[1] for point in curve]
    figure, axes = plt.subplots(figsize=(7, 4), dpi=120)
    axes.plot(steps, scores, marker="o", label="MaskablePPO (greedy)")
    axes.axhline(baseline, color="gray", linestyle="--", label="basic in the same seat")
    axes.set_xlabel("environment steps")
    axes.set_ylabel(f"points per hand (mean of {hands} hands)")
    axes.set_title("One 5-card hand of classic Oh Hell against three basic bots")
    axes.grid(alpha=0.3)
    axes.legend(loc="lower right")
    figure.tight_layout()
    figure.savefig(path)


if __name__ == "__main__":
    main()
