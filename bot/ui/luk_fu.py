"""Luk Fu (六虎) on Discord: the table in words, the decisions of a seat, the narration, the results message.

Cards are written with the Chinese numeral and the suit character, as on the cards (七貫 is the 7 of Myriads;
Li Tyen is 老千), with the code in English text (七貫 7M); red cards, which the red bonus counts, are marked 🔴.
Every move offered comes from the engine's legal actions: the call, a lead (a menu when there are many, with
the singles the lead restriction forbids listed with the reason), a beating follow, the cards to discard face
down (chosen freely, as many as were led), stop or continue at six tricks, and Five Tigers (五虎).

A hand's last card settles it and deals the next in the same step, so its final trick is never on the table
between tricks: the table's words show it (from the settled hand's ``trick_log``, as the picture does) until
the next hand's first lead, and the results message lists the whole hand trick by trick.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import discord

from bot.i18n import has, t
from bot.ui.base import GameUI, TableContext
from bot.ui.decisions import ChooseOne, ChooseSubset, Option, PanelSpec
from games.core.actions import Action, LegalAction, is_listed
from games.core.cards import LukFuCard, parse_lukfu
from games.core.engine import DealResult
from games.core.events import Event
from games.luk_fu import actions as act
from games.luk_fu import events as ev
from games.luk_fu.results import LoggedTrick, LukFuResult
from games.luk_fu.views import LukFuPublicView, LukFuSeatView, PlayView, TrickView

if TYPE_CHECKING:
    from bot.learn.note import CoachNote

NUMERALS = ("", "一", "二", "三", "四", "五", "六", "七", "八", "九")
SUIT_CHARS = {"C": "銭", "S": "索", "M": "貫", "T": "十"}
RED_CARDS = frozenset(parse_lukfu("9C 9S 9M 9T 8T 1C 1T LT"))
BACK = "🂠"

HOWTO_TOPICS = {"call": "call", "tigers": "five_tigers", "follow": "must_beat", "stop": "six_tricks"}
"""The ``/howto`` topic of each phase of a hand (a lead is chosen by :meth:`LukFuUI.howto_topic`)."""

FIELD_MAX = 1024
"""Discord: a field's value holds at most 1024 characters."""
RESULT_ROOM = 4800
"""Characters a results embed may use: Discord allows 6000 in all, and the runtime adds the revealed seeds (a
field of up to 1024 characters and its name) to every results message."""


def card_text(card: LukFuCard | None, lang: str) -> str:
    """``七貫`` (Japanese) or ``七貫 7M`` (English), 🔴 for a red card; a card back for one not shown."""
    if card is None:
        return BACK
    face = "老千" if card.is_li_tyen else NUMERALS[card.rank] + SUIT_CHARS[card.suit]
    text = face if lang == "ja" else f"{face} {card.notation}"
    return f"🔴{text}" if card in RED_CARDS else text


def cards_text(cards: Sequence[LukFuCard | None], lang: str) -> str:
    return " ".join(card_text(c, lang) for c in cards) or "—"


def phase_text(phase: str, lang: str) -> str:
    key = f"luk_fu.phase_{phase}"
    return t(key, lang) if has(key) else phase


def _kind(cards: Sequence[LukFuCard], lang: str) -> str:
    if len(cards) == 1:
        return ""
    if len({c.rank for c in cards}) == 1 and not any(c.is_li_tyen for c in cards):
        return t("luk_fu_ui.kind_triple" if len(cards) == 3 else "luk_fu_ui.kind_quad", lang)
    if len(cards) == 5 and any(c.is_li_tyen for c in cards):
        return t("luk_fu_ui.kind_tigers", lang)
    return t("luk_fu_ui.kind_run", lang, n=len(cards))


