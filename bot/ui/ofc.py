"""Open-Face Chinese Poker on Discord: the table in words, the placement panel, the results message.

The private panel builds one engine ``place`` action a step at a time, in one of two modes:

* **a street** (1 to 5 cards): the first unplaced card is picked already, so pressing a row button places
  it and picks the next; pressing a card picks it again to move it. Undo, clear, a hint, confirm.
* **Fantasyland** (13 to 17 cards): one multi-select per row lists every dealt card; cards left out of the
  three rows are the discards.

Until confirmed, choices live only in the seat's panel state (never in the engine or the record), so no
one else can see them; the aids (foul warning, royalties held, Fantasyland entry) are worked out on the
board as it would be with them. The engine checks the confirmed action like any other.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

import discord

from bot.errors import UserError
from bot.i18n import has, t
from bot.ui.base import GameUI, TableContext
from bot.ui.decisions import Arrange, Extra, Group, PanelSpec
from bot.ui.panel import draft_of, set_arrangement
from games.core.actions import Action, LegalAction, is_listed
from games.core.cards import FrenchCard, parse_french
from games.core.engine import DealResult
from games.core.events import Event
from games.ofc import events as ev
from games.ofc.actions import TARGETS, Place, StreetPlacements, Target
from games.ofc.aids import panel_aids
from games.ofc.board import ROW_SIZE, ROWS, Board, Row
from games.ofc.fantasyland import solve_cached
from games.ofc.results import OFCResult
from games.ofc.rules import OFCRules
from games.ofc.views import BoardView, OFCPublicView, OFCSeatView

if TYPE_CHECKING:
    from bot.learn.note import CoachNote

BACK = "🂠"
EMPTY = "·"


def pretty(card: FrenchCard | None) -> str:
    return BACK if card is None else card.pretty


def row_name(row: str, lang: str) -> str:
    return t(f"ofc.row_{row}", lang)


def hand_name(key: str, lang: str) -> str:
    return t(f"ofc.hand_{key}", lang) if has(f"ofc.hand_{key}") else key


def variant_name(rules: OFCRules, lang: str) -> str:
    return t(f"ofc.variant_{rules.variant}", lang)


def by_rank(cards: Sequence[FrenchCard | None]) -> list[FrenchCard | None]:
    """High cards first (a row reads like a poker hand); face-down cards last."""
    return sorted(cards, key=lambda c: (c is None, -(c.rank if c else 0), c.suit if c else ""))


def row_cells(cards: Sequence[FrenchCard | None], size: int, extra: Sequence[FrenchCard] = ()) -> str:
    """A row as text: placed cards, this panel's provisional cards in bold, then empty slots."""
    cells = [pretty(c) for c in by_rank(cards)] + [f"**{pretty(c)}**" for c in by_rank(extra)]
    cells += [EMPTY] * (size - len(cells))
    return " ".join(cells)


# ---------------------------------------------------------------- the placement, as a decision


def capacity(view: OFCSeatView, target: Target) -> int:
    if target == "discard":
        return view.discard
    return view.full_board().free(target)


