"""Levels named for people (issue 20): offered by name, old names kept, the weaker ones err as
people do — a misjudged marginal bid, a forgotten card — rather than at random."""

from __future__ import annotations

import pytest
from helpers import bid_all, dealt, one_hand_rules, play

from ohhell.actions import Bid, Play
from ohhell.bots import ALIASES, bot_names, make_bot, strongest_bot
from ohhell.bots.basic import BasicBot
from ohhell.bots.driver import deal_only
from ohhell.bots.knowledge import Knowledge
from ohhell.bots.people import BeginnerBot, CasualBot
from ohhell.bots.strong import StrongBot
from ohhell.cards import parse_card
from ohhell.game import Game
from ohhell.i18n import level_name
from ohhell.views import seat_view


def test_the_levels_are_offered_weakest_first_and_the_old_names_still_work() -> None:
    assert bot_names() == ["random", "beginner", "casual", "learned", "basic", "strong"]
    assert strongest_bot() == "strong"
    assert isinstance(make_bot("expert"), StrongBot) and isinstance(make_bot("club"), BasicBot)
    assert set(ALIASES) & set(bot_names()) == set()


@pytest.mark.parametrize(("level", "english", "russian"), [
    ("beginner", "beginner", "новичок"), ("casual", "casual player", "любитель"),
    ("basic", "club player", "клубный игрок"), ("strong", "expert", "эксперт"), ("expert", "expert", "эксперт"),
])
def test_levels_are_shown_with_the_names_of_people(level: str, english: str, russian: str) -> None:
    assert level_name(level, "en") == english
    assert level_name(level, "ru") == russian


def test_a_beginner_misjudges_marginal_bids_by_a_trick_or_so_never_wildly() -> None:
    rules = one_hand_rules(8, players=4)
    differences = []
    for seed in range(120):
        state = deal_only(Game(rules).new_initial_state(), seed=seed)
        view = seat_view(state, state.turn)
        careful = BasicBot(seed=seed, worlds=0).choose(view)
        beginner = BeginnerBot(seed=seed).choose(view)
        assert isinstance(careful, Bid) and isinstance(beginner, Bid)
        differences.append(abs(careful.bid - beginner.bid))
    assert max(differences) <= 3
    assert 0.15 < sum(1 for d in differences if d) / len(differences) < 0.8
    assert sum(1 for d in differences if d >= 2) <= len(differences) // 8


def test_a_beginner_forgets_some_of_the_cards_played_earlier() -> None:
    rules = one_hand_rules(6, players=3, trump="none")
    state = dealt(rules, ["AS KS QS 2H 3H 4H", "AH KH QH 2D 3D 4D", "AD KD QD 2C 3C 4C"], dealer=2)
    bid_all(state, [3, 1, 1])
    play(state, "AS 2D 2C")
    play(state, "KS 3D 3C")
    play(state, "QS 4D 4C")
    view = seat_view(state, 0)
    truth = Knowledge.from_view(view)
    forgotten = 0
    for seed in range(40):
        seen = BeginnerBot(seed=seed).knowledge(view)
        assert seen.unseen & truth.unseen == truth.unseen  # it never forgets what is still out
        forgotten += (seen.unseen & ~truth.unseen).bit_count()
    # The others played four cards before the last trick; a beginner forgets each with chance 0.65.
    assert 0.45 * 4 * 40 < forgotten < 0.85 * 4 * 40
    assert CasualBot(seed=1).knowledge(view) == truth  # the casual player remembers
    assert BasicBot(seed=1).knowledge(view) == truth


@pytest.mark.parametrize("level", ["beginner", "casual"])
def test_the_weaker_levels_still_make_the_plays_that_cannot_go_wrong(level: str) -> None:
    # Needing every remaining trick with the ace of trumps and the ace of hearts: lead the trump
    # (habit and thought agree, and nothing has been played that could be forgotten).
    state = dealt(one_hand_rules(2, players=3), ["2S 5D", "AS AH", "3H 4H"], turn_up="9S", dealer=0)
    bid_all(state, [2, 0, 1])
    for seed in range(10):
        assert make_bot(level, seed=seed).choose(seat_view(state, 1)) == Play(1, parse_card("AS"))
