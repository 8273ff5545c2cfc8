"""Hachi-Hachi Trick (ハチハチトリック) on Discord: the table in words, a seat's decisions, the narration, the results.

Cards are written with their suit as an emoji (``Q♥️``, ``10♠️``): Discord draws ♥️ and ♦️ red and ♠️ and ♣️
black, so the red suits stand out in text and on buttons alike. Amounts are shown in chips (points × the table's
stake). Every move offered comes from the engine's legal actions: Mizuten or not, play or fold (with what folding
costs now; a Mizuten start player's fold is shown disabled, with why), split or fight, and in trick play one
button per card of the hand, the ones the must-follow rule forbids greyed out (trumps are the blue buttons).

Secrets: a declarer's split/fight choice is only ever read from his own seat view (``my_choice``) or from the
public ``choices``, which the engine fills once both have chosen; the public side says only who has chosen.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

import discord

from bot.i18n import has, t
from bot.ui.base import GameUI, TableContext
from bot.ui.decisions import ChooseOne, Option, PanelSpec
from games.core.actions import Action, LegalAction
from games.core.cards import FrenchCard
from games.core.engine import DealResult
from games.core.events import Event, GameEnded
from games.hachi_hachi import actions as act
from games.hachi_hachi import events as ev
from games.hachi_hachi.results import HachiResult, LoggedTrick, RevealedHand, RoundResult, StoppedResult
from games.hachi_hachi.views import HachiPublicView, HachiSeatView, RevealView, TrickView

if TYPE_CHECKING:
    from bot.learn.note import CoachNote

SUIT_EMOJI = {"c": "♣️", "d": "♦️", "h": "♥️", "s": "♠️"}
TRICKS = 7
HOWTO_TOPICS = {
    "mizuten": "mizuten",
    "declare": "declare",
    "choose": "split_or_fight",
    "trick": "tricks",
    "over": "tricks",
}
"""The ``/howto`` topic of each phase of a round: Mizuten; play or fold (and forced out); split or fight; the tricks
(and, once the game is over, how the last round was settled: the tricks topic ends with the pot)."""
PART_KINDS = ("forced_out", "hand", "trick", "mizuten")


def card_text(card: FrenchCard) -> str:
    """``Q♥️``, ``10♠️``: the rank and the suit emoji (red for hearts and diamonds)."""
    rank = "10" if card.rank == 10 else card.rank_char
    return rank + SUIT_EMOJI[card.suit]


def cards_text(cards: Sequence[FrenchCard]) -> str:
    return " ".join(card_text(c) for c in cards) or "—"


def suit_text(suit: str | None, lang: str) -> str:
    return t(f"hachi_hachi.suit_{suit}", lang) if suit else "—"


def phase_text(phase: str, lang: str) -> str:
    key = f"hachi_hachi.phase_{phase}"
    return t(key, lang) if has(key) else phase


def yaku_name(key: str, lang: str) -> str:
    """A hand combination's name, as the table image names it (``Haneken はねけん``)."""
    full = f"hachi_hachi_render.yaku_{key}"
    return t(full, lang) if has(full) else key


def yaku_text(keys: Sequence[str], lang: str) -> str:
    return " + ".join(yaku_name(k, lang) for k in keys) or t("hachi_hachi_ui.no_yaku", lang)


def field_text(field: str, mult: int, lang: str, *, short: bool = False) -> str:
    prefix = "hachi_hachi_ui.field_short_" if short else "hachi_hachi_ui.field_"
    key = prefix + field if has(prefix + field) else prefix + "plain"
    return t(key, lang, m=mult)


def chips(points: int, ctx: TableContext) -> str:
    return f"{points * ctx.stake:,}"


def signed(points: int, ctx: TableContext) -> str:
    return f"{points * ctx.stake:+,}"


