"""Provably fair deals: every card of a hand derived from a committed secret and the players' own randomness.

The cards of a hand come from the engine's chance actions (:meth:`ohhell.game.State.sample_chance`
draws them from a ``random.Random``): the draws of the cut for the first deal, the
:class:`~ohhell.actions.Shuffle` (an order of the whole deck) and the :class:`~ohhell.actions.Cut`.
Here they are derived, deterministically, from

* a **server seed**: 256 secret random bits, made fresh for the hand (scheme ``per-hand``) or
  once for a whole event (scheme ``per-event``: a duplicate event or the daily deal, where every
  table must get the same cards). Its **commitment**, the SHA-256 of the seed, is published
  before the deal; the seed itself is revealed after the hand (after the event);
* the **contributions** of the seated people (scheme ``per-hand``): 256 random bits each, sent by
  their own browser or terminal once the commitment is known and before the deal. A bot
  contributes nothing; a person who does not answer in time contributes nothing, and the record
  says which and why;
* the **scope** (the table's code, or the event's id) and the **hand index**, so that a seed
  cannot be replayed at another table or in another hand.

The derivation (docs/fairness.md has it with test vectors):

1. the message ``M`` is ASCII text, one ``key=value`` line each, every line ending in ``\\n``:
   ``ohhell fair deal 1``, ``scheme=…``, ``scope=…``, ``hand=…`` and, for ``per-hand``, one line
   ``seatS=…`` per seat in seat order with the seat's contribution in lower-case hex (empty
   when it gave none) — see :func:`deal_message`;
2. the random stream is ``HMAC-SHA-256(seed, M ‖ i)`` for ``i = 0, 1, 2, …`` (``i`` as 4 bytes,
   big-endian), the 32-byte blocks one after the other (:class:`DealStream`);
3. a whole number below ``n`` is the next 4 bytes of the stream read as a big-endian number
   ``x``, drawn again while ``x ≥ 2³² − (2³² mod n)`` (so every value is equally likely), then
   ``x mod n`` (:meth:`DealStream.below`);
4. at each chance node of the hand, in the order the game meets them:
   a draw of the cut for the deal takes the card at ``below(k)`` among the ``k`` cards that may be
   drawn (the deck without jokers, less the cards drawn before; in card order, ``2S 3S … AS 2H …
   AC``); the shuffle is Fisher–Yates over the deck in card order (``2S 3S … AS 2H … AH 2D … AD
   2C … AC X1 X2``, the cards the rules remove left out): for ``i`` from the last position down to
   1, swap positions ``i`` and ``below(i + 1)``; the cut takes ``1 + below(N − 1)`` cards from the
   top of the ``N``. The engine then deals one card at a time from the top, starting left of the
   dealer, and turns up the next card when the rules turn one.

>>> seed = bytes(range(32)).hex()
>>> commitment(seed)
'630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd'
>>> from ohhell.game import Game
>>> from ohhell.rules import preset
>>> state = Game(preset("classic", players=4)).new_initial_state(first_dealer=0)
>>> message = deal_message("per-hand", "TEST01", 0, ["11" * 32, None, None, None])
>>> [type(action).__name__ for action in chance_actions(state, seed, message)]
['Shuffle', 'Cut']

A table drives :class:`FairTable` (scheme ``per-hand``); a duplicate event or the daily deal
:class:`FairEvent` (scheme ``per-event``). Both give the chance actions with ``deal(state)`` and
add the record's ``fair`` entries (:class:`HandFairness`) with ``annotate(record, …)``.
:func:`verify_record` checks a record hand by hand (``ohhell verify``).
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Final

from ohhell.actions import Action, Cut, Shuffle
from ohhell.cards import Card, card_name, parse_card
from ohhell.errors import InvalidCardError, OhHellError, RecordError
from ohhell.game import Phase, State
from ohhell.i18n import _, ngettext
from ohhell.record import replay_hands

MESSAGE_TAG: Final = "ohhell fair deal 1"
"""The first line of every derivation message (the version of the derivation)."""
SEED_BYTES: Final = 32
"""A server seed: 256 random bits."""
CONTRIBUTION_BYTES: Final = 32
"""A player's contribution: 256 random bits."""
SCHEMES: Final = ("per-hand", "per-event", "per-event-pool")
"""``per-hand``: a fresh seed and the seated people's contributions for every hand;
``per-event``: one seed for every hand of every table of an event, no contributions (events and
daily deals made before the pool); ``per-event-pool``: one seed for every hand of every table of
an event and the pool of contributions its entrants sent before the event began."""
MAX_POOL: Final = 4096
"""The most contributions a ``per-event-pool`` entry may list (what a server takes in is less)."""
MAX_CONTRIBUTOR: Final = 64
"""The longest label of a pool's contributor (``contributors``, for events: ``TABLE:SEAT``)."""
NO_CONTRIBUTION_REASONS: Final = ("bot", "timeout", "away")
"""Why a seat gave no contribution: a bot plays it; the person did not answer in time; nobody
was there to ask (a stand-in bot played for a person who was away)."""
_SCOPE: Final = re.compile(r"[A-Za-z0-9][A-Za-z0-9._:-]{0,127}")
_HEX: Final = re.compile(r"[0-9a-f]*")


