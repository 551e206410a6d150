"""Duplicate deals: every table of an event (every try of a daily deal) gets the same cards.

The deals come from the engine's provably fair event schemes (:class:`ohhell.fairness.
FairEvent`, ``docs/fairness.md``): one secret 256-bit seed per event, drawn when the event is
created, whose SHA-256 (the *commitment*) is published at once, and (scheme ``per-event-pool``)
the pool of contributions the event's entrants sent before it began
(:mod:`ohhell.server.community.fair_pool`), which closes when the first table deals. Each hand's cut for
the deal, shuffle and cut are derived from ``HMAC-SHA-256(seed, "scheme, scope=EVENT, hand=N,
the pool" …)``. Chance depends only on the seed, the pool, the event and the hand's number,
never on the bids or the play, so every table holds the same cards in the same seats however it
is played and however often a server restarts. Once the event is over the seed is revealed,
every exported record carries its hands' ``fair`` entries, and ``ohhell verify RECORD`` checks
every deal against the commitment and the pool. Events made before the pool (settings without
``pool``) deal on from the seed alone (scheme ``per-event``).

A table names its source in its settings (``{"kind": "fair-event", "event": ID, "seed": HEX,
"pool": true, "wait": …}``, kept in the database, never sent to a client), so a restarted
server deals on from it. ``wait``: a table of bots only, which deals only once the event has
begun (the pool is closed) rather than closing the pool itself before anyone could contribute.

>>> from ohhell.game import Game
>>> from ohhell.rules import preset
>>> from ohhell.server.live.deals import deal_source
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

import asyncio
from collections.abc import Mapping
from typing import Any

from ohhell.actions import Action, Cut, Draw, Shuffle
from ohhell.fairness import FairEvent, new_seed
from ohhell.game import State
from ohhell.server.community import fair_pool
from ohhell.server.live.deals import register_deal_source
from ohhell.server.storage.store import Store

CHANCE_TYPES = (Draw, Shuffle, Cut)
KIND = "fair-event"


class EventDeals:
    """The deal source of every table of one event (or one day of the daily deal).

    ``pooled``: the deals derive from the seed and the event's pool of contributions (scheme
    ``per-event-pool``), known once the pool is closed (:meth:`ready`, or ``pool`` given);
    ``labelled``: the record says whose each contribution is (an event's seats); ``wait``: this
    table deals only once another has closed the pool.
    """

    def __init__(self, event_id: str, seed: str | None = None, pooled: bool = False, wait: bool = False,
                 labelled: bool = True, pool: fair_pool.Pool | None = None) -> None:
        self._seed = seed if seed is not None else new_seed()
        self.pooled = pooled
        self.wait = wait
        self.labelled = labelled
        self.fair = FairEvent(event_id, self._seed)
        if pool is not None:
            self.use(pool)
        self._hand: tuple[int, int, list[Action]] | None = None
        """The chance actions of the hand being dealt: (hand index, history length at its first
        chance node, the actions)."""

    @property
    def event_id(self) -> str:
        return self.fair.event_id

    @property
    def seed(self) -> str:
        return self._seed

    @property
    def commitment(self) -> str:
        return self.fair.commitment

    @property
    def known(self) -> bool:
        """Whether the deals can be derived: no pool, or its frozen contents are known."""
        return not self.pooled or self.fair.pool is not None

    def use(self, pool: fair_pool.Pool) -> None:
        """Deal from this frozen pool."""
        if pool.open:
            raise ValueError("an open pool cannot be dealt from")
        self.fair = FairEvent(self.event_id, self._seed, pool.values, pool.contributors if self.labelled else None)
        self._hand = None

    async def ready(self, store: Store) -> bool:
        """Make the deals derivable before the table deals (the table calls this first):
        without a pool, nothing to do; else close the pool (the event begins) and deal from it
        as frozen — or, for a table that ``wait``s, ``False`` while nobody has closed it yet
        (the table asks again a little later)."""
        if self.known:
            return True
        scope = self.event_id
        pool: fair_pool.Pool | None
        if self.wait:
            def look() -> fair_pool.Pool | None:
                with store.engine.connect() as conn:
                    return fair_pool.read(conn, scope)

            pool = await asyncio.to_thread(look)
            if pool is None or pool.open:  # (none yet: the event is being created)
                return False
        else:
            pool = await store.write(lambda conn: fair_pool.close(conn, scope))
        if pool is None:
            raise RuntimeError(f"event {scope}: its pool of contributions is not stored")
        self.use(pool)
        return True

    def draw(self, state: State) -> Action:
        """The next chance action at this chance node (the hand's actions are derived once, at
        its first chance node; the table asks for them one at a time)."""
        if not self.known:
            raise RuntimeError(f"event {self.event_id}: the pool must be closed (ready()) before the deal")
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
        """The table settings' name for this source (``ohhell.server.live.deals``)."""
        out: dict[str, Any] = {"kind": KIND, "event": self.event_id, "seed": self.seed}
        if self.pooled:
            out.update(pool=True, wait=self.wait, labelled=self.labelled)
        return out

    @classmethod
    def from_json(cls, spec: Mapping[str, Any]) -> EventDeals:
        return cls(str(spec["event"]), str(spec["seed"]), bool(spec.get("pool")), bool(spec.get("wait")),
                   bool(spec.get("labelled", True)))


register_deal_source(KIND, EventDeals.from_json)
