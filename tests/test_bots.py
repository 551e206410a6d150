"""The bots (issue 4): legal play on every preset, sound heuristics, consistent sampling."""

from __future__ import annotations

import random

import pytest
from helpers import bid_all, dealt, one_hand_rules, play

from ohhell import fastsim
from ohhell.actions import Bid, Play
from ohhell.bots import Budget, make_bot
from ohhell.bots.basic import BasicBot
from ohhell.bots.driver import play_game
from ohhell.bots.heuristics import estimate_tricks
from ohhell.bots.knowledge import Knowledge
from ohhell.bots.strong import StrongBot, world_state
from ohhell.cards import SUIT_MASKS, parse_card
from ohhell.game import Game, Phase, State
from ohhell.rules import PRESETS, preset
from ohhell.views import seat_view

FAST = Budget(iterations=400)


def _small(name: str) -> tuple[int, dict[str, object]]:
    """A player count and knobs that keep a preset's game short."""
    players = PRESETS[name].players[0]
    knobs: dict[str, object] = {}
    if name in ("classic", "blackout", "contract-whist", "la-podrida", "german-bridge", "kachuful", "oh-shit",
                "jokers"):
        knobs["max_size"] = 4
    if name == "devils-bridge":
        knobs["max_size"] = 3
    if name == "up-and-down-the-river":
        knobs["max_size"] = 5
    return players, knobs


@pytest.mark.parametrize("name", list(PRESETS))
@pytest.mark.parametrize("level", ["random", "beginner", "casual", "basic", "strong"])
def test_bots_only_play_legal_actions_on_every_preset(name: str, level: str) -> None:
    players, knobs = _small(name)
    rules = preset(name, players=players, **knobs)
    # ne-blackout runs on the reference-engine fallback: one hand is enough there, and the strong
    # bot's rollouts (pure Python) take the same paths in two worlds a decision as in eight.
    until = (lambda state: state.hand_index >= 1) if name == "ne-blackout" else None
    options = {"worlds": 2} if name == "ne-blackout" and level == "strong" else {}
    for seed in range(2 if level != "random" else 4):
        bots = [make_bot(level, seed=seed * 10 + seat, budget=FAST, **options) if seat % 2 == 0
                else make_bot("basic", seed=seed * 10 + seat, budget=FAST) for seat in range(players)]
        state = play_game(rules, bots, seed=seed, until=until)  # raises BotError on an illegal action
        assert state.is_terminal() or until is not None


def test_strong_declares_jokers_and_plays_blind_hands() -> None:
    # NE-Blackout: the player of the first joker must declare it; Devil's Bridge: a blind last hand.
    # NE-Blackout runs on the reference-engine fallback, whose rollouts in pure Python cost most
    # of this test: two worlds a decision instead of eight take the same paths, a quarter as often.
    rules = preset("ne-blackout", players=5)
    declared = []
    state = play_game(rules, [make_bot("strong", seed=s, budget=FAST, worlds=2) for s in range(5)], seed=3,
                      listener=lambda st, action: declared.append(action) if type(action).__name__ == "Declare"
                      else None, until=lambda st: st.hand_index >= 2)
    assert state.hand_index >= 2
    assert declared, "no joker was declared in two hands of ne-blackout"
    blind = preset("devils-bridge", players=3, max_size=2)
    final = play_game(blind, [make_bot("strong", seed=s, budget=FAST) for s in range(3)], seed=5)
    assert final.is_terminal()


@pytest.mark.parametrize("name", ["classic", "la-podrida", "jokers", "boerenbridge", "ne-blackout", "7-truf"])
def test_sampled_worlds_never_contradict_what_was_seen(name: str) -> None:
    players = PRESETS[name].players[0]
    rules = preset(name, players=players)
    rng = random.Random(name)
    checked = 0
    for game_seed in range(3):
        state = Game(rules).new_initial_state()
        chance = random.Random(game_seed)
        while not state.is_terminal() and state.hand_index < 2:
            if state.is_chance_node():
                state.apply(state.sample_chance(chance))
                continue
            seat = state.turn if state.turn is not None else state.actors()[0]
            if state.phase in (Phase.PLAYING, Phase.BIDDING) and rng.random() < 0.3:
                _check_worlds(state, seat, rng)
                checked += 1
            legal = [a for a in state.legal_actions(seat)
                     if not (isinstance(a, Bid) and state.bids[a.seat] is not None)]
            state.apply(legal[rng.randrange(len(legal))])
    assert checked > 5