class HachiHachiUI(GameUI):
    game_id = "hachi_hachi"

    # ------------------------------------------------------------------ public
    def public_summary(self, view: HachiPublicView, ctx: TableContext) -> discord.Embed:
        lang, names = ctx.lang, ctx.names
        if view.game_over:
            title = t("hachi_hachi_ui.title_over", lang)
        else:
            title = t("hachi_hachi_ui.title", lang, round=view.round_no, total=view.rounds_total)
        embed = discord.Embed(title=title[:256], colour=0x1B5E20)
        if view.game_over:
            # The last round is settled (its results message says how): only the final stacks are left to show.
            embed.description = _status(view, ctx)
            ranking = sorted(range(view.seats), key=lambda s: -view.stacks[s])
            standings = "\n".join(
                f"**{names[s]}** — " + t("hachi_hachi_ui.chips", lang, chips=chips(view.stacks[s], ctx))
                for s in ranking
            )
            embed.add_field(name=t("hachi_hachi_ui.seats", lang), value=standings[:1024], inline=False)
            return embed
        lines = [t("hachi_hachi_ui.sp", lang, name=names[view.sp]), *_mizuten_lines(view, names, lang)]
        if view.indicator is not None:
            lines.append(
                t("hachi_hachi_ui.trump", lang, card=card_text(view.indicator), suit=suit_text(view.trump, lang))
            )
            lines.append(field_text(view.field, view.mult, lang))
        if view.pot_carried and view.pot != view.pot_carried:
            lines.append(
                t("hachi_hachi_ui.pot_carried", lang, pot=chips(view.pot, ctx), carried=chips(view.pot_carried, ctx))
            )
        else:
            lines.append(t("hachi_hachi_ui.pot", lang, pot=chips(view.pot, ctx)))
        lines.append(_status(view, ctx))
        last = view.last_detail
        if isinstance(last, RoundResult) and view.phase in ("mizuten", "declare"):
            # The round just settled (its last trick never stays on the table: the next round starts at once).
            lines.append(t("hachi_hachi_ui.last_round", lang, text=_outcome_line(last, names, lang)))
        embed.description = "\n".join(lines)[:4000]
        if view.choices:
            embed.add_field(
                name=t("hachi_hachi_ui.choices", lang),
                value=_choices_line(view.choices, bool(view.split), names, lang)[:1024],
                inline=False,
            )
        trick = _shown_trick(view)
        if trick is not None:
            embed.add_field(
                name=_trick_title(trick, names, lang), value=_trick_text(view, trick, names, lang)[:1024], inline=False
            )
        if view.reveals:
            numbers = {d: i + 1 for i, d in enumerate(view.declarers)}
            value = "\n".join(_reveal_line(r, numbers, names, lang) for r in view.reveals)
            embed.add_field(name=t("hachi_hachi_ui.reveals", lang), value=value[:1024], inline=False)
        seats = "\n".join(_seat_line(view, s, ctx) for s in range(view.seats))
        embed.add_field(name=t("hachi_hachi_ui.seats", lang), value=seats[:1024], inline=False)
        return embed

    def render(self, view: HachiPublicView, ctx: TableContext) -> bytes:
        from bot.render.hachi_hachi import render_hachi_hachi_table

        return render_hachi_hachi_table(view, list(ctx.names), ctx.lang, stake=ctx.stake)

    # ------------------------------------------------------------------ private
    def panel(
        self, view: HachiSeatView, seat: int, legal: Sequence[LegalAction], ctx: TableContext, state: dict[str, str]
    ) -> PanelSpec:
        lang, names = ctx.lang, ctx.names
        round_no = max(view.round_no, 1)
        lines = [
            t(
                "hachi_hachi_ui.panel_head",
                lang,
                round=round_no,
                total=view.rounds_total,
                phase=phase_text(view.phase, lang),
            )
        ]
        if not view.game_over:  # once over, the last round is settled: only the end of the game is left to say
            if view.indicator is not None:
                lines.append(
                    t(
                        "hachi_hachi_ui.panel_table",
                        lang,
                        card=card_text(view.indicator),
                        suit=suit_text(view.trump, lang),
                        field=field_text(view.field, view.mult, lang, short=True),
                        pot=chips(view.pot, ctx),
                    )
                )
            else:
                lines.append(t("hachi_hachi_ui.panel_pot", lang, pot=chips(view.pot, ctx)))
            lines += _own_lines(view, seat, ctx)
        spec = PanelSpec(text="")
        actions = [a for a in legal if isinstance(a, Action)]
        acting = seat in view.to_act and bool(actions)
        if view.phase == "mizuten" and acting:
            # With two declarers at most, a Mizuten is always void (rules.md §3.2 step 9, Q-H4): it still binds.
            key = "mizuten_prompt" if view.rules.mizuten_can_pay else "mizuten_prompt_no_bonus"
            lines.append(
                t(
                    f"hachi_hachi_ui.{key}",
                    lang,
                    tricks=view.rules.mizuten_min_tricks,
                    bonus=chips(view.rules.mizuten_bonus, ctx),
                    max=view.rules.max_declarers,
                )
            )
            spec.decisions.append(ChooseOne("mizuten", "", _mizuten_options(actions, lang)))
        elif view.phase == "declare" and acting:
            lines += _declare_prompt(view, ctx)
            spec.decisions.append(ChooseOne("declare", "", _declare_options(view, actions, ctx)))
        elif view.phase == "choose" and acting:
            lines.append(_choose_prompt(view, seat, ctx))
            spec.decisions.append(ChooseOne("choose", "", _choose_options(actions, lang)))
        elif view.phase == "trick" and acting:
            trick = view.trick
            if trick is not None and trick.plays:
                lines.append(
                    _trick_title(trick, names, lang) + ": " + _trick_text(view, trick, names, lang, inline=True)
                )
            lines.append(_card_prompt(view, lang))
            spec.decisions.append(ChooseOne("card", "", _card_options(view, actions), select=False))
        elif view.game_over:
            lines.append(t("hachi_hachi_ui.game_over", lang, names=", ".join(names[s] for s in view.winners) or "—"))
        else:
            if view.phase == "trick" and view.trick is not None and view.trick.plays:
                trick = view.trick
                lines.append(
                    _trick_title(trick, names, lang) + ": " + _trick_text(view, trick, names, lang, inline=True)
                )
            if view.phase == "choose" and view.my_choice is not None:
                others = [d for d in view.choosing if d != seat]
                lines.append(
                    t(
                        "hachi_hachi_ui.chose_waiting",
                        lang,
                        choice=_choice_word(view.my_choice, lang),
                        name=", ".join(names[s] for s in others) or "—",
                    )
                )
            else:
                lines.append(t("hachi_hachi_ui.waiting", lang, names=", ".join(names[s] for s in view.to_act) or "—"))
        spec.text = "\n".join(lines)[:1800]
        return spec

    def howto_topic(self, view: HachiSeatView, legal: Sequence[LegalAction]) -> str:
        return HOWTO_TOPICS.get(view.phase, "basics")

    # ------------------------------------------------------------------ narration
    def describe(self, event: Event, ctx: TableContext) -> str | None:
        lang, names = ctx.lang, ctx.names
        if isinstance(event, ev.StartPlayerDrawn):
            drawn = dict(event.draws).get(event.sp)
            card = card_text(FrenchCard.parse(drawn)) if drawn else "—"
            return t("hachi_hachi_ui.ev_first_sp", lang, name=names[event.sp], card=card)
        if isinstance(event, ev.RoundStarted):
            return t(
                "hachi_hachi_ui.ev_round",
                lang,
                round=event.round_no,
                total=event.rounds,
                name=names[event.sp],
                pot=chips(event.pot, ctx),
            )
        if isinstance(event, ev.MizutenDecided):
            key = "hachi_hachi_ui.ev_mizuten" if event.declared else "hachi_hachi_ui.ev_no_mizuten"
            return t(key, lang, name=names[event.seat])
        if isinstance(event, ev.TrumpTurned):
            return t(
                "hachi_hachi_ui.ev_trump",
                lang,
                card=card_text(event.card),
                suit=suit_text(event.card.suit, lang),
                field=field_text(event.field, event.mult, lang, short=True),
            )
        if isinstance(event, ev.Declared):
            if event.play:
                return t("hachi_hachi_ui.ev_play", lang, name=names[event.seat], n=event.declarer_no)
            key = "hachi_hachi_ui.ev_fold_capped" if event.fee < event.due else "hachi_hachi_ui.ev_fold"
            return t(key, lang, name=names[event.seat], fee=chips(event.fee, ctx), due=chips(event.due, ctx))
        if isinstance(event, ev.ForcedOut):
            return t("hachi_hachi_ui.ev_forced_out", lang, names=", ".join(names[s] for s in event.seats))
        if isinstance(event, ev.SplitChosen):
            if event.choice is None:
                return t("hachi_hachi_ui.ev_chose", lang, name=names[event.seat])
            # The private copy, for the chooser alone (the runtime passes each seat only what it may see).
            return t("hachi_hachi_ui.ev_chose_mine", lang, choice=_choice_word(event.choice, lang))
        if isinstance(event, ev.SplitRevealed):
            key = "hachi_hachi_ui.ev_split" if event.split else "hachi_hachi_ui.ev_fight"
            return t(key, lang, choices=_choices_text(event.choices, names, lang))
        if isinstance(event, ev.HandRevealed):
            forced = event.role == "forced_out"
            if not event.cards:
                key = "hachi_hachi_ui.ev_reveal_forced_out_none" if forced else "hachi_hachi_ui.ev_reveal_none"
                return t(key, lang, name=names[event.seat])
            key = "hachi_hachi_ui.ev_reveal_forced_out" if forced else "hachi_hachi_ui.ev_reveal_declarer"
            return t(
                key,
                lang,
                name=names[event.seat],
                yaku=yaku_text(event.yaku, lang),
                cards=cards_text(event.cards),
                aces=event.aces,
                value=event.value,
            )
        if isinstance(event, ev.CardPlayed):
            return t("hachi_hachi_ui.ev_card", lang, name=names[event.seat], card=card_text(event.card), n=event.trick)
        if isinstance(event, ev.TrickWon):
            return t(
                "hachi_hachi_ui.ev_trick_won",
                lang,
                name=names[event.seat],
                n=event.trick,
                card=card_text(event.card),
                total=event.total,
            )
        if isinstance(event, ev.RoundSettled):
            return _settled_line(event, ctx)
        if isinstance(event, GameEnded):
            stacks = " · ".join(
                f"{names[s]} {chips(v, ctx)}" for s, v in sorted(enumerate(event.stacks), key=lambda sv: -sv[1])
            )
            return t("hachi_hachi_ui.ev_game_over", lang, stacks=stacks)
        return None

    # ------------------------------------------------------------------ results
    def result_embed(self, result: DealResult[HachiResult], ctx: TableContext) -> discord.Embed:
        lang, names = ctx.lang, ctx.names
        detail = result.detail
        if isinstance(detail, StoppedResult):
            embed = discord.Embed(title=t("hachi_hachi_ui.result_title_stopped", lang), colour=0xF9A825)
            embed.description = t("hachi_hachi_ui.result_stopped", lang, pot=chips(detail.pot, ctx))
            return embed
        assert isinstance(detail, RoundResult)
        s = detail
        if s.round is None:
            title = t("hachi_hachi_ui.result_title_void", lang, deal=result.deal)
        else:
            title = t("hachi_hachi_ui.result_title", lang, round=s.round, total=s.rounds)
        embed = discord.Embed(title=title[:256], colour=0xF9A825)
        lines = []
        if s.indicator:
            card = FrenchCard.parse(s.indicator)
            lines.append(
                t(
                    "hachi_hachi_ui.result_field",
                    lang,
                    card=card_text(card),
                    suit=suit_text(card.suit, lang),
                    field=field_text(s.field, s.mult, lang, short=True),
                )
            )
        declarers = s.declarers
        if s.mizuten:
            lines.append(t("hachi_hachi_ui.result_mizuten", lang, name=names[s.sp]))
        if declarers:
            lines.append(
                t(
                    "hachi_hachi_ui.result_declarers",
                    lang,
                    names=", ".join(f"D{i + 1} {names[d]}" for i, d in enumerate(declarers)),
                )
            )
        if s.forced_out:
            lines.append(t("hachi_hachi_ui.result_forced_out", lang, names=", ".join(names[f] for f in s.forced_out)))
        if s.choices:
            lines.append(
                t(
                    "hachi_hachi_ui.result_choices",
                    lang,
                    choices=_choices_text([(c.seat, c.choice) for c in s.choices], names, lang),
                )
            )
        lines.append(_outcome_line(s, names, lang))
        if s.mizuten_paid:
            lines.append(
                t(
                    "hachi_hachi_ui.result_mizuten_paid",
                    lang,
                    name=names[s.sp],
                    tricks=s.tricks[s.sp] if s.tricks else "?",
                )
            )
        if s.pot_before or s.pot_in:
            lines.append(
                t(
                    "hachi_hachi_ui.result_pot",
                    lang,
                    before=chips(s.pot_before, ctx),
                    fees=chips(s.pot_in, ctx),
                    total=chips(s.pot_before + s.pot_in, ctx),
                )
            )
        if s.pot_carried:
            lines.append(t("hachi_hachi_ui.result_pot_carried", lang, pot=chips(s.pot_carried, ctx)))
        refunds = [(r.seat, r.amount) for r in s.end_refund]
        refunds += [(p.seat, p.amount) for p in s.pot_to if p.how == "refund"]
        if refunds:
            lines.append(
                t(
                    "hachi_hachi_ui.result_pot_refund",
                    lang,
                    shares=" · ".join(f"{names[p]} {chips(a, ctx)}" for p, a in refunds),
                )
            )
        embed.description = "\n".join(lines)[:4000]
        embed.add_field(
            name=t("hachi_hachi_ui.chips_field", lang), value=_chips_lines(result, s, ctx)[:1024], inline=False
        )
        if s.hands:
            numbers = {d: i + 1 for i, d in enumerate(declarers)}
            value = "\n".join(_summary_hand_line(h, numbers, names, lang) for h in s.hands)
            embed.add_field(name=t("hachi_hachi_ui.reveals", lang), value=value[:1024], inline=False)
        if s.tricks and declarers:
            value = " · ".join(f"{names[d]} {s.tricks[d]}" for d in declarers)
            embed.add_field(name=t("hachi_hachi_ui.tricks", lang), value=value[:1024], inline=False)
        if s.trick_log:
            embed.add_field(
                name=t("hachi_hachi_ui.trick_log", lang), value=_trick_log_text(s.trick_log, names)[:1024], inline=False
            )
        after = []
        if s.busts:
            # At the game's end nobody leaves any more, and a refund of the pot may give a bust player chips back:
            # the line says only that this round took their last chip (which is why the game may be over).
            key = "hachi_hachi_ui.busts_over" if s.game_over else "hachi_hachi_ui.busts"
            after.append(t(key, lang, names=", ".join(names[b] for b in s.busts)))
        if s.game_over:
            # Over before its last round (or after a round that did not count): too few players have chips left.
            last = s.round is not None and s.round == s.rounds
            after.append(t("hachi_hachi_ui.result_over" if last else "hachi_hachi_ui.result_over_players", lang))
        elif s.next_sp is not None:
            after.append(t("hachi_hachi_ui.next_sp", lang, name=names[s.next_sp]))
        if after:
            embed.add_field(name="\u200b", value="\n".join(after)[:1024], inline=False)
        return embed

    # ------------------------------------------------------------------ the coach (/learn)
    def coach(
        self,
        view: HachiSeatView,
        seat: int,
        legal: Sequence[LegalAction],
        ctx: TableContext,
        state: dict[str, str],
        pick: Action,
    ) -> CoachNote:
        """What the decision in front of ``seat`` is, each option under the rules, and the bot's move and reason."""
        from bot.learn.note import CoachNote
        from games.hachi_hachi import normal, policy

        lang = ctx.lang
        words = self.move_words(view, seat, pick, lang)
        field = field_text(view.field, view.mult, lang) if view.indicator is not None else ""
        if view.phase == "mizuten":
            options = [t("learn_hachi_hachi.mizuten", lang), t("learn_hachi_hachi.no_mizuten", lang)]
            return CoachNote(
                t("learn_hachi_hachi.about_mizuten", lang), options, words, t("learn_hachi_hachi.why_mizuten", lang)
            )
        if view.phase == "declare":
            later = len(view.players) - len(view.declarations) - 1
            options = [
                t("learn_hachi_hachi.play", lang, count=len(view.declarers), max=view.rules.max_declarers),
                t("learn_hachi_hachi.fold", lang, fee=chips(view.fold_fee, ctx)),
            ]
            extra = [t("learn_hachi_hachi.field", lang, field=field, mult=view.mult)] if field else []
            if len(view.declarers) + 1 == view.rules.max_declarers and later > 0:
                extra.append(t("learn_hachi_hachi.closes", lang, later=later))
            if view.must_play:
                extra.append(t("learn_hachi_hachi.must_play", lang))
            if any(isinstance(a, act.Fold) for a in legal):
                value = normal.play_value_joined(view)  # what the normal bot, whose rule this note explains, weighs
                why = t(
                    "learn_hachi_hachi.why_declare",
                    lang,
                    value=f"{value:+.1f}",
                    fee=f"{-view.fold_fee:+d}",
                    tricks=f"{policy.estimate_tricks(view.hand, view.trump):.1f}",
                )
            else:
                why = t("learn_hachi_hachi.why_only_play", lang)
            return CoachNote(t("learn_hachi_hachi.about_declare", lang), options, words, why, extra)
        if view.phase == "choose":
            options = [
                t("learn_hachi_hachi.split", lang, pot=chips(view.pot, ctx)),
                t("learn_hachi_hachi.fight", lang),
            ]
            why = t(
                "learn_hachi_hachi.why_choose",
                lang,
                value=f"{policy.fight_value(view):+.1f}",
                tricks=f"{policy.estimate_tricks(view.hand, view.trump):.1f}",
            )
            return CoachNote(t("learn_hachi_hachi.about_choose", lang), options, words, why)
        if view.phase == "trick":
            trick = view.trick
            led = trick.led_suit if trick is not None and trick.plays else None
            trump = suit_text(view.trump, lang)
            if led is None:
                options = [t("learn_hachi_hachi.lead", lang, trump=trump)]
                why = t("learn_hachi_hachi.why_lead", lang)
            elif any(c.suit == led for c in view.hand):
                options = [t("learn_hachi_hachi.follow", lang, suit=suit_text(led, lang), trump=trump)]
                why = t("learn_hachi_hachi.why_follow", lang)
            else:
                options = [t("learn_hachi_hachi.free", lang, suit=suit_text(led, lang), trump=trump)]
                why = t("learn_hachi_hachi.why_free", lang)
            options.append(t("learn_hachi_hachi.tricks_pay", lang, rate=view.rules.trick_rate, mult=view.mult))
            return CoachNote(
                t("learn_hachi_hachi.about_trick", lang, n=trick.number if trick is not None else 1),
                options,
                words,
                why,
            )
        return CoachNote(phase_text(view.phase, lang), [], words, "")

    def move_words(self, view: HachiSeatView, seat: int, action: Action, lang: str) -> str:
        if isinstance(action, act.Card):
            return card_text(action.card)
        key = {
            "mizuten": "hachi_hachi_ui.mizuten",
            "no-mizuten": "hachi_hachi_ui.no_mizuten",
            "play": "hachi_hachi_ui.play",
            "split": "hachi_hachi_ui.split",
            "fight": "hachi_hachi_ui.fight",
        }.get(action.verb)
        if action.verb == "fold":
            return t("learn_hachi_hachi.move_fold", lang)
        return t(key, lang) if key else action.text

    def card_label(self, card: str, lang: str) -> str | None:
        """``Q♥️``, as the hand, the trick and the card buttons show a card."""
        try:
            return card_text(FrenchCard.parse(card))
        except ValueError:  # NotationError: not a French card
            return None


