"""The rule sets (docs/rules.md, sections 2 and 3) that stretch the engine: one test per rule.

7-Truf, Boerenbridge, jokers, NE-England Blackout, Devil's Bridge, the 1-card hand dealt once
per player, and the "10 + bid², −5 × (1 + … + d)" scoring.
"""

from __future__ import annotations

import json
import random

import pytest
from helpers import bid_all, dealt, play

from ohhell import Bid, Declare, Game, IllegalActionError, Phase, Play, RecordError, RulesError, preset
from ohhell.cards import BLACK_JOKER, HIDDEN_CARD, RED_JOKER, card_display, card_name, parse_card
from ohhell.explain import describe_rules
from ohhell.i18n import set_language
from ohhell.record import play_random_game, record_from_state, replay, state_from_record
from ohhell.rules import PRESETS
from ohhell.scoring import hand_score
from ohhell.views import seat_view


def sizes_and_trumps(rules):
    return [(plan.size, plan.trump) for plan in rules.hand_plans()]


# ------------------------------------------------------------------------------ 7-Truf


def test_7_truf_is_four_players_with_a_32_card_deck():
    rules = preset("7-truf")
    assert rules.players == 4 and rules.deck_size == 32
    assert not rules.deck_mask >> parse_card("6S") & 1 and rules.deck_mask >> parse_card("7S") & 1
    with pytest.raises(Exception, match="4 players"):
        preset("7-truf", players=5)


def test_7_truf_has_the_22_hand_sequence():
    plans = sizes_and_trumps(preset("7-truf"))
    up = [(size, "turn-up") for size in range(1, 8)]
    no_trump = [(8, "none")] * 4
    down = [(size, "turn-up") for size in range(7, 0, -1)]
    assert plans == up + no_trump + down + no_trump
    assert len(plans) == 22


def test_7_truf_turns_trump_from_the_undealt_cards_and_plays_8_card_hands_without_trump():
    state = play_random_game(preset("7-truf"), seed=3)
    for result in state.finished_hands:
        if result.size == 8:
            assert result.turn_up is None and result.trump is None  # all 32 cards dealt
        else:
            assert result.turn_up is not None and result.trump == result.turn_up // 13
            dealt_cards = {card for cards in result.deal for card in cards}
            assert result.turn_up not in dealt_cards


def test_7_truf_bids_in_turn_with_the_hook():
    rules = preset("7-truf", schedule="explicit", hands=[[2, "turn-up"]])
    state = dealt(rules, ["AS KS", "QS JS", "TS 9S", "8S 7S"], turn_up="AH", dealer=3)
    bid_all(state, [1, 0, 0])
    with pytest.raises(IllegalActionError) as error:
        state.apply(Bid(3, 1))
    assert error.value.rule == "hook"


def test_7_truf_scoring():
    rules = preset("7-truf")
    assert hand_score(rules, 3, 3, 7) == 30  # 10 × bid
    assert hand_score(rules, 0, 0, 7) == 35  # a made zero: 5 × the tricks in the hand
    assert hand_score(rules, 0, 0, 8) == 40
    assert hand_score(rules, 3, 5, 7) == 5  # missed: 1 per trick
    assert hand_score(rules, 2, 0, 7) == 0


def test_7_truf_records_reject_cards_outside_the_32_card_deck():
    record = record_from_state(play_random_game(preset("7-truf"), seed=1))
    record["hands"][3]["deal"][0][0] = "2S"
    with pytest.raises(RecordError) as error:
        replay(record)
    assert (error.value.kind, error.value.hand) == ("bad-card", 3)


# ------------------------------------------------------------------------------ Boerenbridge


def test_boerenbridge_deals_13_each_every_hand_with_no_trump():
    rules = preset("boerenbridge")
    assert rules.players == 4 and rules.schedule_length() is None
    state = play_random_game(rules, seed=2)
    assert all(result.size == 13 and result.trump is None and result.turn_up is None
               for result in state.finished_hands)