def _check_worlds(state: State, seat: int, rng: random.Random) -> None:
    view = seat_view(state, seat)
    knowledge = Knowledge.from_view(view)
    voids = _true_voids(state)
    played = 0
    for _leader, cards, _winner in state.completed_tricks():
        for _seat, card in cards:
            played |= 1 << card
    for _seat, card in state.current_trick():
        played |= 1 << card
    for world in knowledge.sample(30, rng):
        assert world[seat] == state.hands[seat]
        seen = 0
        for player, hand in enumerate(world):
            assert hand.bit_count() == state.hands[player].bit_count()
            assert not hand & voids[player], f"seat {player} got a suit it showed it lacks"
            assert not hand & played
            if state.turn_up is not None:
                assert not hand >> state.turn_up & 1
            assert not hand & seen
            seen |= hand
        # The real hands are always possible: everything sampled fits what the state knows.
        true_mask = sum(state.hands)
        assert seen & ~true_mask & ~knowledge.unseen == 0


def _true_voids(state: State) -> list[int]:
    """The suits each seat showed it lacks, computed from the state's tricks."""
    n = state.num_players
    voids = [0] * n
    high_low = state.game.high_low_jokers
    tricks = [cards for _leader, cards, _winner in state.completed_tricks()]
    if state.current_trick():
        tricks.append(state.current_trick())
    for cards in tricks:
        first = cards[0][1]
        if first >= 52:
            continue
        led = first // 13
        for player, card in cards[1:]:
            if high_low and card >= 52:
                continue
            if card // 13 != led:
                voids[player] |= SUIT_MASKS[led]
    return voids


def test_world_states_rebuild_the_hand_in_the_engine() -> None:
    state = dealt(one_hand_rules(3, players=3), ["AS KS 2H", "QS 3H 4H", "5D 6D 7D"], turn_up="2S", dealer=2)
    bid_all(state, [1, 0, 1])
    play(state, "AS QS")
    view = seat_view(state, 2)
    world = Knowledge.from_view(view).sample(1, random.Random(1))[0]
    rebuilt = world_state(view, world)
    assert rebuilt.hands == list(world)
    assert rebuilt.turn == state.turn
    assert rebuilt.bids == state.bids


@pytest.mark.skipif(not fastsim.AVAILABLE, reason="the C core is not built")
def test_python_and_core_trick_estimates_agree() -> None:
    rng = random.Random(7)
    deck = list(range(52))
    for _ in range(200):
        rng.shuffle(deck)
        size = rng.randint(1, 13)
        players = rng.randint(3, 5)
        hand = sum(1 << card for card in deck[:size])
        trump = SUIT_MASKS[rng.randrange(4)] if rng.random() < 0.8 else 0
        unseen = ((1 << 52) - 1) & ~hand & ~(1 << deck[size])
        ours = estimate_tricks(hand, trump, unseen, players, size)
        theirs = fastsim.core.estimate([hand], trump, unseen | hand, players, size)[0]
        assert ours == pytest.approx(theirs, abs=1e-9)


@pytest.mark.parametrize("bot_class", [BasicBot, StrongBot])
def test_dealer_hooked_holding_the_ace_of_trumps_never_bids_zero(bot_class: type) -> None:
    # Two cards each; the others bid 0, 0, 1: the dealer may not bid 1. Holding the ace of
    # trumps, a bid of 0 cannot be made: bid 2.
    rules = one_hand_rules(2, players=4)
    state = dealt(rules, ["2C 3C", "4C 5C", "6C 7D", "AS 8H"], turn_up="2S", dealer=3)
    bid_all(state, [0, 0, 1])
    view = seat_view(state, 3)
    assert view.forbidden_bid == 1
    bot = bot_class(seed=1, budget=FAST)
    action = bot.choose(view)
    assert action == Bid(3, 2)


