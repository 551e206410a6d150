"""Results and statistics: what each seat did in each finished game, and a player's figures.

When a game ends, one row per seat is stored (:data:`game_results`): who sat there (an
account, a bot level or a guest), the total and place, and per hand the size, the bid, the
tricks, the score and whether the seat dealt under the hook. A player's page adds these up
(:func:`player_statistics`):

- points per hand, overall and by hand size;
- the share of bids made, by hand size and by bid (zero bids among them);
- hook situations as dealer: hands the seat dealt while the hook forbade one bid (the bids of
  the others left the dealer a forbidden number), how often the dealer made the bid then.

>>> from ohhell.record import play_random_game
>>> from ohhell.rules import preset
>>> state = play_random_game(preset("classic", players=3, schedule="explicit",
...                                 hands=[[3, "turn-up"], [2, "turn-up"]]), seed=4)
>>> hands = seat_hands(state, 0)
>>> [hand["size"] for hand in hands], sum(hand["score"] for hand in hands) == state.totals[0]
([3, 2], True)
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Final

from sqlalchemy import Boolean, Column, Float, ForeignKey, Index, Integer, String, Table, Text, select
from sqlalchemy.engine import Connection

from ohhell.game import State
from ohhell.server.community.ratings import account_ratings, places, rating_chart, rating_family
from ohhell.server.storage.kinds import SeatKind
from ohhell.server.storage.schema import metadata

HUMAN: Final = SeatKind.HUMAN
BOT: Final = SeatKind.BOT

game_results = Table(
    "ohhell_game_results", metadata,
    Column("table_id", String(16), ForeignKey("ohhell_tables.id", ondelete="CASCADE"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("kind", String(8), nullable=False),
    Column("bot", String(64), nullable=True),
    Column("account_id", String(32), ForeignKey("ohhell_accounts.id", ondelete="SET NULL"), nullable=True),
    Column("name", String(64), nullable=True),
    Column("family", String(24), nullable=False),
    Column("preset", String(32), nullable=False),
    Column("players", Integer, nullable=False),
    Column("rated", Boolean, nullable=False),
    Column("finished", Float, nullable=False),
    Column("total", Integer, nullable=False),
    Column("place", Integer, nullable=False),
    Column("hands", Text, nullable=False),
    Column("embargo", String(48), nullable=True),
    Index("ohhell_game_results_account", "account_id", "finished"),
    Index("ohhell_game_results_bot", "bot", "finished"),
)
"""One row per seat of every finished game (``hands``: JSON list, see :func:`seat_hands`).
``embargo`` names what must be over before the game is shown to anyone but its players: the
duplicate event (``event:ID``) or the daily deal's day (``daily:DAY``) it belongs to — its
cards are the cards other tables are still playing."""


@dataclass(frozen=True)
class SeatResult:
    """A seat of a finished game, as stored."""

    table_id: str
    seat: int
    kind: str
    bot: str | None
    account_id: str | None
    name: str | None
    family: str
    preset: str
    players: int
    rated: bool
    finished: float
    total: int
    place: int
    hands: list[dict[str, Any]]
    embargo: str | None = None


def embargo_of(extra: dict[str, Any]) -> str | None:
    """What a table's game waits for before it is public (see :data:`game_results`).

    >>> embargo_of({"event": "abc", "event_table": 1}), embargo_of({"daily": "2026-12-01"}), embargo_of({})
    ('event:abc', 'daily:2026-12-01', None)
    """
    if isinstance(extra.get("event"), str):
        return f"event:{extra['event']}"
    if isinstance(extra.get("daily"), str):
        return f"daily:{extra['daily']}"
    return None


def seat_hands(state: State, seat: int) -> list[dict[str, Any]]:
    """Each finished hand from one seat: size, dealer, bid, tricks, score, and ``hook``: the
    bid the hook forbade this seat as dealer (``None``: no hook situation)."""
    rules = state.rules
    hook_applies = rules.hook and rules.bidding == "in-turn"
    out = []
    for hand in state.finished_hands:
        forbidden = None
        if hook_applies and hand.dealer == seat and hand.bid_order and hand.bid_order[-1] == seat:
            others = sum(bid or 0 for index, bid in enumerate(hand.bids) if index != seat)
            if 0 <= hand.size - others <= hand.size:
                forbidden = hand.size - others
        out.append({"size": hand.size, "dealer": hand.dealer == seat, "bid": hand.bids[seat],
                    "tricks": hand.tricks[seat], "score": hand.scores[seat], "hook": forbidden})
    return out


def results_of(table_id: str, state: State, kinds: Sequence[tuple[str, str | None, str | None]],
               accounts: dict[int, str], rated: bool, finished: float, embargo: str | None = None) -> list[SeatResult]:
    """The rows of a finished game: ``kinds`` gives each seat's (kind, bot level, name);
    ``accounts`` the seats an account played."""
    rules = state.rules
    totals = list(state.totals)
    placed = places(totals)
    family = rating_family(rules)
    out = []
    for seat, (kind, bot, name) in enumerate(kinds):
        out.append(SeatResult(table_id, seat, kind, bot if kind == BOT else None,
                              accounts.get(seat) if kind == HUMAN else None, name, family, rules.preset,
                              rules.players, rated, finished, totals[seat], placed[seat], seat_hands(state, seat),
                              embargo))
    return out


def store_results(conn: Connection, rows: Sequence[SeatResult]) -> bool:
    """Insert a game's rows unless the game is stored already; whether they were inserted."""
    if not rows:
        return False
    table_id = rows[0].table_id
    if conn.execute(select(game_results.c.seat).where(game_results.c.table_id == table_id)).first() is not None:
        return False
    conn.execute(game_results.insert(), [{
        "table_id": row.table_id, "seat": row.seat, "kind": row.kind, "bot": row.bot, "account_id": row.account_id,
        "name": row.name, "family": row.family, "preset": row.preset, "players": row.players, "rated": row.rated,
        "finished": row.finished, "total": row.total, "place": row.place, "hands": json.dumps(row.hands),
        "embargo": row.embargo,
    } for row in rows])
    return True


