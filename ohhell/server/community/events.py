"""Duplicate events: several tables play the same deals in the same seats, scored by matchpoints.

A host creates an event: a rule set, a number of tables and, for every table, its seats (a
person to join, or a bot level). Every table gets the event's deal source
(:class:`~ohhell.server.community.duplicate.EventDeals`, one secret seed committed when the event is
created), so seat 2 at table 1 holds the same cards as seat 2 at table 3, hand after hand.

What anyone may see of an event, table codes and cards included, is decided here and only
here (:meth:`EventService.view`, :meth:`EventService.hand`, :meth:`EventService.export`):

- a hand's cards, bids, plays and scores at any table are shown only once **every** table has
  played that hand (or ended its game before it): nobody sees a hand from another table before
  their own table has finished it;
- standings count those hands only (matchpoints and the plain total);
- the tables' codes (the way to watch a table or fetch its record) are given only to the person
  who takes a seat there, and to everyone once the whole event is over; so is the seed;
- the export (every table's record with its hands' ``fair`` entries, so ``ohhell verify``
  checks every deal; the standings; the seed) exists once the event is over.

Everything is read from the database (the tables' action logs), so every server process
answers alike.
"""

from __future__ import annotations

import asyncio
import json
import secrets
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final

from sqlalchemy import Column, Float, ForeignKey, Integer, String, Table, Text, select
from sqlalchemy.engine import Connection

from ohhell.fairness import verify_record
from ohhell.game import State
from ohhell.i18n import N_, _
from ohhell.record import record_from_state, replay_log
from ohhell.rules import Rules
from ohhell.server.community import fair_pool
from ohhell.server.community.accounts import AccountError
from ohhell.server.community.duplicate import EventDeals
from ohhell.server.community.matchpoints import matchpoints, percentage
from ohhell.server.live.seats import token_hash
from ohhell.server.storage.kinds import SeatKind, TableStatus
from ohhell.server.storage.schema import metadata
from ohhell.server.storage.store import Store

MAX_TABLES: Final = 16
MIN_TABLES: Final = 2
OPEN: Final = "open"

events = Table(
    "ohhell_events", metadata,
    Column("id", String(16), primary_key=True),
    Column("name", String(64), nullable=False),
    Column("created", Float, nullable=False),
    Column("host_account", String(32), ForeignKey("ohhell_accounts.id", ondelete="SET NULL"), nullable=True),
    Column("rules", Text, nullable=False),
    Column("seats", Text, nullable=False),
    Column("seed", String(64), nullable=False),
    Column("commitment", String(64), nullable=False),
)
"""An event: its rules (the record's ``rules`` object), the seats of each table (JSON list of
lists of ``"open"`` or bot levels), the secret seed (hex) and its published SHA-256."""

event_tables = Table(
    "ohhell_event_tables", metadata,
    Column("event_id", String(16), ForeignKey("ohhell_events.id", ondelete="CASCADE"), primary_key=True),
    Column("table_index", Integer, primary_key=True),
    Column("code", String(16), nullable=False, unique=True),
)
"""The table codes of an event, by table number (0-based)."""


ID_ALPHABET: Final = "abcdefghijkmnpqrstuvwxyz23456789"


def new_event_id() -> str:
    """An event's id: 12 letters and digits (60 bits; also the scope of its fair deals)."""
    return "".join(secrets.choice(ID_ALPHABET) for _ in range(12))


@dataclass(frozen=True)
class EventRow:
    id: str
    name: str
    created: float
    host_account: str | None
    rules: Rules
    seats: list[list[str]]
    seed: str
    commitment: str
    codes: list[str]
    pool: fair_pool.Pool | None = None
    """The event's pool of contributions (``None``: an event made before the pool, scheme
    ``per-event``)."""

    @property
    def deals(self) -> EventDeals:
        """The event's deals as far as they are known (with the pool once it is closed)."""
        closed = self.pool if self.pool is not None and not self.pool.open else None
        return EventDeals(self.id, self.seed, pooled=self.pool is not None, pool=closed)


