"""The public Luk Fu table: every phase at 3 and 4 seats in both languages, from real engine states.

The sample views come from :func:`tests.bot.render.samples.luk_fu_sample_views` (games played by the bot's policy from
fixed seeds, a few stacked deals); the hidden-card tests play their own stacked deals with ``lukfu_kit``. The
renderer's drawing plan (:func:`bot.render.luk_fu.draw_luk_fu_table`) says what was drawn where: every text's
ink box, every card (``None`` for a back) and the dark panels texts stand on.
"""

from __future__ import annotations

import importlib
import io
import json
import random
import re
import sys
import typing
from dataclasses import replace
from pathlib import Path
from types import ModuleType

import pytest
from PIL import Image

from bot.i18n import CATALOG_DIR, t
from bot.render import cards
from bot.render import luk_fu as lf
from bot.render import palette as P
from bot.render.fonts import displayable
from games.core.cards import LukFuCard, lukfu_deck, parse_lukfu
from games.luk_fu.combos import RED
from games.luk_fu.policy import choose
from games.luk_fu.views import LukFuPublicView
from tests.bot.render.samples import LUKFU_NAMES, luk_fu_sample_views

SHORT_NAMES = ["Ann", "Bob", "花子", "たろう"]
LANGS = ("en", "ja")
MAX_BYTES = 100 * 1024
CATALOG = json.loads((CATALOG_DIR / "luk_fu_render.json").read_text(encoding="utf-8"))

SAMPLES = [(seats, moment) for seats in (3, 4) for moment in luk_fu_sample_views(seats)]
SAMPLE_IDS = [f"{seats}-{moment}" for seats, moment in SAMPLES]
Box = tuple[float, float, float, float]


def _kit() -> ModuleType:
    """``tests/games/luk_fu/lukfu_kit.py``: stacked Luk Fu deals written as each player's hand."""
    folder = str(Path(__file__).resolve().parents[2] / "games" / "luk_fu")
    if folder not in sys.path:
        sys.path.insert(0, folder)
    return importlib.import_module("lukfu_kit")


def _view(seats: int, moment: str) -> LukFuPublicView:
    return luk_fu_sample_views(seats)[moment]


