"""The ``strong`` bot: worlds consistent with the view, searched by information-set MCTS in C.

Every decision starts from the seat's view only (:class:`~ohhell.views.SeatView`):

1. **Worlds.** :class:`~ohhell.bots.knowledge.Knowledge` reads what the view implies about
   the hidden cards (the turned card, the cards played, the suits a seat showed it lacks)
   and deals the unseen cards into worlds that never contradict it. Bids are soft
   evidence: :data:`OVERSAMPLE` times more worlds are sampled than searched, each weighed
   by how well every hand explains its seat's bid, and the searched worlds are drawn by
   weight.
2. **An opponent model.** Each other seat is either careful or random: its prior comes
   from the hands already finished (how often it made its bid), the evidence from its bid
   (does any likely hand explain it? A careful bid is what the learned bid model says a
   strong player bids with the hand, :mod:`ohhell.bots.bid_model`) and, tempered, from the
   cards it played in this hand (did it play what the open-hand heuristic would, in the
   sampled worlds?). A seat judged random plays (and bids) at random in the search with
   that chance.
3. **Card play: information-set MCTS** (single observer, Cowling, Powley & Whitehouse
   2012) in the C core (:mod:`ohhell.fastsim`): one tree of card sequences, each
   iteration in another world, UCB with availability counts (the exploration term in each
   seat's own points: a multiple of the spread of its results), every seat maximising its
   own score; rollouts finish the hand with the open-hand heuristic, every seat playing
   for the trick count its score prefers (its bid). The most visited card is played; its
   estimate is the chance of making the bid.
4. **Bidding: the same search with the bids at its root.** Each legal bid is valued by the
   rules' scoring (the change of the total, so the Boerenbridge bounce counts); after it
   the seats still to bid make the bid with the best expected score by the learned bid
   model (the dealer honouring the hook) and the hand is searched as above. The most
   visited bid is chosen: the best expected score given the tricks it can take, its seat,
   the bids so far and the hook. The suggestion gives the chance of making every bid and
   the distribution of tricks for the chosen one.
   One-card hands, where the deal alone decides the trick, are counted exactly instead
   (:mod:`ohhell.bots.one_card`), each earlier bid read as the one-card equilibrium's rule
   at its place after the bids before it (:mod:`ohhell.bots.equilibrium`), or a random bid.

Rules the core does not cover (NE-England Blackout's high-low jokers: also every joker
declaration), and a missing C core, fall back to the reference engine: worlds are rebuilt
as engine states and each action is scored by finishing the hand with the ``basic`` bot in
every seat, on fewer worlds; bids are then the ``basic`` bot's.

The earlier search — perfect-information Monte Carlo with heuristic rollouts and an exact
max^n endgame solver — is kept as ``search="pimc"`` / ``bid_search="rollouts"``; it was
measured weaker (docs/bots.md).

Budget: ``Budget(iterations=N)`` runs N simulations per card play and 2 N per bid
(default :data:`DEFAULT_SIMULATIONS`), reproducible from the seed; ``Budget(seconds=S)`` also stops
each search after S seconds (then results depend on the machine).
"""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from typing import TYPE_CHECKING, Final

from ohhell import fastsim
from ohhell.actions import Action, Bid, ChooseTrump, Deal, Declare, Play
from ohhell.bots import bid_model
from ohhell.bots.base import Bot, Budget, Suggestion, forward_actions
from ohhell.bots.basic import BasicBot
from ohhell.bots.bid_reading import MADE_IF_CAREFUL, MADE_IF_RANDOM, careful_bids, random_prior
from ohhell.bots.core_view import bid_setup, play_position, score_rows
from ohhell.bots.equilibrium import RANDOM_PRIOR, earlier_bid_weights, equilibrium_of, reads_bids
from ohhell.bots.knowledge import DEFAULT_RANDOM_PRIOR, Knowledge, World, bid_likelihoods, resample
from ohhell.bots.one_card import blind_win_chance, uniform_chances, win_chance
from ohhell.bots.trump_choice import choose_trump
from ohhell.cards import HIDDEN_CARD, card_name, cards_of, suit_letter
from ohhell.errors import IllegalActionError
from ohhell.game import Game, Phase, State
from ohhell.rules import HandPlan, Rules
from ohhell.scoring import add_to_total, hand_score
from ohhell.views import SeatView, seat_view

if TYPE_CHECKING:
    from ohhell.bots.exact_one_card import Equilibrium

