"""``ohhell score``: the scorekeeper for games played with real cards.

All the rules are the engine's, through :class:`ohhell.scorekeeper.ScoreSheet` (the same
implementation as the web app's scorekeeper page): who deals, how many cards, bids in
order with the hook, tricks that must add up, the scores. This module only draws the sheet
and takes the keys:

* the list of saved games (Enter resumes, ``n`` starts a new one);
* a new game: the players' names (3 to 7; up to 10, since no cards are dealt, with a chosen
  largest hand), the preset and its knobs, who deals first;
* the sheet: one row per hand with the dealer, the cards, trump and each player's bid/tricks
  and running total; digits and Enter take the bids in order and then the tricks (the last
  player's tricks are proposed; ``m``: the player shown made their bid), ``t`` enters the
  trump, ``e`` edits the selected hand (every later hand is scored again), ``r`` renames the
  players, ``u`` undoes, ``c`` shows the chart of totals, ``s`` the statistics, ``x`` exports
  the record (``ohhell/1``) or CSV.

Every change is saved at once (:class:`ohhell.scorekeeper.ScoreStore`). The sheet fits the
terminal: with every column when there is room, else with the dealer marked in the player's
cell, else with two lines a hand, so that ten players fit 80 columns.
"""

from __future__ import annotations

import contextlib
import json
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

from rich.console import Group
from rich.table import Table
from rich.text import Text
from textual import events
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.widgets import Button, DataTable, Input, Label, Select, Static, Switch

from ohhell.cards import SUIT_SYMBOLS, card_name, parse_card
from ohhell.errors import OhHellError, RulesError
from ohhell.i18n import _, cards_shown_as_seen, ngettext, show_cards_as_seen
from ohhell.record import replay_result
from ohhell.rules import MAX_PLAYERS, MAX_PLAYERS_REAL_CARDS, MIN_PLAYERS, PRESETS, preset
from ohhell.scorekeeper import ScoreError, ScoreSheet, ScoreStore, checked_names
from ohhell.textsheet import money_lines
from ohhell.tui.chart import line_chart, player_colour
from ohhell.tui.dialogs import ConfirmScreen, watch_size
from ohhell.tui.messages import file_problem, sentence
from ohhell.tui.render import card_label, parse_card_input, suit_label, suit_style
from ohhell.tui.widgets import KeyBar, dealer_chip, fit, keys_table

_SUITS = "SHDCX"


def _trump_cell(letter: str | None) -> Text:
    if letter is None:
        return Text("–", style="dim")
    suit = _SUITS.index(letter[-1]) if letter[-1] in _SUITS else None
    if suit is None:
        return Text(letter)
    return Text(suit_label(suit).split(" ")[0], style=suit_style(suit))


def trump_as_shown(trump: str | None) -> str:
    """A hand's trump as a person reads it: the turned card (``7♥``, ``Д♥`` in Russian) or the
    suit's symbol; empty for none."""
    if not trump:
        return ""
    if trump in ("S", "H", "D", "C"):
        return SUIT_SYMBOLS["SHDC".index(trump)]
    try:
        return card_label(parse_card(trump))
    except OhHellError:
        return trump


def trump_entry(text: str) -> str | None:
    """A trump typed by a person in the record's notation: a suit (``h``, ``♥``) as it is, a card
    in any of the ways :func:`~ohhell.tui.render.parse_card_input` reads (``Д♥`` → ``QH``); an
    unreadable text as it is, for the scorekeeper to explain. Empty: no trump."""
    value = text.strip()
    if not value:
        return None
    if len(value) == 1:
        return value
    try:
        return card_name(parse_card_input(value))
    except OhHellError:
        return value


def minimum_size(players: int | None) -> tuple[int, int]:
    """The smallest terminal the scorekeeper needs: 80 columns for ten players (two lines a
    hand), less for fewer; 16 lines."""
    return max(60, 10 + 7 * (players or 0)), 16


class ScoreApp(App[str | None]):
    """The scorekeeper: saved games, new game, the sheet."""

    TITLE = "ohhell score"
    ENABLE_COMMAND_PALETTE = False
    CSS = """
    #title { height: 1; background: $primary-background; padding: 0 1; }
    #info { height: auto; padding: 0 1; }
    #sheet { height: 1fr; scrollbar-size-vertical: 1; }
    #games { height: 1fr; }
    #prompt { height: auto; min-height: 2; padding: 0 1; border: round $accent; }
    #message { height: auto; padding: 0 1; }
    .dim { color: $text-muted; }
    """

    def __init__(self, store: ScoreStore, sheet: ScoreSheet | None = None, sheet_id: str | None = None,
                 defaults: dict[str, Any] | None = None) -> None:
        super().__init__()
        self.store = store
        self.initial = (sheet, sheet_id)
        self.defaults = defaults or {}
        self.last_sheet: tuple[str, bool] | None = None
        """The id of the last sheet opened and whether it is finished (for the resume hint)."""

    def on_mount(self) -> None:
        # The engine's messages name cards as this app shows them (10♥, not TH).
        self._cards_were_shown_as_seen = cards_shown_as_seen()
        show_cards_as_seen()
        self.push_screen(GamesScreen())
        sheet, sheet_id = self.initial
        if sheet is not None and sheet_id is not None:
            self.push_screen(SheetScreen(sheet, sheet_id))
        self.call_after_refresh(self.check_size)

    def on_unmount(self) -> None:
        show_cards_as_seen(self._cards_were_shown_as_seen)

    def on_resize(self, _event: events.Resize) -> None:
        self.call_after_refresh(self.check_size)

    def check_size(self) -> None:
        sheets = [screen for screen in self.screen_stack if isinstance(screen, SheetScreen)]
        watch_size(self, minimum_size(sheets[-1].sheet.rules.players if sheets else None))

    def action_quit(self) -> None:  # type: ignore[override]
        """Quit; the command then says how to go on with the last game opened."""
        self.exit(self.last_sheet[0] if self.last_sheet and not self.last_sheet[1] else None)


# ---------------------------------------------------------------------- saved games


