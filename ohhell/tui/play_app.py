"""``ohhell play``: you against bots in the terminal.

The screen shows your hand sorted by suit (the cards you may play are marked), trump and
the turned card, every bid and trick count, the trick in progress and the last one, and
the running scores; as the dealer you see the bid the hook forbids you. Everything it
shows comes from your seat's view (:func:`ohhell.views.seat_view`).

Keys: ←/→ or a rank (``a k q j t 9 … 2``) pick a card, Enter plays it; digits pick a bid,
Enter bids (and changes it while the bid-change window is open); ``h`` asks a bot for a
hint, ``c`` claims the remaining tricks, ``u`` takes back your last card (when the table
allows it), ``s`` changes the bots' speed, ``x`` exports the record, ``r`` shows the rules,
``p`` the score sheet of the hands so far, ``?`` the keys; Esc asks before it saves and quits
(Ctrl+Q does not ask). The mouse works too: click a card or a bid to select it, click it again
to play it.

The screen fits terminals down to 80 × 24 with seven players: on a short terminal the hand is
drawn without its marker line and the log and the hand keep only a top border; narrower than
the drawn trick, the trick's cards close up; below the smallest size it says how large the
terminal must be (:func:`minimum_size`).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any, ClassVar

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text
from textual import events, work
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.timer import Timer
from textual.widgets import Input, RichLog, Static

from ohhell.actions import Action, Bid, ChooseTrump, Declare, Play
from ohhell.bots import ALIASES, Suggestion
from ohhell.cards import HIDDEN_CARD
from ohhell.errors import IllegalActionError
from ohhell.explain import describe_rules
from ohhell.i18n import _, cards_shown_as_seen, estimate_kind, ngettext, show_cards_as_seen
from ohhell.record import dump_record
from ohhell.rules import Rules
from ohhell.tui.chart import line_chart, player_colour
from ohhell.tui.dialogs import ConfirmScreen, watch_size
from ohhell.tui.messages import file_problem, refusal
from ohhell.tui.render import card_label, card_text, rank_key_list, rank_keys, suit_label
from ohhell.tui.session import (
    SPEEDS,
    BotTask,
    PlaySession,
    describe_action,
    estimate_label,
    speed_label,
)
from ohhell.tui.widgets import Choice, ChoiceBar, HandWidget, KeyBar, fit, keys_table, players_table, table_panel
from ohhell.views import HandSummary, SeatView

TRICK_PAUSE_FACTOR = 2.0
"""A finished trick stays in view this many bot delays before the next lead."""

ROOMY_HEIGHT = 30
"""From this many lines the hand has its ▲ marker line and the log and the hand their full borders."""

PLAYERS_WIDTH = 38
"""Columns of the players' panel (with its border) on a terminal narrower than 95 columns."""


def middle_height(players: int) -> int:
    """Lines of the players' and table panels: a line per player, the header and the sum of the
    bids (two lines on a narrow terminal); the table needs 8 (trump, "this trick", the cards,
    the names, the last trick on up to two lines); each has a border."""
    return max(8, players + 3) + 2


def minimum_size(rules: Rules) -> tuple[int, int]:
    """The smallest terminal ``(columns, lines)`` the game needs for ``rules``' players: the
    players' panel beside a trick of drawn cards, and the status line, the panels, three lines
    of log, the hand (with its top border), the prompt (two lines), the bids and the keys.

    >>> from ohhell.rules import preset
    >>> minimum_size(preset("classic", players=7)), minimum_size(preset("classic", players=4))
    ((80, 24), (70, 22))
    """
    players = rules.players
    width = max(70, PLAYERS_WIDTH + 4 + 5 * players + 3)
    height = 1 + middle_height(players) + 3 + 4 + 2 + 1 + 1
    return width, max(height, 22)