DEFAULT_WORLDS: Final = 400
"""Worlds searched per decision by default."""
DEFAULT_SIMULATIONS: Final = 10000
"""ISMCTS simulations per card-play decision by default."""
OVERSAMPLE: Final = 2
"""Worlds sampled per world searched, for weighing by the bids."""
BATCH: Final = 32
"""Worlds per call of the core (the clock is checked between calls)."""
BID_SIMULATIONS_FACTOR: Final = 2.0
"""A bid is searched with this many times the simulations of a card play (it decides more)."""
JUDGE_WORLDS: Final = 64
"""Worlds in which the cards played are judged (careful or random) when they do not weigh the worlds."""
PLAY_EVIDENCE_POWER: Final = 0.5
"""The power of the likelihood ratio of the cards played (below 1: evidence tempered)."""
CAREFUL_MATCH: Final = 0.55
"""How often a careful player plays the card the open-hand heuristic would."""
FALLBACK_WORLDS: Final = 8
"""Worlds per decision on the reference-engine fallback."""
SPREAD_C: Final = 1.5
"""UCB's exploration constant in units of each seat's spread of results (``exploration="spread"``)."""
SPAN_C: Final = 0.7
"""UCB's exploration constant on rewards scaled by the span of every score row (``exploration="span"``,
the released bot's)."""
ONE_CARD_PRIOR: Final = RANDOM_PRIOR
"""The prior chance that an earlier one-card bidder bid at random rather than by the equilibrium
(updated by :func:`random_prior` from the bids each seat made and missed; measured in docs/bots.md)."""
ONE_CARD_FLOOR: Final = 0.0
"""The least random share of a one-card bid's likelihood under the equilibrium model (the
posterior from :func:`random_prior` already doubts a seat that misses its bids; measured in
docs/bots.md)."""
RELEASED: Final[dict[str, object]] = {"exploration": "span", "use_bid_model": False, "one_card_model": "worth"}
"""The options that make the strong bot search as it was released before issue 20 (the baseline
of ``benchmarks/strength.py --field self``)."""


def solve_depth(players: int) -> int:
    """Tricks left from which the endgame is solved exactly instead of rolled out (chosen by
    measurement: the solver's cost grows about as (cards per seat)!^players)."""
    return {3: 5, 4: 4, 5: 3}.get(players, 2)


