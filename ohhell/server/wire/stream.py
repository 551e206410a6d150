"""The ``state`` messages of one connection: what changed in its view since it was last told.

What the server sends about a game is built from a seat's :class:`~ohhell.views.SeatView`
(or the spectator's); nothing else about the game's hidden state is ever read here.
Successive messages to one connection carry only the fields that changed
(:class:`StateStream`), each with the game's ``version``; a :class:`Broadcast` works out once
what the views of a table's connections share.
"""

from __future__ import annotations

import itertools
import operator
from collections.abc import Callable
from typing import Any, Final

from ohhell.actions import Action, action_to_json
from ohhell.cards import CARD_COUNT, card_name, suit_letter
from ohhell.game import Phase
from ohhell.views import CompletedTrick, HandSummary, SeatView

_NAMES: Final = tuple(card_name(card) for card in range(CARD_COUNT)) + ("??",)
"""Card names by card number (a second copy of Bust has the name of the card it copies); index -1
(a face-down card) is ``??``."""


def _cards(values: tuple[int, ...]) -> list[str]:
    names = _NAMES
    return [names[card] for card in values]


def _trick(values: tuple[tuple[int, int], ...]) -> list[list[Any]]:
    names = _NAMES
    return [[seat, names[card]] for seat, card in values]


_ACTION_JSON: dict[Action, dict[str, Any]] = {}


def _action_json(action: Action) -> dict[str, Any]:
    """An action's JSON, made once per action value (the engine reuses its bid and play values)."""
    found = _ACTION_JSON.get(action)
    if found is None:
        found = action_to_json(action)
        if len(_ACTION_JSON) < 100_000:
            _ACTION_JSON[action] = found
    return found


def _suit(suit: int | None) -> str | None:
    return suit_letter(suit) if suit is not None else None


def hand_summary_json(hand: HandSummary, plays: bool) -> dict[str, Any]:
    """A finished hand of a view as JSON (``plays``: with every card played, for the history).

    Its numbers stay the view's tuples (written as arrays): they never change, and tuples of
    numbers are soon no work for the garbage collector, while a table keeps them for the
    whole game.
    """
    out: dict[str, Any] = {
        "index": hand.index, "dealer": hand.dealer, "size": hand.size, "trump": _suit(hand.trump),
        "turn_up": card_name(hand.turn_up) if hand.turn_up is not None else None,
        "bids": hand.bids, "tricks": hand.tricks, "scores": hand.scores, "totals": hand.totals,
    }
    if hand.trump_chooser is not None:
        out["trump_chooser"] = hand.trump_chooser
    if plays:
        names = _NAMES
        out["plays"] = tuple((seat, names[card]) for seat, card in hand.plays) if hand.plays is not None else None
    return out


class HandCache:
    """The JSON of finished hands, made once per table: they are public and never change.
    The hands with their cards (the history) are made only when someone asks for them."""

    def __init__(self) -> None:
        self._short: list[dict[str, Any]] = []
        self._full: list[dict[str, Any]] = []

    @staticmethod
    def _extend(made: list[dict[str, Any]], hands: tuple[HandSummary, ...], plays: bool) -> list[dict[str, Any]]:
        """``made`` brought up to ``hands``: a new list, never extended in place (a message
        already built may hold the old one)."""
        if len(made) > len(hands):  # a table rebuilt from its log
            made = []
        if len(made) < len(hands):
            made = made + [hand_summary_json(hand, plays) for hand in hands[len(made):]]
        return made

    def short(self, view: SeatView) -> list[dict[str, Any]]:
        """The finished hands of ``view`` without their cards (the score sheet)."""
        if len(self._short) != len(view.finished_hands):
            self._short = self._extend(self._short, view.finished_hands, plays=False)
        return self._short

    def full(self, view: SeatView) -> list[dict[str, Any]]:
        """The finished hands of ``view`` with every card played (the history)."""
        if len(self._full) != len(view.finished_hands):
            self._full = self._extend(self._full, view.finished_hands, plays=True)
        return self._full


_PHASES: Final = {phase: phase.name.lower() for phase in Phase}


def _completed(tricks: tuple[CompletedTrick, ...]) -> list[dict[str, Any]]:
    return [{"leader": t.leader, "cards": _trick(t.cards), "winner": t.winner} for t in tricks]


