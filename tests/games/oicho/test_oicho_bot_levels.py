"""The three Oicho-Kabu bot levels: strong's expectations on stacked decks, determinism, no peeking, head-to-head.

Stacked decks are written top card first: the four pile cards, the dealer's own card, the four first extras,
the second extras that are drawn (pile order), then the dealer's extras (see ``oicho_support.table``). Seat 0
deals; seats 1, 2, 3 bet in that order.
"""

from __future__ import annotations

import copy
import dataclasses
import itertools
import random
import statistics
from collections import Counter
from collections.abc import Iterator

import pytest
from oicho_support import play, table

from games.core.actions import Action, is_listed
from games.core.cards import KabuCard, kabu_deck
from games.core.rng import Shuffle, Shuffler
from games.oicho import actions as act
from games.oicho import policy
from games.oicho.engine import OichoEngine
from games.oicho.hands import Draw, classify, compare, second_extra
from games.oicho.policy import POLICIES, choose, easy, strong
from games.oicho.rules import OichoRules
from games.oicho.views import OichoSeatView

LEVELS = ("easy", "normal", "strong")


def bet_p1(deck: str, amount: int = 10, **options: object) -> OichoEngine:
    """Seat 1 bets ``amount`` on P1, nobody else bets; the round runs to its first real choice."""
    e = table([deck], **options)
    play(e, (1, f"bet 1 {amount}"), (1, "done"), (2, "done"), (3, "done"))
    return e


def decide(level: str, e: OichoEngine, seat: int, seed: int = 0) -> Action:
    return POLICIES[level](e.view(seat), e.legal_actions(seat), random.Random(seed))


def payoff(child: list[KabuCard], dealer: list[KabuCard], rules: OichoRules) -> int:
    """What one chip on a pile holding ``child`` returns against ``dealer`` (the engine's own judge)."""
    winner, mult = compare(classify(child, "child", rules), classify(dealer, "dealer", rules), rules)
    return mult if winner == "pile" else -mult if winner == "dealer" else 0


# ---------------------------------------------------------------- the interface


def test_three_levels_and_choose_is_the_normal_one() -> None:
    assert set(POLICIES) == {"easy", "normal", "strong"}
    assert POLICIES["normal"] is choose
    assert POLICIES["easy"] is easy and POLICIES["strong"] is strong


# ---------------------------------------------------------------- strong as the dealer


def dealer_by_brute_force(e: OichoEngine) -> tuple[float, float]:
    """The dealer's expected chips standing and drawing, one bet pile, by enumerating the hidden cards themselves.

    The pile's face-down first extra is any card the dealer cannot see, weighed by how likely the pile's visible
    draw or stand was with it (forced by the rule, else the policy's stated model of a decider); the dealer's
    third card is any other hidden card.
    """
    view = e.view(e.dealer)
    hidden = sorted(e.hidden_from(e.dealer))
    (pile,) = [p for p in view.piles if p.total]
    first = pile.cards[0]
    assert first is not None and pile.cards[1] is None
    third = pile.cards[2] if len(pile.cards) == 3 else None
    own = [c for c in view.dealer_hand.cards if c is not None]
    stand = draw = weights = 0.0
    for x in hidden:
        rule = second_extra([first, x], view.rules)
        if rule is Draw.MUST:
            p_draw = 1.0
        elif rule is Draw.MAY_NOT:
            p_draw = 0.0
        else:
            p_draw = policy.DECIDER_DRAWS[sum(c.points for c in (first, x)) % 10]
        w = p_draw if third is not None else 1 - p_draw
        if not w:
            continue
        child = [first, x] + ([third] if third is not None else [])
        weights += w
        stand += w * payoff(child, own, view.rules)
        others = [c for c in hidden if c != x]
        draw += w * sum(payoff(child, [*own, c], view.rules) for c in others) / len(others)
    return -pile.total * stand / weights, -pile.total * draw / weights


