"""The ``state`` messages a connection receives add up, message after message, to exactly what
its own view says (``SeatView.to_json()``, the engine's own JSON), for every seat and a
spectator, through whole games of several variants — although each message carries only
what changed and a broadcast works out what several connections share only once."""

from __future__ import annotations

import random
from typing import Any

import orjson
import pytest

from ohhell.game import Game, State
from ohhell.rules import preset
from ohhell.server.wire.protocol import dumps
from ohhell.server.wire.stream import STATE_FIELDS, Broadcast, HandCache, StateStream
from ohhell.views import SeatView, seat_view, seat_views

SHORT_HAND = ("index", "dealer", "size", "trump", "turn_up", "bids", "tricks", "scores", "totals")
"""A finished hand in a ``state`` message: the score sheet's row, without the cards (``history`` has those)."""


def expected(view: SeatView, table: dict[str, Any]) -> dict[str, Any]:
    """What a connection must know: the view's own JSON but the rules (in ``welcome``) and
    ``scoresheet``, finished hands as score sheet rows, and the table."""
    data = view.to_json()
    del data["rules"], data["scoresheet"]
    data["finished_hands"] = [{key: hand[key] for key in SHORT_HAND} for hand in data["finished_hands"]]
    data["table"] = table
    assert set(data) == {*STATE_FIELDS, "table"}
    return data


def random_step(state: State, rng: random.Random) -> None:
    if state.is_chance_node():
        state.apply(state.sample_chance(rng))
        return
    state.apply(rng.choice([action for seat in state.actors() for action in state.legal_actions(seat)]))


@pytest.mark.parametrize(("name", "players", "knobs"), [
    ("classic", 4, {}),
    ("classic", 3, {"bidding": "simultaneous", "hook": False, "bid_changes": False}),
    ("devils-bridge", 3, {}),
    ("jokers", 4, {}),
    ("ne-blackout", 5, {}),
    ("bust", 6, {}),  # two identical cards in a hand or a trick: the same name twice
])
def test_messages_add_up_to_each_seats_view(name: str, players: int, knobs: dict[str, Any]) -> None:
    rng = random.Random(f"{name}{players}")
    state = Game(preset(name, players=players, **knobs)).new_initial_state()
    # Every seat, a spectator, and a second page of seat 0 that is not told every time.
    viewers: list[int | None] = [*range(players), None, 0]
    streams = [StateStream() for _ in viewers]
    known: list[dict[str, Any]] = [{} for _ in viewers]
    hands = HandCache()
    table: dict[str, Any] = {"status": "playing", "seats": []}
    steps = 0
    while not state.is_terminal() and steps < 400:
        if steps % 37 == 5:  # the table itself changes now and then (a seat goes offline…)
            table = {"status": "playing", "seats": [steps]}
        if steps == 60:  # a page is reloaded: its new connection starts from nothing
            streams[1], known[1] = StateStream(), {}
        order = list(dict.fromkeys(viewers))
        rng.shuffle(order)
        views = dict(zip(order, seat_views(state, order), strict=True))
        shared = Broadcast(hands, table)
        for index, viewer in enumerate(viewers):
            if index == len(viewers) - 1 and steps % 3:
                continue  # this page is told only now and then: it must catch up on everything
            message = streams[index].message(views[viewer], shared)
            if message is None:
                continue
            assert message["full"] == (not known[index])
            decoded = orjson.loads(dumps(message))  # as a client reads it
            assert decoded["version"] == views[viewer].version
            known[index].update(decoded["changes"])
            assert known[index] == expected(views[viewer], table), (viewer, steps)
        random_step(state, rng)
        steps += 1
    assert steps > 60


def test_nothing_changed_sends_nothing() -> None:
    state = Game(preset("classic", players=3)).new_initial_state()
    random_step(state, random.Random(1))
    stream, hands, table = StateStream(), HandCache(), {"status": "playing"}
    assert stream.message(seat_view(state, 0), Broadcast(hands, table)) is not None
    assert stream.message(seat_view(state, 0), Broadcast(hands, table)) is None
    assert stream.message(seat_view(state, 0), Broadcast(hands, {"status": "finished"})) is not None


def test_only_what_changed_is_sent() -> None:
    state = Game(preset("classic", players=4)).new_initial_state()
    rng = random.Random(2)
    while state.is_chance_node():
        random_step(state, rng)
    streams, hands, table = [StateStream() for _ in range(4)], HandCache(), {"status": "playing"}
    shared = Broadcast(hands, table)
    for seat, view in enumerate(seat_views(state, range(4))):
        streams[seat].message(view, shared)
    bidder = state.turn
    assert bidder is not None
    state.apply(state.legal_actions(bidder)[0])
    shared = Broadcast(hands, table)
    messages = [streams[seat].message(view, shared) for seat, view in enumerate(seat_views(state, range(4)))]
    for seat, message in enumerate(messages):
        assert message is not None and not message["full"]
        changes = message["changes"]
        assert "hand" not in changes and "table" not in changes and "finished_hands" not in changes
        assert changes["version"] == state.history.__len__()
        assert changes["bids"][bidder] is not None
        assert changes.keys() <= {"version", "bids", "has_bid", "turn", "actors", "legal_actions", "can_change_bid",
                                  "forbidden_bid", "bidding_complete"}, (seat, changes)
