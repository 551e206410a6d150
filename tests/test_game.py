"""Every rule of the classic profile (docs/rules.md, section 1), each with a test that fails when the
rule is broken, the worked example of seed 000, and the game-level mechanics (undo, clone, chance)."""

import random

import pytest
from helpers import bid_all, dealt, one_hand_rules, play

from ohhell import (
    Bid,
    Cut,
    Deal,
    Draw,
    Game,
    IllegalActionError,
    Phase,
    Play,
    Shuffle,
    parse_card,
    parse_cards,
    preset,
)
from ohhell.cards import card_name

# --------------------------------------------------------------------------- first dealer


def cut(state, draws):
    for seat, card in draws:
        state.apply(Draw(seat, parse_card(card)))


def test_highest_cut_deals_first():
    state = Game(preset("classic", players=4)).new_initial_state()
    assert state.phase == Phase.CUT_FOR_DEAL and state.is_chance_node()
    cut(state, [(0, "5S"), (1, "KD"), (2, "2C"), (3, "QH")])
    assert state.first_dealer == 1 and state.dealer == 1
    assert state.phase == Phase.SHUFFLE


def test_ties_cut_again_among_the_tied_only_and_suits_never_break_ties():
    state = Game(preset("classic", players=4)).new_initial_state()
    cut(state, [(0, "KS"), (1, "3D"), (2, "KH"), (3, "QC")])
    assert state.first_dealer is None  # KS and KH tie: suits do not break it
    with pytest.raises(IllegalActionError):
        state.apply(Draw(1, parse_card("AS")))  # seat 1 is not among the tied
    cut(state, [(0, "4S"), (2, "4D")])  # tied again
    assert state.first_dealer is None
    cut(state, [(0, "9C"), (2, "JC")])
    assert state.first_dealer == 2
    # The draws are kept, in order.
    assert [(seat, card_name(card)) for seat, card in state.draws] == [
        (0, "KS"), (1, "3D"), (2, "KH"), (3, "QC"), (0, "4S"), (2, "4D"), (0, "9C"), (2, "JC")]


def test_a_drawn_card_cannot_be_drawn_again():
    state = Game(preset("classic", players=3)).new_initial_state()
    cut(state, [(0, "KS")])
    with pytest.raises(IllegalActionError):
        state.apply(Draw(1, parse_card("KS")))


def test_cut_chance_outcomes_are_uniform_over_the_pack():
    state = Game(preset("classic", players=3)).new_initial_state()
    outcomes = state.chance_outcomes()
    assert len(outcomes) == 52 and sum(p for _, p in outcomes) == pytest.approx(1)


def test_dealer_passes_to_the_left_each_hand():
    rng = random.Random(3)
    state = Game(preset("classic", players=5)).new_initial_state(first_dealer=3)
    dealers = []
    while not state.is_terminal():
        if state.phase == Phase.SHUFFLE:
            dealers.append(state.dealer)
        if state.is_chance_node():
            state.apply(state.sample_chance(rng))
        else:
            state.apply(rng.choice(state.legal_actions(state.turn)))
    assert dealers == [(3 + i) % 5 for i in range(19)]
    assert [hand.dealer for hand in state.finished_hands] == dealers


# --------------------------------------------------------------------------- the deal


def test_shuffle_cut_and_deal_one_at_a_time_starting_left_of_the_dealer():
    rules = preset("classic", players=3)  # 10 cards each
    state = Game(rules).new_initial_state(first_dealer=1)
    order = tuple(range(52))
    state.apply(Shuffle(order))
    assert state.phase == Phase.CUT
    state.apply(Cut(2))  # the top two cards go to the bottom
    pack = order[2:] + order[:2]
    # Seat 2 (left of dealer 1) gets the 1st, 4th, 7th … card; seat 0 the 2nd …; the dealer the 3rd …
    assert state.deal == (pack[1:30:3], pack[2:30:3], pack[0:30:3])
    assert state.turn_up == pack[30]  # the next card is turned up
    assert state.trump == pack[30] // 13


