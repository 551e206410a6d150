"""Play ohhell bots inside OpenSpiel's ``oh_hell`` (for the benchmarks; needs ``open-spiel``).

OpenSpiel's game is one hand: chance picks the number of tricks (fixed here), the dealer,
the deal and the trump card; players bid left of the dealer first, the dealer may not make
the bids add up to the number of tricks, the player left of the dealer leads, and a player
scores one point per trick plus 10 for an exact bid. In ohhell's terms that is a one-hand
``classic`` game with ``trick-plus-bonus`` scoring (:func:`ohhell_rules`).

:class:`Mirror` rebuilds the ohhell engine state that matches an OpenSpiel state, so an
ohhell bot can be asked through its seat's view and its answer turned back into an
OpenSpiel action. Every mirrored decision checks that both engines agree on the legal
actions (so the deal, the hook and the follow-suit rule are read alike).
"""

from __future__ import annotations

from typing import Any

import pyspiel

from ohhell.actions import Action, Bid, Deal, Play
from ohhell.bots.base import Bot
from ohhell.cards import parse_card
from ohhell.game import Game, State
from ohhell.rules import HandPlan, Rules, preset
from ohhell.views import seat_view

OS_SUITS = "CDSH"
NUM_CARDS = 52


def openspiel_game(players: int = 4, tricks: int = 10) -> Any:
    return pyspiel.load_game(f"oh_hell(players={players},num_tricks_fixed={tricks})")


def ohhell_rules(players: int = 4, tricks: int = 10) -> Rules:
    """ohhell rules that play exactly like OpenSpiel's ``oh_hell`` with these settings."""
    return preset("classic", players=players, schedule="explicit", hands=[HandPlan(tricks, "turn-up")],
                  scoring="trick-plus-bonus")


def card_of(action: int) -> int:
    """The ohhell card of an OpenSpiel card action (rank * 4 + suit, suits C D S H)."""
    rank, suit = divmod(action, 4)
    return parse_card("23456789TJQKA"[rank] + OS_SUITS[suit])


def action_of(card: int) -> int:
    suit, rank = divmod(card, 13)
    return rank * 4 + OS_SUITS.index("SHDC"[suit])


class Mirror:
    """The ohhell state that matches an OpenSpiel ``oh_hell`` state past the deal."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules

    def state_of(self, os_state: Any) -> State:
        history = list(os_state.history())
        n = self.rules.players
        size = self.rules.hand_plans()[0].size
        # history: number of tricks, dealer, n * size dealt cards, the trump card, then bids and plays.
        dealer = history[1]
        deal_cards = history[2:2 + n * size]
        trump_card = history[2 + n * size]
        # OpenSpiel deals card i to player i mod n, whoever deals.
        hands = [[card_of(a) for a in deal_cards[p::n]] for p in range(n)]
        state = Game(self.rules).new_initial_state(first_dealer=dealer)
        state.apply(Deal(tuple(tuple(hand) for hand in hands), card_of(trump_card)))
        for action in history[3 + n * size:]:
            seat = state.turn
            assert seat is not None
            if action >= NUM_CARDS:
                state.apply(Bid(seat, action - NUM_CARDS))
            else:
                state.apply(Play(seat, card_of(action)))
        return state

    def act(self, bot: Bot, os_state: Any) -> int:
        """Ask ``bot`` for the OpenSpiel player on turn's action."""
        state = self.state_of(os_state)
        seat = os_state.current_player()
        assert seat == state.turn, (seat, state.turn)
        view = seat_view(state, seat)
        ours = {_os_action(a) for a in view.legal_actions if not (isinstance(a, Bid) and state.bids[seat] is not None)}
        assert ours == set(os_state.legal_actions()), (sorted(ours), os_state.legal_actions())
        return _os_action(bot.choose(view))


def _os_action(action: Action) -> int:
    if isinstance(action, Bid):
        return NUM_CARDS + action.bid
    assert isinstance(action, Play)
    return action_of(action.card)
