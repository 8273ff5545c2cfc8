"""The public Oicho-Kabu table (おいちょかぶ): one flat image drawn from the engine's public view only.

The signature takes :class:`~games.oicho.views.OichoPublicView`, never the seat view, so the type checker
keeps private cards out of the public image; a card the onlooker may not see is ``None`` and drawn as a back.

Layout (1000×560, about 450 px wide on a phone, so nothing important is smaller than 18 px):

* top bar: game, round, whose turn it is; the bank cap (胴前) used and left, with a gauge;
* dealer row: the dealer (親) with tenure, his cards (backs until the showdown) and hand; まき札 if any;
* four pile columns P1–P4: total bet, cards, the pile's points name, each bettor's name and amount,
  and at the showdown the outcome (bettors win / dealer wins / push);
* seat strip (2 × 5): every seat with its stack, the dealer badge, a turn marker and the round's result.

A PNG's picture starts from the backdrop of its seat count (panels, seat frames, P1–P4, the dealer's badge, the
empty card places: :func:`_backdrop`) and pastes its words as runs kept whole (:func:`~bot.render.layers.run`):
the top bar's, the dealer's, each pile's total and everything under its cards, each seat's cell.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from PIL import Image

from bot.render import palette as P
from bot.render.cards import card_back, card_image, card_size
from bot.render.encode import Format, encode
from bot.render.fonts import text_width
from bot.render.layers import on_backdrop, run
from bot.render.text import Canvas, compact_chips, label
from games.core.cards import KabuCard
from games.oicho.views import HandView, OichoPublicView, PileView

WIDTH, HEIGHT = 1000, 560
CARD_W = 72
SMALL_CARD_W = 40
MARGIN = 12

TOP_BAR_H = 40
DEALER_Y = TOP_BAR_H + 6
DEALER_H = 118
PILES_Y = DEALER_Y + DEALER_H + 6
SEATS_ROWS = 2
SEATS_COLS = 5
SEAT_ROW_H = 30
SEATS_Y = HEIGHT - SEATS_ROWS * SEAT_ROW_H - 8
PILE_W = (WIDTH - 2 * MARGIN) // 4
PILE_COL_W = PILE_W - 8
PILES_BOTTOM = SEATS_Y - 8
PILE_PAD = 10
PILE_CARDS_DX = (PILE_COL_W - (3 * CARD_W + 12)) // 2
PILE_CARDS_Y = PILES_Y + 28 + 10
DEALER_CARDS_X = MARGIN + 330
DEALER_CARDS_Y = DEALER_Y + (DEALER_H - card_size(CARD_W)[1]) // 2
GAUGE_W = 90

POINT_NAMES_JA = ("ブタ", "ピン", "ニゾウ", "サンタ", "ヨツヤ", "ゴケ", "ロッポウ", "シチケン", "オイチョ", "カブ")
POINT_NAMES_EN = ("Buta", "Pin", "Nizō", "Santa", "Yotsuya", "Goke", "Roppō", "Shichiken", "Oicho", "Kabu")

# Used only when bot.i18n has no such key yet (keys follow games/oicho/views.py: points_<n>, hand_<kind>).
FALLBACK: dict[str, dict[str, str]] = {
    **{
        f"oicho.points_{n}": {"en": f"{POINT_NAMES_JA[n]} {POINT_NAMES_EN[n]}", "ja": POINT_NAMES_JA[n]}
        for n in range(10)
    },
    "oicho.hand_arashi": {"en": "Arashi 嵐", "ja": "嵐"},
    "oicho.hand_kuppin": {"en": "Kuppin 九一", "ja": "クッピン"},
    "oicho.hand_shippin": {"en": "Shippin 四一", "ja": "シッピン"},
    "oicho.hand_gogo": {"en": "Gogo", "ja": "ゴゴ"},
    "oicho.hand_tsuru": {"en": "Tsuru", "ja": "ツル"},
    "oicho.hand_toichi": {"en": "Toichi", "ja": "トイチ"},
    "oicho.hand_nobori": {"en": "Nobori", "ja": "ノボリ"},
    "oicho.hand_kudari": {"en": "Kudari", "ja": "クダリ"},
    "oicho.hand_hifumi": {"en": "Hifumi 一二三", "ja": "一二三"},
    "oicho.hand_shichigosan": {"en": "Shichigosan 七五三", "ja": "七五三"},
    "oicho.hand_doshippin": {"en": "Do-shippin", "ja": "ドシッピン"},
    "oicho.table_title": {"en": "Oicho-Kabu · round {round}", "ja": "おいちょかぶ 第{round}局"},
    "oicho.table_cap": {"en": "Bank cap {cap}: bet {used}, left {left}", "ja": "胴前 {cap}：賭け {used}・残り {left}"},
    "oicho.table_phase_betting": {"en": "Betting: {name}", "ja": "賭け：{name}の番"},
    "oicho.table_phase_deciding": {"en": "P{pile}: {name} decides", "ja": "P{pile} 決め札：{name}"},
    "oicho.table_phase_dealer": {"en": "Dealer draws: {name}", "ja": "親の番：{name}"},
    "oicho.table_phase_round_over": {"en": "Showdown", "ja": "勝負"},
    "oicho.table_phase_game_over": {"en": "Game over · winner: {name}", "ja": "終了・勝者：{name}"},
    "oicho.table_dealer": {"en": "Dealer", "ja": "親"},
    "oicho.table_tenure": {"en": "round {held}/{limit} · net {net}", "ja": "{held}/{limit}局目・収支 {net}"},
    "oicho.table_maki_fuda": {"en": "Maki-fuda", "ja": "まき札"},
    "oicho.table_pile_total": {"en": "bets {total}", "ja": "賭け {total}"},
    "oicho.table_outcome_pile": {"en": "Children win ×{mult}", "ja": "子の勝ち ×{mult}"},
    "oicho.table_outcome_dealer": {"en": "Dealer wins ×{mult}", "ja": "親の勝ち ×{mult}"},
    "oicho.table_outcome_push": {"en": "Push", "ja": "引き分け"},
    "oicho.table_outcome_unbet": {"en": "No bets", "ja": "賭けなし"},
    "oicho.table_more_bets": {"en": "+{count} more", "ja": "ほか{count}件"},
    "oicho.table_decider": {"en": "decides", "ja": "決め"},
    "oicho.table_last_round": {"en": "Round {round}", "ja": "第{round}局"},
    "oicho.table_last_dealer": {"en": "Round {round} · {name}", "ja": "第{round}局・{name}"},
}

DEALER_BADGE = "親"
TURN_MARK = "▶"
WINNER_MARK = "★"


def render_oicho_table(
    view: OichoPublicView, names: list[str], lang: str = "en", fmt: Format = "png", stake: int = 1
) -> bytes:
    """The public table as upload bytes (paletted PNG by default).

    ``names[seat]`` is each seat's display name; ``stake`` (chips per point, a table setting) turns the
    view's points into the chips shown, as the table's embed does.
    """
    return encode(compose_oicho_table(view, names, lang, stake, paletted=fmt == "png", reuse_frame=True), fmt)


def compose_oicho_table(
    view: OichoPublicView,
    names: Sequence[str],
    lang: str = "en",
    stake: int = 1,
    *,
    paletted: bool = False,
    reuse_frame: bool = False,
) -> Image.Image:
    """The public table as an RGB image, before encoding (``paletted``: drawn on the table palette, as the PNG
    encoder wants it; the same picture). ``reuse_frame``: drawn in this thread's reused frame
    (:func:`~bot.render.layers.reused_frame`), for a render that encodes it at once."""
    c = on_backdrop(Canvas, (WIDTH, HEIGHT), paletted, _backdrop, view.seats, reuse=reuse_frame)
    t = _Text(_seat_names(names, view.seats), lang, max(1, stake))
    last = last_round(view)
    _top_bar(c, view, t)
    _dealer_row(c, view, t, last)
    for i, pile in enumerate(view.piles):
        _pile_column(c, view, pile, MARGIN + i * PILE_W, t, last)
    _seat_strip(c, view, t, last)
    return c.img


def last_round(view: OichoPublicView) -> dict[str, Any] | None:
    """The last round's summary, to show until somebody bets in the next: a round that ends a dealer's tenure deals
    the next round at once (no showdown phase waits for the dealer), so its cards and results are shown on the next
    round's table, as the other games show the last deal until the next is under way (a replay's last step of such a
    round is that picture too). None once a bet is placed, and for a void round (nobody bet: nothing to show)."""
    last = view.last_result
    if view.phase != "betting" or view.cap_used or not last or last.get("void") or not last.get("piles"):
        return None
    return last


@dataclass(frozen=True)
class _Text:
    """Per-render wording: seat names, language, and points shown as chips."""

    names: list[str]
    lang: str
    stake: int

    def chips(self, points: int) -> str:
        return f"{points * self.stake:,}"

    def signed(self, points: int) -> str:
        return f"{points * self.stake:+,}"

    def short(self, points: int) -> str:
        """Chips in a narrow seat cell: exact below 100,000, then ``123k`` / ``4.5M`` (the embed has the rest)."""
        return compact_chips(points * self.stake)


# ---------------------------------------------------------------- what every table of so many seats shows


def _backdrop(c: Canvas, seats: int) -> None:
    """The panels, frames, fixed labels and empty card places, the same on every picture of a table of ``seats``
    (drawn once, :func:`~bot.render.layers.on_backdrop`); the rest of the picture is drawn over them."""
    c.draw.rectangle((0, 0, WIDTH, TOP_BAR_H), fill=P.FELT_DARK)
    gx0, gy0 = WIDTH - MARGIN - GAUGE_W, TOP_BAR_H - 12 - 14
    c.draw.rectangle((gx0, gy0, gx0 + GAUGE_W, gy0 + 14), fill=P.FELT_LINE)

    y = DEALER_Y
    c.draw.rounded_rectangle((MARGIN, y, WIDTH - MARGIN, y + DEALER_H), radius=8, fill=P.FELT_DARK)
    c.badge(MARGIN + 10, y + 34, DEALER_BADGE, 22, P.GOLD, P.INK)
    _empty_places(c, DEALER_CARDS_X, DEALER_CARDS_Y)

    for i in range(4):
        x0 = MARGIN + i * PILE_W
        c.draw.rounded_rectangle((x0, PILES_Y, x0 + PILE_COL_W, PILES_BOTTOM), radius=8, fill=P.FELT_DARK)
        c.text((x0 + PILE_PAD, PILES_Y + 28), f"P{i + 1}", 24, P.TEXT)
        _empty_places(c, x0 + PILE_CARDS_DX, PILE_CARDS_Y)

    cell_w = (WIDTH - 2 * MARGIN) // SEATS_COLS
    for seat in range(min(seats, SEATS_ROWS * SEATS_COLS)):  # the engine allows 2–10 seats: two rows of five
        row, col = divmod(seat, SEATS_COLS)
        x = MARGIN + col * cell_w
        base = SEATS_Y + row * SEAT_ROW_H + 22
        c.draw.rounded_rectangle((x + 2, base - 22, x + cell_w - 4, base + 6), radius=5, fill=P.FELT_DARK)


def _empty_places(c: Canvas, x: int, y: int) -> None:
    """Three empty card places side by side (faint outlines, so piles line up before their cards are dealt)."""
    size = card_size(CARD_W)
    for k in range(3):
        c.empty_place(x + k * (size[0] + 6), y, size, 6)


# ---------------------------------------------------------------- pieces


def _seat_names(names: Sequence[str], seats: int) -> list[str]:
    # A missing name must not crash a live table: fall back to the seat number.
    return [names[i] if i < len(names) and names[i] else f"#{i + 1}" for i in range(seats)]


def points_name(points: int, lang: str) -> str:
    """``"8 オイチョ"``: the number and its traditional name (ブタ … カブ)."""
    return f"{points} {label(f'oicho.points_{points}', lang, FALLBACK)}"


def hand_name(hand: HandView, lang: str) -> str:
    """A classified hand: its points name for a plain hand, the yaku's name (and points) otherwise."""
    if hand.kind == "plain":
        return points_name(hand.points, lang)
    name = label(f"oicho.hand_{hand.kind}", lang, FALLBACK)
    if hand.kind in ("kuppin", "shippin"):
        return name
    return f"{name} {hand.points}"


