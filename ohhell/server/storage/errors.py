"""What the database refuses: the errors a write (or an old server's database) can raise."""

from __future__ import annotations


class StoreError(RuntimeError):
    """The database refused a write (the action it carried is not accepted)."""


class FencedOut(StoreError):
    """A write of a table's former owner, refused: another process has taken the table since
    (its fencing token is newer). The writer must let the table go."""


class Conflict(StoreError):
    """A write based on an old version of a row (another process changed it first)."""
