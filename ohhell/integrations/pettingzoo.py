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
"""

from __future__ import annotations

import random
from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv  # type: ignore[import-untyped, unused-ignore]
from pettingzoo.utils import wrappers  # type: ignore[import-untyped, unused-ignore]

from ohhell.cards import card_name
from ohhell.errors import IllegalActionError
from ohhell.game import State
from ohhell.integrations.core import REWARDS, Setup, acting_seat, placement_rewards, rl_legal_actions
from ohhell.integrations.encoding import ObservationEncoder
from ohhell.views import SeatView, seat_view, spectator_view

AgentID = str
Observation = dict[str, np.ndarray]


def env(preset: str = "classic", players: int = 4, mode: str = "game", hand: int = 0, dealer: int | None = None,
        max_hands: int | None = None, reward: str = "score", render_mode: str | None = None,
        illegal_reward: float | None = None, **knobs: Any) -> AECEnv:
    """The environment with PettingZoo's standard wrappers (bounds and call order checked).

    ``preset``, ``players`` and rule ``knobs`` choose the rules; ``mode`` is ``"game"`` (the
    whole schedule) or ``"hand"`` (hand number ``hand`` of the schedule, 0-based, alone);
    ``dealer`` fixes the first dealer (default: drawn at random); ``max_hands`` cuts a game
    short (games to a target score stop after 100 hands by default).
    """
    setup = Setup.create(preset, players=players, mode=mode, hand=hand, dealer=dealer, max_hands=max_hands,
                         **knobs)
    wrapped: AECEnv = raw_env(setup, reward=reward, render_mode=render_mode)
    if illegal_reward is not None:
        wrapped = wrappers.TerminateIllegalWrapper(wrapped, illegal_reward=illegal_reward)
    wrapped = wrappers.AssertOutOfBoundsWrapper(wrapped)
    return wrappers.OrderEnforcingWrapper(wrapped)


class raw_env(AECEnv):  # type: ignore[misc, unused-ignore]  # PettingZoo's conventional name
    """The unwrapped environment (see the module docstring)."""

    metadata: ClassVar[dict[str, Any]] = {"render_modes": ["human", "ansi"], "name": "ohhell_v0",
                                          "is_parallelizable": False, "render_fps": 4}

    def __init__(self, setup: Setup | None = None, reward: str = "score", render_mode: str | None = None) -> None:
        super().__init__()
        self.setup = setup if setup is not None else Setup.create()
        if reward not in REWARDS:
            raise ValueError(f"reward must be one of {', '.join(REWARDS)}, not {reward!r}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of human, ansi or None, not {render_mode!r}")
        self.reward_kind = reward
        self.render_mode = render_mode
        self.codec = self.setup.codec
        self.encoder = ObservationEncoder(self.setup)
        n = self.setup.players
        self.possible_agents: list[AgentID] = [f"player_{seat}" for seat in range(n)]
        self.agents = self.possible_agents[:]
        observation_space = spaces.Dict({
            "observation": spaces.Box(self.encoder.low, self.encoder.high, dtype=np.float32),
            "action_mask": spaces.Box(0, 1, (self.codec.num_actions,), dtype=np.int8),
        })
        # One space object per agent, the same object on every call (PettingZoo's api_test checks it).
        self.observation_spaces = {agent: observation_space for agent in self.possible_agents}
        self.action_spaces = {agent: spaces.Discrete(self.codec.num_actions) for agent in self.possible_agents}
        self._rng = random.Random()
        self.game_state = self.setup.new_state(self._rng)
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

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._rng = random.Random(seed)
        self.game_state = self.setup.new_state(self._rng)
        self.setup.advance_chance(self.game_state, self._rng)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {agent: {} for agent in self.agents}
        self._select_next(None)

    def seat_of(self, agent: AgentID) -> int:
        return self.possible_agents.index(agent)

    def view(self, agent: AgentID) -> SeatView:
        """What ``agent``'s seat may know now."""
        return seat_view(self.game_state, self.seat_of(agent))

    def observe(self, agent: AgentID) -> Observation:
        view = self.view(agent)
        mask = np.zeros(self.codec.num_actions, np.int8)
        if agent == self.agent_selection and not self.setup.is_over(self.game_state):
            for action in rl_legal_actions(view):
                mask[self.codec.encode(action)] = 1
        return {"observation": self.encoder.encode(view), "action_mask": mask}

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        seat = self.seat_of(agent)
        chosen = self.codec.decode(int(action), seat)
        legal = rl_legal_actions(seat_view(self.game_state, seat))
        if chosen not in legal:
            raise ValueError(f"{agent} may not {self.codec.label(int(action))} now; its legal actions are "
                             f"{sorted(self.codec.encode(a) for a in legal)}")
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        state = self.game_state
        finished = len(state.finished_hands)
        try:
            state.apply(chosen)
        except IllegalActionError as error:  # pragma: no cover - the legal list comes from the same state
            raise ValueError(str(error)) from error
        self.setup.advance_chance(state, self._rng)
        if self.reward_kind == "score":
            for result in state.finished_hands[finished:]:
                for index, name in enumerate(self.possible_agents):
                    self.rewards[name] += float(result.scores[index])
        if self.setup.is_over(state):
            if self.reward_kind == "placement":
                for name, value in zip(self.possible_agents, placement_rewards(state.totals), strict=True):
                    self.rewards[name] += value
            over = self.terminations if state.is_terminal() else self.truncations
            for name in self.agents:
                over[name] = True
        self._accumulate_rewards()
        self._select_next(seat)
        if self.render_mode == "human":
            self.render()

    def _select_next(self, last_seat: int | None) -> None:
        seat = acting_seat(self.game_state) if not self.setup.is_over(self.game_state) else None
        if seat is None:  # the game is over: the agents leave in seat order after the last actor
            start = 0 if last_seat is None else (last_seat + 1) % self.setup.players
            seat = start
        self.agent_selection = self.possible_agents[seat]

    # -- rendering -------------------------------------------------------------------------

    def render(self) -> str | None:
        """The public state as text (``ansi`` returns it, ``human`` prints it)."""
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
