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
from dataclasses import asdict, dataclass
from typing import Any

from ohhell.errors import OhHellError
from ohhell.i18n import _
from ohhell.scorekeeper import KEPT_UNDO, ScoreError, ScoreSheet
from ohhell.server.storage.store import Conflict, Store, StoreError
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
        "trump_is_chosen": sheet.trump_is_chosen,
        "trump_chooser": sheet.trump_chooser,
        "totals": sheet.totals,
        "hands": sheet.hands(),
        "totals_by_hand": sheet.totals_by_hand(),
        "winners": sheet.winners(),
        "stats": [asdict(stats) for stats in sheet.stats()],
        "can_undo": sheet.can_undo,
        "entered_trumps": [hand.get("trump") for hand in sheet.record["hands"]],
        "plan": sheet_plan(sheet),
    }


PLANNED_AHEAD = 40
"""How many hands past the current one a game without a fixed length (to a target score) plans."""


def sheet_plan(sheet: ScoreSheet) -> dict[str, Any]:
    """What the page needs to go on with the sheet without the server (offline): the rules that
    check an entry and score a hand, and the hands to come (their size and how trump is found).
    The page's rules (``static/js/rules.js``) take these; tests hold its answers to the
    server's."""
    rules = sheet.rules
    count = sheet.hand_count if sheet.hand_count is not None else sheet.hand_index + PLANNED_AHEAD
    hands = []
    for index in range(count):
        plan = rules.hand_plan(index)
        if plan is None:
            break
        hands.append({"size": plan.size, "turned": plan.trump.startswith("turn-up"), "chosen": plan.trump == "chosen",
                      "trump": plan.trump if plan.trump in ("S", "H", "D", "C") else None})
    return {
        "players": rules.players,
        "first_dealer": int(sheet.record["first_dealer"]),
        "hook": bool(rules.hook),
        "bidding": rules.bidding,
        "scoring": rules.scoring,
        "zero_bid": rules.zero_bid,
        "target_score": rules.target_score,
        "no_bid_from": rules.no_bid_from,
        "hand_count": sheet.hand_count,
        "hands": hands,
    }


def hand_as_entered(sheet: ScoreSheet, index: int) -> dict[str, Any] | None:
    """Hand ``index`` as the keeper entered it: the bids by seat and the tricks (``None`` while
    the hand is not finished); ``None`` for a hand not started. Two devices compare these to
    tell whether they edited the same hand."""
    hands = sheet.hands()
    if not 0 <= index < len(hands):
        return None
    hand = hands[index]
    return {"bids": list(hand["bids"]), "tricks": list(hand["tricks"]) if hand["scores"] is not None else None}


@dataclass
class SyncResult:
    """What a sync did: the sheet after it, how many of the changes were made, and the first
    change the sheet refused (``conflict``: the hand, the server's version of it, and why)."""

    sheet: ScoreSheet
    applied: int
    conflict: dict[str, Any] | None


