"""The Hachi-Hachi Trick adapter on engines driven directly: the moves it offers, what it keeps secret, its words."""

from __future__ import annotations

import random

import pytest

from bot.ui import panel as generic
from bot.ui.base import TableContext
from bot.ui.decisions import ChooseOne, Option
from bot.ui.hachi_hachi import HachiHachiUI, card_text
from bot.ui.panel import Ids
from games.core.actions import Action
from games.core.cards import FrenchCard
from games.core.engine import DealResult
from games.core.events import Event
from games.core.rng import Shuffle, Shuffler
from games.hachi_hachi import actions as act
from games.hachi_hachi import events as ev
from games.hachi_hachi.engine import HachiHachiEngine
from games.hachi_hachi.policy import choose
from games.hachi_hachi.results import HachiResult
from games.hachi_hachi.rules import HachiHachiRules

UI = HachiHachiUI()
NAMES = ["alice", "bob", "carol", "dave"]

# Alice (seat 0) is the start player. Hearts are trumps (7♥), a plain field.
DEAL = " ".join(
    [
        "Ah Kh Qh 2d 3d 4s 6s",  # alice
        "2h 3h 4h 5s 7s 8s 9d",  # bob
        "Ac Kc Qc Jc 5d 6d 8d",  # carol
        "2c 3c 4c 5c 9c Tc 9s",  # dave
        "7h",
    ]
)


def engine(seats: int = 4, deal: str = DEAL, **rules: object) -> HachiHachiEngine:
    shuffler = Shuffler(planned=[Shuffle(order="As"), Shuffle(order=deal)], seed_source=lambda: "cd" * 32)
    eng = HachiHachiEngine(HachiHachiRules.model_validate(rules), [50] * seats, shuffler)
    eng.drain_events()
    return eng


def ctx(lang: str = "en", stake: int = 1) -> TableContext:
    return TableContext(1, NAMES, stake, False, lang)


def options(eng: HachiHachiEngine, seat: int, lang: str = "en") -> tuple[str, list[Option]]:
    spec = UI.panel(eng.view(seat), seat, eng.legal_actions(seat), ctx(lang), {})
    found = [o for d in spec.decisions if isinstance(d, ChooseOne) for o in d.options]
    assert all(o.action in eng.legal_actions(seat) for o in found if o.action is not None and o.enabled)
    return generic.render(spec, Ids(1, 1), lang, {}).content, found


def do(eng: HachiHachiEngine, seat: int, action: Action) -> list[Event]:
    return eng.apply(seat, action)


def test_mizuten_then_the_declarer_cannot_fold_and_the_others_see_the_fee() -> None:
    eng = engine()
    text, found = options(eng, 0)
    assert "見ず転 Mizuten?" in text and [o.action for o in found] == [act.Mizuten(), act.NoMizuten()]
    assert options(eng, 1)[1] == []
    do(eng, 0, act.Mizuten())
    text, found = options(eng, 0)
    assert "You declared 見ず転 Mizuten: you must play" in text
    assert [(o.action, o.enabled) for o in found] == [(act.Play(), True), (None, False)]
    assert "⛔ Fold 降りる (pay 2): a Mizuten (見ず転) declarer cannot fold" in text
    do(eng, 0, act.Play())
    text, found = options(eng, 1, "ja")
    assert "今降りるとポットに **2** チップ払います" in text and [o.action for o in found] == [act.Play(), act.Fold()]
    do(eng, 1, act.Fold())
    text, found = options(eng, 2)
    assert "Folding now costs **3** chips" in text and "Fold 降りる (pay 3)" in [o.label for o in found]
    # At a stake of 5 the fee is shown in chips.
    spec = UI.panel(eng.view(2), 2, eng.legal_actions(2), ctx(stake=5), {})
    assert "Folding now costs **15** chips" in spec.text


