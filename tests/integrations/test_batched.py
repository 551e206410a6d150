"""The batched simulator agrees with the reference engine, game after game, action after action,
and its observations are the encoder's (one encoding everywhere)."""

from __future__ import annotations

from rl_support import require

np = require("numpy")

import pytest  # noqa: E402

from ohhell import Deal, Game, preset  # noqa: E402
from ohhell.integrations.batched import BatchedGames, BatchedHands, sample_legal, unsupported  # noqa: E402
from ohhell.integrations.core import Setup, acting_seat, rl_legal_actions  # noqa: E402
from ohhell.integrations.encoding import ObservationEncoder  # noqa: E402
from ohhell.rules import Rules  # noqa: E402
from ohhell.views import seat_view  # noqa: E402

CASES = [
    (preset("classic", players=3), 10),
    (preset("classic", players=4), 10),
    (preset("classic", players=5), 7),
    (preset("classic", players=6), 8),
    (preset("classic", players=7), 7),
    (preset("classic", players=4), 13),  # the whole pack: no trump
    (preset("la-podrida", players=4), 6),  # must trump
    (preset("oh-shit", players=5), 4),  # spades always trump
    (preset("german-bridge", players=4, hook=False, first_lead="dealer"), 5),
    (preset("contract-whist", players=4, trump="turn-up-low-none", zero_bid="5-plus-size"), 8),
    (preset("7-truf", players=4), 7),  # 32 cards
    (preset("classic", players=5, remove_twos_with=[5]), 9),  # 48 cards
]


def deal_engine(state, hands_dealt: np.ndarray, turn_up: int) -> None:
    """Deal an engine state the cards a batch game holds at the start of a hand."""
    seats = [tuple(int(card) for card in np.flatnonzero(row)) for row in hands_dealt]
    state.apply(Deal(tuple(seats), None if turn_up < 0 else int(turn_up)))


def check_game_by_game(batch: BatchedGames, setup: Setup, seed: int, observe: bool) -> int:
    """Play the batch with random actions beside engine games dealt the same cards; check every
    mask, reward, total and (with ``observe``) every observation. Returns the steps taken."""
    rng = np.random.default_rng(seed)
    batch.reset(dealer=rng.integers(0, setup.players, batch.n))
    encoder = ObservationEncoder(setup, perfect_recall=batch.perfect_recall)
    states = []
    for game in range(batch.n):
        state = Game(setup.rules).new_initial_state(first_dealer=int(batch.dealer[game]))
        deal_engine(state, batch.hands[game], int(batch.turn_up[game]))
        states.append(state)
    codec = batch.codec
    steps = 0
    while not batch.done.all():
        mask = batch.legal_mask().copy()
        players = batch.current_player()
        seen = batch.observe() if observe else None
        for game, state in enumerate(states):
            if setup.is_over(state):
                assert batch.done[game] and players[game] == -1
                continue
            seat = acting_seat(state)
            assert players[game] == seat
            view = seat_view(state, seat)
            legal = {codec.encode(action) for action in rl_legal_actions(view)}
            assert set(np.flatnonzero(mask[game]).tolist()) == legal, (game, steps)
            if seen is not None:
                expected = encoder.encode(view)
                different = np.flatnonzero(seen[game] != expected)
                assert different.size == 0, (game, steps, [encoder_segment(encoder, i) for i in different[:5]])
        actions = sample_legal(mask, rng)
        rewards = batch.step(actions)
        for game, state in enumerate(states):
            if setup.is_over(state):
                continue
            hands_before = len(state.finished_hands)
            state.apply(codec.decode(int(actions[game]), int(players[game])))
            if len(state.finished_hands) > hands_before:
                assert rewards[game].tolist() == list(state.finished_hands[-1].scores)
                assert batch.totals[game].tolist() == list(state.totals)
                if not setup.is_over(state):  # the batch dealt the next hand: deal the engine the same
                    assert state.is_chance_node()
                    assert int(batch.dealer[game]) == state.dealer
                    deal_engine(state, batch.hands[game], int(batch.turn_up[game]))
            else:
                assert not rewards[game].any()
        steps += 1
    if observe:
        final = batch.observe(seats=np.zeros(batch.n, dtype=np.int64))
        for game, state in enumerate(states):
            assert (final[game] == encoder.encode(seat_view(state, 0))).all()
    for game, state in enumerate(states):
        assert setup.is_over(state)
        assert batch.totals[game].tolist() == list(state.totals)
    return steps


