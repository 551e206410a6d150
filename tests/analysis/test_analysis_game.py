"""The analysis of a game record: open-hand facts, decision review, grading, text, command."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from helpers import random_state

from ohhell import Bid, Deal, Game, Play, preset
from ohhell.analysis import analyze_record, format_analysis, grading
from ohhell.analysis.game_analysis import MIN_BUDGET, work_per_hand
from ohhell.analysis.review import values_of
from ohhell.analysis.text import counts_text
from ohhell.bots.base import Suggestion
from ohhell.bots.one_card import win_chance
from ohhell.cards import SUIT_MASKS, parse_card, parse_cards
from ohhell.cli import main
from ohhell.errors import RecordError
from ohhell.i18n import LANGUAGES, set_language
from ohhell.record import play_random_game, record_from_state, state_from_record
from ohhell.rules import HandPlan

BUDGET = MIN_BUDGET


def short_game(seed: int = 5, players: int = 3, **knobs: Any) -> dict[str, Any]:
    """A whole game of hands of 3, 2, 1, 2 and 3 cards with random play."""
    rules = preset("classic", players=players, max_size=3, **knobs)
    return record_from_state(play_random_game(rules, seed=seed), names=[f"P{seat}" for seat in range(players)])


@cache
def short_analysis() -> dict[str, Any]:
    return analyze_record(short_game(), budget=BUDGET)


def one_hand_record(size: int, hands: list[str], turn_up: str, bids: list[int], plays: str = "",
                    players: int = 4, dealer: int = 0) -> dict[str, Any]:
    rules = preset("classic", players=players, schedule="explicit", hands=(HandPlan(size, "turn-up"),))
    state = Game(rules).new_initial_state(first_dealer=dealer)
    state.apply(Deal(tuple(tuple(parse_cards(text)) for text in hands), parse_card(turn_up)))
    for bid in bids:
        assert state.turn is not None
        state.apply(Bid(state.turn, bid))
    for card in parse_cards(plays):
        assert state.turn is not None
        state.apply(Play(state.turn, card))
    return record_from_state(state)


# ------------------------------------------------------------------------- the result


def test_every_decision_of_every_seat_is_reviewed() -> None:
    record = short_game()
    result = short_analysis()
    final = state_from_record(record)
    for hand, entry in zip(final.finished_hands, result["hands"], strict=True):
        decisions = entry["decisions"]
        assert len(decisions) == sum(b is not None for b in hand.bids) + len(hand.plays or ())
        assert [d["kind"] for d in decisions[:len(hand.bid_order)]] == ["bid"] * len(hand.bid_order)
        assert [d["action"] for d in decisions if d["kind"] == "play"] == [
            json.loads(json.dumps(card)) for card in record["hands"][hand.index]["plays"]]
        for decision in decisions:
            assert decision["hand"] == hand.index
            if decision["forced"]:
                assert decision["cost"] == 0.0 and decision["label"] is None
            elif decision["loss"] is not None:
                assert 0.0 <= decision["loss"] <= 100.0 and decision["cost"] >= 0.0
                assert decision["label"] == grading.label(decision["loss"])
    assert result["format"] == "ohhell-analysis/1" and result["complete"]
    assert result["totals"] == list(final.totals)


def test_last_trick_and_single_cards_are_forced() -> None:
    result = short_analysis()
    one_card_hand = next(h for h in result["hands"] if h["size"] == 1)
    assert all(d["forced"] for d in one_card_hand["decisions"] if d["kind"] == "play")
    assert all(d["forced"] for h in result["hands"] for d in h["decisions"]
               if d["kind"] == "play" and d["trick"] == h["size"] - 1)


def test_open_hand_facts_are_consistent_with_what_happened() -> None:
    result = short_analysis()
    for hand in result["hands"]:
        for facts in hand["open_hand"]:
            sure, helped, never = set(facts["sure"]), set(facts["with_help"]), set(facts["impossible"])
            assert sure | helped | never == set(range(hand["size"] + 1))
            assert not (sure & helped) and not (sure & never) and not (helped & never)
            # What happened was possible.
            assert facts["tricks"] in sure | helped
            expected = "sure" if facts["bid"] in sure else "gamble" if facts["bid"] in helped else "impossible"
            assert facts["verdict"] == expected


def test_seat_summary_counts() -> None:
    result = short_analysis()
    for seat in result["seats"]:
        mine = [d for h in result["hands"] for d in h["decisions"] if d["seat"] == seat["seat"]]
        assert seat["decisions"] == len(mine)
        assert seat["choices"] == sum(not d["forced"] for d in mine)
        assert seat["blunders"] == sum(d["label"] == "blunder" for d in mine)
        losses = [d["loss"] for d in mine if not d["forced"] and d["loss"] is not None]
        assert seat["accuracy"] == pytest.approx(round(grading.game_accuracy(losses) or 0.0, 1))
        bids = seat["bids"]
        assert bids["sure"] + bids["gamble"] + bids["impossible"] + bids["unsettled"] == bids["total"] == 5
    costly = result["costliest"]
    assert costly == sorted(costly, key=lambda d: -d["loss"])


def test_progress_reaches_the_total_and_same_seed_same_result() -> None:
    record = short_game(seed=8)
    seen: list[tuple[int, int]] = []
    first = analyze_record(record, budget=BUDGET, progress=lambda done, total: seen.append((done, total)))
    total = sum(work_per_hand(state_from_record(record)).values())
    assert seen[0] == (0, total) and seen[-1] == (total, total)
    assert [done for done, _ in seen] == sorted(done for done, _ in seen)
    again = analyze_record(record, budget=BUDGET)
    assert again["hands"] == first["hands"] and again["seats"] == first["seats"]


def test_parallel_jobs_give_the_same_answers() -> None:
    record = short_game(seed=9)
    assert analyze_record(record, budget=BUDGET, jobs=2)["hands"] == analyze_record(record, budget=BUDGET)["hands"]


def test_a_known_blunder_is_labelled() -> None:
    # One card each, spades trump (7 turned). Seat 1 bids first and leads with the 2 of hearts:
    # it takes the trick only when none of the three others holds a heart or a trump (13%).
    # It bids 1: the bot counts the chance exactly and prefers 0.
    record = one_hand_record(1, ["QD", "2H", "AC", "9S"], "7S", [1, 0, 1, 0], plays="2H AC 9S QD")
    result = analyze_record(record, budget=BUDGET)
    bid = result["hands"][0]["decisions"][0]
    assert (bid["seat"], bid["kind"], bid["action"], bid["best"]) == (1, "bid", "1", "0")
    spades = SUIT_MASKS[0]
    unseen = ((1 << 52) - 1) & ~(1 << parse_card("2H")) & ~(1 << parse_card("7S"))
    chance = win_chance(parse_card("2H"), spades, unseen, position=0, players=4)
    assert bid["taken_chance"] == pytest.approx(chance, abs=1e-4)
    assert bid["best_chance"] == pytest.approx(1 - chance, abs=1e-4)
    assert bid["cost"] == pytest.approx(10 * (1 - chance) - 11 * chance, abs=1e-3)
    assert bid["loss"] == pytest.approx(bid["cost"] * 10, abs=1e-2) and bid["label"] == "blunder"
    facts = result["hands"][0]["open_hand"][1]  # the ace of clubs and the 9 of trumps beat it
    assert facts["verdict"] == "impossible" and facts["sure"] == [0]


def test_a_good_decision_costs_nothing_and_the_hook_forces() -> None:
    # Seat 1 leads the 2 of hearts and rightly bids 0. The others bid 0 too, so the hook
    # leaves the dealer (seat 0), even with the ace of trumps, only 0: a forced decision.
    record = one_hand_record(1, ["AS", "2H", "3C", "4D"], "7S", [0, 0, 0, 0], plays="2H 3C 4D AS")
    result = analyze_record(record, budget=BUDGET)
    first, *_others, dealer = result["hands"][0]["decisions"][:4]
    assert first["action"] == first["best"] == "0" and first["cost"] == 0.0 and first["label"] is None
    assert dealer["seat"] == 0 and dealer["forced"] and dealer["cost"] == 0.0
    assert result["hands"][0]["open_hand"][0]["verdict"] == "impossible"  # the ace of trumps takes it


def test_values_are_read_from_the_public_suggestion() -> None:
    suggestion = Suggestion(Bid(0, 1), {"bid 0": 0.25, "bid 1": 0.75}, "probability of making the bid",
                            {"expected_score": {"0": 2.5, "1": 8.25}})
    assert values_of(suggestion, Bid(0, 0)) == (2.5, 0.25)
    card = Suggestion(Play(0, parse_card("AS")), {"play AS": 0.5}, "probability of making the bid",
                      {"expected_score": {"AS": 5.5}})
    assert values_of(card, Play(0, parse_card("AS"))) == (5.5, 0.5)
    assert values_of(card, Play(0, parse_card("KS"))) == (None, None)
    assert values_of(Suggestion(Bid(0, 1), {"bid 1": 1.0}, "heuristic bid"), Bid(0, 1)) == (None, None)


# ------------------------------------------------------------------------- rules and records


def test_unfinished_and_scoresheet_records() -> None:
    rules = preset("classic", players=4, max_size=3)
    unfinished = record_from_state(random_state(rules, seed=3, steps=60))
    result = analyze_record(unfinished, budget=BUDGET)
    assert not result["complete"]
    assert all(hand["open_hand"] is not None for hand in result["hands"])
    sheet = {"format": "ohhell/1", "rules": {"preset": "classic", "players": 3, "max_size": 2}, "first_dealer": 0,
             "hands": [{"bids": [1, 0, 0], "tricks": [1, 1, 0], "trump": "H"}]}
    result = analyze_record(sheet, budget=BUDGET)
    assert result["hands"][0]["open_hand"] is None and result["hands"][0]["decisions"] == []


@pytest.mark.parametrize(("name", "players"), [("ne-blackout", 5), ("la-podrida", 4), ("jokers", 4),
                                               ("up-and-down-the-river", 3)])
def test_rule_variants(name: str, players: int) -> None:
    rules = preset(name, players=players, max_size=4)
    record = record_from_state(random_state(rules, seed=1, steps=200))
    result = analyze_record(record, budget=BUDGET)
    assert result["hands"], name
    for hand in result["hands"]:
        for facts in hand["open_hand"]:
            reach = set(facts["sure"] or []) | set(facts["with_help"] or [])
            assert facts["with_help"] is None or facts["tricks"] in reach
    if name == "ne-blackout":
        kinds = {d["kind"] for h in result["hands"] for d in h["decisions"]}
        assert "play" in kinds


def test_devils_bridge_blind_hand() -> None:
    rules = preset("devils-bridge", players=3, max_size=2)
    record = record_from_state(play_random_game(rules, seed=2))
    result = analyze_record(record, budget=BUDGET)
    last = result["hands"][-1]
    assert last["size"] == 1 and len(last["decisions"]) == 6


def test_bad_records_and_budget() -> None:
    with pytest.raises(RecordError):
        analyze_record({"format": "ohhell/1"})
    with pytest.raises(ValueError):
        analyze_record(short_game(), budget=1)


# ------------------------------------------------------------------------- grading


def test_stake_under_each_scoring() -> None:
    assert grading.stake(preset("classic"), 2, 5) == 12
    assert grading.stake(preset("contract-whist"), 2, 5) == 12 - 3  # made 12; one over: 3 points
    assert grading.stake(preset("german-bridge"), 3, 5) == 19 - (-1)
    assert grading.stake(preset("7-truf"), 2, 5) == 20 - 3
    assert grading.stake(preset("boerenbridge"), None, 5) == 5
    assert grading.stake(preset("classic"), 0, 1) == 10


def test_labels_and_accuracy() -> None:
    assert [grading.label(x) for x in (0, 4.99, 5, 14.99, 15, 29.99, 30, 100)] == [
        None, None, "slip", "slip", "mistake", "mistake", "blunder", "blunder"]
    assert grading.decision_accuracy(0) == pytest.approx(100.0, abs=1e-3)
    assert grading.decision_accuracy(100) == 0.0
    values = [grading.decision_accuracy(x) for x in range(0, 101, 5)]
    assert values == sorted(values, reverse=True)
    assert grading.game_accuracy([]) is None
    assert grading.loss(5.5, 11) == 50.0 and grading.loss(50, 11) == 100.0


# ------------------------------------------------------------------------- text and command


def test_text_in_every_language() -> None:
    result = short_analysis()
    try:
        for language in LANGUAGES:
            set_language(language)
            text = format_analysis(result)
            assert "P0" in text and "P2" in text
    finally:
        set_language("en")
    text = format_analysis(result)
    assert "Analysis of the game" in text and "With every card face up" in text
    assert "With every card face up" not in format_analysis(result, open_hands=False)
    assert counts_text([0, 1, 2, 5, 7, 8]) == "0–2, 5, 7–8" and counts_text(None) == "not settled"


def test_command(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(short_game(seed=4)), encoding="utf-8")
    runner = CliRunner()
    out = runner.invoke(main, ["analyze", str(path), "--json", "--budget", str(BUDGET)])
    assert out.exit_code == 0, out.output
    data = json.loads(out.output)
    assert data["settings"]["budget"] == BUDGET and len(data["hands"]) == 5
    out = runner.invoke(main, ["analyze", "game", str(path), "--budget", str(BUDGET), "--brief"])
    assert out.exit_code == 0 and "accuracy" in out.output and "face up" not in out.output
    out = runner.invoke(main, ["--lang", "ru", "analyze", str(path), "--budget", str(BUDGET)])
    assert out.exit_code == 0 and "Analysis of the game" not in out.output
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "ohhell/1"}', encoding="utf-8")
    out = runner.invoke(main, ["analyze", str(bad), "--json"])
    assert out.exit_code == 1 and json.loads(out.output)["error"]["kind"] == "bad-format"
    assert runner.invoke(main, ["analyze", str(tmp_path / "missing.json")]).exit_code == 2
    assert runner.invoke(main, ["analyze", str(path), "--budget", "5"]).exit_code == 2


def test_without_the_c_solver_the_same_facts(monkeypatch: pytest.MonkeyPatch) -> None:
    from ohhell.analysis import solver

    record = short_game()
    with_c = short_analysis()
    monkeypatch.setattr(solver, "NATIVE", False)
    in_python = analyze_record(record, budget=1000)
    assert in_python["settings"]["solver"] == "python"
    settled = 0
    for c_hand, py_hand in zip(with_c["hands"], in_python["hands"], strict=True):
        for c_facts, py_facts in zip(c_hand["open_hand"], py_hand["open_hand"], strict=True):
            for key in ("sure", "with_help", "impossible", "verdict"):
                if py_facts[key] is not None:
                    assert py_facts[key] == c_facts[key]
                    settled += 1
    assert settled > 40


def test_the_progress_bar_draws_on_a_terminal(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``ohhell analyze --progress`` draws rich's bar on standard error, on a terminal (forced
    here: the test has none), up to the number of hands, and prints the analysis as usual;
    ``--no-progress`` draws nothing."""
    path = tmp_path / "game.json"
    record = short_game()
    path.write_text(json.dumps(record), encoding="utf-8")
    monkeypatch.setenv("TTY_COMPATIBLE", "1")  # rich: standard error is a terminal
    monkeypatch.setenv("COLUMNS", "100")
    result = CliRunner().invoke(main, ["analyze", str(path), "--budget", str(BUDGET), "--progress"])
    assert result.exit_code == 0, result.output
    drawn = result.stderr
    units = sum(work_per_hand(state_from_record(record)).values())  # what the bar counts: decisions
    assert "\x1b[" in drawn and f"{units}/{units}" in drawn, drawn[-400:]
    assert "━" in drawn  # the bar itself
    assert "P0" in result.stdout  # the analysis, as without the bar
    quiet = CliRunner().invoke(main, ["analyze", str(path), "--budget", str(BUDGET), "--no-progress"])
    assert quiet.exit_code == 0 and quiet.stderr == "" and quiet.stdout == result.stdout
