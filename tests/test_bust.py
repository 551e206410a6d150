"""Bust (seed 003, Australia, Bryce Francis): with 5 players the 13 small cards of a second pack
are added, with 6 players 26; of two identical cards in one trick the second played beats the
first. One test per rule, then the record, the bots and the front ends' pieces."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest

from ohhell import Game, IllegalActionError, Play, RulesError, preset
from ohhell.actions import Bid, Deal, action_from_json, action_to_json, parse_action
from ohhell.cards import (
    CARD_COUNT,
    FIRST_COPY,
    SMALL_CARDS_ORDER,
    CardNumbering,
    card_name,
    card_rank,
    card_suit,
    cards_of,
    identical,
    original,
    parse_card,
    parse_cards,
    second_copy,
)
from ohhell.errors import InvalidCardError, RecordError
from ohhell.explain import describe_rules
from ohhell.game import State
from ohhell.i18n import set_language
from ohhell.record import dump_record, load_record, play_random_game, record_from_state, replay, state_from_record
from ohhell.rules import Rules
from ohhell.views import seat_view, view_from_json


def one_hand(players: int, size: int, trump: str = "none", **knobs: object) -> Rules:
    return preset("bust", players=players, schedule="explicit", hands=[[size, trump]], **knobs)


def dealt(rules: Rules, hands: list[str], turn_up: str | None = None, dealer: int = 0) -> State:
    """A state after a known deal, a name given twice being the card and its second copy."""
    numbering = CardNumbering()
    cards = tuple(tuple(numbering.number(name) for name in text.split()) for text in hands)
    state = Game(rules).new_initial_state(first_dealer=dealer)
    state.apply(Deal(cards, numbering.number(turn_up) if turn_up else None))
    return state


def bid_all(state: State, bids: list[int]) -> None:
    for bid in bids:
        assert state.turn is not None
        state.apply(Bid(state.turn, bid))


def play_names(state: State, names: str) -> None:
    """Play cards by name (either copy of a card held), each by the seat on turn."""
    for name in names.split():
        assert state.turn is not None
        state.apply(Play(state.turn, parse_card(name)))


# ------------------------------------------------------------------------------ the pack


def test_the_second_copies_are_the_small_cards_in_their_order():
    for k in range(CARD_COUNT - FIRST_COPY):
        copy = FIRST_COPY + k
        assert original(copy) == SMALL_CARDS_ORDER[k] and second_copy(SMALL_CARDS_ORDER[k]) == copy
        assert card_name(copy) == card_name(SMALL_CARDS_ORDER[k])
        assert (card_rank(copy), card_suit(copy)) == (card_rank(SMALL_CARDS_ORDER[k]), card_suit(SMALL_CARDS_ORDER[k]))
        assert identical(copy, SMALL_CARDS_ORDER[k]) and not identical(copy, SMALL_CARDS_ORDER[(k + 1) % 26])
    assert second_copy(parse_card("9S")) is None


@pytest.mark.parametrize(("players", "size", "copies"), [(4, 52, 0), (5, 65, 13), (6, 78, 26)])
def test_the_pack_has_13_cards_per_player_and_the_first_hand_13_each(players, size, copies):
    rules = preset("bust", players=players)
    assert rules.deck_size == size
    assert rules.second_pack == (copies > 0)
    names = Counter(card_name(card) for card in cards_of(rules.deck_mask))
    twice = {name for name, count in names.items() if count == 2}
    assert twice == {card_name(card) for card in SMALL_CARDS_ORDER[:copies]}
    assert max(names.values()) <= 2 and len(names) == 52
    sizes = [plan.size for plan in rules.hand_plans()]
    assert sizes[0] == 13 and sizes == list(range(13, 0, -1)) + list(range(2, 14))
    assert rules.hand_plans()[0].trump == "turn-up"  # the whole pack is dealt: no card is turned


@pytest.mark.parametrize("players", [3, 7])
def test_bust_is_for_4_to_6_players(players):
    with pytest.raises(RulesError) as error:
        preset("bust", players=players)
    assert error.value.knob == "players" and "4 to 6" in str(error.value)


def test_the_second_pack_knob_is_refused_where_it_does_nothing():
    with pytest.raises(RulesError) as error:
        preset("classic", players=4, second_pack=True)
    assert error.value.knob == "second_pack" and "5 or 6 players" in str(error.value)
    with pytest.raises(RulesError) as error:
        preset("classic", players=5, deck="32", second_pack=True)
    assert error.value.knob == "second_pack" and "deck 52" in str(error.value)
    assert preset("classic", players=6, second_pack=True).deck_size == 78
    assert "second_pack" in preset("bust", players=4).inert_knobs()


def test_the_rules_json_of_bust_feeds_back():
    for players in (4, 5, 6):
        rules = preset("bust", players=players)
        assert Rules.from_json(rules.to_json(every_knob=True)) == rules
        assert Rules.from_json(rules.to_json()) == rules


@pytest.mark.parametrize("players", [5, 6])
def test_random_deals_give_no_card_more_than_its_copies(players):
    rules = preset("bust", players=players)
    game = Game(rules)
    for seed in range(20):
        rng = random.Random(seed)
        state = game.new_initial_state(first_dealer=seed % players)
        state.apply(state.sample_chance(rng))
        state.apply(state.sample_chance(rng))
        assert state.deal is not None and [len(hand) for hand in state.deal] == [13] * players
        cards = [card for hand in state.deal for card in hand]
        assert len(set(cards)) == len(cards) == 13 * players  # the whole pack, each card once
        names = Counter(card_name(card) for card in cards)
        assert all(count <= 2 for count in names.values())
        assert sum(1 for count in names.values() if count == 2) == 13 * (players - 4)


def test_the_cut_for_the_deal_uses_one_pack():
    game = Game(preset("bust", players=6))
    assert len(game.cut_pack) == 52 and all(card < 52 for card in game.cut_pack)


# ------------------------------------------------------------------------------ the tricks


def test_the_second_of_two_identical_cards_of_the_led_suit_wins():
    # Seat 0 deals; seat 1 leads the 2♠, seat 3 plays the other 2♠: it wins.
    state = dealt(one_hand(5, 1), ["3D", "2S", "3H", "2S", "4D"])
    bid_all(state, [0, 0, 0, 0, 0])
    play_names(state, "2S 3H 2S 4D 3D")
    assert state.finished_hands[-1].trick_winners == (3,)


def test_a_higher_card_still_beats_both_identical_cards():
    state = dealt(one_hand(5, 1), ["5S", "2S", "3H", "2S", "4D"])
    bid_all(state, [0, 0, 0, 0, 0])
    play_names(state, "2S 3H 2S 4D 5S")
    assert state.finished_hands[-1].trick_winners == (0,)


def test_the_second_of_two_identical_trumps_wins_and_a_higher_trump_beats_both():
    state = dealt(one_hand(6, 1, "H"), ["4S", "2S", "2H", "2H", "3S", "5S"])
    bid_all(state, [0] * 6)
    play_names(state, "2S 2H 2H 3S 5S 4S")
    assert state.finished_hands[-1].trick_winners == (3,)
    state = dealt(one_hand(6, 1, "H"), ["3H", "2S", "2H", "2H", "3S", "5S"])
    bid_all(state, [0] * 6)
    play_names(state, "2S 2H 2H 3S 5S 3H")
    assert state.finished_hands[-1].trick_winners == (0,)


def test_the_second_identical_card_wins_in_the_middle_of_a_hand_too():
    # Two tricks: the fast path of a card played mid-hand and the last card of the hand.
    state = dealt(one_hand(5, 2, "D"), ["QS KS", "2C 9S", "5S 8S", "2C TS", "3S 4S"])
    bid_all(state, [0] * 5)
    play_names(state, "2C 5S 2C 3S QS")  # seat 1 leads the 2♣, seat 3 plays the other
    assert state.trick_winners == [3] and state.turn == 3
    assert state.tricks_won == [0, 0, 0, 1, 0]


def test_identical_cards_are_one_legal_choice_and_either_is_played_by_name():
    state = dealt(one_hand(5, 3), ["2S 2S AH", "3S 4S 5H", "KD QD JD", "TD 9D 8D", "7D 6D 5D"], dealer=4)
    bid_all(state, [0] * 5)
    plays = [action.card for action in state.legal_actions(0)]
    assert sorted(card_name(card) for card in plays) == ["2S", "AH"]  # one 2♠, not two
    state.apply(Play(0, FIRST_COPY))  # the copy by its number: the first of the two is played
    assert state.plays == [parse_card("2S")] and state.hands[0] >> FIRST_COPY & 1
    state.undo()
    state.apply(Play(0, parse_card("2S")))
    assert state.plays == [parse_card("2S")]


def test_a_copy_follows_suit_like_its_original():
    # Seat 1 holds only the second 3♥ among its hearts: it must follow with it.
    state = dealt(one_hand(5, 2), ["3H AS", "3H KS", "QD JD", "9C 8C", "7C 6C"], dealer=4)
    bid_all(state, [0] * 5)
    play_names(state, "3H")  # seat 0 leads its 3♥ (the first of the name)
    assert [card_name(a.card) for a in state.legal_actions(1)] == ["3H"]
    with pytest.raises(IllegalActionError) as error:
        state.apply(Play(1, parse_card("KS")))
    assert error.value.rule == "follow-suit"
    state.apply(Play(1, parse_card("3H")))  # named as the first 3♥, which seat 0 played: the copy
    assert state.plays[-1] == second_copy(parse_card("3H"))


def test_a_card_not_held_in_either_copy_is_refused():
    state = dealt(one_hand(5, 1), ["3D", "2S", "3H", "2S", "4D"])
    bid_all(state, [0] * 5)
    with pytest.raises(IllegalActionError) as error:
        state.apply(Play(1, parse_card("3H")))
    assert error.value.rule == "not-in-hand"


def test_a_deal_may_not_name_a_card_more_often_than_it_has_copies():
    with pytest.raises(InvalidCardError):
        dealt(one_hand(5, 1), ["2S", "2S", "2S", "3S", "4S"])
    with pytest.raises(InvalidCardError):  # the 9♠ has no second copy
        dealt(one_hand(5, 1), ["9S", "9S", "2S", "3S", "4S"])
    with pytest.raises(IllegalActionError) as error:  # 5 players: the 6♠ has no copy (only 6 have)
        dealt(one_hand(5, 1), ["6S", "6S", "2S", "3S", "4S"])
    assert error.value.rule == "bad-deal"
    dealt(one_hand(6, 1), ["6S", "6S", "2S", "3S", "4S", "5S"])  # with 6 players it has one


# ------------------------------------------------------------------------------ records


@pytest.mark.parametrize("players", [5, 6])
def test_a_bust_game_round_trips_through_its_record_and_replays(players):
    state = play_random_game(preset("bust", players=players), seed=players)
    record = record_from_state(state)
    text = dump_record(record)
    first = record["hands"][0]["deal"]
    names = Counter(name for hand in first for name in hand)
    assert sum(1 for count in names.values() if count == 2) == 13 * (players - 4)  # plain names, twice
    again = state_from_record(load_record(text))
    assert again.totals == state.totals and again.finished_hands == state.finished_hands
    assert record_from_state(again) == record
    result = replay(load_record(text))
    assert result["complete"] and result["totals"] == list(state.totals)


def test_a_record_naming_a_card_three_times_is_a_bad_deal():
    state = play_random_game(preset("bust", players=5, schedule="explicit", hands=[[2, "turn-up"]]), seed=1)
    record = record_from_state(state)
    deal = record["hands"][0]["deal"]
    deal[0] = ["2S", "2S"]
    deal[1] = ["2S", deal[1][1]]
    with pytest.raises(RecordError) as error:
        replay(record)
    assert error.value.kind == "bad-deal" and "2S was dealt twice" in error.value.message


def test_ohhell_replay_checks_a_bust_record(tmp_path):
    from click.testing import CliRunner

    from ohhell.cli import main

    state = play_random_game(preset("bust", players=6), seed=4)
    path = tmp_path / "bust.json"
    path.write_text(dump_record(record_from_state(state)))
    result = CliRunner().invoke(main, ["replay", str(path), "--json"])
    assert result.exit_code == 0, result.output
    out = json.loads(result.output)
    assert out["complete"] and out["totals"] == list(state.totals)


def test_text_and_json_actions_number_a_repeated_name_as_the_copy():
    deal = parse_action("deal 2S AS / 2S KS / 3S QS / 4S JS / 5S TS / turn none")
    assert deal.hands[1][0] == FIRST_COPY  # type: ignore[union-attr]
    assert action_from_json(action_to_json(deal)) == deal
    assert str(Play(1, FIRST_COPY)) == "play 1 2S"


def test_a_view_with_two_identical_cards_reads_back():
    rules = one_hand(5, 2)
    state = dealt(rules, ["2S 2S", "3S 4S", "5S 6S", "7S 8S", "9S TS"], dealer=4)
    view = seat_view(state, 0)
    data = json.loads(json.dumps(view.to_json()))
    assert data["hand"] == ["2S", "2S"]
    again = view_from_json(data)
    assert sorted(again.hand) == [parse_card("2S"), FIRST_COPY]


# ------------------------------------------------------------------------------ words


def test_ohhell_rules_bust_explains_the_second_pack():
    set_language("en")
    text = " ".join(sentence for _topic, sentence in describe_rules(preset("bust", players=6)))
    assert "78 cards" in text and "26 smallest cards of a second pack" in text
    assert "the second played beats the first" in text
    four = " ".join(sentence for _topic, sentence in describe_rules(preset("bust", players=4)))
    assert "second pack" not in four and "13" in four


# ------------------------------------------------------------------------------ bots and interfaces


@pytest.mark.parametrize("players", [5, 6])
def test_the_bots_play_bust(players):
    from ohhell import fastsim
    from ohhell.bots import make_bot
    from ohhell.bots.driver import play_game

    rules = preset("bust", players=players, schedule="explicit", hands=[[4, "turn-up"], [1, "turn-up"]])
    assert not fastsim.covers(rules)  # the documented fallback: the reference engine
    for levels in (["strong", "basic", "random", "casual", "beginner", "basic"][:players],):
        state = play_game(rules, [make_bot(level, seed=seat) for seat, level in enumerate(levels)], seed=players)
        assert state.is_terminal() and len(state.finished_hands) == 2


def test_a_whole_bust_game_of_basic_bots_finishes():
    from ohhell.bots import make_bot
    from ohhell.bots.driver import play_game

    state = play_game(preset("bust", players=6), [make_bot("basic", seed=seat) for seat in range(6)], seed=2)
    assert state.is_terminal() and len(state.finished_hands) == 25


def test_the_learning_interfaces_refuse_the_second_pack_and_say_why():
    from ohhell.integrations.core import Setup

    with pytest.raises(ValueError, match=r"second_pack.*54 places"):
        Setup.create("bust", players=5)
    assert Setup.create("bust", players=4).rules.deck_size == 52


def test_the_open_hand_solver_leaves_bust_out():
    from ohhell.analysis import solver

    assert not solver.covers(preset("bust", players=5)) and solver.covers(preset("bust", players=4))


def test_the_trump_mask_of_a_classic_hand_fits_the_c_core():
    state = Game(preset("classic")).new_initial_state(first_dealer=0)
    rng = random.Random(3)
    state.apply(state.sample_chance(rng))
    state.apply(state.sample_chance(rng))
    assert state.trump_mask < 1 << 54


def test_parse_cards_still_reads_one_pack():
    assert parse_cards("2S 2S") == [0, 0]  # numbering is the readers' of deals, not of any list


@pytest.mark.parametrize(("players", "count"), [(4, 25), (5, 25), (6, 25)])
def test_the_scorekeeper_plans_bust_hands_of_13_down_and_up(players, count):
    from ohhell.scorekeeper import ScoreSheet

    sheet = ScoreSheet(preset("bust", players=players, real_cards=True), [f"P{seat}" for seat in range(players)])
    assert sheet.hand_size == 13 and sheet.hand_count == count


def test_the_arena_plays_bust():
    from ohhell.arena import run_arena

    rules = preset("bust", players=5, schedule="explicit", hands=[[3, "turn-up"], [2, "turn-up"]])
    result = run_arena(rules, ["basic", "random", "random", "random", "random"], games=1, seed=2)
    assert result.games_played == 5 and [bot.name for bot in result.bots] == ["basic", "random"]


def test_ohhell_analyze_reviews_a_bust_game_without_the_open_hand_facts():
    from ohhell.analysis.game_analysis import analyze_record
    from ohhell.analysis.text import format_analysis

    state = play_random_game(one_hand(5, 1, "turn-up"), seed=3)
    result = analyze_record(record_from_state(state), budget=100)
    assert all(hand["open_hand"] is None for hand in result["hands"]) and result["hands"]
    text = format_analysis(result)
    assert "face up" not in text
    assert "solved exactly" not in text  # nothing was solved with the cards face up