def _visible_points(cards: Sequence[KabuCard | None]) -> int | None:
    """Points of a partly dealt hand when every card of it is face up (e.g. a lone pile card while betting)."""
    if not cards or any(c is None for c in cards):
        return None
    return sum(c.points for c in cards if c is not None) % 10


def _top_bar(c: Canvas, view: OichoPublicView, t: _Text) -> None:
    lang = t.lang
    base = TOP_BAR_H - 12
    status = _status_text(view, t.names, lang)
    cap = (t.chips(view.cap), t.chips(view.cap_used), t.chips(view.cap_left))
    run(
        c, _top_texts, 0, base, (0, -base, WIDTH - MARGIN - GAUGE_W, TOP_BAR_H - base), lang, view.round_no, status, cap
    )

    # the bank gauge (胴前; its empty bar is in the backdrop): how much of this round's cap the children have bet
    gauge_w = GAUGE_W
    gx0, gy0 = WIDTH - MARGIN - gauge_w, base - 14
    if view.cap > 0:
        used = max(0, min(gauge_w, round(gauge_w * view.cap_used / view.cap)))
        if used:
            c.draw.rectangle((gx0, gy0, gx0 + used, gy0 + 14), fill=P.GOLD)


def _top_texts(
    c: Canvas, x: float, base: float, lang: str, round_no: int, status: str, cap: tuple[str, str, str]
) -> None:
    """The top bar's words (a :func:`~bot.render.layers.run`): the title, what is happening, and by the gauge, the
    bank cap, bet and left."""
    title = label("oicho.table_title", lang, FALLBACK, round=round_no)
    cap_text = label("oicho.table_cap", lang, FALLBACK, cap=cap[0], used=cap[1], left=cap[2])
    x += MARGIN + c.fitted((x + MARGIN, base), title, 20, 300, P.TEXT_DIM) + 14
    cap_w = min(text_width(cap_text, 20), 440)
    cap_x = WIDTH - MARGIN - GAUGE_W - 10 - cap_w
    c.fitted((x, base), status, 22, cap_x - x - 16, P.GOLD)
    c.fitted((cap_x, base), cap_text, 20, cap_w + 1, P.TEXT)


