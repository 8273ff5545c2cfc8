"""The Luk Fu guide (rules.md §2): the pack, the call, leads, must-beat, old cards, six tricks, Five Tigers, scoring.

Three seats in every picture but the four-player one: {p0} (seat 0) deals and is the parent; play goes
counter-clockwise, so after {p0} comes {p2} (seat 2), then {p1} (seat 1).
"""

from __future__ import annotations

from typing import Any

from bot.howto.glossary import glossary_topic
from bot.howto.model import Guide, PageDef, TopicDef, Writer, play, scene_rules, seat_names, stacked
from games.core.cards import lukfu_deck, notation, parse_lukfu
from games.luk_fu.actions import CODEC
from games.luk_fu.engine import LukFuEngine
from games.luk_fu.results import LukFuResult
from games.luk_fu.rules import LukFuRules

AKI, BEN, CHIKA, DAI = 0, 1, 2, 3

# ---------------------------------------------------------------------------- deals

PLAYED = {
    AKI: "1S 2S 3S 7S 8S 9S 7M 8M 9M 1T 3T 4T",
    CHIKA: "4M 5M 6M 7T 8T 9T 2C 2M 2T 9C 3M LT",
    BEN: "1C 3C 4C 4S 6S 1M 5C 5S 5T 6C 7C 8C",
}
"""A hand played out in four tricks of three cards (the dead card is 6T): Aki declares and leads a run of Strings,
Chika beats it in Myriads, then leads an unbeatable run of Tens and has six tricks, plays on; Ben beats her
triple of 2s with 5s; Aki beats Ben's run of Coins in Myriads. Chika wins with six tricks."""
PLAYED_DEAD = "6T"
PLAYED_MOVES: tuple[tuple[int, str], ...] = (
    (AKI, "play"),
    (AKI, "lead 1S 2S 3S"),
    (CHIKA, "follow 4M 5M 6M"),
    (BEN, "discard 1C 3C 4C"),
    (CHIKA, "lead 7T 8T 9T"),
    (BEN, "discard 4S 6S 1M"),
    (AKI, "discard 7S 8S 9S"),
    (CHIKA, "continue"),
    (CHIKA, "lead 2C 2M 2T"),
    (BEN, "follow 5C 5S 5T"),
    (AKI, "discard 1T 3T 4T"),
    (BEN, "lead 6C 7C 8C"),
    (AKI, "follow 7M 8M 9M"),
    (CHIKA, "discard 9C 3M LT"),
)
RESTRICTED = {
    AKI: "9T 8T 3T 5M 6M 2S 1S 2C 4C 6C 7C LT",
    CHIKA: "1C 3C 3S 4S 5S 1M 2M 3M 4M 1T 4T 7T",
    BEN: "5C 8C 9C 6S 7S 8S 9S 7M 8M 9M 2T 5T",
}
"""rules.md LF-5 for Aki: 9T and 8T (the top of Tens) and LT are old, and he holds no set or run, so a parent who
did not declare may lead one single only: 3T. Chika beats it with 4T or 7T, Ben cannot beat 7T."""
RESTRICTED_DEAD = "6T"
TIGERS = {
    AKI: "1C 1S 1M 1T LT 2C 4S 6M 8T 3C 5S 7M",
    CHIKA: "2S 3S 4M 5M 6S 7S 8S 9S 9C 8C 7C 6C",
    BEN: "2M 3M 2T 3T 4T 5T 6T 7T 9T 4C 5C 8M",
}
"""Aki, the parent, holds the four 1s and Li Tyen."""
TIGERS_DEAD = "9M"


def order(seats: int, parent: int) -> list[int]:
    """The active seats in order of play (counter-clockwise from the parent)."""
    return sorted(range(seats), key=lambda s: (parent - s) % seats)


def deal(hands: dict[int, str], dead: str, active: list[int]) -> str:
    """The pack for one deal: each active seat's 12 cards in order of play, then the 37th card."""
    cards = [c for seat in active for c in parse_lukfu(hands[seat])] + parse_lukfu(dead)
    assert len(cards) == 37 and set(cards) == set(lukfu_deck()), "a scene's deal must use every card once"
    return notation(cards)


def table(rules: LukFuRules, hands: dict[int, str], dead: str) -> LukFuEngine:
    """Three seats; {p0} draws 9T for the first deal, so he deals and is the parent."""
    return LukFuEngine(rules, [100] * 3, stacked("9T", deal(hands, dead, order(3, AKI))))


