"""How cards, suits and trump look in the terminal, as Rich text.

Every card the terminal apps show goes through :func:`card_label` (plain text) and
:func:`card_text` (with colour), so that rank letters can follow the language in one place
(Russian players write Т К Д В for A K Q J). The keys that pick a card by its rank follow
the same labels (:func:`rank_keys`).

>>> from ohhell.cards import parse_card
>>> card_label(parse_card("TH")), card_label(parse_card("AS")), card_label(52)
('10♥', 'A♠', 'Jk1')
>>> card_text(parse_card("QD")).style
'bold red'
>>> suit_label(None), trump_label(1, parse_card("7H"))
('no trump', '♥ hearts (7♥ turned up)')
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

from rich.text import Text

from ohhell.cards import (
    CARD_RANKS,
    HIDDEN_CARD,
    JOKERS,
    RED_JOKER,
    SUIT_NAMES,
    SUIT_SYMBOLS,
    Card,
    Suit,
    card_colour,
    original,
)
from ohhell.i18n import _, joker_label, rank_letters

RED_STYLE: Final = "bold red"
BLACK_STYLE: Final = "bold"
HIDDEN_STYLE: Final = "bold blue"
HIDDEN_LABEL: Final = "??"


def rank_label(rank: int) -> str:
    """The label of a rank (``0`` = two … ``12`` = ace): ``"2"`` … ``"10"``, ``"J"``, ``"Q"``,
    ``"K"``, ``"A"`` in English, the letters of the current language otherwise (``Т`` for the
    ace in Russian; see :func:`ohhell.i18n.rank_letters`)."""
    return rank_letters()[rank]


def card_label(card: Card) -> str:
    """A card as the terminal shows it: ``"10♥"``, ``"A♠"``, ``"Jk1"`` for the red joker and ``"Jk2"``
    for the black one (told apart by more than their colour; the record names them X1 and X2), ``"??"`` for a
    face-down card."""
    if card == HIDDEN_CARD:
        return HIDDEN_LABEL
    card = original(card)  # a second copy (Bust) looks like the card it copies
    if card >= RED_JOKER:
        return joker_label() + str(card - RED_JOKER + 1)
    return rank_label(card % 13) + SUIT_SYMBOLS[card // 13]


def card_style(card: Card) -> str:
    """The Rich style of a card: red suits and the red joker in red."""
    if card == HIDDEN_CARD:
        return HIDDEN_STYLE
    return RED_STYLE if card_colour(card) == "red" else BLACK_STYLE


def card_text(card: Card, dim: bool = False) -> Text:
    """A card as coloured text; ``dim`` for a card that may not be played now."""
    style = card_style(card)
    if dim:
        style = "dim " + style.replace("bold", "").strip()
    return Text(card_label(card), style=style.strip())


def cards_text(cards: Iterable[Card], separator: str = " ") -> Text:
    """Several cards as coloured text."""
    return Text(separator).join(card_text(card) for card in cards)


def suit_symbol(suit: Suit) -> str:
    return SUIT_SYMBOLS[suit]


def suit_label(suit: Suit | None) -> str:
    """A suit in words with its symbol (``"♥ hearts"``), or ``"no trump"``."""
    if suit is None:
        return _("no trump")
    if suit == JOKERS:
        return _("the other joker")
    return f"{SUIT_SYMBOLS[suit]} {_(SUIT_NAMES[suit])}"


def suit_style(suit: Suit | None) -> str:
    if suit is None or suit == JOKERS:
        return "bold"
    return RED_STYLE if suit in (1, 2) else BLACK_STYLE


def trump_label(trump: Suit | None, turn_up: Card | None) -> str:
    """What is trump in words, with the turned card when there is one."""
    if turn_up is not None:
        return _("%(trump)s (%(card)s turned up)") % {"trump": suit_label(trump), "card": card_label(turn_up)}
    return suit_label(trump)


def trump_text(trump: Suit | None, turn_up: Card | None) -> Text:
    return Text(trump_label(trump, turn_up), style=suit_style(trump))


def rank_keys() -> dict[str, int]:
    """The key that picks a card of each rank: the rank's label in lower case, ``t`` and ``0`` for
    the ten, ``*`` for a joker (rank 13). The English letters ``a k q j`` work in every language
    (a player may have a Latin keyboard layout); the letters of the current language are added
    (``т к д в`` in Russian).

    >>> keys = rank_keys()
    >>> keys["k"], keys["t"], keys["0"], keys["2"], keys["*"]
    (11, 8, 8, 0, 13)
    """
    keys = {label.lower(): rank for rank, label in enumerate(rank_letters("en"))}
    keys.update({rank_label(rank).lower(): rank for rank in range(9, 13)})
    keys.pop("10", None)
    keys["t"] = 8
    keys["0"] = 8
    keys["*"] = 13
    return keys


def card_rank_key(card: Card) -> int:
    """The rank a rank key selects (13 for a joker)."""
    return CARD_RANKS[card]


def rank_key_list() -> str:
    """The rank keys as the prompts and the keys dialog name them, in the current language:
    ``a k q j t 9 … 2`` in English, ``т к д в 0 9 … 2`` in Russian (the English letters work too).

    >>> rank_key_list()
    'a k q j t 9 … 2'
    """
    courts = [rank_label(rank).lower() for rank in (12, 11, 10, 9)]
    ten = "t" if courts == ["a", "k", "q", "j"] else "0"
    return " ".join([*courts, ten, "9", "…", "2"])


def parse_card_input(text: str) -> Card:
    """A card typed by a person: the record notation (``7h``, ``TH``), ``10`` for a ten, the
    suit as a letter or a symbol (``10♠``), and the rank letters of the current language
    (``Д♥`` in Russian) as well as the English ones. Raises
    :class:`~ohhell.errors.InvalidCardError`.

    >>> card_label(parse_card_input("q♥")), card_label(parse_card_input("10S"))
    ('Q♥', '10♠')
    """
    from ohhell.cards import parse_card

    value = text.strip()
    local = {rank_label(rank).lower(): "23456789TJQKA"[rank] for rank in range(9, 13)}
    for label, letter in local.items():
        if value.lower().startswith(label) and len(value) > len(label):
            value = letter + value[len(label):]
            break
    return parse_card(value)
