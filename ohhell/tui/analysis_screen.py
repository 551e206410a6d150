"""The analysis of a finished game in the terminal game (``a`` on the end screen).

The analysis (:func:`ohhell.analysis.analyze_record`) runs in a worker thread with a progress
bar; the screen then shows the same text as ``ohhell analyze RECORD`` (:mod:`ohhell.analysis.text`):
each player's accuracy and mistakes, the costliest decisions, and what each player could have
made in each hand with every card face up. Leaving the screen stops the analysis.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import Footer, ProgressBar, Static

from ohhell.analysis import DEFAULT_BUDGET, analyze_record, format_analysis
from ohhell.analysis.text import seat_names, seats_rows, seats_table
from ohhell.i18n import _

TERMINAL_BUDGET = DEFAULT_BUDGET
"""The depth of the analysis on the end screen (``ohhell analyze --budget``)."""


class AnalysisStopped(Exception):
    """Raised inside the analysis when the screen was left."""


class AnalysisScreen(Screen[None]):
    """Analyse ``record`` and show the result; Esc goes back."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "back", _("Back")),
        Binding("q", "back", show=False),
    ]
    DEFAULT_CSS = """
    AnalysisScreen { align: center top; }
    AnalysisScreen VerticalScroll { padding: 1 2; }
    AnalysisScreen ProgressBar { margin: 1 0; }
    """

    def __init__(self, record: dict[str, Any], names: Sequence[str], budget: int | None = None) -> None:
        super().__init__()
        self.record = record
        self.names = tuple(names)
        self.budget = budget or TERMINAL_BUDGET
        self.result: dict[str, Any] | None = None
        self._stopped = False

    def compose(self) -> ComposeResult:
        with VerticalScroll():
            yield Static(Text(_("Analysing the game: every decision is reviewed and every hand solved with the "
                                "cards face up…"), style="bold"), id="analysis-title")
            yield ProgressBar(id="analysis-progress", show_eta=True)
            yield Static("", id="analysis")
        yield Footer()

    def on_mount(self) -> None:
        self.analyse()

    @work(thread=True, exclusive=True)
    def analyse(self) -> None:
        def progress(done: int, total: int) -> None:
            if self._stopped:
                raise AnalysisStopped
            self.app.call_from_thread(self._progress, done, total)

        try:
            result = analyze_record(self.record, budget=self.budget, progress=progress)
        except AnalysisStopped:
            return
        except Exception as error:  # shown to the person, never a crash
            if not self._stopped:
                self.app.call_from_thread(self._failed, error)
            return
        if not self._stopped:
            self.app.call_from_thread(self._show, result)

    def _progress(self, done: int, total: int) -> None:
        self.query_one("#analysis-progress", ProgressBar).update(total=total, progress=done)

    def _show(self, result: dict[str, Any]) -> None:
        self.result = result
        self.query_one("#analysis-progress", ProgressBar).display = False
        self.query_one("#analysis-title", Static).display = False
        # The padding and the scroll bar take 5 columns of the screen.
        self.query_one("#analysis", Static).update(analysis_text(result, self.names, self.app.size.width - 5))

    def _failed(self, error: Exception) -> None:
        self.query_one("#analysis-progress", ProgressBar).display = False
        self.query_one("#analysis", Static).update(
            Text(_("The analysis failed: %(error)s") % {"error": error}, style="red"))

    def action_back(self) -> None:
        self._stopped = True
        self.app.pop_screen()


def analysis_text(result: dict[str, Any], names: Sequence[str], width: int) -> RenderableType:
    """The text of ``ohhell analyze`` for a screen ``width`` columns wide: the sentences wrap,
    and the players' table is laid out at that width (a heading too long for its column goes
    on two lines) instead of wrapping each row onto a second line."""
    lines = format_analysis(result, names).splitlines()
    labels = seat_names(result, names)
    table_lines = seats_table(result, labels)
    start = next((index for index in range(len(lines)) if lines[index:index + len(table_lines)] == table_lines),
                 None)
    if start is None or max(len(line) for line in table_lines) <= width:
        return Text("\n".join(lines))
    headings, *rows = seats_rows(result, labels)
    table = Table(box=None, padding=(0, 1), collapse_padding=True, pad_edge=False)
    for column, heading in enumerate(headings):
        # A column is never narrower than its longest word or value: headings break between words.
        narrowest = max([len(word) for word in heading.split()] + [len(row[column]) for row in rows])
        table.add_column(heading, justify="left" if column == 0 else "right", overflow="fold", width=narrowest)
    for row in rows:
        table.add_row(*row)
    return Group(Text("\n".join(lines[:start])), table, Text("\n".join(lines[start + len(table_lines):])))


__all__ = ["TERMINAL_BUDGET", "AnalysisScreen", "AnalysisStopped", "analysis_text"]
