"""The proof behind a claim: never accepted wrongly, and accepted in the plain cases."""

from __future__ import annotations

import random

import pytest

from ohhell.actions import Bid, Deal, Play
from ohhell.cards import parse_card, parse_cards
from ohhell.game import Game, Phase
from ohhell.rules import preset
from ohhell.tui.claim import can_claim, masters_claim, winning_move


def dealt(hands: tuple[str, ...], turn_up: str, bids: tuple[int, ...], first_dealer: int = 2, **knobs):
    rules = preset("classic", players=len(hands), max_size=len(hands[0].split()), **knobs)
    state = Game(rules).new_initial_state(first_dealer=first_dealer)
    state.apply(Deal(tuple(tuple(parse_cards(text)) for text in hands), parse_card(turn_up)))
    n = len(hands)
    for offset in range(n):
        seat = (first_dealer + 1 + offset) % n
        state.apply(Bid(seat, bids[seat]))
    return state


def test_top_cards_and_the_most_trumps_are_proved():
    # Seat 0 holds the top spades and the ace of trumps; the others hold one trump each.
    state = dealt(("AS KS AH", "QS 2H 3C", "JS 3H 4C"), "5H", (3, 1, 0))
    assert masters_claim(state, 0)
    assert can_claim(state, 0)
    # It must draw trumps first: leading a spade would let nobody ruff here, but the proof's
    # strategy leads the trump first anyway.
    assert winning_move(state, 0) == Play(0, parse_card("AH"))


def test_a_ruff_refutes_the_claim():
    # Seat 2 has no spade and a trump: it ruffs the second spade.
    state = dealt(("AS KS", "QS JS", "3H 4C"), "5H", (2, 1, 0))
    assert not masters_claim(state, 0)
    assert not can_claim(state, 0)


def test_not_on_lead_the_trick_in_progress_is_searched():
    state = dealt(("AS KS", "QS JS", "2C 3C"), "5H", (2, 1, 0), first_dealer=0)
    # Seat 1 leads (left of the dealer) a spade; seat 0 wins it with the ace and keeps the lead.
    assert state.turn == 1
    assert can_claim(state, 0)
    assert not can_claim(state, 1)


def test_no_claim_outside_play():
    rules = preset("classic", players=3, max_size=2)
    state = Game(rules).new_initial_state(first_dealer=0)
    assert not can_claim(state, 0)


def _random_positions(count: int, seed: int):
    """Positions in the middle of random hands of small games (3 or 4 players, 1–4 cards)."""
    rng = random.Random(seed)
    made = 0
    while made < count:
        players = rng.choice((3, 4))
        name = rng.choice(("classic", "la-podrida", "oh-shit", "jokers"))
        rules = preset(name, players=players, max_size=rng.randint(1, 4))
        state = Game(rules).new_initial_state()
        while state.is_chance_node():
            state.apply(state.sample_chance(rng))
        while state.phase == Phase.BIDDING:
            legal = state.legal_actions(state.turn)
            state.apply(rng.choice(legal))
        for _ in range(rng.randrange(0, players * state.hand_size)):
            legal = [a for a in state.legal_actions(state.turn) if isinstance(a, Play)]
            state.apply(rng.choice(legal))
        if state.phase != Phase.PLAYING:
            continue
        made += 1
        yield state


def _play_out(state, seat, rng) -> bool:
    """Play the rest of the hand: ``seat`` by the proof's strategy, the others at random.
    Whether ``seat`` won every remaining trick."""
    state = state.clone()
    hand = state.hand_index
    won = state.tricks_won[seat]
    left = state.hand_size - len(state.trick_winners)
    while state.hand_index == hand and not state.is_terminal():
        if state.turn == seat:
            move = winning_move(state, seat)
            assert move is not None, "a proved claim must always have a next card"
        else:
            move = rng.choice([a for a in state.legal_actions(state.turn) if isinstance(a, Play)])
        state.apply(move)
    return state.finished_hands[-1].tricks[seat] - won == left


def _brute_force(state, seat) -> bool:
    """An independent check: does some strategy of ``seat`` win every trick left against every
    play of the others? (Plain minimax over the actual hands.)"""
    hand = state.hand_index
    won0, done0, size = state.tricks_won[seat], len(state.trick_winners), state.hand_size

    def ok(node) -> bool:
        if node.hand_index != hand:
            return node.finished_hands[-1].tricks[seat] - won0 == size - done0
        if node.tricks_won[seat] - won0 != len(node.trick_winners) - done0:
            return False
        results = []
        for move in [a for a in node.legal_actions(node.turn) if isinstance(a, Play)]:
            node.apply(move)
            results.append(ok(node))
            node.undo()
        return any(results) if node.turn == seat else all(results)

    return ok(state.clone())


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_proof_agrees_with_brute_force_and_its_strategy_wins(seed):
    rng = random.Random(seed)
    proved = 0
    for state in _random_positions(150, seed):
        for seat in range(state.num_players):
            expected = _brute_force(state, seat)
            assert can_claim(state, seat) == expected, (state, seat)
            if expected:
                proved += 1
                assert _play_out(state, seat, rng)
    assert proved > 0
