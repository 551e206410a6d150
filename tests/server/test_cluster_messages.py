"""Every message that crosses the broker survives its trip as JSON (``ohhell.server.cluster.messages``)."""

from __future__ import annotations

import orjson

from ohhell.server.cluster.messages import (
    Beat,
    Command,
    Done,
    Failed,
    Gone,
    Joined,
    Presence,
    Sync,
    Told,
    Update,
    answer_from_json,
    event_from_json,
    request_from_json,
)
from ohhell.server.storage.kinds import SeatKind
from ohhell.server.storage.store import SeatRow


def trip(data: dict[str, object], **envelope: object) -> dict[str, object]:
    """As the broker carries it: encoded, with its envelope added, decoded."""
    decoded = orjson.loads(orjson.dumps({**data, "sent": 1.5, **envelope}))
    assert isinstance(decoded, dict)
    return decoded


def test_table_events_round_trip() -> None:
    seats = [SeatRow(0, SeatKind.HUMAN, None, "Ann", "f00"), SeatRow(1, SeatKind.BOT, "basic", None, None)]
    for event in (Update(4, 6, {"code": "ABCDEF"}, [{"type": "bid", "seat": 0, "bid": 1}], "playing",
                         {"timer": 0.0}, seats),
                  Update(to=9), Update(0, 0), Told({"type": "chat", "text": "hi"}), Beat(12), Gone()):
        assert event_from_json(trip(event.to_json())) == event
    assert event_from_json({"t": "from-a-newer-version"}) is None


def test_requests_and_answers_round_trip() -> None:
    for request in (Presence("ABCDEF", {0: 1, 2: 3}, 4, watching=False), Sync("ABCDEF"),
                    Command("ABCDEF", "act", 0, "uk", None, "m-1", {"version": 3, "action": {"type": "bid"}}),
                    Command("ABCDEF", "chat", None, "en", "Rail", None, {"text": "hi"})):
        assert request_from_json(trip(request.to_json(), **{"from": "abc", "rid": "abc-1"})) == request
    for answer in (Done(), Joined(2, "token"), Failed("protocol", code="stale", detail="x"),
                   Failed("refused", message="no open seat"), Failed("not-owner"), Update(3, 3, {}, [], "waiting")):
        assert answer_from_json(trip(answer.to_json(), re="abc-1")) == answer
