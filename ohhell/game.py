"""The game state machine: cut, shuffle, deal, bid, play, score — with chance made explicit.

A :class:`Game` holds the rules; a :class:`State` is one moment of one game.
Everything that happens is an action (:mod:`ohhell.actions`) applied with
:meth:`State.apply` and taken back with :meth:`State.undo`. Chance is explicit:
at a chance node the next action is a :class:`~ohhell.actions.Draw` (cutting
for the first deal), a :class:`~ohhell.actions.Shuffle` and then a
:class:`~ohhell.actions.Cut` (after which the cards are dealt one at a time,
starting left of the dealer, and the next card is turned up), or a
:class:`~ohhell.actions.Deal` whose cards are already known (replaying a
record). :meth:`State.sample_chance` draws chance actions from a seeded
``random.Random``.

>>> import random
>>> from ohhell.rules import preset
>>> state = Game(preset("classic", players=4)).new_initial_state(first_dealer=0)
>>> rng = random.Random(7)
>>> state.apply(state.sample_chance(rng))   # shuffle
>>> state.apply(state.sample_chance(rng))   # cut, then the deal and the turn-up
>>> state.phase.name, state.turn, state.hand_size
('BIDDING', 1, 10)
>>> state.apply(Bid(1, 11))
Traceback (most recent call last):
...
ohhell.errors.IllegalActionError: seat 1 may bid 0 to 10, not 11
>>> state.apply(Bid(1, 2)); state.actors()
[2, 1]

Seat 1 may still change its bid (the bid-change window) until seat 2 bids.
An illegal action raises :class:`~ohhell.errors.IllegalActionError`, whose
``rule`` names the rule broken, and leaves the state exactly as it was.
"""

from __future__ import annotations

import enum
import hashlib
import importlib
import os
import random
import warnings
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from ohhell.actions import (
    BIDS,
    PLAYS,
    Action,
    Bid,
    ChooseTrump,
    Cut,
    Deal,
    Declare,
    Draw,
    Play,
    ReportTricks,
    Scoresheet,
    Shuffle,
    make_bid,
)
from ohhell.cards import (
    BLACK_JOKER,
    CARD_COUNT,
    CARD_RANKS,
    CARD_SUITS,
    FIRST_COPY,
    FULL_SUIT_MASKS,
    HIDDEN_CARD,
    JOKERS,
    JOKERS_MASK,
    RED_JOKER,
    SECOND_COPIES_MASK,
    SIX,
    SUIT_NAMES,
    Card,
    CardMask,
    Suit,
    card_colour,
    cards_of,
    iter_cards,
    message_card,
    original,
    parse_suit,
    second_copy,
    suit_colour,
)
from ohhell.errors import IllegalActionError
from ohhell.i18n import _
from ohhell.rules import HandPlan, Rules
from ohhell.scoring import add_to_total, bids_made, hand_score, winners


class Phase(enum.IntEnum):
    """Where a game is. Chance acts in ``CUT_FOR_DEAL``, ``SHUFFLE`` and ``CUT``."""

    CUT_FOR_DEAL = 0
    """Players draw cards; the highest rank deals first (ties draw again)."""
    SHUFFLE = 1
    """The pack is shuffled (or a known deal is given, or the hand is played with real cards)."""
    CUT = 2
    """The shuffled pack is cut; then the cards are dealt and the trump card turned."""
    BIDDING = 3
    PLAYING = 4
    DECLARING = 5
    """The player of the first joker declares it high or low (high-low jokers)."""
    TRICKS = 6
    """A hand played with real cards: the tricks taken are reported."""
    GAME_OVER = 7
    CHOOSING_TRUMP = 8
    """After the bidding of a ``trump: chosen`` hand: the highest bidder names the trump suit
    (appended, so the numbers of the other phases stay as they were)."""


CHANCE_PHASES: Final = (Phase.CUT_FOR_DEAL, Phase.SHUFFLE, Phase.CUT)
_PLAYING: Final = Phase.PLAYING
_BIDDING: Final = Phase.BIDDING
_RANKS: Final = CARD_RANKS
_SUITS: Final = CARD_SUITS
_BITS: Final = tuple(1 << card for card in range(CARD_COUNT))
# Literals, so that the compiled engine compares with constants (cards.py's names would be looked
# up at run time); checked against them at import.
_LAST_CARD: Final = 79
_FIRST_COPY: Final = 54
assert _LAST_CARD == CARD_COUNT - 1 and _FIRST_COPY == FIRST_COPY
_NO_TRUMP: Final = -1
JACK: Final = 9
_LEFT_BOWERS: Final = (9 + 13 * 3, 9 + 13 * 2, 9 + 13 * 1, 9 + 13 * 0)
"""The left bower of each trump suit: the jack of the other suit of its colour (♠↔♣, ♥↔♦)."""


@dataclass(frozen=True)
class HandResult:
    """A finished hand, as everyone saw it at the end.

    ``bids``, ``tricks`` and ``scores`` are indexed by seat (a bid is ``None``
    for a player who did not bid); ``bid_order`` lists the bidding seats in
    the order they bid. ``deal`` and ``plays`` are ``None`` for a hand played
    with real cards.
    """

    index: int
    dealer: int
    size: int
    trump: Suit | None
    turn_up: Card | None
    deal: tuple[tuple[Card, ...], ...] | None
    bids: tuple[int | None, ...]
    bid_order: tuple[int, ...]
    plays: tuple[Card, ...] | None
    joker_high: bool | None
    tricks: tuple[int, ...]
    scores: tuple[int, ...]
    totals: tuple[int, ...]
    trick_winners: tuple[int, ...] = ()
    """The winner of each trick in order (empty for a hand played with real cards)."""
    trump_chooser: int | None = None
    """The seat that chose the trump suit (``trump: chosen``), else ``None``."""


class Game:
    """The rules of a game and a factory of states (OpenSpiel's game/state split).

    >>> from ohhell.rules import preset
    >>> Game(preset("classic", players=5)).num_players
    5
    """

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.num_players = rules.players
        self.deck_mask: CardMask = rules.deck_mask
        self.deck: tuple[Card, ...] = tuple(cards_of(self.deck_mask))
        self.deck_set = frozenset(self.deck)
        # The first dealer is cut for from one pack: no jokers, and no second copies (Bust), so
        # that a drawn card is never drawn again and ranks compare as numbers (docs/rules.md).
        self.cut_pack_mask: CardMask = self.deck_mask & ~JOKERS_MASK & ~SECOND_COPIES_MASK
        self.cut_pack: tuple[Card, ...] = tuple(cards_of(self.cut_pack_mask))
        self.schedule_length = rules.schedule_length()
        self.high_low_jokers = rules.jokers == "high-low" and bool(self.deck_mask & JOKERS_MASK)
        self.bowers = rules.bowers
        self.duplicates = bool(self.deck_mask & SECOND_COPIES_MASK)
        """Whether the pack holds two copies of some cards (Bust's second pack)."""
        self.plain_follow = not self.high_low_jokers and not rules.must_trump and not self.bowers
        """Whether the only duty in play is to follow suit (no must-trump, no joker rules)."""
        self.plain_tricks = not bool(self.deck_mask & JOKERS_MASK) and not self.bowers and not self.duplicates
        """Whether tricks are won by the highest trump or card of the led suit, with no jokers, and
        a higher card of a suit is a higher number (not so with second copies)."""
        self.general_play = self.high_low_jokers or self.bowers or self.duplicates
        """Whether a card played takes the general path (declared jokers, bowers, second copies)."""
        self.suit_masks: tuple[CardMask, ...] = tuple(mask & self.deck_mask for mask in FULL_SUIT_MASKS)
        """The cards of each suit in this pack. Without second copies these are one pack's, below
        bit 54: small integers, which the compiled engine combines fastest."""
        self.special_legal = self.high_low_jokers or self.duplicates
        """Whether the legal cards need more than following suit (high-low jokers; identical
        cards, which are one choice)."""

    def new_initial_state(self, first_dealer: int | None = None) -> State:
        """A game before anything happened: players first cut for the deal, unless
        ``first_dealer`` is given (as a record gives it)."""
        return State(self, first_dealer)

    def __reduce__(self) -> tuple[Any, ...]:
        return (Game, (self.rules,))

    def __repr__(self) -> str:
        return f"Game({self.rules!r})"


