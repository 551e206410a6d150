"""The scorekeeper for games played with real cards: one implementation for the terminal
(``ohhell score``) and the web page.

A :class:`ScoreSheet` keeps an ``ohhell/1`` record of scoresheet hands (bids and tricks,
no cards) and checks every change by replaying it with the rules engine, so the schedule,
the dealer, the hook, the tricks adding up and the scoring are the engine's.

>>> from ohhell.rules import preset
>>> sheet = ScoreSheet(preset("classic", players=4), ["Ann", "Bob", "Cy", "Dee"], first_dealer=3)
>>> sheet.dealer, sheet.hand_size, sheet.next_bidder
(3, 10, 0)
>>> for seat, bid in [(0, 1), (1, 2), (2, 0)]:
...     sheet.bid(seat, bid)
>>> sheet.forbidden_bid
7
>>> sheet.bid(3, 7)
Traceback (most recent call last):
...
ohhell.scorekeeper.ScoreError: the dealer may not bid 7: the bids would add up to 10, the number of tricks
>>> sheet.bid(3, 3); sheet.record_tricks([1, 3, 0, 6])
>>> sheet.totals
[11, 0, 10, 0]
"""

from __future__ import annotations

import copy
import json
import os
import secrets
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from ohhell.cards import card_name, parse_card, parse_suit, suit_letter
from ohhell.errors import OhHellError, RecordError
from ohhell.game import Phase, State
from ohhell.i18n import _
from ohhell.record import FORMAT, replay_result, state_from_record
from ohhell.rules import Rules
from ohhell.spreadsheet import csv_text


class ScoreError(OhHellError):
    """A change to a scoresheet that the rules do not allow (the sheet is unchanged)."""


@dataclass(frozen=True)
class PlayerStats:
    """How one player did: hands bid, bids made, zero bids made, points."""

    hands: int
    made: int
    zero_bids: int
    zero_made: int
    points: int
    best_hand: int | None

    @property
    def made_share(self) -> float:
        return self.made / self.hands if self.hands else 0.0