class FairnessError(OhHellError):
    """Fairness data that cannot be used, or a step taken out of order (a contribution after the
    deal, a reveal before the end of the hand). ``kind`` names the problem for programs."""

    def __init__(self, kind: str, message: str) -> None:
        self.kind = kind
        super().__init__(message)


# ------------------------------------------------------------------------------ the derivation


def new_seed() -> str:
    """A fresh server seed: 256 bits from the operating system's random source, as 64 hex digits."""
    return secrets.token_bytes(SEED_BYTES).hex()


def new_contribution() -> str:
    """A fresh contribution (what a client sends): 256 random bits as 64 hex digits."""
    return secrets.token_bytes(CONTRIBUTION_BYTES).hex()


def commitment(seed: str) -> str:
    """The commitment to a seed: the SHA-256 of its 32 bytes, as 64 lower-case hex digits."""
    return hashlib.sha256(_seed_bytes(seed)).hexdigest()


def deal_message(scheme: str, scope: str, hand: int, contributions: Sequence[str | None] = ()) -> bytes:
    """The message a hand's random stream is keyed on (see the module docstring).

    ``contributions`` is one entry per seat for the ``per-hand`` scheme (``None``: the seat gave
    none), empty for ``per-event``, and the pool (in any order: the message lists it sorted)
    for ``per-event-pool``.

    >>> print(deal_message("per-hand", "K7QX2M", 3, ["AB" * 32, None, None]).decode(), end="")
    ohhell fair deal 1
    scheme=per-hand
    scope=K7QX2M
    hand=3
    seat0=abababababababababababababababababababababababababababababababab
    seat1=
    seat2=
    >>> print(deal_message("per-event-pool", "club-night", 0, ["cd" * 32, "AB" * 32]).decode(), end="")
    ohhell fair deal 1
    scheme=per-event-pool
    scope=club-night
    hand=0
    event-contributions=2
    contribution=abababababababababababababababababababababababababababababababab
    contribution=cdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcd
    """
    _check_scheme(scheme)
    _check_scope(scope)
    if not isinstance(hand, int) or isinstance(hand, bool) or hand < 0:
        raise FairnessError("bad-data", _("the hand index must be a whole number of 0 or more, not %(hand)r")
                            % {"hand": hand})
    if scheme == "per-event" and contributions:
        raise FairnessError("bad-data", _("the per-event scheme takes no contributions"))
    lines = [MESSAGE_TAG, f"scheme={scheme}", f"scope={scope}", f"hand={hand}"]
    if scheme == "per-event-pool":
        pool = sorted(normalize_contribution(text) for text in contributions)
        lines.append(f"event-contributions={len(pool)}")
        lines.extend(f"contribution={text}" for text in pool)
    else:
        lines.extend(f"seat{seat}={'' if text is None else normalize_contribution(text)}"
                     for seat, text in enumerate(contributions))
    return "".join(line + "\n" for line in lines).encode("ascii")


class DealStream:
    """The random stream of one hand: ``HMAC-SHA-256(seed, message ‖ i)`` for ``i = 0, 1, …``.

    >>> stream = DealStream(bytes(32).hex(), b"x")
    >>> [stream.below(6) for _ in range(5)]
    [5, 3, 0, 5, 0]
    """

    def __init__(self, seed: str, message: bytes) -> None:
        self._keyed = hmac.new(_seed_bytes(seed), message, hashlib.sha256)
        self._counter = 0
        self._buffer = b""

    def read(self, count: int) -> bytes:
        """The next ``count`` bytes of the stream."""
        while len(self._buffer) < count:
            block = self._keyed.copy()
            block.update(self._counter.to_bytes(4, "big"))
            self._buffer += block.digest()
            self._counter += 1
        out, self._buffer = self._buffer[:count], self._buffer[count:]
        return out

    def below(self, bound: int) -> int:
        """A whole number from 0 to ``bound - 1``, each equally likely (rejection sampling)."""
        if not 0 < bound <= 1 << 32:
            raise ValueError(f"bound must be from 1 to 2**32, not {bound}")
        limit = (1 << 32) - (1 << 32) % bound
        while True:
            value = int.from_bytes(self.read(4), "big")
            if value < limit:
                return value % bound


def fisher_yates(cards: Sequence[Card], stream: DealStream) -> tuple[Card, ...]:
    """``cards`` shuffled: for ``i`` from the last position down to 1, swap ``i`` and ``below(i + 1)``."""
    order = list(cards)
    for index in range(len(order) - 1, 0, -1):
        other = stream.below(index + 1)
        order[index], order[other] = order[other], order[index]
    return tuple(order)


