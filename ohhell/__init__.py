"""ohhell: the card game Oh Hell — rules engine, records, bots, and apps.

>>> import random, ohhell
>>> state = ohhell.Game(ohhell.preset("classic", players=4)).new_initial_state()
>>> rng = random.Random(1)
>>> while not state.is_terminal():
...     if state.is_chance_node():
...         state.apply(state.sample_chance(rng))
...     else:
...         state.apply(rng.choice(state.legal_actions(state.turn)))
>>> len(state.finished_hands), state.winners() == ohhell.winners(state.rules, state.totals)
(19, True)
"""

from ohhell.actions import (
    Action,
    Bid,
    Cut,
    Deal,
    Declare,
    Draw,
    Play,
    ReportTricks,
    Scoresheet,
    Shuffle,
    action_from_json,
    action_to_json,
    parse_action,
)
from ohhell.cards import (
    Card,
    card_display,
    card_name,
    format_cards,
    parse_card,
    parse_cards,
)
from ohhell.errors import (
    IllegalActionError,
    InvalidCardError,
    OhHellError,
    RecordError,
    RulesError,
)
from ohhell.game import Game, HandResult, Phase, State
from ohhell.rules import PRESETS, HandPlan, Rules, find_preset, preset
from ohhell.scoring import hand_score, settlement, winners

__version__ = "0.1.0"

__all__ = [
    "PRESETS",
    "Action",
    "Bid",
    "Card",
    "Cut",
    "Deal",
    "Declare",
    "Draw",
    "Game",
    "HandPlan",
    "HandResult",
    "IllegalActionError",
    "InvalidCardError",
    "OhHellError",
    "Phase",
    "Play",
    "RecordError",
    "ReportTricks",
    "Rules",
    "RulesError",
    "Scoresheet",
    "Shuffle",
    "State",
    "action_from_json",
    "action_to_json",
    "card_display",
    "card_name",
    "find_preset",
    "format_cards",
    "hand_score",
    "parse_action",
    "parse_card",
    "parse_cards",
    "preset",
    "settlement",
    "winners",
]
