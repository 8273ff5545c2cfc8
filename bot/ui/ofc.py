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

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import discord

from bot.errors import UserError
from bot.i18n import has, t
from bot.ui.base import ButtonSpec, GameUI, Panel, SelectSpec, TableContext
from games.core.actions import Action, LegalAction, is_listed
from games.core.cards import FrenchCard, parse_french
from games.core.engine import DealResult
from games.ofc.actions import Place, Target
from games.ofc.aids import panel_aids
from games.ofc.board import ROW_SIZE, ROWS, Board, Row
from games.ofc.fantasyland import solve_cached
from games.ofc.rules import OFCRules
from games.ofc.views import BoardView, OFCPublicView, OFCSeatView

CODES: dict[str, Target] = {"f": "front", "m": "middle", "b": "back", "x": "discard"}
CODE_OF: dict[Target, str] = {v: k for k, v in CODES.items()}
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


# ---------------------------------------------------------------- the provisional placement


@dataclass
class Draft:
    """A seat's choices for the cards it must place now, in the order made (so undo takes the last)."""

    cards: tuple[FrenchCard, ...]
    plan: list[tuple[FrenchCard, Target]] = field(default_factory=list)
    picked: FrenchCard | None = None

    def target(self, card: FrenchCard) -> Target | None:
        return next((tg for c, tg in self.plan if c == card), None)

    def count(self, target: Target) -> int:
        return sum(1 for _, tg in self.plan if tg == target)

    def on(self, target: Target) -> list[FrenchCard]:
        return [c for c, tg in self.plan if tg == target]

    def unplaced(self) -> list[FrenchCard]:
        return [c for c in self.cards if self.target(c) is None]

    def assign(self, card: FrenchCard, target: Target) -> None:
        self.plan = [(c, tg) for c, tg in self.plan if c != card] + [(card, target)]

    def action(self, discard_due: int) -> Place | None:
        """The placement once every card has a place; cards left over are the discards when that many are due."""
        placed = [(c, tg) for c, tg in self.plan if tg != "discard"]
        discards = self.on("discard")
        rest = self.unplaced()
        if len(discards) + len(rest) != discard_due or len(placed) + discard_due != len(self.cards):
            return None
        return Place(tuple(placed) + tuple((c, "discard") for c in discards + rest))

    # -- state (the panel state is a dict of strings, kept per seat by the table)

    @staticmethod
    def key(view: OFCSeatView) -> str:
        return f"{view.public.hand_no}|{' '.join(sorted(c.notation for c in view.to_place))}"

    @classmethod
    def load(cls, view: OFCSeatView, state: dict[str, str]) -> Draft:
        draft = cls(view.to_place)
        if state.get("for") != cls.key(view):
            return draft  # new cards: earlier choices are void
        by_text = {c.notation: c for c in view.to_place}
        for item in filter(None, state.get("plan", "").split(",")):
            text, _, code = item.partition(":")
            if text in by_text and code in CODES:
                draft.plan.append((by_text[text], CODES[code]))
        draft.picked = by_text.get(state.get("pick", ""))
        return draft

    def save(self, view: OFCSeatView, state: dict[str, str]) -> None:
        state.clear()
        state["for"] = self.key(view)
        state["plan"] = ",".join(f"{c.notation}:{CODE_OF[tg]}" for c, tg in self.plan)
        state["pick"] = self.picked.notation if self.picked else ""

    def current(self) -> FrenchCard | None:
        """The card a row button places: the picked one, else the first without a place."""
        if self.picked is not None:
            return self.picked
        rest = self.unplaced()
        return rest[0] if rest else None


