"""The Luk Fu engine contract: action text, dealing, views and hidden cards, events, refusals, end of hand."""

from __future__ import annotations

import json

import pytest
from lukfu_kit import (
    PLAYED_OUT,
    PLAYED_OUT_DEAD,
    PLAYED_OUT_MOVES,
    PLAYED_OUT_NEXT,
    PLAYED_OUT_TRICKS,
    A,
    B,
    C,
    act,
    draw_for,
    only,
    play,
    summary,
    table,
    texts,
    trick,
)

from games.core.cards import LukFuCard, lukfu_deck, parse_lukfu
from games.core.engine import iter_cards
from games.core.errors import IllegalAction, NotationError
from games.core.record import TableRecord
from games.core.rng import Shuffle, Shuffler
from games.luk_fu import events as ev
from games.luk_fu.actions import CODEC, Discard, Follow
from games.luk_fu.engine import LukFuEngine
from games.luk_fu.rules import LukFuRules
from games.luk_fu.spec import SPEC
from games.replay import record_of, replay

# ------------------------------------------------------------------ actions


def test_action_text_is_canonical() -> None:
    assert CODEC.parse("lead 5s 3S 4s").text == "lead 3S 4S 5S"
    assert CODEC.parse("lead lt 1t 1M 1s 1c").text == "lead 1C 1S 1M 1T LT"
    assert CODEC.parse("discard 9T 2C").text == "discard 2C 9T"
    assert CODEC.parse("follow 9S") == Follow((LukFuCard(9, "S"),))
    assert CODEC.parse("lead 9S") != Follow((LukFuCard(9, "S"),))
    for text in ("play", "pass", "stop", "continue", "tigers", "keep", "follow 9S", "lead 3S 4S 5S"):
        assert CODEC.parse(text).text == text
    assert Discard(tuple(parse_lukfu("9T 1C 5M"))) == CODEC.parse("discard 1C 5M 9T")


@pytest.mark.parametrize("text", ["lead", "lead 5S 5S", "discard 0C", "lead 10S", "follow XX", "play 1", "stop now"])
def test_bad_action_text(text: str) -> None:
    with pytest.raises(NotationError):
        CODEC.parse(text)


def test_longest_action_text_fits_a_custom_id() -> None:
    longest = max(len(f"{verb} {' '.join(['9T'] * 9)}") for verb in CODEC.verbs)
    assert longest <= 80


# ------------------------------------------------------------------ dealing and roles


def test_first_dealer_is_drawn_through_the_shuffler() -> None:
    shuffler = Shuffler(planned=[Shuffle(order=draw_for(1)), Shuffle(order="1C")])
    e = LukFuEngine(LukFuRules(), [100, 100, 100], shuffler)
    assert e.dealer == e.parent == 1 and e.active == [1, 0, 2]
    first = e.drain_events()
    chosen = [x for x in first if isinstance(x, ev.DealerChosen)]
    assert chosen == [ev.DealerChosen(1, ((0, "2C"), (1, "9T"), (2, "1C")))]
    assert [s.purpose for s in shuffler.used] == ["draw_dealer", "deal"]


def test_three_player_deal_and_dead_card() -> None:
    e = table({A: "9T 8T 7T", B: "9M 8M", C: "9S"}, extra="LT")
    assert [len(e.hands[s]) for s in range(3)] == [12, 12, 12]
    assert e.dead == parse_lukfu("LT")[0] and e.sitter is None
    assert e.to_act() == {A} and texts(e, A) == ["play", "pass"]
    public = e.public_view()
    assert public.dead_card and public.active == (A, B, C) and public.caller == A
    assert not list(iter_cards(public))  # nothing face up yet
    dead = parse_lukfu("LT")[0]
    for seat in (None, A, B, C):
        assert dead in e.hidden_from(seat)