class ScoreSheet:
    """A game kept on paper: hands of bids and tricks under the rules."""

    def __init__(self, rules: Rules, names: Sequence[str], first_dealer: int = 0,
                 record: dict[str, Any] | None = None) -> None:
        if len(names) != rules.players:
            raise ScoreError(_("%(n)d players need %(n)d names") % {"n": rules.players})
        if any(not str(name).strip() for name in names):
            raise ScoreError(_("every player needs a name"))
        self.rules = rules
        cleaned = [str(name).strip() for name in names]
        base = record or {"format": FORMAT, "rules": rules.to_json(), "names": cleaned,
                          "first_dealer": first_dealer, "hands": []}
        self._record: dict[str, Any] = copy.deepcopy(base)
        self._record["names"] = cleaned
        self._history: list[dict[str, Any]] = []
        self.state = self._replay(self._record)

    @property
    def names(self) -> list[str]:
        """The players' names in seat order (a copy; :meth:`rename` changes them)."""
        return list(self._record["names"])

    # ------------------------------------------------------------------ reading

    @classmethod
    def from_record(cls, record: dict[str, Any]) -> ScoreSheet:
        """A sheet from a record of scoresheet hands (a :class:`ScoreError` if it breaks a rule)."""
        try:
            state = state_from_record(record)
        except RecordError as error:
            raise ScoreError(str(error)) from error
        names = record.get("names") or [_("Player %(n)d") % {"n": seat + 1} for seat in range(state.num_players)]
        if any("deal" in hand for hand in record["hands"]):
            raise ScoreError(_("this record has dealt cards; the scorekeeper keeps hands of bids and tricks"))
        return cls(state.rules, names, record["first_dealer"], {**record, "names": names})

    @property
    def record(self) -> dict[str, Any]:
        """The ``ohhell/1`` record of the sheet (a copy)."""
        return copy.deepcopy(self._record)

    @property
    def hand_index(self) -> int:
        """The hand being played now (0-based); the number of hands finished."""
        return len(self.state.finished_hands)

    @property
    def finished(self) -> bool:
        return self.state.is_terminal()

    @property
    def dealer(self) -> int:
        return self.state.dealer

    @property
    def hand_size(self) -> int:
        return self.state.hand_size

    @property
    def hand_count(self) -> int | None:
        return self.state.game.schedule_length

    @property
    def bid_order(self) -> tuple[int, ...]:
        return self.state.bid_order

    @property
    def bids(self) -> list[int | None]:
        """The bids of the hand in progress, by seat."""
        return list(self.state.bids)

    @property
    def next_bidder(self) -> int | None:
        """The seat to bid next (``None`` when every bid is in)."""
        if self.state.phase in (Phase.SHUFFLE, Phase.BIDDING) and not self._bidding_complete():
            bids = self._current_bids_by_seat()
            for seat in self.state.bid_order:
                if bids[seat] is None:
                    return seat
        return None

    @property
    def forbidden_bid(self) -> int | None:
        """The bid the hook forbids the dealer, when the dealer is next to bid."""
        if self.next_bidder != self.state.dealer or not self.rules.hook or self.rules.bidding != "in-turn":
            return None
        others = sum(bid for bid in self._current_bids_by_seat() if bid is not None)
        forbidden = self.hand_size - others
        return forbidden if 0 <= forbidden <= self.hand_size else None

    @property
    def trump(self) -> str | None:
        """The trump of the hand in progress: a suit letter, ``None`` if none or not known yet."""
        if self.state.phase in (Phase.BIDDING, Phase.TRICKS):
            return suit_letter(self.state.trump) if self.state.trump is not None else None
        plan = self.state.plan
        if plan is not None and plan.trump in ("S", "H", "D", "C"):
            return plan.trump
        return None

    @property
    def trump_chooser(self) -> int | None:
        """The highest bidder, who chooses trump now (``trump: chosen``, every bid in); else ``None``."""
        return self.state.trump_chooser if self.state.phase == Phase.CHOOSING_TRUMP else None

    @property
    def trump_is_chosen(self) -> bool:
        """Whether the highest bidder chooses this hand's trump after the bidding (``trump: chosen``)."""
        plan = self.state.plan
        return plan is not None and plan.trump == "chosen" and not self.finished

    @property
    def trump_is_turned(self) -> bool:
        """Whether this hand's trump comes from a turned card (so the keeper may enter it)."""
        plan = self.state.plan
        return plan is not None and plan.trump.startswith("turn-up") and (
            self.rules.deck_size > self.rules.players * self.hand_size or self.rules.real_cards)

    @property
    def totals(self) -> list[int]:
        return list(self.state.totals)

    def hands(self) -> list[dict[str, Any]]:
        """Every hand so far as the replay result gives it (dealer, size, trump, bids by seat,
        tricks, scores)."""
        return list(replay_result(self.state, started=len(self._record["hands"]))["hands"])

    def totals_by_hand(self) -> list[list[int]]:
        """The running totals after each finished hand (the chart)."""
        return [list(result.totals) for result in self.state.finished_hands]

    def winners(self) -> list[int]:
        return self.state.winners()

    def stats(self) -> list[PlayerStats]:
        """For each player: bids made, zero bids made, points."""
        out = []
        for seat in range(self.rules.players):
            hands = made = zeros = zeros_made = 0
            best: int | None = None
            for result in self.state.finished_hands:
                bid = result.bids[seat]
                if bid is None:
                    continue
                hands += 1
                made += bid == result.tricks[seat]
                zeros += bid == 0
                zeros_made += bid == 0 and result.tricks[seat] == 0
                best = result.scores[seat] if best is None else max(best, result.scores[seat])
            out.append(PlayerStats(hands, made, zeros, zeros_made, self.state.totals[seat], best))
        return out

    # ------------------------------------------------------------------ changing

    def set_trump(self, trump: str | None) -> None:
        """Enter the trump of the hand in progress: a turned card (``"7H"``), a suit letter, or
        ``None``; only before the first bid."""
        if self.trump_is_chosen:
            raise ScoreError(_("the highest bidder chooses trump once every player has bid: enter it then"))
        current = self._current()
        if current is not None and current.get("bids"):
            raise ScoreError(_("the trump can only be entered before the first bid"))
        value = _normal_trump(trump)
        self._change(lambda record: self._ensure_current(record).__setitem__("trump", value))

    def choose_trump(self, suit: str) -> None:
        """Enter the suit the highest bidder chose (a letter or symbol), once every bid is in."""
        chooser = self.trump_chooser
        if chooser is None:
            raise ScoreError(_("the highest bidder chooses trump once every player has bid: enter it then")
                             if self.trump_is_chosen and not self._bidding_complete()
                             else _("nobody chooses trump now"))
        value = _normal_trump(suit)
        if value is None or len(value) != 1:
            raise ScoreError(_("%(name)s chooses a suit: S, H, D or C") % {"name": self.names[chooser]})
        self._change(lambda record: record["hands"][-1].__setitem__("chosen_trump", value))

    def bid(self, seat: int, bid: int) -> None:
        """Enter ``seat``'s bid (in bidding order; the hook is enforced)."""
        if self.finished:
            raise ScoreError(_("the game is over"))
        if self.trump_chooser is not None:
            raise ScoreError(_("every player has bid; enter the trump %(name)s chose")
                             % {"name": self.names[self.trump_chooser]})
        if self._bidding_complete():
            raise ScoreError(_("every player has bid; enter the tricks"))
        if seat != self.next_bidder:
            raise ScoreError(_("it is %(name)s's turn to bid") % {"name": self.names[self.next_bidder or 0]})

        def change(record: dict[str, Any]) -> None:
            hand = self._ensure_current(record)
            self._set_bid(hand, seat, bid)

        self._change(change)

    def change_bid(self, seat: int, bid: int) -> None:
        """Change a bid of the hand in progress before the tricks are entered."""
        if self.finished or self._current() is None:
            raise ScoreError(_("there is no bid to change"))

        def change(record: dict[str, Any]) -> None:
            hand = self._ensure_current(record)
            self._set_bid(hand, seat, bid, replace=True)

        self._change(change)

    def record_tricks(self, tricks: Sequence[int]) -> None:
        """Enter the tricks each seat took (indexed by seat; they must add up to the hand size)."""
        if self.trump_chooser is not None:
            raise ScoreError(_("enter the trump %(name)s chose before the tricks")
                             % {"name": self.names[self.trump_chooser]})
        if not self._bidding_complete():
            raise ScoreError(_("enter every bid before the tricks"))
        values = [int(t) for t in tricks]
        self._change(lambda record: record["hands"][-1].__setitem__("tricks", values))

    def edit_hand(self, index: int, bids: Sequence[int | None], tricks: Sequence[int] | None,
                  trump: str | bool | None = False) -> None:
        """Replace hand ``index``: ``bids`` by seat, ``tricks`` by seat (``None`` for a hand in
        progress), and the trump if given. Every later hand is scored again."""
        if not 0 <= index < len(self._record["hands"]):
            raise ScoreError(_("there is no hand %(n)d") % {"n": index + 1})

        def change(record: dict[str, Any]) -> None:
            dealer = record["hands"][index].get("dealer", self._dealer_of(index))
            hand = record["hands"][index]
            hand["bids"] = self._bids_in_order(list(bids), dealer)
            if tricks is None:
                hand.pop("tricks", None)
            else:
                hand["tricks"] = [int(t) for t in tricks]
            if trump is not False and "chosen_trump" in hand:
                chosen = _normal_trump(trump)  # type: ignore[arg-type]
                if chosen is None or len(chosen) != 1:
                    raise ScoreError(_("a chosen trump is a suit: S, H, D or C"))
                hand["chosen_trump"] = chosen
            elif trump is not False:
                hand["trump"] = _normal_trump(trump)  # type: ignore[arg-type]

        self._change(change)

    def rename(self, names: Sequence[str]) -> None:
        """Give the players new names (in seat order; undone like any change). Every player needs
        a name, and no two the same."""
        cleaned = checked_names(names, self.rules.players)
        self._change(lambda record: record.__setitem__("names", cleaned))

    @property
    def can_undo(self) -> bool:
        """Whether there is a change to take back."""
        return bool(self._history)

    @property
    def undo_records(self) -> list[dict[str, Any]]:
        """The records before each change that can still be taken back, oldest first (a copy;
        :class:`ScoreStore` keeps the last :data:`KEPT_UNDO` of them, so that undo works after
        a resume)."""
        return copy.deepcopy(self._history)

    def restore_undo(self, records: Sequence[dict[str, Any]]) -> None:
        """Give back the changes :attr:`undo_records` listed (a record that no longer replays
        is dropped, with every older one: undo never leads to a broken sheet)."""
        kept: list[dict[str, Any]] = []
        for record in reversed(records):
            try:
                self._replay(record)
            except ScoreError:
                break
            kept.append(copy.deepcopy(record))
        self._history = kept[::-1]

    def undo(self) -> None:
        """Take back the last change."""
        if not self._history:
            raise ScoreError(_("there is nothing to undo"))
        self._record = self._history.pop()
        self.state = self._replay(self._record)

    # ------------------------------------------------------------------ export

    def to_json(self) -> str:
        return json.dumps(self._record, ensure_ascii=False, indent=1)

    def to_csv(self) -> str:
        """One row per hand: hand, dealer, cards, trump, then each player's bid, tricks, score and
        total."""
        header = [_("hand"), _("dealer"), _("cards"), _("trump")]
        for name in self.names:
            header += [f"{name} {_('bid')}", f"{name} {_('tricks')}", f"{name} {_('score')}",
                       f"{name} {_('total')}"]
        rows: list[list[Any]] = [header]
        for index, hand in enumerate(self.hands()):
            # The turned card as it was entered (7H), not only its suit: the sheet keeps it.
            entered = self._record["hands"][index].get("trump") if index < len(self._record["hands"]) else None
            row: list[Any] = [index + 1, self.names[hand["dealer"]], hand["size"], entered or hand["trump"] or ""]
            totals = self.state.finished_hands[index].totals if index < len(self.state.finished_hands) else None
            for seat in range(self.rules.players):
                score = hand["scores"][seat] if hand["scores"] is not None else ""
                row += [_blank(hand["bids"][seat]), hand["tricks"][seat] if hand["scores"] is not None else "",
                        score, totals[seat] if totals else ""]
            rows.append(row)
        return csv_text(rows)  # names a spreadsheet would read as formulas are neutralised

    # ------------------------------------------------------------------ internals

    def _replay(self, record: dict[str, Any]) -> State:
        try:
            return state_from_record(record)
        except RecordError as error:
            raise ScoreError(error.message) from error

    def _change(self, change: Any) -> None:
        candidate = copy.deepcopy(self._record)
        change(candidate)
        state = self._replay(candidate)
        self._history.append(self._record)
        self._record = candidate
        self.state = state

    def _current(self) -> dict[str, Any] | None:
        """The record entry of the hand in progress, if it has been started."""
        hands = self._record["hands"]
        if len(hands) > len(self.state.finished_hands):
            current: dict[str, Any] = hands[-1]
            return current
        return None

    def _ensure_current(self, record: dict[str, Any]) -> dict[str, Any]:
        hands = record["hands"]
        if len(hands) == len(self.state.finished_hands):
            if self.state.is_terminal():
                raise ScoreError(_("the game is over"))
            hands.append({"dealer": self.state.dealer, "size": self.state.hand_size, "trump": None, "bids": []})
        entry: dict[str, Any] = hands[-1]
        return entry

    def _dealer_of(self, index: int) -> int:
        return (int(self._record["first_dealer"]) + index) % self.rules.players

    def _seats_in_order(self, dealer: int) -> list[int]:
        n = self.rules.players
        if self.rules.bidding == "simultaneous":
            return list(range(n))
        return [(dealer + 1 + i) % n for i in range(n)]

    def _bids_in_order(self, by_seat: list[int | None], dealer: int) -> list[int | None]:
        ordered = [by_seat[seat] for seat in self._seats_in_order(dealer)]
        while ordered and ordered[-1] is None:
            ordered.pop()
        return ordered

    def _current_bids_by_seat(self) -> list[int | None]:
        current = self._current()
        by_seat: list[int | None] = [None] * self.rules.players
        if current is None:
            return by_seat
        for position, bid in enumerate(current.get("bids", [])):
            by_seat[self._seats_in_order(self.state.dealer)[position]] = bid
        return by_seat

    def _set_bid(self, hand: dict[str, Any], seat: int, bid: int, replace: bool = False) -> None:
        by_seat = self._current_bids_by_seat()
        if replace and by_seat[seat] is None:
            raise ScoreError(_("%(name)s has not bid yet") % {"name": self.names[seat]})
        by_seat[seat] = int(bid)
        hand["bids"] = self._bids_in_order(by_seat, self.state.dealer)

    def _bidding_complete(self) -> bool:
        return self.state.phase == Phase.TRICKS or (self.state.phase == Phase.BIDDING and not self.state.bid_order)


