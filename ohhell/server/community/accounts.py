"""Accounts: optional user names with a password, sessions, sign-in limits, seats claimed.

Guests play as before (a name and a link; the seat's secret token stays in their browser).
An account adds a name that is theirs, their history and their rating. What is stored:

- the password only as an **Argon2id** hash (argon2-cffi's :class:`~argon2.PasswordHasher`,
  RFC 9106's recommended parameters); a hash made with weaker parameters is replaced at the
  next sign-in;
- a session only as the SHA-256 of its cookie's random value (a stolen database gives no
  session away), with its own CSRF token and an expiry;
- every failed sign-in, by address and by name, in the database (so the limits hold across
  server processes): too many in :attr:`AccountsConfig.throttle_window` and the next tries are
  refused without looking at the password. A name that does not exist is treated exactly as a
  wrong password — same answer, same counting, and a password check against a dummy hash so
  it takes as long;
- which seats of which tables belong to an account (:data:`seat_links`): a person proves a
  seat is theirs with its token (the browser keeps one per table), so a guest who signs up
  keeps the games played in that browser.

Deleting an account removes the account, its sessions, its ratings and its links; the seats it
played keep a neutral name (:data:`FORMER_PLAYER`) in every stored game.

>>> normalize_name("  Ann ")
'Ann'
>>> name_key("ÅNN"), name_key("ann")
('ånn', 'ann')
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import secrets
import time
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError
from sqlalchemy import Column, Float, ForeignKey, Index, Integer, String, Table, Text, delete, func, select, update
from sqlalchemy.engine import Connection

from ohhell.i18n import N_
from ohhell.server.storage.schema import game_tables, metadata, seats
from ohhell.server.storage.store import Store

FORMER_PLAYER: Final = N_("Former player")
"""The name a deleted account's seats take in every stored game (stored in English, like
every name in a record; pages translate it when they show it)."""

NAME_CHARACTERS: Final = "_-."
"""Besides letters and digits (any script), a user name may hold these."""

accounts = Table(
    "ohhell_accounts", metadata,
    Column("id", String(32), primary_key=True),
    Column("name", String(32), nullable=False),
    Column("name_key", String(32), nullable=False, unique=True),
    Column("password_hash", Text, nullable=False),
    Column("created", Float, nullable=False),
)
"""One row per account: ``name`` as chosen, ``name_key`` its case-folded form (unique)."""

sessions = Table(
    "ohhell_sessions", metadata,
    Column("id_hash", String(64), primary_key=True),
    Column("account_id", String(32), ForeignKey("ohhell_accounts.id", ondelete="CASCADE"), nullable=False,
           index=True),
    Column("csrf", String(64), nullable=False),
    Column("created", Float, nullable=False),
    Column("expires", Float, nullable=False, index=True),
)
"""Signed-in browsers: the SHA-256 of the cookie's value, the session's CSRF token, when it ends."""

throttle = Table(
    "ohhell_throttle", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("scope", String(16), nullable=False),
    Column("key", String(160), nullable=False),
    Column("at", Float, nullable=False, index=True),
    Index("ohhell_throttle_lookup", "scope", "key", "at"),
)
"""Events that are limited per period: failed sign-ins (``login-name``, ``login-addr``), new
accounts per address (``signup``). Old rows are deleted as new ones are written."""

seat_links = Table(
    "ohhell_seat_links", metadata,
    Column("table_id", String(16), ForeignKey("ohhell_tables.id", ondelete="CASCADE"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("account_id", String(32), ForeignKey("ohhell_accounts.id", ondelete="CASCADE"), nullable=False,
           index=True),
    Column("linked", Float, nullable=False),
)
"""Which account played which seat (a seat of a table keeps the lead's row; this is beside it)."""


@dataclass(frozen=True)
class AccountsConfig:
    """Limits and lifetimes of accounts (defaults suit a public site)."""

    session_days: float = 30.0
    throttle_window: float = 900.0
    """Failed sign-ins are counted over this many seconds."""
    max_failures_per_name: int = 10
    max_failures_per_address: int = 30
    max_signups_per_address: int = 10
    """New accounts one address may make per :attr:`signup_window`."""
    signup_window: float = 3600.0
    min_password: int = 8
    max_password: int = 512
    min_name: int = 3
    max_name: int = 24
    hash_time_cost: int = 3
    hash_memory_kib: int = 65536
    hash_parallelism: int = 4

    def hasher(self) -> PasswordHasher:
        return PasswordHasher(time_cost=self.hash_time_cost, memory_cost=self.hash_memory_kib,
                              parallelism=self.hash_parallelism)


class AccountError(ValueError):
    """A request about an account that is refused: ``code`` for programs, ``message`` (marked
    with ``N_``, with ``params``) for people, ``status`` the HTTP status it maps to."""

    def __init__(self, code: str, message: str, status: int = 400, **params: Any) -> None:
        super().__init__(message % params if params else message)
        self.code, self.message, self.status, self.params = code, message, status, params


SIGN_IN_REFUSED: Final = N_("That user name and password do not match an account.")
"""The one answer to every refused sign-in (no such name or a wrong password)."""
TOO_MANY_TRIES: Final = N_("Too many tries; wait a few minutes and try again.")


@dataclass(frozen=True)
class Account:
    id: str
    name: str
    created: float


@dataclass(frozen=True)
class Session:
    """A signed-in browser: its account, its CSRF token and the hash that names it."""

    account: Account
    csrf: str
    id_hash: str


@dataclass(frozen=True)
class SignedIn:
    """What signing up or in gives the browser: the cookie's value and the CSRF token."""

    account: Account
    cookie: str
    csrf: str


def normalize_name(name: str) -> str:
    """A user name as stored: Unicode NFC, outer spaces removed."""
    return unicodedata.normalize("NFC", name).strip()


def name_key(name: str) -> str:
    """The form two names are compared in (``Ann`` and ``ANN`` are the same account)."""
    return unicodedata.normalize("NFKC", normalize_name(name)).casefold()


def _digest(value: str) -> str:
    return hashlib.sha256(value.encode("utf-8")).hexdigest()


class AccountService:
    """Accounts on a :class:`~ohhell.server.storage.store.Store` (its tables are made with the store's)."""

    def __init__(self, store: Store, config: AccountsConfig | None = None) -> None:
        self.store = store
        self.config = config or AccountsConfig()
        self.hasher = self.config.hasher()
        self._dummy_hash = self.hasher.hash(secrets.token_hex(16))
        """Checked against when a name does not exist, so the answer takes as long as a real check."""
        self.on_delete: list[Any] = []
        """Callables ``(conn, account_id)`` run in the deleting transaction (ratings, results…)."""

    # ------------------------------------------------------------------ names and passwords

    def check_name(self, name: str) -> str:
        name = normalize_name(name)
        config = self.config
        if not config.min_name <= len(name) <= config.max_name:
            raise AccountError("bad-name", N_("A user name has %(min)d to %(max)d characters."),
                               min=config.min_name, max=config.max_name)
        if not all(ch.isalnum() or ch in NAME_CHARACTERS for ch in name) or not name[0].isalnum():
            raise AccountError("bad-name", N_("A user name starts with a letter or digit and holds only letters, "
                                              "digits and _ - ."))
        return name

    def check_password(self, password: str) -> None:
        config = self.config
        if not config.min_password <= len(password) <= config.max_password:
            raise AccountError("bad-password", N_("A password has %(min)d to %(max)d characters."),
                               min=config.min_password, max=config.max_password)

    # ------------------------------------------------------------------ reads

    def _read(self, query: Any) -> list[Any]:
        with self.store.engine.connect() as conn:
            return list(conn.execute(query).all())

    async def read(self, query: Any) -> list[Any]:
        """Rows of a query, read in a thread (the event loop never waits on the database)."""
        return await asyncio.to_thread(self._read, query)

    async def by_name(self, name: str) -> Account | None:
        rows = await self.read(select(accounts.c.id, accounts.c.name, accounts.c.created)
                               .where(accounts.c.name_key == name_key(name)))
        return Account(rows[0].id, rows[0].name, rows[0].created) if rows else None

    async def by_id(self, account_id: str) -> Account | None:
        rows = await self.read(select(accounts.c.id, accounts.c.name, accounts.c.created)
                               .where(accounts.c.id == account_id))
        return Account(rows[0].id, rows[0].name, rows[0].created) if rows else None

    async def names(self, account_ids: Sequence[str]) -> dict[str, str]:
        if not account_ids:
            return {}
        rows = await self.read(select(accounts.c.id, accounts.c.name).where(accounts.c.id.in_(list(account_ids))))
        return {row.id: row.name for row in rows}

    # ------------------------------------------------------------------ limits

    async def _count_and_note(self, scope_keys: Sequence[tuple[str, str]], window: float) -> dict[str, int]:
        """Write one event for each ``(scope, key)`` and return how many each has in ``window``
        (this one included). One transaction: two processes counting at once both see both."""
        now = time.time()

        def call(conn: Connection) -> dict[str, int]:
            counts: dict[str, int] = {}
            # Rows past every window go, whatever their key (names tried once stay no longer).
            conn.execute(delete(throttle).where(throttle.c.at < now - self._longest_window()))
            for scope, key in scope_keys:
                conn.execute(throttle.insert().values(scope=scope, key=key, at=now))
                counts[scope] = conn.execute(select(func.count()).select_from(throttle).where(
                    throttle.c.scope == scope, throttle.c.key == key, throttle.c.at >= now - window)).scalar_one()
            return counts

        return await self.store.write(call)

    def _longest_window(self) -> float:
        return max(self.config.throttle_window, self.config.signup_window)

    async def _counts(self, scope_keys: Sequence[tuple[str, str]], window: float) -> dict[str, int]:
        since = time.time() - window
        out: dict[str, int] = {}
        for scope, key in scope_keys:
            rows = await self.read(select(func.count()).select_from(throttle).where(
                throttle.c.scope == scope, throttle.c.key == key, throttle.c.at >= since))
            out[scope] = int(rows[0][0])
        return out

    async def _forget(self, scope: str, key: str, at_least: float) -> None:
        def call(conn: Connection) -> None:
            conn.execute(delete(throttle).where(throttle.c.scope == scope, throttle.c.key == key,
                                                throttle.c.at >= at_least))

        await self.store.write(call)

    # ------------------------------------------------------------------ sign up, in, out

    async def signup(self, name: str, password: str, address: str) -> SignedIn:
        """A new account, signed in. Refused: a bad or taken name, a bad password, too many new
        accounts from this address."""
        name = self.check_name(name)
        self.check_password(password)
        config = self.config
        counts = await self._counts([("signup", address)], config.signup_window)
        if counts["signup"] >= config.max_signups_per_address:
            raise AccountError("rate-limited", TOO_MANY_TRIES, 429)
        password_hash = await asyncio.to_thread(self.hasher.hash, password)
        account = Account(secrets.token_hex(12), name, time.time())
        key = name_key(name)

        def call(conn: Connection) -> bool:
            if conn.execute(select(accounts.c.id).where(accounts.c.name_key == key)).first() is not None:
                return False
            conn.execute(accounts.insert().values(id=account.id, name=account.name, name_key=key,
                                                  password_hash=password_hash, created=account.created))
            conn.execute(throttle.insert().values(scope="signup", key=address, at=account.created))
            return True

        if not await self.store.write(call):
            raise AccountError("name-taken", N_("That user name is taken; choose another."), 409)
        return await self._new_session(account)

    async def login(self, name: str, password: str, address: str) -> SignedIn:
        """Sign in. Every refusal but the limit says the same (:data:`SIGN_IN_REFUSED`)."""
        config = self.config
        key = name_key(name)[:160]
        # Count this try before checking it: concurrent tries (other processes too) all count.
        started = time.time()
        counts = await self._count_and_note([("login-name", key), ("login-addr", address)], config.throttle_window)
        if counts["login-name"] > config.max_failures_per_name or \
                counts["login-addr"] > config.max_failures_per_address:
            raise AccountError("rate-limited", TOO_MANY_TRIES, 429)
        rows = await self.read(select(accounts.c.id, accounts.c.name, accounts.c.created, accounts.c.password_hash)
                               .where(accounts.c.name_key == key)) if len(password) <= config.max_password else []
        stored = rows[0].password_hash if rows else self._dummy_hash
        ok = await asyncio.to_thread(self._verify, stored, password[:config.max_password])
        if not rows or not ok:
            raise AccountError("refused", SIGN_IN_REFUSED, 401)
        # A success does not count against the name or the address.
        await self._forget("login-name", key, started)
        await self._forget("login-addr", address, started)
        row = rows[0]
        account = Account(row.id, row.name, row.created)
        if self.hasher.check_needs_rehash(stored):
            await self._set_hash(account.id, await asyncio.to_thread(self.hasher.hash, password))
        return await self._new_session(account)

    def _verify(self, stored: str, password: str) -> bool:
        try:
            return self.hasher.verify(stored, password)
        except (VerifyMismatchError, VerificationError, InvalidHashError):
            return False

    async def _set_hash(self, account_id: str, password_hash: str) -> None:
        def call(conn: Connection) -> None:
            conn.execute(update(accounts).where(accounts.c.id == account_id).values(password_hash=password_hash))

        await self.store.write(call)

    async def _new_session(self, account: Account) -> SignedIn:
        cookie = secrets.token_urlsafe(32)
        csrf = secrets.token_urlsafe(24)
        now = time.time()
        expires = now + self.config.session_days * 86400

        def call(conn: Connection) -> None:
            conn.execute(delete(sessions).where(sessions.c.expires < now))  # anyone's expired sessions
            conn.execute(sessions.insert().values(id_hash=_digest(cookie), account_id=account.id, csrf=csrf,
                                                  created=now, expires=expires))

        await self.store.write(call)
        return SignedIn(account, cookie, csrf)

    async def session(self, cookie: str | None) -> Session | None:
        """The live session a cookie names, or ``None`` (unknown, expired, or its account deleted)."""
        if not cookie or len(cookie) > 200:
            return None
        digest = _digest(cookie)
        rows = await self.read(
            select(sessions.c.id_hash, sessions.c.csrf, sessions.c.expires, accounts.c.id, accounts.c.name,
                   accounts.c.created)
            .join(accounts, accounts.c.id == sessions.c.account_id)
            .where(sessions.c.id_hash == digest))
        if not rows or rows[0].expires < time.time() or not hmac.compare_digest(rows[0].id_hash, digest):
            return None
        row = rows[0]
        return Session(Account(row.id, row.name, row.created), row.csrf, row.id_hash)

    async def logout(self, session: Session) -> None:
        def call(conn: Connection) -> None:
            conn.execute(delete(sessions).where(sessions.c.id_hash == session.id_hash))

        await self.store.write(call)

    async def logout_everywhere(self, account_id: str, keep: str | None = None) -> int:
        """End every session of the account (but ``keep``, a session's hash); returns how many."""
        def call(conn: Connection) -> int:
            query = delete(sessions).where(sessions.c.account_id == account_id)
            if keep is not None:
                query = query.where(sessions.c.id_hash != keep)
            return int(conn.execute(query).rowcount or 0)

        return await self.store.write(call)

    async def session_count(self, account_id: str) -> int:
        rows = await self.read(select(func.count()).select_from(sessions).where(
            sessions.c.account_id == account_id, sessions.c.expires >= time.time()))
        return int(rows[0][0])

    async def _check_own_password(self, account_id: str, password: str) -> None:
        rows = await self.read(select(accounts.c.password_hash).where(accounts.c.id == account_id))
        if not rows or not await asyncio.to_thread(self._verify, rows[0].password_hash,
                                                   password[:self.config.max_password]):
            raise AccountError("wrong-password", N_("That is not your current password."), 403)

    async def change_password(self, session: Session, old: str, new: str) -> None:
        """A new password (the old one must be given); every other session ends."""
        self.check_password(new)
        await self._check_own_password(session.account.id, old)
        await self._set_hash(session.account.id, await asyncio.to_thread(self.hasher.hash, new))
        await self.logout_everywhere(session.account.id, keep=session.id_hash)

    async def delete(self, session: Session, password: str) -> list[tuple[str, int]]:
        """Delete the account (its password must be given): the seats it played take a neutral
        name, its sessions, links and ratings go. Returns the seats renamed (table, seat)."""
        account_id = session.account.id
        await self._check_own_password(account_id, password)
        hooks = list(self.on_delete)

        def call(conn: Connection) -> list[tuple[str, int]]:
            linked = [(row.table_id, row.seat) for row in conn.execute(
                select(seat_links.c.table_id, seat_links.c.seat).where(seat_links.c.account_id == account_id))]
            for table_id, seat in linked:
                conn.execute(update(seats).where(seats.c.table_id == table_id, seats.c.seat == seat)
                             .values(name=FORMER_PLAYER))
            for hook in hooks:
                hook(conn, account_id)
            conn.execute(delete(seat_links).where(seat_links.c.account_id == account_id))
            conn.execute(delete(sessions).where(sessions.c.account_id == account_id))
            conn.execute(delete(accounts).where(accounts.c.id == account_id))
            return linked

        renamed: list[tuple[str, int]] = await self.store.write(call)
        return renamed

    # ------------------------------------------------------------------ seats

    async def claim(self, account_id: str, table_id: str, token: str) -> int:
        """Link the seat whose token this is to the account; returns the seat. Refused: no such
        table, a token of no seat there, a seat another account holds."""
        digest = _digest(token)
        rows = await self.read(select(seats.c.seat, seats.c.token_hash).where(
            seats.c.table_id == table_id, seats.c.token_hash.is_not(None)))
        seat = next((row.seat for row in rows if hmac.compare_digest(row.token_hash, digest)), None)
        if seat is None:
            raise AccountError("bad-token", N_("That seat is not yours."), 403)
        now = time.time()

        def call(conn: Connection) -> str | None:
            found = conn.execute(select(seat_links.c.account_id).where(
                seat_links.c.table_id == table_id, seat_links.c.seat == seat)).first()
            if found is None:
                conn.execute(seat_links.insert().values(table_id=table_id, seat=seat, account_id=account_id,
                                                        linked=now))
                return account_id
            return str(found.account_id)

        holder = await self.store.write(call)
        if holder != account_id:
            raise AccountError("seat-taken", N_("That seat belongs to another account."), 409)
        return int(seat)

    async def inherit_links(self, table_id: str) -> None:
        """Link the seats of a table whose token already proved an account's seat at another
        table: a rematch keeps each person's token, so the same token is the same person."""
        def call(conn: Connection) -> None:
            mine = {row.seat: row.token_hash for row in conn.execute(
                select(seats.c.seat, seats.c.token_hash).where(seats.c.table_id == table_id,
                                                               seats.c.token_hash.is_not(None)))}
            linked = {row.seat for row in conn.execute(
                select(seat_links.c.seat).where(seat_links.c.table_id == table_id))}
            for seat, digest in mine.items():
                if seat in linked:
                    continue
                earlier = conn.execute(
                    select(seat_links.c.account_id).join(seats, (seats.c.table_id == seat_links.c.table_id)
                                                         & (seats.c.seat == seat_links.c.seat))
                    .where(seats.c.token_hash == digest, seat_links.c.table_id != table_id)).first()
                if earlier is not None:
                    conn.execute(seat_links.insert().values(table_id=table_id, seat=seat,
                                                            account_id=earlier.account_id, linked=time.time()))

        await self.store.write(call)

    async def links(self, table_id: str) -> dict[int, str]:
        """The accounts of a table's seats: seat -> account id."""
        rows = await self.read(select(seat_links.c.seat, seat_links.c.account_id)
                               .where(seat_links.c.table_id == table_id))
        return {int(row.seat): str(row.account_id) for row in rows}

    async def linked_tables(self, account_id: str) -> list[tuple[str, int, str, float]]:
        """Every table the account played: (table, seat, status, created), newest first."""
        rows = await self.read(
            select(seat_links.c.table_id, seat_links.c.seat, game_tables.c.status, game_tables.c.created)
            .join(game_tables, game_tables.c.id == seat_links.c.table_id)
            .where(seat_links.c.account_id == account_id).order_by(game_tables.c.created.desc()))
        return [(row.table_id, int(row.seat), row.status, float(row.created)) for row in rows]
