"""The fault harness (ohhell.server.cluster.nemesis): its checker finds each kind of anomaly in
made-up histories, and a short run of every fault on real hosts (network namespaces) finds none.

The long run is ``benchmarks/nemesis.py`` (docs/architecture.md, "Faults across hosts")."""

from __future__ import annotations

import asyncio
import random
import time
from typing import Any

import pytest

import ohhell
from ohhell.actions import action_to_json
from ohhell.record import record_from_state
from ohhell.server.cluster import nemesis
from ohhell.server.cluster.nemesis import WATCHED, Client, Event, Fault, check
from ohhell.views import seat_view
from tests.server.conftest import need


def played_game(seed: int) -> tuple[dict[str, Any], list[Client]]:
    """A whole random game, its record, and four clients whose histories saw every version of it
    and sent every move of their seat (as the server's clients would have)."""
    state = ohhell.Game(ohhell.preset("classic", players=4)).new_initial_state()
    rng = random.Random(seed)
    clients = [Client("T", seat, "tok", ["http://x"], 0, rng, lambda: 0.0, 0.0) for seat in range(4)]

    def show() -> None:
        for client in clients:
            view = seat_view(state, client.seat).to_json()
            client.history.append(Event(time.monotonic(), "state", {key: view.get(key) for key in WATCHED}))

    show()
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply(state.sample_chance(rng))
        else:
            action = rng.choice(state.legal_actions(state.turn))
            sent = action_to_json(action)
            seat = sent.pop("seat")
            clients[seat].history.append(Event(time.monotonic(), "send",
                                               {"version": len(state.history), "action": sent, "id": 1}))
            state.apply(action)
        show()
    return record_from_state(state), clients


def anomalies(record: dict[str, Any] | None, clients: list[Client]) -> list[str]:
    return check(clients, {"T": record}, 4, [Fault("kill", 0, 0.0, 1.0)]).anomalies


def test_a_faithful_history_has_no_anomaly() -> None:
    record, clients = played_game(1)
    verdict = check(clients, {"T": record}, 4, [])
    assert verdict.anomalies == []
    assert verdict.finished == 1 and verdict.acknowledged > 100 and verdict.states > 2000


def test_a_state_the_record_contradicts_is_found() -> None:
    record, clients = played_game(2)
    shown = [e for e in clients[1].history if e.kind == "state" and e.data["bids"] and e.data["bids"][0] is not None]
    shown[0].data["bids"] = [None if b is None else b + 1 for b in shown[0].data["bids"]]
    found = anomalies(record, clients)
    assert len(found) == 1 and "bids" in found[0] and "seat 1" in found[0]


def test_a_version_going_back_is_found() -> None:
    record, clients = played_game(3)
    states = [e for e in clients[2].history if e.kind == "state"]
    clients[2].history.append(Event(time.monotonic(), "state", dict(states[10].data)))
    assert any("after" in line for line in anomalies(record, clients))


def test_another_seats_card_shown_is_found() -> None:
    record, clients = played_game(4)
    dealt = [e for e in clients[0].history if e.kind == "state" and len(e.data["hand"] or []) == 10]
    theirs = next(e for e in clients[1].history if e.kind == "state" and e.data["version"] == dealt[0].data["version"])
    dealt[0].data["hand"] = [*dealt[0].data["hand"][:-1], theirs.data["hand"][0]]
    found = anomalies(record, clients)
    assert any("not its own" in line for line in found)


def test_an_acknowledged_action_missing_from_the_record_is_found() -> None:
    record, clients = played_game(5)
    first_bid = next(e for e in clients[3].history if e.kind == "send")
    first_bid.data["action"] = {"type": "bid", "bid": (first_bid.data["action"]["bid"] + 1) % 11}
    assert any("not in the record" in line for line in anomalies(record, clients))


def test_a_second_send_left_unanswered_is_not_a_loss() -> None:
    """A seat sent its bid, its connection broke, it sent another bid at the same version on the
    next one and got no answer, then saw the first applied: indeterminate, not an anomaly."""
    record, clients = played_game(8)
    seat = clients[3]
    first = next(i for i, e in enumerate(seat.history) if e.kind == "send")
    sent = seat.history[first]
    other = {"type": "bid", "bid": (sent.data["action"]["bid"] + 1) % 11}
    seat.history[first + 1:first + 1] = [Event(sent.at, "drop", {}), Event(sent.at, "connect", {"server": 1}),
                                         Event(sent.at, "send", {"version": sent.data["version"], "action": other,
                                                                 "id": 99})]
    verdict = check(clients, {"T": record}, 4, [])
    assert verdict.anomalies == [] and len(verdict.unanswered) == 1


