"""The public Luk Fu table (六虎): one flat image drawn from the engine's public view only.

The signature takes :class:`~games.luk_fu.views.LukFuPublicView`, never the seat view, so the type checker keeps
private cards out of the public image: a card the onlooker may not see (a face-down follow) is ``None`` there
and is drawn as a card back; the sitter's card is only said to exist and is drawn as a back.

Layout (1000 px wide, 550 px tall for 3 seats and 634 for 4; shown about 450 px wide on a phone, so nothing
important is smaller than 16 px and the trick's cards are 84 px wide):

* top bar: game and deal (of ``hands_total``), what happens now and who acts; the dead card (3 players);
* centre panel, by phase:

  * the trick in progress: lead first, then the follows in order of play, each under its player's name;
    face-down follows as backs; the play winning it framed in green; players still to play as empty places;
  * between tricks (and while the winner chooses to stop or play on): the last finished trick and its winner,
    so every trick stays on the table until the next lead;
  * before the first lead: the empty trick, who leads, and the parent's 3-card limit if he passed;
  * the call (and the ``after_call`` Five Tigers question): each player's call in order, parent first;
    beside it the last hand's result: winner and tricks (or Five Tigers 五虎, no winner, all passed), the
    winner's winning cards and, at 4 players, the sitter's card revealed at settlement; under them the last
    hand's final trick (the engine settles a hand and deals the next in the step that plays its last trick,
    so that trick is never on the table between tricks): each play under its player's name, face-down ones as
    backs, the winning play framed in green; it stays until the new hand's first lead;
  * game over: the final stacks with the winners, beside the last hand's result (and its final trick);

* one row per seat, in seat order: name, stack (× stake), the roles (親 parent, dealer, declarer, sitter, out),
  the last hand's result between hands; the tricks taken (of 12, green from 6) and cards in hand; the face-up
  row of the seat's own winning cards (up to 12), or the sitter's hidden card as a back.

Card faces are :func:`bot.render.cards.lukfu_face`: the Chinese numeral over the suit kanji, red cards with a
red numeral and frame, Li Tyen as 老千.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from PIL import Image

from bot.i18n import t
from bot.render import palette as P
from bot.render.cards import card_size, lukfu_face
from bot.render.encode import Format, encode
from bot.render.layers import blank_canvas
from bot.render.plan import Drawing, RecordingCanvas, Words
from bot.render.plan import PlacedCard as PlacedCard  # (re-exported: what a drawing lists)
from bot.render.plan import PlacedText as PlacedText
from games.core.cards import LukFuCard, parse_lukfu
from games.luk_fu.views import LukFuPublicView, PlayView, TrickView

WIDTH = 1000
MARGIN = 10
TOP_BAR_H = 40
GAP = 8
CENTRE_Y = TOP_BAR_H + GAP
CENTRE_H = 240
ROWS_Y = CENTRE_Y + CENTRE_H + GAP
ROW_H = 78
ROW_GAP = 6

TRICK_CARD_W = 84
"""A trick of 1 to 3 cards a play: three columns of cards as wide as the Oicho table's and more."""
QUAD_CARD_W = 72
"""A quad: four cards a play still fit a column."""
RUN_CARD_W = 40
"""A play of 5 to 9 cards (a long run, the Five Tigers lead): the three plays become three rows."""
SMALL_CARD_W = 40
"""Winning cards, the sitter's card and the last hand's cards."""
DEAD_CARD_W = 18
CARD_GAP = 4
SMALL_GAP = 2
COLUMN_MAX = 4
"""Plays of up to this many cards are drawn as columns; longer ones as rows."""

MIN_TEXT = 16
NAME_SIZE = 22
STATUS_SIZE = 22
TURN_MARK = "▶"
WINNER_MARK = "★"

INFO_W = 282
"""A seat row's name block (name, stack, roles)."""
TRICKS_X = INFO_W + 18
TRICKS_W = 150
WON_X = TRICKS_X + TRICKS_W + 10

CALL_W = 392
"""Width of the call list (or the final standings) when the last hand's result stands beside it."""
FINAL_TOP = 136
"""Where the last hand's final trick starts, from the centre panel's top (under the last hand's cards)."""
FINAL_LABEL_W = 150
"""The final trick's label column (its title, and who won it) is this wide at most, unless the plays leave room."""
FINAL_NAME_W = 110
"""The least column a play of the final trick takes when there is room: its player's name above its cards."""
FINAL_COL_GAP = 14
"""Between the final trick's plays (the winning play's frame stands 6 px out into it)."""