def _status_text(view: OichoPublicView, names: list[str], lang: str) -> str:
    phase = view.phase
    if phase == "betting":
        seat = view.betting_seat
        return label("oicho.table_phase_betting", lang, FALLBACK, name=names[seat] if seat is not None else "")
    if phase == "deciding":
        pile = view.current_pile
        decider = view.piles[pile - 1].decider if pile is not None else None
        who = names[decider] if decider is not None else ""
        return label("oicho.table_phase_deciding", lang, FALLBACK, pile=pile or "", name=who)
    if phase == "dealer":
        return label("oicho.table_phase_dealer", lang, FALLBACK, name=names[view.dealer])
    if phase == "game_over":
        winners = " / ".join(names[s] for s in view.winners)
        return label("oicho.table_phase_game_over", lang, FALLBACK, name=winners)
    return label("oicho.table_phase_round_over", lang, FALLBACK)


def _face(card: KabuCard | None, width: int = CARD_W) -> Image.Image:
    return card_back("kabu", width) if card is None else card_image(card, width)


def _card_slots(c: Canvas, cards: Sequence[KabuCard | None], x: int, y: int) -> None:
    """Up to three cards side by side, in the backdrop's empty places (:func:`_empty_places`), which undealt
    cards leave showing so piles line up."""
    step = CARD_W + 6
    for k, card in enumerate(cards[:3]):
        c.card_in_place(_face(card), (x + k * step, y))


