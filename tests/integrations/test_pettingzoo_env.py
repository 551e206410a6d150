"""The PettingZoo environment passes PettingZoo's own test suite, on many rule sets."""

from __future__ import annotations

import warnings

from rl_support import require

require("pettingzoo")

import numpy as np  # noqa: E402
import pytest  # noqa: E402
from pettingzoo.test import api_test, seed_test  # noqa: E402

from ohhell.integrations.core import ActionCodec  # noqa: E402
from ohhell.integrations.pettingzoo import env, raw_env  # noqa: E402
from ohhell.views import seat_view  # noqa: E402

# The only warnings api_test may give: the ones it gives every environment with dict observations.
EXPECTED_WARNINGS = ("Observation space for each agent probably should be", "Observation is not a NumPy array")


def run_api_test(game: object, cycles: int) -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(game, num_cycles=cycles)
    unexpected = [str(w.message) for w in caught if not str(w.message).startswith(EXPECTED_WARNINGS)]
    assert unexpected == []


@pytest.mark.parametrize("kwargs", [
    {"preset": "classic", "players": 4},
    {"preset": "classic", "players": 3, "mode": "hand", "hand": 5, "reward": "placement"},
    {"preset": "boerenbridge", "players": 4, "max_hands": 2},
    {"preset": "ne-blackout", "players": 5, "mode": "hand"},
    {"preset": "devils-bridge", "players": 3, "max_size": 3},
    {"preset": "la-podrida", "players": 7, "mode": "hand", "hand": 3, "dealer": 2},
], ids=lambda kwargs: f"{kwargs['preset']}-{kwargs['players']}")
def test_api_test(kwargs: dict) -> None:
    run_api_test(env(**kwargs), cycles=300)


def test_seed_test() -> None:
    seed_test(lambda: env(preset="classic", players=5, max_size=4), num_cycles=200)


def play_random(game, seed: int) -> tuple[dict, object]:
    game.reset(seed=seed)
    rng = np.random.default_rng(seed)
    totals: dict = {}
    for agent in game.agent_iter():
        observation, reward, terminated, truncated, _info = game.last()
        totals[agent] = totals.get(agent, 0.0) + reward
        if terminated or truncated:
            game.step(None)
            continue
        legal = np.flatnonzero(observation["action_mask"])
        game.step(int(rng.choice(legal)))
    return totals, game.unwrapped.game_state


def test_score_rewards_add_up_to_the_totals() -> None:
    totals, state = play_random(env(preset="german-bridge", players=4, max_size=4), seed=3)
    assert state.is_terminal()
    assert [totals[f"player_{seat}"] for seat in range(4)] == [float(t) for t in state.totals]


def test_placement_rewards_rank_the_players() -> None:
    totals, state = play_random(env(preset="classic", players=3, max_size=3, reward="placement"), seed=4)
    ranks = [totals[f"player_{seat}"] for seat in range(3)]
    best = max(state.totals)
    assert all((rank == 1.0) == (total == best and state.totals.count(best) == 1)
               for rank, total in zip(ranks, state.totals, strict=True))
    assert sum(ranks) == pytest.approx(0.0)


def test_the_mask_is_the_seat_views_legal_actions_and_only_for_the_agent_to_act() -> None:
    game = raw_env()
    game.reset(seed=1)
    codec = ActionCodec(game.setup.rules)
    for _ in range(30):
        agent = game.agent_selection
        seat = game.seat_of(agent)
        observation = game.observe(agent)
        view = seat_view(game.game_state, seat)
        assert set(np.flatnonzero(observation["action_mask"])) == {codec.encode(a) for a in view.legal_actions
                                                                   if getattr(a, "seat", seat) == seat}
        for other in game.agents:
            if other != agent:
                assert not game.observe(other)["action_mask"].any()
        game.step(int(np.flatnonzero(observation["action_mask"])[0]))


def test_illegal_actions_raise_or_end_the_game() -> None:
    game = env(preset="classic", players=4)
    game.reset(seed=0)
    with pytest.raises(ValueError, match="may not play"):
        game.step(0)
    wrapped = env(preset="classic", players=4, illegal_reward=-50)
    wrapped.reset(seed=0)
    mask = wrapped.last()[0]["action_mask"]
    wrapped.step(int(np.flatnonzero(mask == 0)[0]))
    assert all(wrapped.terminations.values())
    assert min(wrapped.rewards.values()) == -50


