"""Quick play: "Play now" seats a person with the others waiting for the same game, or with bots.

A person asks for a family of rules (the rated families, :data:`~ohhell.server.community.ratings.
FAMILIES`: classic by default), a number of players and the level of the bots that would fill
the seats nobody takes. They get a **ticket** (a secret) and their page asks about it every
second (:meth:`QuickPlay.poll`). Each ask tries to form a game from the pool
(:func:`choose_group`):

* as soon as as many people wait as the game has seats, the one who has waited longest is
  seated with those nearest to their rating (signed-in players' rating in that family; a guest
  counts as a newcomer, 1500), so that when many wait, players meet their like;
* when nobody else has come by the longest waiter's deadline (:data:`WAIT`, a countdown on the
  page), whoever waits is seated, and bots of the longest waiter's level take the other seats.

**Latecomers.** Quick play's tables take latecomers (:attr:`~ohhell.server.live.seats.TableSettings.latecomers`):
a table made with bots is listed (``ohhell_quickplay_tables``) while its game is on, and a later
request of the same family and number of players is promised one of its bots' seats rather than
waiting (:meth:`QuickPlay.join`) — for a signed-in player only at a table whose players' ratings
are within :data:`BAND` of theirs. The bot finishes the hand in progress; the seat is the
latecomer's from the start of the next (:meth:`~ohhell.server.live.owner.LiveTable.take_bot_seat`,
done by the table's owner process, wherever the request came in).

The pool is in the database (``storage/quickplay.py``), so every process of a site sees it, and
a group is taken in one transaction that claims every ticket of it only if each still waits: of
two processes forming groups at once, one takes them, the other none (and tries again at the next
ask). The process that took a group makes the table (it owns it) and writes each person's seat
and token into their ticket; each page reads its own, through whichever process it asks.
"""

from __future__ import annotations

import asyncio
import functools
import hashlib
import secrets
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Final

from sqlalchemy import select

from ohhell.errors import OhHellError
from ohhell.i18n import _
from ohhell.rules import PRESETS, Rules, preset
from ohhell.server.community.accounts import accounts, seat_links
from ohhell.server.community.ratings import FAMILIES, FAMILY_NAMES, MU, rating_family
from ohhell.server.live.manager import OPEN, TableManager
from ohhell.server.live.room import bot_name
from ohhell.server.live.seats import TIMER_MODES
from ohhell.server.storage import quickplay as pool
from ohhell.server.storage.errors import Conflict, StoreError
from ohhell.server.storage.kinds import TableStatus
from ohhell.server.storage.quickplay import OpenTable, Ticket
from ohhell.server.storage.store import Store

WAIT: Final = 10.0
"""Seconds a person waits for others before bots fill the empty seats."""
STALE: Final = 6.0
"""A ticket whose page has not asked for this long leaves the pool (the page asks every second)."""
ABANDONED: Final = 30.0
"""A ticket claimed this many seconds ago and still not seated goes back to the pool (the process
that claimed it stopped before it made the table; making one takes well under a second)."""
PLAYING_WINDOW: Final = 3 * 3600.0
"""The lobby's "playing" counts people at tables whose game started within this many seconds
(and a latecomer is offered only a table made within it)."""
BAND: Final = 300.0
"""A signed-in latecomer takes a bot's seat only at a table whose signed-in players' ratings
(when it was made) are all within this of theirs (about two newcomers' steps: a game still fair
to both sides; otherwise they wait for a game of their own)."""

FAMILY_PRESETS: Final[dict[str, str]] = {
    "classic": "classic", "bid-squared": "german-bridge", "secret-bids": "boerenbridge", "7-truf": "7-truf",
    "jokers": "jokers", "devils-bridge": "devils-bridge",
}
"""The rules a quick-play game of each family is played by (the family's best-known preset)."""

DEFAULT_FAMILY: Final = "classic"
DEFAULT_PLAYERS: Final = 4


