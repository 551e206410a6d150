"""The actions of a game: what players do, and what chance does.

Actions are small immutable values. Player actions carry the seat that acts,
because at some moments several seats may act (the bid-change window,
simultaneous bidding). Chance actions (the cut for the first dealer, the
shuffle, the cut of the pack, or a deal whose cards are known) and table
actions (a hand played with real cards, its tricks) have no seat.

Every action has a short text form that parses back (``parse_action`` /
``str``), like a move in UCI notation, and a JSON form for protocols
(``action_to_json`` / ``action_from_json``):

>>> str(Play(2, 51)), parse_action("play 2 AC") == Play(2, 51)
('play 2 AC', True)
>>> action_to_json(Bid(0, 3))
{'type': 'bid', 'seat': 0, 'bid': 3}
>>> action_from_json({"type": "declare", "seat": 1, "high": True})
Declare(seat=1, high=True)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

from ohhell.cards import CARD_COUNT, HIDDEN_CARD, Card, CardNumbering, card_name, parse_card, parse_suit, suit_letter
from ohhell.errors import InvalidCardError, OhHellError


class InvalidActionError(OhHellError):
    """A text or JSON value that is not an action (cannot parse)."""


@dataclass(frozen=True, slots=True)
class Bid:
    """``seat`` bids ``bid`` tricks (or changes its bid to it, inside the bid-change window)."""

    seat: int
    bid: int

    def __post_init__(self) -> None:
        if type(self.seat) is not int or type(self.bid) is not int:
            raise InvalidActionError(f"a bid needs a whole-number seat and bid, not {self.seat!r} and {self.bid!r}")

    def __str__(self) -> str:
        return f"bid {self.seat} {self.bid}"


@dataclass(frozen=True, slots=True)
class Play:
    """``seat`` plays ``card`` (:data:`~ohhell.cards.HIDDEN_CARD`: the card it cannot see)."""

    seat: int
    card: Card

    def __post_init__(self) -> None:
        if type(self.seat) is not int or type(self.card) is not int:
            raise InvalidActionError(f"a play needs a whole-number seat and a card, not {self.seat!r} and "
                                     f"{self.card!r} (parse cards with parse_card)")

    def __str__(self) -> str:
        return f"play {self.seat} {card_name(self.card) if self.card != HIDDEN_CARD else 'hidden'}"


@dataclass(frozen=True, slots=True)
class Declare:
    """``seat`` declares the first joker of the hand high (it wins the trick) or low (it loses)."""

    seat: int
    high: bool

    def __post_init__(self) -> None:
        if type(self.seat) is not int or type(self.high) is not bool:
            raise InvalidActionError(f"a declaration needs a seat and true or false, not {self.seat!r} and "
                                     f"{self.high!r}")

    def __str__(self) -> str:
        return f"declare {self.seat} {'high' if self.high else 'low'}"


@dataclass(frozen=True, slots=True)
class ChooseTrump:
    """``seat``, the highest bidder, names the trump suit of the hand (``trump: chosen``)."""

    seat: int
    suit: int

    def __post_init__(self) -> None:
        if type(self.seat) is not int or type(self.suit) is not int:
            raise InvalidActionError(f"a trump choice needs a whole-number seat and suit, not {self.seat!r} and "
                                     f"{self.suit!r} (parse suits with parse_suit)")

    def __str__(self) -> str:
        return f"trump {self.seat} {suit_letter(self.suit) if 0 <= self.suit < 4 else self.suit}"


@dataclass(frozen=True, slots=True)
class Draw:
    """Chance: ``seat`` draws ``card`` when cutting for the first deal."""

    seat: int
    card: Card

    def __str__(self) -> str:
        return f"draw {self.seat} {card_name(self.card)}"


@dataclass(frozen=True, slots=True)
class Shuffle:
    """Chance: the pack is shuffled into ``order`` (top card first)."""

    order: tuple[Card, ...]

    def __str__(self) -> str:
        return "shuffle " + " ".join(card_name(card) for card in self.order)


@dataclass(frozen=True, slots=True)
class Cut:
    """Chance: the top ``position`` cards of the shuffled pack go to the bottom; then the deal."""

    position: int

    def __str__(self) -> str:
        return f"cut {self.position}"


@dataclass(frozen=True, slots=True)
class Deal:
    """Chance with a known outcome: the cards as they were dealt (one tuple per seat) and the
    turned-up card, for replaying a record whose pack order is unknown."""

    hands: tuple[tuple[Card, ...], ...]
    turn_up: Card | None = None

    def __str__(self) -> str:
        seats = " / ".join(" ".join(card_name(card) for card in hand) for hand in self.hands)
        turned = card_name(self.turn_up) if self.turn_up is not None else "none"
        return f"deal {seats} / turn {turned}"


@dataclass(frozen=True, slots=True)
class Scoresheet:
    """The hand is played with real cards: only bids and tricks are kept.

    ``turn_up`` is the turned card if known, else ``trump`` the trump suit if known.
    """

    turn_up: Card | None = None
    trump: int | None = None

    def __str__(self) -> str:
        if self.turn_up is not None:
            return f"scoresheet {card_name(self.turn_up)}"
        if self.trump is not None:
            return f"scoresheet {suit_letter(self.trump)}"
        return "scoresheet"


@dataclass(frozen=True, slots=True)
class ReportTricks:
    """The tricks each seat took in a hand played with real cards, indexed by seat."""

    tricks: tuple[int, ...]

    def __str__(self) -> str:
        return "tricks " + " ".join(str(count) for count in self.tricks)


Action = Bid | Play | Declare | ChooseTrump | Draw | Shuffle | Cut | Deal | Scoresheet | ReportTricks
PlayerAction = Bid | Play | Declare | ChooseTrump
ChanceAction = Draw | Shuffle | Cut | Deal

MAX_INTERNED_SEATS: Final = 10
MAX_INTERNED_BID: Final = 60

# Interned actions: legal_actions() hands out these instead of building new values.
PLAYS: Final = tuple(tuple(Play(seat, card) for card in range(CARD_COUNT)) for seat in range(MAX_INTERNED_SEATS))
BIDS: Final = tuple(tuple(Bid(seat, bid) for bid in range(MAX_INTERNED_BID + 1))
                    for seat in range(MAX_INTERNED_SEATS))


def make_bid(seat: int, bid: int) -> Bid:
    """The (interned) action ``Bid(seat, bid)``."""
    if 0 <= seat < MAX_INTERNED_SEATS and 0 <= bid <= MAX_INTERNED_BID:
        return BIDS[seat][bid]
    return Bid(seat, bid)


def make_play(seat: int, card: Card) -> Play:
    """The (interned) action ``Play(seat, card)``."""
    if 0 <= seat < MAX_INTERNED_SEATS and 0 <= card < CARD_COUNT:
        return PLAYS[seat][card]
    return Play(seat, card)


def parse_action(text: str) -> Action:
    """Parse the text form of an action; the inverse of ``str(action)``.

    >>> parse_action("bid 1 0"), parse_action("declare 3 low"), parse_action("trump 2 H")
    (Bid(seat=1, bid=0), Declare(seat=3, high=False), ChooseTrump(seat=2, suit=1))
    """
    words = text.split()
    if not words:
        raise InvalidActionError("empty action")
    kind, args = words[0].lower(), words[1:]
    try:
        if kind == "bid" and len(args) == 2:
            return make_bid(int(args[0]), int(args[1]))
        if kind == "play" and len(args) == 2:
            card = HIDDEN_CARD if args[1].lower() == "hidden" else parse_card(args[1])
            return make_play(int(args[0]), card)
        if kind == "declare" and len(args) == 2 and args[1].lower() in ("high", "low"):
            return Declare(int(args[0]), args[1].lower() == "high")
        if kind == "trump" and len(args) == 2:
            return ChooseTrump(int(args[0]), parse_suit(args[1]))
        if kind == "draw" and len(args) == 2:
            return Draw(int(args[0]), parse_card(args[1]))
        if kind == "shuffle":  # a name given twice is its second copy (Bust)
            numbering = CardNumbering()
            return Shuffle(tuple(numbering.number(word) for word in args))
        if kind == "cut" and len(args) == 1:
            return Cut(int(args[0]))
        if kind == "tricks":
            return ReportTricks(tuple(int(word) for word in args))
        if kind == "scoresheet" and len(args) <= 1:
            if not args:
                return Scoresheet()
            if len(args[0]) == 1:
                return Scoresheet(trump=parse_suit(args[0]))
            return Scoresheet(turn_up=parse_card(args[0]))
        if kind == "deal":
            parts = " ".join(args).split("/")
            *seats, turned = [part.split() for part in parts]
            if len(turned) != 2 or turned[0] != "turn":
                raise InvalidActionError(f"not an action: {text!r}")
            numbering = CardNumbering()
            hands = tuple(tuple(numbering.number(word) for word in seat) for seat in seats)
            turn_up = None if turned[1] == "none" else numbering.number(turned[1])
            return Deal(hands, turn_up)
    except (ValueError, InvalidCardError) as error:
        raise InvalidActionError(f"not an action: {text!r} ({error})") from error
    raise InvalidActionError(f"not an action: {text!r}")


def action_to_json(action: Action) -> dict[str, Any]:
    """A JSON-ready dict of ``action``; the inverse of :func:`action_from_json`."""
    if isinstance(action, Bid):
        return {"type": "bid", "seat": action.seat, "bid": action.bid}
    if isinstance(action, Play):
        return {"type": "play", "seat": action.seat,
                "card": card_name(action.card) if action.card != HIDDEN_CARD else "hidden"}
    if isinstance(action, Declare):
        return {"type": "declare", "seat": action.seat, "high": action.high}
    if isinstance(action, ChooseTrump):
        return {"type": "trump", "seat": action.seat, "suit": suit_letter(action.suit)}
    if isinstance(action, Draw):
        return {"type": "draw", "seat": action.seat, "card": card_name(action.card)}
    if isinstance(action, Shuffle):
        return {"type": "shuffle", "order": [card_name(card) for card in action.order]}
    if isinstance(action, Cut):
        return {"type": "cut", "position": action.position}
    if isinstance(action, Deal):
        return {"type": "deal", "hands": [[card_name(card) for card in hand] for hand in action.hands],
                "turn_up": card_name(action.turn_up) if action.turn_up is not None else None}
    if isinstance(action, Scoresheet):
        return {"type": "scoresheet",
                "turn_up": card_name(action.turn_up) if action.turn_up is not None else None,
                "trump": suit_letter(action.trump) if action.trump is not None else None}
    return {"type": "tricks", "tricks": list(action.tricks)}


def _card(value: Any) -> Card:
    if not isinstance(value, str):
        raise InvalidActionError(f"a card must be a text like 'TH', not {value!r}")
    return parse_card(value)


def _int(data: dict[str, Any], key: str) -> int:
    value = data.get(key)
    if not isinstance(value, int) or isinstance(value, bool):
        raise InvalidActionError(f"{key!r} must be a whole number, not {value!r}")
    return value


def action_from_json(data: Any) -> Action:
    """The action of a JSON dict; raises :class:`InvalidActionError` for anything else."""
    if not isinstance(data, dict):
        raise InvalidActionError(f"an action must be an object, not {data!r}")
    kind = data.get("type")
    try:
        if kind == "bid":
            return make_bid(_int(data, "seat"), _int(data, "bid"))
        if kind == "play":
            card = data.get("card")
            return make_play(_int(data, "seat"), HIDDEN_CARD if card == "hidden" else _card(card))
        if kind == "declare":
            high = data.get("high")
            if not isinstance(high, bool):
                raise InvalidActionError(f"'high' must be true or false, not {high!r}")
            return Declare(_int(data, "seat"), high)
        if kind == "trump":
            suit = data.get("suit")
            if not isinstance(suit, str):
                raise InvalidActionError(f"'suit' must be one of S, H, D, C, not {suit!r}")
            return ChooseTrump(_int(data, "seat"), parse_suit(suit))
        if kind == "draw":
            return Draw(_int(data, "seat"), _card(data.get("card")))
        if kind == "shuffle":  # a name given twice is its second copy (Bust)
            numbering = CardNumbering()
            return Shuffle(tuple(numbering.number(_card(card)) for card in data.get("order", [])))
        if kind == "cut":
            return Cut(_int(data, "position"))
        if kind == "deal":
            turn_up = data.get("turn_up")
            numbering = CardNumbering()
            hands = tuple(tuple(numbering.number(_card(card)) for card in hand) for hand in data.get("hands", []))
            return Deal(hands, numbering.number(_card(turn_up)) if turn_up is not None else None)
        if kind == "scoresheet":
            turn_up, trump = data.get("turn_up"), data.get("trump")
            return Scoresheet(_card(turn_up) if turn_up is not None else None,
                              parse_suit(trump) if trump is not None else None)
        if kind == "tricks":
            tricks = data.get("tricks")
            if not isinstance(tricks, list) or not all(isinstance(t, int) and not isinstance(t, bool)
                                                        for t in tricks):
                raise InvalidActionError("'tricks' must be a list of whole numbers")
            return ReportTricks(tuple(tricks))
    except (InvalidCardError, TypeError) as error:
        raise InvalidActionError(str(error)) from error
    raise InvalidActionError(f"unknown action type {kind!r}")