def capacity(view: OFCSeatView, target: Target) -> int:
    if target == "discard":
        return view.discard
    return view.full_board().free(target)


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
            embed.add_field(name=_seat_title(view, board, names, lang)[:256],
                            value=_board_text(view, board, ctx)[:1024], inline=True)
        last = view.last_hand
        if last is not None and not any(c for b in view.boards for r in ROWS for c in b.row(r)):
            result = " · ".join(f"{names[s]} {last.deltas[s] * ctx.stake:+,}" for s in range(len(last.deltas)))
            embed.add_field(name=t("ofc_ui.last_hand", lang, hand=last.hand_no), value=result[:1024], inline=False)
        return embed

    def render(self, view: OFCPublicView, ctx: TableContext) -> bytes:
        from bot.render.ofc import render_ofc_table

        return render_ofc_table(view, list(ctx.names), ctx.lang, stake=ctx.stake)

    # ------------------------------------------------------------------ private
    def panel(self, view: OFCSeatView, seat: int, legal: Sequence[LegalAction], ctx: TableContext,
              state: dict[str, str]) -> Panel:
        lang = ctx.lang
        draft = Draft.load(view, state)
        lines = [_panel_head(view, lang)]
        last = view.public.last_hand
        if last is not None and not any(view.board.row(r) for r in ROWS):
            lines.append(t("ofc_ui.your_last_hand", lang, hand=last.hand_no,
                           chips=f"{last.deltas[seat] * ctx.stake:+,}"))
        lines += _own_board_lines(view, draft, lang)
        panel = Panel(content="")
        if view.to_place:
            lines += _aid_lines(view, draft, lang)
            if view.fantasyland_hand:
                rest = " ".join(pretty(c) for c in by_rank(draft.unplaced())) or "—"
                lines.append(t("ofc_ui.fl_unplaced", lang, cards=rest))
                self._fantasyland_controls(view, draft, panel, lang, legal)
            else:
                lines.append(_to_place_line(view, draft, lang))
                self._street_controls(view, draft, panel, lang, legal)
        else:
            if view.public.game_over:
                lines.append(t("ofc_ui.game_over", lang))
            else:
                waiting = ", ".join(ctx.names[s] for s in sorted(view.public.awaiting)) or "—"
                placed = view.board.fantasyland or view.rules.simultaneous()
                lines.append(t("ofc_ui.placed_waiting" if placed else "ofc_ui.turn_waiting", lang, names=waiting))
            panel.buttons.append(ButtonSpec(label=t("ofc_ui.refresh", lang), ui="refresh:", emoji="🔄"))
        lines += _opponent_lines(view, ctx)
        panel.content = "\n".join(lines)[:1990]
        return panel

    def _street_controls(self, view: OFCSeatView, draft: Draft, panel: Panel, lang: str,
                         legal: Sequence[LegalAction]) -> None:
        current = draft.current()
        for card in draft.cards:
            target = draft.target(card)
            label = card.pretty + (f" → {row_name(target, lang)}" if target else "")
            style = (discord.ButtonStyle.primary if card == current
                     else discord.ButtonStyle.success if target else discord.ButtonStyle.secondary)
            panel.buttons.append(ButtonSpec(label=label, ui=f"pick:{card.notation}", style=style, row=0))
        targets: list[Target] = ["front", "middle", "back"] + (["discard"] if view.discard else [])
        for target in targets:
            room = capacity(view, target) - draft.count(target)
            moving_here = current is not None and draft.target(current) == target
            # Enabled only when some legal placement agrees with the choices so far and this card in this row.
            possible = current is not None and not moving_here and _extends(legal, draft, current, target)
            panel.buttons.append(ButtonSpec(
                label=t("ofc_ui.to_row", lang, row=row_name(target, lang), room=room),
                ui=f"row:{CODE_OF[target]}", row=1, enabled=possible,
                style=discord.ButtonStyle.danger if target == "discard" else discord.ButtonStyle.primary))
        self._finish_controls(view, draft, panel, lang, legal, row=2)

    def _fantasyland_controls(self, view: OFCSeatView, draft: Draft, panel: Panel, lang: str,
                              legal: Sequence[LegalAction]) -> None:
        for index, row in enumerate(ROWS):
            size = capacity(view, row)
            options = []
            for card in sorted(draft.cards, key=lambda c: (-c.rank, c.suit)):
                where = draft.target(card)
                suffix = f" ({row_name(where, lang)})" if where and where != row else ""
                options.append((card.pretty + suffix, card.notation))
            panel.selects.append(SelectSpec(
                ui=row, placeholder=t("ofc_ui.choose_row", lang, row=row_name(row, lang), n=size),
                options=options, min_values=0, max_values=size, chosen=[c.notation for c in draft.on(row)],
                row=index))
        self._finish_controls(view, draft, panel, lang, legal, row=3)

    def _finish_controls(self, view: OFCSeatView, draft: Draft, panel: Panel, lang: str,
                         legal: Sequence[LegalAction], row: int) -> None:
        if not view.fantasyland_hand:
            panel.buttons.append(ButtonSpec(label=t("ofc_ui.undo", lang), ui="undo:", emoji="↩️", row=row,
                                            enabled=bool(draft.plan)))
        panel.buttons.append(ButtonSpec(label=t("ofc_ui.clear", lang), ui="clear:", row=row, enabled=bool(draft.plan)))
        if view.rules.hints:
            label = "ofc_ui.best" if view.fantasyland_hand else "ofc_ui.hint"
            panel.buttons.append(ButtonSpec(label=t(label, lang), ui="hint:", emoji="💡", row=row))
        panel.buttons.append(ButtonSpec(label=t("ofc_ui.confirm", lang), ui="confirm:", emoji="✅", row=row,
                                        style=discord.ButtonStyle.success,
                                        enabled=_listed(draft.action(capacity(view, "discard")), legal)))

    # ------------------------------------------------------------------ panel steps
    def ui_step(self, view: OFCSeatView, seat: int, legal: Sequence[LegalAction], verb: str, arg: str,
                state: dict[str, str]) -> Action | None:
        if verb == "refresh":
            return None
        if not view.to_place:
            raise UserError("ofc_ui.nothing_to_place")
        draft = Draft.load(view, state)
        action: Action | None = None
        if verb == "pick":
            draft.picked = _card_of(draft, arg)
        elif verb == "row":
            target = CODES.get(arg)
            card = draft.current()
            if target is None or view.fantasyland_hand:
                raise UserError("table.stale_button")
            if card is None:
                raise UserError("ofc_ui.all_placed")
            if target == "discard" and not view.discard:
                raise UserError("ofc.no_discard")
            room = capacity(view, target) - sum(1 for c in draft.on(target) if c != card)
            if room <= 0:
                raise UserError("ofc_ui.row_full", free=capacity(view, target))
            draft.assign(card, target)
            draft.picked = None
        elif verb == "undo":
            if not draft.plan:
                raise UserError("ofc_ui.nothing_to_undo")
            draft.picked = draft.plan.pop()[0]
        elif verb == "clear":
            draft.plan, draft.picked = [], None
        elif verb == "hint":
            if not view.rules.hints:
                raise UserError("ofc_ui.hints_off")
            from games.ofc.policy import suggest

            hint = suggest(view)
            draft.plan = [(c, tg) for c, tg in hint.items if tg != "discard" or not view.fantasyland_hand]
            draft.picked = None
        elif verb in ROWS and view.fantasyland_hand:
            row: Row = verb  # type: ignore[assignment]
            chosen = [_card_of(draft, text) for text in filter(None, arg.split(","))]
            if len(set(chosen)) != len(chosen):
                raise UserError("table.stale_button")
            if len(chosen) > capacity(view, row):
                raise UserError("ofc_ui.row_full", free=capacity(view, row))
            draft.plan = [(c, tg) for c, tg in draft.plan if tg != row and c not in chosen] + [(c, row) for c in chosen]
        elif verb == "confirm":
            action = draft.action(capacity(view, "discard"))
            if action is None:
                raise UserError("ofc_ui.incomplete", left=len(draft.unplaced()))
        else:
            raise UserError("table.stale_button")
        draft.save(view, state)
        return action

    # ------------------------------------------------------------------ results
    def result_embed(self, result: DealResult, ctx: TableContext) -> discord.Embed:
        lang, names = ctx.lang, ctx.names
        s: dict[str, Any] = result.summary
        embed = discord.Embed(title=t("ofc_ui.result_title", lang, hand=result.deal), colour=0xF9A825)
        lines = []
        for seat, delta in enumerate(result.deltas):
            rows = s["rows"][seat]
            if s["fouled"][seat]:
                made = f"**{t('ofc.fouled', lang)}**"
            else:
                made = " / ".join(hand_name(k, lang) for k in rows)
                if s["royalties"][seat]:
                    made += " · " + t("ofc.royalties", lang, points=s["royalties"][seat])
            fl = " 🌴" if s["fantasyland"][seat] else ""
            lines.append(t("ofc_ui.result_line", lang, name=names[seat], fl=fl, chips=f"{delta * ctx.stake:+,}",
                           points=f"{s['points'][seat]:+}", made=made))
        embed.description = "\n".join(lines)
        pairs = []
        for p in s["pairs"]:
            rows = " ".join(f"{r:+}" if r else "0" for r in p["rows"])
            extra = ""
            if p["scoop"]:
                extra += " · " + t("ofc_ui.pair_scoop", lang, n=f"{p['scoop']:+}")
            if p["royalties"]:
                extra += " · " + t("ofc_ui.pair_royalties", lang, n=f"{p['royalties']:+}")
            pairs.append(t("ofc_ui.pair_line", lang, a=names[p["a"]], b=names[p["b"]], rows=rows, extra=extra,
                           points=f"{p['points']:+}"))
        if pairs:
            embed.add_field(name=t("ofc_ui.pairs", lang), value="\n".join(pairs)[:1024], inline=False)
        for seat, n in enumerate(s.get("fantasyland_next", [])):
            if n:
                key = "ofc_ui.fl_stays" if s["fantasyland"][seat] else "ofc_ui.fl_enters"
                embed.add_field(name="🌴", value=t(key, lang, name=names[seat], cards=n), inline=True)
        rules = ctx.rules if isinstance(ctx.rules, OFCRules) else None
        for seat, played_fl in enumerate(s["fantasyland"]):
            if played_fl and rules is not None:
                embed.add_field(name=t("ofc_ui.best_title", lang, name=names[seat]),
                                value=_best_text(s, seat, rules, lang)[:1024], inline=False)
        return embed