class SheetService:
    """Sheets in memory (loaded on first use) and in the database.

    Each sheet is kept with its revision (how many times it was saved). A change is made on a
    copy, saved only if the stored revision is still the one it was made on, and shown only
    once saved. With several server processes on one database (``shared``), another process
    may have changed a sheet: reads check the stored revision first, and a change that meets a
    newer revision is made again on the newer sheet."""

    def __init__(self, store: Store, shared: bool = False) -> None:
        self.store = store
        self.shared = shared
        self.sheets: dict[str, tuple[ScoreSheet, int]] = {}
        self.locks: dict[str, asyncio.Lock] = {}

    async def create(self, sheet: ScoreSheet) -> str:
        sheet_id = secrets.token_urlsafe(12)
        rev = await self.store.save_sheet(sheet_id, sheet.record, created=True, undo=sheet.undo_records[-KEPT_UNDO:])
        self.sheets[sheet_id] = (sheet, rev)
        return sheet_id

    async def get(self, sheet_id: str) -> ScoreSheet | None:
        found = await self._current(sheet_id)
        return found[0] if found is not None else None

    async def _current(self, sheet_id: str) -> tuple[ScoreSheet, int] | None:
        """The sheet and its revision, from memory if that is still the stored one."""
        kept = self.sheets.get(sheet_id)
        if kept is not None and not self.shared:
            return kept
        if not 8 <= len(sheet_id) <= 40:
            return None
        if kept is not None and await asyncio.to_thread(self.store.sheet_revision, sheet_id) == kept[1]:
            return kept
        stored = await asyncio.to_thread(self.store.load_sheet, sheet_id)
        if stored is None:
            return None
        sheet = ScoreSheet.from_record(stored.record)
        sheet.restore_undo(stored.undo)
        self.sheets[sheet_id] = (sheet, stored.rev)
        return self.sheets[sheet_id]

    async def change(self, sheet_id: str, operation: dict[str, Any], language: str) -> ScoreSheet:
        """Apply one change from the page (``op``: bid, change_bid, tricks, trump, edit, undo) and
        store the sheet; a :class:`ScoreError` leaves it unchanged."""
        lock = self.locks.setdefault(sheet_id, asyncio.Lock())
        async with lock:
            return await self._change(sheet_id, operation, language)

    async def sync(self, sheet_id: str, operations: list[dict[str, Any]], base: dict[int, Any],
                   language: str) -> SyncResult:
        """Apply the changes a device made offline, in order, if the hands they touch are still
        as that device last saw them (``base``: hand index → :func:`hand_as_entered`); else, or
        at the first change the rules refuse, stop and say which hand is in conflict, with the
        server's version of it. The changes before it stay made (each is a whole entry)."""
        lock = self.locks.setdefault(sheet_id, asyncio.Lock())
        async with lock:
            found = await self._current(sheet_id)
            if found is None:
                raise KeyError(sheet_id)
            sheet = found[0]
            for index, seen in sorted(base.items()):
                if hand_as_entered(sheet, index) != seen:
                    return SyncResult(sheet, 0, {"hand": index, "server": hand_as_entered(sheet, index),
                                                 "reason": "changed"})
            for applied, operation in enumerate(operations):
                try:
                    sheet = await self._change(sheet_id, operation, language)
                except ScoreError as error:
                    hand = operation.get("hand")
                    index = hand if isinstance(hand, int) and not isinstance(hand, bool) else sheet.hand_index
                    return SyncResult(sheet, applied, {"hand": index, "server": hand_as_entered(sheet, index),
                                                       "reason": "refused", "message": str(error)})
            return SyncResult(sheet, len(operations), None)

    async def _change(self, sheet_id: str, operation: dict[str, Any], language: str) -> ScoreSheet:
        """:meth:`change` under the sheet's lock."""
        for _attempt in range(5):
            found = await self._current(sheet_id)
            if found is None:
                raise KeyError(sheet_id)
            sheet, rev = found
            # The change is made on a copy and shown only once it is saved: a page reading
            # the sheet meanwhile sees the saved one, and a refused save changes nothing.
            changed = ScoreSheet.from_record(sheet.record)
            changed.restore_undo(sheet.undo_records[-KEPT_UNDO:])
            with speaking(language):
                _apply(changed, operation)
            if changed.record == sheet.record:
                return sheet
            try:
                new_rev = await self.store.save_sheet(sheet_id, changed.record, rev=rev,
                                                      undo=changed.undo_records[-KEPT_UNDO:])
            except Conflict:  # another process saved it first: do it again on its sheet
                self.sheets.pop(sheet_id, None)
                continue
            self.sheets[sheet_id] = (changed, new_rev)
            return changed
        raise StoreError(f"scoresheet {sheet_id} kept changing")


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
        elif op == "choose_trump":
            suit = operation.get("suit")
            if not isinstance(suit, str):
                raise ScoreError(_("the chosen trump must be a suit letter: S, H, D or C"))
            sheet.choose_trump(suit)
        elif op == "edit":
            bids = operation.get("bids")
            tricks = operation.get("tricks")
            if not isinstance(bids, list) or not (tricks is None or isinstance(tricks, list)):
                raise ScoreError(_("bids and tricks must be lists"))
            # The trump only when the page sends one (a text, or null for none): else it stays.
            trump = operation.get("trump", False)
            if trump is not False and trump is not None and not isinstance(trump, str):
                raise ScoreError(_("the trump must be a text"))
            sheet.edit_hand(_int(operation.get("hand")), [None if b is None else _int(b) for b in bids],
                            None if tricks is None else [_int(t) for t in tricks], trump)
        elif op == "undo":
            sheet.undo()
        else:
            raise ScoreError(_("unknown operation"))
    except (OhHellError, IndexError) as error:
        if isinstance(error, ScoreError):
            raise
        raise ScoreError(str(error)) from error
