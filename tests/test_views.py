"""Views: what one seat may know, decided in one place."""

import json
import random

from helpers import bid_all, dealt, one_hand_rules, play

from ohhell import Bid, Game, preset
from ohhell.cards import HIDDEN_CARD, card_name, parse_cards
from ohhell.game import Phase
from ohhell.views import seat_view, spectator_view


def all_card_names(state):
    names = set()
    for mask in state.hands:
        names |= {card_name(c) for c in range(54) if mask >> c & 1}
    return names


def test_a_seat_sees_its_own_hand_and_nobody_elses():
    state = dealt(one_hand_rules(2, players=3), ["AS 2D", "QS 3D", "TD 9S"], turn_up="2H", dealer=2)
    view = seat_view(state, 1)
    assert sorted(card_name(c) for c in view.hand) == ["3D", "QS"]
    text = json.dumps(view.to_json())
    for other in ("AS", "2D", "TD", "9S"):
        assert f'"{other}"' not in text
    assert view.turn_up is not None and card_name(view.turn_up) == "2H"
    assert view.hand_counts == (2, 2, 2)


def test_spectators_see_public_information_only():
    state = dealt(one_hand_rules(2, players=3), ["AS 2D", "QS 3D", "TD 9S"], turn_up="2H", dealer=2)
    bid_all(state, [1, 0, 0])
    play(state, "AS")
    view = spectator_view(state)
    assert view.hand == () and view.legal_actions == ()
    text = json.dumps(view.to_json())
    for hidden in ("2D", "QS", "3D", "TD", "9S"):
        assert f'"{hidden}"' not in text
    assert '"AS"' in text  # a played card is public
    assert view.bids == (1, 0, 0) and view.current_trick == ((0, parse_cards("AS")[0]),)


def test_bids_are_public_in_turn_and_secret_until_all_are_in_when_simultaneous():
    rules = one_hand_rules(2, players=3, bidding="simultaneous", hook=False, bid_changes=False)
    state = dealt(rules, ["AS KS", "QS JS", "TS 9S"], turn_up="2H", dealer=0)
    state.apply(Bid(2, 1))
    assert seat_view(state, 2).bids == (None, None, 1)
    assert seat_view(state, 0).bids == (None, None, None)
    assert seat_view(state, 0).has_bid == (False, False, True)
    assert spectator_view(state).bids == (None, None, None)
    state.apply(Bid(0, 0))
    state.apply(Bid(1, 1))
    assert seat_view(state, 0).bids == (0, 1, 1)


def test_dealer_sees_the_forbidden_bid_and_the_change_window():
    state = dealt(one_hand_rules(5), ["AS 2H 2D 3D 4D", "3S AH KH QH 9S", "4S 3H 5H 7H 6S", "5S 4H 6H 8H KS"],
                  turn_up="2C", dealer=3)
    bid_all(state, [1, 2, 0])
    view = seat_view(state, 3)
    assert view.forbidden_bid == 2 and view.turn == 3
    assert [a.bid for a in view.legal_actions] == [0, 1, 3, 4, 5]
    assert seat_view(state, 2).can_change_bid and not seat_view(state, 1).can_change_bid
    state.apply(Bid(3, 1))
    assert seat_view(state, 3).can_change_bid  # until the opening lead
    assert seat_view(state, 0).turn == 0


