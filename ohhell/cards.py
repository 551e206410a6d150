"""Cards, suits, ranks, their notation, and the decks.

A card is a small integer, as a square is in python-chess, so that hands and
sets of cards are bit masks (``1 << card``) and cheap to copy and compare.

* Cards ``0 … 51`` are the standard cards: ``suit * 13 + rank``, where a
  rank counts from ``0`` (the two) to ``12`` (the ace). Within a suit a higher
  number is a higher card, so comparing two cards of one suit is comparing
  integers.
* Cards ``52`` and ``53`` are the two jokers (``X1`` the red joker, ``X2`` the
  black joker). They form a fifth suit, :data:`JOKERS`, of two equal cards.
* Cards ``54 … 79`` are the second copies of Bust's small cards (the ``second_pack`` knob):
  card ``54 + k`` is a copy of ``SMALL_CARDS_ORDER[k]`` (2♠ 2♥ 2♦ 2♣ 3♠ …), with its rank, suit
  and name. Two identical cards are different numbers so that a hand stays a bit mask; they
  compare by rank (:func:`card_rank`), never by number, and the suit of any card is
  :func:`card_suit` (``card // 13`` only for cards below 54).

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
"""A card: ``0 … 51`` standard cards (``suit * 13 + rank``), ``52``/``53`` jokers, ``54 … 79``
second copies of small cards (Bust)."""

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

FIRST_COPY: Final[Card] = 54
"""The first second copy: card ``FIRST_COPY + k`` is a copy of ``SMALL_CARDS_ORDER[k]`` (Bust)."""
COPY_COUNT: Final = 26
"""Second copies there can be: the lower half of the pack (Bust with 6 players)."""
CARD_COUNT: Final = FIRST_COPY + COPY_COUNT
"""Every card number is below this (80): the masks of a Bust game are up to 80 bits."""

HIDDEN_CARD: Final[Card] = -1
"""A face-down card: what a seat sees of a card it may not know (Devil's Bridge)."""

def _copy_original(card: Card) -> Card:
    # SMALL_CARDS_ORDER goes ranks first over the four suits: copy k has rank k // 4, suit k % 4.
    k = card - FIRST_COPY
    return k % 4 * 13 + k // 4


_ORIGINALS: Final = tuple(range(FIRST_COPY)) + tuple(_copy_original(c) for c in range(FIRST_COPY, CARD_COUNT))
_COPIES: Final = {original: copy for copy, original in enumerate(_ORIGINALS) if copy >= FIRST_COPY}

SUIT_MASKS: Final[tuple[CardMask, ...]] = (
    0x1FFF, 0x1FFF << 13, 0x1FFF << 26, 0x1FFF << 39, 0b11 << 52,
)
"""The bit mask of every card of each suit of one pack (and the jokers), indexed by suit."""
FULL_SUIT_MASKS: Final[tuple[CardMask, ...]] = tuple(
    sum(1 << card for card in range(CARD_COUNT) if min(_ORIGINALS[card] // 13, 4) == suit) for suit in range(5))
""":data:`SUIT_MASKS` with the second copies (Bust): what the engine follows suit with. They go
past bit 63, so they are masked with the pack before a C core sees them."""
CARD_SUITS: Final[tuple[int, ...]] = tuple(min(_ORIGINALS[card] // 13, 4) for card in range(CARD_COUNT))
"""The suit of every card number (the jokers: :data:`JOKERS`)."""
CARD_RANKS: Final[tuple[int, ...]] = tuple(_ORIGINALS[card] % 13 if _ORIGINALS[card] < 52 else 13
                                           for card in range(CARD_COUNT))
"""The rank of every card number (the jokers: 13)."""
SECOND_COPIES_MASK: Final[CardMask] = ((1 << COPY_COUNT) - 1) << FIRST_COPY
"""Every second copy (Bust)."""

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

    >>> card_suit(parse_card("QD")) == DIAMONDS, card_suit(BLACK_JOKER) == JOKERS, card_suit(56) == DIAMONDS
    (True, True, True)
    """
    return CARD_SUITS[card]


def card_rank(card: Card) -> Rank:
    """The rank of ``card``; both jokers have the same rank, :data:`JOKER_RANK`.

    >>> RANK_LETTERS[card_rank(parse_card("QD"))], RANK_LETTERS[card_rank(58)]
    ('Q', '3')
    """
    return CARD_RANKS[card]


def is_joker(card: Card) -> bool:
    """Whether ``card`` is one of the two jokers."""
    return card in (RED_JOKER, BLACK_JOKER)


def original(card: Card) -> Card:
    """The card of the first pack that ``card`` is identical to: itself, or for a second copy
    (Bust) the card it copies.

    >>> card_name(original(54)), original(12)
    ('2S', 12)
    """
    return _ORIGINALS[card] if 0 <= card < CARD_COUNT else card


def second_copy(card: Card) -> Card | None:
    """The second copy of a card of the first pack (Bust), or ``None`` when it has none.

    >>> second_copy(parse_card("2S")), second_copy(parse_card("AS"))
    (54, None)
    """
    return _COPIES.get(card)


def identical(first: Card, second: Card) -> bool:
    """Whether two cards are the same card of two packs (or the same card).

    >>> identical(parse_card("3H"), 59), identical(parse_card("3H"), parse_card("3D"))
    (True, False)
    """
    return original(first) == original(second)


def second_copies(count: int) -> CardMask:
    """The first ``count`` second copies: the small cards Bust adds (13 or 26).

    >>> format_cards(cards_of(second_copies(13)))[-8:]
    '4D 4C 5S'
    """
    return ((1 << count) - 1) << FIRST_COPY


def card_colour(card: Card) -> str:
    """``"red"`` for hearts, diamonds and the red joker ``X1``; ``"black"`` otherwise.

    >>> card_colour(parse_card("2D")), card_colour(BLACK_JOKER)
    ('red', 'black')
    """
    card = original(card)
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

    A second copy (Bust) has the name of the card it copies:

    >>> card_name(0), card_name(51), card_name(54)
    ('2S', 'AC', '2S')
    """
    if card >= FIRST_COPY:
        card = _ORIGINALS[card]
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
    if not 0 <= card < CARD_COUNT:
        return repr(card)  # not a card at all (a message about bad input)
    card = _ORIGINALS[card]
    if cards_shown_as_seen():
        return display_card(card)
    return card_name(card)


def card_display(card: Card) -> str:
    """A display form with the suit symbol and ``10`` for the ten.

    >>> card_display(parse_card("TC")), card_display(parse_card("AS"))
    ('10♣', 'A♠')
    """
    if card >= FIRST_COPY:
        card = _ORIGINALS[card]
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


class CardNumbering:
    """Numbers the cards of a deal named in record notation, where a name may come twice
    (Bust): the first time a name is met it is the card of the first pack, the second time
    its second copy. One numbering per deal (or per shuffle).

    >>> numbering = CardNumbering()
    >>> [numbering.number(name) for name in ("2S", "AS", "2s")]
    [0, 12, 54]
    >>> numbering.number("AS")
    Traceback (most recent call last):
    ...
    ohhell.errors.InvalidCardError: AS is named twice, but only Bust's small cards have a second copy
    """

    def __init__(self, deck: CardMask | None = None) -> None:
        self.used: CardMask = 0
        self.deck = deck
        """The pack, when known: a second copy outside it is refused like a card of one pack."""

    def number(self, text: str | Card) -> Card:
        """The card of ``text`` (or of a card already numbered, a copy once its original is used)."""
        card = parse_card(text) if isinstance(text, str) else text
        if 0 <= card < CARD_COUNT and self.used >> card & 1:
            copy = _COPIES.get(_ORIGINALS[card])
            if copy is None or self.used >> copy & 1 or (self.deck is not None and not self.deck >> copy & 1):
                raise InvalidCardError(card_name(card), what="repeated card")
            card = copy
        if card >= 0:
            self.used |= 1 << card
        return card


def format_cards(cards: Iterable[Card]) -> str:
    """Canonical names separated by spaces; the inverse of :func:`parse_cards`."""
    return " ".join(card_name(card) for card in cards)


def display_order(card: Card) -> tuple[int, int]:
    """A sort key that groups a hand by suit (♠ ♥ ♣ ♦, alternating colours) and ranks high to low.

    >>> format_cards(sorted(parse_cards("2D AS X1 KD 3C"), key=display_order))
    'X1 AS 3C KD 2D'
    """
    if card >= FIRST_COPY:  # a second copy sorts next to the card it copies
        return (_DISPLAY_SUIT_ORDER[CARD_SUITS[card]], -_ORIGINALS[card])
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
