"""The public OFC table (Open-Face Chinese Poker): up to four boards of Front 3 / Middle 5 / Back 5.

Drawing takes a small, engine-independent shape (:class:`OFCTableDrawing`), so the layout can be tested
and reused without an engine; :func:`ofc_drawing` builds it from the engine's
:class:`~games.ofc.views.OFCPublicView`, and :func:`render_ofc_table` does both and encodes.

Between hands the engine starts the next hand at once, so a public view whose boards are all still empty
while a finished hand exists is drawn as that hand's showdown (every board revealed, row hands,
royalties, fouls, each player's points and who goes to Fantasyland), with the next hand's turn in the bar,
and each pair's result (rows won, scoop, points): in the free cell beside the third board of a three-player
table, else in a strip under the boards, the only thing that makes a showdown frame taller than the others.

A PNG's picture starts from the backdrop of its boards, pairs and language (panels, row labels, empty card
places, the pairs' panels: :func:`_backdrop`, :mod:`bot.render.layers`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import get_args

from PIL import Image

from bot.i18n import t
from bot.render import palette as P
from bot.render.cards import FRENCH_RED_SUITS, card_back, card_image, card_size
from bot.render.encode import Format, encode
from bot.render.fonts import fit
from bot.render.layers import on_backdrop
from bot.render.text import Canvas
from games.core.cards import FrenchCard, french_deck
from games.ofc.board import ROW_SIZE, ROWS, Board
from games.ofc.eval import RoyaltyScheme, category_name, eval_row
from games.ofc.rules import Variant
from games.ofc.views import BoardView, OFCPublicView

WIDTH = 1000
MARGIN = 10
TOP_BAR_H = 40
CELL_GAP = 8
CELL_H = 256
CARD_W = 48
ROW_GAP = 4

Slot = FrenchCard | None
"""A placed card, or ``None`` for one placed face down (drawn as a back)."""

VARIANTS: tuple[str, ...] = get_args(Variant)
"""Every variant has a short name for the title bar in the catalog: ``ofc.short_variant_<v>``."""
TITLE_W = 380
FL_COLOUR = P.PURPLE
HAND_BASELINE = 30
"""Baseline of a row's hand name, from the row's top: the row's upper half, leaving room for a note below."""
NOTE_BASELINE = 60
"""Baseline of the note under a row's hand name (Fantasyland next hand, the board's royalties or foul)."""
TO_PLACE_SIZE = 21
TO_PLACE_ABOVE, TO_PLACE_BELOW = 22, 7
"""A to-place chip's box above and below the header's baseline: inside the header, above the front row."""
TO_PLACE_PAD = 5
TO_PLACE_GAP = 4
FL_NEXT_SIZES = (18, 17, 16)
"""Text sizes tried for the "→ Fantasyland" tag, largest first, so it fits the info column uncut."""
PAIR_H = 40
"""Height of one pair's entry in the strip under the boards."""
PAIR_NAME_SIZE = 22
PAIR_SCORE_SIZE = 20
PAIR_POINTS_SIZE = 22
PAIR_BADGE_SIZE = 18
PAIR_PAD = 12
PAIR_GAP = 10
PAIR_HEADING_SIZE = 20


# ---------------------------------------------------------------- the drawing shape


@dataclass(frozen=True)
class OFCRowDrawing:
    """One row: the cards placed so far and, once complete and visible, its hand and royalty."""

    cards: tuple[Slot, ...]
    size: int
    """3 for the front, 5 for the middle and back."""
    hand: str | None = None
    """Category key (``pair``, ``flush``, ``royal_flush`` …; drawn as i18n ``ofc.short_hand_<key>``), or None."""
    royalty: int = 0


@dataclass(frozen=True)
class OFCBoardDrawing:
    """One player's board as an onlooker sees it."""

    seat: int
    rows: tuple[OFCRowDrawing, OFCRowDrawing, OFCRowDrawing]
    """Front, middle, back."""
    stack: int
    royalties: int = 0
    fouled: bool = False
    fantasyland: bool = False
    """Playing this hand in Fantasyland (their board stays face down until everyone is done)."""
    fantasyland_next: bool = False
    """Goes to (or stays in) Fantasyland next hand (showdown only)."""
    awaiting: bool = False
    is_dealer: bool = False
    result: int | None = None
    """Points won (+) or lost (−) this hand, at the showdown; else None."""
    to_place: tuple[FrenchCard, ...] = ()
    """Cards dealt face up and waiting to be placed (variant a)."""


