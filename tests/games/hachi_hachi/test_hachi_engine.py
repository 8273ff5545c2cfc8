"""The Hachi-Hachi Trick engine contract: action text, the draw and the deal, hidden information (folded and
forced-out hands, the secret split choice, the stock), refusals, chips (fees, the pot, §0.4 caps, busts, the
game's end, a stopped table), events, snapshots and replays."""

from __future__ import annotations

import json

import pytest
from hachi_kit import (
    P1,
    P2,
    P3,
    P4,
    P5,
    P6,
    act,
    calls,
    deltas,
    only,
    paid,
    round_order,
    summary,
    table,
    texts,
    tricks,
)

from games.core.cards import FrenchCard, french_deck, parse_french
from games.core.engine import iter_cards
from games.core.errors import IllegalAction, NotationError
from games.core.events import DealEnded, DealStarted
from games.core.record import TableRecord
from games.core.rng import Shuffle, Shuffler
from games.hachi_hachi import events as ev
from games.hachi_hachi.actions import CODEC, Card
from games.hachi_hachi.engine import HachiHachiEngine
from games.hachi_hachi.rules import HachiHachiRules
from games.hachi_hachi.spec import SPEC
from games.replay import record_of, replay

HH3 = {
    P1: "Ks Qs 3d 4d Ac 2c 4h",
    P3: "3s 4s Ad Kd Qc 3c 6h",
    P4: "Js Ts 5d 6d 5c 6c Qh",
    P5: "As Ah 7d 7c 7s 2d 5h",
    P6: "Kc Qd 9h 6s 4c 3h 2s",
}
HH3_TRICKS = ("Ks 3s Js", "Qs 4s Ts", "3d Ad 5d", "Kd 6d 4d", "3c 5c Ac", "2c Qc 6c", "6h Qh 4h")
HH5 = {P2: "As Ks Ah 2h 3d 4d 2c", P4: "3s 4s Kh Qh Ad Kd 3c"}
FORCED = {
    P1: "Ks Qs 3d 4d Ac 2c 4h",
    P2: "3s 4s Ad Kd Qc 3c 6h",
    P3: "As Ah Kc Qd 9s 7d 2h",  # two Aces, no yaku
    P4: "Kh Jd 9h 6s 4c 3h 2s",  # nothing
}


def code(e: HachiHachiEngine, seat: int, text: str) -> str:
    problem = e.refusal(seat, CODEC.parse(text))
    assert problem is not None, f"{text!r} was accepted"
    return problem.code


# ------------------------------------------------------------------ actions


def test_action_text_is_canonical() -> None:
    assert CODEC.parse("card 10s").text == "card Ts"
    assert CODEC.parse("card QH") == Card(FrenchCard(12, "h"))
    assert CODEC.parse("card Q♥").text == "card Qh"
    for text in ("mizuten", "no-mizuten", "play", "fold", "split", "fight", "card As"):
        assert CODEC.parse(text).text == text


@pytest.mark.parametrize("text", ["card", "card 1s", "card As Ks", "card Ax", "play 1", "mizuten now", "pass"])
def test_bad_action_text(text: str) -> None:
    with pytest.raises(NotationError):
        CODEC.parse(text)


# ------------------------------------------------------------------ the draw and the deal


def test_first_start_player_is_drawn_through_the_shuffler() -> None:
    shuffler = Shuffler(planned=[Shuffle(order="2c As 3d"), Shuffle(order="2d")])
    e = HachiHachiEngine(HachiHachiRules(), [50, 50, 50], shuffler)
    assert e.sp == P2 and e.players == [P2, P3, P1]
    first = e.drain_events()
    assert [x for x in first if isinstance(x, ev.StartPlayerDrawn)] == [
        ev.StartPlayerDrawn(P2, ((0, "2c"), (1, "As"), (2, "3d")))
    ]
    assert [s.purpose for s in shuffler.used] == ["draw_sp", "deal"]
    assert any(isinstance(x, DealStarted) for x in first)