def table_height(seats: int) -> int:
    """The image's height: the top bar, the centre panel and one row per seat."""
    return ROWS_Y + seats * (ROW_H + ROW_GAP) + 2


# ---------------------------------------------------------------- the drawing plan


LukFuDrawing = Drawing
"""What a render drew, where. Card areas (``PlacedCard.area``): ``trick`` (the trick in progress or the last one), ``won`` (a seat's winning cards), ``sitter`` (the
    sitter's hidden card), ``dead`` (the dead card), ``last_hand`` (the last hand's cards, revealed),
    ``final_trick`` (the last hand's final trick: its face-up plays, and backs for the face-down ones)."""


class _Painter(RecordingCanvas):
    deck = "lukfu"

    def face(self, card: LukFuCard, width: int) -> Image.Image:
        return lukfu_face(card.rank, card.suit, width)


# ---------------------------------------------------------------- entry points


def render_luk_fu_table(
    view: LukFuPublicView, names: list[str], lang: str = "en", stake: int = 1, *, fmt: Format = "png"
) -> bytes:
    """The public table as upload bytes (paletted PNG by default).

    ``names[seat]`` is each seat's display name; ``stake`` (chips per point, a table setting) turns the view's
    points into the chips shown.
    """
    return encode(compose_luk_fu_table(view, names, lang, stake, paletted=fmt == "png", reuse_frame=True), fmt)


def compose_luk_fu_table(
    view: LukFuPublicView,
    names: Sequence[str],
    lang: str = "en",
    stake: int = 1,
    *,
    paletted: bool = False,
    reuse_frame: bool = False,
) -> Image.Image:
    """The public table as an RGB image, before encoding (``paletted``: on the table palette, for the PNG)."""
    return draw_luk_fu_table(view, names, lang, stake, paletted=paletted, reuse_frame=reuse_frame).img


def draw_luk_fu_table(
    view: LukFuPublicView,
    names: Sequence[str],
    lang: str = "en",
    stake: int = 1,
    *,
    paletted: bool = False,
    reuse_frame: bool = False,
) -> LukFuDrawing:
    """The public table and the plan of what was drawn where (``reuse_frame``: drawn in this thread's reused frame,
    :func:`~bot.render.layers.reused_frame`, for a render that encodes it at once)."""
    c = blank_canvas(_Painter, (WIDTH, table_height(view.seats)), paletted, reuse_frame)
    w = Words([names[i] if i < len(names) and names[i] else f"#{i + 1}" for i in range(view.seats)], lang, stake)
    _top_bar(c, view, w)
    _centre(c, view, w)
    for seat in range(view.seats):
        _seat_row(c, view, seat, ROWS_Y + seat * (ROW_H + ROW_GAP), w)
    return c.plan


# ---------------------------------------------------------------- top bar


def _top_bar(c: _Painter, view: LukFuPublicView, w: Words) -> None:
    lang = w.lang
    c.draw.rectangle((0, 0, WIDTH, TOP_BAR_H), fill=P.FELT_DARK)
    c.plan.panels.append((0, 0, WIDTH, TOP_BAR_H))
    base = TOP_BAR_H - 12
    title = t("luk_fu_render.title", lang, deal=view.deal_no, total=view.hands_total)
    x = MARGIN + c.fitted((MARGIN, base), title, 20, 330, P.TEXT_DIM) + 16
    right: float = WIDTH - MARGIN
    if view.dead_card and not view.game_over:
        cw, ch = card_size(DEAD_CARD_W)
        c.card(None, right - cw, (TOP_BAR_H - ch) / 2, DEAD_CARD_W, "dead")
        right -= cw + 8
        right -= c.text((right, base), t("luk_fu_render.dead_card", lang), 16, P.TEXT_DIM, anchor="rs") + 16
    c.fitted((x, base), _status(view, w, right - x), STATUS_SIZE, right - x, P.GOLD)


def _status(view: LukFuPublicView, w: Words, room: float) -> str:
    names = w.names
    phase = view.phase
    size = STATUS_SIZE
    if phase == "over":
        return w.say("luk_fu_render.status_over", size, room, names=w.who(view.winners))
    if phase == "tigers":
        return w.say("luk_fu_render.status_tigers", size, room, names=w.who(view.tigers_waiting))
    seat = {"call": view.caller, "lead": view.leader, "follow": view.follower, "stop": view.stop_seat}.get(phase)
    if seat is None:
        return ""
    return w.say(f"luk_fu_render.status_{phase}", size, room, name=names[seat])