def test_a_shuffle_must_order_every_card_once():
    state = Game(preset("classic")).new_initial_state(first_dealer=0)
    with pytest.raises(IllegalActionError):
        state.apply(Shuffle(tuple(range(51))))
    with pytest.raises(IllegalActionError):
        state.apply(Shuffle((0,) + tuple(range(51))))


def test_cut_takes_at_least_one_card_and_leaves_one():
    state = Game(preset("classic")).new_initial_state(first_dealer=0)
    state.apply(Shuffle(tuple(range(52))))
    for position in (0, 52):
        with pytest.raises(IllegalActionError):
            state.apply(Cut(position))


def test_no_trump_when_no_card_is_left_after_the_deal():
    rules = preset("classic", players=4, max_size="deck")  # 13 cards each: the whole pack
    state = Game(rules).new_initial_state(first_dealer=0)
    state.apply(Shuffle(tuple(range(52))))
    state.apply(Cut(5))
    assert state.turn_up is None and state.trump is None


def test_known_deal_checks_the_cards():
    rules = one_hand_rules(2, players=3)
    state = Game(rules).new_initial_state(first_dealer=0)
    good = ("AS KS", "QS JS", "TS 9S")
    with pytest.raises(IllegalActionError) as error:
        state.apply(Deal(tuple(tuple(parse_cards(t)) for t in ("AS KS", "AS JS", "TS 9S")), parse_card("2H")))
    assert error.value.rule == "bad-deal"
    with pytest.raises(IllegalActionError) as error:
        state.apply(Deal(tuple(tuple(parse_cards(t)) for t in ("AS", "QS JS", "TS 9S")), parse_card("2H")))
    assert error.value.rule == "bad-deal"
    with pytest.raises(IllegalActionError) as error:
        state.apply(Deal(tuple(tuple(parse_cards(t)) for t in good), parse_card("AS")))
    assert error.value.rule == "bad-trump"
    with pytest.raises(IllegalActionError) as error:
        state.apply(Deal(tuple(tuple(parse_cards(t)) for t in good), None))
    assert error.value.rule == "bad-trump"
    state.apply(Deal(tuple(tuple(parse_cards(t)) for t in good), parse_card("2H")))
    assert state.phase == Phase.BIDDING


# --------------------------------------------------------------------------- bidding


def five_card_state(dealer=3):
    """The hand of the worked example: 4 players, 5 cards, trump clubs."""
    return dealt(one_hand_rules(5), ["AS 2H 2D 3D 4D", "3S AH KH QH 9S", "4S 3H 5H 7H 6S", "5S 4H 6H 8H KS"],
                 turn_up="2C", dealer=dealer)


def test_bidding_starts_left_of_the_dealer_and_the_dealer_bids_last():
    state = five_card_state(dealer=3)
    assert state.bid_order == (0, 1, 2, 3)
    state = five_card_state(dealer=1)
    assert state.bid_order == (2, 3, 0, 1)
    assert state.turn == 2


def test_bids_range_from_zero_to_the_hand_size():
    state = five_card_state()
    for bid in (-1, 6):
        with pytest.raises(IllegalActionError) as error:
            state.apply(Bid(0, bid))
        assert error.value.rule == "bid-range"
    assert [action.bid for action in state.legal_actions(0)] == [0, 1, 2, 3, 4, 5]


def test_no_pass_and_no_bidding_out_of_turn():
    state = five_card_state()
    with pytest.raises(IllegalActionError) as error:
        state.apply(Bid(2, 1))
    assert error.value.rule == "not-your-turn"
    assert "turn to bid" in str(error.value)


