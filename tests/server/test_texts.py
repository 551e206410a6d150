"""The server's messages: the engine speaks each connection's language and names cards as the
table shows them, only inside :func:`~ohhell.server.texts.speaking`."""

from __future__ import annotations

import random

import pytest

from ohhell.actions import Play
from ohhell.cards import message_card, parse_card
from ohhell.errors import IllegalActionError
from ohhell.game import Game
from ohhell.i18n import current_language
from ohhell.rules import preset
from ohhell.server.texts import speaking


def test_speaking_names_cards_in_the_language_and_restores_everything() -> None:
    state = Game(preset("classic", players=3, max_size=2)).new_initial_state(first_dealer=0)
    state.apply(state.sample_chance(random.Random(1)))
    queen = parse_card("QS")
    with speaking("bg"):
        assert message_card(queen) == "Д♠"
        with pytest.raises(IllegalActionError) as error:
            state.apply(Play(1, queen))  # bidding, not play: refused in Bulgarian
        assert error.value.rule
    assert current_language() == "en" and message_card(queen) == "QS"
    with speaking("en"):
        assert message_card(queen) == "Q♠"
    assert message_card(queen) == "QS"
