"""The Hachi-Hachi Trick guide (rules.md §3): the turned card and the field, play or fold, forced out, the hand
table, split or fight, the tricks, Mizuten.

Seats in every picture: {p0} (seat 0, P1 of rules.md's examples) is the start player (SP); declarations go
clockwise, to {p1}, {p2} … in seat order.
"""

from __future__ import annotations

from typing import Any

from bot.howto.glossary import glossary_topic
from bot.howto.model import Guide, PageDef, TopicDef, Writer, play, scene_rules, seat_names, stacked
from games.core.cards import FrenchCard, french_deck, notation, parse_french
from games.hachi_hachi.actions import CODEC
from games.hachi_hachi.engine import HachiHachiEngine
from games.hachi_hachi.results import RoundResult
from games.hachi_hachi.rules import COMBINATION_KEYS, WEAK_KEYS, HachiHachiRules

P1, P2, P3, P4, P5, P6 = range(6)

# ---------------------------------------------------------------------------- rounds (rules.md §3.5)

HH2 = {P2: "2s 3s 2h 3h 4d 5d 9c", P4: "As Ks 4h 5h Ad Kd 8c", P5: "4s 5s Kh 9h 6d 7d 6c"}
"""rules.md HH-2, five players, 7♣ turned (M = 1): P2's Karasu (4), P4 nothing, P5's Toichi (2)."""
HH2_TRICKS = ("2s As 4s", "Ks 5s 3s", "4h Kh 2h", "9h 3h 5h", "6d 4d Ad", "Kd 7d 5d", "8c 6c 9c")
HH2_DECLARERS = (P2, P4, P5)
HH3 = {
    P1: "Ks Qs 3d 4d Ac 2c 4h",
    P3: "3s 4s Ad Kd Qc 3c 6h",
    P4: "Js Ts 5d 6d 5c 6c Qh",
    P5: "As Ah 7d 7c 7s 2d 5h",
    P6: "Kc Qd 9h 6s 4c 3h 2s",
}
"""rules.md HH-3, six players, K♥ turned (Zetsuba): P5 (Emi) is forced out with a full house and two Aces."""
HH3_TRICKS = ("Ks 3s Js", "Qs 4s Ts", "3d Ad 5d", "Kd 6d 4d", "3c 5c Ac", "2c Qc 6c", "6h Qh 4h")
HH3_DECLARERS = (P1, P3, P4)
HH4 = {P1: "8s 8h 8d 4c 4d Kc Kd", P2: "As Kh 2c 5d 9s Jd 7h", P3: "Jc Jh Js 3s 3h Ah 6c"}
"""rules.md HH-4, three players, Q♠ turned (Ōba): Haneken 7, nothing, a full house 4."""
HH5 = {P2: "As Ks Ah 2h 3d 4d 2c", P4: "3s 4s Kh Qh Ad Kd 3c"}
"""rules.md HH-5, four players: P1 and P3 fold, P2 and P4 play, and choose split or fight."""
HH7 = {P1: "As Ks 2h 6h 3d 8d Ac", P2: "4s 5s Ah Kh 4d 9d 2c", P4: "8s 9s 3h 5h Ad Kd 3c"}
"""rules.md HH-7, four players: P1 declares Mizuten and takes three tricks with two others playing."""
HH7_TRICKS = ("As 4s 8s", "Ks 5s 9s", "2h Ah 3h", "Kh 5h 6h", "4d Ad 3d", "Kd 8d 9d", "3c Ac 2c")
HH7_DECLARERS = (P1, P2, P4)


def round_order(hands: dict[int, str], seats: int, indicator: str) -> str:
    """One round's pack: each player's 7 cards clockwise from the SP ({p0}), then the turned card. Hands not given
    (folders') are filled from the unused cards in the pack's order."""
    given = {s: parse_french(t) for s, t in hands.items()}
    turned = FrenchCard.parse(indicator)
    used = [c for cards in given.values() for c in cards] + [turned]
    assert len(set(used)) == len(used), "a card is given twice"
    remaining = [c for c in french_deck() if c not in used]
    out: list[FrenchCard] = []
    for seat in range(seats):
        cards = list(given.get(seat, []))
        while len(cards) < 7:
            cards.append(remaining.pop(0))
        out += cards
    return notation([*out, turned])