def test_the_hook_worked_example_of_seed_000():
    state = five_card_state(dealer=3)
    bid_all(state, [1, 2, 0])
    assert state.forbidden_bid() == 2
    with pytest.raises(IllegalActionError) as error:
        state.apply(Bid(3, 2))  # 1 + 2 + 0 + 2 = 5
    assert error.value.rule == "hook"
    assert "may not bid 2" in str(error.value)
    assert Bid(3, 2) not in state.legal_actions(3)
    state.apply(Bid(3, 1))  # total 4
    assert state.bid_sum() == 4
    play(state, "AS 3S 4S 5S  2H AH 3H 4H  KH 5H 6H 2D  QH 7H 8H 3D  9S 6S KS 4D")
    result = state.finished_hands[0]
    assert result.tricks == (1, 3, 0, 1)
    assert result.scores == (11, 0, 10, 11)
    assert state.is_terminal() and state.winners() == [0, 3]


def test_the_dealer_is_free_when_the_forbidden_number_is_out_of_range():
    state = five_card_state()
    bid_all(state, [3, 2, 4])  # sum 9 > 5: nothing the dealer bids can make 5
    assert state.forbidden_bid() is None
    assert len(state.legal_actions(3)) == 6 + 0  # 0 … 5, and no one can change now but the dealer
    state.apply(Bid(3, 0))


def test_hook_off_lets_the_dealer_make_the_bids_add_up():
    state = dealt(one_hand_rules(5, hook=False), ["AS 2H 2D 3D 4D", "3S AH KH QH 9S", "4S 3H 5H 7H 6S",
                                                  "5S 4H 6H 8H KS"], turn_up="2C", dealer=3)
    bid_all(state, [1, 2, 0, 2])
    assert state.phase == Phase.PLAYING


def test_bid_change_window_until_the_next_player_bids():
    state = five_card_state()
    state.apply(Bid(0, 1))
    assert state.actors() == [1, 0] and state.bid_changer() == 0
    state.apply(Bid(0, 3))  # seat 0 changes its bid
    assert state.bids[0] == 3 and state.turn == 1
    with pytest.raises(IllegalActionError) as error:
        state.apply(Bid(0, 3))
    assert error.value.rule == "same-bid"
    state.apply(Bid(1, 0))  # the next player has bid: seat 0's window closes
    with pytest.raises(IllegalActionError) as error:
        state.apply(Bid(0, 2))
    assert error.value.rule == "bid-window-closed"
    assert state.bid_changer() == 1


def test_the_dealer_may_change_until_the_opening_lead_and_the_change_must_be_legal():
    state = five_card_state()
    bid_all(state, [1, 2, 0, 1])
    assert state.phase == Phase.PLAYING
    assert set(state.actors()) == {0, 3}
    with pytest.raises(IllegalActionError) as error:
        state.apply(Bid(3, 2))  # the hook still applies to a changed bid
    assert error.value.rule == "hook"
    state.apply(Bid(3, 4))
    assert state.bids[3] == 4
    play(state, "AS")
    with pytest.raises(IllegalActionError) as error:
        state.apply(Bid(3, 1))
    assert error.value.rule == "bid-window-closed"


def test_bid_changes_can_be_switched_off():
    state = dealt(one_hand_rules(5, bid_changes=False), ["AS 2H 2D 3D 4D", "3S AH KH QH 9S", "4S 3H 5H 7H 6S",
                                                         "5S 4H 6H 8H KS"], turn_up="2C", dealer=3)
    state.apply(Bid(0, 1))
    assert state.actors() == [1]
    with pytest.raises(IllegalActionError):
        state.apply(Bid(0, 2))


def test_simultaneous_bidding_takes_bids_in_any_order_and_has_no_hook():
    rules = one_hand_rules(2, players=3, bidding="simultaneous", hook=False, bid_changes=False)
    state = dealt(rules, ["AS KS", "QS JS", "TS 9S"], turn_up="2H", dealer=0)
    assert state.turn is None and set(state.actors()) == {0, 1, 2}
    state.apply(Bid(2, 1))
    state.apply(Bid(0, 0))
    with pytest.raises(IllegalActionError) as error:
        state.apply(Bid(2, 0))
    assert error.value.rule == "already-bid"
    state.apply(Bid(1, 1))  # 0 + 1 + 1 = 2 is allowed: no hook
    assert state.phase == Phase.PLAYING


# --------------------------------------------------------------------------- play


