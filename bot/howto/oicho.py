"""The Oicho-Kabu guide (rules.md §1): the round, totals, betting, drawing, the showdown, local hands, the tenure.

Seats in every picture: {p0} (seat 0) is the dealer, {p1}, {p2}, {p3} the children, betting in that order.
"""

from __future__ import annotations

from typing import Any

from bot.howto.glossary import glossary_topic
from bot.howto.model import Guide, PageDef, TopicDef, Writer, play, stacked
from games.oicho.actions import CODEC
from games.oicho.engine import OichoEngine
from games.oicho.hands import max_child_multiplier
from games.oicho.rules import YAKU_KEYS, OichoRules

# ---------------------------------------------------------------------------- scenes

PLAIN_ROUND = "3 7 10 5 4 2 6 10 1 3 9 4 3"
"""rules.md OK-2: piles 3 7 10 5, the dealer's own 4; first extras 2 6 10 1; P1 (5) draws 3 by choice, P2 (3) draws
9 and P3 (0) draws 4 by force; P4 (6, no bets) is left to P3's decider; the dealer's extra 3 (total 7)."""
TIE_ROUND = "3 7 10 5 4 2 6 10 2 3 9 4 3"
"""As :data:`PLAIN_ROUND`, but P4's first extra is 2: 5 + 2 = 7, which may not draw, against the dealer's 7."""
ARASHI_KUPPIN = "3 7 5 8 9 3 1 2 10 3 1"
"""rules.md OK-4: piles 3 7 5 8, the dealer's own 9; first extras 3 1 2 10; P1 draws 3 (3-3-3, Arashi); the
dealer's extra 1 (9-1, Kuppin)."""
NOBORI = "5 7 8 9 4 6 10 10 10 7 5"
"""rules.md OK-8: P1 5, then 6 (11, so it must draw), then 7: 5-6-7; the dealer 4 and 5, a plain 9."""
MAKI_FUDA = "2 6 9 5"
"""The four information cards turned up first when the server plays with maki-fuda (まき札)."""


def table(rules: OichoRules, seats: int, deal: str) -> OichoEngine:
    """{p0} deals (the first-dealer draw gives seat 0 the lowest month); the dealer's stack covers the server's
    whole bank cap, so the picture shows the cap the house rule sets."""
    draw = " ".join(str(m) for m in range(1, seats + 1))
    if rules.maki_fuda:
        deal = f"{MAKI_FUDA} {deal}"
    stacks = [100] * seats
    stacks[0] = max(100, rules.bank_cap * max_child_multiplier(rules))
    return OichoEngine(rules, stacks, stacked(draw, deal))


