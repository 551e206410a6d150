"""The JSON messages of the WebSocket protocol (``docs/protocol.md``).

Clients send small JSON objects with a ``type``; :func:`parse_client_message` checks them
(size, JSON, type, fields) and raises :class:`ProtocolError` with a stable ``code`` for
anything wrong, so the caller can answer with an ``error`` message and change nothing.

What the server sends about a game is built from a seat's :class:`~ohhell.views.SeatView`
(or the spectator's) by :func:`view_fields`; nothing else about the game's hidden state is
ever read here. Successive messages to one connection carry only the fields that changed
(:func:`changed_fields`), each with the game's ``version``.

>>> parse_client_message('{"type": "act", "version": 3, "action": {"type": "bid", "bid": 2}}', 4096).kind
'act'
>>> parse_client_message('{"type": "act"', 4096)
Traceback (most recent call last):
...
ohhell.server.protocol.ProtocolError: malformed
>>> parse_client_message("x" * 5000, 4096).kind
Traceback (most recent call last):
...
ohhell.server.protocol.ProtocolError: too-large
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

from ohhell.actions import Action, Bid, Declare, InvalidActionError, Play, action_from_json, action_to_json
from ohhell.cards import card_name, suit_letter
from ohhell.i18n import N_, translations
from ohhell.views import HandSummary, SeatView

PROTOCOL: Final = "ohhell-ws/1"
"""The protocol's name and version, sent in ``welcome``."""

CLIENT_TYPES: Final = ("hello", "act", "hint", "start", "back", "history", "ping")
"""The message types a client may send."""

PLAYER_ACTIONS: Final = ("bid", "play", "declare")
"""The actions a seat may send; chance and scoresheet actions are the server's."""

ERRORS: Final[dict[str, str]] = {
    "malformed": N_("That message is not valid JSON of the protocol."),
    "too-large": N_("That message is too large."),
    "unknown-type": N_("The server does not know that kind of message."),
    "bad-field": N_("A field of that message is missing or wrong."),
    "hello-first": N_("Say hello first: the first message must be a hello."),
    "no-such-table": N_("There is no table with that code."),
    "bad-token": N_("That seat token is not valid for this table."),
    "spectator": N_("Spectators cannot act."),
    "not-your-seat": N_("You can only act for your own seat."),
    "not-started": N_("The game has not started yet."),
    "game-over": N_("The game is over."),
    "stale": N_("The game has moved on since you acted; look again."),
    "duplicate": N_("That message was already received."),
    "out-of-turn": N_("It is not your turn."),
    "not-allowed": N_("Players may bid, play and declare; nothing else."),
    "illegal": N_("That is not allowed now."),
    "not-host": N_("Only the player who created the table may do that."),
    "rate-limited": N_("Too many messages; slow down."),
    "storage": N_("The server could not save that action; try again."),
    "no-hint": N_("There is nothing to suggest now."),
    "full": N_("Too many people are connected to this table."),
}
"""Every error code the server sends, with the text a person reads (translated per connection)."""


class ProtocolError(ValueError):
    """A client message that is answered with an ``error`` and changes nothing."""

    def __init__(self, code: str, detail: str | None = None, message_id: Any = None) -> None:
        assert code in ERRORS, code
        self.code = code
        self.detail = detail
        self.message_id = message_id
        super().__init__(code)


@dataclass(frozen=True)
class ClientMessage:
    """A checked client message."""

    kind: str
    data: Mapping[str, Any]
    message_id: Any = None

    @property
    def version(self) -> int | None:
        value = self.data.get("version")
        return value if isinstance(value, int) and not isinstance(value, bool) else None


def parse_client_message(text: str | bytes, limit: int) -> ClientMessage:
    """Check one client message; raise :class:`ProtocolError` if it is oversized, not JSON,
    or not a message of the protocol."""
    if len(text) > limit:
        raise ProtocolError("too-large")
    try:
        data = json.loads(text)
    except (ValueError, RecursionError) as error:
        raise ProtocolError("malformed") from error
    if not isinstance(data, dict):
        raise ProtocolError("malformed")
    message_id = data.get("id")
    if message_id is not None and not (isinstance(message_id, (int, str)) and len(str(message_id)) <= 64):
        raise ProtocolError("bad-field", "id")
    kind = data.get("type")
    if kind not in CLIENT_TYPES:
        raise ProtocolError("unknown-type", message_id=message_id)
    version = data.get("version")
    if version is not None and (not isinstance(version, int) or isinstance(version, bool)):
        raise ProtocolError("bad-field", "version", message_id)
    if kind == "hello":
        for key in ("table", "token", "lang"):
            value = data.get(key)
            if value is not None and not (isinstance(value, str) and len(value) <= 200):
                raise ProtocolError("bad-field", key, message_id)
        if not isinstance(data.get("table"), str):
            raise ProtocolError("bad-field", "table", message_id)
    if kind == "act":
        if version is None:
            raise ProtocolError("bad-field", "version", message_id)
        if not isinstance(data.get("action"), dict):
            raise ProtocolError("bad-field", "action", message_id)
    return ClientMessage(kind, data, message_id)