def chance_actions(state: State, seed: str, message: bytes) -> list[Action]:
    """The chance actions of a hand, derived from ``seed`` and ``message``: from ``state``, which
    must be at the hand's first chance node (before the shuffle; for the first hand of a game
    that cuts for the deal, before the first draw), until the players act. ``state`` is not
    changed; apply the actions in order."""
    if state.phase not in (Phase.SHUFFLE, Phase.CUT_FOR_DEAL) or (
            state.phase == Phase.CUT_FOR_DEAL and state.draws):
        raise FairnessError("wrong-time", _("a fair deal is derived from the start of a hand, before the shuffle"))
    if state.rules.real_cards:
        raise FairnessError("wrong-time", _("a hand played with real cards has no deal to derive"))
    stream = DealStream(seed, message)
    probe = state.clone()
    out: list[Action] = []
    while probe.is_chance_node():
        action: Action
        if probe.phase == Phase.CUT_FOR_DEAL:
            outcomes = probe.chance_outcomes()  # a draw for each card left, in card order
            action = outcomes[stream.below(len(outcomes))][0]
        elif probe.phase == Phase.SHUFFLE:
            action = Shuffle(fisher_yates(probe.game.deck, stream))
        else:
            action = Cut(1 + stream.below(len(probe.pack) - 1))
        probe.apply(action)
        out.append(action)
    return out


def _seed_bytes(seed: str) -> bytes:
    if not isinstance(seed, str) or len(seed) != 2 * SEED_BYTES or not _HEX.fullmatch(seed.lower()):
        raise FairnessError("bad-seed", _("a server seed is %(digits)d hex digits") % {"digits": 2 * SEED_BYTES})
    return bytes.fromhex(seed)


def normalize_contribution(text: Any) -> str:
    """A contribution in its canonical form (64 lower-case hex digits); :class:`FairnessError`
    (kind ``bad-contribution``) for anything else."""
    if not isinstance(text, str) or len(text) != 2 * CONTRIBUTION_BYTES or not _HEX.fullmatch(text.lower()):
        raise FairnessError("bad-contribution", _("a contribution is %(digits)d hex digits (%(bits)d random bits)")
                            % {"digits": 2 * CONTRIBUTION_BYTES, "bits": 8 * CONTRIBUTION_BYTES})
    return text.lower()


def _check_scheme(scheme: Any) -> None:
    if scheme not in SCHEMES:
        raise FairnessError("bad-data", _("the scheme must be per-hand, per-event or per-event-pool, not "
                                          "%(scheme)r") % {"scheme": scheme})


def _check_scope(scope: Any) -> None:
    if not isinstance(scope, str) or not _SCOPE.fullmatch(scope):
        raise FairnessError("bad-data", _("the scope must be a table code or an event id (letters, digits and "
                                          "._:-, at most 128), not %(scope)r") % {"scope": scope})


# ------------------------------------------------------------------------------ the record entry


@dataclass(frozen=True)
class HandFairness:
    """The ``fair`` object of one hand of a record (docs/record-format.md, "Provably fair deals").

    ``contributions`` and ``missing`` have one entry per seat under the ``per-hand`` scheme (a
    seat's contribution, or ``None`` and the reason in ``missing``) and are empty under
    ``per-event``. Under ``per-event-pool``, ``contributions`` is the event's pool in ascending
    order and ``contributors`` (when known: an event's, not the daily deal's) says whose each
    one is (``TABLE:SEAT``). ``seed`` is ``None`` until it is revealed.
    """

    scheme: str
    scope: str
    commitment: str
    contributions: tuple[str | None, ...] = ()
    missing: tuple[str | None, ...] = ()
    seed: str | None = None
    contributors: tuple[str, ...] | None = None

    def message(self, hand: int) -> bytes:
        """The derivation message of this entry for hand ``hand``."""
        return deal_message(self.scheme, self.scope, hand, self.contributions)

    def public(self) -> HandFairness:
        """The entry without the seed: what may be shown before the hand is over."""
        return replace(self, seed=None)

    def to_json(self) -> dict[str, Any]:
        """The record's ``fair`` object."""
        out: dict[str, Any] = {"scheme": self.scheme, "scope": self.scope, "commitment": self.commitment}
        if self.scheme == "per-hand":
            out["contributions"] = list(self.contributions)
            out["missing"] = list(self.missing)
        elif self.scheme == "per-event-pool":
            out["contributions"] = list(self.contributions)
            if self.contributors is not None:
                out["contributors"] = list(self.contributors)
        if self.seed is not None:
            out["seed"] = self.seed
        return out

    @classmethod
    def from_json(cls, data: Any, players: int) -> HandFairness:
        """The entry of a record's ``fair`` object; :class:`FairnessError` (kind ``bad-data``) with a
        message naming the field when it is malformed."""
        if not isinstance(data, Mapping):
            raise FairnessError("bad-data", _("the fairness data must be an object"))
        _check_scheme(data.get("scheme"))
        _check_scope(data.get("scope"))
        scheme, scope = data["scheme"], data["scope"]
        text = data.get("commitment")
        if not isinstance(text, str) or len(text) != 64 or not _HEX.fullmatch(text.lower()):
            raise FairnessError("bad-data", _("the commitment must be 64 hex digits"))
        text = text.lower()
        seed = data.get("seed")
        if seed is not None:
            _seed_bytes(seed)
            seed = seed.lower()
        contributions: tuple[str | None, ...] = ()
        missing: tuple[str | None, ...] = ()
        if scheme == "per-hand":
            given, reasons = data.get("contributions"), data.get("missing")
            if not isinstance(given, list) or not isinstance(reasons, list) or not (
                    len(given) == len(reasons) == players):
                raise FairnessError("bad-data", _("contributions and missing must be lists of %(n)d entries, one per "
                                                  "seat") % {"n": players})
            for seat, (value, reason) in enumerate(zip(given, reasons, strict=True)):
                if (value is None) == (reason is None):
                    raise FairnessError("bad-data", _("seat %(seat)d must have a contribution or a reason for "
                                                      "having none, not both") % {"seat": seat})
                if reason is not None and reason not in NO_CONTRIBUTION_REASONS:
                    raise FairnessError("bad-data", _("%(reason)r is not a reason for giving no contribution "
                                                      "(bot, timeout, away)") % {"reason": reason})
            contributions = tuple(None if value is None else normalize_contribution(value) for value in given)
            missing = tuple(reasons)
        elif scheme == "per-event-pool":
            pool, contributors = _read_pool(data)
            return cls(scheme, scope, text, pool, (), seed, contributors)
        elif "contributions" in data or "missing" in data:
            raise FairnessError("bad-data", _("the per-event scheme takes no contributions"))
        return cls(scheme, scope, text, contributions, missing, seed)


