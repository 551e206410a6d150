"""A small exact Oh Hell for OpenSpiel, in the spirit of Kuhn and Leduc poker:
``import ohhell.integrations.openspiel_mini`` registers ``python_ohhell_mini``.

Three players, two cards each, dealt from a pack of six (the ace, king and queen of spades and
hearts), so the whole pack is dealt and no card is turned: no trump. One hand of the classic
rules otherwise — bids in turn from the left of the dealer, the dealer's hook, follow suit, the
highest card of the led suit wins, 10 + bid for an exact bid, 0 for a miss. The game tree is
small enough (90 deals, about 40 000 histories) for exact methods: CFR and ``nash_conv`` run in
seconds, so an algorithm can be checked exactly before it meets the real game.

>>> import pyspiel
>>> from open_spiel.python.algorithms import exploitability
>>> import ohhell.integrations.openspiel_mini
>>> game = pyspiel.load_game("python_ohhell_mini")
>>> state = game.new_initial_state()
>>> len(state.chance_outcomes())     # the two cards of the first seat to be dealt: C(6, 2)
15

Parameters: ``players`` (3 or 4), ``cards`` (cards per seat), ``suits`` and ``ranks`` (the
pack: the highest ``ranks`` ranks of the first ``suits`` suits), ``trump`` (``none``, or
``turn-up`` when cards remain after the deal), ``hook`` (true), ``dealer`` (the last seat). The
defaults are the six-card game above; ``suits=3, ranks=3`` (nine cards, one turned up) is the
next size, about a hundred times larger.

Chance deals each seat's hand as one outcome (the index of the set of cards among the sets
still possible, in a fixed order), left of the dealer first, then the turned card. The rules
are the engine's: every action is applied to an :class:`ohhell.game.State`, and the returns are
its totals. Information states are strings (perfect recall: the seat's cards, every bid and
every card played, in order); observation strings hold the same minus the order of play.
"""

from __future__ import annotations

import itertools
from typing import Any, Final

import pyspiel  # type: ignore[import-not-found, import-untyped, unused-ignore]

from ohhell.actions import Deal
from ohhell.cards import Card, card_name, make_card
from ohhell.game import Game, Phase, State
from ohhell.integrations.core import ActionCodec
from ohhell.rules import Rules, preset

GAME_NAME: Final = "python_ohhell_mini"

_DEFAULTS: Final[dict[str, Any]] = {"players": 3, "cards": 2, "suits": 2, "ranks": 3, "trump": "none", "hook": True,
                                    "dealer": -1}

GAME_TYPE: Final = pyspiel.GameType(
    short_name=GAME_NAME,
    long_name="Oh Hell, small exact variant (ohhell)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.GENERAL_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=4,
    min_num_players=3,
    provides_information_state_string=True,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=False,
    parameter_specification=_DEFAULTS,
)


class MiniSetup:
    """The rules, the pack and the numbering of a ``python_ohhell_mini`` game."""

    def __init__(self, params: dict[str, Any]) -> None:
        self.params = dict(params)
        self.players = int(params["players"])
        self.cards = int(params["cards"])
        suits, ranks = int(params["suits"]), int(params["ranks"])
        if not 3 <= self.players <= 4:
            raise ValueError(f"players must be 3 or 4, not {self.players}")
        if not 1 <= suits <= 4 or not 1 <= ranks <= 13:
            raise ValueError(f"the pack has 1 to 4 suits of 1 to 13 ranks, not {suits} × {ranks}")
        # The highest ranks of the first suits: A K Q … of spades, hearts, diamonds, clubs.
        self.pack: tuple[Card, ...] = tuple(sorted(make_card(12 - rank, suit)
                                                   for suit in range(suits) for rank in range(ranks)))
        if self.cards < 1 or self.players * self.cards > len(self.pack):
            raise ValueError(f"{self.players} hands of {self.cards} cards need {self.players * self.cards} cards; "
                             f"the pack has {len(self.pack)}")
        trump = str(params["trump"])
        if trump not in ("none", "turn-up"):
            raise ValueError(f"trump must be none or turn-up, not {trump!r}")
        self.turns_up = trump == "turn-up" and len(self.pack) > self.players * self.cards
        dealer = int(params["dealer"])
        self.dealer = self.players - 1 if dealer < 0 else dealer
        if not 0 <= self.dealer < self.players:
            raise ValueError(f"the dealer must be a seat from 0 to {self.players - 1}, not {dealer}")
        self.rules: Rules = preset("classic", players=self.players, schedule="explicit",
                                   hands=[[self.cards, "turn-up" if self.turns_up else "none"]],
                                   hook=bool(params["hook"]), bid_changes=False)
        self.game = Game(self.rules)
        self.codec = ActionCodec(self.rules)
        self.combinations = {size: list(itertools.combinations(range(size), self.cards))
                             for size in range(self.cards, len(self.pack) + 1)}

    def __deepcopy__(self, memo: dict[int, Any]) -> MiniSetup:
        return self  # shared by every state of a game: never copied when OpenSpiel clones a state

    def __reduce__(self) -> tuple[Any, ...]:
        return (MiniSetup, (self.params,))


