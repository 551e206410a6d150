"""``python_ohhell`` passes OpenSpiel's random simulation test, and its tools run on it."""

from __future__ import annotations

import random

from rl_support import require

pyspiel = require("pyspiel")

import numpy as np  # noqa: E402
import pytest  # noqa: E402

import ohhell.integrations.openspiel as ohhell_spiel  # noqa: E402

SPECS = [
    "python_ohhell(players=3,mode=hand,hand=7)",
    "python_ohhell(preset=boerenbridge,players=4,max_hands=1)",
    "python_ohhell(preset=ne-blackout,players=5,mode=hand)",
    "python_ohhell(preset=devils-bridge,players=3,mode=hand,hand=18)",
    "python_ohhell(preset=jokers,players=3,mode=hand,hand=2,utility=placement)",
    "python_ohhell(preset=7-truf,players=4,mode=hand,hand=8,dealer=2)",
    "python_ohhell(preset=la-podrida,players=6,mode=hand,hand=1)",
    "python_ohhell(preset=classic,players=7,mode=hand,hand=6,knobs={\"hook\":false})",
]


@pytest.mark.parametrize("spec", SPECS)
def test_random_sim_test(spec: str) -> None:
    game = pyspiel.load_game(spec)
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


def test_random_sim_test_of_a_whole_game() -> None:
    game = pyspiel.load_game("python_ohhell", {"players": 3, "knobs": '{"max_size": 3}'})
    pyspiel.random_sim_test(game, num_sims=1, serialize=False, verbose=False)


def play_to_decision(game, rng: random.Random, decisions: int):
    state = game.new_initial_state()
    made = 0
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probabilities = zip(*state.chance_outcomes(), strict=True)
            assert sum(probabilities) == pytest.approx(1.0)
            state.apply_action(rng.choices(actions, probabilities)[0])
            continue
        if made == decisions:
            return state
        state.apply_action(rng.choice(state.legal_actions()))
        made += 1
    return state


def test_the_deal_is_the_engines_deal() -> None:
    game = ohhell_spiel.load("classic", players=4, mode="hand", hand=3)
    state = play_to_decision(game, random.Random(1), 0)
    history = state.history()
    dealer, cards = history[0], history[1:]  # the first dealer, then the cards one by one
    engine = state.engine
    for position, card in enumerate(cards[:4 * 7]):
        assert card in engine.deal[(dealer + 1 + position) % 4]
    assert engine.turn_up == cards[28]
    assert state.current_player() == (dealer + 1) % 4


@pytest.mark.parametrize("spec,decisions", [
    ("python_ohhell(players=4,mode=hand,hand=4)", 9),
    ("python_ohhell(preset=la-podrida,players=3,mode=hand,hand=2)", 14),
    ("python_ohhell(preset=jokers,players=3,mode=hand,hand=3)", 10),
    ("python_ohhell(preset=ne-blackout,players=5,mode=hand)", 30),
    ("python_ohhell(preset=devils-bridge,players=3,mode=hand,hand=18)", 3),
    ("python_ohhell(preset=boerenbridge,players=4,max_hands=1)", 2),
    ("python_ohhell(players=3,knobs={\"max_size\":2})", 12),
])
def test_resampled_states_look_the_same_to_the_player(spec: str, decisions: int) -> None:
    game = pyspiel.load_game(spec)
    for seed in range(3):
        state = play_to_decision(game, random.Random(seed), decisions)
        if state.is_terminal():
            continue
        player = state.current_player()
        sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
        others = set()
        for _ in range(5):
            resampled = state.resample_from_infostate(player, sampler)
            assert resampled.information_state_string(player) == state.information_state_string(player)
            assert resampled.legal_actions() == state.legal_actions()
            others.add(str(resampled))
        if "devils-bridge" not in spec:
            assert len(others) > 1  # the hidden cards really were dealt again


def test_resampling_during_the_deal() -> None:
    game = ohhell_spiel.load("classic", players=3, mode="hand", hand=8)
    state = game.new_initial_state()
    for action in (0, 5, 17):
        state.apply_action(action)
    again = state.resample_from_infostate(1, pyspiel.UniformProbabilitySampler(0.0, 1.0))
    assert again.cards_dealt == 2
    assert again.information_state_string(1) == state.information_state_string(1)