def _row(row: Any) -> SeatResult:
    return SeatResult(row.table_id, row.seat, row.kind, row.bot, row.account_id, row.name, row.family, row.preset,
                      row.players, bool(row.rated), row.finished, row.total, row.place, json.loads(row.hands),
                      row.embargo)


def results_for_account(conn: Connection, account_id: str) -> list[SeatResult]:
    query = select(game_results).where(game_results.c.account_id == account_id) \
        .order_by(game_results.c.finished.desc(), game_results.c.table_id)
    return [_row(row) for row in conn.execute(query)]


def results_for_bot(conn: Connection, level: str, limit: int = 2000) -> list[SeatResult]:
    query = select(game_results).where(game_results.c.kind == BOT, game_results.c.bot == level) \
        .order_by(game_results.c.finished.desc(), game_results.c.table_id).limit(limit)
    return [_row(row) for row in conn.execute(query)]


def results_for_table(conn: Connection, table_id: str) -> list[SeatResult]:
    query = select(game_results).where(game_results.c.table_id == table_id).order_by(game_results.c.seat)
    return [_row(row) for row in conn.execute(query)]


def _share(made: int, total: int) -> dict[str, Any]:
    return {"made": made, "hands": total, "share": round(made / total, 3) if total else None}


def player_statistics(results: Iterable[SeatResult]) -> dict[str, Any]:
    """A player's figures over their games (see the module docstring).

    >>> rows = [SeatResult("T", 0, "human", None, "a", "Ann", "classic", "classic", 3, False, 1.0, 25, 1,
    ...   [{"size": 2, "dealer": True, "bid": 1, "tricks": 1, "score": 11, "hook": 1},
    ...    {"size": 1, "dealer": False, "bid": 0, "tricks": 0, "score": 10, "hook": None}])]
    >>> stats = player_statistics(rows)
    >>> stats["points_per_hand"], stats["zero_bids"]["share"], stats["by_size"]["2"]
    (10.5, 1.0, {'made': 1, 'hands': 1, 'share': 1.0, 'points_per_hand': 11.0})
    >>> stats["hook_as_dealer"]["hands"], stats["hook_as_dealer"]["made"]
    (1, 1)
    """
    games = wins = hands = points = 0
    places_sum = 0
    by_size: dict[int, list[int]] = {}
    points_by_size: dict[int, list[int]] = {}  # points, hands
    by_bid: dict[int, list[int]] = {}
    dealer_hook = [0, 0, 0]  # hands, made, points
    dealer_free = [0, 0]  # hands dealt without a hook situation, made
    for result in results:
        games += 1
        wins += result.place == 1
        places_sum += result.place
        for hand in result.hands:
            hands += 1
            points += hand["score"]
            size_points = points_by_size.setdefault(hand["size"], [0, 0])
            size_points[0] += hand["score"]
            size_points[1] += 1
            bid = hand["bid"]
            if bid is None:
                continue
            made = int(bid == hand["tricks"])
            size_entry = by_size.setdefault(hand["size"], [0, 0])
            size_entry[0] += made
            size_entry[1] += 1
            bid_entry = by_bid.setdefault(bid, [0, 0])
            bid_entry[0] += made
            bid_entry[1] += 1
            if hand["dealer"]:
                if hand["hook"] is not None:
                    dealer_hook[0] += 1
                    dealer_hook[1] += made
                    dealer_hook[2] += hand["score"]
                else:
                    dealer_free[0] += 1
                    dealer_free[1] += made
    made_all = sum(entry[0] for entry in by_bid.values())
    bids_all = sum(entry[1] for entry in by_bid.values())
    zero = by_bid.get(0, [0, 0])
    return {
        "games": games, "wins": wins, "average_place": round(places_sum / games, 2) if games else None,
        "hands": hands, "points_per_hand": round(points / hands, 2) if hands else None,
        "bids": _share(made_all, bids_all),
        "by_size": {str(size): {**_share(*by_size.get(size, [0, 0])),
                                "points_per_hand": round(points_by_size[size][0] / points_by_size[size][1], 2)}
                    for size in sorted(points_by_size)},
        "by_bid": {str(bid): _share(*by_bid[bid]) for bid in sorted(by_bid)},
        "zero_bids": _share(*zero),
        "hook_as_dealer": {**_share(dealer_hook[1], dealer_hook[0]),
                           "points_per_hand": round(dealer_hook[2] / dealer_hook[0], 2) if dealer_hook[0] else None},
        "dealer_without_hook": _share(dealer_free[1], dealer_free[0]),
    }


