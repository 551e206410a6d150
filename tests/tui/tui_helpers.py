"""Helpers to drive the Textual apps headlessly with key presses (Textual's pilot) from plain
pytest functions, and to read what they show."""

from __future__ import annotations

import asyncio
import io
import time
from collections.abc import Callable

from rich.console import Console


def run(coroutine) -> None:
    """Run an async test body (no pytest-asyncio needed)."""
    asyncio.run(coroutine)


async def wait_until(pilot, condition: Callable[[], bool], timeout: float = 15.0, what: str = "") -> None:
    """Let the app run until ``condition()`` holds; fail after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what or condition}")
        await pilot.pause(0.01)


async def type_number(pilot, number: int) -> None:
    """Type a number digit by digit, then Enter."""
    await pilot.press(*str(number), "enter")


def plain(renderable, width: int = 120) -> str:
    """A Rich renderable as the plain text a person would read."""
    console = Console(width=width, file=io.StringIO(), color_system=None, legacy_windows=False)
    console.print(renderable)
    return console.file.getvalue()


def static_text(app, selector: str) -> str:
    """The text of a ``Static`` of the current screen."""
    from textual.widgets import Static

    return plain(app.screen.query_one(selector, Static).content)


def log_text(app) -> str:
    """The game log of the play app."""
    from textual.widgets import RichLog

    return "\n".join(line.text for line in app.screen.query_one(RichLog).lines)


def screen_text(app) -> str:
    """The whole terminal as plain text, line by line (what a person sees; a capture)."""
    return "\n".join(strip.text for strip in app.screen._compositor.render_strips())
