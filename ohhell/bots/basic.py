"""The ``basic`` bot (the club player): a sound heuristic that plays to make its bid exactly,
checked by a quick look-ahead, for whatever scoring is in force.

Bidding: the bid with the best expected score under the rules' scoring (a bid of 10 + bid²
is worth more the bigger it is; a miss may cost more than nothing). With the fast core each
legal bid is played out by the heuristic in every seat over :data:`BID_WORLDS_FACTOR` ×
:data:`LOOKAHEAD_WORLDS` deals of the unseen cards; without it, the chance of each trick
count is binomial around the hand's expected tricks
(:func:`~ohhell.bots.heuristics.estimate_tricks`: card strength, suit lengths, trumps, how
much of the pack is dealt and the turned card, which nobody holds), never below the tricks
its top trumps take whatever happens. With one card each the chance is exact
(:mod:`ohhell.bots.one_card`); under Devil's Bridge it counts how many of the cards it might
hold would win against the cards it sees.

Play: how many more tricks it wants (by the score the rules give every final count), and for
each legal card the chance that it wins the trick, from the cards still unseen and the suits
each seat has shown it lacks. It leads the top trump when every remaining trick is needed;
when its top trumps will take the tricks still needed whenever they are played, it loses
this trick with another card; it takes a trick it needs with a sure winner — the one most
likely to win later when this is the last trick it needs, the one least useful later when it
needs more; it ducks the tricks it does not need with the card least likely to win now and
most likely to win later (so it never trumps in needlessly and throws its dangerous cards).
With the fast core that choice is checked against every legal card played out by the
heuristic in :data:`LOOKAHEAD_WORLDS` deals of the unseen cards (the last tricks solved exactly,
:func:`solve_depth`), and a card that scores better there is played instead.

The look-ahead reads the bids (issue 29): its deals, for a bid and for a card, are drawn from
more by how well their hands explain the bids made, as the strong bot reads them
(:mod:`ohhell.bots.bid_reading`).

>>> from ohhell.rules import preset
>>> from ohhell.bots.driver import play_game
>>> state = play_game(preset("classic", players=3), [BasicBot(seed=s) for s in range(3)], seed=4)
>>> state.is_terminal()
True
"""

from __future__ import annotations

from ohhell import fastsim
from ohhell.actions import Action, Bid, Declare, Play
from ohhell.bots.base import Bot, Budget, forward_actions
from ohhell.bots.bid_reading import random_prior, weighed_worlds
from ohhell.bots.core_view import bid_setup, play_position
from ohhell.bots.heuristics import (
    chance_beaten,
    estimate_tricks,
    expected_scores,
    power,
    rank_of,
    sure_tricks,
    trick_distribution,
)
from ohhell.bots.knowledge import Knowledge, World
from ohhell.bots.one_card import blind_win_chance, win_chance
from ohhell.bots.trump_choice import choose_trump
from ohhell.cards import (
    CARD_COUNT,
    CARD_RANKS,
    CARD_SUITS,
    JOKERS_MASK,
    RED_JOKER,
    SECOND_COPIES_MASK,
    SUIT_MASKS,
    CardMask,
    card_colour,
    cards_of,
)
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


READ_BIDS_PLAYERS = 4
"""Up to this many players the club player reads one-card bids by the equilibrium (issue 29); at
more the exact count takes longer than its 10 ms a decision (p95 17 ms at five, 89 ms at seven)."""
LOOKAHEAD_WORLDS = 32
"""Worlds in which the fast core plays out each candidate card (0: the heuristic alone)."""
BID_WORLDS_FACTOR = 4
"""A bid is played out in this many times as many worlds (it decides more, and costs little)."""
READ_BIDS_POOL = 4
"""Reading the bids, the look-ahead samples this many deals per deal it plays out and keeps them
by the weight the bids made give them (:func:`~ohhell.bots.bid_reading.weighed_worlds`)."""
READ_BIDS_POOL_BIDDING = 2
"""The same for a bid's look-ahead, which plays out more deals."""


def solve_depth(players: int) -> int:
    """Tricks left from which the look-ahead solves the hand exactly in each deal (issue 29:
    at four players 4 scored +0.46 [0.04, 0.88] a hand over the heuristic play-outs; the
    solver's cost grows about as (cards per seat)!^players, so fewer at bigger tables)."""
    return {3: 4, 4: 4, 5: 3}.get(players, 2)


