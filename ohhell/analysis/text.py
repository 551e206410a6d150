"""A game analysis as text a person reads (``ohhell analyze RECORD``, the terminal game's end
screen), in the current language.

It reads only the JSON-able result of :func:`ohhell.analysis.analyze_record`, so whatever shows
the analysis (the terminal, a web page) can show the same thing from the same data.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from ohhell.cards import SUIT_SYMBOLS, parse_card
from ohhell.i18n import N_, _, display_card, ngettext

LABELS = {"slip": N_("small slip"), "mistake": N_("mistake"), "blunder": N_("blunder")}
"""The plain words of each label of :mod:`ohhell.analysis.grading`."""

VERDICTS = {"sure": N_("a sure thing"), "gamble": N_("a gamble"), "impossible": N_("impossible")}
"""The plain words of each verdict on a bid (:mod:`ohhell.analysis.open_hands`)."""


def label_text(label: str | None) -> str:
    return _(LABELS[label]) if label in LABELS else ""


def verdict_text(verdict: str | None) -> str:
    return _(VERDICTS[verdict]) if verdict in VERDICTS else _("not settled")


def seat_names(result: dict[str, Any], names: Sequence[str] | None = None) -> list[str]:
    """The players' names: those given, else the record's, else "Seat N"."""
    n = result["players"]
    chosen = names or result.get("names") or []
    return [chosen[seat] if seat < len(chosen) and chosen[seat] else _("Seat %(seat)d") % {"seat": seat}
            for seat in range(n)]


def counts_text(counts: Iterable[int] | None) -> str:
    """Trick counts as short ranges (``0–3, 5``); none: a dash; unknown: "not settled".

    >>> counts_text([0, 1, 2, 3, 5]), counts_text([]), counts_text([4])
    ('0–3, 5', '–', '4')
    """
    if counts is None:
        return _("not settled")
    values = sorted(counts)
    if not values:
        return "–"
    parts: list[str] = []
    start = previous = values[0]
    for value in [*values[1:], None]:
        if value is not None and value == previous + 1:
            previous = value
            continue
        parts.append(str(start) if start == previous else f"{start}–{previous}")
        if value is not None:
            start = previous = value
    return ", ".join(parts)


def _percent(value: float | None) -> str:
    return "–" if value is None else f"{100 * value:.0f}%"


def _points(value: float | None) -> str:
    return "–" if value is None else f"{value:.1f}"


def _action(kind: str, text: str | None) -> str:
    """A reviewed action as a person reads it: a bid's number, a card's face, high or low."""
    if text is None:
        return "–"
    if kind == "play":
        return display_card(parse_card(text))
    if kind == "declare":
        return _("high") if text == "high" else _("low")
    return text


def decision_text(decision: dict[str, Any], names: Sequence[str], size: int) -> str:
    """One reviewed decision in a sentence."""
    values = {
        "hand": decision["hand"] + 1, "name": names[decision["seat"]],
        "action": _action(decision["kind"], decision["action"]), "best": _action(decision["kind"], decision["best"]),
        "taken": _points(decision["taken_value"]), "better": _points(decision["best_value"]),
        "taken_chance": _percent(decision["taken_chance"]), "best_chance": _percent(decision["best_chance"]),
        "cost": _points(decision["cost"]), "label": label_text(decision["label"]),
        "trick": (decision["trick"] or 0) + 1, "cards": size,
    }
    if decision["kind"] == "bid":
        text = _("Hand %(hand)d: %(name)s bid %(action)s; the bot prefers %(best)s, expecting %(better)s points "
                 "instead of %(taken)s") % values
    elif decision["taken_chance"] is not None and decision["best_chance"] is not None:
        if decision["kind"] == "declare":
            text = _("Hand %(hand)d, trick %(trick)d: %(name)s declared the joker %(action)s; the bot prefers "
                     "%(best)s: %(best_chance)s instead of %(taken_chance)s to make the bid, a cost of %(cost)s "
                     "points") % values
        else:
            text = _("Hand %(hand)d, trick %(trick)d: %(name)s played %(action)s; the bot prefers %(best)s: "
                     "%(best_chance)s instead of %(taken_chance)s to make the bid, a cost of %(cost)s "
                     "points") % values
    elif decision["kind"] == "declare":
        text = _("Hand %(hand)d, trick %(trick)d: %(name)s declared the joker %(action)s; the bot prefers "
                 "%(best)s, expecting %(better)s points instead of %(taken)s") % values
    else:
        text = _("Hand %(hand)d, trick %(trick)d: %(name)s played %(action)s; the bot prefers %(best)s, "
                 "expecting %(better)s points instead of %(taken)s") % values
    label = label_text(decision["label"])
    return f"{text} ({label})." if label else f"{text}."


def _trump_text(hand: dict[str, Any]) -> str:
    if hand["trump"] is None:
        return _("no trump")
    return _("trump %(suit)s") % {"suit": SUIT_SYMBOLS["SHDCX".index(hand["trump"])]}


def hand_title(hand: dict[str, Any]) -> str:
    """``Hand 3 (8 cards, trump ♥)``."""
    cards = ngettext("%(count)d card", "%(count)d cards", hand["size"]) % {"count": hand["size"]}
    return _("Hand %(hand)d (%(cards)s, %(trump)s)") % {"hand": hand["index"] + 1, "cards": cards,
                                                         "trump": _trump_text(hand)}


def open_hand_text(facts: dict[str, Any], name: str) -> str:
    """One seat's open-hand facts in a sentence."""
    values = {"name": name, "bid": facts["bid"], "tricks": facts["tricks"], "verdict": verdict_text(facts["verdict"]),
              "sure": counts_text(facts["sure"]), "help": counts_text(facts["with_help"]),
              "never": counts_text(facts["impossible"])}
    if facts["bid"] is None:
        head = _("%(name)s did not bid and took %(tricks)d.") % values
    else:
        head = _("%(name)s bid %(bid)d and took %(tricks)d: %(verdict)s.") % values
    return head + " " + _("For certain: %(sure)s; with help: %(help)s; impossible: %(never)s.") % values


