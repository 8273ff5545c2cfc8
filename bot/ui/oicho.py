"""Oicho-Kabu on Discord: the table in words, the private panels, the results message."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import discord

from bot.i18n import has, t
from bot.ui.base import GameUI, TableContext
from bot.ui.decisions import AmountChoice, ChooseAmount, ChooseOne, Option, PanelSpec
from games.core.actions import Action, AmountRange, LegalAction
from games.core.cards import KabuCard
from games.core.engine import DealResult
from games.core.events import Event
from games.oicho import actions as act
from games.oicho import events as ev
from games.oicho.results import HandResult, OichoResult
from games.oicho.views import HandView, OichoPublicView, OichoSeatView

if TYPE_CHECKING:
    from bot.learn.note import CoachNote


HOWTO_TOPICS = {
    "betting": "betting",
    "deciding": "drawing",
    "dealer": "drawing",
    "round_over": "dealer",
    "game_over": "dealer",
}
"""The ``/howto`` topic of each moment of a round: bets; a pile's or the dealer's third card; keeping or passing the
bank (and how the game ends)."""
MONTH_KANJI = ["", "一", "二", "三", "四", "五", "六", "七", "八", "九", "十", "十一", "十二"]
PRESETS = (1, 5, 10, 25, 50, 100)


def card_text(card: KabuCard | None) -> str:
    return "🂠" if card is None else f"[{card.month}]"


def cards_text(cards: Sequence[KabuCard | None]) -> str:
    return " ".join(card_text(c) for c in cards) or "—"


def hand_text(hand: HandView | None, lang: str) -> str:
    if hand is None:
        return "?"
    name = t(f"oicho.points_{hand.points}", lang)
    if hand.kind != "plain":
        key = f"oicho.hand_{hand.kind}"
        special = t(key, lang) if has(key) else hand.kind
        mult = f" ×{hand.multiplier}" if hand.multiplier > 1 else ""
        return f"{special}{mult} ({name})"
    return f"{hand.points} {name}"


def _tie_to_dealer(ctx: TableContext) -> bool:
    return bool(getattr(ctx.rules, "tie_goes_to_dealer", False))


def _total(cards: Sequence[KabuCard | None]) -> int | None:
    """The points of cards all seen (None when one is face down to this reader)."""
    if any(c is None for c in cards):
        return None
    return sum(c.points for c in cards if c is not None) % 10


def phase_text(phase: str, lang: str) -> str:
    key = f"oicho.phase_{phase}"
    return t(key, lang) if has(key) else phase


class OichoUI(GameUI):
    game_id = "oicho"

    # ------------------------------------------------------------------ public
    def public_summary(self, view: OichoPublicView, ctx: TableContext) -> discord.Embed:
        lang, names = ctx.lang, ctx.names
        title = t("oicho_ui.title", lang, round=view.round_no, dealer=names[view.dealer])
        embed = discord.Embed(title=title, colour=0x1B5E20)
        waiting = ", ".join(names[s] for s in view.to_act) or "—"
        embed.description = t(
            "oicho_ui.status",
            lang,
            phase=phase_text(view.phase, lang),
            waiting=waiting,
            cap=view.cap,
            used=view.cap_used,
            left=view.cap_left,
        )
        for pile in view.piles:
            bets = ", ".join(f"{names[s]} {a}" for s, a in pile.bets) or t("oicho_ui.no_bets", lang)
            value = f"{cards_text(pile.cards)}\n{bets}"
            if pile.hand is not None and all(c is not None for c in pile.cards):
                value += f"\n{hand_text(pile.hand, lang)}"
            if pile.outcome:
                value += f"\n**{t('oicho_ui.outcome_' + pile.outcome, lang)}**"
            embed.add_field(name=t("oicho_ui.pile", lang, n=pile.number), value=value[:1024], inline=True)
        dealer_cards = cards_text(view.dealer_hand.cards)
        dealer_value = dealer_cards
        if view.dealer_hand.hand is not None:
            dealer_value += f"\n{hand_text(view.dealer_hand.hand, lang)}"
        embed.add_field(name=t("oicho_ui.dealer_hand", lang, name=names[view.dealer]), value=dealer_value, inline=True)
        stacks = " · ".join(f"{names[s]} {view.stacks[s] * ctx.stake:,}" for s in range(view.seats))
        embed.add_field(name=t("oicho_ui.stacks", lang), value=stacks[:1024], inline=False)
        if view.maki_fuda:
            embed.add_field(name=t("oicho_ui.maki_fuda", lang), value=cards_text(view.maki_fuda), inline=False)
        return embed

    def render(self, view: OichoPublicView, ctx: TableContext) -> bytes:
        from bot.render.oicho import render_oicho_table

        return render_oicho_table(view, list(ctx.names), ctx.lang, stake=ctx.stake)

    # ------------------------------------------------------------------ private
    def panel(
        self, view: OichoSeatView, seat: int, legal: Sequence[LegalAction], ctx: TableContext, state: dict[str, str]
    ) -> PanelSpec:
        lang, names = ctx.lang, ctx.names
        lines = [
            t(
                "oicho_ui.panel_head",
                lang,
                round=view.round_no,
                phase=phase_text(view.phase, lang),
                stack=view.stacks[seat],
                dealer=names[view.dealer],
            )
        ]
        if view.is_dealer:
            lines.append(
                t(
                    "oicho_ui.you_are_dealer",
                    lang,
                    cards=cards_text(view.dealer_hand.cards),
                    hand=hand_text(view.dealer_hand.hand, lang) if view.dealer_hand.hand else "—",
                )
            )
        for pile in view.piles:
            mine = sum(a for s, a in pile.bets if s == seat)
            visible = cards_text(pile.cards)
            extra = f" · {hand_text(pile.hand, lang)}" if pile.hand is not None else ""
            bet = t("oicho_ui.my_bet", lang, amount=mine) if mine else ""
            lines.append(f"**P{pile.number}** {visible}{extra} {bet}".rstrip())
        spec = PanelSpec(text="")
        ranges = [item for item in legal if isinstance(item, AmountRange)]
        exact = [item for item in legal if not isinstance(item, AmountRange)]
        if view.phase == "betting" and seat in view.to_act:
            lines.append(
                t("oicho_ui.betting_turn", lang, cap_left=view.cap_left, most=view.bet_max, mine=view.my_bet_total)
            )
            by_pile = {getattr(r.action, "pile", 0): r for r in ranges}
            choices = [
                AmountChoice(
                    str(p.number),
                    t("oicho_ui.pile_option", lang, n=p.number, cards=cards_text(p.cards)),
                    by_pile[p.number],
                )
                for p in view.piles
                if p.number in by_pile
            ]
            spec.decisions.append(
                ChooseAmount("bet", "", choices, PRESETS, t("oicho_ui.choose_pile", lang), t("oicho_ui.no_room", lang))
            )
            spec.decisions.append(
                ChooseOne(
                    "end",
                    "",
                    [
                        Option(
                            t("oicho.action_clear", lang),
                            act.Clear(),
                            enabled=act.Clear() in exact,
                            reason=None if act.Clear() in exact else t("oicho.nothing_to_clear", lang),
                        ),
                        Option(t("oicho.action_done", lang), act.Done(), "success"),
                    ],
                )
            )
        elif exact and view.phase in ("deciding", "dealer"):
            if view.phase == "deciding" and view.current_pile:
                pile = view.piles[view.current_pile - 1]
                lines.append(
                    t(
                        "oicho_ui.decide",
                        lang,
                        n=pile.number,
                        cards=cards_text(pile.cards),
                        hand=hand_text(pile.hand, lang) if pile.hand else "?",
                    )
                )
            else:
                lines.append(t("oicho_ui.dealer_decide", lang))
            spec.decisions.append(
                ChooseOne(
                    "draw",
                    "",
                    [
                        Option(t("oicho.action_draw", lang), act.Draw(), "primary", enabled=act.Draw() in exact),
                        Option(t("oicho.action_stand", lang), act.Stand(), enabled=act.Stand() in exact),
                    ],
                )
            )
        elif exact and view.phase == "round_over":
            lines.append(t("oicho_ui.dealer_next", lang, held=view.tenure.rounds_held, limit=view.tenure.rounds_limit))
            spec.decisions.append(
                ChooseOne(
                    "bank",
                    "",
                    [
                        Option(
                            t("oicho.action_continue", lang), act.Continue(), "success", enabled=act.Continue() in exact
                        ),
                        Option(t("oicho.action_resign", lang), act.Resign(), enabled=act.Resign() in exact),
                    ],
                )
            )
        elif view.game_over:
            lines.append(t("oicho_ui.game_over", lang))
        else:
            waiting = ", ".join(names[s] for s in view.to_act) or "—"
            lines.append(t("oicho_ui.waiting", lang, waiting=waiting))
        spec.text = "\n".join(lines)[:1800]
        return spec

    def howto_topic(self, view: OichoSeatView, legal: Sequence[LegalAction]) -> str:
        return HOWTO_TOPICS.get(view.phase, "basics")

    # ------------------------------------------------------------------ the coach (/learn)
    def coach(
        self,
        view: OichoSeatView,
        seat: int,
        legal: Sequence[LegalAction],
        ctx: TableContext,
        state: dict[str, str],
        pick: Action,
    ) -> CoachNote:
        """What the decision in front of ``seat`` is, each option under the rules, and the bot's move and reason."""
        from bot.learn.note import CoachNote

        lang = ctx.lang
        words = self.move_words(view, seat, pick, lang)
        if view.phase == "betting":
            options = [
                t(
                    "learn_oicho.bet",
                    lang,
                    left=view.cap_left,
                    most=view.bet_max,
                    tie=t("learn_oicho.tie_dealer" if _tie_to_dealer(ctx) else "learn_oicho.tie_push", lang),
                ),
                t("learn_oicho.done", lang),
                t("learn_oicho.clear", lang),
            ]
            why = t("learn_oicho.why_bet" if isinstance(pick, act.Bet) else "learn_oicho.why_done", lang)
            return CoachNote(t("learn_oicho.about_bet", lang), options, words, why)
        if view.phase in ("deciding", "dealer") and pick.verb in ("draw", "stand"):
            exact = [a for a in legal if isinstance(a, Action)]
            if view.phase == "dealer":
                hand, cards = view.dealer_hand.hand, view.dealer_hand.cards
                about = t("learn_oicho.about_dealer", lang)
                options = [t("learn_oicho.dealer_rule", lang)]
            else:
                pile = view.piles[(view.current_pile or 1) - 1]
                hand, cards = pile.hand, pile.cards
                about = t("learn_oicho.about_pile", lang, n=pile.number)
                options = [t("learn_oicho.pile_rule", lang)]
            total = _total(cards)
            if total is not None:
                options.append(
                    t("learn_oicho.total_now", lang, cards=cards_text(cards), total=t(f"oicho.points_{total}", lang))
                )
            if act.Draw() not in exact:
                options.append(t("learn_oicho.no_draw", lang))
            elif act.Stand() not in exact:
                options.append(t("learn_oicho.must_draw", lang))
            if hand is not None and hand.tier > 0:
                why = t("learn_oicho.why_special", lang, hand=hand_text(hand, lang))
            elif len(exact) == 1:
                why = t("learn_oicho.why_forced", lang)
            elif total is None or total == 5:
                why = t("learn_oicho.why_coin", lang)
            elif total <= 4:
                why = t("learn_oicho.why_draw", lang, total=total)
            else:
                why = t("learn_oicho.why_stand", lang, total=total)
            return CoachNote(about, options, words, why)
        if view.phase == "round_over":
            options = [t("learn_oicho.keep_bank", lang), t("learn_oicho.pass_bank", lang)]
            return CoachNote(t("learn_oicho.about_bank", lang), options, words, t("learn_oicho.why_bank", lang))
        return CoachNote(phase_text(view.phase, lang), [], words, "")

    def move_words(self, view: OichoSeatView, seat: int, action: Action, lang: str) -> str:
        if isinstance(action, act.Bet):
            return t("learn_oicho.move_bet", lang, amount=action.amount, n=action.pile)
        key = f"oicho.action_{action.verb}"
        return t(key, lang) if has(key) else action.text

    # ------------------------------------------------------------------ narration
    def describe(self, event: Event, ctx: TableContext) -> str | None:
        lang, names = ctx.lang, ctx.names
        if isinstance(event, ev.DealerChosen):
            return t("oicho_ui.ev_first_dealer", lang, name=names[event.dealer])
        if isinstance(event, ev.NewDealer):
            return t("oicho_ui.ev_new_dealer", lang, name=names[event.seat])
        if isinstance(event, ev.BetPlaced):
            return t("oicho_ui.ev_bet", lang, name=names[event.seat], amount=event.amount * ctx.stake, n=event.pile)
        if isinstance(event, ev.BetsCleared):
            return t("oicho_ui.ev_clear", lang, name=names[event.seat])
        if isinstance(event, ev.BettingDone):
            return t("oicho_ui.ev_done", lang, name=names[event.seat])
        if isinstance(event, ev.RoundVoid):
            return t("oicho_ui.ev_void", lang, round=event.deal)
        if isinstance(event, ev.PileDecided):
            if event.seat is None:
                key = "oicho_ui.ev_pile_must" if event.drew else "oicho_ui.ev_pile_may_not"
                return t(key, lang, n=event.pile, card=card_text(event.card))
            if event.drew:
                return t(
                    "oicho_ui.ev_pile_draw", lang, name=names[event.seat], n=event.pile, card=card_text(event.card)
                )
            return t("oicho_ui.ev_pile_stand", lang, name=names[event.seat], n=event.pile)
        if isinstance(event, ev.DealerDecided):
            key = "oicho_ui.ev_dealer_draw" if event.drew else "oicho_ui.ev_dealer_stand"
            return t(key, lang, name=names[event.seat])
        if isinstance(event, ev.Showdown):
            return t("oicho_ui.ev_showdown", lang, cards=cards_text(event.dealer_cards))
        if isinstance(event, ev.BankKept):
            return t("oicho_ui.ev_continue", lang, name=names[event.seat])
        if isinstance(event, ev.BankPassed):
            return t("oicho_ui.ev_resign", lang, name=names[event.seat])
        return None

    # ------------------------------------------------------------------ results
    def result_embed(self, result: DealResult[OichoResult], ctx: TableContext) -> discord.Embed:
        lang, names = ctx.lang, ctx.names
        embed = discord.Embed(title=t("oicho_ui.result_title", lang, round=result.deal), colour=0xF9A825)
        detail = result.detail
        if detail.void:
            embed.description = t("oicho_ui.void_round", lang)
        lines = []
        for seat, delta in enumerate(result.deltas):
            if delta:
                lines.append(f"{names[seat]} **{delta * ctx.stake:+,}**")
        embed.description = (embed.description or "") + ("\n".join(lines) or t("oicho_ui.no_change", lang))
        if detail.dealer_hand is not None:
            embed.add_field(
                name=t("oicho_ui.dealer", lang),
                value=_summary_hand(detail.dealer_hand.cards, detail.dealer_hand.hand, None, lang),
                inline=False,
            )
        for pile in detail.piles or ():
            if pile.bets:
                embed.add_field(
                    name=t("oicho_ui.pile", lang, n=pile.number),
                    value=_summary_hand(pile.cards, pile.hand, pile.outcome, lang)[:1024],
                    inline=True,
                )
        return embed

    def card_label(self, card: str, lang: str) -> str | None:
        """``[3]``, as the piles show a card (no refusal names a card today: no Oicho-Kabu move names one)."""
        try:
            return card_text(KabuCard.parse(card))
        except ValueError:  # NotationError: not a kabufuda card
            return None


def _summary_hand(cards: Sequence[str], hand: HandResult, outcome: str | None, lang: str) -> str:
    """A hand of the results message: its cards, what it makes and, for a pile, how it did against the dealer."""
    text = " ".join(f"[{c}]" for c in cards)
    name = t(f"oicho.points_{hand.points}", lang)
    if hand.kind != "plain":
        key = f"oicho.hand_{hand.kind}"
        name = (t(key, lang) if has(key) else hand.kind) + f" ({name})"
    text += f" · {name}"
    if outcome is not None:
        key = f"oicho_ui.outcome_{outcome}"
        text += f" · **{t(key, lang) if has(key) else outcome}**"
    return text


__all__ = ["MONTH_KANJI", "OichoUI"]
