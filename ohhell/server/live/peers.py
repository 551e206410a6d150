"""The other processes of a site, as a table's owner sees them: where a table is found, who must
hear of its changes. The game master defines the interface; :class:`LocalPeers` is a site of
one process, :class:`ohhell.server.cluster.node.Cluster` a site of several (over Redis)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any, Protocol

from ohhell.server.live.room import TableRoom


class Peers(Protocol):
    """What a process's tables need of the other processes of its site."""

    @property
    def process(self) -> str | None:
        """This process's id among several (``None``: the only one)."""

    @property
    def resumes_at_start(self) -> bool:
        """Whether this process brings back every unfinished stored table when it starts (with
        several processes, a table is brought back by the first process someone asks it of)."""

    async def open(self, code: str) -> TableRoom | None:
        """The table ``code`` (not in this process yet): owned here from now on, or a copy of its
        owner's; ``None`` if there is no such table."""

    async def claim(self, code: str) -> int | None:
        """Make this process the owner of a new table; its fencing token (``None``: no fencing,
        a single process). :class:`~ohhell.server.storage.store.StoreError` if it cannot."""

    def changed(self, table: TableRoom, info: dict[str, Any]) -> None:
        """An owned table changed (all committed), its public information now ``info``: tell the
        processes that keep a copy of it."""

    def told(self, table: TableRoom, message: dict[str, Any]) -> None:
        """An owned table sent a message to all its connections: to those of the others too."""

    def let_go(self, table: TableRoom) -> None:
        """This process no longer runs the owned ``table`` (unloaded, or owned elsewhere now)."""


class LocalPeers:
    """A site of one process: every table is owned here, nobody else hears of anything."""

    def __init__(self, load: Callable[[str], Awaitable[TableRoom | None]]) -> None:
        self._load = load

    @property
    def process(self) -> str | None:
        return None

    @property
    def resumes_at_start(self) -> bool:
        return True

    async def open(self, code: str) -> TableRoom | None:
        return await self._load(code)

    async def claim(self, code: str) -> int | None:
        return None

    def changed(self, table: TableRoom, info: dict[str, Any]) -> None:
        pass

    def told(self, table: TableRoom, message: dict[str, Any]) -> None:
        pass

    def let_go(self, table: TableRoom) -> None:
        pass
