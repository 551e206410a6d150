"""The knobs of a server: timings, limits and the bots the operator allows.

Every delay is a number of seconds, so tests can run whole games in a blink
(``ServerConfig.fast()``) while people get a human-looking pace by default.

>>> ServerConfig().bot_delay > 0, ServerConfig.fast().bot_delay
(True, 0.0)
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Final

DEFAULT_DATABASE: Final = "sqlite:///ohhell.db"
"""The database ``ohhell serve`` uses by default: a SQLite file in the current directory."""


@dataclass(frozen=True)
class ServerConfig:
    """How a server behaves. The defaults suit people playing; tests shrink the delays."""

    database: str = DEFAULT_DATABASE
    broker: str | None = None
    """``redis://HOST:PORT/DB`` (Redis or Valkey): several server processes share the site's
    tables through it (see :mod:`ohhell.server.cluster.node`); ``None``: one process."""
    sqlite_sync: str = "full"
    """``full``: every commit is fsynced (survives a power cut); ``normal``: faster, survives the
    server's death (``kill -9`` too) but not the machine's (see :data:`ohhell.server.storage.store.SQLITE_SYNC`)."""
    # -- pace ---------------------------------------------------------------------------
    bot_delay: float = 0.9
    """How long a bot seems to think before it bids or plays."""
    bot_jitter: float = 0.5
    """A bot's delay varies by up to this share of ``bot_delay`` either way."""
    trick_pause: float = 1.2
    """An extra pause after a trick is complete, so everyone sees it before it is gathered."""
    hand_pause: float = 2.5
    """An extra pause after the last trick of a hand, before the next deal."""
    fair_window: float = 1.5
    """How long a deal waits for the seated people's contributions (provably fair deals) once
    its commitment is out; it deals at once when every connected person has sent theirs."""
    leave_grace: float = 20.0
    """How long a player may be disconnected (a reload, a tunnel) before a bot plays for them."""
    default_timer: float = 0.0
    """The turn timer of a table that does not choose one (0: no timer)."""
    max_timer: float = 600.0
    # -- limits ---------------------------------------------------------------------------
    max_message_bytes: int = 4096
    """The largest message a client may send; a larger one is answered with an error."""
    max_frame_bytes: int = 1 << 20
    """A frame larger than this closes the connection (the WebSocket layer refuses it)."""
    rate_per_second: float = 20.0
    """How many messages a connection may send per second on average…"""
    rate_burst: float = 40.0
    """…and in a burst."""
    chat_per_second: float = 0.5
    """How many chat lines a connection may send per second on average (5 in 10 seconds)…"""
    chat_burst: float = 5.0
    """…and in a burst."""
    hello_timeout: float = 10.0
    """A connection that has not said hello after this many seconds is closed."""
    max_connections_per_table: int = 64
    max_tables_per_minute: int = 30
    """Tables one address may create per minute."""
    max_name_length: int = 24
    allowed_origins: tuple[str, ...] = ()
    """Origins besides the server's own whose pages may open a WebSocket (a site reached under
    several names); see :mod:`ohhell.server.web.security`."""
    push_loopback: bool = False
    """Accept Web Push subscriptions whose push service is at ``http://127.0.0.1`` (the tests'
    fake push service); real push services are reached over https only."""
    # -- bots -------------------------------------------------------------------------------
    bot_commands: dict[str, str] = field(default_factory=dict)
    """Extra bot levels the operator registered: name -> ``cmd:PROGRAM`` (never from the web)."""
    bot_timeout: float | None = None
    """Seconds an external bot may think per decision (default: its own, 10)."""
    hint_level: str | None = None
    """The bot that answers the hint button (default: the strongest installed)."""
    stand_in_level: str | None = None
    """The bot that plays for an absent player (default: ``basic`` if installed, else ``random``)."""
    # -- shutdown ------------------------------------------------------------------------------
    unload_after: float = 3600.0
    """A finished table nobody watches is dropped from memory after this long (it stays stored)."""

    @classmethod
    def fast(cls, **changes: object) -> ServerConfig:
        """A configuration with no delays (tests and benchmarks)."""
        base = cls(bot_delay=0.0, bot_jitter=0.0, trick_pause=0.0, hand_pause=0.0, leave_grace=0.2, fair_window=0.5)
        return dataclasses.replace(base, **changes)  # type: ignore[arg-type]
