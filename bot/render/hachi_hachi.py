"""The public Hachi-Hachi Trick table (ハチハチトリック): one flat image drawn from the engine's public view only.

The signature takes :class:`~games.hachi_hachi.views.HachiPublicView`, never the seat view, so the type checker
keeps private cards out of the public image: the only cards drawn are the turned indicator, the cards played to
tricks, the hands revealed at hand settlement (:class:`~games.hachi_hachi.views.RevealView`) and, between rounds,
what the last round's summary made public (its revealed hands and its last trick). Folded hands, unrevealed hands
and the stock are not in the view, so they cannot be drawn.

Layout (1000 px wide; 520, 626 and 732 px tall for 3-4, 5-6 and 7 seats; shown about 450 px wide on a phone, so
no text is smaller than 16 px and the trick's cards are 84 px wide):

* top bar: the game and round (of ``rounds_total``), then what happens now and who acts (the speaker with the
  fold fee he would pay now, the two declarers choosing, whose card it is, the winners);
* centre panel: on the left, always, the turned card (indicator), the trump suit, the field (平場 / 大場 Ōba /
  絶場 Zetsuba) and its multiplier, the pot (carried + this round's fees) and Mizuten 見ず転 when declared; to
  its right, by phase:

  * ``mizuten``: who decides Mizuten; ``declare``: every player's declaration in declaration order (SP first),
    the speaker and his fee; beside either, the last round's result (who took the pot, the tricks, Mizuten paid)
    and its last trick (the engine settles a round and starts the next in the step that plays the 7th card, so
    that trick is never on the table as a trick: it stays here until the declarations end);
  * ``choose``: the two declarers, who has chosen (never what, until the view shows both choices);
  * ``trick``: the trick in progress in playing order (lead first; empty places for those still to play; the
    winning card framed in green) and, beside it, the last finished trick and its winner, so a trick stays on
    the table after the next lead;
  * ``over``: the final stacks, most first, the winners starred, beside the last round's result;

* the seats in two columns (seat order, left column first), a compact panel each: name, stack, SP, the seat's
  state (to speak, waiting, Play D1-D3, folded with its fee and stack after it, forced out 降ろされ, choosing or
  chosen, then split or fight once shown), tricks and cards in hand during trick play, the last round's chips
  between rounds; and the seat's revealed hand (yaku names, the cards shown, what it is worth) when the view has
  one: this round's from the view's reveals, or between rounds the last round's (marked so, and only those that
  showed a card or were worth something).

At game over the view still lists the last round's fold fees (in ``fees``, ``pot``, ``stacks_after_fees``) though
they are settled into the stacks: the pot shown is then ``pot_carried`` and no fee line is drawn.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from PIL import Image

from bot.render import palette as P
from bot.render.cards import FRENCH_RED_SUITS, FRENCH_SUIT_SYMBOL, Box, card_size, french_face
from bot.render.encode import Format, encode
from bot.render.fonts import fit, text_width
from bot.render.layers import blank_canvas
from bot.render.plan import Drawing, RecordingCanvas, Words
from bot.render.plan import PlacedCard as PlacedCard  # (re-exported: what a drawing lists)
from bot.render.plan import PlacedText as PlacedText
from games.core.cards import FrenchCard
from games.hachi_hachi.views import HachiPublicView, RevealView, SeatLine, TrickView

WIDTH = 1000
MARGIN = 10
TOP_BAR_H = 40
GAP = 8
CENTRE_Y = TOP_BAR_H + GAP
CENTRE_H = 250
ROWS_Y = CENTRE_Y + CENTRE_H + GAP
ROW_H = 100
ROW_GAP = 6
COL_GAP = 8
COL_W = (WIDTH - 2 * MARGIN - COL_GAP) // 2
"""Two columns of seat panels, so seven seats still fit a picture not much taller than wide."""

INFO_W = 232
"""The centre panel's left block: indicator, trump, field, pot, Mizuten."""
PHASE_X = MARGIN + INFO_W + 12
"""Where the phase's part of the centre panel starts."""
SIDE_W = 392
"""The last round's result (or the last trick, during trick play) at the centre panel's right."""

INDICATOR_W = 72
TRICK_CARD_W = 84
LAST_CARD_W = 56
FINAL_CARD_W = 48
REVEAL_CARD_W = 40
CARD_GAP = 4

MIN_TEXT = 16
NAME_SIZE = 22
STATUS_SIZE = 22
TURN_MARK = "▶"
WINNER_MARK = "★"

SEAT_INFO_W = 250
"""A seat panel's left part (name, stack, badges, tricks); the revealed hand takes the rest."""


def rows_of(seats: int) -> int:
    """Seat panels per column."""
    return (seats + 1) // 2