# ---------------------------------------------------------------- centre panel


def _centre(c: _Painter, view: LukFuPublicView, w: Words) -> None:
    x0, y0, x1 = MARGIN, CENTRE_Y, WIDTH - MARGIN
    c.panel((x0, y0, x1, y0 + CENTRE_H))
    last = view.last_result
    if view.phase == "over":
        split = x1 if last is None else x0 + CALL_W
        _standings(c, view, w, x0, split)
    elif view.trick is not None:
        _trick(c, view, view.trick, w, finished=False)
        return
    elif view.last_trick is not None:
        _trick(c, view, view.last_trick, w, finished=True)
        return
    else:  # the call, and the first lead (after it a hand always has a trick on the table)
        split = x1 if last is None else x0 + CALL_W
        _calls(c, view, w, x0, split)
    if last is not None:
        c.draw.line((split + 4, y0 + 14, split + 4, y0 + CENTRE_H - 14), fill=P.FELT_LINE, width=2)
        final = _final_trick(last, view.seats)
        _last_hand(c, last, w, split + 20, x1 - 14, compact=final is not None)
        if final is not None:
            c.draw.line((split + 20, y0 + FINAL_TOP - 5, x1 - 14, y0 + FINAL_TOP - 5), fill=P.FELT_LINE, width=1)
            _final_trick_row(c, final, w, split + 20, x1 - 14)


def _order_from(view: LukFuPublicView, first: int | None) -> list[int]:
    """The active players in order of play, starting with ``first``."""
    active = list(view.active)
    if first is None or first not in active:
        return active
    i = active.index(first)
    return active[i:] + active[:i]


def _trick(c: _Painter, view: LukFuPublicView, trick: TrickView, w: Words, *, finished: bool) -> None:
    """The trick in progress (players still to play as empty places) or the last finished one, with its kind,
    what it is worth and, once finished, who won it."""
    lang = w.lang
    x0, y0, x1 = MARGIN, CENTRE_Y, WIDTH - MARGIN
    base = y0 + 30
    x: float = x0 + 14
    x += c.text((x, base), t("luk_fu_render.trick_title", lang, n=trick.number), NAME_SIZE, P.TEXT) + 14
    kind = t(f"luk_fu_render.kind_{trick.kind}", lang, size=trick.size)
    x += c.text((x, base), kind, 20, P.TEXT_DIM) + 14
    if trick.size > 1:
        x += c.text((x, base), t("luk_fu_render.trick_worth", lang, count=trick.size), 18, P.TEXT_DIM) + 14
    if trick.unbeatable:
        x += c.badge(x, base, t("luk_fu_render.unbeatable", lang), 18, P.GOLD, P.INK) + 14
    if finished and trick.winner is not None:
        room = x1 - 14 - x
        won = w.say("luk_fu_render.trick_won_by", NAME_SIZE, room, name=w.names[trick.winner])
        c.fitted((x1 - 14, base), won, NAME_SIZE, room, P.WIN, anchor="rs")

    plays = {p.seat: p for p in trick.plays}
    leader = trick.leader
    order = [p.seat for p in trick.plays]
    order += [s for s in _order_from(view, leader) if s not in order]
    size = trick.size
    to_act = set(view.to_act) if view.phase in ("lead", "follow") and not finished else set()
    entries = [(seat, plays.get(seat), seat in to_act) for seat in order[:3]]
    if size <= COLUMN_MAX:
        _trick_columns(c, entries, size, leader, w, finished)
    else:
        _trick_rows(c, entries, size, leader, w, finished)


def _play_tag(play: PlayView | None, acting: bool, finished: bool, lang: str) -> tuple[str, P.RGB]:
    """What to say under (or beside) a play: winning or won, face down, or that it is this player's turn."""
    if play is None:
        return (t("luk_fu_render.play_to_play", lang), P.GOLD) if acting else ("", P.TEXT_DIM)
    if play.winning:
        return t("luk_fu_render.play_won" if finished else "luk_fu_render.play_winning", lang), P.WIN
    if play.face_down:
        return t("luk_fu_render.play_face_down", lang), P.TEXT_DIM
    return "", P.TEXT_DIM