def test_cards_are_dealt_in_packets_from_the_start_player_only_after_mizuten() -> None:
    order = round_order({P2: "As Ks Qs Js Ts 9s 8s"}, sp=P2, stacks=[50, 50, 50], indicator="Ah")
    shuffler = Shuffler(planned=[Shuffle(order="2c As"), Shuffle(order=order)])
    e = HachiHachiEngine(HachiHachiRules(), [50, 50, 50], shuffler)
    e.drain_events()
    assert e.phase == "mizuten" and e.to_act() == {P2} and texts(e, P2) == ["mizuten", "no-mizuten"]
    assert all(not h for h in e.hands) and e.indicator is None
    assert e.hidden_from(P2) == frozenset(french_deck()), "before Mizuten no one has seen a card"
    events = act(e, P2, "no-mizuten")
    deck = parse_french(order)
    assert e.hands[P2] == sorted(deck[:7], key=lambda c: ("cdhs".index(c.suit), c.rank))
    assert set(e.hands[P3]) == set(deck[7:14]) and set(e.hands[P1]) == set(deck[14:21])
    assert e.indicator == FrenchCard.parse("Ah") and (e.field, e.mult, e.trump) == ("zetsuba", 4, "h")
    dealt = [x for x in events if isinstance(x, ev.HandDealt)]
    assert [(x.seat, x.to) for x in dealt] == [(P2, {P2}), (P3, {P3}), (P1, {P1})]
    assert [x for x in events if isinstance(x, ev.TrumpTurned)] == [ev.TrumpTurned(e.indicator, "zetsuba", 4)]


def test_a_table_without_three_seats_with_chips_is_over() -> None:
    e = HachiHachiEngine(HachiHachiRules(), [50, 0, 50], Shuffler())
    assert e.is_over and e.deal_no == 0 and e.winners == [P1, P3]


# ------------------------------------------------------------------ refusals


def test_refusal_codes() -> None:
    e = table(HH3, seats=6, indicator="Kh")
    assert code(e, P1, "play") == "hachi_hachi.wrong_phase"
    calls(e, "mizuten")
    assert code(e, P1, "fold") == "hachi_hachi.mizuten_must_play"
    assert code(e, P2, "play") == "core.not_your_turn"
    assert e.view(P1).must_play
    calls(e, "play", "fold", "play", "play")
    assert code(e, P1, "card 2s") == "hachi_hachi.card_not_in_hand"
    assert code(e, P1, "split") == "hachi_hachi.wrong_phase"
    act(e, P1, "card Ks")
    assert texts(e, P3) == ["card 3s", "card 4s"]
    assert code(e, P3, "card Ad") == "hachi_hachi.must_follow"


def test_refused_action_changes_nothing() -> None:
    e = table(HH3, seats=6, indicator="Kh")
    calls(e, "no-mizuten", "play")
    before = json.dumps(e.snapshot(), sort_keys=True)
    for seat, text in ((P3, "play"), (P2, "card 2s"), (P2, "split"), (P2, "mizuten")):
        with pytest.raises(IllegalAction):
            act(e, seat, text)
    assert json.dumps(e.snapshot(), sort_keys=True) == before


# ------------------------------------------------------------------ what each seat sees


def test_views_hide_other_hands_folded_hands_and_the_stock() -> None:
    e = table(HH3, seats=6, indicator="Kh")
    calls(e, "no-mizuten", "play", "fold")
    public = e.public_view()
    assert list(iter_cards(public)) == [e.indicator], "the public view shows the indicator and nothing else"
    folded = set(e.dealt[P2])
    assert folded <= e.hidden_from(None) and all(folded <= e.hidden_from(s) for s in (P1, P3, P4))
    assert not e.view(P2).hand and set(e.view(P2).dealt) == folded, "a folder keeps only the memory of his cards"
    mine = e.view(P3)
    assert set(mine.hand) == set(parse_french(HH3[P3])) and set(iter_cards(mine)) == {*mine.hand, e.indicator}
    stock = set(french_deck()) - {c for h in e.dealt for c in h} - {e.indicator}
    assert len(stock) == 52 - 42 - 1 and stock <= e.hidden_from(P1)
    line = public.lines[P2]
    assert (line.state, line.fee, line.stack, line.stack_after_fees, line.cards) == ("folded", 8, 50, 42, 0)
    assert public.stacks[P2] == 50 and e.stacks[P2] == 50, "stacks change only when the round ends"
    assert public.pot == 8 and public.pot_carried == 0
    assert [ln.state for ln in public.lines] == ["play", "folded", "to_speak", "waiting", "waiting", "waiting"]
    assert public.speaker == P3 and public.next_fee == 12 and e.view(P3).fold_fee == 12


