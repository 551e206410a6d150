"""The pool of contributions of a duplicate event or of a day of the daily deal.

An event's deals all come from one seed (every table must get the same cards), committed when
the event is created. So that the server alone does not choose the cards, the people who take
part send contributions (256 random bits each, from their own browser) before the event
begins; every deal derives from the seed *and* the whole pool (scheme ``per-event-pool``,
docs/fairness.md). The pool closes, for good, when the first table of the event deals: from
then on it is frozen, and every table (and every server process, and a restarted server)
deals from the same frozen list.

Rows here (the database is the one truth, so that every server process agrees):

- ``ohhell_fair_pools``: one per scope (an event's id, or ``daily-DAY``): when it closed and
  the frozen pool (JSON list of ``[contributor, value]``, ascending by value);
- ``ohhell_fair_pool_entries``: the contributions taken while it was open, one per
  contributor (``T:S`` for seat S of table T of an event; ``a:ACCOUNT`` or ``g:BROWSER`` for
  the daily deal).

A contribution and the closing are each one transaction that locks the pool's row first, so a
contribution is either in the frozen pool or refused: never taken and then left out.
"""

from __future__ import annotations

import asyncio
import json
import time
from dataclasses import dataclass
from typing import Any, Final

from sqlalchemy import Column, Float, ForeignKey, String, Table, Text, select, update
from sqlalchemy.engine import Connection

from ohhell.fairness import FairnessError, normalize_contribution
from ohhell.i18n import N_
from ohhell.server.storage.schema import metadata
from ohhell.server.storage.store import Store

MAX_CONTRIBUTIONS: Final = 1000
"""The most contributions one pool takes (every one makes each deal's message longer)."""

fair_pools = Table(
    "ohhell_fair_pools", metadata,
    Column("scope", String(40), primary_key=True),
    Column("created", Float, nullable=False),
    Column("closed", Float, nullable=True),
    Column("frozen", Text, nullable=True),
)
"""A pool: open while ``closed`` is null; ``frozen``: the pool as it closed (JSON)."""

fair_pool_entries = Table(
    "ohhell_fair_pool_entries", metadata,
    Column("scope", String(40), ForeignKey("ohhell_fair_pools.scope", ondelete="CASCADE"), primary_key=True),
    Column("contributor", String(80), primary_key=True),
    Column("value", String(64), nullable=False),
    Column("at", Float, nullable=False),
)
"""The contributions of an open pool, one per contributor."""


class PoolError(FairnessError):
    """A contribution the pool refuses: ``kind`` is ``closed``, ``full``, ``already-contributed``,
    ``no-pool`` or ``bad-contribution``; ``message`` is an untranslated text (``N_``)."""


@dataclass(frozen=True)
class Pool:
    """A pool as stored: ``entries`` are ``(contributor, value)``, ascending by value."""

    scope: str
    closed: float | None
    entries: tuple[tuple[str, str], ...]

    @property
    def open(self) -> bool:
        return self.closed is None

    @property
    def values(self) -> list[str]:
        return [value for _who, value in self.entries]

    @property
    def contributors(self) -> list[str]:
        return [who for who, _value in self.entries]


def create_pool(conn: Connection, scope: str) -> None:
    """Open the pool of ``scope`` (nothing if it exists)."""
    if conn.execute(select(fair_pools.c.scope).where(fair_pools.c.scope == scope)).first() is None:
        conn.execute(fair_pools.insert().values(scope=scope, created=time.time()))


def _locked(conn: Connection, scope: str) -> Any:
    """The pool's row, locked until the transaction ends (``SELECT … FOR UPDATE``; SQLite has one
    writer at a time anyway)."""
    return conn.execute(select(fair_pools).where(fair_pools.c.scope == scope).with_for_update()).first()


def check_value(value: Any) -> str:
    """A contribution in canonical form; :class:`PoolError` (``bad-contribution``) if it is not
    64 hex digits."""
    try:
        return normalize_contribution(value)
    except FairnessError as error:
        raise PoolError("bad-contribution", N_("A contribution is 64 hex digits (256 random bits).")) from error


