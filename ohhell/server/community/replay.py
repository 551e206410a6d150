"""The state a stored table's action log leads to (the community's results, events and daily
deal read finished games from the database, not from the live tables)."""

from __future__ import annotations

from ohhell.actions import action_from_json
from ohhell.game import Game, State
from ohhell.rules import Rules
from ohhell.server.storage.store import StoredTable


def rebuild_state(stored: StoredTable) -> State:
    """The state a stored table's action log leads to."""
    state = Game(Rules.from_json(stored.row.rules)).new_initial_state()
    for data in stored.actions:
        state.apply(action_from_json(data))
    return state
