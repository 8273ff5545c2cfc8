"""The public Oicho-Kabu table: decodes, right size, paletted, small, drawn from the public view only."""

from __future__ import annotations

import io
import typing
from dataclasses import replace

import pytest
from PIL import Image

from bot.render import oicho
from bot.render.samples import BUSY_NAMES, busy_oicho_view
from games.oicho.views import HandView, OichoPublicView
from tests.bot.render.samples import betting_oicho_view, tenure_end_oicho_view

MAX_BYTES = 100 * 1024


def _decode(data: bytes) -> Image.Image:
    img = Image.open(io.BytesIO(data))
    img.load()
    return img


@pytest.mark.parametrize("lang", ["ja", "en"])
@pytest.mark.parametrize("phase", ["betting", "deciding", "dealer", "round_over", "game_over"])
def test_busy_table_is_a_small_paletted_png(phase: str, lang: str) -> None:
    data = oicho.render_oicho_table(busy_oicho_view(phase), BUSY_NAMES, lang)
    img = _decode(data)
    assert img.format == "PNG"
    assert img.mode == "P"
    assert img.size == (oicho.WIDTH, oicho.HEIGHT)
    assert len(data) <= MAX_BYTES


def test_a_quiet_table_renders() -> None:
    img = _decode(oicho.render_oicho_table(betting_oicho_view(), ["親", "たろう", "花子", "Bob"], "ja"))
    assert img.size == (oicho.WIDTH, oicho.HEIGHT)


def test_missing_names_fall_back_to_seat_numbers() -> None:
    img = _decode(oicho.render_oicho_table(betting_oicho_view(), [], "en"))
    assert img.size == (oicho.WIDTH, oicho.HEIGHT)


def test_webp_option() -> None:
    img = _decode(oicho.render_oicho_table(busy_oicho_view(), BUSY_NAMES, "en", fmt="webp"))
    assert img.format == "WEBP"


def test_renderer_takes_only_the_public_view() -> None:
    hints = typing.get_type_hints(oicho.render_oicho_table)
    assert hints["view"] is OichoPublicView
    assert typing.get_type_hints(oicho.compose_oicho_table)["view"] is OichoPublicView


def test_different_states_draw_differently() -> None:
    view = busy_oicho_view()
    other = replace(view, cap_used=view.cap_used - 1, cap_left=view.cap_left + 1)
    a = oicho.compose_oicho_table(view, BUSY_NAMES, "en").tobytes()
    b = oicho.compose_oicho_table(other, BUSY_NAMES, "en").tobytes()
    ja = oicho.compose_oicho_table(view, BUSY_NAMES, "ja").tobytes()
    assert a != b
    assert a != ja


def test_point_names_fall_back_to_the_renderer_table(monkeypatch: pytest.MonkeyPatch) -> None:
    import bot.i18n

    monkeypatch.setattr(bot.i18n, "has", lambda key: False)
    assert oicho.points_name(0, "ja").endswith("ブタ")
    assert oicho.points_name(8, "ja") == "8 オイチョ"
    assert "Kabu" in oicho.points_name(9, "en")
    assert oicho.hand_name(HandView(points=9, tier=3, kind="arashi", multiplier=3), "ja") == "嵐 9"
    assert oicho.hand_name(HandView(points=0, tier=2, kind="kuppin", multiplier=1), "ja") == "クッピン"


def test_the_catalog_wins_when_it_has_the_key(monkeypatch: pytest.MonkeyPatch) -> None:
    import bot.i18n

    monkeypatch.setattr(bot.i18n, "has", lambda key: key == "oicho.points_9")
    monkeypatch.setattr(bot.i18n, "t", lambda key, lang, **params: f"<{key}:{lang}>")
    assert oicho.points_name(9, "ja") == "9 <oicho.points_9:ja>"
    assert oicho.points_name(8, "ja") == "8 オイチョ"


def test_every_label_has_a_fallback_in_both_languages() -> None:
    for key, texts in oicho.FALLBACK.items():
        assert texts.get("en"), key
        assert texts.get("ja"), key


def test_stake_turns_points_into_chips() -> None:
    view = busy_oicho_view()
    plain = oicho.compose_oicho_table(view, BUSY_NAMES, "en").tobytes()
    assert oicho.compose_oicho_table(view, BUSY_NAMES, "en", stake=10).tobytes() != plain
    assert oicho.compose_oicho_table(view, BUSY_NAMES, "en", stake=1).tobytes() == plain


def _region(view: OichoPublicView, box: tuple[int, int, int, int], lang: str = "en") -> bytes:
    return oicho.compose_oicho_table(view, ["alice", "bob", "carol"], lang).crop(box).tobytes()


PILES_LOWER = (0, oicho.LAST_PILE_Y, oicho.WIDTH, oicho.PILES_BOTTOM)
DEALER_RIGHT = (oicho.DEALER_CARDS_X + 3 * (oicho.CARD_W + 6), oicho.DEALER_Y, oicho.WIDTH, oicho.PILES_Y)
SEATS = (0, oicho.SEATS_Y - 8, oicho.WIDTH, oicho.HEIGHT)


@pytest.mark.parametrize("maki_fuda", [False, True])
def test_a_round_that_ended_a_tenure_is_shown_on_the_next_until_somebody_bets(maki_fuda: bool) -> None:
    """The move that ends a dealer's tenure deals the next round at once: the round it settled has no showdown
    picture of its own, so the next round's table shows its piles, the dealer's hand and each seat's result (a
    replay's last step of that round is this picture too). Once somebody bets, the table is this round's alone."""
    view = tenure_end_oicho_view(maki_fuda)
    last = oicho.last_round(view)
    assert view.phase == "betting" and view.cap_used == 0
    assert last is view.last_result and last is not None
    assert last["round"] == view.round_no - 1 and last["dealer"] != view.dealer
    forgotten = replace(view, last_result=None, last_deltas=None)
    for box in (PILES_LOWER, DEALER_RIGHT, SEATS):
        assert _region(view, box) != _region(forgotten, box), f"the last round is not drawn in {box}"
    # a bet is placed: nothing of the last round is drawn any more
    bet = replace(view, cap_used=1, cap_left=view.cap_left - 1)
    assert oicho.last_round(bet) is None
    whole = (0, 0, oicho.WIDTH, oicho.HEIGHT)
    assert _region(bet, whole, "ja") == _region(replace(bet, last_result=None, last_deltas=None), whole, "ja")


def test_no_last_round_is_drawn_outside_the_next_rounds_first_bets() -> None:
    view = tenure_end_oicho_view()
    last = view.last_result
    assert last is not None
    assert oicho.last_round(replace(view, last_result={**last, "void": True, "piles": None})) is None  # nobody bet
    showdown = busy_oicho_view("round_over")
    assert oicho.last_round(replace(showdown, last_result=last)) is None  # the showdown itself is on the table