def test_the_player_left_of_the_dealer_leads_any_card_including_trump():
    state = dealt(one_hand_rules(2, players=3), ["2H AS", "QS JS", "TS 9S"], turn_up="3H", dealer=2)
    bid_all(state, [1, 1, 1])
    assert state.turn == 0
    assert {card_name(a.card) for a in state.legal_actions(0) if isinstance(a, Play)} == {"2H", "AS"}
    play(state, "2H")  # trump may be led


def test_the_dealer_leads_under_that_knob():
    state = dealt(one_hand_rules(2, players=3, first_lead="dealer"), ["2H AS", "QS JS", "TS 9S"],
                  turn_up="3H", dealer=2)
    bid_all(state, [1, 1, 1])
    assert state.turn == 2


def test_must_follow_suit_when_able():
    state = dealt(one_hand_rules(2, players=3), ["AS 2D", "QS 3D", "TD 9S"], turn_up="3H", dealer=2)
    bid_all(state, [1, 1, 1])
    play(state, "AS")
    with pytest.raises(IllegalActionError) as error:
        state.apply(Play(1, parse_card("3D")))
    assert error.value.rule == "follow-suit"
    assert str(error.value) == "seat 1 must follow spades but played 3D"
    assert [card_name(a.card) for a in state.legal_actions(1) if isinstance(a, Play)] == ["QS"]


def test_a_number_that_is_no_card_is_refused_with_a_message():
    state = dealt(one_hand_rules(2, players=3), ["AS 2D", "QS 3D", "TD 9S"], turn_up="3H", dealer=2)
    bid_all(state, [1, 1, 1])
    before = state.clone()
    for number, shown in [(99, "99"), (54, "54"), (-3, "-3"), (52, "X1")]:  # X1: a joker, not in this deck
        with pytest.raises(IllegalActionError) as error:
            state.apply(Play(0, number))
        assert error.value.rule == "not-a-card"
        assert str(error.value) == f"{shown} is not a card of this deck"
        assert state == before


def test_messages_name_cards_as_seen_in_the_play_front_ends():
    # Records and the library keep the notation (3D); the terminal game and the server show
    # cards as people see them, in their language's letters.
    from ohhell.i18n import set_language, show_cards_as_seen

    state = dealt(one_hand_rules(2, players=3), ["AS 2D", "QS 3D", "TD 9S"], turn_up="3H", dealer=2)
    bid_all(state, [1, 1, 1])
    play(state, "AS")
    show_cards_as_seen()
    try:
        with pytest.raises(IllegalActionError) as error:
            state.apply(Play(1, parse_card("3D")))
        assert str(error.value) == "seat 1 must follow spades but played 3♦"
        set_language("ru")
        with pytest.raises(IllegalActionError) as error:
            state.apply(Play(1, parse_card("AS")))
        assert "Т♠" in str(error.value) and "AS" not in str(error.value)
    finally:
        set_language("en")
        show_cards_as_seen(False)
    with pytest.raises(IllegalActionError) as error:
        state.apply(Play(1, parse_card("3D")))
    assert str(error.value) == "seat 1 must follow spades but played 3D"


def test_a_player_who_cannot_follow_may_play_anything_with_no_duty_to_trump():
    state = dealt(one_hand_rules(2, players=3), ["AS 2D", "3H 3D", "TD 9S"], turn_up="2H", dealer=2)
    bid_all(state, [1, 1, 1])
    play(state, "AS")
    legal = {card_name(a.card) for a in state.legal_actions(1) if isinstance(a, Play)}
    assert legal == {"3H", "3D"}  # trump 3H or a discard


def test_must_trump_knob():
    state = dealt(one_hand_rules(2, players=3, must_trump=True), ["AS 2D", "3H 3D", "TD 9S"], turn_up="2H",
                  dealer=2)
    bid_all(state, [1, 1, 1])
    play(state, "AS")
    with pytest.raises(IllegalActionError) as error:
        state.apply(Play(1, parse_card("3D")))
    assert error.value.rule == "must-trump"
    play(state, "3H")


