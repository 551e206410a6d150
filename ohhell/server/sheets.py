"""The scorekeeper page: sheets for games played with real cards.

The logic is :class:`~ohhell.scorekeeper.ScoreSheet`'s — the same one the terminal
scorekeeper uses: the schedule, the dealer, the hook, tricks that must add up and every
scoring system come from the rules engine. This module only keeps sheets in the database
(the sheet's ``ohhell/1`` record, saved after every change) and turns them into JSON for
the page. A sheet's id is a long random string: whoever has the link may keep the score.
"""

from __future__ import annotations

import asyncio
import secrets
from dataclasses import asdict
from typing import Any

from ohhell.errors import OhHellError
from ohhell.i18n import _
from ohhell.scorekeeper import KEPT_UNDO, ScoreError, ScoreSheet
from ohhell.server.store import Store
from ohhell.server.texts import speaking


def sheet_json(sheet_id: str, sheet: ScoreSheet) -> dict[str, Any]:
    """Everything the page shows of a sheet."""
    return {
        "id": sheet_id,
        "names": sheet.names,
        "rules": sheet.rules.to_json(),
        "hand_index": sheet.hand_index,
        "hand_count": sheet.hand_count,
        "finished": sheet.finished,
        "dealer": sheet.dealer if not sheet.finished else None,
        "hand_size": sheet.hand_size if not sheet.finished else None,
        "bid_order": list(sheet.bid_order),
        "bids": sheet.bids,
        "next_bidder": sheet.next_bidder,
        "forbidden_bid": sheet.forbidden_bid,
        "trump": sheet.trump,
        "trump_is_turned": sheet.trump_is_turned and not sheet.finished,
        "totals": sheet.totals,
        "hands": sheet.hands(),
        "totals_by_hand": sheet.totals_by_hand(),
        "winners": sheet.winners(),
        "stats": [asdict(stats) for stats in sheet.stats()],
        "can_undo": sheet.can_undo,
    }


class SheetService:
    """Sheets in memory (loaded on first use) and in the database."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.sheets: dict[str, ScoreSheet] = {}
        self.locks: dict[str, asyncio.Lock] = {}

    async def create(self, sheet: ScoreSheet) -> str:
        sheet_id = secrets.token_urlsafe(12)
        await self.store.save_sheet(sheet_id, sheet.record, created=True, undo=sheet.undo_records[-KEPT_UNDO:])
        self.sheets[sheet_id] = sheet
        return sheet_id

    async def get(self, sheet_id: str) -> ScoreSheet | None:
        sheet = self.sheets.get(sheet_id)
        if sheet is None and 8 <= len(sheet_id) <= 40:
            found = await asyncio.to_thread(self.store.load_sheet, sheet_id)
            if found is not None:
                record, undo = found
                sheet = ScoreSheet.from_record(record)
                sheet.restore_undo(undo)
                self.sheets[sheet_id] = sheet
        return sheet

    async def change(self, sheet_id: str, operation: dict[str, Any], language: str) -> ScoreSheet:
        """Apply one change from the page (``op``: bid, change_bid, tricks, trump, edit, undo) and
        store the sheet; a :class:`ScoreError` leaves it unchanged."""
        sheet = await self.get(sheet_id)
        if sheet is None:
            raise KeyError(sheet_id)
        lock = self.locks.setdefault(sheet_id, asyncio.Lock())
        async with lock:
            sheet = self.sheets[sheet_id]
            # The change is made on a copy and shown only once it is saved: a page reading the
            # sheet meanwhile sees the saved one, and a refused save changes nothing.
            changed = ScoreSheet.from_record(sheet.record)
            changed.restore_undo(sheet.undo_records[-KEPT_UNDO:])
            with speaking(language):
                _apply(changed, operation)
            if changed.record != sheet.record:
                await self.store.save_sheet(sheet_id, changed.record, undo=changed.undo_records[-KEPT_UNDO:])
                self.sheets[sheet_id] = sheet = changed
        return sheet


def _int(value: Any) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise ScoreError(_("a whole number is expected"))
    return value


def _apply(sheet: ScoreSheet, operation: dict[str, Any]) -> None:
    op = operation.get("op")
    try:
        if op == "bid":
            sheet.bid(_int(operation.get("seat")), _int(operation.get("bid")))
        elif op == "change_bid":
            sheet.change_bid(_int(operation.get("seat")), _int(operation.get("bid")))
        elif op == "tricks":
            tricks = operation.get("tricks")
            if not isinstance(tricks, list):
                raise ScoreError(_("tricks must be a list"))
            sheet.record_tricks([_int(t) for t in tricks])
        elif op == "trump":
            trump = operation.get("trump")
            sheet.set_trump(trump if isinstance(trump, str) else None)
        elif op == "edit":
            bids = operation.get("bids")
            tricks = operation.get("tricks")
            if not isinstance(bids, list) or not (tricks is None or isinstance(tricks, list)):
                raise ScoreError(_("bids and tricks must be lists"))
            sheet.edit_hand(_int(operation.get("hand")), [None if b is None else _int(b) for b in bids],
                            None if tricks is None else [_int(t) for t in tricks])
        elif op == "undo":
            sheet.undo()
        else:
            raise ScoreError(_("unknown operation"))
    except (OhHellError, IndexError) as error:
        if isinstance(error, ScoreError):
            raise
        raise ScoreError(str(error)) from error
