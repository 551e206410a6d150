"""Ratings: OpenSkill's Plackett–Luce model, one rating per family of rules, bots held fixed.

Why OpenSkill (Weng–Lin) and its Plackett–Luce model rather than TrueSkill or Elo:

- an Oh Hell game has 3 to 7 players and one finishing order, often with shared places
  (equal totals). Plackett–Luce rates a whole finishing order at once, ties included; Elo
  rates pairs, and splitting a game into pairs counts each result several times;
- TrueSkill does the same job with a factor graph solved iteratively and is patented for
  commercial use; the Weng–Lin update is closed-form (fast, the same result in every server
  process), and OpenSkill's implementation is MIT-licensed and maintained;
- each rating is a belief (μ, σ): σ says honestly how uncertain it is. We show μ with the
  interval μ ± 2σ (about 95 %), call a rating *provisional* while σ > :data:`PROVISIONAL_SIGMA`,
  and rank leaderboards by the conservative μ − 3σ, so a newcomer's lucky first game does not
  put them on top.

The scale is Elo-like: a newcomer starts at μ = 1500, σ = 500 (OpenSkill's defaults × 60).

A **family** groups rule sets in which skill carries over (:func:`rating_family`): the scoring
decides what a good bid is, secret bids and Devil's Bridge change what a player knows, jokers
change the cards. Within a family the number of players and the schedule may differ.

Bots have fixed ratings per level (:data:`BOT_RATINGS`: the arena's measured ratings of the
levels, :data:`ARENA_ELO`, which are on the Elo scale, converted to this one): in a rated game
with bots, the people's ratings move against the bots' fixed ones and the bots' never move
(otherwise a bot would drift with whoever happens to play it). A guest (a seat no account
claimed) counts as a newcomer held fixed.

>>> from ohhell.rules import preset
>>> [rating_family(preset(name, players=4)) for name in ("classic", "contract-whist", "german-bridge")]
['classic', 'classic', 'bid-squared']
>>> rating_family(preset("boerenbridge")), rating_family(preset("devils-bridge"))
('secret-bids', 'devils-bridge')
>>> places([30, 52, 30, 12])
[2, 1, 2, 4]
"""

from __future__ import annotations

import math
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from openskill.models import PlackettLuce
from sqlalchemy import Column, Float, ForeignKey, Index, Integer, String, Table, select, update
from sqlalchemy.engine import Connection

from ohhell.i18n import N_
from ohhell.rules import Rules
from ohhell.server.storage.schema import metadata

MU: Final = 1500.0
SIGMA: Final = 500.0
BETA: Final = SIGMA / 2
TAU: Final = SIGMA / 100
"""How much uncertainty a rating regains before each game (a player's skill changes)."""
PROVISIONAL_SIGMA: Final = 200.0
"""A rating is provisional while its σ is above this (a newcomer's σ is 500; about 8 to 12
games against rated opponents bring it below)."""

MODEL: Final = PlackettLuce(mu=MU, sigma=SIGMA, beta=BETA, tau=TAU)

FAMILIES: Final[dict[str, str]] = {
    "classic": N_("Classic scoring (10 + bid, or 10 + tricks): classic, river, contract whist, Kachuful…"),
    "bid-squared": N_("Bids squared (German Bridge and the triangular penalty): big bids win and lose big."),
    "secret-bids": N_("Secret bids (Boerenbridge and every rule set with bids made at once)."),
    "7-truf": N_("7-Truf scoring (10 per trick bid)."),
    "jokers": N_("Decks with jokers (Jokers, North-East Blackout)."),
    "devils-bridge": N_("Devil's Bridge: the last hand is played seeing everyone's card but your own."),
}
"""The families of rules rated apart, each with what it holds (in the order pages list them)."""

FAMILY_NAMES: Final[dict[str, str]] = {
    "classic": N_("Classic"), "bid-squared": N_("Bids squared"), "secret-bids": N_("Secret bids"),
    "7-truf": N_("7-Truf"), "jokers": N_("Jokers"), "devils-bridge": N_("Devil's Bridge"),
}

ARENA_ELO: Final[dict[str, float]] = {"random": 508.0, "beginner": 1027.0, "casual": 1286.0, "basic": 1500.0,
                                      "strong": 1593.0}
"""The levels' ratings as measured in the arena, on the **Elo scale** (docs/bots.md: whole classic
games of four, ``benchmarks/strength.py --field levels``, every pair at a table compared by final
totals, fitted to Bradley–Terry with ``basic`` at 1500): 400 points are odds of 10 to 1 of
finishing ahead."""

ELO_TO_OPENSKILL: Final = math.sqrt(2) * BETA * math.log(10) / 400
"""Rating points here per Elo point (≈ 2.035). Both scales model the chance of finishing ahead of
one other player with a logistic curve: Elo 1 / (1 + 10^(−Δ/400)), this one (Plackett–Luce, two
players of small σ) 1 / (1 + e^(−Δ/c)) with c = √2·β; the same chance needs Δ·c·ln 10 / 400
points here for Δ Elo points. ``basic`` is 1500 on both (a newcomer's start)."""