def test_secret_bids_stay_secret_until_all_are_in() -> None:
    game = ohhell_spiel.load("boerenbridge", players=4, max_hands=1, dealer=0)
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    first = state.current_player()
    one, other = state.clone(), state.clone()
    one.apply_action(one.legal_actions()[0])
    other.apply_action(other.legal_actions()[3])
    second = one.current_player()
    assert second != first
    assert one.information_state_string(second) == other.information_state_string(second)
    assert one.information_state_string(first) != other.information_state_string(first)
    np.testing.assert_array_equal(one.information_state_tensor(second), other.information_state_tensor(second))


def test_observations_and_public_observer() -> None:
    game = pyspiel.load_game("python_ohhell(players=4,mode=hand,hand=5)")
    state = play_to_decision(game, random.Random(3), 6)
    assert len(state.information_state_tensor(0)) == game.information_state_tensor_size()
    assert len(state.observation_tensor(1)) == game.observation_tensor_size()
    assert state.observation_string(0) != state.observation_string(1)
    public = game.make_py_observer(pyspiel.IIGObservationType(perfect_recall=False,
                                                              private_info=pyspiel.PrivateInfoType.NONE))
    assert public.string_from(state, 0) == public.string_from(state, 1)
    with pytest.raises(ValueError, match="never all hands"):
        game.make_py_observer(pyspiel.IIGObservationType(perfect_recall=False,
                                                         private_info=pyspiel.PrivateInfoType.ALL_PLAYERS))


def test_returns_are_the_engines_totals() -> None:
    game = ohhell_spiel.load("german-bridge", players=3, knobs={"max_size": 2})
    state = play_to_decision(game, random.Random(5), 10_000)
    assert state.is_terminal()
    assert state.returns() == [float(total) for total in state.engine.totals]
    assert game.min_utility() <= min(state.returns()) <= max(state.returns()) <= game.max_utility()


def test_ismcts_plays_a_hand() -> None:
    from open_spiel.python.algorithms import ismcts, mcts

    game = ohhell_spiel.load("classic", players=3, mode="hand", hand=7)
    rng = np.random.RandomState(0)
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rng), uct_c=2.0, max_simulations=30,
                           random_state=rng)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probabilities = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(actions, p=probabilities)))
        elif state.current_player() == 0:
            action = bot.step(state)
            assert action in state.legal_actions()
            state.apply_action(action)
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    assert len(state.returns()) == 3


def test_mccfr_runs() -> None:
    from open_spiel.python.algorithms import outcome_sampling_mccfr

    game = ohhell_spiel.load("classic", players=3, mode="hand", hand=9, dealer=0)
    solver = outcome_sampling_mccfr.OutcomeSamplingSolver(game)
    for _ in range(50):
        solver.iteration()
    state = play_to_decision(game, random.Random(0), 0)
    probabilities = solver.average_policy().action_probabilities(state)
    assert set(probabilities) == set(state.legal_actions())
    assert sum(probabilities.values()) == pytest.approx(1.0)


def test_bad_parameters_are_refused() -> None:
    with pytest.raises(Exception, match="mode"):
        pyspiel.load_game("python_ohhell(mode=round)")
    with pytest.raises(Exception, match="knobs"):
        pyspiel.load_game("python_ohhell(knobs=nonsense)")


@pytest.mark.parametrize("spec", [SPECS[0], SPECS[2], SPECS[3], "python_ohhell(players=3,knobs={\"max_size\":2})"])
def test_the_tensors_are_the_shared_encoders(spec: str) -> None:
    # OpenSpiel's observation and information-state tensors of every seat, at every decision
    # and at the end, are the shared encoder's tensors of that seat's view (without and with
    # perfect recall); the public observer's is the spectator's.
    from ohhell.integrations.encoding import ObservationEncoder
    from ohhell.views import seat_view, spectator_view

    game = pyspiel.load_game(spec)
    observation, information = ObservationEncoder(game.setup), ObservationEncoder(game.setup, perfect_recall=True)
    public = game.make_py_observer(pyspiel.IIGObservationType(perfect_recall=False,
                                                              private_info=pyspiel.PrivateInfoType.NONE))
    rng = random.Random(5)
    state = game.new_initial_state()
    decisions = 0
    while True:
        if state.is_chance_node():
            actions, probabilities = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(actions, probabilities)[0])
            continue
        engine = state.engine
        for player in range(game.num_players()):
            view = seat_view(engine, player)
            np.testing.assert_array_equal(state.observation_tensor(player), observation.encode(view))
            np.testing.assert_array_equal(state.information_state_tensor(player), information.encode(view))
        public.set_from(state, 0)
        np.testing.assert_array_equal(public.tensor, observation.encode(spectator_view(engine)))
        if state.is_terminal():
            break
        decisions += 1
        state.apply_action(rng.choice(state.legal_actions()))
    assert decisions > 0
