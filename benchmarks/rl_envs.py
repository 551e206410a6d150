#!/usr/bin/env python3
"""Speed where learning happens: the learning interfaces against the engines under them,
measured side by side in one run.

One hand: classic rules, 4 players, 10 cards each (4 bids and 40 cards), every action drawn
uniformly among the legal ones. Four loops run in alternating rounds (the machine is noisy)
and the medians are compared:

* **engine** — the reference engine through its Python API, as ``benchmarks/engine.py`` drives
  it: chance with ``sample_chance``, actions from ``legal_actions`` with ``random``;
* **pettingzoo** — the PettingZoo AEC loop of the docs: ``agent_iter()``, ``last()`` (the
  observation vector and the action mask of the agent to act), a random legal action from the
  mask, ``step()``; through PettingZoo's standard wrappers;
* **core** — the bots' C core playing random hands whole (``ohhell.fastsim.simulate``), one core;
* **batched** — the batched simulator (``BatchedGames``, N = 4096 hands at once, one core): the
  learning loop ``legal_mask()``, ``sample_actions()``, ``step(actions)`` until every hand is over.

The Gymnasium loop (one seat against three random bots; a hand costs the same engine work) and
the batched loop with an observation at every step are printed for information.

The last line is ``pettingzoo_vs_engine=R1 batched_vs_core=R2 gymnasium_vs_engine=R3
batched_observe_vs_core=R4`` (targets: R1 ≥ 0.25, R2 ≥ 0.5; R3 and R4 for information).

Usage: python benchmarks/rl_envs.py [--seconds 2] [--rounds 5] [--batch 4096]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable

import numpy as np

from ohhell import Game, fastsim, preset
from ohhell.integrations.batched import BatchedGames
from ohhell.integrations.core import Setup
from ohhell.integrations.gymnasium import OhHellEnv
from ohhell.integrations.pettingzoo import env as pettingzoo_env

PLAYERS = 4
SIZE = 10


def engine_rate(seconds: float, seed: int) -> float:
    game = Game(preset("classic", players=PLAYERS))
    rng = random.Random(seed)
    randrange = rng.randrange
    hands = 0
    start = time.perf_counter()
    while True:
        state = game.new_initial_state()
        while state.hand_index == 0:  # until the first hand (10 cards) is scored
            if state.is_chance_node():
                state.apply(state.sample_chance(rng))
            else:
                legal = state.legal_actions(state.turn)
                state.apply(legal[randrange(len(legal))])
        hands += 1
        now = time.perf_counter()
        if now - start >= seconds:
            return hands / (now - start)


def pettingzoo_rate(seconds: float, seed: int) -> float:
    game = pettingzoo_env(preset="classic", players=PLAYERS, mode="hand", hand=0)
    randrange = random.Random(seed).randrange
    hands = 0
    start = time.perf_counter()
    while True:
        game.reset(seed=seed + hands)
        for _agent in game.agent_iter():
            observation, _reward, terminated, truncated, _info = game.last()
            if terminated or truncated:
                game.step(None)
                continue
            legal = observation["action_mask"].nonzero()[0]
            game.step(legal[randrange(len(legal))])
        hands += 1
        now = time.perf_counter()
        if now - start >= seconds:
            return hands / (now - start)


def gymnasium_rate(seconds: float, seed: int) -> float:
    game = OhHellEnv(preset="classic", players=PLAYERS, mode="hand", hand=0, opponents="random")
    randrange = random.Random(seed).randrange
    hands = 0
    start = time.perf_counter()
    while True:
        observation, _info = game.reset(seed=seed + hands)
        done = False
        while not done:
            legal = observation["action_mask"].nonzero()[0]
            observation, _reward, terminated, truncated, _info = game.step(legal[randrange(len(legal))])
            done = terminated or truncated
        hands += 1
        now = time.perf_counter()
        if now - start >= seconds:
            return hands / (now - start)


def core_rate(seconds: float, seed: int) -> float:
    deck = preset("classic", players=PLAYERS).deck_mask
    batch = 20_000
    hands = 0
    start = time.perf_counter()
    while True:
        fastsim.simulate(PLAYERS, SIZE, batch, deck, seed=seed + hands)
        hands += batch
        now = time.perf_counter()
        if now - start >= seconds:
            return hands / (now - start)


def batched_rate(seconds: float, seed: int, n: int, observe: bool = False) -> float:
    games = BatchedGames(Setup.create("classic", players=PLAYERS, mode="hand", hand=0), n=n, seed=seed)
    observations = np.empty((n, games.observation_size), dtype=np.float32)
    hands = 0
    start = time.perf_counter()
    while True:
        games.reset()
        while games.live:
            if observe:
                games.observe(out=observations)
            games.legal_mask()
            games.step(games.sample_actions())
        hands += n
        now = time.perf_counter()
        if now - start >= seconds:
            return hands / (now - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="seconds per measurement")
    parser.add_argument("--rounds", type=int, default=5, help="alternating rounds (medians are compared)")
    parser.add_argument("--batch", type=int, default=4096, help="games in the batch")
    args = parser.parse_args()
    loops: dict[str, Callable[[int], float]] = {
        "engine": lambda seed: engine_rate(args.seconds, seed),
        "pettingzoo": lambda seed: pettingzoo_rate(args.seconds, seed),
        "gymnasium": lambda seed: gymnasium_rate(args.seconds, seed),
        "core": lambda seed: core_rate(args.seconds, seed),
        "batched": lambda seed: batched_rate(args.seconds, seed, args.batch),
        "batched+observe": lambda seed: batched_rate(args.seconds, seed, args.batch, observe=True),
    }
    rates: dict[str, list[float]] = {name: [] for name in loops}
    print(f"classic, {PLAYERS} players, {SIZE}-card hands, random legal actions; {args.rounds} rounds of "
          f"{args.seconds:g} s each, batch N = {args.batch}")
    for round_index in range(args.rounds):
        for name, loop in loops.items():
            rates[name].append(loop(1000 * round_index + 7))
        print(f"round {round_index + 1}: " + ", ".join(f"{name} {rates[name][-1]:,.0f}" for name in loops))
    medians = {name: statistics.median(values) for name, values in rates.items()}
    for name in loops:
        print(f"{name:<16} {medians[name]:>12,.0f} hands/s (median)")
    # One last line with every ratio (the two first), so no figure is left off a record.
    print(f"pettingzoo_vs_engine={medians['pettingzoo'] / medians['engine']:.2f} "
          f"batched_vs_core={medians['batched'] / medians['core']:.2f} "
          f"gymnasium_vs_engine={medians['gymnasium'] / medians['engine']:.2f} "
          f"batched_observe_vs_core={medians['batched+observe'] / medians['core']:.2f}")


if __name__ == "__main__":
    main()