def placement(view: OFCSeatView, legal: Sequence[LegalAction], lang: str) -> Arrange:
    """The seat's placement as an :class:`Arrange`: its cards into the rows with room (and the discard)."""
    cards = {c.notation: c for c in view.to_place}
    targets: list[Target] = ["front", "middle", "back"]
    if view.discard:
        targets.append("discard")
    groups = [
        Group(
            target,
            row_name(target, lang),
            capacity(view, target),
            "danger" if target == "discard" else "primary",
            t("ofc_ui.choose_row", lang, row=row_name(target, lang), n=capacity(view, target)),
        )
        for target in targets
        if target == "discard" or not view.fantasyland_hand or capacity(view, target)
    ]
    if view.fantasyland_hand:
        groups = [g for g in groups if g.name != "discard"]
    street = next((item for item in legal if isinstance(item, StreetPlacements)), None)

    def build(assignment: Mapping[str, str]) -> Action | None:
        action = _action(view, cards, assignment)
        return action if action is not None and is_listed(action, legal) else None

    def feasible(partial: Mapping[str, str]) -> bool:
        if view.fantasyland_hand:  # every arrangement of the family is legal: only room matters
            return all(sum(1 for g in partial.values() if g == row) <= capacity(view, row) for row in ROWS)
        if street is None:
            return False
        chosen = {cards[c]: g for c, g in partial.items() if c in cards and g in TARGETS}
        return len(chosen) == len(partial) and street.completable(chosen)

    order = sorted(view.to_place, key=lambda c: (-c.rank, c.suit)) if view.fantasyland_hand else view.to_place
    return Arrange(
        key="place",
        prompt="",
        items=[(c.pretty, c.notation) for c in order],
        groups=groups,
        build=build,
        feasible=feasible,
        mode="selects" if view.fantasyland_hand else "steps",
    )


def _action(view: OFCSeatView, cards: Mapping[str, FrenchCard], assignment: Mapping[str, str]) -> Place | None:
    """The placement once every card has a place; cards left over are the discards when that many are due."""
    placed = [(cards[v], g) for v, g in assignment.items() if g in ROWS and v in cards]
    discards = [cards[v] for v, g in assignment.items() if g == "discard" and v in cards]
    rest = [c for v, c in cards.items() if v not in assignment]
    due = view.discard
    if len(discards) + len(rest) != due or len(placed) + due != len(cards):
        return None
    items: list[tuple[FrenchCard, Target]] = [(c, g) for c, g in placed]
    return Place(tuple(items) + tuple((c, "discard") for c in discards + rest))


def provisional(view: OFCSeatView, decision: Arrange, state: Mapping[str, str]) -> dict[Row, list[FrenchCard]]:
    """The cards this panel has given rows to but not yet confirmed."""
    cards = {c.notation: c for c in view.to_place}
    draft = draft_of(decision, state)
    rows: dict[Row, list[FrenchCard]] = {r: [] for r in ROWS}
    for value, group in draft.plan:
        for row in ROWS:
            if group == row and value in cards:
                rows[row].append(cards[value])
    return rows


# ---------------------------------------------------------------- the adapter