def test_devils_bridge_last_hand_shows_others_cards_and_hides_your_own():
    rules = preset("devils-bridge", players=3)
    rng = random.Random(4)
    state = Game(rules).new_initial_state()
    while not (state.hand_index == rules.schedule_length() - 1 and state.phase == Phase.BIDDING):
        if state.is_chance_node():
            state.apply(state.sample_chance(rng))
        else:
            state.apply(rng.choice(state.legal_actions(state.turn)))
    assert state.hand_size == 1 and state.is_blind_hand
    for seat in range(3):
        view = seat_view(state, seat)
        assert view.blind and view.hand == (HIDDEN_CARD,)
        own = card_name(state.hand(seat)[0])
        assert own not in json.dumps(view.to_json()["hand"])
        assert set(view.visible_hands) == {0, 1, 2} - {seat}
        for other, cards in view.visible_hands.items():
            assert list(cards) == state.hand(other)
    assert spectator_view(state).visible_hands == {}
    while state.phase == Phase.BIDDING:
        state.apply(seat_view(state, state.turn).legal_actions[0])
    # The seat on turn plays its unseen card through the view's action.
    seat = state.turn
    (action,) = [a for a in seat_view(state, seat).legal_actions if hasattr(a, "card")]
    assert action.card == HIDDEN_CARD
    card = state.hand(seat)[0]
    state.apply(action)
    assert state.plays[-1] == card


def test_views_of_a_whole_game_never_contain_another_seats_unplayed_cards():
    rng = random.Random(1)
    game = Game(preset("classic", players=4)).new_initial_state()
    while not game.is_terminal():
        if game.is_chance_node():
            game.apply(game.sample_chance(rng))
            continue
        for seat in [0, 1, 2, 3, None]:
            data = seat_view(game, seat).to_json()
            # The cut for the deal and finished hands are public: their cards were shown to all.
            del data["draws"], data["finished_hands"]
            text = json.dumps(data)
            for other in range(4):
                if other == seat:
                    continue
                for card in game.hand(other):
                    assert f'"{card_name(card)}"' not in text
        game.apply(rng.choice(game.legal_actions(game.turn)))


def test_the_first_leader_follows_the_rules() -> None:
    from helpers import dealt, one_hand_rules

    state = dealt(one_hand_rules(2, players=3), ["AS 2D", "QS 3D", "TD 9S"], turn_up="3H", dealer=2)
    assert seat_view(state, 0).first_leader == 0  # left of the dealer
    rules = one_hand_rules(2, players=3, first_lead="dealer")
    assert seat_view(dealt(rules, ["AS 2D", "QS 3D", "TD 9S"], turn_up="3H", dealer=2), 0).first_leader == 2


def test_the_closing_trick_stays_in_view_until_the_next_deal() -> None:
    import random as _random

    from ohhell.rules import preset as _preset

    state = Game(_preset("classic", players=3, schedule="explicit", hands=((2, "turn-up"), (2, "turn-up")))) \
        .new_initial_state()
    rng = _random.Random(3)
    while not state.finished_hands:
        assert seat_view(state, 0).closing_trick is None  # no hand finished yet
        if state.is_chance_node():
            state.apply(state.sample_chance(rng))
        else:
            state.apply(rng.choice(state.legal_actions()))
    last = state.finished_hands[0]
    for viewer in (0, 1, None):
        trick = seat_view(state, viewer).closing_trick
        assert trick is not None and trick.winner == last.trick_winners[-1] and len(trick.cards) == 3
    while state.is_chance_node():  # the next deal: the closing trick is gone
        state.apply(state.sample_chance(rng))
    assert seat_view(state, 0).closing_trick is None


def test_the_hooks_forbidden_bid_is_everyones_to_see() -> None:
    """The hook follows from the open bids before the dealer's (simultaneous bidding has no
    hook), so every seat is told it (``hook_bid``), to explain it; ``forbidden_bid`` stays the
    dealer's own (and a spectator's)."""
    state = Game(preset("classic", players=3)).new_initial_state(first_dealer=0)
    rng = random.Random(1)
    while state.is_chance_node():
        state.apply(state.sample_chance(rng))
    while state.forbidden_bid() is None:
        state.apply(state.legal_actions(state.turn)[0])
    assert state.turn == state.dealer
    for viewer in (0, 1, 2, None):
        assert seat_view(state, viewer).hook_bid == state.forbidden_bid()
        shown = seat_view(state, viewer).forbidden_bid
        assert shown == (state.forbidden_bid() if viewer in (state.dealer, None) else None)