def parse_player_action(data: Mapping[str, Any], seat: int, message_id: Any = None) -> Action:
    """The action a seat sends (its ``seat`` field, if any, must be its own)."""
    kind = data.get("type")
    if kind not in PLAYER_ACTIONS:
        raise ProtocolError("not-allowed", message_id=message_id)
    if "seat" in data and data["seat"] != seat:
        raise ProtocolError("not-your-seat", message_id=message_id)
    try:
        action = action_from_json({**data, "seat": seat})
    except (InvalidActionError, ValueError) as error:
        raise ProtocolError("bad-field", "action", message_id) from error
    assert isinstance(action, (Bid, Play, Declare))
    return action


def error_message(code: str, language: str, detail: str | None = None, message_id: Any = None,
                  version: int | None = None) -> dict[str, Any]:
    """The ``error`` message for ``code`` in ``language`` (``detail``: a translated engine message)."""
    out: dict[str, Any] = {"type": "error", "code": code,
                           "message": translations(language).gettext(ERRORS[code])}
    if detail:
        out["detail"] = detail
    if message_id is not None:
        out["id"] = message_id
    if version is not None:
        out["version"] = version
    return out


def dumps(message: Mapping[str, Any]) -> str:
    """Compact JSON text of a message."""
    return json.dumps(message, ensure_ascii=False, separators=(",", ":"))


# ----------------------------------------------------------------------- building from views


_NAMES: Final = tuple(card_name(card) for card in range(54)) + ("??",)
"""Card names by card number; index -1 (a face-down card) is ``??``."""


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
    """A finished hand of a view as JSON (``plays``: with every card played, for the history)."""
    out: dict[str, Any] = {
        "index": hand.index, "dealer": hand.dealer, "size": hand.size, "trump": _suit(hand.trump),
        "turn_up": card_name(hand.turn_up) if hand.turn_up is not None else None,
        "bids": list(hand.bids), "tricks": list(hand.tricks), "scores": list(hand.scores),
        "totals": list(hand.totals),
    }
    if plays:
        out["plays"] = _trick(hand.plays) if hand.plays is not None else None
    return out


class HandCache:
    """The JSON of finished hands, made once per table: they are public and never change."""

    def __init__(self) -> None:
        self._short: list[dict[str, Any]] = []
        self._full: list[dict[str, Any]] = []

    def _extend(self, hands: tuple[HandSummary, ...]) -> None:
        # New lists, never extended in place: a connection's last snapshot may hold the old one
        # and must still compare unequal to the new one.
        new = hands[len(self._short):]
        self._short = self._short + [hand_summary_json(hand, plays=False) for hand in new]
        self._full = self._full + [hand_summary_json(hand, plays=True) for hand in new]

    def short(self, view: SeatView) -> list[dict[str, Any]]:
        """The finished hands of ``view`` without their cards (the score sheet)."""
        if len(self._short) != len(view.finished_hands):
            if len(self._short) > len(view.finished_hands):  # a table rebuilt from its log
                self._short, self._full = [], []
            self._extend(view.finished_hands)
        return self._short

    def full(self, view: SeatView) -> list[dict[str, Any]]:
        """The finished hands of ``view`` with every card played (the history)."""
        self.short(view)
        return self._full


def view_fields(view: SeatView, hands: HandCache) -> dict[str, Any]:
    """What a connection is told about the game: the fields of ``view`` (as
    :meth:`SeatView.to_json` names them) but the rules, which ``welcome`` carries once, and
    finished hands without their cards (the ``history`` message has those)."""
    return {
        "version": view.version,
        "seat": view.seat,
        "phase": view.phase.name.lower(),
        "hand_index": view.hand_index,
        "hand_count": view.hand_count,
        "dealer": view.dealer,
        "first_dealer": view.first_dealer,
        "draws": _trick(view.draws),
        "hand_size": view.hand_size,
        "dealt": view.dealt,
        "trump": _suit(view.trump),
        "turn_up": _NAMES[view.turn_up] if view.turn_up is not None else None,
        "hand": _cards(view.hand),
        "blind": view.blind,
        "visible_hands": {str(seat): _cards(cards) for seat, cards in view.visible_hands.items()},
        "hand_counts": list(view.hand_counts),
        "bid_order": list(view.bid_order),
        "bids": list(view.bids),
        "has_bid": list(view.has_bid),
        "bidding_complete": view.bidding_complete,
        "tricks_won": list(view.tricks_won),
        "completed_tricks": [{"leader": t.leader, "cards": _trick(t.cards), "winner": t.winner}
                             for t in view.completed_tricks],
        "current_trick": _trick(view.current_trick),
        "trick_suit": _suit(view.trick_suit),
        "joker_high": view.joker_high,
        "turn": view.turn,
        "actors": list(view.actors),
        "legal_actions": [_action_json(action) for action in view.legal_actions],
        "forbidden_bid": view.forbidden_bid,
        "can_change_bid": view.can_change_bid,
        "totals": list(view.totals),
        "finished_hands": hands.short(view),
        "game_over": view.game_over,
        "winners": list(view.winners),
    }


def changed_fields(previous: Mapping[str, Any] | None, current: Mapping[str, Any]) -> dict[str, Any]:
    """The fields of ``current`` that differ from ``previous`` (all of them without one).

    >>> changed_fields({"a": 1, "b": [1]}, {"a": 1, "b": [1, 2]})
    {'b': [1, 2]}
    """
    if previous is None:
        return dict(current)
    return {key: value for key, value in current.items() if previous.get(key) != value}
