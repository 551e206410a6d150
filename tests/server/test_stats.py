"""A player's figures on a history built by hand, against numbers counted by hand (not by the
formula under test)."""

from __future__ import annotations

from typing import Any

from ohhell.server.community.stats import SeatResult, player_statistics


def _hand(size: int, bid: int | None, tricks: int, score: int, dealer: bool = False,
          hook: int | None = None) -> dict[str, Any]:
    return {"size": size, "dealer": dealer, "bid": bid, "tricks": tricks, "score": score, "hook": hook}


def _game(table: str, place: int, hands: list[dict[str, Any]]) -> SeatResult:
    return SeatResult(table, 0, "human", None, "acct", "Ann", "classic", "classic", 4, True, 1.0,
                      sum(hand["score"] for hand in hands), place, hands)


HISTORY = [
    _game("G1", 1, [
        _hand(1, 0, 0, 10),                         # zero bid made
        _hand(2, 0, 1, -1),                         # zero bid missed
        _hand(3, 1, 1, 11),                         # bid 1 made
        _hand(3, 2, 2, 12, dealer=True, hook=1),    # dealer under the hook, made
    ]),
    _game("G2", 3, [
        _hand(1, 0, 0, 10),                         # zero bid made
        _hand(2, 1, 0, -1),                         # bid 1 missed
        _hand(3, 2, 2, 12),                         # bid 2 made
        _hand(3, 1, 3, -2, dealer=True, hook=0),    # dealer under the hook, missed
        _hand(2, 0, 0, 10, dealer=True),            # dealer, no hook situation, zero made
        _hand(2, None, 0, 0),                       # no bid (a hand abandoned by a bot? not counted in bids)
    ]),
]


def test_zero_bid_success_and_made_by_bid_on_a_known_history() -> None:
    stats = player_statistics(HISTORY)
    # Zero bids: G1 hand 1 made, G1 hand 2 missed, G2 hand 1 made, G2 hand 5 made -> 3 of 4.
    assert stats["zero_bids"] == {"made": 3, "hands": 4, "share": 0.75}
    # Bid 1: G1 hand 3 made, G2 hand 2 missed, G2 hand 4 missed -> 1 of 3; bid 2: 2 of 2.
    assert stats["by_bid"] == {"0": {"made": 3, "hands": 4, "share": 0.75},
                               "1": {"made": 1, "hands": 3, "share": 0.333},
                               "2": {"made": 2, "hands": 2, "share": 1.0}}
    # All bids: 6 made of 9 (the hand without a bid is not a bid).
    assert stats["bids"] == {"made": 6, "hands": 9, "share": 0.667}
    # By size: size 1: 2 of 2 (20 points); size 2: 1 of 3 bids, 4 hands, 8 points; size 3: 3 of 4, 33 points.
    assert stats["by_size"] == {"1": {"made": 2, "hands": 2, "share": 1.0, "points_per_hand": 10.0},
                                "2": {"made": 1, "hands": 3, "share": 0.333, "points_per_hand": 2.0},
                                "3": {"made": 3, "hands": 4, "share": 0.75, "points_per_hand": 8.25}}
    # 10 hands, 61 points; two games, one won, places 1 and 3.
    assert (stats["games"], stats["wins"], stats["average_place"]) == (2, 1, 2.0)
    assert (stats["hands"], stats["points_per_hand"]) == (10, 6.1)
    # Under the hook as dealer: 1 of 2 made, (12 - 2) / 2 points; dealer without the hook: 1 of 1.
    assert stats["hook_as_dealer"] == {"made": 1, "hands": 2, "share": 0.5, "points_per_hand": 5.0}
    assert stats["dealer_without_hook"] == {"made": 1, "hands": 1, "share": 1.0}


def test_no_games_gives_empty_figures_not_errors() -> None:
    stats = player_statistics([])
    assert stats["games"] == 0 and stats["points_per_hand"] is None
    assert stats["zero_bids"] == {"made": 0, "hands": 0, "share": None} and stats["by_bid"] == {}