# ---------------------------------------------------------------- public pieces


def _mizuten_lines(view: HachiPublicView, names: Sequence[str], lang: str) -> list[str]:
    if not view.mizuten_offered:
        return []
    if view.mizuten is None:
        return [t("hachi_hachi_ui.mizuten_pending", lang, name=names[view.sp])]
    if view.mizuten:
        return [t("hachi_hachi_ui.mizuten_declared", lang, name=names[view.sp])]
    return [t("hachi_hachi_ui.mizuten_not_declared", lang)]


def _status(view: HachiPublicView, ctx: TableContext) -> str:
    lang, names = ctx.lang, ctx.names
    if view.game_over:
        return t("hachi_hachi_ui.game_over", lang, names=", ".join(names[s] for s in view.winners) or "—")
    if view.phase == "mizuten":
        return t("hachi_hachi_ui.status_mizuten", lang, name=names[view.sp])
    if view.phase == "declare" and view.speaker is not None:
        return t(
            "hachi_hachi_ui.status_declare",
            lang,
            name=names[view.speaker],
            fee=chips(view.speaker_fee, ctx),
            count=len(view.declarers),
            max=view.rules.max_declarers,
        )
    if view.phase == "choose":
        return t(
            "hachi_hachi_ui.status_choose",
            lang,
            chosen=", ".join(names[s] for s in view.chosen) or "—",
            choosing=", ".join(names[s] for s in view.choosing) or "—",
        )
    if view.phase == "trick" and view.to_play is not None:
        number = view.trick.number if view.trick is not None else 1
        return t("hachi_hachi_ui.status_trick", lang, n=number, name=names[view.to_play])
    return t("hachi_hachi_ui.waiting", lang, names=", ".join(names[s] for s in view.to_act) or "—")