@pytest.mark.parametrize("players", [3, 5, 6, 7])
def test_boerenbridge_is_four_players_only_and_says_so(players):
    # Issue 13, item 4: the Dutch source (seed 003) plays Boerenbridge with 4 players and 13 cards each.
    with pytest.raises(RulesError) as error:
        preset("boerenbridge", players=players)
    assert error.value.knob == "players"
    assert str(error.value) == f"players: boerenbridge is played by 4 players, not {players}"
    set_language("ru")
    try:
        with pytest.raises(RulesError, match="в boerenbridge играют 4 игрока, а не 5"):
            preset("boerenbridge", players=5)
    finally:
        set_language("en")
    with pytest.raises(RecordError) as refused:
        replay({"format": "ohhell/1", "rules": {"preset": "boerenbridge", "players": players},
                "first_dealer": 0, "hands": []})
    assert refused.value.kind == "bad-format"


def test_boerenbridge_knobs_on_another_preset_still_deal_other_counts_and_real_cards_score_any():
    knobs = {key: value for key, value in PRESETS["boerenbridge"].knobs.items()}
    custom = preset("classic", players=5, **knobs)
    assert custom.players == 5 and custom.largest_hand == 10 and custom.bidding == "simultaneous"
    assert play_random_game(custom, seed=1).finished_hands[0].size == 10
    assert preset("boerenbridge", players=6, real_cards=True).players == 6  # the scorekeeper: nothing is dealt


def test_boerenbridge_other_counts_are_refused_by_the_cli_and_the_web_rule_check(tmp_path):
    import asyncio

    import httpx
    from click.testing import CliRunner

    from ohhell.cli import main
    from ohhell.server.app import create_app
    from ohhell.server.config import ServerConfig
    from ohhell.server.web.forms import rules_from_request

    runner = CliRunner()
    for command in (["deal"], ["play", "--bots", "random"], ["rules", "boerenbridge"]):
        options = ["--players", "5"] if command[0] == "rules" else ["--preset", "boerenbridge", "--players", "5"]
        result = runner.invoke(main, [*command, *options])
        assert result.exit_code == 2, command
        assert "boerenbridge is played by 4 players, not 5" in result.output, command
    with pytest.raises(RulesError, match="4 players, not 5"):
        rules_from_request({"preset": "boerenbridge", "players": 5})
    assert rules_from_request({"preset": "boerenbridge", "players": 4}).players == 4
    config = ServerConfig.fast(database=f"sqlite:///{tmp_path / 'ohhell.db'}")

    async def check(body, language="en"):
        transport = httpx.ASGITransport(app=create_app(config))
        async with httpx.AsyncClient(transport=transport, base_url="http://test") as client:
            return await client.post("/api/rules", json=body, headers={"Accept-Language": language})

    answer = asyncio.run(check({"preset": "boerenbridge", "players": 5}, "uk"))
    assert answer.status_code == 400
    assert answer.json() == {"error": "players: у boerenbridge грають 4 гравці, а не 5", "knob": "players"}
    assert asyncio.run(check({"preset": "boerenbridge", "players": 4})).status_code == 200


def test_boerenbridge_bids_are_simultaneous_and_secret():
    rules = preset("boerenbridge")
    state = Game(rules).new_initial_state(first_dealer=0)
    rng = random.Random(1)
    state.apply(state.sample_chance(rng))
    state.apply(state.sample_chance(rng))
    assert state.turn is None and sorted(state.actors()) == [0, 1, 2, 3]
    state.apply(Bid(2, 13))
    assert seat_view(state, 0).bids == (None, None, None, None)
    state.apply(Bid(1, 0))
    state.apply(Bid(3, 0))
    state.apply(Bid(0, 0))  # the bids may add up to 13: no hook
    assert state.phase == Phase.PLAYING and seat_view(state, 0).bids == (0, 0, 13, 0)


def test_boerenbridge_scoring():
    rules = preset("boerenbridge")
    assert hand_score(rules, 3, 3, 13) == 13  # 1 per trick + 10 for an exact bid
    assert hand_score(rules, 3, 5, 13) == 5  # missed: 1 per trick
    assert hand_score(rules, 0, 0, 13) == 20  # a made zero