def test_dealer_stands_on_five_against_a_pile_that_drew_a_ten() -> None:
    """P1 is 6 + (hidden) and drew a 10, so its points are whatever 6 + hidden made: it drew, so 0-6.

    The dealer holds 2 + 3 = 5. Unseen months (by count): 1:4 2:3 3:3 4:4 5:4 6:3 7:3 8:3 9:3 10:0. The hidden card
    x gives the pile t = 6 + x; it drew, so: x=4 (t 0), 5 (1), 6 (2), 7 (3) forced, weights 4, 4, 3, 3; x=8 (t 4)
    drawn with chance 0.85, weight 2.55; x=9 (t 5) half the time, weight 1.5; x=10 (t 6) has no card left; x=1-3
    (t 7-9) may not draw. Standing on 5 beats t 0-4 (16.55 of 18.05) and ties t 5: +10 x 16.55 / 18.05 = +9.17.
    Drawing turns 5 into 6-9 only with a 1-4 (14 of 30 cards) and into 0-4 otherwise: about +4.8. Strong stands;
    the classic rule (normal) flips a coin on 5.
    """
    e = bet_p1("6 7 8 9 2 7 10 10 10 10 3")
    assert e.phase == "dealer" and [c.month for c in e.piles[0]] == [6, 7, 10]
    stand, draw = policy.dealer_values(e.view(0)) or (0.0, 0.0)
    assert stand == pytest.approx(10 * 16.55 / 18.05)
    assert (stand, draw) == pytest.approx(dealer_by_brute_force(e))
    assert draw < stand - 4
    assert decide("strong", e, 0) == act.Stand()
    assert {decide("normal", e, 0, seed) for seed in range(20)} == {act.Draw(), act.Stand()}


def test_dealer_draws_on_five_against_a_pile_that_stood() -> None:
    """P1 is 6 + (hidden) and stood. Unseen: 1:4 2:3 3:3 4:4 5:4 6:3 7:3 8:3 9:3 10:1.

    It stood, so t = 6 + x is 7-9 (x = 1, 2, 3: weights 4, 3, 3, forced) or an optional 4, 5, 6 kept (x = 8: 3 x 0.15,
    x = 9: 3 x 0.5, x = 10: 1 x 0.85); t 0-3 must draw. Standing on 5 beats only t 4 (0.45 of 12.8), ties t 5 (1.5)
    and loses the rest (10.85): 10 x (0.45 - 10.85) / 12.8 = -8.125. Any third card does better on average
    (about -5.0). Strong draws: the same 5 as in the test above, the other answer, because of what the pile showed.
    """
    e = bet_p1("6 7 8 9 2 2 10 10 10 3")
    assert e.phase == "dealer" and len(e.piles[0]) == 2
    stand, draw = policy.dealer_values(e.view(0)) or (0.0, 0.0)
    assert stand == pytest.approx(10 * (0.45 - 10.85) / 12.8)
    assert (stand, draw) == pytest.approx(dealer_by_brute_force(e))
    assert draw > stand + 2
    assert decide("strong", e, 0) == act.Draw()


def test_dealer_stands_on_four_where_the_classic_rule_draws() -> None:
    """As the first test with the dealer on 1 + 3 = 4: standing beats t 0-3 (14), ties t 4 (2.55), loses t 5 (1.5):
    10 x (14 - 1.5) / 18.05 = +6.93, against about +5.5 drawing. Normal draws on 4 (easy stands from 4 anyway)."""
    e = bet_p1("6 7 8 9 1 7 10 10 10 10 3")
    stand, draw = policy.dealer_values(e.view(0)) or (0.0, 0.0)
    assert stand == pytest.approx(10 * (14 - 1.5) / 18.05)
    assert (stand, draw) == pytest.approx(dealer_by_brute_force(e))
    assert decide("strong", e, 0) == act.Stand()
    assert decide("normal", e, 0) == act.Draw()