class StrongBot(Bot):
    """Information-set search over worlds consistent with the view (see the module).

    The options exist for measurement; the defaults are the measured best:
    ``simulations`` per card play (``Budget.iterations`` sets it too) over ``worlds``;
    ``search`` ``"ismcts"`` or ``"pimc"`` (with ``solve``: tricks left from which the PIMC
    endgame is solved exactly), ``bid_search`` ``"ismcts"`` or ``"rollouts"``; ``uct_c``
    the exploration constant; ``model_opponents`` judges seats careful or random (with the
    prior ``random_prior``; ``epsilon`` is a floor of every other seat's random share);
    ``policy_opponents`` makes the other seats play the heuristic's card in the tree
    instead of searching their moves; ``play_inference`` weighs worlds by the cards played;
    ``bid_simulations`` (default: as many as a card play); ``self_noise`` makes the seat's
    own rollouts random; ``exploration`` ``"spread"`` (UCB's exploration in each seat's own
    points) or ``"span"`` (rewards scaled by the span of every score row, as released);
    ``use_bid_model`` the learned bid model (:mod:`ohhell.bots.bid_model`) for the other
    seats' bids and what their bids say. :data:`RELEASED` gives the bot as released before
    issue 20.
    """

    name = "strong"

    def __init__(self, seed: int | None = None, budget: Budget | None = None, worlds: int | None = None,
                 solve: int | None = None, epsilon: float = 0.0, search: str = "ismcts",
                 simulations: int | None = None, uct_c: float | None = None, model_opponents: bool = True,
                 random_prior: float = DEFAULT_RANDOM_PRIOR, bid_search: str = "ismcts",
                 self_noise: float = 0.0, policy_opponents: bool = False, play_inference: bool = False,
                 bid_simulations: int | None = None, exploration: str = "spread", use_bid_model: bool = True,
                 one_card_model: str = "equilibrium", one_card_prior: float = ONE_CARD_PRIOR,
                 one_card_floor: float = ONE_CARD_FLOOR) -> None:
        super().__init__(seed=seed, budget=budget)
        self.worlds = worlds or DEFAULT_WORLDS
        self.search = search
        self.simulations = simulations or self.budget.iterations or DEFAULT_SIMULATIONS
        if exploration not in ("spread", "span"):
            raise ValueError(f"exploration is 'spread' or 'span', not {exploration!r}")
        self.exploration = exploration
        self.use_bid_model = use_bid_model
        if one_card_model not in ("equilibrium", "worth"):
            raise ValueError(f"one_card_model is 'equilibrium' or 'worth', not {one_card_model!r}")
        self.one_card_model = one_card_model
        self.one_card_prior = one_card_prior
        self.one_card_floor = one_card_floor
        self._model = bid_model.load() if use_bid_model and bid_model.available() else None
        self.uct_c = uct_c if uct_c is not None else SPREAD_C if exploration == "spread" else SPAN_C
        self.model_opponents = model_opponents
        self.random_prior = random_prior
        self.bid_search = bid_search
        self.self_noise = self_noise
        self.policy_opponents = policy_opponents
        self.play_inference = play_inference
        self.bid_simulations = bid_simulations or int(self.simulations * BID_SIMULATIONS_FACTOR)
        self.randomness: list[float] = []
        """Each seat's chance of playing at random, judged at the last decision."""
        self.solve = solve
        self.epsilon = epsilon
        self._basic = BasicBot(seed=seed)
        self._my_bids: dict[tuple[int, int], int] = {}

    # -- the interface ------------------------------------------------------------------

    def choose(self, view: SeatView) -> Action:
        return self.suggest(view).action

    def change_bid(self, view: SeatView) -> Bid | None:
        """Change a bid only when it is not this bot's own considered bid (a human's bid in a
        hint, say) and another bid is clearly better."""
        if view.seat is None or not view.can_change_bid:
            return None
        current = view.bids[view.seat]
        if current is None or self._my_bids.get((view.hand_index, view.seat)) == current:
            return None
        if not fastsim.usable(view.rules) or view.blind:
            return None
        suggestion = self._bid_suggestion(view, [a for a in view.legal_actions if isinstance(a, Bid)]
                                          + [Bid(view.seat, current)])
        best = suggestion.action
        assert isinstance(best, Bid)
        values = suggestion.details.get("expected_score", {})
        if best.bid != current and values.get(str(best.bid), 0.0) > values.get(str(current), 0.0) + 0.5:
            return best
        return None

    def suggest(self, view: SeatView) -> Suggestion:
        actions = forward_actions(view)
        if not actions:
            raise ValueError(f"seat {view.seat} has nothing to do now")
        if len(actions) == 1:
            if isinstance(actions[0], Bid):
                self._my_bids[(view.hand_index, actions[0].seat)] = actions[0].bid
            return Suggestion(actions[0], {_label(actions[0]): 1.0}, "only legal action")
        if view.phase == Phase.BIDDING:
            suggestion = self._bid_suggestion(view, actions)
            assert view.seat is not None and isinstance(suggestion.action, Bid)
            self._my_bids[(view.hand_index, view.seat)] = suggestion.action.bid
            return suggestion
        if view.phase == Phase.PLAYING:
            return self._play_suggestion(view, actions)
        if view.phase == Phase.DECLARING:
            return self._fallback_suggestion(view, actions)
        if view.phase == Phase.CHOOSING_TRUMP:
            choice, values = choose_trump(view)
            return Suggestion(choice, {_label(ChooseTrump(choice.seat, suit)): value for suit, value in values.items()},
                              "expected score")
        return Suggestion(actions[0])

    # -- worlds -------------------------------------------------------------------------

    def _deadline(self) -> float | None:
        return time.perf_counter() + self.budget.seconds if self.budget.seconds is not None else None

    def _worlds(self, view: SeatView, knowledge: Knowledge, count: int) -> list[World]:
        """``count`` worlds drawn by the weight the bids made so far give them (and, in
        :attr:`randomness`, each seat's chance of playing at random)."""
        rng = self.rng
        prior = random_prior(view, self.random_prior)
        has_evidence = any(b is not None for seat, b in enumerate(view.bids) if seat != view.seat)
        if not has_evidence:
            self.randomness = [self.self_noise if p == view.seat else prior[p] if self.model_opponents else 0.0
                               for p in range(view.players)]
            return knowledge.sample(count, rng)
        pool = knowledge.sample(count * OVERSAMPLE, rng)
        hooked = view.rules.hook and view.rules.bidding == "in-turn"
        careful = self._careful_bids(view, knowledge, pool)
        weights, self.randomness = knowledge.bid_evidence(pool, view.bids, view.dealer, hooked, prior, careful)
        if view.phase == Phase.PLAYING and fastsim.usable(view.rules) and (self.play_inference
                                                                              or self.model_opponents):
            if self.play_inference:
                weights = self._weigh_by_play(view, knowledge, pool, weights)
            else:
                self._weigh_by_play(view, knowledge, pool[:JUDGE_WORLDS], weights[:JUDGE_WORLDS])
        chosen = resample(pool, weights, count, rng)
        if not self.model_opponents:
            self.randomness = [0.0] * view.players
        if view.seat is not None:
            self.randomness[view.seat] = self.self_noise
        return chosen

    def _random_shares(self, seat: int) -> tuple[float, ...]:
        """Each seat's chance of playing a random card in the search: as judged, never below
        :attr:`epsilon` for the others (``search`` has no separate floor, ``ismcts`` has)."""
        if self.exploration != "spread":
            return tuple(self.randomness)
        return tuple(r if p == seat else max(r, self.epsilon) for p, r in enumerate(self.randomness))

    def _model_table(self, view: SeatView) -> bid_model.Table | None:
        """The bid model's view of the hand, when the model is in use and knows these rules."""
        if self._model is None or not fastsim.AVAILABLE or view.blind or not bid_model.covers(view.rules,
                                                                                               view.hand_size):
            return None
        return bid_model.Table.of(view.rules, view.trump, view.turn_up, view.hand_size, view.bid_order)

    def _careful_bids(self, view: SeatView, knowledge: Knowledge, pool: Sequence[World],
                      ) -> dict[int, list[float]] | None:
        """For each other seat that bid: how likely its bid is, in each world, from a strong
        player holding that world's hand (the learned model's policy; ``None`` without it)."""
        if self._model is None:
            return None
        return careful_bids(view, knowledge, pool, self._model)

    def _bid_values(self, view: SeatView, worlds: Sequence[World], rows_by_bid: Sequence[Sequence[float]],
                    ) -> bytes | None:
        """How much every seat likes every bid in every world (the learned model), for the
        seats still to bid in the bidding search; ``None`` without the model."""
        table = self._model_table(view)
        if table is None or self._model is None:
            return None
        n = view.players
        hands = [world[p] for world in worlds for p in range(n)]
        values, _policy = bid_model.batch(self._model, table, hands, [p for _w in worlds for p in range(n)],
                                          view.bids, rows_by_bid)
        return values

    def _weigh_by_play(self, view: SeatView, knowledge: Knowledge, pool: Sequence[World],
                       weights: list[float]) -> list[float]:
        """Judge each seat careful or random by its cards so far (updating :attr:`randomness`),
        and weigh the worlds by how well they explain those cards under that judgement."""
        n = view.players
        likelihoods = play_evidence(view, knowledge, pool)
        out = list(weights)
        total = sum(weights) or 1.0
        for player in range(n):
            if player == view.seat:
                continue
            careful = [row[player] for row in likelihoods]
            random_play = [row[n + player] for row in likelihoods]
            top = max(max(careful), max(random_play))
            if top == 0.0 and min(careful) == 0.0 and min(random_play) == 0.0:
                continue  # no evidence about this seat
            like_careful = [math.exp(value - top) for value in careful]
            like_random = [math.exp(value - top) for value in random_play]
            mean_careful = sum(w * c for w, c in zip(weights, like_careful, strict=True)) / total
            mean_random = sum(w * r for w, r in zip(weights, like_random, strict=True)) / total
            prior = self.randomness[player]
            if self.model_opponents and mean_careful + mean_random > 0:
                # Tempered: a careful player is not the heuristic, so each card says less.
                ratio = (mean_random / max(1e-300, mean_careful)) ** PLAY_EVIDENCE_POWER
                odds = prior / max(1e-9, 1 - prior) * ratio
                self.randomness[player] = min(0.99, odds / (1 + odds))
            share = self.randomness[player] if self.model_opponents else 0.0
            for index in range(len(out)):
                out[index] *= share * like_random[index] + (1 - share) * like_careful[index]
        return out

    # -- play ---------------------------------------------------------------------------

    def _play_suggestion(self, view: SeatView, actions: list[Action]) -> Suggestion:
        plays = [a for a in actions if isinstance(a, Play)]
        if len(plays) <= 1 or any(p.card == HIDDEN_CARD for p in plays):
            return Suggestion(plays[0] if plays else actions[0])
        if not fastsim.usable(view.rules):
            return self._fallback_suggestion(view, actions)
        seat = view.seat
        assert seat is not None
        knowledge = Knowledge.from_view(view)
        cfg, pos = play_position(view, knowledge)
        rows = cfg[5]
        candidates = [p.card for p in plays]
        if self.search == "ismcts":
            return self._ismcts(view, knowledge, cfg, pos, plays)
        depth = self.solve if self.solve is not None else solve_depth(view.players)
        deadline = self._deadline()
        worlds = self._worlds(view, knowledge, self.worlds)
        cfg = (*cfg[:6], tuple(self.randomness))  # type: ignore[assignment]
        tricks: list[bytearray] = [bytearray() for _ in candidates]
        done = 0
        for start in range(0, len(worlds), BATCH):
            batch = worlds[start:start + BATCH]
            out = fastsim.core.evaluate(cfg, pos, batch, tuple(candidates), 1, self.epsilon, 1, depth,
                                        self.rng.getrandbits(63))
            for index, chunk in enumerate(out):
                tricks[index].extend(chunk)
            done += len(batch)
            if deadline is not None and time.perf_counter() > deadline:
                break
        row = rows[seat]
        bid = view.bids[seat]
        values: dict[int, float] = {}
        made: dict[int, float] = {}
        for card, counts in zip(candidates, tricks, strict=True):
            valid = [t for t in counts if t != 255]
            if not valid:
                values[card] = float("-inf")
                made[card] = 0.0
                continue
            values[card] = sum(row[t] for t in valid) / len(valid)
            made[card] = sum(1 for t in valid if t == bid) / len(valid) if bid is not None else 0.0
        best = max(candidates, key=lambda c: (round(values[c], 6), made[c], -c))
        action = next(p for p in plays if p.card == best)
        kind = "probability of making the bid" if bid is not None else "expected score"
        estimates = {f"play {card_name(c)}": (made[c] if bid is not None else values[c]) for c in candidates}
        return Suggestion(action, estimates, kind, {
            "expected_score": {card_name(c): values[c] for c in candidates},
            "worlds": done,
        })

    def _ismcts(self, view: SeatView, knowledge: Knowledge, cfg: fastsim.Cfg, pos: fastsim.Pos,
                plays: list[Play]) -> Suggestion:
        seat = view.seat
        assert seat is not None
        worlds = self._worlds(view, knowledge, max(self.worlds, 1))
        cfg = (*cfg[:6], self._random_shares(seat), int(self.policy_opponents))  # type: ignore[assignment]
        seconds = self.budget.seconds if self.budget.seconds is not None else 0.0
        if self.exploration == "spread":
            done, stats = fastsim.core.search(cfg, pos, worlds, self.simulations, self.uct_c, seconds,
                                              self.rng.getrandbits(63))
        else:
            done, stats = fastsim.core.ismcts(cfg, pos, worlds, self.simulations, self.uct_c, self.epsilon,
                                              seconds, self.rng.getrandbits(63))
        by_card = {card: (visits, value, made) for card, visits, value, made, _hist in stats}
        legal = [p.card for p in plays]
        best = max(legal, key=lambda c: (by_card.get(c, (0, 0.0, 0.0))[0], by_card.get(c, (0, 0.0, 0.0))[1], -c))
        bid = view.bids[seat]
        action = next(p for p in plays if p.card == best)
        if bid is not None:
            estimates = {f"play {card_name(c)}": by_card.get(c, (0, 0.0, 0.0))[2] for c in legal}
            kind = "probability of making the bid"
        else:
            estimates = {f"play {card_name(c)}": by_card.get(c, (0, 0.0, 0.0))[1] for c in legal}
            kind = "expected score"
        return Suggestion(action, estimates, kind, {
            "expected_score": {card_name(c): by_card.get(c, (0, 0.0, 0.0))[1] for c in legal},
            "visits": {card_name(c): by_card.get(c, (0, 0.0, 0.0))[0] for c in legal},
            "simulations": done, "worlds": len(worlds),
        })

    # -- bidding ------------------------------------------------------------------------

    def _bid_suggestion(self, view: SeatView, actions: Sequence[Action]) -> Suggestion:
        bids = sorted({a.bid for a in actions if isinstance(a, Bid)})
        seat = view.seat
        assert seat is not None
        if view.hand_size == 1:
            exact = self._one_card_bid(view, actions, bids)
            if exact is not None:
                return exact
        if not fastsim.usable(view.rules) or view.blind:
            action = self._basic.choose(view)
            return Suggestion(action, {_label(action): 1.0}, "heuristic bid")
        knowledge = Knowledge.from_view(view)
        size = view.hand_size
        setup = bid_setup(view, knowledge, tuple(bids))
        cfg = setup.cfg
        my_rows, rows_by_bid, known = setup.my_rows, setup.rows_by_bid, setup.known
        leader, hook, unseen = setup.leader, setup.hook, setup.unseen
        assert view.dealer is not None
        deadline = self._deadline()
        worlds = self._worlds(view, knowledge, self.worlds)
        cfg = (*cfg[:6], self._random_shares(seat), int(self.policy_opponents))  # type: ignore[assignment]
        if self.bid_search == "ismcts":
            seconds = self.budget.seconds if self.budget.seconds is not None else 0.0
            if self.exploration == "spread":
                opponent_values = self._bid_values(view, worlds, rows_by_bid)
                done, stats = fastsim.core.search(cfg, None, worlds, self.bid_simulations, self.uct_c, seconds,
                                                  self.rng.getrandbits(63), setup.bidding(opponent_values))
            else:
                done, stats = fastsim.core.ismcts_bid(cfg, worlds, seat, tuple(bids), my_rows, rows_by_bid,
                                                      tuple(view.bid_order), tuple(known), view.dealer, hook,
                                                      leader, unseen, self.bid_simulations, self.uct_c,
                                                      self.epsilon, seconds, self.rng.getrandbits(63))
            by_bid = {bid: (visits, value, made, hist) for bid, visits, value, made, hist in stats}
            best = max(bids, key=lambda b: (by_bid[b][0], by_bid[b][1], -b))
            hist = by_bid[best][3]
            total = max(1, sum(hist))
            action = next(a for a in actions if isinstance(a, Bid) and a.bid == best)
            return Suggestion(action, {f"bid {b}": by_bid[b][2] for b in bids}, "probability of making the bid", {
                "expected_score": {str(b): by_bid[b][1] for b in bids},
                "visits": {str(b): by_bid[b][0] for b in bids},
                "tricks_distribution": {str(t): hist[t] / total for t in range(size + 1)},
                "tricks_by_bid": {str(b): list(by_bid[b][3][:size + 1]) for b in bids},
                "simulations": done, "worlds": len(worlds),
            })
        tricks: list[bytearray] = [bytearray() for _ in bids]
        done = 0
        for start in range(0, len(worlds), BATCH):
            batch = worlds[start:start + BATCH]
            out = fastsim.core.bid_rollouts(cfg, batch, seat, tuple(bids), my_rows, rows_by_bid,
                                            tuple(view.bid_order), tuple(known), view.dealer, hook, leader,
                                            unseen, 1, self.epsilon, self.rng.getrandbits(63))
            for index, chunk in enumerate(out):
                tricks[index].extend(chunk)
            done += len(batch)
            if deadline is not None and time.perf_counter() > deadline:
                break
        values = {}
        made = {}
        for bid, row, counts in zip(bids, my_rows, tricks, strict=True):
            values[bid] = sum(row[t] for t in counts) / max(1, len(counts))
            made[bid] = sum(1 for t in counts if t == bid) / max(1, len(counts))
        best = max(bids, key=lambda b: (round(values[b], 6), made[b], -b))
        chosen = tricks[bids.index(best)]
        distribution = {str(t): chosen.count(t) / max(1, len(chosen)) for t in range(size + 1)}
        action = next(a for a in actions if isinstance(a, Bid) and a.bid == best)
        return Suggestion(action, {f"bid {b}": made[b] for b in bids}, "probability of making the bid", {
            "expected_score": {str(b): values[b] for b in bids},
            "tricks_distribution": distribution,
            "worlds": done,
        })

    def _one_card_bid(self, view: SeatView, actions: Sequence[Action], bids: list[int]) -> Suggestion | None:
        """A one-card hand: the chance of taking the trick counted exactly
        (:mod:`ohhell.bots.one_card`), and the bid with the best expected score. ``None``
        when it cannot be counted exactly (high-low jokers)."""
        rules = view.rules
        seat = view.seat
        n = view.players
        assert seat is not None and view.dealer is not None
        if rules.high_low_jokers:
            return None
        knowledge = Knowledge.from_view(view)
        leader = view.first_leader
        assert leader is not None
        hooked = rules.hook and rules.bidding == "in-turn"
        if view.blind:
            others = {p: cards[0] for p, cards in view.visible_hands.items() if cards and p != seat}
            if len(others) != n - 1:
                return None
            chance, self.randomness = blind_win_chance(
                others, seat, cards_of(knowledge.unseen), knowledge.trump, leader, n, view.bids,
                random_prior(view, self.random_prior), view.dealer if hooked else None)
            method = "exact over the cards this seat may hold" + (
                ", weighed by the bids of those who saw it" if any(b is not None for b in view.bids) else "")
        else:
            if any(knowledge.known[p] or knowledge.counts[p] != 1 for p in range(n) if p != seat):
                return None
            mine = next(iter(view.hand))
            weights: list[dict[int, float] | None] = [None] * n
            game = self._one_card_equilibrium(view)
            prior = random_prior(view, self.random_prior if game is None else self.one_card_prior)
            self.randomness = [0.0 if p == seat else prior[p] for p in range(n)]
            cards = cards_of(knowledge.unseen)
            if game is not None:
                # Good bidders bid their equilibrium rule, which read the bids before their own.
                weights, self.randomness = earlier_bid_weights(view, cards, game, prior, self.one_card_floor)
            for player, bid in enumerate(view.bids):
                if game is not None or player == seat or bid is None:
                    continue
                # A careful bidder reckoned its card's worth as this seat would, from its
                # place in the trick (without seeing this seat's card).
                position = (player - leader) % n
                worth = uniform_chances(cards, knowledge.trump, knowledge.unseen | 1 << mine, position, n)
                likely, self.randomness[player] = bid_likelihoods(bid, worth, 1, prior[player],
                                                                  hooked and player == view.dealer)
                weights[position] = dict(zip(cards, likely, strict=True))
            chance = win_chance(mine, knowledge.trump, knowledge.unseen, (seat - leader) % n, n, weights)
            method = "exact over every deal of the unseen cards" + (", weighed by the bids" if any(weights) else "")
        values: dict[int, float] = {}
        made: dict[int, float] = {}
        for bid in bids:
            score = _row(rules, bid, view.totals[seat], 1)
            values[bid] = score[0] * (1 - chance) + score[1] * chance
            made[bid] = chance if bid == 1 else 1 - chance if bid == 0 else 0.0
        best = max(bids, key=lambda b: (round(values[b], 9), made[b], -b))
        action = next(a for a in actions if isinstance(a, Bid) and a.bid == best)
        return Suggestion(action, {f"bid {b}": made[b] for b in bids}, "probability of making the bid", {
            "expected_score": {str(b): values[b] for b in bids},
            "tricks_distribution": {"0": 1 - chance, "1": chance},
            "method": method, "exact": True,
        })

    def _one_card_equilibrium(self, view: SeatView) -> Equilibrium | None:
        """The equilibrium that models the earlier bidders of a one-card hand bid in turn
        (``None`` with ``one_card_model="worth"``, or when every bid was made at once)."""
        if self.one_card_model != "equilibrium" or not reads_bids(view):
            return None
        return equilibrium_of(view)

    # -- the reference-engine fallback --------------------------------------------------

    def _fallback_suggestion(self, view: SeatView, actions: list[Action]) -> Suggestion:
        """Rollouts on engine states (rules the core does not cover; declaring a joker)."""
        seat = view.seat
        assert seat is not None
        knowledge = Knowledge.from_view(view)
        count = min(self.worlds, FALLBACK_WORLDS)
        worlds = self._worlds(view, knowledge, count)
        rules = view.rules
        candidates = [a for a in actions if isinstance(a, (Play, Declare))] or actions
        totals: dict[Action, list[float]] = {a: [] for a in candidates}
        made: dict[Action, list[float]] = {a: [] for a in candidates}
        deadline = self._deadline()
        bid = view.bids[seat]
        for world in worlds:
            try:
                base = world_state(view, world)
            except IllegalActionError:
                continue
            for action in candidates:
                state = base.clone()
                try:
                    state.apply(action)
                except IllegalActionError:
                    continue
                tricks = _finish_with(state, self._basic, view.hand_index)
                totals[action].append(add_to_total(rules, view.totals[seat],
                                                   hand_score(rules, bid, tricks[seat], view.hand_size))
                                      - view.totals[seat])
                made[action].append(1.0 if bid is not None and tricks[seat] == bid else 0.0)
            if deadline is not None and time.perf_counter() > deadline:
                break
        scored = [a for a in candidates if totals[a]]
        if not scored:
            action = self._basic.choose(view)
            return Suggestion(action, {_label(action): 1.0}, "heuristic")
        mean = {a: sum(totals[a]) / len(totals[a]) for a in scored}
        chance = {a: sum(made[a]) / len(made[a]) for a in scored}
        best = max(scored, key=lambda a: (round(mean[a], 6), chance[a]))
        return Suggestion(best, {_label(a): chance[a] for a in scored}, "probability of making the bid",
                          {"expected_score": {_label(a): mean[a] for a in scored}, "worlds": len(worlds)})