def _read_pool(data: Mapping[str, Any]) -> tuple[tuple[str, ...], tuple[str, ...] | None]:
    """The ``contributions`` (ascending) and ``contributors`` of a ``per-event-pool`` entry."""
    given = data.get("contributions")
    if not isinstance(given, list) or len(given) > MAX_POOL:
        raise FairnessError("bad-data", _("contributions must be a list of at most %(n)d contributions")
                            % {"n": MAX_POOL})
    pool = tuple(normalize_contribution(value) for value in given)
    if list(pool) != sorted(pool):
        raise FairnessError("bad-data", _("the contributions of an event's pool must be listed in ascending order"))
    if "missing" in data:
        raise FairnessError("bad-data", _("an event's pool has no missing list"))
    labels = data.get("contributors")
    if labels is None:
        return pool, None
    if not isinstance(labels, list) or len(labels) != len(pool) or not all(
            isinstance(label, str) and 0 < len(label) <= MAX_CONTRIBUTOR for label in labels):
        raise FairnessError("bad-data", _("contributors must be a list of labels, one per contribution"))
    return pool, tuple(labels)


def annotate(record: dict[str, Any], entries: Mapping[int, HandFairness]) -> dict[str, Any]:
    """``record`` with the ``fair`` object of each hand in ``entries`` (by hand index) set; the
    record is changed in place and returned. Hands the record does not list are left out."""
    hands = record.get("hands", [])
    for index, entry in entries.items():
        if 0 <= index < len(hands):
            hands[index]["fair"] = entry.to_json()
    return record


# ------------------------------------------------------------------------------ what the server drives


@dataclass
class _OpenHand:
    seed: str
    contributions: dict[int, str] = field(default_factory=dict)
    missing: dict[int, str] = field(default_factory=dict)
    dealt: bool = False


