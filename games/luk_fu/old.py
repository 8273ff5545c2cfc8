"""Old cards (古いカード, rules.md §2.6) and the single-card lead restriction (§2.4), as pure functions.

The reference algorithm of §2.6, for both ``old_card_mode`` readings:

* ``knowledge`` — X = (s, r) in P's hand is old if every higher card of s is accounted for by P: in his hand,
  played face up by anyone, discarded face down by P himself, or proven absent from every other active hand
  by the must-beat inference (``caps``: the highest rank of each suit each player may still hold);
* ``public_sequence`` — with T_s the highest card of s not played face up, X is old if X = T_s or if every
  card from X up to T_s was in P's originally dealt hand.

1C, 1T and Li Tyen are always old.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass

from games.core.cards import LUKFU_SUITS, LukFuCard
from games.luk_fu.combos import PERMANENT_OLD

_CARD: dict[tuple[str, int], LukFuCard] = {(s, r): LukFuCard(r, s) for s in LUKFU_SUITS for r in range(1, 10)}


def top_unplayed(suit: str, faceup: Collection[LukFuCard]) -> int:
    """T_s: the rank of the highest card of ``suit`` not played face up this hand (0 if all were)."""
    for rank in range(9, 0, -1):
        if _CARD[suit, rank] not in faceup:
            return rank
    return 0


def is_old(
    card: LukFuCard,
    *,
    mode: str,
    hand: Collection[LukFuCard],
    faceup: Collection[LukFuCard],
    own_discards: Collection[LukFuCard],
    dealt: Collection[LukFuCard],
    other_caps: Sequence[Sequence[int]],
) -> bool:
    """Whether ``card`` (in the leader's hand) is old for him now.

    ``other_caps``: for each other active player, the highest rank per suit (C, S, M, T) he may still hold.
    """
    if card in PERMANENT_OLD:
        return True
    suit, rank = card.suit, card.rank
    if mode == "knowledge":
        s = LUKFU_SUITS.index(suit)
        for h in range(rank + 1, 10):
            higher = _CARD[suit, h]
            if higher in hand or higher in faceup or higher in own_discards:
                continue
            if all(h > caps[s] for caps in other_caps):
                continue
            return False
        return True
    top = top_unplayed(suit, faceup)
    if rank == top:
        return True
    return all(_CARD[suit, k] in dealt for k in range(rank, top + 1))


def old_in_hand(
    hand: Collection[LukFuCard],
    *,
    mode: str,
    faceup: Collection[LukFuCard],
    own_discards: Collection[LukFuCard],
    dealt: Collection[LukFuCard],
    other_caps: Sequence[Sequence[int]],
) -> set[LukFuCard]:
    """Every old card of ``hand`` at once: what :func:`is_old` says card by card, one pass per suit."""
    old = {c for c in hand if c in PERMANENT_OLD}
    for s, suit in enumerate(LUKFU_SUITS):
        if mode == "knowledge":
            # Walking down from the 9: a card is old while every card above it is accounted for.
            established = True
            for rank in range(9, 0, -1):
                card = _CARD[suit, rank]
                held = card in hand
                if held and established:
                    old.add(card)
                if not (held or card in faceup or card in own_discards or all(rank > c[s] for c in other_caps)):
                    established = False
                    if not any(_CARD[suit, r] in hand for r in range(1, rank)):
                        break
        else:
            # From T_s down: old while every card from T_s down to it was dealt to this player.
            for rank in range(top_unplayed(suit, faceup), 0, -1):
                card = _CARD[suit, rank]
                if card in hand:
                    old.add(card)
                if card not in dealt:
                    break
    return old


@dataclass(frozen=True)
class SingleLeads:
    """Which single cards a leader may lead, and why the others are refused."""

    allowed: tuple[LukFuCard, ...]
    forbidden: tuple[tuple[LukFuCard, str], ...]
    """Each refused card with its reason: ``old`` or ``wrong_suit``."""
    exempt: str | None
    """``declarer`` / ``only_old`` when the leader is exempt from the restriction, else None."""
    suit: str | None
    """The suit a restricted single must come from (None when exempt or when any suit will do)."""


def single_leads(
    hand: Sequence[LukFuCard],
    old: Collection[LukFuCard],
    *,
    is_declarer: bool,
    exempt_declarer: bool,
    exempt_only_old: bool,
    highest_suit: bool,
) -> SingleLeads:
    """The restriction of §2.4: no old card, and only the highest suit among non-old cards (unless exempt)."""
    if exempt_declarer and is_declarer:
        return SingleLeads(tuple(hand), (), "declarer", None)
    if exempt_only_old and all(c in old for c in hand):
        return SingleLeads(tuple(hand), (), "only_old", None)
    nonold = [c for c in hand if c not in old]
    suit: str | None = None
    if highest_suit and nonold:
        suit = max((c.suit for c in nonold), key=LUKFU_SUITS.index)
    allowed: list[LukFuCard] = []
    forbidden: list[tuple[LukFuCard, str]] = []
    for c in hand:
        if c in old:
            forbidden.append((c, "old"))
        elif suit is not None and c.suit != suit:
            forbidden.append((c, "wrong_suit"))
        else:
            allowed.append(c)
    return SingleLeads(tuple(allowed), tuple(forbidden), None, suit)
