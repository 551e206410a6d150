"""A PettingZoo AEC environment of Oh Hell: any preset, any player count, a whole game or one hand.

>>> from ohhell.integrations.pettingzoo import env
>>> game = env(preset="classic", players=4, mode="hand", hand=7)
>>> game.reset(seed=42)
>>> for agent in game.agent_iter():
...     observation, reward, terminated, truncated, info = game.last()
...     if terminated or truncated:
...         action = None
...     else:
...         action = game.action_space(agent).sample(observation["action_mask"])
...     game.step(action)
>>> game.unwrapped.game_state.is_terminal()
True

Agents are ``player_0 … player_{n-1}`` (the seats). Each observation is
``{"observation": float32 vector, "action_mask": int8 vector}``: the vector is built from the
seat's view (:mod:`ohhell.integrations.encoding`, seats relative to the observer) and the mask
marks the legal actions of the agent to act (all zeros for the others). Actions are numbered
as in :class:`~ohhell.integrations.core.ActionCodec`. Chance (the shuffle, the cut, the first
dealer) is drawn inside the environment from ``reset(seed=…)``.

Rewards (``reward=``):

* ``"score"`` — after every hand each agent receives its score for that hand (so the sum of
  an agent's rewards is its final total, in the rules' points);
* ``"placement"`` — only at the end: (players beaten − players who beat you) / (players − 1).

Simultaneous bids are asked one agent at a time, each seeing none of the bids made before it
until all are in; voluntary bid changes are not offered (see ``docs/integrations.md``). An
illegal action raises ``ValueError`` unless ``illegal_reward`` is given, in which case
PettingZoo's ``TerminateIllegalWrapper`` ends the game with that reward for the offender.

The game runs in the C core (``ohhell.fastsim._batch``, one game) when it plays the rules, else
on the reference engine (``backend=``); both give the same observations, masks and rewards,
and ``game_state`` is the engine state either way.
"""

from __future__ import annotations

import random
from typing import Any, ClassVar, Final

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from pettingzoo import AECEnv  # type: ignore[import-untyped, unused-ignore]
from pettingzoo.utils import wrappers  # type: ignore[import-untyped, unused-ignore]

from ohhell.cards import card_name
from ohhell.errors import IllegalActionError
from ohhell.game import State
from ohhell.integrations import batched, dealing
from ohhell.integrations.core import REWARDS, Setup, acting_seat, placement_rewards, rl_legal_actions
from ohhell.integrations.dealing import DealStream
from ohhell.integrations.encoding import ObservationEncoder
from ohhell.views import SeatView, seat_view, spectator_view

AgentID = str
Observation = dict[str, np.ndarray]


def env(preset: str = "classic", players: int = 4, mode: str = "game", hand: int = 0, dealer: int | None = None,
        max_hands: int | None = None, reward: str = "score", render_mode: str | None = None,
        illegal_reward: float | None = None, perfect_recall: bool = False, backend: str = "auto",
        **knobs: Any) -> AECEnv:
    """The environment, ready to use.

    ``preset``, ``players`` and rule ``knobs`` choose the rules; ``mode`` is ``"game"`` (the
    whole schedule) or ``"hand"`` (hand number ``hand`` of the schedule, 0-based, alone);
    ``dealer`` fixes the first dealer (default: drawn at random); ``max_hands`` cuts a game
    short (games to a target score stop after 100 hands by default); ``perfect_recall`` adds
    the history of the game to the observation (:mod:`ohhell.integrations.encoding`);
    ``backend`` is ``"auto"`` (the C core when it plays these rules, else the engine),
    ``"fast"`` or ``"engine"``.

    The environment checks what PettingZoo's ``OrderEnforcingWrapper`` and
    ``AssertOutOfBoundsWrapper`` check (a call before ``reset()``, an action out of range) by
    itself, without their cost on every attribute; with ``illegal_reward``, PettingZoo's
    ``TerminateIllegalWrapper`` ends the game on an illegal action instead of raising.
    """
    setup = Setup.create(preset, players=players, mode=mode, hand=hand, dealer=dealer, max_hands=max_hands,
                         **knobs)
    environment: AECEnv = raw_env(setup, reward=reward, render_mode=render_mode, perfect_recall=perfect_recall,
                                  backend=backend)
    if illegal_reward is not None:
        environment = wrappers.TerminateIllegalWrapper(environment, illegal_reward=illegal_reward)
    return environment