def test_forced_out_hands_stay_hidden_until_the_split_choice_is_made() -> None:
    e = table(FORCED, seats=4, max_declarers=2)
    calls(e, "no-mizuten", "play", "play")
    assert [ln.state for ln in e.public_view().lines] == ["play", "play", "forced_out", "forced_out"]
    assert set(e.dealt[P3]) <= e.hidden_from(None)
    act(e, P2, "split")
    assert set(e.dealt[P3]) <= e.hidden_from(P1)
    act(e, P1, "split")
    shown = summary(e)["hands"][0]
    assert shown == {"seat": P3, "role": "forced_out", "yaku": [], "cards": ["Ah", "As"], "aces": 2, "value": 2}
    assert deltas(e) == (-2, -2, 4, 0)


def test_revealed_yaku_cards_become_public_and_the_rest_stays_hidden() -> None:
    e = table(HH3, seats=6, indicator="Kh")
    events = calls(e, "no-mizuten", "play", "fold", "play", "play")
    shown = [x for x in events if isinstance(x, ev.HandRevealed)]
    assert [(x.seat, x.role, x.value) for x in shown] == [
        (P5, "forced_out", 4),
        (P6, "forced_out", 0),
        (P1, "declarer", 0),
        (P3, "declarer", 0),
        (P4, "declarer", 0),
    ]
    assert set(shown[0].cards) == set(parse_french("As Ah 7d 7c 7s"))
    hidden = e.hidden_from(None)
    assert not hidden & set(shown[0].cards) and set(parse_french("2d 5h")) <= hidden
    assert set(parse_french(HH3[P6])) <= hidden, "a forced-out hand without Aces or yaku shows nothing"
    view = e.public_view()
    assert [r.seat for r in view.reveals] == [P5, P6, P1, P3, P4]
    assert set(view.reveals[0].cards) == set(shown[0].cards)


def test_the_split_choice_is_secret_until_both_have_chosen() -> None:
    e = table(HH5, seats=4)
    calls(e, "no-mizuten", "fold", "play", "fold")
    events = act(e, P4, "play")
    assert e.to_act() == {P2, P4}, "both choose at once"
    assert e.decision_id(P2) == e.decision_id(P4) == e.serial
    assert not [x for x in events if isinstance(x, ev.HandRevealed)], "no hand is shown before the choice"
    events = act(e, P4, "fight")
    assert [x for x in events if isinstance(x, ev.SplitChosen)] == [
        ev.SplitChosen(P4),
        ev.SplitChosen(P4, "fight", to=frozenset({P4})),
    ]
    assert e.to_act() == {P2}
    for seen in (e.public_view(), e.view(P2)):
        assert seen.chosen == (P4,) and seen.choices == () and seen.choosing == (P2,)
    assert e.view(P2).my_choice is None and e.view(P4).my_choice == "fight"
    assert "fight" not in repr(e.view(P2)) and "fight" not in repr(e.public_view())
    events = act(e, P2, "split")
    assert [x for x in events if isinstance(x, ev.SplitRevealed)] == [
        ev.SplitRevealed(((P2, "split"), (P4, "fight")), False)
    ]
    assert e.public_view().choices == ((P2, "split"), (P4, "fight")) and e.phase == "trick"


def test_the_trick_in_progress_and_legal_cards() -> None:
    e = table(HH3, seats=6, indicator="Kh")
    calls(e, "no-mizuten", "play", "fold", "play", "play")
    act(e, P1, "card Ks")
    act(e, P3, "card 3s")
    view = e.view(P4)
    assert view.trick is not None and view.trick.led_suit == "s" and view.trick.winning == P1
    assert [(p.seat, p.card.notation) for p in view.trick.plays] == [(P1, "Ks"), (P3, "3s")]
    assert view.legal_cards == tuple(parse_french("Ts Js")) and view.to_play == P4
    act(e, P4, "card Js")
    last = e.public_view().last_trick
    assert last is not None and last.complete and last.winning == P1 and e.public_view().trick is not None
    assert e.public_view().tricks[P1] == 1 and only(e) == P1


# ------------------------------------------------------------------ chips