def play_evidence(view: SeatView, knowledge: Knowledge, worlds: Sequence[World]) -> list[tuple[float, ...]]:
    """How well each world explains the cards each seat chose so far in this hand.

    For every world: the log-likelihood of each seat's cards if it plays carefully, then if
    it plays at random (``2 * players`` numbers). In each world the hands are rebuilt as they
    were before every card a seat chose (when it had more than one legal card); a careful
    seat plays the open-hand heuristic's card with chance :data:`CAREFUL_MATCH` (another
    legal card otherwise), a random one any legal card alike."""
    n = view.players
    if not worlds or view.seat is None:
        return [(0.0,) * (2 * n) for _ in worlds]
    tricks = [(trick.leader, trick.cards, trick.winner) for trick in view.completed_tricks]
    if view.current_trick:
        tricks.append((view.current_trick[0][0], view.current_trick, -1))
    plays = [pair for _leader, cards, _winner in tricks for pair in cards]
    # suffix[i][p]: the cards seat p played from the i-th card of the hand on.
    suffix = [[0] * n for _ in range(len(plays) + 1)]
    for index in range(len(plays) - 1, -1, -1):
        suffix[index] = suffix[index + 1][:]
        player, card = plays[index]
        suffix[index][player] |= 1 << card
    cfg: fastsim.Cfg = (n, view.hand_size, knowledge.trump, int(view.rules.must_trump),
                        tuple(-1 if b is None else b for b in view.bids), score_rows(view))
    steps = []
    won = [0] * n
    gone = 0
    index = 0
    for done, (leader, cards, winner) in enumerate(tricks):
        before: list[int] = []
        for player, card in cards:
            if player != view.seat and not knowledge.known[player]:
                pos: fastsim.Pos = (tuple(won), leader, tuple(before), view.hand_size - done, gone)
                steps.append((player, card, tuple(suffix[index]), pos))
            before.append(card)
            index += 1
        if winner >= 0:
            won[winner] += 1
            for _player, card in cards:
                gone |= 1 << card
    if not steps:
        return [(0.0,) * (2 * n) for _ in worlds]
    return fastsim.core.play_likelihood(cfg, worlds, steps, CAREFUL_MATCH)


