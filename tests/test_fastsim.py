"""The fast core gives exactly the reference engine's results (issue 4, part 3)."""

from __future__ import annotations

import random

import pytest

from ohhell import fastsim
from ohhell.actions import Bid, Deal, Play
from ohhell.cards import SUIT_MASKS, cards_of
from ohhell.game import Game, Phase, State
from ohhell.rules import PRESETS, HandPlan, preset

pytestmark = pytest.mark.skipif(not fastsim.AVAILABLE, reason="the C core is not built")

COVERED = [(name, players) for name in PRESETS for players in (PRESETS[name].players[:1] + PRESETS[name].players[-1:])
           if fastsim.covers(preset(name, players=players))]


def _mask_of_actions(actions: list[object]) -> int:
    mask = 0
    for action in actions:
        if isinstance(action, Play):
            mask |= 1 << action.card
    return mask


def _check_game(state: State, rng: random.Random) -> int:
    """Play a random game in the engine; replay every hand's card-play (from its start and from
    a random point in it) in the core and compare legal moves, trick winners and scores."""
    hands_checked = 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply(state.sample_chance(rng))
            continue
        if state.phase != Phase.PLAYING:
            actions = [a for a in state.legal_actions(state.turn if state.turn is not None else state.actors()[0])
                       if not (isinstance(a, Bid) and state.bids[a.seat] is not None)]
            state.apply(actions[rng.randrange(len(actions))])
            continue
        # Bidding is over: the hand is played from here.
        cut = rng.randrange(state.hand_size * state.num_players)
        starts: list[tuple[fastsim.Cfg, fastsim.Pos, tuple[int, ...], int]] = []
        cfg = fastsim.cfg_from_state(state)
        totals_before = list(state.totals)
        legal_masks: list[int] = []
        cards: list[int] = []
        winners_before = len(state.trick_winners)
        hand_index = state.hand_index
        while state.hand_index == hand_index and not state.is_terminal():
            if len(cards) in (0, cut):
                pos, hands = fastsim.pos_from_state(state)
                starts.append((cfg, pos, hands, len(cards)))
            legal = state.legal_actions(state.turn)
            legal_masks.append(_mask_of_actions(legal))
            plays = [a for a in legal if isinstance(a, Play)]
            action = plays[rng.randrange(len(plays))]
            cards.append(action.card)
            winners = list(state.trick_winners)
            state.apply(action)
        result = state.finished_hands[-1]
        assert result.plays is not None
        all_winners = winners[winners_before:] + [_last_winner(result, state.num_players)]
        for cfg_, pos, hands, offset in starts:
            masks, trick_winners, tricks = fastsim.core.replay(cfg_, pos, hands, cards[offset:])
            assert masks == legal_masks[offset:]
            assert tricks == result.tricks
            assert trick_winners == all_winners[len(all_winners) - len(trick_winners):]
            for seat in range(state.num_players):
                gained = result.totals[seat] - totals_before[seat]
                assert cfg_[5][seat][tricks[seat]] == gained
        hands_checked += 1
    return hands_checked


def _last_winner(result: object, players: int) -> int:
    from ohhell.game import HandResult

    assert isinstance(result, HandResult) and result.plays is not None and result.deal is not None
    owner = {card: seat for seat, cards in enumerate(result.deal) for card in cards}
    return owner[_winning_card(result)]


