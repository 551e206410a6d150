"""Oh Hell for OpenSpiel: ``import ohhell.integrations.openspiel`` registers ``python_ohhell``.

>>> import pyspiel
>>> import ohhell.integrations.openspiel
>>> game = pyspiel.load_game("python_ohhell(preset=classic,players=3,mode=hand,hand=9)")
>>> state = game.new_initial_state()
>>> state.is_chance_node(), len(state.chance_outcomes())   # who deals first
(True, 3)

Unlike OpenSpiel's own ``oh_hell`` (one hand, one rule set), every preset, knob and player
count of ohhell can be played, as a whole game or as a single hand. Parameters:

=============  ===========  ==================================================================
parameter      default      meaning
=============  ===========  ==================================================================
``preset``     ``classic``  the preset (``ohhell rules`` lists them)
``players``    4            3 to 7 (as the preset allows)
``knobs``      ``""``       more rule knobs as a JSON object, e.g. ``{"must_trump": true}``;
                            in a game string write ``;`` for JSON's commas
                            (``knobs={"hook":false;"must_trump":true}``), since OpenSpiel
                            splits parameters at commas
``mode``       ``game``     ``game`` (the whole schedule) or ``hand`` (one hand alone)
``hand``       0            in ``hand`` mode, which hand of the schedule (0-based)
``dealer``     -1           the first dealer; -1: a chance node draws it uniformly
``max_hands``  0            cut the game short after this many hands (0: never; games that
                            run to a target score stop after 100)
``utility``    ``score``    returns: ``score`` (the final totals) or ``placement`` (players
                            beaten − players who beat you, over players − 1)
=============  ===========  ==================================================================

Chance is explicit and listable: the first dealer (one outcome per seat), then each hand
is dealt card by card (outcome = the card id, uniform over the cards not yet dealt), starting
left of the dealer, then the turned-up card when the rules turn one. That is the same
distribution as the engine's shuffle and cut; the dealt cards become one ``Deal`` action of
the engine once the deal is complete. A seat looks at its cards when the deal is complete.

Simultaneous bidding (``boerenbridge``) is played as sequential moves, the lowest seat in
bidding order first, whose information states hide the bids already made until all are in.
Voluntary bid changes are not part of the game here (an agent's bid is final).

Information-state strings are the seat's view (:func:`ohhell.views.seat_view`) as compact
JSON — perfect recall, since a view holds every bid, every card played in this and earlier
hands, and the seat's own cards. Observation strings hold the current hand and the totals.
Tensors are those of :mod:`ohhell.integrations.encoding`: the observation tensor is the
default vector (the situation: 645 values for classic with 4 players); the information-state
tensor is the perfect-recall vector, which carries the whole game — every hand so far in full,
each bid, each trick with its leader, winner and order of cards — in one block per hand
(classic, 4 players: 645 + 19 × 2 344 = 45 181 values).
``resample_from_infostate`` draws the hidden hands consistently with everything the seat saw,
so OpenSpiel's ISMCTS can search the game (``examples/openspiel_ismcts.py``).
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any, Final

import numpy as np
import pyspiel  # type: ignore[import-not-found, import-untyped, unused-ignore]

from ohhell.actions import Deal
from ohhell.cards import RED_JOKER, Card, card_name
from ohhell.errors import IllegalActionError
from ohhell.game import Game, Phase, State
from ohhell.integrations.core import (
    CARD_IDS,
    MODES,
    Setup,
    acting_seat,
    placement_rewards,
    rl_legal_actions,
    score_bounds,
)
from ohhell.integrations.encoding import ObservationEncoder
from ohhell.rules import MAX_PLAYERS, MIN_PLAYERS
from ohhell.views import SeatView, seat_view, spectator_view

GAME_NAME: Final = "python_ohhell"
UTILITIES: Final = ("score", "placement")

_DEFAULT_PARAMS: Final[dict[str, Any]] = {
    "preset": "classic",
    "players": 4,
    "knobs": "",
    "mode": "game",
    "hand": 0,
    "dealer": -1,
    "max_hands": 0,
    "utility": "score",
}

GAME_TYPE: Final = pyspiel.GameType(
    short_name=GAME_NAME,
    long_name="Oh Hell (ohhell: every preset and knob)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.GENERAL_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=MAX_PLAYERS,
    min_num_players=MIN_PLAYERS,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=_DEFAULT_PARAMS,
)

_RESAMPLE_TRIES: Final = 500


def _deal_length(state: State) -> int:
    """Chance outcomes of the deal of the hand about to be dealt: the cards, then the turn-up."""
    n, size = state.num_players, state.hand_size
    assert state.plan is not None
    turns_up = state.plan.trump in ("turn-up", "turn-up-low-none") and len(state.game.deck) > n * size
    return n * size + (1 if turns_up else 0)


class _Shared:
    """Everything a state shares with its game; never copied when OpenSpiel clones a state."""

    def __init__(self, setup: Setup, utility: str) -> None:
        self.setup = setup
        self.utility = utility
        self.codec = setup.codec
        self.game = Game(setup.rules)
        self.info_encoder = ObservationEncoder(setup, perfect_recall=True)
        self.observation_encoder = ObservationEncoder(setup, perfect_recall=False)

    def __deepcopy__(self, memo: dict[int, Any]) -> _Shared:
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        # Serialized states (OpenSpiel pickles their attributes) rebuild it from the set-up.
        return (_Shared, (self.setup, self.utility))


class _Engine:
    """Holds the engine state; OpenSpiel's clone deep-copies attributes, and this makes that
    copy the engine's own cheap :meth:`~ohhell.game.State.clone`."""

    def __init__(self, state: State) -> None:
        self.state = state

    def __deepcopy__(self, memo: dict[int, Any]) -> _Engine:
        return _Engine(self.state.clone())


