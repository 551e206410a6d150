"""Widgets and renderables of the terminal apps: the hand, the bid bar, the players, the table.

Everything here draws what a :class:`~ohhell.views.SeatView` holds (the apps never show
anything else of a game), and the card pickers answer both the keyboard and the mouse.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text
from textual import events
from textual.app import RenderResult
from textual.message import Message
from textual.widget import Widget

from ohhell.cards import CARD_SUITS, Card, original
from ohhell.i18n import _, ngettext, pgettext
from ohhell.tui.render import card_label, card_rank_key, card_style, card_text, trump_text
from ohhell.views import SeatView

# ---------------------------------------------------------------------- card boxes

CARD_WIDTH = 5
"""Columns of a drawn card: ``╭───╮``."""


@dataclass(frozen=True)
class BoxLook:
    """How one drawn card looks: its border colour and whether it is greyed out."""

    border: str = "grey50"
    dim: bool = False
    raised: bool = False


def card_boxes(cards: Sequence[Card | None], looks: Sequence[BoxLook] | None = None,
               gap: int = 1) -> tuple[list[Text], list[tuple[int, int, int]]]:
    """Three rows of small drawn cards (``None`` is a narrow space) and the column span
    ``(start, end, index)`` of each card, for mouse clicks."""
    rows = [Text(), Text(), Text()]
    spans: list[tuple[int, int, int]] = []
    column = 0
    for index, card in enumerate(cards):
        if index:
            for row in rows:
                row.append(" " * gap)
            column += gap
        if card is None:  # a narrow space (between suits)
            for row in rows:
                row.append(" ")
            column += 1
            continue
        look = looks[index] if looks is not None else BoxLook()
        border = look.border
        label_style = card_style(card)
        if look.dim:
            label_style = "grey42"
            border = "grey30"
        if look.raised:
            border = "bold yellow"
            label_style += " reverse"
        label = card_label(card)
        rows[0].append("╭───╮", style=border)
        rows[1].append("│", style=border)
        rows[1].append(f"{label:>3}", style=label_style)
        rows[1].append("│", style=border)
        rows[2].append("╰───╯", style=border)
        spans.append((column, column + CARD_WIDTH, index))
        column += CARD_WIDTH
    return rows, spans


# ---------------------------------------------------------------------- your hand


class HandWidget(Widget):
    """Your cards, sorted by suit, the playable ones marked and one of them selected.

    Keys (sent by the screen): :meth:`move`, :meth:`select_rank`; Enter asks the screen to
    play :meth:`selected`. A click selects a card, a click on the selected card plays it.
    """

    DEFAULT_CSS = """
    HandWidget { height: 4; }
    """

    class Chosen(Message):
        """The person chose to play ``card``."""

        def __init__(self, card: Card) -> None:
            self.card = card
            super().__init__()

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.cards: tuple[Card, ...] = ()
        self.legal: frozenset[Card] = frozenset()
        self.active = False
        self.cursor = 0
        self.compact = False
        """Draw without the ▲ marker line (a short terminal: the raised card is marked enough)."""
        self._spans: list[tuple[int, int, int]] = []
        self._last_rank_key: tuple[int, Card] | None = None
        """The rank key pressed last and the card it selected: pressing it again on that very card
        moves to the next card of the rank; anything else starts again from the first."""

    def set_hand(self, cards: Sequence[Card], legal: Sequence[Card], active: bool) -> None:
        """Show ``cards``; when ``active`` the ``legal`` ones may be played now."""
        previous = self.selected()
        # The engine lists one of two identical cards (Bust); either copy held may be played.
        named = {original(card) for card in legal}
        allowed = frozenset(legal) | frozenset(card for card in cards if original(card) in named)
        if (tuple(cards), allowed, active) != (self.cards, self.legal, self.active):
            self._last_rank_key = None  # a new turn or a new hand: a rank key starts afresh
        self.cards = tuple(cards)
        self.legal = allowed
        self.active = active
        if previous in self.cards:
            self.cursor = self.cards.index(previous)
        self.cursor = min(self.cursor, max(0, len(self.cards) - 1))
        if active and self.cards and self.cards[self.cursor] not in self.legal:
            playable = [i for i, card in enumerate(self.cards) if card in self.legal]
            if playable:
                self.cursor = playable[0]
        self.refresh()

    def selected(self) -> Card | None:
        return self.cards[self.cursor] if self.cards else None

    def _targets(self) -> list[int]:
        if self.active:
            playable = [i for i, card in enumerate(self.cards) if card in self.legal]
            if playable:
                return playable
        return list(range(len(self.cards)))

    def move(self, step: int) -> None:
        """Select the next (``step`` 1) or previous (-1) card; only playable ones on your turn."""
        targets = self._targets()
        if not targets:
            return
        if self.cursor in targets:
            position = (targets.index(self.cursor) + step) % len(targets)
        else:
            position = 0 if step > 0 else len(targets) - 1
        self.cursor = targets[position]
        self._last_rank_key = None
        self.refresh()

    def move_to(self, edge: int) -> None:
        targets = self._targets()
        if targets:
            self.cursor = targets[0 if edge < 0 else -1]
            self._last_rank_key = None
            self.refresh()

    def select_card(self, card: Card) -> None:
        if card in self.cards:
            self.cursor = self.cards.index(card)
            self._last_rank_key = None
            self.refresh()

    def select_rank(self, rank: int) -> bool:
        """Select a card of ``rank`` (13: a joker); pressing it again moves to the next one
        of that rank. Whether there is one."""
        matches = [i for i, card in enumerate(self.cards) if card_rank_key(card) == rank]
        if not matches:
            return False
        if self.active:
            matches.sort(key=lambda i: self.cards[i] not in self.legal)
        if self.cursor in matches and self._last_rank_key == (rank, self.cards[self.cursor]):
            self.cursor = matches[(matches.index(self.cursor) + 1) % len(matches)]
        else:
            self.cursor = matches[0]
        self._last_rank_key = (rank, self.cards[self.cursor])
        self.refresh()
        return True

    def _groups(self) -> list[Card | None]:
        """The cards with an empty place between suits."""
        out: list[Card | None] = []
        previous_suit = None
        for card in self.cards:
            suit = CARD_SUITS[card] if card >= 0 else -1
            if out and suit != previous_suit:
                out.append(None)
            out.append(card)
            previous_suit = suit
        return out

    def render(self) -> RenderResult:
        if not self.cards:
            return Text(_("(no cards)"), style="dim")
        grouped = self._groups()
        looks: list[BoxLook] = []
        index_of: list[int] = []
        position = 0
        for card in grouped:
            if card is None:
                looks.append(BoxLook())
                index_of.append(-1)
                continue
            legal = card in self.legal
            looks.append(BoxLook(border="green" if self.active and legal else "grey50",
                                 dim=self.active and not legal, raised=self.active and position == self.cursor))
            index_of.append(position)
            position += 1
        width = self.size.width or 200
        boxes_width = len(grouped) * (CARD_WIDTH + 1)
        if boxes_width > width:
            return self._render_compact()
        rows, spans = card_boxes(grouped, looks)
        self._spans = [(start, end, index_of[index]) for start, end, index in spans]
        if self.compact:
            return Group(*rows)
        marker = Text()
        for start, _end, index in self._spans:
            if index == self.cursor and self.active:
                marker.append(" " * (start - len(marker)) + "  ▲", style="bold yellow")
        return Group(*rows, marker)

    def _render_compact(self) -> RenderResult:
        """One line of cards, for a narrow terminal."""
        line = Text()
        spans = []
        previous_suit = None
        for index, card in enumerate(self.cards):
            suit = CARD_SUITS[card] if card >= 0 else -1
            if index and suit != previous_suit:
                line.append(" ")
            previous_suit = suit
            start = len(line)
            text = card_text(card, dim=self.active and card not in self.legal)
            if index == self.cursor and self.active:
                text.stylize("reverse")
            line.append_text(text)
            spans.append((start, len(line), index))
            line.append(" ")
        self._spans = spans
        if self.compact:
            return line
        marker = Text()
        for start, _end, index in spans:
            if index == self.cursor and self.active:
                marker.append(" " * start + "▲", style="bold yellow")
        return Group(line, marker)

    def on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        if offset is None:
            return
        for start, end, index in self._spans:
            if start <= offset.x < end and index >= 0:
                card = self.cards[index]
                if index == self.cursor and self.active and card in self.legal:
                    self.post_message(self.Chosen(card))
                else:
                    self.cursor = index
                    self._last_rank_key = None
                    self.refresh()
                return


# ---------------------------------------------------------------------- bids, choices


@dataclass(frozen=True)
class Choice:
    """One option of a :class:`ChoiceBar`."""

    value: int
    label: str
    enabled: bool = True
    current: bool = False


class ChoiceBar(Widget):
    """A row of options (the bids 0 … hand size, or high/low for a joker): ←/→ or a number
    select, Enter chooses; a click selects, a click on the selected option chooses. A
    forbidden option is struck through."""

    DEFAULT_CSS = """
    ChoiceBar { height: 1; }
    """

    class Chosen(Message):
        def __init__(self, bar: ChoiceBar, value: int) -> None:
            self.bar = bar
            self.value = value
            super().__init__()

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.title = ""
        self.choices: tuple[Choice, ...] = ()
        self.cursor = 0
        self.active = False
        self._spans: list[tuple[int, int, int]] = []

    def set_choices(self, title: str, choices: Sequence[Choice], active: bool, keep: bool = True) -> None:
        """Show ``choices``; the cursor stays on the same value (``keep``), else goes to the current
        one, never to a forbidden one (the dealer's hooked bid)."""
        previous = self.selected() if keep else None
        self.title = title
        self.choices = tuple(choices)
        self.active = active
        values = [choice.value for choice in self.choices]
        if previous is not None and previous in values:
            self.cursor = values.index(previous)
        else:
            current = [i for i, choice in enumerate(self.choices) if choice.current]
            self.cursor = current[0] if current else 0
        self.cursor = min(self.cursor, max(0, len(self.choices) - 1))
        if self.choices and not self.choices[self.cursor].enabled:
            self.cursor = self._nearest_enabled(self.cursor)
        self.refresh()

    def _enabled(self) -> list[int]:
        return [i for i, choice in enumerate(self.choices) if choice.enabled]

    def _nearest_enabled(self, index: int) -> int:
        """The enabled option closest to ``index`` (the next one up on a tie)."""
        enabled = self._enabled()
        if not enabled:
            return index
        return min(enabled, key=lambda i: (abs(i - index), i < index))

    def selected(self) -> int | None:
        return self.choices[self.cursor].value if self.choices else None

    def is_enabled(self, value: int) -> bool:
        """Whether ``value`` is one of the options and may be chosen."""
        return any(choice.value == value and choice.enabled for choice in self.choices)

    def move(self, step: int) -> None:
        """The next (``step`` 1) or previous (-1) option that may be chosen, wrapping around."""
        enabled = self._enabled()
        if not enabled:
            return
        if self.cursor in enabled:
            self.cursor = enabled[(enabled.index(self.cursor) + step) % len(enabled)]
        else:
            self.cursor = self._nearest_enabled(self.cursor)
        self.refresh()

    def move_to(self, edge: int) -> None:
        enabled = self._enabled()
        if enabled:
            self.cursor = enabled[0 if edge < 0 else -1]
            self.refresh()

    def select_value(self, value: int) -> bool:
        """Put the cursor on ``value`` if it may be chosen; whether it could."""
        for index, choice in enumerate(self.choices):
            if choice.value == value and choice.enabled:
                self.cursor = index
                self.refresh()
                return True
        return False

    def render(self) -> RenderResult:
        line = Text()
        if not self.choices:
            return line
        line.append(self.title + " ", style="bold" if self.active else "dim")
        spans = []
        for index, choice in enumerate(self.choices):
            style = ""
            if not choice.enabled:
                style = "strike red"
            if choice.current:
                style += " underline"
            if index == self.cursor and self.active:
                style += " reverse bold"
            if not self.active:
                style += " dim"
            start = len(line)
            line.append(f" {choice.label} ", style=style.strip())
            spans.append((start, len(line), index))
            line.append(" ")
        self._spans = spans
        return line

    def on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        if offset is None or not self.active:
            return
        for start, end, index in self._spans:
            if start <= offset.x < end:
                if index == self.cursor or not self.choices[index].enabled:
                    # A forbidden option is not selected: the screen says why it may not be chosen.
                    self.post_message(self.Chosen(self, self.choices[index].value))
                else:
                    self.cursor = index
                    self.refresh()
                return


# ---------------------------------------------------------------------- panels


def bid_text(view: SeatView, seat: int) -> Text:
    """A seat's bid as the table shows it: the number, "?" for a secret bid, "·" before it bids."""
    bid = view.bids[seat]
    if bid is not None:
        return Text(str(bid))
    if view.has_bid[seat]:
        return Text("?", style="dim")
    if view.dealt and seat not in view.bid_order:
        return Text("–", style="dim")
    return Text("·", style="dim")


def dealer_chip() -> str:
    """The one-letter chip that marks the dealer where "(dealer)" does not fit (``D``; ``С`` in
    Russian): the same letter as the web app's."""
    return pgettext("dealer chip", "D")


def needs_text(view: SeatView, seat: int) -> Text:
    """How many more tricks a seat needs to make its bid: ``2``, ``✓`` when it has its bid, ``✗``
    when it has taken more (empty before the bid is known or the cards are played)."""
    bid = view.bids[seat]
    if bid is None or not view.dealt or not view.bidding_complete:
        return Text("")
    need = bid - view.tricks_won[seat]
    if need > 0:
        return Text(str(need), style="yellow")
    if need == 0:
        return Text("✓", style="bold green")
    return Text("✗", style="bold red")


def _cell_width(items: Sequence[str | Text]) -> int:
    return max((Text(item).cell_len if isinstance(item, str) else item.cell_len for item in items), default=0)


def players_table(view: SeatView, thinking: int | None = None, width: int | None = None) -> RenderableType:
    """Every player with their bid, the tricks they took, the tricks they still need and their
    total. ``width`` is the room for it: where "(dealer)" after a name would squeeze the names, the
    dealer is marked by :func:`dealer_chip`, and the "needs" column goes first when even that is
    too narrow (the prompt still says what you need)."""
    names = view.names or tuple(str(seat) for seat in range(view.players))
    bids = [bid_text(view, seat) for seat in range(view.players)]
    won = [Text(str(count)) for count in view.tricks_won]
    needs = [needs_text(view, seat) for seat in range(view.players)]
    totals = [Text(str(total), style="bold") for total in view.totals]
    columns = [bids, won, needs, totals]
    longest = max((Text(name).cell_len for name in names), default=0)
    dealer_word = " " + _("(dealer)")
    room = width if width is not None else 10_000

    def widths(headers: list[str]) -> list[int]:
        return [max(Text(header).cell_len, _cell_width(values))
                for header, values in zip(headers, columns, strict=True)]

    def fixed(with_needs: bool) -> int:
        """Columns taken by everything but the name: the marker, the numbers, a space between columns."""
        shown = [number for index, number in enumerate(numbers) if index != 2 or with_needs]
        return 1 + sum(shown) + len(shown) + 1

    headers = [_("Bid"), _("Won"), _("Needs"), _("Total")]
    numbers = widths(headers)
    if room - fixed(True) < min(longest, 6):
        # Short headings (a narrow terminal), so that the names keep their room.
        headers = [pgettext("short heading", "Bid"), pgettext("short heading", "Won"),
                   pgettext("short heading", "Needs"), pgettext("short heading", "Total")]
        numbers = widths(headers)
    show_needs = view.dealt and view.bidding_complete
    if show_needs and room - fixed(True) < min(longest, 6):
        show_needs = False
    # Decided as if the "needs" column were there, so that the mark does not change mid-hand.
    full_dealer = room - fixed(True) >= longest + Text(dealer_word).cell_len
    table = Table(box=None, padding=(0, 1), collapse_padding=True, pad_edge=False, expand=True, show_edge=False)
    table.add_column("", width=1, no_wrap=True)
    table.add_column(_("Player"), ratio=3, no_wrap=True, overflow="ellipsis")
    table.add_column(headers[0], justify="right", no_wrap=True)
    table.add_column(headers[1], justify="right", no_wrap=True)
    if show_needs:
        table.add_column(headers[2], justify="right", no_wrap=True)
    table.add_column(headers[3], justify="right", no_wrap=True)
    for seat in range(view.players):
        marker = Text("▶", style="bold yellow") if seat == view.turn or seat == thinking else Text("")
        name = Text(names[seat], style="bold" if seat == view.seat else "")
        dealer = seat == view.dealer and view.first_dealer is not None
        if dealer and full_dealer:
            name.append(dealer_word, style="dim italic")
        elif dealer:
            # The chip goes first, so that a long name cut short keeps it.
            name = Text.assemble((dealer_chip(), "reverse"), " ", name)
        bid = view.bids[seat]
        if bid is not None and view.dealt:
            if view.tricks_won[seat] > bid:
                won[seat].stylize("red")
            elif view.tricks_won[seat] == bid:
                won[seat].stylize("green")
        row = [marker, name, bids[seat], won[seat]] + ([needs[seat]] if show_needs else []) + [totals[seat]]
        table.add_row(*row)
    bid_values = [bid for bid in view.bids if bid is not None]
    footer = Text()
    if view.dealt and bid_values:
        total = sum(bid_values)
        footer.append(ngettext("Bids add up to %(sum)d of %(size)d trick",
                               "Bids add up to %(sum)d of %(size)d tricks", view.hand_size)
                      % {"sum": total, "size": view.hand_size}, style="dim")
        if view.bidding_complete:
            if total > view.hand_size:
                footer.append(" · " + _("overbid"), style="dim")
            elif total < view.hand_size:
                footer.append(" · " + _("underbid"), style="dim")
    return Group(table, footer)


def trick_cards(view: SeatView, trick: Sequence[tuple[int, Card]], width: int | None = None) -> list[Text]:
    """The cards of the trick in progress, the one winning so far framed in green, each with its
    player's name below it, cut to the card's width so that names never run into each other
    (``Alex…``); where the cards do not fit ``width`` with a space between them, they are drawn
    side by side."""
    names = view.names or tuple(str(seat) for seat in range(view.players))
    winning = _winning_index(view, list(trick))
    gap = 1
    if width is not None and len(trick) * (CARD_WIDTH + 1) - 1 > width:
        gap = 0
    looks = [BoxLook(border="bold green" if index == winning else "grey50") for index in range(len(trick))]
    rows, spans = card_boxes([card for _seat, card in trick], looks, gap=gap)
    name_row = Text()
    for (start, _end, index) in spans:
        name_row.append(" " * (start - name_row.cell_len))
        name_row.append(fit(names[trick[index][0]], CARD_WIDTH - 1 + gap),
                        style="bold green" if index == winning else "")
    return [*rows, name_row]


def last_trick_line(view: SeatView, width: int | None = None) -> Text | None:
    """The last trick: each card with its player and who won it; only the cards and the winner
    where that does not fit ``width``."""
    last = view.last_trick
    if last is None:
        return None
    names = view.names or tuple(str(seat) for seat in range(view.players))
    line = Text(_("Last trick:") + " ", style="bold")
    for seat, card in last.cards:
        line.append_text(card_text(card))
        line.append(f" {names[seat]}  ", style="bold green" if seat == last.winner else "dim")
    line.append("→ " + _("%(name)s won it") % {"name": names[last.winner]}, style="green")
    if width is None or line.cell_len <= width:
        return line
    line = Text(_("Last trick:") + " ", style="bold")
    for _seat, card in last.cards:
        line.append_text(card_text(card))
        line.append(" ")
    line.append("→ " + _("%(name)s won it") % {"name": names[last.winner]}, style="green")
    return line


def fit(text: str, width: int) -> str:
    """``text`` cut to ``width`` columns, with ``…`` when cut (``Alexandra`` → ``Alex…``).

    >>> fit("Alexandra", 5), fit("Ada", 5), fit("Ada", 2)
    ('Alex…', 'Ada', 'A…')
    """
    if Text(text).cell_len <= width:
        return text
    cut = Text(text)
    cut.truncate(max(0, width - 1))
    return cut.plain + "…"


def table_panel(view: SeatView, width: int | None = None) -> RenderableType:
    """Trump, the trick in progress (with who plays each card) and the last trick."""
    names = view.names or tuple(str(seat) for seat in range(view.players))
    parts: list[RenderableType] = []
    if view.dealt:
        line = Text(_("Trump:") + " ", style="bold")
        if view.trump_by_choice and view.trump is None:
            line.append(_("chosen by the highest bidder after the bidding") if view.trump_chooser is None
                        else _("%(name)s chooses") % {"name": names[view.trump_chooser]}, style="italic")
        else:
            line.append_text(trump_text(view.trump, view.turn_up))
            if view.trump_chooser is not None:
                line.append(" " + _("(chosen by %(name)s)") % {"name": names[view.trump_chooser]}, style="dim")
        parts.append(line)
    elif view.game_over:
        parts.append(Text(_("The game is over."), style="dim"))
    else:
        parts.append(Text(_("The cards are being dealt."), style="dim"))
    trick = list(view.current_trick)
    if view.dealt:
        parts.append(Text(_("This trick:"), style="bold"))
        if trick:
            parts.extend(trick_cards(view, trick, width))
        else:
            parts.append(Text("  " + _("(no card yet)"), style="dim"))
    last = last_trick_line(view, width)
    if last is not None:
        parts.append(last)
    if view.visible_hands:
        line = Text(_("On the others' foreheads:") + " ", style="bold")
        for seat, cards in sorted(view.visible_hands.items()):
            line.append(names[seat] + " ")
            for card in cards:
                line.append_text(card_text(card))
                line.append(" ")
        parts.append(line)
    return Group(*parts)


def _winning_index(view: SeatView, trick: list[tuple[int, Card]]) -> int | None:
    """Which card of the trick in progress is winning so far (public facts only); ``None`` when
    a joker makes it a matter of the joker rules. Of two identical cards (Bust) the later wins."""
    if not trick or any(CARD_SUITS[card] == 4 for _seat, card in trick):
        return None
    best = 0
    for index, (_seat, card) in enumerate(trick):
        best_card = trick[best][1]
        suit, best_suit = CARD_SUITS[card], CARD_SUITS[best_card]
        if (suit == best_suit and card_rank_key(card) >= card_rank_key(best_card) and index) or (
                suit == view.trump and best_suit != view.trump):
            best = index
    return best


# ---------------------------------------------------------------------- the keys


def keys_table(lines: Sequence[tuple[str, str]]) -> Table:
    """Keys and what they do, in two columns: a long description wraps inside its own column."""
    table = Table(box=None, padding=(0, 2, 0, 0), show_header=False, expand=True)
    table.add_column(style="bold cyan", no_wrap=True)
    table.add_column(ratio=1)
    for keys, meaning in lines:
        table.add_row(keys, meaning)
    return table




class KeyBar(Widget):
    """The keys of the screen at the bottom, like Textual's footer, but fitted to the width: when
    they do not all fit, the least important go first (the screen's ``KEY_PRIORITY`` lists its
    actions, most important first; ``?`` shows every key), so that quitting never falls off the
    edge. A click on a key presses it. A screen hides a key that does nothing now with
    ``shows_key(action)``."""

    DEFAULT_CSS = """
    KeyBar { dock: bottom; height: 1; background: $footer-background; color: $footer-foreground; }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._spans: list[tuple[int, int, str]] = []

    def on_mount(self) -> None:
        self.screen.bindings_updated_signal.subscribe(self, self._bindings_changed)

    def on_unmount(self) -> None:
        self.screen.bindings_updated_signal.unsubscribe(self)

    def _bindings_changed(self, _screen: object) -> None:
        self.refresh()

    def entries(self) -> list[KeyEntry]:
        """The keys to show, in the screen's order (one per action)."""
        screen = self.screen
        shows = getattr(screen, "shows_key", None)
        seen: set[str] = set()
        out = []
        for _namespace, binding, enabled, _tooltip in screen.active_bindings.values():
            if not binding.show or binding.action in seen:
                continue
            if shows is not None and not shows(binding.action):
                continue
            seen.add(binding.action)
            out.append(KeyEntry(binding.action, binding.key, self.app.get_key_display(binding),
                                binding.description, enabled))
        return out

    def fitted(self, width: int) -> list[KeyEntry]:
        """The keys that fit ``width``, the least important dropped first."""
        priority: Sequence[str] = getattr(self.screen, "KEY_PRIORITY", ())

        def rank(entry: KeyEntry) -> int:
            return priority.index(entry.action) if entry.action in priority else len(priority)

        kept = self.entries()
        while kept and sum(entry.width for entry in kept) > width:
            kept.remove(max(reversed(kept), key=rank))
        return kept

    def render(self) -> RenderResult:
        line = Text()
        spans = []
        for entry in self.fitted(self.size.width):
            start = line.cell_len
            line.append(f" {entry.shown} ", style="bold" if entry.enabled else "dim")
            line.append(entry.description + " ", style="" if entry.enabled else "dim")
            spans.append((start, line.cell_len, entry.key))
        self._spans = spans
        return line

    def on_click(self, event: events.Click) -> None:
        for start, end, key in self._spans:
            if start <= event.x < end:
                self.app.simulate_key(key)
                return


@dataclass(frozen=True)
class KeyEntry:
    """One key of a :class:`KeyBar`."""

    action: str
    key: str
    shown: str
    description: str
    enabled: bool

    @property
    def width(self) -> int:
        return Text(f" {self.shown} {self.description} ").cell_len