def _play_group(cards: Sequence[LukFuCard], lang: str) -> str:
    """A play's kind ("Run of 6"): the group it is found under when the menu is too long for one list."""
    if len(cards) == 1:
        return t("luk_fu_render.kind_single", lang)
    if any(c.is_li_tyen for c in cards):
        return t("luk_fu_render.kind_tigers", lang)
    if len({c.rank for c in cards}) == 1:
        key = {3: "luk_fu_render.kind_triple", 4: "luk_fu_render.kind_quad"}.get(len(cards))
        return t(key, lang) if key else _kind(cards, lang)
    return t("luk_fu_render.kind_run", lang, size=len(cards))


def _play_label(cards: Sequence[LukFuCard], lang: str) -> str:
    kind = _kind(cards, lang)
    return f"{cards_text(cards, lang)}{f' ({kind})' if kind else ''}"


class LukFuUI(GameUI):
    game_id = "luk_fu"

    # ------------------------------------------------------------------ public
    def public_summary(self, view: LukFuPublicView, ctx: TableContext) -> discord.Embed:
        lang, names = ctx.lang, ctx.names
        embed = discord.Embed(
            title=t("luk_fu_ui.title", lang, deal=view.deal_no, total=view.hands_total), colour=0x8E1B1B
        )
        lines = [t("luk_fu_ui.roles", lang, dealer=names[view.dealer], parent=names[view.parent])]
        if view.sitter is not None:
            lines.append(t("luk_fu_ui.sitter", lang, name=names[view.sitter]))
        if view.declarer is not None:
            lines.append(t("luk_fu_ui.declarer", lang, name=names[view.declarer]))
        if view.game_over:
            lines.append(t("luk_fu_ui.game_over", lang, names=", ".join(names[s] for s in view.winners)))
        else:
            waiting = ", ".join(names[s] for s in view.to_act) or "—"
            lines.append(t("luk_fu_ui.status", lang, phase=phase_text(view.phase, lang), names=waiting))
        embed.description = "\n".join(lines)
        trick = view.trick or view.last_trick
        if trick is not None:
            embed.add_field(
                name=_trick_title(trick, view, names, lang), value=_trick_text(trick, names, lang)[:1024], inline=False
            )
        elif (final := _final_trick(view)) is not None:
            number, winner, count, plays = final
            deal = view.last_detail.deal if view.last_detail is not None else "?"
            title = t("luk_fu_ui.final_trick", lang, deal=deal, n=number, name=names[winner], count=count)
            embed.add_field(
                name=title[:256], value="\n".join(_play_text(p, names, lang) for p in plays)[:1024], inline=False
            )
        for seat in view.active:
            row = cards_text(view.winning_cards[seat], lang) if view.winning_cards[seat] else "—"
            value = t("luk_fu_ui.seat_line", lang, tricks=view.tricks[seat], cards=view.hand_sizes[seat], row=row)
            embed.add_field(name=_seat_title(view, seat, names), value=value[:1024], inline=True)
        stacks = " · ".join(
            f"{names[s]} {view.stacks[s] * ctx.stake:,}" + ("" if view.seated[s] else " ✖") for s in range(view.seats)
        )
        embed.add_field(name=t("luk_fu_ui.stacks", lang), value=stacks[:1024], inline=False)
        return embed

    def render(self, view: LukFuPublicView, ctx: TableContext) -> bytes:
        from bot.render.luk_fu import render_luk_fu_table

        return render_luk_fu_table(view, list(ctx.names), ctx.lang, stake=ctx.stake)

    # ------------------------------------------------------------------ private
    def panel(
        self, view: LukFuSeatView, seat: int, legal: Sequence[LegalAction], ctx: TableContext, state: dict[str, str]
    ) -> PanelSpec:
        lang, names = ctx.lang, ctx.names
        lines = [
            t(
                "luk_fu_ui.panel_head",
                lang,
                deal=view.deal_no,
                total=view.hands_total,
                phase=phase_text(view.phase, lang),
                tricks=view.tricks[seat],
            )
        ]
        if view.sitter_card is not None:
            lines.append(t("luk_fu_ui.your_sitter_card", lang, card=card_text(view.sitter_card, lang)))
        elif not view.playing:
            lines.append(t("luk_fu_ui.sitting_out", lang))
        if view.hand:
            old = set(view.old)
            hand = " ".join(card_text(c, lang) + ("ᵒ" if c in old else "") for c in view.hand)
            lines.append(t("luk_fu_ui.your_hand", lang, cards=hand))
            if old:
                lines.append(t("luk_fu_ui.old_note", lang))
        trick = view.trick
        if trick is not None:
            lines.append(_trick_title(trick, view, names, lang) + ": " + _trick_text(trick, names, lang, inline=True))
        spec = PanelSpec(text="")
        actions = [a for a in legal if isinstance(a, Action)]
        if view.phase == "call" and seat in view.to_act:
            lines.append(t("luk_fu_ui.call_prompt", lang))
            spec.decisions.append(
                ChooseOne(
                    "call",
                    "",
                    [
                        Option(t("luk_fu_ui.play", lang), act.Play(), "success"),
                        Option(t("luk_fu_ui.pass", lang), act.Pass()),
                    ],
                )
            )
        elif view.phase == "tigers" and seat in view.to_act:
            options = [Option(t("luk_fu_ui.keep", lang), act.Keep())]
            if act.Tigers() in actions:
                options.insert(0, Option(t("luk_fu_ui.reveal_tigers", lang), act.Tigers(), "danger", "🐯"))
            lines.append(t("luk_fu_ui.tigers_prompt", lang))
            spec.decisions.append(ChooseOne("tigers", "", options))
        elif view.phase == "lead" and seat in view.to_act:
            lines.append(_lead_prompt(view, lang))
            spec.decisions.append(_lead_decision(view, actions, lang))
        elif view.phase == "follow" and seat in view.to_act:
            if view.can_beat:
                lines.append(t("luk_fu_ui.must_beat", lang, n=view.must_play))
                follows = [a for a in actions if isinstance(a, act.Follow)]
                spec.decisions.append(
                    ChooseOne(
                        "follow",
                        "",
                        [
                            Option(_play_label(a.cards, lang), a, "primary", group=_play_group(a.cards, lang))
                            for a in follows
                        ],
                        placeholder=t("luk_fu_ui.choose_follow", lang),
                    )
                )
            else:
                lines.append(t("luk_fu_ui.discard_prompt", lang, n=view.must_play))
                spec.decisions.append(_discard_decision(view, legal, lang))
        elif view.phase == "stop" and seat in view.to_act:
            lines.append(t("luk_fu_ui.stop_prompt", lang, tricks=view.tricks[seat]))
            spec.decisions.append(
                ChooseOne(
                    "stop",
                    "",
                    [
                        Option(t("luk_fu_ui.stop", lang), act.Stop(), "success"),
                        Option(t("luk_fu_ui.continue", lang), act.Continue()),
                    ],
                )
            )
        elif view.game_over:
            lines.append(t("luk_fu_ui.game_over", lang, names=", ".join(names[s] for s in view.winners)))
        else:
            waiting = ", ".join(names[s] for s in view.to_act) or "—"
            lines.append(t("luk_fu_ui.waiting", lang, names=waiting))
        spec.text = "\n".join(lines)[:1800]
        return spec

    def howto_topic(self, view: LukFuSeatView, legal: Sequence[LegalAction]) -> str:
        """The call; Five Tigers; a lead (restricted single leads and old cards, unless it is the declarer's free
        lead: what may be led); following (must beat, or discard face down); stopping at six tricks. A seat sitting
        this hand out gets the deal of four players; the end of the game, the scoring."""
        if view.game_over or view.phase == "over":
            return "scoring"
        if not view.playing:
            return "dealing"
        if view.phase == "lead":
            leading = view.seat in view.to_act
            return "old_cards" if leading and view.lead_exempt != "declarer" else "leads"
        return HOWTO_TOPICS.get(view.phase, "basics")

    # ------------------------------------------------------------------ narration
    def describe(self, event: Event, ctx: TableContext) -> str | None:
        lang, names = ctx.lang, ctx.names
        if isinstance(event, ev.DealerChosen):
            return t("luk_fu_ui.ev_first_dealer", lang, name=names[event.dealer])
        if isinstance(event, ev.DealSetUp):
            return t("luk_fu_ui.ev_deal", lang, deal=event.deal, dealer=names[event.dealer], parent=names[event.parent])
        if isinstance(event, ev.Called):
            return t("luk_fu_ui.ev_play" if event.play else "luk_fu_ui.ev_pass", lang, name=names[event.seat])
        if isinstance(event, ev.AllPassed):
            return t("luk_fu_ui.ev_all_passed", lang)
        if isinstance(event, ev.Led):
            key = "luk_fu_ui.ev_led_unbeatable" if event.unbeatable else "luk_fu_ui.ev_led"
            return t(key, lang, name=names[event.seat], cards=_play_label(event.cards, lang))
        if isinstance(event, ev.Followed):
            return t("luk_fu_ui.ev_followed", lang, name=names[event.seat], cards=cards_text(event.cards, lang))
        if isinstance(event, ev.Discarded) and event.public:
            return t("luk_fu_ui.ev_discarded", lang, name=names[event.seat], n=event.count)
        if isinstance(event, ev.TrickWon):
            return t("luk_fu_ui.ev_trick_won", lang, name=names[event.seat], n=event.credited, total=event.total)
        if isinstance(event, ev.StopChosen):
            return t("luk_fu_ui.ev_stop" if event.stop else "luk_fu_ui.ev_continue", lang, name=names[event.seat])
        if isinstance(event, ev.FiveTigersRevealed):
            return t("luk_fu_ui.ev_tigers", lang, name=names[event.seat], credit=event.credit)
        if isinstance(event, ev.HandResult):
            if event.winner is None:
                return t("luk_fu_ui.ev_no_winner", lang)
            return t("luk_fu_ui.ev_hand_won", lang, name=names[event.winner], tricks=event.tricks[event.winner])
        return None

    # ------------------------------------------------------------------ results
    def result_embed(self, result: DealResult[LukFuResult], ctx: TableContext) -> discord.Embed:
        lang, names = ctx.lang, ctx.names
        hand = result.detail
        embed = discord.Embed(title=t("luk_fu_ui.result_title", lang, deal=result.deal), colour=0xF9A825)
        lines = []
        share = hand.share
        if hand.calls and hand.declarer is None:
            lines.append(t("luk_fu_ui.result_all_passed", lang))
        elif hand.winner is None:
            lines.append(t("luk_fu_ui.result_no_winner", lang))
        else:
            lines.append(
                t(
                    "luk_fu_ui.result_winner",
                    lang,
                    name=names[hand.winner],
                    tricks=hand.tricks[hand.winner],
                    share=share.share if share is not None else 0,
                )
            )
            if hand.five_tigers is not None:
                lines.append(t("luk_fu_ui.result_tigers", lang))
            if share is not None and share.multiplier > 1:
                lines.append(t("luk_fu_ui.result_multiplier", lang, m=share.multiplier))
            if share is not None and share.reds:
                lines.append(t("luk_fu_ui.result_reds", lang, n=share.reds))
            if hand.parent_penalty:
                lines.append(t("luk_fu_ui.result_parent_penalty", lang))
            if hand.sitter_bonus and hand.sitter is not None:
                lines.append(t("luk_fu_ui.result_sitter_bonus", lang, name=names[hand.sitter]))
        if hand.declarer is not None:
            lines.append(t("luk_fu_ui.result_declarer", lang, name=names[hand.declarer]))
        lines += [f"{names[seat]} **{delta * ctx.stake:+,}**" for seat, delta in enumerate(result.deltas) if delta]
        embed.description = "\n".join(lines)
        if any(hand.tricks):
            value = " · ".join(f"{names[seat]} {n}" for seat, n in enumerate(hand.tricks) if seat in hand.active)
            embed.add_field(name=t("luk_fu_ui.tricks", lang), value=value[:1024], inline=False)
        if hand.sitter_card and hand.sitter is not None:
            embed.add_field(
                name=t("luk_fu_ui.sitter_card", lang, name=names[hand.sitter]),
                value=card_text(LukFuCard.parse(hand.sitter_card), lang),
                inline=False,
            )
        _add_trick_log(embed, hand.trick_log, names, lang)
        return embed

    # ------------------------------------------------------------------ the coach (/learn)
    def coach(
        self,
        view: LukFuSeatView,
        seat: int,
        legal: Sequence[LegalAction],
        ctx: TableContext,
        state: dict[str, str],
        pick: Action,
    ) -> CoachNote:
        """What the decision in front of ``seat`` is, each option under the rules, and the bot's move and reason."""
        from bot.learn.note import CoachNote
        from games.luk_fu import policy
        from games.luk_fu.combos import has_big_combination

        lang = ctx.lang
        words = self.move_words(view, seat, pick, lang)
        if view.phase == "call":
            est = policy.estimate_tricks(view.hand)
            parent_big = view.seat == view.parent and has_big_combination(view.hand)
            at = policy.CALL_AT - 0.5 if parent_big else policy.CALL_AT
            rules = view.rules
            free = t("learn_luk_fu.declarer_free", lang) if rules.old_lead_exempt_declarer else ""
            double = t("learn_luk_fu.declarer_double", lang) if rules.declarer_pays_double else ""
            options = [
                t("learn_luk_fu.call_play", lang, free=free, double=double),
                t("learn_luk_fu.call_pass", lang),
            ]
            extra = [t("learn_luk_fu.parent_pass_penalty", lang)] if parent_big else []
            why = t("learn_luk_fu.why_call", lang, est=f"{est:.1f}", at=f"{at:.1f}")
            return CoachNote(t("learn_luk_fu.about_call", lang), options, words, why, extra)
        if view.phase == "tigers" or pick.verb == "tigers":
            options = [t("learn_luk_fu.tigers_reveal", lang), t("learn_luk_fu.tigers_keep", lang)]
            return CoachNote(t("learn_luk_fu.about_tigers", lang), options, words, t("learn_luk_fu.why_tigers", lang))
        if view.phase == "lead":
            return self._coach_lead(view, legal, lang, pick, words)
        if view.phase == "follow":
            winning = _winning_cards(view)
            if view.can_beat:
                follows = sorted(
                    (a for a in legal if isinstance(a, act.Follow)), key=lambda a: policy._strength(a.cards)
                )
                last = view.trick is not None and len(view.trick.plays) == len(view.active) - 1
                options = [t("learn_luk_fu.must_beat", lang, n=view.must_play, cards=cards_text(winning, lang))]
                if len(follows) == 1:
                    options.append(t("learn_luk_fu.beat_only", lang, play=_play_label(follows[0].cards, lang)))
                    why = t("learn_luk_fu.why_beat_only", lang)
                else:
                    options.append(
                        t(
                            "learn_luk_fu.beat_range",
                            lang,
                            weakest=_play_label(follows[0].cards, lang),
                            strongest=_play_label(follows[-1].cards, lang),
                            count=len(follows),
                        )
                    )
                    why = t("learn_luk_fu.why_beat_last" if last else "learn_luk_fu.why_beat_strong", lang)
                return CoachNote(t("learn_luk_fu.about_follow", lang), options, words, why)
            options = [
                t("learn_luk_fu.cannot_beat", lang, n=view.must_play, cards=cards_text(winning, lang)),
                t("learn_luk_fu.discard_what", lang),
            ]
            return CoachNote(t("learn_luk_fu.about_discard", lang), options, words, t("learn_luk_fu.why_discard", lang))
        if view.phase == "stop":
            double = t("learn_luk_fu.stop_double", lang) if view.rules.declarer_pays_double else ""
            options = [t("learn_luk_fu.stop", lang, double=double), t("learn_luk_fu.continue", lang)]
            return CoachNote(
                t("learn_luk_fu.about_stop", lang, tricks=view.tricks[seat]),
                options,
                words,
                t("learn_luk_fu.why_stop", lang),
            )
        return CoachNote(phase_text(view.phase, lang), [], words, "")

    def _coach_lead(
        self, view: LukFuSeatView, legal: Sequence[LegalAction], lang: str, pick: Action, words: str
    ) -> CoachNote:
        from bot.learn.note import CoachNote
        from games.luk_fu import policy

        options = [t("learn_luk_fu.lead_kinds", lang)]
        if view.lead_exempt == "declarer":
            options.append(t("learn_luk_fu.lead_exempt_declarer", lang))
        elif view.lead_exempt == "only_old":
            options.append(t("learn_luk_fu.lead_exempt_only_old", lang))
        elif view.lead_exempt is None:
            options.append(t("learn_luk_fu.lead_restricted", lang))
        old = [c for c, reason in view.forbidden_singles if reason == "old"]
        wrong = [c for c, reason in view.forbidden_singles if reason == "wrong_suit"]
        if old:
            options.append(t("learn_luk_fu.forbidden_old", lang, cards=cards_text(old, lang)))
        if wrong and view.lead_suit:
            suit = t(f"luk_fu.suit_{view.lead_suit}", lang)
            options.append(t("learn_luk_fu.forbidden_suit", lang, cards=cards_text(wrong, lang), suit=suit))
        if view.old and view.lead_exempt is not None:
            options.append(t("learn_luk_fu.old_free", lang, cards=cards_text(view.old, lang)))
        leads = [a for a in legal if isinstance(a, act.Lead)]
        if isinstance(pick, act.Lead) and leads:
            chance = policy.win_chance(pick.cards, view)
            worth = chance * len(pick.cards)
            if worth >= 0.6:
                why = t(
                    "learn_luk_fu.why_lead_best", lang, chance=f"{chance:.0%}", n=len(pick.cards), worth=f"{worth:.1f}"
                )
            else:
                why = t("learn_luk_fu.why_lead_cheap", lang)
        else:
            why = t("learn_luk_fu.why_tigers", lang)
        return CoachNote(t("learn_luk_fu.about_lead", lang, n=view.trick_no + 1), options, words, why)

    def move_words(self, view: LukFuSeatView, seat: int, action: Action, lang: str) -> str:
        if isinstance(action, (act.Lead, act.Follow)):
            return _play_label(action.cards, lang)
        if isinstance(action, act.Discard):
            return t("learn_luk_fu.move_discard", lang, cards=cards_text(action.cards, lang))
        key = {
            "play": "luk_fu_ui.play",
            "pass": "luk_fu_ui.pass",
            "stop": "luk_fu_ui.stop",
            "continue": "luk_fu_ui.continue",
            "tigers": "luk_fu_ui.reveal_tigers",
            "keep": "luk_fu_ui.keep",
        }.get(action.verb)
        return t(key, lang) if key else action.text

    def card_label(self, card: str, lang: str) -> str | None:
        """``七貫`` (Japanese) or ``七貫 7M`` (English), 🔴 for a red card, as the hand shows a card."""
        try:
            return card_text(LukFuCard.parse(card), lang)
        except ValueError:  # NotationError: not a Luk Fu card
            return None