def _play_name(c: _Painter, x: float, base: float, seat: int, lead: bool, acting: bool, room: float, w: Words) -> None:
    """``[Lead] ▶ name`` on one line."""
    start = x
    if lead:
        x += c.badge(x, base, t("luk_fu_render.play_lead", w.lang), 18, P.GOLD, P.INK) + 8
    if acting:
        x += c.text((x, base), TURN_MARK, 18, P.GOLD) + 6
    c.fitted((x, base), w.names[seat], 20, room - (x - start), P.GOLD if acting else P.TEXT)


def _trick_columns(
    c: _Painter,
    entries: list[tuple[int, PlayView | None, bool]],
    size: int,
    leader: int | None,
    w: Words,
    finished: bool,
) -> None:
    """Three columns (lead first), each: the player's name, the cards, and what the play is doing."""
    x0, y0 = MARGIN, CENTRE_Y
    pad, gap = 10, 12
    col_w = (WIDTH - 2 * MARGIN - 2 * pad - 2 * gap) / 3
    width = TRICK_CARD_W if size <= 3 else QUAD_CARD_W
    cw, ch = card_size(width)
    cards_w = size * cw + (size - 1) * CARD_GAP
    cards_y = y0 + 78
    for k, (seat, play, acting) in enumerate(entries):
        cx = x0 + pad + k * (col_w + gap)
        if play is not None and play.winning:
            c.draw.rounded_rectangle((cx, y0 + 42, cx + col_w, y0 + CENTRE_H - 6), radius=8, outline=P.WIN, width=3)
        _play_name(c, cx + 12, y0 + 68, seat, seat == leader, acting, col_w - 24, w)
        left = cx + (col_w - cards_w) / 2
        for i in range(size):
            if play is None:
                c.slot(left + i * (cw + CARD_GAP), cards_y, width)
            else:
                c.card(
                    play.cards[i] if i < len(play.cards) else None,
                    left + i * (cw + CARD_GAP),
                    cards_y,
                    width,
                    "trick",
                    seat,
                )
        tag, colour = _play_tag(play, acting, finished, w.lang)
        if tag:
            c.fitted((cx + col_w / 2, cards_y + ch + 26), tag, 20, col_w - 16, colour, anchor="ms")


def _trick_rows(
    c: _Painter,
    entries: list[tuple[int, PlayView | None, bool]],
    size: int,
    leader: int | None,
    w: Words,
    finished: bool,
) -> None:
    """Three rows (lead first) for plays of 5 to 9 cards: name, the cards, what the play is doing."""
    x0, y0, x1 = MARGIN, CENTRE_Y, WIDTH - MARGIN
    top = y0 + 44
    row_h = (CENTRE_H - 44 - 6) / 3
    cw, ch = card_size(RUN_CARD_W)
    name_w = 250
    cards_x = x0 + 14 + name_w + 10
    cards_end = cards_x + size * cw + (size - 1) * CARD_GAP
    for k, (seat, play, acting) in enumerate(entries):
        ry = top + k * row_h
        cy = ry + (row_h - ch) / 2
        if play is not None and play.winning:
            c.draw.rounded_rectangle((x0 + 6, ry, x1 - 6, ry + row_h - 2), radius=8, outline=P.WIN, width=3)
        base = cy + ch / 2 + 7
        _play_name(c, x0 + 14, base, seat, seat == leader, acting, name_w, w)
        for i in range(size):
            x = cards_x + i * (cw + CARD_GAP)
            if play is None:
                c.slot(x, cy, RUN_CARD_W)
            else:
                c.card(play.cards[i] if i < len(play.cards) else None, x, cy, RUN_CARD_W, "trick", seat)
        tag, colour = _play_tag(play, acting, finished, w.lang)
        if tag:
            c.fitted((cards_end + 16, base), tag, 20, x1 - 20 - cards_end - 16, colour)