def test_open_ended_games_are_truncated() -> None:
    game = env(preset="boerenbridge", players=4, max_hands=1)
    _totals, state = play_random(game, seed=2)
    assert not state.is_terminal() and state.hand_index == 1


def test_render_shows_public_information_only() -> None:
    game = env(preset="classic", players=4, render_mode="ansi")
    game.reset(seed=1)
    text = game.render()
    assert "hand 1 of 19" in text and "totals: 0 0 0 0" in text
    assert "seat" not in text  # no hand is shown


def test_render_at_the_end_shows_the_last_hand_and_the_winners() -> None:
    game = env(mode="hand", hand=8, render_mode="ansi")
    _totals, state = play_random(game, seed=1)
    text = game.render()
    last = state.finished_hands[-1]
    assert text.startswith("hand 1 of 1 (finished): 2 cards")
    assert "bids:   " + " ".join(str(bid) for bid in last.bids) in text
    assert "tricks: " + " ".join(str(count) for count in last.tricks) in text
    assert "scores: " + " ".join(str(score) for score in last.scores) in text
    assert "winners: " + " ".join(str(seat) for seat in state.winners()) in text
    assert raw_env.metadata["render_fps"] > 0


@pytest.mark.parametrize("backend", ["fast", "engine"])
def test_a_game_cut_short_is_truncated_on_both_backends(backend: str) -> None:
    game = env(preset="classic", players=3, max_size=3, max_hands=2, backend=backend)
    game.reset(seed=5)
    rng = np.random.default_rng(5)
    endings = set()
    for _agent in game.agent_iter():
        observation, _reward, terminated, truncated, _info = game.last()
        if terminated or truncated:
            endings.add((terminated, truncated))
            game.step(None)
        else:
            game.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
    assert endings == {(False, True)}
    assert len(game.unwrapped.game_state.finished_hands) == 2


@pytest.mark.parametrize("backend", ["fast", "engine"])
def test_perfect_recall_observations_hold_the_history_the_engine_played(backend: str) -> None:
    # A whole short game with perfect recall: at every step every agent's observation holds,
    # in its history segment, every bid and trick so far (leader, cards, winner) exactly as
    # the engine played them — the actions stepped here — and the rest of the observation is
    # the default one.
    from history_check import decoded_history, engine_history

    from ohhell.actions import Bid, Play
    from ohhell.integrations.encoding import ObservationEncoder

    game = env(preset="classic", players=3, max_size=2, perfect_recall=True, backend=backend)
    raw = game.unwrapped
    assert raw.backend == backend
    encoder, plain = raw.encoder, ObservationEncoder(raw.setup)
    assert encoder.perfect_recall and encoder.size > plain.size
    assert game.observation_space("player_0")["observation"].shape == (encoder.size,)
    game.reset(seed=7)
    rng = np.random.default_rng(7)
    stepped: list[object] = []
    checked = 0
    for agent in game.agent_iter():
        observation, _reward, terminated, truncated, _info = game.last()
        if terminated or truncated:
            game.step(None)
            continue
        state = raw.game_state
        assert [a for a in state.history if isinstance(a, (Bid, Play))] == stepped
        expected = engine_history(state)
        for other in raw.agents:
            seat = raw.seat_of(other)
            vector = observation["observation"] if other == agent else raw.observe(other)["observation"]
            assert decoded_history(encoder, vector, seat) == expected
            assert (vector[:plain.size] == plain.encode(seat_view(state, seat))).all()
        checked += 1
        index = int(rng.choice(np.flatnonzero(observation["action_mask"])))
        stepped.append(raw.codec.decode(index, raw.seat_of(agent)))
        game.step(index)
    assert raw.game_state.is_terminal() and len(raw.game_state.finished_hands) == 3  # hands of 2, 1, 2 cards
    assert checked == 3 * 3 + 3 * (2 + 1 + 2)