# ---------------------------------------------------------------- pieces


Logged = tuple[int, int, int, list[PlayView]]
"""A trick from a hand's ``trick_log``: (number, winner, tricks credited, plays in order, lead first)."""


def _logged_trick(entry: LoggedTrick, seats: int) -> Logged | None:
    """One trick of a settled hand's log (face-up cards as notation, face-down plays only counted: they become
    card backs), or None when it is not as expected (a damaged record)."""
    plays = []
    for play in entry.plays:
        if not 0 <= play.seat < seats:
            return None
        if play.cards is not None:
            try:
                cards: tuple[LukFuCard | None, ...] = tuple(parse_lukfu(" ".join(play.cards)))
            except ValueError:  # NotationError
                return None
            down = False
        elif play.face_down is not None:
            cards, down = (None,) * play.face_down, True
        else:
            return None
        plays.append(
            PlayView(seat=play.seat, cards=cards, face_down=down, winning=not down and play.seat == entry.winner)
        )
    if not plays or not any(p.winning for p in plays):
        return None
    return entry.trick, entry.winner, entry.count, plays


def _final_trick(view: LukFuPublicView) -> Logged | None:
    """The last hand's final trick, from its end until the next hand's first lead (as the picture shows it): only
    when a trick ended that hand (played out, or its winner stopped); not after an all-pass hand or Five Tigers."""
    last = view.last_detail
    if last is None or last.ended_by not in ("all_played", "stop"):
        return None
    if not view.game_over and (view.trick is not None or view.last_trick is not None):
        return None
    return _logged_trick(last.trick_log[-1], view.seats) if last.trick_log else None


