"""The public Hachi-Hachi Trick table: every phase at 3, 5 and 7 seats in both languages, from real engine states.

The sample views come from :func:`tests.bot.render.samples.hachi_hachi_sample_views` (2-round games from fixed shuffles,
scripted declarations, the bot's policy in trick play); the hidden-card tests play their own stacked deals with
``hachi_kit``. The renderer's drawing plan (:func:`bot.render.hachi_hachi.draw_hachi_hachi_table`) says what was
drawn where: every text's ink box, every card and the dark panels texts stand on.
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
from bot.render import hachi_hachi as hh
from bot.render import palette as P
from bot.render.fonts import displayable, font, has_glyph
from games.core.cards import FrenchCard, parse_french
from games.hachi_hachi.policy import choose
from games.hachi_hachi.rules import YAKU_KEYS
from games.hachi_hachi.views import HachiPublicView
from tests.bot.render.samples import HACHI_NAMES, hachi_hachi_sample_views

SHORT_NAMES = ["Ann", "Bob", "花子", "たろう", "Eve", "李", "Zoë"]
LONG_NAMES = ["A very long display name that never ends at all " * 2] * 7
LANGS = ("en", "ja")
MAX_BYTES = 100 * 1024
PREFIX = "hachi_hachi_render."
CATALOG = json.loads((CATALOG_DIR / "hachi_hachi_render.json").read_text(encoding="utf-8"))

SAMPLES = [(seats, moment) for seats in (3, 5, 7) for moment in hachi_hachi_sample_views(seats)]
SAMPLE_IDS = [f"{seats}-{moment}" for seats, moment in SAMPLES]
Box = tuple[float, float, float, float]


def _kit() -> ModuleType:
    """``tests/games/hachi_hachi/hachi_kit.py``: stacked rounds written as each player's hand."""
    folder = str(Path(__file__).resolve().parents[2] / "games" / "hachi_hachi")
    if folder not in sys.path:
        sys.path.insert(0, folder)
    return importlib.import_module("hachi_kit")


def _view(seats: int, moment: str) -> HachiPublicView:
    return hachi_hachi_sample_views(seats)[moment]