BOT_SIGMA: Final = 100.0
"""The σ a bot plays at: about the uncertainty of the arena's measurement, on this scale."""


def from_elo(elo: float) -> float:
    """An Elo-scale rating (``basic`` = 1500) on this scale, rounded.

    >>> from_elo(1500), from_elo(1593), from_elo(508)
    (1500.0, 1689.0, -519.0)
    """
    return float(round(MU + (elo - ARENA_ELO["basic"]) * ELO_TO_OPENSKILL))


BOT_RATINGS: Final[dict[str, tuple[float, float]]] = {
    level: (from_elo(elo), BOT_SIGMA) for level, elo in ARENA_ELO.items()
}
"""The fixed (μ, σ) of each bot level, in every family, on **this** (OpenSkill) scale: the arena's
Elo-scale ratings (:data:`ARENA_ELO`) converted by :data:`ELO_TO_OPENSKILL` — random −519,
beginner 537, casual 1064, basic 1500, strong 1689. One measurement of all five levels as they
play today, the one docs/bots.md publishes, so the two pages cannot disagree (docs/accounts.md
says why). A level not listed (an operator's external bot) counts as a newcomer held fixed."""


def rating_family(rules: Rules) -> str:
    """The family a rule set is rated in (first match: Devil's Bridge, squared scorings,
    secret bids or Boerenbridge scoring, 7-Truf scoring, jokers, else classic)."""
    if rules.devils_bridge:
        return "devils-bridge"
    if rules.scoring in ("german-bridge", "triangular-penalty"):
        return "bid-squared"
    if rules.scoring == "boerenbridge" or rules.bidding == "simultaneous":
        return "secret-bids"
    if rules.scoring == "7-truf":
        return "7-truf"
    if rules.deck == "54":
        return "jokers"
    return "classic"


def places(totals: Sequence[int]) -> list[int]:
    """Each seat's place (1 = best; equal totals share the better place)."""
    return [1 + sum(1 for other in totals if other > mine) for mine in totals]


def ordinal(mu: float, sigma: float) -> float:
    """The conservative rating leaderboards rank by: μ − 3σ."""
    return mu - 3 * sigma


def is_provisional(sigma: float) -> bool:
    return sigma > PROVISIONAL_SIGMA


ratings = Table(
    "ohhell_ratings", metadata,
    Column("account_id", String(32), ForeignKey("ohhell_accounts.id", ondelete="CASCADE"), primary_key=True),
    Column("family", String(24), primary_key=True),
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    Column("games", Integer, nullable=False),
    Column("updated", Float, nullable=False),
)
"""The current rating of each account in each family it has played rated games in."""

rating_history = Table(
    "ohhell_rating_history", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("account_id", String(32), ForeignKey("ohhell_accounts.id", ondelete="CASCADE"), nullable=False),
    Column("family", String(24), nullable=False),
    Column("table_id", String(16), nullable=False),
    Column("at", Float, nullable=False),
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    Index("ohhell_rating_history_lookup", "account_id", "family", "at"),
)
"""Every rating after every rated game (the chart on a player's page)."""

rated_games = Table(
    "ohhell_rated_games", metadata,
    Column("table_id", String(16), primary_key=True),
    Column("family", String(24), nullable=False),
    Column("at", Float, nullable=False),
)
"""The games already rated: a game is rated once, whichever process finishes it."""


@dataclass(frozen=True)
class Competitor:
    """One seat of a rated game: an account (rated), a bot level or a guest (both held fixed)."""

    account_id: str | None = None
    bot: str | None = None


@dataclass(frozen=True)
class RatingChange:
    account_id: str
    before: tuple[float, float]
    after: tuple[float, float]


def fixed_rating(competitor: Competitor) -> tuple[float, float]:
    """The rating a seat that is not rated plays at (a bot's level, or a newcomer's)."""
    if competitor.bot is not None:
        return BOT_RATINGS.get(competitor.bot, (MU, SIGMA))
    return (MU, SIGMA)


def update_ratings(current: Mapping[str, tuple[float, float]], competitors: Sequence[Competitor],
                   totals: Sequence[int]) -> dict[str, tuple[float, float]]:
    """The new (μ, σ) of each account of a game, from their current ratings (a missing one is a
    newcomer's), everyone's final totals, with every seat that is not an account held fixed.

    An account that holds two seats of one game is not rated by it (it would play itself).

    >>> new = update_ratings({}, [Competitor("a"), Competitor(bot="basic"), Competitor("b")], [40, 30, 20])
    >>> new["a"][0] > 1500 > new["b"][0], new["a"][1] < 500
    (True, True)
    """
    counts: dict[str, int] = {}
    for competitor in competitors:
        if competitor.account_id is not None:
            counts[competitor.account_id] = counts.get(competitor.account_id, 0) + 1
    teams = []
    for competitor in competitors:
        rated = competitor.account_id is not None and counts[competitor.account_id] == 1
        mu, sigma = current.get(competitor.account_id, (MU, SIGMA)) if rated and competitor.account_id \
            else fixed_rating(competitor)
        teams.append([MODEL.rating(mu=mu, sigma=sigma)])
    if not any(counts.get(c.account_id or "", 0) == 1 for c in competitors):
        return {}
    result = MODEL.rate(teams, ranks=[float(place) for place in places(totals)])
    out: dict[str, tuple[float, float]] = {}
    for competitor, team in zip(competitors, result, strict=True):
        if competitor.account_id is not None and counts[competitor.account_id] == 1:
            out[competitor.account_id] = (float(team[0].mu), float(team[0].sigma))
    return out