def checked_names(names: Sequence[str], players: int | None = None) -> list[str]:
    """The names of a new game or a renaming, without surrounding spaces; a :class:`ScoreError`
    when one is empty, two are the same (whatever the case), or (with ``players``) there are not
    that many.

    >>> checked_names([" Ann", "Bob ", "Cy"])
    ['Ann', 'Bob', 'Cy']
    >>> checked_names(["Ann", "ann", "Bob"])
    Traceback (most recent call last):
    ...
    ohhell.scorekeeper.ScoreError: two players may not have the same name: Ann, ann
    """
    cleaned = [str(name).strip() for name in names]
    if players is not None and len(cleaned) != players:
        raise ScoreError(_("%(n)d players need %(n)d names") % {"n": players})
    if any(not name for name in cleaned):
        raise ScoreError(_("every player needs a name"))
    folded = [name.casefold() for name in cleaned]
    twice = [name for name in cleaned if folded.count(name.casefold()) > 1]
    if twice:
        raise ScoreError(_("two players may not have the same name: %(names)s") % {"names": ", ".join(twice)})
    return cleaned


def _blank(value: Any) -> Any:
    return "" if value is None else value


def _normal_trump(trump: str | None) -> str | None:
    if trump is None or (isinstance(trump, str) and not trump.strip()):
        return None
    text = trump.strip()
    try:
        if len(text) == 1 or text in ("♠", "♥", "♦", "♣"):
            return suit_letter(parse_suit(text))
        return card_name(parse_card(text))
    except OhHellError as error:
        raise ScoreError(str(error)) from error


