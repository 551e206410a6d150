"""Al Okuneff's rules: no turned card, the highest bidder chooses trump after the bidding."""

from __future__ import annotations

import random

import pytest

from ohhell import Game, IllegalActionError, Phase, State, preset
from ohhell.actions import ChooseTrump, Deal, Scoresheet, action_from_json, action_to_json, make_bid, parse_action
from ohhell.cards import SUIT_MASKS, card_name, parse_card
from ohhell.errors import RecordError
from ohhell.record import play_random_game, record_from_state, replay_result, state_from_record
from ohhell.rules import Rules
from ohhell.views import seat_view, spectator_view


def dealt(rules: Rules, seed: int = 3, first_dealer: int = 0) -> State:
    state = Game(rules).new_initial_state(first_dealer=first_dealer)
    rng = random.Random(seed)
    while state.is_chance_node():
        state.apply(state.sample_chance(rng))
    return state


def bid_all(state: State, bids: list[int]) -> None:
    """Bid ``bids`` in bidding order (left of the dealer first)."""
    for seat, bid in zip(state.bid_order, bids, strict=False):
        state.apply(make_bid(seat, bid))


def test_the_preset_turns_no_card_and_scores_german_bridge() -> None:
    rules = preset("okuneff")
    assert rules.trump == "chosen" and rules.scoring == "german-bridge"
    state = dealt(rules)
    assert state.turn_up is None and state.trump is None and state.trump_mask == 0
    assert state.phase == Phase.BIDDING


def test_the_highest_bidder_chooses_and_only_they_may() -> None:
    state = dealt(preset("okuneff"))  # 10 cards; dealer 0, so seats bid 1, 2, 3, 0
    bid_all(state, [2, 4, 1, 2])
    assert state.phase == Phase.CHOOSING_TRUMP
    assert state.trump_chooser == 2 and state.turn == 2 and state.actors() == [2]
    assert state.legal_actions() == [ChooseTrump(2, suit) for suit in range(4)]
    assert state.legal_actions(1) == []
    with pytest.raises(IllegalActionError, match="seat 2, the highest bidder, chooses trump") as error:
        state.apply(ChooseTrump(1, 0))
    assert error.value.rule == "not-your-turn"
    state.apply(ChooseTrump(2, 1))
    assert state.trump == 1 and state.trump_mask == SUIT_MASKS[1]
    assert state.phase == Phase.PLAYING and state.turn == 1  # left of the dealer leads


def test_ties_go_to_the_first_of_the_highest_bidders_in_bidding_order() -> None:
    state = dealt(preset("okuneff"), first_dealer=2)  # seats bid 3, 0, 1, 2
    bid_all(state, [1, 3, 3, 2])
    assert state.trump_chooser == 0


def test_an_illegal_suit_is_refused_with_a_clear_error_and_nothing_changes() -> None:
    state = dealt(preset("okuneff"))
    bid_all(state, [2, 4, 1, 2])
    before = state.clone()
    for suit in (4, -1, 7):
        with pytest.raises(IllegalActionError, match="is not a suit") as error:
            state.apply(ChooseTrump(2, suit))
        assert error.value.rule == "bad-suit"
        assert state == before


def test_nothing_else_happens_before_trump_is_chosen() -> None:
    state = dealt(preset("okuneff"))
    with pytest.raises(IllegalActionError, match="highest bidder chooses it once the bidding is over"):
        state.apply(ChooseTrump(1, 0))
    bid_all(state, [2, 4, 1, 2])
    card = state.hand(1)[0]
    with pytest.raises(IllegalActionError, match="seat 2 must first choose trump"):
        state.apply(parse_action(f"play 1 {card_name(card)}"))
    with pytest.raises(IllegalActionError, match="may no longer change its bid"):
        state.apply(make_bid(0, 0))  # the dealer's window closes with the bidding


def test_other_rules_have_no_choice() -> None:
    state = dealt(preset("classic"))
    bid_all(state, [2, 4, 1, 2])
    with pytest.raises(IllegalActionError, match="nobody chooses trump in this hand") as error:
        state.apply(ChooseTrump(2, 0))
    assert error.value.rule == "no-trump-choice"


def test_a_hand_without_trump_in_the_schedule_has_no_choice() -> None:
    rules = preset("okuneff", players=4, schedule="up", max_size=2, no_trump_last_hand=True)
    state = dealt(rules)
    bid_all(state, [1, 0, 0, 1])
    assert state.phase == Phase.CHOOSING_TRUMP  # hand 1 of 2
    state.apply(ChooseTrump(state.trump_chooser or 0, 3))
    while state.hand_index == 0:
        state.apply(state.legal_actions(state.turn)[0])
    rng = random.Random(1)
    while state.is_chance_node():
        state.apply(state.sample_chance(rng))
    bid_all(state, [1, 0, 0, 0])
    assert state.phase == Phase.PLAYING and state.trump is None and state.trump_chooser is None