class OFCUI(GameUI):
    game_id = "ofc"

    # ------------------------------------------------------------------ public
    def public_summary(self, view: OFCPublicView, ctx: TableContext) -> discord.Embed:
        lang, names = ctx.lang, ctx.names
        embed = discord.Embed(
            title=t("ofc_ui.title", lang, variant=variant_name(view.rules, lang), hand=view.hand_no),
            colour=0x0D47A1,
        )
        lines = []
        if view.game_over:
            lines.append(t("ofc_ui.game_over", lang))
        else:
            if view.street:
                lines.append(t("ofc_ui.street", lang, street=view.street, streets=view.streets))
            waiting = ", ".join(names[s] for s in sorted(view.awaiting)) or "—"
            lines.append(t("ofc_ui.waiting", lang, names=waiting))
        lines.append(t("ofc_ui.dealer", lang, name=names[view.dealer]))
        embed.description = "\n".join(lines)
        for board in view.boards:
            embed.add_field(
                name=_seat_title(view, board, names, lang)[:256],
                value=_board_text(view, board, ctx)[:1024],
                inline=True,
            )
        last = view.last_hand
        if last is not None and not any(c for b in view.boards for r in ROWS for c in b.row(r)):
            result = " · ".join(f"{names[s]} {last.deltas[s] * ctx.stake:+,}" for s in range(len(last.deltas)))
            embed.add_field(name=t("ofc_ui.last_hand", lang, hand=last.hand_no), value=result[:1024], inline=False)
        return embed

    def render(self, view: OFCPublicView, ctx: TableContext) -> bytes:
        from bot.render.ofc import render_ofc_table

        return render_ofc_table(view, list(ctx.names), ctx.lang, stake=ctx.stake)

    # ------------------------------------------------------------------ private
    def panel(
        self, view: OFCSeatView, seat: int, legal: Sequence[LegalAction], ctx: TableContext, state: dict[str, str]
    ) -> PanelSpec:
        lang = ctx.lang
        lines = [_panel_head(view, lang)]
        last = view.public.last_hand
        if last is not None and not any(view.board.row(r) for r in ROWS):
            lines.append(
                t("ofc_ui.your_last_hand", lang, hand=last.hand_no, chips=f"{last.deltas[seat] * ctx.stake:+,}")
            )
        spec = PanelSpec(text="")
        if view.to_place:
            decision = placement(view, legal, lang)
            rows = provisional(view, decision, state)
            lines += _own_board_lines(view, rows, lang)
            lines += _aid_lines(view, rows, lang)
            placed = {c for cards in rows.values() for c in cards}
            if view.fantasyland_hand:
                rest = [c for c in view.to_place if c not in placed]
                lines.append(t("ofc_ui.fl_unplaced", lang, cards=" ".join(pretty(c) for c in by_rank(rest)) or "—"))
            else:
                lines.append(_to_place_line(view, decision, state, lang))
            spec.decisions.append(decision)
            if view.rules.hints:
                label = "ofc_ui.best" if view.fantasyland_hand else "ofc_ui.hint"
                spec.extras.append(Extra(t(label, lang), "hint", emoji="💡"))
        else:
            lines += _own_board_lines(view, {r: [] for r in ROWS}, lang)
            if view.public.game_over:
                lines.append(t("ofc_ui.game_over", lang))
            else:
                waiting = ", ".join(ctx.names[s] for s in sorted(view.public.awaiting)) or "—"
                placed_in = view.board.fantasyland or view.rules.simultaneous()
                lines.append(t("ofc_ui.placed_waiting" if placed_in else "ofc_ui.turn_waiting", lang, names=waiting))
            spec.extras.append(Extra(t("ofc_ui.refresh", lang), "refresh", emoji="🔄"))
        lines += _opponent_lines(view, ctx)
        spec.text = "\n".join(lines)[:1800]
        return spec

    def howto_topic(self, view: OFCSeatView, legal: Sequence[LegalAction]) -> str:
        """A street: fouls (what the panel's foul warning is about); a Fantasyland hand (or waiting in one):
        Fantasyland; the end of the game: scoring."""
        if view.public.game_over:
            return "scoring"
        if view.fantasyland_hand or view.board.fantasyland:
            return "fantasyland"
        return "fouls"

    def ui_step(
        self, view: OFCSeatView, seat: int, legal: Sequence[LegalAction], verb: str, arg: str, state: dict[str, str]
    ) -> Action | None:
        if verb == "refresh":
            return None
        if verb != "hint":
            raise UserError("table.stale_button")
        if not view.to_place:
            raise UserError("ofc_ui.nothing_to_place")
        if not view.rules.hints:
            raise UserError("ofc_ui.hints_off")
        from games.ofc.policy import suggest

        hint = suggest(view)
        decision = placement(view, legal, "en")
        assignment = {c.notation: tg for c, tg in hint.items if tg != "discard" or not view.fantasyland_hand}
        set_arrangement(decision, state, assignment)
        return None

    # ------------------------------------------------------------------ the coach (/learn)
    def coach(
        self,
        view: OFCSeatView,
        seat: int,
        legal: Sequence[LegalAction],
        ctx: TableContext,
        state: dict[str, str],
        pick: Action,
    ) -> CoachNote:
        """The street (or Fantasyland hand) in front of ``seat``: the rows and the foul rule, what the choices made so
        far do (the exact foul check), and the bot's placement (the 💡 hint) with its reason."""
        from bot.learn.note import CoachNote
        from games.ofc.aids import foul_status, royalties_held, unseen_cards

        lang = ctx.lang
        rules = view.rules
        words = self.move_words(view, seat, pick, lang)
        options = [t("learn_ofc.rows", lang), t("learn_ofc.royalties", lang, fl=rules.fl_entry_min)]
        extra: list[str] = []
        rows = provisional(view, placement(view, legal, lang), state)
        if any(rows.values()):
            aids = panel_aids(view, rows, hint=False)
            extra.append(t(f"learn_ofc.so_far_{aids.foul}", lang))
        if not isinstance(pick, Place):
            return CoachNote(t("learn_ofc.about_street", lang, n=len(view.to_place)), options, words, "", extra)
        if rules.hints:
            extra.append(t("learn_ofc.hint", lang))
        after = view.full_board().with_cards({r: pick.to(r) for r in ROWS})
        held = royalties_held(after, rules)
        if view.fantasyland_hand:
            arr = solve_cached(view.to_place, rules)
            about = t("learn_ofc.about_fantasyland", lang, n=len(view.to_place))
            options.append(t("learn_ofc.fantasyland_how", lang, keep=13, n=len(view.to_place)))
            why = t("learn_ofc.why_solver", lang, royalties=arr.royalties)
            return CoachNote(about, options, words, why, extra)
        about = t("learn_ofc.about_street", lang, n=len(view.to_place))
        if view.discard:
            options.append(t("learn_ofc.discard", lang, n=view.discard))
        if after.complete:
            why = t("learn_ofc.why_last", lang, royalties=held)
        else:
            pool = [c for c in unseen_cards(view) if c not in set(view.to_place)]
            clean = foul_status(after, rules, pool) == "ok"
            why = t("learn_ofc.why_street" if clean else "learn_ofc.why_street_forced", lang)
        return CoachNote(about, options, words, why, extra)

    def move_words(self, view: OFCSeatView, seat: int, action: Action, lang: str) -> str:
        if not isinstance(action, Place):
            return action.text
        parts = []
        for target in TARGETS:
            cards = [c for c, tg in action.items if tg == target]
            if cards:
                name = row_name(target, lang) if target in ROWS else t("learn_ofc.discarded", lang)
                parts.append(f"{name} {' '.join(c.pretty for c in cards)}")
        return " · ".join(parts)

    # ------------------------------------------------------------------ narration
    def describe(self, event: Event, ctx: TableContext) -> str | None:
        lang, names = ctx.lang, ctx.names
        if isinstance(event, ev.DealerChosen):
            return t("ofc_ui.ev_dealer", lang, name=names[event.seat])
        if isinstance(event, ev.Dealt) and event.cards is not None and event.public:
            return t("ofc_ui.ev_dealt_up", lang, name=names[event.seat], cards=" ".join(c.pretty for c in event.cards))
        if isinstance(event, ev.Placed) and event.public:
            if event.face_down:
                return t("ofc_ui.ev_placed_down", lang, name=names[event.seat], n=event.count)
            where = " · ".join(f"{c.pretty}→{row_name(tg, lang)}" for c, tg in event.placements)
            return t("ofc_ui.ev_placed", lang, name=names[event.seat], cards=where)
        if isinstance(event, ev.StreetRevealed):
            return t("ofc_ui.ev_revealed", lang, street=event.street + 1)
        if isinstance(event, ev.BoardsRevealed):
            return t("ofc_ui.ev_boards", lang)
        return None

    # ------------------------------------------------------------------ results
    def result_embed(self, result: DealResult[OFCResult], ctx: TableContext) -> discord.Embed:
        lang, names = ctx.lang, ctx.names
        hand = result.detail
        embed = discord.Embed(title=t("ofc_ui.result_title", lang, hand=result.deal), colour=0xF9A825)
        lines = []
        for seat, delta in enumerate(result.deltas):
            if hand.fouled[seat]:
                made = f"**{t('ofc.fouled', lang)}**"
            else:
                made = " / ".join(hand_name(k, lang) for k in hand.rows[seat])
                if hand.royalties[seat]:
                    made += " · " + t("ofc.royalties", lang, points=hand.royalties[seat])
            fl = " 🌴" if hand.fantasyland[seat] else ""
            lines.append(
                t(
                    "ofc_ui.result_line",
                    lang,
                    name=names[seat],
                    fl=fl,
                    chips=f"{delta * ctx.stake:+,}",
                    points=f"{hand.points[seat]:+}",
                    made=made,
                )
            )
        embed.description = "\n".join(lines)
        pairs = []
        for p in hand.pairs:
            rows = " ".join(f"{r:+}" if r else "0" for r in p.rows)
            extra = ""
            if p.scoop:
                extra += " · " + t("ofc_ui.pair_scoop", lang, n=f"{p.scoop:+}")
            if p.royalties:
                extra += " · " + t("ofc_ui.pair_royalties", lang, n=f"{p.royalties:+}")
            pairs.append(
                t(
                    "ofc_ui.pair_line",
                    lang,
                    a=names[p.a],
                    b=names[p.b],
                    rows=rows,
                    extra=extra,
                    points=f"{p.points:+}",
                )
            )
        if pairs:
            embed.add_field(name=t("ofc_ui.pairs", lang), value="\n".join(pairs)[:1024], inline=False)
        for seat, n in enumerate(hand.fantasyland_next):
            if n:
                key = "ofc_ui.fl_stays" if hand.fantasyland[seat] else "ofc_ui.fl_enters"
                embed.add_field(name="🌴", value=t(key, lang, name=names[seat], cards=n), inline=True)
        rules = ctx.rules if isinstance(ctx.rules, OFCRules) else None
        for seat, played_fl in enumerate(hand.fantasyland):
            if played_fl and rules is not None:
                embed.add_field(
                    name=t("ofc_ui.best_title", lang, name=names[seat]),
                    value=_best_text(hand, seat, rules, lang)[:1024],
                    inline=False,
                )
        return embed

    def card_label(self, card: str, lang: str) -> str | None:
        """``A♠``, as the boards and the cards to place show a card."""
        try:
            return pretty(FrenchCard.parse(card))
        except ValueError:  # NotationError: not a French card
            return None


