"""Duplicate deals: every table of an event (every try of a daily deal) gets the same cards.

One secret seed per event, chosen when the event is created; its SHA-256 (the *commitment*) is
published at once, the seed itself when the event is over, so anyone can check that the deals
were fixed before the first card and not chosen afterwards.

Chance in a game only ever depends on earlier chance (the cut for the deal, each shuffle, each
cut of the pack), never on the bids or the play. So the k-th chance action of every table is
drawn from a random source of its own, ``random.Random(HMAC-SHA-256(seed, "ohhell-duplicate/k"))``:
the tables get the same cut for the deal, the same shuffles and the same cuts, in the same
seats, whatever happens between them and however often a server restarts.

>>> from ohhell.game import Game
>>> from ohhell.rules import preset
>>> deals = SeededDeals(bytes(32))
>>> def first_deal() -> tuple[tuple[int, ...], ...]:
...     state = Game(preset("classic", players=3)).new_initial_state()
...     while state.is_chance_node():
...         state.apply(deals.draw(state))
...     assert state.deal is not None
...     return state.deal
>>> first_deal() == first_deal()
True
>>> len(commitment(bytes(32)))
64

A table names its source in its settings (``{"kind": "duplicate", "seed": HEX}``, kept in the
database, never sent to a client), so a restarted server deals on from the same source:

>>> from ohhell.server.deals import deal_source
>>> deal_source(deals.to_json()).seed == deals.seed
True
"""

from __future__ import annotations

import hashlib
import hmac
import random
import secrets
from collections.abc import Mapping
from typing import Any

from ohhell.actions import Action, Cut, Deal, Draw, Shuffle
from ohhell.game import State
from ohhell.server.deals import register_deal_source

CHANCE_TYPES = (Draw, Shuffle, Cut, Deal)


def new_seed() -> bytes:
    """A fresh secret seed: 256 bits from the operating system."""
    return secrets.token_bytes(32)


def commitment(seed: bytes) -> str:
    """The published commitment to a seed: its SHA-256, hex."""
    return hashlib.sha256(seed).hexdigest()


def chance_count(state: State) -> int:
    """How many chance actions a state's history holds."""
    return sum(1 for action in state.history if isinstance(action, CHANCE_TYPES))


class SeededDeals:
    """The deal source of a duplicate event: the same chance actions for every table."""

    def __init__(self, seed: bytes) -> None:
        self.seed = seed

    def rng(self, step: int) -> random.Random:
        digest = hmac.new(self.seed, f"ohhell-duplicate/{step}".encode(), hashlib.sha256).digest()
        return random.Random(int.from_bytes(digest, "big"))

    def draw(self, state: State) -> Action:
        """The chance action at this chance node of a table of the event."""
        return state.sample_chance(self.rng(chance_count(state)))

    def to_json(self) -> dict[str, Any]:
        """The table settings' name for this source (``ohhell.server.deals``)."""
        return {"kind": "duplicate", "seed": self.seed.hex()}

    @classmethod
    def from_json(cls, spec: Mapping[str, Any]) -> SeededDeals:
        seed = bytes.fromhex(str(spec["seed"]))
        if len(seed) != 32:
            raise ValueError("a duplicate deal source's seed has 32 bytes")
        return cls(seed)


register_deal_source("duplicate", SeededDeals.from_json)