class FairTable:
    """The provably fair chance of one table: a fresh seed for every hand (scheme ``per-hand``).

    How a server drives it (the lead's ``ohhell/server/live/owner.py``)::

        fair = FairTable(table_code, players)   # with the table; store fair.to_json() (it holds secrets)

        # The game reaches a hand's first chance node (state.is_chance_node()):
        commitment = fair.open_hand(state, absent={seat: "bot" for seat in bot_seats})
        # ... send the commitment to every connection; each seated person's client answers with
        # new_contribution() (in the browser: 32 bytes of crypto.getRandomValues, as hex):
        fair.contribute(seat, text)        # FairnessError: refuse the message, with its text
        fair.waiting()                     # seats not heard from: deal when empty, or at a short timeout
        for action in fair.deal(state):    # seats still silent are recorded as "timeout"
            state.apply(action)            # store these actions as any chance action

        # Whenever a hand is over (it is in state.finished_hands):
        fair.entry(hand_index, state)      # its record entry with the seed: send it, store it
        fair.annotate(record, state)       # the record with every hand's "fair" object

    :meth:`open_hand` is idempotent (after a restart it gives the same commitment, the seed is
    never replaced once published) and :meth:`deal` gives the same actions for the same hand.
    Nothing this object shows before a hand is over tells anything about its cards: the
    commitment is a hash of 256 random bits, and contributions are useless without the seed.
    """

    def __init__(self, scope: str, players: int) -> None:
        _check_scope(scope)
        self.scope = scope
        self.players = players
        self._hands: dict[int, _OpenHand] = {}

    # -- before the deal

    def open_hand(self, state: State, absent: Mapping[int, str] | None = None) -> str:
        """Make the seed of the hand about to be dealt in ``state`` and return its commitment (to
        publish before the deal). ``absent`` names the seats that will not be asked and why
        (``"bot"``, ``"away"``). Calling it again for the same hand returns the same commitment."""
        hand = state.hand_index
        if state.phase not in (Phase.SHUFFLE, Phase.CUT_FOR_DEAL) or (
                state.phase == Phase.CUT_FOR_DEAL and state.draws):
            raise FairnessError("wrong-time", _("a hand is opened at its start, before the shuffle"))
        if state.num_players != self.players:
            raise FairnessError("bad-seat", ngettext("the game has %(players)d player, not %(n)d as this table",
                                                     "the game has %(players)d players, not %(n)d as this table",
                                                     state.num_players)
                                % {"n": self.players, "players": state.num_players})
        opened = self._hands.get(hand)
        if opened is None:
            opened = self._hands[hand] = _OpenHand(new_seed())
        if not opened.dealt:
            for seat, reason in (absent or {}).items():
                self.skip(seat, reason, hand)
        return commitment(opened.seed)

    def contribute(self, seat: int, text: Any, hand: int | None = None) -> None:
        """Take ``seat``'s contribution to the open hand (the latest opened when ``hand`` is not
        given); it replaces a reason given for the seat before (a person back in time).
        :class:`FairnessError` if it is not 64 hex digits, the seat has already given one, or
        the hand is dealt."""
        opened = self._open(hand)
        self._check_seat(seat)
        value = normalize_contribution(text)
        if seat in opened.contributions:
            raise FairnessError("already-contributed", _("seat %(seat)d has already contributed to this hand")
                                % {"seat": seat})
        opened.missing.pop(seat, None)
        opened.contributions[seat] = value

    def skip(self, seat: int, reason: str, hand: int | None = None) -> None:
        """Record that ``seat`` gives no contribution to the open hand, and why (``bot``,
        ``timeout``, ``away``). A seat that has already contributed keeps its contribution."""
        opened = self._open(hand)
        self._check_seat(seat)
        if reason not in NO_CONTRIBUTION_REASONS:
            raise FairnessError("bad-data", _("%(reason)r is not a reason for giving no contribution "
                                              "(bot, timeout, away)") % {"reason": reason})
        if seat not in opened.contributions:
            opened.missing[seat] = reason

    def waiting(self, hand: int | None = None) -> tuple[int, ...]:
        """The seats whose contribution or reason is still to come for the open hand."""
        opened = self._open(hand, dealt_ok=True)
        if opened.dealt:
            return ()
        return tuple(seat for seat in range(self.players)
                     if seat not in opened.contributions and seat not in opened.missing)

    # -- the deal

    def deal(self, state: State) -> list[Action]:
        """The chance actions of the hand about to be dealt in ``state`` (opened before), from its
        seed and the contributions in so far; the seats still silent are recorded as
        ``timeout``. The contributions are closed from now on."""
        opened = self._hands.get(state.hand_index)
        if opened is None:
            raise FairnessError("not-open", _("hand %(hand)d was not opened: publish its commitment first")
                                % {"hand": state.hand_index})
        entry = self._entry(state.hand_index, opened)  # the silent seats count as timed out
        actions = chance_actions(state, opened.seed, entry.message(state.hand_index))
        for seat in self.waiting(state.hand_index):
            opened.missing[seat] = "timeout"
        opened.dealt = True
        return actions

    # -- after the hand

    def entry(self, hand: int, state: State) -> HandFairness:
        """The record entry of ``hand``: with its seed once the hand is over in ``state`` (it is
        among ``state.finished_hands``), else without (what everyone may see during the hand)."""
        opened = self._hands.get(hand)
        if opened is None or not opened.dealt:
            raise FairnessError("not-dealt", _("hand %(hand)d has not been dealt") % {"hand": hand})
        made = self._entry(hand, opened)
        return made if hand < len(state.finished_hands) else made.public()

    def entries(self, state: State) -> dict[int, HandFairness]:
        """The entries of every hand dealt so far, by hand index (:meth:`entry`)."""
        return {hand: self.entry(hand, state) for hand, opened in sorted(self._hands.items()) if opened.dealt}

    def annotate(self, record: dict[str, Any], state: State) -> dict[str, Any]:
        """``record`` (of ``state``'s game) with the ``fair`` object of every dealt hand it lists."""
        return annotate(record, self.entries(state))

    # -- keeping it

    def to_json(self) -> dict[str, Any]:
        """Everything, seeds included, to store on the server side only (never send it)."""
        return {"scope": self.scope, "players": self.players, "hands": {
            str(hand): {"seed": opened.seed, "contributions": {str(s): v for s, v in opened.contributions.items()},
                        "missing": {str(s): r for s, r in opened.missing.items()}, "dealt": opened.dealt}
            for hand, opened in self._hands.items()}}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> FairTable:
        """The table of :meth:`to_json`."""
        table = cls(data["scope"], int(data["players"]))
        for hand, saved in data["hands"].items():
            _seed_bytes(saved["seed"])
            table._hands[int(hand)] = _OpenHand(
                saved["seed"], {int(s): normalize_contribution(v) for s, v in saved["contributions"].items()},
                {int(s): str(r) for s, r in saved["missing"].items()}, bool(saved["dealt"]))
        return table

    # -- helpers

    def _open(self, hand: int | None, dealt_ok: bool = False) -> _OpenHand:
        if hand is None:
            if not self._hands:
                raise FairnessError("not-open", _("no hand is open for contributions"))
            hand = max(self._hands)
        opened = self._hands.get(hand)
        if opened is None:
            raise FairnessError("not-open", _("hand %(hand)d was not opened: publish its commitment first")
                                % {"hand": hand})
        if opened.dealt and not dealt_ok:
            raise FairnessError("closed", _("hand %(hand)d is already dealt: it takes no more contributions")
                                % {"hand": hand})
        return opened

    def _check_seat(self, seat: Any) -> None:
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < self.players:
            raise FairnessError("bad-seat", _("there is no seat %(seat)r") % {"seat": seat})

    def _entry(self, hand: int, opened: _OpenHand) -> HandFairness:
        seats = range(self.players)
        return HandFairness("per-hand", self.scope, commitment(opened.seed),
                            tuple(opened.contributions.get(seat) for seat in seats),
                            tuple(None if seat in opened.contributions else opened.missing.get(seat, "timeout")
                                  for seat in seats),
                            opened.seed)