class GamesScreen(Screen[None]):
    """The saved games, most recent first."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("n", "new_game", _("New game")),
        Binding("enter", "resume", _("Resume"), show=True, priority=True),
        Binding("d", "delete", _("Delete")),
        Binding("q", "app.quit", _("Quit")),
    ]
    KEY_PRIORITY: ClassVar[tuple[str, ...]] = ("app.quit", "new_game", "resume", "delete")

    def compose(self) -> ComposeResult:
        yield Static(Text(_("Oh Hell — scorekeeper for games with real cards"), style="bold"), id="title")
        yield Static(id="info")
        yield DataTable(id="games", cursor_type="row", zebra_stripes=True)
        yield KeyBar()

    def on_mount(self) -> None:
        table = self.query_one(DataTable)
        table.add_column(_("Players"), key="players")
        table.add_column(_("Preset"), key="preset")
        table.add_column(_("Hands"), key="hands")
        table.add_column(_("State"), key="state")
        table.add_column(_("Last change"), key="updated")
        self.reload()

    def on_screen_resume(self) -> None:
        self.reload()

    def reload(self) -> None:
        app = self.app
        assert isinstance(app, ScoreApp)
        table = self.query_one(DataTable)
        table.clear()
        saved = app.store.list()
        for game in saved:
            table.add_row(", ".join(game.names), game.preset, str(game.hands_done),
                          _("finished") if game.finished else _("in progress"),
                          time.strftime("%Y-%m-%d %H:%M", time.localtime(game.updated)), key=game.id)
        info = self.query_one("#info", Static)
        if saved:
            info.update(ngettext("%(count)d saved game. Enter resumes the selected one, d deletes it, "
                                 "n starts a new game.",
                                 "%(count)d saved games. Enter resumes the selected one, d deletes it, "
                                 "n starts a new game.",
                                 len(saved)) % {"count": len(saved)})
        else:
            info.update(_("No saved games yet: press n to start a new game."))

    def action_new_game(self) -> None:
        self.app.push_screen(NewGameScreen())

    def _selected(self) -> str | None:
        """The id of the selected game (None when there is none)."""
        table = self.query_one(DataTable)
        if not table.row_count:
            return None
        return str(table.coordinate_to_cell_key(table.cursor_coordinate).row_key.value)

    def action_delete(self) -> None:
        sheet_id = self._selected()
        if sheet_id is None:
            self.notify(_("There is no saved game to delete."))
            return
        app = self.app
        assert isinstance(app, ScoreApp)
        names = str(self.query_one(DataTable).get_cell(sheet_id, "players"))  # as listed, without reading the files

        def answered(delete: bool | None) -> None:
            if delete:
                app.store.delete(sheet_id)
                self.reload()
                self.notify(_("Deleted the game of %(names)s.") % {"names": names})

        app.push_screen(ConfirmScreen(_("Delete the game of %(names)s? This cannot be undone.") % {"names": names},
                                      yes=_("Delete")), answered)

    def action_resume(self) -> None:
        sheet_id = self._selected()
        if sheet_id is None:
            self.action_new_game()
            return
        app = self.app
        assert isinstance(app, ScoreApp)
        try:
            sheet = app.store.load(sheet_id)
        except ScoreError as error:
            self.notify(sentence(str(error)), severity="error")
            return
        app.push_screen(SheetScreen(sheet, sheet_id))


# ---------------------------------------------------------------------- a new game


class NewGameScreen(Screen[None]):
    """Players, preset and knobs of a new game."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+s", "start", _("Start"), priority=True),
        Binding("escape", "cancel", _("Back")),
    ]
    DEFAULT_CSS = """
    NewGameScreen VerticalScroll { padding: 0 2; }
    NewGameScreen .row { height: auto; }
    NewGameScreen #names { layout: grid; grid-size: 3; grid-gutter: 0 2; height: auto; max-width: 110; }
    NewGameScreen Input.name { width: 1fr; }
    NewGameScreen #max-size { width: 32; }
    NewGameScreen Select { width: 100%; max-width: 90; }
    NewGameScreen #dealer { width: 40; max-width: 100%; }
    NewGameScreen Switch { margin-right: 1; }
    NewGameScreen Label { margin-top: 1; width: 100%; }
    NewGameScreen #error { color: $error; margin-top: 1; }
    NewGameScreen Button { margin-right: 2; }
    NewGameScreen #names { grid-size: 3; }
    """

    def __init__(self) -> None:
        super().__init__()
        self._players = 4

    def compose(self) -> ComposeResult:
        app = self.app
        defaults = app.defaults if isinstance(app, ScoreApp) else {}
        self._players = int(defaults.get("players", 4))
        preset_name = str(defaults.get("preset", "classic"))
        if preset_name not in PRESETS:
            preset_name = "classic"
        yield Static(Text(_("New game"), style="bold"), id="title")
        with VerticalScroll():
            yield Label(_("Players, in seat order (clockwise): %(min)d to %(max)d, or up to %(most)d with "
                          "a smaller largest hand") % {"min": MIN_PLAYERS, "max": MAX_PLAYERS,
                                                        "most": MAX_PLAYERS_REAL_CARDS})
            with Vertical(id="names", classes="row"):
                for seat in range(self._players):
                    yield self._name_input(seat)
            with Horizontal(classes="row"):
                yield Button(_("Add a player"), id="add")
                yield Button(_("Remove a player"), id="remove")
            yield Label(_("Preset"))
            yield Select([(f"{name} — {_(found.summary)}", name) for name, found in PRESETS.items()],
                         value=preset_name, allow_blank=False, id="preset")
            yield Label(_("Largest hand (cards; empty: the preset's)"))
            yield Input(placeholder=_("default"), type="integer", id="max-size")
            with Horizontal(classes="row"):
                yield Switch(value=preset(preset_name, players=4 if 4 in PRESETS[preset_name].players
                                          else PRESETS[preset_name].players[0]).hook, id="hook")
                yield Static(_("The hook: the dealer may not make the bids add up to the number of cards"))
            yield Label(_("First dealer"))
            yield Select(self._dealer_options(), value=0, allow_blank=False, id="dealer")
            yield Static("", id="error")
            with Horizontal(classes="row"):
                yield Button(_("Start the game"), variant="primary", id="start")
                yield Button(_("Back"), id="back")
        yield KeyBar()

    def on_mount(self) -> None:
        self.query_one("#name-0", Input).focus()

    def _name_input(self, seat: int) -> Input:
        return Input(placeholder=_("Player %(n)d") % {"n": seat + 1}, classes="name", id=f"name-{seat}")

    def _names(self) -> list[str]:
        out = []
        for seat, field in enumerate(self.query("Input.name").results(Input)):
            out.append(field.value.strip() or _("Player %(n)d") % {"n": seat + 1})
        return out

    def _dealer_options(self) -> list[tuple[str, int]]:
        try:
            names = self._names()
        except Exception:  # before the inputs exist
            names = [_("Player %(n)d") % {"n": seat + 1} for seat in range(self._players)]
        if not names:
            names = [_("Player %(n)d") % {"n": seat + 1} for seat in range(self._players)]
        return [(name, seat) for seat, name in enumerate(names)]

    def _refresh_dealers(self) -> None:
        """The first dealer's choices follow the names as they are typed."""
        select = self.query_one("#dealer", Select)
        value = select.value
        options = self._dealer_options()
        chosen = value if isinstance(value, int) and value < len(options) else 0
        select.set_options(options)
        # Select shows a new label only when its value changes: step off the chosen player and back.
        select.value = (chosen + 1) % len(options)
        select.value = chosen

    def on_input_changed(self, event: Input.Changed) -> None:
        if event.input.has_class("name"):
            self._refresh_dealers()

    def on_select_changed(self, event: Select.Changed) -> None:
        if event.select.id == "preset" and isinstance(event.value, str):
            found = PRESETS[event.value]
            count = len(self._names())
            players = count if count in found.players else found.players[0]
            with contextlib.suppress(RulesError):  # a preset for other player counts keeps the switch
                self.query_one("#hook", Switch).value = preset(event.value, players=players).hook

    def on_button_pressed(self, event: Button.Pressed) -> None:
        names_box = self.query_one("#names", Vertical)
        count = len(self.query("Input.name"))
        if event.button.id == "add":
            if count < MAX_PLAYERS_REAL_CARDS:
                names_box.mount(self._name_input(count))
                self.call_after_refresh(self._refresh_dealers)
        elif event.button.id == "remove":
            if count > MIN_PLAYERS:
                self.query("Input.name").last().remove()
                self.call_after_refresh(self._refresh_dealers)
        elif event.button.id == "start":
            self.action_start()
        elif event.button.id == "back":
            self.action_cancel()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        if event.input.has_class("name"):
            self.focus_next()  # Enter goes on to the next name, as on a form
            return
        self.action_start()

    def action_start(self) -> None:
        app = self.app
        assert isinstance(app, ScoreApp)
        names = self._names()
        preset_name = self.query_one("#preset", Select).value
        assert isinstance(preset_name, str)
        knobs: dict[str, Any] = {}
        size = self.query_one("#max-size", Input).value.strip()
        if size:
            knobs["max_size"] = int(size)
        hook = self.query_one("#hook", Switch).value
        error = self.query_one("#error", Static)
        try:
            names = checked_names(names)
            base = preset(preset_name, players=len(names), **({"real_cards": True} if len(names) > MAX_PLAYERS
                                                              else {}))
            if hook != base.hook:
                knobs["hook"] = hook
            if len(names) > MAX_PLAYERS:
                knobs["real_cards"] = True
            rules = preset(preset_name, players=len(names), **knobs)
            dealer = self.query_one("#dealer", Select).value
            sheet = ScoreSheet(rules, names, first_dealer=dealer if isinstance(dealer, int) else 0)
        except (RulesError, ScoreError, ValueError) as problem:
            error.update(sentence(str(problem)))
            return
        sheet_id = app.store.new_id()
        app.store.save(sheet_id, sheet)
        app.switch_screen(SheetScreen(sheet, sheet_id))

    def action_cancel(self) -> None:
        self.app.pop_screen()


