"""Duplicate deals: every table of an event (every try of a daily deal) gets the same cards.

The deals come from the engine's provably fair scheme ``per-event`` (:class:`ohhell.fairness.
FairEvent`, ``docs/fairness.md``): one secret 256-bit seed per event, drawn when the event is
created, whose SHA-256 (the *commitment*) is published at once; each hand's cut for the deal,
shuffle and cut are derived from ``HMAC-SHA-256(seed, "scheme=per-event, scope=EVENT,
hand=N" …)``. Chance depends only on the seed, the event and the hand's number, never on the
bids or the play, so every table holds the same cards in the same seats however it is played
and however often a server restarts. Once the event is over the seed is revealed, every
exported record carries its hands' ``fair`` entries, and ``ohhell verify RECORD`` checks every
deal against the commitment.

A table names its source in its settings (``{"kind": "fair-event", "event": ID, "seed": HEX}``,
kept in the database, never sent to a client), so a restarted server deals on from it:

>>> from ohhell.game import Game
>>> from ohhell.rules import preset
>>> from ohhell.server.deals import deal_source
>>> deals = EventDeals("club-night", "00" * 32)
>>> def first_deal() -> tuple[tuple[int, ...], ...]:
...     state = Game(preset("classic", players=3)).new_initial_state()
...     while state.is_chance_node():
...         state.apply(deal_source(deals.to_json()).draw(state))
...     assert state.deal is not None
...     return state.deal
>>> first_deal() == first_deal()
True
>>> deals.commitment == EventDeals("another", "00" * 32).commitment
True
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ohhell.actions import Action, Cut, Draw, Shuffle
from ohhell.fairness import FairEvent, new_seed
from ohhell.game import State
from ohhell.server.deals import register_deal_source

CHANCE_TYPES = (Draw, Shuffle, Cut)
KIND = "fair-event"


class EventDeals:
    """The deal source of every table of one event (or one day of the daily deal)."""

    def __init__(self, event_id: str, seed: str | None = None) -> None:
        self.fair = FairEvent(event_id, seed if seed is not None else new_seed())
        self._hand: tuple[int, int, list[Action]] | None = None
        """The chance actions of the hand being dealt: (hand index, history length at its first
        chance node, the actions)."""

    @property
    def event_id(self) -> str:
        return self.fair.event_id

    @property
    def seed(self) -> str:
        return str(self.fair.to_json()["seed"])

    @property
    def commitment(self) -> str:
        return self.fair.commitment

    def draw(self, state: State) -> Action:
        """The next chance action at this chance node (the hand's actions are derived once, at
        its first chance node; the table asks for them one at a time)."""
        done = 0  # the chance actions of this hand already applied (they end the history)
        for action in reversed(state.history):
            if not isinstance(action, CHANCE_TYPES):
                break
            done += 1
        start = len(state.history) - done
        if self._hand is None or self._hand[:2] != (state.hand_index, start):
            first = state.clone()
            for _undone in range(done):
                first.undo()
            self._hand = (state.hand_index, start, self.fair.deal(first))
        return self._hand[2][done]

    def annotate(self, record: dict[str, Any], revealed: bool) -> dict[str, Any]:
        """A table's record with every hand's ``fair`` entry (the seed only when ``revealed``)."""
        return self.fair.annotate(record, revealed)

    def to_json(self) -> dict[str, Any]:
        """The table settings' name for this source (``ohhell.server.deals``)."""
        return {"kind": KIND, "event": self.event_id, "seed": self.seed}

    @classmethod
    def from_json(cls, spec: Mapping[str, Any]) -> EventDeals:
        return cls(str(spec["event"]), str(spec["seed"]))


register_deal_source(KIND, EventDeals.from_json)