def test_a_card_not_held_cannot_be_played_and_only_the_seat_on_turn_plays():
    state = dealt(one_hand_rules(2, players=3), ["AS 2D", "3H 3D", "TD 9S"], turn_up="2H", dealer=2)
    bid_all(state, [1, 1, 1])
    with pytest.raises(IllegalActionError) as error:
        state.apply(Play(0, parse_card("KS")))
    assert error.value.rule == "not-in-hand"
    with pytest.raises(IllegalActionError) as error:
        state.apply(Play(1, parse_card("3H")))
    assert error.value.rule == "not-your-turn"


def test_highest_trump_wins_else_highest_of_the_led_suit_and_the_winner_leads():
    rules = one_hand_rules(2, players=4)
    # Trick 1: 5S led, AS highest spade, KD discarded: AS wins.  Trick 2: 2C led, 3H trumps: trump wins.
    state = dealt(rules, ["5S 2C", "AS 3H", "KD 4C", "7S AC"], turn_up="2H", dealer=3)
    bid_all(state, [0, 1, 1, 1])
    play(state, "5S AS KD 7S")
    assert state.trick_winners == [1] and state.turn == 1
    play(state, "3H 4C")  # seat 1 leads trump; ...
    play(state, "AC 2C")
    assert state.finished_hands[0].tricks == (0, 2, 0, 0)


def test_over_trump_wins_and_discards_never_win():
    rules = one_hand_rules(1, players=4)
    state = dealt(rules, ["5D", "2H", "AS", "4H"], turn_up="3H", dealer=3)
    bid_all(state, [0, 0, 0, 0])
    play(state, "5D 2H AS 4H")
    assert state.finished_hands[0].tricks == (0, 0, 0, 1)


def test_no_cards_are_drawn_after_a_trick():
    state = dealt(one_hand_rules(2, players=3), ["AS 2D", "3H 3D", "TD 9S"], turn_up="2H", dealer=2)
    bid_all(state, [1, 1, 1])
    play(state, "AS 3D 9S")
    assert [state.hands[seat].bit_count() for seat in range(3)] == [1, 1, 1]


def test_tricks_and_scores_are_totalled_and_the_game_ends_after_the_schedule():
    rules = preset("classic", players=3, schedule="explicit", hands=[[1, "turn-up"], [1, "turn-up"]])
    state = dealt(rules, ["AS", "KS", "QS"], turn_up="2H", dealer=0)
    bid_all(state, [0, 0, 0])  # seats 1, 2, 0
    play(state, "KS QS AS")
    assert state.finished_hands[0].scores == (0, 10, 10) and state.totals == [0, 10, 10]
    assert not state.is_terminal() and state.phase == Phase.SHUFFLE and state.dealer == 1
    state.apply(Deal(((parse_card("2S"),), (parse_card("3S"),), (parse_card("4S"),)), parse_card("2H")))
    bid_all(state, [1, 0, 1])  # seats 2, 0, 1 (the new dealer bids last)
    play(state, "4S 2S 3S")
    assert state.finished_hands[1].scores == (10, 0, 11)
    assert state.totals == [10, 10, 21]
    assert state.is_terminal() and state.winners() == [2]
    with pytest.raises(IllegalActionError) as error:
        state.apply(Bid(0, 0))
    assert error.value.rule == "game-over"


def test_hook_refuses_in_a_whole_game_flow():
    rules = preset("classic", players=3, schedule="explicit", hands=[[1, "turn-up"]])
    state = dealt(rules, ["2S", "3S", "4S"], turn_up="2H", dealer=1)
    state.apply(Bid(2, 1))
    state.apply(Bid(0, 0))
    with pytest.raises(IllegalActionError):
        state.apply(Bid(1, 0))


