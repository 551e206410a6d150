"""Helpers to set up positions by hand in tests."""

from __future__ import annotations

import random
from typing import Any

from ohhell import Bid, Deal, Game, Play, Rules, State, parse_card, parse_cards, preset
from ohhell.rules import HandPlan


def one_hand_rules(size: int, players: int = 4, trump: str = "turn-up", **knobs: Any) -> Rules:
    """Rules of a game of exactly one hand of ``size`` cards."""
    return preset("classic", players=players, schedule="explicit", hands=(HandPlan(size, trump),), **knobs)


def dealt(rules: Rules, hands: list[str], turn_up: str | None = None, dealer: int = 0) -> State:
    """A state right after a known deal (``hands``: one text of cards per seat)."""
    state = Game(rules).new_initial_state(first_dealer=dealer)
    state.apply(Deal(tuple(tuple(parse_cards(text)) for text in hands),
                     parse_card(turn_up) if turn_up else None))
    return state


def bid_all(state: State, bids: list[int]) -> None:
    """Bid in bidding order."""
    for bid in bids:
        seat = state.turn
        assert seat is not None
        state.apply(Bid(seat, bid))


def play(state: State, cards: str) -> None:
    """Play cards in order, each by the seat on turn."""
    for card in parse_cards(cards):
        seat = state.turn
        assert seat is not None
        state.apply(Play(seat, card))


def random_state(rules: Rules, seed: int, steps: int) -> State:
    """A state after ``steps`` random actions (fewer if the game ends)."""
    rng = random.Random(seed)
    state = Game(rules).new_initial_state()
    for _ in range(steps):
        if state.is_terminal():
            break
        if state.is_chance_node():
            state.apply(state.sample_chance(rng))
        else:
            legal = state.legal_actions()
            state.apply(legal[rng.randrange(len(legal))])
    return state