def _intersect(a: Box, b: Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _inside(a: Box, b: Box) -> bool:
    return b[0] <= a[0] and b[1] <= a[1] and a[2] <= b[2] and a[3] <= b[3]


# ---------------------------------------------------------------- the samples


@pytest.mark.parametrize("seats", [3, 4])
def test_the_samples_cover_every_moment_of_a_game(seats: int) -> None:
    views = luk_fu_sample_views(seats)
    assert {v.phase for v in views.values()} == {"call", "tigers", "lead", "follow", "stop", "over"}
    follow = views["follow_face_down"]
    assert follow.trick is not None and any(p.face_down for p in follow.trick.plays)
    between = views["between_tricks"]
    assert between.trick is None and between.last_trick is not None and between.last_trick.winner is not None
    assert any(p.face_down for p in between.last_trick.plays)
    revealed = views["tigers_revealed"].last_result
    assert revealed is not None and revealed["ended_by"] == "five_tigers"
    assert views["over"].game_over and views["over"].winners
    final = views["final_trick"]
    last = final.last_result
    assert final.phase == "lead" and final.trick_no == 0 and final.trick is None and final.last_trick is None
    assert last is not None and last["ended_by"] == "all_played"
    assert any("face_down" in play for play in last["trick_log"][-1]["plays"])
    if seats == 4:
        assert views["call"].sitter is not None and views["call"].sitter_has_card
        assert not all(views["bust"].seated)
    else:
        run = views["follow_run_face_down"].trick
        assert run is not None and run.kind == "run" and run.size == 5 and run.plays[1].face_down
        quad = views["between_tricks_quad"].last_trick
        assert quad is not None and quad.kind == "quad" and quad.plays[2].face_down


# ---------------------------------------------------------------- the picture


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize(("seats", "moment"), SAMPLES, ids=SAMPLE_IDS)
def test_every_sample_is_a_small_paletted_png_of_the_expected_size(seats: int, moment: str, lang: str) -> None:
    data = lf.render_luk_fu_table(_view(seats, moment), LUKFU_NAMES, lang, stake=10)
    img = Image.open(io.BytesIO(data))
    img.load()
    assert img.format == "PNG"
    assert img.mode == "P"
    assert img.size == (lf.WIDTH, lf.table_height(seats))
    assert len(data) <= MAX_BYTES


def test_heights() -> None:
    assert lf.table_height(3) == 550
    assert lf.table_height(4) == 634


def test_renderer_takes_only_the_public_view() -> None:
    for fn in (lf.render_luk_fu_table, lf.compose_luk_fu_table, lf.draw_luk_fu_table):
        assert typing.get_type_hints(fn)["view"] is LukFuPublicView


def test_the_same_view_renders_to_the_same_bytes() -> None:
    view = _view(4, "stop")
    first = lf.render_luk_fu_table(view, LUKFU_NAMES, "ja", stake=5)
    cards.lukfu_face.cache_clear()
    cards.card_back.cache_clear()
    assert lf.render_luk_fu_table(view, LUKFU_NAMES, "ja", stake=5) == first
    assert lf.render_luk_fu_table(view, LUKFU_NAMES, "en", stake=5) != first
    assert lf.render_luk_fu_table(view, LUKFU_NAMES, "ja", stake=1) != first


def test_missing_names_fall_back_to_seat_numbers() -> None:
    plan = lf.draw_luk_fu_table(_view(4, "follow_face_down"), [], "en")
    assert {"#1", "#2", "#3", "#4"} <= {x.text for x in plan.texts}


# ---------------------------------------------------------------- layout: nothing covers anything


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize(("seats", "moment"), SAMPLES, ids=SAMPLE_IDS)
def test_no_text_overlaps_another_or_a_card_and_nothing_is_cut(seats: int, moment: str, lang: str) -> None:
    plan = lf.draw_luk_fu_table(_view(seats, moment), SHORT_NAMES, lang, stake=10)
    image: Box = (0, 0, *plan.img.size)
    boxes = [(x.text, x.box) for x in plan.texts]
    overlaps = [(a, b) for i, (a, box_a) in enumerate(boxes) for b, box_b in boxes[i + 1 :] if _intersect(box_a, box_b)]
    assert overlaps == []
    card_boxes = [c.box for c in plan.cards]
    covered = [(text, card) for text, box in boxes for card in card_boxes if _intersect(box, card)]
    assert covered == []
    assert [(a, b) for i, a in enumerate(card_boxes) for b in card_boxes[i + 1 :] if _intersect(a, b)] == []
    assert all(_inside(card, image) for card in card_boxes)
    # every text lies whole on one dark panel, uncut
    assert [text for text, box in boxes if not any(_inside(box, p) for p in plan.panels)] == []
    assert [text for text, _ in boxes if text.endswith("…")] == []


@pytest.mark.parametrize(("seats", "moment"), SAMPLES, ids=SAMPLE_IDS)
def test_long_names_are_cut_but_never_spill(seats: int, moment: str) -> None:
    names = ["A very long display name that never ends at all " * 2] * 4
    plan = lf.draw_luk_fu_table(_view(seats, moment), names, "ja")
    boxes = [x.box for x in plan.texts]
    assert [(a, b) for i, a in enumerate(boxes) for b in boxes[i + 1 :] if _intersect(a, b)] == []
    assert [x.text for x in plan.texts if not any(_inside(x.box, p) for p in plan.panels)] == []


@pytest.mark.parametrize(("seats", "moment"), SAMPLES, ids=SAMPLE_IDS)
def test_sizes_stay_readable_at_discords_preview(seats: int, moment: str) -> None:
    """About 0.45× on a phone: no text under 16 px, trick cards of 72 px or more (40 for plays of 5+ cards),
    every other card 40 px (the dead card, a mere reminder, is the only small one)."""
    view = _view(seats, moment)
    plan = lf.draw_luk_fu_table(view, SHORT_NAMES, "ja")
    assert min(x.size for x in plan.texts) >= lf.MIN_TEXT
    for placed in plan.cards:
        width = placed.box[2] - placed.box[0]
        if placed.area == "dead":
            continue
        trick = view.trick or view.last_trick
        if placed.area == "trick" and trick is not None and trick.size <= lf.COLUMN_MAX:
            assert width >= 72
        else:
            assert width >= 40


# ---------------------------------------------------------------- what the table says


def _pattern(template: str) -> re.Pattern[str]:
    parts = re.split(r"\{[a-z_]+\}", template)
    return re.compile(".+?".join(re.escape(p) for p in parts) + r"\Z", re.S)


NUMBER = re.compile(r"^[+−-]?[\d,.]+[kM]?$")
MARKS = {lf.TURN_MARK, lf.WINNER_MARK}


def _foreign(texts: list[str], lang: str, names: list[str]) -> list[str]:
    """The texts that are neither a catalog string in ``lang``, a name, a number, nor a mark."""
    patterns = [_pattern(entry[lang]) for entry in CATALOG.values()]
    shown_names = {displayable(n) for n in names} | {f"#{i + 1}" for i in range(4)}

    def cut_name(text: str) -> bool:
        return text.endswith("…") and any(n.startswith(text[:-1].rstrip()) for n in shown_names)

    return [
        text
        for text in texts
        if text not in shown_names
        and not cut_name(text)
        and text not in MARKS
        and not NUMBER.match(text)
        and not any(p.match(text) for p in patterns)
    ]


def test_every_key_is_in_both_languages() -> None:
    assert [k for k, v in CATALOG.items() if set(v) != set(LANGS) or not all(v.values())] == []


def test_every_string_drawn_is_from_the_catalog_and_every_entry_is_used() -> None:
    used: set[str] = set()
    patterns = {key: {lang: _pattern(entry[lang]) for lang in LANGS} for key, entry in CATALOG.items()}
    for seats, moment in SAMPLES:
        for lang in LANGS:
            plan = lf.draw_luk_fu_table(_view(seats, moment), LUKFU_NAMES, lang, stake=10)
            texts = [x.text for x in plan.texts]
            assert _foreign(texts, lang, LUKFU_NAMES) == [], (seats, moment, lang)
            used |= {key for key, by_lang in patterns.items() if any(by_lang[lang].match(x) for x in texts)}
    assert sorted(set(CATALOG) - used) == []


def test_japanese_tables_say_the_games_own_words() -> None:
    plan = lf.draw_luk_fu_table(_view(4, "first_lead"), SHORT_NAMES, "ja")
    texts = {x.text for x in plan.texts}
    assert {"親", "休み", "宣言者", "配り手"} <= texts
    en = {x.text for x in lf.draw_luk_fu_table(_view(4, "tigers_revealed"), SHORT_NAMES, "en").texts}
    assert "親 Parent" in en
    assert any("六虎" in x for x in en) and any("五虎" in x for x in en)


def test_stake_turns_points_into_chips() -> None:
    view = _view(3, "first_lead")
    plain = {x.text for x in lf.draw_luk_fu_table(view, SHORT_NAMES, "en", stake=1).texts}
    tenfold = {x.text for x in lf.draw_luk_fu_table(view, SHORT_NAMES, "en", stake=10).texts}
    for stack in view.stacks:
        assert f"{stack:,}" in plain
        assert f"{stack * 10:,}" in tenfold


@pytest.mark.parametrize("seats", [3, 4])
def test_each_seat_shows_its_tricks_hand_and_winning_cards(seats: int) -> None:
    view = _view(seats, "stop")
    plan = lf.draw_luk_fu_table(view, SHORT_NAMES, "en")
    texts = [x.text for x in plan.texts]
    for seat in view.active:
        assert str(view.tricks[seat]) in texts
        assert t("luk_fu_render.hand_count", "en", count=view.hand_sizes[seat]) in texts
        won = [c.card for c in plan.cards if c.area == "won" and c.seat == seat]
        assert won == list(view.winning_cards[seat])
    assert view.stop_seat in view.reached_six
    assert texts.count(t("luk_fu_render.badge_six", "en")) == len(view.reached_six)
    assert t("luk_fu_render.status_stop", "en", name=SHORT_NAMES[view.stop_seat]) in texts


@pytest.mark.parametrize(("seats", "moment"), [(s, m) for s, m in SAMPLES if m.startswith(("follow", "between"))])
def test_the_trick_is_drawn_lead_first_with_the_winning_play_marked(seats: int, moment: str) -> None:
    view = _view(seats, moment)
    trick = view.trick or view.last_trick
    assert trick is not None
    plan = lf.draw_luk_fu_table(view, SHORT_NAMES, "en")
    placed = [c for c in plan.cards if c.area == "trick"]
    assert len(placed) == trick.size * len(trick.plays)
    by_seat = {p.seat: [c for c in placed if c.seat == p.seat] for p in trick.plays}
    firsts = [by_seat[p.seat][0].box for p in trick.plays]
    columns = trick.size <= lf.COLUMN_MAX
    assert firsts == sorted(firsts, key=lambda b: b[0] if columns else b[1])  # lead first, then in order of play
    for play in trick.plays:
        assert [c.card for c in by_seat[play.seat]] == list(play.cards)
    texts = {x.text: x.box for x in plan.texts if x.box[3] <= lf.ROWS_Y}  # the centre panel's
    axis = 0 if columns else 1  # each play is labelled with its player's name, in the play's column or row

    def middle(box: Box) -> float:
        return (box[axis] + box[axis + 2]) / 2

    for play in trick.plays:
        name = middle(texts[SHORT_NAMES[play.seat]])
        nearest = min(trick.plays, key=lambda p: abs(middle(by_seat[p.seat][0].box) - name))
        assert nearest.seat == play.seat
    tag = t("luk_fu_render.play_won" if view.trick is None else "luk_fu_render.play_winning", "en")
    winner = next(p for p in trick.plays if p.winning)
    span = by_seat[winner.seat]
    box = texts[tag]
    if columns:
        assert span[0].box[0] <= (box[0] + box[2]) / 2 <= span[-1].box[2]
    else:
        assert span[0].box[1] <= (box[1] + box[3]) / 2 <= span[0].box[3]
    if view.trick is None:
        assert t("luk_fu_render.trick_won_by", "en", name=SHORT_NAMES[trick.winner or 0]) in texts


def test_a_five_tigers_reveal_stays_on_the_table_with_the_sitters_card() -> None:
    view = _view(4, "tigers_revealed")
    last = view.last_result
    assert last is not None
    plan = lf.draw_luk_fu_table(view, SHORT_NAMES, "en")
    shown = [c.card for c in plan.cards if c.area == "last_hand"]
    assert set(parse_lukfu("1C 1S 1M 1T LT")) <= set(shown)
    assert LukFuCard.parse(last["sitter_card"]) in shown
    texts = [x.text for x in plan.texts]
    winner = SHORT_NAMES[last["winner"]]
    assert t("luk_fu_render.last_tigers", "en", name=winner, tricks=last["tricks"][last["winner"]]) in texts


def test_game_over_names_the_winners() -> None:
    view = _view(3, "over")
    plan = lf.draw_luk_fu_table(view, SHORT_NAMES, "ja")
    texts = [x.text for x in plan.texts]
    winners = ", ".join(SHORT_NAMES[s] for s in view.winners)
    assert t("luk_fu_render.status_over", "ja", names=winners) in texts
    assert texts.count(lf.WINNER_MARK) == 2 * len(view.winners)  # the standings and the seat rows
    assert texts.count(t("luk_fu_render.over_winner", "ja")) == len(view.winners)


# ---------------------------------------------------------------- the last hand's final trick


def _final_trick_shown(view: LukFuPublicView) -> bool:
    """The last hand ended on a trick (played out, or its winner stopped) and the centre shows that hand's result:
    from its end until the next hand's first lead, or at game over."""
    last = view.last_result
    between = view.game_over or (view.trick is None and view.last_trick is None)
    return last is not None and last["ended_by"] in ("all_played", "stop") and between


def _final_cards(plan: lf.LukFuDrawing) -> list[lf.PlacedCard]:
    return [c for c in plan.cards if c.area == "final_trick"]


def _won_frame_below(plan: lf.LukFuDrawing, card: lf.PlacedCard) -> int:
    """Green pixels of the winning play's frame, just under ``card``."""
    x0, _y0, x1, y1 = card.box
    colours = plan.img.crop((x0, y1 + 1, x1, y1 + 12)).getcolors() or []
    return sum(count for count, colour in colours if colour == P.WIN)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("seats", [3, 4])
def test_the_last_hands_final_trick_shows_until_the_next_first_lead(seats: int, lang: str) -> None:
    """The engine settles a hand and deals the next in the step that plays its last trick, so that trick is never
    on the table between tricks: the next hand's picture shows it beside the last hand's result, lead first, each
    play under its player's name, face-down plays as backs, the winning play framed in green."""
    view = _view(seats, "final_trick")
    last = view.last_result
    assert last is not None
    entry = last["trick_log"][-1]
    plan = lf.draw_luk_fu_table(view, SHORT_NAMES, lang)
    placed = _final_cards(plan)
    assert len(placed) == sum(len(p.get("cards", ())) or p["face_down"] for p in entry["plays"])
    by_seat = {p["seat"]: [c for c in placed if c.seat == p["seat"]] for p in entry["plays"]}
    for play in entry["plays"]:
        mine = [c.card for c in by_seat[play["seat"]]]
        assert mine == (parse_lukfu(" ".join(play["cards"])) if "cards" in play else [None] * play["face_down"])
    lefts = [by_seat[p["seat"]][0].box[0] for p in entry["plays"]]
    assert lefts == sorted(lefts)  # lead first, then in order of play
    texts = {x.text: x.box for x in plan.texts}
    assert t("luk_fu_render.last_final_trick", lang) in texts
    assert t("luk_fu_render.trick_won_by", lang, name=SHORT_NAMES[entry["winner"]]) in texts
    for play in entry["plays"]:  # each play under its player's name, the winner's framed
        cards_here = by_seat[play["seat"]]
        left, top, right = cards_here[0].box[0], cards_here[0].box[1], cards_here[-1].box[2]
        names = [
            x.box
            for x in plan.texts
            if x.text == SHORT_NAMES[play["seat"]]
            and top - 30 <= x.box[3] <= top
            and left <= (x.box[0] + x.box[2]) / 2 <= right
        ]
        assert len(names) == 1
        assert (_won_frame_below(plan, cards_here[0]) > 0) == (play["seat"] == entry["winner"])
    # in the centre panel, right of the calls and under the last hand's cards
    centre: Box = (lf.MARGIN, lf.CENTRE_Y, lf.WIDTH - lf.MARGIN, lf.CENTRE_Y + lf.CENTRE_H)
    last_cards = [c.box[3] for c in plan.cards if c.area == "last_hand"]
    for card in placed:
        assert _inside(card.box, centre)
        assert card.box[0] > lf.MARGIN + lf.CALL_W
        assert all(card.box[1] > bottom for bottom in last_cards)


@pytest.mark.parametrize(("seats", "moment"), SAMPLES, ids=SAMPLE_IDS)
def test_the_final_trick_shows_only_when_a_trick_ended_the_last_hand(seats: int, moment: str) -> None:
    """Not after an all-pass hand (no trick), nor after Five Tigers 五虎 (the reveal ended it; any earlier trick was
    seen between tricks), nor once the new hand's first card is led."""
    view = _view(seats, moment)
    plan = lf.draw_luk_fu_table(view, SHORT_NAMES, "en")
    shown = bool(_final_cards(plan))
    assert shown == _final_trick_shown(view)
    assert (t("luk_fu_render.last_final_trick", "en") in {x.text for x in plan.texts}) == shown


def _shuffled(seed: int) -> list[LukFuCard]:
    deck = lukfu_deck()
    random.Random(seed).shuffle(deck)
    return deck


@pytest.mark.parametrize("seats", [3, 4])
def test_the_final_trick_keeps_face_down_cards_hidden_and_goes_at_the_first_lead(seats: int) -> None:
    """Play a whole hand to its last card (shuffled deals; the bot's policy): the cards discarded face down in it
    are never drawn face up in the next hand's picture, its final trick's face-down plays are backs; the final
    trick stays through the next call and goes once that hand's first lead is made."""
    from games.luk_fu.events import Discarded

    kit = _kit()
    _parent, _sitter, active = kit.roles(seats, 0)
    first = _shuffled(4)
    hands = {seat: " ".join(c.notation for c in first[i * 12 : (i + 1) * 12]) for i, seat in enumerate(active)}
    second = " ".join(c.notation for c in _shuffled(104))
    engine = kit.table(hands, seats=seats, players=seats, later=[second])
    rng = random.Random(4)
    discarded: set[LukFuCard] = set()
    while engine.deal_no == 1:
        seat = min(engine.to_act())
        for event in engine.apply(seat, choose(engine.view(seat), engine.legal_actions(seat), rng)):
            if isinstance(event, Discarded):
                discarded |= set(event.cards)
    view = engine.public_view()
    last = view.last_result
    assert last is not None and last["ended_by"] == "all_played"
    final = last["trick_log"][-1]
    assert discarded and any("face_down" in play for play in final["plays"])
    moments = 0
    while view.trick is None:
        assert view.deal_no == 2 and view.phase in ("call", "tigers", "lead")
        plan = lf.draw_luk_fu_table(view, SHORT_NAMES, "ja")
        placed = _final_cards(plan)
        assert [c.card for c in placed].count(None) == sum(p.get("face_down", 0) for p in final["plays"])
        assert discarded.isdisjoint(c.card for c in plan.cards)
        moments += 1
        seat = min(engine.to_act())
        engine.apply(seat, choose(engine.view(seat), engine.legal_actions(seat), rng))
        view = engine.public_view()
    assert moments >= 2  # the call, and the lead before its first card
    assert view.deal_no == 2 and view.trick_no == 1
    assert _final_cards(lf.draw_luk_fu_table(view, SHORT_NAMES, "ja")) == []


def _with_final_trick(view: LukFuPublicView, plays: list[dict[str, typing.Any]]) -> LukFuPublicView:
    last = dict(view.last_result or {})
    winner = next(p["seat"] for p in reversed(plays) if "cards" in p)
    count = len(plays[0].get("cards", ()))
    entry = {"trick": 9, "leader": plays[0]["seat"], "winner": winner, "count": count, "plays": plays}
    last["trick_log"] = [*last["trick_log"][:-1], entry]
    return replace(view, last_result=last)


WIDE_TRICKS: dict[str, list[dict[str, typing.Any]]] = {
    "run_of_five": [{"cards": ["1C", "2C", "3C", "4C", "5C"]}, {"face_down": 5}, {"face_down": 5}],
    "quad_beaten": [{"cards": ["2C", "2S", "2M", "2T"]}, {"cards": ["8C", "8S", "8M", "8T"]}, {"face_down": 4}],
    "triples_beaten": [{"cards": ["2C", "2S", "2M"]}, {"cards": ["5C", "5S", "5M"]}, {"cards": ["8C", "8S", "8M"]}],
}
"""A final trick's plays in order (lead first), given to the last hand's players; the last face-up play won."""


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("shape", list(WIDE_TRICKS))
@pytest.mark.parametrize("seats", [3, 4])
def test_a_wide_final_trick_still_fits(seats: int, shape: str, lang: str) -> None:
    """Big final tricks (a run of five; a quad beaten by a quad; three triples) fit beside the calls: the face-up
    cards side by side, the backs closed up if need be, no text on anything."""
    base = _view(seats, "final_trick")
    assert base.last_result is not None
    order = base.last_result["active"]
    plays = [{**play, "seat": seat} for play, seat in zip(WIDE_TRICKS[shape], order, strict=True)]
    view = _with_final_trick(base, plays)
    plan = lf.draw_luk_fu_table(view, SHORT_NAMES, lang, stake=10)
    placed = _final_cards(plan)
    assert len(placed) == sum(len(p.get("cards", ())) or p["face_down"] for p in plays)
    boxes = [x.box for x in plan.texts]
    assert [(a, b) for i, a in enumerate(boxes) for b in boxes[i + 1 :] if _intersect(a, b)] == []
    assert [b for b in boxes for c in plan.cards if _intersect(b, c.box)] == []
    assert [x.text for x in plan.texts if not any(_inside(x.box, p) for p in plan.panels)] == []
    assert [x.text for x in plan.texts if x.text.endswith("…")] == []
    faces = [c for c in plan.cards if c.card is not None]
    assert [(a, b) for a in faces for b in plan.cards if a is not b and _intersect(a.box, b.box)] == []
    centre: Box = (lf.MARGIN + lf.CALL_W, lf.CENTRE_Y, lf.WIDTH - lf.MARGIN, lf.CENTRE_Y + lf.CENTRE_H)
    assert all(_inside(c.box, centre) for c in placed)


# ---------------------------------------------------------------- hidden cards are backs


def _face_down_table() -> tuple[typing.Any, typing.Any]:
    """3 seats: A (seat 0) declares and leads 5S; B (seat 2) holds no string, so discards 9C face down; C must
    beat with 9S."""
    kit = _kit()
    engine = kit.table(
        {
            kit.A: "5S 6S 7S 8S 1M 2M 3M 4M 5M 6M 7M 8M",
            kit.C: "9S 1S 2S 3S 4S 9M 1T 2T 3T 4T 5T 6T",
        }
    )
    kit.play(engine, (kit.A, "play"), (kit.A, "lead 5S"), (kit.B, "discard 9C"))
    return kit, engine


def _region(img: Image.Image, box: Box) -> bytes:
    return img.crop(box).tobytes()


def _back_on_panel(width: int) -> bytes:
    back = cards.card_back("lukfu", width)
    ref = Image.new("RGB", back.size, P.FELT_DARK)
    ref.paste(back, (0, 0), back)
    return ref.tobytes()


def test_a_face_down_follow_is_drawn_as_a_back_during_and_after_the_trick() -> None:
    kit, engine = _face_down_table()
    nine = LukFuCard(9, "C")
    for step in ("follow", "between"):
        view = engine.public_view()
        plan = lf.draw_luk_fu_table(view, SHORT_NAMES, "en")
        mine = [c for c in plan.cards if c.area == "trick" and c.seat == kit.B]
        assert [c.card for c in mine] == [None]
        assert _region(plan.img, mine[0].box) == _back_on_panel(lf.TRICK_CARD_W)
        hidden = engine.hidden_from(None)
        assert nine in hidden
        assert [c.card for c in plan.cards if c.card in hidden] == []
        if step == "follow":
            assert engine.phase == "follow"
            kit.act(engine, kit.C, "follow 9S")
    assert engine.phase == "lead" and engine.public_view().last_trick is not None


def test_the_back_is_the_views_doing_a_face_would_show() -> None:
    """Put the discarded card into the view by hand: the renderer then draws its face (so the back above is what
    the public view says, not a coincidence of the layout)."""
    _kit_module, engine = _face_down_table()
    view = engine.public_view()
    assert view.trick is not None
    nine = LukFuCard(9, "C")
    plays = tuple(replace(p, cards=(nine,)) if p.face_down else p for p in view.trick.plays)
    seen = replace(view, trick=replace(view.trick, plays=plays))
    hidden_plan = lf.draw_luk_fu_table(view, SHORT_NAMES, "en")
    seen_plan = lf.draw_luk_fu_table(seen, SHORT_NAMES, "en")
    assert nine in [c.card for c in seen_plan.cards]
    assert nine not in [c.card for c in hidden_plan.cards]
    assert seen_plan.img.tobytes() != hidden_plan.img.tobytes()


def test_the_sitters_card_is_a_back_until_the_hand_is_settled() -> None:
    kit = _kit()
    # dealer 0 sits out and holds 9T; seat 2, opposite him, is the parent
    engine = kit.table({}, seats=4, extra="9T", players=4)
    sitter_card = LukFuCard(9, "T")
    assert engine.sitter == 0 and engine.sitter_card == sitter_card
    rng = random.Random(1)
    while engine.deal_no == 1:  # through the call and every trick of the hand
        view = engine.public_view()
        plan = lf.draw_luk_fu_table(view, SHORT_NAMES, "ja")
        assert [c.card for c in plan.cards if c.area == "sitter"] == [None]
        assert sitter_card not in [c.card for c in plan.cards]
        seat = min(engine.to_act())
        engine.apply(seat, choose(engine.view(seat), engine.legal_actions(seat), rng))
    # settled: the next hand's picture shows the last hand's sitter card face up
    plan = lf.draw_luk_fu_table(engine.public_view(), SHORT_NAMES, "ja")
    last = engine.public_view().last_result
    assert last is not None and last["sitter_card"] == "9T"
    if last["ended_by"] != "all_passed":
        assert sitter_card in [c.card for c in plan.cards if c.area == "last_hand"]


@pytest.mark.parametrize(("seats", "moment"), SAMPLES, ids=SAMPLE_IDS)
def test_face_down_plays_in_the_view_are_backs_in_the_picture(seats: int, moment: str) -> None:
    view = _view(seats, moment)
    plan = lf.draw_luk_fu_table(view, SHORT_NAMES, "en")
    trick = view.trick or view.last_trick
    drawn = [c for c in plan.cards if c.area == "trick"]
    if trick is None or not drawn:
        return
    for play in trick.plays:
        mine = [c.card for c in drawn if c.seat == play.seat]
        assert (all(c is None for c in mine) and play.face_down) or (None not in mine and not play.face_down)
    for placed in plan.cards:
        if placed.area in ("sitter", "dead"):
            assert placed.card is None


# ---------------------------------------------------------------- red cards


def test_the_red_cards_are_the_rules_eight() -> None:
    red = {LukFuCard(r, s) for r, s in cards.LUKFU_RED}
    assert red == set(RED)
    assert len(red) == 8


def _red_pixels(img: Image.Image) -> int:
    colours = img.convert("RGB").getcolors(maxcolors=1 << 20) or []
    return sum(count for count, colour in colours if colour == P.RED)


@pytest.mark.parametrize("width", [lf.TRICK_CARD_W, lf.QUAD_CARD_W, lf.SMALL_CARD_W])
def test_red_cards_have_red_ink_and_no_other_card_has_any(width: int) -> None:
    for card in lukfu_deck():
        face = cards.lukfu_face(card.rank, card.suit, width)
        flat = Image.new("RGB", face.size, P.PAPER)
        flat.paste(face, (0, 0), face)
        count = _red_pixels(flat)
        if card in RED:
            assert count > width, card  # the numeral (or 老千) and a frame
        else:
            assert count == 0, card


def test_suit_colours_are_far_from_red_and_from_each_other() -> None:
    def dist(a: P.RGB, b: P.RGB) -> float:
        return float(sum((x - y) ** 2 for x, y in zip(a, b, strict=True)) ** 0.5)

    colours = list(cards.LUKFU_SUIT_COLOUR.values())
    assert all(dist(c, P.RED) > 100 for c in colours)
    assert all(dist(a, b) > 60 for i, a in enumerate(colours) for b in colours[i + 1 :])
    assert all(c in P.base_colours() for c in colours)


def test_cards_show_chinese_numerals_and_suit_kanji() -> None:
    assert cards.LUKFU_NUMERALS == "一二三四五六七八九"
    assert cards.LUKFU_SUIT_KANJI == {"C": "銭", "S": "索", "M": "貫", "T": "十"}
    assert cards.LI_TYEN_FACE == "老千"
    faces = {cards.lukfu_face(c.rank, c.suit, 40).tobytes() for c in lukfu_deck()}
    assert len(faces) == 37
    back = cards.card_back("lukfu", 40).tobytes()
    assert back not in faces
    assert back != cards.card_back("french", 40).tobytes()


@pytest.mark.parametrize(("seats", "moment"), [(3, "between_tricks_quad"), (4, "stop"), (4, "over")])
def test_red_cards_on_the_table_are_red_after_encoding(seats: int, moment: str) -> None:
    view = _view(seats, moment)
    plan = lf.draw_luk_fu_table(view, SHORT_NAMES, "en")
    png = Image.open(io.BytesIO(lf.render_luk_fu_table(view, SHORT_NAMES, "en"))).convert("RGB")
    faces = [c for c in plan.cards if c.card is not None]
    assert any(c.card in RED for c in faces) and any(c.card not in RED for c in faces)
    for placed in faces:
        count = _red_pixels(png.crop(placed.box))
        assert (count > 20) == (placed.card in RED), placed.card
