"""The learned level (``ohhell/integrations/learned.py``): a shipped network, NumPy inference, any table."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

np = pytest.importorskip("numpy", reason="the learned bot's forward pass is NumPy (pip install -e .[rl])")

from ohhell.bots import BOT_LEVELS, bot_names, make_bot  # noqa: E402
from ohhell.bots.basic import BasicBot  # noqa: E402
from ohhell.bots.driver import play_game  # noqa: E402
from ohhell.integrations.learned import WEIGHTS_FILE, LearnedBot, Policy, covers, shipped  # noqa: E402
from ohhell.rules import preset  # noqa: E402
from ohhell.views import seat_view  # noqa: E402

SHIPPED = Path(__file__).resolve().parents[1] / "ohhell" / "integrations" / WEIGHTS_FILE


def test_learned_is_a_level_that_can_be_named() -> None:
    assert "learned" in BOT_LEVELS and "learned" in bot_names()
    assert isinstance(make_bot("learned", seed=1), LearnedBot)
    levels = list(BOT_LEVELS)
    # Weakest first: measured below basic and above casual (docs/integrations.md).
    assert levels.index("casual") < levels.index("learned") < levels.index("basic")


def test_the_weights_are_small_and_shipped() -> None:
    assert SHIPPED.stat().st_size < 1_000_000
    policy = shipped()
    assert policy.inputs == 645 and policy.actions == 68
    assert {"round", "samples", "teacher"} <= set(policy.meta)


def test_it_plays_whole_classic_games_with_legal_actions() -> None:
    state = play_game(preset("classic", players=4), [make_bot("learned", seed=seat) for seat in range(4)], seed=5)
    assert state.is_terminal() and len(state.finished_hands) == 19


def test_playing_needs_no_pytorch() -> None:
    code = ("import sys; from ohhell.rules import preset; from ohhell.bots import make_bot; "
            "from ohhell.bots.driver import play_game; "
            "play_game(preset('classic', players=4, max_size=3), [make_bot('learned') for _ in range(4)], seed=1); "
            "print('torch' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         cwd=Path(__file__).resolve().parents[1])
    assert out.stdout.strip() == "False"


def test_the_forward_pass_is_the_network_saved(tmp_path: Path) -> None:
    rng = np.random.default_rng(1)
    layers = ((rng.normal(size=(6, 5)).astype(np.float32), rng.normal(size=5).astype(np.float32)),
              (rng.normal(size=(5, 3)).astype(np.float32), rng.normal(size=3).astype(np.float32)))
    Policy(layers, {"round": 1}).save(tmp_path / "p.npz")
    loaded = Policy.load(tmp_path / "p.npz")
    x = rng.normal(size=(4, 6)).astype(np.float32)
    expected = np.maximum(x @ layers[0][0] + layers[0][1], 0) @ layers[1][0] + layers[1][1]
    np.testing.assert_allclose(loaded.logits(x), expected, rtol=2e-2, atol=2e-2)  # stored as float16
    assert loaded.meta == {"round": 1}


def test_elsewhere_it_plays_as_basic() -> None:
    rules = preset("classic", players=5)
    assert not covers(rules) and covers(preset("classic", players=4))
    learned, basic = LearnedBot(seed=3), BasicBot(seed=3)
    state = play_game(rules, [make_bot("random", seed=seat) for seat in range(5)], seed=2,
                      until=lambda state: len(state.finished_hands) == 1 and state.turn is not None)
    view = seat_view(state, state.turn)
    assert learned.choose(view) == basic.choose(view)


def test_its_bids_are_the_bid_models_best_expected_score_where_it_knows_the_hand() -> None:
    from ohhell.actions import Bid
    from ohhell.bots import bid_model
    from ohhell.cards import mask_of
    from ohhell.scoring import hand_score

    rules = preset("classic", players=4)
    state = play_game(rules, [make_bot("random", seed=seat) for seat in range(4)], seed=4,
                      until=lambda state: state.phase.name == "BIDDING" and state.turn is not None)
    view = seat_view(state, state.turn)
    model = bid_model.load()
    table = bid_model.Table.of(rules, view.trump, view.turn_up, view.hand_size, view.bid_order)
    inputs = table.inputs(mask_of(view.hand), view.seat, view.bids)
    size = view.hand_size
    values = {bid: sum(p * hand_score(rules, bid, t, size) for t, p in enumerate(model.tricks(inputs, bid)[:size + 1]))
              for bid in range(size + 1)}
    chosen = LearnedBot(seed=1).choose(view)
    assert isinstance(chosen, Bid) and values[chosen.bid] == max(values.values())
    assert isinstance(LearnedBot(seed=1, bids="network").choose(view), Bid)
    with pytest.raises(ValueError, match="bids are made by"):
        LearnedBot(bids="oracle")