def encoder_segment(encoder: ObservationEncoder, index: int) -> str:
    for name, (start, shape) in encoder.offsets.items():
        if start <= index < start + int(np.prod(shape)):
            return f"{name}[{index - start}]"
    return str(index)


@pytest.mark.parametrize("rules,size", CASES, ids=lambda value: getattr(value, "preset", str(value)))
def test_batched_hands_agree_with_the_engine(rules: Rules, size: int) -> None:
    hands = BatchedHands(rules, n=24, hand_size=size, seed=5)
    steps = check_game_by_game(hands, hands.setup, seed=size, observe=False)
    assert steps == rules.players * (size + 1)


@pytest.mark.parametrize("name,players,knobs", [
    ("classic", 4, {"max_size": 3}),
    ("kachuful", 3, {"max_size": 3}),
    ("up-and-down-the-river", 5, {"max_size": 3}),
    ("german-bridge", 4, {"max_size": 2, "turning_point": "twice", "no_trump_largest_hands": True}),
    ("classic", 4, {"schedule": "constant", "hand_count": 3, "max_size": 4, "target_score": 25}),
])
def test_whole_games_agree_with_the_engine_and_observe_alike(name: str, players: int, knobs: dict) -> None:
    setup = Setup.create(name, players=players, **knobs)
    for perfect_recall in (False, True):
        batch = BatchedGames(setup, n=6, seed=2, perfect_recall=perfect_recall)
        check_game_by_game(batch, setup, seed=3, observe=True)


@pytest.mark.parametrize("name,players,hand", [("classic", 4, 6), ("la-podrida", 5, 2), ("7-truf", 4, 9),
                                               ("devils-bridge", 3, 4)])
def test_single_hands_observe_like_the_encoder(name: str, players: int, hand: int) -> None:
    setup = Setup.create(name, players=players, mode="hand", hand=hand)
    for perfect_recall in (False, True):
        check_game_by_game(BatchedGames(setup, n=5, seed=1, perfect_recall=perfect_recall), setup, seed=hand,
                           observe=True)


def test_dealt_packs_are_the_engines_deal() -> None:
    hands = BatchedHands(preset("classic", players=4), n=3, hand_size=5, seed=1)
    rng = np.random.default_rng(0)
    packs = np.array([rng.permutation(hands.deck) for _ in range(3)])
    hands.set_deals(packs, [0, 1, 2])
    for game in range(3):
        dealer = game
        for position in range(20):
            assert hands.hands[game, (dealer + 1 + position) % 4, packs[game, position]]
        assert hands.turn_up[game] == packs[game, 20]
    with pytest.raises(ValueError, match="every card"):
        hands.set_deals(np.zeros_like(packs), [0, 1, 2])


def test_random_deals_are_uniform_and_complete() -> None:
    hands = BatchedHands(preset("classic", players=4), n=2000, hand_size=10, seed=1)
    dealt = hands.hands
    assert (dealt.sum(axis=2) == 10).all()
    assert not (dealt.sum(axis=1) > 1).any()  # no card dealt twice
    assert (hands.turn_up >= 0).all() and not dealt[np.arange(2000), :, hands.turn_up].any()
    # Each seat is dealt the ace of spades about a quarter of the time.
    share = dealt[:, :, 12].mean(axis=0)
    assert np.all(np.abs(share - 10 / 52) < 0.03)
    assert set(hands.dealer.tolist()) == {0, 1, 2, 3}