# ---------------------------------------------------------------------------- scenes


def played(rules: Any, moves: int) -> LukFuEngine:
    return play(table(rules, PLAYED, PLAYED_DEAD), CODEC, *PLAYED_MOVES[:moves])  # type: ignore[return-value]


def call_scene(rules: Any) -> LukFuEngine:
    """The call: {p0}, the parent, passed; {p2} speaks."""
    return play(table(rules, PLAYED, PLAYED_DEAD), CODEC, (AKI, "pass"))  # type: ignore[return-value]


def run_lead_scene(rules: Any) -> LukFuEngine:
    """{p0} declared and leads a run of three Strings: worth three tricks."""
    return played(rules, 2)


def beaten_scene(rules: Any) -> LukFuEngine:
    """{p2} beats {p0}'s run with a run of Myriads; {p1} is to play."""
    return played(rules, 3)


def triple_scene(rules: Any) -> LukFuEngine:
    """{p2}'s triple of 2s, beaten by {p1}'s 5s; {p0} discards three cards face down."""
    return played(rules, 11)


def stop_scene(rules: Any) -> LukFuEngine:
    """{p2} has taken six tricks (her run of Tens could not be beaten): stop or continue?"""
    return played(rules, 7)


def played_out_scene(rules: Any) -> LukFuEngine:
    """The hand played to its last card: {p2} won with six tricks."""
    return played(rules, len(PLAYED_MOVES))


def restricted_scene(rules: Any) -> LukFuEngine:
    """rules.md LF-5: {p0} passed, {p2} declared; {p0}'s only single lead was 3T, which {p2} beats with 7T."""
    engine = table(rules, RESTRICTED, RESTRICTED_DEAD)
    return play(engine, CODEC, (AKI, "pass"), (CHIKA, "play"), (AKI, "lead 3T"), (CHIKA, "follow 7T"))  # type: ignore[return-value]


def tigers_scene(rules: Any) -> LukFuEngine:
    """{p0}, the parent, declares and reveals Five Tigers at once (at his first lead, or right after the call when
    the server plays it so); where the server does not play Five Tigers, he is simply to lead."""
    engine = play(table(rules, TIGERS, TIGERS_DEAD), CODEC, (AKI, "play"))
    assert isinstance(engine, LukFuEngine)
    if engine.phase == "tigers":
        for seat in sorted(engine.to_act()):
            if engine.phase == "tigers" and seat in engine.to_act():
                play(engine, CODEC, (seat, "tigers" if seat == AKI else "keep"))
    elif any(a.text == "tigers" for a in engine.legal_actions(AKI)):  # type: ignore[union-attr]
        play(engine, CODEC, (AKI, "tigers"))
    return engine


def four_scene(rules: Any) -> LukFuEngine:
    """Four seats: {p0} deals; who sits out follows the server's layout."""
    four = rules.model_copy(update={"players": 4})
    return LukFuEngine(four, [100] * 4, stacked("9T"))


# ---------------------------------------------------------------------------- texts that read the rules


def leads_body(w: Writer) -> str:
    r = w.rules
    first = w.t("leads_first_limit_on") if r.parent_pass_first_lead_max3 else w.t("leads_first_limit_off")
    return w.t("leads_body", first=first)


def beat_sets_body(w: Writer) -> str:
    ones = w.t(f"sets_ones_{w.rules.ones_set_rank}")
    return w.t("beat_sets_body", ones=ones)


def restricted_body(w: Writer) -> str:
    r = w.rules
    suit = w.t("restricted_suit_on" if r.single_lead_highest_suit else "restricted_suit_off")
    exempt = [w.t("restricted_exempt_declarer")] if r.old_lead_exempt_declarer else []
    if r.old_lead_exempt_only_old_left:
        exempt.append(w.t("restricted_exempt_only_old"))
    exemptions = "\n".join(f"• {e}" for e in exempt) if exempt else w.t("restricted_exempt_none")
    picture = w.t("restricted_picture_on" if r.single_lead_highest_suit else "restricted_picture_off")
    return w.t("restricted_body", suit=suit, exemptions=exemptions, picture=picture)


def old_body(w: Writer) -> str:
    mode = w.rules.old_card_mode
    return w.t("old_body", mode=w.t(f"old_mode_{mode}"), example=w.t(f"old_example_{mode}"))