def test_four_player_deal_sitter_card_is_private() -> None:
    e = table({}, seats=4, players=4, extra="7M")
    sitter_card = parse_lukfu("7M")[0]
    assert e.sitter == 0 and e.parent == 2 and e.active == [2, 1, 3]
    assert e.public_view().hand_sizes == (1, 12, 12, 12)
    assert e.view(0).sitter_card == sitter_card and e.view(0).hand == ()
    for seat in (None, 1, 2, 3):
        assert sitter_card in e.hidden_from(seat)
    assert sitter_card not in e.hidden_from(0)


# ------------------------------------------------------------------ views and events


def test_face_down_cards_show_only_to_their_owner() -> None:
    e = table({A: "5S 1S 3S 4S", B: "2S 7S 8S", C: "6S 9S"})
    play(e, (A, "play"), (A, "lead 5S"), (B, "follow 7S"))
    events = act(e, C, "follow 9S")
    assert any(isinstance(x, ev.TrickWon) and x.seat == C and x.credited == 1 for x in events)
    # C's only non-old card is 6S (8S is still out), so C leads it; A's strings are lower: A plays face down.
    assert texts(e, C)[0] == "lead 6S" and "lead 9M" not in texts(e, C)
    act(e, C, "lead 6S")
    seat = only(e)
    assert seat == A and not e.beating(A)
    discard = texts(e, seat)[0]
    events = act(e, seat, discard)
    public = [x for x in events if isinstance(x, ev.Discarded) and x.to is None]
    private = [x for x in events if isinstance(x, ev.Discarded) and x.to is not None]
    assert public == [ev.Discarded(seat, 2, 1)]
    assert private[0].to == {seat} and private[0].cards == CODEC.parse(discard).cards  # type: ignore[attr-defined]
    card = private[0].cards[0]
    shown = e.view(seat).trick
    assert shown is not None and shown.plays[1].cards == (card,) and shown.plays[1].face_down
    for other in (None, *(s for s in range(3) if s != seat)):
        view = e.public_view() if other is None else e.view(other)
        assert view.trick is not None and view.trick.plays[1].cards == (None,)
        assert card in e.hidden_from(other) and card not in list(iter_cards(view))
    assert card in e.view(seat).own_discards


def test_seat_view_has_only_its_own_hand() -> None:
    e = table({A: "5S 1S 3S 4S"})
    play(e, (A, "play"))
    view = e.view(A)
    assert set(view.hand) == set(e.hands[A]) and view.playing and view.seat == A
    assert set(iter_cards(view)) == set(e.hands[A]) | set(view.dealt)
    assert not set(iter_cards(e.view(B))) & set(e.hands[A])


def test_winning_cards_row_and_last_trick() -> None:
    e = table({A: "9C 9S 9M 8C 8S 8M 2C 4C 2S 4S 2M 4M"})
    play(e, (A, "play"))
    trick(e, "9C 9S 9M", "*", "*")
    public = e.public_view()
    assert public.winning_cards[A] == tuple(parse_lukfu("9C 9S 9M"))
    assert public.tricks == (3, 0, 0) and public.tricks_played == 3 and public.captured == (6, 0, 0)
    assert public.last_trick is not None and public.last_trick.winner == A and public.trick is None
    assert all(p.cards == (None, None, None) for p in public.last_trick.plays[1:])
    assert public.top_unplayed == (8, 8, 8, 9)