# ---------------------------------------------------------------------- the sheet


@dataclass(frozen=True)
class SheetCell:
    """A player's cell of one hand: ``bid/tricks`` (or what is being entered), the running total,
    and whether the player dealt the hand."""

    score: Text
    total: Text
    dealer: bool


@dataclass(frozen=True)
class SheetLayout:
    """The sheet's columns for the width of the terminal (see :func:`sheet_layout`):

    * ``wide`` — the hand, the dealer, the cards, trump, and ``bid/tricks total`` per player;
    * ``medium`` — the cards with trump in one column, the dealer's chip in the dealer's cell;
    * ``compact`` — as ``medium`` with two lines a hand (``bid/tricks`` over the total) and the
      names cut to the columns.
    """

    kind: str
    columns: tuple[tuple[Text, str, int], ...]
    """``(header, key, width)`` of each column."""

    @property
    def height(self) -> int:
        return 2 if self.kind == "compact" else 1

    def row(self, number: int, dealer: str, size: int, trump: str | None, cells: Sequence[SheetCell]) -> list[Any]:
        widths = [width for _label, _key, width in self.columns]
        if self.kind == "wide":
            out: list[Any] = [str(number), dealer, str(size), _trump_cell(trump)]
        else:
            cards = Text(str(size) + " ")
            cards.append_text(_trump_cell(trump) if trump else Text(""))
            out = [str(number), cards]
        players = widths[len(out):]
        for cell, width in zip(cells, players, strict=True):
            out.append(self._cell(cell, width))
        return out

    def _cell(self, cell: SheetCell, width: int) -> Text:
        chip = Text(dealer_chip(), style="reverse") if cell.dealer and self.kind != "wide" else Text("")
        if self.kind == "compact":
            second = chip.copy()
            second.append(" " * max(1, width - chip.cell_len - cell.total.cell_len))
            second.append_text(cell.total)
            first = cell.score.copy()
            return Text.assemble(first, "\n", second)
        line = chip.copy()
        if chip.cell_len:
            line.append(" ")
        line.append_text(cell.score)
        line.append(" " * max(1, width - line.cell_len - cell.total.cell_len))
        line.append_text(cell.total)
        return line

    def totals_row(self, totals: Sequence[Text]) -> list[Any]:
        widths = [width for _label, _key, width in self.columns]
        label = Text(_("Total") if self.kind == "wide" else "Σ", style="bold")
        out: list[Any] = [label, "", "", ""] if self.kind == "wide" else [label, ""]
        for total, width in zip(totals, widths[len(out):], strict=True):
            out.append(Text(" " * max(0, width - total.cell_len)) + total)
        return out


CELL_PADDING = 2
"""Columns a DataTable adds to each column (one space on each side)."""


def sheet_layout(names: Sequence[str], rows: Sequence[tuple[Sequence[SheetCell], Any, str]],
                 totals: Sequence[Text], width: int) -> SheetLayout:
    """The first of the wide, medium and compact layouts whose columns fit ``width`` (the
    compact one whatever the width)."""
    numbers = [str(info[0]) for _cells, info, _key in rows] or ["1"]
    number_width = max(len(n) for n in numbers)
    sizes = [info[2] for _cells, info, _key in rows] or [0]
    scrollbar = 1
    players = len(names)

    def widest(seat: int, chip: bool) -> int:
        lines = [cells[seat] for cells, _info, _key in rows]
        needed = [Text(names[seat]).cell_len, totals[seat].cell_len]
        for cell in lines:
            extra = (Text(dealer_chip()).cell_len + 1) if chip and cell.dealer else 0
            needed.append(extra + cell.score.cell_len + 1 + cell.total.cell_len)
        return max(needed)

    def header(seat: int, room: int | None = None) -> Text:
        name = names[seat] if room is None else fit(names[seat], room)
        return Text(name, style=f"bold {player_colour(seat)}")

    # Wide: every column.
    dealer_width = max([Text(_("Dealer")).cell_len] + [Text(name).cell_len for name in names])
    cards_width = max(Text(_("Cards")).cell_len, max(len(str(size)) for size in sizes))
    trump_width = max(Text(_("Trump")).cell_len, 1)
    first = max(number_width, Text(_("Total")).cell_len)
    player_widths = [widest(seat, chip=False) for seat in range(players)]
    fixed = [first, dealer_width, cards_width, trump_width]
    if sum(fixed) + sum(player_widths) + CELL_PADDING * (len(fixed) + players) + scrollbar <= width:
        columns = [(Text("#"), "hand", first), (Text(_("Dealer")), "dealer", dealer_width),
                   (Text(_("Cards")), "cards", cards_width), (Text(_("Trump")), "trump", trump_width)]
        columns += [(header(seat), f"p{seat}", player_widths[seat]) for seat in range(players)]
        return SheetLayout("wide", tuple(columns))
    # Medium: the cards and trump in one column, the dealer's chip in the dealer's cell.
    first = max(number_width, 1)
    cards_width = max(Text(_("Cards")).cell_len, max(len(str(size)) for size in sizes) + 2)
    player_widths = [widest(seat, chip=True) for seat in range(players)]
    fixed = [first, cards_width]
    base = [(Text("#"), "hand", first), (Text(_("Cards")), "cards", cards_width)]
    if sum(fixed) + sum(player_widths) + CELL_PADDING * (len(fixed) + players) + scrollbar <= width:
        columns = base + [(header(seat), f"p{seat}", player_widths[seat]) for seat in range(players)]
        return SheetLayout("medium", tuple(columns))
    # Compact: two lines a hand, the names cut to the columns.
    cards_width = max(len(str(size)) for size in sizes) + 2
    base = [(Text("#"), "hand", first), (Text(""), "cards", cards_width)]
    room = (width - scrollbar - first - cards_width - CELL_PADDING * 2) // max(1, players) - CELL_PADDING
    room = max(5, room)
    columns = base + [(header(seat, room), f"p{seat}", room) for seat in range(players)]
    return SheetLayout("compact", tuple(columns))


