"""CSV that is safe to open in a spreadsheet.

A spreadsheet treats a cell that begins with ``=``, ``+``, ``-`` or ``@`` as a formula (and a
leading tab or carriage return can hide one): a player named ``=HYPERLINK("http://…","a")`` would
become a live link, or worse, in the file someone downloads (CSV or formula injection, OWASP).
Every CSV the project writes goes through :func:`csv_text`: text cells that begin with one of
those characters get a leading apostrophe, which spreadsheets show as nothing and read as "this
is text"; numbers stay numbers (``-10`` is a score, not a formula).

>>> safe_cell("=1+1"), safe_cell("@SUM(A1)"), safe_cell("-10"), safe_cell(-10), safe_cell("Ann")
("'=1+1", "'@SUM(A1)", "'-10", -10, 'Ann')
>>> print(csv_text([["name", "score"], ["=HYPERLINK(\\"x\\")", -3]]), end="")
name,score
"'=HYPERLINK(""x"")",-3
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable
from typing import Any, Final

FORMULA_TRIGGERS: Final = ("=", "+", "-", "@", "\t", "\r")
"""The first characters that make a spreadsheet read a cell as a formula."""


def safe_cell(value: Any) -> Any:
    """``value`` as a cell: a text that a spreadsheet would read as a formula gets a leading
    apostrophe; anything else (numbers included) is kept as it is."""
    if isinstance(value, str) and value.startswith(FORMULA_TRIGGERS):
        return "'" + value
    return value


def csv_text(rows: Iterable[Iterable[Any]]) -> str:
    """The rows as CSV text, every cell made safe with :func:`safe_cell`."""
    buffer = io.StringIO()
    writer = csv.writer(buffer)
    for row in rows:
        writer.writerow([safe_cell(cell) for cell in row])
    return buffer.getvalue()
