"""A street's placements: every assignment of its cards within the rows' room (and the discards due), made in
canonical order without sorting, and the cheap check the panel asks of a partial placement."""

from __future__ import annotations

import itertools

from hypothesis import given, settings
from hypothesis import strategies as st

from games.core.cards import french_deck
from games.ofc.actions import TARGETS, Place, street_completable, street_placements

DECK = french_deck()


@st.composite
def streets(draw: st.DrawFn) -> tuple[tuple, tuple[int, int, int], int]:
    cards = tuple(draw(st.lists(st.sampled_from(DECK), min_size=1, max_size=5, unique=True)))
    free = (draw(st.integers(0, 3)), draw(st.integers(0, 5)), draw(st.integers(0, 5)))
    return cards, free, draw(st.integers(0, 1))


@given(streets())
@settings(max_examples=200)
def test_placements_are_exactly_the_assignments_within_the_room_each_canonical(
    street: tuple[tuple, tuple[int, int, int], int],
) -> None:
    cards, free, discard = street
    made = street_placements(cards, free, discard)
    expected = set()
    for targets in itertools.product(TARGETS, repeat=len(cards)):
        counts = [targets.count(t) for t in TARGETS]
        if counts[0] <= free[0] and counts[1] <= free[1] and counts[2] <= free[2] and counts[3] == discard:
            expected.add(Place(tuple(zip(cards, targets, strict=True))))
    assert set(made) == expected and len(made) == len(expected)
    for place in made:  # made without the sorting constructor, yet the same as made with it
        assert Place(place.items).items == place.items and place.text == Place(place.items).text


@given(streets(), st.data())
@settings(max_examples=200)
def test_a_partial_placement_is_completable_exactly_when_some_placement_agrees(
    street: tuple[tuple, tuple[int, int, int], int], data: st.DataObject
) -> None:
    cards, free, discard = street
    options = [dict(p.items) for p in street_placements(cards, free, discard)]
    chosen = data.draw(st.lists(st.sampled_from(cards), unique=True))
    partial = {card: data.draw(st.sampled_from(TARGETS)) for card in chosen}
    agrees = any(all(o.get(c) == t for c, t in partial.items()) for o in options)
    assert street_completable(cards, free, discard, partial) == agrees


def test_a_card_not_of_the_street_is_never_completable() -> None:
    cards = tuple(DECK[:3])
    assert not street_completable(cards, (3, 5, 5), 0, {DECK[10]: "front"})
