"""Pure parts of Luk Fu: combinations and beating (§2.4-2.5), old cards (§2.6), the share and payments (§2.9)."""

from __future__ import annotations

import pytest

from games.core.cards import LukFuCard, parse_lukfu
from games.luk_fu.combos import beating_plays, beats, canonical, classify, combos, has_big_combination
from games.luk_fu.old import is_old, single_leads, top_unplayed
from games.luk_fu.scoring import Payment, make_share, payments


def cards(text: str) -> tuple[LukFuCard, ...]:
    return canonical(parse_lukfu(text))


def card(text: str) -> LukFuCard:
    return parse_lukfu(text)[0]


# ------------------------------------------------------------------ combinations


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("5S", "single"),
        ("LT", "single"),
        ("5C 5S 5T", "triple"),
        ("5C 5S 5M 5T", "quad"),
        ("3S 4S 5S", "run"),
        ("4T 5T 6T 7T 8T 9T", "run"),
        ("1C 1S 1M 1T LT", "tigers"),
        ("8S 9S 1S", None),
        ("5S 6S", None),
        ("1C 1S LT", None),
        ("3S 4S 5M", None),
        ("1C 1S 1M 1T 2C", None),
    ],
)
def test_classify(text: str, kind: str | None) -> None:
    assert classify(cards(text)) == kind


def test_li_tyen_only_leads_singly() -> None:
    assert all("LT" not in {c.notation for c in combo} for combo in combos(cards("LT 1C 1S 1M 2C 3C")))


def test_combos_include_every_part() -> None:
    found = {" ".join(c.notation for c in combo) for combo in combos(cards("8C 8S 8M 8T 4S 5S 6S 7S"))}
    assert found == {
        "8C 8S 8M",
        "8C 8S 8T",
        "8C 8M 8T",
        "8S 8M 8T",
        "8C 8S 8M 8T",
        "4S 5S 6S",
        "5S 6S 7S",
        "6S 7S 8S",
        "4S 5S 6S 7S",
        "5S 6S 7S 8S",
        "4S 5S 6S 7S 8S",
    }


@pytest.mark.parametrize(
    ("challenger", "current", "led", "high", "result"),
    [
        ("7S", "5S", True, False, True),
        ("7M", "5S", True, False, False),  # another suit never beats a single
        ("2C", "1C", True, False, False),  # 1C led singly is unbeatable
        ("2C", "1C", False, False, True),  # 1C following is the lowest club
        ("9T", "1T", True, False, False),
        ("LT", "5S", True, False, False),
        ("9C 9S 9T", "1C 1S 1M", True, False, True),
        ("8S 8M 8T", "1C 1S 1M", True, False, False),
        ("8S 8M 8T", "1C 1S 1M", True, True, False),
        ("1C 1S 1M", "5C 5S 5T", True, False, False),
        ("1C 1S 1M", "5C 5S 5T", True, True, True),
        ("7S 7M 7T", "1C 1S 1M", False, True, False),
        ("6C 6S 6M 6T", "5C 5S 5M 5T", True, False, True),
        ("6C 6S 6M", "5C 5S 5M 5T", True, False, False),
        ("6S 7S 8S", "3S 4S 5S", True, False, True),
        ("1M 2M 3M", "6S 7S 8S", False, False, True),
        ("1S 2S 3S", "2S 3S 4S", True, False, False),
        ("1M 2M 3M 4M", "6S 7S 8S", False, False, False),  # other length
        ("1C 1S 1M 1T LT", "1C 1S 1M 1T LT", True, False, False),
    ],
)
def test_beats(challenger: str, current: str, led: bool, high: bool, result: bool) -> None:
    assert beats(cards(challenger), cards(current), current_is_lead=led, ones_high=high) is result


def test_beating_plays_cut_from_longer_holdings() -> None:
    hand = cards("6S 7S 8S 9S 1M 2M 3M 4M")
    found = [" ".join(c.notation for c in p) for p in beating_plays(hand, cards("3S 4S 5S"), True, False)]
    assert found == ["6S 7S 8S", "7S 8S 9S", "1M 2M 3M", "2M 3M 4M"]


def test_big_combination() -> None:
    assert has_big_combination(cards("3S 4S 5S 6S"))
    assert has_big_combination(cards("2C 2S 2M 2T"))
    assert not has_big_combination(cards("3S 4S 5S 7S 2C 2M 2T"))


# ------------------------------------------------------------------ old cards

SEED_HAND = frozenset(cards("7S 2C"))


def seed_case_old(mode: str) -> bool:
    """§2.6's seed case: A discarded 9S face down, B played 8S face up; A holds 7S."""
    return is_old(
        card("7S"),
        mode=mode,
        hand=SEED_HAND,
        faceup={card("8S")},
        own_discards={card("9S")},
        dealt=frozenset(cards("7S 2C 9S")),
        other_caps=[[9, 9, 9, 9], [9, 9, 9, 9]],
    )


def test_seed_case_both_modes() -> None:
    assert seed_case_old("knowledge") is True
    assert seed_case_old("public_sequence") is False


def test_knowledge_inference_from_caps() -> None:
    args = {
        "mode": "knowledge",
        "hand": {card("5M")},
        "faceup": {card("6M")},
        "own_discards": set(),
        "dealt": set(cards("5M 6M")),
    }
    assert is_old(card("5M"), other_caps=[[9, 9, 6, 9], [9, 9, 6, 9]], **args) is True  # type: ignore[arg-type]
    assert is_old(card("5M"), other_caps=[[9, 9, 6, 9], [9, 9, 7, 9]], **args) is False  # type: ignore[arg-type]