def boerenbridge_after_totals(totals):
    """A Boerenbridge state at the start of a hand with the given totals (via a scoresheet)."""
    rules = preset("boerenbridge")
    record = {"format": "ohhell/1", "rules": rules.to_json(), "first_dealer": 0, "hands": []}
    state = state_from_record(record)
    state.totals = list(totals)
    state._begin_hand_setup()  # who bids depends on the totals
    return state


def test_boerenbridge_a_player_at_80_or_more_does_not_bid_and_scores_per_trick():
    state = boerenbridge_after_totals([80, 79, 95, 10])
    assert set(state.bid_order) == {1, 3}
    rng = random.Random(5)
    state.apply(state.sample_chance(rng))
    state.apply(state.sample_chance(rng))
    assert sorted(state.actors()) == [1, 3]
    with pytest.raises(IllegalActionError) as error:
        state.apply(Bid(0, 2))
    assert error.value.rule == "no-bid"
    state.apply(Bid(1, 0))
    state.apply(Bid(3, 0))
    assert hand_score(state.rules, None, 4, 13) == 4


def test_boerenbridge_bounces_back_past_100_and_ends_at_exactly_100():
    from ohhell.scoring import add_to_total, winners

    rules = preset("boerenbridge")
    assert add_to_total(rules, 95, 8) == 97  # 103 bounces back to 100 − 3
    assert add_to_total(rules, 90, 10) == 100
    for seed in range(3):
        state = play_random_game(rules, seed=seed)
        assert 100 in state.totals and state.is_terminal()
        assert all(100 not in result.totals for result in state.finished_hands[:-1])
        assert state.winners() == winners(rules, state.totals) == [s for s, t in enumerate(state.totals) if t == 100]


# ------------------------------------------------------------------------------ jokers


def joker_rules(**knobs):
    return preset("jokers", players=3, schedule="explicit", hands=[[2, "turn-up"]], **knobs)


def test_jokers_deck_has_54_cards_with_x1_and_x2():
    rules = preset("jokers")
    assert rules.deck_size == 54
    assert card_name(RED_JOKER) == "X1" and card_name(BLACK_JOKER) == "X2"
    assert parse_card("x1") == RED_JOKER and card_display(BLACK_JOKER) == "🃏2"


def test_a_led_joker_wins_unless_trumped():
    state = dealt(joker_rules(), ["X1 2D", "AS 3D", "KS 4D"], turn_up="2H", dealer=2)
    bid_all(state, [1, 0, 0])
    play(state, "X1 AS KS")  # neither follows (no joker) nor trumps: the joker wins
    assert state.trick_winners == [0]
    state = dealt(joker_rules(), ["X1 2D", "AS 3H", "KS 4D"], turn_up="2H", dealer=2)
    bid_all(state, [1, 0, 0])
    play(state, "X1 3H KS")  # trumped
    assert state.trick_winners == [1]


def test_the_jokers_are_a_suit_to_follow():
    state = dealt(joker_rules(), ["X1 2D", "X2 3D", "KS 4D"], turn_up="2H", dealer=2)
    bid_all(state, [1, 0, 0])
    play(state, "X1")
    with pytest.raises(IllegalActionError) as error:
        state.apply(Play(1, parse_card("3D")))
    assert error.value.rule == "follow-suit"


def test_both_jokers_in_one_trick_the_first_played_wins_unless_trumped():
    state = dealt(joker_rules(), ["X1 2D", "X2 3D", "KS 4D"], turn_up="2H", dealer=2)
    bid_all(state, [1, 0, 0])
    play(state, "X1 X2 KS")
    assert state.trick_winners == [0]
    state = dealt(joker_rules(), ["X2 2D", "X1 3D", "3H 4D"], turn_up="2H", dealer=2)
    bid_all(state, [1, 0, 0])
    play(state, "X2 X1 3H")
    assert state.trick_winners == [2]


