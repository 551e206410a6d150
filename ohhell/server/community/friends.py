"""Friends: a signed-in player asks another by name, the other accepts, and each then sees
whether the other is online and can invite them to a table (docs/accounts.md, "Friends").

Everything is in the database, not in a process, so that friends on two server processes of
one site see each other (as quick play's pool, ``storage/quickplay.py``):

* a friendship is two rows of :data:`friendships`, one per direction: ``(a, b)`` says *a wants
  b as a friend*. One row is a request; both rows make friends; removing deletes both. Asking
  someone who already asked you is accepting, so two people asking each other at once become
  friends, whatever process each asks through;
* :data:`presence` keeps when each account's open page last said it is there (its event stream,
  ``GET /api/friends/events``, every :data:`~ohhell.server.web.routes.friends.POLL` seconds):
  online means seen within :data:`ONLINE`;
* :data:`invites`: one row per invitation, read by the friend's event stream, which shows it as
  a notification in their open page (no e-mail). Old ones are dropped as new ones come.

Guests have none of this: they keep the table's link to send.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

from sqlalchemy import Column, Float, ForeignKey, Integer, String, Table, and_, delete, or_, select, update
from sqlalchemy.engine import Connection

from ohhell.i18n import N_
from ohhell.server.community.accounts import AccountError, accounts, name_key
from ohhell.server.storage.schema import game_tables, metadata

ONLINE: Final = 12.0
"""Seconds since a page of the account last checked in within which it counts as online."""
INVITE_KEPT: Final = 120.0
"""Seconds an invitation is kept: a page opened meanwhile still shows it; older ones are gone."""
MAX_FRIENDS: Final = 200
"""Friends and requests one account may have (a request more is refused)."""
MAX_INVITES_PER_MINUTE: Final = 20
"""Invitations one account may send per minute (more are refused: 429)."""

friendships = Table(
    "ohhell_friends", metadata,
    Column("account_id", String(32), ForeignKey("ohhell_accounts.id", ondelete="CASCADE"), primary_key=True),
    Column("friend_id", String(32), ForeignKey("ohhell_accounts.id", ondelete="CASCADE"), primary_key=True,
           index=True),
    Column("since", Float, nullable=False),
)
"""``account_id`` wants ``friend_id`` as a friend (both directions: friends)."""

presence = Table(
    "ohhell_presence", metadata,
    Column("account_id", String(32), ForeignKey("ohhell_accounts.id", ondelete="CASCADE"), primary_key=True),
    Column("seen", Float, nullable=False),
)
"""When a page of each account last checked in (its friends' event streams read this)."""

invites = Table(
    "ohhell_invites", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("from_id", String(32), ForeignKey("ohhell_accounts.id", ondelete="CASCADE"), nullable=False),
    Column("to_id", String(32), ForeignKey("ohhell_accounts.id", ondelete="CASCADE"), nullable=False, index=True),
    Column("table_id", String(16), ForeignKey("ohhell_tables.id", ondelete="CASCADE"), nullable=False),
    Column("created", Float, nullable=False),
)
"""An invitation to a table, from one friend to another."""

FRIEND: Final = "friend"
ASKED: Final = "asked"
"""You asked them; they have not accepted."""
ASKING: Final = "asking"
"""They asked you: accept by asking them back."""


@dataclass(frozen=True)
class Friend:
    """One line of an account's friends list."""

    name: str
    status: str
    online: bool

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "status": self.status, "online": self.online}


@dataclass(frozen=True)
class Invite:
    """An invitation as the invited friend's page is told it."""

    id: int
    name: str
    code: str
    created: float

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "from": self.name, "code": self.code, "created": self.created}


def account_named(conn: Connection, name: str) -> tuple[str, str]:
    """The id and name of the account called ``name`` (compared case-folded); refused: none."""
    row = conn.execute(select(accounts.c.id, accounts.c.name).where(accounts.c.name_key == name_key(name))).first()
    if row is None:
        raise AccountError("no-such-player", N_("There is no player called %(name)s."), 404, name=name)
    return str(row.id), str(row.name)


def check_ask(conn: Connection, account_id: str, name: str) -> str:
    """The id of the player ``name`` whom ``account_id`` may ask to be friends (a read, before
    :func:`ask` writes; refused: no such player, yourself, too many friends already)."""
    friend_id, _friend_name = account_named(conn, name)
    if friend_id == account_id:
        raise AccountError("self", N_("You cannot be your own friend here."))
    count = len(conn.execute(select(friendships.c.friend_id).where(friendships.c.account_id == account_id)).all())
    if count >= MAX_FRIENDS:
        raise AccountError("too-many-friends", N_("You have %(count)d friends and requests: remove some first."),
                           count=count)
    return friend_id


def ask(conn: Connection, account_id: str, friend_id: str, now: float) -> str:
    """``account_id`` asks ``friend_id`` to be friends (or accepts their request); the
    friendship's status after (:data:`FRIEND` or :data:`ASKED`). Asking twice changes nothing."""
    mine = conn.execute(select(friendships.c.friend_id).where(and_(
        friendships.c.account_id == account_id, friendships.c.friend_id == friend_id))).first()
    if mine is None:
        conn.execute(friendships.insert().values(account_id=account_id, friend_id=friend_id, since=now))
    theirs = conn.execute(select(friendships.c.friend_id).where(and_(
        friendships.c.account_id == friend_id, friendships.c.friend_id == account_id))).first()
    return FRIEND if theirs is not None else ASKED