def test_dealer_keeps_kuppin_and_draws_to_buta_whatever_the_hidden_cards() -> None:
    """Dominance, no model needed: every pile has two cards and no local hand is on, so a Kuppin wins every bet
    (stand = +bets exactly) and a Buta (3 + 7 = 0) loses every pile that stood (4 points or more; stand = -bets)."""
    e = bet_p1("1 2 3 4 9 6 6 5 4 1", amount=5)  # piles 7 8 8 8, all forced to stand; dealer 9 + 1
    stand, draw = policy.dealer_values(e.view(0)) or (0.0, 0.0)
    assert stand == pytest.approx(5.0) and draw < stand
    assert decide("strong", e, 0) == act.Stand()
    e = bet_p1("1 2 3 4 3 6 6 5 4 7", amount=5)  # the same piles; dealer 3 + 7
    stand, draw = policy.dealer_values(e.view(0)) or (0.0, 0.0)
    assert stand == pytest.approx(-5.0) and draw > stand
    assert decide("strong", e, 0) == act.Draw()


# ---------------------------------------------------------------- strong as a pile's decider


def child_by_brute_force(view: OichoSeatView) -> tuple[float, float]:
    """The decider's chips per chip standing and drawing against the modelled dealer, every unseen month counted.

    The model dealer (stated in the policy): own card, compulsory extra, then he stands on a special two-card hand
    or on 6 or more and draws on 5 or less. Each unseen card is equally likely to be any of his.
    """
    rules = view.rules
    unseen = Counter(c.month for c in kabu_deck())
    for pile in view.piles:
        unseen.subtract(c.month for c in pile.cards if c is not None)
    unseen.subtract(c.month for c in view.maki_fuda)
    pile = view.piles[(view.current_pile or 0) - 1]
    mine = [c for c in pile.cards if c is not None]

    def against_dealer(hand: list[KabuCard], pool: Counter[int]) -> float:
        n = sum(pool.values())
        total = 0.0
        for a, b in itertools.product(range(1, 11), repeat=2):
            p2 = pool[a] * (pool[b] - (a == b)) / (n * (n - 1))
            if p2 <= 0:
                continue
            two = [KabuCard(a), KabuCard(b)]
            dealer = classify(two, "dealer", rules)
            if dealer.tier > 0 or dealer.points >= 6:
                total += p2 * payoff(hand, two, rules)
                continue
            for c in range(1, 11):
                p3 = (pool[c] - (c == a) - (c == b)) / (n - 2)
                if p3 > 0:
                    total += p2 * p3 * payoff(hand, [*two, KabuCard(c)], rules)
        return total

    stand = against_dealer(mine, unseen)
    n = sum(unseen.values())
    draw = 0.0
    for d in range(1, 11):
        if unseen[d]:
            rest = unseen.copy()
            rest[d] -= 1
            draw += unseen[d] / n * against_dealer([*mine, KabuCard(d)], rest)
    return stand, draw


@pytest.mark.parametrize(
    ("first_extra", "expected"),
    [
        # P1 = 3 + first extra. Infinite-deck figures (each point total a tenth; the model dealer ends on 0-5
        # with 0.056 each, on 6-9 with 0.156 each, Kuppin/Shippin 0.04): a hand of f points is worth
        # 2 P(D < f) + P(D = f) - 1, so stand on 4: -0.50, on 5: -0.38, on 6: -0.17, and a draw averages -0.28.
        # The exact figures here (three 10s are in sight, so fewer 0s remain) are lower, the order the same.
        ("1", act.Draw()),  # 4: stand -0.56, draw -0.27
        ("2", act.Draw()),  # 5: stand -0.46, draw -0.33 (normal flips a coin, easy stands)
        ("3", act.Stand()),  # 6: stand -0.24, draw -0.36
    ],
)
def test_decider_draws_to_five_and_stands_on_six(first_extra: str, expected: Action) -> None:
    e = bet_p1(f"3 7 8 9 4 {first_extra} 10 10 10")
    assert e.phase == "deciding" and e.current_pile == 1
    stand, draw = policy.draw_values(e.view(1)) or (0.0, 0.0)
    assert (stand, draw) == pytest.approx(child_by_brute_force(e.view(1)))
    assert abs(draw - stand) > 0.1
    assert decide("strong", e, 1) == expected


