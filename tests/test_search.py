"""The strong bot's search in the fast core (``fastsim.core.search``, issue 20): values in each
seat's own points, and the other seats' bids taken from a table when one is given."""

from __future__ import annotations

import struct

import pytest
from helpers import bid_all, dealt, one_hand_rules

from ohhell import fastsim
from ohhell.bots.core_view import bid_setup, play_position
from ohhell.bots.knowledge import Knowledge
from ohhell.bots.strong import StrongBot
from ohhell.cards import parse_card
from ohhell.views import seat_view

pytestmark = pytest.mark.skipif(not fastsim.AVAILABLE, reason="the C core is not built")


def test_a_known_position_is_valued_in_the_seats_own_points() -> None:
    # Every card is known (one world): seat 1 bid 2 under triangular-penalty scoring and takes
    # both tricks by leading the ace of trumps first (10 + 2² = 14 points); the heart first is
    # ruffed by seat 2, which bid 1 (then seat 1 takes one trick: missed by one, -5).
    rules = one_hand_rules(2, players=3, scoring="triangular-penalty")
    state = dealt(rules, ["2S 5D", "AS AH", "3S 4C"], turn_up="9S", dealer=0)
    bid_all(state, [2, 1, 0])
    view = seat_view(state, 1)
    knowledge = Knowledge.from_view(view)
    cfg, pos = play_position(view, knowledge)
    done, stats = fastsim.core.search(cfg, pos, [tuple(state.hands)], 2000, 1.5, 0.0, 7)
    by_card = {card: (visits, value) for card, visits, value, _made, _hist in stats}
    assert done == 2000
    assert max(by_card, key=lambda card: by_card[card][0]) == parse_card("AS")
    assert by_card[parse_card("AS")][1] == pytest.approx(14.0)
    assert by_card[parse_card("AH")][1] < 5.0


def _search_bid_with_table(seat_1_likes: int) -> int:
    # No trumps, every hand known (one world). Seat 0 bids first and leads the king of spades;
    # seat 1 holds the ace and 3 of spades: wanting no trick it ducks with the 3 and seat 0
    # takes both tricks (its 2 of diamonds is never beaten); wanting two it takes the king with
    # the ace and seat 0 takes none.
    rules = one_hand_rules(2, players=3, trump="none")
    state = dealt(rules, ["KS 2D", "AS 3S", "4C 5C"], dealer=2)
    view = seat_view(state, 0)
    knowledge = Knowledge.from_view(view)
    setup = bid_setup(view, knowledge, (0, 1, 2))
    likes = {0: 0, 1: seat_1_likes, 2: 0}
    table = [1.0 if bid == likes[seat] else 0.0 for seat in range(3) for bid in range(3)]
    values = struct.pack(f"<{len(table)}d", *table)
    cfg = (*setup.cfg[:6], (0.0, 0.0, 0.0), 0)
    _done, stats = fastsim.core.search(cfg, None, [tuple(state.hands)], 3000, 1.5, 0.0, 3, setup.bidding(values))
    return max(stats, key=lambda stat: stat[1])[0]


def test_the_other_seats_bid_as_the_value_table_says() -> None:
    assert _search_bid_with_table(seat_1_likes=0) == 2
    assert _search_bid_with_table(seat_1_likes=2) == 0


def test_a_value_table_of_the_wrong_size_is_refused() -> None:
    rules = one_hand_rules(2, players=3, trump="none")
    state = dealt(rules, ["KS 2D", "AS 3S", "4C 5C"], dealer=2)
    view = seat_view(state, 0)
    setup = bid_setup(view, Knowledge.from_view(view), (0, 1, 2))
    cfg = (*setup.cfg[:6], (0.0, 0.0, 0.0), 0)
    with pytest.raises(ValueError, match="one float64 per world"):
        fastsim.core.search(cfg, None, [tuple(state.hands)], 10, 1.5, 0.0, 3, setup.bidding(b"\0" * 8 * 8))


def test_the_strong_bot_bids_its_sure_tricks_under_every_kind_of_scoring() -> None:
    for scoring in ("exact", "trick-plus-bonus", "german-bridge", "triangular-penalty"):
        rules = one_hand_rules(3, players=3, scoring=scoring)
        state = dealt(rules, ["AS KS QS", "2H 3H 4H", "2D 3D 4D"], turn_up="9S", dealer=2)
        action = StrongBot(seed=1).choose(seat_view(state, 0))
        assert action.bid == 3, scoring