def test_finished_tricks_show_each_viewer_what_it_saw() -> None:
    """Every finished trick stays in the view (what the must-beat inferences are read from): face-up plays for
    all, a face-down follow's cards only in its own player's view; a restored engine shows the same."""
    e = table(
        {
            A: "9C 9S 9M 7M 8M 1C 2C 4C 6C 8C 1S 5T",
            B: "2S 4S 6S 5M 3C 5C 7C 1M 2M 4T 6T 8T",
            C: "3S 5S 7S 6M 8S 3M 4M 1T 2T 3T 7T 9T",
        }
    )
    play(e, (A, "play"))
    trick(e, "9C 9S 9M", "@2S", "@3S")
    act(e, A, "lead 7M")
    assert e.view(A).finished_tricks == (e.view(A).last_trick,)
    assert e.view(B).trick is not None and len(e.view(B).finished_tricks) == 1
    act(e, B, "discard 5M")
    act(e, C, "discard 6M")
    public, a_view, b_view = e.public_view(), e.view(A), e.view(B)
    assert [t.number for t in public.finished_tricks] == [1, 2] and public.finished_tricks[-1] == public.last_trick
    first, second = b_view.finished_tricks
    assert first.plays[0].cards == tuple(parse_lukfu("9C 9S 9M")) and first.winner == A and first.kind == "triple"
    assert first.plays[1].seat == B and first.plays[1].face_down
    assert set(first.plays[1].cards) <= set(b_view.dealt) and None not in first.plays[1].cards
    assert first.plays[2].cards == (None, None, None) and first.plays[0].winning
    assert second.plays[1].cards == tuple(parse_lukfu("5M")) and second.plays[2].cards == (None,)
    assert a_view.finished_tricks[1].plays[1].cards == (None,) and a_view.finished_tricks[1].plays[2].cards == (None,)
    assert all(p.cards == (None,) * len(p.cards) for t in public.finished_tricks for p in t.plays if p.face_down)
    restored = LukFuEngine.restore(e.rules, json.loads(json.dumps(e.snapshot())), e.shuffler)
    assert isinstance(restored, LukFuEngine)
    assert restored.view(B).finished_tricks == b_view.finished_tricks


# ------------------------------------------------------------------ refusals


def test_refusal_codes() -> None:
    e = table({A: "5S 1S 3S 4S 6C", B: "2S 7S 8S", C: "6S 9S"})

    def code(seat: int, text: str) -> str:
        with pytest.raises(IllegalAction) as info:
            act(e, seat, text)
        return info.value.code

    assert code(B, "play") == "core.not_your_turn"
    assert code(A, "lead 5S") == "luk_fu.wrong_phase"
    act(e, A, "play")
    assert code(A, "lead 9T") == "luk_fu.card_not_in_hand"
    assert code(A, "lead 1S 3S 5S") == "luk_fu.not_a_combination"
    assert code(A, "stop") == "luk_fu.wrong_phase"
    act(e, A, "lead 5S")
    assert code(B, "discard 2S") == "luk_fu.must_beat"
    assert code(B, "follow 2S") == "luk_fu.does_not_beat"
    assert code(B, "follow 7S 8S") == "luk_fu.wrong_count"
    act(e, B, "follow 8S")
    assert code(C, "follow 6S") == "luk_fu.does_not_beat"
    act(e, C, "follow 9S")
    assert code(C, "continue") == "luk_fu.wrong_phase"
    act(e, C, texts(e, C)[0])
    seat = only(e)
    if not e.beating(seat):
        assert code(seat, f"follow {e.hands[seat][0]}") == "luk_fu.cannot_beat"


def test_refused_action_changes_nothing() -> None:
    e = table({A: "5S"})
    before = json.dumps(e.snapshot(), sort_keys=True)
    for seat, text in ((B, "play"), (A, "lead 5S"), (A, "tigers"), (A, "discard 5S")):
        with pytest.raises(IllegalAction):
            act(e, seat, text)
    assert json.dumps(e.snapshot(), sort_keys=True) == before


# ------------------------------------------------------------------ end of hand, stop and continue


def test_stop_offer_after_each_won_trick_at_six_or_more() -> None:
    e = table({A: "9T 8T 7T 6T 5T 4T 3T 2T 2C 3C 2S 3S"})
    play(e, (A, "play"))
    trick(e, "9T 8T 7T 6T 5T", "*", "*")
    assert e.phase == "lead"
    events: list[ev.Event] = []
    act(e, A, "lead 4T")
    for _ in range(2):
        events += act(e, only(e), texts(e, only(e))[0])
    assert e.phase == "stop" and e.to_act() == {A} and texts(e, A) == ["stop", "continue"]
    assert any(isinstance(x, ev.StopOffered) and x.tricks == 6 for x in events)
    assert e.public_view().stop_seat == A and e.reached_six == [A]
    act(e, A, "continue")
    trick(e, "3T", "*", "*")
    assert e.phase == "stop"
    act(e, A, "stop")
    assert summary(e)["winner"] == A and summary(e)["tricks"][A] == 7 and summary(e)["ended_by"] == "stop"