def table(rules: HachiHachiRules, hands: dict[int, str], seats: int, indicator: str) -> HachiHachiEngine:
    """{p0} draws A♠ for the first start player; the first round is stacked."""
    stacks = [rules.starting_chips] * seats
    return HachiHachiEngine(rules, stacks, stacked("As", round_order(hands, seats, indicator)))


def begin(engine: HachiHachiEngine, mizuten: bool = False) -> HachiHachiEngine:
    """The SP's Mizuten question, when the server plays Mizuten."""
    if engine.phase == "mizuten":
        play(engine, CODEC, (engine.sp, "mizuten" if mizuten else "no-mizuten"))
    return engine


def declare(engine: HachiHachiEngine, *calls: str) -> HachiHachiEngine:
    """Play or fold, each said by the seat to speak; the calls stop when the declarations end (the rules may force
    the last players out sooner)."""
    for call in calls:
        if engine.phase != "declare":
            break
        (seat,) = engine.to_act()
        play(engine, CODEC, (seat, call))
    return engine


def tricks(engine: HachiHachiEngine, declarers: tuple[int, ...], plays: tuple[str, ...]) -> HachiHachiEngine:
    """Tricks written as rules.md writes them, clockwise from the trick's leader; each card is played by its own
    declarer whenever the server's trick direction makes it his turn."""
    for trick in plays:
        if engine.phase != "trick":
            break
        (leader,) = engine.to_act()
        clockwise = sorted(declarers, key=lambda s: (s - leader) % engine.seats)
        cards = dict(zip(clockwise, trick.split(), strict=True))
        while cards and engine.phase == "trick":
            (seat,) = engine.to_act()
            play(engine, CODEC, (seat, f"card {cards.pop(seat)}"))
    return engine


# ---------------------------------------------------------------------------- scenes


def declaring_scene(rules: Any) -> HachiHachiEngine:
    """rules.md HH-2: {p0} folded, {p1} plays, {p2} folded; {p3} speaks."""
    return declare(begin(table(rules, HH2, 5, "7c")), "fold", "play", "fold")


def field_scene(rules: Any) -> HachiHachiEngine:
    """rules.md HH-3: K♥ is turned; {p0} is the first to declare."""
    return begin(table(rules, HH3, 6, "Kh"))


def forced_scene(rules: Any) -> HachiHachiEngine:
    """rules.md HH-3: {p0} plays, {p1} folds, {p2} and {p3} play; {p4} and {p5} are forced out and show their hands."""
    return declare(begin(table(rules, HH3, 6, "Kh")), "play", "fold", "play", "play", "play", "play")


def hands_scene(rules: Any) -> HachiHachiEngine:
    """rules.md HH-4: all three play under Q♠ (Ōba) and show their hands."""
    return declare(begin(table(rules, HH4, 3, "Qs")), "play", "play", "play")


def choose_scene(rules: Any) -> HachiHachiEngine:
    """rules.md HH-5: two declarers, {p1} and {p3}, choose split or fight in secret."""
    return declare(begin(table(rules, HH5, 4, "7c")), "fold", "play", "fold", "play")


def trick_scene(rules: Any) -> HachiHachiEngine:
    """rules.md HH-3 in trick play: two tricks to {p0}; {p0} has led 3♦ to the third."""
    engine = tricks(forced_scene(rules), HH3_DECLARERS, HH3_TRICKS[:2])
    (leader,) = engine.to_act()
    return play(engine, CODEC, (leader, "card 3d"))  # type: ignore[return-value]


def round_end_scene(rules: Any) -> HachiHachiEngine:
    """rules.md HH-2 played to its seventh trick: {p3} took four tricks and the pot; the next round is dealt."""
    engine = declare(begin(table(rules, HH2, 5, "7c")), "fold", "play", "fold", "play", "play")
    return tricks(engine, HH2_DECLARERS, HH2_TRICKS)


