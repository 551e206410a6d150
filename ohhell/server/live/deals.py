"""Where a table's cards come from: its deal source.

Chance is the server's: the cut for the first deal, each shuffle and each cut of the pack. A
table asks its :class:`DealSource` for the chance action at each chance node and stores it like
any action, so a table rebuilt from its log is exactly the table that stopped, whatever the
source. The default draws from the operating system's random source; other sources (every
table of a duplicate event dealt the same cards, provably fair deals) register a kind here and
are named in the table's settings (``{"kind": ..., ...}``), so a restarted server builds the
same source again.

>>> from ohhell.game import Game
>>> from ohhell.rules import preset
>>> state = Game(preset("classic", players=3)).new_initial_state()
>>> source = deal_source({"kind": "random"})
>>> type(source.draw(state)).__name__
'Draw'
>>> deal_source({"kind": "nonsense"})
Traceback (most recent call last):
...
ValueError: unknown deal source 'nonsense'
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, Final, Protocol

from ohhell.actions import Action, Cut, Draw, Shuffle
from ohhell.game import State

if TYPE_CHECKING:
    from ohhell.server.storage.store import Store

CHANCE_ACTIONS = (Draw, Shuffle, Cut)


class DealSource(Protocol):
    """The chance actions of one table."""

    def draw(self, state: State) -> Action:
        """The chance action to apply at ``state`` (a chance node of the table's game)."""
        ...

    async def ready(self, store: Store) -> bool:
        """Whether the source can deal now (the table asks before each deal; ``False``: it
        asks again a little later — a duplicate event's table of bots before the event began)."""
        ...

    def to_json(self) -> dict[str, Any]:
        """What the table's settings keep to build this source again (with its ``kind``)."""
        ...


class RandomDeals:
    """Every chance action drawn from the operating system's random source."""

    def __init__(self) -> None:
        self._random = random.SystemRandom()

    def draw(self, state: State) -> Action:
        return state.sample_chance(self._random)

    async def ready(self, store: Store) -> bool:
        return True

    def to_json(self) -> dict[str, Any]:
        return {"kind": "random"}


class SeededDeals:
    """Chance actions drawn from a seed: every table with the same seed and rules is dealt the
    same cards in the same seats (the chance nodes of a game come in the same order however it
    is played, and each draw depends only on the seed and how many draws came before it)."""

    def __init__(self, seed: str) -> None:
        self.seed = seed

    def draw(self, state: State) -> Action:
        draws = sum(1 for action in state.history if isinstance(action, CHANCE_ACTIONS))
        return state.sample_chance(random.Random(f"{self.seed}:{draws}"))

    async def ready(self, store: Store) -> bool:
        return True

    def to_json(self) -> dict[str, Any]:
        return {"kind": "seeded", "seed": self.seed}


class FairDeals:
    """Provably fair deals (:mod:`ohhell.fairness`): a fresh committed seed for every hand and
    the seated people's contributions. The table drives them itself — it publishes the
    commitment and waits a moment for the contributions before it deals — so :meth:`draw` is
    never asked."""

    def draw(self, state: State) -> Action:
        raise RuntimeError("fair deals are dealt by the table (ohhell.fairness.FairTable), not drawn one by one")

    async def ready(self, store: Store) -> bool:
        return True

    def to_json(self) -> dict[str, Any]:
        return {"kind": "fair"}


FAIR: Final = "fair"
"""The kind of deal source of every table made through the web app."""

_KINDS: dict[str, Callable[[Mapping[str, Any]], DealSource]] = {
    FAIR: lambda _spec: FairDeals(),
    "random": lambda _spec: RandomDeals(),
    "seeded": lambda spec: SeededDeals(str(spec["seed"])),
}


def register_deal_source(kind: str, factory: Callable[[Mapping[str, Any]], DealSource]) -> None:
    """Make a kind of deal source known (``factory`` builds it from its settings)."""
    _KINDS[kind] = factory


def deal_source(spec: Mapping[str, Any] | None) -> DealSource:
    """The deal source a table's settings name (none: the random one)."""
    if not spec:
        return RandomDeals()
    kind = spec.get("kind")
    factory = _KINDS.get(str(kind))
    if factory is None:
        raise ValueError(f"unknown deal source {kind!r}")
    return factory(spec)