@dataclass(frozen=True)
class OFCPairDrawing:
    """One pair's result at the showdown, from the first seat's side (``a`` < ``b``)."""

    a: int
    b: int
    rows: tuple[int, int, int]
    """Front, middle, back: +1 when ``a`` wins the row, -1 when ``b`` does, 0 for a tie."""
    scoop: int
    """The scoop bonus ``a`` wins (+), pays (−) or 0."""
    points: int
    """What ``a`` wins from ``b`` by the rules (negative when ``a`` pays)."""

    @property
    def score(self) -> str:
        """Rows won by each side, ``a`` first: ``2–1``."""
        return f"{sum(r > 0 for r in self.rows)}–{sum(r < 0 for r in self.rows)}"


@dataclass(frozen=True)
class OFCTableDrawing:
    variant: str
    hand_no: int
    street: int
    """1-based street of the normal players (0 once they have all finished)."""
    streets: int
    boards: tuple[OFCBoardDrawing, ...]
    showdown: bool = False
    game_over: bool = False
    waiting: tuple[int, ...] = ()
    """Seats whose placement is awaited now."""
    pairs: tuple[OFCPairDrawing, ...] = ()
    """Each pair's result (showdown only)."""


# ---------------------------------------------------------------- from the engine's public view


def ofc_drawing(view: OFCPublicView) -> OFCTableDrawing:
    """The drawing of a public view: the hand in play, or the last hand's showdown between hands."""
    waiting = tuple(sorted(view.awaiting))
    nothing_placed = all(not (b.front or b.middle or b.back) for b in view.boards)
    if view.last_hand is not None and (nothing_placed or view.game_over):
        return _showdown_drawing(view, waiting)
    scheme = RoyaltyScheme.of(view.rules)
    boards = tuple(_board_drawing(b, view, scheme) for b in view.boards)
    return OFCTableDrawing(
        variant=view.rules.variant,
        hand_no=view.hand_no,
        street=view.street,
        streets=view.streets,
        boards=boards,
        game_over=view.game_over,
        waiting=waiting,
    )


def _board_drawing(b: BoardView, view: OFCPublicView, scheme: RoyaltyScheme) -> OFCBoardDrawing:
    rows = []
    for name in ROWS:
        cards = b.row(name)
        hand, royalty = None, 0
        face_up = tuple(c for c in cards if c is not None)
        if len(face_up) == len(cards) == ROW_SIZE[name]:
            value = _row_value(face_up)
            hand = category_name(value)
            if not b.fouled:
                royalty = {"front": scheme.front, "middle": scheme.middle, "back": scheme.back}[name](value)
        rows.append(OFCRowDrawing(cards=cards, size=ROW_SIZE[name], hand=hand, royalty=royalty))
    return OFCBoardDrawing(
        seat=b.seat,
        rows=(rows[0], rows[1], rows[2]),
        stack=view.stacks[b.seat],
        royalties=b.royalties,
        fouled=b.fouled,
        fantasyland=b.fantasyland,
        awaiting=b.awaiting,
        is_dealer=b.seat == view.dealer,
        to_place=view.face_up.get(b.seat, ()),
    )


ROW_VALUES = 4096
"""Complete rows whose hand is kept (:func:`_row_value`): a row stays as it is for the rest of its hand, drawn on
every picture until then; an entry is a few hundred bytes."""


@lru_cache(maxsize=ROW_VALUES)
def _row_value(cards: tuple[FrenchCard, ...]) -> int:
    """The hand value of a complete row (:func:`~games.ofc.eval.eval_row`)."""
    return eval_row(cards)


_FRENCH_BY_NOTATION = {card.notation: card for card in french_deck()}