def _winning_card(result: object) -> int:
    from ohhell.game import HandResult

    assert isinstance(result, HandResult) and result.plays is not None and result.deal is not None
    players = len(result.deal)
    trick = result.plays[-players:]
    trump_mask = _trump_mask(result.trump, result.turn_up)
    led = trick[0] // 13
    best, best_power = trick[0], -1
    for card in trick:
        rank = 13 if card >= 52 else card % 13
        power = 200 + rank if trump_mask >> card & 1 else (100 + rank if card // 13 == led else 0)
        if power > best_power:
            best, best_power = card, power
    return best


def _trump_mask(trump: int | None, turn_up: int | None) -> int:
    if trump is None:
        return 0
    if trump == 4:
        return 1 << (53 if turn_up == 52 else 52)
    return SUIT_MASKS[trump]


@pytest.mark.parametrize(("name", "players"), COVERED)
def test_core_equals_engine_on_random_games(name: str, players: int) -> None:
    rules = preset(name, players=players)
    rng = random.Random(f"{name}/{players}")
    checked = 0
    games = 0
    while checked < 25 and games < 6:
        checked += _check_game(Game(rules).new_initial_state(), rng)
        games += 1
    assert checked >= 3


def test_covered_presets_are_every_preset_but_ne_blackout_and_bowers() -> None:
    """The C core covers every preset but two: ne-blackout, and Euchre's bowers (the jack of the
    other suit of the colour is a trump: the bots play it through the reference engine)."""
    assert {name for name, _players in COVERED} == set(PRESETS) - {"ne-blackout", "bowers"}


@pytest.mark.parametrize("players", [3, 4, 5, 6, 7])
def test_core_random_hands_replay_identically_in_the_engine(players: int) -> None:
    for seed in range(40):
        size = 1 + seed % (52 // players - (1 if seed % 3 else 0))
        deck_rules = preset("jokers" if seed % 4 == 0 else "classic", players=players,
                            must_trump=seed % 5 == 0, schedule="explicit", hands=(HandPlan(size, "turn-up"),))
        dealer = seed % players
        hands, turn_up, bids, plays, tricks = fastsim.random_hand(
            players, size, deck_rules.deck_mask, must_trump=deck_rules.must_trump, dealer=dealer, seed=seed)
        state = Game(deck_rules).new_initial_state(first_dealer=dealer)
        state.apply(Deal(tuple(tuple(cards_of(mask)) for mask in hands), turn_up if turn_up >= 0 else None))
        for offset in range(players):
            seat = (dealer + 1 + offset) % players
            state.apply(Bid(seat, bids[seat]))
        for card in plays:
            assert state.turn is not None
            state.apply(Play(state.turn, card))
        assert state.is_terminal()
        assert state.finished_hands[-1].tricks == tricks
        assert state.finished_hands[-1].bids == bids


def test_simulate_counts_scores() -> None:
    deck = preset("classic").deck_mask
    total = fastsim.simulate(4, 10, 200, deck, seed=1)
    assert total == fastsim.simulate(4, 10, 200, deck, seed=1)
    assert 0 < total < 200 * 4 * 20


def test_solver_finds_the_only_way_to_make_a_bid() -> None:
    # Seat 0 (bid 1) holds AS 2S, seat 1 (bid 1) KS 3S ... with no trump; seat 0 leads.
    from ohhell.cards import parse_cards

    def mask(text: str) -> int:
        return sum(1 << card for card in parse_cards(text))

    hands = (mask("AS 2H"), mask("KS 3H"), mask("QS 4H"))
    rows = tuple(fastsim.score_row(preset("classic", players=3), 1 if seat == 0 else 0, 0, 2) for seat in range(3))
    cfg: fastsim.Cfg = (3, 2, 0, 0, (1, 0, 0), rows)
    pos: fastsim.Pos = ((0, 0, 0), 0, (), 2, 0)
    tricks, nodes = fastsim.core.solve(cfg, pos, hands)
    assert tricks == (1, 0, 1) or tricks[0] == 1
    assert nodes > 0


def test_sample_respects_capacities_and_allowed_cards() -> None:
    unknown = (1 << 20) - 1
    allowed = (0xFFFFF & ~0xF, 0xFFFFF, 0xFFFFF)  # place 0 never gets cards 0..3
    for world in fastsim.core.sample(unknown, (5, 7, 8), allowed, 50, 3, 100):
        assert [mask.bit_count() for mask in world] == [5, 7, 8]
        assert world[0] & 0xF == 0
        assert world[0] | world[1] | world[2] == unknown