class PlayApp(App[str | None]):
    """The game against bots. ``run()`` returns the path of the save file (or ``None``)."""

    TITLE = "ohhell"
    ENABLE_COMMAND_PALETTE = False
    CSS = """
    Screen { layout: vertical; overflow: hidden; }
    #status { height: 1; background: $primary-background; color: $text; padding: 0 1; }
    #middle { height: 10; }
    #players { width: 40%; min-width: 38; max-width: 50; height: 100%; border: round $primary; padding: 0 1; }
    #table { width: 1fr; height: 100%; border: round $primary; padding: 0 1; }
    #log { height: 1fr; min-height: 3; border: round $secondary; padding: 0 1; overflow-x: hidden; }
    #hand-box { height: auto; border: round $accent; padding: 0 1; }
    #prompt { height: auto; min-height: 1; padding: 0 1; }
    #choices { height: 1; padding: 0 1; }
    GameScreen.-short #log { border: none; border-top: round $secondary; min-height: 2; }
    GameScreen.-short #hand-box { border: none; border-top: round $accent; }
    GameScreen.-narrow #players { width: 38; min-width: 38; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+q", "save_and_quit", _("Save & quit"), show=False, priority=True),
    ]

    def __init__(self, session: PlaySession, new_session: Callable[[], PlaySession] | None = None) -> None:
        super().__init__()
        self.session = session
        self.new_session = new_session
        """A callable giving a new :class:`PlaySession` with the same table (the "new game" key)."""
        self.saved_path: Path | None = None

    def on_mount(self) -> None:
        # The engine's messages name cards as this app shows them (10♥, not TH).
        self._cards_were_shown_as_seen = cards_shown_as_seen()
        show_cards_as_seen()
        self.push_screen(GameScreen(self.session))
        self.call_after_refresh(self._check_size)

    def on_resize(self, _event: events.Resize) -> None:
        self.call_after_refresh(self._check_size)

    def _check_size(self) -> None:
        watch_size(self, minimum_size(self.session.rules))

    def on_unmount(self) -> None:
        show_cards_as_seen(self._cards_were_shown_as_seen)

    def save_game(self) -> Path | None:
        try:
            self.saved_path = self.session.save()
        except OSError as error:
            self.notify(_("The game could not be saved: %(error)s") % {"error": file_problem(error)},
                        severity="error")
            return None
        return self.saved_path

    def action_save_and_quit(self) -> None:
        path = self.save_game()
        self.session.close()
        self.exit(str(path) if path else None)

    def start_new_game(self) -> None:
        if self.new_session is None:
            return
        self.session.close()
        self.session = self.new_session()
        while len(self.screen_stack) > 1:
            self.pop_screen()
        self.push_screen(GameScreen(self.session))


class GameScreen(Screen[None]):
    """The table: players, trick, your hand, and what to do now."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "confirm", _("Play / bid"), show=True),
        Binding("space", "confirm", show=False),
        Binding("left", "move(-1)", show=False),
        Binding("right", "move(1)", show=False),
        Binding("home", "edge(-1)", show=False),
        Binding("end", "edge(1)", show=False),
        Binding("h", "hint", _("Hint")),
        Binding("c", "claim", _("Claim")),
        Binding("u", "take_back", _("Take back")),
        Binding("backspace", "take_back", show=False),
        Binding("p", "scores", _("Scores")),
        Binding("s", "speed", _("Speed")),
        Binding("x", "export", _("Export")),
        Binding("r", "rules", _("Rules")),
        Binding("question_mark", "help", _("Keys")),
        Binding("escape", "quit", _("Save & quit")),
    ]
    KEY_PRIORITY: ClassVar[tuple[str, ...]] = (
        "confirm", "quit", "help", "hint", "take_back", "scores", "claim", "rules", "speed", "export")
    """The keys the key bar keeps when it is narrow, most important first (``?`` lists them all)."""

    def __init__(self, session: PlaySession) -> None:
        super().__init__()
        self.session = session
        self._timer: Timer | None = None
        self._busy: BotTask | None = None
        self._hands_shown = len(session.state.finished_hands)
        self._bid_buffer = ""
        self._bid_typed_at = 0.0
        self._refused: str | None = None
        """Why the number typed last cannot be bid: Enter repeats it rather than bid another number."""
        self._message: Text | None = None
        self._hinting = False
        self._summary_open = False
        self._stalled = False
        """A bot failed: the game waits for Enter to ask it again."""

    # ------------------------------------------------------------------ layout

    def compose(self) -> ComposeResult:
        yield Static(id="status")
        with Horizontal(id="middle"):
            yield Static(id="players")
            yield Static(id="table")
        log = RichLog(id="log", max_lines=200, wrap=True, markup=False)
        log.can_focus = False  # the screen takes every key (Home and End pick a card, not scroll the log)
        yield log
        with Vertical(id="hand-box"):
            yield HandWidget(id="hand")
        yield Static(id="prompt")
        yield ChoiceBar(id="choices")
        yield KeyBar()

    def on_mount(self) -> None:
        self.query_one("#players").border_title = _("Players")
        self.query_one("#table").border_title = _("Table")
        self.query_one("#log").border_title = _("Game")
        self.query_one("#hand-box").border_title = _("Your hand")
        self._fit_layout()
        log = self.query_one(RichLog)
        state = self.session.state
        if state.history:
            log.write(_("Game resumed: hand %(hand)d.") % {"hand": state.hand_index + 1})
        self.call_after_refresh(self.tick)

    def on_resize(self, _event: events.Resize) -> None:
        self._fit_layout()
        self.call_after_refresh(self.refresh_view)

    def _fit_layout(self) -> None:
        """Fit the panels to the terminal: a short one draws the hand without its marker line
        and gives the log and the hand a top border only; a narrow one a narrower players'
        panel."""
        size = self.app.size
        short = size.height < ROOMY_HEIGHT
        self.set_class(short, "-short")
        self.set_class(size.width < 95, "-narrow")
        self.hand.compact = short
        self.hand.styles.height = 3 if short else 4
        self.query_one("#middle").styles.height = middle_height(self.session.rules.players)

    @property
    def hand(self) -> HandWidget:
        return self.query_one(HandWidget)

    @property
    def choices(self) -> ChoiceBar:
        return self.query_one(ChoiceBar)

    def write(self, text: str | Text) -> None:
        self.query_one(RichLog).write(text)

    # ------------------------------------------------------------------ the game loop

    def tick(self) -> None:
        """Move the game on: deal, show a finished hand, or let the next bot think. Does
        nothing while a bot thinks, a timer runs, or another screen is on top."""
        if self._busy is not None or self._timer is not None or self.app.screen is not self:
            return
        session = self.session
        state = session.state
        if len(state.finished_hands) > self._hands_shown:
            self.refresh_view()
            if isinstance(self.app, PlayApp):
                self.app.save_game()  # a finished hand is never lost
            summary = session.view().finished_hands[self._hands_shown]
            self._summary_open = True
            self.app.push_screen(HandOverScreen(summary, session.view()), self._after_summary)
            return
        if state.is_terminal():
            self.refresh_view()
            session.tell_game_over()
            self.app.push_screen(GameOverScreen(session))
            return
        first = state.first_dealer is None
        dealt = session.advance_chance()
        if dealt:
            if first and state.first_dealer is not None:
                self._log_cut()
            self.write(Text(self._hand_title(session.view()), style="bold"))
        self.refresh_view()
        task = session.next_bot_task()
        if task is None:
            return
        delay = session.options.delay
        if task.kind in ("change", "claim") or session.claiming:
            delay = 0.0
        elif session.human_may_change_bid():
            # The bid-change window: give the person time to change their mind.
            delay = max(delay, session.options.window)
        elif not session.view().current_trick and session.view().completed_tricks:
            delay *= TRICK_PAUSE_FACTOR
        if delay > 0:
            self._timer = self.set_timer(delay, partial(self._start, task))
        else:
            self._start(task)

    def _after_summary(self, _result: None = None) -> None:
        self._summary_open = False
        self._hands_shown += 1
        self.tick()

    def on_screen_resume(self) -> None:
        # Back from the keys, the rules or an export: the bots go on where they stopped.
        if not self._summary_open:  # a hand's summary goes on through its own callback
            self.call_after_refresh(self.tick)

    def _start(self, task: BotTask) -> None:
        self._timer = None
        if task.generation != self.session.generation:
            self.tick()
            return
        self._busy = task
        if task.kind == "choose":
            self.refresh_view()
        self._think(task)

    @work(thread=True, group="bots", exit_on_error=False)
    def _think(self, task: BotTask) -> None:
        try:
            action = self.session.run_task(task)
        except Exception as error:  # a bot's failure must not leave the table frozen
            self.app.call_from_thread(self._failed, task, error)
            return
        self.app.call_from_thread(self._done, task, action)

    def _done(self, task: BotTask, action: Action | None) -> None:
        self._busy = None
        if action is not None:
            before = self._counts()
            try:
                applied = self.session.apply_bot(task, action)
            except IllegalActionError as error:
                self._failed(task, error)
                return
            if applied:
                self._log_action(action, before)
        self.tick()

    def _failed(self, task: BotTask, error: Exception) -> None:
        self._busy = None
        self._stalled = True
        name = self.session.names[task.seat]
        self.show_error(_("%(name)s's bot failed: %(error)s. Press Enter to ask it again.")
                        % {"name": name, "error": error})

    def _cancel_timer(self) -> None:
        if self._timer is not None:
            self._timer.stop()
            self._timer = None

    # ------------------------------------------------------------------ the log

    def _log_cut(self) -> None:
        state = self.session.state
        names = self.session.names
        assert state.first_dealer is not None
        if state.draws:
            cards = ", ".join(f"{names[seat]} {card_label(card)}" for seat, card in state.draws)
            self.write(_("Cutting for the deal: %(cards)s.") % {"cards": cards})
        if state.first_dealer == self.session.human:
            self.write(_("You deal first."))
        else:
            self.write(_("%(name)s deals first.") % {"name": names[state.first_dealer]})

    def _hand_title(self, view: SeatView) -> str:
        names = self.session.names
        dealer = names[view.dealer] if view.dealer is not None else "?"
        if view.dealer is not None and view.dealer == self.session.human:
            return ngettext("Hand %(hand)d: %(size)d card each, you deal.",
                            "Hand %(hand)d: %(size)d cards each, you deal.", view.hand_size) % {
                "hand": view.hand_index + 1, "size": view.hand_size}
        return ngettext("Hand %(hand)d: %(size)d card each, %(name)s deals.",
                        "Hand %(hand)d: %(size)d cards each, %(name)s deals.", view.hand_size) % {
            "hand": view.hand_index + 1, "size": view.hand_size, "name": dealer}

    def _counts(self) -> tuple[int, int, tuple[int, ...]]:
        """Hands finished, tricks finished and tricks won by seat: to tell what an action did."""
        state = self.session.state
        return len(state.finished_hands), len(state.trick_winners), tuple(state.tricks_won)

    def _log_action(self, action: Action, before: tuple[int, int, tuple[int, ...]]) -> None:
        hands_before, tricks_before, won_before = before
        session = self.session
        state = session.state
        names = session.names
        text = Text(describe_action(action, names, session.human))
        secret = isinstance(action, Bid) and state.rules.bidding == "simultaneous"
        if isinstance(action, Bid) and secret and action.seat != session.human:
            text = Text(_("%(name)s has bid.") % {"name": names[action.seat]})
        self.write(text)
        if secret and state.phase.name != "BIDDING" and len(state.finished_hands) == hands_before:
            self.write(Text(self._bids_revealed(), style="bold"))
        if len(state.finished_hands) > hands_before:
            result = state.finished_hands[-1]
            # The last card of a hand ends its last trick: whoever's count grew won it.
            last_winner = next((seat for seat, won in enumerate(won_before) if result.tricks[seat] > won), None)
            if last_winner is not None:
                self.write(self._trick_won(last_winner))
            self.write(Text(_("Hand %(hand)d is over.") % {"hand": result.index + 1}, style="bold"))
        elif len(state.trick_winners) > tricks_before:
            self.write(self._trick_won(state.trick_winners[-1]))

    def _bids_revealed(self) -> str:
        """The line of the log when secret bids are shown: every bid, in seat order."""
        names = self.session.names
        bids = self.session.state.bids
        listed = ", ".join(f"{names[seat]} {bid}" for seat, bid in enumerate(bids) if bid is not None)
        return _("Bids revealed: %(bids)s.") % {"bids": listed}

    def _trick_won(self, winner: int) -> Text:
        if winner == self.session.human:
            return Text(_("You win the trick."), style="bold green")
        return Text(_("%(name)s wins the trick.") % {"name": self.session.names[winner]}, style="green")

    # ------------------------------------------------------------------ drawing

    def refresh_view(self) -> None:
        session = self.session
        view = session.view()
        thinking = self._busy.seat if self._busy is not None and self._busy.kind == "choose" else None
        self.query_one("#status", Static).update(self._status_text(view))
        players = self.query_one("#players", Static)
        players.update(players_table(view, thinking, width=players.content_size.width or None))
        table = self.query_one("#table", Static)
        table.update(table_panel(view, width=table.content_size.width or None))
        turn = session.human_turn()
        legal_cards = [a.card for a in view.legal_actions if isinstance(a, Play)]
        self.hand.set_hand(view.hand, legal_cards, turn == "play")
        self._update_choices(view, turn)
        self.choices.display = bool(self.choices.choices)  # no empty line while the cards are played
        self.query_one("#prompt", Static).update(self._prompt(view, turn, thinking))
        self.refresh_bindings()

    def _status_text(self, view: SeatView) -> Text:
        session = self.session
        text = Text(_("Oh Hell"), style="bold")
        text.append(f" · {view.rules.preset}")
        if view.hand_count is not None:
            text.append(" · " + _("hand %(hand)d of %(count)d") % {
                "hand": min(view.hand_index + 1, view.hand_count), "count": view.hand_count})
        else:
            text.append(" · " + _("hand %(hand)d") % {"hand": view.hand_index + 1})
        if view.dealt:
            text.append(" · " + ngettext("%(size)d card", "%(size)d cards", view.hand_size) % {"size": view.hand_size})
        # The level as the command and the docs name it (``--bots strong``), not a display name.
        text.append(" · " + _("bots: %(level)s, %(speed)s") % {
            "level": ALIASES.get(session.bot_level, session.bot_level),
            "speed": speed_label(session.options.speed_name)})
        if session.options.take_back:
            text.append(" · " + _("take-back on"))
        return text

    def _update_choices(self, view: SeatView, turn: str | None) -> None:
        session = self.session
        bar = self.choices
        if turn == "declare":
            bar.set_choices(_("Your joker is:"), [Choice(1, _("high (wins)")), Choice(0, _("low (loses)"))], True)
            return
        if turn == "trump":
            bar.set_choices(_("Trump:"), [Choice(suit, suit_label(suit)) for suit in range(4)], True)
            return
        bidding = turn == "bid" or (session.human_may_change_bid() and turn != "play")
        if view.dealt and (bidding or view.phase.name == "BIDDING"):
            forbidden = view.forbidden_bid if view.seat == view.dealer else None
            own = view.bids[session.human]
            options = [Choice(bid, str(bid), enabled=bid != forbidden, current=bid == own)
                       for bid in range(view.hand_size + 1)]
            bar.set_choices(_("Your bid:"), options, bidding)
            return
        bar.set_choices("", [], False)

    def _prompt(self, view: SeatView, turn: str | None, thinking: int | None) -> Text:
        session = self.session
        names = session.names
        text = Text()
        if self._message is not None:
            text.append_text(self._message)
            text.append("\n")
        if view.game_over:
            text.append(_("The game is over."), style="bold")
            return text
        if session.claiming:
            text.append(_("Your claim was accepted: the remaining tricks are being played out."), style="green")
            return text
        if turn == "bid":
            text.append(_("Your bid: type a number from 0 to %(max)d (or use ←/→) and press Enter.")
                        % {"max": view.hand_size}, style="bold")
            if view.forbidden_bid is not None and view.seat == view.dealer:
                text.append(" " + _("As the dealer you may not bid %(bid)d: the bids would add up to %(size)d.")
                            % {"bid": view.forbidden_bid, "size": view.hand_size}, style="yellow")
        elif turn == "play":
            text.append(_("Your turn: pick a card (←/→ or its rank %(keys)s) and press Enter.")
                        % {"keys": rank_key_list()}, style="bold")
            if view.blind:
                text = Text(_("You cannot see your card: press Enter to play it."), style="bold")
            need = self._need_text(view)
            if need:
                text.append(" " + need, style="cyan")
        elif turn == "declare":
            text.append(_("You played the first joker: declare it high or low (←/→, Enter)."), style="bold")
        elif turn == "trump":
            text.append(_("Yours is the highest bid: choose the trump suit (←/→ or S H D C, then Enter)."),
                        style="bold")
        elif view.phase.name == "CHOOSING_TRUMP" and view.trump_chooser is not None:
            text.append(_("Waiting for %(name)s, the highest bidder, to choose trump.")
                        % {"name": names[view.trump_chooser]}, style="dim")
        elif session.human_may_change_bid():
            own = view.bids[session.human]
            if view.phase.name == "BIDDING" and view.turn is not None:
                text.append(_("You bid %(bid)s. You may still change it until %(name)s bids: type a number "
                              "and press Enter.") % {"bid": own, "name": names[view.turn]})
            else:
                text.append(_("You bid %(bid)s. You may still change it until the first card is led.")
                            % {"bid": own})
        elif thinking is not None:
            text.append(_("%(name)s is thinking…") % {"name": names[thinking]}, style="dim")
            need = self._need_text(view)
            if need and view.phase.name == "PLAYING":
                text.append(" " + need, style="dim cyan")
        elif view.turn is not None and view.turn != session.human:
            text.append(_("Waiting for %(name)s.") % {"name": names[view.turn]}, style="dim")
        elif view.phase.name == "BIDDING" and view.bids[session.human] is not None:
            text.append(_("Waiting for the other bids."), style="dim")
        return text

    def _need_text(self, view: SeatView) -> str:
        """What you still need to make your bid, once the bids are in."""
        bid = view.bids[self.session.human]
        if bid is None or not view.bidding_complete:
            return ""
        need = bid - view.tricks_won[self.session.human]
        if need > 0:
            return ngettext("You need %(count)d more trick.", "You need %(count)d more tricks.", need) % {
                "count": need}
        if need == 0:
            return _("You have your bid: every further trick breaks it.")
        return _("You have taken more tricks than you bid.")

    def show_error(self, message: str) -> None:
        self._message = Text("✗ " + message, style="bold red")
        self.app.bell()
        self.refresh_view()

    def show_message(self, message: str | Text) -> None:
        self._message = message if isinstance(message, Text) else Text(message)
        self.refresh_view()

    # ------------------------------------------------------------------ your actions

    def _act(self, action: Any, *args: Any, attempt: Bid | Play | None = None) -> None:
        session = self.session
        before = self._counts()
        history_before = len(session.state.history)
        view = session.view()
        try:
            action(*args)
        except IllegalActionError as error:
            self.show_error(refusal(error, view, attempt))
            return
        self._message = None
        self._cancel_timer()
        if len(session.state.history) > history_before:
            self._log_action(session.state.history[-1], before)
        self.refresh_view()
        self.tick()

    def on_hand_widget_chosen(self, message: HandWidget.Chosen) -> None:
        self._play_card(message.card)

    def on_choice_bar_chosen(self, message: ChoiceBar.Chosen) -> None:
        self._refused = None
        self._choose(message.value)

    def _play_card(self, card: int) -> None:
        view = self.session.view()
        if self.session.human_turn() != "play":
            self.show_error(_("It is not your turn to play."))
            return
        if view.blind:
            card = HIDDEN_CARD
        self._act(self.session.play, card, attempt=Play(self.session.human, card))

    def _choose(self, value: int) -> None:
        turn = self.session.human_turn()
        if turn == "declare":
            self._act(self.session.declare, value == 1)
        elif turn == "trump":
            self._act(self.session.choose_trump, value)
        elif turn == "bid" or self.session.human_may_change_bid():
            if self.session.state.bids[self.session.human] == value:
                self.show_message(_("You have already bid %(bid)d.") % {"bid": value})
                return
            self._act(self.session.bid, value, attempt=Bid(self.session.human, value))

    def action_confirm(self) -> None:
        if self._stalled:
            self._stalled = False
            self._message = None
            self.tick()
            return
        turn = self.session.human_turn()
        if turn == "play":
            card = self.hand.selected()
            if card is not None:
                self._play_card(card)
        elif self._refused is not None and self.choices.active:
            self.show_error(self._refused)  # not the bid selected before the refused number
        elif self.choices.active:
            value = self.choices.selected()
            if value is not None:
                self._choose(value)

    def action_move(self, step: int) -> None:
        self._refused = None
        if self.choices.active and self.session.human_turn() != "play":
            self.choices.move(step)
        else:
            self.hand.move(step)

    def action_edge(self, edge: int) -> None:
        self._refused = None
        if self.choices.active and self.session.human_turn() != "play":
            self.choices.move_to(edge)
        else:
            self.hand.move_to(edge)

    def on_key(self, event: events.Key) -> None:
        character = event.character
        if not character:
            return
        bidding = self.choices.active and self.session.human_turn() in ("bid", "declare", None)
        if bidding and character.isdigit():
            self._type_bid_digit(character)
            event.stop()
            return
        if self.session.human_turn() == "trump" and character.upper() in "SHDC":
            self.choices.select_value("SHDC".index(character.upper()))
            event.stop()
            return
        if character == "+" and self.session.human_turn() == "declare":
            self.choices.select_value(1)
        elif character == "-" and self.session.human_turn() == "declare":
            self.choices.select_value(0)
        rank = rank_keys().get(character.lower())
        if rank is not None:
            if not self.hand.select_rank(rank):
                self.show_message(_("You hold no card of that rank."))
            event.stop()

    def _type_bid_digit(self, digit: str) -> None:
        """Digits select a bid; two quick digits make a bid of 10 or more."""
        now = time.monotonic()
        size = self.session.state.hand_size
        candidate = self._bid_buffer + digit if now - self._bid_typed_at < 1.5 else digit
        if not candidate or int(candidate) > size:
            candidate = digit
        self._bid_buffer = candidate
        self._bid_typed_at = now
        value = int(candidate)
        self._refused = None
        if self.choices.select_value(value):
            self._message = None
            self.refresh_view()
            return
        if 0 <= value <= size and self.session.human_turn() != "declare":
            self._refused = _("As the dealer you may not bid %(bid)d: the bids would add up to %(size)d, the "
                              "number of tricks.") % {"bid": value, "size": size}
        else:
            self._refused = _("You may bid 0 to %(max)d.") % {"max": size}
        self.show_error(self._refused)

    def action_hint(self) -> None:
        session = self.session
        if session.human_turn() is None and not session.human_may_change_bid():
            self.show_message(_("A hint is for when you have something to do."))
            return
        if self._hinting:
            return
        self._hinting = True
        level = ALIASES.get(session.bot_level, session.bot_level)
        self.show_message(Text(_("Asking the %(level)s bot…") % {"level": level}, style="dim"))
        self._hint(session.view(), session.generation)

    @work(thread=True, group="hint", exit_on_error=False)
    def _hint(self, view: SeatView, generation: int) -> None:
        try:
            suggestion = self.session.hint(view)
        except Exception as error:  # the hint is a convenience: report and go on
            self.app.call_from_thread(self._hint_failed, error)
            return
        self.app.call_from_thread(self._show_hint, suggestion, generation)

    def _hint_failed(self, error: Exception) -> None:
        self._hinting = False
        self.show_error(_("The hint failed: %(error)s") % {"error": error})

    def _show_hint(self, suggestion: Suggestion, generation: int) -> None:
        self._hinting = False
        if generation != self.session.generation:
            return
        action = suggestion.action
        text = Text(_("Hint:") + " ", style="bold cyan")
        if isinstance(action, Play):
            text.append(_("play %(card)s") % {"card": card_label(action.card)}, style="bold")
            self.hand.select_card(action.card)
        elif isinstance(action, Bid) and self.session.human_turn() is None \
                and action.bid == self.session.state.bids[self.session.human]:
            # The bid-change window: the bot would not change the bid already made.
            text.append(_("keep your bid of %(bid)d") % {"bid": action.bid}, style="bold")
            self.choices.select_value(action.bid)
        elif isinstance(action, Bid):
            text.append(_("bid %(bid)d") % {"bid": action.bid}, style="bold")
            self.choices.select_value(action.bid)
        elif isinstance(action, Declare):
            text.append(_("declare it high") if action.high else _("declare it low"), style="bold")
            self.choices.select_value(1 if action.high else 0)
        elif isinstance(action, ChooseTrump):
            text.append(_("choose %(suit)s") % {"suit": suit_label(action.suit)}, style="bold")
            self.choices.select_value(action.suit)
        if suggestion.estimates:
            best = sorted(suggestion.estimates.items(), key=lambda item: item[1], reverse=True)[:4]
            kind = estimate_kind(suggestion.kind) if suggestion.kind else _("estimate")
            values = ", ".join(f"{estimate_label(label)} {value:.2f}" for label, value in best)
            text.append(" — " + _("%(kind)s: %(values)s") % {"kind": kind, "values": values}, style="cyan")
        self.write(text)
        self.show_message(text)

    def action_claim(self) -> None:
        session = self.session
        if session.state.phase.name not in ("PLAYING", "DECLARING"):
            self.show_message(_("You can claim once the cards are being played."))
            return
        remaining = session.remaining_tricks()
        if session.claim():
            self._cancel_timer()
            self.write(Text(ngettext("You claim the last trick: accepted.",
                                     "You claim the remaining %(count)d tricks: accepted.", remaining)
                            % {"count": remaining}, style="bold green"))
            self._message = None
            self.refresh_view()
            self.tick()
        else:
            self.show_error(_("Claim refused: the engine cannot prove that every remaining trick is yours."))

    def action_take_back(self) -> None:
        session = self.session
        if not session.options.take_back:
            self.show_error(_("Take-back is off at this table (start with --take-back)."))
            return
        if not session.can_take_back():
            self.show_error(_("There is no card of yours to take back in this hand."))
            return
        self._cancel_timer()
        session.take_back()
        self.write(Text(_("You took back your last card."), style="yellow"))
        self._message = None
        self.refresh_view()
        self.tick()

    def action_speed(self) -> None:
        names = list(SPEEDS)
        current = names.index(self.session.options.speed_name)
        name = names[(current + 1) % len(names)]
        self.session.options.delay = SPEEDS[name]
        self.show_message(_("Bots play at %(speed)s speed.") % {"speed": speed_label(name)})

    def action_export(self) -> None:
        self.app.push_screen(ExportScreen(self.session))

    def action_rules(self) -> None:
        self.app.push_screen(HelpScreen(self.session, rules=True))

    def action_help(self) -> None:
        self.app.push_screen(HelpScreen(self.session, rules=False))

    def action_scores(self) -> None:
        self.app.push_screen(ScoresScreen(self.session.view()))

    def action_quit(self) -> None:
        """Esc: ask first (a second Esc meant for a dialog must not end the game)."""
        app = self.app

        def answered(quit_now: bool | None) -> None:
            if quit_now and isinstance(app, PlayApp):
                app.action_save_and_quit()

        app.push_screen(ConfirmScreen(_("Save the game and quit? You can resume it later."),
                                      yes=_("Save & quit"), no=_("Play on"), yes_variant="primary"), answered)

    def shows_key(self, action: str) -> bool:
        """Whether the key bar shows ``action``'s key: take-back only where the table allows it
        (the key still answers, to say that it is off)."""
        return action != "take_back" or self.session.options.take_back