def test_illegal_actions_are_refused_and_nothing_changes() -> None:
    hands = BatchedHands(preset("classic", players=4), n=3, hand_size=5, seed=2)
    before = hands.records.copy()
    with pytest.raises(ValueError, match="may not play"):
        hands.step([0, 0, 0])
    assert (hands.records == before).all()


def test_stepping_a_finished_batch_is_an_error() -> None:
    hands = BatchedHands(preset("classic", players=3), n=4, hand_size=1, seed=2)
    while not hands.done.all():
        hands.step(hands.sample_actions())
    with pytest.raises(RuntimeError, match="call reset"):
        hands.step(hands.sample_actions())


def test_finished_games_can_be_dealt_again() -> None:
    hands = BatchedHands(preset("classic", players=3), n=16, hand_size=2, seed=3)
    rng = np.random.default_rng(1)
    while not hands.done.all():
        hands.step(sample_legal(hands.legal_mask(), rng))
    which = np.arange(16) % 2 == 0
    hands.reset(which)
    assert (~hands.done[which]).all() and hands.done[~which].all()
    assert (hands.hands[which].sum(axis=2) == 2).all()


def test_random_play_in_c_finishes_every_game() -> None:
    games = BatchedGames(Setup.create("classic", players=4, max_size=2), n=50, seed=4)
    ended = games.play_random(1000)
    assert games.done.all() and ended == 50 * 3
    assert (games.hand_index == 3).all()


def test_observation_shows_nothing_of_the_other_hands() -> None:
    """Deal the same cards to the acting seat and shuffle the others: its view is the same."""
    hands = BatchedHands(preset("classic", players=4), n=8, hand_size=6, seed=4)
    rng = np.random.default_rng(7)
    packs = np.array([rng.permutation(hands.deck) for _ in range(8)])
    dealers = np.zeros(8, dtype=np.int64)
    hands.set_deals(packs, dealers)
    seen = hands.observe()  # seat 1 bids first
    others = packs.copy()
    for game in range(8):  # seat 1 gets positions 0, 4, 8, …; swap the cards of seats 2 and 3
        for position in range(0, 24, 4):
            swapped = packs[game, position + 2], packs[game, position + 1]
            others[game, position + 1], others[game, position + 2] = swapped
    hands.set_deals(others, dealers)
    assert (hands.observe() == seen).all()


@pytest.mark.parametrize("rules,error", [
    (preset("jokers", players=4), "deck"),
    (preset("boerenbridge", players=4), "bidding"),
])
def test_unsupported_knobs_are_named(rules: Rules, error: str) -> None:
    with pytest.raises(ValueError, match=error):
        BatchedHands(rules, n=2, hand_size=3)
    assert unsupported(rules) == error


def test_a_hand_of_the_schedule_keeps_its_trump() -> None:
    hands = BatchedHands(preset("kachuful", players=4), n=4, hand=2, seed=0)
    assert hands.hand_size == 8 and (hands.trump == 3).all()  # the third hand: clubs


def test_a_game_of_the_batch_replays_in_the_engine() -> None:
    setup = Setup.create("la-podrida", players=4, max_size=3)
    games = BatchedGames(setup, n=3, seed=8)
    rng = np.random.default_rng(2)
    steps = 0
    while not games.done.all() and steps < 200:
        steps += 1
        for game in range(3):
            state = games.engine_state(game)
            assert list(state.totals) == games.totals[game].tolist()
            if not games.done[game]:
                assert acting_seat(state) == games.current_player()[game]
                assert (games.observe()[game] == ObservationEncoder(setup).encode(
                    seat_view(state, acting_seat(state)))).all()
            else:
                assert state.is_terminal()
        games.step(sample_legal(games.legal_mask(), rng))
    assert steps > 20
