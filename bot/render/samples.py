"""The table view the render workers warm up with (:func:`bot.render.runner.warm_up`): ten seats, every child betting
on every pile, display names in many scripts and widths, so that the first real table finds its fonts and glyphs
loaded. The render tests and benchmarks use it too; their other sample views are in ``tests/bot/render/samples.py``.
"""

from __future__ import annotations

from games.core.cards import KabuCard
from games.oicho.views import (
    DealerDrawView,
    DealerHandView,
    HandView,
    OichoPublicView,
    PileView,
    TenureView,
)

BUSY_NAMES = [
    "Dealer-san 親分",
    "たろう🎴",
    "A very long display name that never ends at all",
    "花子 Hanako",
    "李小龍",
    "Zoë ✨✨✨",
    "ｆｕｌｌｗｉｄｔｈ　ｎａｍｅ",
    "Bob",
    "さくらさくらさくらさくらさくら",
    "🙂🙂🙂",
]


def _k(month: int, copy: int = 0) -> KabuCard:
    return KabuCard(month, copy)


def _plain(cards: tuple[KabuCard, ...]) -> HandView:
    return HandView(points=sum(c.points for c in cards) % 10, tier=0, kind="plain", multiplier=1)


def busy_oicho_view(phase: str = "round_over") -> OichoPublicView:
    """Ten seats, every child betting on every pile; at the showdown unless ``phase`` says otherwise."""
    seats = 10
    bets_by_pile = []
    for p in range(4):
        bets = tuple((seat, 1 + (seat * 3 + p) % 9) for seat in range(1, seats))
        bets_by_pile.append(bets)
    showdown = phase in ("round_over", "game_over")
    pile_cards = ((_k(3), _k(5)), (_k(8), _k(7), _k(7, 1)), (_k(10), _k(10, 1), _k(10, 2)), (_k(5, 2), _k(1)))
    outcomes = ("pile", "dealer", "pile", "push")
    piles = []
    for i, cards in enumerate(pile_cards):
        bets = bets_by_pile[i]
        kind_hand = _plain(cards)
        if i == 2:
            kind_hand = HandView(points=0, tier=3, kind="arashi", multiplier=3)
        shown: tuple[KabuCard | None, ...] = cards if showdown else (cards[0], None)
        piles.append(
            PileView(
                number=i + 1,
                cards=shown,
                face_down_first_extra=True,
                bets=bets,
                total=sum(a for _, a in bets),
                decider=bets[0][0],
                decided=showdown,
                hand=kind_hand if showdown else None,
                outcome=outcomes[i] if showdown else None,
                multiplier=(1, 1, 3, 0)[i] if showdown else 0,
            )
        )
    dealer_cards = (_k(4), _k(2))
    dealer_hand = DealerHandView(
        cards=dealer_cards if showdown else (None, None),
        hand=_plain(dealer_cards) if showdown else None,
    )
    cap_used = sum(p.total for p in piles)
    deltas = (-10, 5, -3, 8, 1, -6, 9, -2, 4, -6) if showdown else None
    return OichoPublicView(
        phase=phase,  # type: ignore[arg-type]
        round_no=12,
        seats=seats,
        dealer=0,
        stacks=(1234, 87, 100, 250, 3, 0, 99999, 42, 100, 100),
        active=(True, True, True, True, True, False, True, True, True, True),
        cap=cap_used + 20,
        cap_used=cap_used,
        cap_left=20,
        piles=(piles[0], piles[1], piles[2], piles[3]),
        current_pile=2 if phase == "deciding" else None,
        to_act=() if showdown else ((0,) if phase == "dealer" else (piles[1].decider or 1,)),
        betting_seat=None,
        betting_order=tuple(range(1, seats)),
        dealer_hand=dealer_hand,
        maki_fuda=(_k(2, 1), _k(6, 1), _k(9, 2), _k(5, 1)),  # まき札: out of this round
        tenure=TenureView(dealer=0, rounds_held=2, rounds_limit=3, net=-14, tenures_held=(0,) * seats),
        dealer_draw=DealerDrawView(passes=(((0, 1), (1, 3)),), first_dealer=0),
        last_result=None,
        last_deltas=deltas,
        game_over=phase == "game_over",
        winners=(6,) if phase == "game_over" else (),
    )
