"""The errors ohhell raises: each says what is wrong, and all are ``ValueError``\\ s.

* :class:`InvalidCardError` — a text is not a card (cannot parse).
* :class:`RulesError` — a combination of rule knobs cannot be played; names the knob.
* :class:`IllegalActionError` — an action is not allowed now; names the rule broken.
  The state is left exactly as it was.
* :class:`RecordError` — a game record breaks the format or a rule; carries the
  ``kind``, ``hand`` and ``index`` of the ``ohhell replay`` contract.
"""

from __future__ import annotations

from typing import Any

from ohhell.i18n import _


class OhHellError(ValueError):
    """Base class of every error ohhell raises on purpose."""


class InvalidCardError(OhHellError):
    """A text that is not a card (or not a suit) in record notation."""

    def __init__(self, text: Any, what: str = "card") -> None:
        self.text = text
        if what == "suit":
            message = _("not a suit: %(text)r (expected one of S H D C or ♠ ♥ ♦ ♣)") % {"text": text}
        elif what == "repeated card":
            message = _("%(text)s is named twice, but only Bust's small cards have a second copy") % {"text": text}
        else:
            message = _(
                "not a card: %(text)r (expected a rank A K Q J T 9 … 2 and a suit S H D C, like 'TH')"
            ) % {"text": text}
        super().__init__(message)


class RulesError(OhHellError):
    """Rule knobs that cannot be played together; ``knob`` names the one to change."""

    def __init__(self, knob: str, message: str) -> None:
        self.knob = knob
        super().__init__(f"{knob}: {message}")


class IllegalActionError(OhHellError):
    """An action that the rules do not allow now.

    ``rule`` is a short stable name of the rule broken (``"follow-suit"``,
    ``"hook"``, ``"not-your-turn"`` …) for programs; the message is for people.
    """

    def __init__(self, rule: str, message: str) -> None:
        self.rule = rule
        super().__init__(message)


RECORD_ERROR_KINDS = (
    "bad-format", "bad-card", "bad-deal", "bad-dealer", "bad-size", "bad-trump",
    "bad-tricks", "illegal-bid", "illegal-play",
)


class RecordError(OhHellError):
    """A game record that breaks the format or a rule (the ``ohhell replay`` contract)."""

    def __init__(self, kind: str, message: str, hand: int | None = None, index: int | None = None) -> None:
        assert kind in RECORD_ERROR_KINDS, kind
        self.kind = kind
        self.hand = hand
        self.index = index
        self.message = message
        super().__init__(message)

    def to_json(self) -> dict[str, Any]:
        """The ``error`` object that ``ohhell replay --json`` prints."""
        return {"error": {"hand": self.hand, "kind": self.kind, "message": self.message, "index": self.index}}