def _row(rules: Rules, bid: int | None, total: int, size: int) -> tuple[float, ...]:
    return fastsim.score_row(rules, bid, total, size)


def _label(action: Action) -> str:
    if isinstance(action, Bid):
        return f"bid {action.bid}"
    if isinstance(action, Play):
        return f"play {card_name(action.card)}" if action.card != HIDDEN_CARD else "play ??"
    if isinstance(action, Declare):
        return "declare high" if action.high else "declare low"
    if isinstance(action, ChooseTrump):
        return f"trump {suit_letter(action.suit)}"
    return str(action)


def single_hand_rules(view: SeatView) -> Rules:
    """Rules of a one-hand game that plays like the view's hand (for rebuilding worlds as
    engine states)."""
    rules = view.rules
    if view.trump is None:
        trump = "none"
    elif view.turn_up is not None:
        plan = rules.hand_plan(view.hand_index)
        trump = plan.trump if plan is not None and plan.trump.startswith("turn-up") else "turn-up"
    else:
        trump = "SHDC"[view.trump] if view.trump < 4 else "turn-up"
    return rules.replace(schedule="explicit", hands=[HandPlan(view.hand_size, trump)], target_score=None,
                         no_bid_from=None, hand_count=None, no_trump_last_hand=False,
                         no_trump_largest_hands=False, one_card_hand_per_player=False, devils_bridge=False,
                         max_size="classic", turning_point="once")


