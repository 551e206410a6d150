"""The text chart of totals and the card rendering."""

from __future__ import annotations

from ohhell.cards import HIDDEN_CARD, RED_JOKER, parse_card
from ohhell.tui.chart import line_chart
from ohhell.tui.render import card_label, card_text, rank_keys


def test_chart_size_axes_and_legend():
    chart = line_chart([[11, 23, 23], [0, 12, 40]], ["Ann", "Bob"], width=40, height=8, title="Totals")
    lines = chart.plain.splitlines()
    assert lines[0] == "Totals"
    plot = lines[1:9]
    assert len(plot) == 8 and all(len(line) == len("40 ┤") + 40 for line in plot)
    assert plot[0].startswith("40 ┤") and plot[-1].startswith(" 0 ┤")
    assert "Ann 23" in lines[-1] and "Bob 40" in lines[-1]
    # Every point of the leader's line is drawn: its last point is at the top right.
    assert plot[0][-1] != " "


def test_chart_with_negative_totals_shows_zero():
    chart = line_chart([[-4, -10, 5], [10, 20, 5]], ["A", "B"], width=30, height=10)
    labels = [line.split("┤")[0].strip() for line in chart.plain.splitlines() if "┤" in line]
    assert labels[0] == "20" and labels[-1] == "-10" and "0" in labels


def test_chart_of_one_hand():
    chart = line_chart([[10], [0]], ["A", "B"], width=20, height=4)
    assert "A 10" in chart.plain and "B 0" in chart.plain


def test_cards_look_the_same_everywhere():
    assert card_label(parse_card("TS")) == "10♠"
    assert card_label(RED_JOKER) == "Jk1" and card_label(RED_JOKER + 1) == "Jk2" and card_label(HIDDEN_CARD) == "??"
    assert "red" in str(card_text(parse_card("2H")).style)
    assert "red" not in str(card_text(parse_card("2C")).style)
    keys = rank_keys()
    assert keys["a"] == 12 and keys["j"] == 9 and keys["9"] == 7