def game_json(result: SeatResult) -> dict[str, Any]:
    """One game in a player's list: with the links to its record and its analysis."""
    return {"table": result.table_id, "seat": result.seat, "finished": result.finished, "preset": result.preset,
            "players": result.players, "family": result.family, "rated": result.rated, "total": result.total,
            "place": result.place, "points": [hand["score"] for hand in result.hands],
            "record": f"/api/tables/{result.table_id}/record", "analysis": f"/api/tables/{result.table_id}/analysis",
            "table_page": f"/t/{result.table_id}"}


PublicFilter = Callable[[Connection, Sequence[SeatResult]], list[SeatResult]]
"""Keeps the results anyone may see (``Community.public``: those whose event or day is over)."""


def player_page(conn: Connection, account_id: str, public: PublicFilter) -> dict[str, Any]:
    """What a player's public page shows besides the name: ratings, the rating chart, the
    figures and the latest 200 finished games anyone may see."""
    results = public(conn, results_for_account(conn, account_id))
    return {"ratings": account_ratings(conn, account_id), "chart": rating_chart(conn, account_id),
            "statistics": player_statistics(results), "games": [game_json(result) for result in results[:200]]}


def bot_page(conn: Connection, level: str, public: PublicFilter) -> dict[str, Any]:
    """What a bot level's page shows besides its rating: the figures and the latest 100 games."""
    results = public(conn, results_for_bot(conn, level))
    return {"statistics": player_statistics(results), "games": [game_json(result) for result in results[:100]]}
