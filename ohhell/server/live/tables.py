"""The names the game master's modules had when they were one (``live/tables.py``), for the code
that still imports them from here. New code imports them from where they live:
:mod:`~ohhell.server.live.owner` (the table, in its owner process),
:mod:`~ohhell.server.live.manager` (every table of the process),
:mod:`~ohhell.server.live.room` (what a process's connections see of a table),
:mod:`~ohhell.server.live.seats`, :mod:`~ohhell.server.live.chat`, :mod:`~ohhell.server.live.codes`,
:mod:`~ohhell.server.live.subscriber`, :mod:`~ohhell.server.live.commands`."""

from __future__ import annotations

from ohhell.server.live.chat import CHAT_KEPT, MAX_CHAT_LENGTH, REACTIONS, chat_text, check_reaction, clean_text
from ohhell.server.live.codes import CODE_ALPHABET, CODE_LENGTH, new_code, normalize_code
from ohhell.server.live.manager import OPEN, TableManager
from ohhell.server.live.owner import DEALS_RETRY, LiveTable
from ohhell.server.live.room import TableRoom
from ohhell.server.live.seats import (
    NO_HOST,
    TIMEOUTS_BEFORE_AWAY,
    TIMER_MODES,
    RemotePresence,
    Seat,
    TableSettings,
    new_token,
    token_hash,
)
from ohhell.server.live.subscriber import Asker, Sender, Subscriber
from ohhell.server.storage.kinds import SeatKind, TableStatus

WAITING, PLAYING, FINISHED = TableStatus.WAITING, TableStatus.PLAYING, TableStatus.FINISHED
HUMAN, BOT = SeatKind.HUMAN, SeatKind.BOT

__all__ = ["BOT", "CHAT_KEPT", "CODE_ALPHABET", "CODE_LENGTH", "DEALS_RETRY", "FINISHED", "HUMAN", "MAX_CHAT_LENGTH",
           "NO_HOST", "OPEN", "PLAYING", "REACTIONS", "TIMEOUTS_BEFORE_AWAY", "TIMER_MODES", "WAITING", "Asker",
           "LiveTable", "RemotePresence", "Seat", "Sender", "Subscriber", "TableManager", "TableRoom", "TableSettings",
           "chat_text", "check_reaction", "clean_text", "new_code", "new_token", "normalize_code", "token_hash"]