class SheetScreen(Screen[None]):
    """One game's scoresheet: the hands so far and the entry of the hand in progress."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "confirm", _("Enter")),
        Binding("backspace", "erase", show=False),
        Binding("up", "row(-1)", show=False),
        Binding("down", "row(1)", show=False),
        Binding("m", "made", _("Made it")),
        Binding("t", "trump", _("Trump")),
        Binding("e", "edit", _("Edit hand")),
        Binding("r", "rename", _("Names")),
        Binding("u", "undo", _("Undo")),
        Binding("c", "chart", _("Chart")),
        Binding("s", "stats", _("Stats")),
        Binding("x", "export", _("Export")),
        Binding("question_mark", "help", _("Keys")),
        Binding("escape", "back", _("Games")),
        Binding("q", "app.quit", _("Quit")),
    ]
    KEY_PRIORITY: ClassVar[tuple[str, ...]] = (
        "confirm", "app.quit", "help", "back", "made", "undo", "edit", "trump", "rename", "export", "chart",
        "stats")

    def __init__(self, sheet: ScoreSheet, sheet_id: str) -> None:
        super().__init__()
        self.sheet = sheet
        self.sheet_id = sheet_id
        self.buffer = ""
        self.tricks: list[int | None] | None = None
        """The tricks entered so far for the hand in progress (by seat), before they are recorded."""
        self._message: Text | None = None
        self._row = -1
        self._proposed = False
        """Whether the buffer holds a proposal (the last player's tricks): a digit replaces it."""
        self._columns: tuple[object, ...] = ()
        """The columns the table has now (rebuilt when the layout or the names change)."""

    def compose(self) -> ComposeResult:
        yield Static(id="title")
        table: DataTable[Any] = DataTable(id="sheet", cursor_type="row", zebra_stripes=True)
        table.can_focus = False  # the screen takes every key: digits, Enter, arrows
        yield table
        yield Static(id="prompt")
        yield Static(id="message")
        yield KeyBar()

    def on_mount(self) -> None:
        app = self.app
        if isinstance(app, ScoreApp):
            app.last_sheet = (self.sheet_id, self.sheet.finished)
            self.call_after_refresh(app.check_size)
        self.refresh_sheet()

    def on_resize(self, _event: events.Resize) -> None:
        self.call_after_refresh(self.refresh_sheet)

    # ------------------------------------------------------------------ state

    def entry(self) -> tuple[str, int] | None:
        """What is being entered now: ``("bid", seat)``, ``("trump", seat)`` (the suit the
        highest bidder chose), ``("tricks", seat)`` or nothing."""
        sheet = self.sheet
        if sheet.finished:
            return None
        bidder = sheet.next_bidder
        if bidder is not None:
            return ("bid", bidder)
        chooser = sheet.trump_chooser
        if chooser is not None:
            return ("trump", chooser)
        entered = self.tricks or [None] * sheet.rules.players
        for seat in self.trick_order():
            if entered[seat] is None:
                return ("tricks", seat)
        return None

    def trick_order(self) -> list[int]:
        n = self.sheet.rules.players
        return [(self.sheet.dealer + 1 + offset) % n for offset in range(n)]

    def save(self) -> None:
        app = self.app
        assert isinstance(app, ScoreApp)
        try:
            app.store.save(self.sheet_id, self.sheet)
        except OSError as error:
            self.notify(_("Could not save: %(error)s") % {"error": file_problem(error)}, severity="error")
        app.last_sheet = (self.sheet_id, self.sheet.finished)

    # ------------------------------------------------------------------ drawing

    def refresh_sheet(self) -> None:
        sheet = self.sheet
        names = sheet.names
        table = self.query_one(DataTable)
        hands = sheet.hands()
        running = sheet.totals_by_hand()
        entry = self.entry()
        rows: list[tuple[list[SheetCell], Any, str]] = []
        for index, hand in enumerate(hands):
            finished = hand["scores"] is not None
            cells: list[SheetCell] = []
            for seat in range(len(names)):
                bid = hand["bids"][seat]
                if finished:
                    took = hand["tricks"][seat]
                    made = bid is not None and bid == took
                    cells.append(SheetCell(Text(f"{'–' if bid is None else bid}/{took}",
                                                style="green" if made else "red"),
                                           Text(str(running[index][seat]), style="bold"), seat == hand["dealer"]))
                else:
                    cells.append(SheetCell(self._open_cell(seat, bid, entry), Text(""), seat == hand["dealer"]))
            rows.append((cells, (index + 1, hand["dealer"], hand["size"], hand["trump"]), f"hand-{index}"))
        if not sheet.finished and len(hands) == sheet.hand_index:
            # The next hand, not started yet.
            cells = [SheetCell(self._open_cell(seat, None, entry), Text(""), seat == sheet.dealer)
                     for seat in range(len(names))]
            rows.append((cells, (sheet.hand_index + 1, sheet.dealer, sheet.hand_size, sheet.trump),
                         f"hand-{sheet.hand_index}"))
        winners = set(sheet.winners())
        totals = [Text(str(total), style="bold green" if seat in winners else "bold")
                  for seat, total in enumerate(sheet.totals)]
        layout = sheet_layout(names, rows, totals, self.size.width or self.app.size.width)
        if layout.columns != self._columns:
            table.clear(columns=True)
            for label, key, width in layout.columns:
                table.add_column(label, key=key, width=width)
            self._columns = layout.columns
        else:
            table.clear()
        for cells, (number, dealer, size, trump), key in rows:
            table.add_row(*layout.row(number, names[dealer], size, trump, cells), key=key, height=layout.height)
        table.add_row(*layout.totals_row(totals), key="total")
        current = min(sheet.hand_index, len(hands))
        row = self._row if 0 <= self._row < table.row_count - 1 else min(current, table.row_count - 2)
        self._row = max(0, row)
        table.move_cursor(row=self._row, animate=False)
        self.query_one("#title", Static).update(self._title())
        self.query_one("#prompt", Static).update(self._prompt(entry))
        self.query_one("#message", Static).update(self._message or "")

    def _open_cell(self, seat: int, bid: int | None, entry: tuple[str, int] | None) -> Text:
        """A cell of the hand in progress: the bid, the tricks entered, the number being typed."""
        cell = Text("·" if bid is None else str(bid))
        if entry is not None and entry[1] == seat and entry[0] == "bid":
            cell = Text("▶" + (self.buffer or "_"), style="bold reverse yellow")
        elif self.tricks is not None or (entry is not None and entry[0] == "tricks"):
            took = (self.tricks or [None] * len(self.sheet.names))[seat]
            cell.append("/")
            if entry is not None and entry == ("tricks", seat):
                cell.append("▶" + (self.buffer or "_"), style="bold reverse yellow")
            else:
                cell.append("·" if took is None else str(took))
        return cell

    def _title(self) -> Text:
        """The preset and the hand, then the names (which a narrow terminal cuts: the columns
        name the players too)."""
        sheet = self.sheet
        text = Text(sheet.rules.preset, style="bold")
        if sheet.finished:
            text.append(" · " + _("finished"))
        elif sheet.hand_count is not None:
            text.append(" · " + _("hand %(hand)d of %(count)d") % {"hand": sheet.hand_index + 1,
                                                                    "count": sheet.hand_count})
        else:
            text.append(" · " + _("hand %(hand)d") % {"hand": sheet.hand_index + 1})
        text.append(" · " + ", ".join(sheet.names))
        room = (self.size.width or self.app.size.width) - 2
        if text.cell_len > room:
            text.truncate(max(1, room - 1))
            text.append("…")
        return text

    def _prompt(self, entry: tuple[str, int] | None) -> Text:
        sheet = self.sheet
        names = sheet.names
        if sheet.finished:
            winners = [names[seat] for seat in sheet.winners()]
            text = Text(_("The game is over."), style="bold")
            text.append(" " + ngettext("Winner: %(names)s.", "Shared victory: %(names)s.", len(winners))
                        % {"names": ", ".join(winners)}, style="bold green")
            money = money_lines(replay_result(sheet.state), names)  # who pays whom, with a stake
            if money:
                text.append("\n" + " ".join(line.strip() for line in money), style="bold")
            text.append("\n" + _("c: chart of totals · s: statistics · x: export · e: edit a hand"), style="dim")
            return text
        text = Text(ngettext("Hand %(hand)d: %(dealer)s deals %(size)d card each.",
                             "Hand %(hand)d: %(dealer)s deals %(size)d cards each.", sheet.hand_size)
                    % {"hand": sheet.hand_index + 1, "dealer": names[sheet.dealer], "size": sheet.hand_size},
                    style="bold")
        trump = sheet.trump
        if trump is not None:
            text.append(" " + _("Trump: %(trump)s.") % {"trump": suit_label(_SUITS.index(trump))})
        elif sheet.trump_is_turned and not any(bid is not None for bid in sheet.bids):
            text.append(" " + _("(t: enter the turned card or trump suit)"), style="dim")
        elif sheet.trump_is_chosen:
            text.append(" " + _("The highest bidder chooses trump after the bidding."), style="dim")
        text.append("\n")
        if entry is None:
            return text
        kind, seat = entry
        if kind == "trump":
            text.append(_("%(name)s bid highest: which suit did they choose as trump? Press S, H, D or C.")
                        % {"name": names[seat]}, style="bold yellow")
        elif kind == "bid":
            text.append(_("%(name)s bids (0–%(size)d): ") % {"name": names[seat], "size": sheet.hand_size})
            text.append(self.buffer or "_", style="bold reverse yellow")
            forbidden = sheet.forbidden_bid
            if forbidden is not None:
                text.append("  " + _("As the dealer, %(name)s may not bid %(bid)d (the hook).")
                            % {"name": names[seat], "bid": forbidden}, style="yellow")
        else:
            entered = [t for t in (self.tricks or []) if t is not None]
            left = sheet.hand_size - sum(entered)
            # The range is what is left to give, not the whole hand: more could not add up.
            text.append(_("Tricks taken by %(name)s (0–%(size)d): ") % {"name": names[seat], "size": left})
            text.append(self.buffer or "_", style="bold reverse yellow")
            text.append("  " + ngettext("%(left)d of %(size)d trick left to give",
                                        "%(left)d of %(size)d tricks left to give", sheet.hand_size)
                        % {"left": left, "size": sheet.hand_size}, style="dim")
            bid = sheet.bids[seat]
            if bid is not None and 0 <= bid <= left:
                text.append("  " + _("m: %(name)s made the bid (%(bid)d)") % {"name": names[seat], "bid": bid},
                            style="dim")
        return text

    def error(self, message: str) -> None:
        self._message = Text("✗ " + sentence(message), style="bold red")
        self.app.bell()
        self.refresh_sheet()

    def say(self, message: str) -> None:
        self._message = Text(message, style="green")
        self.refresh_sheet()

    # ------------------------------------------------------------------ keys

    def on_key(self, event: events.Key) -> None:
        # A message answers the key before: the next key (whatever it does) clears it; an action
        # that has something to say sets its own.
        if self._message is not None:
            self._message = None
            self.query_one("#message", Static).update("")
        entry = self.entry()
        if entry is not None and entry[0] == "trump" and event.character:
            # While the chosen suit is asked for, its letters answer (before s, c… do their own things).
            event.stop()
            event.prevent_default()
            self._enter_chosen_trump(event.character)
            return
        if event.character and event.character.isdigit():
            event.stop()
            entry = self.entry()
            if entry is None:
                return
            if self._proposed:
                self.buffer = ""
                self._proposed = False
            if len(self.buffer) >= 2:
                return
            typed = self.buffer + event.character
            most = self._most(entry)
            if int(typed) > most:
                # Refused as it is typed: no number starting so could be right.
                self.buffer = ""
                self.error(self._too_many(entry, int(typed)))
                return
            self.buffer = typed
            self.refresh_sheet()

    def _most(self, entry: tuple[str, int]) -> int:
        """The largest number that may be entered now: the cards dealt for a bid, the tricks
        not yet given for a player's tricks."""
        sheet = self.sheet
        if entry[0] == "bid":
            return sheet.hand_size
        tricks = self.tricks or [None] * sheet.rules.players
        return sheet.hand_size - sum(t for seat, t in enumerate(tricks) if t is not None and seat != entry[1])

    def _too_many(self, entry: tuple[str, int], value: int) -> str:
        sheet = self.sheet
        kind, seat = entry
        if kind == "bid":
            return _("%(name)s may bid 0 to %(size)d.") % {"name": sheet.names[seat], "size": sheet.hand_size}
        given = sheet.hand_size - self._most(entry)
        if not given:
            return _("%(name)s cannot take %(value)d tricks in a hand of %(size)d cards") % {
                "name": sheet.names[seat], "value": value, "size": sheet.hand_size}
        return ngettext("%(name)s cannot have taken %(value)d tricks: %(given)d of the %(size)d are already "
                        "given, so at most %(left)d is left.",
                        "%(name)s cannot have taken %(value)d tricks: %(given)d of the %(size)d are already "
                        "given, so at most %(left)d are left.", sheet.hand_size - given) % {
            "name": sheet.names[seat], "value": value, "given": given, "size": sheet.hand_size,
            "left": sheet.hand_size - given}

    def action_erase(self) -> None:
        self._proposed = False
        if self.buffer:
            self.buffer = self.buffer[:-1]
        elif self.tricks is not None:
            # Step back to the previous player's tricks.
            order = [seat for seat in self.trick_order() if self.tricks[seat] is not None]
            if order:
                self.tricks[order[-1]] = None
            if all(t is None for t in self.tricks):
                self.tricks = None
        self.refresh_sheet()

    def _enter_chosen_trump(self, character: str) -> None:
        sheet = self.sheet
        chooser = sheet.trump_chooser
        assert chooser is not None
        letter = {"♠": "S", "♥": "H", "♦": "D", "♣": "C"}.get(character, character.upper())
        if letter not in ("S", "H", "D", "C"):
            self.error(_("Press S, H, D or C: the suit %(name)s chose as trump.") % {"name": sheet.names[chooser]})
            return
        try:
            sheet.choose_trump(letter)
        except ScoreError as problem:
            self.error(str(problem))
            return
        self.save()
        self.say(_("%(name)s chose %(suit)s as trump.") % {"name": sheet.names[chooser],
                                                           "suit": suit_label("SHDC".index(letter))})

    def action_confirm(self) -> None:
        entry = self.entry()
        if entry is None:
            return
        if entry[0] == "trump":
            self.error(_("Press S, H, D or C: the suit %(name)s chose as trump.")
                       % {"name": self.sheet.names[entry[1]]})
            return
        if not self.buffer:
            self.error(_("Type a number first."))
            return
        value = int(self.buffer)
        self._proposed = False
        kind, seat = entry
        sheet = self.sheet
        if kind == "bid":
            if not 0 <= value <= sheet.hand_size:
                self.buffer = ""
                self.error(_("%(name)s may bid 0 to %(size)d.") % {"name": sheet.names[seat], "size": sheet.hand_size})
                return
            try:
                sheet.bid(seat, value)
            except ScoreError as problem:
                self.buffer = ""
                self.error(str(problem))
                return
            self.buffer = ""
            self._message = None
            self.save()
            self.refresh_sheet()
            return
        if not 0 <= value <= sheet.hand_size:
            self.buffer = ""
            self.error(_("%(name)s cannot take %(value)d tricks in a hand of %(size)d cards")
                       % {"name": sheet.names[seat], "value": value, "size": sheet.hand_size})
            return
        tricks = self.tricks or [None] * sheet.rules.players
        given = sum(t for s, t in enumerate(tricks) if t is not None and s != seat)
        still = [s for s in self.trick_order() if tricks[s] is None and s != seat]
        # Refuse the count that makes the sum impossible now, and keep the counts that were fine.
        if given + value > sheet.hand_size:
            self.buffer = ""
            self.error(ngettext("%(name)s cannot have taken %(value)d tricks: %(given)d of the %(size)d are already "
                                "given, so at most %(left)d is left.",
                                "%(name)s cannot have taken %(value)d tricks: %(given)d of the %(size)d are already "
                                "given, so at most %(left)d are left.", sheet.hand_size - given)
                       % {"name": sheet.names[seat], "value": value, "given": given, "size": sheet.hand_size,
                          "left": sheet.hand_size - given})
            return
        if not still and given + value != sheet.hand_size:
            self.buffer = str(sheet.hand_size - given)
            self._proposed = True
            self.error(ngettext("The tricks must add up to %(size)d: %(name)s took the %(left)d left (Enter "
                                "accepts it).",
                                "The tricks must add up to %(size)d: %(name)s took the %(left)d left (Enter "
                                "accepts them).", sheet.hand_size - given)
                       % {"size": sheet.hand_size, "name": sheet.names[seat], "left": sheet.hand_size - given})
            return
        tricks[seat] = value
        self.tricks = tricks
        self.buffer = ""
        missing = [s for s in self.trick_order() if tricks[s] is None]
        if len(missing) == 1:
            left = sheet.hand_size - sum(t for t in tricks if t is not None)
            if 0 <= left <= sheet.hand_size:
                self.buffer = str(left)  # the last player's tricks are what is left: Enter accepts
                self._proposed = True
        if not missing:
            hand = sheet.hand_index
            if self._record_hand(tricks):
                self._say_scored(hand)
            return
        self._message = None
        self.refresh_sheet()

    def _say_scored(self, hand: int) -> None:
        sheet = self.sheet
        result = sheet.state.finished_hands[hand]
        made = [sheet.names[s] for s in range(sheet.rules.players) if result.bids[s] == result.tricks[s]]
        if len(made) == sheet.rules.players:
            self.say(_("Hand %(hand)d scored: everyone made their bid.") % {"hand": hand + 1})
        else:
            self.say(_("Hand %(hand)d scored. Made their bid: %(names)s.")
                     % {"hand": hand + 1, "names": ", ".join(made) or _("nobody")})

    def action_made(self) -> None:
        """``m``: the player shown made their bid. When the bids of every player still to enter
        add up to the tricks left, they all made it, and the hand is entered at once."""
        entry = self.entry()
        sheet = self.sheet
        if entry is None or entry[0] != "tricks":
            self.error(_("m enters the tricks of a player who made the bid, once every bid is in."))
            return
        tricks = self.tricks or [None] * sheet.rules.players
        bids = sheet.bids
        missing = [seat for seat in self.trick_order() if tricks[seat] is None]
        left = sheet.hand_size - sum(t for t in tricks if t is not None)
        wanted = [bids[seat] for seat in missing]
        if len(missing) > 1 and all(bid is not None for bid in wanted) and sum(
                bid for bid in wanted if bid is not None) == left:
            for seat in missing:
                tricks[seat] = bids[seat]
            self.tricks = tricks
            hand = sheet.hand_index
            if self._record_hand(tricks):
                self._say_scored(hand)
            return
        bid = bids[entry[1]]
        if bid is None:
            self.error(_("%(name)s did not bid in this hand: type the tricks.") % {"name": sheet.names[entry[1]]})
            return
        self.buffer = str(bid)
        self._proposed = False
        self.action_confirm()

    def _record_hand(self, tricks: list[int | None]) -> bool:
        """Record the tricks of the hand in progress; whether they were accepted."""
        sheet = self.sheet
        try:
            sheet.record_tricks([t for t in tricks if t is not None])
        except ScoreError as problem:
            self.tricks = None
            self.error(sentence(str(problem)) + " " + _("Enter the tricks again."))
            return False
        self.tricks = None
        self.buffer = ""
        self._row = -1
        self.save()
        return True

    def action_rename(self) -> None:
        def renamed(changed: bool | None) -> None:
            if changed:
                self._columns = ()
                self.save()
                self.say(_("The players are renamed."))

        self.app.push_screen(RenameScreen(self.sheet), renamed)

    def action_row(self, step: int) -> None:
        table = self.query_one(DataTable)
        last = table.row_count - 2  # the totals row is not a hand
        self._row = max(0, min(last, self._row + step))
        table.move_cursor(row=self._row, animate=False)

    def action_undo(self) -> None:
        if self.tricks is not None or self.buffer:
            self.tricks = None
            self.buffer = ""
            self._proposed = False
            self.say(_("The tricks entered for this hand are cleared."))
            return
        try:
            self.sheet.undo()
        except ScoreError as problem:
            self.error(str(problem))
            return
        self._row = -1
        self._columns = ()  # an undone renaming changes the headers
        self.save()
        self.say(_("Undone."))

    def action_trump(self) -> None:
        if self.sheet.finished:
            return

        def entered(value: str | None) -> None:
            if value is None:
                return
            try:
                self.sheet.set_trump(trump_entry(value))
            except ScoreError as problem:
                self.error(str(problem))
                return
            self.save()
            self.say(_("Trump entered."))

        self.app.push_screen(TrumpScreen(), entered)

    def action_edit(self) -> None:
        index = self._row
        started = len(self.sheet.record["hands"])
        if not 0 <= index < started:
            self.error(_("Select a hand that has started (↑/↓), then press e."))
            return

        def edited(changed: bool | None) -> None:
            if changed:
                self.tricks = None
                self.buffer = ""
                self.save()
                self.say(_("Hand %(hand)d changed; every later hand is scored again.") % {"hand": index + 1})

        self.app.push_screen(EditHandScreen(self.sheet, index), edited)

    def action_chart(self) -> None:
        self.app.push_screen(ChartScreen(self.sheet))

    def action_stats(self) -> None:
        self.app.push_screen(StatsScreen(self.sheet))

    def action_export(self) -> None:
        self.app.push_screen(ExportSheetScreen(self.sheet, self.sheet_id))

    def action_help(self) -> None:
        self.app.push_screen(KeysScreen())

    def action_back(self) -> None:
        self.app.pop_screen()


# ---------------------------------------------------------------------- dialogs


class _Dialog(ModalScreen[Any]):
    DEFAULT_CSS = """
    _Dialog { align: center middle; }
    _Dialog > Vertical { width: 84; max-width: 95%; height: auto; max-height: 95%;
                         border: thick $accent; background: $surface; padding: 1 2; }
    _Dialog Static { width: 100%; }
    _Dialog Input { width: 40; }
    _Dialog .error { color: $error; }
    _Dialog .field { height: auto; }
    _Dialog .field Label { width: 16; padding-top: 1; }
    _Dialog .field Input { width: 10; }
    _Dialog .heading { height: 1; }
    _Dialog .heading Static { width: 10; padding-left: 1; text-style: bold; }
    _Dialog .heading .name { width: 16; }
    _Dialog .field Input.name { width: 1fr; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", _("Close"))]

    def action_cancel(self) -> None:
        self.dismiss(None)


class TrumpScreen(_Dialog):
    """Enter the turned card or the trump suit of the hand in progress."""

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(Text(_("Trump of this hand"), style="bold"))
            yield Static(_("Type the turned card (7h, 10♠) or only the suit (h, ♥); leave empty for no trump."))
            yield Input(id="trump")
            yield Static(_("Enter saves, Esc cancels."), classes="dim")

    def on_input_submitted(self, event: Input.Submitted) -> None:
        self.dismiss(event.value.strip())


class EditHandScreen(_Dialog):
    """Change the bids, tricks and trump of a hand; every later hand is scored again. One line
    a player (compact inputs) and the keys said on top, so that Save is in view at 80 × 24
    with seven players; more players scroll."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", _("Cancel")),
        Binding("ctrl+s", "save", _("Save"), priority=True),
    ]
    DEFAULT_CSS = """
    EditHandScreen > Vertical { padding: 0 2; }
    EditHandScreen .field Label { padding-top: 0; }
    EditHandScreen .field Input { margin-right: 1; }
    EditHandScreen #rows { height: auto; max-height: 14; }
    """

    def __init__(self, sheet: ScoreSheet, index: int) -> None:
        super().__init__()
        self.sheet = sheet
        self.index = index

    def compose(self) -> ComposeResult:
        sheet = self.sheet
        hand = sheet.hands()[self.index]
        record_hand = sheet.record["hands"][self.index]
        finished = hand["scores"] is not None
        with Vertical():
            yield Static(Text(_("Hand %(hand)d: %(dealer)s dealt %(size)d cards")
                              % {"hand": self.index + 1, "dealer": sheet.names[hand["dealer"]],
                                 "size": hand["size"]}, style="bold"))
            yield Static(_("Empty bid: the player did not bid. Empty tricks: the hand is not finished."),
                         classes="dim")
            yield Static(_("Ctrl+S or Enter saves, Esc cancels."), classes="dim", id="keys")
            with Horizontal(classes="heading"):
                yield Static("", classes="name")
                yield Static(_("Bid"))
                yield Static(_("Tricks"))
            with VerticalScroll(id="rows"):
                for seat, name in enumerate(sheet.names):
                    with Horizontal(classes="field"):
                        yield Label(name)
                        bid = hand["bids"][seat]
                        yield Input(value="" if bid is None else str(bid), placeholder=_("bid"), type="integer",
                                    id=f"bid-{seat}", compact=True)
                        yield Input(value=str(hand["tricks"][seat]) if finished else "", placeholder=_("tricks"),
                                    type="integer", id=f"tricks-{seat}", compact=True)
                with Horizontal(classes="field"):
                    yield Label(_("Trump"))
                    yield Input(value=trump_as_shown(record_hand.get("trump")), placeholder=_("none"), id="trump",
                                compact=True)
            yield Static("", classes="error", id="error")
            with Horizontal(classes="field"):
                yield Button(_("Save"), variant="primary", id="save", compact=True)
                yield Button(_("Cancel"), id="cancel", compact=True)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "save":
            self.action_save()
        else:
            self.dismiss(False)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        self.action_save()

    def action_save(self) -> None:
        sheet = self.sheet
        n = sheet.rules.players
        bids: list[int | None] = []
        tricks_text: list[str] = []
        for seat in range(n):
            value = self.query_one(f"#bid-{seat}", Input).value.strip()
            bids.append(int(value) if value else None)
            tricks_text.append(self.query_one(f"#tricks-{seat}", Input).value.strip())
        error = self.query_one("#error", Static)
        if any(tricks_text) and not all(tricks_text):
            error.update(_("Give every player's tricks, or none for a hand not finished."))
            return
        tricks = [int(value) for value in tricks_text] if all(tricks_text) else None
        old_trump = sheet.record["hands"][self.index].get("trump")
        typed = self.query_one("#trump", Input).value.strip()
        # False: the trump is left as it was; None: no trump.
        trump: str | bool | None = False if typed == trump_as_shown(old_trump) else trump_entry(typed)
        try:
            sheet.edit_hand(self.index, bids, tricks, trump)
        except (ScoreError, ValueError) as problem:
            error.update(sentence(str(problem)))
            return
        self.dismiss(True)


