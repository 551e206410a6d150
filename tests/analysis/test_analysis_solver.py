"""The open-hand solver against brute force over the reference engine's states, and on
positions solved by hand, under every rule that changes the card play."""

from __future__ import annotations

import random
from functools import cache

import pytest
from helpers import bid_all, dealt, one_hand_rules, play

from ohhell import Deal, Game, Rules, State, preset
from ohhell.actions import Declare
from ohhell.analysis import solver
from ohhell.analysis.solver import OpenHand, SearchLimitReached, can_force, forcible, reachable
from ohhell.cards import SUIT_MASKS, mask_of, parse_cards
from ohhell.game import Phase
from ohhell.rules import HandPlan

IMPLEMENTATIONS = ["python", *(["c"] if solver.NATIVE else [])]


def brute_force_all(state: State) -> list[tuple[frozenset[int], frozenset[int]]]:
    """For every seat, (forcible, reachable) counts by trying every line on engine states."""
    hand = state.hand_index
    n = state.num_players

    def outcomes(st: State) -> list[tuple[frozenset[int], frozenset[int]]]:
        if st.hand_index != hand or st.is_terminal():
            tricks = st.finished_hands[hand].tricks
            return [(frozenset({tricks[p]}), frozenset({tricks[p]})) for p in range(n)]
        actor = st.turn
        assert actor is not None
        results = []
        for action in st.legal_actions(actor):
            child = st.clone()
            child.apply(action)
            results.append(outcomes(child))
        out = []
        for seat in range(n):
            reach = frozenset().union(*(r[seat][1] for r in results))
            if actor == seat:
                force = frozenset().union(*(r[seat][0] for r in results))
            else:
                force = frozenset.intersection(*(r[seat][0] for r in results))
            out.append((force, reach))
        return out

    return outcomes(state)


def brute_force(state: State, seat: int) -> tuple[frozenset[int], frozenset[int]]:
    return brute_force_all(state)[seat]


def one_hand(players: int, size: int, plan_trump: str = "turn-up", **knobs: object) -> Rules:
    return preset("classic", players=players, schedule="explicit", hands=(HandPlan(size, plan_trump),),
                  **knobs)  # type: ignore[arg-type]


def position_in_play(rules: Rules, rng: random.Random, cards_left: int, turn_joker: bool = False) -> State:
    """A random deal of a one-hand game, random bids and random cards until the seat to
    play holds ``cards_left`` cards (a random moment of the trick)."""
    n = rules.players
    size = rules.hand_plan(0).size  # type: ignore[union-attr]
    deck = [card for card in range(54) if rules.deck_mask >> card & 1]
    while True:
        rng.shuffle(deck)
        turns_up = rules.hand_plan(0).trump.startswith("turn-up")  # type: ignore[union-attr]
        if turn_joker and turns_up:
            joker = rng.choice([52, 53])
            rest = [card for card in deck if card != joker]
            cards, turn_up = rest[:n * size], joker
        else:
            cards, turn_up = deck[:n * size], (deck[n * size] if turns_up else None)
        state = Game(rules).new_initial_state(first_dealer=rng.randrange(n))
        state.apply(Deal(tuple(tuple(cards[i * size:(i + 1) * size]) for i in range(n)), turn_up))
        stop_in_trick = rng.randrange(n)
        while not state.is_terminal():
            actor = state.turn if state.turn is not None else state.actors()[0]
            if (state.phase == Phase.PLAYING and len(state.hand(actor)) == cards_left
                    and len(state.current_trick()) == stop_in_trick):
                return state
            legal = state.legal_actions(actor)
            state.apply(legal[rng.randrange(len(legal))])


RULES: list[tuple[str, Rules, int, bool]] = [
    # (what it covers, rules, cards left, turn a joker)
    ("trump", one_hand(4, 5), 3, False),
    ("three players", one_hand(3, 6), 3, False),
    ("no trump", one_hand(4, 5, "none"), 3, False),
    ("must-trump", one_hand(4, 5, must_trump=True), 3, False),
    ("must-trump, five players", one_hand(5, 4, must_trump=True), 2, False),
    ("32 cards", one_hand(4, 4, deck="32"), 3, False),
    ("own-suit jokers", one_hand(4, 5, deck="54"), 3, False),
    ("a turned joker", one_hand(4, 5, deck="54"), 3, True),
    ("high-low jokers", one_hand(4, 4, "H", deck="54", jokers="high-low"), 3,
     False),
    ("high-low jokers, first trick", one_hand(3, 3, "S", deck="54",
                                              jokers="high-low"), 3, False),
    ("high-low jokers, no trump", one_hand(5, 3, "none", deck="54",
                                           jokers="high-low"), 2, False),
]


