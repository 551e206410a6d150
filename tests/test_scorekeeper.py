"""The scorekeeper for games with real cards (``ohhell.scorekeeper``), shared by ``ohhell score``
and the web app's scorekeeper page: the rules are the engine's, every refused entry leaves the
sheet as it was, and what is saved comes back whole."""

from __future__ import annotations

import csv
import io
import json
import random

import pytest

from ohhell.record import replay
from ohhell.rules import preset
from ohhell.scorekeeper import KEPT_UNDO, ScoreError, ScoreSheet, ScoreStore
from ohhell.scoring import hand_score

NAMES = ["Ann", "Bob", "Cy", "Dee"]


def sheet_of(players: int = 4, first_dealer: int = 0, **knobs: object) -> ScoreSheet:
    return ScoreSheet(preset("classic", players=players, real_cards=True, **knobs), NAMES[:players], first_dealer)


def play_hand(sheet: ScoreSheet, bids: dict[int, int], tricks: list[int]) -> None:
    for seat in sheet.bid_order:
        sheet.bid(seat, bids[seat])
    sheet.record_tricks(tricks)


def test_the_worked_example_of_the_rules() -> None:
    # The classic rules (docs/rules.md, section 1): bids 1, 2, 0; the dealer may not bid 2 and
    # bids 1; tricks 1, 3, 0, 1.
    sheet = sheet_of(max_size=5, first_dealer=3)
    assert (sheet.dealer, sheet.hand_size, sheet.bid_order) == (3, 5, (0, 1, 2, 3))
    for seat, bid in ((0, 1), (1, 2), (2, 0)):
        sheet.bid(seat, bid)
    assert sheet.forbidden_bid == 2
    sheet.bid(3, 1)
    sheet.record_tricks([1, 3, 0, 1])
    assert sheet.totals == [11, 0, 10, 11]
    assert sheet.hands()[0]["scores"] == [11, 0, 10, 11]


def test_bids_in_order_with_the_hook_and_refusals_change_nothing() -> None:
    sheet = sheet_of(max_size=3)
    order = sheet.bid_order
    before = sheet.record
    with pytest.raises(ScoreError, match="turn to bid"):
        sheet.bid(order[1], 1)
    with pytest.raises(ScoreError):
        sheet.record_tricks([1, 1, 1, 0])
    assert sheet.record == before
    for seat, bid in zip(order[:3], (1, 1, 0), strict=True):
        sheet.bid(seat, bid)
    dealer = order[3]
    assert sheet.next_bidder == dealer == sheet.dealer and sheet.forbidden_bid == 1
    before = sheet.record
    with pytest.raises(ScoreError, match="may not bid 1"):
        sheet.bid(dealer, 1)
    assert sheet.record == before and sheet.next_bidder == dealer
    sheet.bid(dealer, 2)
    with pytest.raises(ScoreError, match="add up"):
        sheet.record_tricks([1, 1, 0, 0])
    assert sheet.hand_index == 0
    sheet.record_tricks([1, 1, 0, 1])
    assert sheet.hand_index == 1


def test_totals_follow_the_engine_scoring_over_a_whole_game() -> None:
    rng = random.Random(5)
    for scoring in ("exact", "trick-plus-bonus", "german-bridge"):
        rules = preset("classic", players=4, real_cards=True, max_size=3, scoring=scoring)
        sheet = ScoreSheet(rules, NAMES)
        expected = [0] * 4
        while not sheet.finished:
            size = sheet.hand_size
            bids: dict[int, int] = {}
            for seat in sheet.bid_order:
                choices = [b for b in range(size + 1) if seat != sheet.dealer or b != sheet.forbidden_bid]
                bids[seat] = rng.choice(choices)
                sheet.bid(seat, bids[seat])
            tricks = [0] * 4
            for _ in range(size):
                tricks[rng.randrange(4)] += 1
            sheet.record_tricks(tricks)
            for seat in range(4):
                expected[seat] += hand_score(rules, bids[seat], tricks[seat], size)
            assert sheet.totals == expected
        assert len(sheet.totals_by_hand()) == sheet.hand_count == 5
        top = max(expected)
        assert sheet.winners() == [seat for seat in range(4) if expected[seat] == top]
        assert replay(sheet.record)["totals"] == expected