class QuickPlayError(OhHellError):
    """A request quick play refuses (translated message; ``status`` its HTTP status)."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.message = message
        self.status = status


def ticket_key(ticket: str) -> str:
    """What the pool keeps of a ticket (its SHA-256): the database alone does not give seats away."""
    return hashlib.sha256(ticket.encode("utf-8")).hexdigest()


def family_rules(family: str, players: int) -> Rules:
    """The rules of a quick-play game of ``family`` for ``players`` (:class:`QuickPlayError` if
    there is no such family, or it is not played by that many)."""
    if family not in FAMILY_PRESETS:
        raise QuickPlayError(_("There is no family of rules called %(family)s; the families are %(families)s.")
                             % {"family": family, "families": ", ".join(FAMILY_PRESETS)})
    found = PRESETS[FAMILY_PRESETS[family]]
    if players not in found.players:
        raise QuickPlayError(_("%(family)s is played by %(low)d to %(high)d players.")
                             % {"family": family, "low": found.players[0], "high": found.players[-1]})
    rules = preset(found.name, players=players)
    assert rating_family(rules) == family, "each family's preset is rated in that family"
    return rules


def families() -> list[dict[str, Any]]:
    """The families quick play offers, each with the numbers of players it is played by."""
    return [{"family": family, "name": _(FAMILY_NAMES[family]), "preset": name, "players": list(PRESETS[name].players)}
            for family, name in FAMILY_PRESETS.items() if family in FAMILIES]


def choose_group(tickets: Sequence[Ticket], players: int, now: float) -> list[Ticket] | None:
    """The people to seat now from ``tickets`` (one pool, oldest first), or ``None`` (wait on).

    >>> a = Ticket("a", 0.0, 10.0, "classic", 3, "basic", "Ann", rating=1500.0)
    >>> b = Ticket("b", 1.0, 11.0, "classic", 3, "basic", "Bob", rating=2400.0)
    >>> c = Ticket("c", 2.0, 12.0, "classic", 3, "basic", "Cid", rating=1450.0)
    >>> d = Ticket("d", 3.0, 13.0, "classic", 3, "basic", "Dee", rating=1600.0)
    >>> [t.id for t in choose_group([a, b, c, d], 3, now=4.0)]  # Bob is far from Ann
    ['a', 'c', 'd']
    >>> choose_group([a, b], 3, now=5.0) is None  # Ann's countdown is not over
    True
    >>> [t.id for t in choose_group([a, b], 3, now=10.0)]  # it is: bots take the last seat
    ['a', 'b']
    """
    if not tickets:
        return None
    first, others = tickets[0], list(tickets[1:])
    if len(tickets) < players and first.deadline > now:
        return None
    target = first.rating if first.rating is not None else MU
    others.sort(key=lambda other: (abs((other.rating if other.rating is not None else MU) - target), other.created))
    return [first, *others[:players - 1]]


@dataclass(frozen=True)
class Answer:
    """What a ticket's page is told: still waiting (with the seconds left and how many wait
    with it), or its seat (``later``: a bot's seat at a game being played, theirs from the next
    hand; ``bot`` names it)."""

    status: str
    seconds_left: float = 0.0
    waiting: int = 0
    code: str | None = None
    seat: int | None = None
    token: str | None = None
    later: bool = False
    bot: str | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"status": self.status}
        if self.status == pool.SEATED:
            out.update(code=self.code, seat=self.seat, token=self.token)
            if self.later:
                out.update(later=True, bot=self.bot)
        else:
            out.update(seconds_left=round(self.seconds_left, 1), waiting=self.waiting)
        return out


class QuickPlay:
    """The quick-play pool of a site, as one process sees it (the pool itself is in the database)."""

    def __init__(self, store: Store, tables: TableManager, wait: float = WAIT,
                 clock: Callable[[], float] = time.time) -> None:
        self.store = store
        self.tables = tables
        self.wait = wait
        self.clock = clock

    async def _read(self, call: Callable[..., Any], *args: Any) -> Any:
        def run() -> Any:
            with self.store.engine.connect() as conn:
                return call(conn, *args)
        return await asyncio.to_thread(run)

    async def join(self, name: str, family: str, players: int, level: str, account: str | None = None,
                   rating: float | None = None) -> tuple[str | None, Answer]:
        """A bot's seat at a game of this kind being played (no ticket: the answer is the seat),
        or else a place in the pool: the ticket and the first answer (already a seat, if a
        game formed)."""
        family_rules(family, players)
        if level not in self.tables.levels:
            raise QuickPlayError(_("there is no bot called %(name)s here") % {"name": level})
        late = await self.late_seat(name, family, players, rating)
        if late is not None:
            return None, late
        ticket = secrets.token_urlsafe(24)
        now = self.clock()
        entry = Ticket(ticket_key(ticket), now, now + self.wait, family, players, level, name, account, rating)
        await self.store.write(lambda conn: pool.add(conn, entry, now))
        return ticket, await self.poll(ticket)

    async def late_seat(self, name: str, family: str, players: int, rating: float | None) -> Answer | None:
        """A bot's seat promised at a running quick-play game of this family and number of
        players (the newest that has one, someone is at, and, for a signed-in player, whose
        rating band fits: :data:`BAND`), or ``None``."""
        now = self.clock()
        found: list[OpenTable] = await self._read(pool.open_tables, family, players, now - PLAYING_WINDOW)
        for candidate in found:
            if rating is not None and candidate.low is not None and candidate.high is not None \
                    and not candidate.low - BAND <= rating <= candidate.high + BAND:
                continue
            table_id = candidate.table_id
            table = await self.tables.get(table_id)
            if table is not None and table.paused:
                continue  # nobody is there now (everyone left): not a game to join; they may come back
            try:
                if table is None or table.status != TableStatus.PLAYING:
                    raise OhHellError(_("there is no bot's seat to take at this table"))
                levels = {seat.index: seat.bot_level or "" for seat in table.seats}  # the seat may be theirs at once
                seat, token = await table.take_bot_seat(name)
            except OhHellError:  # the owner has none to give (any more): not offered again
                await self.store.write(functools.partial(pool.close_table, table_id=table_id))
                continue
            await self.store.write(functools.partial(pool.seat_given, table_id=table_id))
            return Answer(pool.SEATED, code=table_id, seat=seat, token=token, later=True,
                          bot=bot_name(seat, levels.get(seat, "")))
        return None

    async def leave(self, ticket: str) -> bool:
        """Leave the pool (while waiting); whether the ticket was waiting."""
        key = ticket_key(ticket)
        return bool(await self.store.write(lambda conn: pool.leave(conn, key)))

    async def poll(self, ticket: str) -> Answer:
        """What the ticket's page is told now; tries to form a game of its pool first."""
        key = ticket_key(ticket)
        now = self.clock()
        await self.store.write(lambda conn: pool.touch(conn, key, now))
        found: Ticket | None = await self._read(pool.find, key)
        if found is None:
            raise QuickPlayError(_("This place in the queue is gone; press Play now again."), 404)
        if found.status != pool.SEATED:
            await self.match(found.family, found.players)
        delivered: Ticket | None = await self.store.write(lambda conn: pool.deliver(conn, key))
        if delivered is None:
            raise QuickPlayError(_("This place in the queue is gone; press Play now again."), 404)
        if delivered.status == pool.SEATED:
            return Answer(pool.SEATED, code=delivered.table_id, seat=delivered.seat, token=delivered.token)
        others: list[Ticket] = await self._read(pool.waiting, found.family, found.players, now - STALE)
        return Answer(delivered.status, seconds_left=max(0.0, delivered.deadline - now), waiting=len(others))

    async def match(self, family: str, players: int) -> list[Ticket] | None:
        """Form a game of this pool if one is due: claim its people (all, or none if another
        process claimed one first), make the table, seat them. The group seated, or ``None``."""
        now = self.clock()

        def take(conn: Any) -> list[Ticket] | None:
            pool.drop_stale(conn, now - STALE)
            pool.release_abandoned(conn, now - ABANDONED)
            pool.forget_tables(conn, now - PLAYING_WINDOW)
            group = choose_group(pool.waiting(conn, family, players, now - STALE), players, now)
            if group is None:
                return None
            try:
                with conn.begin_nested():  # a claim that fails takes nobody, and the rest commits
                    pool.claim(conn, [ticket.id for ticket in group], now)
            except Conflict:
                return None  # another process took someone of this group first: it seats them
            return group

        group: list[Ticket] | None = await self.store.write(take)
        if group is None:
            return None
        await self._seat(group, family_rules(family, players))
        return group

    async def _seat(self, group: list[Ticket], rules: Rules) -> None:
        """Make the table of a claimed group and write each person's seat into their ticket."""
        bots = [group[0].level] * (rules.players - len(group))
        # Rated, as docs/accounts.md says of quick play: each signed-in player's seat is linked to
        # their account when it is made (their page need not claim it), guests count as newcomers.
        extra = {"rated": True, "quickplay": {"family": rating_family(rules)}}
        try:
            table = await self.tables.create_seated(rules, [OPEN] * len(group) + bots, TIMER_MODES["relaxed"],
                                                    extra=extra, latecomers=True)
            seated = [(ticket, *await table.join(ticket.name, index)) for index, ticket in enumerate(group)]
        except (OhHellError, StoreError):
            # Put them back in the pool: the next ask tries again.
            ids = [ticket.id for ticket in group]
            await self.store.write(lambda conn: pool.release(conn, ids))
            raise
        code = table.code

        now = self.clock()
        ratings = [ticket.rating for ticket in group if ticket.account is not None and ticket.rating is not None]
        listed = OpenTable(code, now, group[0].family, group[0].players, min(ratings, default=None),
                           max(ratings, default=None), len(bots))

        def write(conn: Any) -> None:
            if bots:  # latecomers may take the bots' seats while the game is on
                pool.add_table(conn, listed)
            for ticket, index, token in seated:
                pool.seat(conn, ticket.id, code, index, token)
                # (an account deleted while it waited has no seat to link)
                if ticket.account is not None and conn.execute(
                        select(accounts.c.id).where(accounts.c.id == ticket.account)).first() is not None:
                    conn.execute(seat_links.insert().values(table_id=code, seat=index, account_id=ticket.account,
                                                            linked=now))

        await self.store.write(write)

    async def counts(self) -> dict[str, int]:
        """How many people are playing and how many wait to, on the whole site."""
        now = self.clock()

        def read(conn: Any) -> dict[str, int]:
            return {"waiting": pool.waiting_count(conn, now - STALE),
                    "playing": pool.playing_count(conn, now - PLAYING_WINDOW)}

        counted: dict[str, int] = await self._read(read)
        return counted