def encode_knobs(knobs: dict[str, Any]) -> str:
    """Rule knobs as the ``knobs`` parameter of a game string: JSON with ``;`` where JSON has
    commas (OpenSpiel splits a game string's parameters at every comma, so a comma may not
    appear in a value), keys sorted.

    >>> encode_knobs({"must_trump": True, "hook": False, "hands": [[1, "turn-up"], [3, "none"]]})
    '{"hands":[[1;"turn-up"];[3;"none"]];"hook":false;"must_trump":true}'
    """
    return json.dumps(knobs, separators=(";", ":"), sort_keys=True, ensure_ascii=True) if knobs else ""


def decode_knobs(text: str) -> dict[str, Any]:
    """The knobs of a ``knobs`` parameter: JSON whose separators are commas or ``;``.

    >>> decode_knobs('{"hook":false;"must_trump":true}') == decode_knobs('{"hook": false, "must_trump": true}')
    True
    """
    if not text.strip():
        return {}
    # Outside string literals, ';' stands for ','; knob values never contain either in a string.
    chars, in_string, escaped = [], False, False
    for char in text:
        if in_string:
            if char == '"' and not escaped:
                in_string = False
            escaped = char == "\\" and not escaped
        elif char == '"':
            in_string = True
        elif char == ";":
            char = ","
        chars.append(char)
    try:
        knobs = json.loads("".join(chars))
    except json.JSONDecodeError as error:
        raise ValueError(f"knobs must be a JSON object of rule knobs, not {text!r}: {error}") from error
    if not isinstance(knobs, dict):
        raise ValueError(f"knobs must be a JSON object of rule knobs, not {text!r}")
    return knobs


def _setup_from_params(params: dict[str, Any]) -> tuple[Setup, str]:
    knobs = decode_knobs(str(params.get("knobs", "") or ""))
    mode = str(params.get("mode", "game"))
    if mode not in MODES:
        raise ValueError(f"mode must be one of {', '.join(MODES)}, not {mode!r}")
    utility = str(params.get("utility", "score"))
    if utility not in UTILITIES:
        raise ValueError(f"utility must be one of {', '.join(UTILITIES)}, not {utility!r}")
    dealer = int(params.get("dealer", -1))
    max_hands = int(params.get("max_hands", 0))
    setup = Setup.create(str(params.get("preset", "classic")), players=int(params.get("players", 4)), mode=mode,
                         hand=int(params.get("hand", 0)), dealer=None if dealer < 0 else dealer,
                         max_hands=max_hands or None, **knobs)
    return setup, utility


def _max_game_length(setup: Setup) -> int:
    rules = setup.rules
    n = rules.players
    deck = rules.deck_size
    plans = rules.hand_plans()
    declares = 1 if rules.high_low_jokers else 0
    length = 1 if setup.dealer is None else 0
    for index in range(setup.hand_count):
        plan = rules.hand_plan(index) or plans[index % len(plans)]
        turn_up = 1 if plan.trump in ("turn-up", "turn-up-low-none") and deck > n * plan.size else 0
        length += n * plan.size + turn_up + n + n * plan.size + declares
    return length