def test_change_a_bid_and_edit_a_past_hand_rescores_everything_after_it() -> None:
    sheet = sheet_of(max_size=2)  # hands of 2, 1, 2 cards; seat 0 deals first
    assert sheet.bid_order == (1, 2, 3, 0)
    sheet.bid(1, 1)
    sheet.change_bid(1, 0)
    assert sheet.bids[1] == 0
    sheet.bid(2, 0)
    sheet.bid(3, 0)
    sheet.bid(0, 1)
    sheet.record_tricks([1, 1, 0, 0])
    play_hand(sheet, {2: 1, 3: 0, 0: 0, 1: 1}, [0, 0, 1, 0])
    assert sheet.totals == [11 + 10, 0 + 0, 10 + 11, 10 + 10]
    sheet.edit_hand(0, [1, 0, 0, 0], [2, 0, 0, 0])  # seat 0 took both tricks of hand 1
    assert sheet.totals == [0 + 10, 10 + 0, 10 + 11, 10 + 10]
    before = sheet.record
    with pytest.raises(ScoreError):
        sheet.edit_hand(0, [1, 0, 0, 0], [3, 0, 0, 0])  # 3 tricks of 2
    with pytest.raises(ScoreError):
        sheet.edit_hand(0, [1, 0, 0, 1], [2, 0, 0, 0])  # the dealer's hooked bid
    with pytest.raises(ScoreError):
        sheet.edit_hand(7, [1, 0, 0, 0], [2, 0, 0, 0])
    assert sheet.record == before


def test_undo_steps_back_through_every_change() -> None:
    sheet = sheet_of(max_size=2)
    records = [sheet.record]
    for seat in sheet.bid_order:
        sheet.bid(seat, 0 if seat != sheet.dealer else 1)
        records.append(sheet.record)
    assert records.pop() == sheet.record
    while sheet.can_undo:
        sheet.undo()
        assert sheet.record == records.pop()
    assert not records
    with pytest.raises(ScoreError):
        sheet.undo()


def test_trump_entered_before_the_first_bid_only() -> None:
    sheet = sheet_of(max_size=2)
    assert sheet.trump_is_turned
    sheet.set_trump("7h")
    assert sheet.trump == "H"
    sheet.bid(sheet.bid_order[0], 0)
    with pytest.raises(ScoreError, match="before the first bid"):
        sheet.set_trump("S")
    assert sheet.trump == "H"


def test_statistics_csv_and_record() -> None:
    sheet = sheet_of(3, max_size=1)  # one hand of one card; seat 0 deals
    play_hand(sheet, {1: 0, 2: 0, 0: 0}, [1, 0, 0])
    assert sheet.finished and sheet.totals == [0, 10, 10] and sheet.winners() == [1, 2]
    stats = sheet.stats()
    assert [(s.hands, s.made, s.zero_bids, s.zero_made) for s in stats] == [(1, 0, 1, 0), (1, 1, 1, 1), (1, 1, 1, 1)]
    rows = list(csv.reader(io.StringIO(sheet.to_csv())))
    assert rows[0][:4] == ["hand", "dealer", "cards", "trump"] and len(rows) == 2
    assert [int(rows[1][4 + 4 * seat + 3]) for seat in range(3)] == sheet.totals
    record = json.loads(sheet.to_json())
    assert record["format"] == "ohhell/1" and "deal" not in record["hands"][0]
    assert ScoreSheet.from_record(record).totals == sheet.totals
    with pytest.raises(ScoreError, match="over"):
        sheet.bid(1, 0)