# ---------------------------------------------------------------------- screens


class ScoresScreen(ModalScreen[None]):
    """The score sheet of the hands played so far: each player's bid and tricks per hand, and the
    running totals (``p`` during the game). The names stay on top while the hands scroll below
    them (the last hands in view: the ones a player asks about)."""

    DEFAULT_CSS = """
    ScoresScreen { align: center middle; }
    ScoresScreen > Vertical { width: 96%; max-width: 110; height: auto; max-height: 96%;
                              border: thick $accent; background: $surface; padding: 0 1; }
    ScoresScreen VerticalScroll { height: auto; }
    ScoresScreen Static { width: 100%; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "close", _("Close")),
        Binding("p", "close", show=False),
        Binding("enter", "close", show=False),
        Binding("up", "scroll(-1)", show=False),
        Binding("down", "scroll(1)", show=False),
    ]

    def __init__(self, view: SeatView) -> None:
        super().__init__()
        self.view = view

    def compose(self) -> ComposeResult:
        head, hands, foot = score_sheet_parts(self.view, min(110, int(self.app.size.width * 0.96)) - 4)
        with Vertical():
            yield Static(head, id="sheet-head")
            with VerticalScroll():
                yield Static(hands, id="sheet-hands")
            yield Static(foot, id="sheet-foot")

    def on_mount(self) -> None:
        scroll = self.query_one(VerticalScroll)
        # What the headings, the legend and the dialog's border leave of the screen: the hands
        # scroll there, under the headings.
        fixed = self.query_one("#sheet-head").virtual_size.height + self.query_one("#sheet-foot").virtual_size.height
        scroll.styles.max_height = max(3, int(self.app.size.height * 0.96) - 2 - fixed)
        scroll.scroll_end(animate=False)

    def on_resize(self, _event: events.Resize) -> None:
        self.call_after_refresh(self.on_mount)

    def action_scroll(self, step: int) -> None:
        self.query_one(VerticalScroll).scroll_relative(y=step, animate=False)

    def action_close(self) -> None:
        self.dismiss(None)


def score_sheet(view: SeatView, width: int = 120) -> RenderableType:
    """The hands played so far: cards, trump, each player's ``bid/tricks`` (green when made) and
    running total, the dealer marked; the names are cut to the columns where ``width`` is short."""
    return Group(*score_sheet_parts(view, width))


def score_sheet_parts(view: SeatView, width: int = 120) -> tuple[RenderableType, RenderableType, RenderableType]:
    """The score sheet in three parts: the title with the column headings, the hands, and the
    legend. The headings and the hands are two tables with the same fixed column widths, so that
    the hands can scroll under headings that stay in view."""
    names = view.names or tuple(str(seat) for seat in range(view.players))
    hands = view.finished_hands
    title = Text(_("Score sheet"), style="bold")
    if not hands:
        return Group(title, Text("")), Text(_("No hand is finished yet."), style="dim"), Text("")
    cells = []
    for hand in hands:
        row = []
        for seat in range(len(names)):
            bid = hand.bids[seat]
            made = bid is not None and bid == hand.tricks[seat]
            cell = Text(f"{'–' if bid is None else bid}/{hand.tricks[seat]}", style="green" if made else "red")
            cell.append(f" {hand.totals[seat]}", style="bold")
            if seat == hand.dealer:
                cell = Text.assemble(("• ", "dim"), cell)
            row.append(cell)
        cells.append(row)
    fixed = 4 + 5 + 2  # the hand's number and its cards and trump
    room = max(5, (width - fixed) // max(1, len(names)) - 2)
    headings = [Text(fit(name, room), style=f"bold {player_colour(seat)}") for seat, name in enumerate(names)]
    widths = [max([headings[seat].cell_len] + [row[seat].cell_len for row in cells]) for seat in range(len(names))]
    number_width = max(len(str(hand.index + 1)) for hand in hands)
    size_width = max(Text(_("Cards")).cell_len, max(len(str(hand.size)) + 2 for hand in hands))

    def sheet_table(show_header: bool) -> Table:
        # One space before each column (no collapsed padding: it cuts a fixed-width column short).
        table = Table(box=None, padding=(0, 0, 0, 1), show_header=show_header)
        table.add_column("#", justify="right", width=number_width, no_wrap=True)
        table.add_column(_("Cards"), justify="right", width=size_width, no_wrap=True)
        for seat in range(len(names)):
            table.add_column(headings[seat], justify="right", no_wrap=True, width=widths[seat])
        return table

    head = sheet_table(show_header=True)
    body = sheet_table(show_header=False)
    for hand, row in zip(hands, cells, strict=True):
        trump = Text("")
        if hand.trump is not None and hand.trump < 4:
            trump = Text("♠♥♦♣"[hand.trump], style="red" if hand.trump in (1, 2) else "")
        size = Text(str(hand.size) + " ")
        size.append_text(trump)
        body.add_row(str(hand.index + 1), size, *row)
    return (Group(title, Text(""), head), body,
            Group(Text(""), Text(_("bid/tricks and the total after the hand; • the dealer"), style="dim")))


def hand_result_table(summary: HandSummary, names: tuple[str, ...]) -> Table:
    table = Table(box=None, padding=(0, 2))
    table.add_column(_("Player"))
    table.add_column(_("Bid"), justify="right")
    table.add_column(_("Took"), justify="right")
    table.add_column(_("Score"), justify="right")
    table.add_column(_("Total"), justify="right")
    for seat, name in enumerate(names):
        bid = summary.bids[seat]
        made = bid is not None and bid == summary.tricks[seat]
        table.add_row(name, "–" if bid is None else str(bid), str(summary.tricks[seat]),
                      Text(f"{summary.scores[seat]:+d}" if summary.scores[seat] else "0",
                           style="bold green" if made else "red"),
                      Text(str(summary.totals[seat]), style="bold"))
    return table


class HandOverScreen(ModalScreen[None]):
    """The scores of the hand just finished; Enter goes on."""

    DEFAULT_CSS = """
    HandOverScreen { align: center middle; }
    HandOverScreen > Vertical { width: 76; max-width: 95%; height: auto; border: thick $accent;
                                 background: $surface; padding: 1 2; }
    HandOverScreen Static { width: 100%; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "close", _("Next hand")),
        Binding("space", "close", show=False),
        Binding("escape", "close", show=False),
    ]

    def __init__(self, summary: HandSummary, view: SeatView) -> None:
        super().__init__()
        self.summary = summary
        self.view = view

    def compose(self) -> ComposeResult:
        names = self.view.names
        summary = self.summary
        parts: list[RenderableType] = [
            Text(_("Hand %(hand)d is over") % {"hand": summary.index + 1}, style="bold"), Text(""),
        ]
        if summary.plays:
            players = len(names)
            last = summary.plays[-players:]
            line = Text(_("Last trick:") + " ")
            for seat, card in last:
                line.append_text(card_text(card))
                line.append(f" {names[seat]}  ", style="dim")
            parts.extend([line, Text("")])
        parts.append(hand_result_table(summary, names))
        if self.view.game_over:
            parts.extend([Text(""), Text(_("That was the last hand."), style="bold")])
        parts.extend([Text(""), Text(_("Press Enter to go on."), style="dim")])
        with Vertical():
            yield Static(Group(*parts))

    def action_close(self) -> None:
        self.dismiss(None)


