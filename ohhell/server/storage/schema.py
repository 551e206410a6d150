"""The database's tables and their migrations: one schema (SQLAlchemy Core) for SQLite and PostgreSQL.

A database records its schema's version (table ``ohhell_schema``); :func:`create_schema` makes
a new database's tables and brings an older one up to :data:`SCHEMA_VERSION` by adding the
columns it lacks, so a server upgraded in place keeps every stored game.
"""

from __future__ import annotations

import logging
from typing import Final

from sqlalchemy import (
    Column,
    Engine,
    Float,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    inspect,
    select,
    text,
    update,
)
from sqlalchemy.engine import Connection

from ohhell.server.storage.errors import StoreError

log = logging.getLogger("ohhell.server.storage.schema")

SCHEMA_VERSION: Final = 5
"""1: the first schema; 2: scoresheets keep their undo history (column ``undo``); 3: table chat
(a new table, which ``create_all`` makes); 4: each table's fencing token (column ``fence``) and
each scoresheet's revision (column ``rev``), for several server processes on one database; 5: the
seeds of provably fair deals (column ``fair``)."""

metadata = MetaData()

game_tables = Table(
    "ohhell_tables", metadata,
    Column("id", String(16), primary_key=True),
    Column("created", Float, nullable=False),
    Column("updated", Float, nullable=False),
    Column("status", String(16), nullable=False),
    Column("rules", Text, nullable=False),
    Column("settings", Text, nullable=False),
    Column("fence", Integer, nullable=False, server_default="0"),
    Column("fair", Text, nullable=True),
)
"""One row per table: its code, status (a :class:`~ohhell.server.storage.kinds.TableStatus`), the rules
(the record's ``rules`` object) and settings (timer, host seat…), both JSON; ``fence``: the
fencing token of the table's latest owner when several server processes share the database
(:meth:`~ohhell.server.storage.store.Store.take_fence`); ``fair``: the secret side of its
provably fair deals (the seeds, revealed hand by hand; :class:`ohhell.fairness.FairTable`),
never sent anywhere as it is."""