class OhHellGame(pyspiel.Game):  # type: ignore[misc]
    """``python_ohhell``: a pyspiel game backed by the ohhell engine (see the module docstring)."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        merged = dict(_DEFAULT_PARAMS)
        merged.update(params or {})
        setup, utility = _setup_from_params(merged)
        # One spelling, free of commas, so that str(game) loads the same game again.
        merged["knobs"] = encode_knobs(decode_knobs(str(merged.get("knobs", "") or "")))
        self.shared = _Shared(setup, utility)
        low, high = score_bounds(setup) if utility == "score" else (-1, 1)
        info = pyspiel.GameInfo(
            num_distinct_actions=setup.codec.num_actions,
            max_chance_outcomes=CARD_IDS,
            num_players=setup.players,
            min_utility=float(low),
            max_utility=float(high),
            max_game_length=_max_game_length(setup),
        )
        super().__init__(GAME_TYPE, info, merged)

    @property
    def setup(self) -> Setup:
        return self.shared.setup

    def new_initial_state(self) -> OhHellState:
        return OhHellState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> OhHellObserver:
        """An observer: an information state (``perfect_recall``) or an observation, of one seat
        (``PrivateInfoType.SINGLE_PLAYER``) or public only (``PrivateInfoType.NONE``)."""
        if params:
            raise ValueError(f"python_ohhell observers take no parameters, not {params!r}")
        if iig_obs_type is None:
            iig_obs_type = pyspiel.IIGObservationType(perfect_recall=False)
        return OhHellObserver(self.shared, iig_obs_type)


class OhHellState(pyspiel.State):  # type: ignore[misc]
    """A state of ``python_ohhell``: the engine state plus the cards dealt so far in a deal."""

    def __init__(self, game: OhHellGame) -> None:
        super().__init__(game)
        self._shared = game.shared
        setup = self._shared.setup
        # Before the first dealer is drawn the engine waits in its cut-for-the-deal phase.
        self._engine = _Engine(self._shared.game.new_initial_state(first_dealer=setup.dealer))
        self._dealt: list[Card] = []
        self._deal_start = 0  # where the deal of the current hand begins in history()

    # -- the game as the engine sees it -------------------------------------------------

    @property
    def engine(self) -> State:
        """The ohhell engine state (the whole truth; give players only its views)."""
        return self._engine.state

    def view(self, player: int | None) -> SeatView:
        """What ``player`` may know now (``None``: public information only)."""
        return seat_view(self.engine, player) if player is not None else spectator_view(self.engine)

    @property
    def cards_dealt(self) -> int:
        """Cards dealt so far in a deal in progress (face down: nobody has looked yet)."""
        return len(self._dealt)

    # -- the OpenSpiel API ------------------------------------------------------------------

    def current_player(self) -> int:
        engine = self.engine
        if self._shared.setup.is_over(engine):
            return int(pyspiel.PlayerId.TERMINAL)
        if engine.is_chance_node():
            return int(pyspiel.PlayerId.CHANCE)
        seat = acting_seat(engine)
        assert seat is not None
        return seat

    def _legal_actions(self, player: int) -> list[int]:
        codec = self._shared.codec
        return sorted(codec.encode(action) for action in rl_legal_actions(seat_view(self.engine, player)))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        engine = self.engine
        if engine.phase == Phase.CUT_FOR_DEAL:
            n = engine.num_players
            return [(seat, 1.0 / n) for seat in range(n)]
        dealt = set(self._dealt)
        left = [card for card in engine.game.deck if card not in dealt]
        return [(card, 1.0 / len(left)) for card in left]

    def _apply_action(self, action: int) -> None:
        engine = self.engine
        if engine.phase == Phase.CUT_FOR_DEAL:
            self._engine = _Engine(self._shared.game.new_initial_state(first_dealer=int(action)))
            return
        if engine.is_chance_node():
            if not self._dealt:
                self._deal_start = len(self.history())
            self._dealt.append(int(action))
            if len(self._dealt) == _deal_length(engine):
                engine.apply(self._deal_action(self._dealt))
                self._dealt = []
            return
        seat = self.current_player()
        engine.apply(self._shared.codec.decode(action, seat))

    def _deal_action(self, order: list[Card]) -> Deal:
        """The engine's ``Deal`` of cards dealt in ``order``: one at a time from the left of the
        dealer, then the turn-up."""
        engine = self.engine
        n, size, dealer = engine.num_players, engine.hand_size, engine.dealer
        hands: list[list[Card]] = [[] for _ in range(n)]
        for position in range(n * size):
            hands[(dealer + 1 + position) % n].append(order[position])
        turn_up = order[n * size] if len(order) > n * size else None
        return Deal(tuple(tuple(hand) for hand in hands), turn_up)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            if self.engine.phase == Phase.CUT_FOR_DEAL:
                return f"first dealer {action}"
            return f"deal {card_name(action)}"
        return f"p{player} {self._shared.codec.label(action)}"

    def is_terminal(self) -> bool:
        return self._shared.setup.is_over(self.engine)

    def returns(self) -> list[float]:
        engine = self.engine
        if not self.is_terminal():
            return [0.0] * engine.num_players
        if self._shared.utility == "placement":
            return placement_rewards(engine.totals)
        return [float(total) for total in engine.totals]

    def __str__(self) -> str:
        """The whole state, hidden cards included (for debugging, as OpenSpiel's games do)."""
        engine = self.engine
        lines = [repr(engine)]
        if engine.phase in (Phase.BIDDING, Phase.CHOOSING_TRUMP, Phase.PLAYING, Phase.DECLARING):
            for seat in range(engine.num_players):
                lines.append(f"seat {seat}: " + " ".join(card_name(card) for card in engine.hand(seat)))
            lines.append("bids: " + " ".join("-" if bid is None else str(bid) for bid in engine.bids))
            lines.append("plays: " + " ".join(card_name(card) for card in engine.plays))
        if self._dealt:
            lines.append("dealing: " + " ".join(card_name(card) for card in self._dealt))
        return "\n".join(lines)

    # -- resampling for ISMCTS -----------------------------------------------------------------

    def resample_from_infostate(self, player: int, probability_sampler: Callable[[], float] | None = None
                                ) -> OhHellState:
        """A state drawn from those ``player`` cannot tell from this one: the cards ``player``
        cannot see are dealt again, consistently with every card played (a seat that did not
        follow suit holds none of it; under must-trump, no trump either) and checked by
        replaying the hand. Drawn by rejection (uniform) and, when that keeps failing, by a
        constrained deal."""
        seed = int(probability_sampler() * 2**52) if probability_sampler is not None else None
        rng = random.Random(seed)
        engine = self.engine
        game = self.get_game()
        if engine.phase == Phase.CUT_FOR_DEAL or not self._is_hand_dealt():
            return self._replayed(game, self._random_partial_deal(rng))
        for attempt in range(_RESAMPLE_TRIES):
            hands = self._draw_hidden_hands(player, rng, constrained=attempt >= 20)
            if hands is None:
                continue
            try:
                return self._replayed(game, hands)
            except (IllegalActionError, ValueError, RuntimeError):
                continue
        raise RuntimeError(f"could not deal hidden cards consistent with seat {player}'s information")

    def _is_hand_dealt(self) -> bool:
        return not self.engine.is_chance_node()

    def _random_partial_deal(self, rng: random.Random) -> dict[int, Card] | None:
        """Nobody has looked at a deal in progress: any cards may have been dealt so far."""
        if not self._dealt:
            return None
        cards = rng.sample(list(self.engine.game.deck), len(self._dealt))
        return {self._deal_start + index: card for index, card in enumerate(cards)}

    def _draw_hidden_hands(self, player: int, rng: random.Random, constrained: bool
                           ) -> dict[int, Card] | None:
        """New chance outcomes of the current deal (history index -> card), or ``None``."""
        engine = self.engine
        view = seat_view(engine, player)
        n = engine.num_players
        played_by: list[list[Card]] = [[] for _ in range(n)]
        for seat, card in view.played_cards():
            played_by[seat].append(card)
        known: dict[int, list[Card]] = {}
        if not view.blind:
            known[player] = list(view.hand)
        for seat, cards in view.visible_hands.items():
            known[seat] = list(cards)
        seen = {card for cards in known.values() for card in cards}
        seen.update(card for cards in played_by for card in cards)
        if view.turn_up is not None:
            seen.add(view.turn_up)
        pool = [card for card in engine.game.deck if card not in seen]
        hidden_seats = [seat for seat in range(n) if seat not in known]
        holdings: dict[int, list[Card]] = dict(known)
        if constrained:
            voids = self._voids(view)
            order = sorted(hidden_seats, key=lambda seat: -len(voids[seat]))
            rng.shuffle(pool)
            for seat in order:
                allowed = [card for card in pool if not _in_suits(card, voids[seat])]
                need = view.hand_counts[seat]
                if len(allowed) < need:
                    return None
                chosen = rng.sample(allowed, need)
                holdings[seat] = chosen
                taken = set(chosen)
                pool = [card for card in pool if card not in taken]
        else:
            rng.shuffle(pool)
            for seat in hidden_seats:
                need = view.hand_counts[seat]
                holdings[seat], pool = pool[:need], pool[need:]
        # The original deal of each seat: what it holds now and what it played this hand.
        deals = {seat: list(holdings[seat]) + played_by[seat] for seat in range(n)}
        for dealt_cards in deals.values():
            rng.shuffle(dealt_cards)
        outcomes: dict[int, Card] = {}
        size, dealer = engine.hand_size, engine.dealer
        next_card = [0] * n
        for position in range(n * size):
            seat = (dealer + 1 + position) % n
            outcomes[self._deal_start + position] = deals[seat][next_card[seat]]
            next_card[seat] += 1
        return outcomes

    def _voids(self, view: SeatView) -> list[set[int]]:
        """Suits each seat showed it lacks this hand (plain follow-suit and must-trump reasoning)."""
        n = view.players
        rules = view.rules
        voids: list[set[int]] = [set() for _ in range(n)]
        if rules.high_low_jokers:
            return voids  # joker leads and free joker plays: left to the replay check
        tricks = [list(trick.cards) for trick in view.completed_tricks]
        if view.current_trick:
            tricks.append(list(view.current_trick))
        for cards in tricks:
            led = cards[0][1] // 13
            for seat, card in cards[1:]:
                if card // 13 != led:
                    voids[seat].add(led)
                    if rules.must_trump and view.trump is not None and card // 13 != view.trump:
                        voids[seat].add(view.trump)
        return voids

    def _replayed(self, game: OhHellGame, outcomes: dict[int, Card] | None) -> OhHellState:
        """A new state with this history, some chance outcomes replaced."""
        state = game.new_initial_state()
        for index, action in enumerate(self.history()):
            if outcomes is not None and index in outcomes:
                action = outcomes[index]
            state.apply_action(action)
        return state


def _in_suits(card: Card, suits: set[int]) -> bool:
    return card < RED_JOKER and card // 13 in suits


class OhHellObserver:
    """OpenSpiel's Python observer protocol: ``tensor``, ``dict``, ``set_from``, ``string_from``."""

    def __init__(self, shared: _Shared, iig_obs_type: Any) -> None:
        private = iig_obs_type.private_info
        if private == pyspiel.PrivateInfoType.ALL_PLAYERS:
            raise ValueError("python_ohhell observes one seat or public information only, never all hands")
        if not iig_obs_type.public_info:
            raise ValueError("python_ohhell observations always include the public information")
        self.public_only = private == pyspiel.PrivateInfoType.NONE
        self.perfect_recall = bool(iig_obs_type.perfect_recall)
        self.encoder = shared.info_encoder if self.perfect_recall else shared.observation_encoder
        self.tensor = np.zeros(self.encoder.size, np.float32)
        self.dict = self.encoder.views_of(self.tensor)

    def _view(self, state: OhHellState, player: int) -> SeatView:
        return state.view(None if self.public_only else player)

    def set_from(self, state: OhHellState, player: int) -> None:
        self.encoder.encode(self._view(state, player), out=self.tensor)

    def string_from(self, state: OhHellState, player: int) -> str:
        data = self._view(state, player).to_json()
        for key in ("rules", "legal_actions", "version", "draws", "first_dealer"):
            data.pop(key, None)
        if not self.perfect_recall:
            data.pop("finished_hands", None)
        if self.public_only:
            data["observer"] = "public"
        if state.cards_dealt:
            data["cards_dealt"] = state.cards_dealt
        return json.dumps(data, separators=(",", ":"), sort_keys=True)


def load(preset: str = "classic", players: int = 4, **params: Any) -> OhHellGame:
    """``pyspiel.load_game("python_ohhell", {...})`` with keyword arguments; rule knobs given
    as a dict go into ``knobs``.

    >>> load("la-podrida", players=5, mode="hand", hand=3).num_players()
    5
    """
    knobs = params.pop("knobs", None)
    if isinstance(knobs, dict):
        params["knobs"] = encode_knobs(knobs)
    elif knobs is not None:
        params["knobs"] = encode_knobs(decode_knobs(str(knobs)))
    game: OhHellGame = pyspiel.load_game(GAME_NAME, {"preset": preset, "players": players, **params})
    return game


pyspiel.register_game(GAME_TYPE, OhHellGame)
