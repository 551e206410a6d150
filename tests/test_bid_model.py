"""The learned bid model (issue 20): the shipped weights load, the C core computes exactly what
the Python reference computes, and the inputs do not depend on the names of the suits."""

from __future__ import annotations

import math
import random

import pytest

from ohhell import fastsim
from ohhell.bots import bid_model
from ohhell.bots.bid_model import INPUTS, OUTPUTS, BidInputs, BidModel, Table, features
from ohhell.cards import SUIT_MASKS
from ohhell.fastsim import score_row
from ohhell.rules import preset


def random_model(seed: int, hidden: int = 8) -> BidModel:
    rng = random.Random(seed)

    def numbers(count: int) -> tuple[float, ...]:
        # Through float32, as the shipped weights are stored.
        return tuple(float(f"{rng.gauss(0, 0.5):.6g}") for _ in range(count))

    data = {"features": bid_model.FEATURES_VERSION, "inputs": INPUTS, "outputs": OUTPUTS, "hidden": hidden,
            "w1": bid_model.encode_floats(numbers(hidden * INPUTS)), "b1": bid_model.encode_floats(numbers(hidden)),
            "w2": bid_model.encode_floats(numbers(OUTPUTS * hidden)), "b2": bid_model.encode_floats(numbers(OUTPUTS))}
    return bid_model.from_json(data)


def random_hand(rng: random.Random, size: int) -> int:
    mask = 0
    for card in rng.sample(range(52), size):
        mask |= 1 << card
    return mask


def test_the_shipped_model_loads_and_says_how_it_was_trained() -> None:
    model = bid_model.load()
    assert model.hidden > 0
    assert {"samples", "held_out_trick_loss", "binomial_trick_loss"} <= set(model.meta)
    # It learned something: on hands it never saw it predicts the search's trick counts better
    # than the binomial estimate of the heuristic bots.
    assert model.meta["held_out_trick_loss"] < model.meta["binomial_trick_loss"]


def test_the_model_covers_what_it_was_trained_on() -> None:
    assert bid_model.covers(preset("classic"), 10)
    assert bid_model.covers(preset("classic", scoring="triangular-penalty"), 2)
    assert not bid_model.covers(preset("classic"), 1)  # counted exactly instead
    assert not bid_model.covers(preset("up-and-down-the-river", players=3), 15)
    assert not bid_model.covers(preset("jokers"), 5)
    assert not bid_model.covers(preset("7-truf"), 5)
    assert not bid_model.covers(preset("boerenbridge", players=4), 13)  # secret bids


def test_the_inputs_do_not_depend_on_the_names_of_the_plain_suits() -> None:
    rng = random.Random(3)
    for _ in range(50):
        hand = random_hand(rng, 8)
        trump = rng.randrange(4)
        plain = [s for s in range(4) if s != trump]
        swapped = plain[:]
        rng.shuffle(swapped)
        renamed = hand & SUIT_MASKS[trump]
        for old, new in zip(plain, swapped, strict=True):
            renamed |= ((hand >> (13 * old)) & 0x1FFF) << (13 * new)
        first = BidInputs(hand, trump, 5, 4, 8, 1, 2, 1, "exact")
        second = BidInputs(renamed, trump, 5, 4, 8, 1, 2, 1, "exact")
        assert features(first) == features(second)


def test_a_trick_distribution_sums_to_one_and_the_policy_too() -> None:
    model = random_model(1)
    inputs = BidInputs(random_hand(random.Random(1), 6), 0, 3, 4, 6, 0, 0, 0, "triangular-penalty")
    for bid in range(7):
        assert sum(model.tricks(inputs, bid)) == pytest.approx(1.0)
    assert sum(model.policy(inputs)) == pytest.approx(1.0)


@pytest.mark.skipif(not fastsim.AVAILABLE, reason="the C core is not built")
@pytest.mark.parametrize("scoring", ["exact", "triangular-penalty", "german-bridge"])
def test_the_core_computes_what_the_python_reference_computes(scoring: str) -> None:
    model = random_model(2)
    rng = random.Random(scoring)
    for players, size, trump, turn_up in [(4, 7, 2, 2 * 13 + 5), (3, 10, None, None), (6, 5, 0, 12), (5, 2, 3, 40)]:
        rules = preset("classic", players=players, scoring=scoring)
        order = tuple((3 + k) % players for k in range(players))
        table = Table.of(rules, trump, turn_up, size, order)
        bids: list[int | None] = [None] * players
        bids[order[0]] = 1
        hands = [random_hand(rng, size) for _ in range(12)]
        seats = [rng.randrange(players) for _ in hands]
        rows = [score_row(rules, b, 0, size) for b in range(size + 1)]
        values, policy = bid_model.batch(model, table, hands, seats, bids, rows)
        values_c = memoryview(values).cast("d")
        policy_c = memoryview(policy).cast("d")
        for index, (hand, seat) in enumerate(zip(hands, seats, strict=True)):
            inputs = table.inputs(hand, seat, bids)
            outputs = model.outputs(inputs)
            expected_policy = model.policy(inputs, outputs)
            for bid in range(size + 1):
                distribution = model.tricks(inputs, bid, outputs)
                expected = sum(p * v for p, v in zip(distribution, rows[bid], strict=True))
                assert values_c[index * (size + 1) + bid] == pytest.approx(expected, rel=1e-5, abs=1e-6)
                assert policy_c[index * (size + 1) + bid] == pytest.approx(expected_policy[bid], rel=1e-5, abs=1e-9)


def test_a_model_for_other_features_is_refused() -> None:
    with pytest.raises(ValueError, match="train it again"):
        bid_model.from_json({"features": 0, "inputs": INPUTS, "outputs": OUTPUTS, "hidden": 1})


def test_steering_pulls_the_tricks_towards_the_bid() -> None:
    q = [0.0] * 14
    loose = bid_model.steered(q, -5.0, 2, 5)
    tight = bid_model.steered(q, 5.0, 2, 5)
    assert tight[2] > loose[2]
    assert math.isclose(sum(tight), 1.0)


@pytest.mark.skipif(not fastsim.AVAILABLE, reason="the C core is not built")
def test_without_score_rows_the_core_gives_the_policy_alone() -> None:
    model = random_model(4)
    rules = preset("classic", players=4)
    table = Table.of(rules, 1, 20, 5, (1, 2, 3, 0))
    hands = [random_hand(random.Random(seed), 5) for seed in range(6)]
    rows = [score_row(rules, b, 0, 5) for b in range(6)]
    values, policy = bid_model.batch(model, table, hands, [1] * 6, [None] * 4, rows)
    no_values, same_policy = bid_model.batch(model, table, hands, [1] * 6, [None] * 4, None)
    assert same_policy == policy
    assert set(memoryview(no_values).cast("d")) == {0.0} and set(memoryview(values).cast("d")) != {0.0}
