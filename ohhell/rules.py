"""The rules of a game as one frozen value: every knob of docs/rules.md, and the presets.

A :class:`Rules` value says everything that differs between Oh Hell variants:
the deck, the schedule of hand sizes, how trump is chosen, how bids are made,
how cards are played and how hands are scored. Every knob defaults to the
``classic`` profile (docs/rules.md, section 1). Presets are named bundles of knobs:

>>> rules = preset("classic", players=4)
>>> [plan.size for plan in rules.hand_plans()][:4], rules.schedule_length()
([10, 9, 8, 7], 19)
>>> preset("la-podrida", players=5).must_trump
True
>>> Rules(players=7, max_size=10)
Traceback (most recent call last):
...
ohhell.errors.RulesError: max_size: hands of 10 cards for 7 players need 70 cards, but the deck has 52

A combination that cannot be played is refused with a :class:`~ohhell.errors.RulesError`
that names the knob to change. Records store rules as a preset name, the
number of players and the knobs that differ from the preset (:meth:`Rules.to_json`).
"""

from __future__ import annotations

import dataclasses
import json
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Final, Literal, get_args

from ohhell.cards import (
    JOKERS_MASK,
    SEVEN,
    SMALL_THIRTEEN_MASK,
    SPANISH_REMOVED_MASK,
    TWO,
    TWOS_MASK,
    CardMask,
    second_copies,
    standard_deck_mask,
)
from ohhell.errors import RulesError
from ohhell.i18n import N_, _, ngettext

DeckKind = Literal["52", "32", "54", "39", "40"]
ScheduleKind = Literal["down-up", "up", "down", "up-down", "constant", "explicit"]
MaxSize = Literal["classic", "river", "deck"]
TurningPoint = Literal["once", "twice"]
TrumpKind = Literal["turn-up", "turn-up-low-none", "rotation", "fixed", "none", "chosen"]
BiddingKind = Literal["in-turn", "simultaneous"]
FirstLead = Literal["left-of-dealer", "dealer"]
ScoringKind = Literal[
    "exact", "trick-plus-bonus", "german-bridge", "7-truf", "boerenbridge", "triangular-penalty"
]
ZeroBid = Literal["standard", "5", "5-plus-size"]
JokerRules = Literal["own-suit", "high-low"]

HAND_TRUMPS: Final = ("turn-up", "turn-up-low-none", "none", "S", "H", "D", "C", "chosen")
"""How the trump of one hand is found: a turned card (``turn-up``; with
``turn-up-low-none`` a turned 2–6 means no trump), no trump, a fixed suit, or the highest
bidder's choice after the bidding (``chosen``, Al Okuneff's rule)."""

ROTATION_STEPS: Final = ("S", "H", "D", "C", "NT")

MIN_PLAYERS: Final = 3
MIN_PLAYERS_WITH_BOWERS: Final = 2
"""Two players may play with bowers (Jack Marrows' two-player program, seed 003)."""
MAX_PLAYERS: Final = 7
MAX_PLAYERS_REAL_CARDS: Final = 10
SECOND_PACK_CARDS: Final = {5: 13, 6: 26}
"""The small cards of a second pack that Bust adds for each player count (seed 003): 13 with 5
players (65 cards), 26 with 6 (78: the lower half of the pack doubled); with other counts none."""


@dataclass(frozen=True)
class HandPlan:
    """One hand of the schedule: how many cards each player gets, and how trump is found.

    ``trump`` is one of :data:`HAND_TRUMPS`.

    >>> HandPlan(3, "H")
    HandPlan(size=3, trump='H')
    """

    size: int
    trump: str = "turn-up"

    def __post_init__(self) -> None:
        if not isinstance(self.size, int) or isinstance(self.size, bool) or self.size < 1:
            raise RulesError("hands", _("a hand size must be a whole number of at least 1, not %(value)r")
                            % {"value": self.size})
        if self.trump not in HAND_TRUMPS:
            raise RulesError("hands", _("a hand's trump must be one of %(choices)s, not %(value)r")
                            % {"choices": ", ".join(HAND_TRUMPS), "value": self.trump})

    def to_json(self) -> list[Any]:
        return [self.size, self.trump]


