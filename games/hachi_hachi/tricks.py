"""Trick play (rules.md §3.2 step 7) as pure functions: must follow suit, trumps win, Ace high."""

from __future__ import annotations

from collections.abc import Sequence

from games.core.cards import FrenchCard


def legal_cards(hand: Sequence[FrenchCard], led_suit: str | None) -> list[FrenchCard]:
    """The cards ``hand`` may play: any card when leading or void in the led suit, else one of the led suit."""
    if led_suit is not None:
        following = [c for c in hand if c.suit == led_suit]
        if following:
            return following
    return list(hand)


def winning_index(cards: Sequence[FrenchCard], trump: str) -> int:
    """Which of a trick's cards (lead first) wins: the highest trump, or else the highest card of the led suit."""
    led = cards[0].suit
    best = 0
    for i, card in enumerate(cards[1:], start=1):
        top = cards[best]
        if card.suit == top.suit:
            if card.rank > top.rank:
                best = i
        elif card.suit == trump:
            best = i
        # a card of another suit (not trump, or trump after a higher trump) cannot win
    assert cards[best].suit in (led, trump)
    return best


def next_in(order: Sequence[int], seat: int) -> int:
    """The seat after ``seat`` in the cyclic playing order ``order``."""
    i = order.index(seat)
    return order[(i + 1) % len(order)]
