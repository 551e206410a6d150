"""A stand-in for the table manager (``ohhell/server/live/manager.py``: ``create_seated``,
``create(..., deals=, extra=)``, ``on_finished``) whose games the test drives hand by hand
(:meth:`FakeTables.advance`), so a test can stop one table after its first hand while another
has not begun. The real store is underneath: tables are stored exactly as the server stores them
(rows, seats, settings with the deal source, the action log)."""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, field
from typing import Any

from ohhell.actions import action_to_json
from ohhell.errors import OhHellError
from ohhell.game import Game, State
from ohhell.rules import Rules
from ohhell.server.live.codes import new_code
from ohhell.server.live.deals import deal_source
from ohhell.server.live.seats import new_token, token_hash
from ohhell.server.storage.store import SeatRow, Store, TableRow


@dataclass
class FakeSeat:
    index: int
    kind: str
    bot_level: str | None = None
    name: str | None = None
    token_hash: str | None = None

    def row(self) -> SeatRow:
        return SeatRow(self.index, self.kind, self.bot_level, self.name, self.token_hash)


@dataclass
class FakeSettings:
    deals: dict[str, Any] = field(default_factory=lambda: {"kind": "random"})
    extra: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {"timer": 0, "host": 0, "stand_in": "random", "deals": self.deals, "extra": self.extra}


class FakeTable:
    def __init__(self, manager: FakeTables, code: str, rules: Rules, seats: list[FakeSeat], extra: dict[str, Any],
                 deals: dict[str, Any] | None) -> None:
        self.manager, self.code, self.rules, self.seats = manager, code, rules, seats
        self.settings = FakeSettings(dict(deals or {"kind": "random"}), extra)
        self.deals = deal_source(self.settings.deals)
        self.state: State = Game(rules).new_initial_state()
        self.status = "waiting"
        self.timer = 0.0

    async def join(self, name: str, seat_wanted: int | None = None) -> tuple[int, str]:
        place = next((s for s in self.seats if s.kind == "open" and seat_wanted in (None, s.index)), None)
        if place is None:
            raise OhHellError("there is no open seat at this table")
        token = new_token()
        place.kind, place.name, place.token_hash = "human", name, token_hash(token)
        await self.manager.store.save_seat(self.code, place.row())
        return place.index, token

    def summary(self) -> dict[str, Any]:
        return {"code": self.code, "status": self.status}

    def record(self) -> dict[str, Any]:
        from ohhell.record import record_from_state

        return record_from_state(self.state, [seat.name or seat.bot_level or "" for seat in self.seats])


class FakeTables:
    """The table manager as the accounts code sees it once the lead's hooks land."""

    def __init__(self, store: Store, levels: list[str]) -> None:
        self.store = store
        self.levels = levels
        self.tables: dict[str, FakeTable] = {}
        self.on_finished: list[Any] = []

    async def _new(self, rules: Rules, seats: list[FakeSeat], deals: dict[str, Any] | None,
                   extra: dict[str, Any] | None) -> FakeTable:
        code = new_code()
        table = FakeTable(self, code, rules, seats, extra or {}, deals)
        await self.store.create_table(TableRow(code, time.time(), "waiting", rules.to_json(), table.settings.to_json()),
                                      [seat.row() for seat in seats])
        self.tables[code] = table
        return table

    async def create_seated(self, rules: Rules, seats: list[str], timer: float, stand_in: str | None = None,
                            deals: dict[str, Any] | None = None, extra: dict[str, Any] | None = None,
                            latecomers: bool = False) -> FakeTable:
        table = await self._new(rules, [FakeSeat(i, "open") if level == "open" else FakeSeat(i, "bot", level)
                                        for i, level in enumerate(seats)], deals, extra)
        table.timer = timer
        return table

    async def create(self, rules: Rules, name: str, others: list[str], timer: float, stand_in: str | None = None,
                     deals: dict[str, Any] | None = None,
                     extra: dict[str, Any] | None = None, latecomers: bool = False) -> tuple[FakeTable, str]:
        token = new_token()
        seats = [FakeSeat(0, "human", None, name, token_hash(token))]
        seats += [FakeSeat(i + 1, "open") if level == "open" else FakeSeat(i + 1, "bot", level)
                  for i, level in enumerate(others)]
        return await self._new(rules, seats, deals, extra), token

    def close(self) -> None:
        """Nothing runs in the background here."""

    async def get(self, code: str) -> FakeTable | None:
        return self.tables.get(code.upper())

    async def advance(self, table: FakeTable, rng: random.Random, hands: int | None = None) -> None:
        """Play the table on (chance from its deal source, random legal moves for every seat)
        until ``hands`` hands are finished or the game is over; stored as the server stores."""
        state = table.state
        table.status = "playing"
        actions = []
        while not state.is_terminal() and (hands is None or len(state.finished_hands) < hands):
            if state.is_chance_node():
                if not await table.deals.ready(self.store):  # as the real table asks (an event's pool)
                    break  # the event has not begun: this table of bots waits
                action = table.deals.draw(state)
            else:
                seat = state.turn if state.turn is not None else state.actors()[0]
                action = rng.choice(state.legal_actions(seat))
            actions.append((len(state.history), action_to_json(action)))
            state.apply(action)
        await self.store.append_actions(table.code, actions)
        if state.is_terminal():
            table.status = "finished"
            await self.store.set_status(table.code, "finished", table.settings.to_json())
            for listener in self.on_finished:
                await listener(table)


def use_fake_tables(client: Any) -> FakeTables:
    """Swap a running app's table manager for the fake, hooked up as ``install`` would."""
    app = client.app
    server = app.state.server
    fake = FakeTables(server.store, list(server.tables.levels))
    hub = app.state.community
    fake.on_finished.append(hub.game_finished)
    server.tables = fake
    return fake