class GameOverScreen(Screen[None]):
    """The winners, the final totals and a chart of the totals across hands."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("n", "new_game", _("New game")),
        Binding("p", "scores", _("Scores")),
        Binding("a", "analysis", _("Analysis")),
        Binding("x", "export", _("Export")),
        Binding("q", "quit", _("Quit")),
    ]
    KEY_PRIORITY: ClassVar[tuple[str, ...]] = ("quit", "new_game", "scores", "export")
    DEFAULT_CSS = """
    GameOverScreen { align: center top; }
    GameOverScreen VerticalScroll { padding: 1 2; }
    GameOverScreen Static { text-wrap: nowrap; text-overflow: clip; }
    """

    def __init__(self, session: PlaySession) -> None:
        super().__init__()
        self.session = session

    def compose(self) -> ComposeResult:
        view = self.session.view()
        names = self.session.names
        winners = [names[seat] for seat in view.winners]
        if len(winners) == 1:
            if view.winners[0] == self.session.human:
                headline = _("You win!")
            else:
                headline = _("%(name)s wins.") % {"name": winners[0]}
        else:
            headline = _("Shared victory: %(names)s.") % {"names": ", ".join(winners)}
        table = Table(box=None, padding=(0, 2))
        table.add_column(_("Player"))
        table.add_column(_("Total"), justify="right")
        table.add_column(_("Bids made"), justify="right")
        for seat in sorted(range(len(names)), key=lambda s: -view.totals[s]):
            made = sum(1 for hand in view.finished_hands if hand.bids[seat] == hand.tricks[seat])
            table.add_row(Text(names[seat], style=player_colour(seat)), Text(str(view.totals[seat]), style="bold"),
                          f"{made}/{len(view.finished_hands)}")
        width = max(20, min(100, self.app.size.width - 16))
        height = max(5, min(14, self.app.size.height - 18))
        chart = line_chart([[hand.totals[seat] for hand in view.finished_hands] for seat in range(len(names))],
                           names, width=width, height=height, title=_("Totals after each hand"))
        chart.no_wrap = True
        with VerticalScroll():
            yield Static(Group(Text(_("The game is over."), style="bold"), Text(headline, style="bold green"),
                               Text(""), table, Text(""), chart), id="final")
        yield KeyBar()

    def action_scores(self) -> None:
        self.app.push_screen(ScoresScreen(self.session.view()))

    def action_new_game(self) -> None:
        app = self.app
        if isinstance(app, PlayApp):
            if app.new_session is None:
                self.notify(_("A new game can be started from the command line."))
                return
            app.start_new_game()

    def action_export(self) -> None:
        self.app.push_screen(ExportScreen(self.session))

    def action_analysis(self) -> None:
        from ohhell.tui.analysis_screen import AnalysisScreen  # the analysis' own module

        self.app.push_screen(AnalysisScreen(self.session.record(), self.session.names))

    def action_quit(self) -> None:
        app = self.app
        if isinstance(app, PlayApp):
            app.action_save_and_quit()


class ExportScreen(ModalScreen[str | None]):
    """Export the ``ohhell/1`` record of the game to a file."""

    DEFAULT_CSS = """
    ExportScreen { align: center middle; }
    ExportScreen > Vertical { width: 80; max-width: 100%; height: auto; border: thick $accent; background: $surface;
                              padding: 1 2; }
    ExportScreen Input { width: 100%; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", _("Cancel"))]

    def __init__(self, session: PlaySession) -> None:
        super().__init__()
        self.session = session

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(_("Export the game record (ohhell/1, JSON) to:"))
            yield Input(value=time.strftime("ohhell-%Y%m%d-%H%M%S.json"), id="path")
            yield Static(_("A name without a folder is saved in %(folder)s.") % {"folder": Path.cwd()}, classes="dim")
            yield Static(_("Enter saves, Esc cancels."), classes="dim")

    def on_input_submitted(self, event: Input.Submitted) -> None:
        path = Path(event.value).expanduser()
        try:
            path.write_text(dump_record(self.session.record(derived=True)) + "\n", encoding="utf-8")
        except OSError as error:
            self.notify(_("Could not write %(path)s: %(error)s") % {"path": path, "error": file_problem(error)},
                        severity="error")
            return
        self.app.notify(_("Record exported to %(path)s") % {"path": path})
        self.dismiss(str(path))

    def action_cancel(self) -> None:
        self.dismiss(None)


class HelpScreen(ModalScreen[None]):
    """The keys, or the rules of this table in plain words."""

    DEFAULT_CSS = """
    HelpScreen { align: center middle; }
    HelpScreen > VerticalScroll { width: 90%; max-width: 100; height: 90%; border: thick $accent;
                                  background: $surface; padding: 1 2; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "close", _("Close")),
        Binding("enter", "close", show=False),
        Binding("question_mark", "close", show=False),
        Binding("r", "close", show=False),
    ]

    def __init__(self, session: PlaySession, rules: bool) -> None:
        super().__init__()
        self.session = session
        self.rules = rules

    def compose(self) -> ComposeResult:
        text = Text(_("The rules of this table") if self.rules else _("Keys"), style="bold")
        # Said first, so that it is in view however long the text below is.
        text.append("\n" + _("Esc or Enter closes this.") + "\n", style="dim")
        if self.rules:
            text.append("\n")
            for topic, sentence in describe_rules(self.session.rules):
                text.append(topic + "\n", style="bold")
                text.append(sentence + "\n\n")
        with VerticalScroll():
            yield Static(text)
            if not self.rules:
                yield Static(keys_table(help_lines()))

    def action_close(self) -> None:
        self.dismiss(None)


def help_lines() -> list[tuple[str, str]]:
    """The keys of the game screen with what they do."""
    return [
        ("← →  Home End", _("select a card, a bid, or high/low for a joker")),
        (rank_key_list(), _("select a card by its rank (again: the next card of that rank)")),
        ("0 … 9", _("select a bid (two quick digits for 10 or more)")),
        ("Enter / Space", _("play the selected card, make or change the selected bid")),
        (_("mouse"), _("click a card or a bid to select it, click it again to play it")),
        ("h", _("hint: ask a bot what it would do, with its estimates")),
        ("c", _("claim the remaining tricks (accepted only when the engine proves them yours)")),
        ("u / Backspace", _("take back your last card (when the table allows it)")),
        ("s", _("the bots' speed: slow, normal, fast, instant")),
        ("p", _("the score sheet of the hands played so far")),
        ("x", _("export the game record")),
        ("r", _("the rules of this table")),
        ("Esc", _("save and quit, after asking (resume with ohhell play --resume)")),
        ("Ctrl+Q", _("save and quit at once")),
    ]


def run_play(session: PlaySession, new_session: Callable[[], PlaySession] | None = None) -> str | None:
    """Run the app; returns the path of the save file."""
    return PlayApp(session, new_session).run()


__all__ = ["GameOverScreen", "GameScreen", "HandOverScreen", "PlayApp", "run_play"]
