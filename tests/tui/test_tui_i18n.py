"""The terminal speaks the player's language: ``ohhell play`` and ``ohhell rules classic`` run as
a person runs them, with ``LANG=ru_RU.UTF-8`` and with ``--lang ky``.

``ohhell play`` runs in a fresh process (as from a shell: the language is chosen before the
terminal app is imported) with Textual's ``App.run`` replaced by a headless run: it waits for the
person's turn, records the screen as the terminal would show it (Textual's own screenshot, read
as text), makes a bid with the keyboard, records the screen again and quits with Esc (which
saves the game); the command then prints where the game is saved, in the same language.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

# The headless stand-in for Textual's App.run, for a process that then runs the ohhell command.
DRIVER = r"""
import asyncio, html, json, re, sys, time
import textual.app

SCREENS = []


def screen_text(app):
    svg = app.export_screenshot()
    rows = {}
    for y, body in re.findall(r'<text[^>]*\by="([\d.]+)"[^>]*>(.*?)</text>', svg, re.S):
        rows.setdefault(float(y), []).append(html.unescape(body).replace("\xa0", " "))
    return "\n".join("".join(parts) for _y, parts in sorted(rows.items()))


def headless_run(self, *args, **kwargs):
    async def body():
        from ohhell.tui.play_app import GameScreen

        async with self.run_test(size=(120, 40)) as pilot:
            def my_turn():
                screen = self.screen
                return (isinstance(screen, GameScreen) and screen._busy is None and screen._timer is None
                        and self.session.human_turn() is not None)

            async def wait(condition):
                deadline = time.monotonic() + 20
                while not condition():
                    if time.monotonic() > deadline:
                        raise AssertionError("the terminal app did not get to the person's turn")
                    await pilot.pause(0.02)

            await wait(my_turn)
            SCREENS.append(screen_text(self))
            if self.session.human_turn() == "bid":
                from ohhell.actions import Bid
                bid = [a.bid for a in self.session.view().legal_actions if isinstance(a, Bid)][0]
                await pilot.press(str(bid), "enter")
                await wait(lambda: my_turn() or self.session.view().phase.name != "BIDDING")
            await pilot.pause(0.1)
            SCREENS.append(screen_text(self))
            await pilot.press("escape")  # asks first
            await pilot.pause(0.1)
            SCREENS.append(screen_text(self))
            await pilot.press("y")
            await pilot.pause(0.1)
    asyncio.run(body())
    return self.return_value


textual.app.App.run = headless_run
from ohhell.cli import main

try:
    main(sys.argv[2:], prog_name="ohhell")
except SystemExit as stop:
    code = stop.code
else:
    code = 0
with open(sys.argv[1], "w", encoding="utf-8") as handle:
    json.dump(SCREENS, handle, ensure_ascii=False)
sys.exit(code)
"""


def environment(tmp_path: Path, **variables: str) -> dict[str, str]:
    env = {key: value for key, value in os.environ.items()
           if key not in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG", "OHHELL_LANG")}
    env.update(OHHELL_DATA=str(tmp_path / "data"), XDG_CONFIG_HOME=str(tmp_path / "config"), COLUMNS="100",
               **variables)
    return env


def run_ohhell(tmp_path: Path, args: list[str], **variables: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "ohhell.cli", *args], capture_output=True, text=True,
                          env=environment(tmp_path, **variables), cwd=ROOT, timeout=60)


def play(tmp_path: Path, args: list[str], **variables: str) -> tuple[list[str], str]:
    """Run ``ohhell play ARGS`` headlessly; the screens it showed and what it printed."""
    screens = tmp_path / "screens.json"
    result = subprocess.run([sys.executable, "-c", DRIVER, str(screens), *args], capture_output=True, text=True,
                            env=environment(tmp_path, **variables), cwd=ROOT, timeout=90)
    assert result.returncode == 0, result.stdout + result.stderr
    return json.loads(screens.read_text(encoding="utf-8")), result.stdout


GAME = ["--players", "3", "--bots", "random", "--seed", "3", "--speed", "instant", "--set", "max_size=2"]


def test_play_in_russian_from_lang(tmp_path: Path) -> None:
    screens, printed = play(tmp_path, ["play", *GAME], LANG="ru_RU.UTF-8")
    first, after, asking = screens
    for text in ("Игроки", "Стол", "Ваши карты", "Козырь:", "Заявка", "Взято", "Итого", "сдача 1 из 3",
                 "Сдача 1: по 2 карты", "Ваша заявка: наберите число от 0 до 2",
                 "Подсказка", "Всё моё", "Сохр. и выйти"):
        assert text in first, (text, first)
    for english in ("Players", "Table", "Your hand", "Your bid", "Hint", "Save & quit", "Bids add up"):
        assert english not in first, (english, first)
    assert "Вы заявили" in after and "Ваш ход: выберите карту" in after, after
    assert "Сохранить игру и выйти?" in asking and "Играть дальше" in asking, asking  # Esc asks first
    assert "Игра сохранена в" in printed and "ohhell play --resume" in printed, printed
    # The cards on the table show Russian rank letters (no A K Q J on a face).
    faces = [line for line in first.splitlines() if "♠" in line or "♥" in line or "♦" in line or "♣" in line]
    assert faces and not any(letter + suit in "".join(faces) for letter in "AKQJ" for suit in "♠♥♦♣")


def test_play_in_kyrgyz_with_lang_option(tmp_path: Path) -> None:
    for args in (["--lang", "ky", "play", *GAME], ["play", "--lang", "ky", *GAME]):
        screens, printed = play(tmp_path, args, LANG="ru_RU.UTF-8")
        first = screens[0]
        for text in ("Оюнчулар", "Стол", "Сиздин карталар", "Көзүр:", "Заявка", "Жыйынтык",
                     "Сиздин заявкаңыз:", "0дөн 2ге чейинки", "Кеңеш", "Сактап, чыгуу"):
            assert text in first, (text, first)
        for other in ("Игроки", "Players", "Your bid", "Подсказка"):
            assert other not in first, (other, first)
        assert "Оюн" in printed and "сакталды" in printed, printed


@pytest.mark.parametrize(("args", "variables", "expected", "absent"), [
    (["rules", "classic"], {"LANG": "ru_RU.UTF-8"},
     ["Игроки и карты", "4 игрока, колода из 52 карт (Т К Д В 10 9 8 7 6 5 4 3 2 в каждой масти)", "Козырь",
      "Ограничение сдающего", "Ходить в масть обязательно", "Счёт", "Конец игры"], ["Players and cards", "trump"]),
    (["--lang", "ky", "rules", "classic"], {"LANG": "ru_RU.UTF-8"},
     ["Оюнчулар жана карталар", "4 оюнчу, 52 картадан турган колода", "Көзүр", "Заявкалар", "алым",
      "Упай эсеби", "Оюндун аягы"], ["Игроки", "Players and cards"]),
    (["rules", "classic", "--lang", "ky"], {}, ["Оюнчулар жана карталар"], ["Players and cards"]),
    (["rules"], {"LANG": "uk_UA.UTF-8"}, ["classic", "Класичні правила"], ["The classic rules"]),
])
def test_rules_explained_in_the_language(tmp_path: Path, args: list[str], variables: dict[str, str],
                                         expected: list[str], absent: list[str]) -> None:
    result = run_ohhell(tmp_path, args, **variables)
    assert result.returncode == 0, result.stderr
    for text in expected:
        assert text in result.stdout, (text, result.stdout)
    for text in absent:
        assert text not in result.stdout, (text, result.stdout)
