"""The batched simulator agrees with the reference engine, hand after hand, action after action."""

from __future__ import annotations

from rl_support import require

np = require("numpy")

import pytest  # noqa: E402

from ohhell import Deal, Game, preset  # noqa: E402
from ohhell.integrations.batched import BatchedHands, sample_legal  # noqa: E402
from ohhell.integrations.core import acting_seat, rl_legal_actions  # noqa: E402
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


def mirror(hands: BatchedHands, packs: np.ndarray, dealers: np.ndarray) -> list:
    """Reference engine states dealt the same cards as the batch."""
    states = []
    p, size = hands.players, hands.size
    for pack, dealer in zip(packs.tolist(), dealers.tolist(), strict=True):
        state = Game(hands.rules).new_initial_state(first_dealer=dealer)
        seats = [[] for _ in range(p)]
        for position in range(p * size):
            seats[(dealer + 1 + position) % p].append(pack[position])
        turns_up = hands.plan_trump.startswith("turn-up") and len(pack) > p * size
        state.apply(Deal(tuple(tuple(cards) for cards in seats), pack[p * size] if turns_up else None))
        states.append(state)
    return states


@pytest.mark.parametrize("rules,size", CASES, ids=lambda value: getattr(value, "preset", str(value)))
def test_batched_hands_agree_with_the_engine(rules: Rules, size: int) -> None:
    n = 24
    hands = BatchedHands(rules, n=n, hand_size=size, seed=5)
    rng = np.random.default_rng(size)
    packs = np.array([rng.permutation(hands.deck) for _ in range(n)])
    dealers = rng.integers(0, rules.players, n)
    hands.set_deals(packs, dealers)
    states = mirror(hands, packs, dealers)
    codec = hands.codec
    steps = 0
    while not hands.done.all():
        mask = hands.legal_mask()
        players = hands.current_player()
        for game, state in enumerate(states):
            if state.is_terminal():
                assert hands.done[game] and players[game] == -1
                continue
            seat = acting_seat(state)
            assert players[game] == seat
            legal = {codec.encode(action) for action in rl_legal_actions(seat_view(state, seat))}
            assert set(np.flatnonzero(mask[game]).tolist()) == legal, (game, steps)
        actions = sample_legal(mask, rng)
        rewards = hands.step(actions)
        for game, state in enumerate(states):
            if not state.is_terminal():
                state.apply(codec.decode(int(actions[game]), int(players[game])))
                if state.is_terminal():
                    assert rewards[game].tolist() == state.totals
        steps += 1
    for game, state in enumerate(states):
        result = state.finished_hands[-1]
        assert hands.tricks_won[game].tolist() == list(result.tricks)
        assert hands.scores[game].tolist() == list(result.scores)
        assert hands.bids[game].tolist() == list(result.bids)
    assert steps == rules.players * (size + 1)


def test_random_deals_are_uniform_and_complete() -> None:
    hands = BatchedHands(preset("classic", players=4), n=2000, hand_size=10, seed=1)
    counts = hands.hands.sum(axis=2)
    assert (counts == 10).all()
    assert not (hands.hands.sum(axis=1) > 1).any()  # no card dealt twice
    assert (hands.turn_up >= 0).all() and not hands.hands[np.arange(2000), :, hands.turn_up].any()
    # Each seat is dealt the ace of spades about a quarter of the time.
    share = hands.hands[:, :, 12].mean(axis=0)
    assert np.all(np.abs(share - 10 / 52) < 0.03)
    assert set(hands.dealer.tolist()) == {0, 1, 2, 3}


def test_illegal_actions_are_refused_and_nothing_changes() -> None:
    hands = BatchedHands(preset("classic", players=4), n=3, hand_size=5, seed=2)
    before = hands.bids.copy()
    with pytest.raises(ValueError, match="may not play"):
        hands.step([0, 0, 0])
    assert (hands.bids == before).all()


def test_finished_games_can_be_dealt_again() -> None:
    hands = BatchedHands(preset("classic", players=3), n=16, hand_size=2, seed=3)
    rng = np.random.default_rng(1)
    while not hands.done.all():
        hands.step(sample_legal(hands.legal_mask(), rng))
    which = np.arange(16) % 2 == 0
    hands.reset(which)
    assert (~hands.done[which]).all() and hands.done[~which].all()
    assert (hands.hands[which].sum(axis=2) == 2).all()


def test_observation_shows_nothing_of_the_other_hands() -> None:
    hands = BatchedHands(preset("classic", players=4), n=8, hand_size=6, seed=4)
    rng = np.random.default_rng(7)
    for _ in range(9):
        hands.step(sample_legal(hands.legal_mask(), rng))
    seen = hands.observe()
    assert seen.shape == (8, hands.observation_size)
    me = hands.current_player()
    # Swap the hands of two other seats: the acting seat's observation must not change.
    for game in range(8):
        a, b = [(me[game] + k) % 4 for k in (1, 2)]
        if hands.hands[game, a].sum() == hands.hands[game, b].sum():
            hands.hands[game, [a, b]] = hands.hands[game, [b, a]]
    assert (hands.observe() == seen).all()
    assert (seen[:, :52].sum(axis=1) == hands.hands[np.arange(8), me].sum(axis=1)).all()


@pytest.mark.parametrize("rules,error", [
    (preset("jokers", players=4), "deck"),
    (preset("boerenbridge", players=4), "bidding"),
])
def test_unsupported_knobs_are_named(rules: Rules, error: str) -> None:
    with pytest.raises(ValueError, match=error):
        BatchedHands(rules, n=2, hand_size=3)


def test_a_hand_of_the_schedule_keeps_its_trump() -> None:
    hands = BatchedHands(preset("kachuful", players=4), n=4, hand=2, seed=0)
    assert hands.size == 8 and (hands.trump == 3).all()  # the third hand: clubs