def contribute(conn: Connection, scope: str, contributor: str, value: Any) -> str | PoolError:
    """Take ``contributor``'s contribution to the open pool of ``scope``; returns it (64
    lower-case hex digits), or the :class:`PoolError` that refuses it (returned, not raised: the
    store's writer takes a raising write for a failed one) — the value is not 64 hex digits, the
    pool is closed (or there is none), full, or has this contributor's already."""
    try:
        text = check_value(value)
    except PoolError as error:
        return error
    row = _locked(conn, scope)
    if row is None:
        return PoolError("no-pool", N_("This game takes no contributions."))
    if row.closed is not None:
        return PoolError("closed", N_("Too late: contributions closed when the first cards were dealt."))
    taken = conn.execute(select(fair_pool_entries.c.contributor).where(fair_pool_entries.c.scope == scope)).all()
    if any(item.contributor == contributor for item in taken):
        return PoolError("already-contributed", N_("You have already sent your contribution."))
    if len(taken) >= MAX_CONTRIBUTIONS:
        return PoolError("full", N_("This game has all the contributions it takes."))
    conn.execute(fair_pool_entries.insert().values(scope=scope, contributor=contributor, value=text, at=time.time()))
    return text


async def add(store: Store, scope: str, contributor: str, value: Any) -> str:
    """:func:`contribute` through the store's writer; :class:`PoolError` when refused."""
    text = check_value(value)
    result: str | PoolError = await store.write(lambda conn: contribute(conn, scope, contributor, text))
    if isinstance(result, PoolError):
        raise result
    return result


async def open_pool(store: Store, scope: str) -> None:
    """:func:`create_pool` through the store's writer."""
    await store.write(lambda conn: create_pool(conn, scope))


async def load(store: Store, scope: str) -> Pool | None:
    """:func:`read` in a thread (the event loop never waits on the database)."""
    def call() -> Pool | None:
        with store.engine.connect() as conn:
            return read(conn, scope)

    return await asyncio.to_thread(call)


def close(conn: Connection, scope: str) -> Pool | None:
    """Close the pool of ``scope`` if it is open (its entries frozen, ascending by value) and
    return it as frozen; the same frozen pool every time after; ``None`` when there is none."""
    row = _locked(conn, scope)
    if row is None:
        return None
    if row.closed is not None:
        return _frozen(row)
    entries = sorted((item.value, item.contributor) for item in conn.execute(
        select(fair_pool_entries).where(fair_pool_entries.c.scope == scope)))
    frozen = [[who, value] for value, who in entries]
    now = time.time()
    conn.execute(update(fair_pools).where(fair_pools.c.scope == scope).values(closed=now, frozen=json.dumps(frozen)))
    return Pool(scope, now, tuple((who, value) for who, value in frozen))


def read(conn: Connection, scope: str) -> Pool | None:
    """The pool of ``scope`` as it is now (an open pool lists what it has taken so far)."""
    row = conn.execute(select(fair_pools).where(fair_pools.c.scope == scope)).first()
    if row is None:
        return None
    if row.closed is not None:
        return _frozen(row)
    entries = sorted((item.value, item.contributor) for item in conn.execute(
        select(fair_pool_entries).where(fair_pool_entries.c.scope == scope)))
    return Pool(scope, None, tuple((who, value) for value, who in entries))


def _frozen(row: Any) -> Pool:
    return Pool(row.scope, row.closed, tuple((str(who), str(value)) for who, value in json.loads(row.frozen or "[]")))


def public(pool: Pool | None, labelled: bool) -> dict[str, Any] | None:
    """What anyone may see of a pool: whether it is open and how many it holds; once closed, the
    frozen pool itself, ascending (without the seed it tells nothing about the cards), so that
    everyone can check that their own contribution is in it; with ``labelled``, whose each one
    is (an event's seats; a daily deal's contributors are browsers, never named)."""
    if pool is None:
        return None
    out: dict[str, Any] = {"open": pool.open, "count": len(pool.entries)}
    if not pool.open:
        out["contributions"] = pool.values
        if labelled:
            out["contributors"] = pool.contributors
    return out