def test_decider_draws_for_an_arashi_worth_five() -> None:
    """3 + 3 = 6 with Arashi paid x5: the two 3s left of 32 unseen cards make 3-3-3, the best hand there is.

    Without the multiplier standing on 6 is worth -0.24 and drawing -0.36 (the test above). With it, the 2 in 32
    chance of an Arashi-Kabu paying 5 instead of about -0.4 adds 2/32 x 5.4 = +0.34 to drawing: about -0.13
    against a stand of -0.25 (the dealer's rarer Arashi now costs x5 too). Strong draws; normal stands on 6.
    """
    e = bet_p1("3 7 8 9 4 3 10 10 10", arashi_multiplier=5)
    stand, draw = policy.draw_values(e.view(1)) or (0.0, 0.0)
    assert (stand, draw) == pytest.approx(child_by_brute_force(e.view(1)))
    assert draw > stand + 0.1
    assert decide("strong", e, 1) == act.Draw()
    assert decide("normal", e, 1) == act.Stand()


# ---------------------------------------------------------------- strong betting


def test_strong_child_risks_only_the_minimum_against_the_banks_edge() -> None:
    """Before the first extras every pile is worth about -0.05 a chip (infinite deck, this seat deciding: t 0-5
    draw at -0.28, t 6 stands at -0.17, 7-9 at +0.14, +0.45, +0.76; the mean is -0.0496). So every child plays the
    round at the minimum on the best pile, and no more: the least it can risk without sitting the round out."""
    e = table(["6 7 8 9 5"])
    values = policy.pile_values(e.view(1))
    assert all(v == pytest.approx(-0.05, abs=0.025) for v in values.values())
    best = max(sorted(values), key=lambda p: values[p])
    assert decide("strong", e, 1) == act.Bet(best, 1)
    play(e, (1, f"bet {best} 1"))
    assert decide("strong", e, 1) == act.Done()
    play(e, (1, "done"))
    theirs = policy.pile_values(e.view(2))
    assert decide("strong", e, 2) == act.Bet(max(sorted(theirs), key=lambda p: theirs[p]), 1)


def test_strong_child_stakes_kelly_on_a_pile_with_an_edge() -> None:
    """Toichi (10 + 1) scored by children at x5, pile P1 a 10: its first extra is a 1 with chance 4/36, and the
    Toichi then beats every plain dealer hand at x5 (4.76 a chip, net of the 4% Kuppin/Shippin). The other 32
    cards play as usual (sum -0.28 x 16 - 0.17 x 4 + (0.14 + 0.45 + 0.76) x 4 = +0.26): (19.04 + 0.26) / 36 = +0.54.

    The stake is Kelly's, edge over variance: a chip's mean square is 4/36 x (25 x 0.96 + 0.04) + 32/36 x 0.88
    = 3.45, its variance 3.45 - 0.54² = 3.17, so 0.54 / 3.17 = 17% of the stack (16 chips from the exact
    0.536 / 3.169), less than the cap (100 // 5 = 20) allows. Nothing on the other piles."""
    e = table(["10 2 3 4 5"], local_yaku={"toichi": {"enabled": True, "multiplier": 5, "scope": "child"}})
    assert e.cap == 20
    moments = policy.pile_moments(e.view(1))
    assert moments[1] == pytest.approx((0.54, 3.45), abs=0.01)
    assert max(moments[p][0] for p in (2, 3, 4)) < 0
    assert decide("strong", e, 1) == act.Bet(1, 16)
    play(e, (1, "bet 1 16"))
    assert decide("strong", e, 1) == act.Done()


def test_strong_reads_the_maki_fuda() -> None:
    """The four 1s turned up as information cards are out of the round: a 9 pile can no longer take a 1 for Buta
    (t 0, -0.28 to draw) and the dealer can no longer hold Kuppin or Shippin, so P4 (a 9) gains; an 8 pile can no
    longer take a 1 for Kabu (+0.76), so P3 (an 8) loses. The same view without the maki-fuda (as easy reads it)
    rates the piles as at any table."""
    e = table(["1 1 1 1 6 7 8 9 5"], maki_fuda=True)
    view = e.view(1)
    assert view.maki_fuda == tuple(KabuCard(1, k) for k in range(4))
    seen = policy.pile_values(view)
    blind = policy.pile_values(dataclasses.replace(view, maki_fuda=()))
    assert seen[4] > blind[4] + 0.05
    assert seen[3] < blind[3] - 0.03
    assert max(seen, key=lambda p: seen[p]) == 4 != max(blind, key=lambda p: blind[p])