def test_a_record_with_dealt_cards_is_not_a_scoresheet() -> None:
    from ohhell.record import play_random_game, record_from_state

    record = record_from_state(play_random_game(preset("classic", players=3, max_size=1), seed=1))
    with pytest.raises(ScoreError, match="dealt cards"):
        ScoreSheet.from_record(record)


def test_more_players_than_a_deck_allows_with_a_chosen_largest_hand() -> None:
    rules = preset("classic", players=10, real_cards=True, max_size=4)
    sheet = ScoreSheet(rules, [f"P{i}" for i in range(10)])
    assert [plan.size for plan in rules.hand_plans()] == [4, 3, 2, 1, 2, 3, 4]
    assert sheet.hand_size == 4 and len(sheet.bid_order) == 10


def test_names_are_required() -> None:
    with pytest.raises(ScoreError):
        ScoreSheet(preset("classic", players=3, real_cards=True), ["Ann", "Bob"])
    with pytest.raises(ScoreError):
        ScoreSheet(preset("classic", players=3, real_cards=True), ["Ann", " ", "Cy"])


def test_store_saves_lists_loads_with_undo_and_deletes(tmp_path) -> None:
    store = ScoreStore(tmp_path / "sheets")
    assert store.list() == []
    sheet = sheet_of(3, max_size=2)
    for seat in sheet.bid_order:
        sheet.bid(seat, 0 if seat != sheet.dealer else 1)
    sheet_id = store.new_id()
    store.save(sheet_id, sheet)
    [saved] = store.list()
    assert (saved.id, saved.names, saved.hands_done, saved.finished) == (sheet_id, NAMES[:3], 0, False)
    loaded = store.load(sheet_id)
    assert loaded.record == sheet.record and loaded.undo_records == sheet.undo_records
    loaded.undo()
    assert loaded.bids[sheet.dealer] is None
    (tmp_path / "sheets" / "broken.json").write_text("{not json", encoding="utf-8")
    assert [s.id for s in store.list()] == [sheet_id]  # a damaged file is skipped
    with pytest.raises(ScoreError, match="damaged"):
        store.load("broken")
    store.delete(sheet_id)
    with pytest.raises(ScoreError, match="no saved game"):
        store.load(sheet_id)


def test_undo_works_after_the_game_is_saved_and_resumed(tmp_path) -> None:
    store = ScoreStore(tmp_path)
    sheet = ScoreSheet(preset("classic", players=3, real_cards=True, max_size=2), ["Ann", "Bob", "Cy"])
    records = [sheet.record]
    for seat, bid in zip(sheet.bid_order, (1, 0, 0), strict=True):
        sheet.bid(seat, bid)
        records.append(sheet.record)
    sheet.record_tricks([1, 1, 0])
    sheet_id = store.new_id()
    store.save(sheet_id, sheet)
    resumed = store.load(sheet_id)
    assert resumed.record == sheet.record and resumed.can_undo
    for expected in reversed(records):
        resumed.undo()
        assert resumed.record == expected
    assert not resumed.can_undo
    # A saved undo list that no longer fits the sheet is dropped, never replayed into a broken sheet.
    path = store.directory / f"{sheet_id}.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    data["undo"][0]["hands"] = [{"bids": [9, 9, 9]}]
    path.write_text(json.dumps(data), encoding="utf-8")
    damaged = store.load(sheet_id)
    assert damaged.record == sheet.record
    assert len(damaged.undo_records) == len(records) - 1


def test_the_store_keeps_the_last_changes_only(tmp_path) -> None:
    store = ScoreStore(tmp_path)
    sheet = sheet_of(3, max_size=2)
    seat = sheet.bid_order[0]
    sheet.bid(seat, 0)
    for index in range(KEPT_UNDO + 20):
        sheet.change_bid(seat, index % 2)
    store.save("s", sheet)
    assert len(store.load("s").undo_records) == KEPT_UNDO
