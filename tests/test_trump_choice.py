"""The bots' choice of trump as the highest bidder (ohhell.bots.trump_choice)."""

from __future__ import annotations

import pytest

from ohhell import Game, Phase, State, preset
from ohhell.actions import ChooseTrump, Deal, make_bid
from ohhell.bots import make_bot
from ohhell.bots.driver import play_game
from ohhell.bots.trump_choice import choose_trump, trump_estimates
from ohhell.cards import mask_of, parse_cards
from ohhell.views import seat_view

HANDS = (
    "AH KH QH JH TH 9H 2S 3D 4C 5C",  # seat 0: hearts
    "AS KS QS JS TS 9S 2H 3H 4D 5D",  # seat 1: spades
    "AD KD QD JD TD 9D 2C 3C 4S 5S",  # seat 2: diamonds
    "AC KC QC JC TC 9C 8H 7H 6D 7D",  # seat 3: clubs
)


def chosen_state(bids: list[int], hands: tuple[str, ...] = HANDS) -> State:
    """Dealer 3, so seats bid 0, 1, 2, 3 in that order."""
    state = Game(preset("okuneff", players=4, schedule="down", max_size=10)).new_initial_state(first_dealer=3)
    state.apply(Deal(tuple(tuple(parse_cards(text)) for text in hands)))
    for seat, bid in enumerate(bids):
        state.apply(make_bid(seat, bid))
    assert state.phase == Phase.CHOOSING_TRUMP
    return state


def test_the_estimates_favour_the_long_strong_suit() -> None:
    estimates = trump_estimates(preset("okuneff"), mask_of(parse_cards(HANDS[0])), 10)
    assert max(estimates, key=estimates.__getitem__) == 1
    assert estimates[1] > estimates[0] + 2


@pytest.mark.parametrize("level", ["basic", "strong", "beginner", "casual"])
def test_a_high_bidder_chooses_its_long_suit(level: str) -> None:
    state = chosen_state([6, 2, 2, 1])
    view = seat_view(state, 0)
    assert make_bot(level, seed=1).choose(view) == ChooseTrump(0, 1)


def test_a_low_highest_bid_chooses_a_suit_it_is_short_in() -> None:
    # Everyone bid 0: seat 0 chooses, and hearts (its six) would win it tricks it does not want.
    state = chosen_state([0, 0, 0, 1], hands=(HANDS[0], HANDS[1], HANDS[2], HANDS[3]))
    state.undo()
    state.apply(make_bid(3, 0))
    assert state.trump_chooser == 0
    choice, values = choose_trump(seat_view(state, 0))
    assert choice.suit != 1 and values[choice.suit] > values[1]


def test_the_suggestion_gives_each_suit_its_value() -> None:
    suggestion = make_bot("strong", seed=1).suggest(seat_view(chosen_state([6, 2, 2, 1]), 0))
    assert suggestion.action == ChooseTrump(0, 1)
    assert set(suggestion.estimates) == {"trump S", "trump H", "trump D", "trump C"}


@pytest.mark.parametrize("level", ["random", "beginner", "basic", "learned"])
def test_every_bot_plays_a_whole_game_of_okuneff(level: str) -> None:
    rules = preset("okuneff", players=3, schedule="down", max_size=5)
    state = play_game(rules, [make_bot(level, seed=seat) for seat in range(3)], seed=2)
    assert state.is_terminal()
    assert all(hand.trump_chooser is not None and hand.trump is not None for hand in state.finished_hands)


def test_the_strong_bot_plays_a_short_game_of_okuneff() -> None:
    rules = preset("okuneff", players=3, schedule="down", max_size=3)
    state = play_game(rules, [make_bot("strong", seed=seat) for seat in range(3)], seed=2)
    assert state.is_terminal()


def test_the_arena_plays_okuneff() -> None:
    from ohhell.arena import run_arena

    rules = preset("okuneff", players=3, schedule="down", max_size=3)
    result = run_arena(rules, ["basic", "random", "random"], games=2, seed=1)
    assert result.games_played == 6


def test_the_analysis_reads_an_okuneff_game_and_skips_the_choice() -> None:
    from ohhell.analysis import analyze_record
    from ohhell.analysis.game_analysis import MIN_BUDGET
    from ohhell.record import record_from_state

    rules = preset("okuneff", players=3, schedule="down", max_size=2)
    state = play_game(rules, [make_bot("basic", seed=seat) for seat in range(3)], seed=4)
    analysis = analyze_record(record_from_state(state), budget=MIN_BUDGET)
    kinds = {decision["kind"] for hand in analysis["hands"] for decision in hand["decisions"]}
    assert kinds <= {"bid", "play"} and "bid" in kinds


def test_suggest_describes_a_trump_choice() -> None:
    from ohhell.bots.cli import format_suggestion, suggest_for_state

    state = chosen_state([6, 2, 2, 1])
    seat, suggestion = suggest_for_state(state, "basic")
    text = format_suggestion(seat, suggestion, seat_view(state, seat))
    assert seat == 0 and "choose hearts as trump" in text