def _seat_line(view: HachiPublicView, seat: int, ctx: TableContext) -> str:
    lang, names = ctx.lang, ctx.names
    line = view.lines[seat]
    marks = ""
    if line.is_sp and line.state != "out":
        marks += "SP "
    if seat in view.to_act:
        marks += "⏳ "
    key = f"hachi_hachi_ui.state_{line.state}"
    parts = [t(key, lang, n=line.declarer_no, fee=chips(line.fee, ctx)) if has(key) else line.state]
    if line.state == "play":
        if view.phase == "choose":
            parts.append(
                t("hachi_hachi_ui.seat_chosen" if seat in view.chosen else "hachi_hachi_ui.seat_choosing", lang)
            )
        if view.phase == "trick" or line.tricks:
            parts.append(t("hachi_hachi_ui.seat_tricks", lang, n=line.tricks))
    parts.append(t("hachi_hachi_ui.chips", lang, chips=chips(line.stack_after_fees, ctx)))
    return f"{marks}**{names[seat]}** — " + " · ".join(parts)


def _shown_trick(view: HachiPublicView | HachiSeatView) -> TrickView | None:
    if view.trick is not None and view.trick.plays:
        return view.trick
    if view.last_trick is not None and view.phase in ("trick", "over"):
        return view.last_trick
    return view.trick


