"""The OFC guide (rules.md §4): rows, the four variants, placing, hand ranking, fouls, scoring and the scoop,
royalties, Fantasyland, the dealer and the end.

Two seats in every picture (four when the server starts variants a–c with four players only): {p0} (seat 0) is
the first to place, {p1} (seat 1) deals.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.howto.glossary import glossary_topic
from bot.howto.model import Guide, PageDef, TopicDef, Writer, scene_rules, seat_names, stacked
from bot.i18n import t
from games.core.cards import FrenchCard, french_deck, notation
from games.ofc.actions import Place
from games.ofc.board import ROWS, Board, Row
from games.ofc.engine import OFCEngine
from games.ofc.rules import DEFAULT_BACK, DEFAULT_MIDDLE, OFCRules

AKI, BEN = 0, 1

# ---------------------------------------------------------------------------- boards (rules.md §4.10)

A = Board.parse("Qs Qh 4d / 9c 9d 9h 5s 2c / Ah Kh 8h 6h 3h")
"""rules.md OFC-1: QQ 7 + middle trips 2 + back flush 4 = 13 in royalties; it enters Fantasyland."""
B = Board.parse("Kc 7s 6d / Js Jd 8s 8d 2d / Tc Td Th 4c 4s")
"""rules.md OFC-1: a back full house, 6 in royalties. Against A: the back goes to B, the front and middle to A."""
B_FOUL = Board.parse("Kc 7s 6d / Js Jd 8s 8d 2d / Tc Td 7c 4c 4s")
"""rules.md OFC-2: B with a back of two pair, tens and fours, weaker than its middle: a foul."""
X = Board.parse("6s 6h 2d / 8s 8h 8d 3c 4c / 5h 6d 7c 8c 9d")
"""rules.md OFC-3: wins all three rows against Y (a scoop); royalties 66 1 + trips 2 + straight 2 = 5."""
Y = Board.parse("4s 3h 2c / Ts Th 5s 7d 9c / Js Jh Qd Qc Ks")
C = Board.parse("7d 5h 3s / Jc Jh 6c 6s 2s / Ac Qc 8c 7c 5c")
D = Board.parse("Ks 9s 2h / As Ts 7h 4h 3c / Ad Kd Qd 5d 3d")
"""Two more legal boards, from the cards OFC-1 leaves, for a server that starts variants a–c with four only."""


def seats_for(rules: OFCRules) -> int:
    lo, _hi = rules.seat_range()
    return max(2, lo)


def streets_of(board: Board, sizes: Sequence[int]) -> list[list[tuple[FrenchCard, Row]]]:
    """The board's cards (front, then middle, then back) cut into streets of the given sizes: every street then
    fits its rows, whatever the variant."""
    cards = [(c, r) for r in ROWS for c in board.row(r)]
    out, pos = [], 0
    for n in sizes:
        out.append(cards[pos : pos + n])
        pos += n
    return out


def played(rules: OFCRules, boards: Sequence[Board], placements: int | None = None) -> OFCEngine:
    """A table whose first hand deals these boards street by street, as the server's variant deals (Pineapple
    streets add a card to discard), and whose players place them so, ``placements`` streets in all (None: the whole
    hand). {p1}, the last seat, deals, so {p0} places first."""
    seats = seats_for(rules)
    if seats > len(boards):
        # Only the variants page reads allow_2_3_players, and it deals OFC-1's boards: C and D join them.
        assert list(boards) == [A, B], "a four-seat scene is dealt rules.md OFC-1's boards and two more"
        boards = [A, B, C, D][:seats]
    streets = rules.streets()
    kept = [dealt - discard for dealt, discard in streets]
    cut = [streets_of(b, kept) for b in boards]
    used = {c for b in boards for c in b.cards()}
    spare = [c for c in french_deck() if c not in used]
    order: list[FrenchCard] = []
    moves: list[tuple[int, Place]] = []
    for k, (_dealt, discard) in enumerate(streets):
        for seat in range(seats):
            thrown = [spare.pop() for _ in range(discard)]
            order += [c for c, _ in cut[seat][k]] + thrown
            rows: dict[Row, list[FrenchCard]] = {r: [] for r in ROWS}
            for card, row in cut[seat][k]:
                rows[row].append(card)
            moves.append((seat, Place.of(rows, thrown)))
    draw = " ".join([*(["2c", "2d", "2h", "2s"][: seats - 1]), "As"])  # the last seat draws the ace: it deals
    engine = OFCEngine(rules, [rules.starting_chips] * seats, stacked(draw, notation(order)))
    for seat, move in moves[:placements]:
        engine.apply(seat, move)
    return engine


# ---------------------------------------------------------------------------- scenes


def finished_scene(rules: Any) -> OFCEngine:
    """rules.md OFC-1 placed to the last card: the boards scored, the next hand dealt."""
    return played(rules, [A, B])


def street_scene(rules: Any) -> OFCEngine:
    """The first street placed by both, the second by {p0} only: {p1} is to place (in a Turbo variant {p0}'s second
    street lies face down until {p1} has placed his)."""
    return played(rules, [A, B], placements=seats_for(rules) + 1)


def foul_scene(rules: Any) -> OFCEngine:
    """rules.md OFC-2: {p1}'s back (two pair) is weaker than his middle (two pair, jacks up): a foul."""
    return played(rules, [A, B_FOUL])