def _trick_log_lines(trick_log: Sequence[LoggedTrick], names: Sequence[str], lang: str) -> list[str]:
    """The hand trick by trick, in order: each play (lead first; face-down ones as backs, the winning play ✅),
    then who took it and how many tricks it was worth."""
    lines = []
    for entry in trick_log:
        logged = _logged_trick(entry, len(names))
        if logged is None:
            continue
        number, winner, count, plays = logged
        played = " · ".join(_play_text(p, names, lang) for p in plays)
        lines.append(t("luk_fu_ui.trick_log_line", lang, n=number, plays=played, name=names[winner], count=count))
    return lines


def _add_trick_log(embed: discord.Embed, trick_log: Sequence[LoggedTrick], names: Sequence[str], lang: str) -> None:
    """The trick-by-trick list as fields of whole lines, each field within Discord's 1024 characters and the whole
    embed within ``RESULT_ROOM`` characters; a list that would not fit ends with … (no hand the rules allow comes
    near: twelve tricks take two fields). Every field but the last is full enough that no line would fit after
    it, so two fields in a row hold more than 1024 characters: ``RESULT_ROOM`` leaves room for ten at most, well
    within Discord's 25 fields."""
    lines = _trick_log_lines(trick_log, names, lang)
    if not lines:
        return
    title = t("luk_fu_ui.trick_log", lang)
    more = "\u200b"  # a continued list: a field needs a name, and a blank one reads as the same list
    fields: list[str] = []
    for line in lines:
        line = line[:FIELD_MAX]
        if fields and len(fields[-1]) + 1 + len(line) <= FIELD_MAX:
            fields[-1] += "\n" + line
        else:
            fields.append(line)
    room = RESULT_ROOM - len(embed)
    for i, value in enumerate(fields):
        name = title if i == 0 else more
        if len(name) + len(value) > room:
            kept = value.split("\n")
            while kept and (
                len("\n".join([*kept, "…"])) > FIELD_MAX or len(name) + len("\n".join([*kept, "…"])) > room
            ):
                kept.pop()
            if kept:
                embed.add_field(name=name, value="\n".join([*kept, "…"]), inline=False)
            return
        embed.add_field(name=name, value=value, inline=False)
        room -= len(name) + len(value)