def _calls(c: _Painter, view: LukFuPublicView, w: Words, x0: float, x1: float) -> None:
    """The call so far, one line per active player in order of play (parent first), until the first lead; with
    the Five Tigers question after it (``after_call``), and the parent's 3-card limit if he passed."""
    lang = w.lang
    y0 = CENTRE_Y
    tigers = view.phase == "tigers"
    calling = view.phase == "call"
    title = t("luk_fu_render.tigers_title" if tigers else "luk_fu_render.call_title", lang)
    c.text((x0 + 14, y0 + 30), title, NAME_SIZE, P.TEXT)
    said = dict(view.calls)
    for k, seat in enumerate(view.active):
        base = y0 + 76 + k * 48
        x = x0 + 14
        acting = seat in view.to_act
        if acting:
            x += c.text((x, base), TURN_MARK, 20, P.GOLD) + 6
        if seat == view.parent:
            x += c.badge(x, base, t("luk_fu_render.badge_parent", lang), 18, P.GOLD, P.INK) + 8
        right = x1 - 14
        if seat in said:
            key = "luk_fu_render.call_play" if said[seat] else "luk_fu_render.call_pass"
            text = t(key, lang)
            bw = c.text_width(text, 20) + 2 * max(2, 20 // 5)
            c.badge(right - bw, base, text, 20, P.WIN if said[seat] else P.PUSH, P.INK)
            right -= bw + 12
        elif calling:
            key = "luk_fu_render.call_turn" if seat == view.caller else "luk_fu_render.call_waiting"
            right -= c.text((right, base), t(key, lang), 20, P.GOLD if acting else P.TEXT_DIM, anchor="rs") + 12
        if view.phase == "lead" and acting:
            right -= c.text((right, base), t("luk_fu_render.play_to_lead", lang), 20, P.GOLD, anchor="rs") + 12
        if tigers:
            key = "luk_fu_render.tigers_answering" if seat in view.tigers_waiting else "luk_fu_render.tigers_answered"
            right -= c.text((right, base), t(key, lang), 18, P.GOLD if acting else P.TEXT_DIM, anchor="rs") + 12
        c.fitted((x, base), w.names[seat], NAME_SIZE, right - x, P.GOLD if acting else P.TEXT)
    if view.first_lead_limited:
        c.fitted((x0 + 14, y0 + CENTRE_H - 18), t("luk_fu_render.first_lead_limit", lang), 18, x1 - x0 - 28, P.TEXT_DIM)


def _standings(c: _Painter, view: LukFuPublicView, w: Words, x0: float, x1: float) -> None:
    """Game over: every seat's final stack, most first, the winners starred."""
    lang = w.lang
    y0 = CENTRE_Y
    c.fitted((x0 + 14, y0 + 30), t("luk_fu_render.over_title", lang), NAME_SIZE, x1 - x0 - 28, P.TEXT)
    order = sorted(range(view.seats), key=lambda s: (-view.stacks[s], s))
    line_h = 44 if view.seats <= 4 else 36
    for k, seat in enumerate(order[:4]):
        base = y0 + 76 + k * line_h
        x = x0 + 14
        won = seat in view.winners
        if won:
            x += c.text((x, base), WINNER_MARK, 20, P.GOLD) + 6
        right = x1 - 14
        right -= c.text((right, base), w.chips(view.stacks[seat]), 20, P.GOLD if won else P.TEXT, anchor="rs") + 12
        if won:
            text = t("luk_fu_render.over_winner", lang)
            bw = c.text_width(text, 18) + 2 * max(2, 18 // 5)
            c.badge(right - bw, base, text, 18, P.GOLD, P.INK)
            right -= bw + 12
        c.fitted((x, base), w.names[seat], NAME_SIZE, right - x, P.GOLD if won else P.TEXT)


def _last_hand(c: _Painter, last: dict[str, Any], w: Words, x0: float, x1: float, *, compact: bool = False) -> None:
    """The last hand's result: who won and with how many tricks (or Five Tigers 五虎, no winner, all passed), the
    winner's winning cards and, at 4 players, the sitter's card (revealed at settlement) and his bonus.

    ``compact``: in the panel's top part (above the final trick, from ``FINAL_TOP``): the sitter's card then
    stands at the end of the winning cards' row, its label at the end of the result's line."""
    lang, names = w.lang, w.names
    y0 = CENTRE_Y
    result_base, cards_y = (y0 + 58, y0 + 66) if compact else (y0 + 66, y0 + 82)
    c.fitted(
        (x0, y0 + 30), t("luk_fu_render.last_hand_title", lang, deal=last.get("deal", "")), 18, x1 - x0, P.TEXT_DIM
    )
    said = last.get("winner")
    winner = said if isinstance(said, int) and 0 <= said < len(names) else None
    tricks = last.get("tricks") or []
    ended = last.get("ended_by")
    cw, ch = card_size(SMALL_CARD_W)
    sitter_card = last.get("sitter_card")
    cards_x1 = x1
    result_x1 = x1
    result_key = (
        ("luk_fu_render.last_tigers" if ended == "five_tigers" else "luk_fu_render.last_won")
        if winner is not None
        else ("luk_fu_render.last_all_passed" if ended == "all_passed" else "luk_fu_render.last_no_winner")
    )
    count = tricks[winner] if winner is not None and winner < len(tricks) else 0
    if isinstance(sitter_card, str) and ended != "all_passed":
        sitter = last.get("sitter")
        who = names[sitter] if isinstance(sitter, int) and 0 <= sitter < len(names) else ""
        if compact:
            # the result first; the sitter's label takes the rest of the line (his name cut first)
            key = "luk_fu_render.last_sitter_card"
            result = t(result_key, lang, name="" if winner is None else names[winner], tricks=count)
            least = c.text_width(t(key, lang, name=""), 18) + 3 * 18
            room = min(
                c.text_width(t(key, lang, name=who), 18), max(least, x1 - x0 - 16 - c.text_width(result, NAME_SIZE))
            )
            label = w.say(key, 18, room, name=who)
            result_x1 -= c.fitted((x1, result_base), label, 18, room, P.TEXT_DIM, anchor="rs") + 16
            c.card(LukFuCard.parse(sitter_card), x1 - cw, cards_y, SMALL_CARD_W, "last_hand", sitter)
            cards_x1 -= cw + 10
            if last.get("sitter_bonus"):
                text = t("luk_fu_render.last_sitter_bonus", lang)
                bw = c.text_width(text, 18) + 2 * max(2, 18 // 5)
                c.badge(cards_x1 - bw, cards_y + ch / 2 + 7, text, 18, P.WIN, P.INK)
                cards_x1 -= bw + 10
            cards_x1 -= 6
        else:
            top = y0 + CENTRE_H - 14 - ch
            base = top + ch / 2 + 7
            label = w.say("luk_fu_render.last_sitter_card", 18, x1 - x0 - 2 * cw - 120, name=who)
            x = x0 + c.text((x0, base), label, 18, P.TEXT_DIM) + 10
            c.card(LukFuCard.parse(sitter_card), x, top, SMALL_CARD_W, "last_hand", sitter)
            if last.get("sitter_bonus"):
                c.badge(x + cw + 10, base, t("luk_fu_render.last_sitter_bonus", lang), 18, P.WIN, P.INK)
    if winner is not None:
        result = w.say(result_key, NAME_SIZE, result_x1 - x0, name=names[winner], tricks=count)
        c.fitted((x0, result_base), result, NAME_SIZE, result_x1 - x0, P.GOLD)
        won_cards = (last.get("winning_cards") or [])[winner] if winner < len(last.get("winning_cards") or []) else []
        step = min(cw + SMALL_GAP, (cards_x1 - x0 - cw) / max(1, len(won_cards) - 1))
        for i, text in enumerate(won_cards[:12]):
            c.card(LukFuCard.parse(text), x0 + i * step, cards_y, SMALL_CARD_W, "last_hand", winner)
    else:
        c.fitted((x0, result_base), t(result_key, lang), NAME_SIZE, result_x1 - x0, P.TEXT)


# ---------------------------------------------------------------- the last hand's final trick


@dataclass(frozen=True)
class _FinalTrick:
    """The last hand's final trick, as its summary logged it."""

    winner: int
    plays: tuple[PlayView, ...]
    """Lead first, then the follows in order of play; a face-down play's cards are all ``None``."""


def _final_trick(last: dict[str, Any], seats: int) -> _FinalTrick | None:
    """The trick that ended the last hand (it was played out, or its winner stopped), from ``trick_log[-1]`` of
    its summary; None when the hand ended otherwise (everyone passed; Five Tigers 五虎, revealed after the call
    or at a lead: then the logged trick, if any, was already seen between tricks) or the log is not as expected.

    The face-up cards (public: played face up) are parsed for drawing; a face-down play is only counted in the
    summary and becomes that many backs."""
    if last.get("ended_by") not in ("all_played", "stop"):
        return None
    log = last.get("trick_log")
    if not isinstance(log, list) or not log or not isinstance(log[-1], dict):
        return None
    entry = log[-1]
    winner = entry.get("winner")
    plays: list[PlayView] = []
    try:
        for play in entry.get("plays") or ():
            seat = play["seat"]
            if not isinstance(seat, int) or not 0 <= seat < seats:
                return None
            if "cards" in play:
                cards: tuple[LukFuCard | None, ...] = tuple(parse_lukfu(" ".join(play["cards"])))
                down = False
            else:
                count = play["face_down"]
                if not isinstance(count, int) or count < 1:
                    return None
                cards, down = (None,) * count, True
            if not 1 <= len(cards) <= 12:
                return None
            plays.append(PlayView(seat=seat, cards=cards, face_down=down, winning=not down and seat == winner))
    except (KeyError, TypeError, ValueError):  # ValueError: NotationError
        return None
    if not isinstance(winner, int) or not any(p.winning for p in plays):
        return None
    return _FinalTrick(winner, tuple(plays[:3]))


def _final_widths(plays: Sequence[PlayView], room: float) -> list[float]:
    """Each play's column width within ``room`` (every play of a trick has as many cards): equal while the cards
    fit so; else the face-down plays (backs: nothing to read) close up first, then the face-up cards lose their
    gaps, then only the winning play keeps its cards apart; past that every play's cards overlap alike."""
    n = len(plays)
    size = max(len(p.cards) for p in plays)
    cw, _ = card_size(SMALL_CARD_W)
    natural = size * cw + (size - 1) * CARD_GAP
    touching = size * cw
    closed = cw + (size - 1) * 6
    up = [i for i, p in enumerate(plays) if not p.face_down]
    down = [i for i, p in enumerate(plays) if p.face_down]
    if natural * n <= room or not up:
        return [room / n] * n
    if down and natural * len(up) + closed * len(down) <= room:
        share = (room - natural * len(up)) / len(down)
        return [share if p.face_down else natural for p in plays]
    if touching * len(up) + closed * len(down) <= room:
        share = (room - closed * len(down)) / len(up)
        return [closed if p.face_down else share for p in plays]
    if touching + closed * (n - 1) <= room:
        return [room - closed * (n - 1) if p.winning else closed for p in plays]
    return [room / n] * n


def _final_trick_row(c: _Painter, final: _FinalTrick, w: Words, x0: float, x1: float) -> None:
    """The last hand's final trick in the panel's bottom part: its label and winner on the left, then each play
    (lead first) under its player's name, face-down plays as backs, the winning play framed in green."""
    lang = w.lang
    top = CENTRE_Y + FINAL_TOP
    name_base = top + 20
    cards_y = name_base + 8
    cw, ch = card_size(SMALL_CARD_W)
    plays = final.plays
    # the label column: FINAL_LABEL_W at most, or more while every play keeps a column of its cards' width (and
    # at least FINAL_NAME_W, for its player's name)
    size = max(len(p.cards) for p in plays)
    column = max(size * cw + (size - 1) * CARD_GAP, FINAL_NAME_W)
    room = max(FINAL_LABEL_W, x1 - x0 - FINAL_COL_GAP - 6 - len(plays) * column - (len(plays) - 1) * FINAL_COL_GAP)
    label = t("luk_fu_render.last_final_trick", lang)
    won = w.say("luk_fu_render.trick_won_by", 18, room, name=w.names[final.winner])
    label_w = min(room, max(c.text_width(label, 18), c.text_width(won, 18)))
    c.fitted((x0, name_base), label, 18, label_w, P.TEXT_DIM)
    c.fitted((x0, cards_y + ch / 2 + 7), won, 18, label_w, P.WIN)

    left = x0 + label_w + FINAL_COL_GAP + 6
    widths = _final_widths(plays, x1 - left - (len(plays) - 1) * FINAL_COL_GAP)
    x = left
    for play, width in zip(plays, widths, strict=True):
        if play.winning:
            c.draw.rounded_rectangle(
                (x - 6, top - 2, x + width + 6, cards_y + ch + 6), radius=8, outline=P.WIN, width=3
            )
        c.fitted((x + width / 2, name_base), w.names[play.seat], 18, width, P.TEXT, anchor="ms")
        size = len(play.cards)
        step = min(cw + CARD_GAP, (width - cw) / max(1, size - 1))
        span = cw + (size - 1) * step
        for i, card in enumerate(play.cards):
            c.card(card, x + (width - span) / 2 + i * step, cards_y, SMALL_CARD_W, "final_trick", play.seat)
        x += width + FINAL_COL_GAP


# ---------------------------------------------------------------- seat rows


def _between_hands(view: LukFuPublicView) -> bool:
    """The last hand's chips are shown in the seat rows: from its end until the next hand's first lead (while the
    centre panel shows the last hand's result)."""
    return view.last_deltas is not None and (view.phase == "over" or view.trick_no == 0)


def _seat_row(c: _Painter, view: LukFuPublicView, seat: int, y: float, w: Words) -> None:
    lang = w.lang
    x0, x1 = MARGIN, WIDTH - MARGIN
    acting = seat in view.to_act
    seated = view.seated[seat] if seat < len(view.seated) else True
    playing = seat in view.active
    c.panel((x0, y, x1, y + ROW_H), outline=P.GOLD if acting else None)
    colour = P.TEXT if seated else P.TEXT_DIM

    # name, stack; roles and the last hand's result
    base1, base2 = y + 30, y + 64
    x: float = x0 + 12
    if acting:
        x += c.text((x, base1), TURN_MARK, 20, P.GOLD) + 6
    if view.game_over and seat in view.winners:
        x += c.text((x, base1), WINNER_MARK, 20, P.GOLD) + 6
    right: float = x0 + INFO_W
    right -= c.text((right, base1), w.chips(view.stacks[seat]), 20, colour, anchor="rs") + 12
    c.fitted((x, base1), w.names[seat], NAME_SIZE, right - x, P.GOLD if acting else colour)

    x = x0 + 12
    right = x0 + INFO_W
    deltas = view.last_deltas
    if deltas is not None and _between_hands(view) and seat < len(deltas) and deltas[seat]:
        d = deltas[seat]
        right -= c.text((right, base2), w.signed(d), 18, P.WIN if d > 0 else P.LOSE, anchor="rs") + 10
    for text, bg in _roles(view, seat, lang):
        bw = c.text_width(text, MIN_TEXT) + 2 * max(2, MIN_TEXT // 5)
        if x + bw > right:
            break
        x += c.badge(x, base2, text, MIN_TEXT, bg, P.INK) + 6

    if seat == view.sitter and view.sitter_has_card and not view.game_over:
        cw, ch = card_size(SMALL_CARD_W)
        c.card(None, x0 + WON_X, y + (ROW_H - ch) / 2, SMALL_CARD_W, "sitter", seat)
        c.text((x0 + WON_X + cw + 12, y + ROW_H / 2 + 7), t("luk_fu_render.sitter_hidden", lang), 18, P.TEXT_DIM)
        return
    if not playing:
        return

    # tricks taken (of 12; green from 6) and cards in hand
    tricks = view.tricks[seat]
    tx: float = x0 + TRICKS_X
    six = seat in view.reached_six
    count_colour = P.WIN if tricks >= 6 else P.TEXT
    tx += c.text((tx, base1 + 2), str(tricks), 30, count_colour, bold=True) + 4
    c.fitted((tx, base1 + 2), t("luk_fu_render.tricks_of", lang), MIN_TEXT, x0 + TRICKS_X + TRICKS_W - tx, P.TEXT_DIM)
    tx = x0 + TRICKS_X
    if not view.game_over:
        held = t("luk_fu_render.hand_count", lang, count=view.hand_sizes[seat])
        tx += c.text((tx, base2), held, 18, P.TEXT_DIM) + 8
    if six:
        c.badge(tx, base2, t("luk_fu_render.badge_six", lang), MIN_TEXT, P.WIN, P.INK)

    # the face-up row of the seat's own winning cards
    won = view.winning_cards[seat] if seat < len(view.winning_cards) else ()
    if won:
        cw, ch = card_size(SMALL_CARD_W)
        room = x1 - 10 - (x0 + WON_X)
        step = min(cw + SMALL_GAP, (room - cw) / max(1, len(won) - 1))
        for i, card in enumerate(won):
            c.card(card, x0 + WON_X + i * step, y + (ROW_H - ch) / 2, SMALL_CARD_W, "won", seat)


def _roles(view: LukFuPublicView, seat: int, lang: str) -> list[tuple[str, P.RGB]]:
    """The seat's badges: out (bust), parent 親, dealer, declarer, sitter (at game over: in the last hand)."""
    if seat < len(view.seated) and not view.seated[seat]:
        return [(t("luk_fu_render.badge_out", lang), P.LOSE)]
    roles: list[tuple[str, P.RGB]] = []
    if seat == view.parent:
        roles.append((t("luk_fu_render.badge_parent", lang), P.GOLD))
    if seat == view.dealer:
        roles.append((t("luk_fu_render.badge_dealer", lang), P.PUSH))
    if seat == view.declarer:
        roles.append((t("luk_fu_render.badge_declarer", lang), P.WIN))
    if seat == view.sitter:
        roles.append((t("luk_fu_render.badge_sitter", lang), P.PUSH))
    return roles
