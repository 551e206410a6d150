"""What every learning interface shares: the game set-up, who acts, the numbering of actions
and the rewards.

Learning frameworks want a fixed list of actions, one seat acting at a time, and chance kept
out of the agents' way. This module maps the engine onto that, without numpy or any framework:

* :class:`Setup` — a whole game or a single hand of any preset, a fixed or random first
  dealer, an optional cap on the number of hands (games that run until a target score);
* :func:`acting_seat` — the seat that acts now. Simultaneous bids are asked one seat at a
  time (the lowest seat still to bid first); each seat's view hides the bids made before it
  until all are in, so this is the same game;
* :func:`rl_legal_actions` — the legal actions of that seat that move the game on. Voluntary
  bid changes (the bid-change window) are not offered: an agent's bid is final. A game
  played this way is still a legal game; only that option is left out;
* :class:`ActionCodec` — actions as integers ``0 … num_actions-1`` (the layout is in
  ``docs/integrations.md``);
* :func:`placement_rewards` and :func:`score_bounds`.

>>> import random
>>> setup = Setup.create("classic", players=4, mode="hand", hand=9)
>>> state = setup.new_state(random.Random(3))
>>> state.hand_size, setup.rules.schedule_length()
(1, 1)
>>> codec = ActionCodec(setup.base_rules)   # numbered for every hand of the preset
>>> codec.num_actions, codec.encode(Bid(2, 1)), codec.decode(codec.encode(Bid(2, 1)), 2)
(68, 56, Bid(seat=2, bid=1))
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Final, Literal

from ohhell.actions import Action, Bid, ChooseTrump, Declare, Play, make_bid, make_play
from ohhell.bots.base import forward_actions
from ohhell.cards import HIDDEN_CARD, card_name
from ohhell.game import Game, State
from ohhell.rules import Rules, preset
from ohhell.scoring import hand_score
from ohhell.views import SeatView

Mode = Literal["game", "hand"]
RewardKind = Literal["score", "placement"]

MODES: Final = ("game", "hand")
REWARDS: Final = ("score", "placement")

CARD_IDS: Final = 54
"""Card ids in tensors and actions: 0 … 51 standard cards (``suit * 13 + rank``), 52/53 jokers."""

OPEN_ENDED_HAND_CAP: Final = 100
"""Hands after which a game that runs until a target score is cut short (truncated)."""


def single_hand_rules(rules: Rules, index: int) -> Rules:
    """Rules of a game made of hand ``index`` (0-based) of ``rules``'s schedule alone.

    The hand keeps its size and trump rule; Devil's Bridge stays on only when the hand is the
    last of the schedule (the blind hand).

    >>> one = single_hand_rules(preset("kachuful", players=4), 1)
    >>> one.hand_plans(), one.schedule_length()
    ((HandPlan(size=9, trump='D'),), 1)
    """
    plan = rules.hand_plan(index)
    if plan is None:
        raise ValueError(f"hand {index} is not in the schedule of these rules "
                         f"({rules.schedule_length()} hands)")
    length = rules.schedule_length()
    last = length is not None and index == length - 1
    return rules.replace(
        schedule="explicit", hands=(plan,), one_card_hand_per_player=False, no_trump_last_hand=False,
        no_trump_largest_hands=False, hand_count=None, target_score=None,
        devils_bridge=rules.devils_bridge and last and plan.size == 1,
    )


@dataclass(frozen=True)
class Setup:
    """How a learning environment sets up its games.

    ``rules`` are the rules actually played (in ``"hand"`` mode, one hand of ``base_rules``:
    see :func:`single_hand_rules`). ``dealer`` is the first dealer, or ``None`` for one drawn
    uniformly at random (the cut for the deal gives every seat the same chance, and drawing
    the dealer directly keeps the game's length bounded). ``max_hands`` cuts a game short
    after that many hands; games that run until a target score get
    :data:`OPEN_ENDED_HAND_CAP` by default.
    """

    rules: Rules
    base_rules: Rules
    mode: Mode = "game"
    hand: int = 0
    dealer: int | None = None
    max_hands: int | None = None

    @classmethod
    def create(cls, preset_name: str = "classic", players: int = 4, mode: str = "game", hand: int = 0,
               dealer: int | None = None, max_hands: int | None = None, rules: Rules | None = None,
               **knobs: Any) -> Setup:
        """A set-up from a preset and knobs (or ready ``rules``); raises ``ValueError`` when they
        cannot be played. A list of ``hands`` implies ``schedule="explicit"`` (the only
        schedule that reads it) unless another schedule is named.

        >>> Setup.create("classic", hands=[[1, "turn-up"], [3, "none"]]).rules.hand_plans()
        (HandPlan(size=1, trump='turn-up'), HandPlan(size=3, trump='none'))
        """
        if "hands" in knobs and "schedule" not in knobs:
            knobs = {**knobs, "schedule": "explicit"}
        base = rules if rules is not None else preset(preset_name, players=players, **knobs)
        if base.deck_mask >> CARD_IDS:
            # Bust's second copies are cards 54 … 79: the tensors and the action numbering have a
            # place for each of the 54 cards of one pack, and two copies of a card need two.
            raise ValueError(f"the learning interfaces do not play Bust's second pack (second_pack with "
                             f"{base.players} players: {base.deck_size} cards, some of them twice): their card "
                             f"ids, observations and actions have {CARD_IDS} places, one per card of one pack; "
                             f"play bust with 4 players, or through ohhell.game")
        if mode not in MODES:
            raise ValueError(f"mode must be one of {', '.join(MODES)}, not {mode!r}")
        if dealer is not None and not 0 <= dealer < base.players:
            raise ValueError(f"the dealer must be a seat from 0 to {base.players - 1}, not {dealer}")
        played = single_hand_rules(base, hand) if mode == "hand" else base
        if max_hands is None and played.is_open_ended:
            max_hands = OPEN_ENDED_HAND_CAP
        if max_hands is not None and max_hands < 1:
            raise ValueError(f"max_hands must be at least 1, not {max_hands}")
        return cls(rules=played, base_rules=base, mode=mode, hand=hand, dealer=dealer,  # type: ignore[arg-type]
                   max_hands=max_hands)

    @property
    def players(self) -> int:
        return self.rules.players

    @property
    def codec(self) -> ActionCodec:
        """The numbering of actions: the same for a whole game and for each of its hands."""
        return ActionCodec(self.base_rules)

    @property
    def hand_count(self) -> int:
        """The most hands a game can last."""
        length = self.rules.schedule_length()
        if length is None:
            assert self.max_hands is not None
            return self.max_hands
        return length if self.max_hands is None else min(length, self.max_hands)

    def new_state(self, rng: random.Random) -> State:
        """A new game, its first dealer chosen, before the first shuffle."""
        dealer = self.dealer if self.dealer is not None else rng.randrange(self.players)
        return Game(self.rules).new_initial_state(first_dealer=dealer)

    def is_truncated(self, state: State) -> bool:
        """Whether the hand cap ended the game before its rules did."""
        return not state.is_terminal() and self.max_hands is not None and state.hand_index >= self.max_hands

    def is_over(self, state: State) -> bool:
        """Whether no more actions will be taken (the game ended or was cut short)."""
        return state.is_terminal() or self.is_truncated(state)

    def advance_chance(self, state: State, rng: random.Random) -> None:
        """Apply chance (the shuffle and the cut) until a player acts or the game is over."""
        while state.is_chance_node() and not self.is_truncated(state):
            state.apply(state.sample_chance(rng))


def acting_seat(state: State) -> int | None:
    """The seat that acts now in the learning interfaces, or ``None`` at chance or the end.

    Under simultaneous bidding this is the lowest seat in bidding order still to bid.
    """
    seat = state.turn
    if seat is None:
        actors = state.actors()
        if state.is_chance_node() or not actors:
            return None
        seat = actors[0]
    return seat


def rl_legal_actions(view: SeatView) -> list[Action]:
    """The legal actions of the seat of ``view`` that move the game on: never a bid change."""
    return forward_actions(view)


class ActionCodec:
    """Actions of one rule set as integers.

    ===========================  ===========================================
    index                        action
    ===========================  ===========================================
    ``0 … 53``                   play the card with that id
    ``54``                       play the face-down card (Devil's Bridge)
    ``55 … 55 + max_bid``        bid ``index - 55``
    ``56 + max_bid``             declare the joker high
    ``57 + max_bid``             declare the joker low
    ``58 + max_bid … 61 + max_bid``  choose trump S, H, D, C (only where a hand's trump is
                                 ``chosen``: other rules keep their numbering and size)
    ===========================  ===========================================

    ``max_bid`` is the largest hand of the schedule.
    """

    PLAY_HIDDEN: Final = CARD_IDS
    BID_BASE: Final = CARD_IDS + 1

    def __init__(self, rules: Rules) -> None:
        self.max_bid = rules.largest_hand
        self.declare_high = self.BID_BASE + self.max_bid + 1
        self.declare_low = self.declare_high + 1
        self.choose_trump = self.declare_low + 1
        """The index of choosing spades; hearts, diamonds and clubs follow (``trump: chosen``)."""
        chooses = any(plan.trump == "chosen" for plan in rules.hand_plans())
        self.num_actions = self.choose_trump + (4 if chooses else 0)

    def encode(self, action: Action) -> int:
        """The index of a player action."""
        if isinstance(action, Play):
            return self.PLAY_HIDDEN if action.card == HIDDEN_CARD else action.card
        if isinstance(action, Bid):
            if not 0 <= action.bid <= self.max_bid:
                raise ValueError(f"bid {action.bid} is out of range 0 … {self.max_bid}")
            return self.BID_BASE + action.bid
        if isinstance(action, Declare):
            return self.declare_high if action.high else self.declare_low
        if isinstance(action, ChooseTrump) and self.num_actions > self.choose_trump and 0 <= action.suit < 4:
            return self.choose_trump + action.suit
        raise ValueError(f"{action} is not a player action of these rules")

    def decode(self, index: int, seat: int) -> Action:
        """The action of ``seat`` numbered ``index``."""
        index = int(index)
        if 0 <= index < CARD_IDS:
            return make_play(seat, index)
        if index == self.PLAY_HIDDEN:
            return make_play(seat, HIDDEN_CARD)
        if self.BID_BASE <= index <= self.BID_BASE + self.max_bid:
            return make_bid(seat, index - self.BID_BASE)
        if index == self.declare_high:
            return Declare(seat, True)
        if index == self.declare_low:
            return Declare(seat, False)
        if self.choose_trump <= index < self.num_actions:
            return ChooseTrump(seat, index - self.choose_trump)
        raise ValueError(f"there is no action {index}: actions are numbered 0 … {self.num_actions - 1}")

    def label(self, index: int) -> str:
        """A short name of an action index: ``play AS``, ``bid 3``, ``declare high``.

        >>> codec = ActionCodec(preset("classic"))
        >>> codec.label(51), codec.label(57), codec.label(54)
        ('play AC', 'bid 2', 'play hidden')
        """
        if 0 <= index < CARD_IDS:
            return f"play {card_name(index)}"
        if index == self.PLAY_HIDDEN:
            return "play hidden"
        if self.BID_BASE <= index <= self.BID_BASE + self.max_bid:
            return f"bid {index - self.BID_BASE}"
        if index == self.declare_high:
            return "declare high"
        if index == self.declare_low:
            return "declare low"
        if self.choose_trump <= index < self.num_actions:
            return f"trump {'SHDC'[index - self.choose_trump]}"
        return f"action {index}"


def placement_rewards(totals: list[int] | tuple[int, ...]) -> list[float]:
    """Final rewards by placement: (players beaten − players who beat you) / (players − 1).

    The best total gets 1, the worst −1, and equal totals share.

    >>> placement_rewards([30, 10, 30, 5])
    [0.6666666666666666, -0.3333333333333333, 0.6666666666666666, -1.0]
    """
    n = len(totals)
    return [(sum(total > other for other in totals) - sum(other > total for other in totals)) / (n - 1)
            for total in totals]


def hand_score_range(rules: Rules, size: int) -> tuple[int, int]:
    """The lowest and highest score one seat can make in a hand of ``size`` cards.

    >>> hand_score_range(preset("german-bridge"), 10)
    (-100, 110)
    """
    scores = [hand_score(rules, bid, tricks, size) for bid in [None, *range(size + 1)] for tricks in range(size + 1)]
    return min(scores), max(scores)


def score_bounds(setup: Setup) -> tuple[int, int]:
    """Bounds of a seat's total over a game of ``setup`` (for scaling observations and OpenSpiel's
    utility range).

    >>> score_bounds(Setup.create("classic", players=4))
    (0, 299)
    """
    rules = setup.rules
    low = high = 0
    plans = rules.hand_plans()
    for index in range(setup.hand_count):
        plan = rules.hand_plan(index) or plans[index % len(plans)]
        lowest, highest = hand_score_range(rules, plan.size)
        low += min(lowest, 0)
        high += max(highest, 0)
    target = rules.target_score
    if target is not None:
        biggest = max(hand_score_range(rules, plan.size)[1] for plan in plans)
        # A total past the target bounces back: never above it, never below target - biggest score.
        high = min(high, target)
        low = min(low, target - biggest)
    return low, high