@cache
def cases() -> list[tuple[str, State, list[tuple[frozenset[int], frozenset[int]]]]]:
    rng = random.Random(11)
    out = []
    for name, rules, left, turn_joker in RULES:
        for _ in range(10):
            state = position_in_play(rules, rng, left, turn_joker)
            out.append((name, state, brute_force_all(state)))
    return out


@pytest.mark.parametrize("implementation", IMPLEMENTATIONS)
def test_solver_agrees_with_brute_force(implementation: str) -> None:
    checked = 0
    for name, state, expected in cases():
        position = OpenHand.from_state(state)
        for seat, (force, reach) in enumerate(expected):
            assert forcible(position, seat, implementation=implementation) == force, (name, state, seat)  # type: ignore[arg-type]
            assert reachable(position, seat, implementation=implementation) == reach, (name, state, seat)  # type: ignore[arg-type]
            checked += 1
    assert checked > 350


def test_the_cases_cover_the_rules_that_change_the_play() -> None:
    states = [state for _name, state, _expected in cases()]
    jokers = 3 << 52
    assert any(s.rules.high_low_jokers and s.joker_high is None and any(h & jokers for h in s.hands) for s in states)
    assert any(s.rules.high_low_jokers and s.joker_high is not None and any(h & jokers for h in s.hands)
               for s in states)
    assert any(s.rules.high_low_jokers and not s.trick_winners and any(h & jokers for h in s.hands)
               for s in states)
    assert any(s.rules.must_trump for s in states)
    assert any(s.trump is None for s in states)
    assert any(s.turn_up is not None and s.turn_up >= 52 for s in states)
    assert any(not s.rules.high_low_jokers and any(h & jokers for h in s.hands) for s in states)
    assert any(s.current_trick() for s in states) and any(not s.current_trick() for s in states)
    # The answers are not all alike: some seats can force a count, some only reach it.
    answers = [pair for _name, _state, expected in cases() for pair in expected]
    assert any(force for force, _reach in answers) and any(reach - force for force, reach in answers)