@dataclass
class TableProgress:
    """One table of an event as stored now: its state, seats and what is finished."""

    index: int
    code: str
    state: State | None
    names: list[str | None]
    kinds: list[str]
    bots: list[str | None]
    stored_finished: bool = False
    """Its stored status is ``finished`` (written just after the last action)."""

    @property
    def hands_done(self) -> int:
        return len(self.state.finished_hands) if self.state is not None else 0

    @property
    def over(self) -> bool:
        """Its game is over, and stored as over: the event's embargo on its tables lifts on the
        stored status (``Community.lifted``), so the event is not called over a moment before
        its tables may be looked at."""
        return self.state is not None and self.state.is_terminal() and self.stored_finished

    def display_names(self) -> list[str]:
        """A name for each seat in a record: the person's, else the bot's level."""
        return [name or bot or "" for name, bot in zip(self.names, self.bots, strict=True)]


def _occupant(t: TableProgress, seat: int) -> dict[str, Any]:
    """Who holds a seat of an event's table: its kind (``open`` until taken), a person's name or
    a bot's level."""
    kind = t.kinds[seat] if seat < len(t.kinds) else OPEN
    return {"kind": kind, "name": t.names[seat] if kind == SeatKind.HUMAN else None,
            "bot": t.bots[seat] if kind == SeatKind.BOT else None}


def check_seats(seats: Any, tables: Any, players: int, levels: Sequence[str]) -> list[list[str]]:
    """The seats of every table: one list per table, or one list for all tables."""
    if not isinstance(tables, int) or isinstance(tables, bool) or not MIN_TABLES <= tables <= MAX_TABLES:
        raise AccountError("bad-tables", N_("An event has %(min)d to %(max)d tables."), min=MIN_TABLES,
                           max=MAX_TABLES)
    if isinstance(seats, list) and seats and all(isinstance(item, str) for item in seats):
        seats = [list(seats) for _ in range(tables)]
    if not isinstance(seats, list) or len(seats) != tables or not all(
            isinstance(row, list) and len(row) == players and all(isinstance(item, str) for item in row)
            for row in seats):
        raise AccountError("bad-seats", N_("Give every table's seats: %(players)d each, \"open\" for a person or a "
                                           "bot level."), players=players)
    for row in seats:
        for item in row:
            if item != OPEN and item not in levels:
                raise AccountError("bad-seats", N_("There is no bot called %(name)s here."), name=item)
    return [list(row) for row in seats]


