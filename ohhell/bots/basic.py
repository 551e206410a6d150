"""The ``basic`` bot: a sound heuristic player that plays to make its bid exactly.

Bidding: the expected tricks of the hand (:func:`~ohhell.bots.heuristics.estimate_tricks`:
card strength, suit lengths, trumps, how much of the pack is dealt and the turned card,
which nobody holds), rounded; when the hook forbids that bid, the nearer bid either side,
and never 0 while holding the ace of trumps. Under Devil's Bridge it counts how many of the
cards it might hold would win against the cards it sees.

Play: how many more tricks it wants (its bid minus the tricks it has, read from the score
the rules give every final count), and for each legal card the chance that it wins the
trick, from the cards still unseen and the suits each seat has shown it lacks. It takes the
tricks it needs with the cheapest card that is (almost) sure to win, leads the top trump
when every remaining trick is needed, ducks the tricks it does not need with the highest
card that loses (so it never trumps in needlessly) and discards its most dangerous cards.

>>> from ohhell.rules import preset
>>> from ohhell.bots.driver import play_game
>>> state = play_game(preset("classic", players=3), [BasicBot(seed=s) for s in range(3)], seed=4)
>>> state.is_terminal()
True
"""

from __future__ import annotations

from ohhell.actions import Action, Bid, Declare, Play
from ohhell.bots.base import Bot, forward_actions
from ohhell.bots.heuristics import (
    bid_from_estimate,
    chance_beaten,
    estimate_tricks,
    power,
)
from ohhell.bots.knowledge import Knowledge
from ohhell.bots.one_card import blind_win_chance, win_chance
from ohhell.cards import JOKERS_MASK, RED_JOKER, SUIT_MASKS, card_colour
from ohhell.fastsim import score_row
from ohhell.game import Phase
from ohhell.views import SeatView

SURE = 0.8
"""A card at least this likely to win counts as a winner."""


def tricks_wanted(view: SeatView, seat: int) -> int:
    """How many more tricks ``seat`` wants: the best final count it can still reach by the
    score the rules give (its bid, all of them when it did not bid, none once it is past a
    bid that extra tricks cannot mend)."""
    won = view.tricks_won[seat]
    left = view.hand_size - len(view.completed_tricks)
    row = score_row(view.rules, view.bids[seat], view.totals[seat], view.hand_size)
    best = max(range(won, won + left + 1), key=lambda tricks: (row[tricks], -tricks))
    return best - won


