"""Translation of every text a person sees: one gettext domain, ``ohhell``.

English is the source language. Catalogs live in ``ohhell/locale/<lang>/LC_MESSAGES``
(``ohhell.po`` is the translation, ``ohhell.mo`` its compiled form, both kept in the
repository so that a plain ``pip install -e .`` speaks every language) and are managed
with Babel: ``scripts/i18n`` extracts, updates and compiles them (see
``docs/translations.md``). The language follows ``--lang``, then ``OHHELL_LANG``, then
the language remembered with ``ohhell language CODE``, then
``LANGUAGE``/``LC_ALL``/``LC_MESSAGES``/``LANG``.

Texts are marked with :func:`_` (a sentence with ``%(name)s`` placeholders),
:func:`ngettext` (a sentence whose form depends on a number, which Slavic languages need
three forms for), :func:`pgettext` (a short text whose meaning needs a context, like a
rank letter) and :func:`N_` (marked now, translated where it is shown). Nothing is
assembled from pieces.

>>> set_language("en")
'en'
>>> _("trump")
'trump'
>>> ngettext("%(count)d trick", "%(count)d tricks", 2) % {"count": 2}
'2 tricks'

Card faces keep their suit symbols; the rank letters follow the language where players
expect it (Russian players write Т К Д В for A K Q J):

>>> display_card(12), display_card(21, "ru"), display_card(38, "bg"), display_card(52, "ru")
('A♠', '10♥', 'А♦', 'Дж')
>>> set_language("ru"); _("trump"); set_language("en")
'ru'
'козырь'
'en'
"""

from __future__ import annotations

import contextlib
import contextvars
import gettext as _gettext
import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Final

LOCALE_DIR: Final = Path(__file__).parent / "locale"
DOMAIN: Final = "ohhell"
LANGUAGES: Final = ("en", "ru", "uk", "bg", "ro", "ky")
"""The languages ohhell speaks, English first (the source language)."""

LANGUAGE_NAMES: Final = {
    "en": "English", "ru": "Русский", "uk": "Українська", "bg": "Български",
    "ro": "Română", "ky": "Кыргызча",
}

RANK_CONTEXT: Final = "card rank"
"""The gettext context of the rank letters (``A K Q J``) and of the joker's short label."""

_translations: dict[str, _gettext.NullTranslations] = {}


class _Speech:
    """A language as :func:`_` needs it at hand: its code, its catalog, whether filled-in
    numbers change the text's endings (Kyrgyz)."""

    __slots__ = ("catalog", "kyrgyz", "language")

    def __init__(self, language: str, catalog: _gettext.NullTranslations) -> None:
        self.language = language
        self.catalog = catalog
        self.kyrgyz = language == "ky"


# The language has two levels. The process default is what the command line and the terminal
# apps choose (set_language); a scope (speaking) overrides it for one context only: a server
# handles many requests at once on one thread, each request and connection in its own asyncio
# task, and a task works on a copy of the context it was created in, so a language set in one
# request's task is never seen by another's, even while it awaits. None: no scope, the default.
_default_speech: list[_Speech] = [_Speech("en", _gettext.NullTranslations())]
_scoped_speech: contextvars.ContextVar[_Speech | None] = contextvars.ContextVar("ohhell_language", default=None)
_speeches: dict[str, _Speech] = {}


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
    base = tag.split(".")[0].split("@")[0].replace("-", "_").split("_")[0].lower()
    return base if base in LANGUAGES else "en"


def _first_known(value: str) -> str | None:
    """The first language of a ``LANGUAGE``-style list (``ky:ru:en``) that ohhell speaks.

    ``C`` and ``POSIX`` mean "no preference": the caller goes on to the next variable.
    """
    for item in value.split(":"):
        base = item.split(".")[0].split("@")[0].replace("-", "_").split("_")[0].lower()
        if base in LANGUAGES:
            return base
    return None


def remembered_language_file() -> Path:
    """Where ``ohhell language CODE`` keeps the chosen language (the user's config directory)."""
    from platformdirs import user_config_path

    return user_config_path("ohhell") / "language"


def remembered_language() -> str | None:
    """The language remembered with ``ohhell language CODE``, if any."""
    try:
        value = remembered_language_file().read_text(encoding="utf-8").strip()
    except (OSError, UnicodeDecodeError):
        return None
    return value if value in LANGUAGES else None