class FairEvent:
    """One committed seed for every hand of every table of an event: a duplicate event or the
    daily deal, where every table must get the same cards. With a ``pool`` (scheme
    ``per-event-pool``) the deals derive from the seed *and* the contributions the event's
    entrants sent before it began; without (scheme ``per-event``, events made before the pool)
    from the seed alone.

    How the events code uses it::

        event = FairEvent(event_id)              # when the event is created; store event.to_json()
        event.commitment                         # publish it at once, before any table plays
        # ... entrants send contributions; they close when the first table deals:
        event = FairEvent(event_id, seed, pool=values, contributors=labels)
        for action in event.deal(state):         # at each table, at each hand's first chance node
            state.apply(action)
        event.annotate(record, revealed=False)   # a table's record while the event runs (no seed)
        event.annotate(record, revealed=True)    # once every table has finished: the seed revealed

    The seed may be revealed only when no table of the event will play again: until then it
    tells every card of every hand still to be played.

    >>> plain = FairEvent("club-night", "00" * 32)
    >>> pooled = FairEvent("club-night", "00" * 32, pool=["11" * 32], contributors=["0:1"])
    >>> plain.commitment == pooled.commitment, plain.scheme, pooled.scheme
    (True, 'per-event', 'per-event-pool')
    """

    def __init__(self, event_id: str, seed: str | None = None, pool: Sequence[str] | None = None,
                 contributors: Sequence[str] | None = None) -> None:
        _check_scope(event_id)
        self.event_id = event_id
        self._seed = seed.lower() if seed is not None else new_seed()
        _seed_bytes(self._seed)
        self.pool: tuple[str, ...] | None = None
        """The contributions, ascending (``None``: the ``per-event`` scheme)."""
        self.contributors: tuple[str, ...] | None = None
        if pool is not None:
            if contributors is not None and len(contributors) != len(pool):
                raise FairnessError("bad-data", _("contributors must be a list of labels, one per contribution"))
            pairs = sorted(zip((normalize_contribution(value) for value in pool),
                               contributors if contributors is not None else [""] * len(pool), strict=True))
            self.pool = tuple(value for value, _label in pairs)
            self.contributors = tuple(label for _value, label in pairs) if contributors is not None else None

    @property
    def scheme(self) -> str:
        return "per-event" if self.pool is None else "per-event-pool"

    @property
    def commitment(self) -> str:
        """The commitment to publish when the event is created."""
        return commitment(self._seed)

    def deal(self, state: State) -> list[Action]:
        """The chance actions of the hand about to be dealt in ``state`` (the same at every table)."""
        return chance_actions(state, self._seed, self.entry(True).message(state.hand_index))

    def entry(self, revealed: bool) -> HandFairness:
        """The ``fair`` entry of any hand of the event; with the seed only when ``revealed``."""
        made = HandFairness(self.scheme, self.event_id, self.commitment, self.pool or (), seed=self._seed,
                            contributors=self.contributors)
        return made if revealed else made.public()

    def annotate(self, record: dict[str, Any], revealed: bool) -> dict[str, Any]:
        """``record`` (a table's game in the event) with the ``fair`` object of every hand."""
        entry = self.entry(revealed)
        return annotate(record, dict.fromkeys(range(len(record.get("hands", []))), entry))

    def to_json(self) -> dict[str, Any]:
        """The event's seed and id (and pool), to store on the server side only."""
        out: dict[str, Any] = {"event": self.event_id, "seed": self._seed}
        if self.pool is not None:
            out["pool"] = list(self.pool)
            if self.contributors is not None:
                out["contributors"] = list(self.contributors)
        return out

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> FairEvent:
        return cls(data["event"], data["seed"], data.get("pool"), data.get("contributors"))


# ------------------------------------------------------------------------------ verification

