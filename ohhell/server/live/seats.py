"""A table's seats and settings: who sits where (a person, a bot, nobody yet), their secret
tokens, whether they are here, and what the table's creator chose besides the rules.

A seat is ``open`` (waiting for a person), ``human`` or ``bot``. A person who leaves (no
connection for ``leave_grace`` seconds) or whose turn timer runs out is *away*: a stand-in
bot plays for them until they come back (reconnect, act, or press "I'm back").
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass, field
from typing import Any, Final

from ohhell.bots import Bot
from ohhell.server.live.subscriber import Subscriber
from ohhell.server.storage.kinds import SeatKind
from ohhell.server.storage.store import SeatRow

NO_HOST: Final = -1
"""The host of a table nobody may start early (a duplicate event's)."""
TIMER_MODES: Final[dict[str, float]] = {"none": 0.0, "relaxed": 60.0, "fast": 15.0}
"""The turn timers a table may choose by name (seconds a turn; 0: no timer)."""
TIMEOUTS_BEFORE_AWAY: Final = 2
"""A person who lets the timer run out this many turns in a row is away: a stand-in plays for
them until they are back. Fewer timeouts only cost the turn (the strong bot plays it)."""


def new_token() -> str:
    """A seat's secret: 192 random bits, URL-safe."""
    return secrets.token_urlsafe(24)


def token_hash(token: str) -> str:
    """What the database keeps of a token (its SHA-256): a stolen database does not give seats away."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


@dataclass
class PlacedBot:
    """The bot that plays a seat now, and the level it was made for (the seat's own bot, or
    the table's stand-in for an away person: when the level needed changes, a new one is made)."""

    level: str
    bot: Bot


@dataclass
class RemotePresence:
    """The connections another process holds to a table: how many per seat, how many
    spectators, and until when this report holds (it is renewed while they last)."""

    seats: dict[int, int]
    spectators: int
    until: float


@dataclass
class Seat:
    """A seat of a table."""

    index: int
    kind: SeatKind
    bot_level: str | None = None
    name: str | None = None
    token_hash: str | None = None
    connections: set[Subscriber] = field(default_factory=set)
    away: bool = False
    bot: PlacedBot | None = None
    """The seat's bot (a bot seat), or the stand-in of an away person."""
    last_message_id: Any = None
    timeouts: int = 0
    """Turns in a row this person let the timer run out (see :data:`TIMEOUTS_BEFORE_AWAY`)."""
    fallback: bool = False
    """This seat's bot (an operator's external program) failed in this game, and a built-in
    bot plays in its place (:attr:`ohhell.bots.external.ExternalBot.on_fallback`)."""

    @classmethod
    def from_row(cls, row: SeatRow) -> Seat:
        return cls(row.seat, SeatKind(row.kind), row.bot, row.name, row.token_hash)

    def row(self) -> SeatRow:
        return SeatRow(self.index, self.kind, self.bot_level, self.name, self.token_hash)

    def set_row(self, row: SeatRow) -> None:
        """Take who sits here from a stored row."""
        self.kind, self.bot_level, self.name, self.token_hash = SeatKind(row.kind), row.bot, row.name, row.token_hash

    @property
    def automated(self) -> bool:
        """Whether a bot acts for this seat now."""
        return self.kind == SeatKind.BOT or (self.kind == SeatKind.HUMAN and self.away)

    def public(self, online: bool) -> dict[str, Any]:
        return {"kind": self.kind, "name": self.name, "bot": self.bot_level if self.kind == SeatKind.BOT else None,
                "online": online, "away": self.away, "timeouts": self.timeouts, "fallback": self.fallback}


@dataclass(frozen=True)
class SeatChange:
    """A bot's seat given to a person who came after the game began (quick play's
    latecomers, :attr:`TableSettings.latecomers`): promised (``hand`` ``None``: the bot finishes
    the hand in progress; ``token_hash`` is the person's seat secret until then), then taken at
    the start of hand ``hand`` (0-based, the record's ``hands`` index)."""

    seat: int
    name: str
    bot: str
    """The level of the bot that played the seat before."""
    hand: int | None = None
    token_hash: str | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"seat": self.seat, "name": self.name, "bot": self.bot, "hand": self.hand}
        if self.token_hash is not None:
            out["token_hash"] = self.token_hash
        return out

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> SeatChange:
        hand, digest = data.get("hand"), data.get("token_hash")
        return cls(int(data["seat"]), str(data["name"]), str(data["bot"]), None if hand is None else int(hand),
                   None if digest is None else str(digest))


@dataclass(frozen=True)
class TableSettings:
    """What the creator chose besides the rules, and what the table became."""

    timer: float = 0.0
    host: int = 0
    stand_in: str = "random"
    deals: dict[str, Any] = field(default_factory=lambda: {"kind": "random"})
    """The deal source (:func:`ohhell.server.live.deals.deal_source`)."""
    next: str | None = None
    """The code of the rematch, once there is one."""
    extra: dict[str, Any] = field(default_factory=dict)
    """What other parts of the server keep with a table (a rated game, an event's table…)."""
    latecomers: bool = False
    """Whether a person who comes after the game began may take a bot's seat at the start of
    the next hand (quick play's tables: on)."""
    seat_changes: tuple[SeatChange, ...] = ()
    """The bots' seats given to latecomers, promised and taken, in the order they were given."""

    def promised(self) -> list[SeatChange]:
        """The seat changes still to happen (at the start of the next hand)."""
        return [change for change in self.seat_changes if change.hand is None]

    @property
    def timer_mode(self) -> str:
        """The named timer this is (``custom`` for another number of seconds)."""
        return next((name for name, seconds in TIMER_MODES.items() if seconds == self.timer), "custom")

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"timer": self.timer, "host": self.host, "stand_in": self.stand_in, "deals": self.deals}
        if self.next is not None:
            out["next"] = self.next
        if self.extra:
            out["extra"] = self.extra
        if self.latecomers:
            out["latecomers"] = True
        if self.seat_changes:
            out["seat_changes"] = [change.to_json() for change in self.seat_changes]
        return out

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> TableSettings:
        return cls(float(data.get("timer", 0.0)), int(data.get("host", 0)), str(data.get("stand_in", "random")),
                   dict(data.get("deals") or {"kind": "random"}), data.get("next"), dict(data.get("extra") or {}),
                   bool(data.get("latecomers", False)),
                   tuple(SeatChange.from_json(change) for change in data.get("seat_changes") or ()))
