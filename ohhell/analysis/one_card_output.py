"""The one-card tables as text, CSV and a plot (``ohhell analyze one-card``).

The plot needs matplotlib (``pip install -e '.[plot]'``); everything else needs nothing more.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Final

from ohhell.bots.exact_one_card import Equilibrium, OneCardTable, Role, Row, best_bid_text
from ohhell.cards import parse_card
from ohhell.i18n import N_, _, display_card, ngettext, rank_letters
from ohhell.spreadsheet import csv_text

ROLE_NAMES: Final = {"trump": N_("trump"), "plain": N_("plain"), "turned-suit": N_("turned suit"),
                     "joker": N_("joker")}
"""How each role of a card is named in the tables."""

CSV_COLUMNS: Final = (
    "players", "preset", "turned", "place", "role", "rank", "win", "win_exact",
    "optimal_bid_one", "optimal_made", "optimal_expected_score",
    "random_others_bid_one", "random_others_made", "random_others_expected_score",
)


def card_label(row: Row) -> str:
    """``trump A``, ``plain 10``, ``joker``, in the current language."""
    if row.rank == 13:
        return _(ROLE_NAMES["joker"]) if row.role == "joker" else _("trump joker")
    return f"{_(ROLE_NAMES[row.role])} {rank_letters()[row.rank]}"


def place_title(place: int, players: int, leads: bool) -> str:
    if place == 1:
        text = _("Place %(place)d (first to bid)") % {"place": place}
    elif place == players:
        text = _("Place %(place)d (the dealer, last to bid)") % {"place": place}
    else:
        text = _("Place %(place)d") % {"place": place}
    return text + (" · " + _("leads the trick") if leads else "")


def players_text(players: int) -> str:
    return ngettext("%(count)d player", "%(count)d players", players) % {"count": players}


def _percent(value: float) -> str:
    return f"{100 * value:.1f}%"


def format_table(table: OneCardTable) -> str:
    """The tables as text: for each place, every card's chance of taking the trick, and the
    best bid, the chance of making it and the expected score, when everyone bids optimally
    and when the others bid at random."""
    rules = table.rules
    n = rules.players
    lines = [_("The one-card hand, exactly: %(preset)s, %(players)s.") % {"preset": rules.preset,
                                                                           "players": players_text(n)}]
    if table.turned is None:
        lines.append(_("Averaged over the turned card (each player knows it)."))
    else:
        lines.append(_("The turned card: %(card)s.") % {"card": display_card(parse_card(table.turned))})
    lines.append(_("takes: the chance of taking the trick; best play: everyone bids optimally (\"bids 1\": how often "
                   "this card bids 1, after what it heard); others random: the others bid at random."))
    leader = n if rules.first_lead == "dealer" else 1
    header = [_("card"), _("takes"), _("bids 1"), _("makes"), _("expects"), _("bid"), _("makes"), _("expects")]
    for place in range(1, n + 1):
        lines.append("")
        lines.append(place_title(place, n, place == leader) + " — " + _(
            "expected score %(optimal).2f with best play, %(random).2f when the others bid at random")
            % {"optimal": float(table.place_optimal[place - 1]), "random": float(table.place_random[place - 1])})
        rows = [header]
        for row in table.rows:
            if row.place != place:
                continue
            rows.append([card_label(row), _percent(float(row.win)), _percent(float(row.optimal.bid_one)),
                         _percent(float(row.optimal.made)), f"{float(row.optimal.score):.2f}",
                         best_bid_text(row.random.bid_one), _percent(float(row.random.made)),
                         f"{float(row.random.score):.2f}"])
        widths = [max(len(r[c]) for r in rows) for c in range(len(header))]
        best_width = widths[2] + widths[3] + widths[4] + 4
        other_width = widths[5] + widths[6] + widths[7] + 4
        prefix = " " * (2 + widths[0] + 2 + widths[1])
        best_label, other_label = _("best play"), _("others random")
        lines.append(f"{prefix} | {best_label:^{best_width}} | {other_label:^{other_width}}".rstrip())
        for r in rows:
            left = f"  {r[0]:<{widths[0]}}  {r[1]:>{widths[1]}}"
            best = "  ".join(f"{r[c]:>{widths[c]}}" for c in (2, 3, 4))
            other = "  ".join(f"{r[c]:>{widths[c]}}" for c in (5, 6, 7))
            lines.append(f"{left} | {best} | {other}")
    return "\n".join(lines)


def _class_label(role: Role, rank: int) -> str:
    if rank == 13:
        return _(ROLE_NAMES["joker"]) if role == "joker" else _("trump joker")
    return f"{_(ROLE_NAMES[role])} {rank_letters()[rank]}"


def _ranges(ranks: list[int], present: list[int]) -> str:
    """Ranks as letters, runs joined: ``10–A, 7`` (a run goes on over ranks not ``present``:
    the turned card is in nobody's hand)."""
    letters = rank_letters()
    order = sorted(present)
    runs: list[list[int]] = []
    for rank in sorted(ranks):
        if runs and order.index(rank) == order.index(runs[-1][-1]) + 1:
            runs[-1].append(rank)
        else:
            runs.append([rank])
    parts = [letters[run[0]] if len(run) == 1 else f"{letters[run[0]]}–{letters[run[-1]]}" for run in runs]
    return ", ".join(reversed(parts))


def history_label(history: Sequence[int]) -> str:
    if not history:
        return _("before any bid")
    return _("after %(bids)s") % {"bids": " ".join(str(bid) for bid in history)}


def format_equilibrium(game: Equilibrium) -> str:
    """The equilibrium bids as text: for each place and each sequence of earlier bids, the
    cards that bid 1 (by role, the ranks in runs) and, for each role, the least chance of
    taking the trick among them given those bids (every card's own chance is in the JSON)."""
    n = game.players
    leader = n if game.rules.first_lead == "dealer" else 1
    lines = [_("Equilibrium bids: each place bids its best reply to the rules of the places before it, "
               "which read the bids they heard.")]
    for place in range(n):
        lines.append("")
        lines.append(place_title(place + 1, n, place + 1 == leader))
        for history in game.histories(place):
            allowed = game.allowed(place, history)
            reach = [(role, rank, card) for role, rank, card in game.classes()
                     if game.win_chance(place, history, card) is not None]
            ones = [(role, rank, card) for role, rank, card in reach if game.bid(place, history, card) == 1]
            if len(allowed) == 1:
                text = (_("bids 1 with every card") if allowed[0] == 1 else _("bids 0 with every card")) + " " + _(
                    "(the hook)")
            elif not ones:
                text = _("bids 0 with every card")
            elif len(ones) == len(reach):
                text = _("bids 1 with every card")
            else:
                groups = []
                for role in ROLE_NAMES:
                    members = [(rank, card) for r, rank, card in ones if r == role]
                    if not members:
                        continue
                    least = min(float(game.win_chance(place, history, card) or 0) for _rank, card in members)
                    plain = [rank for rank, _card in members if rank < 13]
                    present = [rank for r, rank, _card in reach if r == role and rank < 13]
                    names = ([f"{_(ROLE_NAMES[role])} {_ranges(plain, present)}"] if plain else []) + (
                        [_class_label(role, 13)] if any(rank == 13 for rank, _card in members) else [])  # type: ignore[arg-type]
                    groups.append(f"{', '.join(names)} (≥ {_percent(least)})")
                text = _("bids 1 with: %(cards)s") % {"cards": "; ".join(groups)}
            lines.append(f"  {history_label(history)}: {text}")
    return "\n".join(lines)


def equilibrium_json(game: Equilibrium) -> dict[str, object]:
    """Every place's equilibrium bid and chance of taking the trick, for every card class after
    every sequence of earlier bids (``win`` is ``null`` where a card never hears those bids)."""
    places = []
    for place in range(game.players):
        histories = []
        for history in game.histories(place):
            cards = []
            for role, rank, card in game.classes():
                chance = game.win_chance(place, history, card)
                cards.append({"role": role, "rank": rank, "card": "X" if rank == 13 else rank_letters()[rank],
                              "bid": game.bid(place, history, card),
                              "win": float(chance) if chance is not None else None,
                              "win_exact": str(chance) if chance is not None else None})
            histories.append({"bids": list(history), "allowed": game.allowed(place, history), "cards": cards})
        places.append({"place": place + 1, "histories": histories})
    return {"places": places}


def write_csv(table: OneCardTable, path: Path) -> None:
    """One line per place and card (the columns of :data:`CSV_COLUMNS`; ranks 0 = two … 12 =
    ace, 13 = joker; chances from 0 to 1), through :func:`~ohhell.spreadsheet.csv_text` as every
    CSV of the project (no cell a spreadsheet would read as a formula)."""
    rows: list[list[object]] = [list(CSV_COLUMNS)]
    for row in table.rows:
        rows.append([table.rules.players, table.rules.preset, table.turned or "", row.place, row.role, row.rank,
                     f"{float(row.win):.6f}", str(row.win), f"{float(row.optimal.bid_one):.6f}",
                     f"{float(row.optimal.made):.6f}", f"{float(row.optimal.score):.6f}",
                     f"{float(row.random.bid_one):.6f}", f"{float(row.random.made):.6f}",
                     f"{float(row.random.score):.6f}"])
    path.write_text(csv_text(rows), encoding="utf-8", newline="")


def plot(table: OneCardTable, stem: Path, formats: Sequence[str] = ("png", "svg")) -> list[Path]:
    """The chance of taking the trick by rank, one line per place, for trumps and plain
    cards side by side; written as ``stem.png`` and ``stem.svg``. Needs matplotlib."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError as error:
        raise RuntimeError(_("the plot needs matplotlib: pip install -e '.[plot]'")) from error
    n = table.rules.players
    roles = [role for role in ("trump", "plain", "turned-suit") if any(r.role == role for r in table.rows)]
    figure, axes = plt.subplots(1, len(roles), figsize=(5.2 * len(roles), 4.2), sharey=True, squeeze=False)
    letters = rank_letters()
    for axis, role in zip(axes[0], roles, strict=True):
        for place in range(1, n + 1):
            rows = sorted((r for r in table.rows if r.place == place and r.role == role and r.rank < 13),
                          key=lambda r: r.rank)
            if rows:
                axis.plot([r.rank for r in rows], [float(r.win) for r in rows], marker="o", markersize=3,
                          label=_("place %(place)d") % {"place": place})
        ranks = sorted({r.rank for r in table.rows if r.role == role and r.rank < 13})
        axis.set_xticks(ranks)
        axis.set_xticklabels([letters[rank] for rank in ranks])
        axis.set_title(_(ROLE_NAMES[role]))
        axis.set_xlabel(_("rank"))
        axis.set_ylim(0, 1)
        axis.grid(alpha=0.3)
    axes[0][0].set_ylabel(_("chance of taking the trick"))
    axes[0][-1].legend(loc="upper left", fontsize="small")
    figure.suptitle(_("One card each: %(preset)s, %(players)s") % {"preset": table.rules.preset,
                                                                    "players": players_text(n)})
    figure.tight_layout()
    written = []
    for extension in formats:
        target = stem.with_suffix("." + extension)
        figure.savefig(target, dpi=120)
        written.append(target)
    plt.close(figure)
    return written


__all__ = ["CSV_COLUMNS", "ROLE_NAMES", "card_label", "equilibrium_json", "format_equilibrium", "format_table",
           "history_label", "place_title", "plot", "write_csv"]