class BasicBot(Bot):
    """A heuristic that bids from card strength and plays to make its bid exactly."""

    name = "basic"

    def __init__(self, seed: int | None = None, budget: Budget | None = None,
                 worlds: int = LOOKAHEAD_WORLDS, read_bids: bool = True, solve: int | None = None) -> None:
        super().__init__(seed=seed, budget=budget)
        self.worlds = worlds
        self.read_bids = read_bids
        self.solve = solve
        """Tricks left from which the look-ahead finishes the hand exactly (every seat seeing
        every card, :func:`fastsim.core.evaluate`'s max^n solver) instead of by the heuristic
        (``None``: :func:`solve_depth`; 0: never, as released)."""
        """Whether the look-ahead's deals are weighed by the bids made (issue 29; ``False``: dealt
        uniformly, as released)."""

    def choose(self, view: SeatView) -> Action:
        actions = forward_actions(view)
        if not actions:
            raise ValueError(f"seat {view.seat} has nothing to do now")
        if len(actions) == 1:
            return actions[0]
        if view.phase == Phase.BIDDING:
            return self._bid(view, actions)
        if view.phase == Phase.CHOOSING_TRUMP:
            return choose_trump(view)[0]
        if view.phase == Phase.DECLARING:
            assert view.seat is not None
            high = tricks_wanted(view, view.seat) > 0
            return next((a for a in actions if isinstance(a, Declare) and a.high == high), actions[0])
        if view.phase == Phase.PLAYING:
            return self._play(view, actions)
        return actions[0]

    def knowledge(self, view: SeatView) -> Knowledge:
        """What the seat knows of the hidden cards (a player with a poorer memory forgets some)."""
        return Knowledge.from_view(view)

    # -- bidding ------------------------------------------------------------------------

    def estimate(self, view: SeatView) -> float:
        """The expected tricks of the seat's hand. With one card each it is the exact chance
        of taking the trick from the seat's place in it (leading, an ace of a plain suit wins
        unless someone trumps; playing last, only if that suit is led), counted over every
        deal of the unseen cards. With more cards the seat's place showed no consistent effect
        on the tricks taken beyond the noise of the measurement (about ±0.2 trick, 150–300
        random deals per player count, hand size and place, 2–10 cards), so the card
        strength estimate stands alone."""
        knowledge = self.knowledge(view)
        if view.blind:
            return blind_chance(view, knowledge)
        hand = knowledge.known[knowledge.seat]
        leader = view.first_leader
        if view.hand_size == 1 and leader is not None and hand.bit_count() == 1 and not view.rules.high_low_jokers:
            card = hand.bit_length() - 1
            weights = None
            if (view.phase == Phase.BIDDING and view.players <= READ_BIDS_PLAYERS
                    and any(b is not None for p, b in enumerate(view.bids) if p != view.seat)):
                # The bids before this one, read as the one-card equilibrium bids them (or at random).
                from ohhell.bots.equilibrium import RANDOM_PRIOR, earlier_bid_weights, equilibrium_of, reads_bids

                if reads_bids(view):
                    weights, _randomness = earlier_bid_weights(view, cards_of(knowledge.unseen), equilibrium_of(view),
                                                               [RANDOM_PRIOR] * view.players)
            return win_chance(card, knowledge.trump, knowledge.unseen, (knowledge.seat - leader) % view.players,
                              view.players, weights)
        return estimate_tricks(hand, knowledge.trump, knowledge.unseen, view.players, view.hand_size)

    def _bid(self, view: SeatView, actions: list[Action]) -> Action:
        assert view.seat is not None
        allowed = {a.bid: a for a in actions if isinstance(a, Bid)}
        if not allowed:
            return actions[0]
        values = self.lookahead_bids(view, sorted(allowed))
        if values is not None:
            return allowed[max(values, key=lambda bid: (round(values[bid], 9), -bid))]
        return allowed[self.choose_bid(view, sorted(allowed), self.distribution(view))]

    def lookahead_bids(self, view: SeatView, bids: list[int]) -> dict[int, float] | None:
        """Each bid's mean score when the hand is played out by the heuristic in every seat in
        :data:`BID_WORLDS_FACTOR` × :attr:`worlds` deals of the unseen cards, read from the bids
        before (:meth:`lookahead_worlds`; the later bidders bidding their estimate); ``None``
        without the fast core (or with one card each: exact there)."""
        if not self.worlds or not fastsim.usable(view.rules) or view.blind or view.hand_size == 1:
            return None
        knowledge = Knowledge.from_view(view)
        setup = bid_setup(view, knowledge, tuple(bids))
        worlds = self.lookahead_worlds(view, knowledge, self.worlds * BID_WORLDS_FACTOR, READ_BIDS_POOL_BIDDING)
        if not worlds:
            return None
        out = fastsim.core.bid_rollouts(setup.cfg, worlds, setup.seat, setup.candidates, setup.my_rows,
                                        setup.rows_by_bid, setup.bid_order, setup.known, setup.dealer, setup.hook,
                                        setup.leader, setup.unseen, 1, 0.0, self.rng.getrandbits(63))
        return {bid: sum(row[t] for t in tricks) / len(tricks)
                for bid, row, tricks in zip(bids, setup.my_rows, out, strict=True)}

    def distribution(self, view: SeatView) -> list[float]:
        """The chance of each number of tricks 0 … hand size for this seat's hand: exact with
        one card each, else binomial around the estimate (:func:`trick_distribution`), never
        below the tricks its top trumps take whatever happens."""
        estimate = self.estimate(view)
        size = view.hand_size
        if size == 1:
            return [1.0 - estimate, estimate]
        distribution = trick_distribution(estimate, size)
        if view.blind:
            return distribution
        knowledge = self.knowledge(view)
        floor = sure_tricks(knowledge.known[knowledge.seat], knowledge.trump, knowledge.unseen)
        if floor:
            # The tricks the top trumps take for sure: no chance of fewer.
            shifted = trick_distribution(max(0.0, estimate - floor), size - floor) if size > floor else [1.0]
            distribution = [0.0] * floor + shifted
        return distribution

    def choose_bid(self, view: SeatView, bids: list[int], distribution: list[float]) -> int:
        """The bid with the best expected score under the rules' scoring (a bid of 10 + bid²
        is worth more the bigger it is, a miss may cost more than nothing), given the chance
        of each trick count; ties go to the smaller bid."""
        assert view.seat is not None
        rows = {bid: score_row(view.rules, bid, view.totals[view.seat], view.hand_size) for bid in bids}
        values = expected_scores(distribution, rows)
        return max(bids, key=lambda bid: (round(values[bid], 9), -bid))

    # -- play ---------------------------------------------------------------------------

    def _play(self, view: SeatView, actions: list[Action]) -> Action:
        seat = view.seat
        assert seat is not None
        plays = [a for a in actions if isinstance(a, Play)]
        if not plays:
            return actions[0]
        if len(plays) == 1:
            return plays[0]
        knowledge = self.knowledge(view)
        need = tricks_wanted(view, seat)
        left = view.hand_size - len(view.completed_tricks)
        chances = {play.card: self.chance_to_win(view, knowledge, play.card, need > 0) for play in plays}
        hand = knowledge.known[seat]
        trump = knowledge.trump
        # The cards that take a trick whenever they are played (the top trumps), and how likely
        # each other card is to take one later if it is kept (its chance when led).
        boss = {card for card in chances if _is_boss(card, trump, knowledge.unseen)}
        sure_later = sum(1 for card in cards_of(hand) if _is_boss(card, trump, knowledge.unseen))
        danger = {card: 1.0 if card in boss else self.lead_chance(view, knowledge, card) for card in chances}

        def cheap(card: int) -> tuple[int, int]:
            return (1 if trump >> card & 1 else 0, _rank(card))

        def duck(cards: list[int]) -> int:
            # The least likely to win now, and of those the one most likely to win later.
            return min(cards, key=lambda c: (round(chances[c], 3), -round(danger[c], 3), -cheap(c)[0], -cheap(c)[1]))

        cards = list(chances)
        others = [c for c in cards if c not in boss]
        if need <= 0:
            choice = duck(cards)
        elif need >= left:
            choice = max(cards, key=lambda c: (round(chances[c], 3), -cheap(c)[0], -cheap(c)[1]))
        elif need <= sure_later and others and min(chances[c] for c in others) < 1 - SURE:
            # The top trumps will take the tricks still needed whenever they are played: lose
            # this one with another card (keep the trumps; do not take a trick too many).
            choice = duck(others)
        else:
            winners = [c for c in cards if chances[c] >= SURE]
            if winners:
                if need == 1:
                    # The last trick needed: win it with the card most likely to win later,
                    # keep the cards that will lose.
                    choice = max(winners, key=lambda c: (round(danger[c], 3), cheap(c)))
                else:
                    # More are needed: win with the card least useful later, keep the winners.
                    choice = min(winners, key=lambda c: (round(danger[c], 3), cheap(c)))
            elif 2 * need > left:
                choice = max(cards, key=lambda c: (round(chances[c], 3), -cheap(c)[1]))
            else:
                # Keep the strength for later: throw the cheapest card.
                choice = min(cards, key=cheap)
        values = self.lookahead_plays(view, cards)
        if values is not None:
            if need <= 0 and chances[choice] == 0.0:
                # Needing no more tricks and holding a card that cannot take this one: never
                # trump in (or overtake) on the look-ahead's word. A trick taken now is a miss
                # for sure; the danger of the card kept is only a chance, and the heuristic
                # play-outs, blind to what the bids say, overrate it (issue 29).
                cards = [c for c in cards if chances[c] == 0.0]
                values = {c: values[c] for c in cards}
            best = max(values.values())
            if values[choice] < best - 1e-9:
                choice = max(cards, key=lambda c: (round(values[c], 9), c == choice))
        return next(p for p in plays if p.card == choice)

    def lookahead_plays(self, view: SeatView, cards: list[int]) -> dict[int, float] | None:
        """Each card's mean score when the rest of the hand is played out by the heuristic in
        every seat, in :attr:`worlds` deals of the unseen cards (dealt from what the view
        shows, whatever the player remembers); ``None`` without the core."""
        if not self.worlds or not fastsim.usable(view.rules):
            return None
        knowledge = Knowledge.from_view(view)
        worlds = self.lookahead_worlds(view, knowledge, self.worlds, READ_BIDS_POOL)
        if not worlds:
            return None
        cfg, pos = play_position(view, knowledge)
        row = cfg[5][knowledge.seat]
        depth = solve_depth(view.players) if self.solve is None else self.solve
        out = fastsim.core.evaluate(cfg, pos, worlds, tuple(cards), 1, 0.0, 1, depth, self.rng.getrandbits(63))
        values = {}
        for card, tricks in zip(cards, out, strict=True):
            valid = [t for t in tricks if t != 255]
            values[card] = sum(row[t] for t in valid) / len(valid) if valid else float("-inf")
        return values

    def lookahead_worlds(self, view: SeatView, knowledge: Knowledge, count: int, pool: int) -> list[World]:
        """``count`` deals of the unseen cards for the look-ahead: with :attr:`read_bids`, drawn
        from ``pool`` times as many by how well their hands explain the bids made, as a strong
        player would bid them (the learned bid model; else near each hand's estimated worth),
        each bidder judged careful or, by its record in the hands before, random."""
        if not self.read_bids:
            return knowledge.sample(count, self.rng)
        return weighed_worlds(view, knowledge, count, count * pool, random_prior(view), self.rng)

    def lead_chance(self, view: SeatView, knowledge: Knowledge, card: int) -> float:
        """The chance that ``card`` would take a trick if this seat led it (how dangerous it
        is to keep when no more tricks are wanted, how useful when more are)."""
        seat = knowledge.seat
        n = view.players
        others = [(seat + offset) % n for offset in range(1, n)]
        possible = [(knowledge.unseen & ~knowledge.excluded[p]) | knowledge.known[p] for p in others]
        held = [view.hand_counts[p] for p in others]
        led = CARD_SUITS[card]
        return 1.0 - chance_beaten(power(card, led, knowledge.trump), led, knowledge.trump, possible, held)

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
            led = CARD_SUITS[card]
            return 1.0 - chance_beaten(power(card, led, trump), led, trump, possible, held, extra)
        led_suit = view.trick_suit
        if led_suit is None:
            first_card = trick[0][1]
            if high_low and card < RED_JOKER and card_colour(card) == card_colour(first_card):
                led_suit = CARD_SUITS[card]
            else:
                return 0.0 if not high_low else 0.5
        best = max(_card_power(view, c, led_suit, trump, trick) for _s, c in trick)
        mine = power(card, led_suit, trump)
        # An equal card is an identical one (Bust's second pack), which beats the first played.
        if mine < best or (mine == best and not view.rules.deck_mask & SECOND_COPIES_MASK):
            return 0.0
        return 1.0 - chance_beaten(mine, led_suit, trump, possible, held, extra)


def _rank(card: int) -> int:
    return CARD_RANKS[card]


def _is_boss(card: int, trump: CardMask, unseen: CardMask) -> bool:
    """A trump that no unseen card beats: it takes the trick whenever it is played."""
    return bool(trump >> card & 1) and not any(rank_of(c) >= rank_of(card) for c in cards_of(trump & unseen))


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
    candidates = [c for c in range(CARD_COUNT) if knowledge.unseen >> c & 1]
    if view.hand_size != 1 or len(others) != n - 1 or not candidates:
        return view.hand_size / n
    leader = view.first_leader
    assert leader is not None
    return blind_win_chance(others, seat, candidates, knowledge.trump, leader, n)[0]


__all__ = ["SUIT_MASKS", "SURE", "BasicBot", "blind_chance", "solve_depth", "tricks_wanted"]