def test_a_turned_up_joker_makes_the_other_joker_the_only_trump():
    state = dealt(joker_rules(), ["AS 2D", "X2 3D", "KS 4D"], turn_up="X1", dealer=2)
    assert state.trump == 4 and state.trump_mask == 1 << BLACK_JOKER
    bid_all(state, [1, 0, 0])
    play(state, "AS X2 KS")  # the black joker, discarded on spades, is the only trump: it wins
    assert state.trick_winners == [1]
    # Spades are not trump: a spade does not beat a diamond lead.
    state = dealt(joker_rules(), ["2D AS", "X2 3D", "KS 4D"], turn_up="X1", dealer=2)
    bid_all(state, [1, 0, 0])
    play(state, "2D 3D 4D")
    assert state.trick_winners == [2]
    assert replay(record_from_state(state))["hands"][0]["trump"] == "X"


# ------------------------------------------------------------------------------ NE-England Blackout


def test_ne_blackout_decks_and_hand_sizes():
    five = preset("ne-blackout", players=5)
    six = preset("ne-blackout", players=6)
    assert five.deck_size == 50 and not five.deck_mask >> parse_card("2S") & 1
    assert five.deck_mask >> RED_JOKER & 1 and five.deck_mask >> BLACK_JOKER & 1
    assert six.deck_size == 54 and six.deck_mask >> parse_card("2S") & 1
    assert {plan.size for plan in five.hand_plans()} == {10} and {plan.size for plan in six.hand_plans()} == {9}
    with pytest.raises(Exception, match="5 or 6"):
        preset("ne-blackout", players=4)


def test_ne_blackout_trump_rotates_hearts_clubs_diamonds_spades_and_the_whole_pack_is_dealt():
    assert [plan.trump for plan in preset("ne-blackout", players=6).hand_plans()] == ["H", "C", "D", "S", "H", "C"]
    state = play_random_game(preset("ne-blackout", players=5), seed=4)
    for result in state.finished_hands:
        assert result.turn_up is None
        assert sum(len(cards) for cards in result.deal) == 50


def test_ne_blackout_has_the_dealer_hook():
    state = Game(preset("ne-blackout", players=5)).new_initial_state(first_dealer=4)
    rng = random.Random(3)
    state.apply(state.sample_chance(rng))
    state.apply(state.sample_chance(rng))
    bid_all(state, [2, 2, 2, 2])
    assert state.forbidden_bid() == 2
    with pytest.raises(IllegalActionError) as error:
        state.apply(Bid(4, 2))
    assert error.value.rule == "hook"


def ne_rules(size=3, trump="H"):
    return preset("ne-blackout", players=5, schedule="explicit", hands=[[size, trump]])


def test_ne_blackout_jokers_may_not_be_led_unless_nothing_else_is_held():
    state = dealt(ne_rules(2), ["X1 3C", "AS 4C", "KS 5C", "QS 6C", "JS 7C"], dealer=4)
    bid_all(state, [0, 0, 0, 0, 1])
    with pytest.raises(IllegalActionError) as error:
        state.apply(Play(0, RED_JOKER))
    assert error.value.rule == "joker-lead"
    assert Play(0, RED_JOKER) not in state.legal_actions(0)


def test_ne_blackout_jokers_may_not_be_played_to_the_first_trick_but_to_any_other_even_when_following():
    state = dealt(ne_rules(2), ["AS 3C", "X1 KS", "QS 5C", "JS 6C", "TS 7C"], dealer=4)
    bid_all(state, [1, 0, 0, 0, 0])
    play(state, "AS")
    with pytest.raises(IllegalActionError) as error:
        state.apply(Play(1, RED_JOKER))
    assert error.value.rule == "joker-first-trick"
    play(state, "KS QS JS TS")
    # Trick 2: seat 0 leads a club; seat 1 holds only the joker now.
    play(state, "3C")
    state = dealt(ne_rules(3), ["AS 3C 4D", "X1 KS 8C", "QS 5C 5D", "JS 6C 6D", "TS 7C 7D"], dealer=4)
    bid_all(state, [1, 0, 0, 0, 0])
    play(state, "AS KS QS JS TS 3C")  # trick 2: clubs led
    assert Play(1, RED_JOKER) in state.legal_actions(1)  # the joker although seat 1 holds a club