def _seat_title(view: LukFuPublicView | LukFuSeatView, seat: int, names: Sequence[str]) -> str:
    marks = ""
    if seat == view.parent:
        marks += "親 "
    if seat == view.declarer:
        marks += "📣 "
    if seat in view.to_act:
        marks += "⏳ "
    return (marks + names[seat])[:256]


def _trick_title(trick: TrickView, view: LukFuPublicView | LukFuSeatView, names: Sequence[str], lang: str) -> str:
    if trick.winner is not None:
        return t("luk_fu_ui.trick_won", lang, n=trick.number, name=names[trick.winner], count=trick.size)
    return t("luk_fu_ui.trick", lang, n=trick.number, count=trick.size)


def _trick_text(trick: TrickView, names: Sequence[str], lang: str, inline: bool = False) -> str:
    parts = []
    for play in trick.plays:
        parts.append(_play_text(play, names, lang))
    return (" · " if inline else "\n").join(parts)


def _play_text(play: PlayView, names: Sequence[str], lang: str) -> str:
    mark = " ✅" if play.winning else ""
    if play.face_down and all(c is None for c in play.cards):
        return f"{names[play.seat]}: {BACK * len(play.cards)}{mark}"
    cards = cards_text(play.cards, lang)
    down = " " + t("luk_fu_ui.face_down", lang) if play.face_down else ""
    return f"{names[play.seat]}: {cards}{down}{mark}"