def test_summary_is_json_and_hides_face_down_cards() -> None:
    e = table({A: "9C 9S 9M 8C 8S 8M 2C 4C 2S 4S 2M 4M"})
    play(e, (A, "play"))
    trick(e, "9C 9S 9M", "*", "*")
    trick(e, "8C 8S 8M", "*", "*")
    act(e, A, "stop")
    s = summary(e)
    json.dumps(s)
    assert s["calls"] == [[A, "play"]] and s["declarer"] == A and s["winner"] == A
    assert s["payments"] == [
        {"from": B, "to": A, "amount": 1, "kind": "share"},
        {"from": C, "to": A, "amount": 1, "kind": "share"},
    ]
    first = s["trick_log"][0]
    assert first["plays"][0] == {"seat": A, "cards": ["9C", "9S", "9M"]}
    assert first["plays"][1] == {"seat": B, "face_down": 3} and first["plays"][2] == {"seat": C, "face_down": 3}
    assert e.public_view().last_result == s


def test_a_played_out_hand_logs_every_trick_and_the_next_hand_shows_it_until_its_first_lead() -> None:
    """What the table and the results message are drawn from: the settled hand's ``trick_log`` lists every trick in
    order (face-down follows only counted), and the next hand's public view carries it (as ``last_result``) with no
    trick of its own until its first lead."""
    e = table(PLAYED_OUT, extra=PLAYED_OUT_DEAD, later=[PLAYED_OUT_NEXT])
    won: list[ev.TrickWon] = []
    for seat, text in PLAYED_OUT_MOVES:
        won += [x for x in act(e, seat, text) if isinstance(x, ev.TrickWon)]
    s = summary(e)
    assert s["ended_by"] == "all_played" and s["winner"] == B and s["tricks"] == [3, 3, 6]
    log = s["trick_log"]
    assert [(x["trick"], x["leader"], x["winner"], x["count"]) for x in log] == [
        (n, leader, winner, 3) for n, leader, winner in PLAYED_OUT_TRICKS
    ]
    assert [(x.trick, x.seat) for x in won] == [(x["trick"], x["winner"]) for x in log]
    assert log[-1]["plays"] == [
        {"seat": C, "cards": ["6C", "7C", "8C"]},
        {"seat": A, "cards": ["7M", "8M", "9M"]},
        {"seat": B, "face_down": 3},
    ]
    assert "LT" not in json.dumps(log)  # B's face-down LT stays unseen
    moments = 0
    for seat, text in ((B, "play"), (B, "lead 1S 2S 3S")):
        view = e.public_view()
        assert view.deal_no == 2 and view.trick is None and view.last_trick is None and view.trick_no == 0
        assert view.last_result == s
        act(e, seat, text)
        moments += 1
    view = e.public_view()
    assert moments == 2 and view.trick is not None and view.trick_no == 1 and view.last_result == s


def test_replay_and_snapshot_round_trip() -> None:
    e = table({A: "9C 9S 9M 8C 8S 8M 2C 4C 2S 4S 2M 4M"}, hands_total=2)
    play(e, (A, "play"))
    trick(e, "9C 9S 9M", "*", "*")
    state = json.loads(json.dumps(e.snapshot()))
    restored = SPEC.restore(e.rules, state, Shuffler(planned=list(e.shuffler.used), used=list(e.shuffler.used)))
    assert restored.view(A) == e.view(A) and restored.legal_actions(A) == e.legal_actions(A)
    base = TableRecord(game="luk_fu", rules={"hands_total": 2}, stacks=[100, 100, 100])
    again = replay(TableRecord.loads(record_of(e, base).dumps()))
    assert again.public_view() == e.public_view()


def test_whole_deck_dealt_once() -> None:
    e = table({}, seats=4, players=4)
    cards = [c for h in e.hands for c in h] + [e.sitter_card]
    assert sorted(cards, key=str) == sorted(lukfu_deck(), key=str)  # type: ignore[arg-type]
