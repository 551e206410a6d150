#!/usr/bin/env python3
"""How strong the strong bot is, in fields where skill matters (issue 20).

Every field is played on duplicate deals: each deal twice, with the same cards and the same
seeded opponents, once with the tested bot in the tested seat and once with the bot it is
compared with; the tested seat rotates with the deal. Reported: the difference of the mean
score per hand with its 95% confidence interval (the deal is the unit), each side's share of
bids made and the tested bot's decision time.

Fields (``--field``, repeatable; default ``ismcts``):

* ``ismcts`` — OpenSpiel's own ``oh_hell`` (one 10-card hand, 4 players, the hook, score =
  tricks + 10 for an exact bid): the strong bot in place of OpenSpiel's C++ ``ISMCTSBot``
  (1000 simulations, random rollouts, UCT c = 2) among three ISMCTS opponents. Last line
  ``strong_minus_ismcts_field=D ci95=[lo,hi]``.
* ``random`` — the same game with three uniformly random opponents (the first, withdrawn
  target): ``strong_minus_ismcts=D ci95=[lo,hi]``.
* ``self`` — ohhell's engine, 4 players, every scoring of ``--scoring`` (default ``exact``,
  ``trick-plus-bonus`` and ``triangular-penalty``): the strong bot in place of the released
  strong bot among three released strong bots. Each deal is one hand whose size follows the
  classic schedule with one 1-card hand per player (10 … 1, 1, 1, 1 … 10: the outside AI's
  rules), dealer and tested seat rotating. ``strong_minus_released_SCORING=D ci95=[lo,hi]``.
  The released bot is ``strong`` with :data:`ohhell.bots.strong.RELEASED` (the bot as it
  stood before issue 20), or any program through the bot protocol (``--baseline
  "cmd:/old/checkout/.venv/bin/ohhell bot-stdio --bot strong"``).

* ``one-card`` — good bidders (issue 29): one-card hands of 3 to 7 players (``--players``) under
  every scoring of ``--scoring``, the hook on, a card turned for trump; the other seats are by
  turns the one-card equilibrium bidder (:class:`ohhell.bots.equilibrium_bot.EquilibriumBot`: every
  place's best response to the earlier places' rules) and the strong bot (three of each at seven).
  The tested seat holds the strong bot, then the equilibrium bidder — the best response to a
  field that bids the equilibrium, and nearly so to this one, whose strong seats read bids the
  same way. ``strong_minus_equilibrium_Np_SCORING=D ci95=[lo,hi]``; ``--bot-option
  one_card_model=worth`` gives the strong bot's earlier one-card model (bids near each card's worth).

* ``levels`` — the arena's rating of every level (``random``, ``beginner``, ``casual``,
  ``basic``, ``strong``): duplicate classic games of 4 players at two tables (beginner, casual,
  basic, strong; random, beginner, casual, basic), every pair at a table compared by final
  totals, fitted to Bradley–Terry ratings on the Elo scale with ``basic`` at 1500:
  ``level_ratings random=… beginner=… …``.

When several fields are measured the ``ismcts`` field is printed last.

``--sees-everything`` measures each field's ceiling: the strong bot is shown every hand (and
told whether the opponents play at random), so the difference says how much any bot with
this search could gain when nothing is hidden. ``--sees-phase bidding|play`` shows the hands
in one phase only; ``--sees-phase none`` shows nothing and only tells whether the opponents
are random.

    python benchmarks/strength.py --field ismcts --deals 1000 --jobs 2 --seed 7
    python benchmarks/strength.py --field self --scoring triangular-penalty --deals 1000 --jobs 2 --seed 1
    python benchmarks/strength.py --field one-card --players 3,4,5,6,7 --deals 400 --jobs 2 --seed 1

The ``ismcts`` and ``random`` fields need the optional benchmark dependency ``open-spiel``
(``pip install -e .[bench]``).
"""