def remember_language(language: str | None) -> Path:
    """Remember ``language`` for later runs (``None``: forget it and follow ``LANG`` again)."""
    path = remembered_language_file()
    if language is None:
        path.unlink(missing_ok=True)
        return path
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(normalize_language(language) + "\n", encoding="utf-8")
    return path


def language_from_environment() -> str:
    """The language the user asked for outside the command line: ``OHHELL_LANG``, then the
    remembered choice, then the POSIX variables (``LANGUAGE``, ``LC_ALL``, ``LC_MESSAGES``,
    ``LANG``, in gettext's order)."""
    chosen = os.environ.get("OHHELL_LANG")
    if chosen and _first_known(chosen):
        return _first_known(chosen) or "en"
    remembered = remembered_language()
    if remembered:
        return remembered
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = os.environ.get(name)
        if value:
            found = _first_known(value)
            if found:
                return found
            if name != "LANGUAGE":  # LC_ALL=C or LANG=en_US: English, as gettext would decide
                return "en"
    return "en"


def _speech_of(language: str) -> _Speech:
    found = _speeches.get(language)
    if found is None:
        found = _speeches[language] = _Speech(language, translations(language))
    return found


def set_language(language: str | None = None) -> str:
    """Make ``language`` (or the environment's) the language of :func:`_`; returns it.

    This is the process's default, for the command line and the terminal apps: every context
    without a language of its own (:func:`speaking`) speaks it. Called inside a
    :func:`speaking` block, it changes that block's language too (until the block ends).
    """
    chosen = normalize_language(language) if language else language_from_environment()
    speech = _speech_of(chosen)
    _default_speech[0] = speech
    if _scoped_speech.get() is not None:
        _scoped_speech.set(speech)
    return chosen


def current_language() -> str:
    """The language :func:`_` translates into now (here: in this context)."""
    return (_scoped_speech.get() or _default_speech[0]).language


@contextlib.contextmanager
def speaking(language: str, *, cards_as_seen: bool | None = None) -> Iterator[str]:
    """Translate into ``language`` inside the block, in this context only (and in the tasks
    created inside it, which copy the context); with ``cards_as_seen``, name cards that way
    (:func:`show_cards_as_seen`) too. Other requests, connections and threads keep theirs,
    even while this block awaits; the previous language comes back when it ends.

    >>> set_language("en")
    'en'
    >>> with speaking("ru"):
    ...     print(_("trump"), current_language())
    козырь ru
    >>> current_language()
    'en'
    """
    chosen = normalize_language(language)
    token = _scoped_speech.set(_speech_of(chosen))
    cards_token = _scoped_cards_as_seen.set(cards_as_seen) if cards_as_seen is not None else None
    try:
        yield chosen
    finally:
        if cards_token is not None:
            _scoped_cards_as_seen.reset(cards_token)
        _scoped_speech.reset(token)


def _(message: str) -> str:
    """Translate ``message`` into the current language."""
    # The hottest function of the server (every message, every name): one context lookup, inlined.
    speech = _scoped_speech.get() or _default_speech[0]
    text = speech.catalog.gettext(message)
    return KyrgyzText(text) if speech.kyrgyz else text


def ngettext(singular: str, plural: str, count: int) -> str:
    """Translate a message whose form depends on ``count``."""
    speech = _scoped_speech.get() or _default_speech[0]
    text = speech.catalog.ngettext(singular, plural, count)
    return KyrgyzText(text) if speech.kyrgyz else text


def pgettext(context: str, message: str) -> str:
    """Translate a short ``message`` whose meaning depends on ``context`` (``"card rank"``, ``"K"``)."""
    return (_scoped_speech.get() or _default_speech[0]).catalog.pgettext(context, message)


def npgettext(context: str, singular: str, plural: str, count: int) -> str:
    """:func:`ngettext` with a context."""
    speech = _scoped_speech.get() or _default_speech[0]
    text = speech.catalog.npgettext(context, singular, plural, count)
    return KyrgyzText(text) if speech.kyrgyz else text


def _catalog() -> _gettext.NullTranslations:
    """The current language's catalog."""
    return (_scoped_speech.get() or _default_speech[0]).catalog


# ------------------------------------------------------------------ Kyrgyz case endings after numbers

