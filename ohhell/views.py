"""What one seat may know: the only place that decides what is hidden.

Bots, the server, the terminal app and the machine-learning integrations see a
game only through :func:`seat_view` (a player) or :func:`spectator_view`
(public information only). A view holds:

* the seat's own cards (face down :data:`~ohhell.cards.HIDDEN_CARD` in the
  last hand of Devil's Bridge, where it sees everyone's card but its own);
* the turned-up card and trump, every bid made so far (under simultaneous
  bidding only its own until all are in), the tricks taken, every card played
  and by whom, whose turn it is and which seats may act, the bid the hook
  forbids the dealer, and the seat's legal actions;
* the scores of finished hands and the totals.

Never the other hands, the undealt stock or the shuffled pack.

>>> import random
>>> from ohhell.game import Game
>>> from ohhell.rules import preset
>>> state = Game(preset("classic", players=3)).new_initial_state(first_dealer=2)
>>> rng = random.Random(5)
>>> state.apply(state.sample_chance(rng)); state.apply(state.sample_chance(rng))
>>> view = seat_view(state, 0)
>>> len(view.hand), view.hand_counts, view.turn, view.bids
(10, (10, 10, 10), 0, (None, None, None))
>>> spectator_view(state).hand
()
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, Final

from ohhell.actions import Action, Play, action_from_json, action_to_json, make_play
from ohhell.cards import (
    HIDDEN_CARD,
    Card,
    CardNumbering,
    Suit,
    card_name,
    cards_of,
    parse_card,
    parse_suit,
    sort_for_display,
    suit_letter,
)
from ohhell.errors import InvalidCardError, OhHellError
from ohhell.game import CHANCE_PHASES, HandResult, Phase, State
from ohhell.rules import Rules

Trick = tuple[tuple[int, Card], ...]
"""The cards of one trick as ``(seat, card)`` pairs in the order played."""


@dataclass(frozen=True)
class CompletedTrick:
    """A finished trick of the current hand."""

    leader: int
    cards: Trick
    winner: int


@dataclass(frozen=True)
class HandSummary:
    """A finished hand as everyone saw it (all its cards were played face up)."""

    index: int
    dealer: int
    size: int
    trump: Suit | None
    turn_up: Card | None
    bids: tuple[int | None, ...]
    tricks: tuple[int, ...]
    scores: tuple[int, ...]
    totals: tuple[int, ...]
    plays: tuple[tuple[int, Card], ...] | None
    """Every card played with its player, or ``None`` for a hand played with real cards."""
    trick_winners: tuple[int, ...] = ()
    """The winner of each trick in order (empty for a hand played with real cards)."""
    joker_high: bool | None = None
    """How the first joker of the hand was declared (high-low jokers), if one was played."""
    trump_chooser: int | None = None
    """The seat that chose trump (``trump: chosen``), else ``None``."""


@dataclass(frozen=True)
class SeatView:
    """What ``seat`` may know at one moment (``seat`` is ``None`` for a spectator)."""

    seat: int | None
    rules: Rules
    version: int
    """How many actions the game has seen; it grows by one with every action."""
    phase: Phase
    hand_index: int
    hand_count: int | None
    dealer: int | None
    first_dealer: int | None
    draws: tuple[tuple[int, Card], ...]
    hand_size: int
    dealt: bool
    trump: Suit | None
    turn_up: Card | None
    hand: tuple[Card, ...]
    visible_hands: dict[int, tuple[Card, ...]]
    hand_counts: tuple[int, ...]
    bid_order: tuple[int, ...]
    bids: tuple[int | None, ...]
    has_bid: tuple[bool, ...]
    bidding_complete: bool
    tricks_won: tuple[int, ...]
    completed_tricks: tuple[CompletedTrick, ...]
    current_trick: Trick
    trick_suit: Suit | None
    joker_high: bool | None
    turn: int | None
    actors: tuple[int, ...]
    legal_actions: tuple[Action, ...]
    forbidden_bid: int | None
    can_change_bid: bool
    totals: tuple[int, ...]
    finished_hands: tuple[HandSummary, ...]
    game_over: bool
    winners: tuple[int, ...]
    blind: bool = False
    """Whether this seat cannot see its own cards (Devil's Bridge, last hand)."""
    scoresheet: bool = False
    names: tuple[str, ...] = field(default=())
    hook_bid: int | None = None
    """The bid the hook forbids the dealer, for every seat to see (:attr:`forbidden_bid` is the
    dealer's own: which bids it may not make; this one explains the dealer's choice to the
    others). ``None`` when the hook does not bite."""
    trump_chooser: int | None = None
    """In a ``trump: chosen`` hand, once the bidding is over: the highest bidder, who chooses
    trump (:attr:`phase` ``CHOOSING_TRUMP``, the only seat with legal actions) and then has
    chosen it (:attr:`trump`). Public: it follows from the open bids."""
    closing_trick: CompletedTrick | None = None
    """Between two hands (until the next deal): the last trick of the hand just finished, so a
    table can still show it and gather it to its winner. Public: every card of it was played."""

    @property
    def players(self) -> int:
        return self.rules.players

    @property
    def first_leader(self) -> int | None:
        """The seat that leads the hand's first trick (``None`` before a dealer is known)."""
        if self.dealer is None:
            return None
        return self.dealer if self.rules.first_lead == "dealer" else (self.dealer + 1) % self.players

    @property
    def trump_by_choice(self) -> bool:
        """Whether the highest bidder chooses this hand's trump after the bidding (``trump: chosen``)."""
        plan = self.rules.hand_plan(self.hand_index)
        return plan is not None and plan.trump == "chosen"

    @property
    def last_trick(self) -> CompletedTrick | None:
        """The last finished trick of this hand (for a look back)."""
        return self.completed_tricks[-1] if self.completed_tricks else None

    def played_cards(self) -> list[tuple[int, Card]]:
        """Every card played in this hand so far, with its player, in order."""
        out = [pair for trick in self.completed_tricks for pair in trick.cards]
        out.extend(self.current_trick)
        return out

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> SeatView:
        """The view of its JSON form; the inverse of :meth:`to_json` (``ValueError`` if malformed)."""
        return view_from_json(data)

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict (cards in record notation, suits as letters)."""
        def cards(values: tuple[Card, ...]) -> list[str]:
            return [card_name(card) if card != HIDDEN_CARD else "??" for card in values]

        def trick(values: Trick) -> list[list[Any]]:
            return [[seat, card_name(card)] for seat, card in values]

        return {
            "seat": self.seat,
            "rules": self.rules.to_json(),
            "version": self.version,
            "phase": self.phase.name.lower(),
            "hand_index": self.hand_index,
            "hand_count": self.hand_count,
            "dealer": self.dealer,
            "first_dealer": self.first_dealer,
            "draws": trick(self.draws),
            "hand_size": self.hand_size,
            "dealt": self.dealt,
            "trump": _suit(self.trump),
            "turn_up": card_name(self.turn_up) if self.turn_up is not None else None,
            "hand": cards(self.hand),
            "blind": self.blind,
            "visible_hands": {str(seat): cards(hand) for seat, hand in self.visible_hands.items()},
            "hand_counts": list(self.hand_counts),
            "bid_order": list(self.bid_order),
            "bids": list(self.bids),
            "has_bid": list(self.has_bid),
            "bidding_complete": self.bidding_complete,
            "tricks_won": list(self.tricks_won),
            "completed_tricks": [{"leader": t.leader, "cards": trick(t.cards), "winner": t.winner}
                                 for t in self.completed_tricks],
            "current_trick": trick(self.current_trick),
            "trick_suit": _suit(self.trick_suit),
            "joker_high": self.joker_high,
            "turn": self.turn,
            "actors": list(self.actors),
            "legal_actions": [action_to_json(action) for action in self.legal_actions],
            "forbidden_bid": self.forbidden_bid,
            "can_change_bid": self.can_change_bid,
            "totals": list(self.totals),
            "finished_hands": [_summary_json(hand) for hand in self.finished_hands],
            "game_over": self.game_over,
            "winners": list(self.winners),
            "scoresheet": self.scoresheet,
            "hook_bid": self.hook_bid,
            "trump_chooser": self.trump_chooser,
            "trump_by_choice": self.trump_by_choice,
            "closing_trick": None if self.closing_trick is None else {
                "leader": self.closing_trick.leader, "cards": trick(self.closing_trick.cards),
                "winner": self.closing_trick.winner},
        }


def _suit(suit: Suit | None) -> str | None:
    return suit_letter(suit) if suit is not None else None


_SUMMARY_JSON: dict[int, tuple[HandSummary, dict[str, Any]]] = {}


def _summary_json(hand: HandSummary) -> dict[str, Any]:
    """The JSON of a finished hand (cached: it never changes; callers must not modify it)."""
    cached = _SUMMARY_JSON.get(id(hand))
    if cached is not None and cached[0] is hand:
        return cached[1]
    if len(_SUMMARY_JSON) > 20_000:
        _SUMMARY_JSON.clear()
    data = _build_summary_json(hand)
    _SUMMARY_JSON[id(hand)] = (hand, data)
    return data


def _build_summary_json(hand: HandSummary) -> dict[str, Any]:
    return {
        "index": hand.index, "dealer": hand.dealer, "size": hand.size, "trump": _suit(hand.trump),
        "turn_up": card_name(hand.turn_up) if hand.turn_up is not None else None,
        "bids": list(hand.bids), "tricks": list(hand.tricks), "scores": list(hand.scores),
        "totals": list(hand.totals),
        "plays": [[seat, card_name(card)] for seat, card in hand.plays] if hand.plays is not None else None,
        "trick_winners": list(hand.trick_winners), "joker_high": hand.joker_high,
        "trump_chooser": hand.trump_chooser,
    }


_SUMMARIES: dict[int, tuple[HandResult, HandSummary]] = {}
"""Summaries of finished hands by the id of their (immutable) result: views are built for every
seat after every action, and a finished hand never changes."""


def summarize_hand(result: HandResult, players: int) -> HandSummary:
    """The public summary of a finished hand."""
    cached = _SUMMARIES.get(id(result))
    if cached is not None and cached[0] is result:
        return cached[1]
    plays: tuple[tuple[int, Card], ...] | None = None
    if result.plays is not None:
        plays = tuple(_seats_of_plays(result, players))
    summary = HandSummary(
        index=result.index, dealer=result.dealer, size=result.size, trump=result.trump,
        turn_up=result.turn_up, bids=result.bids, tricks=result.tricks, scores=result.scores,
        totals=result.totals, plays=plays, trick_winners=result.trick_winners, joker_high=result.joker_high,
        trump_chooser=result.trump_chooser,
    )
    if len(_SUMMARIES) > 20_000:
        _SUMMARIES.clear()
    _SUMMARIES[id(result)] = (result, summary)
    return summary


def _seats_of_plays(result: HandResult, players: int) -> list[tuple[int, Card]]:
    assert result.deal is not None and result.plays is not None
    owner = {card: seat for seat, cards in enumerate(result.deal) for card in cards}
    return [(owner[card], card) for card in result.plays]


def seat_view(state: State, seat: int | None, names: tuple[str, ...] = ()) -> SeatView:
    """What ``seat`` may know now; ``None`` gives the spectator view."""
    n = state.num_players
    if seat is not None and not (isinstance(seat, int) and 0 <= seat < n):
        raise ValueError(f"there is no seat {seat!r} in a game of {n} players")
    shared, private = _public_parts(state, names)
    return _seat_view(state, seat, private, shared)


def seat_views(state: State, seats: Iterable[int | None], names: tuple[str, ...] = ()) -> list[SeatView]:
    """The views of several seats (``None``: a spectator) at once, the same as :func:`seat_view`
    for each, with the public information gathered once (the server builds a view for every
    connection after every action)."""
    n = state.num_players
    shared, private = _public_parts(state, names)
    out = []
    for seat in seats:
        if seat is not None and not (isinstance(seat, int) and 0 <= seat < n):
            raise ValueError(f"there is no seat {seat!r} in a game of {n} players")
        out.append(_seat_view(state, seat, private, shared))
    return out


_IN_PLAY: Final = frozenset((Phase.BIDDING, Phase.CHOOSING_TRUMP, Phase.PLAYING, Phase.DECLARING, Phase.TRICKS))

_FINISHED: dict[int, tuple[list[HandResult], int, HandResult | None, tuple[HandSummary, ...]]] = {}
"""The summaries of a state's finished hands, by the id of its list of them (held, so the id is
not reused), with the list's length and last hand when they were made: the list only grows by
a hand or loses its last (undo), so while both are the same, so are the summaries."""


def _finished_summaries(state: State, players: int) -> tuple[HandSummary, ...]:
    """:func:`summarize_hand` of every finished hand (the same tuple while none is added)."""
    results = state.finished_hands
    last = results[-1] if results else None
    cached = _FINISHED.get(id(results))
    if cached is not None and cached[0] is results and cached[1] == len(results) and cached[2] is last:
        return cached[3]
    made = tuple(summarize_hand(result, players) for result in results)
    if len(_FINISHED) > 4096:
        _FINISHED.clear()
    _FINISHED[id(results)] = (results, len(results), last, made)
    return made


_TRICKS: dict[tuple[int, tuple[tuple[int, Card], ...], int], CompletedTrick] = {}
"""Completed tricks by their values: each is made once, and the views after every action share
the very objects (which the server's state diffs compare by identity first)."""


def _completed_trick(leader: int, cards: Trick, winner: int) -> CompletedTrick:
    key = (leader, cards, winner)
    found = _TRICKS.get(key)
    if found is None:
        if len(_TRICKS) > 10_000:
            _TRICKS.clear()
        found = _TRICKS[key] = CompletedTrick(leader, cards, winner)
    return found


def _public_parts(state: State, names: tuple[str, ...]) -> tuple[dict[str, Any], dict[str, Any]]:
    """Everything of a view that is the same for every seat: the view's fields, and apart (not
    fields of a view) what each seat's own fields are made from."""
    n = state.num_players
    phase = state.phase
    dealt = phase not in CHANCE_PHASES and phase != Phase.GAME_OVER and not state.scoresheet
    finished = _finished_summaries(state, n)
    in_play = phase in _IN_PLAY
    completed = tuple(
        _completed_trick(leader, tuple(cards), winner) for leader, cards, winner in state.completed_tricks()
    ) if in_play else ()
    shared = {
        "rules": state.rules,
        "version": len(state.history),
        "phase": phase,
        "hand_index": state.hand_index,
        "hand_count": state.game.schedule_length,
        "dealer": state.dealer if state.first_dealer is not None else None,
        "first_dealer": state.first_dealer,
        "draws": tuple(state.draws),
        "hand_size": state.hand_size,
        "dealt": dealt,
        "trump": state.trump if in_play else None,
        "turn_up": state.turn_up if in_play else None,
        "hand_counts": tuple(mask.bit_count() for mask in state.hands) if dealt else (0,) * n,
        "bid_order": state.bid_order,
        "bidding_complete": in_play and state.bidding_complete,
        "tricks_won": tuple(state.tricks_won),
        "completed_tricks": completed,
        "current_trick": tuple(state.current_trick()) if in_play else (),
        "trick_suit": state.trick_suit() if phase == Phase.PLAYING else None,
        "joker_high": state.joker_high,
        "turn": state.turn,
        "actors": tuple(state.actors()),
        "totals": tuple(state.totals),
        "finished_hands": finished,
        "closing_trick": _closing_trick(finished, n) if not dealt else None,
        "game_over": state.is_terminal(),
        "winners": tuple(state.winners()),
        "scoresheet": state.scoresheet,
        "names": names,
        # The hook's forbidden bid follows from the open bids before the dealer's: everyone's to
        # know (simultaneous bidding has no hook).
        "hook_bid": state.forbidden_bid() if state.rules.bidding == "in-turn" else None,
        "trump_chooser": state.trump_chooser,
    }
    private = {
        "_changer": state.bid_changer() if in_play else None,
        "_forbidden": state.forbidden_bid(),
        "_blind": dealt and state.is_blind_hand,
        # Every seat sees every bid but while simultaneous bids are secret: then each its own.
        "_bids": None if _secret_bids(state) else (tuple(state.bids), tuple(bid is not None for bid in state.bids)),
    }
    return shared, private


def _closing_trick(finished: tuple[HandSummary, ...], players: int) -> CompletedTrick | None:
    """The last trick of the newest finished hand, if it was played with cards."""
    if not finished:
        return None
    hand = finished[-1]
    if not hand.plays or not hand.trick_winners or len(hand.plays) < players:
        return None
    cards = hand.plays[-players:]
    return CompletedTrick(cards[0][0], cards, hand.trick_winners[-1])


_SORTED_HANDS: dict[int, tuple[Card, ...]] = {}


def _sorted_hand(mask: int) -> tuple[Card, ...]:
    """A hand in display order (cached by its mask: views are built after every action)."""
    hand = _SORTED_HANDS.get(mask)
    if hand is None:
        if len(_SORTED_HANDS) > 50_000:
            _SORTED_HANDS.clear()
        hand = _SORTED_HANDS[mask] = tuple(sort_for_display(cards_of(mask)))
    return hand


def _seat_view(state: State, seat: int | None, private: dict[str, Any], shared: dict[str, Any]) -> SeatView:
    """The view of one seat: the public parts (``shared``: the fields every view has alike;
    ``private``: what its own fields are made from) and what only this seat may know."""
    n = state.num_players
    dealt: bool = shared["dealt"]
    blind: bool = private["_blind"]
    hand: tuple[Card, ...] = ()
    visible: dict[int, tuple[Card, ...]] = {}
    if dealt and seat is not None:
        if blind:
            hand = (HIDDEN_CARD,) * state.hands[seat].bit_count()
            visible = {other: tuple(cards_of(state.hands[other])) for other in range(n) if other != seat}
        else:
            hand = _sorted_hand(state.hands[seat])
    open_bids: tuple[tuple[int | None, ...], tuple[bool, ...]] | None = private["_bids"]
    bids, has_bid = open_bids if open_bids is not None else _visible_bids(state, seat)
    legal: tuple[Action, ...] = ()
    if seat is not None:
        actions = state.legal_actions(seat)
        if blind:
            actions = [make_play(seat, HIDDEN_CARD) if isinstance(a, Play) else a for a in actions]
            actions = list(dict.fromkeys(actions))
        legal = tuple(actions)
    # The frozen dataclass's __init__ sets ~40 fields one object.__setattr__ at a time; views are
    # built for every connection after every action, so they are filled in directly instead.
    view: SeatView = object.__new__(SeatView)
    fields = view.__dict__
    fields.update(shared)
    fields.update(
        seat=seat,
        hand=hand,
        visible_hands=visible,
        bids=bids,
        has_bid=has_bid,
        legal_actions=legal,
        forbidden_bid=private["_forbidden"] if seat is None or seat == state.dealer else None,
        can_change_bid=seat is not None and private["_changer"] == seat,
        blind=blind and seat is not None,
    )
    return view


def spectator_view(state: State, names: tuple[str, ...] = ()) -> SeatView:
    """Public information only: no hand, no secret bid."""
    return seat_view(state, None, names)


def _secret_bids(state: State) -> bool:
    """Whether the bids are secret now (simultaneous bidding, until everyone has bid)."""
    return state.rules.bidding == "simultaneous" and state.phase == Phase.BIDDING


def _visible_bids(state: State, seat: int | None) -> tuple[tuple[int | None, ...], tuple[bool, ...]]:
    has_bid = tuple(bid is not None for bid in state.bids)
    if not _secret_bids(state):
        return tuple(state.bids), has_bid
    return tuple(bid if other == seat else None for other, bid in enumerate(state.bids)), has_bid


# -- views from JSON (the other side of a protocol) -----------------------------------------


def _card(text: str) -> Card:
    return HIDDEN_CARD if text == "??" else parse_card(text)


def _numbered(names: Iterable[str]) -> tuple[Card, ...]:
    """A hand's cards, a name given twice (Bust) numbered as the card and its second copy."""
    numbering = CardNumbering()
    return tuple(numbering.number(_card(name)) for name in names)


def _trick(pairs: Iterable[Any]) -> tuple[tuple[int, Card], ...]:
    return tuple((int(seat), _card(card)) for seat, card in pairs)


def _suit_or_none(text: str | None) -> int | None:
    if text is None:
        return None
    return 4 if text == "X" else parse_suit(text)


def view_from_json(data: dict[str, Any]) -> SeatView:
    """The :class:`~ohhell.views.SeatView` of its JSON form (``SeatView.to_json()``): how a
    program on the other side of the protocol gets a view back. Raises ``ValueError`` for a
    malformed view.
    """
    try:
        rules = Rules.from_json(data["rules"])
        summaries = tuple(
            HandSummary(index=int(hand["index"]), dealer=int(hand["dealer"]), size=int(hand["size"]),
                        trump=_suit_or_none(hand["trump"]),
                        turn_up=_card(hand["turn_up"]) if hand["turn_up"] is not None else None,
                        bids=tuple(hand["bids"]), tricks=tuple(hand["tricks"]), scores=tuple(hand["scores"]),
                        totals=tuple(hand["totals"]),
                        plays=_trick(hand["plays"]) if hand["plays"] is not None else None,
                        trick_winners=tuple(hand.get("trick_winners", ())), joker_high=hand.get("joker_high"),
                        trump_chooser=hand.get("trump_chooser"))
            for hand in data["finished_hands"])
        return SeatView(
            seat=data["seat"], rules=rules, version=int(data["version"]), phase=Phase[str(data["phase"]).upper()],
            hand_index=int(data["hand_index"]), hand_count=data["hand_count"], dealer=data["dealer"],
            first_dealer=data["first_dealer"], draws=_trick(data["draws"]), hand_size=int(data["hand_size"]),
            dealt=bool(data["dealt"]), trump=_suit_or_none(data["trump"]),
            turn_up=_card(data["turn_up"]) if data["turn_up"] is not None else None,
            hand=_numbered(data["hand"]),
            visible_hands={int(seat): tuple(_card(card) for card in cards)
                           for seat, cards in data["visible_hands"].items()},
            hand_counts=tuple(data["hand_counts"]), bid_order=tuple(data["bid_order"]), bids=tuple(data["bids"]),
            has_bid=tuple(data["has_bid"]), bidding_complete=bool(data["bidding_complete"]),
            tricks_won=tuple(data["tricks_won"]),
            completed_tricks=tuple(CompletedTrick(int(t["leader"]), _trick(t["cards"]), int(t["winner"]))
                                   for t in data["completed_tricks"]),
            current_trick=_trick(data["current_trick"]), trick_suit=_suit_or_none(data["trick_suit"]),
            joker_high=data["joker_high"], turn=data["turn"], actors=tuple(data["actors"]),
            legal_actions=tuple(action_from_json(action) for action in data["legal_actions"]),
            forbidden_bid=data["forbidden_bid"], can_change_bid=bool(data["can_change_bid"]),
            totals=tuple(data["totals"]), finished_hands=summaries, game_over=bool(data["game_over"]),
            winners=tuple(data["winners"]), blind=bool(data.get("blind", False)),
            scoresheet=bool(data.get("scoresheet", False)),
            hook_bid=data.get("hook_bid"),
            trump_chooser=data.get("trump_chooser"),
            closing_trick=None if not data.get("closing_trick") else CompletedTrick(
                int(data["closing_trick"]["leader"]), _trick(data["closing_trick"]["cards"]),
                int(data["closing_trick"]["winner"])),
        )
    except (KeyError, TypeError, AttributeError, InvalidCardError, OhHellError) as error:
        raise ValueError(f"not a seat view: {error!r}") from error