def scoop_scene(rules: Any) -> OFCEngine:
    """rules.md OFC-3: {p0} wins every row against {p1}: a scoop."""
    return played(rules, [X, Y])


# ---------------------------------------------------------------------------- texts that read the rules


def variants_body(w: Writer) -> str:
    r = w.rules
    here = w.t(f"variant_{r.variant}_here") if not r.pineapple() else w.t("variant_d_pineapple_here")
    players = w.t("variants_players_on" if r.allow_2_3_players else "variants_players_off")
    return w.t("variants_body", here=here, players=players)


def placing_body(w: Writer) -> str:
    hint = w.t("placing_hints_on" if w.rules.hints else "placing_hints_off")
    turbo = w.t("placing_picture")
    return w.t("placing_body", hint=hint, picture=turbo)


FOUL_RULES = ("foul_on_equal", "variant", "scoop_bonus")


def foul_body(w: Writer) -> str:
    r = w.rules
    equal = w.t("foul_equal_on" if r.foul_on_equal else "foul_equal_off")
    last = foul_scene(scene_rules(r, FOUL_RULES)).last
    assert last is not None
    return w.t(
        "foul_body",
        equal=equal,
        scoop=r.scoop(),
        royalties=last.scores[AKI].royalties,
        total=last.points[AKI],
    )


SCORING_RULES = ("variant", "scoop_bonus")


def scoring_body(w: Writer) -> str:
    r = w.rules
    engine = scoop_scene(scene_rules(r, SCORING_RULES))
    last = engine.last
    assert last is not None
    return w.t(
        "scoring_body",
        scoop=r.scoop(),
        variant=r.variant,
        points=last.points[AKI],
        royalties=last.scores[AKI].royalties,
    )


ROYALTY_RULES = ("royalties", "middle_royal")


def royalties_body(w: Writer) -> str:
    table = w.rules.royalties
    front = table.front
    pairs = w.join([f"{k} {v}" for k, v in front.items() if len(k) == 2 and v])
    trips = w.join([f"{k} {v}" for k, v in front.items() if len(k) == 3])
    middle = [f"{hand_name(k, w.lang)} {v}" for k, v in table.middle.items() if k in DEFAULT_MIDDLE]
    middle.append(f"{hand_name('royal_flush', w.lang)} {w.rules.middle_royal}")
    back = w.join([f"{hand_name(k, w.lang)} {v}" for k, v in table.back.items() if k in DEFAULT_BACK])
    last = finished_scene(scene_rules(w.rules, ROYALTY_RULES)).last
    assert last is not None
    mine, theirs = last.scores[AKI], last.scores[BEN]
    front_r, middle_r, back_r = mine.row_royalties
    picture = w.t(
        "royalties_picture",
        front=front_r,
        middle=middle_r,
        back=back_r,
        total=mine.royalties,
        other=theirs.royalties,
        net=f"{mine.royalties - theirs.royalties:+d}",
    )
    return w.t("royalties_body", pairs=pairs or "—", trips=trips, middle=w.join(middle), back=back, picture=picture)


