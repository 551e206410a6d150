"""Translation of every text a person sees: one gettext domain, ``ohhell``.

English is the source language. Catalogs live in ``ohhell/locale/<lang>/LC_MESSAGES``
and are managed with Babel (``scripts/i18n``). The language follows ``--lang``,
then ``OHHELL_LANG``, then ``LANGUAGE``/``LC_ALL``/``LC_MESSAGES``/``LANG``.

Texts are marked with :func:`_` (a sentence with ``%(name)s`` placeholders) and
:func:`ngettext` (a sentence whose form depends on a number, which Slavic
languages need three forms for). Nothing is assembled from pieces.

>>> set_language("en")
'en'
>>> _("trump")
'trump'
>>> ngettext("%(count)d trick", "%(count)d tricks", 2) % {"count": 2}
'2 tricks'
"""

from __future__ import annotations

import gettext as _gettext
import os
from pathlib import Path
from typing import Final

LOCALE_DIR: Final = Path(__file__).parent / "locale"
DOMAIN: Final = "ohhell"
LANGUAGES: Final = ("en", "ru", "uk", "bg", "ro", "ky")
"""The languages ohhell speaks, English first (the source language)."""

LANGUAGE_NAMES: Final = {
    "en": "English", "ru": "Русский", "uk": "Українська", "bg": "Български",
    "ro": "Română", "ky": "Кыргызча",
}

_translations: dict[str, _gettext.NullTranslations] = {}
_current: list[_gettext.NullTranslations] = [_gettext.NullTranslations()]
_current_language: list[str] = ["en"]


def translations(language: str) -> _gettext.NullTranslations:
    """The catalog of ``language`` (English: no catalog, the source texts)."""
    language = normalize_language(language)
    if language not in _translations:
        if language == "en":
            _translations[language] = _gettext.NullTranslations()
        else:
            _translations[language] = _gettext.translation(
                DOMAIN, LOCALE_DIR, languages=[language], fallback=True
            )
    return _translations[language]


def normalize_language(tag: str | None) -> str:
    """Reduce a locale or language tag (``ru_RU.UTF-8``, ``uk-UA``) to one of :data:`LANGUAGES`.

    >>> normalize_language("ru_RU.UTF-8"), normalize_language("ky-KG"), normalize_language("fr")
    ('ru', 'ky', 'en')
    """
    if not tag:
        return "en"
    base = tag.split(".")[0].replace("-", "_").split("_")[0].lower()
    return base if base in LANGUAGES else "en"


def language_from_environment() -> str:
    """The language the environment asks for (``OHHELL_LANG``, then the POSIX variables)."""
    for name in ("OHHELL_LANG", "LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = os.environ.get(name)
        if value:
            return normalize_language(value.split(":")[0])
    return "en"


def set_language(language: str | None = None) -> str:
    """Make ``language`` (or the environment's) the language of :func:`_`; returns it."""
    chosen = normalize_language(language) if language else language_from_environment()
    _current[0] = translations(chosen)
    _current_language[0] = chosen
    return chosen


def current_language() -> str:
    """The language :func:`_` translates into now."""
    return _current_language[0]


def _(message: str) -> str:
    """Translate ``message`` into the current language."""
    return _current[0].gettext(message)


def ngettext(singular: str, plural: str, count: int) -> str:
    """Translate a message whose form depends on ``count``."""
    return _current[0].ngettext(singular, plural, count)


def N_(message: str) -> str:
    """Mark ``message`` for translation without translating it now (for tables of texts)."""
    return message