class OhHellMiniGame(pyspiel.Game):  # type: ignore[misc]
    """``python_ohhell_mini`` (see the module docstring)."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        merged = dict(_DEFAULTS)
        merged.update(params or {})
        self.mini = MiniSetup(merged)
        mini = self.mini
        n, size = mini.players, mini.cards
        info = pyspiel.GameInfo(
            num_distinct_actions=mini.codec.num_actions,
            max_chance_outcomes=max(len(mini.combinations[len(mini.pack)]), max(mini.pack) + 1),
            num_players=n,
            min_utility=0.0,
            max_utility=float(10 + size),
            max_game_length=n + (1 if mini.turns_up else 0) + n + n * size,
        )
        super().__init__(GAME_TYPE, info, merged)

    def new_initial_state(self) -> OhHellMiniState:
        return OhHellMiniState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> MiniObserver:
        if params:
            raise ValueError(f"python_ohhell_mini observers take no parameters, not {params!r}")
        perfect_recall = iig_obs_type is None or bool(iig_obs_type.perfect_recall)
        return MiniObserver(perfect_recall)


class _Engine:
    """The engine state; OpenSpiel deep-copies a state's attributes, and this makes that the
    engine's own cheap clone."""

    def __init__(self, state: State) -> None:
        self.state = state

    def __deepcopy__(self, memo: dict[int, Any]) -> _Engine:
        return _Engine(self.state.clone())


class OhHellMiniState(pyspiel.State):  # type: ignore[misc]
    """A state of ``python_ohhell_mini``: the engine state and the hands dealt so far."""

    def __init__(self, game: OhHellMiniGame) -> None:
        super().__init__(game)
        self.mini = game.mini
        self._engine = _Engine(self.mini.game.new_initial_state(first_dealer=self.mini.dealer))
        self._hands: list[tuple[Card, ...]] = []  # dealt so far, left of the dealer first
        self._turn_up: Card | None = None

    @property
    def engine(self) -> State:
        return self._engine.state

    def _dealing(self) -> bool:
        return len(self._hands) < self.mini.players or (self.mini.turns_up and self._turn_up is None)

    def _left(self) -> list[Card]:
        dealt = {card for hand in self._hands for card in hand}
        return [card for card in self.mini.pack if card not in dealt]

    def current_player(self) -> int:
        if self._dealing():
            return int(pyspiel.PlayerId.CHANCE)
        engine = self.engine
        if engine.is_terminal():
            return int(pyspiel.PlayerId.TERMINAL)
        assert engine.turn is not None
        return engine.turn

    def chance_outcomes(self) -> list[tuple[int, float]]:
        left = self._left()
        if len(self._hands) < self.mini.players:
            count = len(self.mini.combinations[len(left)])
            return [(index, 1.0 / count) for index in range(count)]
        return [(card, 1.0 / len(left)) for card in left]

    def _legal_actions(self, player: int) -> list[int]:
        codec = self.mini.codec
        return sorted(codec.encode(action) for action in self.engine.legal_actions(player))

    def _apply_action(self, action: int) -> None:
        mini = self.mini
        if len(self._hands) < mini.players:
            left = self._left()
            self._hands.append(tuple(left[i] for i in mini.combinations[len(left)][action]))
        elif self._dealing():
            self._turn_up = int(action)
        else:
            self.engine.apply(mini.codec.decode(action, self.current_player()))
            return
        if not self._dealing():
            n = mini.players
            by_seat: list[tuple[Card, ...]] = [()] * n
            for offset, hand in enumerate(self._hands):
                by_seat[(mini.dealer + 1 + offset) % n] = hand
            self.engine.apply(Deal(tuple(by_seat), self._turn_up))

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            if len(self._hands) < self.mini.players:
                left = self._left()
                return "deal " + " ".join(card_name(left[i]) for i in self.mini.combinations[len(left)][action])
            return f"turn up {card_name(action)}"
        return f"p{player} {self.mini.codec.label(action)}"

    def is_terminal(self) -> bool:
        return not self._dealing() and self.engine.is_terminal()

    def returns(self) -> list[float]:
        if not self.is_terminal():
            return [0.0] * self.mini.players
        return [float(total) for total in self.engine.totals]

    def information_state_string(self, player: int | None = None) -> str:
        return describe(self, self.current_player() if player is None else player, perfect_recall=True)

    def observation_string(self, player: int | None = None) -> str:
        return describe(self, self.current_player() if player is None else player, perfect_recall=False)

    def __str__(self) -> str:
        engine = self.engine
        hands = " | ".join(" ".join(card_name(card) for card in hand) for hand in self._hands)
        if self._dealing() or engine.phase == Phase.CUT_FOR_DEAL:
            return f"dealing: {hands}"
        bids = " ".join("-" if bid is None else str(bid) for bid in engine.bids)
        return f"hands {hands}; turn-up {card_name(engine.turn_up) if engine.turn_up is not None else '-'}; " \
               f"bids {bids}; plays {' '.join(card_name(card) for card in engine.plays)}"


