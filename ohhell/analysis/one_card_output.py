"""The one-card tables as text, CSV and a plot (``ohhell analyze one-card``).

The plot needs matplotlib (``pip install -e '.[plot]'``); everything else needs nothing more.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Final

from ohhell.analysis.one_card import OneCardTable, Row, best_bid_text
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


__all__ = ["CSV_COLUMNS", "ROLE_NAMES", "card_label", "format_table", "place_title", "plot", "write_csv"]