def world_state(view: SeatView, world: World) -> State:
    """An engine state of the view's hand in which every seat holds its cards of ``world``
    (plus what it has played), with the bids and plays so far. Seats that did not bid are
    given the heuristic's bid (their score counts tricks only). Raises
    :class:`~ohhell.errors.IllegalActionError` when the world does not fit."""
    rules = single_hand_rules(view)
    n = view.players
    assert view.dealer is not None
    state = Game(rules).new_initial_state(first_dealer=view.dealer)
    played = [0] * n
    for player, card in view.played_cards():
        played[player] |= 1 << card
    hands = tuple(tuple(cards_of(world[p] | played[p])) for p in range(n))
    state.apply(Deal(hands, view.turn_up))
    order = state.bid_order
    for player in order:
        bid = view.bids[player]
        if bid is None:
            bid = min(view.hand_size, max(0, round(view.hand_size / n)))
            forbidden = state.forbidden_bid()
            if forbidden == bid:
                bid = bid + 1 if bid < view.hand_size else bid - 1
        state.apply(Bid(player, bid))
    for player, card in view.played_cards():
        state.apply(Play(player, card))
        if state.phase == Phase.DECLARING:
            assert view.joker_high is not None or state.turn == view.seat
            if view.joker_high is not None:
                state.apply(Declare(player, view.joker_high))
    return state


def _finish_with(state: State, bot: BasicBot, hand_index: int) -> list[int]:
    """Finish the hand with ``bot`` playing every seat (open hands are not used: each seat
    plays from its own view of the world); return the tricks of each seat."""
    n = state.num_players
    while not state.is_terminal():
        seat = state.turn if state.turn is not None else state.actors()[0]
        view = seat_view(state, seat)
        state.apply(bot.choose(view))
    result = state.finished_hands[-1]
    return list(result.tricks[:n])


__all__ = ["DEFAULT_WORLDS", "MADE_IF_CAREFUL", "MADE_IF_RANDOM", "RELEASED", "StrongBot", "play_evidence",
           "random_prior", "single_hand_rules", "solve_depth", "world_state"]