# ---------------------------------------------------------------- text pieces


def _extends(legal: Sequence[LegalAction], draft: Draft, card: FrenchCard, target: Target) -> bool:
    """Whether a listed placement puts ``card`` in ``target`` and agrees with every other choice made so far."""
    wanted = {c: tg for c, tg in draft.plan if c != card}
    wanted[card] = target
    for item in legal:
        if isinstance(item, Place):
            rows = dict(item.items)
            if all(rows.get(c) == tg for c, tg in wanted.items()):
                return True
    return False


def _listed(action: Place | None, legal: Sequence[LegalAction]) -> bool:
    return action is not None and is_listed(action, legal)


def _card_of(draft: Draft, text: str) -> FrenchCard:
    card = next((c for c in draft.cards if c.notation == text), None)
    if card is None:
        raise UserError("table.stale_button")  # a card from an earlier street, or a forged id
    return card


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


def _own_board_lines(view: OFCSeatView, draft: Draft, lang: str) -> list[str]:
    lines = []
    for r in ROWS:
        placed = view.board.row(r)
        lines.append(f"`{row_name(r, lang):<6}` {row_cells(placed, ROW_SIZE[r], draft.on(r))}")
    return lines


def _to_place_line(view: OFCSeatView, draft: Draft, lang: str) -> str:
    parts = []
    for card in draft.cards:
        target = draft.target(card)
        parts.append(f"{card.pretty} → {row_name(target, lang) if target else '?'}")
    text = t("ofc_ui.to_place", lang, cards=" · ".join(parts))
    if view.discard:
        text += "\n" + t("ofc_ui.discard_due", lang, n=view.discard)
    return text