def _board_rows(text: str) -> tuple[tuple[FrenchCard, ...], ...]:
    """The rows of a finished board as the engine writes it (:class:`~games.ofc.board.Board` as text: each card's
    notation, the rows split by ``/``), each card looked up by its notation rather than parsed: 52 cards on a
    four-player showdown, parsed, were a fifth of its drawing. Anything else is left to :meth:`Board.parse`."""
    parts = text.split("/")
    if len(parts) == len(ROWS):
        try:
            rows = tuple(tuple(_FRENCH_BY_NOTATION[token] for token in part.split()) for part in parts)
        except KeyError:
            pass
        else:
            cards = [card for row in rows for card in row]
            if len(set(cards)) == len(cards):
                return rows
    board = Board.parse(text)
    return tuple(board.row(name) for name in ROWS)


def _showdown_drawing(view: OFCPublicView, waiting: tuple[int, ...]) -> OFCTableDrawing:
    last = view.last_hand
    assert last is not None
    boards = []
    for seat, text in enumerate(last.boards):
        score = last.scores[seat]
        values = (score.front, score.middle, score.back)
        rows = tuple(
            OFCRowDrawing(
                cards=cards,
                size=ROW_SIZE[name],
                hand=category_name(values[i]) if len(cards) == ROW_SIZE[name] else None,
                royalty=0 if score.fouled else score.row_royalties[i],
            )
            for i, (name, cards) in enumerate(zip(ROWS, _board_rows(text), strict=True))
        )
        boards.append(
            OFCBoardDrawing(
                seat=seat,
                rows=(rows[0], rows[1], rows[2]),
                stack=view.stacks[seat],
                royalties=0 if score.fouled else score.royalties,
                fouled=score.fouled,
                fantasyland=last.fantasyland[seat],
                fantasyland_next=last.fantasyland_next[seat] > 0,
                is_dealer=seat == last.dealer,
                result=last.deltas[seat],
            )
        )
    return OFCTableDrawing(
        variant=view.rules.variant,
        hand_no=last.hand_no,
        street=0,
        streets=view.streets,
        boards=tuple(boards),
        showdown=True,
        game_over=view.game_over,
        waiting=waiting,
        pairs=tuple(OFCPairDrawing(p.a, p.b, p.rows, p.scoop, p.points) for p in last.pairs),
    )


# ---------------------------------------------------------------- drawing


def render_ofc_table(
    view: OFCPublicView, names: list[str], lang: str = "en", fmt: Format = "png", stake: int = 1
) -> bytes:
    """The public OFC table as upload bytes; ``stake`` turns points into the chips shown."""
    return encode(
        compose_ofc_table(ofc_drawing(view), names, lang, stake, paletted=fmt == "png", reuse_frame=True), fmt
    )


def table_height(seats: int, pairs: int = 0) -> int:
    """The image's height: ``pairs`` (the showdown's pair results) may add a strip under the boards."""
    return _boards_bottom(seats) + _strip_lines(seats, pairs) * (PAIR_H + CELL_GAP)