def mizuten_scene(rules: Any) -> HachiHachiEngine:
    """rules.md HH-7: {p0} declares Mizuten before the deal, plays with {p1} and {p3}, and takes three tricks."""
    engine = declare(begin(table(rules, HH7, 4, "7c"), mizuten=True), "play", "play", "fold", "play")
    return tricks(engine, HH7_DECLARERS, HH7_TRICKS)


def last_round(engine: HachiHachiEngine) -> RoundResult:
    detail = engine.results[-1].detail
    assert isinstance(detail, RoundResult)
    return detail


# ---------------------------------------------------------------------------- texts that read the rules


def basics_body(w: Writer) -> str:
    return w.t("basics_body", rounds=w.rules.rounds)


def _ranks(ranks: frozenset[str], w: Writer) -> str:
    return ", ".join(r for r in ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A") if r in ranks) or (
        w.t("none")
    )


def field_body(w: Writer) -> str:
    r = w.rules
    field, m = r.field_of(13)
    fees = w.t("field_fees_on" if r.mult_applies_to_fold_fees else "field_fees_off")
    return w.t(
        "field_body",
        oba=_ranks(r.oba_ranks, w),
        oba_m=r.oba_mult,
        zetsuba=_ranks(r.zetsuba_ranks, w),
        zetsuba_m=r.zetsuba_mult,
        fees=fees,
        king=w.t(f"field_name_{field}"),
        m=m,
    )


DECLARE_RULES = ("fold_fee_first", "fold_fee_step", "max_declarers", "mult_applies_to_fold_fees")


def declare_body(w: Writer) -> str:
    r = w.rules
    fees = [r.fold_fee_first + k * r.fold_fee_step for k in range(3)]
    engine = forced_scene(scene_rules(r, DECLARE_RULES))
    v = engine.public_view()
    names = seat_names(w.lang)
    said = []
    for seat, call in v.declarations:
        if call == "play":
            said.append(w.t("said_play", name=names[seat]))
        elif call == "fold":
            said.append(w.t("said_fold", name=names[seat], fee=v.fees[seat]))
    forced = w.join([names[s] for s in v.forced_out])
    picture = w.t("declare_picture", m=engine.mult, said=w.join(said), forced=forced)
    return w.t(
        "declare_body",
        first=fees[0],
        second=fees[1],
        third=fees[2],
        most=r.max_declarers,
        fees=w.t("field_fees_on" if r.mult_applies_to_fold_fees else "field_fees_off"),
        picture=picture,
    )


def forced_body(w: Writer) -> str:
    r = w.rules
    engine = forced_scene(scene_rules(r, ("forced_out_ace_value",)))
    emi = next(v for v in engine.public_view().reveals if v.seat == P5)
    return w.t(
        "forced_body",
        ace=r.forced_out_ace_value,
        total=emi.forced_out,
        m=engine.mult,
        each=emi.forced_out * engine.mult,
        all=emi.forced_out * engine.mult * len(engine.declarers),
    )


def table_body(w: Writer) -> str:
    table = w.rules.yaku_table
    lines = []
    for key in (*COMBINATION_KEYS, *WEAK_KEYS):
        row = table.row(key)
        name = w.t(f"yaku_{key}")
        state = f"{row.normal:>3} {row.forced_out:>3}" if row.enabled else w.t("yaku_off")
        lines.append(f"{state}  {name}")
        if key == COMBINATION_KEYS[-1]:
            lines.append("")
    return w.t("table_body", table="\n".join(lines))


def hands_body(w: Writer) -> str:
    engine = hands_scene(scene_rules(w.rules, ("yaku_table",)))
    v = engine.public_view()
    values = {r.seat: r.normal for r in v.reveals}
    names = seat_names(w.lang)
    paid = {(p.payer, p.payee): p.amount for p in engine.payments if p.kind == "hand"}
    lines = [w.t("hands_pay", payer=names[a], payee=names[b], amount=amount) for (a, b), amount in sorted(paid.items())]
    return w.t(
        "hands_body",
        a=values[P1],
        b=values[P2],
        c=values[P3],
        m=engine.mult,
        payments="\n".join(lines) or w.t("hands_no_pay"),
    )