def test_a_fee_is_capped_by_the_stack_and_still_counts_as_a_fold() -> None:
    e = table({}, seats=4, stacks=[50, 1, 50, 50])
    calls(e, "no-mizuten", "fold")
    view = e.public_view()
    assert (view.speaker, view.next_fee, view.speaker_fee) == (P2, 3, 1), "everyone sees what folding costs him"
    assert e.view(P2).fold_fee == 1
    calls(e, "fold")
    assert e.fees[:2] == [2, 1] and e.public_view().lines[P2].stack_after_fees == 0
    calls(e, "fold", "play")
    assert summary(e)["fees"] == [2, 1, 4, 0]
    assert deltas(e) == (-2, -1, -4, 7)
    assert summary(e)["busts"] == [P2]
    assert e.players == [P4, P1, P3], "a bust seat leaves the table"
    assert e.public_view().lines[P2].state == "out"


def test_a_role_passing_to_a_bust_seat_passes_on() -> None:
    e = table({}, seats=4, stacks=[50, 1, 50, 50])
    calls(e, "no-mizuten", "fold", "fold", "fold", "fold")
    assert summary(e)["outcome"] == "void" and e.stacks[P2] == 0
    assert e.sp == P3, "the start player would pass to P2, who has left: it passes on to P3"


def test_debts_are_capped_pro_rata_and_the_pot_can_pay_them() -> None:
    e = table(HH3, seats=6, indicator="Kh", stacks=[50, 50, 50, 10, 50, 50])
    calls(e, "no-mizuten", "play", "fold", "play", "play")
    tricks(e, *HH3_TRICKS)
    d = deltas(e)
    assert d[P4] == -10, "P4 owes 48 but holds 10: he pays all he has"
    assert sum(d) + e.results[-1].pot == 0 and min(e.stacks) == 0
    # 10 chips shared pro rata over 16 + 16 + 16 owed: 3 each, the chip left by rounding to the first creditor
    # from the start player's left (P2 is owed nothing, so P3). P1 pays P5 from the pot he took.
    assert d == (8 + 3 - 16, -8, 4 - 16, -10, 32 + 3, 0)
    assert summary(e)["owed"][P4] == -48
    assert summary(e)["busts"] == [P4]


def test_a_bust_that_leaves_two_players_ends_the_game() -> None:
    e = table({}, seats=3, stacks=[50, 2, 50])
    calls(e, "no-mizuten", "play", "fold", "fold")
    assert deltas(e) == (5, -2, -3) and e.is_over and e.winners == [P1]
    assert summary(e)["game_over"] and summary(e)["next_sp"] is None


def test_busts_on_fold_fees_are_listed_though_the_game_end_refund_gives_the_fees_back() -> None:
    later = [round_order({}, sp=P2, stacks=[48, 2, 2], indicator="8d")]
    e = table({}, seats=3, stacks=[50, 5, 6], later=later)
    calls(e, "no-mizuten", "fold", "fold", "fold")  # fees 2, 3, 4: a pot of 9 carries over
    assert e.stacks == [48, 2, 2] and e.pot_total() == 9 and summary(e)["busts"] == []
    # Round 2, P2 starts: his fee (2) and P3's (3, capped at his last 2) leave them without a chip, P1 pays 4.
    calls(e, "no-mizuten", "fold", "fold", "fold")
    s = summary(e)
    assert s["fees"] == [4, 2, 2] and s["outcome"] == "void"
    assert e.is_over and s["game_over"] and s["round"] == 2 < s["rounds"], "fewer than three players have chips"
    # The unclaimed pot of 17 goes back to whoever paid into it, so the bust players hold chips again …
    assert s["end_refund"] == [[P1, 6], [P2, 5], [P3, 6]] and e.stacks == [50, 5, 6]
    # … and yet they are the reason the game ended: they are listed as bust.
    assert s["busts"] == [P2, P3]


def test_stop_result_refunds_the_carried_pot_only() -> None:
    e = table({}, seats=3, later=[round_order({}, sp=P2, stacks=[50] * 3, indicator="8d")])
    assert e.stop_result() is None
    calls(e, "no-mizuten", "fold", "fold", "fold")
    calls(e, "no-mizuten", "fold")
    stopped = e.stop_result()
    assert stopped is not None
    assert (stopped.deal, stopped.deltas, stopped.pot) == (2, (2, 3, 4), -9)
    assert stopped.summary["refund"] is True and sum(stopped.deltas) + stopped.pot == 0
    assert e.pot_total() == 9 and e.fees[P2] == 2, "the fee of the round in progress is not in the stacks yet"


