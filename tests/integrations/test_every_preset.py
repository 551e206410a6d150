"""The standard checks of each framework on every preset: PettingZoo's ``api_test``,
Gymnasium's ``check_env`` and OpenSpiel's ``random_sim_test``.

By default each preset is checked on one hand of its schedule (the largest hand of the first
half; the checks cover the same code as whole games, quickly). ``OHHELL_EVERY_PRESET=games``
checks whole games too (minutes).
"""

from __future__ import annotations

import os
import warnings

from rl_support import require

require("pettingzoo")
gymnasium = require("gymnasium")
pyspiel = require("pyspiel")

import pytest  # noqa: E402
from gymnasium.utils.env_checker import check_env  # noqa: E402
from pettingzoo.test import api_test  # noqa: E402

import ohhell.integrations.openspiel as ohhell_spiel  # noqa: E402
from ohhell.integrations.gymnasium import IllegalActionWarning, OhHellEnv  # noqa: E402
from ohhell.integrations.pettingzoo import env  # noqa: E402
from ohhell.rules import PRESETS, preset  # noqa: E402

WHOLE_GAMES = os.environ.get("OHHELL_EVERY_PRESET") == "games"
EXPECTED_WARNINGS = ("Observation space for each agent probably should be", "Observation is not a NumPy array")


def cases() -> list[tuple[str, int, dict]]:
    out = []
    for name, found in PRESETS.items():
        players = found.players[len(found.players) // 2]
        if preset(name, players=players).deck_mask >> 54:
            players = found.players[0]  # Bust's second pack is refused here (test_bust.py): one pack
        length = preset(name, players=players).schedule_length() or 1
        out.append((name, players, {"mode": "hand", "hand": length // 3}))
        if WHOLE_GAMES:
            out.append((name, players, {"mode": "game", "max_hands": 6}))
    return out


CASES = cases()
IDS = [f"{name}-{players}-{kwargs['mode']}" for name, players, kwargs in CASES]


@pytest.mark.parametrize("name,players,kwargs", CASES, ids=IDS)
def test_pettingzoo_api_test(name: str, players: int, kwargs: dict) -> None:
    for backend in ("auto", "engine"):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            api_test(env(preset=name, players=players, backend=backend, **kwargs), num_cycles=200)
        assert [str(w.message) for w in caught if not str(w.message).startswith(EXPECTED_WARNINGS)] == []


@pytest.mark.parametrize("name,players,kwargs", CASES, ids=IDS)
def test_gymnasium_check_env(name: str, players: int, kwargs: dict) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        warnings.filterwarnings("ignore", message=".*Not able to test alternative render modes.*")
        warnings.filterwarnings("ignore", category=IllegalActionWarning)
        check_env(OhHellEnv(preset=name, players=players, opponents="random", **kwargs), skip_render_check=True)


@pytest.mark.parametrize("name,players,kwargs", CASES, ids=IDS)
def test_openspiel_random_sim_test(name: str, players: int, kwargs: dict) -> None:
    game = ohhell_spiel.load(name, players=players, **kwargs)
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)