def hand_name(key: str, lang: str) -> str:
    """A poker hand as the OFC table and panels name it."""
    return t(f"ofc.hand_{key}", lang)


FL_RULES = (
    "variant",
    "fl_entry_min",
    "fl_cards",
    "fl_cards_continue",
    "fl_stay_front_trips",
    "fl_stay_middle_fh",
    "fl_stay_back_quads",
    "freeze_dealer_during_fl",
)


def fantasyland_body(w: Writer) -> str:
    r = w.rules
    entry = {"QQ": w.t("fl_entry_qq"), "KK": w.t("fl_entry_kk"), "AA": w.t("fl_entry_aa")}[r.fl_entry_min]
    if r.variant == "d":
        cards = w.t(
            "fl_cards_d", qq=r.fl_cards["QQ"], kk=r.fl_cards["KK"], aa=r.fl_cards["AA"], trips=r.fl_cards["trips"]
        )
    else:
        cards = w.t("fl_cards_abc")
    stays = [
        w.t(key)
        for key, on in (
            ("fl_stay_trips", r.stay_front_trips()),
            ("fl_stay_fh", r.stay_middle_fh()),
            ("fl_stay_quads", r.stay_back_quads()),
        )
        if on
    ]
    stay = w.t("fl_stay_some", rows=w.join(stays)) if stays else w.t("fl_stay_none")
    engine = finished_scene(scene_rules(r, FL_RULES))
    names = seat_names(w.lang)
    if engine.hands[AKI].fantasyland:
        picture = w.t("fl_picture_in", n=engine.hands[AKI].fl_cards, dealer=names[engine.dealer])
    else:
        picture = w.t("fl_picture_out", dealer=names[engine.dealer])
    return w.t(
        "fantasyland_body",
        entry=entry,
        cards=cards,
        cont=r.fl_cards_continue,
        stay=stay,
        freeze=w.t("fl_freeze_on" if r.freeze_dealer_during_fl else "fl_freeze_off"),
        picture=picture,
    )


def dealer_body(w: Writer) -> str:
    r = w.rules
    return w.t(
        "dealer_body",
        orbits=r.dealer_orbits,
        bust=w.t("dealer_bust_on" if r.bankruptcy_ends_game else "dealer_bust_off"),
        freeze=w.t("fl_freeze_on" if r.freeze_dealer_during_fl else "fl_freeze_off"),
    )


# ---------------------------------------------------------------------------- the guide

GUIDE = Guide(
    "ofc",
    (
        TopicDef("basics", "🃏", (PageDef("basics", (), finished_scene),)),
        TopicDef(
            "variants",
            "🔀",
            (
                PageDef(
                    "variants", ("variant", "d_pineapple_streets", "allow_2_3_players"), street_scene, variants_body
                ),
                PageDef("placing", ("hints",), street_scene, placing_body),
            ),
        ),
        TopicDef("ranking", "📶", (PageDef("ranking"),)),
        TopicDef("fouls", "💥", (PageDef("foul", FOUL_RULES, foul_scene, foul_body),)),
        TopicDef("scoring", "⚖️", (PageDef("scoring", SCORING_RULES, scoop_scene, scoring_body),)),
        TopicDef("royalties", "👑", (PageDef("royalties", ROYALTY_RULES, finished_scene, royalties_body),)),
        TopicDef("fantasyland", "🌈", (PageDef("fantasyland", FL_RULES, finished_scene, fantasyland_body),)),
        TopicDef(
            "dealer",
            "🔘",
            (
                PageDef(
                    "dealer", ("dealer_orbits", "bankruptcy_ends_game", "freeze_dealer_during_fl"), None, dealer_body
                ),
            ),
        ),
        glossary_topic("ofc"),
    ),
)