def test_ne_blackout_first_joker_is_declared_and_the_second_is_the_opposite():
    state = dealt(ne_rules(3), ["AS 3C 4D", "X1 KS 8C", "QS X2 5D", "JS 6C 6D", "TS 7C 7D"], dealer=4)
    bid_all(state, [1, 1, 0, 0, 0])
    play(state, "AS KS QS JS TS 3C")
    state.apply(Play(1, RED_JOKER))
    assert state.phase == Phase.DECLARING and state.turn == 1
    assert set(state.legal_actions(1)) == {Declare(1, True), Declare(1, False)}
    with pytest.raises(IllegalActionError):
        state.apply(Play(2, BLACK_JOKER))  # nothing happens before the declaration
    state.apply(Declare(1, False))  # low: it loses
    play(state, "X2")  # the second joker is automatically high: it wins
    play(state, "6C 7C")
    assert state.trick_winners[-1] == 2
    record = record_from_state(state)
    assert record["hands"][0]["plays"][6:8] == ["X1-", "X2"]
    assert record_from_state(state_from_record(record)) == record


def test_ne_blackout_a_high_joker_beats_trumps():
    state = dealt(ne_rules(2), ["AS 3C", "X1 KS", "QS 3H", "JS 6C", "TS 7C"], dealer=4)
    bid_all(state, [1, 0, 0, 0, 0])
    play(state, "AS KS QS JS TS 3C")
    state.apply(Play(1, RED_JOKER))
    state.apply(Declare(1, True))
    play(state, "3H 6C 7C")  # a trump does not beat the high joker
    assert state.finished_hands[0].tricks == (1, 1, 0, 0, 0)


def test_ne_blackout_a_forced_joker_lead_takes_its_suit_from_the_first_card_of_its_colour():
    # Seat 0 wins trick 1 and holds only the red joker: it must lead it.
    state = dealt(ne_rules(2), ["AS X1", "KS 3C", "QS 5D", "JS 9D", "TS 8H"], dealer=4)
    bid_all(state, [1, 0, 0, 0, 0])
    play(state, "AS KS QS JS TS")
    assert [a for a in state.legal_actions(0)] == [Play(0, RED_JOKER)]
    state.apply(Play(0, RED_JOKER))
    state.apply(Declare(0, False))  # low
    play(state, "3C")  # black: does not fix the suit (the joker is red)
    play(state, "5D")  # the first red card: diamonds are led from now on
    assert state.trick_suit() == 2
    play(state, "9D 8H")  # 8H is trump (hearts) and wins over the diamonds
    assert state.finished_hands[0].tricks == (1, 0, 0, 0, 1)
    state = dealt(ne_rules(2), ["AS X1", "KS 3C", "QS 5D", "JS 9D", "TS 4D"], dealer=4)
    bid_all(state, [1, 0, 0, 0, 0])
    play(state, "AS KS QS JS TS")
    state.apply(Play(0, RED_JOKER))
    state.apply(Declare(0, False))
    play(state, "3C 5D 9D 4D")
    assert state.finished_hands[0].tricks == (1, 0, 0, 1, 0)  # 9D is the highest diamond


def joker_closes_the_trick(size=2):
    """Seat 4 plays the first joker as the last card of trick 2 (of the hand too when ``size`` is 2)."""
    extra = ["4D", "5D", "6D", "7D", "8D"] if size == 3 else [""] * 5
    hands = ["AS 3C", "KS 4C", "QS 5C", "JS 6C", "TS X1"]
    deal = [f"{cards} {more}".strip() for cards, more in zip(hands, extra, strict=True)]
    state = dealt(ne_rules(size), deal, dealer=4)
    bid_all(state, [1, 0, 0, 0, 0])
    play(state, "AS KS QS JS TS 3C 4C 5C 6C")
    state.apply(Play(4, RED_JOKER))
    return state