@pytest.mark.parametrize("bot_class", [BasicBot, StrongBot])
def test_leads_the_top_trump_when_every_trick_is_needed(bot_class: type) -> None:
    # Seat 1 bid 2 with AS (trump) and AH: leading the heart first can be ruffed.
    rules = one_hand_rules(2, players=3)
    state = dealt(rules, ["2S 5D", "AS AH", "3H 4H"], turn_up="9S", dealer=0)
    bid_all(state, [2, 0, 1])  # seat 1 bids 2, seat 2 bids 0, the dealer (seat 0) 1
    assert state.turn == 1
    action = bot_class(seed=2, budget=FAST).choose(seat_view(state, 1))
    assert action == Play(1, parse_card("AS"))


@pytest.mark.parametrize("bot_class", [BasicBot, StrongBot])
def test_does_not_trump_in_needlessly(bot_class: type) -> None:
    # Seat 2 bid 0; hearts are led and it has none: it discards the club instead of trumping.
    rules = one_hand_rules(3, players=3)
    state = dealt(rules, ["KH 2D 3D", "QH 4D 5D", "2S 9C 6D"], turn_up="TS", dealer=2)
    bid_all(state, [1, 1, 0])
    play(state, "KH QH")
    action = bot_class(seed=3, budget=FAST).choose(seat_view(state, 2))
    assert action != Play(2, parse_card("2S"))


def test_strong_is_reproducible_from_its_seed() -> None:
    rules = preset("classic", players=4, max_size=3)
    first = play_game(rules, [make_bot("strong", seed=s, budget=FAST) for s in range(4)], seed=9)
    second = play_game(rules, [make_bot("strong", seed=s, budget=FAST) for s in range(4)], seed=9)
    assert first.history == second.history


def test_strong_suggestion_has_estimates_for_every_legal_action() -> None:
    rules = one_hand_rules(5, players=4)
    state = dealt(rules, ["AS KS QS 2H 3H", "4H 5H 6H 7H 8H", "2D 3D 4D 5D 6D", "2C 3C 4C 5C 6C"],
                  turn_up="9S", dealer=3)
    suggestion = StrongBot(seed=1, budget=FAST).suggest(seat_view(state, 0))
    assert isinstance(suggestion.action, Bid)
    assert set(suggestion.estimates) == {f"bid {b}" for b in range(6)}
    assert all(0.0 <= p <= 1.0 for p in suggestion.estimates.values())
    distribution = suggestion.details["tricks_distribution"]
    assert sum(distribution.values()) == pytest.approx(1.0)
    assert suggestion.action.bid >= 3  # three top trumps


def test_the_measured_alternatives_still_play_legally() -> None:
    # PIMC with heuristic rollouts and the exact endgame solver; bids by rollouts.
    rules = preset("classic", players=4, max_size=3)
    bots = [StrongBot(seed=s, search="pimc", bid_search="rollouts", worlds=30, solve=3) for s in range(4)]
    assert play_game(rules, bots, seed=2).is_terminal()


def test_a_random_player_is_told_from_a_careful_one() -> None:
    rules = one_hand_rules(10, players=4)
    judged: dict[str, list[float]] = {"random": [], "basic": []}
    for opponent in judged:
        for seed in range(3):
            bot = StrongBot(seed=seed, budget=FAST)
            bots = [bot] + [make_bot(opponent, seed=seed * 7 + i) for i in range(1, 4)]
            state = Game(rules).new_initial_state()
            chance = random.Random(seed)
            while not state.is_terminal():
                if state.is_chance_node():
                    state.apply(state.sample_chance(chance))
                    continue
                seat = state.turn
                assert seat is not None
                action = bots[seat].choose(seat_view(state, seat))
                if seat == 0 and state.phase == Phase.PLAYING and len(state.trick_winners) == 7:
                    judged[opponent].extend(bot.randomness[1:])
                state.apply(action)
    assert sum(judged["random"]) / len(judged["random"]) > 0.4
    assert sum(judged["basic"]) / len(judged["basic"]) < 0.15