def test_first_order_betting_values_match_the_exact_ones() -> None:
    seeds = random.Random(5)
    for k in range(6):
        rules = OichoRules(maki_fuda=k % 2 == 0, arashi_multiplier=1 + k % 3, use_months_11_12=k == 5)
        e = OichoEngine(rules, [100] * 4, Shuffler(seed_source=lambda s=seeds: s.randbytes(32).hex()))
        (seat,) = e.to_act()
        quick, exact = policy.pile_values(e.view(seat)), policy.pile_values(e.view(seat), exact=True)
        assert quick == pytest.approx(exact, abs=0.002)


# ---------------------------------------------------------------- easy's mistakes


def test_easy_makes_a_newcomers_mistakes() -> None:
    e = table(["1 9 3 4 5"])  # P2 shows a 9, which looks like a Kabu already
    assert decide("easy", e, 1) == act.Bet(2, 20)  # a fifth of 100 on it
    play(e, (1, "bet 2 20"))
    assert decide("easy", e, 1) == act.Done()
    e = bet_p1("3 7 8 9 4 1 10 10 10")  # 3 + 1 = 4: drawing is worth 0.29 a chip more
    assert decide("easy", e, 1) == act.Stand()
    e = bet_p1("1 2 3 4 9 6 6 5 4 1", amount=5)  # the dealer's Kuppin reads as 0 points
    assert decide("easy", e, 0) == act.Draw()


# ---------------------------------------------------------------- determinism and no peeking


def decision_points(levels: tuple[str, ...], games: int, seed: int, **options: object) -> Iterator[OichoEngine]:
    """Engines at decision points of whole games played by ``levels`` (a copy at each, the game goes on)."""
    for g in range(games):
        seeds = random.Random(seed * 1000 + g)
        rules = OichoRules.model_validate(options)
        e = OichoEngine(rules, [100] * len(levels), Shuffler(seed_source=lambda s=seeds: s.randbytes(32).hex()))
        rng = random.Random(g)
        while e.phase != "game_over" and e.deal_no <= 12:
            (seat,) = e.to_act()
            yield copy.deepcopy(e)
            e.apply(seat, POLICIES[levels[seat]](e.view(seat), e.legal_actions(seat), rng))


def redeal_hidden(e: OichoEngine, seat: int, rng: random.Random) -> tuple[OichoEngine, bool]:
    """A copy of ``e`` whose cards hidden from ``seat`` are shuffled among their places; and whether any moved."""
    hidden = e.hidden_from(seat)
    other = copy.deepcopy(e)
    places: list[tuple[list[KabuCard], int]] = []
    for cards in (other.deck, *other.piles, other.dealer_cards):
        places += [(cards, i) for i, c in enumerate(cards) if c in hidden]
    dealt = [cards[i] for cards, i in places]
    shuffled = rng.sample(dealt, len(dealt))
    for (cards, i), card in zip(places, shuffled, strict=True):
        cards[i] = card
    moved = any(a.month != b.month for a, b in zip(dealt, shuffled, strict=True))
    return other, moved


def test_no_peeking_a_redeal_of_the_unseen_cards_changes_no_decision() -> None:
    rng = random.Random(7)
    checked: Counter[tuple[str, str]] = Counter()
    for options in ({}, {"maki_fuda": True, "first_extra_visibility": "pile_bettors"}):
        for e in decision_points(("strong", "normal", "easy", "strong"), 2, 3, **options):
            (seat,) = e.to_act()
            view = e.view(seat)
            if view.phase not in ("betting", "deciding", "dealer"):
                continue
            other, moved = redeal_hidden(e, seat, rng)
            assert moved
            assert other.view(seat) == view
            for level in LEVELS:
                first = POLICIES[level](view, e.legal_actions(seat), random.Random(11))
                again = POLICIES[level](other.view(seat), other.legal_actions(seat), random.Random(11))
                assert first == again
                checked[(level, view.phase)] += 1
    assert {phase for _, phase in checked} == {"betting", "deciding", "dealer"}
    assert min(checked.values()) >= 5