class EventService:
    """Events on a store (the live tables are created by the caller, see ``accounts_api``)."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def _read(self, call: Any) -> Any:
        with self.store.engine.connect() as conn:
            return call(conn)

    async def read(self, call: Any) -> Any:
        return await asyncio.to_thread(self._read, call)

    # ------------------------------------------------------------------ storing

    async def save(self, name: str, host_account: str | None, rules: Rules, seats: list[list[str]],
                   deals: EventDeals, codes: list[str]) -> None:
        def call(conn: Connection) -> None:
            conn.execute(events.insert().values(id=deals.event_id, name=name, created=time.time(),
                                                host_account=host_account, rules=json.dumps(rules.to_json()),
                                                seats=json.dumps(seats), seed=deals.seed, commitment=deals.commitment))
            conn.execute(event_tables.insert(), [{"event_id": deals.event_id, "table_index": index, "code": code}
                                                 for index, code in enumerate(codes)])
            if deals.pooled:
                fair_pool.create_pool(conn, deals.event_id)

        await self.store.write(call)

    def load_sync(self, conn: Connection, event_id: str) -> EventRow | None:
        row = conn.execute(select(events).where(events.c.id == event_id)).first()
        if row is None:
            return None
        codes = [r.code for r in conn.execute(select(event_tables.c.code).where(event_tables.c.event_id == event_id)
                                              .order_by(event_tables.c.table_index))]
        return EventRow(row.id, row.name, row.created, row.host_account, Rules.from_json(json.loads(row.rules)),
                        json.loads(row.seats), row.seed, row.commitment, codes, fair_pool.read(conn, event_id))

    async def load(self, event_id: str) -> EventRow | None:
        if not isinstance(event_id, str) or len(event_id) > 16:
            return None
        return await self.read(lambda conn: self.load_sync(conn, event_id))  # type: ignore[no-any-return]

    async def holds_seat(self, code: str, seat: int, token: str) -> bool:
        """Whether ``token`` is the one of ``seat`` at the event's table ``code`` (as stored)."""
        stored = await asyncio.to_thread(self.store.load_table, code)
        holder = next((row for row in stored.seats if row.seat == seat), None) if stored is not None else None
        return holder is not None and holder.token_hash is not None \
            and secrets.compare_digest(holder.token_hash, token_hash(token))

    async def recent(self, limit: int = 50) -> list[dict[str, Any]]:
        def call(conn: Connection) -> list[dict[str, Any]]:
            query = select(events.c.id, events.c.name, events.c.created, events.c.rules).order_by(
                events.c.created.desc()).limit(limit)
            return [{"id": row.id, "name": row.name, "created": row.created, "rules": json.loads(row.rules)}
                    for row in conn.execute(query)]

        return await self.read(call)  # type: ignore[no-any-return]

    # ------------------------------------------------------------------ progress

    async def progress(self, event: EventRow) -> list[TableProgress]:
        """Every table of the event as the database holds it now."""
        stored = await asyncio.to_thread(self.store.load_tables, None, event.codes)
        by_code = {item.id: item for item in stored}
        out = []
        for index, code in enumerate(event.codes):
            item = by_code.get(code)
            if item is None:
                out.append(TableProgress(index, code, None, [], [], []))
                continue
            state = await asyncio.to_thread(replay_log, Rules.from_json(item.row.rules), item.actions)
            out.append(TableProgress(index, code, state, [seat.name for seat in item.seats],
                                     [seat.kind for seat in item.seats], [seat.bot for seat in item.seats],
                                     stored_finished=item.row.status == TableStatus.FINISHED))
        return out

    @staticmethod
    def revealed_hands(tables: Sequence[TableProgress]) -> int:
        """How many hands (from the first) every table has played or ended its game before."""
        count = 0
        while True:
            if all(t.state is not None and (t.hands_done > count or t.over) for t in tables) and \
                    any(t.hands_done > count for t in tables):
                count += 1
            else:
                return count

    @staticmethod
    def hand_matchpoints(tables: Sequence[TableProgress], hand: int) -> dict[int, list[float]]:
        """Matchpoints of each seat at each table that played ``hand``: table -> per seat."""
        played = [t for t in tables if t.state is not None and t.hands_done > hand]
        out: dict[int, list[float]] = {t.index: [] for t in played}
        if not played:
            return out
        players = len(played[0].state.finished_hands[hand].scores)  # type: ignore[union-attr]
        for seat in range(players):
            scores = [t.state.finished_hands[hand].scores[seat] for t in played]  # type: ignore[union-attr]
            for t, points in zip(played, matchpoints(scores), strict=True):
                out[t.index].append(points)
        return out

    def standings(self, event: EventRow, tables: Sequence[TableProgress]) -> list[dict[str, Any]]:
        """Every seat of every table over the revealed hands: matchpoints, the most possible,
        the percentage and the plain total; best first."""
        revealed = self.revealed_hands(tables)
        players = event.rules.players
        points = {(t.index, s): 0.0 for t in tables for s in range(players)}
        most = {(t.index, s): 0.0 for t in tables for s in range(players)}
        totals = {(t.index, s): 0 for t in tables for s in range(players)}
        for hand in range(revealed):
            by_table = self.hand_matchpoints(tables, hand)
            others = len(by_table) - 1
            for index, seat_points in by_table.items():
                state = tables[index].state
                assert state is not None
                for seat, value in enumerate(seat_points):
                    points[index, seat] += value
                    most[index, seat] += others
                    totals[index, seat] += state.finished_hands[hand].scores[seat]
        rows: list[dict[str, Any]] = []
        for t in tables:
            for seat in range(players):
                kind = t.kinds[seat] if seat < len(t.kinds) else OPEN
                rows.append({"table": t.index, "seat": seat, "name": t.names[seat] if kind == SeatKind.HUMAN else None,
                             "kind": kind, "bot": t.bots[seat] if kind == SeatKind.BOT else None,
                             "matchpoints": points[t.index, seat], "most": most[t.index, seat],
                             "percent": percentage(points[t.index, seat], most[t.index, seat]),
                             "total": totals[t.index, seat]})
        rows.sort(key=lambda row: (-(row["percent"] or 0.0), -row["total"], row["table"], row["seat"]))
        return rows

    def view(self, event: EventRow, tables: Sequence[TableProgress]) -> dict[str, Any]:
        """The event's page for anyone (see the module docstring for what it withholds)."""
        over = all(t.over for t in tables)
        revealed = self.revealed_hands(tables)
        out: dict[str, Any] = {
            "id": event.id, "name": event.name, "created": event.created, "rules": event.rules.to_json(),
            "commitment": event.commitment, "over": over, "revealed_hands": revealed,
            "tables": [{"table": t.index, "hands_done": t.hands_done, "over": t.over,
                        "seats": [{"seat": seat, "plan": event.seats[t.index][seat], **_occupant(t, seat)}
                                  for seat in range(event.rules.players)]}
                       for t in tables],
            "standings": self.standings(event, tables),
        }
        out["fair"] = self.fairness(event, tables, over)
        if over:
            out["seed"] = event.seed
            for entry, t in zip(out["tables"], tables, strict=True):
                entry["code"] = t.code
        return out

    def fairness(self, event: EventRow, tables: Sequence[TableProgress], over: bool) -> dict[str, Any]:
        """The event's provably fair deals as anyone may see them: the scheme, the commitment,
        the pool (open or not, how many; once closed, its contributions); once the event is over
        the seed and, for every table, ``ohhell verify``'s verdict on its record."""
        out: dict[str, Any] = {"scheme": "per-event" if event.pool is None else "per-event-pool",
                               "commitment": event.commitment, "pool": fair_pool.public(event.pool, labelled=True)}
        if not over:
            return out
        out["seed"] = event.seed
        deals = event.deals
        verdicts = []
        for t in tables:
            assert t.state is not None
            record = deals.annotate(record_from_state(t.state, t.display_names()), revealed=True)
            found = verify_record(record, scope=event.id)
            verified = bool(found) and all(verdict.verified for verdict in found)
            first_failure = next((verdict for verdict in found if not verdict.verified), None)
            verdicts.append({"table": t.index, "verified": verified, "hands": len(found),
                             "message": (found[0].message if verified and found else
                                         first_failure.message if first_failure is not None else
                                         _("not verified: the table has no hand to check"))})
        out["tables"] = verdicts
        out["verified"] = bool(verdicts) and all(item["verified"] for item in verdicts)
        return out

    def hand(self, event: EventRow, tables: Sequence[TableProgress], hand: int) -> dict[str, Any] | None:
        """One hand at every table that played it, with each seat's matchpoints; ``None`` until
        every table has played it."""
        if not 0 <= hand < self.revealed_hands(tables):
            return None
        by_table = self.hand_matchpoints(tables, hand)
        out = []
        for t in tables:
            if t.index not in by_table or t.state is None:
                continue
            record = record_from_state(t.state, t.display_names(), derived=True)
            result = t.state.finished_hands[hand]
            out.append({"table": t.index, "hand": record["hands"][hand], "bids": list(result.bids),
                        "tricks": list(result.tricks), "scores": list(result.scores),
                        "matchpoints": by_table[t.index]})
        return {"hand": hand, "tables": out}

    def export(self, event: EventRow, tables: Sequence[TableProgress]) -> dict[str, Any] | None:
        """Everything about a finished event: the seed, every table's record, the standings."""
        if not all(t.over for t in tables):
            return None
        records = []
        deals = event.deals
        for t in tables:
            assert t.state is not None
            record = deals.annotate(record_from_state(t.state, t.display_names()), revealed=True)
            records.append({"table": t.index, "code": t.code, "record": record})
        return {"event": event.id, "name": event.name, "rules": event.rules.to_json(), "seed": event.seed,
                "commitment": event.commitment, "pool": fair_pool.public(event.pool, labelled=True),
                "tables": records, "standings": self.standings(event, tables)}