def _dealer_row(c: Canvas, view: OichoPublicView, t: _Text, last: dict[str, Any] | None) -> None:
    names, lang = t.names, t.lang
    y = DEALER_Y
    tenure = view.tenure
    hand = view.dealer_hand.hand
    x, base = MARGIN + 10, y + 34
    after_badge = math.floor(_badge_width(DEALER_BADGE, 22))  # the badge 親 is in the backdrop, before the name
    run(c, _dealer_name, x, base, (after_badge, -34, 310, 8), names[view.dealer], view.dealer in view.to_act)
    held = (tenure.rounds_held, tenure.rounds_limit, t.signed(tenure.net))
    run(c, _dealer_lines, x, base + 30, (0, -22, 310, DEALER_H - 64), lang, held, hand)

    _card_slots(c, view.dealer_hand.cards, DEALER_CARDS_X, DEALER_CARDS_Y)

    if last is not None and last.get("dealer_hand"):
        shown = last["dealer_hand"]
        who = names[last["dealer"]] if 0 <= last["dealer"] < len(names) else ""
        heading = label("oicho.table_last_dealer", lang, FALLBACK, round=last["round"], name=who)
        x_last = DEALER_CARDS_X + 3 * (CARD_W + 6) + 14
        right = WIDTH - MARGIN - 10 - (4 * (card_size(SMALL_CARD_W)[0] + 4) + 14 if view.maki_fuda else 0)
        said = _hand_text(shown, lang)
        run(
            c,
            _last_dealer,
            x_last,
            y,
            (0, 0, right - x_last, DEALER_H),
            heading,
            tuple(shown["cards"]),
            said,
            right - x_last,
        )

    if view.maki_fuda:
        sw = card_size(SMALL_CARD_W)[0]
        mx = WIDTH - MARGIN - 10 - 4 * (sw + 4)
        maki = label("oicho.table_maki_fuda", lang, FALLBACK)
        run(c, _maki_fuda, mx, y, (0, 0, 4 * (sw + 4), DEALER_H), maki, tuple(view.maki_fuda[:4]))


