"""``ohhell suggest RECORD``: a bot's advice for the seat to act in a (partial) game record.

This is also the "hint" of the play front ends: they call :func:`suggest_for_state`.

Exit codes: 0 a suggestion was printed; 1 the record is broken (format or rules); 2 a usage
problem (no such bot, nobody is to act, a seat that cannot act).
"""

from __future__ import annotations

import json
import sys
from typing import Any

import click

from ohhell.actions import Bid, ChooseTrump, Declare, Play, action_to_json
from ohhell.bots import Budget, Suggestion, make_bot
from ohhell.cards import CARD_SUITS, HIDDEN_CARD, SUIT_NAMES
from ohhell.game import State
from ohhell.i18n import N_, _, display_card
from ohhell.views import SeatView, seat_view


def seat_to_act(state: State) -> int | None:
    """The seat whose decision moves the game on (under simultaneous bidding, the lowest seat
    still to bid), or ``None`` when nobody is to act."""
    if state.is_terminal() or state.is_chance_node():
        return None
    if state.turn is not None:
        return state.turn
    actors = state.actors()
    return actors[0] if actors else None


def suggest_for_state(state: State, bot_spec: str = "strong", seat: int | None = None, seed: int | None = 0,
                      budget: Budget | None = None) -> tuple[int, Suggestion]:
    """The bot's suggestion for ``seat`` (default: the seat to act) from that seat's view only."""
    if seat is None:
        seat = seat_to_act(state)
        if seat is None:
            raise ValueError(_("nobody is to act in this position"))
    elif seat not in state.actors():
        raise ValueError(_not_to_act(state, seat))
    bot = make_bot(bot_spec, seed=seed, budget=budget)
    try:
        view = seat_view(state, seat)
        if seat != state.turn and view.can_change_bid:
            change = bot.change_bid(view)
            suggestion = Suggestion(change) if change is not None else None
            if suggestion is None:
                raise ValueError(_("seat %(seat)d may only change its bid now, and the bot would keep it")
                                 % {"seat": seat})
            return seat, suggestion
        return seat, bot.suggest(view)
    finally:
        bot.close()


def _not_to_act(state: State, seat: int) -> str:
    """Why ``seat`` gets no advice here, and how to get some."""
    if not 0 <= seat < state.num_players:
        return _("there is no seat %(seat)d: the seats are 0 to %(last)d") % {"seat": seat,
                                                                              "last": state.num_players - 1}
    turn = seat_to_act(state)
    if turn is None:
        return _("nobody is to act in this position")
    doing = {"BIDDING": _("to bid"), "PLAYING": _("to play a card"), "DECLARING": _("to declare a joker"),
             "CHOOSING_TRUMP": _("to choose trump")}.get(
        state.phase.name, _("to act"))
    return _("seat %(seat)d is not to act in this position: seat %(turn)d is, %(doing)s. Leave out --seat for "
             "seat %(turn)d's advice, or give the record up to the moment seat %(seat)d is to act.") % {
        "seat": seat, "turn": turn, "doing": doing}


def forced_reason(view: SeatView, action: object) -> str:
    """Why an action is the only one the rules allow (``ohhell suggest`` says so rather than
    show estimates of a choice there is not)."""
    if isinstance(action, Play):
        if len(view.hand) == 1:
            return _("It is the only card left in the hand.")
        if view.trick_suit is not None and view.current_trick:
            same = [card for card in view.hand if CARD_SUITS[card] == view.trick_suit]
            if len(same) == 1 and action.card in same:
                return _("It is the only %(suit)s in the hand, and the suit led must be followed.") % {
                    "suit": _(SUIT_NAMES[view.trick_suit])}
            if not same and view.trump is not None and view.rules.must_trump:
                return _("The hand has no %(suit)s and must trump: it is the only trump.") % {
                    "suit": _(SUIT_NAMES[view.trick_suit])}
        return _("It is the only card the rules allow now.")
    if isinstance(action, Bid):
        return _("It is the only bid the rules allow now.")
    return _("It is the only move the rules allow now.")


def describe_action(action: object) -> str:
    """The action in words."""
    if isinstance(action, Bid):
        return _("bid %(bid)d") % {"bid": action.bid}
    if isinstance(action, Play):
        if action.card == HIDDEN_CARD:
            return _("play your card")
        return _("play %(card)s") % {"card": display_card(action.card)}
    if isinstance(action, Declare):
        return _("declare the joker high") if action.high else _("declare the joker low")
    if isinstance(action, ChooseTrump):
        return _("choose %(suit)s as trump") % {"suit": _(SUIT_NAMES[action.suit])}
    return str(action)


