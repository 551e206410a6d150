import pytest

from ohhell.cards import (
    BLACK_JOKER,
    CLUBS,
    DIAMONDS,
    HEARTS,
    RED_JOKER,
    SPADES,
    card_colour,
    card_display,
    card_name,
    card_rank,
    card_suit,
    display_order,
    make_card,
    parse_card,
    parse_suit,
    sort_for_display,
    standard_deck_mask,
)
from ohhell.errors import InvalidCardError


def test_every_card_round_trips_through_its_name():
    for card in list(range(52)) + [RED_JOKER, BLACK_JOKER]:
        assert parse_card(card_name(card)) == card


@pytest.mark.parametrize("text", ["10h", "10H", "th", "TH", "T♥", "10♥", " 10h ", "t♡"])
def test_readers_accept_ten_lower_case_and_symbols(text):
    assert card_name(parse_card(text)) == "TH"


def test_writers_always_write_the_canonical_form():
    assert card_name(parse_card("as")) == "AS"
    assert card_name(parse_card("10♣")) == "TC"


@pytest.mark.parametrize("text", ["", "1S", "11H", "AX", "ZZ", "A", "10", "X3", "JJ", "A S"])
def test_bad_cards_raise_a_typed_error(text):
    with pytest.raises(InvalidCardError, match="not a card"):
        parse_card(text)


def test_non_strings_are_refused():
    with pytest.raises(InvalidCardError):
        parse_card(12)  # type: ignore[arg-type]


def test_rank_and_suit():
    ace_of_spades = parse_card("AS")
    assert card_suit(ace_of_spades) == SPADES and card_rank(ace_of_spades) == 12
    assert card_suit(parse_card("2C")) == CLUBS and card_rank(parse_card("2C")) == 0
    assert make_card(5, DIAMONDS) == parse_card("7D")


def test_higher_cards_are_higher_numbers_within_a_suit():
    ranks = "23456789TJQKA"
    for suit in "SHDC":
        cards = [parse_card(rank + suit) for rank in ranks]
        assert cards == sorted(cards)


def test_display_uses_symbols_and_ten():
    assert card_display(parse_card("TH")) == "10♥"
    assert card_display(parse_card("QS")) == "Q♠"
    assert card_display(RED_JOKER).startswith("🃏")


def test_jokers_are_two_equal_cards_of_their_own_suit():
    assert card_name(RED_JOKER) == "X1" and card_name(BLACK_JOKER) == "X2"
    assert card_suit(RED_JOKER) == card_suit(BLACK_JOKER) == 4
    assert card_rank(RED_JOKER) == card_rank(BLACK_JOKER)
    assert card_colour(RED_JOKER) == "red" and card_colour(BLACK_JOKER) == "black"


def test_colours():
    assert card_colour(parse_card("2H")) == card_colour(parse_card("KD")) == "red"
    assert card_colour(parse_card("2S")) == card_colour(parse_card("KC")) == "black"


def test_suits_parse():
    assert parse_suit("s") == SPADES and parse_suit("♥") == HEARTS
    with pytest.raises(InvalidCardError, match="not a suit"):
        parse_suit("Q")


def test_decks():
    assert standard_deck_mask().bit_count() == 52
    short = standard_deck_mask(5)
    assert short.bit_count() == 32
    assert not short >> parse_card("6S") & 1 and short >> parse_card("7S") & 1


def test_display_order_groups_suits_high_first():
    hand = sort_for_display([parse_card(c) for c in ["2H", "AS", "KH", "3C", "QD"]])
    assert [card_name(c) for c in hand] == ["AS", "KH", "2H", "3C", "QD"]
    assert display_order(parse_card("AS")) < display_order(parse_card("KS"))