def test_mizuten_is_offered_with_two_declarers_and_the_panel_says_it_cannot_earn_the_bonus() -> None:
    eng = engine(max_declarers=2)
    text, found = options(eng, 0)
    assert [o.action for o in found] == [act.Mizuten(), act.NoMizuten()]
    assert "you must play this round" in text
    assert "at this table at most 2 may: here Mizuten can never earn its bonus" in text
    assert "every other player pays you" not in text
    text, _ = options(eng, 0, "ja")
    assert "この卓で出られるのは2人までなので、ここでは見ず転でボーナスをもらうことはできません" in text
    do(eng, 0, act.Mizuten())
    text, found = options(eng, 0)
    assert [(o.action, o.enabled) for o in found] == [(act.Play(), True), (None, False)]
    assert "your Mizuten cannot earn its bonus: it only binds you to play" in text
    assert "見ず転のボーナスはもらえません。出る義務だけが残ります。" in options(eng, 0, "ja")[0]
    # Where three may play, the prompt promises the bonus and says nothing of the kind.
    text, _ = options(engine(), 0)
    assert "every other player pays you 1 chip(s)" in text and "never earn" not in text
    eng = engine()
    do(eng, 0, act.Mizuten())
    assert "cannot earn its bonus" not in options(eng, 0)[0]


def test_split_or_fight_stays_secret_until_both_chose() -> None:
    eng = engine()
    do(eng, 0, act.NoMizuten())
    for seat, action in ((0, act.Play()), (1, act.Fold()), (2, act.Play()), (3, act.Fold())):
        do(eng, seat, action)
    assert eng.phase == "choose"
    events = do(eng, 0, act.Split())
    lines = [UI.describe(e, ctx()) for e in events if e.public]
    assert lines == ["alice has chosen split or fight (hidden until both have)."]
    (mine,) = [UI.describe(e, ctx()) for e in events if not e.public]
    assert mine == "You chose split (hidden from the others until both have chosen)."
    public = str(UI.public_summary(eng.public_view(), ctx()).to_dict())
    assert "Chosen: alice · still choosing: carol" in public and "alice split" not in public
    for seat in (1, 2, 3):
        text, _ = options(eng, seat)
        assert "split**" not in text and "alice split" not in text and "You chose" not in text
    text, found = options(eng, 0)
    assert found == [] and "You chose **split**. Waiting for carol" in text
    events = do(eng, 2, act.Fight())
    lines = [UI.describe(e, ctx()) for e in events if e.public]
    assert "Choices shown: alice split · carol fight. One fight is enough: the round is played out." in lines
    assert eng.phase == "trick"


def test_only_cards_that_follow_suit_can_be_pressed() -> None:
    eng = engine()
    do(eng, 0, act.NoMizuten())
    for seat in (0, 1, 2):
        do(eng, seat, act.Play())
    assert eng.phase == "trick" and eng.to_act() == {0}
    text, found = options(eng, 0)
    assert "**Your lead** (trick 1/7): any card." in text and all(o.enabled for o in found) and len(found) == 7
    do(eng, 0, act.Card(FrenchCard.parse("2d")))
    text, found = options(eng, 1)  # bob holds 9♦: only it may be played
    assert "you must follow suit" in text
    assert [(o.label, o.enabled) for o in found if o.enabled] == [("9♦️", True)]
    assert len(found) == 7 and sum(not o.enabled for o in found) == 6
    rendered = generic.render(UI.panel(eng.view(1), 1, eng.legal_actions(1), ctx(), {}), Ids(1, 1), "en", {})
    assert [len(row) for row in rendered.rows] == [5, 2, 1]  # seven buttons, not a menu; then the "?"
    # Trumps (hearts) are the blue buttons.
    buttons = [b for row in rendered.rows for b in row if isinstance(b, generic.Button)]
    assert {b.label for b in buttons if b.style == "primary"} == {"2♥️", "3♥️", "4♥️"}