def _one_trick(trick: CompletedTrick | None) -> dict[str, Any] | None:
    return None if trick is None else {"leader": trick.leader, "cards": _trick(trick.cards), "winner": trick.winner}


def _visible(hands: dict[int, tuple[int, ...]]) -> dict[str, list[str]]:
    return {str(seat): _cards(cards) for seat, cards in hands.items()}


def _legal(actions: tuple[Action, ...]) -> list[dict[str, Any]]:
    return [_action_json(action) for action in actions]


def _turn_up(card: int | None) -> str | None:
    return _NAMES[card] if card is not None else None


STATE_FIELDS: Final = (
    "version", "seat", "phase", "hand_index", "hand_count", "dealer", "first_dealer", "draws", "hand_size", "dealt",
    "trump", "turn_up", "hand", "blind", "visible_hands", "hand_counts", "bid_order", "bids", "has_bid",
    "bidding_complete", "tricks_won", "completed_tricks", "current_trick", "trick_suit", "joker_high", "turn",
    "actors", "legal_actions", "forbidden_bid", "can_change_bid", "totals", "finished_hands", "game_over", "winners",
    "closing_trick", "hook_bid", "trump_chooser", "trump_by_choice",
)
"""The fields of a ``state`` message about the game, in order: those of :meth:`SeatView.to_json`
but the rules (``welcome`` carries them once) and ``scoresheet``, with finished hands without
their cards (the ``history`` message has those)."""

_CONVERT: Final[dict[str, Callable[[Any], Any]]] = {
    "phase": _PHASES.__getitem__, "draws": _trick, "trump": _suit, "turn_up": _turn_up, "hand": _cards,
    "visible_hands": _visible, "completed_tricks": _completed, "current_trick": _trick, "trick_suit": _suit,
    "legal_actions": _legal, "closing_trick": _one_trick,
}
"""How a view's value becomes JSON, for the fields that need it; the others are numbers, booleans,
``None`` or tuples of those, which the encoder writes as they are."""

_VALUES: Final = operator.attrgetter(*STATE_FIELDS)
_CONVERTERS: Final = tuple(_CONVERT.get(name) for name in STATE_FIELDS)

_OWN: Final = ("seat", "hand", "blind", "visible_hands", "bids", "has_bid", "legal_actions", "forbidden_bid",
               "can_change_bid")
# closing_trick is public: one object shared by every view of a telling, compared with the common fields.
"""The fields that differ from seat to seat; the others are usually the very same objects in
every view that :func:`~ohhell.views.seat_views` builds at once (which :class:`Broadcast` uses)."""
_COMMON: Final = tuple(name for name in STATE_FIELDS if name not in (*_OWN, "completed_tricks", "finished_hands"))
"""The other fields but two compared apart (tuples of dataclasses, whose comparison is Python code)."""
_OWN_VALUES: Final = operator.attrgetter(*_OWN)
_OWN_CONVERTERS: Final = tuple(_CONVERT.get(name) for name in _OWN)
_COMMON_VALUES: Final = operator.attrgetter(*_COMMON, "completed_tricks", "finished_hands")
_COMMON_CONVERTERS: Final = tuple(_CONVERT.get(name) for name in _COMMON)
_COMPLETED: Final = len(_COMMON)
_FINISHED: Final = len(_COMMON) + 1


def view_fields(view: SeatView, hands: HandCache) -> dict[str, Any]:
    """Every field of ``STATE_FIELDS`` of ``view``, as JSON (what a first ``state`` carries)."""
    out: dict[str, Any] = {}
    for name, value, convert in zip(STATE_FIELDS, _VALUES(view), _CONVERTERS, strict=True):
        out[name] = convert(value) if convert is not None else value
    out["finished_hands"] = hands.short(view)
    return out


def _changed(names: tuple[str, ...], converters: tuple[Callable[[Any], Any] | None, ...], old: tuple[Any, ...],
             new: tuple[Any, ...], out: dict[str, Any]) -> None:
    """Put in ``out`` the JSON of every value of ``new`` that differs from ``old`` (both tuples
    of the fields ``names``); the differing fields are found by C loops."""
    for index in itertools.compress(range(len(names)), map(operator.ne, new, old)):
        convert = converters[index]
        out[names[index]] = new[index] if convert is None else convert(new[index])