def _trick_title(trick: TrickView, names: Sequence[str], lang: str) -> str:
    if trick.complete and trick.winning is not None:
        return t("hachi_hachi_ui.trick_won", lang, n=trick.number, name=names[trick.winning])[:256]
    if trick.led_suit is not None:
        return t("hachi_hachi_ui.trick_led", lang, n=trick.number, suit=suit_text(trick.led_suit, lang))[:256]
    return t("hachi_hachi_ui.trick", lang, n=trick.number)


def _trick_text(
    view: HachiPublicView | HachiSeatView, trick: TrickView, names: Sequence[str], lang: str, inline: bool = False
) -> str:
    parts = [f"{names[p.seat]}: {card_text(p.card)}{' ✅' if p.seat == trick.winning else ''}" for p in trick.plays]
    if not parts:
        parts.append(t("hachi_hachi_ui.trick_to_lead", lang, name=names[trick.leader]))
    if not inline and view.trick_order:
        parts.append(t("hachi_hachi_ui.trick_order", lang, names=" → ".join(names[s] for s in view.trick_order)))
    return (" · " if inline else "\n").join(parts)


def _reveal_line(reveal: RevealView, numbers: Mapping[int, int], names: Sequence[str], lang: str) -> str:
    value = reveal.forced_out if reveal.role == "forced_out" else reveal.normal
    return _hand_line(reveal.seat, reveal.role, reveal.yaku, reveal.cards, reveal.aces, value, numbers, names, lang)