def test_public_sequence_chain_and_top() -> None:
    dealt = set(cards("9T 8T 3T"))
    kw = {"mode": "public_sequence", "own_discards": set(), "other_caps": []}
    assert is_old(card("8T"), hand=dealt, faceup=set(), dealt=dealt, **kw)  # type: ignore[arg-type]
    assert not is_old(card("3T"), hand=dealt, faceup=set(), dealt=dealt, **kw)  # type: ignore[arg-type]
    # Once 9T..4T are played face up, 3T is the top Ten.
    played = set(cards("9T 8T 7T 6T 5T 4T"))
    assert top_unplayed("T", played) == 3
    assert is_old(card("3T"), hand={card("3T")}, faceup=played, dealt=dealt, **kw)  # type: ignore[arg-type]
    for permanent in ("1C", "1T", "LT"):
        assert is_old(card(permanent), hand=set(), faceup=set(), dealt=set(), **kw)  # type: ignore[arg-type]


def test_single_leads_reasons() -> None:
    hand = cards("9T 8T 3T 5M 2C LT")
    old = set(cards("9T 8T LT"))
    free = dict(is_declarer=False, exempt_declarer=True, exempt_only_old=True, highest_suit=True)
    result = single_leads(hand, old, **free)  # type: ignore[arg-type]
    assert result.allowed == cards("3T") and result.suit == "T" and result.exempt is None
    assert dict((c.notation, r) for c, r in result.forbidden) == {
        "9T": "old",
        "8T": "old",
        "LT": "old",
        "5M": "wrong_suit",
        "2C": "wrong_suit",
    }
    assert single_leads(hand, old, **{**free, "is_declarer": True}).exempt == "declarer"  # type: ignore[arg-type]
    assert single_leads(cards("9T LT"), old, **free).exempt == "only_old"  # type: ignore[arg-type]


# ------------------------------------------------------------------ scoring


@pytest.mark.parametrize(
    ("tricks", "big", "reds", "value"),
    [
        (6, False, 0, 1),
        (7, False, 0, 2),
        (11, True, 0, 12),
        (11, False, 0, 6),
        (10, True, 0, 10),
        (12, True, 0, 21),
        (8, False, 3, 6),
    ],
)
def test_share(tricks: int, big: bool, reds: int, value: int) -> None:
    assert make_share(tricks, big_hand_multiplier=big, reds=reds).value == value


def pay(**kw: object) -> dict[int, int]:
    base: dict[str, object] = {
        "winner": 0,
        "losers": [1, 2],
        "declarer": None,
        "share": 3,
        "declarer_pays_double": True,
        "parent_penalty": False,
        "sitter": None,
        "sitter_bonus": False,
    }
    base.update(kw)
    out: dict[int, int] = {}
    for p in payments(**base):  # type: ignore[arg-type]
        out[p.payer] = out.get(p.payer, 0) - p.amount
        out[p.payee] = out.get(p.payee, 0) + p.amount
    return out


def test_payments() -> None:
    assert pay() == {0: 6, 1: -3, 2: -3}
    # LF-8 k as the spec states it: credit 8 tricks, S = 3, the declarer pays 2S = 6.
    assert make_share(8, big_hand_multiplier=False, reds=0).value == 3
    assert pay(declarer=1) == {0: 6, 1: -6}
    assert pay(declarer=1, declarer_pays_double=False) == {0: 6, 1: -3, 2: -3}
    assert pay(declarer=1, parent_penalty=True) == {0: 3, 1: -3}
    assert pay(declarer=0) == {0: 6, 1: -3, 2: -3}  # the winner declared: nobody pays double
    assert pay(declarer=1, sitter=3, sitter_bonus=True) == {0: 6, 1: -8, 3: 2}
    assert pay(sitter=3, sitter_bonus=True) == {0: 6, 1: -4, 2: -4, 3: 2}
    assert payments(
        winner=0,
        losers=[1, 2],
        declarer=2,
        share=1,
        declarer_pays_double=True,
        parent_penalty=False,
        sitter=None,
        sitter_bonus=False,
    ) == [Payment(2, 0, 2, "share")]


def test_old_in_hand_agrees_with_is_old() -> None:
    """The one-pass version the engine uses says what the reference algorithm says, card by card."""
    import random

    from games.core.cards import lukfu_deck
    from games.luk_fu.old import old_in_hand

    rng = random.Random(5)
    for _ in range(400):
        deck = lukfu_deck()
        rng.shuffle(deck)
        dealt = set(deck[:12])
        hand = set(rng.sample(sorted(dealt, key=str), rng.randint(1, 12)))
        gone = [c for c in deck if c not in hand]
        faceup = set(rng.sample(gone, rng.randint(0, 15)))
        own = {c for c in dealt - hand - faceup if rng.random() < 0.5}
        caps = [[rng.choice([9, 9, rng.randint(1, 9)]) for _ in range(4)] for _ in range(2)]
        for mode in ("knowledge", "public_sequence"):
            kw = {"mode": mode, "faceup": faceup, "own_discards": own, "dealt": dealt, "other_caps": caps}
            expected = {c for c in hand if is_old(c, hand=hand, **kw)}  # type: ignore[arg-type]
            assert old_in_hand(hand, **kw) == expected  # type: ignore[arg-type]