# ---------------------------------------------------------------------- storage


def default_directory() -> Path:
    """Where scoresheets are saved: the user's data directory (``OHHELL_DATA`` overrides it)."""
    override = os.environ.get("OHHELL_DATA")
    if override:
        return Path(override) / "scoresheets"
    import platformdirs

    return Path(platformdirs.user_data_dir("ohhell")) / "scoresheets"


@dataclass(frozen=True)
class SavedSheet:
    """A scoresheet on disk: its id, names, preset, progress and last change."""

    id: str
    names: list[str]
    preset: str
    hands_done: int
    finished: bool
    updated: float


KEPT_UNDO: Final = 100
"""Changes a saved sheet can still take back after it is resumed."""


class ScoreStore:
    """Scoresheets saved as JSON files (written atomically) in one directory."""

    def __init__(self, directory: Path | None = None) -> None:
        self.directory = directory or default_directory()

    def new_id(self) -> str:
        return time.strftime("%Y%m%d-%H%M%S-") + secrets.token_hex(3)

    def save(self, sheet_id: str, sheet: ScoreSheet) -> Path:
        self.directory.mkdir(parents=True, exist_ok=True)
        path = self.directory / f"{sheet_id}.json"
        data = {"id": sheet_id, "updated": time.time(), "record": sheet.record,
                "undo": sheet.undo_records[-KEPT_UNDO:]}
        handle, temporary = tempfile.mkstemp(dir=self.directory, suffix=".tmp")
        with os.fdopen(handle, "w", encoding="utf-8") as stream:
            json.dump(data, stream, ensure_ascii=False, indent=1)
            stream.flush()
            os.fsync(stream.fileno())
        os.replace(temporary, path)
        return path

    def load(self, sheet_id: str) -> ScoreSheet:
        path = self.directory / f"{sheet_id}.json"
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except FileNotFoundError as error:
            raise ScoreError(_("there is no saved game %(id)s") % {"id": sheet_id}) from error
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
            raise ScoreError(_("the saved game %(id)s is damaged: %(path)s is not a scoresheet ohhell can read")
                             % {"id": sheet_id, "path": path}) from error
        record = data.get("record") if isinstance(data, dict) else None
        if not isinstance(record, dict):
            raise ScoreError(_("the saved game %(id)s is damaged: %(path)s is not a scoresheet ohhell can read")
                             % {"id": sheet_id, "path": path})
        sheet = ScoreSheet.from_record(record)
        undo = data.get("undo")
        if isinstance(undo, list):
            sheet.restore_undo([record for record in undo if isinstance(record, dict)])
        return sheet

    def list(self) -> list[SavedSheet]:
        """Saved games, most recently changed first (damaged files are skipped)."""
        out: list[SavedSheet] = []
        if not self.directory.exists():
            return out
        for path in self.directory.glob("*.json"):
            try:
                data = json.loads(path.read_text(encoding="utf-8"))
                record = data["record"]
                state = state_from_record(record)
            except (OSError, ValueError, KeyError):
                continue
            out.append(SavedSheet(data.get("id", path.stem), list(record.get("names", [])),
                                  record["rules"].get("preset", "classic"), len(state.finished_hands),
                                  state.is_terminal(), float(data.get("updated", path.stat().st_mtime))))
        return sorted(out, key=lambda saved: saved.updated, reverse=True)

    def delete(self, sheet_id: str) -> None:
        (self.directory / f"{sheet_id}.json").unlink(missing_ok=True)