# ---------------------------------------------------------------- text pieces


def _seat_title(view: OFCPublicView, board: BoardView, names: Sequence[str], lang: str) -> str:
    marks = ""
    if board.seat == view.dealer:
        marks += "Ⓓ "
    if board.fantasyland:
        marks += "🌴 "
    if board.awaiting:
        marks += "⏳ "
    return marks + names[board.seat]


def _board_text(view: OFCPublicView, board: BoardView, ctx: TableContext) -> str:
    lang = ctx.lang
    lines = [f"`{row_name(r, lang)[:1]}` {row_cells(board.row(r), ROW_SIZE[r])}" for r in ROWS]
    face_up = view.face_up.get(board.seat)
    if face_up:
        lines.append(t("ofc_ui.face_up", lang, cards=" ".join(c.pretty for c in face_up)))
    status = t("ofc_ui.stack", lang, chips=f"{view.stacks[board.seat] * ctx.stake:,}")
    if board.fouled:
        status += " · " + t("ofc.fouled", lang)
    elif board.royalties:
        status += " · " + t("ofc.royalties", lang, points=board.royalties)
    if board.fantasyland:
        status += " · " + t("ofc.fantasyland_cards", lang, cards=board.fl_cards)
    lines.append(status)
    return "\n".join(lines)