class RenameScreen(_Dialog):
    """New names for the players (``r`` on the sheet); the change is undone like any other."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", _("Cancel")),
        Binding("ctrl+s", "save", _("Save"), priority=True),
    ]

    def __init__(self, sheet: ScoreSheet) -> None:
        super().__init__()
        self.sheet = sheet

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(Text(_("The players' names"), style="bold"))
            for seat, name in enumerate(self.sheet.names):
                with Horizontal(classes="field"):
                    yield Label(_("Player %(n)d") % {"n": seat + 1})
                    yield Input(value=name, classes="name", id=f"name-{seat}")
            yield Static("", classes="error", id="error")
            with Horizontal(classes="field"):
                yield Button(_("Save"), variant="primary", id="save")
                yield Button(_("Cancel"), id="cancel")

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "save":
            self.action_save()
        else:
            self.dismiss(False)

    def on_input_submitted(self, _event: Input.Submitted) -> None:
        self.action_save()

    def action_save(self) -> None:
        names = [self.query_one(f"#name-{seat}", Input).value for seat in range(self.sheet.rules.players)]
        if names == self.sheet.names:
            self.dismiss(False)
            return
        try:
            self.sheet.rename(names)
        except ScoreError as problem:
            self.query_one("#error", Static).update(sentence(str(problem)))
            return
        self.dismiss(True)


class ChartScreen(_Dialog):
    """The totals after each hand as a line chart."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", _("Close")),
        Binding("c", "cancel", show=False),
        Binding("enter", "cancel", show=False),
    ]

    DEFAULT_CSS = """
    ChartScreen > Vertical { width: 95%; }
    ChartScreen Static { text-wrap: nowrap; text-overflow: clip; }
    """

    def __init__(self, sheet: ScoreSheet) -> None:
        super().__init__()
        self.sheet = sheet

    def compose(self) -> ComposeResult:
        sheet = self.sheet
        series = [[totals[seat] for totals in sheet.totals_by_hand()] for seat in range(sheet.rules.players)]
        # The dialog is 95% of the screen; its border, padding and the axis labels take the rest.
        width = max(20, int(self.app.size.width * 0.95) - 18)
        height = max(6, min(16, self.app.size.height - 14))
        chart = line_chart(series, sheet.names, width=width, height=height, title=_("Totals after each hand"))
        chart.no_wrap = True
        with Vertical():
            yield Static(chart)


