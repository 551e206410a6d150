"""Broken records of every shape are reported as RecordError, never as a crash."""

from __future__ import annotations

import copy
import json
import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from ohhell import RecordError, preset
from ohhell.record import play_random_game, record_from_state, replay
from ohhell.rules import PRESETS

RECORDS = [record_from_state(play_random_game(preset(name, players=found.players[-1]), seed=3))
           for name, found in PRESETS.items()]

JUNK: list[Any] = [None, True, False, 0, -1, 1, 99, 2.5, "", "AS", "X1", "10h", "ZZ", "♠", [], [1], {}, {"a": 1},
                   [[]], ["AS"], "null", 10**30]


def paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [prefix]
    if isinstance(value, dict):
        for key, item in value.items():
            out += paths(item, (*prefix, key))
    elif isinstance(value, list):
        for index, item in enumerate(value[:6]):
            out += paths(item, (*prefix, index))
    return out


def mutate(record: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    broken = copy.deepcopy(record)
    for _ in range(rng.randint(1, 3)):
        where = rng.choice(paths(broken)[1:])
        parent: Any = broken
        for key in where[:-1]:
            parent = parent[key]
        kind = rng.random()
        if kind < 0.6:
            parent[where[-1]] = copy.deepcopy(rng.choice(JUNK))
        elif kind < 0.8 and isinstance(parent, dict):
            del parent[where[-1]]
        elif isinstance(parent, list) and parent:
            parent.insert(rng.randrange(len(parent)), copy.deepcopy(rng.choice(parent)))
    return broken


@settings(max_examples=300, deadline=None)
@given(st.integers(0, len(RECORDS) - 1), st.integers(0, 2**32))
def test_mutated_records_never_crash(which: int, seed: int) -> None:
    broken = mutate(RECORDS[which], random.Random(seed))
    broken = json.loads(json.dumps(broken))
    try:
        result = replay(broken)
    except RecordError as error:
        assert error.kind and error.message
        assert error.hand is None or isinstance(error.hand, int)
        assert error.index is None or isinstance(error.index, int)
    else:
        assert set(result) == {"complete", "hands", "totals", "winners"}