def _winning_cards(view: LukFuSeatView) -> tuple[LukFuCard, ...]:
    """The face-up cards winning the trick in progress (what a follower must beat)."""
    trick = view.trick
    if trick is None:
        return ()
    play = next((p for p in trick.plays if p.winning), None)
    return tuple(c for c in (play.cards if play else ()) if c is not None)


def _lead_prompt(view: LukFuSeatView, lang: str) -> str:
    if view.lead_exempt == "declarer":
        return t("luk_fu_ui.lead_free_declarer", lang)
    if view.lead_exempt == "only_old":
        return t("luk_fu_ui.lead_free_only_old", lang)
    if view.lead_exempt == "no_legal_lead":
        return t("luk_fu_ui.lead_free_fallback", lang)
    if view.lead_suit:
        return t("luk_fu_ui.lead_restricted", lang, suit=t(f"luk_fu.suit_{view.lead_suit}", lang))
    return t("luk_fu_ui.lead_prompt", lang)


def _lead_decision(view: LukFuSeatView, actions: Sequence[Action], lang: str) -> ChooseOne:
    options: list[Option] = []
    if act.Tigers() in actions:
        tigers = t("luk_fu_render.kind_tigers", lang)
        options.append(Option(t("luk_fu_ui.reveal_tigers", lang), act.Tigers(), "danger", "🐯", group=tigers))
    leads = [a for a in actions if isinstance(a, act.Lead)]
    for lead in sorted(leads, key=lambda a: (len(a.cards), a.text)):
        style = "primary" if len(lead.cards) > 1 else "secondary"
        options.append(Option(_play_label(lead.cards, lang), lead, style, group=_play_group(lead.cards, lang)))
    for card, reason in view.forbidden_singles:
        options.append(Option(card_text(card, lang), None, reason=t(f"luk_fu_ui.forbidden_{reason}", lang)))
    return ChooseOne("lead", "", options, placeholder=t("luk_fu_ui.choose_lead", lang))


def _discard_decision(view: LukFuSeatView, legal: Sequence[LegalAction], lang: str) -> ChooseSubset:
    by_text = {c.notation: c for c in view.hand}

    def build(values: tuple[str, ...]) -> Action | None:
        cards = tuple(by_text[v] for v in values if v in by_text)
        if len(cards) != view.must_play or len(cards) != len(values):
            return None
        action = act.Discard(cards)
        return action if is_listed(action, legal) else None

    return ChooseSubset(
        "discard",
        "",
        [(card_text(c, lang), c.notation) for c in view.hand],
        view.must_play,
        view.must_play,
        build,
        placeholder=t("luk_fu_ui.choose_discard", lang, n=view.must_play),
    )


__all__ = ["LukFuUI", "card_text"]
