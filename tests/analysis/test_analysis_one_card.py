"""The exact one-card tables: closed forms, an independent implementation, brute force."""

from __future__ import annotations

import json
import random
from fractions import Fraction
from itertools import permutations, product
from math import comb, perm
from pathlib import Path

import pytest
from click.testing import CliRunner

from ohhell import preset
from ohhell.analysis.one_card_output import CSV_COLUMNS, format_table, plot, write_csv
from ohhell.bots.exact_one_card import count_distinct, setups, solve_one_card
from ohhell.bots.one_card import trick_winner, win_chance
from ohhell.cards import SUIT_MASKS, parse_card
from ohhell.cli import main
from ohhell.i18n import LANGUAGES, set_language
from ohhell.scoring import hand_score
from ohhell.spreadsheet import FORMULA_TRIGGERS


def test_count_distinct_against_brute_force() -> None:
    rng = random.Random(4)
    for _ in range(150):
        rows = [rng.getrandbits(7) for _ in range(rng.randrange(1, 5))]
        expected = sum(1 for choice in permutations(range(7), len(rows))
                       if all(row >> card & 1 for row, card in zip(rows, choice, strict=True)))
        assert count_distinct(rows) == expected


@pytest.mark.parametrize("players", [3, 4, 5, 6, 7])
def test_leading_a_plain_card_closed_form(players: int) -> None:
    # 7 of spades turned. Leading a plain card of rank r, the others must hold no trump (12 are
    # left) and no higher card of its suit (12 - r): a hypergeometric chance.
    table = solve_one_card(preset("classic", players=players), turned="7S")
    others = players - 1
    for rank in range(13):
        good = 50 - 12 - (12 - rank)
        assert table.row(1, "plain", rank).win == Fraction(perm(good, others), perm(50, others))
    # The ace of trumps always wins; the 2 of trumps needs no higher trump out (11 left).
    assert table.row(1, "trump", 12).win == 1
    assert table.row(2, "trump", 0).win == Fraction(comb(39, others), comb(50, others))


def test_relevantmisc_figure() -> None:
    # Leading the 5 of diamonds against three others, spades trump, no turned card known: 29
    # of the 51 unseen cards lose to it (the table published at relevantmisc.com, also in the
    # bots' one-card module). Our 7-of-spades table keeps the 7 out: 29 weaker of 50.
    table = solve_one_card(preset("classic", players=4), turned="7S")
    assert table.row(1, "plain", 3).win == Fraction(29 * 28 * 27, 50 * 49 * 48)


@pytest.mark.parametrize(("name", "players", "turned"), [("classic", 4, "9H"), ("classic", 5, "2C"),
                                                         ("jokers", 4, "X1"), ("jokers", 3, "KD"),
                                                         ("classic", 4, None)])
def test_win_chance_agrees_with_the_bots_exact_code(name: str, players: int, turned: str | None) -> None:
    rules = preset(name, players=players)
    if turned is None:
        rules = rules.replace(trump="none")
    table = solve_one_card(rules, turned=turned if rules.trump != "none" else None)
    setup, _weight = setups(rules, turned if rules.trump != "none" else None)[0]
    unseen_all = setup.pool
    for row in table.rows:
        card = next(c for c in range(54) if unseen_all >> c & 1 and setup.kind(c) == (row.role, row.rank))
        position = (row.place - 1 - setup.leader_place) % players
        expected = win_chance(card, setup.trump, unseen_all & ~(1 << card), position, players)
        assert float(row.win) == pytest.approx(expected, abs=1e-12), (row.place, row.role, row.rank)
        assert row.win_given_bids == row.win