def _panel_head(view: OFCSeatView, lang: str) -> str:
    pub = view.public
    head = t("ofc_ui.panel_head", lang, variant=variant_name(view.rules, lang), hand=pub.hand_no)
    if view.fantasyland_hand and view.to_place:
        return head + " · " + t("ofc_ui.fl_head", lang, cards=len(view.to_place), discard=len(view.to_place) - 13)
    if pub.street:
        head += " · " + t("ofc_ui.street", lang, street=pub.street, streets=pub.streets)
    return head


def _own_board_lines(view: OFCSeatView, rows: Mapping[Row, Sequence[FrenchCard]], lang: str) -> list[str]:
    lines = []
    for r in ROWS:
        placed = view.board.row(r)
        lines.append(f"`{row_name(r, lang):<6}` {row_cells(placed, ROW_SIZE[r], rows.get(r, ()))}")
    return lines


def _to_place_line(view: OFCSeatView, decision: Arrange, state: Mapping[str, str], lang: str) -> str:
    draft = draft_of(decision, state)
    parts = []
    for card in view.to_place:
        target = draft.group_of(card.notation)
        parts.append(f"{card.pretty} → {row_name(target, lang) if target else '?'}")
    text = t("ofc_ui.to_place", lang, cards=" · ".join(parts))
    if view.discard:
        text += "\n" + t("ofc_ui.discard_due", lang, n=view.discard)
    return text