from __future__ import annotations

import argparse
import math
import os
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import Any

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from ohhell.bots import Bot, Budget, make_bot
from ohhell.bots.base import forward_actions
from ohhell.bots.knowledge import Knowledge, World
from ohhell.bots.strong import RELEASED, StrongBot
from ohhell.game import Game, Phase, State
from ohhell.rules import HandPlan, Rules, preset
from ohhell.views import SeatView, seat_view

PLAYERS = 4
TRICKS = 10
SCORINGS = ("exact", "trick-plus-bonus", "triangular-penalty")
Z95 = 1.959963984540054


class SeesEverything(StrongBot):
    """The strong bot shown every hand (``true_hands``) and told whether the other seats play
    at random: a ceiling for measurement, never a player. ``phase`` limits the sight to the
    bidding or to the card play (the other phase is played honestly), or to nothing but
    whether the opponents are random (``"none"``)."""

    true_hands: tuple[int, ...] = ()
    opponents_random = False
    phase = "all"

    def _worlds(self, view: SeatView, knowledge: Knowledge, count: int) -> list[World]:
        if self.phase == "none":  # no cards shown: only told whether the opponents are random
            worlds = super()._worlds(view, knowledge, count)
            self.randomness = [0.0 if p == view.seat else float(self.opponents_random) for p in range(view.players)]
            return worlds
        if self.phase != "all" and view.phase != (Phase.BIDDING if self.phase == "bidding" else Phase.PLAYING):
            return super()._worlds(view, knowledge, count)
        self.randomness = [0.0 if p == view.seat else float(self.opponents_random) for p in range(view.players)]
        return [tuple(self.true_hands)] * count


def _options(pairs: Sequence[str]) -> dict[str, Any]:
    """``--bot-option name=value`` pairs as keyword arguments (numbers and booleans parsed)."""
    out: dict[str, Any] = {}
    for pair in pairs:
        name, _, text = pair.partition("=")
        value: Any = text
        if text in ("true", "false"):
            value = text == "true"
        else:
            for kind in (int, float):
                try:
                    value = kind(text)
                    break
                except ValueError:
                    continue
        out[name.strip().replace("-", "_")] = value
    return out


def tested_bot(args: argparse.Namespace, seed: int, opponents_random: bool) -> Bot:
    """The bot under test: the strong bot (with ``--bot-option``s), or its all-seeing ceiling."""
    budget = Budget(iterations=args.iterations, seconds=args.max_ms / 1000 if args.max_ms else None) \
        if args.iterations or args.max_ms else None
    options = _options(args.bot_option)
    if args.sees_everything:
        bot = SeesEverything(seed=seed, budget=budget, **options)
        bot.opponents_random = opponents_random
        bot.phase = args.sees_phase
        return bot
    return make_bot("strong", seed=seed, budget=budget, **options)


def released_bot(spec: str, seed: int, args: argparse.Namespace) -> Bot:
    """The bot as released (``released``), another level, or a program through the protocol."""
    budget = Budget(iterations=args.iterations, seconds=args.max_ms / 1000 if args.max_ms else None) \
        if args.iterations or args.max_ms else None
    if spec == "released":
        return make_bot("strong", seed=seed, budget=budget, **RELEASED)
    return make_bot(spec, seed=seed, budget=budget if spec == "strong" else None)


def timed(bot: Bot, times: list[float]) -> Callable[[SeatView], Any]:
    def choose(view: SeatView) -> Any:
        started = time.perf_counter()
        action = bot.choose(view)
        if len(forward_actions(view)) > 1:
            times.append(time.perf_counter() - started)
        return action
    return choose


# -- the self-play field: ohhell's engine ----------------------------------------------------

def schedule_sizes() -> list[int]:
    """The hand sizes of the classic schedule with one 1-card hand per player (4 players)."""
    rules = preset("classic", players=PLAYERS, one_card_hand_per_player=True)
    return [plan.size for plan in rules.hand_plans()]


