"""Card notation (French, kabufuda, Luk Fu), decks, and stacked-deck completion."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.core.cards import (
    LI_TYEN,
    FrenchCard,
    KabuCard,
    LukFuCard,
    complete_deck_order,
    french_deck,
    kabu_deck,
    lukfu_deck,
    notation,
    parse_french,
    parse_kabu,
    parse_lukfu,
)
from games.core.errors import NotationError

# ---------------------------------------------------------------- French


def test_french_notation_round_trip() -> None:
    cards = parse_french("As Td 9h 2c")
    assert cards == [FrenchCard(14, "s"), FrenchCard(10, "d"), FrenchCard(9, "h"), FrenchCard(2, "c")]
    assert notation(cards) == "As Td 9h 2c"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("10h", "Th"),
        ("10♥", "Th"),
        ("A♠", "As"),
        ("K♦", "Kd"),
        ("2♣", "2c"),
        ("as", "As"),
        ("tD", "Td"),
        (" Qh ", "Qh"),
    ],
)
def test_french_accepts_ten_symbols_and_any_case(text: str, expected: str) -> None:
    assert FrenchCard.parse(text).notation == expected


def test_french_pretty_uses_symbols_and_10() -> None:
    assert [c.pretty for c in parse_french("As Td 9h 2c")] == ["A♠", "10♦", "9♥", "2♣"]


@pytest.mark.parametrize("text", ["", "A", "1s", "Ax", "11h", "10", "Ts♠", "AsK", "♠A", "0h", "Ah!"])
def test_french_refuses_bad_tokens(text: str) -> None:
    with pytest.raises(NotationError):
        FrenchCard.parse(text)


def test_french_refuses_duplicates_and_bad_fields() -> None:
    with pytest.raises(NotationError):
        parse_french("As Kd as")
    with pytest.raises(NotationError):
        FrenchCard(15, "s")
    with pytest.raises(NotationError):
        FrenchCard(10, "x")


def test_french_deck_is_52_distinct_cards_in_canonical_order() -> None:
    deck = french_deck()
    assert len(deck) == 52 == len(set(deck))
    assert notation(deck[:5]) == "2c 2d 2h 2s 3c"
    assert deck[-1] == FrenchCard(14, "s")
    assert deck == sorted(deck)


@given(st.sampled_from(french_deck()))
def test_every_french_card_round_trips_in_every_spelling(card: FrenchCard) -> None:
    assert FrenchCard.parse(card.notation) == card
    assert FrenchCard.parse(card.pretty) == card
    assert FrenchCard.parse(str(card).lower()) == card


# ---------------------------------------------------------------- kabufuda


def test_kabu_months_and_copy_numbering() -> None:
    cards = parse_kabu("3 7 3 10 3")
    assert [(c.month, c.copy) for c in cards] == [(3, 0), (7, 0), (3, 1), (10, 0), (3, 2)]
    assert notation(cards) == "3 7 3 10 3"


def test_kabu_at_most_four_per_month() -> None:
    assert len(parse_kabu("5 5 5 5")) == 4
    with pytest.raises(NotationError, match="more than four"):
        parse_kabu("5 5 5 5 5")


def test_kabu_points_are_month_mod_10() -> None:
    assert [c.points for c in parse_kabu("1 9 10 11 12")] == [1, 9, 0, 1, 2]


@pytest.mark.parametrize("text", ["0", "13", "-1", "+3", "x", "3a", "", "1.5", "²", "٣", "１"])
def test_kabu_refuses_bad_tokens(text: str) -> None:
    with pytest.raises(NotationError):
        KabuCard.parse(text)


def test_kabu_months_limit_of_the_deck() -> None:
    assert parse_kabu("11 12")[1].month == 12
    with pytest.raises(NotationError):
        parse_kabu("11", months=10)
    with pytest.raises(NotationError):
        KabuCard(3, 4)


@pytest.mark.parametrize(("months", "size"), [(10, 40), (12, 48)])
def test_kabu_deck_sizes(months: int, size: int) -> None:
    deck = kabu_deck(months)
    assert len(deck) == size == len(set(deck))
    assert notation(deck[:5]) == "1 1 1 1 2"
    assert all(sum(1 for c in deck if c.month == m) == 4 for m in range(1, months + 1))


def test_kabu_deck_refuses_other_sizes() -> None:
    with pytest.raises(ValueError, match="10 or 12"):
        kabu_deck(11)


# ---------------------------------------------------------------- Luk Fu


def test_lukfu_notation_round_trip() -> None:
    cards = parse_lukfu("7M 1T LT 9c")
    assert cards == [LukFuCard(7, "M"), LukFuCard(1, "T"), LI_TYEN, LukFuCard(9, "C")]
    assert notation(cards) == "7M 1T LT 9C"
    assert LukFuCard.parse("lt") is LI_TYEN
    assert LI_TYEN.is_li_tyen
    assert LI_TYEN.suit_order == -1
    assert LukFuCard(1, "C").suit_order == 0
    assert LukFuCard(1, "T").suit_order == 3


@pytest.mark.parametrize("text", ["", "0M", "10M", "7X", "M7", "L", "LTT", "7", "²M", "٣M"])
def test_lukfu_refuses_bad_tokens(text: str) -> None:
    with pytest.raises(NotationError):
        LukFuCard.parse(text)


def test_lukfu_refuses_duplicates_and_bad_fields() -> None:
    with pytest.raises(NotationError):
        parse_lukfu("LT 7M lt")
    with pytest.raises(NotationError):
        LukFuCard(0, "C")
    with pytest.raises(NotationError):
        LukFuCard(3, "CS")


def test_lukfu_deck_is_37_cards() -> None:
    deck = lukfu_deck()
    assert len(deck) == 37 == len(set(deck))
    assert notation(deck[:2]) == "1C 2C"
    assert deck[-1] is LI_TYEN
    assert all(LukFuCard.parse(c.notation) == c for c in deck)


# ---------------------------------------------------------------- stacked decks


def test_complete_deck_order_puts_prefix_on_top_then_canonical() -> None:
    deck = complete_deck_order(parse_french("As Kd"), french_deck())
    assert notation(deck[:4]) == "As Kd 2c 2d"
    assert sorted(deck) == french_deck()


def test_complete_deck_order_matches_kabu_by_month_and_keeps_copies_distinct() -> None:
    deck = complete_deck_order(parse_kabu("3 3 10"), kabu_deck())
    assert [c.month for c in deck[:3]] == [3, 3, 10]
    assert len(set(deck)) == 40
    assert [c.month for c in deck[3:6]] == [1, 1, 1]


def test_complete_deck_order_refuses_cards_not_in_the_deck() -> None:
    with pytest.raises(NotationError):
        complete_deck_order(parse_kabu("11"), kabu_deck(10))
    with pytest.raises(NotationError):
        complete_deck_order([FrenchCard(14, "s"), FrenchCard(14, "s")], french_deck())
