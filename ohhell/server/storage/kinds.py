"""The stored words of a table's life and of a seat's occupant, as string enums.

Each member *is* its stored string (``TableStatus.PLAYING == "playing"``), so rows written
before these enums existed read back unchanged, and JSON carries the same values.

>>> TableStatus("finished") is TableStatus.FINISHED, SeatKind.BOT == "bot"
(True, True)
"""

from __future__ import annotations

from enum import StrEnum


class TableStatus(StrEnum):
    """Where a table is in its life: seats filling, a game on, the game over."""

    WAITING = "waiting"
    PLAYING = "playing"
    FINISHED = "finished"


class SeatKind(StrEnum):
    """Who holds a seat: a person (guest or account), one of the server's bots, or nobody yet (open)."""

    HUMAN = "human"
    BOT = "bot"
    OPEN = "open"
