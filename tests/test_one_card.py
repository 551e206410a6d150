"""One-card hands counted exactly (issue 4: "published exact analysis of simple positions").

The chance of taking the only trick is checked against the closed form of the published
one-card tables, against every deal played out in the reference engine, and with bids as
evidence against a weighted count over every deal."""

from __future__ import annotations

import itertools
import json
import random
import time
from math import comb
from pathlib import Path

import pytest
from click.testing import CliRunner
from helpers import bid_all, dealt, one_hand_rules

from ohhell.actions import Bid
from ohhell.bots.basic import blind_chance
from ohhell.bots.heuristics import power
from ohhell.bots.knowledge import Knowledge
from ohhell.bots.one_card import distinct_sum, win_chance
from ohhell.bots.strong import StrongBot
from ohhell.cards import SUIT_MASKS, card_name, parse_card
from ohhell.cli import main
from ohhell.record import record_from_state
from ohhell.rules import HandPlan, preset
from ohhell.views import seat_view

SPADES = SUIT_MASKS[parse_card("2S") // 13]


def _unseen(*seen: str) -> int:
    mask = (1 << 52) - 1
    for card in seen:
        mask &= ~(1 << parse_card(card))
    return mask


@pytest.mark.parametrize(("card", "beaten_by"), [("KS", 1), ("QS", 2), ("2S", 11), ("3S", 10), ("AH", 12),
                                                 ("KH", 13), ("2H", 24)])
def test_leading_matches_the_published_closed_form(card: str, beaten_by: int) -> None:
    # Four players, spades turned (9S): the leader wins unless one of the three others holds
    # one of the cards that beat it: C(50 - bad, 3) / C(50, 3).
    chance = win_chance(parse_card(card), SPADES, _unseen(card, "9S"), position=0, players=4)
    assert chance == pytest.approx(comb(50 - beaten_by, 3) / comb(50, 3), abs=1e-12)


@pytest.mark.parametrize("players", [3, 4])
def test_every_seat_matches_every_deal_played_in_the_engine(players: int) -> None:
    rules = one_hand_rules(1, players=players)
    turn_up = "9S"
    for seat, card in [(1, "JS"), (2, "AD"), (0, "7H"), (players - 1, "2S"), (1, "KC")]:
        unseen = [c for c in range(52) if c not in (parse_card(card), parse_card(turn_up))]
        others = [p for p in range(players) if p != seat]
        wins = total = 0
        # Every ordered deal of the others' cards (3 players: all of them; 4: a fixed sample).
        deals = list(itertools.permutations(unseen, len(others)))
        if players == 4:
            deals = random.Random(seat).sample(deals, 3000)
        for deal in deals:
            hands = [""] * players
            hands[seat] = card
            for other, dealt_card in zip(others, deal, strict=True):
                hands[other] = _name(dealt_card)
            state = dealt(rules, hands, turn_up=turn_up, dealer=0)
            bid_all(state, [0] * players)
            while not state.is_terminal():
                state.apply(state.legal_actions()[0])
            wins += state.finished_hands[-1].tricks[seat]
            total += 1
        leader = 1 % players
        chance = win_chance(parse_card(card), SPADES, _unseen(card, turn_up), (seat - leader) % players, players)
        if players == 3:
            assert chance == pytest.approx(wins / total, abs=1e-12)
        else:  # a sample: within four standard errors
            assert abs(chance - wins / total) < 4 * (chance * (1 - chance) / total) ** 0.5 + 1e-9


def _name(card: int) -> str:
    return card_name(card)


def test_weighed_by_bids_matches_a_count_over_every_deal() -> None:
    rng = random.Random(5)
    players = 4
    mine = parse_card("TH")
    unseen = _unseen("TH", "9S")
    cards = [c for c in range(52) if unseen >> c & 1]
    for position in range(players):
        weights: list[dict[int, float] | None] = [None] * players
        for other in range(players):
            if other != position and rng.random() < 0.8:
                weights[other] = {c: rng.random() for c in cards}
        numerator = denominator = 0.0
        seats = [p for p in range(players) if p != position]
        for deal in itertools.permutations(cards, players - 1):
            weight = 1.0
            table = dict(zip(seats, deal, strict=True))
            for seat, card in table.items():
                row = weights[seat]
                weight *= 1.0 if row is None else row[card]
            table[position] = mine
            led = table[0] // 13
            best = max(range(players), key=lambda p: (power(table[p], led, SPADES), -p))
            denominator += weight
            numerator += weight * (best == position)
        chance = win_chance(mine, SPADES, unseen, position, players, weights)
        assert chance == pytest.approx(numerator / denominator, rel=1e-9)


def test_distinct_sum_is_the_sum_over_different_columns() -> None:
    rng = random.Random(2)
    for k in range(1, 6):
        rows = [[rng.choice([0.0, rng.random()]) for _ in range(7)] for _ in range(k)]
        brute = sum(_product(rows[i][j] for i, j in enumerate(pick)) for pick in itertools.permutations(range(7), k))
        assert distinct_sum(rows) == pytest.approx(brute, rel=1e-9, abs=1e-12)


def _product(values: object) -> float:
    out = 1.0
    for value in values:  # type: ignore[attr-defined]
        out *= value
    return out


@pytest.mark.parametrize(("card", "bid"), [("2S", 0), ("3S", 1), ("KH", 0), ("AS", 1)])
def test_strong_bids_by_the_exact_chance_and_the_scoring(card: str, bid: int) -> None:
    # Classic scoring (10 + bid when made): bid 1 only when the chance beats 10/21. The 2 of
    # trumps wins 46.6% of the time when it leads against three (bid 0), the 3 50.4% (bid 1).
    rules = one_hand_rules(1, players=4)
    state = dealt(rules, ["3D", card, "4D", "5D"], turn_up="9S", dealer=0)
    suggestion = StrongBot(seed=1).suggest(seat_view(state, 1))
    assert suggestion.action == Bid(1, bid)
    chance = win_chance(parse_card(card), SPADES, _unseen(card, "9S"), 0, 4)
    assert suggestion.estimates == {"bid 0": pytest.approx(1 - chance), "bid 1": pytest.approx(chance)}
    assert suggestion.details["tricks_distribution"]["1"] == pytest.approx(chance)
    assert suggestion.details["expected_score"]["1"] == pytest.approx(11 * chance)


def test_a_bid_of_one_before_lowers_the_chance_of_a_middling_card() -> None:
    rules = one_hand_rules(1, players=4)
    chances = {}
    for before in (0, 1):
        state = dealt(rules, ["3D", "4D", "JS", "5D"], turn_up="9S", dealer=0)
        bid_all(state, [before])  # seat 1 bids; seat 2 (holding JS) is next
        chances[before] = StrongBot(seed=1).suggest(seat_view(state, 2)).estimates["bid 1"]
    assert chances[1] < chances[0] - 0.02
    # Exact: no sampling, so any seed gives the same numbers.
    state = dealt(rules, ["3D", "4D", "JS", "5D"], turn_up="9S", dealer=0)
    bid_all(state, [1])
    assert StrongBot(seed=7).suggest(seat_view(state, 2)).estimates["bid 1"] == chances[1]


def test_seven_players_six_bids_are_counted_exactly_and_quickly() -> None:
    rules = one_hand_rules(1, players=7, hook=False)
    uniform = win_chance(parse_card("JS"), SPADES, _unseen("JS", "9S"), 6, 7)  # the dealer plays last
    chances = {}
    for bids in ([0] * 6, [1] * 6):
        state = dealt(rules, ["JS", "2C", "3C", "4C", "5C", "6C", "7C"], turn_up="9S", dealer=0)
        bid_all(state, bids)
        started = time.perf_counter()
        suggestion = StrongBot(seed=1).suggest(seat_view(state, 0))
        assert time.perf_counter() - started < 2.0
        assert suggestion.details["method"].startswith("exact")
        chances[bids[0]] = suggestion.estimates["bid 1"]
        assert StrongBot(seed=9).suggest(seat_view(state, 0)).estimates["bid 1"] == chances[bids[0]]
    # Six bids of 0 say the others hold weak cards, six bids of 1 strong ones.
    assert chances[1] < uniform - 0.05 < uniform + 0.05 < chances[0]


def test_devils_bridge_bids_by_the_share_of_winning_cards_and_the_scoring() -> None:
    # Each seat sees the others' cards, not its own: the chance is the share of the cards it
    # may hold that take the trick, and the bid the one the scoring prefers.
    rules = one_hand_rules(1, players=4, devils_bridge=True)
    for others, seat in [(["5H", "9D", "JC"], 1), (["2H", "3H", "4D"], 2), (["AS", "KH", "3C"], 3)]:
        hands = list(others)
        hands.insert(seat, "7S")
        state = dealt(rules, hands, turn_up="TS", dealer=seat - 1)
        view = seat_view(state, seat)
        assert view.blind
        chance = blind_chance(view, Knowledge.from_view(view))
        suggestion = StrongBot(seed=1).suggest(view)
        expected = 1 if 11 * chance > 10 * (1 - chance) else 0
        assert suggestion.action == Bid(seat, expected)
        assert suggestion.estimates == {"bid 0": pytest.approx(1 - chance), "bid 1": pytest.approx(chance)}


def test_suggest_says_the_chances_are_exact(tmp_path: Path) -> None:
    state = dealt(one_hand_rules(1, players=4), ["3D", "2S", "4D", "5D"], turn_up="9S", dealer=0)
    path = tmp_path / "one.json"
    path.write_text(json.dumps(record_from_state(state)), encoding="utf-8")
    text = CliRunner().invoke(main, ["suggest", str(path)])
    assert text.exit_code == 0, text.output
    assert text.output.splitlines()[:4] == ["Seat 1: bid 0", "Chance of making the bid:", "  bid 0           53.4%",
                                            "  bid 1           46.6%"]
    assert "counted exactly" in text.output
    data = json.loads(CliRunner().invoke(main, ["suggest", str(path), "--json"]).output)
    assert data["details"]["exact"] is True
    assert data["estimates"]["bid 1"] == pytest.approx(comb(39, 3) / comb(50, 3))


@pytest.mark.parametrize(("turn_up", "seat", "card"), [("9S", 1, "X1"), ("9S", 2, "X2"), ("9S", 0, "AS"),
                                                       ("X1", 1, "X2"), ("X2", 2, "AH"), ("X1", 0, "KD")])
def test_jokers_match_every_deal_played_in_the_engine(turn_up: str, seat: int, card: str) -> None:
    # Three players, the 54-card deck: a led joker wins unless trumped, of two jokers the
    # first played wins, and a turned joker makes the other joker the only trump.
    rules = preset("jokers", players=3, schedule="explicit", hands=(HandPlan(1, "turn-up"),))
    seen = {parse_card(card), parse_card(turn_up)}
    unseen = [c for c in range(54) if c not in seen]
    wins = total = 0
    others = [p for p in range(3) if p != seat]
    for deal in itertools.permutations(unseen, 2):
        hands = [""] * 3
        hands[seat] = card
        for other, dealt_card in zip(others, deal, strict=True):
            hands[other] = card_name(dealt_card)
        state = dealt(rules, hands, turn_up=turn_up, dealer=0)
        bid_all(state, [0, 0, 0])
        while not state.is_terminal():
            state.apply(state.legal_actions()[0])
        wins += state.finished_hands[-1].tricks[seat]
        total += 1
    view = seat_view(dealt(rules, ["2C", "3C", "4C"], turn_up=turn_up, dealer=0), 1)
    trump = Knowledge.from_view(view).trump
    mask = sum(1 << c for c in unseen)
    assert win_chance(parse_card(card), trump, mask, (seat - 1) % 3, 3) == pytest.approx(wins / total, abs=1e-12)


def test_devils_bridge_reads_the_bids_of_those_who_saw_the_card() -> None:
    # Seat 1 bid first, seeing seat 2's card: a bid of 0 says that card looked strong to it,
    # a bid of 1 that it looked weak.
    rules = one_hand_rules(1, players=3, devils_bridge=True)
    chances = {}
    for bid in (0, 1):
        state = dealt(rules, ["KH", "QD", "7S"], turn_up="TS", dealer=0)
        bid_all(state, [bid])
        view = seat_view(state, 2)
        suggestion = StrongBot(seed=1).suggest(view)
        assert "weighed by the bids" in suggestion.details["method"]
        chances[bid] = suggestion.estimates["bid 1"]
        assert StrongBot(seed=5).suggest(view).estimates["bid 1"] == chances[bid]
    plain = blind_chance(view, Knowledge.from_view(view))  # the same seat, no bids read
    assert chances[1] < plain - 0.05 < plain + 0.05 < chances[0]


def test_devils_bridge_with_seven_is_quick() -> None:
    rules = one_hand_rules(1, players=7, devils_bridge=True)
    state = dealt(rules, ["KH", "QD", "7S", "4C", "9C", "3D", "8H"], turn_up="TS", dealer=0)
    bid_all(state, [1, 0, 1, 0, 0])
    started = time.perf_counter()
    suggestion = StrongBot(seed=1).suggest(seat_view(state, 6))
    assert time.perf_counter() - started < 2.0
    assert suggestion.details["exact"] and 0.0 < suggestion.estimates["bid 1"] < 1.0


def test_basic_reckons_a_single_card_from_its_place_in_the_trick() -> None:
    # Three players, spades trump: the ace of hearts wins 57% of the time when it leads (no
    # spade among the two others) but far less when it plays last (hearts must be led too).
    from ohhell.bots.basic import BasicBot

    rules = one_hand_rules(1, players=3)
    bids = {}
    for seat, dealer in [(1, 0), (0, 0)]:  # seat 1 leads; the dealer (seat 0) plays last
        hands = ["2C", "3C", "4C"]
        hands[seat] = "AH"
        state = dealt(rules, hands, turn_up="9S", dealer=dealer)
        bid_all(state, [1] * ((seat - dealer - 1) % 3))  # two bids of 1: the hook leaves the dealer 0 or 1
        view = seat_view(state, seat)
        position = (seat - (dealer + 1)) % 3
        chance = win_chance(parse_card("AH"), SPADES, _unseen("AH", "9S"), position, 3)
        if position == 0:
            assert BasicBot(seed=1).estimate(view) == pytest.approx(chance)
        else:  # two 1s before it say the others hold strong cards (read by the equilibrium, issue 29)
            assert BasicBot(seed=1).estimate(view) < chance
        assert {a for a in view.legal_actions if isinstance(a, Bid)} == {Bid(seat, 0), Bid(seat, 1)}
        bids[position] = BasicBot(seed=1).choose(view)
    assert bids[0] == Bid(1, 1) and bids[2] == Bid(0, 0)