def brute_force(players: int, turned: str) -> dict[tuple[int, int], tuple[Fraction, Fraction, Fraction, Fraction]]:
    """Every deal of a 32-card deck to ``players`` with ``turned`` turned, bids by the
    definition of optimal play (each place's best bid given its card and the earlier bids,
    reading the earlier bids by the earlier places' rules), and for each place and card: the
    chance of taking the trick, of bidding 1, of making the bid and the expected score."""
    rules = preset("classic", players=players, deck="32")
    t = parse_card(turned)
    trump = SUIT_MASKS[t // 13]
    pool = [c for c in range(52) if rules.deck_mask >> c & 1 and c != t]
    deals = list(permutations(pool, players))  # deals[i][place]
    wins = [trick_winner(dict(enumerate(deal)), 0, players, trump) for deal in deals]

    def score(bid: int, won: bool) -> int:
        return hand_score(rules, bid, 1 if won else 0, 1)

    bids: list[list[int]] = [[] for _ in deals]
    for place in range(players):
        # Group the deals by what this place knows: its card and the bids so far.
        groups: dict[tuple[int, tuple[int, ...]], list[int]] = {}
        for index, deal in enumerate(deals):
            groups.setdefault((deal[place], tuple(bids[index])), []).append(index)
        for (_card, heard), members in groups.items():
            won = sum(wins[i] == place for i in members)
            allowed = [0, 1]
            if place == players - 1:
                allowed = [b for b in (0, 1) if b != 1 - sum(heard)]
            best = max(allowed, key=lambda b: (won * score(b, True) + (len(members) - won) * score(b, False), -b))
            for i in members:
                bids[i].append(best)
    out = {}
    for place, card in product(range(players), pool):
        members = [i for i, deal in enumerate(deals) if deal[place] == card]
        total = len(members)
        won = sum(wins[i] == place for i in members)
        one = sum(bids[i][place] == 1 for i in members)
        made = sum((bids[i][place] == 1) == (wins[i] == place) for i in members)
        points = sum(score(bids[i][place], wins[i] == place) for i in members)
        out[(place, card)] = (Fraction(won, total), Fraction(one, total), Fraction(made, total),
                              Fraction(points, total))
    return out


@pytest.mark.parametrize("turned", ["9S", "AS"])
def test_optimal_bidding_against_brute_force(turned: str) -> None:
    players = 3
    table = solve_one_card(preset("classic", players=players, deck="32"), turned=turned)
    expected = brute_force(players, turned)
    setup = setups(preset("classic", players=players, deck="32"), turned)[0][0]
    for row in table.rows:
        cards = [c for (place, c) in expected if place == row.place - 1 and setup.kind(c) == (row.role, row.rank)]
        values = {expected[(row.place - 1, c)] for c in cards}
        assert len(values) == 1  # cards of one class play alike
        win, bid_one, made, score = values.pop()
        assert (row.win, row.optimal.bid_one, row.optimal.made, row.optimal.score) == (win, bid_one, made, score), \
            (row.place, row.role, row.rank)


def test_random_others_and_the_dealer() -> None:
    table = solve_one_card(preset("classic", players=4), turned="7S")
    # First to bid: nothing heard, so both models agree.
    for row in table.rows:
        if row.place == 1:
            assert row.optimal == row.random
    # The dealer with the ace of trumps after random bids: forbidden to bid 1 when the three
    # random bids are all 0 (1 time in 8), then makes nothing.
    ace = table.row(4, "trump", 12)
    assert ace.random.bid_one == Fraction(7, 8) and ace.random.score == Fraction(7, 8) * 11
    # Place expected scores are the card-weighted means of the rows.
    for place in range(1, 5):
        rows = [r for r in table.rows if r.place == place]
        mean = sum(r.weight * r.optimal.score for r in rows) / sum(r.weight for r in rows)
        assert mean == table.place_optimal[place - 1]


def test_jokers_deck_and_turned_joker() -> None:
    table = solve_one_card(preset("jokers", players=4))
    trump_joker = table.row(3, "trump", 13)   # a joker turned: the other is the only trump
    assert trump_joker.win == 1
    led_joker = table.row(1, "joker", 13)
    assert 0 < led_joker.win < 1  # a led joker wins unless trumped
    assert sum(r.weight for r in table.rows if r.place == 1) == 54 * 53


def test_other_trump_rules() -> None:
    fixed = solve_one_card(preset("oh-shit", players=4))  # spades always trump, nothing turned
    assert fixed.row(1, "trump", 0).win == Fraction(perm(39, 3), perm(51, 3))
    low = solve_one_card(preset("classic", players=4, trump="turn-up-low-none"), turned="5D")
    assert not any(r.role == "trump" for r in low.rows)
    assert any(r.role == "turned-suit" for r in low.rows)
    secret = preset("classic", players=4, bidding="simultaneous", hook=False, bid_changes=False)
    simultaneous = solve_one_card(secret, turned="7S")
    assert all(r.optimal == r.random for r in simultaneous.rows)
    dealer_leads = solve_one_card(preset("classic", players=3, first_lead="dealer"), turned="7S")
    assert dealer_leads.row(3, "plain", 12).win > dealer_leads.row(1, "plain", 12).win


def test_refusals() -> None:
    with pytest.raises(ValueError, match="no hand of one card"):
        solve_one_card(preset("boerenbridge", players=4))
    with pytest.raises(ValueError, match="high-low"):
        solve_one_card(preset("ne-blackout", players=5))
    with pytest.raises(ValueError):
        solve_one_card(preset("classic", players=4, deck="32"), turned="2S")
    with pytest.raises(ValueError):
        solve_one_card(preset("oh-shit", players=4), turned="7S")


def test_outputs(tmp_path: Path) -> None:
    table = solve_one_card(preset("classic", players=3), turned="QH")
    write_csv(table, tmp_path / "t.csv")
    lines = (tmp_path / "t.csv").read_text(encoding="utf-8").splitlines()
    assert lines[0].split(",") == list(CSV_COLUMNS) and len(lines) == 1 + len(table.rows)
    # Written through ohhell.spreadsheet.csv_text like every CSV of the project: no cell a
    # spreadsheet would read as a formula.
    assert not any(cell.startswith(FORMULA_TRIGGERS) for line in lines for cell in line.split(","))
    data = table.to_json()
    assert data["players"] == 3 and len(data["places"]) == 3 and data["rows"][0]["win_exact"]
    try:
        for language in LANGUAGES:
            set_language(language)
            assert "100.0%" in format_table(table)
    finally:
        set_language("en")
    pytest.importorskip("matplotlib")
    written = plot(table, tmp_path / "plot")
    assert [p.suffix for p in written] == [".png", ".svg"] and all(p.stat().st_size > 1000 for p in written)


def test_command(tmp_path: Path) -> None:
    runner = CliRunner()
    out = runner.invoke(main, ["analyze", "one-card", "--players", "3", "--turned", "7S", "--json",
                               "--csv", str(tmp_path / "t.csv")])
    assert out.exit_code == 0, out.output
    assert json.loads(out.output)["turned"] == "7S" and (tmp_path / "t.csv").exists()
    out = runner.invoke(main, ["analyze", "one-card", "--players", "3", "--turned", "7S"])
    assert out.exit_code == 0 and "Place 3" in out.output
    assert runner.invoke(main, ["analyze", "one-card", "--preset", "boerenbridge"]).exit_code == 2
    assert runner.invoke(main, ["analyze", "one-card", "--turned", "ZZ"]).exit_code == 2
    assert runner.invoke(main, ["analyze", "one-card", "--players", "9"]).exit_code == 2
