"""Which names a guest may not take at a table: a bot's ("Bot 3", in any language the table
may be seen in) and a signed-in player's there, so that two seats never look the same.

>>> name_is_taken("bot 3", seat_count=4, signed_in=[])
True
>>> name_is_taken("Бот 2", seat_count=4, signed_in=[])
True
>>> name_is_taken("Bot 9", seat_count=4, signed_in=[]), name_is_taken("ann", 4, ["Ann"])
(False, True)
"""

from __future__ import annotations

import functools
import unicodedata
from collections.abc import Iterable

from ohhell.i18n import LANGUAGES, translations
from ohhell.server.texts import CLIENT_TEXTS


def name_is_taken(name: str, seat_count: int, signed_in: Iterable[str]) -> bool:
    """Whether ``name`` is (up to case and spaces) the page's name of a bot at one of the seats,
    in any language, or the name of one of the ``signed_in`` players at the table."""
    key = _key(name)
    return key in bot_names(seat_count) or key in {_key(other) for other in signed_in}


@functools.lru_cache(maxsize=8)
def bot_names(seat_count: int) -> frozenset[str]:
    """The compared form of "Bot N" (what the table page calls the bot at seat N) for every
    seat and language: a seat open now may be given to a bot later."""
    return frozenset(_key(translations(language).gettext(CLIENT_TEXTS["bot_n"]) % {"n": n})
                     for language in LANGUAGES for n in range(1, seat_count + 1))


def _key(name: str) -> str:
    return " ".join(unicodedata.normalize("NFKC", name).casefold().split())