class State:
    """One moment of a game. See the module docstring."""

    def __init__(self, game: Game, first_dealer: int | None = None, _blank: bool = False) -> None:
        if _blank:  # for clone(), which sets every attribute itself
            return
        rules = game.rules
        n = game.num_players
        self.game = game
        self.rules = rules
        self.num_players = n
        self.history: list[Action] = []
        # What undo() needs to take each action back: a small tuple tagged "play", "bid",
        # "chance" (cheap to take back) or "snapshot" (the whole state before the action).
        self._undo_stack: list[tuple[Any, ...]] = []
        # The cut for the first deal.
        self.draws: list[tuple[int, Card]] = []
        self._cut_round: list[int] = list(range(n))
        self._cut_drawn: tuple[tuple[int, Card], ...] = ()
        self._cut_out: CardMask = 0  # cards drawn and not returned to the pack
        self.first_dealer: int | None = None
        # The game so far.
        self.finished_hands: list[HandResult] = []
        self.totals: list[int] = [0] * n
        # The hand in progress.
        self.hand_index = 0
        self.dealer = 0
        self.plan: HandPlan | None = rules.hand_plan(0)
        self.hand_size = self.plan.size if self.plan else 0
        self.pack: tuple[Card, ...] = ()
        self.deal: tuple[tuple[Card, ...], ...] | None = None
        self.hands: list[CardMask] = [0] * n
        self.turn_up: Card | None = None
        self.trump: Suit | None = None
        self._trump_mask: CardMask = 0
        self.trump_chooser: int | None = None
        """The highest bidder, who chooses trump in a ``trump: chosen`` hand (set when bidding ends)."""
        # The cards of each suit for following it: the pack's, but with bowers the left bower
        # is moved from its own suit to the trump suit.
        self._suit_masks: tuple[CardMask, ...] = game.suit_masks
        self.scoresheet = False
        self.bid_order: tuple[int, ...] = ()
        self.bids: list[int | None] = [None] * n
        self._bids_in = 0
        self.plays: list[Card] = []
        self.play_seats: list[int] = []
        self.trick_leaders: list[int] = []
        self.trick_winners: list[int] = []
        self.tricks_won: list[int] = [0] * n
        self._trick_suit: Suit | None = None
        self._turn = -1
        self.joker_high: bool | None = None
        self.reported_tricks: tuple[int, ...] | None = None
        self._hand_plays = 0
        self._in_turn = rules.bidding == "in-turn"
        self.phase = Phase.CUT_FOR_DEAL
        if first_dealer is not None:
            if not isinstance(first_dealer, int) or not 0 <= first_dealer < n:
                raise IllegalActionError("bad-dealer", _("the first dealer must be a seat from 0 to %(last)d, "
                                                         "not %(seat)r") % {"last": n - 1, "seat": first_dealer})
            self._set_first_dealer(first_dealer)

    # ------------------------------------------------------------------ queries

    @property
    def turn(self) -> int | None:
        """The seat whose action moves the game on, or ``None`` at a chance node, under
        simultaneous bidding, or when the game is over."""
        phase = self.phase
        if phase is _PLAYING or phase == Phase.DECLARING:
            return self._turn
        if phase == Phase.CHOOSING_TRUMP:
            return self.trump_chooser
        if phase == Phase.BIDDING:
            if self.rules.bidding == "simultaneous":
                return None
            return self.bid_order[self._bids_in]
        return None

    def actors(self) -> list[int]:
        """Every seat that may act now: the seat on turn first, then a seat that may still
        change its bid; under simultaneous bidding, every seat that has not bid yet."""
        phase = self.phase
        if phase == Phase.BIDDING:
            if self.rules.bidding == "simultaneous":
                return [seat for seat in self.bid_order if self.bids[seat] is None]
            seats = [self.bid_order[self._bids_in]]
        elif phase == Phase.PLAYING:
            seats = [self._turn]
        elif phase == Phase.DECLARING:
            return [self._turn]
        elif phase == Phase.CHOOSING_TRUMP:
            assert self.trump_chooser is not None
            return [self.trump_chooser]
        elif phase == Phase.TRICKS:
            seats = []
        else:
            return []
        changer = self.bid_changer()
        if changer is not None and changer not in seats:
            seats.append(changer)
        return seats

    def bid_changer(self) -> int | None:
        """The seat that may still change its bid now, if any (the bid-change window)."""
        if not self.rules.bid_changes or self.rules.bidding != "in-turn":
            return None
        phase = self.phase
        if phase == Phase.BIDDING:
            return self.bid_order[self._bids_in - 1] if self._bids_in else None
        if self.trump_chooser is not None:
            return None  # the trump was chosen for the bids as they stood: they stay so
        if (phase == Phase.PLAYING and not self.plays) or phase == Phase.TRICKS:
            return self.bid_order[-1] if self.bid_order else None
        return None

    def is_chance_node(self) -> bool:
        """Whether chance acts next (the cut for the deal, the shuffle, the cut of the pack)."""
        return self.phase in CHANCE_PHASES

    def is_terminal(self) -> bool:
        """Whether the game is over."""
        return self.phase == Phase.GAME_OVER

    def hand(self, seat: int) -> list[Card]:
        """The cards ``seat`` holds now, lowest first."""
        return cards_of(self.hands[seat])

    @property
    def is_blind_hand(self) -> bool:
        """Whether each player may not see their own cards in this hand (Devil's Bridge)."""
        return (self.rules.devils_bridge and self.hand_size == 1 and self.game.schedule_length is not None
                and self.hand_index == self.game.schedule_length - 1)

    @property
    def bidding_complete(self) -> bool:
        return self._bids_in == len(self.bid_order) and self.phase not in CHANCE_PHASES

    def forbidden_bid(self) -> int | None:
        """The bid the hook forbids the seat bidding now (the dealer), or ``None``."""
        if self.phase not in (Phase.BIDDING, Phase.PLAYING, Phase.TRICKS) or not self.rules.hook:
            return None
        if self.rules.bidding != "in-turn" or self.dealer not in self.bid_order:
            return None
        if self.phase == Phase.BIDDING and self.bid_order[self._bids_in] != self.dealer:
            return None
        if self.phase == Phase.PLAYING and self.plays:
            return None
        others = sum(bid for seat, bid in enumerate(self.bids) if seat != self.dealer and bid is not None)
        forbidden = self.hand_size - others
        return forbidden if 0 <= forbidden <= self.hand_size else None

    def current_trick(self) -> list[tuple[int, Card]]:
        """The cards of the trick in progress, as ``(seat, card)`` in the order played.

        A trick whose last card is the first joker of a hand (high-low jokers) is still in
        progress while that joker is declared: its winner depends on the declaration, so it
        is here, whole, and not yet among :meth:`completed_tricks`.
        """
        count = len(self.plays)
        n = self.num_players
        start = count - count % n
        if start == count and count and self.phase == Phase.DECLARING:
            start -= n
        return list(zip(self.play_seats[start:], self.plays[start:], strict=True))

    def completed_tricks(self) -> list[tuple[int, list[tuple[int, Card]], int]]:
        """Every finished trick of this hand as ``(leader, [(seat, card), …], winner)``."""
        n = self.num_players
        out = []
        for index, winner in enumerate(self.trick_winners):
            start = index * n
            cards = list(zip(self.play_seats[start:start + n], self.plays[start:start + n], strict=True))
            out.append((self.trick_leaders[index], cards, winner))
        return out

    def trick_suit(self) -> Suit | None:
        """The suit players must follow in the trick in progress (``None`` when leading, or
        after a joker lead whose suit is not fixed yet)."""
        return self._trick_suit if len(self.plays) % self.num_players else None

    @property
    def trump_mask(self) -> CardMask:
        """The cards that are trump in this hand."""
        return self._trump_mask

    def winners(self) -> list[int]:
        """The winning seats of a finished game (several when tied); empty before the end."""
        if self.phase != Phase.GAME_OVER:
            return []
        return winners(self.rules, self.totals)

    def returns(self) -> list[int]:
        """The cumulative totals (OpenSpiel's name)."""
        return list(self.totals)

    def bid_sum(self) -> int:
        return sum(bid for bid in self.bids if bid is not None)

    # ------------------------------------------------------------ legal actions

    def legal_actions(self, seat: int | None = None) -> list[Action]:
        """The legal actions of ``seat``, or of every seat that may act now.

        At a chance node this is empty: chance outcomes come from :meth:`sample_chance`
        (a shuffle has 52! outcomes) or from :meth:`chance_outcomes` where they are few.
        """
        phase = self.phase
        out: list[Action] = []
        if phase is _PLAYING:
            turn = self._turn
            if seat is None or seat == turn:
                hand = self.hands[turn]
                if self.game.special_legal:
                    mask = self._one_of_each(self._legal_play_mask(turn))
                elif len(self.plays) % self.num_players == 0:
                    mask = hand
                else:
                    mask = hand & self._suit_masks[self._trick_suit]  # type: ignore[index]
                    if not mask:
                        mask = self._legal_play_mask(turn)
                table = PLAYS[turn]
                while mask:
                    low = mask & -mask
                    out.append(table[low.bit_length() - 1])
                    mask ^= low
            if not self.plays and self.rules.bid_changes:
                self._add_bid_changes(out, seat)
            return out
        if phase is _BIDDING:
            if self.rules.bidding == "simultaneous":
                for bidder in self.bid_order:
                    if self.bids[bidder] is None and (seat is None or seat == bidder):
                        out.extend(make_bid(bidder, bid) for bid in range(self.hand_size + 1))
                return out
            bidder = self.bid_order[self._bids_in]
            if seat is None or seat == bidder:
                out.extend(self._bid_choices(bidder, None))
            if self._bids_in and self.rules.bid_changes:
                self._add_bid_changes(out, seat)
            return out
        if phase == Phase.DECLARING:
            if seat is None or seat == self._turn:
                out.extend((Declare(self._turn, True), Declare(self._turn, False)))
            return out
        if phase == Phase.CHOOSING_TRUMP:
            chooser = self.trump_chooser
            assert chooser is not None
            if seat is None or seat == chooser:
                out.extend(ChooseTrump(chooser, suit) for suit in range(4))
            return out
        if phase == Phase.TRICKS:
            self._add_bid_changes(out, seat)
            return out
        return out

    def _add_bid_changes(self, out: list[Action], seat: int | None) -> None:
        changer = self.bid_changer()
        if changer is None or (seat is not None and seat != changer):
            return
        out.extend(self._bid_choices(changer, self.bids[changer]))

    def _bid_choices(self, seat: int, current: int | None) -> list[Bid]:
        """The bids ``seat`` may make now (other than ``current``), the hook honoured."""
        size = self.hand_size
        if seat < len(BIDS) and size < len(BIDS[0]):
            choices = list(BIDS[seat][:size + 1])
        else:
            choices = [make_bid(seat, bid) for bid in range(size + 1)]
        forbidden = self._forbidden_for(seat)
        if forbidden is not None:
            del choices[forbidden]
            if current is not None and current > forbidden:
                current -= 1
        if current is not None:
            del choices[current]
        return choices

    def _forbidden_for(self, seat: int) -> int | None:
        if not self.rules.hook or seat != self.dealer or self.rules.bidding != "in-turn":
            return None
        others = sum(bid for other, bid in enumerate(self.bids) if other != seat and bid is not None)
        forbidden = self.hand_size - others
        return forbidden if 0 <= forbidden <= self.hand_size else None

    def _one_of_each(self, mask: CardMask) -> CardMask:
        """``mask`` with one card of each pair of identical cards (Bust): they are one choice,
        since which of two identical cards is played changes nothing."""
        copies = mask & SECOND_COPIES_MASK
        while copies:
            low = copies & -copies
            copies ^= low
            if mask >> original(low.bit_length() - 1) & 1:
                mask ^= low
        return mask

    def _held_identical(self, seat: int, card: Card) -> Card:
        """The card identical to ``card`` that ``seat`` holds (Bust: a card named in a record or
        by a front end may be either copy), or ``card`` itself when none is held."""
        if not self.game.duplicates or not 0 <= card <= _LAST_CARD:
            return card
        hand = self.hands[seat]
        first = original(card)
        if hand >> first & 1:
            return first
        copy = second_copy(first)
        return copy if copy is not None and hand >> copy & 1 else card

    def _legal_play_mask(self, seat: int) -> CardMask:
        hand = self.hands[seat]
        n_plays = len(self.plays)
        if self.game.high_low_jokers:
            return self._legal_high_low_mask(hand, n_plays)
        if n_plays % self.num_players == 0:
            return hand
        follow = hand & self._suit_masks[self._trick_suit]  # type: ignore[index]
        if follow:
            return follow
        if self.rules.must_trump:
            trumps = hand & self._trump_mask
            if trumps:
                return trumps
        return hand

    def _legal_high_low_mask(self, hand: CardMask, n_plays: int) -> CardMask:
        jokers = hand & JOKERS_MASK
        others = hand & ~JOKERS_MASK
        first_trick = n_plays < self.num_players
        if n_plays % self.num_players == 0:
            # A joker may not be led unless the player holds nothing else.
            return others or hand
        suit = self._trick_suit
        mask = others
        if suit is not None:
            follow = others & self._suit_masks[suit]
            if follow:
                mask = follow
            elif self.rules.must_trump and others & self._trump_mask:
                mask = others & self._trump_mask
        if first_trick:
            return mask or hand  # no jokers in the first trick, unless nothing else is held
        return mask | jokers  # otherwise a joker may be played to any trick

    def is_legal(self, action: Action) -> bool:
        """Whether ``action`` may be applied now."""
        try:
            self._check(action)
        except IllegalActionError:
            return False
        return True

    # --------------------------------------------------------------- chance

    def chance_outcomes(self) -> list[tuple[Action, float]]:
        """The chance outcomes with their probabilities, where they can be listed
        (the cut for the deal and the cut of the pack; not the shuffle)."""
        if self.phase == Phase.CUT_FOR_DEAL:
            drawer = self._cut_round[len(self._cut_drawn)]
            pack = self._cut_pack_left()
            return [(Draw(drawer, card), 1 / len(pack)) for card in pack]
        if self.phase == Phase.CUT:
            positions = range(1, len(self.pack))
            return [(Cut(position), 1 / len(positions)) for position in positions]
        raise IllegalActionError("not-listable", _("the outcomes of a shuffle cannot be listed; "
                                                   "use sample_chance()"))

    def sample_chance(self, rng: random.Random) -> Action:
        """A chance action drawn with ``rng`` (deterministic from its seed)."""
        phase = self.phase
        if phase == Phase.SHUFFLE:
            # Sorting by independent uniform keys gives a uniform random order (and is faster
            # than random.shuffle in Python).
            rand = rng.random
            return Shuffle(tuple(sorted(self.game.deck, key=lambda _card: rand())))
        if phase == Phase.CUT:
            return Cut(rng.randrange(1, len(self.pack)))
        if phase == Phase.CUT_FOR_DEAL:
            drawer = self._cut_round[len(self._cut_drawn)]
            pack = self.game.cut_pack
            out = self._cut_out
            for _attempt in range(8):  # usually the first card drawn at random is still in the pack
                card = pack[int(rng.random() * len(pack))]
                if not out >> card & 1:
                    return Draw(drawer, card)
            left = self._cut_pack_left()
            return Draw(drawer, left[int(rng.random() * len(left))])
        raise IllegalActionError("not-chance", _("chance does not act now"))

    def _cut_pack_left(self) -> list[Card]:
        """The cards that may be drawn next when cutting for the deal."""
        out = self._cut_out
        return [card for card in self.game.cut_pack if not out >> card & 1]

    def _may_draw(self, card: Card) -> bool:
        return 0 <= card < 52 and bool((self.game.cut_pack_mask & ~self._cut_out) >> card & 1)

    # --------------------------------------------------------------- apply / undo

    def apply(self, action: Action) -> None:
        """Apply ``action``; raise :class:`IllegalActionError` (state unchanged) if it is illegal."""
        if action.__class__ is Play and self.phase is _PLAYING:
            self._apply_play(action)
            return
        if action.__class__ is Bid and self.phase is _BIDDING:
            self._apply_bid_fast(action)
            return
        self._check(action)
        if action.__class__ is Draw or action.__class__ is Shuffle:
            # Cheap to take back: only the cut (or the pack) and where the game is change.
            entry: tuple[Any, ...] = ("chance", self.phase, self.pack, self._cut_round, self._cut_drawn,
                                         self._cut_out, self.first_dealer, self.dealer, self.bid_order)
            self._apply_checked(action)
            self._undo_stack.append(entry)
            self.history.append(action)
            return
        snapshot = self._snapshot()
        try:
            self._apply_checked(action)
        except BaseException:
            self._restore(snapshot)
            raise
        self._undo_stack.append(snapshot)
        self.history.append(action)

    def undo(self) -> Action:
        """Take back the last action and return it (python-chess's ``pop``)."""
        if not self.history:
            raise IllegalActionError("nothing-to-undo", _("there is nothing to undo"))
        entry = self._undo_stack.pop()
        action = self.history.pop()
        tag = entry[0]
        if tag == "chance":
            (_tag, self.phase, self.pack, self._cut_round, self._cut_drawn,
             self._cut_out, self.first_dealer, self.dealer, self.bid_order) = entry
            if type(action) is Draw:
                self.draws.pop()
        elif tag == "bid":
            _tag, seat, previous_bid, self._bids_in, self.phase, self._turn, leaders = entry
            self.bids[seat] = previous_bid
            self.trump_chooser = None  # chosen only once every bid is in
            del self.trick_leaders[leaders:]
        elif tag == "play":
            _tag, seat, card, previous_suit, completed = entry
            if completed:
                winner = self.trick_winners.pop()
                self.trick_leaders.pop()
                self.tricks_won[winner] -= 1
            self.plays.pop()
            self.play_seats.pop()
            self.hands[seat] |= _BITS[card]
            self._trick_suit = previous_suit
            self._turn = seat
        else:
            self._restore(entry)
        return action

    def clone(self) -> State:
        """An independent copy (with its own history, so it can undo too)."""
        other = State(self.game, _blank=True)
        for name in _STATE_FIELDS:
            setattr(other, name, getattr(self, name))
        for name in _LIST_FIELDS:
            setattr(other, name, list(getattr(self, name)))
        return other

    # -- the fast paths: a bid, and a card played in the middle of a hand.

    def _apply_bid_fast(self, action: Bid) -> None:
        seat, bid = action.seat, action.bid
        bid_order = self.bid_order
        if not (self._in_turn and type(seat) is int and 0 <= seat < self.num_players and self.bids[seat] is None
                and seat == bid_order[self._bids_in] and type(bid) is int and 0 <= bid <= self.hand_size
                and (seat != self.dealer or not self.rules.hook)):
            self._check_bid(action)  # the common case is checked above; this covers the rest
        entry = ("bid", action.seat, self.bids[action.seat], self._bids_in, self.phase, self._turn,
                 len(self.trick_leaders))
        self._apply_bid(action.seat, action.bid)
        self._undo_stack.append(entry)
        self.history.append(action)

    def _apply_play(self, action: Play) -> None:
        seat = action.seat
        card = action.card
        plays = self.plays
        n = self.num_players
        count = len(plays)
        position = count % n
        if seat != self._turn or type(card) is not int or card < 0 or card > _LAST_CARD:
            if seat != self._turn:
                self._raise_not_your_turn(seat)
            if type(card) is not int:
                raise IllegalActionError("not-a-card", _("%(card)r is not a card") % {"card": card})
            if card == HIDDEN_CARD:
                card = self._hidden_card(seat)
            else:
                self._raise_illegal_play(seat, card)
        bit = _BITS[card]
        hand = self.hands[seat]
        if not hand & bit:
            held = self._held_identical(seat, card)  # the other copy of the card named (Bust)
            if held == card:
                self._raise_illegal_play(seat, card)
            card, bit = held, _BITS[held]
            action = Play(seat, held)
        if self.game.plain_follow:
            # Follow suit if you can, else play anything: checked inline for speed.
            if position:
                suit_mask = self._suit_masks[self._trick_suit]  # type: ignore[index]
                if hand & suit_mask and not bit & suit_mask:
                    self._raise_illegal_play(seat, card)
        elif not self._legal_play_mask(seat) & bit:
            self._raise_illegal_play(seat, card)
        if self.game.general_play or count + 1 == self._hand_plays:
            # Rare cases (jokers declared, bowers, second copies, the end of the hand) take the
            # general path.
            if self.game.duplicates and card >= _FIRST_COPY and hand >> original(card) & 1:
                # Of two identical cards held the first copy is played: the same card either way,
                # and the same numbers as a record replayed (which names only the card).
                card = original(card)
                action = Play(seat, card)
            snapshot = self._snapshot()
            self._apply_play_general(seat, card)
            self._undo_stack.append(snapshot)
            self.history.append(action)
            return
        previous_suit = self._trick_suit
        self.hands[seat] = hand ^ bit
        plays.append(card)
        self.play_seats.append(seat)
        if position == 0:
            self._trick_suit = card // 13
        if position == n - 1:
            winner = self._trick_winner()
            self.trick_winners.append(winner)
            self.trick_leaders.append(winner)
            self.tricks_won[winner] += 1
            self._turn = winner
            self._undo_stack.append(("play", seat, card, previous_suit, True))
        else:
            self._turn = (seat + 1) % n
            self._undo_stack.append(("play", seat, card, previous_suit, False))
        self.history.append(action)

    def _hidden_card(self, seat: int) -> Card:
        if not self.is_blind_hand:
            raise IllegalActionError("not-blind", _("seat %(seat)d can see its cards and must name the card "
                                                    "it plays") % {"seat": seat})
        return (self.hands[seat] & -self.hands[seat]).bit_length() - 1

    def _raise_not_your_turn(self, seat: int) -> None:
        if self.phase == Phase.PLAYING:
            raise IllegalActionError("not-your-turn", _("it is seat %(turn)d's turn to play, not seat %(seat)d's")
                                     % {"turn": self._turn, "seat": seat})
        raise IllegalActionError("not-your-turn", _("seat %(seat)d may not act now") % {"seat": seat})

    def _raise_illegal_play(self, seat: int, card: Card) -> None:
        if not 0 <= card <= _LAST_CARD or not _BITS[card] & self.game.deck_mask:
            # A second copy outside the pack is shown by its number: its name is a card of the pack.
            raise IllegalActionError("not-a-card", _("%(card)s is not a card of this deck")
                                     % {"card": message_card(card) if 0 <= card < _FIRST_COPY else repr(card)})
        hand = self.hands[seat]
        if not hand & _BITS[card]:
            raise IllegalActionError("not-in-hand", _("seat %(seat)d does not hold %(card)s")
                                     % {"seat": seat, "card": message_card(card)})
        n_plays = len(self.plays)
        leading = n_plays % self.num_players == 0
        if self.game.high_low_jokers and card >= RED_JOKER:
            if leading:
                raise IllegalActionError("joker-lead", _("seat %(seat)d may not lead a joker while holding "
                                                         "other cards") % {"seat": seat})
            raise IllegalActionError("joker-first-trick", _("seat %(seat)d may not play a joker to the first "
                                                            "trick") % {"seat": seat})
        suit = self._trick_suit
        if not leading and suit is not None and hand & self._suit_masks[suit]:
            raise IllegalActionError("follow-suit", _("seat %(seat)d must follow %(suit)s but played %(card)s")
                                     % {"seat": seat, "suit": _(SUIT_NAMES[suit]), "card": message_card(card)})
        if self.rules.must_trump and hand & self._trump_mask:
            raise IllegalActionError("must-trump", _("seat %(seat)d cannot follow suit and must trump, but "
                                                     "played %(card)s") % {"seat": seat, "card": message_card(card)})
        raise IllegalActionError("illegal-play", _("seat %(seat)d may not play %(card)s now")
                                 % {"seat": seat, "card": message_card(card)})

    # -- checks (no change to the state) ---------------------------------------------

    def _check(self, action: Action) -> None:
        phase = self.phase
        kind = type(action)
        if phase == Phase.GAME_OVER:
            raise IllegalActionError("game-over", _("the game is over"))
        if phase in CHANCE_PHASES:
            self._check_chance(action)
            return
        if kind is Bid:
            self._check_bid(action)  # type: ignore[arg-type]
        elif kind is Play:
            assert isinstance(action, Play)
            if phase != Phase.PLAYING:
                if phase == Phase.CHOOSING_TRUMP:
                    raise IllegalActionError("choose-trump-first", _("seat %(seat)d must first choose trump")
                                             % {"seat": self.trump_chooser})
                if phase == Phase.DECLARING:
                    raise IllegalActionError("declare-first", _("seat %(seat)d must first declare the joker high "
                                                                "or low") % {"seat": self._turn})
                raise IllegalActionError("not-playing", _("no card may be played now: bidding is not over"))
            if action.seat != self._turn:
                self._raise_not_your_turn(action.seat)
            card = self._hidden_card(action.seat) if action.card == HIDDEN_CARD else action.card
            if isinstance(card, int):
                card = self._held_identical(action.seat, card)
            if not isinstance(card, int) or card < 0 or card > _LAST_CARD or not (
                    self._legal_play_mask(action.seat) & _BITS[card]):
                self._raise_illegal_play(action.seat, card)
        elif kind is Declare:
            assert isinstance(action, Declare)
            if phase != Phase.DECLARING:
                raise IllegalActionError("no-declaration", _("there is no joker to declare now"))
            if action.seat != self._turn:
                raise IllegalActionError("not-your-turn", _("seat %(turn)d declares the joker, not seat %(seat)d")
                                         % {"turn": self._turn, "seat": action.seat})
        elif kind is ChooseTrump:
            assert isinstance(action, ChooseTrump)
            self._check_trump_choice(action)
        elif kind is ReportTricks:
            assert isinstance(action, ReportTricks)
            if phase == Phase.CHOOSING_TRUMP:
                raise IllegalActionError("choose-trump-first", _("seat %(seat)d must first choose trump")
                                         % {"seat": self.trump_chooser})
            if phase != Phase.TRICKS:
                raise IllegalActionError("not-tricks", _("tricks are reported only after the bidding of a "
                                                         "hand played with real cards"))
            self._check_tricks(action.tricks)
        elif kind in (Draw, Shuffle, Cut, Deal, Scoresheet):
            raise IllegalActionError("not-chance", _("the players act now, not chance"))
        else:
            raise IllegalActionError("not-an-action", _("%(value)r is not an action") % {"value": action})

    def _check_bid(self, action: Bid) -> None:
        seat, bid = action.seat, action.bid
        phase = self.phase
        n = self.num_players
        if not isinstance(seat, int) or not 0 <= seat < n:
            raise IllegalActionError("no-such-seat", _("there is no seat %(seat)r") % {"seat": seat})
        if seat not in self.bid_order:
            raise IllegalActionError("no-bid", _("seat %(seat)d does not bid this hand (total %(total)d)")
                                     % {"seat": seat, "total": self.totals[seat]})
        if not isinstance(bid, int) or isinstance(bid, bool) or not 0 <= bid <= self.hand_size:
            raise IllegalActionError("bid-range", _("seat %(seat)d may bid 0 to %(size)d, not %(bid)s")
                                     % {"seat": seat, "size": self.hand_size, "bid": bid})
        if phase == Phase.BIDDING and self.rules.bidding == "simultaneous":
            if self.bids[seat] is not None:
                raise IllegalActionError("already-bid", _("seat %(seat)d has already bid") % {"seat": seat})
            return
        changing = self.bids[seat] is not None
        if not changing:
            if phase != Phase.BIDDING:
                raise IllegalActionError("bidding-over", _("bidding is over"))
            if seat != self.bid_order[self._bids_in]:
                raise IllegalActionError("not-your-turn", _("it is seat %(turn)d's turn to bid, not seat %(seat)d's")
                                         % {"turn": self.bid_order[self._bids_in], "seat": seat})
        else:
            if seat != self.bid_changer():
                raise IllegalActionError("bid-window-closed", _("seat %(seat)d may no longer change its bid")
                                         % {"seat": seat})
            if bid == self.bids[seat]:
                raise IllegalActionError("same-bid", _("seat %(seat)d has already bid %(bid)d")
                                         % {"seat": seat, "bid": bid})
        forbidden = self._forbidden_for(seat)  # the dealer bids last, so every other bid is in
        if forbidden is not None and bid == forbidden:
            raise IllegalActionError("hook", _("the dealer may not bid %(bid)d: the bids would add up to %(size)d, "
                                               "the number of tricks") % {"bid": bid, "size": self.hand_size})

    def _check_trump_choice(self, action: ChooseTrump) -> None:
        if self.phase != Phase.CHOOSING_TRUMP:
            raise IllegalActionError("no-trump-choice", _("nobody chooses trump now: in these rules the highest "
                                                          "bidder chooses it once the bidding is over")
                                     if self.plan is not None and self.plan.trump == "chosen"
                                     else _("nobody chooses trump in this hand"))
        if action.seat != self.trump_chooser:
            raise IllegalActionError("not-your-turn", _("seat %(chooser)d, the highest bidder, chooses trump, not "
                                                        "seat %(seat)d") % {"chooser": self.trump_chooser,
                                                                             "seat": action.seat})
        if not isinstance(action.suit, int) or not 0 <= action.suit < 4:
            raise IllegalActionError("bad-suit", _("%(suit)r is not a suit: trump is spades, hearts, diamonds or "
                                                   "clubs") % {"suit": action.suit})

    def _check_tricks(self, tricks: Sequence[int]) -> None:
        n = self.num_players
        if len(tricks) != n or not all(isinstance(t, int) and not isinstance(t, bool) and t >= 0 for t in tricks):
            raise IllegalActionError("bad-tricks", _("tricks must be %(n)d whole numbers of 0 or more, one per seat")
                                     % {"n": n})
        if sum(tricks) != self.hand_size:
            raise IllegalActionError("bad-tricks", _("the tricks add up to %(sum)d, but %(size)d were played")
                                     % {"sum": sum(tricks), "size": self.hand_size})

    def _check_chance(self, action: Action) -> None:
        phase = self.phase
        kind = type(action)
        if phase == Phase.CUT_FOR_DEAL:
            if kind is not Draw:
                raise IllegalActionError("chance-expected", _("the players are cutting for the first deal"))
            assert isinstance(action, Draw)
            drawer = self._cut_round[len(self._cut_drawn)]
            if action.seat != drawer:
                raise IllegalActionError("not-your-turn", _("seat %(drawer)d draws next, not seat %(seat)d")
                                         % {"drawer": drawer, "seat": action.seat})
            if not self._may_draw(action.card):
                raise IllegalActionError("bad-card", _("%(card)s cannot be drawn now")
                                         % {"card": message_card(action.card)})
            return
        if phase == Phase.CUT:
            if kind is not Cut:
                raise IllegalActionError("chance-expected", _("the pack is to be cut now"))
            assert isinstance(action, Cut)
            if not isinstance(action.position, int) or not 1 <= action.position < len(self.pack):
                raise IllegalActionError("bad-cut", _("a cut takes 1 to %(last)d cards, not %(position)r")
                                         % {"last": len(self.pack) - 1, "position": action.position})
            return
        # Phase.SHUFFLE
        if kind is Shuffle:
            assert isinstance(action, Shuffle)
            if len(action.order) != len(self.game.deck) or frozenset(action.order) != self.game.deck_set:
                raise IllegalActionError("bad-shuffle", _("a shuffle must order every card of the deck once"))
        elif kind is Deal:
            assert isinstance(action, Deal)
            self._check_deal(action)
        elif kind is Scoresheet:
            assert isinstance(action, Scoresheet)
            self._check_scoresheet(action)
        else:
            raise IllegalActionError("chance-expected", _("the cards are to be shuffled and dealt now"))

    def _stock_after_deal(self) -> int:
        return len(self.game.deck) - self.num_players * self.hand_size

    def _turns_up(self) -> bool:
        assert self.plan is not None
        return self.plan.trump in ("turn-up", "turn-up-low-none") and self._stock_after_deal() > 0

    def _check_deal(self, action: Deal) -> None:
        n, size = self.num_players, self.hand_size
        if len(action.hands) != n:
            raise IllegalActionError("bad-deal", _("the deal must give cards to %(n)d seats, not %(count)d")
                                     % {"n": n, "count": len(action.hands)})
        seen = 0
        for seat, cards in enumerate(action.hands):
            if len(cards) != size:
                raise IllegalActionError("bad-deal", _("seat %(seat)d was dealt %(count)d cards, not %(size)d")
                                         % {"seat": seat, "count": len(cards), "size": size})
            for card in cards:
                if (isinstance(card, int) and _FIRST_COPY <= card <= _LAST_CARD
                        and not _BITS[card] & self.game.deck_mask):
                    # A name given twice is read as the second copy (Bust): this pack has none.
                    raise IllegalActionError("bad-deal", _("%(card)s was dealt twice") % {"card": message_card(card)})
                if not isinstance(card, int) or not 0 <= card <= _LAST_CARD or not _BITS[card] & self.game.deck_mask:
                    raise IllegalActionError("bad-card", _("%(card)s is not a card of this deck")
                                             % {"card": message_card(card)})
                if seen & _BITS[card]:
                    raise IllegalActionError("bad-deal", _("%(card)s was dealt twice") % {"card": message_card(card)})
                seen |= _BITS[card]
        turn_up = action.turn_up
        if self._turns_up():
            if turn_up is None:
                raise IllegalActionError("bad-trump", _("a card must be turned up for trump: %(left)d cards are "
                                                        "left after the deal") % {"left": self._stock_after_deal()})
            if _FIRST_COPY <= turn_up <= _LAST_CARD and not _BITS[turn_up] & self.game.deck_mask:
                raise IllegalActionError("bad-trump", _("the turned-up card %(card)s was also dealt")
                                         % {"card": message_card(turn_up)})
            if not 0 <= turn_up <= _LAST_CARD or not _BITS[turn_up] & self.game.deck_mask:
                raise IllegalActionError("bad-card", _("%(card)s is not a card of this deck")
                                         % {"card": message_card(turn_up)})
            if seen & _BITS[turn_up]:
                raise IllegalActionError("bad-trump", _("the turned-up card %(card)s was also dealt")
                                         % {"card": message_card(turn_up)})
        elif turn_up is not None:
            raise IllegalActionError("bad-trump", self._no_turn_up_reason())

    def _no_turn_up_reason(self) -> str:
        assert self.plan is not None
        if self.plan.trump in ("turn-up", "turn-up-low-none"):
            return _("no card is turned up: the whole pack was dealt")
        return _("no card is turned up in this hand (its trump is %(trump)s)") % {"trump": self._plan_trump_words()}

    def _plan_trump_words(self) -> str:
        assert self.plan is not None
        if self.plan.trump == "none":
            return _("no trump")
        if self.plan.trump == "chosen":
            return _("chosen by the highest bidder after the bidding")
        return _(SUIT_NAMES[parse_suit(self.plan.trump)])

    def _check_scoresheet(self, action: Scoresheet) -> None:
        assert self.plan is not None
        plan_trump = self.plan.trump
        if action.turn_up is not None and action.trump is not None:
            raise IllegalActionError("bad-trump", _("give the turned card or the trump suit, not both"))
        if action.turn_up is not None:
            if not self._turns_up() and not self.rules.real_cards:
                raise IllegalActionError("bad-trump", self._no_turn_up_reason())
            if not plan_trump.startswith("turn-up"):
                raise IllegalActionError("bad-trump", self._no_turn_up_reason())
            card = action.turn_up
            if not 0 <= card <= _LAST_CARD or not _BITS[card] & self.game.deck_mask:
                raise IllegalActionError("bad-card", _("%(card)s is not a card of this deck")
                                         % {"card": message_card(card)})
        elif action.trump is not None:
            if not 0 <= action.trump < 4:
                raise IllegalActionError("bad-trump", _("%(trump)r is not a suit") % {"trump": action.trump})
            if plan_trump.startswith("turn-up"):
                if not self._turns_up() and not self.rules.real_cards:
                    raise IllegalActionError("bad-trump", self._no_turn_up_reason())
            elif plan_trump in ("none", "chosen") or parse_suit(plan_trump) != action.trump:
                raise IllegalActionError("bad-trump", _("the trump of this hand is %(trump)s")
                                         % {"trump": self._plan_trump_words()})

    # -- applying (after the checks) ----------------------------------------------

    def _apply_checked(self, action: Action) -> None:
        kind = type(action)
        if kind is Bid:
            assert isinstance(action, Bid)
            self._apply_bid(action.seat, action.bid)
        elif kind is Play:
            assert isinstance(action, Play)
            card = self._hidden_card(action.seat) if action.card == HIDDEN_CARD else action.card
            self._apply_play_general(action.seat, self._held_identical(action.seat, card))
        elif kind is Declare:
            assert isinstance(action, Declare)
            self.joker_high = action.high
            self.phase = Phase.PLAYING
            self._after_card()
        elif kind is Draw:
            assert isinstance(action, Draw)
            self._apply_draw(action.seat, action.card)
        elif kind is Shuffle:
            assert isinstance(action, Shuffle)
            self.pack = action.order
            self.phase = Phase.CUT
        elif kind is Cut:
            assert isinstance(action, Cut)
            self._deal_from_pack(self.pack[action.position:] + self.pack[:action.position])
        elif kind is Deal:
            assert isinstance(action, Deal)
            self._start_hand(action.hands, action.turn_up)
        elif kind is Scoresheet:
            assert isinstance(action, Scoresheet)
            self.scoresheet = True
            self._start_hand(None, action.turn_up, action.trump)
        elif kind is ChooseTrump:
            assert isinstance(action, ChooseTrump)
            self._set_trump(action.suit, FULL_SUIT_MASKS[action.suit])
            self._start_play()
        elif kind is ReportTricks:
            assert isinstance(action, ReportTricks)
            self.reported_tricks = tuple(action.tricks)
            self.tricks_won = list(action.tricks)
            self._finish_hand()

    def _apply_draw(self, seat: int, card: Card) -> None:
        self.draws.append((seat, card))
        self._cut_drawn += ((seat, card),)
        self._cut_out |= 1 << card
        if len(self._cut_drawn) < len(self._cut_round):
            return
        best = max(card % 13 for _seat, card in self._cut_drawn)
        tied = [seat for seat, card in self._cut_drawn if card % 13 == best]
        if len(tied) == 1:
            self._set_first_dealer(tied[0])
        else:
            self._cut_round = tied  # the tied players cut again, among themselves only
            self._cut_drawn = ()
            if (self.game.cut_pack_mask & ~self._cut_out).bit_count() < len(tied):
                self._cut_out = 0  # the pack ran out: every drawn card goes back

    def _set_first_dealer(self, seat: int) -> None:
        self.first_dealer = seat
        self.dealer = seat
        self._begin_hand_setup()

    def _begin_hand_setup(self) -> None:
        """Before the shuffle of a hand: who bids in which order."""
        n = self.num_players
        self.phase = Phase.SHUFFLE
        order = [(self.dealer + 1 + offset) % n for offset in range(n)]
        self.bid_order = tuple(seat for seat in order if bids_made(self.rules, self.totals[seat]))

    def _deal_from_pack(self, pack: tuple[Card, ...]) -> None:
        """Deal one card at a time, starting left of the dealer, then turn up the next card."""
        n, size, dealer = self.num_players, self.hand_size, self.dealer
        dealt = n * size
        # The card at position i of the pack goes to the (i mod n)-th seat left of the dealer.
        hands = [pack[(seat - dealer - 1) % n:dealt:n] for seat in range(n)]
        turn_up = pack[dealt] if self._turns_up() else None
        self._start_hand(tuple(hands), turn_up)

    def _start_hand(self, deal: tuple[tuple[Card, ...], ...] | None, turn_up: Card | None,
                    trump_suit: Suit | None = None) -> None:
        assert self.plan is not None
        n = self.num_players
        if deal is not None and self.game.duplicates:
            deal, turn_up = _numbered_deal(deal, turn_up)
        self.deal = deal
        self._hand_plays = n * self.hand_size
        bits = _BITS.__getitem__
        self.hands = [sum(map(bits, cards)) for cards in deal] if deal is not None else [0] * n
        self.turn_up = turn_up
        self._set_trump(*self._find_trump(turn_up, trump_suit))
        self.phase = Phase.BIDDING
        self._bids_in = 0
        if not self.bid_order:
            self._bidding_over()

    def _set_trump(self, trump: Suit | None, mask: CardMask) -> None:
        """Make ``trump`` (its cards ``mask``) the trump of the hand, with the bowers if played."""
        # Only the cards of the pack: FULL_SUIT_MASKS hold the second copies too, which would make
        # the mask too wide for the C cores when there are none.
        self.trump, self._trump_mask = trump, mask & self.game.deck_mask
        if self.game.bowers and trump is not None and trump != JOKERS:
            left = _LEFT_BOWERS[trump]
            masks = list(self.game.suit_masks)
            masks[trump] |= _BITS[left]
            masks[left // 13] &= ~_BITS[left]
            self._suit_masks = tuple(masks)
            self._trump_mask |= _BITS[left]

    def _find_trump(self, turn_up: Card | None, trump_suit: Suit | None) -> tuple[Suit | None, CardMask]:
        assert self.plan is not None
        rule = self.plan.trump
        if rule in ("turn-up", "turn-up-low-none"):
            if turn_up is None:
                if trump_suit is not None:  # a scoresheet that gives the suit only
                    return trump_suit, FULL_SUIT_MASKS[trump_suit]
                return None, 0
            suit = _SUITS[turn_up]
            if suit == JOKERS:
                other = BLACK_JOKER if turn_up == RED_JOKER else RED_JOKER
                return JOKERS, _BITS[other]  # the other joker is the only trump
            if rule == "turn-up-low-none" and _RANKS[turn_up] <= SIX:
                return None, 0
            return suit, FULL_SUIT_MASKS[suit]
        if rule in ("none", "chosen"):  # a chosen trump is set after the bidding
            return None, 0
        suit = parse_suit(rule)
        return suit, FULL_SUIT_MASKS[suit]

    def _apply_bid(self, seat: int, bid: int) -> None:
        changing = self.bids[seat] is not None
        self.bids[seat] = bid
        if changing or self.phase != Phase.BIDDING:
            return
        self._bids_in += 1
        if self._bids_in == len(self.bid_order):
            self._bidding_over()

    def _bidding_over(self) -> None:
        assert self.plan is not None
        if self.plan.trump == "chosen":
            self.phase = Phase.CHOOSING_TRUMP
            self.trump_chooser = self._highest_bidder()
            return
        self._start_play()

    def _highest_bidder(self) -> int:
        """The seat that chooses trump: the highest bid, the first of equal highest bids in
        bidding order (left of the dealer first); left of the dealer when nobody bids."""
        bidders = self.bid_order or ((self.dealer + 1) % self.num_players,)
        best = bidders[0]
        for seat in bidders:
            if (self.bids[seat] or 0) > (self.bids[best] or 0):
                best = seat
        return best

    def _start_play(self) -> None:
        """The bidding (and any choice of trump) is over: play, or report tricks at a real table."""
        if self.scoresheet:
            self.phase = Phase.TRICKS
            return
        self.phase = Phase.PLAYING
        leader = self.dealer if self.rules.first_lead == "dealer" else (self.dealer + 1) % self.num_players
        self.trick_leaders.append(leader)
        self._turn = leader

    def _apply_play_general(self, seat: int, card: Card) -> None:
        n = self.num_players
        position = len(self.plays) % n
        self.hands[seat] ^= _BITS[card]
        self.plays.append(card)
        self.play_seats.append(seat)
        if position == 0:
            self._trick_suit = _SUITS[card]
            if self._trump_mask >> card & 1 and self.game.bowers:
                self._trick_suit = self.trump  # the left bower leads trumps
            if card >= RED_JOKER and self.game.high_low_jokers:
                self._trick_suit = None  # fixed by the first card of the joker's colour
        elif self._trick_suit is None and card < RED_JOKER:
            led = self.plays[-1 - position]
            if card_colour(card) == card_colour(led):
                self._trick_suit = card // 13
        if card >= RED_JOKER and self.game.high_low_jokers and self.joker_high is None:
            self.phase = Phase.DECLARING  # the player of the first joker declares it
            self._turn = seat
            return
        self._after_card()

    def _after_card(self) -> None:
        n = self.num_players
        seat = self.play_seats[-1]
        if len(self.plays) % n:
            self._turn = (seat + 1) % n
            return
        winner = self._trick_winner()
        self.trick_winners.append(winner)
        self.tricks_won[winner] += 1
        if len(self.plays) == n * self.hand_size:
            self._finish_hand()
            return
        self.trick_leaders.append(winner)
        self._turn = winner

    def _trick_winner(self) -> int:
        n = self.num_players
        if self.game.plain_tricks:
            # Within a suit a higher card is a higher number.
            plays = self.plays
            start = len(plays) - n
            trump = self.trump
            best = plays[start]
            best_suit = best // 13
            best_index = start
            for index in range(start + 1, start + n):
                card = plays[index]
                suit = card // 13
                if suit == best_suit:
                    if card > best:
                        best, best_index = card, index
                elif suit == trump:
                    best, best_suit, best_index = card, suit, index
            return self.play_seats[best_index]
        start = len(self.plays) - n
        cards = self.plays[start:]
        seats = self.play_seats[start:]
        trump_mask = self._trump_mask
        led = self._trick_suit
        high_low = self.game.high_low_jokers
        bowers = self.game.bowers
        duplicates = self.game.duplicates
        if led is None:  # a forced joker lead and no card of its colour: the first other card leads
            led = next((card // 13 for card in cards if card < RED_JOKER), JOKERS)
        best_power = -1
        best_seat = seats[0]
        for seat, card in zip(seats, cards, strict=True):
            if high_low and card >= RED_JOKER:
                power = 1000 if self._joker_is_high(card) else -1
            elif trump_mask & _BITS[card]:
                power = 200 + _RANKS[card]
                if bowers and _RANKS[card] == JACK:  # the right bower, then the left
                    power = 302 if card // 13 == self.trump else 301
            elif _SUITS[card] == led:
                power = 100 + _RANKS[card]
            else:
                continue
            # Strictly: of two equal jokers the first played wins; but of two identical cards
            # (Bust's second pack) the second played beats the first.
            if power > best_power or (power == best_power and duplicates):
                best_power, best_seat = power, seat
        return best_seat

    def _joker_is_high(self, card: Card) -> bool:
        """The first joker played is as declared; the second is the opposite."""
        first = next(c for c in self._all_plays_this_hand() if c >= RED_JOKER)
        return bool(self.joker_high) if card == first else not self.joker_high

    def _all_plays_this_hand(self) -> list[Card]:
        return self.plays

    def _finish_hand(self) -> None:
        rules = self.rules
        n, size = self.num_players, self.hand_size
        scores = tuple(hand_score(rules, self.bids[seat], self.tricks_won[seat], size) for seat in range(n))
        for seat in range(n):
            self.totals[seat] = add_to_total(rules, self.totals[seat], scores[seat])
        self.finished_hands.append(HandResult(
            index=self.hand_index, dealer=self.dealer, size=size, trump=self.trump, turn_up=self.turn_up,
            deal=self.deal, bids=tuple(self.bids), bid_order=self.bid_order,
            plays=None if self.scoresheet else tuple(self.plays), joker_high=self.joker_high,
            tricks=tuple(self.tricks_won), scores=scores, totals=tuple(self.totals),
            trick_winners=() if self.scoresheet else tuple(self.trick_winners), trump_chooser=self.trump_chooser,
        ))
        self._next_hand()

    def _next_hand(self) -> None:
        rules = self.rules
        n = self.num_players
        self.hand_index += 1
        self.plan = rules.hand_plan(self.hand_index)
        reached_target = rules.target_score is not None and rules.target_score in self.totals
        self.pack = ()
        self.deal = None
        self.hands = [0] * n
        self.turn_up = None
        self.trump = None
        self._trump_mask = 0
        self.trump_chooser = None
        self._suit_masks = self.game.suit_masks
        self.scoresheet = False
        self.bids = [None] * n
        self._bids_in = 0
        self.plays = []
        self.play_seats = []
        self.trick_leaders = []
        self.trick_winners = []
        self.tricks_won = [0] * n
        self._trick_suit = None
        self._turn = -1
        self.joker_high = None
        self.reported_tricks = None
        if self.plan is None or reached_target:
            self.phase = Phase.GAME_OVER
            self.bid_order = ()
            return
        self.hand_size = self.plan.size
        self.dealer = (self.dealer + 1) % n
        self._begin_hand_setup()

    # -- snapshots for undo -----------------------------------------------------

    def _snapshot(self) -> tuple[Any, ...]:
        values = [getattr(self, name) for name in _SNAPSHOT_FIELDS]
        for index in _MUTABLE_LIST_INDEXES:
            values[index] = values[index].copy()
        return ("snapshot", values)

    def _restore(self, snapshot: tuple[Any, ...]) -> None:
        # A snapshot is restored at most once, so its lists can be taken over as they are.
        for name, value in zip(_SNAPSHOT_FIELDS, snapshot[1], strict=True):
            setattr(self, name, value)

    # -- comparison -----------------------------------------------------------------

    def _key(self) -> tuple[object, ...]:
        return tuple(getattr(self, name) for name in _COMPARED_FIELDS) + (tuple(self.history),)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, State):
            return NotImplemented
        return self.rules == other.rules and self._key() == other._key()

    __hash__ = None  # type: ignore[assignment]

    def __reduce__(self) -> tuple[Any, ...]:
        # Pickled as its rules and actions, rebuilt by replaying them (as a record is).
        first_dealer = None if self.draws else self.first_dealer
        return (_rebuild_state, (self.rules, first_dealer, tuple(self.history)))

    def __repr__(self) -> str:
        return (f"<State hand={self.hand_index} phase={self.phase.name} dealer={self.dealer} "
                f"size={self.hand_size} turn={self.turn} totals={self.totals}>")


def _numbered_deal(deal: tuple[tuple[Card, ...], ...], turn_up: Card | None,
                  ) -> tuple[tuple[tuple[Card, ...], ...], Card | None]:
    """A deal with two identical cards (Bust) numbered as a record is read: the first met, seat
    by seat and then the turned card, is the card of the first pack, the other its copy. Which
    is which changes nothing in the game; this way a game and its record replayed agree."""
    used = 0
    hands = []
    for cards in deal:
        hand = []
        for card in cards:
            first = original(card)
            card = first if not used >> first & 1 else second_copy(first) or card
            used |= 1 << card
            hand.append(card)
        hands.append(tuple(hand))
    if turn_up is not None:
        first = original(turn_up)
        turn_up = first if not used >> first & 1 else second_copy(first) or turn_up
    return tuple(hands), turn_up


def _rebuild_state(rules: Rules, first_dealer: int | None, history: tuple[Action, ...]) -> State:
    state = Game(rules).new_initial_state(first_dealer)
    for action in history:
        state.apply(action)
    return state


_MUTABLE_LISTS: Final = (
    "draws", "finished_hands", "totals", "hands", "bids", "plays", "play_seats",
    "trick_leaders", "trick_winners", "tricks_won",
)
"""The lists that actions change in place (the others are replaced whole)."""
_COMPARED_FIELDS: Final = (
    "first_dealer", "hand_index", "dealer", "plan", "hand_size", "pack", "deal", "turn_up", "trump",
    "_trump_mask", "trump_chooser", "_suit_masks", "scoresheet", "bid_order", "_bids_in", "_trick_suit", "_turn",
    "joker_high", "reported_tricks", "phase", "_cut_round", "_cut_drawn", "_cut_out",
) + _MUTABLE_LISTS
_LIST_FIELDS: Final = _MUTABLE_LISTS + ("history", "_undo_stack")
_STATE_FIELDS: Final = _COMPARED_FIELDS + (
    "game", "rules", "num_players", "history", "_undo_stack", "_hand_plays", "_in_turn",
)
"""Every attribute of a State (a test checks that none is missing)."""
_SNAPSHOT_FIELDS: Final = tuple(name for name in _STATE_FIELDS if name not in ("history", "_undo_stack"))
_MUTABLE_LIST_INDEXES: Final = tuple(_SNAPSHOT_FIELDS.index(name) for name in _MUTABLE_LISTS)

_NATIVE_NAMES: Final = ("Phase", "HandResult", "Game", "State", "CHANCE_PHASES", "_PLAYING", "_BIDDING")

__all__ = [
    "BIDS",
    "CHANCE_PHASES",
    "Game",
    "HandResult",
    "Phase",
    "State",
    "iter_cards",
    "suit_colour",
]


def _load_native() -> Any:
    """The mypyc-compiled copy of this module (see setup.py), if it was built from this source."""
    if os.environ.get("OHHELL_PURE_PYTHON"):
        return None
    try:
        native = importlib.import_module("ohhell._game_native")
    except ImportError:
        return None
    digest = hashlib.sha256(Path(__file__).read_bytes()).hexdigest()
    if getattr(native, "SOURCE_SHA256", None) != digest:
        warnings.warn("ohhell/game.py changed since it was compiled; using the slower pure Python engine "
                      "(reinstall with `pip install -e .` to compile it again)", RuntimeWarning, stacklevel=2)
        return None
    return native


if __name__ == "ohhell.game":
    _native = _load_native()
    if _native is not None:
        # The compiled classes replace the interpreted ones, so every importer gets them.
        globals().update({name: getattr(_native, name) for name in _NATIVE_NAMES})
    NATIVE: Final = _native is not None
    """Whether the compiled engine is in use."""