BACKENDS: Final = ("auto", "fast", "engine")


def fast_backend_reason(setup: Setup) -> str | None:
    """Why the C core cannot play ``setup`` (``None``: it can)."""
    if not batched.available():
        return "the C batch core is not built"
    knob = batched.unsupported(setup.rules)
    return None if knob is None else f"{knob}: not played by the C core"


class raw_env(AECEnv):  # type: ignore[misc, unused-ignore]  # PettingZoo's conventional name
    """The environment (see the module docstring)."""

    metadata: ClassVar[dict[str, Any]] = {"render_modes": ["human", "ansi"], "name": "ohhell_v0",
                                          "is_parallelizable": False, "render_fps": 4}

    def __init__(self, setup: Setup | None = None, reward: str = "score", render_mode: str | None = None,
                 perfect_recall: bool = False, backend: str = "auto") -> None:
        super().__init__()
        self.setup = setup if setup is not None else Setup.create()
        if reward not in REWARDS:
            raise ValueError(f"reward must be one of {', '.join(REWARDS)}, not {reward!r}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of human, ansi or None, not {render_mode!r}")
        if backend not in BACKENDS:
            raise ValueError(f"backend must be one of {', '.join(BACKENDS)}, not {backend!r}")
        reason = fast_backend_reason(self.setup)
        if backend == "fast" and reason is not None:
            raise ValueError(f"backend='fast' cannot play these rules: {reason}")
        self.backend = "fast" if backend != "engine" and reason is None else "engine"
        self.reward_kind = reward
        self.render_mode = render_mode
        self.codec = self.setup.codec
        self.num_actions = self.codec.num_actions
        self.encoder = ObservationEncoder(self.setup, perfect_recall=perfect_recall)
        n = self.setup.players
        self.possible_agents: list[AgentID] = [f"player_{seat}" for seat in range(n)]
        self._seat_of = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        self.agents = self.possible_agents[:]
        observation_space = spaces.Dict({
            "observation": spaces.Box(self.encoder.low, self.encoder.high, dtype=np.float32),
            "action_mask": spaces.Box(0, 1, (self.num_actions,), dtype=np.int8),
        })
        # One space object per agent, the same object on every call (PettingZoo's api_test checks it).
        self.observation_spaces = {agent: observation_space for agent in self.possible_agents}
        self.action_spaces = {agent: spaces.Discrete(self.num_actions) for agent in self.possible_agents}
        self._rng = random.Random()
        self._batch: batched.BatchedGames | None = None
        if self.backend == "fast":
            self._batch = batched.BatchedGames(self.setup, n=1, perfect_recall=perfect_recall)
        self._deals = DealStream(0)
        self._state = dealing.new_state(self.setup, self._deals)
        self._ready = False
        self._rewarded = False
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[AgentID, dict[str, Any]] = {agent: {} for agent in self.agents}
        self.agent_selection = self.agents[0]

    # -- spaces -------------------------------------------------------------------------

    def observation_space(self, agent: AgentID) -> spaces.Space:  # type: ignore[type-arg]
        return self.observation_spaces[agent]

    def action_space(self, agent: AgentID) -> spaces.Space:  # type: ignore[type-arg]
        return self.action_spaces[agent]

    # -- the game -------------------------------------------------------------------------

    @property
    def game_state(self) -> State:
        """The game as a reference-engine state (with the fast backend, replayed from the C
        core's history: use it for records, not in a loop)."""
        if self._batch is not None:
            return self._batch.engine_state(0)
        return self._state

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._rng = random.Random(seed)
        deal_seed = self._rng.randrange(2**63)  # the same deals on both backends (ohhell.integrations.dealing)
        if self._batch is not None:
            self._batch.seed(deal_seed)
            self._batch.reset()
        else:
            self._deals = DealStream(deal_seed)
            self._state = dealing.new_state(self.setup, self._deals)
            dealing.advance_chance(self.setup, self._state, self._deals)
        self._ready = True
        self._rewarded = False
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {agent: {} for agent in self.agents}
        self._select_next(None)

    def last(self, observe: bool = True) -> tuple[Observation | None, float, bool, bool, dict[str, Any]]:
        """What the agent to act sees and has received (PettingZoo's ``last``, without its
        indirections)."""
        agent = self.agent_selection
        return (self.observe(agent) if observe else None, self._cumulative_rewards[agent], self.terminations[agent],
                self.truncations[agent], self.infos[agent])

    def seat_of(self, agent: AgentID) -> int:
        return self._seat_of[agent]

    def view(self, agent: AgentID) -> SeatView:
        """What ``agent``'s seat may know now."""
        return seat_view(self.game_state, self.seat_of(agent))

    def _is_over(self) -> bool:
        if self._batch is not None:
            return self._batch.over_one
        return self.setup.is_over(self._state)

    def _legal_indices(self, seat: int) -> npt.NDArray[np.int64]:
        if self._batch is not None:
            mask = np.zeros(self.num_actions, np.int8)
            self._batch.mask_one(mask)
            return np.flatnonzero(mask)
        return np.array(sorted(self.codec.encode(action) for action in rl_legal_actions(seat_view(self._state, seat))),
                        dtype=np.int64)

    def observe(self, agent: AgentID) -> Observation:
        if not self._ready:
            raise RuntimeError("call reset() before observe()")
        seat = self._seat_of[agent]
        mask = np.zeros(self.num_actions, np.int8)
        batch = self._batch
        if batch is not None:
            if agent == self.agent_selection:
                batch.mask_one(mask)  # all zeros when the game is over
            return {"observation": batch.observe_one(seat), "action_mask": mask}
        view = seat_view(self._state, seat)
        if agent == self.agent_selection and not self.setup.is_over(self._state):
            for action in rl_legal_actions(view):
                mask[self.codec.encode(action)] = 1
        return {"observation": self.encoder.encode(view), "action_mask": mask}

    def step(self, action: Any) -> None:
        if not self._ready:
            raise RuntimeError("call reset() before step()")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        seat = self._seat_of[agent]
        if action is None or not 0 <= int(action) < self.num_actions:
            raise ValueError(f"{agent}: {action!r} is not an action (actions are 0 … {self.num_actions - 1})")
        index = int(action)
        self._cumulative_rewards[agent] = 0.0
        if self._rewarded:  # most steps pay nothing: clear only after one that did
            self._clear_rewards()
            self._rewarded = False
        if self._batch is not None:
            over = self._step_fast(agent, seat, index)
        else:
            over = self._step_engine(agent, seat, index)
        if over:
            state_totals = self._totals()
            if self.reward_kind == "placement":
                for name, value in zip(self.possible_agents, placement_rewards(state_totals), strict=True):
                    self.rewards[name] += value
                self._rewarded = True
            truncated = (not self._state.is_terminal() if self._batch is None
                         else not bool(self._batch.terminal()[0]))  # cut short by max_hands
            ended = self.truncations if truncated else self.terminations
            for name in self.agents:
                ended[name] = True
        if self._rewarded:
            self._accumulate_rewards()
        self._select_next(seat)
        if self.render_mode == "human":
            self.render()

    def _illegal(self, agent: AgentID, seat: int, index: int) -> ValueError:
        legal = self._legal_indices(seat).tolist()
        return ValueError(f"{agent} may not {self.codec.label(index)} now; its legal actions are {legal}")

    def _step_fast(self, agent: AgentID, seat: int, index: int) -> bool:
        batch = self._batch
        assert batch is not None
        try:
            rewards = batch.step_one(index)
        except ValueError:
            raise self._illegal(agent, seat, index) from None
        if rewards is not None and self.reward_kind == "score":
            for name, value in zip(self.possible_agents, rewards.tolist(), strict=True):
                self.rewards[name] += value
            self._rewarded = True
        return batch.over_one

    def _step_engine(self, agent: AgentID, seat: int, index: int) -> bool:
        state = self._state
        chosen = self.codec.decode(index, seat)
        if chosen not in rl_legal_actions(seat_view(state, seat)):
            raise self._illegal(agent, seat, index)
        finished = len(state.finished_hands)
        try:
            state.apply(chosen)
        except IllegalActionError as error:  # pragma: no cover - the legal list comes from the same state
            raise ValueError(str(error)) from error
        dealing.advance_chance(self.setup, state, self._deals)
        if self.reward_kind == "score":
            for result in state.finished_hands[finished:]:
                for position, name in enumerate(self.possible_agents):
                    self.rewards[name] += float(result.scores[position])
                self._rewarded = True
        return self.setup.is_over(state)

    def _totals(self) -> list[int]:
        if self._batch is not None:
            return [int(total) for total in self._batch.totals[0]]
        return list(self._state.totals)

    def _select_next(self, last_seat: int | None) -> None:
        if self._batch is not None:
            seat = None if self._batch.over_one else self._batch.turn_one
        else:
            seat = acting_seat(self._state) if not self.setup.is_over(self._state) else None
        if seat is None:  # the game is over: the agents leave in seat order after the last actor
            seat = 0 if last_seat is None else (last_seat + 1) % self.setup.players
        self.agent_selection = self.possible_agents[seat]

    # -- rendering -------------------------------------------------------------------------

    def render(self) -> str | None:
        """The public state as text (``ansi`` returns it, ``human`` prints it)."""
        if self.render_mode is None:
            return None
        return render_public(self.game_state, self.render_mode)

    def close(self) -> None:
        """Nothing to release."""