def table_height(seats: int) -> int:
    """The image's height: the top bar, the centre panel and the seat panels in two columns."""
    return ROWS_Y + rows_of(seats) * (ROW_H + ROW_GAP) + 2


def seat_box(seat: int, seats: int) -> Box:
    """Where ``seat``'s panel stands: the left column holds the first half of the seats, top down."""
    rows = rows_of(seats)
    col, row = divmod(seat, rows)
    x = MARGIN + col * (COL_W + COL_GAP)
    y = ROWS_Y + row * (ROW_H + ROW_GAP)
    return (x, y, x + COL_W, y + ROW_H)


# ---------------------------------------------------------------- the drawing plan


HachiHachiDrawing = Drawing
"""What a render drew, where. Card areas (``PlacedCard.area``): ``indicator`` (the turned card), ``trick`` (the trick in progress), ``last_trick`` (this round's last
    finished trick), ``reveal`` (a hand revealed this round, in its seat's panel), ``last_reveal`` (a hand
    revealed in the last round, between rounds), ``final_trick`` (the last round's last trick, between rounds)."""


class _Painter(RecordingCanvas):
    deck = "french"

    def face(self, card: FrenchCard, width: int) -> Image.Image:
        return french_face(card.rank, card.suit, width)

    def frame(self, box: Box) -> None:
        """The green frame of a winning card."""
        self.draw.rounded_rectangle(box, radius=8, outline=P.WIN, width=3)