def _dealer_name(c: Canvas, x: float, base: float, name: str, to_act: bool) -> None:
    """The dealer's name after the backdrop's badge 親, with the turn marker when he is to act (a
    :func:`~bot.render.layers.run`)."""
    bw = _badge_width(DEALER_BADGE, 22)
    if to_act:
        c.text((x + bw + 6, base), TURN_MARK, 20, P.GOLD)
        bw += 26
    c.fitted((x + bw + 8, base), name, 24, 300 - bw - 8, P.TEXT)


def _dealer_lines(
    c: Canvas, x: float, base: float, lang: str, tenure: tuple[int, int, str], hand: HandView | None
) -> None:
    """The dealer's tenure (rounds held, of how many, and his net) and, once shown, his hand, under his name (a
    :func:`~bot.render.layers.run`: the words are looked up only when it is drawn)."""
    held, limit, net = tenure
    c.fitted(
        (x, base), label("oicho.table_tenure", lang, FALLBACK, held=held, limit=limit, net=net), 18, 300, P.TEXT_DIM
    )
    if hand is not None:
        c.fitted((x, base + 34), hand_name(hand, lang), 24, 300, P.GOLD)


def _maki_fuda(c: Canvas, x: float, y: float, heading: str, cards: tuple[KabuCard | None, ...]) -> None:
    """まき札 (a :func:`~bot.render.layers.run`): the heading and up to four small cards under it."""
    sw, sh = card_size(SMALL_CARD_W)
    c.fitted((x, y + 28), heading, 18, 4 * (sw + 4), P.TEXT_DIM)
    for k, card in enumerate(cards):
        c.paste_card(_face(card, SMALL_CARD_W), (round(x) + k * (sw + 4), round(y) + DEALER_H - sh - 10))