class StatsScreen(_Dialog):
    """Per player: bids made, zero bids made, best hand, total."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", _("Close")),
        Binding("s", "cancel", show=False),
        Binding("enter", "cancel", show=False),
    ]

    def __init__(self, sheet: ScoreSheet) -> None:
        super().__init__()
        self.sheet = sheet

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(stats_table(self.sheet))


def stats_table(sheet: ScoreSheet) -> Group:
    """The statistics of every player as a table."""
    table = Table(box=None, padding=(0, 2))
    table.add_column(_("Player"))
    table.add_column(_("Bids made"), justify="right")
    table.add_column(_("Zero bids made"), justify="right")
    table.add_column(_("Best hand"), justify="right")
    table.add_column(_("Total"), justify="right")
    for seat, stats in enumerate(sheet.stats()):
        share = f" ({stats.made_share:.0%})" if stats.hands else ""
        table.add_row(Text(sheet.names[seat], style=player_colour(seat)), f"{stats.made}/{stats.hands}{share}",
                      f"{stats.zero_made}/{stats.zero_bids}", "–" if stats.best_hand is None else str(stats.best_hand),
                      Text(str(stats.points), style="bold"))
    return Group(Text(_("Statistics"), style="bold"), Text(""), table)


class ExportSheetScreen(_Dialog):
    """Export the sheet as an ``ohhell/1`` record (JSON) or as CSV."""

    def __init__(self, sheet: ScoreSheet, sheet_id: str) -> None:
        super().__init__()
        self.sheet = sheet
        self.sheet_id = sheet_id

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(Text(_("Export this game"), style="bold"))
            yield Static(_("A name ending in .csv saves the scoresheet as CSV; any other name saves the "
                           "ohhell/1 record (JSON), which ohhell replay checks."))
            yield Input(value=f"ohhell-score-{self.sheet_id}.json", id="path")
            yield Static(_("A name without a folder is saved in %(folder)s.") % {"folder": Path.cwd()}, classes="dim")
            yield Static("", classes="error", id="error")
            yield Static(_("Enter saves, Esc cancels."), classes="dim")

    def on_input_submitted(self, event: Input.Submitted) -> None:
        path = Path(event.value.strip()).expanduser()
        try:
            export_sheet(self.sheet, path)
        except OSError as problem:
            self.query_one("#error", Static).update(_("Could not write %(path)s: %(error)s")
                                                    % {"path": path, "error": file_problem(problem)})
            return
        self.app.notify(_("Saved %(path)s") % {"path": path})
        self.dismiss(str(path))


def export_sheet(sheet: ScoreSheet, path: Path) -> None:
    """Write the sheet to ``path``: CSV for a ``.csv`` name, else the ``ohhell/1`` record."""
    if path.suffix.lower() == ".csv":
        path.write_text(sheet.to_csv(), encoding="utf-8", newline="")
    else:
        path.write_text(json.dumps(sheet.record, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")


class KeysScreen(_Dialog):
    """The keys of the sheet."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", _("Close")),
        Binding("question_mark", "cancel", show=False),
        Binding("enter", "cancel", show=False),
    ]

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(Text(_("Keys"), style="bold"))
            # Said first, so that it is in view however long the list is.
            yield Static(Text(_("Esc, Enter or ? closes this list.") + "\n", style="dim"), id="close-hint")
            yield Static(keys_table(sheet_keys()))


