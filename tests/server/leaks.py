"""The leak check: for every message a connection received, no card it may not see.

The truth comes from the table's stored action log (the server's database), replayed
through the engine independently of the server: at each version, the cards hidden from each
seat are the other players' cards in hand and the undealt stock (in a blind Devil's Bridge
hand: the seat's own card and the stock); a spectator sees no hand at all. A message is
checked against the version it carries.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from ohhell.actions import action_from_json
from ohhell.cards import card_name, cards_of
from ohhell.game import Game, Phase, State
from ohhell.rules import Rules

CARD = re.compile(r"^(?:[2-9TJQKA][SHDC]|X[12])$")
DEALT_PHASES = (Phase.BIDDING, Phase.PLAYING, Phase.DECLARING)


def _hidden(state: State, viewer: int | None) -> set[str]:
    deck = {card_name(card) for card in state.game.deck}
    if state.phase not in DEALT_PHASES:
        # Nobody holds cards; the shuffled pack is secret: no current-hand card may be named.
        return deck if state.phase in (Phase.SHUFFLE, Phase.CUT) and state.pack else set()
    hands = {seat: {card_name(card) for card in cards_of(state.hands[seat])} for seat in range(state.num_players)}
    dealt = {card_name(card) for cards in (state.deal or ()) for card in cards}
    stock = deck - dealt - ({card_name(state.turn_up)} if state.turn_up is not None else set())
    if viewer is None:
        return stock | set().union(*hands.values())
    if state.is_blind_hand:
        return stock | hands[viewer]
    return stock | set().union(*(cards for seat, cards in hands.items() if seat != viewer))


class Truth:
    """The real game at every version, from the stored action log."""

    def __init__(self, rules: Rules, actions: list[dict[str, Any]], seats: int) -> None:
        self.hidden: list[dict[int | None, set[str]]] = []
        self.finished: list[int] = []
        self.secret_bids: list[bool] = []
        self.draws: list[list[list[Any]]] = []
        state = Game(rules).new_initial_state()
        viewers: list[int | None] = [*range(seats), None]
        for index in range(len(actions) + 1):
            self.hidden.append({viewer: _hidden(state, viewer) for viewer in viewers})
            self.finished.append(len(state.finished_hands))
            self.draws.append([[seat, card_name(card)] for seat, card in state.draws])
            self.secret_bids.append(rules.bidding == "simultaneous" and state.phase == Phase.BIDDING)
            if index < len(actions):
                state.apply(action_from_json(actions[index]))
        self.final = state


def _strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield key
            yield from _strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item)


def check_messages(truth: Truth, viewer: int | None, messages: list[dict[str, Any]]) -> int:
    """Assert that no message to ``viewer`` names a card hidden from it; returns how many
    messages carried a version (and so were checked)."""
    checked = 0
    for message in messages:
        version = message.get("version")
        if version is None:
            assert not any(CARD.match(text) for text in _strings(message)), message
            continue
        checked += 1
        hidden = truth.hidden[version][viewer]
        body = dict(message)
        if message["type"] == "state":
            changes = dict(message["changes"])
            finished = changes.pop("finished_hands", None)
            # The cut for the first deal was seen by everyone (the cards go back to the pack).
            draws = changes.pop("draws", None)
            if draws is not None:
                assert draws == truth.draws[version], (version, draws)
            if finished is not None:
                assert len(finished) == truth.finished[version], (version, message)
            if "bids" in changes and truth.secret_bids[version]:
                others = [bid for seat, bid in enumerate(changes["bids"]) if seat != viewer]
                assert all(bid is None for bid in others), (viewer, version, changes["bids"])
            body["changes"] = changes
        elif message["type"] == "history":
            assert all(hand["index"] < truth.finished[version] for hand in message["hands"])
            assert len(message["hands"]) == truth.finished[version]
            body.pop("hands")
        leaked = {text for text in _strings(body) if CARD.match(text)} & hidden
        assert not leaked, f"seat {viewer} was sent hidden cards {sorted(leaked)} at version {version}: {message}"
    return checked