@pytest.mark.parametrize("size", [2, 3])
def test_ne_blackout_a_joker_that_closes_a_trick_is_declared_with_the_whole_trick_in_sight(size):
    # Issue 13, item 2: the trick is neither finished (its winner depends on the declaration)
    # nor gone: it is the trick in progress, whole, for the declaring seat and everyone else.
    state = joker_closes_the_trick(size)
    assert state.phase == Phase.DECLARING and state.turn == 4
    trick = [(0, parse_card("3C")), (1, parse_card("4C")), (2, parse_card("5C")), (3, parse_card("6C")),
             (4, RED_JOKER)]
    assert state.current_trick() == trick
    assert [(leader, winner) for leader, _cards, winner in state.completed_tricks()] == [(0, 0)]
    for seat in (4, 0, None):
        view = seat_view(state, seat)
        assert list(view.current_trick) == trick and len(view.completed_tricks) == 1
        assert len(view.played_cards()) == 10
        assert seat_view(state, seat).from_json(view.to_json()).current_trick == view.current_trick
    assert set(seat_view(state, 4).legal_actions) == {Declare(4, True), Declare(4, False)}
    state.apply(Declare(4, True))  # high: the joker takes the trick
    if size == 2:
        assert state.finished_hands[0].tricks == (1, 0, 0, 0, 1) and state.current_trick() == []
    else:
        assert state.trick_winners == [0, 4] and state.current_trick() == [] and state.turn == 4
        assert [len(t.cards) for t in seat_view(state, 0).completed_tricks] == [5, 5]
    state.undo()
    assert state.current_trick() == trick  # taking the declaration back shows the trick again


@pytest.mark.parametrize("level", ["basic", "strong"])
def test_bots_declare_a_joker_that_closes_a_trick_from_the_view(level):
    from ohhell.bots import Budget, make_bot

    for size in (2, 3):
        state = joker_closes_the_trick(size)
        action = make_bot(level, seed=1, budget=Budget(iterations=50)).choose(seat_view(state, 4))
        assert isinstance(action, Declare) and action.seat == 4
        if level == "basic":  # seat 4 bid 0 and has taken nothing: a high joker would take the trick
            assert action.high is False


def second_joker_last():
    """X1 declared low in trick 2; seat 4 plays X2, automatically high, as the hand's last card."""
    state = dealt(ne_rules(3), ["AS AC 4D", "KS X1 8D", "QS 5C 5D", "JS 6C 6D", "TS 7C X2"], dealer=4)
    bid_all(state, [1, 0, 0, 0, 1])
    play(state, "AS KS QS JS TS AC")
    state.apply(Play(1, RED_JOKER))
    state.apply(Declare(1, False))
    play(state, "5C 6C 7C 4D 8D 5D 6D X2")
    assert state.finished_hands[0].tricks == (2, 0, 0, 0, 1)  # X2 is high and takes the last trick
    return record_from_state(state)


def second_joker_mid_hand():
    """X1 declared high in trick 2 and X2, automatically low, played after it in the same trick."""
    state = dealt(ne_rules(3), ["AS 3C 4D", "KS X1 8C", "QS X2 5D", "JS 6C 6D", "TS 7C 7D"], dealer=4)
    bid_all(state, [1, 1, 0, 0, 0])
    play(state, "AS KS QS JS TS 3C")
    state.apply(Play(1, RED_JOKER))
    state.apply(Declare(1, True))
    play(state, "X2 6C 7C")
    return record_from_state(state), 7


@pytest.mark.parametrize("case", ["last card", "mid-hand"])
def test_ne_blackout_records_accept_an_agreeing_sign_on_the_second_joker_and_refuse_a_contrary_one(case):
    # Issue 13, item 3 (docs/record-format.md: "a sign that agrees is accepted").
    if case == "last card":
        record, at, agreeing, contrary = second_joker_last(), 14, "X2+", "X2-"
    else:
        (record, at), agreeing, contrary = second_joker_mid_hand(), "X2-", "X2+"
    plays = record["hands"][0]["plays"]
    assert plays[at] == "X2"
    expected = replay(record)
    plays[at] = agreeing
    assert replay(record) == expected
    assert record_from_state(state_from_record(record))["hands"][0]["plays"][at] == "X2"  # written without
    plays[at] = contrary
    with pytest.raises(RecordError) as error:
        replay(record)
    assert (error.value.kind, error.value.hand, error.value.index) == ("illegal-play", 0, at)
    assert "automatically the opposite" in str(error.value)


