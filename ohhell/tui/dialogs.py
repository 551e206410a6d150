"""Screens both terminal apps use: a yes-or-no question and the notice that the terminal is too
small.

Esc never quits an app at once: it closes the dialog on top, and on a main screen it asks
(:class:`ConfirmScreen`), so that a double Esc meant for a dialog loses nothing.
"""

from __future__ import annotations

from typing import Any, ClassVar

from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Static

from ohhell.i18n import _


class ConfirmScreen(ModalScreen[bool]):
    """A yes-or-no question: ``y``, Enter or the Yes button answer yes; ``n`` or Esc no."""

    DEFAULT_CSS = """
    ConfirmScreen { align: center middle; }
    ConfirmScreen > Vertical { width: 70; max-width: 95%; height: auto; border: thick $accent;
                               background: $surface; padding: 1 2; }
    ConfirmScreen Static { width: 100%; }
    ConfirmScreen Horizontal { height: auto; margin-top: 1; }
    ConfirmScreen Button { margin-right: 2; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y", "answer(True)", _("Yes")),
        Binding("n,escape", "answer(False)", _("No")),
    ]

    def __init__(self, question: str, yes: str | None = None, no: str | None = None,
                 yes_variant: str = "error") -> None:
        super().__init__()
        self.question = question
        self.yes = yes or _("Yes")
        self.no = no or _("No")
        self.yes_variant = yes_variant

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(Text(self.question, style="bold"))
            with Horizontal():
                yield Button(self.yes, variant=self.yes_variant, id="yes")  # type: ignore[arg-type]
                yield Button(self.no, variant="primary" if self.yes_variant != "primary" else "default", id="no")

    def on_mount(self) -> None:
        self.query_one("#yes", Button).focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id == "yes")

    def action_answer(self, yes: bool) -> None:
        self.dismiss(yes)


class TooSmallScreen(ModalScreen[None]):
    """Covers everything while the terminal is smaller than the app needs, and says so; the app
    takes it away when the terminal is large enough again."""

    DEFAULT_CSS = """
    TooSmallScreen { align: center middle; background: $background; }
    TooSmallScreen Static { width: 100%; height: auto; text-align: center; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [Binding("ctrl+q", "app.quit", show=False, priority=True)]

    def __init__(self, width: int, height: int) -> None:
        super().__init__()
        self.needed = (width, height)

    def compose(self) -> ComposeResult:
        yield Static(self._notice(), id="too-small")

    def _notice(self) -> Text:
        return Text(too_small_text(*self.needed), style="bold")

    def show(self) -> None:
        """Say again how large the terminal must be (after ``needed`` changed)."""
        self.query_one("#too-small", Static).update(self._notice())


def too_small_text(width: int, height: int) -> str:
    """The notice of a terminal smaller than ``width`` × ``height``."""
    return _("The terminal is too small (needs %(width)d×%(height)d).") % {"width": width, "height": height}


def watch_size(app: App[Any], needed: tuple[int, int]) -> None:
    """Show :class:`TooSmallScreen` while ``app``'s terminal is smaller than ``needed``, and take
    it away when it is large enough (call on every resize)."""
    width, height = needed
    small = app.size.width < width or app.size.height < height
    top = app.screen
    if small and not isinstance(top, TooSmallScreen):
        app.push_screen(TooSmallScreen(width, height))
    elif small and isinstance(top, TooSmallScreen) and top.needed != needed:
        top.needed = needed
        top.show()
    elif not small and isinstance(top, TooSmallScreen):
        app.pop_screen()


__all__ = ["ConfirmScreen", "TooSmallScreen", "too_small_text", "watch_size"]
