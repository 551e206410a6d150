"""Playing games between bots: every decision goes through the seat's view.

The chance events (the cut, the shuffles) come from their own random generator, seeded
with ``seed``, so the same seed deals the same cards whatever the bots do — what
duplicate matches in the arena rely on.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from ohhell.actions import Action
from ohhell.bots.base import Bot
from ohhell.errors import IllegalActionError
from ohhell.game import Game, Phase, State
from ohhell.rules import Rules
from ohhell.views import seat_view

Listener = Callable[[State, Action], None]


class BotError(RuntimeError):
    """A bot answered an illegal action."""


def next_decision(state: State, bots: Sequence[Bot]) -> Action:
    """The next action of a bot game: a bid change a bot wants, else the seat on turn's choice
    (under simultaneous bidding, the lowest seat still to bid)."""
    changer = state.bid_changer()
    if changer is not None and changer != state.turn:
        change = bots[changer].change_bid(seat_view(state, changer))
        if change is not None:
            return change
    seat = state.turn
    if seat is None:
        actors = state.actors()
        if not actors:
            raise BotError(f"nobody can act in phase {state.phase.name}")
        seat = actors[0]
    return bots[seat].choose(seat_view(state, seat))


def play_game(rules: Rules | State, bots: Sequence[Bot], seed: int | None = None,
              listener: Listener | None = None, until: Callable[[State], bool] | None = None) -> State:
    """Play a game (or go on from ``rules`` if it is a state) with one bot per seat.

    Chance comes from ``random.Random(seed)``. ``listener`` sees every action applied;
    ``until`` stops early when it returns true. An illegal answer raises :class:`BotError`.
    At the end every bot's :meth:`~ohhell.bots.base.Bot.game_over` is called.
    """
    state = rules if isinstance(rules, State) else Game(rules).new_initial_state()
    if len(bots) != state.num_players:
        raise ValueError(f"{state.num_players} players need {state.num_players} bots, not {len(bots)}")
    chance = random.Random(seed)
    while not state.is_terminal() and not (until and until(state)):
        if state.is_chance_node():
            action = state.sample_chance(chance)
        else:
            action = next_decision(state, bots)
        try:
            state.apply(action)
        except IllegalActionError as error:
            raise BotError(f"{bots[getattr(action, 'seat', 0)]!r} chose an illegal action {action}: {error}") \
                from error
        if listener is not None:
            listener(state, action)
    if state.is_terminal():
        for seat, bot in enumerate(bots):
            bot.game_over(seat_view(state, seat))
    return state


def deal_only(state: State, seed: int | None) -> State:
    """Apply chance until a player must act (for setting up positions)."""
    rng = random.Random(seed)
    while state.is_chance_node():
        state.apply(state.sample_chance(rng))
    return state


__all__ = ["BotError", "Phase", "deal_only", "next_decision", "play_game"]