def test_a_joker_sign_is_refused_where_jokers_are_not_declared():
    state = dealt(preset("jokers", players=3, schedule="explicit", hands=[[2, "none"]]),
                  ["AS X1", "KS 3C", "QS 5D"], dealer=2)
    bid_all(state, [1, 0, 0])
    play(state, "AS KS QS X1 3C 5D")
    record = record_from_state(state)
    assert record["hands"][0]["plays"][3] == "X1"
    record["hands"][0]["plays"][3] = "X1+"
    with pytest.raises(RecordError) as error:
        replay(record)
    assert (error.value.kind, error.value.index) == ("illegal-play", 3)
    assert "not declared high or low under these rules" in str(error.value)


def test_ne_blackout_records_require_the_declaration():
    record = record_from_state(play_random_game(preset("ne-blackout", players=5), seed=6))
    for index, hand in enumerate(record["hands"]):
        for position, text in enumerate(hand["plays"]):
            if text[-1] in "+-":
                hand["plays"][position] = text[:-1]
                with pytest.raises(RecordError) as error:
                    replay(record)
                assert (error.value.kind, error.value.hand, error.value.index) == ("illegal-play", index, position)
                return
    pytest.skip("no joker was played")


# ------------------------------------------------------------------------------ Devil's Bridge


def test_devils_bridge_is_up_down_and_hides_only_your_own_card_in_the_final_hand():
    rules = preset("devils-bridge", players=4)
    assert [plan.size for plan in rules.hand_plans()] == list(range(1, 11)) + list(range(9, 0, -1))
    rng = random.Random(2)
    state = Game(rules).new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply(state.sample_chance(rng))
            continue
        seat = state.turn
        view = seat_view(state, seat)
        final = state.hand_index == rules.schedule_length() - 1
        first_hand = state.hand_index == 0
        if final:
            assert view.blind and view.hand == (HIDDEN_CARD,)
            assert set(view.visible_hands) == {0, 1, 2, 3} - {seat}
            assert card_name(state.hand(seat)[0]) not in json.dumps(view.to_json()["hand"])
        else:
            assert not view.blind and not view.visible_hands
            if first_hand:  # the first 1-card hand is played normally
                assert view.hand == tuple(state.hand(seat))
        state.apply(view.legal_actions[0])
    assert state.is_terminal()


# ------------------------------------------------------------------------------ other knobs


def test_one_card_hand_dealt_once_per_player():
    rules = preset("classic", players=4, one_card_hand_per_player=True)
    sizes = [plan.size for plan in rules.hand_plans()]
    assert sizes.count(1) == 4 and rules.schedule_length() == 22
    state = play_random_game(rules, seed=1)
    one_card_dealers = [result.dealer for result in state.finished_hands if result.size == 1]
    assert sorted(one_card_dealers) == [0, 1, 2, 3]  # each player deals one


def test_triangular_penalty_scoring():
    rules = preset("classic", scoring="triangular-penalty")
    assert hand_score(rules, 3, 3, 10) == 19  # 10 + bid²
    assert hand_score(rules, 0, 0, 10) == 10
    assert hand_score(rules, 3, 2, 10) == -5  # missed by 1
    assert hand_score(rules, 1, 4, 10) == -30  # missed by 3: −5 × (1 + 2 + 3)


@pytest.mark.parametrize("name", ["7-truf", "boerenbridge", "jokers", "ne-blackout", "devils-bridge"])
def test_rules_explain_each_variant_in_plain_words(name):
    players = 5 if name == "ne-blackout" else 4
    text = " ".join(sentence for _topic, sentence in describe_rules(preset(name, players=players)))
    expected = {
        "7-truf": ["32 cards", "10 × bid", "5 × the tricks"],
        "boerenbridge": ["same time", "exactly 100", "80 points"],
        "jokers": ["jokers", "suit of their own", "other joker is the only trump"],
        "ne-blackout": ["high", "low", "first trick", "hearts, clubs, diamonds, spades"],
        "devils-bridge": ["forehead", "every card but your own"],
    }[name]
    for phrase in expected:
        assert phrase in text, (name, phrase)
