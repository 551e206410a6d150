"""A first attempt at an Oh Hell bot, the kind a bot builder writes in an evening from
docs/bot-protocol.md: count the high cards to bid, follow or duck to play (issue 20: ``basic``
must be clearly better than this).

Bidding: one trick for every ace, for the king and queen of trumps, and for the jack of trumps
with two more trumps beside it; with one card, a trump or an ace. The dealer under the hook
moves up one when the count is forbidden (down when it is the whole hand).

Play: while it still needs tricks, it wins the trick with its lowest card that beats what is
on the table (leading its highest card); once it has its bid, it plays the highest card that
loses to what is on the table (leading its lowest), else its lowest card.
"""

from __future__ import annotations

from ohhell.actions import Action, Bid, Play
from ohhell.bots.base import Bot, forward_actions
from ohhell.bots.heuristics import power, trump_mask_of
from ohhell.game import Phase
from ohhell.views import SeatView


class CountingBot(Bot):
    name = "counting"

    def choose(self, view: SeatView) -> Action:
        actions = forward_actions(view)
        if len(actions) == 1 or view.phase not in (Phase.BIDDING, Phase.PLAYING):
            return actions[0]
        if view.phase == Phase.BIDDING:
            return self._bid(view, actions)
        return self._play(view, actions)

    def _bid(self, view: SeatView, actions: list[Action]) -> Action:
        trump = trump_mask_of(view.trump, view.turn_up)
        trumps = [card for card in view.hand if trump >> card & 1]
        count = 0
        for card in view.hand:
            rank = card % 13 if card < 52 else 13
            is_trump = bool(trump >> card & 1)
            if rank == 12 or (is_trump and rank in (11, 10)) or (is_trump and rank == 9 and len(trumps) >= 3):
                count += 1
        if view.hand_size == 1:
            count = 1 if trumps or any(card % 13 == 12 for card in view.hand) else 0
        allowed = {a.bid for a in actions if isinstance(a, Bid)}
        bid = min(count, view.hand_size)
        if bid not in allowed:
            bid = bid + 1 if bid + 1 in allowed else bid - 1
        return Bid(view.seat if view.seat is not None else 0, bid)

    def _play(self, view: SeatView, actions: list[Action]) -> Action:
        assert view.seat is not None
        plays = [a for a in actions if isinstance(a, Play)]
        trump = trump_mask_of(view.trump, view.turn_up)
        bid = view.bids[view.seat]
        need = (bid if bid is not None else view.hand_size) - view.tricks_won[view.seat]
        trick = view.current_trick
        if not trick:
            def strength(play: Play) -> int:
                return power(play.card, play.card // 13, trump)
            return max(plays, key=strength) if need > 0 else min(plays, key=strength)
        led = view.trick_suit
        best = max(power(card, led, trump) for _seat, card in trick)
        winning = sorted((p for p in plays if power(p.card, led, trump) > best),
                         key=lambda p: power(p.card, led, trump))
        losing = sorted((p for p in plays if power(p.card, led, trump) <= best),
                        key=lambda p: (power(p.card, led, trump), p.card % 13))
        if need > 0:
            if winning:
                return winning[0]
            return min(plays, key=lambda p: (power(p.card, led, trump), p.card % 13))
        if losing:
            return losing[-1]
        return winning[0]