def tigers_body(w: Writer) -> str:
    r = w.rules
    if not r.five_tigers_enabled:
        return w.t("tigers_body_off")
    timing = w.t(f"tigers_timing_{r.five_tigers_timing}")
    lead = w.t("tigers_lead_on" if r.five_tigers_lead else "tigers_lead_off")
    return w.t("tigers_body", timing=timing, tricks=r.five_tigers_tricks, lead=lead)


SCORING_RULES = ("big_hand_multiplier", "red_bonus", "red_scope", "declarer_pays_double", "parent_pass_penalty")


def scoring_body(w: Writer) -> str:
    r = w.rules
    parts = [
        w.t("scoring_big_on" if r.big_hand_multiplier else "scoring_big_off"),
        w.t(f"scoring_red_on_{r.red_scope}") if r.red_bonus else w.t("scoring_red_off"),
        w.t("scoring_double_on" if r.declarer_pays_double else "scoring_double_off"),
        w.t("scoring_penalty_on" if r.parent_pass_penalty else "scoring_penalty_off"),
    ]
    # The picture's payments, read from the hand it plays (so the words give the numbers the picture shows).
    result = played_out_scene(scene_rules(r, SCORING_RULES)).results[-1]
    detail = result.detail
    assert isinstance(detail, LukFuResult) and detail.share is not None
    return w.t(
        "scoring_body",
        options="\n".join(f"• {p}" for p in parts),
        share=detail.share.share,
        aki=-result.deltas[AKI],
        ben=-result.deltas[BEN],
    )


def four_body(w: Writer) -> str:
    r = w.rules
    sitter, parent = (AKI, CHIKA) if r.four_player_layout == "dealer_sits_out" else (CHIKA, AKI)
    names = seat_names(w.lang)
    return w.t(
        "four_body",
        sitter=names[sitter],
        parent=names[parent],
        layout=w.t(f"four_layout_{r.four_player_layout}"),
        bonus=w.t("four_bonus_on" if r.dealer_bonus else "four_bonus_off"),
        repeat=w.t("four_repeat_on" if r.dealer_repeats_on_win else "four_repeat_off"),
        stay=w.t("four_stay_on" if r.stay_if_parent_declared_and_no_winner else "four_stay_off"),
        hands=r.hands_total,
        bust=w.t("four_bust_on" if r.bust_ends_game else "four_bust_off"),
    )


# ---------------------------------------------------------------------------- the guide

GUIDE = Guide(
    "luk_fu",
    (
        TopicDef("basics", "🐯", (PageDef("basics", (), beaten_scene),)),
        TopicDef("pack", "🀄", (PageDef("pack", (), played_out_scene),)),
        TopicDef("call", "📣", (PageDef("call", (), call_scene),)),
        TopicDef("leads", "🎯", (PageDef("leads", ("parent_pass_first_lead_max3",), run_lead_scene, leads_body),)),
        TopicDef(
            "must_beat",
            "⚔️",
            (
                PageDef("must_beat", (), beaten_scene),
                PageDef("beat_sets", ("ones_set_rank",), triple_scene, beat_sets_body),
            ),
        ),
        TopicDef(
            "old_cards",
            "🕰️",
            (
                PageDef(
                    "restricted",
                    ("single_lead_highest_suit", "old_lead_exempt_declarer", "old_lead_exempt_only_old_left"),
                    restricted_scene,
                    restricted_body,
                ),
                PageDef("old", ("old_card_mode",), None, old_body),
            ),
        ),
        TopicDef("six_tricks", "6️⃣", (PageDef("six", (), stop_scene),)),
        TopicDef(
            "five_tigers",
            "🐅",
            (
                PageDef(
                    "tigers",
                    ("five_tigers_enabled", "five_tigers_timing", "five_tigers_tricks", "five_tigers_lead"),
                    tigers_scene,
                    tigers_body,
                ),
            ),
        ),
        TopicDef(
            "scoring",
            "💰",
            (PageDef("scoring", SCORING_RULES, played_out_scene, scoring_body),),
        ),
        TopicDef(
            "dealing",
            "🔄",
            (
                PageDef(
                    "four",
                    (
                        "four_player_layout",
                        "dealer_bonus",
                        "dealer_repeats_on_win",
                        "stay_if_parent_declared_and_no_winner",
                        "hands_total",
                        "bust_ends_game",
                    ),
                    four_scene,
                    four_body,
                ),
            ),
        ),
        glossary_topic("luk_fu"),
    ),
)
