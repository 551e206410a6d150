import pytest

from ohhell.errors import RulesError
from ohhell.rules import KNOBS, PRESETS, HandPlan, Rules, find_preset, preset


def sizes(rules):
    return [plan.size for plan in rules.hand_plans()]


@pytest.mark.parametrize("players, start, count", [(3, 10, 19), (4, 10, 19), (5, 10, 19), (6, 8, 15), (7, 7, 13)])
def test_classic_start_size_and_number_of_hands(players, start, count):
    rules = preset("classic", players=players)
    assert sizes(rules) == list(range(start, 0, -1)) + list(range(2, start + 1))
    assert rules.schedule_length() == count


def test_classic_plays_the_one_card_hand_once():
    assert sizes(preset("classic")).count(1) == 1


@pytest.mark.parametrize("players, hands", [(3, 15), (4, 13), (5, 10), (6, 8), (7, 7)])
def test_up_and_down_the_river_hand_counts(players, hands):
    rules = preset("up-and-down-the-river", players=players)
    assert sizes(rules) == list(range(1, hands + 1))
    plans = rules.hand_plans()
    # The last hand has no trump: set so, or (4 players, 13 cards) no card is left to turn up.
    assert plans[-1].trump == "none" or plans[-1].size * players == rules.deck_size
    assert all(plan.trump == "turn-up" for plan in plans[:-1])


def test_schedule_kinds():
    assert sizes(preset("classic", schedule="down", max_size=4)) == [4, 3, 2, 1]
    assert sizes(preset("classic", schedule="up", max_size=3)) == [1, 2, 3]
    assert sizes(preset("classic", schedule="up-down", max_size=3)) == [1, 2, 3, 2, 1]
    assert sizes(preset("classic", max_size=3, turning_point="twice")) == [3, 2, 1, 1, 2, 3]
    assert sizes(preset("classic", schedule="up-down", max_size=3, turning_point="twice")) == [1, 2, 3, 3, 2, 1]
    assert sizes(preset("classic", schedule="constant", max_size=5, hand_count=3)) == [5, 5, 5]


def test_maximum_by_deck_limit_and_fixed_number():
    assert preset("classic", players=4, max_size="deck").largest_hand == 13
    assert preset("classic", players=3, max_size="deck").largest_hand == 17
    assert preset("classic", players=6, max_size=7).largest_hand == 7


def test_one_card_hand_once_per_player():
    rules = preset("classic", players=3, max_size=3, one_card_hand_per_player=True)
    assert sizes(rules) == [3, 2, 1, 1, 1, 2, 3]


def test_explicit_list_with_its_own_trump_rules():
    rules = preset("classic", schedule="explicit", hands=[[2, "H"], [3, "none"], [1, "turn-up"]])
    assert rules.hand_plans() == (HandPlan(2, "H"), HandPlan(3, "none"), HandPlan(1, "turn-up"))


def test_trump_rules():
    assert [plan.trump for plan in preset("kachuful").hand_plans()[:5]] == ["S", "D", "C", "H", "S"]
    assert {plan.trump for plan in preset("oh-shit").hand_plans()} == {"S"}
    rotation = preset("classic", trump="rotation", trump_rotation=["H", "NT"]).hand_plans()
    assert [plan.trump for plan in rotation[:3]] == ["H", "none", "H"]
    largest = preset("classic", no_trump_largest_hands=True).hand_plans()
    assert largest[0].trump == "none" and largest[1].trump == "turn-up" and largest[-1].trump == "none"
    assert preset("classic", trump="turn-up-low-none").hand_plans()[0].trump == "turn-up-low-none"


def test_presets_bundle_their_knobs():
    assert preset("contract-whist").scoring == "trick-plus-bonus"
    assert preset("la-podrida").must_trump
    assert preset("german-bridge").scoring == "german-bridge"
    assert preset("blackout") == preset("classic").replace()  # an alias: the same knobs
    assert preset("jokers").deck == "54"


def test_every_preset_builds_for_its_player_counts():
    for name, found in PRESETS.items():
        for players in found.players:
            assert preset(name, players=players).players == players


def test_undealable_combination_is_refused_naming_the_knob():
    with pytest.raises(RulesError) as error:
        preset("classic", players=7, max_size=10)
    assert error.value.knob == "max_size"
    assert "70 cards" in str(error.value)
    with pytest.raises(RulesError) as error:
        preset("classic", deck="32", players=4, max_size=10)
    assert error.value.knob == "max_size"


def test_bad_knob_values_are_refused_naming_the_knob():
    for knob, value in [("scoring", "golf"), ("hook", "yes"), ("schedule", "sideways"), ("players", 8),
                        ("players", 2), ("max_size", 0), ("fixed_trump", "Z"), ("trump_rotation", ["Q"])]:
        with pytest.raises(RulesError) as error:
            preset("classic", **{knob: value})
        assert error.value.knob == knob, knob
    with pytest.raises(RulesError) as error:
        preset("classic", colour="blue")
    assert error.value.knob == "colour"


@pytest.mark.parametrize("stake", [float("nan"), float("inf"), float("-inf"), 0, -0.5, True, "1"])
def test_a_stake_that_is_not_a_positive_finite_amount_is_refused(stake):
    # NaN compares false with everything, so a check like ``stake <= 0`` alone lets it through.
    with pytest.raises(RulesError) as error:
        preset("classic", stake=stake)
    assert error.value.knob == "stake"
    with pytest.raises(RulesError):
        Rules.from_json({**preset("classic").to_json(), "stake": stake})


def test_a_positive_finite_stake_is_kept():
    assert preset("classic", stake=0.05).stake == 0.05
    assert preset("classic", stake=None).stake is None


def test_simultaneous_bidding_has_no_hook():
    # The hook and bid changes follow simultaneous bidding, unless set to the contrary.
    rules = preset("classic", bidding="simultaneous")
    assert (rules.hook, rules.bid_changes) == (False, False)
    with pytest.raises(RulesError) as error:
        preset("classic", bidding="simultaneous", hook=True)
    assert error.value.knob == "hook"
    with pytest.raises(RulesError) as error:
        Rules(bidding="simultaneous", bid_changes=False)
    assert error.value.knob == "hook"


def test_rules_round_trip_through_json():
    for name, found in PRESETS.items():
        rules = preset(name, players=found.players[0])
        assert Rules.from_json(rules.to_json()) == rules
    custom = preset("classic", players=5, must_trump=True, zero_bid="5-plus-size", hands=[], max_size=6)
    assert custom.to_json() == {"preset": "classic", "players": 5, "max_size": 6, "must_trump": True,
                                "zero_bid": "5-plus-size"}
    assert Rules.from_json(custom.to_json()) == custom


def test_find_preset_is_lenient_and_errors_list_the_presets():
    assert find_preset("Up_And_Down_The_River").name == "up-and-down-the-river"
    with pytest.raises(RulesError, match="classic"):
        find_preset("bridge")


def test_players_limits_of_presets():
    with pytest.raises(RulesError, match="4 players"):
        preset("7-truf", players=3)
    with pytest.raises(RulesError, match="5 or 6"):
        preset("ne-blackout", players=4)


def test_knob_list_is_complete():
    assert {"hook", "must_trump", "scoring", "zero_bid", "stake", "bidding", "first_lead"} <= set(KNOBS)


def test_rules_are_frozen_and_hashable():
    rules = preset("classic")
    with pytest.raises(AttributeError):
        rules.hook = False  # type: ignore[misc]
    assert hash(rules) == hash(preset("classic"))