VERDICTS: Final = (
    "verified", "no-fairness-data", "bad-fairness-data", "not-revealed", "commitment-mismatch", "scope-mismatch",
    "seed-reused", "cut-mismatch", "deal-mismatch", "trump-mismatch", "no-deal", "record-error", "not-checked",
)
"""Every verdict :func:`verify_record` gives a hand; only ``verified`` is a pass."""


@dataclass(frozen=True)
class HandVerdict:
    """What :func:`verify_record` found for one hand. ``fairness`` is the hand's ``fair`` object
    when it could be read; ``details`` says where a deal differs (``seat``, ``index``,
    ``record``, ``derived``), or which hand a seed served before (``other``)."""

    hand: int
    verdict: str
    message: str
    fairness: HandFairness | None = None
    details: Mapping[str, Any] = field(default_factory=dict)

    @property
    def verified(self) -> bool:
        return self.verdict == "verified"

    @property
    def scheme(self) -> str | None:
        return self.fairness.scheme if self.fairness else None

    @property
    def scope(self) -> str | None:
        return self.fairness.scope if self.fairness else None

    def to_json(self) -> dict[str, Any]:
        """One hand of ``ohhell verify --json``: the verdict, the fairness data read (so that a
        player can compare the contribution their device sent) and the details."""
        out: dict[str, Any] = {"hand": self.hand, "verified": self.verified, "verdict": self.verdict,
                               "message": self.message, "scheme": self.scheme, "scope": self.scope}
        if self.fairness is not None:
            out["fair"] = self.fairness.to_json()
        out.update(self.details)
        return out


def verify_record(data: Any, scope: str | None = None) -> list[HandVerdict]:
    """Recompute every deal of a record from its revealed seeds and contributions; one verdict
    per hand the record lists. With ``scope``, every hand must name it (the table code or the
    event id the reader knows); without, every hand must name the same scope as the first.

    A record whose format, rules or first dealer cannot be read raises
    :class:`~ohhell.errors.RecordError`, as ``ohhell replay`` reports it. A rule broken in a
    hand makes that hand ``record-error`` (unless its deal already differs) and the later hands
    ``not-checked``: they cannot be replayed.
    """
    return _Verifier(data, scope).run()


class _Verifier:
    def __init__(self, data: Any, scope: str | None) -> None:
        self.data = data
        self.scope = scope
        self.seeds: dict[str, int] = {}
        """The hand each per-hand seed dealt first."""

    def run(self) -> list[HandVerdict]:
        verdicts: list[HandVerdict] = []
        try:
            for index, state in replay_hands(self.data):
                verdicts.append(self.hand(index, state, self.data["hands"][index]))
        except RecordError as error:
            if not verdicts:
                raise
            broken = error.hand if error.hand is not None else 0  # no hand: the cut for the first deal
            if verdicts[-1].hand == broken and verdicts[-1].verified:
                last = verdicts.pop()
                reason = _("not verified: the record breaks a rule or the format: %(error)s") % {"error": error.message}
                verdicts.append(HandVerdict(broken, "record-error", reason, last.fairness,
                                            {"kind": error.kind, "index": error.index}))
            for later in range(len(verdicts), len(self.data["hands"])):
                verdicts.append(HandVerdict(later, "not-checked", _("not checked: hand %(hand)d could not be "
                                                                    "replayed") % {"hand": broken}))
        return verdicts

    def hand(self, index: int, state: State, hand: Any) -> HandVerdict:
        def verdict(kind: str, message: str, entry: HandFairness | None = None, **details: Any) -> HandVerdict:
            return HandVerdict(index, kind, message, entry, details)

        raw = hand.get("fair") if isinstance(hand, Mapping) else None
        if raw is None:
            return verdict("no-fairness-data", _("not verified: the record has no fairness data for this hand"))
        try:
            entry = HandFairness.from_json(raw, state.num_players)
        except FairnessError as error:
            return verdict("bad-fairness-data", _("not verified: the fairness data is malformed: %(error)s")
                           % {"error": error})
        if not isinstance(hand, Mapping) or "deal" not in hand:
            return verdict("no-deal", _("not verified: the hand was played with real cards; there is no deal to "
                                        "check"), entry)
        if entry.seed is None:
            return verdict("not-revealed", _("not verified: the server seed of this hand has not been revealed "
                                             "yet"), entry)
        if not hmac.compare_digest(commitment(entry.seed), entry.commitment):
            return verdict("commitment-mismatch", _("not verified: the commitment does not match the revealed seed "
                                                    "(it is not the seed promised before the deal)"), entry)
        if self.scope is None:
            self.scope = entry.scope
        if entry.scope != self.scope:
            return verdict("scope-mismatch", _("not verified: the fairness data names %(scope)s, not %(expected)s")
                           % {"scope": entry.scope, "expected": self.scope}, entry)
        if entry.scheme == "per-hand":
            earlier = self.seeds.setdefault(entry.seed, index)
            if earlier != index:
                return verdict("seed-reused", _("not verified: the same server seed dealt hand %(other)d, where it "
                                                "was revealed, so this deal could be foreseen") % {"other": earlier},
                               entry, other=earlier)
        probe = state.clone()
        for action in chance_actions(state, entry.seed, entry.message(index)):
            probe.apply(action)
        if state.phase == Phase.CUT_FOR_DEAL:
            cut = _cut_difference(probe.draws, self.data.get("cut"))
            if cut is not None:
                position, recorded, derived = cut
                return verdict("cut-mismatch", _("not verified: draw %(index)d of the cut for the first deal is "
                                                 "%(record)s in the record, but %(derived)s by the derivation")
                               % {"index": position, "record": recorded, "derived": derived}, entry,
                               index=position, record=recorded, derived=derived)
        assert probe.deal is not None
        difference = _deal_difference(probe.deal, hand.get("deal"))
        if difference is not None:
            seat, position, recorded, derived = difference
            return verdict("deal-mismatch", _("not verified: the deal differs from the derivation: card %(index)d of "
                                              "seat %(seat)d is %(record)s in the record, but %(derived)s by the "
                                              "derivation")
                           % {"seat": seat, "index": position, "record": recorded, "derived": derived}, entry,
                           seat=seat, index=position, record=recorded, derived=derived)
        recorded_trump = _card_text(hand.get("trump"))
        derived_trump = card_name(probe.turn_up) if probe.turn_up is not None else None
        if recorded_trump != derived_trump:
            return verdict("trump-mismatch", _("not verified: the turned-up card is %(record)s in the record, but "
                                               "%(derived)s by the derivation")
                           % {"record": recorded_trump or _("none"), "derived": derived_trump or _("none")}, entry,
                           record=recorded_trump, derived=derived_trump)
        if entry.scheme == "per-hand":
            given = sum(value is not None for value in entry.contributions)
            return verdict("verified", ngettext("verified: the revealed seed matches its commitment and, with "
                                                "%(given)d of %(n)d contribution, gives exactly this deal",
                                                "verified: the revealed seed matches its commitment and, with "
                                                "%(given)d of %(n)d contributions, gives exactly this deal",
                                                state.num_players)
                           % {"given": given, "n": state.num_players}, entry)
        if entry.scheme == "per-event-pool":
            if not entry.contributions:
                return verdict("verified", _("verified: the revealed seed matches its commitment and gives exactly "
                                             "this deal; but nobody contributed to this event's pool, so the server "
                                             "alone chose the seed"), entry)
            given = len(entry.contributions)
            return verdict("verified", ngettext("verified: the revealed seed matches its commitment and, with the "
                                                "%(given)d contribution sent before the event began, gives exactly "
                                                "this deal",
                                                "verified: the revealed seed matches its commitment and, with the "
                                                "%(given)d contributions sent before the event began, gives exactly "
                                                "this deal", given) % {"given": given}, entry)
        return verdict("verified", _("verified: the revealed seed matches its commitment and gives exactly this "
                                     "deal (one seed for the whole event, no contributions: the server alone chose "
                                     "it)"), entry)