def remove(conn: Connection, account_id: str, friend_id: str) -> None:
    """End a friendship, withdraw a request or decline one (both directions go)."""
    conn.execute(delete(friendships).where(or_(
        and_(friendships.c.account_id == account_id, friendships.c.friend_id == friend_id),
        and_(friendships.c.account_id == friend_id, friendships.c.friend_id == account_id))))


def friends_of(conn: Connection, account_id: str, now: float) -> list[Friend]:
    """An account's friends and requests (both ways), friends online first, then by name."""
    mine = {row.friend_id for row in conn.execute(
        select(friendships.c.friend_id).where(friendships.c.account_id == account_id))}
    theirs = {row.account_id for row in conn.execute(
        select(friendships.c.account_id).where(friendships.c.friend_id == account_id))}
    everyone = mine | theirs
    if not everyone:
        return []
    rows = conn.execute(select(accounts.c.id, accounts.c.name, presence.c.seen)
                        .select_from(accounts.outerjoin(presence, presence.c.account_id == accounts.c.id))
                        .where(accounts.c.id.in_(everyone))).all()
    out = []
    for row in rows:
        status = FRIEND if row.id in mine and row.id in theirs else ASKED if row.id in mine else ASKING
        # Only a friend's presence is told: a request does not let a stranger watch you.
        online = status == FRIEND and row.seen is not None and row.seen >= now - ONLINE
        out.append(Friend(str(row.name), status, online))
    out.sort(key=lambda friend: (friend.status != FRIEND, not friend.online, name_key(friend.name)))
    return out


def check_in(conn: Connection, account_id: str, now: float) -> None:
    """A page of the account is open now (its event stream asked)."""
    if conn.execute(update(presence).where(presence.c.account_id == account_id).values(seen=now)).rowcount == 0:
        conn.execute(presence.insert().values(account_id=account_id, seen=now))


def check_invite(conn: Connection, account_id: str, name: str, table_id: str, now: float) -> str:
    """The id of the friend ``name`` whom ``account_id`` may invite to ``table_id`` now (a read,
    before :func:`invite` writes). Refused: not friends, no such table, too many this minute."""
    friend_id, friend_name = account_named(conn, name)
    both = conn.execute(select(friendships.c.account_id).where(or_(
        and_(friendships.c.account_id == account_id, friendships.c.friend_id == friend_id),
        and_(friendships.c.account_id == friend_id, friendships.c.friend_id == account_id)))).all()
    if len(both) != 2:
        raise AccountError("not-friends", N_("%(name)s is not your friend yet."), 403, name=friend_name)
    if conn.execute(select(game_tables.c.id).where(game_tables.c.id == table_id)).first() is None:
        raise AccountError("no-such-table", N_("There is no table %(table)s."), 404, table=table_id)
    sent = conn.execute(select(invites.c.id).where(and_(invites.c.from_id == account_id,
                                                        invites.c.created >= now - 60.0))).all()
    if len(sent) >= MAX_INVITES_PER_MINUTE:
        raise AccountError("rate-limited", N_("Too many invitations; wait a minute."), 429)
    return friend_id


def invite(conn: Connection, account_id: str, friend_id: str, table_id: str, now: float) -> None:
    """``account_id`` invites their friend to the table ``table_id`` (checked: :func:`check_invite`);
    invitations older than :data:`INVITE_KEPT` go."""
    conn.execute(delete(invites).where(invites.c.created < now - INVITE_KEPT))
    conn.execute(invites.insert().values(from_id=account_id, to_id=friend_id, table_id=table_id, created=now))


def invites_for(conn: Connection, account_id: str, after_id: int, now: float) -> list[Invite]:
    """The invitations to ``account_id`` newer than ``after_id`` and :data:`INVITE_KEPT`, oldest first."""
    rows = conn.execute(select(invites.c.id, accounts.c.name, invites.c.table_id, invites.c.created)
                        .join(accounts, accounts.c.id == invites.c.from_id)
                        .where(and_(invites.c.to_id == account_id, invites.c.id > after_id,
                                    invites.c.created >= now - INVITE_KEPT))
                        .order_by(invites.c.id)).all()
    return [Invite(int(row.id), str(row.name), str(row.table_id), float(row.created)) for row in rows]


def forget(conn: Connection, account_id: str) -> None:
    """In the transaction deleting an account: its friendships, presence and invitations go
    (not left to the foreign keys' cascade, which a SQLite connection may not enforce)."""
    conn.execute(delete(friendships).where(or_(friendships.c.account_id == account_id,
                                               friendships.c.friend_id == account_id)))
    conn.execute(delete(presence).where(presence.c.account_id == account_id))
    conn.execute(delete(invites).where(or_(invites.c.from_id == account_id, invites.c.to_id == account_id)))