def test_undo_takes_back_the_choice_and_the_last_bid() -> None:
    state = dealt(preset("okuneff"))
    bid_all(state, [2, 4, 1])
    before_last_bid = state.clone()
    state.apply(make_bid(0, 2))
    before_choice = state.clone()
    state.apply(ChooseTrump(2, 3))
    assert state.undo() == ChooseTrump(2, 3)
    assert state == before_choice
    state.undo()
    assert state == before_last_bid and state.trump_chooser is None


def test_bowers_follow_the_chosen_suit() -> None:
    state = dealt(preset("okuneff", bowers=True))
    bid_all(state, [2, 4, 1, 2])
    state.apply(ChooseTrump(2, 1))  # hearts: the jack of diamonds is the left bower
    assert state.trump_mask >> parse_card("JD") & 1


def test_the_action_parses_and_prints_in_text_and_json() -> None:
    action = ChooseTrump(2, 1)
    assert str(action) == "trump 2 H" and parse_action("trump 2 h") == action
    assert action_to_json(action) == {"type": "trump", "seat": 2, "suit": "H"}
    assert action_from_json({"type": "trump", "seat": 2, "suit": "H"}) == action
    with pytest.raises(ValueError, match="'suit' must be one of S, H, D, C"):
        action_from_json({"type": "trump", "seat": 2, "suit": 1})


def test_views_say_who_chooses_and_what_was_chosen() -> None:
    state = dealt(preset("okuneff"))
    bid_all(state, [2, 4, 1, 2])
    chooser, other = seat_view(state, 2), seat_view(state, 0)
    assert chooser.phase == Phase.CHOOSING_TRUMP and chooser.trump_chooser == 2
    assert chooser.legal_actions == tuple(ChooseTrump(2, suit) for suit in range(4))
    assert other.trump_chooser == 2 and other.legal_actions == () and other.trump is None
    state.apply(ChooseTrump(2, 0))
    public = spectator_view(state)
    assert public.trump == 0 and public.trump_chooser == 2
    again = type(public).from_json(public.to_json())
    assert again.trump_chooser == 2 and again.phase == Phase.PLAYING


def test_records_keep_the_chosen_trump_and_replay_it() -> None:
    state = play_random_game(preset("okuneff", players=3), seed=5)
    record = record_from_state(state)
    first = record["hands"][0]
    assert first["trump"] is None and first["chosen_trump"] in ("S", "H", "D", "C")
    assert list(first).index("chosen_trump") == list(first).index("bids") + 1
    again = state_from_record(record)
    assert again.finished_hands == state.finished_hands
    assert replay_result(again)["hands"][0]["trump"] == first["chosen_trump"]


def test_a_record_without_the_chosen_trump_is_refused() -> None:
    record = record_from_state(play_random_game(preset("okuneff", players=3), seed=5))
    del record["hands"][1]["chosen_trump"]
    with pytest.raises(RecordError, match="chose trump after the bidding: give the suit as chosen_trump") as error:
        state_from_record(record)
    assert error.value.kind == "bad-trump" and error.value.hand == 1
    record = record_from_state(play_random_game(preset("classic", players=3), seed=5))
    record["hands"][0]["chosen_trump"] = "H"
    with pytest.raises(RecordError, match="nobody chooses trump in this hand"):
        state_from_record(record)


def test_a_record_stopped_while_trump_is_chosen_replays_to_that_moment() -> None:
    state = dealt(preset("okuneff"))
    bid_all(state, [2, 4, 1, 2])
    record = record_from_state(state)
    assert "chosen_trump" not in record["hands"][0]
    again = state_from_record(record)
    assert again.phase == Phase.CHOOSING_TRUMP and again.trump_chooser == 2


def test_a_scoresheet_hand_chooses_trump_after_the_bids() -> None:
    rules = preset("okuneff", real_cards=True)
    state = Game(rules).new_initial_state(first_dealer=0)
    with pytest.raises(IllegalActionError, match="chosen by the highest bidder"):
        state.apply(Scoresheet(trump=1))
    state.apply(Scoresheet())
    bid_all(state, [2, 4, 1, 2])
    assert state.phase == Phase.CHOOSING_TRUMP
    state.apply(ChooseTrump(2, 3))
    assert state.phase == Phase.TRICKS
    record = record_from_state(state)
    assert record["hands"][0]["chosen_trump"] == "C" and record["hands"][0]["trump"] is None
    assert state_from_record(record).trump == 3


def test_a_deal_with_a_turned_card_is_refused() -> None:
    state = Game(preset("okuneff", players=3)).new_initial_state(first_dealer=0)
    hands = tuple(tuple(range(seat * 10, seat * 10 + 10)) for seat in range(3))
    with pytest.raises(IllegalActionError, match="no card is turned up in this hand"):
        state.apply(Deal(hands, 40))