def sheet_keys() -> Sequence[tuple[str, str]]:
    return [
        ("0 … 9, Enter", _("enter the bid or the tricks of the player shown")),
        ("Backspace", _("erase a digit, or go back to the previous player's tricks")),
        ("m", _("the player shown made the bid (when the bids of everyone left add up, all of them at once)")),
        ("t", _("enter the turned card or the trump suit (before the first bid)")),
        ("↑ ↓", _("select a hand")),
        ("e", _("edit the selected hand (every later hand is scored again)")),
        ("r", _("rename the players")),
        ("u", _("undo the last change")),
        ("c", _("chart of the totals")),
        ("s", _("statistics: bids made, zero bids made")),
        ("x", _("export as an ohhell/1 record or CSV")),
        ("Esc", _("back to the saved games")),
        ("q", _("quit (the game is saved; ohhell score --resume goes on with it)")),
    ]


def run_score(store: ScoreStore, sheet: ScoreSheet | None = None, sheet_id: str | None = None,
              defaults: dict[str, Any] | None = None) -> str | None:
    """Run the app; returns the id of the last game opened when it is not finished (for the
    resume hint)."""
    return ScoreApp(store, sheet, sheet_id, defaults).run()


__all__ = ["ScoreApp", "SheetScreen", "export_sheet", "run_score", "stats_table"]