def render_public(state: State, render_mode: str | None) -> str | None:
    """Render the public state: ``ansi`` returns the text, ``human`` prints it, None does nothing."""
    if render_mode is None:
        return None
    text = describe_public(spectator_view(state))
    if render_mode == "human":
        print(text)
        return None
    return text


def describe_public(view: SeatView) -> str:
    """A few lines of public information: the hand, trump, bids, tricks, the trick, the totals.

    Between hands and at the end of the game (nothing dealt yet, or nothing more to deal) the
    lines describe the last finished hand, with its scores, and the winners when it is over.
    """
    if not view.dealt and view.finished_hands:
        last = view.finished_hands[-1]
        lines = [
            f"hand {last.index + 1} of {view.hand_count or '?'} (finished): {last.size} cards, dealer {last.dealer}, "
            f"trump {_trump_name(last.trump)} (turned {_card_or_dash(last.turn_up)}), phase {view.phase.name.lower()}",
            "bids:   " + " ".join("-" if bid is None else str(bid) for bid in last.bids),
            "tricks: " + " ".join(str(count) for count in last.tricks),
            "scores: " + " ".join(str(score) for score in last.scores),
            "totals: " + " ".join(str(total) for total in view.totals),
        ]
        if view.game_over:
            lines.append("winners: " + " ".join(str(seat) for seat in view.winners))
        return "\n".join(lines)
    lines = [
        f"hand {view.hand_index + 1} of {view.hand_count or '?'}: {view.hand_size} cards, dealer {view.dealer}, "
        f"trump {_trump_name(view.trump)} (turned {_card_or_dash(view.turn_up)}), phase {view.phase.name.lower()}",
        "bids:   " + " ".join("-" if bid is None else str(bid) for bid in view.bids),
        "tricks: " + " ".join(str(count) for count in view.tricks_won),
        "trick:  " + " ".join(f"{seat}:{card_name(card)}" for seat, card in view.current_trick),
        "totals: " + " ".join(str(total) for total in view.totals),
    ]
    return "\n".join(lines)


def _trump_name(trump: int | None) -> str:
    return "none" if trump is None else "SHDCX"[trump]


def _card_or_dash(card: int | None) -> str:
    return card_name(card) if card is not None else "-"