def self_rules(scoring: str, size: int) -> Rules:
    return preset("classic", players=PLAYERS, schedule="explicit", hands=[HandPlan(size, "turn-up")],
                  scoring=scoring, bid_changes=False)


def play_self_deal(task: tuple[int, str, argparse.Namespace]) -> dict[str, Any]:
    """One deal of the self-play field, played twice (tested bot, then the released one)."""
    deal, scoring, args = task
    sizes = schedule_sizes()
    size = sizes[deal % len(sizes)]
    rules = self_rules(scoring, size)
    seat = (deal // len(sizes) + deal) % PLAYERS
    dealer = (deal * 7 + 3) % PLAYERS
    out: dict[str, Any] = {"deal": deal, "seat": seat, "size": size}
    for tested in ("strong", "baseline"):
        times: list[float] = []
        bots: list[Bot] = []
        for player in range(PLAYERS):
            seed = args.seed * 7919 + deal * 31 + player
            if player != seat:
                opponents = args.opponents or "released"
                bots.append(released_bot(args.baseline if opponents == "released" else opponents, seed, args))
            elif tested == "strong":
                bots.append(tested_bot(args, seed, opponents_random=args.opponents == "random"))
            else:
                bots.append(released_bot(args.baseline, seed, args))
        state = Game(rules).new_initial_state(first_dealer=dealer)
        chance = random.Random(args.seed * 1_000_003 + deal)
        state = _play(state, bots, chance, seat, times)
        result = state.finished_hands[-1]
        out[tested] = {"score": result.scores[seat], "made": result.bids[seat] == result.tricks[seat],
                       "bid": result.bids[seat], "tricks": result.tricks[seat], "times": times}
        for bot in bots:
            bot.close()
    return out


def _play(state: State, bots: Sequence[Bot], chance: random.Random, seat: int, times: list[float]) -> State:
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply(state.sample_chance(chance))
            continue
        actor = state.turn if state.turn is not None else state.actors()[0]
        view = seat_view(state, actor)
        bot = bots[actor]
        if isinstance(bot, SeesEverything):
            bot.true_hands = tuple(state.hands)
        started = time.perf_counter()
        action = bot.choose(view)
        if actor == seat and len(forward_actions(view)) > 1:
            times.append(time.perf_counter() - started)
        state.apply(action)
    return state


# -- the one-card field: good bidders ---------------------------------------------------------

def one_card_rules(players: int, scoring: str) -> Rules:
    return preset("classic", players=players, schedule="explicit", hands=[HandPlan(1, "turn-up")],
                  scoring=scoring, bid_changes=False)


def one_card_opponent(offset: int) -> str:
    """Who sits ``offset`` seats after the tested seat: the equilibrium bidder and the strong
    bot by turns (three of each at seven players)."""
    return "equilibrium" if offset % 2 == 1 else "strong"


def play_one_card_deal(task: tuple[int, int, str, argparse.Namespace]) -> dict[str, Any]:
    """One one-card deal, played twice: the tested strong bot in the tested seat, then the
    equilibrium bidder (the best response to a field that bids the equilibrium)."""
    from ohhell.bots.equilibrium_bot import EquilibriumBot

    deal, players, scoring, args = task
    rules = one_card_rules(players, scoring)
    dealer = deal % players
    seat = (deal // players) % players
    out: dict[str, Any] = {"deal": deal, "seat": seat, "size": 1,
                           "place": (seat - dealer - 1) % players}
    for tested in ("strong", "baseline"):
        times: list[float] = []
        bots: list[Bot] = []
        for player in range(players):
            seed = args.seed * 7919 + deal * 31 + player
            if player == seat:
                bot = tested_bot(args, seed, opponents_random=False) if tested == "strong" else (
                    EquilibriumBot(seed=seed) if args.baseline == "released" else released_bot(args.baseline, seed,
                                                                                                   args))
            elif one_card_opponent((player - seat) % players) == "equilibrium":
                bot = EquilibriumBot(seed=seed)
            else:
                bot = make_bot("strong", seed=seed)
            bots.append(bot)
        state = Game(rules).new_initial_state(first_dealer=dealer)
        chance = random.Random(args.seed * 1_000_003 + deal * 101 + players)
        state = _play(state, bots, chance, seat, times)
        result = state.finished_hands[-1]
        out[tested] = {"score": result.scores[seat], "made": result.bids[seat] == result.tricks[seat],
                       "bid": result.bids[seat], "tricks": result.tricks[seat], "times": times}
        for bot in bots:
            bot.close()
    return out


# -- the club player's provable errors -------------------------------------------------------------

SCAN_TRICKS = 6
"""The scan of ``basic``'s plays asks the open-hand solver from this many tricks left."""
SCAN_LIMIT = 200_000
"""Positions one solver question may search (a question that passes it is skipped)."""


def scan_basic_game(task: tuple[int, str, argparse.Namespace]) -> dict[str, Any]:
    """One whole game of four ``basic`` bots (the outside AI's rules: classic with one 1-card
    hand per player, ``scoring``); at every card play of the last :data:`SCAN_TRICKS` tricks
    of a hand, whether the open-hand solver proves the card chosen loses the bid where another
    card makes it for sure: after the chosen card the bid cannot be made at all, after the
    other card it can whatever the others do. Returns the count of plays scanned and every
    such error with its position."""
    from ohhell.actions import Play
    from ohhell.analysis.solver import OpenHand, SearchLimitReached, forcible, reachable
    from ohhell.cards import card_name

    game_index, scoring, args = task
    rules = preset("classic", players=PLAYERS, scoring=scoring, one_card_hand_per_player=True, bid_changes=False)
    bots = [make_bot("basic", seed=args.seed * 7919 + game_index * 31 + p) for p in range(PLAYERS)]
    chance = random.Random(args.seed * 1_000_003 + game_index)
    state = Game(rules).new_initial_state()
    scanned = 0
    errors: list[dict[str, Any]] = []
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply(state.sample_chance(chance))
            continue
        actor = state.turn if state.turn is not None else state.actors()[0]
        view = seat_view(state, actor)
        action = bots[actor].choose(view)
        plays = [a for a in state.legal_actions(actor) if isinstance(a, Play)]
        bid = state.bids[actor]
        if (state.phase == Phase.PLAYING and len(plays) > 1 and bid is not None
                and len(view.hand) <= SCAN_TRICKS):
            scanned += 1
            outcome: dict[int, tuple[bool, bool]] = {}
            try:
                for play in plays:
                    after = state.clone()
                    after.apply(play)
                    if after.phase != Phase.PLAYING or after.hand_index != state.hand_index:
                        made = after.finished_hands[-1].tricks[actor] == bid
                        outcome[play.card] = (made, made)
                        continue
                    position = OpenHand.from_state(after)
                    outcome[play.card] = (bid in forcible(position, actor, (bid,), limit=SCAN_LIMIT),
                                          bid in reachable(position, actor, (bid,), limit=SCAN_LIMIT))
            except SearchLimitReached:
                outcome = {}
            assert isinstance(action, Play)
            chosen = outcome.get(action.card)
            safe = [card for card, (sure, _can) in outcome.items() if sure]
            if chosen is not None and not chosen[1] and safe:
                trick = state.current_trick()
                errors.append({
                    "game": game_index, "hand": state.hand_index, "size": state.hand_size, "seat": actor,
                    "bids": list(state.bids), "won": list(state.tricks_won), "trump": state.trump_mask,
                    "hand_cards": " ".join(card_name(c) for c in view.hand),
                    "trick": " ".join(card_name(c) for _s, c in trick),
                    "played": card_name(action.card), "safe": " ".join(card_name(c) for c in safe),
                    "trumped_in": bool(trick and state.trump_mask >> action.card & 1
                                       and not state.trump_mask >> trick[0][1] & 1),
                })
        state.apply(action)
    for bot in bots:
        bot.close()
    return {"scanned": scanned, "errors": errors}


def scan_basic(args: argparse.Namespace, scoring: str) -> str:
    """Print the scan of ``--deals`` games (see :func:`scan_basic_game`); return its result line."""
    started = time.perf_counter()
    results = _run(scan_basic_game, [(game, scoring, args) for game in range(args.deals)], args.jobs)
    scanned = sum(r["scanned"] for r in results)
    errors = [e for r in results for e in r["errors"]]
    for error in errors:
        print(f"  game {error['game']} hand {error['hand']} ({error['size']} cards) seat {error['seat']} "
              f"bids {error['bids']} won {error['won']}: holding {error['hand_cards']}, trick [{error['trick']}], "
              f"played {error['played']}, sure: {error['safe']}{' (trumped in)' if error['trumped_in'] else ''}")
    by_need = sum(1 for e in errors if e["bids"][e["seat"]] == e["won"][e["seat"]])
    print(f"  {len(errors)} provable errors in {scanned} plays scanned ({by_need} needing no more tricks, "
          f"{sum(1 for e in errors if e['trumped_in'])} trumping in); {len(results)} games, seed {args.seed}, "
          f"{time.perf_counter() - started:.0f} s")
    return f"basic_provable_errors_{scoring}={len(errors)} plays={scanned}"


# -- the OpenSpiel fields -----------------------------------------------------------------------

def _ismcts(game: Any, seed: int, simulations: int) -> Any:
    import pyspiel

    evaluator = pyspiel.RandomRolloutEvaluator(1, seed)
    return pyspiel.ISMCTSBot(seed, evaluator, 2.0, simulations, -1,
                             pyspiel.ISMCTSFinalPolicyType.MAX_VISIT_COUNT, False, False)


class _Seat:
    """A player of the OpenSpiel game: an OpenSpiel bot, or an ohhell bot through the mirror."""

    def __init__(self, kind: str, game: Any, player: int, seed: int, args: argparse.Namespace) -> None:
        import pyspiel

        self.kind = kind
        self.times: list[float] = []
        self.os_bot: Any = None
        self.bot: Any = None
        if kind == "ismcts":
            self.os_bot = _ismcts(game, seed, args.simulations)
        elif kind == "random":
            self.os_bot = pyspiel.make_uniform_random_bot(player, seed)
        elif kind == "tested":
            self.bot = tested_bot(args, seed, opponents_random=args.os_opponents == "random")
        else:
            self.bot = released_bot(kind, seed, args)

    def act(self, state: Any, mirror: Any) -> int:
        started = time.perf_counter()
        if self.os_bot is not None:
            action = int(self.os_bot.step(state))
        else:
            if isinstance(self.bot, SeesEverything):
                self.bot.true_hands = tuple(mirror.state_of(state).hands)
            action = mirror.act(self.bot, state)
        self.times.append(time.perf_counter() - started)
        return action


def play_openspiel_deal(task: tuple[int, str, argparse.Namespace]) -> dict[str, Any]:
    """Play one deal twice (the tested bot, then ISMCTS in the tested seat)."""
    from openspiel_bridge import Mirror, ohhell_rules, openspiel_game

    deal, opponents, args = task
    args.os_opponents = opponents
    game = openspiel_game(PLAYERS, TRICKS)
    mirror = Mirror(ohhell_rules(PLAYERS, TRICKS))
    seat = deal % PLAYERS
    rng = random.Random(args.seed * 1_000_003 + deal)
    chance: list[int] = []
    probe = game.new_initial_state()
    while probe.is_chance_node():
        outcomes = probe.chance_outcomes()
        action = outcomes[rng.randrange(len(outcomes))][0]
        chance.append(action)
        probe.apply_action(action)
    out: dict[str, Any] = {"deal": deal, "seat": seat, "size": TRICKS}
    for tested in ("strong", "baseline"):
        state = game.new_initial_state()
        for action in chance:
            state.apply_action(action)
        kind = "tested" if tested == "strong" else "ismcts"
        seats = [_Seat(kind if player == seat else opponents, game, player,
                       args.seed * 7919 + deal * 31 + player, args) for player in range(PLAYERS)]
        bids = [-1] * PLAYERS
        while not state.is_terminal():
            player = state.current_player()
            action = seats[player].act(state, mirror)
            if action >= 52:
                bids[player] = action - 52
            state.apply_action(action)
        returns = state.returns()
        made = _made(state, seat)
        out[tested] = {"score": returns[seat], "made": made, "bid": bids[seat],
                       "tricks": int(returns[seat]) - (10 if made else 0), "times": seats[seat].times}
    return out


def _made(state: Any, seat: int) -> bool:
    """Whether the seat made its bid (OpenSpiel prints bids and tricks won at the end)."""
    text = str(state)
    bids = [int(x) for x in text.split("Bids:")[1].splitlines()[0].split()]
    won = [int(x) for x in text.split("Tricks Won:")[1].splitlines()[0].split()]
    return bids[seat] == won[seat]


# -- the levels: ratings from the arena ---------------------------------------------------------

LEVEL_TABLES = (("beginner", "casual", "basic", "strong"), ("random", "beginner", "casual", "basic"))
"""The tables of the levels field: every level meets the one above and below it."""


def level_ratings(args: argparse.Namespace) -> str:
    """Each level's rating (Elo scale, ``basic`` = 1500) from the arena: duplicate classic games
    of 4 players, every pair of levels at a table compared by their final totals."""
    from ohhell.arena import format_differences, run_arena

    rules = preset("classic", players=PLAYERS)
    wins: dict[tuple[str, str], float] = {}
    for table in LEVEL_TABLES:
        started = time.perf_counter()
        result = run_arena(rules, list(table), games=args.deals, seed=args.seed, jobs=args.jobs)
        for deal in result.deal_results:
            for game in deal.games:
                for a in game:
                    for b in game:
                        if a.spec < b.spec:
                            outcome = 1.0 if a.total > b.total else 0.5 if a.total == b.total else 0.0
                            wins[(a.spec, b.spec)] = wins.get((a.spec, b.spec), 0.0) + outcome
                            wins[(b.spec, a.spec)] = wins.get((b.spec, a.spec), 0.0) + 1.0 - outcome
        for bot in result.bots:
            print(f"  table {','.join(table)}: {bot.name:8s} {bot.mean_hand:5.2f} [{bot.ci_hand[0]:.2f}, "
                  f"{bot.ci_hand[1]:.2f}] per hand, bids made {100 * bot.made_share:4.1f}%, "
                  f"games won {100 * bot.win_share:4.1f}%")
        print("\n".join("  " + line for line in format_differences(result).splitlines()))  # the arena's, every pair
        print(f"  ({args.deals} deals x 4 rotations, seed {args.seed}, {time.perf_counter() - started:.0f} s)")
    ratings = bradley_terry(wins)
    for level in sorted(ratings, key=ratings.__getitem__):
        print(f"  {level:8s} rating {ratings[level]:6.0f}")
    return "level_ratings " + " ".join(f"{level}={ratings[level]:.0f}" for level in sorted(ratings,
                                                                                          key=ratings.__getitem__))


def bradley_terry(wins: dict[tuple[str, str], float], anchor: str = "basic") -> dict[str, float]:
    """Ratings on the Elo scale (400 points: 10 to 1 odds) that best explain the pairwise wins
    (the minorization-maximization algorithm for the Bradley-Terry model), ``anchor`` at 1500.
    A level that never lost (or never won) is held half a game from it, so that every rating
    stays finite."""
    names = sorted({a for a, _b in wins} | {b for _a, b in wins})
    won = {name: sum(v for (a, _b), v in wins.items() if a == name) for name in names}
    games = {(a, b): wins.get((a, b), 0.0) + wins.get((b, a), 0.0) for a in names for b in names if a != b}
    for name in names:
        won[name] = min(max(won[name], 0.5), sum(games[(name, b)] for b in names if b != name) - 0.5)
    strength = dict.fromkeys(names, 1.0)
    for _ in range(2000):
        new = {}
        for a in names:
            denominator = sum(games[(a, b)] / (strength[a] + strength[b]) for b in names if b != a and games[(a, b)])
            new[a] = won[a] / denominator if denominator else strength[a]
        scale = new.get(anchor, 1.0)
        strength = {name: value / scale for name, value in new.items()}
    return {name: 1500 + 400 * math.log10(value) for name, value in strength.items()}


# -- running and reporting ----------------------------------------------------------------------

def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


def _run(function: Callable[[Any], dict[str, Any]], tasks: list[Any], jobs: int) -> list[dict[str, Any]]:
    if jobs > 1:
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            return list(pool.map(function, tasks, chunksize=4))
    return [function(task) for task in tasks]


def report(results: list[dict[str, Any]], tested: str, baseline: str, name: str, started: float,
           describe: str) -> str:
    """Print a field's figures; return its result line."""
    diffs = [r["strong"]["score"] - r["baseline"]["score"] for r in results]
    mean = statistics.fmean(diffs)
    half = Z95 * statistics.stdev(diffs) / math.sqrt(len(diffs)) if len(diffs) > 1 else 0.0
    for key, label in (("strong", tested), ("baseline", baseline)):
        scores = [r[key]["score"] for r in results]
        made = sum(1 for r in results if r[key]["made"]) / len(results)
        print(f"  {label:9s} mean score/hand {statistics.fmean(scores):6.2f}  bids made {100 * made:5.1f}%  "
              f"mean bid {statistics.fmean(r[key]['bid'] for r in results):.2f}")
    by_size: dict[int, list[float]] = {}
    for r, d in zip(results, diffs, strict=True):
        by_size.setdefault(r["size"], []).append(d)
    if len(by_size) > 1:
        parts = [f"{size}: {statistics.fmean(v):+.2f}" for size, v in sorted(by_size.items(), reverse=True)]
        print("  difference by hand size: " + ", ".join(parts))
    times = [t for r in results for t in r["strong"]["times"]]
    print(f"  {describe}; deals: {len(results)}; {time.perf_counter() - started:.0f} s")
    if times:
        print(f"  {tested} decision time: p50 {1000 * _percentile(times, 0.5):.1f} ms, "
              f"p95 {1000 * _percentile(times, 0.95):.1f} ms, max {1000 * max(times):.1f} ms "
              f"({len(times)} decisions)")
    return f"{name}={mean:.2f} ci95=[{mean - half:.2f},{mean + half:.2f}]"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--field", action="append",
                        choices=["ismcts", "random", "self", "one-card", "basic-scan", "levels"],
                        help="where to measure (repeatable; default ismcts)")
    parser.add_argument("--scoring", default=",".join(SCORINGS),
                        help="the scorings of the self field, comma-separated (default: %(default)s)")
    parser.add_argument("--players", default="3,4,5,6,7",
                        help="the one-card field's player counts, comma-separated (default: %(default)s)")
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--simulations", type=int, default=1000, help="ISMCTS simulations per decision")
    parser.add_argument("--opponents", default=None,
                        help="who sits in the other seats: ismcts/random/basic/strong/released (default: the "
                             "field's own: ISMCTS, random, or the released strong bot)")
    parser.add_argument("--baseline", default="released",
                        help="self field: the bot compared with (released, basic, strong, or cmd:PROGRAM)")
    parser.add_argument("--bot-option", action="append", default=[], metavar="NAME=VALUE",
                        help="an option of the tested strong bot (repeatable), e.g. exploration=span")
    parser.add_argument("--iterations", type=int, default=None, help="simulations per card play (bots' Budget)")
    parser.add_argument("--sees-everything", action="store_true",
                        help="a ceiling: the strong bot sees every hand and knows whether the opponents are random")
    parser.add_argument("--sees-phase", default="all", choices=["all", "bidding", "play", "none"],
                        help="with --sees-everything: the phase in which the bot sees (the other is played "
                             "honestly); none: it sees no cards and is only told whether the opponents are random")
    parser.add_argument("--max-ms", type=float, default=None,
                        help="a time cap per decision of the strong bots (default none: reproducible from the seed)")
    args = parser.parse_args()
    fields = args.field or ["ismcts"]
    ordered = [f for f in fields if f != "ismcts"] + (["ismcts"] if "ismcts" in fields else [])
    lines: list[str] = []
    sight = ""
    if args.sees_everything:
        sight = (" (only told whether the opponents are random)" if args.sees_phase == "none"
                 else f" (sees every hand, phase: {args.sees_phase}: a ceiling, not a result)")
    for field in ordered:
        started = time.perf_counter()
        if field == "levels":
            print("levels field: every level against the ones beside it, whole classic games")
            lines.append(level_ratings(args))
            print(lines[-1])
        elif field == "basic-scan":
            for scoring in args.scoring.split(","):
                print(f"basic-scan: the club player's plays the open-hand solver proves wrong, {scoring} scoring")
                lines.append(scan_basic(args, scoring))
                print(lines[-1])
        elif field == "one-card":
            baseline = "equilibrium" if args.baseline == "released" else args.baseline
            for scoring in args.scoring.split(","):
                for players in (int(p) for p in args.players.split(",")):
                    print(f"one-card field, {players} players, {scoring} scoring: strong{sight} against the "
                          f"{baseline} bidder among {', '.join(one_card_opponent(k) for k in range(1, players))}")
                    card_tasks = [(deal, players, scoring, args) for deal in range(args.deals)]
                    results = _run(play_one_card_deal, card_tasks, args.jobs)
                    lines.append(report(results, "strong", baseline,
                                        f"strong_minus_{baseline}_{players}p_{scoring}", started,
                                        f"seed {args.seed}"))
                    print(lines[-1])
                    started = time.perf_counter()
        elif field == "self":
            opponents = args.opponents or "released"
            for scoring in args.scoring.split(","):
                print(f"self field, {scoring} scoring: strong{sight} against {args.baseline} among 3 {opponents}")
                tasks = [(deal, scoring, args) for deal in range(args.deals)]
                results = _run(play_self_deal, tasks, args.jobs)
                lines.append(report(results, "strong", args.baseline,
                                    f"strong_minus_released_{scoring}", started,
                                    f"seed {args.seed}, opponents {opponents}"))
                print(lines[-1])
                started = time.perf_counter()
        else:
            opponents = args.opponents or field
            print(f"{field} field (OpenSpiel oh_hell): strong{sight} against ISMCTS among 3 {opponents}")
            tasks = [(deal, opponents, args) for deal in range(args.deals)]
            results = _run(play_openspiel_deal, tasks, args.jobs)
            name = "strong_minus_ismcts_field" if field == "ismcts" else "strong_minus_ismcts"
            lines.append(report(results, "strong", "ismcts", name, started,
                                f"seed {args.seed}, opponents {opponents}"))
            print(lines[-1])
    if len(lines) > 1:
        print("summary:")
        for line in lines:
            print("  " + line)
        print(lines[-1])


if __name__ == "__main__":
    main()