def _badge_w(text: str, size: int) -> float:
    return text_width(text, size) + 2 * max(2, size // 5)


# ---------------------------------------------------------------- entry points


def render_hachi_hachi_table(
    view: HachiPublicView, names: Sequence[str], lang: str = "en", stake: int = 1, *, fmt: Format = "png"
) -> bytes:
    """The public table as upload bytes (paletted PNG by default).

    ``names[seat]`` is each seat's display name; ``stake`` (chips per point, a table setting) turns the view's
    points (stacks, fees, the pot) into the chips shown.
    """
    return encode(compose_hachi_hachi_table(view, names, lang, stake, paletted=fmt == "png", reuse_frame=True), fmt)


def compose_hachi_hachi_table(
    view: HachiPublicView,
    names: Sequence[str],
    lang: str = "en",
    stake: int = 1,
    *,
    paletted: bool = False,
    reuse_frame: bool = False,
) -> Image.Image:
    """The public table as an RGB image, before encoding (``paletted``: on the table palette, for the PNG)."""
    return draw_hachi_hachi_table(view, names, lang, stake, paletted=paletted, reuse_frame=reuse_frame).img


def draw_hachi_hachi_table(
    view: HachiPublicView,
    names: Sequence[str],
    lang: str = "en",
    stake: int = 1,
    *,
    paletted: bool = False,
    reuse_frame: bool = False,
) -> HachiHachiDrawing:
    """The public table and the plan of what was drawn where (``reuse_frame``: drawn in this thread's reused frame,
    :func:`~bot.render.layers.reused_frame`, for a render that encodes it at once)."""
    c = blank_canvas(_Painter, (WIDTH, table_height(view.seats)), paletted, reuse_frame)
    w = Words(
        [names[i] if i < len(names) and names[i] else f"#{i + 1}" for i in range(view.seats)],
        lang,
        stake,
        "hachi_hachi_render.",
    )
    _top_bar(c, view, w)
    _centre(c, view, w)
    for seat in range(view.seats):
        _seat_panel(c, view, seat, w)
    return c.plan


def _suit(suit: str | None) -> tuple[str, P.RGB]:
    """A suit's symbol and its colour on a dark panel."""
    if suit is None:
        return "", P.TEXT
    return FRENCH_SUIT_SYMBOL[suit], P.LOSE if suit in FRENCH_RED_SUITS else P.TEXT


def _between_rounds(view: HachiPublicView) -> bool:
    """The last round's result shows (centre panel and seat panels): from its end until the next round's
    declarations are over (Mizuten and the declarations), and at game over."""
    return view.last_result is not None and view.phase in ("mizuten", "declare", "over")


# ---------------------------------------------------------------- top bar


def _top_bar(c: _Painter, view: HachiPublicView, w: Words) -> None:
    c.draw.rectangle((0, 0, WIDTH, TOP_BAR_H), fill=P.FELT_DARK)
    c.plan.panels.append((0, 0, WIDTH, TOP_BAR_H))
    base = TOP_BAR_H - 12
    title = w.t("title", round=max(1, view.round_no), total=view.rounds_total)
    x = MARGIN + c.fitted((MARGIN, base), title, 20, 330, P.TEXT_DIM) + 16
    room = WIDTH - MARGIN - x
    c.fitted((x, base), _status(view, w, room), STATUS_SIZE, room, P.GOLD)


def _status(view: HachiPublicView, w: Words, room: float) -> str:
    size = STATUS_SIZE
    phase = view.phase
    if phase == "over":
        return w.say("status_over", size, room, names=w.who(view.winners))
    if phase == "mizuten":
        return w.say("status_mizuten", size, room, name=w.name(view.sp))
    if phase == "declare" and view.speaker is not None:
        return w.say("status_declare", size, room, name=w.name(view.speaker), fee=w.chips(view.speaker_fee))
    if phase == "choose":
        return w.say("status_choose", size, room, names=w.who(view.choosing))
    if phase == "trick" and view.to_play is not None and view.trick is not None:
        key = "status_play" if view.trick.plays else "status_lead"
        return w.say(key, size, room, name=w.name(view.to_play), n=view.trick.number)
    return ""


# ---------------------------------------------------------------- centre panel


def _centre(c: _Painter, view: HachiPublicView, w: Words) -> None:
    x0, y0, x1 = MARGIN, CENTRE_Y, WIDTH - MARGIN
    c.panel((x0, y0, x1, y0 + CENTRE_H))
    _info(c, view, w)
    c.draw.line((x0 + INFO_W + 2, y0 + 14, x0 + INFO_W + 2, y0 + CENTRE_H - 14), fill=P.FELT_LINE, width=2)
    left, right = PHASE_X, x1 - 14
    phase = view.phase
    if phase == "trick":
        split = right - SIDE_W + 100
        _trick(c, view, w, left, split - 24)
        if view.last_trick is not None:
            c.draw.line((split - 8, y0 + 14, split - 8, y0 + CENTRE_H - 14), fill=P.FELT_LINE, width=2)
            _last_trick(c, view.last_trick, w, split + 6, right)
        return
    if phase == "choose":
        _choose(c, view, w, left, right)
        return
    last = view.last_result if _between_rounds(view) else None
    split = right if last is None else right - SIDE_W
    if phase == "over":
        _standings(c, view, w, left, split - 20)
    elif phase == "mizuten":
        _mizuten(c, view, w, left, split - 20)
    else:
        _declarations(c, view, w, left, split - 20)
    if last is not None:
        c.draw.line((split - 8, y0 + 14, split - 8, y0 + CENTRE_H - 14), fill=P.FELT_LINE, width=2)
        _last_round(c, last, view, w, split + 6, right)


def _info(c: _Painter, view: HachiPublicView, w: Words) -> None:
    """The turned card, trump, field and multiplier; the pot; Mizuten."""
    x0, y0 = MARGIN + 14, CENTRE_Y
    room = INFO_W - 28
    c.fitted((x0, y0 + 28), w.t("trump"), 18, room, P.TEXT_DIM)
    card_y = y0 + 40
    cw, ch = card_size(INDICATOR_W)
    tx = x0 + cw + 14
    if view.indicator is not None:
        c.card(view.indicator, x0, card_y, INDICATOR_W, "indicator")
        symbol, colour = _suit(view.trump)
        c.text((tx, card_y + 44), symbol, 40, colour)
        c.fitted((tx, card_y + 74), w.t(f"field_{view.field}"), 18, INFO_W - 14 - (tx - MARGIN), P.TEXT)
        mult_colour = P.GOLD if view.mult > 1 else P.TEXT_DIM
        c.text((tx, card_y + ch - 2), w.t("mult", mult=view.mult), 26, mult_colour, bold=view.mult > 1)
    else:
        c.slot(x0, card_y, INDICATOR_W)
        c.fitted((tx, card_y + ch / 2 + 6), w.t("not_dealt"), 16, INFO_W - 14 - (tx - MARGIN), P.TEXT_DIM)
    base = y0 + 186
    x = x0 + c.text((x0, base), w.t("pot"), 18, P.TEXT_DIM) + 10
    # at game over the round's fees are already in the stacks (the view still lists them): the pot is what is left
    pot = view.pot_carried if view.game_over else view.pot
    c.text((x, base), w.chips(pot), 28, P.GOLD, bold=True)
    fees = pot - view.pot_carried
    if fees and view.pot_carried:
        detail = w.t("pot_detail", carried=w.chips(view.pot_carried), fees=w.chips(fees))
        c.fitted((x0, y0 + 212), detail, 16, room, P.TEXT_DIM)
    if view.mizuten:
        c.badge(x0, y0 + CENTRE_H - 14, fit(w.t("mizuten"), 18, room - 8), 18, P.GOLD)


def _mizuten(c: _Painter, view: HachiPublicView, w: Words, x0: float, x1: float) -> None:
    y0 = CENTRE_Y
    c.fitted((x0, y0 + 30), w.t("mizuten_title"), NAME_SIZE, x1 - x0, P.TEXT)
    x = x0 + c.text((x0, y0 + 72), TURN_MARK, 20, P.GOLD) + 8
    c.fitted((x, y0 + 72), w.say("mizuten_prompt", 20, x1 - x, name=w.name(view.sp)), 20, x1 - x, P.GOLD)
    c.fitted((x0, y0 + 104), w.t("mizuten_note"), 18, x1 - x0, P.TEXT_DIM)


def _declarations(c: _Painter, view: HachiPublicView, w: Words, x0: float, x1: float) -> None:
    """Each player's declaration in declaration order (SP first): Play D1-D3, folded and the fee, forced out; the
    speaker and his fee; those still to speak."""
    y0 = CENTRE_Y
    max_d = view.rules.max_declarers
    count = w.t("declared_count", count=len(view.declarers), max=max_d)
    right = x1 - c.text((x1, y0 + 28), count, 18, P.TEXT_DIM, anchor="rs") - 12
    c.fitted((x0, y0 + 28), w.t("declare_title"), 20, right - x0, P.TEXT)
    said = dict(view.declarations)
    players = view.players
    step = min(36.0, (CENTRE_H - 58 - 14) / max(1, len(players) - 1))
    size = 20 if step >= 32 else 18
    lines = {line.seat: line for line in view.lines}
    for k, seat in enumerate(players):
        base = y0 + 58 + k * step
        x = x0
        speaking = seat == view.speaker
        if speaking:
            x += c.text((x, base), TURN_MARK, size, P.GOLD) + 6
        right = x1
        what = said.get(seat)
        line = lines.get(seat)
        if what == "play" and line is not None:
            text = w.t("state_play", n=line.declarer_no)
            right -= _badge_w(text, 18)
            c.badge(right, base, text, 18, P.WIN)
        elif what == "fold":
            fee = view.fees[seat] if seat < len(view.fees) else 0
            right -= c.text((right, base), w.signed(-fee), size, P.LOSE, anchor="rs") + 8
            text = w.t("state_folded")
            right -= _badge_w(text, 18)
            c.badge(right, base, text, 18, P.PUSH)
        elif what == "forced_out":
            text = w.t("state_forced_out")
            right -= _badge_w(text, 18)
            c.badge(right, base, text, 18, P.PUSH)
        elif speaking:
            right -= c.text(
                (right, base), w.t("fold_fee_now", fee=w.chips(view.speaker_fee)), size, P.GOLD, anchor="rs"
            )
        else:
            right -= c.text((right, base), w.t("state_waiting"), size, P.TEXT_DIM, anchor="rs")
        if seat == view.sp:
            x += c.badge(x, base, w.t("badge_sp"), MIN_TEXT, P.GOLD) + 6
        colour = P.GOLD if speaking else P.TEXT if what != "fold" else P.TEXT_DIM
        c.fitted((x, base), w.names[seat], size, right - 10 - x, colour)


def _choose(c: _Painter, view: HachiPublicView, w: Words, x0: float, x1: float) -> None:
    """The two declarers choosing split or fight at once, in secret: who has chosen, never what."""
    y0 = CENTRE_Y
    c.fitted((x0, y0 + 30), w.t("choose_title"), NAME_SIZE, x1 - x0, P.TEXT)
    first, second = (view.pot + 1) // 2, view.pot // 2
    shares = w.t("choose_shares", first=w.chips(first), second=w.chips(second))
    c.fitted((x0, y0 + 58), w.t("choose_note"), 18, x1 - x0, P.TEXT_DIM)
    box_w = (x1 - x0 - 20) / 2
    top, bottom = y0 + 78, y0 + CENTRE_H - 52
    choices = dict(view.choices)
    lines = {line.seat: line for line in view.lines}
    for k, seat in enumerate(view.declarers[:2]):
        bx = x0 + k * (box_w + 20)
        choosing = seat in view.choosing
        c.draw.rounded_rectangle(
            (bx, top, bx + box_w, bottom), radius=8, outline=P.GOLD if choosing else P.FELT_LINE, width=2
        )
        line = lines.get(seat)
        base = top + 40
        x = bx + 14
        if line is not None and line.declarer_no is not None:
            x += c.badge(x, base, w.t("state_play", n=line.declarer_no), 18, P.WIN) + 10
        if choosing:
            x += c.text((x, base), TURN_MARK, 20, P.GOLD) + 6
        c.fitted((x, base), w.names[seat], NAME_SIZE, bx + box_w - 14 - x, P.GOLD if choosing else P.TEXT)
        base = top + 84
        if seat in choices:
            text, bg = w.t(f"choice_{choices[seat]}"), P.WIN if choices[seat] == "fight" else P.PUSH
        else:
            text, bg = w.t("state_choosing" if choosing else "state_chosen"), P.GOLD if choosing else P.PUSH
        c.badge(bx + 14, base, text, 20, bg)
    c.fitted((x0, y0 + CENTRE_H - 18), shares, 18, x1 - x0, P.TEXT_DIM)


def _trick(c: _Painter, view: HachiPublicView, w: Words, x0: float, x1: float) -> None:
    """The trick in progress: one column per declarer in playing order from the leader, the cards played so far,
    empty places for the rest, the winning card framed."""
    trick = view.trick
    y0 = CENTRE_Y
    if trick is None:
        return
    base = y0 + 30
    x = x0 + c.text((x0, base), w.t("trick_title", n=trick.number), NAME_SIZE, P.TEXT) + 16
    if trick.led_suit is not None:
        symbol, _colour = _suit(trick.led_suit)
        c.text((x, base), w.t("led_suit", suit=symbol), 20, P.TEXT_DIM)
    order = list(view.trick_order)
    if trick.leader in order:
        i = order.index(trick.leader)
        order = order[i:] + order[:i]
    plays = {p.seat: p.card for p in trick.plays}
    n = max(1, len(order))
    gap = 10
    col_w = (x1 - x0 - (n - 1) * gap) / n
    cw, ch = card_size(TRICK_CARD_W)
    cards_y = y0 + 76
    for k, seat in enumerate(order):
        cx = x0 + k * (col_w + gap)
        card = plays.get(seat)
        winning = card is not None and seat == trick.winning
        acting = seat == view.to_play
        if winning:
            c.frame((cx, y0 + 42, cx + col_w, y0 + CENTRE_H - 6))
        x = cx + 8
        if acting:
            x += c.text((x, y0 + 66), TURN_MARK, 18, P.GOLD) + 4
        c.fitted((x, y0 + 66), w.names[seat], 18, cx + col_w - 8 - x, P.GOLD if acting else P.TEXT)
        left = cx + (col_w - cw) / 2
        if card is None:
            c.slot(left, cards_y, TRICK_CARD_W)
        else:
            c.card(card, left, cards_y, TRICK_CARD_W, "trick", seat)
        # under the card: Lead, then Winning (or To play)
        tags: list[tuple[str, P.RGB, bool]] = []
        if seat == trick.leader:
            tags.append((w.t("play_lead"), P.PUSH, True))
        if winning:
            tags.append((w.t("play_winning"), P.WIN, False))
        elif acting and card is None:
            tags.append((w.t("play_to_play"), P.GOLD, False))
        widths = [_badge_w(text, MIN_TEXT) if badge else text_width(text, 18) for text, _, badge in tags]
        base = cards_y + ch + 24
        x = cx + (col_w - sum(widths) - 6 * (len(tags) - 1)) / 2
        for (text, colour, badge), width in zip(tags, widths, strict=True):
            if badge:
                c.badge(x, base, text, MIN_TEXT, colour)
            else:
                c.fitted((x, base), text, 18, cx + col_w - 4 - x, colour)
            x += width + 6


def _last_trick(c: _Painter, trick: TrickView, w: Words, x0: float, x1: float) -> None:
    """This round's last finished trick: its number and winner, each card under its player's name, lead first."""
    y0 = CENTRE_Y
    text = w.say("last_trick", 18, x1 - x0, n=trick.number, name=w.name(trick.winning))
    c.fitted((x0, y0 + 30), text, 18, x1 - x0, P.WIN)
    _trick_cards(
        c, [(p.seat, p.card) for p in trick.plays], trick.winning, w, x0, x1, y0 + 66, LAST_CARD_W, "last_trick"
    )


def _trick_cards(
    c: _Painter,
    plays: Sequence[tuple[int, FrenchCard]],
    winner: int | None,
    w: Words,
    x0: float,
    x1: float,
    name_base: float,
    width: int,
    area: str,
) -> None:
    """A finished trick in a row: each card under its player's name, the winning card framed."""
    n = max(1, len(plays))
    gap = 12
    col_w = (x1 - x0 - (n - 1) * gap) / n
    cw, ch = card_size(width)
    cards_y = name_base + 8
    for k, (seat, card) in enumerate(plays):
        cx = x0 + k * (col_w + gap)
        if seat == winner:
            c.frame((cx + 2, name_base - 20, cx + col_w - 2, cards_y + ch + 6))
        c.fitted((cx + col_w / 2, name_base), w.name(seat), MIN_TEXT, col_w - 12, P.TEXT, anchor="ms")
        c.card(card, cx + (col_w - cw) / 2, cards_y, width, area, seat)


def _standings(c: _Painter, view: HachiPublicView, w: Words, x0: float, x1: float) -> None:
    """Game over: every seat's final stack, most first, the winners starred."""
    y0 = CENTRE_Y
    c.fitted((x0, y0 + 28), w.t("over_title"), 20, x1 - x0, P.TEXT)
    order = sorted(range(view.seats), key=lambda s: (-view.stacks[s], s))
    step = min(36.0, (CENTRE_H - 58 - 14) / max(1, len(order) - 1))
    size = 20 if step >= 32 else 18
    for k, seat in enumerate(order):
        base = y0 + 58 + k * step
        won = seat in view.winners
        x = x0
        if won:
            x += c.text((x, base), WINNER_MARK, size, P.GOLD) + 6
        right = x1 - c.text((x1, base), w.chips(view.stacks[seat]), size, P.GOLD if won else P.TEXT, anchor="rs") - 10
        if won:
            text = w.t("over_winner")
            right -= _badge_w(text, MIN_TEXT)
            c.badge(right, base, text, MIN_TEXT, P.GOLD)
            right -= 10
        c.fitted((x, base), w.names[seat], size, right - x, P.GOLD if won else P.TEXT)


def _last_round(c: _Painter, last: dict[str, Any], view: HachiPublicView, w: Words, x0: float, x1: float) -> None:
    """The last round's result from its summary: who took the pot (or split it, or nobody played), the tricks,
    Mizuten paid, a pot refunded at the game's end; and its last trick, lead first, the winner framed."""
    y0 = CENTRE_Y
    room = x1 - x0
    c.fitted((x0, y0 + 28), w.t("last_round_title", deal=last.get("deal", "")), 18, room, P.TEXT_DIM)
    outcome = last.get("outcome")
    pot_to = [p for p in last.get("pot_to") or [] if isinstance(p, list) and len(p) >= 2]
    tricks = last.get("tricks") or []
    lines: list[tuple[str, P.RGB]] = []
    if outcome == "play" and pot_to:
        seat, amount = pot_to[0][0], pot_to[0][1]
        key = "result_tricks" if amount else "result_tricks_no_pot"
        lines.append((w.say(key, 20, room, name=w.name(seat), pot=w.chips(amount)), P.GOLD))
        counts = [(d, str(tricks[d])) for d in last.get("declarers") or [] if isinstance(d, int) and d < len(tricks)]
        label = w.t("result_tricks_line", list="")
        lines.append((label + _listing(counts, w, 18, room - text_width(label, 18)), P.TEXT))
    elif outcome == "single" and pot_to:
        seat, amount = pot_to[0][0], pot_to[0][1]
        lines.append((w.say("result_single", 20, room, name=w.name(seat), pot=w.chips(amount)), P.GOLD))
    elif outcome == "split":
        lines.append((w.t("result_split"), P.GOLD))
        lines.append((_listing([(p[0], w.chips(p[1])) for p in pot_to], w, 18, room), P.TEXT))
    elif outcome == "void":
        if pot_to:
            lines.append((w.t("result_void_refund"), P.TEXT))
        else:
            lines.append((w.t("result_void", pot=w.chips(last.get("pot_carried") or 0)), P.TEXT))
    if last.get("mizuten_paid"):
        lines.append((w.say("result_mizuten", 18, room, name=w.name(last.get("sp"))), P.GOLD))
    refund = sum(p[1] for p in last.get("end_refund") or [] if isinstance(p, list) and len(p) == 2)
    if refund:
        lines.append((w.t("result_refund", pot=w.chips(refund)), P.TEXT_DIM))
    final = _final_trick(last, view.seats) if outcome == "play" else None
    for k, (text, colour) in enumerate(lines[: 3 if final is not None else 4]):
        c.fitted((x0, y0 + 56 + k * 26), text, 20 if k == 0 else 18, room, colour)
    if final is not None:
        plays, winner = final
        _cw, ch = card_size(FINAL_CARD_W)
        name_base = y0 + CENTRE_H - 12 - ch - 8
        label_w = 96
        c.fitted((x0, name_base), w.t("final_trick"), MIN_TEXT, label_w, P.TEXT_DIM)
        _trick_cards(c, plays, winner, w, x0 + label_w + 8, x1, name_base, FINAL_CARD_W, "final_trick")


def _listing(items: Sequence[tuple[int, str]], w: Words, size: int, room: float) -> str:
    """``name value · name value …`` in ``room``: the names share what the values and separators leave, a short
    name taking only what it needs."""
    sep = " · "
    fixed = sum(text_width(f" {value}", size) for _, value in items) + text_width(sep, size) * (len(items) - 1)
    names = [fit(w.name(seat), size, 10_000) for seat, _ in items]
    wanted = [text_width(name, size) for name in names]
    rooms = [0.0] * len(items)
    left = room - fixed - 2 * len(items)
    for k, i in enumerate(sorted(range(len(items)), key=wanted.__getitem__)):
        rooms[i] = max(3.0 * size, min(wanted[i], left / (len(items) - k)))
        left -= rooms[i]
    return sep.join(f"{fit(name, size, r)} {value}" for name, r, (_, value) in zip(names, rooms, items, strict=True))


def _final_trick(last: dict[str, Any], seats: int) -> tuple[list[tuple[int, FrenchCard]], int] | None:
    """The last round's 7th trick from its ``trick_log`` (public: every card of it was played face up), or None
    when the log is not as expected."""
    log = last.get("trick_log")
    if not isinstance(log, list) or not log or not isinstance(log[-1], dict):
        return None
    entry = log[-1]
    winner = entry.get("winner")
    plays: list[tuple[int, FrenchCard]] = []
    try:
        for seat, text in entry.get("plays") or ():
            if not isinstance(seat, int) or not 0 <= seat < seats:
                return None
            plays.append((seat, FrenchCard.parse(text)))
    except (TypeError, ValueError):  # ValueError: NotationError, or a play that is not a pair
        return None
    if not plays or not isinstance(winner, int) or winner not in [s for s, _ in plays]:
        return None
    return plays[:3], winner


# ---------------------------------------------------------------- seat panels


def _seat_panel(c: _Painter, view: HachiPublicView, seat: int, w: Words) -> None:
    x0, y, x1, y1 = seat_box(seat, view.seats)
    acting = seat in view.to_act
    line = view.lines[seat] if seat < len(view.lines) else None
    c.panel((x0, y, x1, y1), outline=P.GOLD if acting else None)
    out = line is None or line.state == "out"
    colour = P.TEXT_DIM if out or (line is not None and line.state == "folded") else P.TEXT

    # line 1: ▶ ★ name, stack
    base1, base2, base3 = y + 30, y + 62, y + 90
    x: float = x0 + 12
    if acting:
        x += c.text((x, base1), TURN_MARK, 20, P.GOLD) + 6
    if view.game_over and seat in view.winners:
        x += c.text((x, base1), WINNER_MARK, 20, P.GOLD) + 6
    right: float = x0 + SEAT_INFO_W
    stack = view.stacks[seat] if seat < len(view.stacks) else 0
    right -= c.text((right, base1), w.chips(stack), 20, colour, anchor="rs") + 12
    c.fitted((x, base1), w.names[seat], NAME_SIZE, right - x, P.GOLD if acting else colour)

    # line 2: SP and the seat's state; the last round's chips between rounds
    right = x0 + SEAT_INFO_W
    deltas = view.last_deltas
    if _between_rounds(view) and deltas is not None and seat < len(deltas) and deltas[seat]:
        d = deltas[seat]
        right -= c.text((right, base2), w.signed(d), 18, P.WIN if d > 0 else P.LOSE, anchor="rs") + 10
    x = x0 + 12
    for text, bg in _badges(view, line, w):
        bw = _badge_w(text, MIN_TEXT)
        if x + bw > right:
            break
        x += c.badge(x, base2, text, MIN_TEXT, bg) + 6
    if line is not None and line.state == "waiting" and view.phase == "declare":
        c.fitted((x, base2), w.t("state_waiting"), MIN_TEXT, right - x, P.TEXT_DIM)

    # line 3: what the revealed hand is worth at the right; tricks and cards in hand during trick play, or the fold
    # fee and the stack after it
    reveal = _reveal_of(view, seat)
    right = x0 + SEAT_INFO_W
    if reveal is not None and reveal.area == "reveal" and reveal.value:
        forced = reveal.role == "forced_out"
        value = w.t("reveal_forced_value" if forced else "reveal_value", value=reveal.value)
        right -= c.text((right, base3), value, 18, P.GOLD, anchor="rs") + 12
    if line is not None and not out:
        _seat_line3(c, view, line, w, x0 + 12, right, base3)

    # the revealed hand
    if reveal is not None:
        _reveal(c, reveal, w, x0 + SEAT_INFO_W + 14, x1 - 10, y, seat)


def _badges(view: HachiPublicView, line: SeatLine | None, w: Words) -> list[tuple[str, P.RGB]]:
    """SP, then the seat's state; split or fight once both choices are shown."""
    if line is None or line.state == "out":
        return [(w.t("state_out"), P.LOSE)]
    out: list[tuple[str, P.RGB]] = []
    if line.is_sp:
        out.append((w.t("badge_sp"), P.GOLD))
    state = line.state
    if state == "play" and line.declarer_no is not None:
        out.append((w.t("state_play", n=line.declarer_no), P.WIN))
        if view.phase == "choose":
            choosing = line.seat in view.choosing
            out.append((w.t("state_choosing" if choosing else "state_chosen"), P.GOLD if choosing else P.PUSH))
        choice = dict(view.choices).get(line.seat)
        if choice is not None:
            out.append((w.t(f"choice_{choice}"), P.PUSH))
    elif state == "to_speak":
        out.append((w.t("state_to_speak"), P.GOLD))
    elif state == "folded":
        out.append((w.t("state_folded"), P.PUSH))
    elif state == "forced_out":
        out.append((w.t("state_forced_out"), P.PUSH))
    return out


def _seat_line3(
    c: _Painter, view: HachiPublicView, line: SeatLine, w: Words, x0: float, x1: float, base: float
) -> None:
    if line.fee and not view.game_over:
        after = w.t("fee_line", fee=w.chips(line.fee), after=w.chips(line.stack_after_fees))
        c.fitted((x0, base), after, MIN_TEXT, x1 - x0, P.TEXT_DIM)
        return
    if view.phase == "trick" and line.seat in view.declarers:
        x = x0 + c.text((x0, base), w.t("tricks"), MIN_TEXT, P.TEXT_DIM) + 6
        x += c.text((x, base + 2), str(line.tricks), 28, P.GOLD if line.tricks else P.TEXT, bold=True) + 14
        c.fitted((x, base), w.t("hand_count", count=line.cards), MIN_TEXT, x1 - x, P.TEXT_DIM)


@dataclass(frozen=True)
class _Shown:
    """A revealed hand to draw in a seat's panel: this round's (a :class:`RevealView`) or the last round's."""

    role: str
    yaku: tuple[str, ...]
    cards: tuple[FrenchCard, ...]
    aces: int
    value: int
    area: str


def _reveal_of(view: HachiPublicView, seat: int) -> _Shown | None:
    """The seat's hand revealed this round (from the view's reveals) or, between rounds, in the last round
    (from its summary); None if it showed nothing."""
    for r in view.reveals:
        if r.seat == seat:
            return _from_view(r)
    if not _between_rounds(view) or view.last_result is None:
        return None
    for entry in view.last_result.get("hands") or ():
        if isinstance(entry, dict) and entry.get("seat") == seat:
            try:
                cards = tuple(FrenchCard.parse(text) for text in entry.get("cards") or ())
            except (TypeError, ValueError):
                return None
            yaku = tuple(str(k) for k in entry.get("yaku") or ())
            if not cards and not entry.get("value"):
                return None  # showed nothing: not worth a place beside this round's state
            return _Shown(
                str(entry.get("role")),
                yaku,
                cards,
                int(entry.get("aces") or 0),
                int(entry.get("value") or 0),
                "last_reveal",
            )
    return None


def _from_view(r: RevealView) -> _Shown:
    value = r.forced_out if r.role == "forced_out" else r.normal
    return _Shown(r.role, r.yaku, r.cards, r.aces, value, "reveal")


def _reveal(c: _Painter, shown: _Shown, w: Words, x0: float, x1: float, y: float, seat: int) -> None:
    """The yaku (full names when they fit, else short ones) and the Aces of a forced-out hand over the cards shown,
    overlapping if need be (what the hand is worth stands in the seat's third line; a hand of the last round says
    so instead)."""
    forced = shown.role == "forced_out"
    aces = [w.t("reveal_aces", count=shown.aces)] if forced and shown.aces else []
    base = y + 24
    right = x1
    x = x0
    parts_full = [w.t(f"yaku_{k}") for k in shown.yaku]
    parts_short = [w.t(f"yaku_short_{k}") for k in shown.yaku]
    last = shown.area == "last_reveal"

    def line(parts: list[str]) -> str:
        text = " + ".join(parts) or w.t("reveal_none")
        return w.t("reveal_last", value=text) if last else text

    text = line(parts_full + aces)
    if text_width(text, MIN_TEXT) > right - x:
        text = line(parts_short + aces)
    c.fitted((x, base), text, MIN_TEXT, right - x, P.TEXT if shown.yaku or aces else P.TEXT_DIM)
    cards = shown.cards
    if not cards:
        return
    cw, _ch = card_size(REVEAL_CARD_W)
    step = min(cw + 2, (x1 - x0 - cw) / max(1, len(cards) - 1))
    for i, card in enumerate(cards):
        c.card(card, x0 + i * step, y + 34, REVEAL_CARD_W, shown.area, seat)