def _hand_line(
    seat: int,
    role: str,
    yaku: Sequence[str],
    cards: Sequence[FrenchCard],
    aces: int,
    value: int,
    numbers: Mapping[int, int],
    names: Sequence[str],
    lang: str,
) -> str:
    """One revealed hand: its yaku, the cards shown and what it is worth (table value, before the field)."""
    forced = role == "forced_out"
    if not cards:
        key = "hachi_hachi_ui.reveal_forced_out_none" if forced else "hachi_hachi_ui.reveal_declarer_none"
        return t(key, lang, name=names[seat], n=numbers.get(seat, "?"))
    key = "hachi_hachi_ui.reveal_forced_out" if forced else "hachi_hachi_ui.reveal_declarer"
    return t(
        key,
        lang,
        name=names[seat],
        n=numbers.get(seat, "?"),
        yaku=yaku_text(yaku, lang),
        aces=aces,
        cards=cards_text(cards),
        value=value,
    )


def _choice_word(choice: str, lang: str) -> str:
    key = f"hachi_hachi_ui.choice_{choice}"
    return t(key, lang) if has(key) else choice


def _choices_text(choices: Sequence[tuple[int, str]], names: Sequence[str], lang: str) -> str:
    return " · ".join(f"{names[seat]} {_choice_word(choice, lang)}" for seat, choice in choices)


def _choices_line(choices: Sequence[tuple[int, str]], split: bool, names: Sequence[str], lang: str) -> str:
    key = "hachi_hachi_ui.choices_split" if split else "hachi_hachi_ui.choices_fight"
    return t(key, lang, choices=_choices_text(choices, names, lang))


