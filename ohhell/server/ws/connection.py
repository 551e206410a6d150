"""One WebSocket client of a table, as the game master sees it: a
:class:`~ohhell.server.live.subscriber.Subscriber` (its seat, its language, what it was last
told) whose messages go out through its :class:`~ohhell.server.ws.outbox.Outbox`, with the rate
limits of what it may send."""

from __future__ import annotations

import time
from typing import Any, Final

from ohhell.server.config import ServerConfig
from ohhell.server.live.room import TableRoom
from ohhell.server.wire.protocol import encode
from ohhell.server.wire.stream import Broadcast, StateStream
from ohhell.server.ws.outbox import Outbox
from ohhell.views import SeatView

MAX_QUEUED_MESSAGES: Final = 500
"""A connection that falls this many messages behind is closed (it reconnects and gets a fresh state)."""


class TokenBucket:
    """At most ``rate`` messages per second on average and ``burst`` at once."""

    def __init__(self, rate: float, burst: float) -> None:
        self.rate, self.burst = rate, burst
        self.tokens = burst
        self.stamp = time.monotonic()

    def take(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


class Connection:
    """One WebSocket client of a table: its seat (``None``: a spectator), its language, what
    it was last told, and the :class:`~ohhell.server.ws.outbox.Outbox` its messages go through."""

    def __init__(self, language: str, config: ServerConfig, outbox: Outbox) -> None:
        self.language = language
        self.seat: int | None = None
        self.table: TableRoom | None = None
        """The table it said hello to, once it is let in."""
        self.stream = StateStream()
        self.outbox = outbox
        self.bucket = TokenBucket(config.rate_per_second, config.rate_burst)
        self.chat_bucket = TokenBucket(config.chat_per_second, config.chat_burst)
        self.react_bucket = TokenBucket(1.0, 1.0)
        self.name: str | None = None
        """A spectator's name for the chat (a seat's comes from the seat)."""
        self.closed = False
        self.hinting = False

    def allowed(self, kind: str) -> bool:
        """Whether it may send one more message of ``kind`` now (chat lines and reactions have
        limits of their own, besides that of every message)."""
        if kind == "chat":
            return self.chat_bucket.take()
        if kind == "react":
            return self.react_bucket.take()
        return True

    def push(self, message: dict[str, Any] | str | bytes) -> None:
        """Send a message (or its JSON, as text or UTF-8 bytes) after those before it (a slow
        client that falls far behind is cut off)."""
        if self.closed:
            return
        if isinstance(message, dict):
            data = encode(message)
        else:
            data = message if isinstance(message, bytes) else message.encode()
        self.outbox.put(data)
        if self.outbox.closed:
            self.closed = True

    def close(self) -> None:
        """Stop sending and close the socket (the client's receive loop then ends)."""
        self.closed = True
        self.outbox.close()

    def send_state(self, view: SeatView, shared: Broadcast) -> None:
        """Send what changed in ``view`` (this connection's own) since the last state it was told."""
        message = self.stream.message(view, shared)
        if message is not None:
            self.push(message)