@dataclass(frozen=True)
class Rules:
    """Every knob of a game of Oh Hell. Defaults are the ``classic`` profile.

    Deck
      ``deck``: ``"52"`` standard cards; ``"32"`` (A K Q J 10 9 8 7 of each suit);
      ``"54"`` (52 and two jokers ``X1``, ``X2``); ``"39"`` (52 without the 13 smallest:
      the 2s, 3s, 4s and the 5♠, for 3 players); ``"40"`` (the Spanish pack: A K Q J 7 6 5 4 3 2
      of each suit, ranked so).
      ``remove_twos_with``: the player counts for which the four 2s are taken out.
      ``second_pack``: Bust (seed 003): with 5 players the 13 smallest cards of a second pack
      are added (65 cards), with 6 players the 26 smallest (78); of two identical cards in one
      trick the second played beats the first. Only with the 52-card pack and 5 or 6 players.
      ``jokers``: ``"own-suit"`` (the jokers are a suit of two equal cards; a led
      joker wins unless trumped; a turned joker makes the other the only trump; of
      two jokers in one trick the first wins) or ``"high-low"`` (NE-England
      Blackout: never led unless nothing else is held, never played to the first
      trick, playable to any other trick, the first played is declared high or
      low and the second is the opposite).

    Schedule (the size of each hand)
      ``schedule``: ``"down-up"`` (S … 1 … S), ``"up"`` (1 … N), ``"down"`` (N … 1),
      ``"up-down"`` (1 … N … 1), ``"constant"`` (N every hand) or ``"explicit"``
      (the list in ``hands``).
      ``max_size``: ``"classic"`` (10 for 3–5 players, 8 for 6, 7 for 7),
      ``"river"`` (15, 13, 10, 8, 7 for 3–7 players), ``"deck"`` (the largest the
      deck allows) or a number.
      ``turning_point``: ``"once"`` or ``"twice"`` (the 1-card hand of down-up,
      the largest hand of up-down, played twice).
      ``one_card_hand_per_player``: every 1-card hand is played once per player
      (each player deals one).
      ``hand_count``: hands in a ``constant`` schedule (default: one per player,
      or until ``target_score`` is reached when there is one).
      ``hands``: the explicit list of :class:`HandPlan`.

    Trump
      ``trump``: ``"turn-up"`` (the next card of the stock; none when the stock is
      empty), ``"turn-up-low-none"`` (a turned 2–6 means no trump), ``"rotation"``
      (``trump_rotation`` hand after hand, no card turned), ``"fixed"``
      (``fixed_trump`` always), ``"none"`` or ``"chosen"`` (no card turned; after the
      bidding the highest bidder names the trump suit, the first of several equal highest
      bids in bidding order: Al Okuneff's rules).
      ``no_trump_last_hand``, ``no_trump_largest_hands``: those hands have no trump.

    Bidding
      ``bidding``: ``"in-turn"`` (left of the dealer first, the dealer last, bids
      public) or ``"simultaneous"`` (secret until all are in; no hook).
      ``hook``: the dealer may not make the bids add up to the hand size.
      ``bid_changes``: a player may change their bid until the next player has
      bid, the dealer until the opening lead.
      ``no_bid_from``: a player whose total is at least this does not bid and
      scores 1 per trick (Boerenbridge: 80).

    Play
      ``first_lead``: ``"left-of-dealer"`` or ``"dealer"``.
      ``must_trump``: a player who cannot follow suit must trump if they can.
      ``bowers``: Euchre's bowers: the jack of trumps (the right bower) is the highest trump
      and the other jack of its colour (the left bower) the second; the left bower belongs to
      the trump suit, not its own. Two players may play with bowers (Jack Marrows' program).

    Scoring
      ``scoring``: ``"exact"`` (made: 10 + bid; missed: 0), ``"trick-plus-bonus"``
      (made: 10 + tricks; missed: 1 per trick), ``"german-bridge"`` (made: 10 +
      bid²; missed: −(bid − tricks)²), ``"7-truf"`` (made: 10 × bid, a made zero
      5 × tricks in the hand; missed: 1 per trick), ``"boerenbridge"`` (made: 10 +
      tricks, a made zero 20; missed: 1 per trick), ``"triangular-penalty"``
      (made: 10 + bid²; missed by d: −5 × (1 + 2 + … + d)).
      ``zero_bid``: ``"standard"`` (as the scoring says), ``"5"`` or
      ``"5-plus-size"`` (a made zero scores 5, or 5 + the cards dealt).
      ``target_score``: the game ends when a player reaches exactly this total;
      a total past it bounces back (Boerenbridge: 100).
      ``stake``: money per point; at the end each player pays or receives the
      difference between their total and the average of all totals.

    Information
      ``devils_bridge``: in the final 1-card hand each player sees every other
      player's card but not their own.

    Other
      ``real_cards``: the game is only scored, its cards are dealt at a real
      table (the scorekeeper): up to 10 players, no deck limit.
      ``preset``: the name of the preset these rules start from (records name it).
    """

    players: int = 4
    deck: DeckKind = "52"
    remove_twos_with: tuple[int, ...] = ()
    second_pack: bool = False
    jokers: JokerRules = "own-suit"
    schedule: ScheduleKind = "down-up"
    max_size: MaxSize | int = "classic"
    turning_point: TurningPoint = "once"
    one_card_hand_per_player: bool = False
    hand_count: int | None = None
    hands: tuple[HandPlan, ...] = ()
    trump: TrumpKind = "turn-up"
    trump_rotation: tuple[str, ...] = ("S", "D", "C", "H")
    fixed_trump: str = "S"
    no_trump_last_hand: bool = False
    no_trump_largest_hands: bool = False
    bidding: BiddingKind = "in-turn"
    hook: bool = True
    bid_changes: bool = True
    no_bid_from: int | None = None
    first_lead: FirstLead = "left-of-dealer"
    must_trump: bool = False
    bowers: bool = False
    scoring: ScoringKind = "exact"
    zero_bid: ZeroBid = "standard"
    target_score: int | None = None
    stake: float | None = None
    devils_bridge: bool = False
    real_cards: bool = False
    preset: str = field(default="classic", compare=False)

    def __post_init__(self) -> None:
        _validate(self)

    # -- the deck ---------------------------------------------------------------

    @cached_property
    def deck_mask(self) -> CardMask:
        """The cards in play (a bit mask)."""
        mask = standard_deck_mask(SEVEN if self.deck == "32" else TWO)
        if self.deck == "54":
            mask |= JOKERS_MASK
        elif self.deck == "39":
            mask &= ~SMALL_THIRTEEN_MASK
        elif self.deck == "40":
            mask &= ~SPANISH_REMOVED_MASK
        if self.players in self.remove_twos_with:
            mask &= ~TWOS_MASK
        if self.second_pack and self.deck == "52":
            mask |= second_copies(SECOND_PACK_CARDS.get(self.players, 0))
        return mask

    @property
    def deck_size(self) -> int:
        """How many cards are in the pack."""
        return self.deck_mask.bit_count()

    @property
    def has_jokers(self) -> bool:
        return bool(self.deck_mask & JOKERS_MASK)

    @property
    def high_low_jokers(self) -> bool:
        """Whether the pack's jokers are declared high or low (NE-England Blackout).

        >>> preset("ne-blackout", players=5).high_low_jokers, preset("jokers").high_low_jokers
        (True, False)
        """
        return self.jokers == "high-low" and self.has_jokers

    # -- the schedule -------------------------------------------------------------

    @cached_property
    def largest_hand(self) -> int:
        """The maximum hand size of the schedule (N)."""
        if self.schedule == "explicit":
            return max(plan.size for plan in self.hands)
        return _max_size(self.max_size, self.players, self.deck_size)

    @cached_property
    def _schedule(self) -> tuple[HandPlan, ...]:
        return _build_schedule(self)

    def hand_plans(self) -> tuple[HandPlan, ...]:
        """The planned hands in order. A game with a ``target_score`` and no
        ``hand_count`` repeats its schedule until someone reaches the target; this
        returns one round of it."""
        return self._schedule

    def schedule_length(self) -> int | None:
        """The number of hands of a game, or ``None`` when it runs until the target score."""
        if self.is_open_ended:
            return None
        return len(self._schedule)

    @property
    def is_open_ended(self) -> bool:
        """Whether the game has no fixed number of hands (it ends at the target score)."""
        return self.target_score is not None and self.schedule == "constant" and self.hand_count is None

    def hand_plan(self, index: int) -> HandPlan | None:
        """The plan of hand ``index`` (0-based), or ``None`` past the end of the schedule.

        >>> preset("kachuful", players=4).hand_plan(1)
        HandPlan(size=9, trump='D')
        """
        plans = self._schedule
        if index < 0:
            return None
        if index < len(plans):
            return plans[index]
        if self.is_open_ended:
            plan = plans[index % len(plans)]
            return dataclasses.replace(plan, trump=_rotated_trump(self, index, plan.trump))
        return None

    # -- records ----------------------------------------------------------------

    def to_json(self, every_knob: bool = False) -> dict[str, Any]:
        """The ``rules`` object of a record: the preset, the players and the knobs that differ
        (``every_knob``: all of them, as ``ohhell rules NAME --json`` prints them).

        >>> Rules(players=5, must_trump=True).to_json()
        {'preset': 'classic', 'players': 5, 'must_trump': True}
        >>> Rules.from_json(preset("7-truf").to_json(every_knob=True)) == preset("7-truf")
        True
        """
        if every_knob:
            out: dict[str, Any] = {"preset": self.preset, "players": self.players}
            out.update((name, _knob_to_json(getattr(self, name))) for name in KNOBS if name != "players")
            return out
        data: dict[str, Any] = json.loads(self._json_text)
        return data

    @cached_property
    def _json_text(self) -> str:
        # Computed once: views (built after every action) carry the rules.
        base = preset(self.preset, players=self.players, real_cards=self.real_cards)
        out: dict[str, Any] = {"preset": self.preset, "players": self.players}
        if self.real_cards:
            out["real_cards"] = True
        stated = PRESETS[self.preset].former
        for f in dataclasses.fields(self):
            if f.name in ("players", "preset", "real_cards"):
                continue
            value = getattr(self, f.name)
            if value != getattr(base, f.name) or f.name in stated:
                out[f.name] = _knob_to_json(value)
        return json.dumps(out)

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Rules:
        """Rules from a record's ``rules`` object; the inverse of :meth:`to_json`.

        >>> Rules.from_json({"preset": "oh-shit", "players": 3}).fixed_trump
        'S'

        A record of ``up-and-down-the-river`` written before the preset lost its hook
        does not state the hook, and replays with it:

        >>> Rules.from_json({"preset": "up-and-down-the-river", "players": 4}).hook
        True
        >>> preset("up-and-down-the-river").to_json()
        {'preset': 'up-and-down-the-river', 'players': 4, 'hook': False}
        """
        if not isinstance(data, Mapping):
            raise RulesError("rules", _("the rules must be an object with a preset and the number of players"))
        if "preset" not in data:
            raise RulesError("preset", _("the rules must name a preset (classic, if no other)"))
        name = data["preset"]
        if "players" not in data:
            raise RulesError("players", _("the rules must say how many players there are"))
        players = data["players"]
        overrides = {key: value for key, value in data.items() if key not in ("preset", "players")}
        # A knob the preset changed since and the record does not state: the record is older
        # than the change, and its game was played with the former value.
        found = find_preset(name)
        for knob, value in found.former.items():
            overrides.setdefault(knob, value)
        if not isinstance(players, int) or isinstance(players, bool) or (
                players not in found.players and overrides.get("real_cards") is not True
                and not (players == MIN_PLAYERS_WITH_BOWERS and overrides.get("bowers") is True)):
            return preset(found.name, players=players, **overrides)  # refused, with the preset's message
        # A record's knobs are read as the preset's own: one that does nothing under the others
        # (which older versions accepted) is dropped rather than refused, so the record replays.
        return _build(found.name, {"players": players, **found.knobs, **_knobs_from_json(overrides)}, {})

    def replace(self, **changes: Any) -> Rules:
        """A copy with some knobs changed (validated again).

        As with :func:`preset`, a knob that is not changed and would do nothing under the
        changes goes back to its default (``schedule="explicit"`` drops the ``trump`` rule,
        since every hand then names its own).
        """
        current = {name: getattr(self, name) for name in KNOBS}
        return _build(self.preset, current, _knobs_from_json(changes))

    def inert_knobs(self) -> dict[str, str]:
        """The knobs that cannot change anything under these rules, each with the reason.

        A knob listed here must keep its default value (any other is refused), and a front
        end greys it out.

        >>> preset("classic").inert_knobs()["hand_count"]
        'only a constant schedule has a number of hands to set'
        """
        return _inert_knobs(self)