class Broadcast:
    """One telling of every connection of a table. Each message is built from the connection's
    own view; but where several views hold the very same objects (the public part, which
    :func:`~ohhell.views.seat_views` builds once), what changed there since the last telling is
    worked out once, not once per connection."""

    __slots__ = ("_changes", "_common", "hands", "table")

    def __init__(self, hands: HandCache, table: dict[str, Any]) -> None:
        self.hands = hands
        self.table = table
        self._common: list[tuple[Any, ...]] = []
        # Keyed by the ids of both tuples, each entry holding the old one (``_common`` holds the
        # new ones): no id is reused while this broadcast lasts.
        self._changes: dict[tuple[int, int], tuple[tuple[Any, ...], dict[str, Any]]] = {}

    def common(self, view: SeatView) -> tuple[Any, ...]:
        """The values of ``view``'s common fields, as a tuple shared by every view of this
        broadcast whose values are the very same objects."""
        values = _COMMON_VALUES(view)
        for found in self._common:
            if all(map(operator.is_, found, values)):
                return found
        self._common.append(values)
        return values

    def common_changes(self, old: tuple[Any, ...], new: tuple[Any, ...], view: SeatView) -> dict[str, Any]:
        """The JSON of the common fields that differ between ``old`` and ``new`` (``new`` being
        ``view``'s); the caller must not change it."""
        key = (id(old), id(new))
        entry = self._changes.get(key)
        if entry is None:
            found: dict[str, Any] = {}
            _changed(_COMMON, _COMMON_CONVERTERS, old[:_COMPLETED], new[:_COMPLETED], found)
            if old[_COMPLETED] is not new[_COMPLETED] and old[_COMPLETED] != new[_COMPLETED]:
                found["completed_tricks"] = _completed(new[_COMPLETED])
            if old[_FINISHED] != new[_FINISHED]:
                found["finished_hands"] = self.hands.short(view)
            entry = self._changes[key] = (old, found)
        return entry[1]


class StateStream:
    """What one connection was last told about the game, so that each ``state`` message carries
    only the fields that changed (the first one: every field).

    The values of a view are immutable (numbers, tuples, a fresh dict), so the last view's
    values are kept as they are and compared with the next view's.

    >>> import random
    >>> from ohhell.game import Game
    >>> from ohhell.rules import preset
    >>> from ohhell.views import seat_view
    >>> state = Game(preset("classic", players=3)).new_initial_state(first_dealer=0)
    >>> state.apply(state.sample_chance(random.Random(1))); state.apply(state.sample_chance(random.Random(1)))
    >>> stream, hands = StateStream(), HandCache()
    >>> first = stream.message(seat_view(state, 1), Broadcast(hands, {"status": "playing"}))
    >>> first["full"], len(first["changes"]["hand"]), first["changes"]["table"]
    (True, 10, {'status': 'playing'})
    >>> state.apply(state.legal_actions()[0])
    >>> sorted(stream.message(seat_view(state, 1), Broadcast(hands, {"status": "playing"}))["changes"])
    ['actors', 'bids', 'can_change_bid', 'has_bid', 'legal_actions', 'turn', 'version']
    """

    __slots__ = ("common", "own", "table")

    def __init__(self) -> None:
        self.common: tuple[Any, ...] | None = None
        self.own: tuple[Any, ...] = ()
        self.table: dict[str, Any] | None = None

    def message(self, view: SeatView, shared: Broadcast) -> dict[str, Any] | None:
        """The ``state`` message that brings this connection from what it was told to ``view``
        (and the table's ``shared.table``), or ``None`` if nothing changed."""
        common = shared.common(view)
        own = _OWN_VALUES(view)
        old = self.common
        if old is None:
            changes = view_fields(view, shared.hands)
        else:
            changes = dict(shared.common_changes(old, common, view)) if common is not old else {}
            _changed(_OWN, _OWN_CONVERTERS, self.own, own, changes)
        table = shared.table
        if table is not self.table and table != self.table:
            changes["table"] = table
        self.table = table
        if not changes:
            return None
        self.common, self.own = common, own
        return {"type": "state", "version": view.version, "full": old is None, "changes": changes}