def test_winners_share_ties():
    rules = preset("classic", players=3, schedule="explicit", hands=[[2, "turn-up"]])
    single = dealt(rules, ["AS 2D", "KS 3D", "QS 4D"], turn_up="2H", dealer=2)
    bid_all(single, [1, 0, 0])  # 1 + 0 + 0 = 1, not 2: the dealer's 0 is allowed
    play(single, "AS KS QS 2D 3D 4D")
    assert single.finished_hands[0].tricks == (1, 0, 1)
    assert single.totals == [11, 10, 0] and single.winners() == [0]
    tied = dealt(rules.replace(hook=False), ["AS 2D", "KS 3D", "QS 4D"], turn_up="2H", dealer=2)
    bid_all(tied, [1, 0, 1])
    play(tied, "AS KS QS 2D 3D 4D")
    assert tied.totals == [11, 10, 11] and tied.winners() == [0, 2]


# --------------------------------------------------------------------------- mechanics


def test_illegal_actions_leave_the_state_exactly_as_it_was():
    state = five_card_state()
    bid_all(state, [1, 2])
    before = state.clone()
    for action in (Bid(3, 0), Bid(2, 9), Play(2, parse_card("4S")), Bid(0, 1), Draw(0, 1), Cut(3)):
        with pytest.raises(IllegalActionError):
            state.apply(action)
        assert state == before


def test_undo_restores_exactly_and_returns_the_action():
    state = five_card_state()
    snapshots = [state.clone()]
    actions = [Bid(0, 1), Bid(1, 2), Bid(2, 0), Bid(3, 1)] + [
        Play(seat, card) for seat, card in zip(
            [0, 1, 2, 3, 0, 1, 2, 3, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0],
            parse_cards("AS 3S 4S 5S 2H AH 3H 4H KH 5H 6H 2D QH 7H 8H 3D 9S 6S KS 4D"), strict=True)]
    for action in actions:
        state.apply(action)
        snapshots.append(state.clone())
    assert state.is_terminal()
    for action in reversed(actions):
        snapshots.pop()
        assert state.undo() == action
        assert state == snapshots[-1]
    assert isinstance(state.undo(), Deal) and state.phase == Phase.SHUFFLE and not state.history
    with pytest.raises(IllegalActionError):
        state.undo()


def test_clone_is_independent():
    state = five_card_state()
    copy = state.clone()
    copy.apply(Bid(0, 1))
    assert state.bids[0] is None and copy.bids[0] == 1
    assert state != copy


def test_games_are_deterministic_from_a_seed():
    from ohhell.record import play_random_game, record_from_state

    first = record_from_state(play_random_game(preset("classic", players=4), seed=11))
    second = record_from_state(play_random_game(preset("classic", players=4), seed=11))
    third = record_from_state(play_random_game(preset("classic", players=4), seed=12))
    assert first == second != third


def test_section_4_facts():
    from ohhell.scoring import hand_score

    classic = preset("classic")
    assert hand_score(classic, 4, 4, 10) == 14 and hand_score(classic, 0, 0, 10) == 10
    assert hand_score(preset("contract-whist"), 3, 4, 10) == 4
    assert hand_score(preset("classic", zero_bid="5-plus-size"), 0, 0, 7) == 12
    assert [preset("classic", players=n).hand_plans()[0].size for n in (3, 4, 5, 6, 7)] == [10, 10, 10, 8, 7]
    assert [preset("up-and-down-the-river", players=n).schedule_length() for n in (3, 4, 5, 6, 7)] == [
        15, 13, 10, 8, 7]


def test_state_fields_list_every_attribute():
    """clone(), undo snapshots and equality rely on the list of a State's attributes."""
    import ohhell.game as game_module

    pure = game_module._STATE_FIELDS
    state = five_card_state()
    if hasattr(state, "__dict__"):  # the interpreted engine
        assert set(vars(state)) == set(pure)
    for name in pure:
        getattr(state, name)


def test_states_pickle_and_deepcopy():
    import copy
    import pickle

    from ohhell.record import play_random_game

    finished = play_random_game(preset("classic", players=3), seed=1)
    midway = five_card_state()
    bid_all(midway, [1, 2])
    for state in (finished, midway):
        assert pickle.loads(pickle.dumps(state)) == state
        assert copy.deepcopy(state) == state
