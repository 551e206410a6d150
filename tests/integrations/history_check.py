"""The ``history`` segment of a perfect-recall observation, read back, and the same history
taken from the engine's own actions and tricks (never from a view), to compare the two.

A hand is ``(bids, tricks, trump, turn_up)`` with ``tricks`` a list of ``(leader, cards,
winner)``: ``cards`` the ``(seat, card)`` pairs in seat order, ``winner`` ``None`` for the
trick in progress. Seats are absolute.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ohhell.actions import Play
from ohhell.game import State
from ohhell.integrations.core import CARD_IDS
from ohhell.integrations.encoding import ObservationEncoder

Trick = tuple[int, list[tuple[int, int]], int | None]
Hand = tuple[tuple[int | None, ...], list[Trick], int | None, int | None]


def decoded_history(encoder: ObservationEncoder, vector: Any, seat: int) -> list[Hand]:
    """The hands in the ``history`` segment of ``vector``, observed by ``seat``."""
    n, largest = encoder.players, encoder.largest
    width = largest + 1
    blocks = encoder.views_of(np.asarray(vector, np.float32))["history"]
    hands: list[Hand] = []
    shapes = [(n, width), (largest, n, CARD_IDS), (largest, n), (largest, n), (6,), (CARD_IDS,)]
    ends = np.cumsum([int(np.prod(shape)) for shape in shapes]).tolist()
    assert ends[-1] == encoder.history_block
    for block in blocks:
        bids_part, tricks_part, leaders_part, winners_part, trump_part, turn_up_part = (
            block[end - int(np.prod(shape)):end].reshape(shape) for shape, end in zip(shapes, ends, strict=True))
        assert set(np.unique(block).tolist()) <= {0.0, 1.0}
        if not trump_part.any():  # a hand not reached yet: an empty block
            assert not block.any()
            continue
        absolute = [(relative + seat) % n for relative in range(n)]
        bids = [None] * n
        for relative, row in enumerate(bids_part):
            assert row.sum() <= 1
            if row.any():
                bids[absolute[relative]] = int(np.argmax(row))
        tricks: list[Trick] = []
        for number in range(largest):
            cards = sorted((absolute[relative], int(card)) for relative, card in zip(*np.nonzero(tricks_part[number]),
                                                                                     strict=True))
            if not cards:
                assert not leaders_part[number].any() and not winners_part[number].any()
                continue
            assert leaders_part[number].sum() == 1 and winners_part[number].sum() <= 1
            leader = absolute[int(np.argmax(leaders_part[number]))]
            winner = absolute[int(np.argmax(winners_part[number]))] if winners_part[number].any() else None
            tricks.append((leader, cards, winner))
        trump_index = int(np.argmax(trump_part))
        turn_up = int(np.argmax(turn_up_part)) if turn_up_part.any() else None
        hands.append((tuple(bids), tricks, None if trump_index == 5 else trump_index, turn_up))
    return hands


def engine_history(state: State) -> list[Hand]:
    """Every hand so far as the engine played it: its bids, each trick's cards (from the
    ``Play`` actions in the state's history), leader and winner (the engine's), its trump."""
    n = state.num_players
    plays = [(action.seat, action.card) for action in state.history if isinstance(action, Play)]
    hands: list[Hand] = []
    used = 0
    for result in state.finished_hands:
        count = n * result.size
        hand_plays, used = plays[used:used + count], used + count
        assert result.plays == tuple(card for _seat, card in hand_plays)
        tricks: list[Trick] = [(hand_plays[start][0], sorted(hand_plays[start:start + n]),
                                result.trick_winners[start // n]) for start in range(0, count, n)]
        hands.append((tuple(result.bids), tricks, result.trump, result.turn_up))
    current = plays[used:]
    completed = state.completed_tricks()
    tricks = []
    for number, start in enumerate(range(0, len(current), n)):
        cards = current[start:start + n]
        if number < len(completed):
            leader, engine_cards, winner = completed[number]
            assert engine_cards == cards and leader == cards[0][0]
            tricks.append((leader, sorted(cards), winner))
        else:
            assert cards == state.current_trick()
            tricks.append((cards[0][0], sorted(cards), None))
    hands.append((tuple(state.bids), tricks, state.trump, state.turn_up))
    return hands