def choose_body(w: Writer) -> str:
    r = w.rules
    void = w.t(f"choose_void_{r.void_pot}")
    counts = w.t("choose_counts_on" if r.void_round_counts else "choose_counts_off")
    if not r.two_player_split_allowed:
        two = w.t("choose_two_off")
    else:
        two = w.t("choose_two_on", hands=w.t("choose_hands_on" if r.split_settles_hands else "choose_hands_off"))
    picture = w.t("choose_picture_on" if r.two_player_split_allowed else "choose_picture_off")
    return w.t("choose_body", void=void, counts=counts, two=two, picture=picture)


def tricks_body(w: Writer) -> str:
    r = w.rules
    return w.t("tricks_body", direction=w.t(f"tricks_direction_{r.trick_direction}"))


def settle_body(w: Writer) -> str:
    r = w.rules
    engine = round_end_scene(scene_rules(r, ("trick_rate",)))
    result = last_round(engine)
    names = seat_names(w.lang)
    net: dict[int, int] = {}
    for p in result.payments:
        if p.kind == "trick":
            net[p.payee] = net.get(p.payee, 0) + p.amount
            net[p.payer] = net.get(p.payer, 0) - p.amount
    assert result.tricks is not None and result.pot_to
    return w.t(
        "settle_body",
        rate=r.trick_rate,
        b=result.tricks[P2],
        d=result.tricks[P4],
        e=result.tricks[P5],
        bt=f"{net.get(P2, 0):+d}",
        dt=f"{net.get(P4, 0):+d}",
        et=f"{net.get(P5, 0):+d}",
        pot=sum(s.amount for s in result.pot_to),
        taker=names[result.pot_to[0].seat],
    )


MIZUTEN_RULES = ("mizuten_enabled", "mizuten_min_tricks", "mizuten_bonus")


def mizuten_body(w: Writer) -> str:
    r = w.rules
    if not r.mizuten_enabled:
        return w.t("mizuten_body_off")
    result = last_round(mizuten_scene(scene_rules(r, MIZUTEN_RULES)))
    assert result.tricks is not None
    picture = w.t(
        "mizuten_picture_paid" if result.mizuten_paid else "mizuten_picture_unpaid",
        tricks=result.tricks[P1],
        need=r.mizuten_min_tricks,
        bonus=r.mizuten_bonus * result.mult,
    )
    return w.t("mizuten_body", need=r.mizuten_min_tricks, bonus=r.mizuten_bonus, picture=picture)


# ---------------------------------------------------------------------------- the guide

GUIDE = Guide(
    "hachi_hachi",
    (
        TopicDef("basics", "🎴", (PageDef("basics", ("rounds",), declaring_scene, basics_body),)),
        TopicDef(
            "field",
            "🂮",
            (
                PageDef(
                    "field",
                    ("oba_ranks", "oba_mult", "zetsuba_ranks", "zetsuba_mult", "mult_applies_to_fold_fees"),
                    field_scene,
                    field_body,
                ),
            ),
        ),
        TopicDef(
            "declare",
            "🙋",
            (
                PageDef("declare", DECLARE_RULES, forced_scene, declare_body),
                PageDef("forced", ("forced_out_ace_value",), forced_scene, forced_body),
            ),
        ),
        TopicDef(
            "hands",
            "🏅",
            (
                PageDef("table", ("yaku_table",), None, table_body),
                PageDef("hands", ("yaku_table",), hands_scene, hands_body),
            ),
        ),
        TopicDef(
            "split_or_fight",
            "🤝",
            (
                PageDef(
                    "choose",
                    ("two_player_split_allowed", "split_settles_hands", "void_pot", "void_round_counts"),
                    choose_scene,
                    choose_body,
                ),
            ),
        ),
        TopicDef(
            "tricks",
            "🃏",
            (
                PageDef("tricks", ("trick_direction",), trick_scene, tricks_body),
                PageDef("settle", ("trick_rate",), round_end_scene, settle_body),
            ),
        ),
        TopicDef("mizuten", "👁️", (PageDef("mizuten", MIZUTEN_RULES, mizuten_scene, mizuten_body),)),
        glossary_topic("hachi_hachi"),
    ),
)