def format_suggestion(seat: int, suggestion: Suggestion, view: SeatView | None = None) -> str:
    """The suggestion as lines of text for a person (with ``view``, a forced move says why)."""
    lines = [_("Seat %(seat)d: %(action)s") % {"seat": seat, "action": describe_action(suggestion.action)}]
    if suggestion.kind == "only legal action" or (view is not None and len(view.legal_actions) == 1):
        lines.append(forced_reason(view, suggestion.action) if view is not None
                     else _("It is the only move the rules allow now."))
        return "\n".join(lines)
    estimates = suggestion.estimates
    if estimates and suggestion.kind == "probability of making the bid":
        lines.append(_("Chance of making the bid:"))
        for label, value in sorted(estimates.items(), key=lambda item: -item[1]):
            lines.append(f"  {_label_text(label):<14} {100 * value:5.1f}%")
    elif estimates and suggestion.kind == "expected score":
        lines.append(_("Expected score:"))
        for label, value in sorted(estimates.items(), key=lambda item: -item[1]):
            lines.append(f"  {_label_text(label):<14} {value:6.2f}")
    if suggestion.details.get("exact"):
        lines.append(_("(counted exactly over every way the unseen cards may lie)"))
    distribution = suggestion.details.get("tricks_distribution")
    if distribution:
        lines.append(_("Tricks it expects to take with this bid:"))
        for tricks, share in distribution.items():
            if share >= 0.005:
                lines.append(f"  {tricks:>3}  {100 * share:5.1f}%")
    return "\n".join(lines)


def _label_text(label: str) -> str:
    kind, _sep, value = label.partition(" ")
    if kind == "bid" and value.isdigit():
        return _("bid %(bid)d") % {"bid": int(value)}
    if kind == "play":
        from ohhell.cards import parse_card

        try:
            return display_card(parse_card(value))
        except ValueError:
            return value
    if kind == "trump" and value in ("S", "H", "D", "C"):
        return _(SUIT_NAMES["SHDC".index(value)]).capitalize()
    return label


def suggestion_json(seat: int, suggestion: Suggestion) -> dict[str, Any]:
    return {
        "seat": seat,
        "action": action_to_json(suggestion.action),
        "text": str(suggestion.action),
        "kind": suggestion.kind,
        "estimates": suggestion.estimates,
        "details": suggestion.details,
    }


@click.command("suggest", help=N_("Ask a bot what the seat to act should do in a (partial) game record, with its "
                                  "estimates (the chance of making the bid for each bid or card)."))
@click.argument("record", type=click.Path(dir_okay=False, allow_dash=True))
@click.option("--bot", "bot_spec", default="strong", show_default=True,
              help=N_("The bot to ask (random, beginner, casual, basic, strong, cmd:PROGRAM)."))
@click.option("--seat", type=int, default=None, help=N_("The seat to advise (default: the seat to act)."))
@click.option("--seed", type=int, default=0, show_default=True, help=N_("Seed of the bot."))
@click.option("--iterations", type=click.IntRange(1), default=None, help=N_("The bot's thinking, in iterations."))
@click.option("--json", "as_json", is_flag=True, help=N_("Print the suggestion as one JSON object."))
def suggest(record: str, bot_spec: str, seat: int | None, seed: int, iterations: int | None, as_json: bool) -> None:
    """Ask a bot what the seat to act should do in a (partial) game record, with its estimates
    (the chance of making the bid for each bid or card)."""
    from ohhell.errors import RecordError
    from ohhell.record import read_record_file, state_from_record

    try:
        state = state_from_record(read_record_file(record))
    except OSError as error:
        raise click.BadParameter(str(error), param_hint="RECORD") from error
    except RecordError as error:
        if as_json:
            click.echo(json.dumps(error.to_json(), ensure_ascii=False))
        else:
            click.echo(f"{error.kind}: {error.message}", err=True)
        sys.exit(1)
    budget = Budget(iterations=iterations) if iterations is not None else None
    try:
        chosen_seat, result = suggest_for_state(state, bot_spec, seat=seat, seed=seed, budget=budget)
    except ValueError as error:
        raise click.UsageError(str(error)) from error
    if as_json:
        click.echo(json.dumps(suggestion_json(chosen_seat, result), ensure_ascii=False))
    else:
        click.echo(format_suggestion(chosen_seat, result, seat_view(state, chosen_seat)))


__all__ = ["describe_action", "format_suggestion", "seat_to_act", "suggest", "suggest_for_state"]
