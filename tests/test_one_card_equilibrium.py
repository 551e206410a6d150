"""The one-card equilibrium (issue 29): every place's best response to the others' bidding
rules, the bidder that bids it, and the strong bot reading earlier bids by it."""

from __future__ import annotations

import json
from fractions import Fraction
from itertools import permutations

import pytest
from click.testing import CliRunner
from helpers import bid_all, dealt, one_hand_rules

from ohhell.actions import Bid
from ohhell.bots.basic import BasicBot
from ohhell.bots.equilibrium import place_and_history
from ohhell.bots.equilibrium_bot import EquilibriumBot
from ohhell.bots.exact_one_card import Equilibrium, _Solver, equilibrium, iterate_best_responses, setups
from ohhell.bots.heuristics import power
from ohhell.bots.strong import StrongBot
from ohhell.cards import SUIT_MASKS, parse_card
from ohhell.cli import main
from ohhell.game import State
from ohhell.rules import preset
from ohhell.scoring import hand_score
from ohhell.views import seat_view

HEARTS = SUIT_MASKS[1]


@pytest.mark.parametrize("scoring", ["exact", "trick-plus-bonus", "triangular-penalty"])
@pytest.mark.parametrize("players", [3, 4])
def test_iterated_best_responses_settle_on_the_equilibrium(players: int, scoring: str) -> None:
    rules = preset("classic", players=players, scoring=scoring)
    setup = setups(rules, "7S")[0][0]
    strategy, rounds = iterate_best_responses(setup)
    assert rounds <= players + 1
    solver = _Solver(setup)
    assert strategy == {(place, history): solver.rule(place, history)
                        for place in range(players) for history in solver.histories(place)}


def test_each_rule_is_best_against_every_deal_consistent_with_the_earlier_bids() -> None:
    # Three players, counted by brute force over every deal of the two other cards: each
    # place's equilibrium bid scores at least as much as the other bid it may make.
    rules = preset("classic", players=3, scoring="triangular-penalty")
    turned = parse_card("9H")
    game = equilibrium(rules, turned)
    pool = [c for c in range(52) if c != turned]
    for place in range(3):
        for history in game.histories(place):
            shown = [game.bid_set(p, history, history[p]) for p in range(place)]
            for card in (parse_card(text) for text in ("AH", "TH", "2H", "AS", "KD", "2C")):
                wins = total = 0
                for others in permutations([c for c in pool if c != card], 2):
                    table = list(others[:place]) + [card] + list(others[place:])
                    if any(not shown[p] >> table[p] & 1 for p in range(place)):
                        continue
                    total += 1
                    led = table[0] // 13
                    wins += max(range(3), key=lambda p: (power(table[p], led, HEARTS), -p)) == place
                if not total:
                    continue
                value = {bid: wins * hand_score(rules, bid, 1, 1) + (total - wins) * hand_score(rules, bid, 0, 1)
                         for bid in game.allowed(place, history)}
                chosen = game.bid(place, history, card)
                assert value[chosen] == max(value.values()), (place, history, card)
                assert game.win_chance(place, history, card) == Fraction(wins, total)


def test_a_renamed_suit_shares_the_rules() -> None:
    rules = preset("classic", players=4)
    spades = Equilibrium(rules, parse_card("7S"), SUIT_MASKS[0])
    hearts = Equilibrium(rules, parse_card("7H"), HEARTS)
    assert spades.solver is hearts.solver
    assert hearts.bid(0, (), parse_card("8H")) == spades.bid(0, (), parse_card("8S")) == 1
    assert hearts.bid_set(1, (1,), 1) == sum(1 << parse_card(c) for c in ("TH", "JH", "QH", "KH", "AH"))


def one_card_state(players: int, cards: list[str], turn_up: str, dealer: int, bids: list[int]) -> State:
    state = dealt(one_hand_rules(1, players=players), cards, turn_up=turn_up, dealer=dealer)
    bid_all(state, bids)
    return state


def test_the_equilibrium_bidder_bids_its_rule() -> None:
    # Hearts trump, four players, seat 3 bids second: after a 0 the 9 of trumps bids 1; after
    # a 1 (which shows a trump of the four or better) it bids 0.
    for first, expected in ((1, 0), (0, 1)):
        state = one_card_state(4, ["2C", "3C", "4C", "9H"], "2H", dealer=1, bids=[first])
        view = seat_view(state, 3)
        assert place_and_history(view) == (1, (first,))
        assert EquilibriumBot(seed=1).choose(view) == Bid(3, expected)


def test_strong_reads_an_earlier_bid_by_the_equilibrium() -> None:
    # The same seat: after a 1 from the first bidder the 9 of trumps takes the trick less often
    # than a 1 needs; reading that 1 as a card's worth from its place (the earlier model) bids 1.
    state = one_card_state(4, ["2C", "3C", "4C", "9H"], "2H", dealer=1, bids=[1])
    view = seat_view(state, 3)
    assert StrongBot(seed=1).choose(view) == Bid(3, 0)
    assert StrongBot(seed=1, one_card_model="worth").choose(view) == Bid(3, 1)


def test_analyze_one_card_prints_the_equilibrium_for_a_turned_card() -> None:
    text = CliRunner().invoke(main, ["analyze", "one-card", "--players", "4", "--turned", "7H",
                                     "--no-progress"]).output
    assert "Equilibrium bids" in text
    assert "  before any bid: bids 1 with: trump 3–A (≥ 50.4%)" in text  # the 7 turned: a run over it
    assert "  after 1: bids 1 with: trump 10–A (≥ 50.5%)" in text
    assert "  after 0 0 0: bids 0 with every card (the hook)" in text
    data = json.loads(CliRunner().invoke(main, ["analyze", "one-card", "--players", "4", "--turned", "7H",
                                                "--json", "--no-progress"]).output)
    after_one = data["equilibrium"]["places"][1]["histories"][1]
    assert after_one["bids"] == [1]
    king = next(card for card in after_one["cards"] if card["role"] == "trump" and card["card"] == "K")
    assert (king["bid"], king["win_exact"]) == (1, "423/490")


def test_without_a_turned_card_the_equilibrium_asks_for_one() -> None:
    text = CliRunner().invoke(main, ["analyze", "one-card", "--players", "3", "--no-progress"]).output
    assert "name one with --turned" in text


def test_basic_reads_an_earlier_bid_by_the_equilibrium() -> None:
    # The same seat: the club player used to count its card's chance as if nobody had bid.
    state = one_card_state(4, ["2C", "3C", "4C", "9H"], "2H", dealer=1, bids=[1])
    assert BasicBot(seed=1).choose(seat_view(state, 3)) == Bid(3, 0)
    state = one_card_state(4, ["2C", "3C", "4C", "9H"], "2H", dealer=1, bids=[0])
    assert BasicBot(seed=1).choose(seat_view(state, 3)) == Bid(3, 1)