def _aid_lines(view: OFCSeatView, draft: Draft, lang: str) -> list[str]:
    """The foul warning, the royalties the board holds, and Fantasyland, for the board with this draft."""
    aids = panel_aids(view, {r: draft.on(r) for r in ROWS}, hint=False)
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


def _best_text(summary: dict[str, Any], seat: int, rules: OFCRules, lang: str) -> str:
    """The board a Fantasyland player made against the best one possible from the same cards."""
    played = Board.parse(summary["boards"][seat])
    dealt = list(played.cards())
    discards = (summary.get("fl_discards") or [""] * (seat + 1))[seat]
    dealt += parse_french(discards) if discards else []
    best = solve_cached(tuple(sorted(dealt, key=lambda c: c.notation)), rules)
    rows = " ‖ ".join(" ".join(pretty(c) for c in by_rank(row)) for row in (best.front, best.middle, best.back))
    stay = t("ofc_ui.best_stays", lang) if best.stays else ""
    text = t("ofc_ui.best_line", lang, rows=rows, royalties=best.royalties, stay=stay)
    mine = summary["royalties"][seat]
    if mine >= best.royalties and (not best.stays or summary["fantasyland_next"][seat]):
        text += "\n" + t("ofc_ui.best_found", lang)
    else:
        text += "\n" + t("ofc_ui.best_played", lang, royalties=mine)
    return text


__all__ = ["OFCUI", "Draft"]
