"""A game's scoresheet as plain text (``ohhell replay FILE`` without ``--json``).

>>> result = {"complete": True, "totals": [11, 0], "winners": [0],
...           "hands": [{"dealer": 1, "size": 1, "trump": "H", "bids": [1, 1], "tricks": [1, 0], "scores": [11, 0]}]}
>>> print(format_scoresheet(result, ["Ann", "Bob"]))
 #  dealer  cards  trump  Ann       Bob
 1  Bob         1  ♥      1/1   11  1/0    0
                          total 11  total  0
Winner: Ann
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ohhell.cards import SUIT_SYMBOLS
from ohhell.i18n import _, ngettext


def _trump_symbol(letter: str | None) -> str:
    if letter is None:
        return "–"
    return SUIT_SYMBOLS["SHDCX".index(letter)]


def format_scoresheet(result: dict[str, Any], names: Sequence[str] | None = None) -> str:
    """Render a replay result (see :func:`ohhell.record.replay`) as a table: for each hand
    the dealer, the hand size, trump, and each player's ``bid/tricks`` and score."""
    totals: list[int] = result["totals"]
    n = len(totals)
    labels = list(names) if names else [_("Seat %(seat)d") % {"seat": seat} for seat in range(n)]
    width = max(9, *(len(label) for label in labels))
    # Column widths follow the translated headings (``сдаёт``, ``карты``, ``козырь``).
    dealer_label, cards_label, trump_label = _("dealer"), _("cards"), _("trump")
    dealer_width, cards_width = max(6, len(dealer_label)), max(5, len(cards_label))
    trump_width = max(5, len(trump_label))
    header = (f"{'#':>2}  {dealer_label:<{dealer_width}}  {cards_label:>{cards_width}}  {trump_label:<{trump_width}}  "
              + "  ".join(f"{label:<{width}}" for label in labels))
    lines = [header.rstrip()]
    for index, hand in enumerate(result["hands"]):
        cells = []
        for seat in range(n):
            bid = hand["bids"][seat]
            tricks = hand["tricks"][seat]
            bid_text = "–" if bid is None else str(bid)
            score = hand["scores"][seat] if hand["scores"] is not None else None
            score_text = "" if score is None else str(score)
            cell = f"{bid_text}/{tricks}"
            cells.append(f"{cell:<{width - 4}}{score_text:>4}")
        dealer = labels[hand["dealer"]]
        line = (f"{index + 1:>2}  {dealer:<{dealer_width}}  {hand['size']:>{cards_width}}  "
                f"{_trump_symbol(hand['trump']):<{trump_width}}  " + "  ".join(cells))
        lines.append(line.rstrip())
    total_cells = [f"{_('total'):<{width - 4}}{total:>4}" for total in totals]
    lines.append((" " * (len(header) - len("  ".join(f'{label:<{width}}' for label in labels))) +
                  "  ".join(total_cells)).rstrip())
    winners = result["winners"]
    if result["complete"] and winners:
        names_text = ", ".join(labels[seat] for seat in winners)
        lines.append(ngettext("Winner: %(names)s", "Winners: %(names)s", len(winners)) % {"names": names_text})
    elif not result["complete"]:
        lines.append(_("The game is not finished."))
    lines.extend(money_lines(result, labels))
    return "\n".join(lines)


def format_money(amount: float) -> str:
    """An amount of money as people write it: 2 decimals, or none for a whole amount."""
    return f"{amount:.0f}" if abs(amount - round(amount)) < 1e-9 else f"{amount:.2f}"


def money_lines(result: dict[str, Any], labels: Sequence[str]) -> list[str]:
    """Who pays whom how much, for a finished game played for money (``result["money"]``)."""
    money = result.get("money")
    if not money:
        return []
    lines = [_("For money, at %(stake)s per point:") % {"stake": format_money(money["stake"])}]
    for payment in money["payments"]:
        lines.append("  " + _("%(payer)s pays %(payee)s %(amount)s") % {
            "payer": labels[payment["from"]], "payee": labels[payment["to"]],
            "amount": format_money(payment["amount"])})
    if not money["payments"]:
        lines.append("  " + _("Nobody pays: every total is the average."))
    return lines