def _card_text(text: Any) -> str | None:
    """A card of the record in canonical notation (the text itself when it is not a card)."""
    if text is None:
        return None
    try:
        return card_name(parse_card(text))
    except (InvalidCardError, TypeError):
        return str(text)


def _cut_difference(draws: Sequence[tuple[int, Card]], cut: Any) -> tuple[int, str, str] | None:
    recorded = list(cut) if isinstance(cut, list) else []
    for position in range(max(len(draws), len(recorded))):
        derived = f"{draws[position][0]}:{card_name(draws[position][1])}" if position < len(draws) else "-"
        given = "-"
        if position < len(recorded):
            pair = recorded[position]
            given = (f"{pair[0]}:{_card_text(pair[1])}" if isinstance(pair, list) and len(pair) == 2 else str(pair))
        if given != derived:
            return position, given, derived
    return None


def _deal_difference(derived: Sequence[Sequence[Card]], recorded: Any) -> tuple[int, int, str, str] | None:
    rows: list[Any] = list(recorded) if isinstance(recorded, list) else []
    for seat in range(max(len(derived), len(rows))):
        mine = [card_name(card) for card in derived[seat]] if seat < len(derived) else []
        theirs = [_card_text(text) for text in rows[seat]] if seat < len(rows) and isinstance(rows[seat], list) else []
        for position in range(max(len(mine), len(theirs))):
            expected = mine[position] if position < len(mine) else "-"
            given = theirs[position] if position < len(theirs) else "-"
            if expected != given:
                return seat, position, str(given), expected
    return None


def verified_count(verdicts: Iterable[HandVerdict]) -> int:
    """How many hands were verified."""
    return sum(verdict.verified for verdict in verdicts)


__all__ = [
    "CONTRIBUTION_BYTES", "MESSAGE_TAG", "NO_CONTRIBUTION_REASONS", "SCHEMES", "SEED_BYTES", "VERDICTS",
    "DealStream", "FairEvent", "FairTable", "FairnessError", "HandFairness", "HandVerdict", "annotate",
    "chance_actions", "commitment", "deal_message", "fisher_yates", "new_contribution", "new_seed",
    "normalize_contribution", "verified_count", "verify_record",
]