def _badge_width(text: str, size: int) -> float:
    """The width :meth:`Canvas.badge` gives a tag of ``text``."""
    return text_width(text, size) + 2 * max(2, size // 5)


def _bettors(pile: PileView) -> list[tuple[int, int]]:
    """Bets summed per seat, in the order each seat first bet on the pile (that order breaks decider ties)."""
    totals: dict[int, int] = {}
    for seat, amount in pile.bets:
        totals[seat] = totals.get(seat, 0) + amount
    return list(totals.items())


def _pile_column(
    c: Canvas, view: OichoPublicView, pile: PileView, x0: int, t: _Text, last: dict[str, Any] | None
) -> None:
    lang = t.lang
    col_w = PILE_COL_W
    x1 = x0 + col_w
    y0, y1 = PILES_Y, PILES_BOTTOM
    if view.phase == "deciding" and view.current_pile == pile.number:  # framed over the backdrop's panel
        c.draw.rounded_rectangle((x0, y0, x1, y1), radius=8, outline=P.GOLD, width=3)
    pad = PILE_PAD
    base = y0 + 28  # the backdrop has the pile's label (P1 … P4) there
    if pile.total:
        run(c, _pile_total, x1 - pad, base, (-col_w, -26, 4, 8), lang, t.chips(pile.total))

    cards_y = PILE_CARDS_Y
    _card_slots(c, pile.cards, x0 + PILE_CARDS_DX, cards_y)
    y = cards_y + card_size(CARD_W)[1] + 26

    points = _visible_points(pile.cards) if pile.hand is None else None
    outcome = (pile.outcome, max(1, pile.multiplier)) if pile.outcome is not None else None
    marking = view.phase in ("betting", "deciding") and not pile.decided
    bets = tuple(
        Bet(t.names[seat], amount, seat in view.to_act, marking and pile.decider == seat)
        for seat, amount in _bettors(pile)
    )
    run(c, _pile_lower, x0, y, (0, -26, col_w + 1, y1 - y), lang, t.stake, pile.hand, points, outcome, bets)
    before = next((p for p in (last or {}).get("piles", ()) if p.get("number") == pile.number), None)
    if last is not None and before is not None:
        heading = label("oicho.table_last_round", lang, FALLBACK, round=last["round"])
        heading += " · " + _hand_text(before, lang)
        was = (str(before["outcome"]), max(1, int(before["multiplier"])))
        top = LAST_PILE_Y
        run(c, _last_pile, x0, top, (0, 0, col_w + 1, y1 - top), lang, heading, tuple(before["cards"]), was)


LAST_PILE_Y = PILES_BOTTOM - 128
"""Where a pile's last round is shown, under its betting lines' place (nobody has bet yet while it is shown)."""


def _hand_text(shown: dict[str, Any], lang: str) -> str:
    """A summary's hand (``{"kind", "points", "tier", "multiplier"}``) by name."""
    hand = shown["hand"]
    return hand_name(HandView(hand["points"], hand["tier"], hand["kind"], hand["multiplier"]), lang)


def _last_cards(c: Canvas, x: float, y: float, heading: str, cards: tuple[str, ...], width: float) -> int:
    """A heading and up to three small cards under it (a :func:`~bot.render.layers.run`); returns the cards' height."""
    sw, sh = card_size(SMALL_CARD_W)
    c.fitted((x, y + 22), heading, 18, width, P.TEXT_DIM)
    for k, text in enumerate(cards[:3]):
        c.paste_card(_face(KabuCard.parse(text), SMALL_CARD_W), (round(x) + k * (sw + 4), round(y) + 32))
    return sh


def _last_dealer(c: Canvas, x: float, y: float, heading: str, cards: tuple[str, ...], hand: str, width: float) -> None:
    """The last round's dealer and hand, right of this round's dealer's cards (a :func:`~bot.render.layers.run`)."""
    sh = _last_cards(c, x, y, heading, cards, width)
    c.fitted((x, y + 32 + sh + 20), hand, 18, width, P.TEXT_DIM)


def _last_pile(
    c: Canvas, x0: float, y: float, lang: str, heading: str, cards: tuple[str, ...], outcome: tuple[str, int]
) -> None:
    """A pile's last round, while nobody has bet on the next (a :func:`~bot.render.layers.run`): the round and its
    hand, its cards small, and its outcome on a bar."""
    sh = _last_cards(c, x0 + PILE_PAD, y, heading, cards, PILE_COL_W - 2 * PILE_PAD)
    text, colour = _outcome(*outcome, lang)
    bar_y = y + 32 + sh + 28
    x1 = x0 + PILE_COL_W
    c.bar((x0 + 4, bar_y - 21, x1 - 4, bar_y + 6), colour)
    c.fitted(((x0 + x1) / 2, bar_y), text, 18, PILE_COL_W - 12, P.INK, anchor="ms")


class Bet(NamedTuple):
    """A bettor's line on a pile: name, points bet, whether he is to act (gold), whether he decides the pile (決)."""

    name: str
    amount: int
    to_act: bool
    decider: bool


def _pile_lower(
    c: Canvas,
    x0: float,
    y: float,
    lang: str,
    stake: int,
    hand: HandView | None,
    points: int | None,
    outcome: tuple[str, int] | None,
    bets: tuple[Bet, ...],
) -> None:
    """A pile under its cards (a :func:`~bot.render.layers.run`: the words are looked up only when it is drawn):
    its result, then each bettor's line."""
    _pile_result(c, x0, y, lang, hand, points, outcome)
    y += 56 if outcome else 28
    _bet_lines(c, x0 + PILE_PAD, y, PILE_COL_W - 2 * PILE_PAD, PILES_BOTTOM - 6, lang, stake, bets)


BET_LINE_H = 21


def _bet_lines(
    c: Canvas, x: float, y: float, width: float, bottom: float, lang: str, stake: int, bets: tuple[Bet, ...]
) -> None:
    """Each bettor's name and amount; two narrower columns when one would overflow (9 children fit)."""
    rows = max(1, int((bottom - y) // BET_LINE_H) + 1)
    columns = 1 if len(bets) <= rows else 2
    gap = 12
    col_w = (width - gap * (columns - 1)) / columns
    size = 19 if columns == 1 else 17
    slots = rows * columns
    shown = bets if len(bets) <= slots else bets[: slots - 1]
    for k, bet in enumerate(shown):
        col, row = divmod(k, rows)
        lx, ly = x + col * (col_w + gap), y + row * BET_LINE_H
        aw = c.text((lx + col_w, ly), f"{bet.amount * stake:,}", size, P.GOLD, anchor="rs")
        lead = 0.0
        if bet.decider:  # 決: who decides this pile's second extra
            lead = c.badge(lx, ly, "決", size - 4, P.GOLD, P.INK) + 3
        colour = P.GOLD if bet.to_act else P.TEXT
        c.fitted((lx + lead, ly), bet.name, size, col_w - aw - 6 - lead, colour)
    if len(shown) < len(bets):
        rest = bets[len(shown) :]
        col, row = divmod(len(shown), rows)
        lx, ly = x + col * (col_w + gap), y + row * BET_LINE_H
        tw = c.text((lx + col_w, ly), f"{sum(b.amount for b in rest) * stake:,}", size, P.TEXT_DIM, anchor="rs")
        more = label("oicho.table_more_bets", lang, FALLBACK, count=len(rest))
        c.fitted((lx, ly), more, size, col_w - tw - 6, P.TEXT_DIM)


def _pile_total(c: Canvas, right: float, base: float, lang: str, chips: str) -> None:
    """What the pile's bets add up to, on the right of its label (a :func:`~bot.render.layers.run`)."""
    total = label("oicho.table_pile_total", lang, FALLBACK, total=chips)
    c.fitted((right, base), total, 20, PILE_COL_W - 60, P.GOLD, anchor="rs")


def _pile_result(
    c: Canvas,
    x0: float,
    y: float,
    lang: str,
    hand: HandView | None,
    points: int | None,
    outcome: tuple[str, int] | None,
) -> None:
    """A pile's hand (or the points of its face-up cards) and, at the showdown, its outcome (and multiplier) on a
    coloured bar under it."""
    col_w = PILE_COL_W
    if hand is not None:
        c.fitted((x0 + PILE_PAD, y), hand_name(hand, lang), 22, col_w - 2 * PILE_PAD, P.TEXT)
    elif points is not None:
        c.fitted((x0 + PILE_PAD, y), points_name(points, lang), 22, col_w - 2 * PILE_PAD, P.TEXT_DIM)
    if outcome is not None:
        text, colour = _outcome(*outcome, lang)
        y += 28
        x1 = x0 + col_w
        c.bar((x0 + 4, y - 21, x1 - 4, y + 6), colour)
        c.fitted(((x0 + x1) / 2, y), text, 20, col_w - 12, P.INK, anchor="ms")


def _outcome(outcome: str, multiplier: int, lang: str) -> tuple[str, P.RGB]:
    colour = {"pile": P.WIN, "dealer": P.LOSE, "push": P.PUSH}.get(outcome, P.FELT_LINE)
    return label(f"oicho.table_outcome_{outcome}", lang, FALLBACK, mult=multiplier), colour


def _seat_strip(c: Canvas, view: OichoPublicView, t: _Text, last: dict[str, Any] | None) -> None:
    names = t.names
    cell_w = (WIDTH - 2 * MARGIN) // SEATS_COLS
    deltas = view.last_deltas if view.phase in ("round_over", "game_over") or last is not None else None
    for seat in range(view.seats):
        row, col = divmod(seat, SEATS_COLS)
        if row >= SEATS_ROWS:
            break  # the engine allows 2–10 seats; two rows of five hold them all
        x = MARGIN + col * cell_w
        base = SEATS_Y + row * SEAT_ROW_H + 22  # on the backdrop's seat frame
        active = view.active[seat] if seat < len(view.active) else True
        delta = deltas[seat] if deltas is not None and seat < len(deltas) else 0
        stack = t.short(view.stacks[seat]) if seat < len(view.stacks) else ""
        run(
            c,
            _seat_cell,
            x,
            base,
            (0, -24, cell_w, 8),
            cell_w,
            names[seat],
            stack,
            t.signed(delta) if delta else "",
            delta > 0,
            active,
            seat in view.to_act,
            seat == view.dealer,
            seat in view.winners,
        )


def _seat_cell(
    c: Canvas,
    x: float,
    base: float,
    cell_w: int,
    name: str,
    stack: str,
    delta: str,
    won: bool,
    active: bool,
    to_act: bool,
    dealer: bool,
    winner: bool,
) -> None:
    """A seat's cell (a :func:`~bot.render.layers.run`, on the backdrop's frame): the turn marker, the dealer's
    badge and the winner's star, the name, and on the right the stack and the round's result."""
    colour = P.TEXT if active else P.TEXT_DIM  # a bust seat (0 chips) sits out, dimmed
    lead = 6.0
    if to_act:
        c.text((x + lead, base), TURN_MARK, 18, P.GOLD)
        lead += 20
    if dealer:
        lead += c.badge(x + lead, base, DEALER_BADGE, 16, P.GOLD, P.INK) + 4
    if winner:
        c.text((x + lead, base), WINNER_MARK, 18, P.GOLD)
        lead += 20
    right: float = x + cell_w - 10
    if delta:
        right -= c.text((right, base), delta, 16, P.WIN if won else P.LOSE, anchor="rs") + 6
    right -= c.text((right, base), stack, 18, colour, anchor="rs") + 8
    c.fitted((x + lead, base), name, 18, right - x - lead, P.GOLD if to_act else colour)
