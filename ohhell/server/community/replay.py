"""The state a stored table's action log leads to (the community's results, events and daily
deal read finished games from the database, not from the live tables)."""

from __future__ import annotations

from ohhell.game import State
from ohhell.record import replay_log
from ohhell.rules import Rules
from ohhell.server.storage.store import StoredTable


def rebuild_state(stored: StoredTable) -> State:
    """The state a stored table's action log leads to (:func:`ohhell.record.replay_log`)."""
    return replay_log(Rules.from_json(stored.row.rules), stored.actions)