def test_determinism_and_strong_and_easy_leave_the_rng_alone() -> None:
    for e in itertools.islice(decision_points(("strong", "easy", "normal"), 1, 4), 0, None, 3):
        (seat,) = e.to_act()
        view, legal = e.view(seat), e.legal_actions(seat)
        for level in LEVELS:
            rng = random.Random(3)
            action = POLICIES[level](view, legal, rng)
            assert is_listed(action, legal)
            assert POLICIES[level](view, legal, random.Random(3)) == action
            if level != "normal":
                assert rng.getstate() == random.Random(3).getstate()


# ---------------------------------------------------------------- head-to-head


def one_deal(levels: list[str], seed: int) -> tuple[int, ...]:
    """One played round at a 4-seat table dealt by seat 0, on the deck of ``seed``; each seat's chips."""
    seeds = random.Random(seed)
    shuffler = Shuffler(planned=[Shuffle(order="1 2 3 4")], seed_source=lambda: seeds.randbytes(32).hex())
    e = OichoEngine(OichoRules(), [100] * 4, shuffler)
    rngs = [random.Random(f"{seed}:{s}") for s in range(4)]
    while e.last_result is None or e.last_result.detail.void:
        (seat,) = e.to_act()
        e.apply(seat, POLICIES[levels[seat]](e.view(seat), e.legal_actions(seat), rngs[seat]))
    return e.last_result.deltas


def head_to_head(a: str, b: str, deals: int) -> tuple[float, float]:
    """``a``'s chips per deal against ``b`` (mean, standard error), each deal played twice on the same deck.

    Seats alternate A B A B and B A B A from deal to deal, so each level deals half the time; the mirror plays the
    same deck with every seat's level swapped. A deal's figure is A's chips over both plays, halved.
    """
    scores = []
    for k in range(deals):
        seats = [a, b, a, b] if k % 2 == 0 else [b, a, b, a]
        mirror = [b if level == a else a for level in seats]
        total = 0
        for levels in (seats, mirror):
            deltas = one_deal(levels, 20_000 + k)
            total += sum(d for d, level in zip(deltas, levels, strict=True) if level == a)
        scores.append(total / 2)
    return statistics.mean(scores), statistics.stdev(scores) / deals**0.5


def test_head_to_head_strong_normal_easy(capsys: pytest.CaptureFixture[str]) -> None:
    """Chips per deal between levels, printed for each pairing (run with ``-s`` to see them).

    A few hundred deals cannot show a few percent of the bets: a deal's result swings with the bets on the table
    (a standard deviation of about 7 chips a deal between strong and normal, 17-19 with easy, whose bets are
    large). Measured over 3,000 deals each: strong - normal +0.51 ± 0.12, normal - easy +2.08 ± 0.30, strong -
    easy +2.03 ± 0.34. Only normal over easy comes near three standard errors at the size played here, so only
    that direction is asserted. Strong is asserted to be no more than one standard error behind either: a strong
    that stood where it should draw, or that staked the cap every round into the bank's edge, falls well behind
    normal (about -3.8 ± 0.4 and -2.9 ± 1.6 here). ``bench/bench_bots.py`` measures the strong margins properly.
    """
    results = {
        ("normal", "easy"): head_to_head("normal", "easy", 500),
        ("strong", "normal"): head_to_head("strong", "normal", 200),
        ("strong", "easy"): head_to_head("strong", "easy", 200),
    }
    with capsys.disabled():
        for (a, b), (mean, se) in results.items():
            print(f"\noicho {a} vs {b}: {mean:+.2f} ± {se:.2f} chips a deal")
    mean, se = results[("normal", "easy")]
    assert mean > 0
    for pair in (("strong", "normal"), ("strong", "easy")):
        mean, se = results[pair]
        assert mean + se > 0, pair
