"""CSV that a spreadsheet cannot turn into formulas (ohhell.spreadsheet): every trigger,
tab and carriage return included, and numbers kept as numbers."""

from __future__ import annotations

import csv
import io

import pytest

from ohhell.spreadsheet import FORMULA_TRIGGERS, csv_text, safe_cell


@pytest.mark.parametrize("text", ["=1+1", "+SUM(A1)", "-2+3", "@cmd", "\t=1+1", "\tAnn", "\r=1+1", "\rAnn",
                                  '=HYPERLINK("http://evil.example","a")'])
def test_a_text_beginning_with_a_trigger_gets_an_apostrophe(text: str) -> None:
    assert safe_cell(text) == "'" + text
    [[cell]] = list(csv.reader(io.StringIO(csv_text([[text]]), newline="")))
    assert cell == "'" + text  # the tab or carriage return survives inside the quoted cell


@pytest.mark.parametrize("text", ["Ann", " =1+1", "1=1", "a\t=b", "", "'=already"])
def test_other_texts_are_kept(text: str) -> None:
    assert safe_cell(text) == text


def test_numbers_stay_numbers() -> None:
    rows = list(csv.reader(io.StringIO(csv_text([[-10, 0, 3.5, -0.25, None]]), newline="")))
    assert rows == [["-10", "0", "3.5", "-0.25", ""]]


def test_no_cell_of_a_hostile_table_begins_with_a_trigger() -> None:
    hostile = ["=1+1", "\t@x", "\r-1", "+A1", "-Ann", "@Bob"]
    text = csv_text([hostile, [f"{name} bid" for name in hostile], [1, -2, 3]])
    for row in csv.reader(io.StringIO(text, newline="")):
        for cell in row:
            assert not cell.startswith(FORMULA_TRIGGERS) or cell.lstrip("-").isdigit(), cell