def test_the_game_end_refund_returns_a_pot_carried_over_several_rounds() -> None:
    e = table({}, seats=3, rounds=2, later=[round_order({}, sp=P2, stacks=[50] * 3, indicator="8d")])
    calls(e, "no-mizuten", "fold", "fold", "fold")
    calls(e, "no-mizuten", "fold", "fold", "fold")
    assert e.is_over and e.pot_total() == 0
    assert summary(e)["end_refund"] == [[P1, 6], [P2, 5], [P3, 7]], "both rounds' fees go back to their payers"
    assert deltas(e) == (2, 3, 4), "round 2's fees (P1 4, P2 2, P3 3) cancel: what is left is round 1's pot"
    assert [sum(r.deltas[s] for r in e.results) for s in range(3)] == [0, 0, 0]
    assert e.results[-1].pot == -9
    # The finished game's view counts the last round's fees once: they are in the stacks, not owed again.
    view = e.public_view()
    assert view.pot == 0 and view.stacks_after_fees == view.stacks == (50, 50, 50)
    assert all(line.fee == 0 and line.stack_after_fees == line.stack for line in view.lines)


# ------------------------------------------------------------------ summary, events, snapshots, replays


def test_summary_is_json_ready_and_complete() -> None:
    e = table(HH3, seats=6, indicator="Kh")
    calls(e, "mizuten", "play", "fold", "play", "play")
    events = tricks(e, *HH3_TRICKS)
    assert events
    s = summary(e)
    json.dumps(s)
    assert s["declarations"] == [
        [P1, "play"],
        [P2, "fold"],
        [P3, "play"],
        [P4, "play"],
        [P5, "forced_out"],
        [P6, "forced_out"],
    ]
    assert (s["indicator"], s["field"], s["mult"], s["outcome"]) == ("Kh", "zetsuba", 4, "play")
    assert s["mizuten"] is True and s["mizuten_paid"] is True and s["tricks"] == [3, 0, 3, 1, 0, 0]
    assert s["trick_log"][0] == {"trick": 1, "leader": P1, "winner": P1, "plays": [[P1, "Ks"], [P3, "3s"], [P4, "Js"]]}
    assert {p["kind"] for p in s["payments"]} == {"forced_out", "trick", "mizuten"}
    assert paid(e, "mizuten") == {P1: 20, P2: -4, P3: -4, P4: -4, P5: -4, P6: -4}
    assert e.public_view().last_result == s and e.public_view().last_deltas == deltas(e)


def test_each_round_ends_with_one_deal_result_and_its_event() -> None:
    e = table({}, seats=3)
    assert [x.deal for x in e.drain_events() if isinstance(x, ev.RoundStarted)] == [1]
    events = calls(e, "no-mizuten", "fold", "fold", "fold")
    ended = [x for x in events if isinstance(x, DealEnded)]
    assert ended == [DealEnded(1, (-2, -3, -4))]
    settled = [x for x in events if isinstance(x, ev.RoundSettled)]
    assert settled == [ev.RoundSettled(1, "void", (), 9, (-2, -3, -4))]
    assert [x.deal for x in events if isinstance(x, ev.RoundStarted)] == [2]


def test_replay_and_snapshot_round_trip() -> None:
    e = table(HH5, seats=4, rounds=2)
    calls(e, "no-mizuten", "fold", "play", "fold", "play")
    act(e, P4, "fight")
    state = json.loads(json.dumps(e.snapshot()))
    restored = SPEC.restore(e.rules, state, Shuffler(planned=list(e.shuffler.used), used=list(e.shuffler.used)))
    for seat in range(4):
        assert restored.view(seat) == e.view(seat) and restored.legal_actions(seat) == e.legal_actions(seat)
    assert restored.public_view() == e.public_view() and restored.pot_total() == e.pot_total()
    act(e, P2, "split")
    act(restored, P2, "split")
    assert restored.public_view() == e.public_view()
    base = TableRecord(game="hachi_hachi", rules={"rounds": 2}, stacks=[50, 50, 50, 50])
    again = replay(TableRecord.loads(record_of(e, base).dumps()))
    assert again.public_view() == e.public_view() and again.view(P4) == e.view(P4)


def test_the_whole_deck_is_dealt_once() -> None:
    e = table({}, seats=7)
    calls(e, "no-mizuten")
    cards = [c for h in e.hands for c in h]
    assert len(cards) == 49 and len(set(cards)) == 49 and e.indicator not in cards