def _boards_bottom(seats: int) -> int:
    rows = max(1, (min(seats, 4) + 1) // 2)
    return TOP_BAR_H + CELL_GAP + rows * (CELL_H + CELL_GAP)


def _spare_cell(seats: int, pairs: int) -> bool:
    """Three boards leave the fourth cell free: the three pairs' results go there, keeping the height."""
    return min(seats, 4) == 3 and 0 < pairs <= 3


def _strip_lines(seats: int, pairs: int) -> int:
    """Lines of the strip of pair results under the boards: one pair takes the whole width, more take two
    columns (four players' six pairs: three lines)."""
    if pairs == 0 or _spare_cell(seats, pairs):
        return 0
    return 1 if pairs == 1 else (pairs + 1) // 2


def compose_ofc_table(
    table: OFCTableDrawing,
    names: Sequence[str],
    lang: str = "en",
    stake: int = 1,
    *,
    paletted: bool = False,
    reuse_frame: bool = False,
) -> Image.Image:
    """The table as an RGB image: 1000 px wide, one row of two boards per two players (then, at a showdown,
    each pair's result). ``paletted``: drawn on the table palette, as the PNG encoder wants it (the same picture);
    ``reuse_frame``: drawn in this thread's reused frame (:func:`~bot.render.layers.reused_frame`), for a render
    that encodes it at once."""
    seats = len(table.boards)
    pairs = _drawn_pairs(table)
    size = (WIDTH, table_height(seats, len(pairs)))
    c = on_backdrop(Canvas, size, paletted, _backdrop, min(seats, 4), len(pairs), lang, reuse=reuse_frame)
    seat_names = [names[i] if i < len(names) and names[i] else f"#{i + 1}" for i in range(seats)]
    _top_bar(c, table, seat_names, lang)
    for i, board in enumerate(table.boards[:4]):
        x, y = _cell(i)
        _board(c, board, x, y, CELL_W, seat_names[board.seat], lang, max(1, stake))
    if pairs:
        _pairs(c, pairs, seats, seat_names, lang, max(1, stake), CELL_W)
    return c.img


CELL_W = (WIDTH - 2 * MARGIN - CELL_GAP) // 2
CELL_PAD = 10
ROWS_DX = CELL_PAD + 26
"""The rows' cards start this far into a board's cell."""
ROWS_DY = 38
"""The front row's top, from the top of a board's cell (under the header line)."""


def _cell(i: int) -> tuple[int, int]:
    """Where board ``i``'s cell starts (two boards a row)."""
    row, col = divmod(i, 2)
    return MARGIN + col * (CELL_W + CELL_GAP), TOP_BAR_H + CELL_GAP + row * (CELL_H + CELL_GAP)


def _row_places(x: int, y: int) -> list[tuple[int, list[int]]]:
    """Each row's top and the left of each of its card places, for a board's cell at ``(x, y)``: the front row
    sits centred over the other two."""
    cw, ch = card_size(CARD_W)
    rows_x = x + ROWS_DX
    places, row_y = [], y + ROWS_DY
    for name in ROWS:
        size = ROW_SIZE[name]
        offset = (5 - size) * (cw + ROW_GAP) // 2
        places.append((row_y, [rows_x + offset + k * (cw + ROW_GAP) for k in range(size)]))
        row_y += ch + ROW_GAP
    return places


def _backdrop(c: Canvas, boards: int, pairs: int, lang: str) -> None:
    """What every picture of a table of ``boards`` boards (and at a showdown ``pairs`` pairs' results) shows
    alike, drawn once (:func:`~bot.render.layers.on_backdrop`): the panels, each row's label and empty card places,
    and the pairs' panels (with their heading in the spare cell)."""
    c.draw.rectangle((0, 0, WIDTH, TOP_BAR_H), fill=P.FELT_DARK)
    size = card_size(CARD_W)
    for i in range(boards):
        x, y = _cell(i)
        c.draw.rounded_rectangle((x, y, x + CELL_W, y + CELL_H), radius=8, fill=P.FELT_DARK)
        for name, (row_y, places) in zip(ROWS, _row_places(x, y), strict=True):
            label = t(f"ofc.table_row_{name}", lang)
            c.text((x + CELL_PAD + 8, row_y + size[1] / 2 + 7), label, 18, P.TEXT_DIM, anchor="ms")
            for px in places:
                c.empty_place(px, row_y, size, 5)
    if not pairs:
        return
    if _spare_cell(boards, pairs):
        x, y = MARGIN + CELL_W + CELL_GAP, TOP_BAR_H + CELL_GAP + CELL_H + CELL_GAP
        c.draw.rounded_rectangle((x, y, x + CELL_W, y + CELL_H), radius=8, fill=P.FELT_DARK)
        heading = t("ofc.table_pairs", lang)
        c.fitted((x + PAIR_PAD, y + 26), heading, PAIR_HEADING_SIZE, CELL_W - 2 * PAIR_PAD, P.TEXT_DIM)
        for line_y, _ in _spare_cell_lines(pairs):
            c.draw.line((x + PAIR_PAD, line_y, x + CELL_W - PAIR_PAD, line_y), fill=P.FELT_LINE, width=1)
        return
    for x, y, w in _strip_entries(boards, pairs):
        c.draw.rounded_rectangle((x, y, x + w, y + PAIR_H), radius=8, fill=P.FELT_DARK)


def _drawn_pairs(table: OFCTableDrawing) -> tuple[OFCPairDrawing, ...]:
    """The pairs between boards that are drawn (the first four), at a showdown."""
    if not table.showdown:
        return ()
    shown = {b.seat for b in table.boards[:4]}
    return tuple(p for p in table.pairs if p.a in shown and p.b in shown)


def _top_bar(c: Canvas, table: OFCTableDrawing, names: list[str], lang: str) -> None:
    base = TOP_BAR_H - 12
    variant = t(f"ofc.short_variant_{table.variant}", lang) if table.variant in VARIANTS else table.variant
    title = t("ofc.table_title", lang, variant=variant, hand=table.hand_no)
    x = MARGIN + c.fitted((MARGIN, base), title, 20, TITLE_W, P.TEXT_DIM) + 14
    if table.game_over:
        status = t("ofc.table_game_over", lang)
    elif table.showdown:
        status = t("ofc.table_result", lang, hand=table.hand_no)
    elif table.street:
        status = t("ofc.table_street", lang, street=table.street, streets=table.streets)
    else:
        status = ""
    x += c.fitted((x, base), status, 22, 300, P.GOLD) + 14
    if table.waiting and not table.game_over:
        who = ", ".join(names[s] for s in table.waiting if s < len(names))
        waiting = t("ofc.table_waiting", lang, names=who)
        c.fitted((WIDTH - MARGIN, base), waiting, 20, WIDTH - MARGIN - x, P.TEXT, anchor="rs")


def _chips(points: int, stake: int, signed: bool = False) -> str:
    return f"{points * stake:+,}" if signed else f"{points * stake:,}"


def _badge_pad(size: int) -> int:
    """The padding :meth:`Canvas.badge` puts either side of its text."""
    return max(2, size // 5)


def _board(c: Canvas, b: OFCBoardDrawing, x: int, y: int, w: int, name: str, lang: str, stake: int) -> None:
    """A board over its cell of the backdrop (its panel, row labels and empty card places)."""
    pad = CELL_PAD
    base = y + 26
    lead: float = x + pad
    if b.awaiting:
        lead += c.text((lead, base), "▶", 20, P.GOLD) + 4
    if b.to_place:  # right after the turn marker, which points at them: the card(s) this player now places
        lead += _to_place(c, b.to_place[:5], lead, base) + 8
    if b.is_dealer:
        lead += c.badge(lead, base, "D", 18, P.GOLD, P.INK) + 5
    if b.fantasyland:
        lead += c.badge(lead, base, t("ofc.table_fl", lang), 18, FL_COLOUR, P.TEXT) + 5
    if b.fouled:
        lead += c.badge(lead, base, "×", 18, P.LOSE, P.INK) + 5

    right: float = x + w - pad
    if b.result is not None:
        colour = P.WIN if b.result > 0 else P.LOSE if b.result < 0 else P.PUSH
        right -= c.text((right, base), _chips(b.result, stake, signed=True), 22, colour, anchor="rs") + 10
    right -= c.text((right, base), _chips(b.stack, stake), 20, P.TEXT, anchor="rs") + 12
    c.fitted((lead, base), name, 22, right - lead, P.GOLD if b.awaiting else P.TEXT)

    cw = CARD_W
    info_x = x + ROWS_DX + 5 * (cw + ROW_GAP) + 10
    info_w = x + w - pad - info_x
    # The info column beside each row has two lines: the row's hand (and royalty) on the row's upper half,
    # and a line under it for the board as a whole: "→ Fantasyland" beside the front row (whose hand is what
    # usually earns it), the board's royalties or FOUL beside the back row (a total under the rows).
    places = _row_places(x, y)
    row_tops = [row_y for row_y, _ in places]
    back = card_back("french", CARD_W)
    outline = P.GOLD if b.awaiting else (FL_COLOUR if b.fantasyland else None)
    under_frame = _frame(c, (x, y, x + w, y + CELL_H), outline, places) if outline is not None else set()
    cw, ch = card_size(CARD_W)
    for row, (row_y, xs) in zip(b.rows, places, strict=True):
        for k, cx in enumerate(xs):
            if k < len(row.cards):
                card = row.cards[k]
                face = back if card is None else card_image(card, CARD_W)
                if (cx, row_y) in under_frame:  # the frame shows in its corners
                    c.paste_card(face, (cx, row_y))
                else:
                    c.card_in_place(face, (cx, row_y))
            elif (cx, row_y) in under_frame:  # its outline lies over the frame
                c.empty_place(cx, row_y, (cw, ch), 5)  # places left empty elsewhere show the backdrop's
    for row, (row_y, _) in zip(b.rows, places, strict=True):
        if row.hand is not None:
            hand_text = t(f"ofc.short_hand_{row.hand}", lang)
            royalty = f"+{row.royalty}" if row.royalty else ""
            room = info_w - (c.text_width(royalty, 18) + 6 if royalty else 0)
            hw = c.fitted((info_x, row_y + HAND_BASELINE), hand_text, 18, room, P.TEXT)
            if royalty:
                c.text((info_x + hw + 6, row_y + HAND_BASELINE), royalty, 18, P.GOLD)

    front_note, back_note = row_tops[0] + NOTE_BASELINE, row_tops[2] + NOTE_BASELINE
    if b.fouled:  # in the info column, not across the cards: players want to see why it fouled
        c.fitted((info_x, back_note), t("ofc.table_foul", lang), 22, info_w, P.LOSE)
    elif b.royalties:
        c.fitted((info_x, back_note), t("ofc.table_royalties", lang, n=b.royalties), 18, info_w, P.GOLD)
    if b.fantasyland_next:
        text = t("ofc.table_fl_next", lang)
        # a filled tag stands out at a phone's preview size; a smaller size before cutting the text short
        size = next(
            (s for s in FL_NEXT_SIZES if c.text_width(text, s) + 2 * _badge_pad(s) <= info_w), FL_NEXT_SIZES[-1]
        )
        c.badge(info_x, front_note, fit(text, size, info_w - 2 * _badge_pad(size)), size, FL_COLOUR, P.TEXT)


FRAME_W = 3


def _frame(
    c: Canvas, box: tuple[int, int, int, int], colour: P.RGB, places: list[tuple[int, list[int]]]
) -> set[tuple[int, int]]:
    """A board's frame (its turn, or Fantasyland) over its panel; returns the card places it reaches into.

    The back row reaches two pixels into the frame's bottom edge: a card there shows the frame in its corners,
    and an empty place's outline lies over it. Those places are cleared of the backdrop's outline before the
    frame is drawn, for the caller to draw them over it."""
    w, h = card_size(CARD_W)
    reached = {(cx, row_y) for row_y, xs in places if row_y + h - 1 >= box[3] - FRAME_W + 1 for cx in xs}
    for cx, row_y in reached:
        c.draw.rectangle((cx, row_y, cx + w - 1, row_y + h - 1), fill=P.PANEL)
    c.draw.rounded_rectangle(box, radius=8, outline=colour, width=FRAME_W)
    return reached


def _to_place(c: Canvas, cards: Sequence[FrenchCard], x: float, baseline: float) -> float:
    """The cards dealt face up and not yet placed, as gold-edged card chips (rank and suit) on the header
    line: nothing of the board is ever under them, and they stay as legible as the name beside them."""
    start = x
    for card in cards:
        text = card.pretty
        w = c.text_width(text, TO_PLACE_SIZE) + 2 * TO_PLACE_PAD
        c.draw.rounded_rectangle(
            (x, baseline - TO_PLACE_ABOVE, x + w, baseline + TO_PLACE_BELOW),
            radius=4,
            fill=P.PAPER,
            outline=P.GOLD,
            width=2,
        )
        colour = P.RED if card.suit in FRENCH_RED_SUITS else P.INK
        c.text((x + TO_PLACE_PAD, baseline), text, TO_PLACE_SIZE, colour, bold=True)
        x += w + TO_PLACE_GAP
    return x - TO_PLACE_GAP - start


def _pairs(
    c: Canvas, pairs: Sequence[OFCPairDrawing], seats: int, names: list[str], lang: str, stake: int, cell_w: int
) -> None:
    """Each pair's result, one entry per pair: ``Ann 2–1 Bob  [Scoop] +6``, coloured from the first's side."""
    if _spare_cell(seats, len(pairs)):  # its panel, heading and lines are in the backdrop
        x = MARGIN + cell_w + CELL_GAP
        for pair, (line_y, line_h) in zip(pairs, _spare_cell_lines(len(pairs)), strict=True):
            _pair_entry(c, pair, x, line_y, cell_w, line_h, names, lang, stake)
        return
    for pair, (x, y, w) in zip(pairs, _strip_entries(seats, len(pairs)), strict=True):  # on their panels
        _pair_entry(c, pair, x, y, w, PAIR_H, names, lang, stake, centred=len(pairs) == 1)


def _spare_cell_lines(pairs: int) -> list[tuple[int, int]]:
    """Each pair's line in the spare cell (under its heading): its top (a separator is drawn there) and height."""
    y = TOP_BAR_H + CELL_GAP + CELL_H + CELL_GAP
    top = y + 26 + 12
    line_h = (y + CELL_H - 8 - top) // 3
    return [(top + k * line_h, line_h) for k in range(pairs)]


def _strip_entries(seats: int, pairs: int) -> list[tuple[int, int, int]]:
    """Each pair's panel in the strip under the boards (left, top, width): one pair takes the whole width, more
    go column by column (the left column is the first player's matches)."""
    top = _boards_bottom(seats)
    if pairs == 1:
        w, lines = WIDTH - 2 * MARGIN, 1
    else:
        w, lines = CELL_W, (pairs + 1) // 2
    entries = []
    for k in range(pairs):
        col, row = divmod(k, lines)
        entries.append((MARGIN + col * (CELL_W + CELL_GAP), top + row * (PAIR_H + CELL_GAP), w))
    return entries


def _pair_entry(
    c: Canvas,
    pair: OFCPairDrawing,
    x: int,
    y: int,
    w: int,
    h: int,
    names: list[str],
    lang: str,
    stake: int,
    centred: bool = False,
) -> None:
    """One pair on one line, centred in ``h``: the names either side of the rows won, then the scoop and the
    chips the first player wins (green) or pays (red), on the right (lined up with the other entries') or,
    for a lone entry across the table, right after the names, the whole line centred."""
    base = y + h // 2 + 8
    points = _chips(pair.points, stake, signed=True)
    colour = P.WIN if pair.points > 0 else P.LOSE if pair.points < 0 else P.PUSH
    scoop = t("ofc.table_scoop", lang) if pair.scoop else ""
    scoop_w = c.text_width(scoop, PAIR_BADGE_SIZE) + 2 * _badge_pad(PAIR_BADGE_SIZE) if scoop else 0
    score = pair.score
    score_w = c.text_width(score, PAIR_SCORE_SIZE)
    tail_w = (scoop_w + PAIR_GAP if scoop else 0) + c.text_width(points, PAIR_POINTS_SIZE)
    room = w - 2 * PAIR_PAD - tail_w - score_w - 3 * PAIR_GAP
    name_a, name_b = (fit(names[s], PAIR_NAME_SIZE, WIDTH) for s in (pair.a, pair.b))
    room_a, room_b = _share(room, c.text_width(name_a, PAIR_NAME_SIZE), c.text_width(name_b, PAIR_NAME_SIZE))
    name_a, name_b = fit(name_a, PAIR_NAME_SIZE, room_a), fit(name_b, PAIR_NAME_SIZE, room_b)
    lead: float = x + PAIR_PAD
    if centred:
        names_w = c.text_width(name_a, PAIR_NAME_SIZE) + c.text_width(name_b, PAIR_NAME_SIZE)
        lead = x + (w - (names_w + score_w + 3 * PAIR_GAP + tail_w)) / 2
    lead += c.text((lead, base), name_a, PAIR_NAME_SIZE, P.TEXT) + PAIR_GAP
    lead += c.text((lead, base), score, PAIR_SCORE_SIZE, P.GOLD) + PAIR_GAP
    lead += c.text((lead, base), name_b, PAIR_NAME_SIZE, P.TEXT) + PAIR_GAP
    right = lead + tail_w if centred else x + w - PAIR_PAD
    c.text((right, base), points, PAIR_POINTS_SIZE, colour, anchor="rs")
    if scoop:
        c.badge(right - tail_w, base, scoop, PAIR_BADGE_SIZE, P.WIN if pair.scoop > 0 else P.LOSE, P.INK)


def _share(room: float, wa: float, wb: float) -> tuple[float, float]:
    """Room for two names: each its own width if both fit, else the shorter one whole and the rest to the
    other, else half each."""
    if wa + wb <= room:
        return wa, wb
    half = room / 2
    if wa <= half:
        return wa, room - wa
    if wb <= half:
        return room - wb, wb
    return half, half