def rate_game(conn: Connection, table_id: str, family: str, competitors: Sequence[Competitor],
              totals: Sequence[int], at: float | None = None) -> list[RatingChange] | None:
    """Rate a finished game inside the caller's transaction; ``None`` if it was rated before.
    The ratings read are locked (``FOR UPDATE`` on PostgreSQL) until the transaction ends, so
    two games finishing at once in two processes cannot lose either update."""
    at = time.time() if at is None else at
    if conn.execute(select(rated_games.c.table_id).where(rated_games.c.table_id == table_id)).first() is not None:
        return None
    conn.execute(rated_games.insert().values(table_id=table_id, family=family, at=at))
    accounts = sorted({c.account_id for c in competitors if c.account_id is not None})
    current: dict[str, tuple[float, float]] = {}
    games: dict[str, int] = {}
    if accounts:
        query = select(ratings).where(ratings.c.family == family, ratings.c.account_id.in_(accounts)) \
            .with_for_update()
        for row in conn.execute(query):
            current[row.account_id] = (row.mu, row.sigma)
            games[row.account_id] = row.games
    new = update_ratings(current, competitors, totals)
    changes = []
    for account_id, (mu, sigma) in sorted(new.items()):
        values: dict[str, Any] = {"mu": mu, "sigma": sigma, "games": games.get(account_id, 0) + 1, "updated": at}
        if account_id in current:
            conn.execute(update(ratings).where(ratings.c.account_id == account_id, ratings.c.family == family)
                         .values(**values))
        else:
            conn.execute(ratings.insert().values(account_id=account_id, family=family, **values))
        conn.execute(rating_history.insert().values(account_id=account_id, family=family, table_id=table_id, at=at,
                                                    mu=mu, sigma=sigma))
        changes.append(RatingChange(account_id, current.get(account_id, (MU, SIGMA)), (mu, sigma)))
    return changes


def rating_json(mu: float, sigma: float, games: int | None = None) -> dict[str, Any]:
    """A rating as pages show it: μ, σ, the 95 % interval, the conservative ordinal, provisional."""
    out: dict[str, Any] = {"mu": round(mu, 1), "sigma": round(sigma, 1), "low": round(mu - 2 * sigma, 1),
                           "high": round(mu + 2 * sigma, 1), "ordinal": round(ordinal(mu, sigma), 1),
                           "provisional": is_provisional(sigma)}
    if games is not None:
        out["games"] = games
    return out


def leaderboard(conn: Connection, family: str, limit: int = 100) -> list[dict[str, Any]]:
    """The family's accounts, best conservative rating first (provisional ones included, marked)."""
    from ohhell.server.community.accounts import accounts

    query = select(ratings.c.account_id, ratings.c.mu, ratings.c.sigma, ratings.c.games, accounts.c.name) \
        .join(accounts, accounts.c.id == ratings.c.account_id).where(ratings.c.family == family) \
        .order_by((ratings.c.mu - 3 * ratings.c.sigma).desc(), accounts.c.name_key).limit(limit)
    out = []
    for rank, row in enumerate(conn.execute(query), start=1):
        out.append({"rank": rank, "name": row.name, **rating_json(row.mu, row.sigma, row.games)})
    return out


def account_ratings(conn: Connection, account_id: str) -> dict[str, dict[str, Any]]:
    """Every family's current rating of one account."""
    query = select(ratings).where(ratings.c.account_id == account_id)
    return {row.family: rating_json(row.mu, row.sigma, row.games) for row in conn.execute(query)}


def rating_chart(conn: Connection, account_id: str) -> dict[str, list[dict[str, Any]]]:
    """Each family's rating after each rated game, oldest first (the chart's points)."""
    query = select(rating_history).where(rating_history.c.account_id == account_id) \
        .order_by(rating_history.c.at, rating_history.c.id)
    out: dict[str, list[dict[str, Any]]] = {}
    for row in conn.execute(query):
        out.setdefault(row.family, []).append({"at": row.at, "table": row.table_id, "mu": round(row.mu, 1),
                                               "sigma": round(row.sigma, 1)})
    return out


def win_probability(a: tuple[float, float], b: tuple[float, float]) -> float:
    """The chance the model gives ``a`` to finish ahead of ``b`` (Plackett–Luce for two:
    logistic in the gap, over c = √(2β² + σa² + σb²)).

    >>> round(win_probability((1500, 500), (1500, 500)), 2), round(win_probability((1900, 50), (1500, 50)), 2)
    (0.5, 0.75)
    """
    spread = math.sqrt(2 * BETA * BETA + a[1] ** 2 + b[1] ** 2)
    return 1 / (1 + math.exp(-(a[0] - b[0]) / spread))
