"""One seed, one deal, whatever the backend (``ohhell.integrations.dealing``).

The environments choose the C core or the engine from the rules and the opponents; a seed must
pin the deals across those set-ups, so both backends deal the same cards from the same seed.
"""

from __future__ import annotations

from rl_support import require

require("pettingzoo")

import numpy as np  # noqa: E402
import pytest  # noqa: E402

from ohhell.integrations import batched  # noqa: E402
from ohhell.integrations.core import Setup  # noqa: E402
from ohhell.integrations.dealing import DealStream, advance_chance, new_state  # noqa: E402
from ohhell.integrations.encoding import ObservationEncoder  # noqa: E402
from ohhell.integrations.gymnasium import OhHellEnv  # noqa: E402
from ohhell.integrations.pettingzoo import env  # noqa: E402
from ohhell.views import seat_view  # noqa: E402

pytestmark = pytest.mark.skipif(not batched.available(), reason="the C batch core is not built")

BACKENDS = ("fast", "engine")


def pettingzoo_game(backend: str, seed: int, **setup: object) -> list[tuple[np.ndarray, float]]:
    """Every observation and reward of a game in which each agent plays its lowest legal action."""
    game = env(backend=backend, **setup)  # type: ignore[arg-type]
    game.reset(seed=seed)
    seen = []
    for _agent in game.agent_iter():
        observation, reward, terminated, truncated, _info = game.last()
        seen.append((observation["observation"].copy(), reward))
        game.step(None if terminated or truncated else int(np.flatnonzero(observation["action_mask"])[0]))
    return seen


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("setup", [{"mode": "hand", "hand": 3}, {"mode": "game", "players": 5, "max_size": 4},
                                   {"preset": "german-bridge", "mode": "game", "players": 3, "max_size": 3}])
def test_pettingzoo_deals_the_same_cards_on_both_backends(seed: int, setup: dict[str, object]) -> None:
    fast, engine = (pettingzoo_game(backend, seed, **setup) for backend in BACKENDS)
    assert len(fast) == len(engine)
    for (fast_observation, fast_reward), (engine_observation, engine_reward) in zip(fast, engine, strict=True):
        np.testing.assert_array_equal(fast_observation, engine_observation)
        assert fast_reward == engine_reward


def learner_hands(backend: str, seed: int) -> list[tuple[int, ...]]:
    """The learner's cards at the start of each hand of a whole game against random bots."""
    game = OhHellEnv(preset="classic", players=4, mode="game", max_size=5, opponents="random",
                     illegal_action="raise", backend=backend)
    views = ObservationEncoder(game.setup).views_of
    observation, info = game.reset(seed=seed)
    hands, seat, hand_index = [], info["seat"], -1
    while True:
        segments = views(observation["observation"])
        progress = float(segments["progress"][0])
        if progress != hand_index and segments["phase"][0] == 1.0:  # the learner's first bid of a hand
            hand_index = progress
            hands.append(tuple(np.flatnonzero(segments["hand"]).tolist()))
        observation, _reward, terminated, truncated, info = game.step(
            int(np.flatnonzero(observation["action_mask"])[0]))
        assert info["seat"] == seat
        if terminated or truncated:
            return hands


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_gymnasium_deals_the_same_cards_on_both_backends(seed: int) -> None:
    fast, engine = learner_hands("fast", seed), learner_hands("engine", seed)
    assert len(fast) == 9  # 5 cards down to 1 and up again: every hand's first bid
    assert fast == engine


def test_the_stream_deals_as_the_c_core() -> None:
    setup = Setup.create("classic", players=4, mode="hand", hand=0)
    games = batched.BatchedGames(setup, n=1, seed=11)
    stream = DealStream(11)
    state = new_state(setup, stream)
    advance_chance(setup, state, stream)
    assert int(games.dealer[0]) == state.dealer
    assert int(games.turn_up[0]) == state.turn_up
    np.testing.assert_array_equal(games.observe(seats=[0])[0], ObservationEncoder(setup).encode(seat_view(state, 0)))