@pytest.mark.skipif(not solver.NATIVE, reason="the C solver is not built")
def test_c_and_python_agree_on_larger_random_deals() -> None:
    rng = random.Random(3)
    for index in range(40):
        players = rng.choice([3, 4, 5])
        size = rng.choice([4, 5]) if players < 5 else 4
        cards = rng.sample(range(52), players * size + 1)
        hands = tuple(mask_of(cards[i * size:(i + 1) * size]) for i in range(players))
        trump = SUIT_MASKS[cards[-1] // 13] if index % 4 else 0
        position = OpenHand(players=players, hands=hands, trump=trump, leader=rng.randrange(players),
                            must_trump=index % 5 == 0)
        seat = rng.randrange(players)
        assert forcible(position, seat, implementation="c") == forcible(position, seat, implementation="python")
        assert reachable(position, seat, implementation="c") == reachable(position, seat, implementation="python")


def _position(hands: list[str], trump_suit: int | None, leader: int, **knobs: object) -> OpenHand:
    trump = SUIT_MASKS[trump_suit] if trump_suit is not None else 0
    return OpenHand(players=len(hands), hands=tuple(mask_of(parse_cards(text)) for text in hands), trump=trump,
                    leader=leader, **knobs)  # type: ignore[arg-type]


@pytest.mark.parametrize("implementation", IMPLEMENTATIONS)
def test_hand_solved_trump_position(implementation: str) -> None:
    # Spades trump, seat 0 leads. Leading the ace of hearts lets seat 2 choose: ruff (seat 0
    # takes nothing) or discard (seat 0 takes the ace, then loses the diamond to the lone
    # trump). Leading the 2 of diamonds loses both. So seat 0 forces 0 and may reach 1;
    # seat 2 forces 2 (it ruffs the ace, or wins the diamond and then the queen of trumps).
    position = _position(["AH 2D", "KH 3D", "QS 4D"], 0, 0)
    assert forcible(position, 0, implementation=implementation) == {0}  # type: ignore[arg-type]
    assert reachable(position, 0, implementation=implementation) == {0, 1}  # type: ignore[arg-type]
    assert forcible(position, 2, implementation=implementation) == {2}  # type: ignore[arg-type]
    assert forcible(position, 1, implementation=implementation) == {0}  # type: ignore[arg-type]


@pytest.mark.parametrize("implementation", IMPLEMENTATIONS)
def test_hand_solved_no_trump_position(implementation: str) -> None:
    # No trump, seat 0 leads. Ace of spades first: seat 0 wins it, and seat 2 decides the
    # second trick (keep the 4 of hearts to beat the 2, or throw it on the ace): 1 or 2.
    # The 2 of hearts first: seat 2 wins it and then the 5 of diamonds: 0. So seat 0
    # forces only 0 and reaches 0, 1, 2; seat 2 cannot force anything (seat 0 chooses
    # between 2 and what seat 2 chooses, 0 or 1); seat 1 never takes a trick.
    position = _position(["AS 2H", "KS 3D", "4H 5D"], None, 0)
    assert forcible(position, 0, implementation=implementation) == {0}  # type: ignore[arg-type]
    assert reachable(position, 0, implementation=implementation) == {0, 1, 2}  # type: ignore[arg-type]
    assert forcible(position, 2, implementation=implementation) == set()  # type: ignore[arg-type]
    assert reachable(position, 2, implementation=implementation) == {0, 1, 2}  # type: ignore[arg-type]
    assert forcible(position, 1, implementation=implementation) == {0}  # type: ignore[arg-type]
    assert reachable(position, 1, implementation=implementation) == {0}  # type: ignore[arg-type]


@pytest.mark.parametrize("implementation", IMPLEMENTATIONS)
def test_must_trump_changes_the_answer(implementation: str) -> None:
    # Spades trump, seat 0 leads a heart; seat 1 holds no heart, the 2 of trumps and a
    # diamond. Free to discard, seat 1 ruffs (and then wins the diamond: 2) or throws the
    # diamond (and ruffs the last heart: 1). Under must-trump it must ruff: 2.
    hands = ["AH 4H", "2S 5D", "3H 6H"]
    assert forcible(_position(hands, 0, 0), 1, implementation=implementation) == {1, 2}  # type: ignore[arg-type]
    assert forcible(_position(hands, 0, 0, must_trump=True), 1,
                    implementation=implementation) == {2}  # type: ignore[arg-type]
    assert reachable(_position(hands, 0, 0, must_trump=True), 1,
                     implementation=implementation) == {2}  # type: ignore[arg-type]


@pytest.mark.parametrize("implementation", IMPLEMENTATIONS)
def test_high_low_joker_declaration(implementation: str) -> None:
    # NE-Blackout jokers, hearts trump, second trick (jokers may be played). Seat 1 holds
    # the red joker and may play it to any trick: declared high it wins, low it loses.
    position = OpenHand(players=3, hands=(mask_of(parse_cards("AH 2C")), mask_of(parse_cards("X1 3C")),
                                          mask_of(parse_cards("4C 5C"))),
                        trump=SUIT_MASKS[1], leader=0, tricks=(1, 0, 0), high_low=True)
    assert forcible(position, 1, implementation=implementation) == {0, 1}  # type: ignore[arg-type]
    # Once the first joker of the hand was declared low, the second is high: it always wins.
    later = OpenHand(players=3, hands=(mask_of(parse_cards("AH 2C")), mask_of(parse_cards("X2 3C")),
                                       mask_of(parse_cards("4C 5C"))),
                     trump=SUIT_MASKS[1], leader=0, tricks=(1, 0, 0), high_low=True, joker_high=False,
                     first_joker=52)
    assert 1 in forcible(later, 1, implementation=implementation)  # type: ignore[arg-type]
    assert 0 not in reachable(later, 1, implementation=implementation)  # type: ignore[arg-type]


def test_can_force_and_limit() -> None:
    position = _position(["AH 2D", "KH 3D", "QS 4D"], 0, 0)
    assert can_force(position, 2, 2) and not can_force(position, 0, 1)
    rng = random.Random(1)
    cards = rng.sample(range(52), 41)
    big = OpenHand(players=4, hands=tuple(mask_of(cards[i * 10:(i + 1) * 10]) for i in range(4)),
                   trump=SUIT_MASKS[cards[-1] // 13], leader=0)
    with pytest.raises(SearchLimitReached):
        reachable(big, 0, limit=50)


def test_from_state_needs_card_play() -> None:
    state = dealt(one_hand_rules(2, players=3), ["AS 2S", "KS 3S", "QS 4S"], "5H")
    with pytest.raises(ValueError, match="card play"):
        OpenHand.from_state(state)
    bid_all(state, [1, 0, 0])
    play(state, "KS")
    position = OpenHand.from_state(state)
    assert position.leader == 1 and position.trick == tuple(parse_cards("KS"))
    for seat in range(3):
        assert (forcible(position, seat), reachable(position, seat)) == brute_force(state, seat)


def test_bad_positions_are_refused() -> None:
    with pytest.raises(ValueError):
        OpenHand(players=3, hands=(1, 2), trump=0, leader=0)
    with pytest.raises(ValueError):
        forcible(_position(["AH", "KH", "QH"], 0, 0), 5)
    if solver.NATIVE:
        twice = OpenHand(players=3, hands=(1, 1, 2), trump=0, leader=0)
        with pytest.raises(ValueError):
            forcible(twice, 0, implementation="c")


def test_declare_is_a_move_of_the_engine_too() -> None:
    # The brute force sees declarations as Declare actions: check that the engine asks.
    assert Declare(0, True) != Declare(0, False)