def _settled_line(event: ev.RoundSettled, ctx: TableContext) -> str:
    lang, names = ctx.lang, ctx.names
    pot_to = [(seat, amount) for seat, amount in event.pot_to]
    if event.outcome == "void":
        line = t(
            "hachi_hachi_ui.ev_void_refund" if pot_to and not event.pot else "hachi_hachi_ui.ev_void",
            lang,
            pot=chips(event.pot, ctx),
        )
    elif event.outcome == "single" and pot_to:
        line = t("hachi_hachi_ui.ev_single", lang, name=names[pot_to[0][0]], amount=chips(pot_to[0][1], ctx))
    elif event.outcome == "split":
        shares = " · ".join(f"{names[s]} {chips(a, ctx)}" for s, a in pot_to[:2])
        line = t("hachi_hachi_ui.ev_split_paid", lang, shares=shares)
    elif pot_to:
        line = t("hachi_hachi_ui.ev_pot_won", lang, name=names[pot_to[0][0]], amount=chips(pot_to[0][1], ctx))
    else:
        line = ""
    moves = " · ".join(f"{names[s]} {signed(d, ctx)}" for s, d in enumerate(event.deltas) if d)
    if moves:
        line = (line + " " if line else "") + t("hachi_hachi_ui.ev_chips", lang, moves=moves)
    return line or t("hachi_hachi_ui.no_change", lang)


# ---------------------------------------------------------------- private pieces


def _own_lines(view: HachiSeatView, seat: int, ctx: TableContext) -> list[str]:
    lang = ctx.lang
    line = view.lines[seat]
    out = []
    if line.state == "out":
        return [t("hachi_hachi_ui.you_are_out", lang)]
    if line.state == "folded":
        out.append(t("hachi_hachi_ui.you_folded", lang, fee=chips(line.fee, ctx)))
    if view.hand:
        out.append(t("hachi_hachi_ui.your_hand", lang, cards=cards_text(view.hand)))
    value = view.hand_value
    if value is not None and line.state != "folded":
        forced = value.forced_out_total(view.rules.forced_out_ace_value)
        if value.yaku:
            out.append(
                t(
                    "hachi_hachi_ui.your_yaku",
                    lang,
                    yaku=yaku_text(value.keys, lang),
                    normal=value.normal,
                    forced=forced,
                )
            )
        else:
            out.append(t("hachi_hachi_ui.your_no_yaku", lang, forced=forced))
    if line.state == "forced_out":
        out.append(t("hachi_hachi_ui.you_forced_out", lang))
    elif line.state == "play" and line.declarer_no is not None:
        out.append(t("hachi_hachi_ui.you_declarer", lang, n=line.declarer_no))
    return out


def _mizuten_options(actions: Sequence[Action], lang: str) -> list[Option]:
    options = []
    for action in actions:
        if isinstance(action, act.Mizuten):
            options.append(Option(t("hachi_hachi_ui.mizuten", lang), action, "danger", "🙈"))
        elif isinstance(action, act.NoMizuten):
            options.append(Option(t("hachi_hachi_ui.no_mizuten", lang), action))
    return options


def _declare_prompt(view: HachiSeatView, ctx: TableContext) -> list[str]:
    lang = ctx.lang
    if view.must_play:
        out = [t("hachi_hachi_ui.declare_must_play", lang)]
        if not view.rules.mizuten_can_pay:
            out.append(t("hachi_hachi_ui.mizuten_no_bonus", lang, max=view.rules.max_declarers))
        return out
    out = [
        t(
            "hachi_hachi_ui.declare_prompt",
            lang,
            fee=chips(view.fold_fee, ctx),
            count=len(view.declarers),
            max=view.rules.max_declarers,
        )
    ]
    if view.fold_fee < view.next_fee:
        out.append(
            t("hachi_hachi_ui.declare_capped", lang, due=chips(view.next_fee, ctx), fee=chips(view.fold_fee, ctx))
        )
    return out


def _declare_options(view: HachiSeatView, actions: Sequence[Action], ctx: TableContext) -> list[Option]:
    lang = ctx.lang
    options = []
    for action in actions:
        if isinstance(action, act.Play):
            options.append(Option(t("hachi_hachi_ui.play", lang), action, "success"))
        elif isinstance(action, act.Fold):
            options.append(Option(t("hachi_hachi_ui.fold", lang, fee=chips(view.fold_fee, ctx)), action, "danger"))
    if view.must_play and not any(isinstance(a, act.Fold) for a in actions):
        options.append(
            Option(
                t("hachi_hachi_ui.fold", lang, fee=chips(view.next_fee, ctx)),
                None,
                "danger",
                enabled=False,
                reason=t("hachi_hachi_ui.fold_mizuten", lang),
            )
        )
    return options


def _choose_prompt(view: HachiSeatView, seat: int, ctx: TableContext) -> str:
    lang, names = ctx.lang, ctx.names
    other = next((d for d in view.declarers if d != seat), seat)
    d1, d2 = (*view.declarers, seat, seat)[:2]
    first, second = (view.pot + 1) // 2, view.pot // 2
    return t(
        "hachi_hachi_ui.choose_prompt",
        lang,
        other=names[other],
        pot=chips(view.pot, ctx),
        first=chips(first, ctx),
        second=chips(second, ctx),
        d1=names[d1],
        d2=names[d2],
    )