def _intersect(a: Box, b: Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _inside(a: Box, b: Box) -> bool:
    return b[0] <= a[0] and b[1] <= a[1] and a[2] <= b[2] and a[3] <= b[3]


def _texts(plan: hh.HachiHachiDrawing) -> list[str]:
    return [x.text for x in plan.texts]


def _last_round_public(last: dict[str, typing.Any] | None) -> set[FrenchCard]:
    """The cards the last round's summary made public: its indicator, every card played, every card revealed."""
    if last is None:
        return set()
    shown = {FrenchCard.parse(last["indicator"])} if last.get("indicator") else set()
    shown |= {FrenchCard.parse(c) for entry in last.get("trick_log") or () for _, c in entry["plays"]}
    shown |= {FrenchCard.parse(c) for hand in last.get("hands") or () for c in hand["cards"]}
    return shown


def _public(view: HachiPublicView) -> set[FrenchCard]:
    """Every card the public view shows: the indicator, the cards played this round, the hands revealed this round,
    and what the last round's summary made public."""
    shown = set(view.played) | {c for r in view.reveals for c in r.cards}
    if view.indicator is not None:
        shown.add(view.indicator)
    return shown | _last_round_public(view.last_result)


# ---------------------------------------------------------------- the samples


@pytest.mark.parametrize("seats", [3, 5, 7])
def test_the_samples_cover_every_phase(seats: int) -> None:
    views = hachi_hachi_sample_views(seats)
    assert {v.phase for v in views.values()} == {"mizuten", "declare", "choose", "trick", "over"}
    assert views["mizuten"].indicator is None and views["mizuten"].deal_no == 1
    assert views["declare"].speaker is not None and views["declare"].next_fee > 0
    choose_view = views["choose"]
    assert len(choose_view.choosing) == 1 and len(choose_view.chosen) == 1 and choose_view.choices == ()
    trick = views["trick"].trick
    assert trick is not None and trick.number >= 4 and trick.plays and views["trick"].last_trick is not None
    between = views["between_tricks"]
    assert between.trick is not None and not between.trick.plays and between.last_trick is not None
    over = views["round_over"]
    assert over.phase == "declare" and over.deal_no == 2 and over.last_result is not None
    assert over.last_result["outcome"] == "play" and over.last_result["trick_log"]
    assert views["over"].game_over and views["over"].winners
    fields = {views["trick"].field: views["trick"].mult}
    assert fields == {3: {"plain": 1}, 5: {"oba": 2}, 7: {"zetsuba": 4}}[seats]
    if seats > 3:
        assert views["trick"].forced_out and views["trick"].reveals


# ---------------------------------------------------------------- the picture


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize(("seats", "moment"), SAMPLES, ids=SAMPLE_IDS)
def test_every_sample_is_a_small_paletted_png_of_the_expected_size(seats: int, moment: str, lang: str) -> None:
    data = hh.render_hachi_hachi_table(_view(seats, moment), HACHI_NAMES, lang, stake=10)
    img = Image.open(io.BytesIO(data))
    img.load()
    assert img.format == "PNG"
    assert img.mode == "P"
    assert img.size == (hh.WIDTH, hh.table_height(seats))
    assert len(data) <= MAX_BYTES


def test_heights() -> None:
    assert [hh.table_height(n) for n in range(3, 8)] == [520, 520, 626, 626, 732]


def test_seats_stand_in_two_columns_inside_the_picture() -> None:
    for seats in range(3, 8):
        boxes = [hh.seat_box(s, seats) for s in range(seats)]
        image: Box = (0, 0, hh.WIDTH, hh.table_height(seats))
        assert all(_inside(b, image) for b in boxes)
        assert [(a, b) for i, a in enumerate(boxes) for b in boxes[i + 1 :] if _intersect(a, b)] == []
        assert len({b[0] for b in boxes}) == 2


def test_renderer_takes_only_the_public_view() -> None:
    for fn in (hh.render_hachi_hachi_table, hh.compose_hachi_hachi_table, hh.draw_hachi_hachi_table):
        assert typing.get_type_hints(fn)["view"] is HachiPublicView


def test_the_same_view_renders_to_the_same_bytes() -> None:
    view = _view(7, "trick")
    first = hh.render_hachi_hachi_table(view, HACHI_NAMES, "ja", stake=5)
    cards.french_face.cache_clear()
    assert hh.render_hachi_hachi_table(view, HACHI_NAMES, "ja", stake=5) == first
    assert hh.render_hachi_hachi_table(view, HACHI_NAMES, "en", stake=5) != first
    assert hh.render_hachi_hachi_table(view, HACHI_NAMES, "ja", stake=1) != first


def test_missing_names_fall_back_to_seat_numbers() -> None:
    plan = hh.draw_hachi_hachi_table(_view(5, "declare"), [], "en")
    assert {f"#{i}" for i in range(1, 6)} <= set(_texts(plan))


# ---------------------------------------------------------------- layout: nothing covers anything


def _layout_problems(plan: hh.HachiHachiDrawing) -> list[typing.Any]:
    image: Box = (0, 0, *plan.img.size)
    boxes = [(x.text, x.box) for x in plan.texts]
    problems: list[typing.Any] = [
        ("overlap", a, b)
        for i, (a, box_a) in enumerate(boxes)
        for b, box_b in boxes[i + 1 :]
        if _intersect(box_a, box_b)
    ]
    problems += [("on a card", text) for text, box in boxes for c in plan.cards if _intersect(box, c.box)]
    problems += [("off the panels", text) for text, box in boxes if not any(_inside(box, p) for p in plan.panels)]
    problems += [("card off the picture", c.card) for c in plan.cards if not _inside(c.box, image)]
    # cards overlap only within one revealed hand (drawn fanned)
    problems += [
        ("cards overlap", a.card, b.card)
        for i, a in enumerate(plan.cards)
        for b in plan.cards[i + 1 :]
        if _intersect(a.box, b.box) and not (a.area == b.area and a.seat == b.seat and "reveal" in a.area)
    ]
    return problems


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize(("seats", "moment"), SAMPLES, ids=SAMPLE_IDS)
def test_no_text_overlaps_another_or_a_card_and_nothing_is_cut(seats: int, moment: str, lang: str) -> None:
    plan = hh.draw_hachi_hachi_table(_view(seats, moment), SHORT_NAMES, lang, stake=10)
    assert _layout_problems(plan) == []
    assert [text for text in _texts(plan) if text.endswith("…")] == []


@pytest.mark.parametrize(("seats", "moment"), SAMPLES, ids=SAMPLE_IDS)
def test_long_names_are_cut_but_never_spill(seats: int, moment: str) -> None:
    view = _view(seats, moment)
    plan = hh.draw_hachi_hachi_table(view, LONG_NAMES, "ja", stake=1000)
    assert _layout_problems(plan) == []
    # every seat's name is in its panel, cut with an ellipsis, within the panel's name block
    for seat in range(seats):
        panel = hh.seat_box(seat, seats)
        names = [x for x in plan.texts if _inside(x.box, panel) and x.text.endswith("…") and x.size == hh.NAME_SIZE]
        assert len(names) == 1
        assert names[0].box[2] <= panel[0] + hh.SEAT_INFO_W


@pytest.mark.parametrize(("seats", "moment"), SAMPLES, ids=SAMPLE_IDS)
def test_sizes_stay_readable_at_discords_preview(seats: int, moment: str) -> None:
    """About 0.45× on a phone: no text under 16 px, trick cards 84 px, every other card 40 px or more."""
    plan = hh.draw_hachi_hachi_table(_view(seats, moment), SHORT_NAMES, "ja")
    assert min(x.size for x in plan.texts) >= hh.MIN_TEXT
    for placed in plan.cards:
        width = placed.box[2] - placed.box[0]
        assert width >= (hh.TRICK_CARD_W if placed.area == "trick" else 40)


# ---------------------------------------------------------------- what the table says


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize(("seats", "moment"), SAMPLES, ids=SAMPLE_IDS)
def test_the_table_shows_the_indicator_the_pot_the_round_and_every_seat(seats: int, moment: str, lang: str) -> None:
    view = _view(seats, moment)
    plan = hh.draw_hachi_hachi_table(view, SHORT_NAMES, lang, stake=10)
    texts = _texts(plan)
    indicator = [c.card for c in plan.cards if c.area == "indicator"]
    assert indicator == ([] if view.indicator is None else [view.indicator])
    if view.indicator is not None:
        assert t(f"{PREFIX}field_{view.field}", lang) in texts
        assert t(f"{PREFIX}mult", lang, mult=view.mult) in texts
        assert cards.FRENCH_SUIT_SYMBOL[view.trump or ""] in texts
    pot = view.pot_carried if view.game_over else view.pot
    assert f"{pot * 10:,}" in texts
    assert t(f"{PREFIX}title", lang, round=view.round_no, total=view.rounds_total) in texts
    assert (t(f"{PREFIX}mizuten", lang) in texts) == bool(view.mizuten)
    for seat in range(seats):
        panel = hh.seat_box(seat, seats)
        mine = [x.text for x in plan.texts if _inside(x.box, panel)]
        assert SHORT_NAMES[seat] in mine
        assert f"{view.stacks[seat] * 10:,}" in mine
        line = view.lines[seat]
        if line.declarer_no is not None:
            assert t(f"{PREFIX}state_play", lang, n=line.declarer_no) in mine
        if line.state == "folded":
            assert t(f"{PREFIX}state_folded", lang) in mine
        if line.state == "forced_out":
            assert t(f"{PREFIX}state_forced_out", lang) in mine
        if line.is_sp:
            assert t(f"{PREFIX}badge_sp", lang) in mine
        if view.phase == "trick" and seat in view.declarers:
            assert str(line.tricks) in mine


def test_the_speaker_and_his_fee_are_shown_during_declarations() -> None:
    view = _view(7, "declare")
    assert view.speaker is not None
    plan = hh.draw_hachi_hachi_table(view, SHORT_NAMES, "en", stake=10)
    texts = _texts(plan)
    fee = f"{view.next_fee * 10:,}"
    assert t(f"{PREFIX}status_declare", "en", name=SHORT_NAMES[view.speaker], fee=fee) in texts
    assert t(f"{PREFIX}fold_fee_now", "en", fee=fee) in texts
    panel = hh.seat_box(view.speaker, 7)
    assert t(f"{PREFIX}state_to_speak", "en") in [x.text for x in plan.texts if _inside(x.box, panel)]
    # the folder's fee and what his stack is after it
    (folder,) = [line for line in view.lines if line.state == "folded"]
    after = t(f"{PREFIX}fee_line", "en", fee=f"{folder.fee * 10:,}", after=f"{folder.stack_after_fees * 10:,}")
    assert after in texts


@pytest.mark.parametrize(("seats", "moment"), [(s, m) for s in (3, 5, 7) for m in ("trick", "between_tricks")])
def test_the_trick_is_drawn_in_playing_order_with_the_winning_card_framed(seats: int, moment: str) -> None:
    view = _view(seats, moment)
    trick, last = view.trick, view.last_trick
    assert trick is not None and last is not None
    plan = hh.draw_hachi_hachi_table(view, SHORT_NAMES, "en")
    placed = [c for c in plan.cards if c.area == "trick"]
    assert [(c.seat, c.card) for c in placed] == [(p.seat, p.card) for p in trick.plays]
    assert [c.box[0] for c in placed] == sorted(c.box[0] for c in placed)  # lead first
    texts = _texts(plan)
    assert t(f"{PREFIX}trick_title", "en", n=trick.number) in texts
    assert t(f"{PREFIX}play_lead", "en") in texts
    if trick.plays:
        assert t(f"{PREFIX}play_winning", "en") in texts
        winner = next(c for c in placed if c.seat == trick.winning)
        assert _framed(plan, winner) > 0
        assert all(_framed(plan, c) == 0 for c in placed if c is not winner)
    # the last finished trick stays beside it, its winner framed
    done = [c for c in plan.cards if c.area == "last_trick"]
    assert [(c.seat, c.card) for c in done] == [(p.seat, p.card) for p in last.plays]
    assert t(f"{PREFIX}last_trick", "en", n=last.number, name=SHORT_NAMES[last.winning or 0]) in texts
    assert [c.seat for c in done if _framed(plan, c) > 0] == [last.winning]


def _framed(plan: hh.HachiHachiDrawing, card: hh.PlacedCard) -> int:
    """Green pixels of a winning card's frame: its top edge, in the band above ``card`` (over its player's name)."""
    x0, y0, x1, _y1 = card.box
    colours: list[tuple[int, typing.Any]] = plan.img.crop((x0, y0 - 36, x1, y0)).getcolors() or []
    return sum(count for count, colour in colours if colour == P.WIN)


@pytest.mark.parametrize("seats", [5, 7])
def test_forced_out_and_declarers_hands_show_their_yaku_cards_and_values(seats: int) -> None:
    view = _view(seats, "trick")
    plan = hh.draw_hachi_hachi_table(view, SHORT_NAMES, "en")
    texts = _texts(plan)
    for r in view.reveals:
        mine = [c.card for c in plan.cards if c.area == "reveal" and c.seat == r.seat]
        assert mine == list(r.cards)
        key = "reveal_forced_value" if r.role == "forced_out" else "reveal_value"
        value = r.forced_out if r.role == "forced_out" else r.normal
        panel = hh.seat_box(r.seat, seats)
        worth = t(f"{PREFIX}{key}", "en", value=value)
        assert (worth in [x.text for x in plan.texts if _inside(x.box, panel)]) == bool(value)  # a 0 goes unsaid
        if not r.yaku and not (r.role == "forced_out" and r.aces):
            assert t(f"{PREFIX}reveal_none", "en") in texts
    shown = [r for r in view.reveals if r.yaku]
    assert shown, "a sample with no yaku at all"
    for r in shown:
        panel = hh.seat_box(r.seat, seats)
        said = " ".join(x.text for x in plan.texts if _inside(x.box, panel))
        assert all(t(f"{PREFIX}yaku_{k}", "en") in said or t(f"{PREFIX}yaku_short_{k}", "en") in said for k in r.yaku)
    # seats with nothing revealed draw no cards in their panels
    revealed = {r.seat for r in view.reveals}
    assert {c.seat for c in plan.cards if c.area == "reveal"} <= revealed


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("seats", [5, 7])
def test_the_last_rounds_result_and_last_trick_stay_until_the_declarations_end(seats: int, lang: str) -> None:
    """The engine settles a round and deals the next in the step that plays the 7th card: that trick shows beside
    the round's result through the next round's Mizuten and declarations."""
    view = _view(seats, "round_over")
    last = view.last_result
    assert last is not None
    plan = hh.draw_hachi_hachi_table(view, SHORT_NAMES, lang, stake=10)
    texts = _texts(plan)
    assert t(f"{PREFIX}last_round_title", lang, deal=last["deal"]) in texts
    (seat, amount, _why) = last["pot_to"][0]
    assert t(f"{PREFIX}result_tricks", lang, name=SHORT_NAMES[seat], pot=f"{amount * 10:,}") in texts
    entry = last["trick_log"][-1]
    final = [c for c in plan.cards if c.area == "final_trick"]
    assert [(c.seat, c.card) for c in final] == [(s, FrenchCard.parse(n)) for s, n in entry["plays"]]
    assert [c.seat for c in final if _framed(plan, c) > 0] == [entry["winner"]]
    # the last round's chips in each seat's panel
    assert view.last_deltas is not None
    for s, delta in enumerate(view.last_deltas):
        if delta:
            panel = hh.seat_box(s, seats)
            sign = "+" if delta > 0 else "−"
            assert f"{sign}{abs(delta) * 10:,}" in [x.text for x in plan.texts if _inside(x.box, panel)]
    # the hands revealed in the last round that showed something, labelled so
    for hand in last["hands"]:
        mine = [c.card for c in plan.cards if c.area == "last_reveal" and c.seat == hand["seat"]]
        assert mine == ([FrenchCard.parse(c) for c in hand["cards"]] if hand["cards"] or hand["value"] else [])
    # once the tricks start, the last round is gone
    later = _view(seats, "trick")
    gone = hh.draw_hachi_hachi_table(replace(later, last_result=last, last_deltas=view.last_deltas), SHORT_NAMES, lang)
    assert not [c for c in gone.cards if c.area in ("final_trick", "last_reveal")]


def test_other_round_outcomes_are_told() -> None:
    void = _view(3, "void_over")
    texts = _texts(hh.draw_hachi_hachi_table(void, SHORT_NAMES, "en", stake=10))
    pot = void.pot_carried * 10
    assert t(f"{PREFIX}result_void", "en", pot=f"{pot:,}") in texts
    fees = (void.pot - void.pot_carried) * 10
    assert t(f"{PREFIX}pot_detail", "en", carried=f"{pot:,}", fees=f"{fees:,}") in texts
    split = _view(3, "split_over")
    texts = _texts(hh.draw_hachi_hachi_table(split, SHORT_NAMES, "en"))
    assert t(f"{PREFIX}result_split", "en") in texts
    assert split.last_result is not None
    shares = " · ".join(f"{SHORT_NAMES[s]} {a}" for s, a, _ in split.last_result["pot_to"])
    assert shares in texts
    base = _view(5, "round_over")
    assert base.last_result is not None
    single = {**base.last_result, "outcome": "single", "pot_to": [[1, 14, "single"]], "trick_log": []}
    texts = _texts(hh.draw_hachi_hachi_table(replace(base, last_result=single), SHORT_NAMES, "en"))
    assert t(f"{PREFIX}result_single", "en", name="Bob", pot="14") in texts
    refund = {**base.last_result, "outcome": "void", "pot_to": [[0, 2, "refund"], [1, 3, "refund"]]}
    texts = _texts(hh.draw_hachi_hachi_table(replace(base, last_result=refund), SHORT_NAMES, "en"))
    assert t(f"{PREFIX}result_void_refund", "en") in texts
    paid = {**base.last_result, "mizuten_paid": True, "sp": 2}
    plan = hh.draw_hachi_hachi_table(replace(base, last_result=paid), SHORT_NAMES, "ja")
    assert t(f"{PREFIX}result_mizuten", "ja", name="花子") in _texts(plan)
    assert [c for c in plan.cards if c.area == "final_trick"]  # still there, under the result
    assert _layout_problems(plan) == []
    # a pot carried when the game ends goes back to those who paid into it
    ended = {**refund, "pot_to": [], "pot_carried": 0, "end_refund": [[3, 5], [4, 2]]}
    over = replace(_view(5, "over"), last_result=ended)
    plan = hh.draw_hachi_hachi_table(over, SHORT_NAMES, "ja")
    assert t(f"{PREFIX}result_refund", "ja", pot="7") in _texts(plan)
    assert _layout_problems(plan) == []


def test_a_bust_seat_is_out() -> None:
    view = _view(5, "declare")
    lines = tuple(replace(line, state="out") if line.seat == 4 else line for line in view.lines)
    plan = hh.draw_hachi_hachi_table(replace(view, lines=lines), SHORT_NAMES, "ja")
    panel = hh.seat_box(4, 5)
    assert t(f"{PREFIX}state_out", "ja") in [x.text for x in plan.texts if _inside(x.box, panel)]


def test_game_over_names_the_winners() -> None:
    view = _view(7, "over")
    plan = hh.draw_hachi_hachi_table(view, SHORT_NAMES, "ja")
    texts = _texts(plan)
    winners = ", ".join(SHORT_NAMES[s] for s in view.winners)
    assert t(f"{PREFIX}status_over", "ja", names=winners) in texts
    assert texts.count(hh.WINNER_MARK) == 2 * len(view.winners)  # the standings and the seat panels
    assert texts.count(t(f"{PREFIX}over_winner", "ja")) == len(view.winners)
    # standings most first
    standings = hh.WIDTH - hh.MARGIN - 14 - hh.SIDE_W
    order = [x.text for x in plan.texts if x.text in SHORT_NAMES and x.box[3] < hh.ROWS_Y and x.box[2] < standings]
    assert order == [SHORT_NAMES[s] for s in sorted(range(7), key=lambda s: (-view.stacks[s], s))]


def test_stake_turns_points_into_chips() -> None:
    view = _view(5, "declare")
    plain = set(_texts(hh.draw_hachi_hachi_table(view, SHORT_NAMES, "en", stake=1)))
    tenfold = set(_texts(hh.draw_hachi_hachi_table(view, SHORT_NAMES, "en", stake=10)))
    for stack in view.stacks:
        assert f"{stack:,}" in plain
        assert f"{stack * 10:,}" in tenfold
    assert f"{view.pot:,}" in plain and f"{view.pot * 10:,}" in tenfold


# ---------------------------------------------------------------- words: catalog, both languages, the CJK font


def _pattern(template: str) -> re.Pattern[str]:
    parts = re.split(r"\{[a-z_]+\}", template)
    return re.compile(".+?".join(re.escape(p) for p in parts) + r"\Z", re.S)


NUMBER = re.compile(r"^[+−-]?[\d,.]+[kM]?$")
MARKS = {hh.TURN_MARK, hh.WINNER_MARK, *cards.FRENCH_SUIT_SYMBOL.values()}
YAKU_ENTRIES = {k for k in CATALOG if k.startswith("yaku_")}


def _yaku_line(text: str, lang: str) -> bool:
    """A revealed hand's line: yaku names (full or short) and a forced-out hand's Aces, joined with " + "."""
    parts = [_pattern(CATALOG[k][lang]) for k in (*YAKU_ENTRIES, "reveal_aces")]
    return all(any(p.match(part) for p in parts) for part in text.split(" + "))


def test_every_key_is_in_both_languages_and_the_yaku_names_are_the_tables() -> None:
    assert [k for k, v in CATALOG.items() if set(v) != set(LANGS) or not all(v.values())] == []
    assert {k.removeprefix("yaku_") for k in YAKU_ENTRIES if not k.startswith("yaku_short_")} == set(YAKU_KEYS)
    assert {k.removeprefix("yaku_short_") for k in YAKU_ENTRIES if k.startswith("yaku_short_")} == set(YAKU_KEYS)


def test_every_string_drawn_is_from_the_catalog_and_every_entry_is_used() -> None:
    """Each text is a catalog string, a name, a number or a mark (suit symbols included); every entry but the yaku
    names (which depend on the hands dealt) is drawn by some sample, in both languages."""
    patterns = {key: {lang: _pattern(entry[lang]) for lang in LANGS} for key, entry in CATALOG.items()}
    names = set(SHORT_NAMES) | {f"#{i}" for i in range(1, 8)}
    used: set[str] = set()
    extra = [  # what only hand-made views show (see test_other_round_outcomes_are_told, test_a_bust_seat_is_out)
        "result_single",
        "result_void_refund",
        "result_mizuten",
        "result_refund",
        "state_out",
    ]
    for seats, moment in SAMPLES:
        for lang in LANGS:
            texts = _texts(hh.draw_hachi_hachi_table(_view(seats, moment), SHORT_NAMES, lang, stake=10))
            foreign = [
                x
                for x in texts
                if x not in names
                and x not in MARKS
                and not NUMBER.match(x)
                and not any(p[lang].match(x) for p in patterns.values())
                and not re.fullmatch(r"(.+ \d+)( · .+ \d+)*", x)  # a listing of names and numbers
                and not _yaku_line(x, lang)
            ]
            assert foreign == [], (seats, moment, lang)
            used |= {key for key, by_lang in patterns.items() if any(by_lang[lang].match(x) for x in texts)}
            used |= {"reveal_aces"} if any(_pattern(CATALOG["reveal_aces"][lang]).search(x) for x in texts) else set()
    assert sorted(set(CATALOG) - used - YAKU_ENTRIES - set(extra)) == []


@pytest.mark.parametrize(("seats", "moment"), [(7, "trick"), (5, "round_over"), (3, "choose")])
def test_japanese_tables_say_the_games_own_words_in_the_cjk_font(seats: int, moment: str) -> None:
    plan = hh.draw_hachi_hachi_table(_view(seats, moment), HACHI_NAMES, "ja")
    texts = _texts(plan)
    cjk = [x for x in texts if re.search(r"[\u3040-\u30ff\u4e00-\u9fff]", x)]
    assert len(cjk) >= 5
    # every character drawn has a real glyph in the font the images use (Noto Sans CJK JP): no boxes
    assert font(20).getname() == ("Noto Sans CJK JP", "Regular")
    assert [x for x in texts if displayable(x) != x or not all(has_glyph(ch) for ch in x)] == []
    assert "切り札" in texts


def test_the_games_terms_stand_beside_the_english() -> None:
    texts = set(_texts(hh.draw_hachi_hachi_table(_view(7, "trick"), SHORT_NAMES, "en")))
    assert {"Zetsuba 絶場", "Mizuten 見ず転", "Trump 切り札"} <= texts
    ja = set(_texts(hh.draw_hachi_hachi_table(_view(5, "trick"), SHORT_NAMES, "ja")))
    assert {"大場", "降ろされ", "SP"} <= ja


# ---------------------------------------------------------------- hidden cards are never drawn


@pytest.mark.parametrize(("seats", "moment"), SAMPLES, ids=SAMPLE_IDS)
def test_every_card_drawn_is_one_the_public_view_shows(seats: int, moment: str) -> None:
    view = _view(seats, moment)
    plan = hh.draw_hachi_hachi_table(view, SHORT_NAMES, "en")
    public = _public(view)
    assert [c.card for c in plan.cards if c.card not in public] == []
    this_round = {"indicator", "trick", "last_trick", "reveal"}
    current = set(view.played) | {c for r in view.reveals for c in r.cards} | {view.indicator}
    assert [c.card for c in plan.cards if c.area in this_round and c.card not in current] == []


FOLDER_HAND = "As Ah Ad Ac Ks Kh Kd"
"""P2 folds holding four Aces and three Kings: were any of them drawn, the test would see it."""


def test_a_folded_hand_and_unrevealed_hands_are_never_drawn() -> None:
    """5 seats, stacked: P1 plays, P2 folds with four Aces, P3 and P4 play, P5 is forced out; the whole round and
    the next round's declarations drawn at every step."""
    kit = _kit()
    hands = {
        kit.P1: "Qs Js 9s 8h 6h 4d 3c",
        kit.P2: FOLDER_HAND,
        kit.P3: "Qh Jh 9d 8d 6c 5c 2s",
        kit.P4: "Qd Jd Tc 9c 7s 5s 3h",
        kit.P5: "Qc Jc Ts 8c 7h 4s 2d",
    }
    engine = kit.table(hands, seats=5, indicator="7d")
    folded = set(parse_french(FOLDER_HAND))
    kit.calls(engine, "no-mizuten", "play", "fold", "play", "play")
    assert engine.phase == "trick" and engine.forced == [kit.P5]
    rng = random.Random(3)
    steps = 0
    while engine.deal_no == 1:
        view = engine.public_view()
        plan = hh.draw_hachi_hachi_table(view, SHORT_NAMES, "ja")
        drawn = {c.card for c in plan.cards}
        hidden = engine.hidden_from(None)
        assert folded & hidden == folded
        assert drawn.isdisjoint(hidden)
        assert drawn.isdisjoint(folded)
        assert drawn <= _public(view)
        # every declarer's and the forced-out player's hand is drawn only as far as revealed
        for seat in (kit.P1, kit.P3, kit.P4, kit.P5):
            mine = {c.card for c in plan.cards if c.area == "reveal" and c.seat == seat}
            assert mine == {c for r in view.reveals if r.seat == seat for c in r.cards}
        seat = kit.only(engine)
        engine.apply(seat, choose(engine.view(seat), engine.legal_actions(seat), rng))
        steps += 1
    assert steps == 7 * 3
    # the next round: the last round's result shows what was public then, never the folded hand
    while engine.phase in ("mizuten", "declare") and engine.deal_no == 2:
        view = engine.public_view()
        plan = hh.draw_hachi_hachi_table(view, SHORT_NAMES, "en")
        old = [c.card for c in plan.cards if c.area in ("final_trick", "last_reveal")]
        assert old and set(old) <= _last_round_public(view.last_result)
        assert set(old).isdisjoint(folded)
        seat = kit.only(engine)
        engine.apply(seat, choose(engine.view(seat), engine.legal_actions(seat), rng))


def test_a_secret_choice_is_not_drawn_until_both_have_chosen() -> None:
    """Two tables alike but for the first chooser's choice draw the same picture; once both chose, the choices
    show."""
    kit = _kit()
    plans = []
    engines = []
    for choice in ("split", "fight"):
        engine = kit.table({}, seats=3, indicator="7d")
        kit.calls(engine, "no-mizuten", "play", "fold", "play")
        assert engine.phase == "choose"
        kit.act(engine, kit.P3, choice)
        plans.append(hh.draw_hachi_hachi_table(engine.public_view(), SHORT_NAMES, "en"))
        engines.append(engine)
    assert plans[0].img.tobytes() == plans[1].img.tobytes()
    words = {t(f"{PREFIX}choice_split", "en"), t(f"{PREFIX}choice_fight", "en")}
    assert words.isdisjoint(_texts(plans[0]))
    assert t(f"{PREFIX}state_chosen", "en") in _texts(plans[0])
    assert t(f"{PREFIX}state_choosing", "en") in _texts(plans[0])
    kit.act(engines[1], kit.P1, "split")  # split + fight: they play, and both choices are shown
    view = engines[1].public_view()
    assert view.phase == "trick" and view.choices
    assert words <= set(_texts(hh.draw_hachi_hachi_table(view, SHORT_NAMES, "en")))