# The last word of a number as it is read (``15`` is "он беш": "беш" decides the ending).
_KY_UNITS: Final = ("нөл", "бир", "эки", "үч", "төрт", "беш", "алты", "жети", "сегиз", "тогуз")
_KY_TENS: Final = ("", "он", "жыйырма", "отуз", "кырк", "элүү", "алтымыш", "жетимиш", "сексен", "токсон")

# Each case with its endings by the number's last sound (vowel, voiced or voiceless consonant, or a
# nasal м н ң) and its vowel by harmony: an open vowel (а е о ө) or a close one (ы и у ү).
_KY_CASES: Final = {
    # case: (after a vowel, after a voiced consonant, after a voiceless one, after a nasal), open vowel?
    "dative": (("г", "г", "к", "г"), True),
    "ablative": (("д", "д", "т", "д"), True),
    "locative": (("д", "д", "т", "д"), True),
    "genitive": (("н", "д", "т", "д"), False),
    "accusative": (("н", "д", "т", "д"), False),
}
_KY_OPEN: Final = {"а": "а", "ы": "а", "у": "а", "я": "а", "е": "е", "и": "е", "э": "е",
                   "о": "о", "ё": "о", "ө": "ө", "ү": "ө"}
_KY_CLOSE: Final = {"а": "ы", "ы": "ы", "я": "ы", "е": "и", "и": "и", "э": "и",
                    "о": "у", "у": "у", "ё": "у", "ө": "ү", "ү": "ү"}
_KY_VOICELESS: Final = set("пткфсшщчцх")
_KY_NASAL: Final = set("мнң")
_KY_VOWELS: Final = set(_KY_OPEN)