def test_a_send_refused_after_a_later_state_is_not_acknowledged() -> None:
    """A seat sent at version v just as another move made v+1: the state of v+1 came first, then
    the refusal of the stale send, on the same connection. Not acknowledged, so not an anomaly
    (the checker once counted it acknowledged at the first later state)."""
    record, clients = played_game(9)
    seat = clients[2]
    mine = {e.data["version"] for e in seat.history if e.kind == "send"}
    at = next(i for i, e in enumerate(seat.history) if i > 100 and e.kind == "state"
              and e.data["version"] - 1 not in mine and seat.history[i - 1].kind == "state")
    version = seat.history[at].data["version"]
    stale = {"type": "bid", "bid": 0}
    seat.history[at:at] = [Event(seat.history[at].at, "send", {"version": version - 1, "action": stale, "id": 77})]
    seat.history[at + 2:at + 2] = [Event(seat.history[at].at, "error", {"code": "stale", "id": 77,
                                                                        "version": version})]
    assert check(clients, {"T": record}, 4, []).anomalies == []


def test_an_unfinished_game_or_a_missing_record_is_found() -> None:
    record, clients = played_game(6)
    assert anomalies(None, clients) == ["T: no final record"]
    record["hands"] = record["hands"][:3]
    assert any("did not finish" in line for line in anomalies(record, clients))


def test_failover_is_the_longest_wait_of_any_table_for_a_new_version() -> None:
    record, clients = played_game(7)
    start = clients[0].history[0].at
    for client in clients:  # every version seen one second apart
        for index, event in enumerate(client.history):
            event.at = start + index
    fault = Fault("pause", 0, start + 10.5, start + 12)
    assert check(clients, {"T": record}, 4, [fault]).failovers == [pytest.approx(0.5, abs=1e-6)]


def test_every_fault_on_real_hosts_loses_nothing() -> None:
    """One fault of each kind, on 2 processes and PostgreSQL and Redis in namespaces of their own,
    with 4 tables playing: no anomaly, every table finished (about two minutes)."""
    missing = nemesis.missing_tools()
    need(not missing, "the fault harness needs " + ", ".join(missing))
    serve = ["--bot-delay", "0", "--trick-pause", "0", "--hand-pause", "0", "--leave-grace", "600",
             "--max-new-tables", "100"]
    faults = list(nemesis.FAULTS)
    with nemesis.site_on_hosts(2, serve) as site:
        outcome = asyncio.run(nemesis.play_under_faults(site, 4, faults, hold=3.0, quiet=2.0, seed=3,
                                                        finish_within=150.0))
    assert [fault.kind for fault in outcome.faults] == faults
    # Nothing acknowledged lost, no state the record contradicts, no version back, no card
    # leaked, and every table finished (a copy that had lost its table's channel once left its
    # players waiting for ever: the broker's watch, tests/server/test_broker.py).
    assert [line for line in outcome.verdict.anomalies if "did not finish" not in line] == []
    assert outcome.verdict.tables == 4 and outcome.verdict.finished == 4, outcome.unfinished()
    assert outcome.verdict.acknowledged > 400


def test_a_cpu_quota_holds_a_busy_process_to_its_share() -> None:
    """The cluster benchmark's method (ohhell.server.cluster.quota): a process that would use a
    whole core, held to 0.3 CPU, uses no more than that (a little more for the accounting's grain)."""
    import subprocess
    import sys

    from ohhell.server.cluster.quota import CpuQuota, cgroup_support

    version, why = cgroup_support()
    need(version is not None, why)
    quota = CpuQuota(0.3, period_ms=10)
    try:
        spin = "import time\nend = time.time() + 2\nwhile time.time() < end: pass"
        busy = subprocess.Popen([sys.executable, "-c", spin])
        quota.add(busy.pid)
        used, started = quota.cpu_seconds(), time.monotonic()
        busy.wait(timeout=30)
        share = (quota.cpu_seconds() - used) / (time.monotonic() - started)
        assert 0.02 < share <= 0.36
        assert quota.stat().get("nr_throttled", 0) > 0
    finally:
        quota.remove()
    assert not quota.folder.exists()