class BasicBot(Bot):
    """A heuristic that bids from card strength and plays to make its bid exactly."""

    name = "basic"

    def choose(self, view: SeatView) -> Action:
        actions = forward_actions(view)
        if not actions:
            raise ValueError(f"seat {view.seat} has nothing to do now")
        if len(actions) == 1:
            return actions[0]
        if view.phase == Phase.BIDDING:
            return self._bid(view, actions)
        if view.phase == Phase.DECLARING:
            assert view.seat is not None
            high = tricks_wanted(view, view.seat) > 0
            return next((a for a in actions if isinstance(a, Declare) and a.high == high), actions[0])
        if view.phase == Phase.PLAYING:
            return self._play(view, actions)
        return actions[0]

    # -- bidding ------------------------------------------------------------------------

    def estimate(self, view: SeatView) -> float:
        """The expected tricks of the seat's hand. With one card each it is the exact chance
        of taking the trick from the seat's place in it (leading, an ace of a plain suit wins
        unless someone trumps; playing last, only if that suit is led), counted over every
        deal of the unseen cards. With more cards the seat's place showed no consistent effect
        on the tricks taken beyond the noise of the measurement (about ±0.2 trick, 150–300
        random deals per player count, hand size and place, 2–10 cards), so the card
        strength estimate stands alone."""
        knowledge = Knowledge.from_view(view)
        if view.blind:
            return blind_chance(view, knowledge)
        hand = knowledge.known[knowledge.seat]
        leader = view.first_leader
        if view.hand_size == 1 and leader is not None and hand.bit_count() == 1 and not view.rules.high_low_jokers:
            card = hand.bit_length() - 1
            return win_chance(card, knowledge.trump, knowledge.unseen, (knowledge.seat - leader) % view.players,
                              view.players)
        return estimate_tricks(hand, knowledge.trump, knowledge.unseen, view.players, view.hand_size)

    def _bid(self, view: SeatView, actions: list[Action]) -> Action:
        assert view.seat is not None
        allowed = {a.bid: a for a in actions if isinstance(a, Bid)}
        if not allowed:
            return actions[0]
        estimate = self.estimate(view)
        knowledge = Knowledge.from_view(view)
        hand = knowledge.known[view.seat]
        trumps = hand & knowledge.trump
        top_trump = bool(trumps) and not (knowledge.trump & knowledge.unseen & ~((1 << trumps.bit_length()) - 1))
        forbidden = view.forbidden_bid if view.forbidden_bid is not None and view.forbidden_bid not in allowed \
            else None
        bid = bid_from_estimate(estimate, view.hand_size, forbidden, holds_sure_winner=top_trump)
        if bid not in allowed:
            bid = min(allowed, key=lambda b: (abs(b - estimate), b))
        return allowed[bid]

    # -- play ---------------------------------------------------------------------------

    def _play(self, view: SeatView, actions: list[Action]) -> Action:
        seat = view.seat
        assert seat is not None
        plays = [a for a in actions if isinstance(a, Play)]
        if not plays:
            return actions[0]
        if len(plays) == 1:
            return plays[0]
        knowledge = Knowledge.from_view(view)
        need = tricks_wanted(view, seat)
        left = view.hand_size - len(view.completed_tricks)
        chances = {play.card: self.chance_to_win(view, knowledge, play.card, need > 0) for play in plays}
        trump = knowledge.trump

        def cheap(card: int) -> tuple[int, int]:
            return (1 if trump >> card & 1 else 0, _rank(card))

        cards = list(chances)
        if need <= 0:
            # Duck: the least likely to win, and of those the highest (dump the danger).
            choice = min(cards, key=lambda c: (round(chances[c], 3), -cheap(c)[0], -cheap(c)[1]))
        elif need >= left:
            choice = max(cards, key=lambda c: (round(chances[c], 3), -cheap(c)[0], -cheap(c)[1]))
        else:
            winners = [c for c in cards if chances[c] >= SURE]
            if winners:
                choice = min(winners, key=cheap)
            elif 2 * need > left:
                choice = max(cards, key=lambda c: (round(chances[c], 3), -cheap(c)[1]))
            else:
                # Keep the strength for later: throw the cheapest card.
                choice = min(cards, key=cheap)
        return next(p for p in plays if p.card == choice)

    def chance_to_win(self, view: SeatView, knowledge: Knowledge, card: int, wants: bool) -> float:
        """The chance that ``card`` wins the trick in progress (or the trick it leads)."""
        seat = knowledge.seat
        n = view.players
        trick = view.current_trick
        high_low = view.rules.high_low_jokers
        trump = knowledge.trump
        later = [(seat + offset) % n for offset in range(1, n - len(trick))]
        possible = [(knowledge.unseen & ~knowledge.excluded[p]) | knowledge.known[p] for p in later]
        held = [view.hand_counts[p] for p in later]
        extra = 0
        if high_low:
            if any(c >= RED_JOKER and _joker_power(view, c, trick) > 500 for _s, c in trick):
                return 0.0
            if card >= RED_JOKER:
                first = view.joker_high is None
                high = wants if first else not view.joker_high
                return 1.0 if high else 0.0
            if view.completed_tricks and view.joker_high is not True:
                extra = knowledge.unseen & JOKERS_MASK
        if not trick:
            led = card // 13
            return 1.0 - chance_beaten(power(card, led, trump), led, trump, possible, held, extra)
        led_suit = view.trick_suit
        if led_suit is None:
            first_card = trick[0][1]
            if high_low and card < RED_JOKER and card_colour(card) == card_colour(first_card):
                led_suit = card // 13
            else:
                return 0.0 if not high_low else 0.5
        best = max(_card_power(view, c, led_suit, trump, trick) for _s, c in trick)
        mine = power(card, led_suit, trump)
        if mine <= best:
            return 0.0
        return 1.0 - chance_beaten(mine, led_suit, trump, possible, held, extra)


def _rank(card: int) -> int:
    return 13 if card >= RED_JOKER else card % 13


def _joker_power(view: SeatView, card: int, trick: tuple[tuple[int, int], ...]) -> int:
    """A high-low joker's power in the trick: 1000 when high, -1 when low."""
    played = [c for t in view.completed_tricks for _s, c in t.cards] + [c for _s, c in trick]
    first = next(c for c in played if c >= RED_JOKER)
    high = bool(view.joker_high) if card == first else not view.joker_high
    return 1000 if high else -1


def _card_power(view: SeatView, card: int, led: int, trump: int, trick: tuple[tuple[int, int], ...]) -> int:
    if card >= RED_JOKER and view.rules.jokers == "high-low":
        return _joker_power(view, card, trick)
    return power(card, led, trump)


def blind_chance(view: SeatView, knowledge: Knowledge) -> float:
    """Devil's Bridge: the share of the cards this seat might hold that would win the
    one-card trick against the cards it sees (others play their only card)."""
    seat = knowledge.seat
    n = view.players
    others = {p: cards[0] for p, cards in view.visible_hands.items() if cards and p != seat}
    candidates = [c for c in range(54) if knowledge.unseen >> c & 1]
    if view.hand_size != 1 or len(others) != n - 1 or not candidates:
        return view.hand_size / n
    leader = view.first_leader
    assert leader is not None
    return blind_win_chance(others, seat, candidates, knowledge.trump, leader, n)[0]


__all__ = ["SUIT_MASKS", "SURE", "BasicBot", "blind_chance", "tricks_wanted"]
