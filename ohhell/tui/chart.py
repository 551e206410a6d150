"""A line chart of the running totals, hand after hand, drawn in the terminal with Braille dots.

Each terminal cell holds 2 × 4 dots, so a chart of 60 × 12 cells has 120 × 48 points; each
player's line has its own colour, named in the legend below the chart.

>>> chart = line_chart([[11, 23], [10, 22]], ["Ann", "Bob"], width=30, height=6)
>>> lines = chart.plain.splitlines()
>>> len(lines), lines[0].strip().startswith("23")
(9, True)
>>> "Ann 23" in chart.plain and "Bob 22" in chart.plain
True
>>> line_chart([], ["Ann"]).plain
'No hand has been scored yet.'
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from rich.text import Text

from ohhell.i18n import _

PALETTE: Final = (
    "bright_cyan", "bright_magenta", "bright_yellow", "bright_green", "bright_red",
    "bright_blue", "white", "cyan", "magenta", "green",
)
"""A colour per player (up to 10 players)."""

_DOTS: Final = ((0x01, 0x08), (0x02, 0x10), (0x04, 0x20), (0x40, 0x80))
"""The Braille dot bit of each (row, column) of a cell."""
_BLANK: Final = 0x2800


def player_colour(seat: int) -> str:
    return PALETTE[seat % len(PALETTE)]


class _Canvas:
    """Cells of Braille dots; a cell takes the colour of the last line drawn through it."""

    def __init__(self, width: int, height: int) -> None:
        self.width = width
        self.height = height
        self.bits = [[0] * width for _row in range(height)]
        self.colours: list[list[str | None]] = [[None] * width for _row in range(height)]

    def dot(self, x: int, y: int, colour: str) -> None:
        column, row = x // 2, y // 4
        if 0 <= column < self.width and 0 <= row < self.height:
            self.bits[row][column] |= _DOTS[y % 4][x % 2]
            self.colours[row][column] = colour

    def line(self, x0: int, y0: int, x1: int, y1: int, colour: str) -> None:
        """Bresenham's line between two dots."""
        dx, dy = abs(x1 - x0), -abs(y1 - y0)
        step_x = 1 if x0 < x1 else -1
        step_y = 1 if y0 < y1 else -1
        error = dx + dy
        while True:
            self.dot(x0, y0, colour)
            if x0 == x1 and y0 == y1:
                return
            double = 2 * error
            if double >= dy:
                error += dy
                x0 += step_x
            if double <= dx:
                error += dx
                y0 += step_y

    def row_text(self, row: int) -> Text:
        text = Text()
        for column in range(self.width):
            bits = self.bits[row][column]
            text.append(chr(_BLANK + bits) if bits else " ", style=self.colours[row][column] or "")
        return text


def line_chart(series: Sequence[Sequence[int]], labels: Sequence[str], width: int = 60,
               height: int = 12, title: str | None = None) -> Text:
    """The running totals of each player as coloured lines.

    ``series[p]`` holds player ``p``'s total after each hand; the lines start at 0, before
    the first hand. ``width`` and ``height`` are the size of the plot
    area in cells, without the axis labels and the legend.
    """
    if not series or not any(len(values) for values in series):
        return Text(_("No hand has been scored yet."))
    points = [[0, *values] for values in series]  # every game starts at 0
    length = max(len(values) for values in points)
    low = min(0, *(min(values) for values in points))
    high = max(1, *(max(values) for values in points))
    width = max(8, width)
    height = max(3, height)
    canvas = _Canvas(width, height)
    dots_x, dots_y = width * 2 - 1, height * 4 - 1

    def to_dot(index: int, value: int) -> tuple[int, int]:
        x = round(index * dots_x / max(1, length - 1))
        y = dots_y - round((value - low) * dots_y / (high - low))
        return x, y

    # The leader last, so that the line on top is the one people look at.
    order = sorted(range(len(points)), key=lambda seat: points[seat][-1])
    for seat in order:
        values = points[seat]
        colour = player_colour(seat)
        previous = to_dot(0, values[0])
        canvas.dot(*previous, colour)
        for index in range(1, len(values)):
            current = to_dot(index, values[index])
            canvas.line(*previous, *current, colour)
            previous = current
    label_width = max(len(str(high)), len(str(low)))
    out = Text()
    if title:
        out.append(title + "\n", style="bold")
    zero_row = (dots_y - round((0 - low) * dots_y / (high - low))) // 4
    for row in range(height):
        if row == 0:
            label = str(high)
        elif row == height - 1:
            label = str(low)
        elif row == zero_row and low < 0:
            label = "0"
        else:
            label = ""
        out.append(f"{label:>{label_width}} ┤" if label else " " * label_width + " │", style="dim")
        out.append_text(canvas.row_text(row))
        out.append("\n")
    out.append(" " * label_width + " └" + "─" * width + "\n", style="dim")
    out.append_text(_x_labels(length, width, label_width + 2))
    out.append("\n")
    legend = Text()
    for seat, name in enumerate(labels):
        if seat >= len(points):
            break
        if legend:
            legend.append("   ")
        legend.append("━━ ", style=player_colour(seat))
        legend.append(f"{name} {points[seat][-1]}")
    out.append_text(legend)
    return out


def _x_labels(length: int, width: int, indent: int) -> Text:
    """Hand numbers under the x axis: the start, the end and a few in between."""
    row = [" "] * (width + 4)
    hands = length - 1
    step = max(1, hands // max(1, width // 8))
    marks = sorted({*range(0, hands + 1, step), hands})
    for hand in marks:
        column = round(hand * (width * 2 - 1) / max(1, hands)) // 2
        label = str(hand)
        start = min(column, width + 4 - len(label))
        if all(cell == " " for cell in row[max(0, start - 1):start + len(label) + 1]):
            row[start:start + len(label)] = list(label)
    caption = _("hand")
    return Text(" " * indent + "".join(row).rstrip() + "  " + caption, style="dim")
