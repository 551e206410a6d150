"""What the terminal apps say when something is refused, written for the person at the keyboard.

The engine refuses an illegal action with an :class:`~ohhell.errors.IllegalActionError` whose
message is for a program's log ("seat 0 must follow spades but played K♥"); its ``rule`` names
the rule broken. :func:`refusal` turns the rule into a sentence addressed to the player ("You
must follow ♠."), with what the player's view shows. Other messages that reach the screen
(the scorekeeper's, a file's) become whole sentences with :func:`sentence`.

>>> sentence("the tricks add up to 6, but 5 were played")
'The tricks add up to 6, but 5 were played.'
>>> sentence("Done!")
'Done!'
"""

from __future__ import annotations

from ohhell.actions import Bid, Play
from ohhell.cards import SUIT_SYMBOLS, Card
from ohhell.errors import IllegalActionError
from ohhell.i18n import _
from ohhell.tui.render import card_label
from ohhell.views import SeatView


def sentence(text: str) -> str:
    """``text`` as a sentence: a capital first letter and a full stop at the end (unless it ends
    with a full stop, a question or an exclamation already)."""
    text = text.strip()
    if not text:
        return text
    text = text[0].upper() + text[1:]
    if text[-1] not in ".!?…":
        text += "."
    return text


def file_problem(error: OSError) -> str:
    """Why a file could not be written or read, in words (not ``[Errno 13] Permission denied``).

    >>> file_problem(PermissionError(13, "Permission denied"))
    'you may not write there'
    """
    if isinstance(error, PermissionError):
        return _("you may not write there")
    if isinstance(error, IsADirectoryError):
        return _("that is a folder")
    if isinstance(error, FileNotFoundError):
        return _("its folder does not exist")
    if isinstance(error, NotADirectoryError):
        return _("part of the path is a file, not a folder")
    return error.strerror or str(error)


def refusal(error: IllegalActionError, view: SeatView, action: Bid | Play | None = None) -> str:
    """Why the player's own ``action`` was refused, in the player's words (``view`` is the
    player's view at the moment of the action)."""
    rule = error.rule
    card: Card | None = action.card if isinstance(action, Play) else None
    if rule == "follow-suit" and view.trick_suit is not None:
        return _("You must follow %(suit)s.") % {"suit": SUIT_SYMBOLS[view.trick_suit]}
    if rule == "must-trump" and view.trump is not None and view.trick_suit is not None:
        return _("You have no %(suit)s, so you must play a trump (%(trump)s).") % {
            "suit": SUIT_SYMBOLS[view.trick_suit], "trump": SUIT_SYMBOLS[view.trump]}
    if rule == "joker-lead":
        return _("You may not lead a joker while you hold other cards.")
    if rule == "joker-first-trick":
        return _("You may not play a joker to the first trick.")
    if rule == "hook" and isinstance(action, Bid):
        return _("As the dealer you may not bid %(bid)d: the bids would add up to %(size)d, the number of "
                 "tricks.") % {"bid": action.bid, "size": view.hand_size}
    if rule == "bid-range":
        return _("You may bid 0 to %(max)d.") % {"max": view.hand_size}
    if rule == "same-bid" and isinstance(action, Bid):
        return _("You have already bid %(bid)d.") % {"bid": action.bid}
    if rule == "bid-window-closed":
        return _("It is too late to change your bid: the next player has bid.")
    if rule == "declare-first":
        return _("First declare your joker high or low.")
    if rule in ("not-your-turn", "not-playing", "bidding-over", "already-bid", "no-bid"):
        return _("It is not your turn.")
    if rule == "game-over":
        return _("The game is over.")
    if card is not None:
        return _("You may not play %(card)s now.") % {"card": card_label(card)}
    return _("That is not allowed now.")


__all__ = ["file_problem", "refusal", "sentence"]