def share(engine: OichoEngine, tenths: int) -> int:
    """A bet of ``tenths`` tenths of the round's cap, within what the seat to bet may still add."""
    (seat,) = engine.to_act()
    return max(1, min(engine.cap * tenths // 10, engine.bet_max(seat)))


def bets(engine: OichoEngine, *plan: tuple[int, int, int]) -> OichoEngine:
    """``(seat, pile, tenths of the cap)`` bets, each seat ending its turn after its last bet; a seat the cap has
    already shut out is skipped, as the engine skips it."""
    seats: list[int] = []
    for seat, _, _ in plan:
        if seat not in seats:
            seats.append(seat)
    for seat in seats:
        if engine.phase != "betting" or seat not in engine.to_act():
            continue
        for who, pile, tenths in plan:
            if who == seat and engine.bet_max(seat) >= 1:
                play(engine, CODEC, (seat, f"bet {pile} {share(engine, tenths)}"))
        play(engine, CODEC, (seat, "done"))
    return engine


PLAIN_BETS = ((1, 1, 2), (2, 1, 2), (2, 2, 1), (3, 3, 4))


def betting_scene(rules: Any) -> OichoEngine:
    """{p1} and {p2} have bet; {p3}'s turn, with the cap's bar showing what is left."""
    engine = table(rules, 4, PLAIN_ROUND)
    return bets(engine, (1, 1, 3), (2, 2, 5))


def layout_scene(rules: Any) -> OichoEngine:
    """The four piles face up, the dealer's own card face down, every child's bets placed."""
    engine = table(rules, 4, PLAIN_ROUND)
    bets(engine, (1, 1, 2), (2, 1, 2), (2, 2, 1))
    return engine


def deciding_scene(rules: Any) -> OichoEngine:
    """P1 drawn by {p1}'s choice, P2 and P3 drawn by force, P4 (no bets) waiting for {p3}."""
    engine = bets(table(rules, 4, PLAIN_ROUND), *PLAIN_BETS)
    return _decide(engine, "draw")


def _decide(engine: OichoEngine, *choices: str) -> OichoEngine:
    """The piles' free choices in order (forced draws and stands happen by themselves)."""
    for choice in choices:
        if engine.phase == "deciding":
            (seat,) = engine.to_act()
            play(engine, CODEC, (seat, choice))
    return engine


def dealer_scene(rules: Any) -> OichoEngine:
    """Every pile is complete; the dealer has taken his compulsory card and may take one more."""
    engine = _decide(bets(table(rules, 4, PLAIN_ROUND), *PLAIN_BETS), "draw", "stand")
    return engine


def showdown_scene(rules: Any) -> OichoEngine:
    """The plain round settled: P1 8 beats the dealer's 7, P2 and P3 lose to it, P4 had no bets."""
    engine = dealer_scene(rules)
    if engine.phase == "dealer":
        play(engine, CODEC, (0, "stand"))
    return engine


def payments_scene(rules: Any) -> OichoEngine:
    """As the plain round, with a bet on P4, which stands on 7 against the dealer's 7: a tie."""
    engine = bets(table(rules, 4, TIE_ROUND), (1, 1, 2), (2, 1, 2), (2, 2, 1), (3, 3, 3), (3, 4, 1))
    _decide(engine, "draw")
    if engine.phase == "dealer":
        play(engine, CODEC, (0, "stand"))
    return engine


def arashi_scene(rules: Any) -> OichoEngine:
    """rules.md OK-4: {p1}'s 3-3-3 Arashi against the dealer's Kuppin (9-1); {p2}'s plain 8 loses to it."""
    engine = bets(table(rules, 3, ARASHI_KUPPIN), (1, 1, 2), (2, 2, 2))
    _decide(engine, "draw")
    if engine.phase == "dealer":
        play(engine, CODEC, (0, "stand"))
    return engine


def nobori_scene(rules: Any) -> OichoEngine:
    """rules.md OK-8: {p1}'s 5-6-7 (Nobori when the server plays it) against the dealer's plain 9."""
    engine = bets(table(rules, 2, NOBORI), (1, 1, 2))
    _decide(engine, "stand")
    if engine.phase == "dealer":
        play(engine, CODEC, (0, "stand"))
    return engine


# ---------------------------------------------------------------------------- texts that read the rules


def totals_body(w: Writer) -> str:
    names = "\n".join(w.t(f"total_{n}") for n in range(10))
    extra = w.t("totals_months_12") if w.rules.use_months_11_12 else w.t("totals_months_10")
    return w.t("totals_body", names=names, extra=extra)


def basics_body(w: Writer) -> str:
    maki = w.t("basics_maki_on") if w.rules.maki_fuda else w.t("basics_maki_off")
    return w.t("basics_body", maki=maki)


def betting_body(w: Writer) -> str:
    m = max_child_multiplier(w.rules)
    return w.t("betting_body", cap=w.rules.bank_cap, m=m, stack=w.rules.bank_cap * m)


def drawing_body(w: Writer) -> str:
    seen = w.t(f"drawing_seen_{w.rules.first_extra_visibility}")
    stand = w.t("drawing_yaku_stand_on" if w.rules.yaku_may_stand else "drawing_yaku_stand_off")
    return w.t("drawing_body", seen=seen, stand=stand)


def hands_body(w: Writer) -> str:
    r = w.rules
    order = w.t("hands_strict_on" if r.kuppin_shippin_strict_order else "hands_strict_off")
    return w.t("hands_body", arashi=r.arashi_multiplier, kuppin=r.kuppin_shippin_multiplier, order=order)


def payments_body(w: Writer) -> str:
    tie = w.t("payments_tie_dealer" if w.rules.tie_goes_to_dealer else "payments_tie_push")
    return w.t("payments_body", tie=tie)


def local_body(w: Writer) -> str:
    lines = []
    for key in YAKU_KEYS:
        option = w.rules.yaku(key)
        if option.enabled:
            strict = getattr(option, "strict_order", False)
            state = w.t(
                "local_on",
                mult=option.multiplier,
                scope=w.t(f"local_scope_{option.scope}"),
                order=w.t("local_strict") if strict else "",
            )
        else:
            state = w.t("local_off")
        lines.append(w.t("local_line", name=w.t(f"local_{key}"), state=state))
    stand = w.t("drawing_yaku_stand_on" if w.rules.yaku_may_stand else "drawing_yaku_stand_off")
    return w.t("local_body", lines="\n".join(lines), stand=stand)


def tenure_body(w: Writer) -> str:
    r = w.rules
    bust = w.t("tenure_bust_on", cap=r.bank_cap) if r.dealer_bust_ends_tenure else w.t("tenure_bust_off")
    resign = w.t("tenure_resign_on" if r.dealer_may_resign else "tenure_resign_off")
    return w.t("tenure_body", rounds=r.dealer_rounds, bust=bust, resign=resign, cycles=r.dealer_cycles)


# ---------------------------------------------------------------------------- the guide

GUIDE = Guide(
    "oicho",
    (
        TopicDef("basics", "🎴", (PageDef("basics", ("maki_fuda",), layout_scene, basics_body),)),
        TopicDef("totals", "🔢", (PageDef("totals", ("use_months_11_12",), showdown_scene, totals_body),)),
        TopicDef("betting", "💰", (PageDef("betting", ("bank_cap",), betting_scene, betting_body),)),
        TopicDef(
            "drawing",
            "🃏",
            (
                PageDef("drawing", ("first_extra_visibility", "yaku_may_stand"), deciding_scene, drawing_body),
                PageDef("dealer_hand", (), dealer_scene),
            ),
        ),
        TopicDef(
            "showdown",
            "🏆",
            (
                PageDef(
                    "hands",
                    ("arashi_multiplier", "kuppin_shippin_multiplier", "kuppin_shippin_strict_order"),
                    arashi_scene,
                    hands_body,
                ),
                PageDef("payments", ("tie_goes_to_dealer",), payments_scene, payments_body),
            ),
        ),
        TopicDef("local_hands", "🌸", (PageDef("local", ("local_yaku", "yaku_may_stand"), nobori_scene, local_body),)),
        TopicDef(
            "dealer",
            "🔄",
            (
                PageDef(
                    "tenure",
                    ("dealer_rounds", "dealer_bust_ends_tenure", "dealer_may_resign", "dealer_cycles"),
                    showdown_scene,
                    tenure_body,
                ),
            ),
        ),
        glossary_topic("oicho"),
    ),
)
