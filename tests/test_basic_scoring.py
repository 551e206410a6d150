"""Every level bids and plays for the scoring in force (issue 13, item 8): positions where the
right bid or card differs between scorings, and each level choosing accordingly under each.

A level that ignored the scoring would choose the same under every scoring: each test below
compares the choices under two scorings on the same cards, and the ``*_reads_the_scoring_*``
tests change nothing but the scoring in the view the bot is given.

The bidding positions with more than one card were found by a search over seeded deals (each
legal bid valued by ``BasicBot.lookahead_bids`` with 2000 play-outs, kept where the best bid
under one scoring beats the other scoring's best by about a point or more under each), then
frozen here with their cards. The one-card and the card-play positions are provable by hand.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from typing import Any

import pytest
from helpers import bid_all, dealt, one_hand_rules, play

from ohhell import fastsim
from ohhell.actions import Action, Bid, Play
from ohhell.bots import Budget
from ohhell.bots.base import Bot
from ohhell.bots.basic import BasicBot
from ohhell.bots.people import BeginnerBot, CasualBot
from ohhell.bots.strong import StrongBot
from ohhell.cards import parse_card
from ohhell.game import State
from ohhell.views import SeatView, seat_view

needs_core = pytest.mark.skipif(not fastsim.AVAILABLE, reason="the C core is not built (basic bids by rule of thumb)")


def position(size: int, hands: list[str], turn_up: str, dealer: int, bids: list[int], scoring: str = "exact",
             trump: str = "turn-up", **knobs: Any) -> State:
    state = dealt(one_hand_rules(size, players=len(hands), trump=trump, scoring=scoring, **knobs), hands,
                  turn_up=turn_up or None, dealer=dealer)
    bid_all(state, bids)
    return state


def under(view: SeatView, **knobs: Any) -> SeatView:
    """The same view with other scoring knobs: only the rules the bot is told change."""
    return dataclasses.replace(view, rules=view.rules.replace(**knobs))


def acting_view(state: State) -> SeatView:
    assert state.turn is not None
    return seat_view(state, state.turn)


def bid_of(bot: Bot, view: SeatView) -> int:
    action = bot.choose(view)
    assert isinstance(action, Bid)
    return action.bid


# -- one card each: the chance of the trick is exact ---------------------------------------

def one_card_lead(scoring: str = "exact", **knobs: Any) -> State:
    # Seat 0 leads the king of hearts (spades trump, the 7 turned) against three unseen cards:
    # it wins unless someone holds the ace of hearts or a trump, a chance of 0.396 over every
    # deal of the unseen cards. Bid 0 is worth 10 × 0.604 = 6.04 and bid 1 11 × 0.396 = 4.36
    # under `exact`; under `7-truf` (a made zero: 5 × the one card, a miss: 1 per trick, a
    # made 1: 10) bid 0 is worth 5 × 0.604 + 0.396 = 3.42 and bid 1 3.96; with `zero_bid="5"`
    # a made zero is worth 5: 3.02 against 4.36.
    return position(1, ["KH", "2C", "3C", "4C"], "7S", dealer=3, bids=[], scoring=scoring, **knobs)


@pytest.mark.parametrize(("knobs", "right"), [
    ({"scoring": "exact"}, 0), ({"scoring": "triangular-penalty"}, 0), ({"scoring": "trick-plus-bonus"}, 0),
    ({"scoring": "7-truf"}, 1), ({"scoring": "exact", "zero_bid": "5"}, 1),
])
@pytest.mark.parametrize("bot_class", [BasicBot, StrongBot])
def test_a_one_card_bid_follows_the_scoring(bot_class: type[Bot], knobs: dict[str, Any], right: int) -> None:
    state = one_card_lead(**knobs)
    assert bid_of(bot_class(seed=1), acting_view(state)) == right


@pytest.mark.parametrize("bot_class", [BasicBot, StrongBot])
def test_basic_and_strong_read_the_scoring_from_the_view_of_a_one_card_hand(bot_class: type[Bot]) -> None:
    view = acting_view(one_card_lead("exact"))
    for knobs in ({"scoring": "7-truf"}, {"zero_bid": "5"}):
        changed = under(view, **knobs)
        assert changed == acting_view(one_card_lead(**{"scoring": "exact", **knobs}))  # a faithful change
        assert (bid_of(bot_class(seed=1), view), bid_of(bot_class(seed=1), changed)) == (0, 1)


# -- ten cards: a made zero worth 50 --------------------------------------------------------

def ten_cards_first_to_bid(scoring: str = "exact") -> State:
    # Seat 0 bids first. Played out by the heuristic in 2000 deals of the unseen cards, bid 2
    # is worth 6.47 under `exact` (bid 1: 5.45, bid 3: 5.35, bid 0: 4.07); under `7-truf` a
    # made zero of ten cards is worth 50, and bid 0 is worth 23.2 (bid 3: 13.6).
    return position(10, ["7S KS 3H 6H 8H KH 7D JD KD JC", "2S 5S 9S AS 4H 7H JH QH 5D 8C",
                         "4S 2H TH AH 3D 8D 9D TD 4C TC", "6S TS 2D 4D 6D AD 2C 5C 7C AC"], "3S", dealer=3, bids=[],
                    scoring=scoring)


@needs_core
@pytest.mark.parametrize("seed", range(1, 6))
def test_basic_bids_zero_where_a_made_zero_is_worth_fifty(seed: int) -> None:
    assert bid_of(BasicBot(seed=seed), acting_view(ten_cards_first_to_bid("exact"))) == 2
    assert bid_of(BasicBot(seed=seed), acting_view(ten_cards_first_to_bid("7-truf"))) == 0


@needs_core
def test_basic_reads_the_scoring_from_the_view_of_a_ten_card_hand() -> None:
    view = acting_view(ten_cards_first_to_bid("exact"))
    changed = under(view, scoring="7-truf")
    assert changed == acting_view(ten_cards_first_to_bid("7-truf"))
    assert [bid_of(BasicBot(seed=seed), view) for seed in range(3)] == [2, 2, 2]
    assert [bid_of(BasicBot(seed=seed), changed) for seed in range(3)] == [0, 0, 0]


# -- 10 + bid²: a big made bid is worth much more --------------------------------------------

def strong_hand_after_a_bid_of_three(scoring: str = "exact") -> State:
    # 3 players, 10 cards, clubs trump; seat 0 bid 3 and seat 1 holds three aces and the king
    # of trumps. Played out in 2000 deals: under `exact` bid 4 is worth 6.10 and bid 5 5.05;
    # under `triangular-penalty` (10 + bid² made, -5, -15, … missed) bid 5 is worth 5.72 and
    # bid 4 4.54 (a made 5 scores 35 against a made 4's 26).
    return position(10, ["2S 5S 5H QH KH AH 9D KD 8C JC", "7S TS QS AS 3H 8H TH 7C KC AC",
                         "3S 6S 8S JS 6H JH 7D 3C 5C QC"], "2C", dealer=2, bids=[3], scoring=scoring)


def long_hearts_after_a_bid_of_one(scoring: str = "exact") -> State:
    # 4 players, 10 cards, spades trump; seat 0 bid 1. Played out in 2000 deals: under `exact`
    # bid 3 is worth 6.62 and bid 4 5.91; under `triangular-penalty` bid 4 is worth 7.37 and
    # bid 3 6.40, under `german-bridge` likewise.
    return position(10, ["8S 5D TD KD 2C 7C 8C 9C TC QC", "7S 9S KS 5H 6H 9H QH 4D 5C AC",
                         "2S 3S 5S JS AH 2D 9D JD 3C JC", "4S TS 2H 3H 7H KH 3D 4C 6C KC"], "QS", dealer=3,
                    bids=[1], scoring=scoring)


SQUARED = [(strong_hand_after_a_bid_of_three, 4, 5), (long_hearts_after_a_bid_of_one, 3, 4)]


@needs_core
def test_basic_bids_higher_where_a_big_made_bid_is_worth_more() -> None:
    # The look-ahead plays out 128 deals per bid: a seed may tip a close call either way, so
    # the test counts over 20 seeds per position (measured: the lower bid 38 times of 40 under
    # `exact`, 40 under `trick-plus-bonus`; the higher 28 and 28 under the squared scorings).
    # The values were measured on deals dealt alike to every seat: the bot here does not read
    # the bid made before its own (which moves these close calls; tests/test_basic_bids.py).
    lower: Counter[str] = Counter()
    higher: Counter[str] = Counter()
    for make, low, high in SQUARED:
        for scoring in ("exact", "trick-plus-bonus", "triangular-penalty", "german-bridge"):
            view = acting_view(make(scoring))
            for seed in range(20):
                bid = bid_of(BasicBot(seed=seed, read_bids=False), view)
                lower[scoring] += bid == low
                higher[scoring] += bid == high
    assert lower["exact"] >= 34 and lower["trick-plus-bonus"] >= 34
    assert higher["triangular-penalty"] >= 22 and higher["german-bridge"] >= 22


@needs_core
def test_basic_reads_the_squared_scoring_from_the_view() -> None:
    for make, low, high in SQUARED:
        view = acting_view(make("exact"))
        changed = under(view, scoring="triangular-penalty")
        assert changed == acting_view(make("triangular-penalty"))
        # As above, on deals that do not read the bid before (the values were measured so).
        as_given = [bid_of(BasicBot(seed=seed, read_bids=False), view) for seed in range(20)]
        squared = [bid_of(BasicBot(seed=seed, read_bids=False), changed) for seed in range(20)]
        assert as_given.count(low) >= 17 and squared.count(high) >= 11, (as_given, squared)


@needs_core
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_strong_bids_higher_where_a_big_made_bid_is_worth_more(seed: int) -> None:
    # Bidding its sure tricks is right under every scoring (tests/test_search.py); here the
    # right bid depends on the scoring.
    view = acting_view(strong_hand_after_a_bid_of_three("exact"))
    assert bid_of(StrongBot(seed=seed), view) == 4
    assert bid_of(StrongBot(seed=seed), under(view, scoring="triangular-penalty")) == 5


# -- the levels named for people bid by the same scoring ---------------------------------------

@pytest.mark.parametrize("bot_class", [BeginnerBot, CasualBot])
def test_the_people_levels_weigh_their_judgement_of_the_hand_by_the_scoring(
        bot_class: type[BasicBot], monkeypatch: pytest.MonkeyPatch) -> None:
    # Whatever they misjudge, they bid the best expected score of the trick counts they
    # expect. Expecting 2 tricks with a chance of 0.55 and 3 with 0.45: under `exact` bid 2 is
    # worth 0.55 × 12 = 6.60 and bid 3 0.45 × 13 = 5.85; under `triangular-penalty` bid 2 is
    # worth 0.55 × 14 − 0.45 × 5 = 5.45 and bid 3 0.45 × 19 − 0.55 × 5 = 5.80; under
    # `trick-plus-bonus` 0.55 × 12 + 0.45 × 3 = 7.95 against 0.45 × 13 + 0.55 × 2 = 6.95.
    state = position(3, ["2C 3C 4C", "5C 6C 7C", "8C 9C TC", "KS QS 4H"], "AS", dealer=3, bids=[])
    view = acting_view(state)
    bot = bot_class(seed=1)
    monkeypatch.setattr(bot, "distribution", lambda _view: [0.0, 0.0, 0.55, 0.45])
    assert bid_of(bot, view) == 2
    assert bid_of(bot, under(view, scoring="triangular-penalty")) == 3
    assert bid_of(bot, under(view, scoring="german-bridge")) == 3
    assert bid_of(bot, under(view, scoring="trick-plus-bonus")) == 2


@pytest.mark.parametrize("bot_class", [BeginnerBot, CasualBot])
def test_the_people_levels_bid_higher_on_the_same_misjudgement_where_a_big_made_bid_is_worth_more(
        bot_class: type[Bot]) -> None:
    # Their own judgement of the hand varies with the seed; on the same seed (the same
    # misjudgement) the squared scorings never bid lower than `exact` on these hands, and
    # often higher (measured over 30 seeds on the three hands: 12 and 17 higher under
    # `triangular-penalty`, 29 and 28 under `german-bridge`, beginner and casual).
    higher: Counter[str] = Counter()
    for make in (ten_cards_first_to_bid, strong_hand_after_a_bid_of_three, long_hearts_after_a_bid_of_one):
        view = acting_view(make("exact"))
        for seed in range(30):
            as_given = bid_of(bot_class(seed=seed), view)
            for scoring in ("triangular-penalty", "german-bridge"):
                squared = bid_of(bot_class(seed=seed), under(view, scoring=scoring))
                assert squared >= as_given, (make.__name__, seed, scoring)
                higher[scoring] += squared > as_given
    assert higher["triangular-penalty"] >= 6 and higher["german-bridge"] >= 15


# -- card play: past a missed bid, more tricks or fewer --------------------------------------

def missed_a_bid_of_zero(scoring: str) -> State:
    # No trumps. The dealer (seat 2) bid 0 and had to take the first trick with its only
    # spade; it leads the second trick holding the ace of hearts and the 2 of clubs.
    # Leading the ace takes this trick for sure, and then the 2 of clubs takes the last one
    # when nobody has a club; leading the 2 first takes it in exactly those deals (and then
    # the ace takes the last), else the ace takes the last trick only when hearts are led.
    # So the ace first never takes fewer tricks and often more: right where a missed bid
    # scores 1 per trick (`trick-plus-bonus`, `7-truf`, `boerenbridge`); the 2 first never
    # takes more: right where each trick more is a bigger miss (`triangular-penalty`,
    # `german-bridge`).
    state = position(3, ["KS 5H 6D", "QS 7H 8D", "AS AH 2C"], "", dealer=2, bids=[1, 1, 0], scoring=scoring,
                     trump="none")
    play(state, "KS QS AS")
    assert state.turn == 2 and state.tricks_won[2] == 1
    return state


MORE = ("trick-plus-bonus", "7-truf", "boerenbridge")
FEWER = ("triangular-penalty", "german-bridge")
LEVELS = [BasicBot, BeginnerBot, CasualBot, StrongBot]


def card_of(bot_class: type[Bot], view: SeatView, seed: int) -> int:
    budget = Budget(iterations=400) if bot_class is StrongBot else None
    action: Action = bot_class(seed=seed, budget=budget).choose(view)
    assert isinstance(action, Play)
    return action.card


@pytest.mark.parametrize("bot_class", LEVELS)
@pytest.mark.parametrize("scoring", MORE + FEWER)
def test_past_a_missed_bid_every_level_takes_tricks_or_avoids_them_as_the_scoring_says(
        bot_class: type[Bot], scoring: str) -> None:
    right = parse_card("AH") if scoring in MORE else parse_card("2C")
    view = acting_view(missed_a_bid_of_zero(scoring))
    for seed in (1, 2, 3):
        assert card_of(bot_class, view, seed) == right


@pytest.mark.parametrize("bot_class", LEVELS)
def test_every_level_reads_the_scoring_from_the_view_in_play(bot_class: type[Bot]) -> None:
    view = acting_view(missed_a_bid_of_zero("trick-plus-bonus"))
    changed = under(view, scoring="triangular-penalty")
    assert changed == acting_view(missed_a_bid_of_zero("triangular-penalty"))
    assert card_of(bot_class, view, 1) == parse_card("AH")
    assert card_of(bot_class, changed, 1) == parse_card("2C")