def _aid_lines(view: OFCSeatView, rows: Mapping[Row, Sequence[FrenchCard]], lang: str) -> list[str]:
    """The foul warning, the royalties the board holds, and Fantasyland, for the board with these choices."""
    aids = panel_aids(view, rows, hint=False)
    lines = []
    if aids.foul == "fouled":
        lines.append("❌ " + t("ofc_ui.fouls", lang))
    elif aids.foul == "unavoidable":
        lines.append("⚠️ " + t("ofc.foul_unavoidable", lang))
    if aids.royalties and aids.foul != "fouled":
        lines.append("💰 " + t("ofc_ui.royalties_held", lang, points=aids.royalties))
    if aids.fantasyland == "stays":
        lines.append("🌴 " + t("ofc_ui.would_stay", lang))
    elif aids.fantasyland == "enters":
        lines.append("🌴 " + t("ofc_ui.would_enter", lang))
    return lines


def _opponent_lines(view: OFCSeatView, ctx: TableContext) -> list[str]:
    lines = []
    pub = view.public
    for board in pub.boards:
        if board.seat == view.seat:
            continue
        rows = " ‖ ".join(row_cells(board.row(r), ROW_SIZE[r]) for r in ROWS)
        up = pub.face_up.get(board.seat)
        extra = " · " + t("ofc_ui.face_up", ctx.lang, cards=" ".join(c.pretty for c in up)) if up else ""
        lines.append(f"{_seat_title(pub, board, ctx.names, ctx.lang)}: {rows}{extra}")
    if lines:
        lines.insert(0, "**" + t("ofc_ui.opponents", ctx.lang) + "**")
    return lines


def _best_text(hand: OFCResult, seat: int, rules: OFCRules, lang: str) -> str:
    """The board a Fantasyland player made against the best one possible from the same cards."""
    played = Board.parse(hand.boards[seat])
    dealt = list(played.cards())
    discards = hand.fl_discards[seat] if hand.fl_discards else ""  # older summaries did not keep them
    dealt += parse_french(discards) if discards else []
    best = solve_cached(tuple(sorted(dealt, key=lambda c: c.notation)), rules)
    rows = " ‖ ".join(" ".join(pretty(c) for c in by_rank(row)) for row in (best.front, best.middle, best.back))
    stay = t("ofc_ui.best_stays", lang) if best.stays else ""
    text = t("ofc_ui.best_line", lang, rows=rows, royalties=best.royalties, stay=stay)
    mine = hand.royalties[seat]
    if mine >= best.royalties and (not best.stays or hand.fantasyland_next[seat]):
        text += "\n" + t("ofc_ui.best_found", lang)
    else:
        text += "\n" + t("ofc_ui.best_played", lang, royalties=mine)
    return text


__all__ = ["OFCUI", "placement"]
