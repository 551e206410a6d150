"""Cards, suits, ranks, their notation, and the decks.

A card is a small integer, as a square is in python-chess, so that hands and
sets of cards are bit masks (``1 << card``) and cheap to copy and compare.

* Cards ``0 … 51`` are the standard cards: ``suit * 13 + rank``, where a
  rank counts from ``0`` (the two) to ``12`` (the ace). Within a suit a higher
  number is a higher card, so comparing two cards of one suit is comparing
  integers.
* Cards ``52`` and ``53`` are the two jokers (``X1`` the red joker, ``X2`` the
  black joker). They form a fifth suit, :data:`JOKERS`, of two equal cards.

Notation (the ``ohhell/1`` record format): rank then suit, ranks
``A K Q J T 9 8 7 6 5 4 3 2`` and suits ``S H D C``. Readers also accept
``10`` for ``T``, lower case and the suit symbols ``♠ ♥ ♦ ♣``; writers always
write the canonical form.

>>> parse_card("10h") == parse_card("TH") == parse_card("T♥")
True
>>> card_name(parse_card("10h"))
'TH'
>>> card_display(parse_card("TH"))
'10♥'
>>> card_name(RED_JOKER), card_display(RED_JOKER)
('X1', '🃏1')
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Final

from ohhell.errors import InvalidCardError
from ohhell.i18n import cards_shown_as_seen, display_card

Card = int
"""A card: ``0 … 51`` standard cards (``suit * 13 + rank``), ``52``/``53`` jokers."""

Suit = int
"""A suit: :data:`SPADES`, :data:`HEARTS`, :data:`DIAMONDS`, :data:`CLUBS` or :data:`JOKERS`."""

Rank = int
"""A rank: ``0`` (two) … ``12`` (ace); both jokers have rank :data:`JOKER_RANK`."""

CardMask = int
"""A set of cards as a bit mask: bit ``card`` is set when the card is in the set."""

SPADES: Final[Suit] = 0
HEARTS: Final[Suit] = 1
DIAMONDS: Final[Suit] = 2
CLUBS: Final[Suit] = 3
JOKERS: Final[Suit] = 4
STANDARD_SUITS: Final = (SPADES, HEARTS, DIAMONDS, CLUBS)

SUIT_LETTERS: Final = "SHDCX"
SUIT_SYMBOLS: Final = "♠♥♦♣🃏"
SUIT_NAMES: Final = ("spades", "hearts", "diamonds", "clubs", "jokers")
RANK_LETTERS: Final = "23456789TJQKA"
RANK_NAMES: Final = (
    "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
    "jack", "queen", "king", "ace",
)

TWO: Final[Rank] = 0
SIX: Final[Rank] = 4
SEVEN: Final[Rank] = 5
ACE: Final[Rank] = 12
JOKER_RANK: Final[Rank] = 13

RED_JOKER: Final[Card] = 52
BLACK_JOKER: Final[Card] = 53
JOKER_NAMES: Final = ("X1", "X2")

HIDDEN_CARD: Final[Card] = -1
"""A face-down card: what a seat sees of a card it may not know (Devil's Bridge)."""

SUIT_MASKS: Final[tuple[CardMask, ...]] = (
    0x1FFF, 0x1FFF << 13, 0x1FFF << 26, 0x1FFF << 39, 0b11 << 52,
)
"""The bit mask of every card of each suit, indexed by suit."""

RED: Final = "red"
BLACK: Final = "black"


def make_card(rank: Rank, suit: Suit) -> Card:
    """The standard card of ``rank`` and ``suit``.

    >>> card_name(make_card(ACE, SPADES))
    'AS'
    """
    if not (0 <= rank <= ACE and 0 <= suit <= CLUBS):
        raise ValueError(f"no standard card has rank {rank} and suit {suit}")
    return suit * 13 + rank


def card_suit(card: Card) -> Suit:
    """The suit of ``card`` (:data:`JOKERS` for a joker).

    >>> card_suit(parse_card("QD")) == DIAMONDS, card_suit(BLACK_JOKER) == JOKERS
    (True, True)
    """
    return card // 13


def card_rank(card: Card) -> Rank:
    """The rank of ``card``; both jokers have the same rank, :data:`JOKER_RANK`.

    >>> RANK_LETTERS[card_rank(parse_card("QD"))]
    'Q'
    """
    return JOKER_RANK if card >= RED_JOKER else card % 13


def is_joker(card: Card) -> bool:
    """Whether ``card`` is one of the two jokers."""
    return card >= RED_JOKER


def card_colour(card: Card) -> str:
    """``"red"`` for hearts, diamonds and the red joker ``X1``; ``"black"`` otherwise.

    >>> card_colour(parse_card("2D")), card_colour(BLACK_JOKER)
    ('red', 'black')
    """
    if card >= RED_JOKER:
        return RED if card == RED_JOKER else BLACK
    return RED if card // 13 in (HEARTS, DIAMONDS) else BLACK


def suit_colour(suit: Suit) -> str:
    """The colour of a standard suit."""
    return RED if suit in (HEARTS, DIAMONDS) else BLACK


_RANK_ALIASES: Final = {letter: rank for rank, letter in enumerate(RANK_LETTERS)}
_RANK_ALIASES["10"] = RANK_LETTERS.index("T")
_SUIT_ALIASES: Final = {
    "S": SPADES, "H": HEARTS, "D": DIAMONDS, "C": CLUBS,
    "♠": SPADES, "♥": HEARTS, "♦": DIAMONDS, "♣": CLUBS,
    "♤": SPADES, "♡": HEARTS, "♢": DIAMONDS, "♧": CLUBS,
}


def parse_card(text: str) -> Card:
    """Parse a card in record notation; the inverse of :func:`card_name`.

    Accepts ``10`` for ``T``, lower case, suit symbols and surrounding spaces.

    >>> card_name(parse_card(" 10♠ "))
    'TS'
    >>> parse_card("1S")
    Traceback (most recent call last):
    ...
    ohhell.errors.InvalidCardError: not a card: '1S' (expected a rank A K Q J T 9 … 2 and a suit S H D C, like 'TH')
    """
    if not isinstance(text, str):
        raise InvalidCardError(text)
    upper = text.strip().upper()
    if upper in JOKER_NAMES:
        return RED_JOKER + JOKER_NAMES.index(upper)
    rank = _RANK_ALIASES.get(upper[:-1])
    suit = _SUIT_ALIASES.get(upper[-1:])
    if rank is None or suit is None:
        raise InvalidCardError(text)
    return suit * 13 + rank


def card_name(card: Card) -> str:
    """The canonical record notation of ``card``: ``'TH'``, ``'AS'``, ``'X1'``.

    >>> card_name(0), card_name(51)
    ('2S', 'AC')
    """
    if card >= RED_JOKER:
        return JOKER_NAMES[card - RED_JOKER]
    if card < 0:
        return "??"
    return RANK_LETTERS[card % 13] + SUIT_LETTERS[card // 13]


def message_card(card: int) -> str:
    """A card as the engine's messages name it: record notation (``TH``) by default, as people
    see it (``10♥``, in the current language's letters) after
    :func:`~ohhell.i18n.show_cards_as_seen`.

    >>> from ohhell.i18n import set_language, show_cards_as_seen
    >>> _ = set_language("en"); message_card(24)
    'KH'
    >>> show_cards_as_seen(); message_card(24); show_cards_as_seen(False)
    'K♥'
    """
    if not 0 <= card <= 53:
        return repr(card)  # not a card at all (a message about bad input)
    if cards_shown_as_seen():
        return display_card(card)
    return card_name(card)


def card_display(card: Card) -> str:
    """A display form with the suit symbol and ``10`` for the ten.

    >>> card_display(parse_card("TC")), card_display(parse_card("AS"))
    ('10♣', 'A♠')
    """
    if card >= RED_JOKER:
        return "🃏" + JOKER_NAMES[card - RED_JOKER][1]
    if card < 0:
        return "🂠"
    rank = card % 13
    return ("10" if rank == 8 else RANK_LETTERS[rank]) + SUIT_SYMBOLS[card // 13]


def parse_suit(text: str) -> Suit:
    """Parse a suit letter or symbol; the inverse of :func:`suit_letter`.

    >>> parse_suit("h") == HEARTS, parse_suit("♣") == CLUBS
    (True, True)
    """
    suit = _SUIT_ALIASES.get(text.strip().upper()) if isinstance(text, str) else None
    if suit is None:
        raise InvalidCardError(text, what="suit")
    return suit


def suit_letter(suit: Suit) -> str:
    """The record letter of ``suit``: ``'S'``, ``'H'``, ``'D'``, ``'C'`` (``'X'`` for jokers)."""
    return SUIT_LETTERS[suit]


def mask_of(cards: Iterable[Card]) -> CardMask:
    """The bit mask of a collection of cards.

    >>> mask_of([0, 2]) == 0b101
    True
    """
    mask = 0
    for card in cards:
        mask |= 1 << card
    return mask


def cards_of(mask: CardMask) -> list[Card]:
    """The cards of a mask, lowest first.

    >>> [card_name(c) for c in cards_of(mask_of(parse_cards("AS 2S 3H")))]
    ['2S', 'AS', '3H']
    """
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def iter_cards(mask: CardMask) -> Iterator[Card]:
    """Iterate over the cards of a mask, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def parse_cards(text: str) -> list[Card]:
    """Parse cards separated by spaces or commas.

    >>> format_cards(parse_cards("as, 10h kd"))
    'AS TH KD'
    """
    return [parse_card(token) for token in text.replace(",", " ").split()]


def format_cards(cards: Iterable[Card]) -> str:
    """Canonical names separated by spaces; the inverse of :func:`parse_cards`."""
    return " ".join(card_name(card) for card in cards)


def display_order(card: Card) -> tuple[int, int]:
    """A sort key that groups a hand by suit (♠ ♥ ♣ ♦, alternating colours) and ranks high to low.

    >>> format_cards(sorted(parse_cards("2D AS X1 KD 3C"), key=display_order))
    'X1 AS 3C KD 2D'
    """
    suit = card // 13
    return (_DISPLAY_SUIT_ORDER[suit], -card)


_DISPLAY_SUIT_ORDER: Final = (1, 2, 4, 3, 0)


def sort_for_display(cards: Iterable[Card]) -> list[Card]:
    """A hand in display order: jokers, then ♠ ♥ ♣ ♦, high cards first."""
    return sorted(cards, key=display_order)


def standard_deck_mask(lowest_rank: Rank = TWO) -> CardMask:
    """The standard cards of every suit from ``lowest_rank`` up to the ace.

    >>> standard_deck_mask().bit_count(), standard_deck_mask(SEVEN).bit_count()
    (52, 32)
    """
    per_suit = (0x1FFF >> lowest_rank) << lowest_rank
    return sum(per_suit << (13 * suit) for suit in STANDARD_SUITS)


SMALL_CARDS_ORDER: Final = tuple(make_card(rank, suit) for rank in range(13) for suit in STANDARD_SUITS)
"""The cards from the smallest up, ranks first: 2♠ 2♥ 2♦ 2♣ 3♠ … A♣. The "13 small cards" of
the 39-card pack (and of Bust's second pack) are the first 13: the 2s, 3s and 4s and the 5♠
(docs/rules.md, Decisions)."""

SMALL_THIRTEEN_MASK: Final[CardMask] = sum(1 << card for card in SMALL_CARDS_ORDER[:13])
"""The 13 small cards taken out of the 39-card pack."""

SPANISH_REMOVED_MASK: Final[CardMask] = sum(
    1 << make_card(rank, suit) for rank in (6, 7, 8) for suit in STANDARD_SUITS)
"""The 8s, 9s and 10s, which the Spanish 40-card pack does not have (its sota, caballo and rey
are the jack, queen and king)."""

JOKERS_MASK: Final[CardMask] = SUIT_MASKS[JOKERS]
TWOS_MASK: Final[CardMask] = mask_of(make_card(TWO, suit) for suit in STANDARD_SUITS)