def describe(state: OhHellMiniState, player: int, perfect_recall: bool) -> str:
    """What ``player`` knows: its cards (as dealt), the turned card, the bids, and the cards
    played — in order with ``perfect_recall``, else who played what and the trick in progress."""
    mini = state.mini
    n = mini.players
    offset = (player - mini.dealer - 1) % n
    mine = state._hands[offset] if offset < len(state._hands) else ()
    parts = [f"p{player}", "hand " + "".join(card_name(card) for card in mine)]
    if state._dealing():
        parts.append(f"dealing {len(state._hands)}")
        return " ".join(parts)
    engine = state.engine
    if engine.turn_up is not None:
        parts.append("up " + card_name(engine.turn_up))
    parts.append("bids " + ",".join("-" if bid is None else str(bid) for bid in engine.bids))
    if perfect_recall:
        parts.append("plays " + "".join(card_name(card) for card in engine.plays))
    else:
        trick = engine.current_trick()
        done = engine.plays[:len(engine.plays) - len(trick)]
        parts.append("won " + ",".join(str(count) for count in engine.tricks_won))
        parts.append("gone " + "".join(sorted(card_name(card) for card in done)))
        parts.append("trick " + "".join(f"{seat}{card_name(card)}" for seat, card in trick))
    return " ".join(parts)


class MiniObserver:
    """OpenSpiel's Python observer protocol, strings only."""

    def __init__(self, perfect_recall: bool) -> None:
        self.perfect_recall = perfect_recall
        self.tensor = None
        self.dict: dict[str, Any] = {}

    def set_from(self, state: OhHellMiniState, player: int) -> None:
        pass

    def string_from(self, state: OhHellMiniState, player: int) -> str:
        return describe(state, player, self.perfect_recall)


def to_efg(game: OhHellMiniGame) -> str:
    """The whole game tree in Gambit's extensive-form format (``.efg``): every chance outcome
    with its probability, every decision with its information set, every terminal with the
    engine's totals. Forced moves (a single legal action) are played without a node of their
    own: the same game, with fewer nodes. A few seconds for the default game."""
    n = game.num_players()
    lines = ["EFG 2 R \"" + str(game) + "\" { " + " ".join(f'"p{seat}"' for seat in range(n)) + " }", '""', ""]
    infosets: list[dict[str, int]] = [{} for _ in range(n)]
    counters = {"chance": 0, "outcome": 0}

    def walk(state: OhHellMiniState, depth: int) -> None:
        pad = " " * min(depth, 40)
        if state.is_terminal():
            counters["outcome"] += 1
            payoffs = " ".join(f"{value:g}" for value in state.returns())
            lines.append(f'{pad}t "" {counters["outcome"]} "" {{ {payoffs} }}')
            return
        if state.is_chance_node():
            counters["chance"] += 1
            outcomes = state.chance_outcomes()
            moves = " ".join(f'"{state.action_to_string(pyspiel.PlayerId.CHANCE, action)}" {probability!r}'
                             for action, probability in outcomes)
            lines.append(f'{pad}c "" {counters["chance"]} "" {{ {moves} }} 0')
            for action, _probability in outcomes:
                walk(state.child(action), depth + 1)
            return
        actions = state.legal_actions()
        if len(actions) == 1:  # a forced move (the last card, a single card of the led suit): no choice to make
            walk(state.child(actions[0]), depth)
            return
        player = state.current_player()
        key = state.information_state_string(player)
        number = infosets[player].setdefault(key, len(infosets[player]) + 1)
        names = " ".join(f'"{game.mini.codec.label(action)}"' for action in actions)
        lines.append(f'{pad}p "" {player + 1} {number} "{key}" {{ {names} }} 0')
        for action in actions:
            walk(state.child(action), depth + 1)

    walk(game.new_initial_state(), 0)
    return "\n".join(lines) + "\n"


def exact_game(**params: Any) -> Any:
    """The game ``python_ohhell_mini(**params)`` as OpenSpiel's C++ extensive-form game (the
    same tree, from :func:`to_efg`), on which the C++ algorithms run at C++ speed:

    >>> import pyspiel
    >>> game = exact_game(cards=1)          # the default (two cards each) takes a few seconds
    >>> solver = pyspiel.CFRSolver(game)
    >>> for _ in range(50):
    ...     solver.evaluate_and_update_policy()
    >>> pyspiel.nash_conv(game, solver.average_policy()) < 0.5
    True

    Its actions are numbered 0 … k−1 at each node, in the order of ``python_ohhell_mini``'s
    legal actions (bids low to high, cards by id); ``state.action_to_string`` names them.
    """
    game = pyspiel.load_game(GAME_NAME, params) if params else pyspiel.load_game(GAME_NAME)
    return pyspiel.load_efg_game(to_efg(game))


pyspiel.register_game(GAME_TYPE, OhHellMiniGame)
