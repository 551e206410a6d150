"""The server's messages: the engine speaks each connection's language and names cards as the
table shows them, only inside :func:`~ohhell.server.texts.speaking`."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path
from typing import Any

import httpx
import pytest

from ohhell.actions import Play
from ohhell.cards import message_card, parse_card
from ohhell.errors import IllegalActionError
from ohhell.game import Game
from ohhell.i18n import current_language
from ohhell.rules import preset
from ohhell.server.app import create_app
from ohhell.server.config import ServerConfig
from ohhell.server.texts import speaking


def test_speaking_names_cards_in_the_language_and_restores_everything() -> None:
    state = Game(preset("classic", players=3, max_size=2)).new_initial_state(first_dealer=0)
    state.apply(state.sample_chance(random.Random(1)))
    queen = parse_card("QS")
    with speaking("bg"):
        assert message_card(queen) == "Д♠"
        with pytest.raises(IllegalActionError) as error:
            state.apply(Play(1, queen))  # bidding, not play: refused in Bulgarian
        assert error.value.rule
    assert current_language() == "en" and message_card(queen) == "QS"
    with speaking("en"):
        assert message_card(queen) == "Q♠"
    assert message_card(queen) == "QS"


# ----------------------------------------------------------------------------- one language per request


def test_each_task_keeps_its_own_language_across_awaits() -> None:
    """The language is a context variable: two tasks in two languages, interleaved across an
    await, each translate into their own; the process default is untouched after both."""
    from ohhell.i18n import _, cards_shown_as_seen

    async def main() -> list[tuple[str, str, bool]]:
        russian_inside, ukrainian_inside, russian_answered = asyncio.Event(), asyncio.Event(), asyncio.Event()

        async def russian() -> tuple[str, str, bool]:
            with speaking("ru"):
                russian_inside.set()
                await ukrainian_inside.wait()  # the other task switches to Ukrainian meanwhile
                found = current_language(), _("trump"), cards_shown_as_seen()
            russian_answered.set()
            return found

        async def ukrainian() -> tuple[str, str, bool]:
            await russian_inside.wait()
            with speaking("uk"):
                ukrainian_inside.set()
                await russian_answered.wait()  # the Russian block has ended meanwhile
                return current_language(), _("trump"), cards_shown_as_seen()

        return list(await asyncio.gather(russian(), ukrainian()))

    assert asyncio.run(main()) == [("ru", "козырь", True), ("uk", "козир", True)]
    assert current_language() == "en" and _("trump") == "trump" and not cards_shown_as_seen()


def test_concurrent_requests_in_two_languages_each_get_their_own(tmp_path: Path) -> None:
    """Two requests, in Russian and English, interleaved inside their handlers (a look guard
    holds the Russian one until the English one is inside too, and that one until the Russian
    one has answered): each answers in its own language, and requests without a language
    afterwards are answered in English (issue 24, bug 1)."""
    config = ServerConfig.fast(database=f"sqlite:///{tmp_path / 'ohhell.db'}")
    app = create_app(config)

    async def main() -> tuple[httpx.Response, httpx.Response, httpx.Response, httpx.Response]:
        first_inside, second_inside, first_answered = asyncio.Event(), asyncio.Event(), asyncio.Event()
        arrivals: list[int] = []

        async def hold(table: Any) -> str | None:
            arrivals.append(len(arrivals))
            if len(arrivals) == 1:
                first_inside.set()
                await second_inside.wait()
            elif len(arrivals) == 2:
                second_inside.set()
                await first_answered.wait()
            return None

        async with app.router.lifespan_context(app):
            transport = httpx.ASGITransport(app=app)
            async with httpx.AsyncClient(transport=transport, base_url="http://test") as client:
                created = await client.post("/api/tables?lang=ru", json={
                    "name": "Ann", "players": 4, "seats": ["random", "random", "open"]})
                code = created.json()["code"]
                app.state.server.tables.look_guards.append(hold)
                # The game waits for its open seat: its record is refused with a translated reason.
                russian = asyncio.create_task(client.get(f"/api/tables/{code}/record?lang=ru"))
                await first_inside.wait()
                english = asyncio.create_task(client.get(f"/api/tables/{code}/record?lang=en"))
                russian_answer = await russian
                first_answered.set()
                english_answer = await english
                plain = await client.get(f"/api/tables/{code}/record")
                summary = await client.get(f"/api/tables/{code}")
        return russian_answer, english_answer, plain, summary

    russian, english, plain, summary = asyncio.run(main())
    assert russian.status_code == english.status_code == plain.status_code == 409
    assert russian.json()["error"] == "игра ещё не началась"
    assert english.json()["error"] == "the game has not started yet"
    assert plain.json()["error"] == "the game has not started yet"
    assert summary.json()["names"][1] == "Bot 2 (random)"


def test_every_request_is_answered_in_its_own_language(tmp_path: Path) -> None:
    """Texts built anywhere while a request is answered (here a table's names in its summary)
    are in the request's language; the next request without one gets English."""
    app = create_app(ServerConfig.fast(database=f"sqlite:///{tmp_path / 'ohhell.db'}"))

    async def main() -> list[list[str]]:
        transport = httpx.ASGITransport(app=app)
        async with app.router.lifespan_context(app), httpx.AsyncClient(transport=transport,
                                                                       base_url="http://test") as client:
            code = (await client.post("/api/tables", json={
                "name": "Ann", "players": 3, "seats": ["random", "open"]})).json()["code"]
            return [(await client.get(f"/api/tables/{code}", params=params, headers=headers)).json()["names"]
                    for params, headers in (({"lang": "ru"}, {}), ({}, {"Accept-Language": "uk"}), ({}, {}))]

    assert asyncio.run(main()) == [["Ann", "Бот 2 (случайный)", "Место 3"], ["Ann", "Бот 2 (випадковий)", "Місце 3"],
                                   ["Ann", "Bot 2 (random)", "Seat 3"]]


def test_a_tables_later_steps_do_not_take_the_language_of_the_request_that_started_it(tmp_path: Path) -> None:
    """A table started while answering a Russian request sets its timers there; the bots'
    moves, deals and turn timers that follow run in no request's language (a timer or task
    copies the context it was made in, so each is given a fresh one)."""
    from ohhell.server.live import owner

    config = ServerConfig.fast(database=f"sqlite:///{tmp_path / 'ohhell.db'}")
    app = create_app(config)
    seen: list[str] = []
    original = owner.LiveTable._step

    async def step(self: owner.LiveTable) -> None:
        seen.append(current_language())
        await original(self)

    async def main() -> None:
        async with app.router.lifespan_context(app):
            tables = app.state.server.tables
            with speaking("ru"):
                # Unattended (as a duplicate event's table of bots): it plays with nobody watching.
                table, _token = await tables.create(preset("classic", players=4), "Ann", ["random"] * 3, 0.0,
                                                    extra={"unattended": True})
                await table.start(None)
            for _ in range(200):
                if len(seen) >= 3:
                    break
                await asyncio.sleep(0.01)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(owner.LiveTable, "_step", step)
        asyncio.run(main())
    assert len(seen) >= 3 and set(seen) == {"en"}, seen