def kyrgyz_number_word(number: int) -> str:
    """The last word of ``number`` read in Kyrgyz, which decides its case endings.

    >>> [kyrgyz_number_word(n) for n in (0, 3, 10, 15, 20, 100, 2000)]
    ['нөл', 'үч', 'он', 'беш', 'жыйырма', 'жүз', 'миң']
    """
    number = abs(number)
    if number == 0:
        return _KY_UNITS[0]
    if number % 10:
        return _KY_UNITS[number % 10]
    if number // 10 % 10:
        return _KY_TENS[number // 10 % 10]
    if number // 100 % 10:
        return "жүз"
    if number // 1000 % 1000:
        return "миң"
    if number // 1_000_000 % 1000:
        return "миллион"
    return "миллиард"


def kyrgyz_number_ending(number: int, case: str) -> str:
    """The ending of ``case`` (``dative``, ``ablative``, ``locative``, ``genitive``,
    ``accusative``) written after the digits of ``number``: Kyrgyz chooses it by the last
    sound of the number as it is read and by vowel harmony (``3кө``, ``5ке``, ``7ге``,
    ``10го``, ``0дөн``).

    >>> [f"{n}{kyrgyz_number_ending(n, 'dative')}" for n in (3, 5, 7, 9, 10, 20)]
    ['3кө', '5ке', '7ге', '9га', '10го', '20га']
    >>> f"0{kyrgyz_number_ending(0, 'ablative')}", f"6{kyrgyz_number_ending(6, 'genitive')}"
    ('0дөн', '6нын')
    """
    consonants, open_vowel = _KY_CASES[case]
    word = kyrgyz_number_word(number)
    last = word[-1]
    vowel = next(letter for letter in reversed(word) if letter in _KY_VOWELS)
    if last in _KY_VOWELS:
        consonant = consonants[0]
    elif last in _KY_NASAL:
        consonant = consonants[3]
    elif last in _KY_VOICELESS:
        consonant = consonants[2]
    else:
        consonant = consonants[1]
    harmony = (_KY_OPEN if open_vowel else _KY_CLOSE)[vowel]
    if case == "dative":
        return consonant + harmony
    if case in ("ablative", "genitive"):
        return consonant + harmony + "н"
    return consonant + harmony


def _ending_forms() -> dict[str, str]:
    """Every written form of every ending, with the case it belongs to."""
    forms: dict[str, str] = {}
    for case, (consonants, open_vowel) in _KY_CASES.items():
        vowels = "аеоө" if open_vowel else "ыиуү"
        for consonant in set(consonants):
            for vowel in vowels:
                tail = "н" if case in ("ablative", "genitive") else ""
                forms.setdefault(consonant + vowel + tail, case)
    return forms


_KY_ENDINGS: Final = _ending_forms()
# A number written in digits with a case ending right after it (``10га``, ``3-кө``), not a word
# that merely follows it (``3 дана``).
_NUMBER_ENDING: Final = re.compile(
    r"(\d+)(-?)(" + "|".join(sorted(_KY_ENDINGS, key=len, reverse=True)) + r")(?![а-яөүңё])")


def fix_kyrgyz_number_endings(text: str) -> str:
    """``text`` with every case ending after a number in digits chosen for that number: a
    translation is written with any form of the ending (``%(max)dга``), and the number filled
    in decides (``10го``, ``3кө``).

    >>> fix_kyrgyz_number_endings("0дөн 10га чейин, 3ге, 5ке")
    '0дөн 10го чейин, 3кө, 5ке'
    """
    def fixed(match: re.Match[str]) -> str:
        digits, hyphen, ending = match.groups()
        return digits + hyphen + kyrgyz_number_ending(int(digits), _KY_ENDINGS[ending])

    return _NUMBER_ENDING.sub(fixed, text)


class KyrgyzText(str):
    """A Kyrgyz translation that picks the case ending after each number when it is filled in
    (``%`` or ``format``): the ending depends on the number (see :func:`kyrgyz_number_ending`)."""

    __slots__ = ()

    def __mod__(self, values: Any) -> str:
        return fix_kyrgyz_number_endings(str.__mod__(self, values))

    def format(self, *args: Any, **kwargs: Any) -> str:
        return fix_kyrgyz_number_endings(str.format(self, *args, **kwargs))


def N_(message: str) -> str:
    """Mark ``message`` for translation without translating it now (for tables of texts)."""
    return message


# The suit names, marked here so that every ``_(SUIT_NAMES[suit])`` finds its translation.
SUIT_WORDS: Final = (N_("spades"), N_("hearts"), N_("diamonds"), N_("clubs"), N_("jokers"))

# The names of the built-in bot levels, as menus and messages show them (``level_name``): levels
# named for people (``basic`` is the club player, ``strong`` the expert; ``club`` and ``expert``
# are other names of those two).
BOT_LEVEL_NAMES: Final = {"random": N_("random"), "beginner": N_("beginner"), "casual": N_("casual player"),
                          "basic": N_("club player"), "learned": N_("neural network"), "strong": N_("expert"),
                          "club": N_("club player"),
                          "expert": N_("expert")}


def level_name(level: str, language: str | None = None) -> str:
    """A bot level as a person reads it (``"strong"`` → ``"эксперт"``); an operator's own
    level (``ohhell serve --bot-command NAME=…``) keeps its name."""
    source = BOT_LEVEL_NAMES.get(level)
    if source is None:
        return level
    catalog = translations(language) if language else _catalog()
    return catalog.gettext(source)


# What a bot's estimates measure (``Suggestion.kind``), as the bots name it in English.
ESTIMATE_KINDS: Final = {
    "probability of making the bid": N_("probability of making the bid"),
    "expected score": N_("expected score"),
    "only legal action": N_("only legal action"),
    "heuristic bid": N_("heuristic bid"),
    "heuristic": N_("heuristic"),
}


def estimate_kind(kind: str) -> str:
    """What a bot's estimates measure, in the current language (an unknown kind as it is)."""
    source = ESTIMATE_KINDS.get(kind)
    return _(source) if source else kind


def rank_letters(language: str | None = None) -> tuple[str, ...]:
    """The labels of the ranks two … ace in ``language`` (default: the current one):
    ``2 … 10`` as digits, the court cards as letters (``J Q K A``; ``В Д К Т`` in Russian).

    >>> rank_letters("en")[-4:], rank_letters("ru")[-4:], rank_letters("bg")[-4:]
    (('J', 'Q', 'K', 'A'), ('В', 'Д', 'К', 'Т'), ('В', 'Д', 'П', 'А'))
    """
    catalog = translations(language) if language else _catalog()
    # Literal contexts: the extractor needs them (the value is RANK_CONTEXT).
    courts = (
        catalog.pgettext("card rank", "J"),
        catalog.pgettext("card rank", "Q"),
        catalog.pgettext("card rank", "K"),
        catalog.pgettext("card rank", "A"),
    )
    return ("2", "3", "4", "5", "6", "7", "8", "9", "10", *courts)


def joker_label(language: str | None = None) -> str:
    """The short label of a joker on a card face (``Jk``; ``Дж`` in Russian)."""
    catalog = translations(language) if language else _catalog()
    return catalog.pgettext("card rank", "Jk")


def display_card(card: int, language: str | None = None) -> str:
    """A card as a person reads it: the rank in the letters of ``language`` (default: the
    current one) and the suit symbol: ``10♥``, ``A♠`` (``Т♠`` in Russian); a joker is its
    short label, a face-down card ``??``. The record notation (``TH``, ``AS``) never
    changes; this is only how a card looks."""
    if card < 0:
        return "??"
    if card >= 54:  # a second copy (Bust, ohhell.cards): copy k is rank k // 4 of suit k % 4
        card = (card - 54) % 4 * 13 + (card - 54) // 4
    if card >= 52:
        return joker_label(language)
    return rank_letters(language)[card % 13] + "♠♥♦♣"[card // 13]


# As the language: a process default (the terminal apps), overridden in one context by a scope.
_default_cards_as_seen: list[bool] = [False]
_scoped_cards_as_seen: contextvars.ContextVar[bool | None] = contextvars.ContextVar("ohhell_cards_as_seen",
                                                                                     default=None)


def show_cards_as_seen(on: bool = True) -> None:
    """Name cards in the engine's messages as people see them (:func:`display_card`) rather
    than in record notation. The play front ends (the terminal game, the server) turn this on;
    the library and the record commands keep the notation of the records
    (:func:`ohhell.cards.message_card` names them).

    >>> show_cards_as_seen(); cards_shown_as_seen(); show_cards_as_seen(False); cards_shown_as_seen()
    True
    False

    This is the process's default; :func:`speaking` with ``cards_as_seen`` sets it for one
    context (one request, one connection). Called inside such a block, it changes that block's
    setting too.
    """
    _default_cards_as_seen[0] = on
    if _scoped_cards_as_seen.get() is not None:
        _scoped_cards_as_seen.set(on)


def cards_shown_as_seen() -> bool:
    """Whether :func:`ohhell.cards.message_card` names cards as people see them (here: in this context)."""
    scoped = _scoped_cards_as_seen.get()
    return _default_cards_as_seen[0] if scoped is None else scoped


def translate_click() -> None:
    """Let click's own texts (``Usage:``, ``Options``, its error messages) speak the current
    language: click looks them up with the module-level ``gettext``; this points its modules
    at :func:`_` and :func:`ngettext`, and the catalogs carry the texts marked in
    :func:`_click_texts`. Texts of another click version that are not there stay English."""
    import importlib

    for name in ("click.core", "click.decorators", "click.exceptions", "click.formatting", "click.parser",
                 "click.types", "click.termui", "click.utils"):
        try:
            module = importlib.import_module(name)
        except ImportError:  # pragma: no cover - a click without that module
            continue
        if hasattr(module, "_"):
            module._ = _  # type: ignore[attr-defined]
        if hasattr(module, "ngettext"):
            module.ngettext = ngettext  # type: ignore[attr-defined]


def _click_texts() -> None:  # pragma: no cover - never called: it marks click's texts for the catalogs
    """The texts of click that the command line shows most (tests check that click still has them)."""
    N_("Usage:")
    N_("Options")
    N_("Commands")
    N_("Show this message and exit.")
    N_("Show the version and exit.")
    N_("%(prog)s, version %(version)s")
    N_("Error: {message}")
    N_("Try '{command} {option}' for help.")
    N_("Invalid value: {message}")
    N_("Invalid value for {param_hint}: {message}")
    N_("Missing argument")
    N_("Missing option")
    N_("Missing parameter")
    N_("Missing command.")
    N_("No such option {name!r}.")
    N_("No such command {name!r}.")
    N_("Option {name!r} does not take a value.")
    N_("Aborted!")
    N_("default: {default}")
    N_("{value} is not in the range {range}.")
    N_("{name} {filename!r} does not exist.")
    N_("{name} {filename!r} is a directory.")
    N_("{name} {filename!r} is not readable.")
    N_("file")
    N_("directory")
    N_("path")
    ngettext("Got unexpected extra argument ({args})", "Got unexpected extra arguments ({args})", 1)
    ngettext("Did you mean {possibility}?", "(Did you mean one of: {possibilities}?)", 1)
    ngettext("Option {name!r} requires an argument.", "Option {name!r} requires {nargs} arguments.", 1)
    ngettext("{value!r} is not {choice}.", "{value!r} is not one of {choices}.", 1)
