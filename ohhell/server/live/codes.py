"""Table codes: short, easy to read aloud and to type."""

from __future__ import annotations

import secrets
from typing import Final

CODE_ALPHABET: Final = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
"""Table codes use letters and digits that cannot be mistaken for each other (no I, O, 0, 1)."""
CODE_LENGTH: Final = 6


def new_code() -> str:
    """A short table code to share (6 characters, about 10⁹ codes)."""
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def normalize_code(code: str) -> str:
    """A table code as typed by a person (spaces, lower case, O for 0…) in canonical form.

    >>> normalize_code(" ab-c 2o1 ")
    'ABC2O1'
    """
    return "".join(ch for ch in code.upper() if ch.isalnum())[:16]