def _choose_options(actions: Sequence[Action], lang: str) -> list[Option]:
    options = []
    for action in actions:
        if isinstance(action, act.Split):
            options.append(Option(t("hachi_hachi_ui.split", lang), action, "success", "🤝"))
        elif isinstance(action, act.Fight):
            options.append(Option(t("hachi_hachi_ui.fight", lang), action, "danger", "⚔️"))
    return options


def _card_prompt(view: HachiSeatView, lang: str) -> str:
    trick = view.trick
    number = trick.number if trick is not None else 1
    led = trick.led_suit if trick is not None else None
    parts = []
    if led is None:
        parts.append(t("hachi_hachi_ui.lead_prompt", lang, n=number))
    elif any(c.suit == led for c in view.hand):
        parts.append(t("hachi_hachi_ui.follow_prompt", lang, n=number, suit=suit_text(led, lang)))
    else:
        parts.append(t("hachi_hachi_ui.free_prompt", lang, n=number, suit=suit_text(led, lang)))
    if any(c.suit == view.trump for c in view.hand):
        parts.append(t("hachi_hachi_ui.trump_note", lang, suit=suit_text(view.trump, lang)))
    return " ".join(parts)


def _card_options(view: HachiSeatView, actions: Sequence[Action]) -> list[Option]:
    """One button per card in hand: the legal ones (from the engine's legal actions) enabled, the others greyed."""
    legal = {a.card: a for a in actions if isinstance(a, act.Card)}
    options = []
    for card in view.hand:
        style = "primary" if card.suit == view.trump else "secondary"
        action = legal.get(card)
        options.append(Option(card_text(card), action, style, enabled=action is not None))
    return options


# ---------------------------------------------------------------- results pieces


def _outcome_line(s: RoundResult, names: Sequence[str], lang: str) -> str:
    pot_to = [share for share in s.pot_to if share.how != "refund"]
    if s.outcome == "void":
        return t("hachi_hachi_ui.result_void", lang)
    if s.outcome == "split":
        return t("hachi_hachi_ui.result_split", lang)
    if s.outcome == "single" and pot_to:
        return t("hachi_hachi_ui.result_single", lang, name=names[pot_to[0].seat])
    if pot_to:
        return t("hachi_hachi_ui.result_play", lang, name=names[pot_to[0].seat])
    return ""


def _chips_lines(result: DealResult[HachiResult], s: RoundResult, ctx: TableContext) -> str:
    """Each seat that took part or moved chips: its change, and where it came from (before the §0.4 cap)."""
    lang, names = ctx.lang, ctx.names
    n = len(result.deltas)
    parts: list[dict[str, int]] = [{} for _ in range(n)]

    def add(seat: int, kind: str, amount: int) -> None:
        if 0 <= seat < n and amount:
            parts[seat][kind] = parts[seat].get(kind, 0) + amount

    for seat, fee in enumerate(s.fees):
        add(seat, "fee", -fee)
    for share in s.pot_to:
        add(share.seat, "refund" if share.how == "refund" else "pot", share.amount)
    for refund in s.end_refund:
        add(refund.seat, "refund", refund.amount)
    for payment in s.payments:
        add(payment.payer, payment.kind, -payment.amount)
        add(payment.payee, payment.kind, payment.amount)
    lines = []
    for seat, delta in enumerate(result.deltas):
        if not delta and not parts[seat]:
            continue
        detail = [
            t(f"hachi_hachi_ui.part_{kind}", lang, amount=signed(amount, ctx))
            for kind in ("fee", "pot", "refund", *PART_KINDS)
            if (amount := parts[seat].get(kind, 0))
        ]
        if sum(parts[seat].values()) != delta:
            detail.append(t("hachi_hachi_ui.part_capped", lang))
        tail = f" ({' · '.join(detail)})" if detail else ""
        lines.append(f"{names[seat]} **{signed(delta, ctx)}**{tail}")
    return "\n".join(lines) or t("hachi_hachi_ui.no_change", lang)


def _trick_log_text(trick_log: Sequence[LoggedTrick], names: Sequence[str]) -> str:
    """Every card played this round, trick by trick, the winning card marked."""
    lines = []
    for entry in trick_log:
        plays = [
            f"{names[play.seat]}: {card_text(FrenchCard.parse(play.card))}{' ✅' if play.seat == entry.winner else ''}"
            for play in entry.plays
        ]
        lines.append(f"{entry.trick}. " + " · ".join(plays))
    return "\n".join(lines)


def _summary_hand_line(hand: RevealedHand, numbers: Mapping[int, int], names: Sequence[str], lang: str) -> str:
    cards = [FrenchCard.parse(c) for c in hand.cards]
    return _hand_line(hand.seat, hand.role, hand.yaku, cards, hand.aces, hand.value, numbers, names, lang)


__all__ = ["HachiHachiUI", "card_text"]