KNOBS: Final = tuple(f.name for f in dataclasses.fields(Rules) if f.name != "preset")
"""The names of every knob, as they appear in records and on the command line."""


def _knob_to_json(value: Any) -> Any:
    if isinstance(value, tuple):
        return [_knob_to_json(item) for item in value]
    if isinstance(value, HandPlan):
        return value.to_json()
    return value


def _knobs_from_json(changes: Mapping[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for name, value in changes.items():
        if name not in KNOBS:
            raise RulesError(name, _("there is no rule knob called %(name)r; the knobs are %(knobs)s")
                             % {"name": name, "knobs": ", ".join(KNOBS)})
        if name == "hands" and isinstance(value, (list, tuple)):
            plans = []
            for item in value:
                if isinstance(item, HandPlan):
                    plans.append(item)
                elif isinstance(item, (list, tuple)) and len(item) == 2:
                    plans.append(HandPlan(item[0], item[1]))
                elif isinstance(item, Mapping):
                    plans.append(HandPlan(item.get("size"), item.get("trump", "turn-up")))  # type: ignore[arg-type]
                else:
                    raise RulesError("hands", _("each hand must be [size, trump], not %(value)r") % {"value": item})
            value = tuple(plans)
        elif isinstance(value, list):
            value = tuple(value)
        out[name] = value
    return out


# -- validation ---------------------------------------------------------------------


def _check_choice(rules: Rules, knob: str, allowed: Any) -> None:
    value = getattr(rules, knob)
    choices = get_args(allowed)
    if value not in choices or isinstance(value, bool):
        raise RulesError(knob, _("must be one of %(choices)s, not %(value)r")
                         % {"choices": ", ".join(map(str, choices)), "value": value})


def _check_bool(rules: Rules, knob: str) -> None:
    if not isinstance(getattr(rules, knob), bool):
        raise RulesError(knob, _("must be true or false, not %(value)r") % {"value": getattr(rules, knob)})


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _validate(rules: Rules) -> None:
    _validate_values(rules)
    if rules.real_cards:
        return  # only scored: the pack does not limit anything, and no knob is checked for effect
    for knob, reason in _inert_knobs(rules).items():
        if getattr(rules, knob) != _DEFAULTS[knob]:
            raise RulesError(knob, reason)


def _validate_values(rules: Rules) -> None:
    limit = MAX_PLAYERS_REAL_CARDS if rules.real_cards else MAX_PLAYERS
    low = MIN_PLAYERS_WITH_BOWERS if rules.bowers is True else MIN_PLAYERS
    if not _is_int(rules.players) or not low <= rules.players <= limit:
        raise RulesError("players", _("Oh Hell is played by %(low)d to %(high)d players, not %(value)r")
                          % {"low": low, "high": limit, "value": rules.players})
    for knob, kind in (
        ("deck", DeckKind), ("jokers", JokerRules), ("schedule", ScheduleKind),
        ("turning_point", TurningPoint), ("trump", TrumpKind), ("bidding", BiddingKind),
        ("first_lead", FirstLead), ("scoring", ScoringKind), ("zero_bid", ZeroBid),
    ):
        _check_choice(rules, knob, kind)
    for knob in (
        "one_card_hand_per_player", "no_trump_last_hand", "no_trump_largest_hands", "hook",
        "bid_changes", "must_trump", "bowers", "devils_bridge", "real_cards", "second_pack",
    ):
        _check_bool(rules, knob)
    if not isinstance(rules.remove_twos_with, tuple) or not all(_is_int(n) for n in rules.remove_twos_with):
        raise RulesError("remove_twos_with", _("must be a list of player counts"))
    if isinstance(rules.max_size, str):
        _check_choice(rules, "max_size", MaxSize)
    elif not _is_int(rules.max_size) or rules.max_size < 1:
        raise RulesError("max_size", _("must be classic, river, deck or a number of cards, not %(value)r")
                          % {"value": rules.max_size})
    if rules.hand_count is not None and (not _is_int(rules.hand_count) or rules.hand_count < 1):
        raise RulesError("hand_count", _("must be a number of hands of at least 1, not %(value)r")
                          % {"value": rules.hand_count})
    if not isinstance(rules.hands, tuple) or not all(isinstance(p, HandPlan) for p in rules.hands):
        raise RulesError("hands", _("must be a list of [size, trump] pairs"))
    if rules.schedule == "explicit" and not rules.hands:
        raise RulesError("hands", _("an explicit schedule needs a list of hands: set schedule and hands together"))
    if rules.schedule != "explicit" and rules.hands:
        raise RulesError("hands", _("a list of hands is only used by the explicit schedule: set schedule to "
                                    "explicit, or leave hands out"))
    if not isinstance(rules.trump_rotation, tuple) or not rules.trump_rotation or any(
        step not in ROTATION_STEPS for step in rules.trump_rotation
    ):
        raise RulesError("trump_rotation", _("must be a list of steps among %(choices)s")
                          % {"choices": ", ".join(ROTATION_STEPS)})
    if not isinstance(rules.fixed_trump, str) or rules.fixed_trump not in "SHDC" or len(rules.fixed_trump) != 1:
        raise RulesError("fixed_trump", _("must be one of S, H, D, C, not %(value)r") % {"value": rules.fixed_trump})
    for knob in ("no_bid_from", "target_score"):
        value = getattr(rules, knob)
        if value is not None and (not _is_int(value) or value < 1):
            raise RulesError(knob, _("must be a positive number of points or null, not %(value)r") % {"value": value})
    if rules.stake is not None and (not isinstance(rules.stake, (int, float)) or isinstance(rules.stake, bool)
                                    or not math.isfinite(rules.stake) or rules.stake <= 0):
        raise RulesError("stake", _("must be a positive amount of money per point or null, not %(value)r")
                          % {"value": rules.stake})
    if rules.preset not in PRESETS:
        raise RulesError("preset", _("there is no preset called %(name)r; the presets are %(presets)s")
                         % {"name": rules.preset, "presets": ", ".join(PRESETS)})
    if rules.bidding == "simultaneous" and rules.hook:
        raise RulesError("hook", _("simultaneous bidding has no hook (nobody bids last); set hook to false"))
    if rules.bidding == "simultaneous" and rules.bid_changes:
        raise RulesError("bid_changes", _("simultaneous bids are revealed at once and cannot be changed; "
                                          "set bid_changes to false"))
    if (rules.jokers == "high-low" and rules.trump in ("turn-up", "turn-up-low-none") and rules.deck == "54"
            and rules.schedule != "explicit"):
        raise RulesError("jokers", _("high-low jokers are played with a trump rotation or a fixed trump, not "
                                     "with a turned-up card: change jokers, or set trump to rotation or fixed"))
    if rules.schedule == "constant" and rules.hand_count is None and rules.target_score is None:
        pass  # one hand per player
    if rules.is_open_ended and rules.no_trump_last_hand:
        raise RulesError("no_trump_last_hand", _("a game that runs until a target score has no last hand"))
    if rules.real_cards:
        return
    # Every hand must be dealable from the pack.
    deck_size = rules.deck_size
    if rules.schedule == "explicit":
        for plan in rules.hands:
            if plan.size * rules.players > deck_size:
                raise RulesError("hands", _("a hand of %(size)d cards for %(players)d players needs %(needed)d cards, "
                                            "but the deck has %(deck)d")
                                 % {"size": plan.size, "players": rules.players,
                                    "needed": plan.size * rules.players, "deck": deck_size})
    else:
        size = _max_size(rules.max_size, rules.players, deck_size)
        if size * rules.players > deck_size:
            raise RulesError("max_size", _("hands of %(size)d cards for %(players)d players need %(needed)d cards, "
                                           "but the deck has %(deck)d")
                             % {"size": size, "players": rules.players, "needed": size * rules.players,
                                "deck": deck_size})
        if size < 1:
            raise RulesError("players", _("a deck of %(deck)d cards cannot deal %(players)d players a card each")
                             % {"deck": deck_size, "players": rules.players})


_DEFAULTS: Final[dict[str, Any]] = {f.name: f.default for f in dataclasses.fields(Rules)}


def _without_trump(rules: Rules, plan: HandPlan) -> bool:
    """Whether a hand is played without trump: none is set, or none can be turned up."""
    return plan.trump == "none" or (plan.trump.startswith("turn-up") and plan.size * rules.players >= rules.deck_size)


def _inert_knobs(rules: Rules) -> dict[str, str]:
    """Every knob that can change nothing under the other knobs of ``rules``, with the reason.

    The checks read the schedule as it would be without the knob in question, so that a knob
    is not called inert because of itself.
    """
    out: dict[str, str] = {}
    explicit = rules.schedule == "explicit"
    if rules.remove_twos_with and rules.deck in ("32", "39"):
        out["remove_twos_with"] = _("this pack has no 2s to take out")
    elif rules.remove_twos_with and rules.players not in rules.remove_twos_with:
        out["remove_twos_with"] = _("the 2s are taken out only for the player counts listed, and %(players)d "
                                    "is not one of them") % {"players": rules.players}
    if rules.deck != "54":
        out["jokers"] = _("only the 54-card pack (deck 54) has jokers")
    if rules.deck != "52":
        out["second_pack"] = _("Bust's second pack is added to the 52-card pack only (deck 52)")
    elif rules.players not in SECOND_PACK_CARDS:
        out["second_pack"] = _("Bust's second pack adds cards only for 5 or 6 players, not %(players)d "
                               "(with 4 the 52 cards deal 13 each already)") % {"players": rules.players}
    if rules.schedule != "constant":
        out["hand_count"] = _("only a constant schedule has a number of hands to set")
    if explicit:
        out["max_size"] = _("an explicit schedule gives the size of every hand itself")
        out["trump"] = _("an explicit schedule gives the trump of every hand itself")
    if rules.schedule not in ("down-up", "up-down"):
        out["turning_point"] = _("only the down-up schedule (its 1-card hand) and the up-down schedule (its "
                                 "largest hand) have a turning point")
    if explicit or rules.trump != "rotation":
        out["trump_rotation"] = _("only trump: rotation follows a rotation of suits")
    if explicit or rules.trump != "fixed":
        out["fixed_trump"] = _("only trump: fixed has a fixed trump suit")
    if rules.deck_size < rules.players or (explicit and not rules.hands):
        return out  # the other checks need a schedule, which _validate_values refuses
    plain = _copy_unchecked(rules, no_trump_last_hand=False, no_trump_largest_hands=False,
                            one_card_hand_per_player=False, devils_bridge=False, must_trump=False)
    plans = plain.hand_plans()
    if not explicit and rules.trump.startswith("turn-up") and all(
            plan.size * rules.players >= rules.deck_size for plan in plans):
        out["trump"] = _("every hand deals the whole pack, so no card is left to turn up")
    if all(plan.size > 1 for plan in plans):
        out["one_card_hand_per_player"] = _("the schedule has no 1-card hand")
    if not plain.is_open_ended and _without_trump(rules, plans[-1]):
        out["no_trump_last_hand"] = _("the last hand is played without trump already")
    top = max(plan.size for plan in plans)
    if all(_without_trump(rules, plan) for plan in plans if plan.size == top):
        out["no_trump_largest_hands"] = _("the largest hands are played without trump already")
    if all(_without_trump(rules, plan) for plan in plans):
        out["must_trump"] = _("no hand has a trump")
        out["bowers"] = _("no hand has a trump, so there are no bowers")
    with_each = _copy_unchecked(plain, one_card_hand_per_player=rules.one_card_hand_per_player).hand_plans()
    if plain.is_open_ended or with_each[-1].size != 1:
        out["devils_bridge"] = _("the last hand of the game is not a 1-card hand (Devil's Bridge is played in "
                                 "a last 1-card hand)")
    return out


def _unchecked(players: Any, preset_name: str, knobs: Mapping[str, Any]) -> Rules:
    """A Rules value that is not validated, to find which knobs do nothing before building it."""
    rules = object.__new__(Rules)
    for f in dataclasses.fields(Rules):
        object.__setattr__(rules, f.name, knobs.get(f.name, f.default))
    object.__setattr__(rules, "players", players)
    object.__setattr__(rules, "preset", preset_name)
    return rules


def _copy_unchecked(rules: Rules, **changes: Any) -> Rules:
    knobs = {name: getattr(rules, name) for name in KNOBS if name != "players"}
    return _unchecked(rules.players, rules.preset, {**knobs, **changes})


def _build(preset_name: str, base: Mapping[str, Any], changes: Mapping[str, Any]) -> Rules:
    """Rules from the knobs of a preset (or of other rules) and the knobs a person changed.

    The knobs nobody changed follow the changes: simultaneous bidding has no hook and no bid
    changes; a list of hands makes the schedule explicit; and a knob of ``base`` that would do
    nothing under the changes goes back to its default. A knob that was changed and does
    nothing, or a combination that cannot be played, is refused naming a changed knob.
    """
    knobs = {**base, **changes}
    if changes.get("bidding") == "simultaneous":
        knobs.setdefault("hook", False)
        for follower in ("hook", "bid_changes"):
            if follower not in changes:
                knobs[follower] = False
    if changes.get("hands") and "schedule" not in changes:
        knobs["schedule"] = "explicit"
    if "schedule" in changes and changes["schedule"] != "explicit" and "hands" not in changes:
        knobs["hands"] = ()
    players = knobs.pop("players")
    try:
        provisional = _unchecked(players, preset_name, knobs)
        _validate_values(provisional)
        if not provisional.real_cards:
            for _round in range(2):  # a reset knob may make another inert (trump, then its rotation)
                inert = _inert_knobs(provisional)
                reset = {knob: _DEFAULTS[knob] for knob in inert if knob not in changes and knobs.get(knob,
                         _DEFAULTS[knob]) != _DEFAULTS[knob]}
                if not reset:
                    break
                knobs.update(reset)
                provisional = _unchecked(players, preset_name, knobs)
        return Rules(players=players, preset=preset_name, **knobs)
    except RulesError as error:
        if error.knob in changes or not changes or error.knob in ("players", "preset"):
            raise
        # The knob at fault was not changed: name the changed ones, so the message is about them.
        changed = ", ".join(sorted(changes))
        raise RulesError(error.knob, _("%(message)s (after changing %(changed)s)")
                         % {"message": str(error).split(": ", 1)[-1], "changed": changed}) from None


def _max_size(max_size: MaxSize | int, players: int, deck_size: int) -> int:
    if max_size == "classic":
        # 10 cards, fewer when the pack cannot also give a turn-up card (8 for 6, 7 for 7).
        return min(10, (deck_size - 1) // players)
    if max_size == "river":
        return 15 if players == 3 else deck_size // players
    if max_size == "deck":
        return deck_size // players
    assert isinstance(max_size, int)
    return max_size


def _sizes(rules: Rules) -> list[int]:
    top = rules.largest_hand
    twice = rules.turning_point == "twice"
    kind = rules.schedule
    if kind == "down-up":
        sizes = list(range(top, 0, -1)) + ([1] if twice else []) + list(range(2, top + 1))
    elif kind == "up":
        sizes = list(range(1, top + 1))
    elif kind == "down":
        sizes = list(range(top, 0, -1))
    elif kind == "up-down":
        sizes = list(range(1, top + 1)) + ([top] if twice else []) + list(range(top - 1, 0, -1))
    elif kind == "constant":
        count = rules.hand_count if rules.hand_count is not None else (
            1 if rules.target_score is not None else rules.players)
        sizes = [top] * count
    else:
        sizes = [plan.size for plan in rules.hands]
    if rules.one_card_hand_per_player:
        sizes = [s for size in sizes for s in ([size] * rules.players if size == 1 else [size])]
    return sizes


def _rotated_trump(rules: Rules, index: int, default: str) -> str:
    if rules.trump == "rotation":
        step = rules.trump_rotation[index % len(rules.trump_rotation)]
        return "none" if step == "NT" else step
    return default


def _build_schedule(rules: Rules) -> tuple[HandPlan, ...]:
    if rules.schedule == "explicit":
        plans = list(rules.hands)
        if rules.one_card_hand_per_player:
            plans = [p for plan in plans for p in ([plan] * rules.players if plan.size == 1 else [plan])]
    else:
        base = {"turn-up": "turn-up", "turn-up-low-none": "turn-up-low-none", "none": "none",
                "fixed": rules.fixed_trump, "rotation": "none", "chosen": "chosen"}[rules.trump]
        plans = [HandPlan(size, _rotated_trump(rules, index, base)) for index, size in enumerate(_sizes(rules))]
    top = max(plan.size for plan in plans)
    for index, plan in enumerate(plans):
        if (rules.no_trump_last_hand and index == len(plans) - 1) or (
                rules.no_trump_largest_hands and plan.size == top):
            plans[index] = HandPlan(plan.size, "none")
    return tuple(plans)


# -- presets ------------------------------------------------------------------------------

_SEVEN_TRUF_HANDS: Final = tuple(
    [HandPlan(size, "turn-up") for size in range(1, 8)]
    + [HandPlan(8, "none")] * 4
    + [HandPlan(size, "turn-up") for size in range(7, 0, -1)]
    + [HandPlan(8, "none")] * 4
)


@dataclass(frozen=True)
class Preset:
    """A named bundle of knobs and the player counts it is played with."""

    name: str
    summary: str
    knobs: Mapping[str, Any]
    players: tuple[int, ...] = tuple(range(MIN_PLAYERS, MAX_PLAYERS + 1))
    former: Mapping[str, Any] = field(default_factory=dict)
    """Knobs whose value in this preset was changed, with the value they had before.

    Records always state these knobs (:meth:`Rules.to_json`), so a record that does not
    was written before the change and is read with the former value: it replays as played.
    """


PRESETS: Final[dict[str, Preset]] = {p.name: p for p in (
    Preset("classic", N_("The classic rules: down and up again, turned trump, hook, exact scoring."), {}),
    Preset("up-and-down-the-river",
           N_("From one card up to 15, 13, 10, 8 or 7 cards for 3 to 7 players; the last hand has no trump; "
              "no hook."),
           # The hook was part of this preset until issue 28: its sources give it only as
           # "some people prefer".
           {"schedule": "up", "max_size": "river", "no_trump_last_hand": True, "hook": False},
           former={"hook": True}),
    Preset("blackout", N_("Classic with the simplest scoring, 10 + bid for an exact bid (an alias of classic)."),
           {}),
    Preset("contract-whist", N_("Classic with 1 point per trick and 10 more for an exact bid."),
           {"scoring": "trick-plus-bonus"}),
    Preset("la-podrida", N_("Classic where a player who cannot follow suit must trump."),
           {"must_trump": True}),
    Preset("german-bridge", N_("Classic with 10 + bid² for an exact bid and −(difference)² for a miss."),
           {"scoring": "german-bridge"}),
    Preset("7-truf", N_("Indonesian 7-Truf: 4 players, 32 cards, 22 hands with no-trump hands of 8 cards."),
           {"deck": "32", "schedule": "explicit", "hands": _SEVEN_TRUF_HANDS, "scoring": "7-truf"},
           players=(4,)),
    Preset("boerenbridge", N_("Dutch Boerenbridge: the whole pack every hand, secret bids, first to exactly 100."),
           {"schedule": "constant", "max_size": "deck", "trump": "none", "bidding": "simultaneous",
            "hook": False, "bid_changes": False, "scoring": "boerenbridge", "target_score": 100,
            "no_bid_from": 80},
           players=(4,)),
    Preset("kachuful", N_("Indian Kachuful: trump goes spades, diamonds, clubs, hearts; no card is turned."),
           {"trump": "rotation", "trump_rotation": ("S", "D", "C", "H")}),
    Preset("oh-shit", N_("Classic with spades always trump."), {"trump": "fixed", "fixed_trump": "S"}),
    Preset("okuneff", N_("Al Okuneff's rules: no card is turned; after the bidding the highest bidder chooses trump; "
                         "10 + bid² for an exact bid, −(difference)² for a miss."),
           {"trump": "chosen", "scoring": "german-bridge"}),
    Preset("jokers", N_("Classic with two jokers, a suit of their own that wins when led."), {"deck": "54"}),
    Preset("ne-blackout", N_("North-East England Blackout: 5 or 6 players, jokers declared high or low."),
           {"deck": "54", "remove_twos_with": (5,), "jokers": "high-low", "schedule": "constant",
            "max_size": "deck", "trump": "rotation", "trump_rotation": ("H", "C", "D", "S")},
           players=(5, 6)),
    Preset("romanian-whist", N_("Romanian Whist: a 32-card pack (A to 7), and a player who cannot follow suit "
                                "must trump."),
           {"deck": "32", "must_trump": True}),
    Preset("la-pocha", N_("La Pocha: the Spanish 40-card pack (no 8s, 9s or 10s)."), {"deck": "40"}),
    Preset("bowers", N_("Classic with Euchre's bowers: the jack of trumps is the highest trump, the other jack of "
                        "its colour the second; 2 to 7 players."),
           {"bowers": True}, players=tuple(range(MIN_PLAYERS_WITH_BOWERS, MAX_PLAYERS + 1))),
    Preset("bust", N_("Australian Bust: 13 cards each in the first hand, down to 1 and up again; with 5 or 6 players "
                      "the small cards of a second pack are added, and of two identical cards in a trick the "
                      "second played wins."),
           {"second_pack": True, "max_size": "deck"}, players=(4, 5, 6)),
    Preset("devils-bridge", N_("Up and down again; in the last 1-card hand you see every card but your own."),
           {"schedule": "up-down", "devils_bridge": True}),
)}

PRESET_TITLES: Final[dict[str, str]] = {
    "classic": N_("Classic"), "up-and-down-the-river": N_("Up and Down the River"), "blackout": N_("Blackout"),
    "contract-whist": N_("Contract Whist"), "la-podrida": N_("La Podrida"), "german-bridge": N_("German Bridge"),
    "7-truf": N_("7-Truf"), "boerenbridge": N_("Boerenbridge"), "kachuful": N_("Kachuful"),
    "oh-shit": N_("Oh Shit"), "okuneff": N_("Okuneff's rules"), "jokers": N_("Jokers"),
    "ne-blackout": N_("North-East Blackout"), "romanian-whist": N_("Romanian Whist"), "la-pocha": N_("La Pocha"),
    "bowers": N_("Bowers"), "bust": N_("Bust"), "devils-bridge": N_("Devil's Bridge"),
}
"""Each preset's name as pages show it (translated where a language has its own name for the game;
the id, e.g. ``classic``, is what commands and records use)."""


def default_players(name: str) -> int:
    """The player count a preset is played with when none is given: 4, or its own count.

    >>> default_players("classic"), default_players("ne-blackout")
    (4, 5)
    """
    counts = find_preset(name).players
    return 4 if 4 in counts else counts[0]


def preset_names() -> list[str]:
    """The names of every preset, ``classic`` first."""
    return list(PRESETS)


def find_preset(name: str) -> Preset:
    """The preset called ``name`` (case and ``_``/``-`` do not matter).

    >>> find_preset("Oh_Shit").name
    'oh-shit'
    """
    key = name.strip().lower().replace("_", "-") if isinstance(name, str) else ""
    if key not in PRESETS:
        raise RulesError("preset", _("there is no preset called %(name)r; the presets are %(presets)s")
                         % {"name": name, "presets": ", ".join(PRESETS)})
    return PRESETS[key]


def preset(name: str = "classic", players: int = 4, **overrides: Any) -> Rules:
    """The rules of a preset for ``players`` players, with any knobs overridden.

    >>> preset("7-truf").schedule_length()
    22
    >>> preset("7-truf", players=5)
    Traceback (most recent call last):
    ...
    ohhell.errors.RulesError: players: 7-truf is played by 4 players, not 5
    """
    found = find_preset(name)
    real_cards = overrides.get("real_cards") is True
    # With real cards nothing is dealt, so any preset may be scored for 3 to 10 players; with
    # bowers any preset may be played by two.
    two_with_bowers = players == MIN_PLAYERS_WITH_BOWERS and overrides.get("bowers") is True
    if _is_int(players) and players not in found.players and not real_cards and not two_with_bowers:
        values = {"preset": found.name, "low": found.players[0], "high": found.players[-1], "players": players}
        if len(found.players) == 1:
            message = ngettext("%(preset)s is played by %(low)d player, not %(players)d",
                               "%(preset)s is played by %(low)d players, not %(players)d", found.players[0])
        elif len(found.players) == 2:
            message = _("%(preset)s is played by %(low)d or %(high)d players, not %(players)d")
        else:
            message = _("%(preset)s is played by %(low)d to %(high)d players, not %(players)d")
        raise RulesError("players", message % values)
    base: dict[str, Any] = {"players": players, **found.knobs}
    return _build(found.name, base, _knobs_from_json(overrides))


RulesFactory = Callable[..., Rules]