seats = Table(
    "ohhell_seats", metadata,
    Column("table_id", String(16), ForeignKey("ohhell_tables.id", ondelete="CASCADE"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("kind", String(8), nullable=False),
    Column("bot", String(64), nullable=True),
    Column("name", String(64), nullable=True),
    Column("token_hash", String(64), nullable=True),
)
"""One row per seat: ``open`` (waiting for a person), or a :class:`~ohhell.server.storage.kinds.SeatKind`
(``human``, or ``bot`` with its level)."""

actions = Table(
    "ohhell_actions", metadata,
    Column("table_id", String(16), ForeignKey("ohhell_tables.id", ondelete="CASCADE"), primary_key=True),
    Column("seq", Integer, primary_key=True),
    Column("action", Text, nullable=False),
    Column("created", Float, nullable=False),
)
"""The action log: ``seq`` is the action's index in the game's history (its version before it)."""

ACTION_COLUMNS: Final = ("table_id", "seq", "action", "created")
"""The columns of an action row, in the order of the tuples
:meth:`~ohhell.server.storage.store.Store.append_actions` queues."""

ActionRow = tuple[str, int, str, float]
"""An action row: table, seq, the action's JSON text, when (``ACTION_COLUMNS``)."""


sheets = Table(
    "ohhell_sheets", metadata,
    Column("id", String(40), primary_key=True),
    Column("created", Float, nullable=False),
    Column("updated", Float, nullable=False),
    Column("record", Text, nullable=False),
    Column("undo", Text, nullable=True),
    Column("rev", Integer, nullable=False, server_default="0"),
)
"""Scorekeeper sheets: the ``ohhell/1`` record of scoresheet hands, JSON; ``undo``: the records
before the changes that can still be taken back (JSON list, oldest first)."""

chat = Table(
    "ohhell_chat", metadata,
    Column("table_id", String(16), ForeignKey("ohhell_tables.id", ondelete="CASCADE"), primary_key=True),
    Column("id", Integer, primary_key=True),
    Column("seat", Integer, nullable=True),
    Column("name", String(64), nullable=True),
    Column("text", Text, nullable=False),
    Column("created", Float, nullable=False),
)
"""A table's chat: ``id`` counts the lines of the table from 0; ``seat`` is null for a spectator."""

analyses = Table(
    "ohhell_analyses", metadata,
    Column("table_id", String(16), ForeignKey("ohhell_tables.id", ondelete="CASCADE"), primary_key=True),
    Column("created", Float, nullable=False),
    Column("result", Text, nullable=False),
)
"""The post-game analysis of finished games (``ohhell.analysis``), JSON, computed once."""

quickplay = Table(
    "ohhell_quickplay", metadata,
    Column("id", String(64), primary_key=True),
    Column("created", Float, nullable=False),
    Column("deadline", Float, nullable=False),
    Column("seen", Float, nullable=False),
    Column("family", String(32), nullable=False),
    Column("players", Integer, nullable=False),
    Column("level", String(64), nullable=False),
    Column("name", String(64), nullable=False),
    Column("account", String(40), nullable=True),
    Column("rating", Float, nullable=True),
    Column("status", String(16), nullable=False),
    Column("matched", Float, nullable=True),
    Column("table_id", String(16), nullable=True),
    Column("seat", Integer, nullable=True),
    Column("token", String(64), nullable=True),
)
"""The quick-play pool (``community/quickplay.py``): one row per person waiting to be seated
(``status`` ``waiting``), being seated (``matched``: a process has taken them into a game) or
seated (``seated``: ``table_id``, ``seat`` and the seat's ``token``, kept only until the
person's page has read it); ``matched``: when a process claimed it. ``id`` is the SHA-256 of
the ticket the person holds; ``seen`` when their page last asked (a page that stops asking
leaves the pool). A table of its own,
which ``create_all`` makes in a database of any version: no migration."""

quickplay_tables = Table(
    "ohhell_quickplay_tables", metadata,
    Column("table_id", String(16), ForeignKey("ohhell_tables.id", ondelete="CASCADE"), primary_key=True),
    Column("created", Float, nullable=False),
    Column("family", String(32), nullable=False),
    Column("players", Integer, nullable=False),
    Column("low", Float, nullable=True),
    Column("high", Float, nullable=True),
    Column("bot_seats", Integer, nullable=False),
)
"""Quick play's running tables that take latecomers (``community/quickplay.py``): a later
request of the same ``family`` and ``players`` is promised one of the ``bot_seats`` (a hint: the
table's owner decides), when a signed-in player's rating is near ``low``..``high``, the ratings
of the signed-in players seated when the table was made (``NULL``: guests only). A table of its
own, which ``create_all`` makes: no migration."""

schema_info = Table(
    "ohhell_schema", metadata,
    Column("version", Integer, primary_key=True),
)


def create_schema(engine: Engine) -> None:
    """Make the tables a new database lacks and bring an older database's schema up to
    :data:`SCHEMA_VERSION` (refused: a database of a newer ohhell)."""
    metadata.create_all(engine)
    with engine.begin() as conn:
        found = conn.execute(select(schema_info.c.version)).scalar()
        if found is None:
            conn.execute(schema_info.insert().values(version=SCHEMA_VERSION))
        elif found > SCHEMA_VERSION:
            raise StoreError(f"the database was written by a newer ohhell (schema {found}); "
                             f"this one knows schema {SCHEMA_VERSION}")
        elif found < SCHEMA_VERSION:
            _migrate(conn, found)
            conn.execute(update(schema_info).values(version=SCHEMA_VERSION))
            log.info("database schema %d upgraded to %d", found, SCHEMA_VERSION)


def _migrate(conn: Connection, version: int) -> None:
    """Bring a database of schema ``version`` up to :data:`SCHEMA_VERSION` (the tables
    ``create_all`` made are already current; older tables get their new columns)."""
    sheet_columns = {column["name"] for column in inspect(conn).get_columns("ohhell_sheets")}
    table_columns = {column["name"] for column in inspect(conn).get_columns("ohhell_tables")}
    if version < 2 and "undo" not in sheet_columns:
        conn.execute(text("ALTER TABLE ohhell_sheets ADD COLUMN undo TEXT"))
    if version < 5 and "fair" not in table_columns:
        conn.execute(text("ALTER TABLE ohhell_tables ADD COLUMN fair TEXT"))
    if version < 4:
        if "fence" not in table_columns:
            conn.execute(text("ALTER TABLE ohhell_tables ADD COLUMN fence INTEGER NOT NULL DEFAULT 0"))
        if "rev" not in sheet_columns:
            conn.execute(text("ALTER TABLE ohhell_sheets ADD COLUMN rev INTEGER NOT NULL DEFAULT 0"))