def _table(rows: list[list[str]]) -> list[str]:
    widths = [max(len(row[column]) for row in rows) for column in range(len(rows[0]))]
    lines = []
    for row in rows:
        cells = [row[0].ljust(widths[0])] + [cell.rjust(width) for cell, width in zip(row[1:], widths[1:],
                                                                                      strict=True)]
        lines.append("  ".join(cells).rstrip())
    return lines


def seats_table(result: dict[str, Any], names: Sequence[str]) -> list[str]:
    """The per-player summary as lines of a table."""
    return _table(seats_rows(result, names))


def seats_rows(result: dict[str, Any], names: Sequence[str]) -> list[list[str]]:
    """The per-player summary as rows of cells, the headings first (for a caller that lays the
    table out itself, as the terminal does at its width)."""
    rows = [[_("player"), _("accuracy"), _("slips"), _("mistakes"), _("blunders"), _("points lost"),
             _("bids made"), _("sure"), _("gambles"), _("impossible")]]
    for seat in result["seats"]:
        accuracy = "–" if seat["accuracy"] is None else f"{seat['accuracy']:.0f}%"
        bids = seat["bids"]
        rows.append([names[seat["seat"]], accuracy, str(seat["slips"]), str(seat["mistakes"]), str(seat["blunders"]),
                     f"{seat['points_lost']:.1f}", f"{bids['made']}/{bids['total']}", str(bids["sure"]),
                     str(bids["gamble"]), str(bids["impossible"])])
    return rows


def format_analysis(result: dict[str, Any], names: Sequence[str] | None = None, *, open_hands: bool = True) -> str:
    """The whole analysis as text: the players' summary, the costliest decisions and, with
    ``open_hands``, what each player could make in each hand."""
    labels = seat_names(result, names)
    hands = {hand["index"]: hand for hand in result["hands"]}
    settings = result["settings"]
    thresholds = result["thresholds"]
    lines = [_("Analysis of the game"), ""]
    simulations = ngettext("%(count)d simulation per card", "%(count)d simulations per card",
                           settings["budget"]) % {"count": settings["budget"]}
    if any(hand["open_hand"] is not None for hand in result["hands"]):
        lines.append(_("Every decision was reviewed by the strong bot from the player's own view "
                       "(%(simulations)s); the open hands were solved exactly.") % {"simulations": simulations})
    else:  # Bust's second pack: the open-hand solver knows one pack, so nothing was solved face up
        lines.append(_("Every decision was reviewed by the strong bot from the player's own view "
                       "(%(simulations)s).") % {"simulations": simulations})
    lines.append(_("The cost of a decision is the points it lost against the bot's choice; as a share of what "
                   "the bid was worth it is a small slip from %(slip)d%%, a mistake from %(mistake)d%%, a blunder "
                   "from %(blunder)d%%.") % {key: round(value) for key, value in thresholds.items()})
    lines.append("")
    lines.extend(seats_table(result, labels))
    costly = result["costliest"]
    lines.append("")
    if costly:
        lines.append(_("The costliest decisions:"))
        for decision in costly:
            lines.append("  " + decision_text(decision, labels, hands[decision["hand"]]["size"]))
    else:
        lines.append(_("No decision lost anything the bot could see."))
    # No hand has open-hand facts under Bust's second pack (the solver knows one pack).
    if open_hands and any(hand["open_hand"] is not None for hand in result["hands"]):
        lines.append("")
        lines.append(_("With every card face up, what each player could make:"))
        for hand in result["hands"]:
            if hand["open_hand"] is None:
                continue
            lines.append(hand_title(hand))
            for facts in hand["open_hand"]:
                lines.append("  " + open_hand_text(facts, labels[facts["seat"]]))
    return "\n".join(lines)


__all__ = ["LABELS", "VERDICTS", "counts_text", "decision_text", "format_analysis", "hand_title", "label_text",
           "open_hand_text", "seat_names", "seats_rows", "seats_table", "verdict_text"]