def test_card_text_marks_the_red_suits() -> None:
    assert card_text(FrenchCard.parse("Qh")) == "Q♥️"
    assert card_text(FrenchCard.parse("Ts")) == "10♠️"
    assert card_text(FrenchCard.parse("2d")) == "2♦️"


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_a_whole_game_is_narrated_and_every_round_has_a_results_message(lang: str) -> None:
    rng = random.Random(lang)
    seeds = random.Random(f"seeds:{lang}")
    eng = HachiHachiEngine(
        HachiHachiRules(rounds=6), [50] * 4, Shuffler(seed_source=lambda: f"{seeds.getrandbits(256):064x}")
    )
    stake = 3
    c = ctx(lang, stake)
    public = [e for e in eng.drain_events() if e.public]
    while not eng.is_over:
        seat = min(eng.to_act())
        UI.public_summary(eng.public_view(), c)
        for s in range(4):
            UI.panel(eng.view(s), s, eng.legal_actions(s), c, {})
        public += [e for e in eng.apply(seat, choose(eng.view(seat), eng.legal_actions(seat), rng)) if e.public]
    narrated = {type(e) for e in public if UI.describe(e, c)}
    assert {ev.RoundStarted, ev.TrumpTurned, ev.Declared, ev.RoundSettled} <= narrated
    silent = {type(e).__name__ for e in public if type(e).__module__ == ev.__name__ and not UI.describe(e, c)}
    assert silent == set()
    assert len(eng.results) == 6
    for result in eng.results:
        embed = UI.result_embed(result, c).to_dict()
        (chips,) = [f["value"] for f in embed["fields"] if f["name"] == ("Chips" if lang == "en" else "チップ")]
        for seat, delta in enumerate(result.deltas):
            if delta:
                assert f"{NAMES[seat]} **{delta * stake:+,}**" in chips
    final = UI.public_summary(eng.public_view(), c).to_dict()
    best = max(eng.stacks)
    assert f"{best * stake:,}" in str(final["fields"])


@pytest.mark.parametrize(
    ("lang", "busts", "ended", "refund"),
    [
        ("en", "Out of chips after this round's fees and payments: bob, carol", "Fewer than three players", "bob 5"),
        ("ja", "この回戦の降り賃と支払いでチップがなくなった人: bob, carol", "3人未満になったので", "bob 5"),
    ],
)
def test_players_who_go_bust_on_fold_fees_are_listed_when_the_refunded_pot_ends_the_game(
    lang: str, busts: str, ended: str, refund: str
) -> None:
    # Round 1: everyone folds (fees 2, 3, 4), the pot carries. Round 2 (bob starts): bob's fee of 2 and carol's
    # (3, capped at her last 2) take their last chips; with fewer than three left the game ends and the pot of 17
    # goes back to whoever paid into it, so they hold chips again.
    planned = [Shuffle(order="As"), Shuffle(order="2c"), Shuffle(order="3c")]
    eng = HachiHachiEngine(HachiHachiRules(), [50, 5, 6], Shuffler(planned=planned, seed_source=lambda: "cd" * 32))
    for _ in range(2):
        for action in (act.NoMizuten(), act.Fold(), act.Fold(), act.Fold()):
            (seat,) = eng.to_act()
            do(eng, seat, action)
    assert eng.is_over and eng.stacks == [50, 5, 6]
    embed = UI.result_embed(eng.results[-1], ctx(lang)).to_dict()
    text = str(embed)
    assert busts in text and ended in text and refund in embed["description"]
    # The round before it took nobody's last chip and said nothing of the kind.
    assert "bob, carol" not in str(UI.result_embed(eng.results[0], ctx(lang)).to_dict())


def test_a_game_that_ends_after_its_last_round_says_so() -> None:
    eng = engine(seats=3, deal="2c", rounds=1)
    for action in (act.NoMizuten(), act.Fold(), act.Fold(), act.Play()):
        (seat,) = eng.to_act()
        do(eng, seat, action)
    text = str(UI.result_embed(eng.results[-1], ctx()).to_dict())
    assert eng.is_over and "That was the last round: the game is over." in text and "Fewer than three" not in text


def test_a_stopped_table_says_where_the_pot_went() -> None:
    result = DealResult(
        3,
        (2, 3, 0, 0),
        HachiResult.from_json(
            {"deal": 3, "outcome": "stopped", "refund": True, "pot": 5, "end_refund": [[0, 2], [1, 3]]}
        ),
        pot=-5,
    )
    embed = UI.result_embed(result, ctx(stake=2)).to_dict()
    assert "the pot of 10 chips went back" in embed["description"]
