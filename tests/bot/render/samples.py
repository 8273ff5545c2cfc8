"""Hand-built public views for the render tests, the render benchmarks and eyeballing the layout.

``python -m tests.bot.render.samples [out_dir]`` (from the repository root) writes a PNG of each sample so a change
to the layout can be looked at before it reaches a table. The busiest Oicho-Kabu view is shipped with the bot, which
warms its render workers up with it (:mod:`bot.render.samples`).
"""

from __future__ import annotations

import random
import sys
from collections.abc import Callable
from dataclasses import replace
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from bot.render.samples import BUSY_NAMES, busy_oicho_view
from games.oicho.views import DealerHandView, OichoPublicView, TenureView

if TYPE_CHECKING:
    from games.luk_fu.engine import LukFuEngine
    from games.luk_fu.views import LukFuPublicView


def betting_oicho_view() -> OichoPublicView:
    """Four seats early in the betting: lone pile cards face up, the dealer's own card face down."""
    base = busy_oicho_view("betting")
    piles = tuple(
        replace(p, cards=(p.cards[0],), bets=p.bets[:1] if p.number in (1, 3) else (), decider=None, hand=None)
        for p in base.piles
    )
    piles = tuple(replace(p, total=sum(a for _, a in p.bets)) for p in piles)
    used = sum(p.total for p in piles)
    return replace(
        base,
        seats=4,
        stacks=(100, 100, 100, 100),
        active=(True,) * 4,
        cap=50,
        cap_used=used,
        cap_left=50 - used,
        piles=piles,  # type: ignore[arg-type]
        to_act=(2,),
        betting_seat=2,
        betting_order=(1, 2, 3),
        dealer_hand=DealerHandView(cards=(None,), hand=None),
        maki_fuda=(),
        round_no=1,
        tenure=TenureView(dealer=0, rounds_held=0, rounds_limit=3, net=0, tenures_held=(0,) * 4),
    )


# ---------------------------------------------------------------- Luk Fu

LUKFU_NAMES = ["Ann 杏", "たろう🎴", "A very long display name that never ends", "花子 Hanako"]

# A stacked first deal (3 seats, seat 0 deals and is the parent; play goes 0, 2, 1): the parent declares and
# leads a run of five Tens that nobody can beat (both others discard five face down), then a quad of 2s that
# seat 2 must beat with its four 8s (seat 1 discards four). The rest of the game is dealt from seeds.
_RUN_DEAL = {
    0: "3T 4T 5T 6T 7T 2C 2S 2M 2T 1C 1T 9M",
    2: "8C 8S 8M 8T 1S 1M 3C 4C 5C 6C 7C 9C",
}
_TIGERS = "1C 1S 1M 1T LT"


@lru_cache(maxsize=2)
def tenure_end_oicho_view(maki_fuda: bool = False) -> OichoPublicView:
    """Three seats right after the move that ended a dealer's tenure: its round's showdown settled and the next
    round dealt at once by the same move, nobody has bet in it yet (a seeded game played by the easy bots)."""
    from games.core.events import DealEnded
    from games.core.rng import Shuffler
    from games.registry import get_game

    spec = get_game("oicho")
    rng = random.Random(1)
    engine = spec.engine(
        spec.rules_model(maki_fuda=maki_fuda), [100] * 3, Shuffler(seed_source=lambda: f"{rng.getrandbits(256):064x}")
    )
    while not engine.is_over:
        seat = min(engine.to_act())
        deal = engine.deal_no
        events = engine.apply(seat, spec.policies["easy"](engine.view(seat), engine.legal_actions(seat), rng))
        if any(isinstance(e, DealEnded) for e in events) and engine.deal_no != deal:
            view = engine.public_view()
            assert isinstance(view, OichoPublicView)
            return view
    raise AssertionError("the seeded game never ended a tenure")


def _lukfu_roles(seats: int, dealer: int, layout: str) -> tuple[int, int | None, list[int]]:
    """(parent, sitter, active players in order of play) when every seat holds chips (rules §2.2)."""
    if seats == 4:
        opposite = (dealer + 2) % 4
        parent, sitter = (opposite, dealer) if layout == "dealer_sits_out" else (dealer, opposite)
    else:
        parent, sitter = dealer, None
    active = sorted((s for s in range(seats) if s != sitter), key=lambda s: (parent - s) % seats)
    return parent, sitter, active


def _lukfu_deal_order(hands: dict[int, str], seats: int, dealer: int, layout: str, extra: str | None) -> str:
    """The pack for one deal: each active player's 12 cards in dealing order, then the 37th card; hands given
    short are filled from the cards left, in canonical order."""
    from games.core.cards import lukfu_deck, notation, parse_lukfu

    _parent, _sitter, active = _lukfu_roles(seats, dealer, layout)
    given = {s: parse_lukfu(text) for s, text in hands.items()}
    last = parse_lukfu(extra) if extra else []
    used = {c for cards in given.values() for c in cards} | set(last)
    remaining = [c for c in lukfu_deck() if c not in used]
    out = []
    for seat in active:
        cards = list(given.get(seat, []))
        while len(cards) < 12:
            cards.append(remaining.pop(0))
        out += cards
    out += last or [remaining.pop(0)]
    return notation(out)


def _lukfu_engine(
    seats: int,
    seed: int,
    hands: dict[int, str] | None = None,
    *,
    dealer: int = 0,
    extra: str | None = None,
    stacks: list[int] | None = None,
    **options: Any,
) -> LukFuEngine:
    """A table whose first dealer is ``dealer``; its first deal is stacked when ``hands`` is given, every other
    one comes from seeds drawn from ``seed``."""
    from games.core.rng import Shuffle, Shuffler
    from games.luk_fu.engine import LukFuEngine
    from games.luk_fu.rules import LukFuRules

    rules = LukFuRules.model_validate({"players": seats, **options})
    draw = " ".join([*["2C", "3C", "4C"][:dealer], "9T"])  # the dealer draws the highest card
    planned = [Shuffle(order=draw, purpose="draw_dealer")]
    if hands is not None:
        planned.append(Shuffle(order=_lukfu_deal_order(hands, seats, dealer, rules.four_player_layout, extra)))
    rng = random.Random(seed)
    shuffler = Shuffler(planned=planned, seed_source=lambda: f"{rng.getrandbits(256):064x}")
    return LukFuEngine(rules, stacks or [100] * seats, shuffler)


def _lukfu_act(engine: LukFuEngine, *texts: str) -> None:
    """Each text is the action of the one seat to act."""
    from games.luk_fu.actions import CODEC

    for text in texts:
        (seat,) = engine.to_act()
        engine.apply(seat, CODEC.parse(text))


def _lukfu_auto(
    engine: LukFuEngine, seed: int, wanted: dict[str, Callable[[LukFuPublicView], bool]], out: dict[str, Any]
) -> None:
    """Play the bot's policy (with a random legal move one time in five) until the game ends, keeping in
    ``out`` the first public view that matches each of ``wanted``, and the final view as ``over``."""
    from games.luk_fu.policy import choose

    rng = random.Random(seed)
    for _ in range(5000):
        view = engine.public_view()
        for name, matches in wanted.items():
            if name not in out and matches(view):
                out[name] = view
        if engine.is_over:
            out.setdefault("over", view)
            return
        seat = min(engine.to_act())
        legal = engine.legal_actions(seat)
        action = choose(engine.view(seat), legal, rng)
        if rng.random() < 0.2 and view.phase in ("lead", "follow"):
            action = choose(engine.view(seat), [rng.choice(legal)], rng)
        engine.apply(seat, action)
    raise RuntimeError("a sample Luk Fu game did not end")


def _face_down_follow(view: LukFuPublicView) -> bool:
    return view.phase == "follow" and view.trick is not None and any(p.face_down for p in view.trick.plays)


def _between_tricks(view: LukFuPublicView) -> bool:
    last = view.last_trick
    return view.phase == "lead" and last is not None and last.size == 1 and any(p.face_down for p in last.plays)


def _after(ended_by: str, winner: bool) -> Callable[[LukFuPublicView], bool]:
    """A call right after a hand that ended so (with or without a winner)."""

    def matches(view: LukFuPublicView) -> bool:
        last = view.last_result
        return (
            view.phase == "call"
            and last is not None
            and last["ended_by"] == ended_by
            and (last["winner"] is not None) == winner
        )

    return matches


def _final_trick_unseen(view: LukFuPublicView) -> bool:
    """The next hand's first lead, right after a hand played to its last card: that hand's final trick was never
    on the table between tricks (the engine settled it and dealt again in the same step)."""
    last = view.last_result
    return view.phase == "lead" and view.trick_no == 0 and last is not None and last["ended_by"] == "all_played"


_WANTED: dict[str, Callable[[LukFuPublicView], bool]] = {
    "call": lambda v: v.phase == "call" and bool(v.calls) and v.last_result is not None,
    "first_lead": lambda v: v.phase == "lead" and v.trick_no == 0,
    "follow_face_down": _face_down_follow,
    "follow_triple": lambda v: v.phase == "follow" and v.trick is not None and v.trick.kind == "triple",
    "between_tricks": _between_tricks,
    "stop": lambda v: v.phase == "stop",
    "no_winner": _after("all_played", winner=False),
    "final_trick": _final_trick_unseen,
}
_WANTED_4 = {
    **_WANTED,
    "sitter_bonus": lambda v: v.phase == "call" and v.last_result is not None and bool(v.last_result["sitter_bonus"]),
}


@lru_cache(maxsize=2)
def luk_fu_sample_views(seats: int) -> dict[str, LukFuPublicView]:
    """Public views of real 3- or 4-seat games, one per moment worth drawing, played from fixed seeds:

    ``call`` (with the last hand's result), ``first_lead``, ``follow_face_down``, ``follow_triple``,
    ``between_tricks``, ``stop``, ``no_winner`` (the call after a hand nobody won), ``final_trick`` (the first
    lead after a hand played to its last card, whose final trick shows beside its result), ``over``,
    ``tigers_question`` (the after-call Five Tigers question), ``tigers_revealed`` (the next hand's call, right
    after a reveal);
    4 seats also ``sitter_bonus`` (the call after a hand that paid the sitter) and ``bust`` (one seat out);
    3 seats also ``follow_run_face_down`` (a run of five Tens, the first follow face down),
    ``between_tricks_quad`` (a quad of 2s beaten by 8s, the last follow face down) and ``tigers_lead`` (the
    five led as one unbeatable play, ``five_tigers_lead``).
    """
    if seats not in (3, 4):
        raise ValueError("Luk Fu samples have 3 or 4 seats")
    out: dict[str, Any] = {}
    if seats == 3:
        engine = _lukfu_engine(3, 11, _RUN_DEAL)
        _lukfu_act(engine, "play", "lead 3T 4T 5T 6T 7T", "discard 3C 4C 5C 6C 7C")
        out["follow_run_face_down"] = engine.public_view()
        (seat,) = engine.to_act()
        hand = sorted(engine.hands[seat], key=lambda c: (c.rank, c.suit_order))
        _lukfu_act(engine, "discard " + " ".join(c.notation for c in hand[:5]))
        _lukfu_act(engine, "lead 2C 2S 2M 2T", "follow 8C 8S 8M 8T")
        (seat,) = engine.to_act()
        hand = sorted(engine.hands[seat], key=lambda c: (c.rank, c.suit_order))
        _lukfu_act(engine, "discard " + " ".join(c.notation for c in hand[:4]))
        out["between_tricks_quad"] = engine.public_view()
        _lukfu_auto(engine, 3, _WANTED, out)
        lead = _lukfu_engine(3, 7, {0: _TIGERS}, five_tigers_lead=True)
        _lukfu_act(lead, "play", "lead " + _TIGERS)
        (seat,) = lead.to_act()
        _lukfu_act(lead, "discard " + " ".join(c.notation for c in lead.hands[seat][:5]))
        out["tigers_lead"] = lead.public_view()
        tigers = _lukfu_engine(3, 5, {0: _TIGERS}, hands_total=2)
    else:
        _lukfu_auto(_lukfu_engine(4, 14), 4, _WANTED_4, out)
        # dealer 0 sits out; seat 2, opposite him, is the parent and holds the five; the sitter holds 9T
        tigers = _lukfu_engine(4, 6, {2: _TIGERS}, extra="9T", players=4, hands_total=2)
        bust = _lukfu_engine(4, 8, stacks=[100, 1, 100, 100], hands_total=12)
        found: dict[str, Any] = {}
        _lukfu_auto(bust, 8, {"bust": lambda v: v.phase == "call" and not all(v.seated)}, found)
        out["bust"] = found["bust"]
    _lukfu_act(tigers, "play")
    _lukfu_act(tigers, "tigers")
    out["tigers_revealed"] = tigers.public_view()
    question = _lukfu_engine(seats, 9, {(0 if seats == 3 else 2): _TIGERS}, five_tigers_timing="after_call")
    _lukfu_act(question, "play")
    (waiting, *_rest) = sorted(question.to_act() - {0 if seats == 3 else 2})
    question.apply(waiting, _keep())
    out["tigers_question"] = question.public_view()
    missing = [name for name in (*(_WANTED if seats == 3 else _WANTED_4), "over") if name not in out]
    if missing:
        raise RuntimeError(f"the sample games never reached {missing}")
    return out


def _keep() -> Any:
    from games.luk_fu.actions import Keep

    return Keep()


def luk_fu_cards_on_table(view: LukFuPublicView) -> int:
    """How many cards a view puts on the table (the trick drawn and every winning card): how busy it is."""
    trick = view.trick or view.last_trick
    in_trick = trick.size * len(trick.plays) if trick is not None else 0
    return in_trick + sum(len(cards) for cards in view.winning_cards)


def busy_luk_fu_view(seats: int) -> LukFuPublicView:
    """The busiest of the samples (most cards on the table) for ``seats``."""
    views = luk_fu_sample_views(seats)
    return max(views.values(), key=luk_fu_cards_on_table)


# ---------------------------------------------------------------- Hachi-Hachi Trick

if TYPE_CHECKING:
    from games.hachi_hachi.engine import HachiHachiEngine
    from games.hachi_hachi.views import HachiPublicView

HACHI_NAMES = [
    "Ann 杏",
    "たろう🎴",
    "A very long display name that never ends",
    "花子 Hanako",
    "李小龍",
    "Zoë ✨",
    "さくらさくらさくら",
]

# Per seat count: (indicator, Mizuten?, declarations) of round 1, then of round 2 (the last: ``rounds=2``). The
# indicators make a plain field, Ōba 大場 and Zetsuba 絶場; round 1 of 5 and 7 seats has players forced out.
_HACHI_SCRIPT: dict[int, tuple[tuple[str, bool, tuple[str, ...]], tuple[str, bool, tuple[str, ...]]]] = {
    3: (("7c", False, ("play", "play", "play")), ("Ts", False, ("fold", "play", "play"))),
    5: (("Qd", False, ("play", "fold", "play", "play")), ("5s", True, ("play", "play", "fold", "play"))),
    7: (("Kh", True, ("play", "fold", "play", "play")), ("9d", False, ("fold", "play", "fold", "play", "play"))),
}


def _hachi_order(seats: int, seed: int, indicator: str) -> str:
    """A shuffled pack (from ``seed``) with ``indicator`` moved to where the trump is turned (after 7 × seats)."""
    from games.core.cards import FrenchCard, french_deck, notation

    deck = french_deck()
    random.Random(seed).shuffle(deck)
    turned = FrenchCard.parse(indicator)
    deck.remove(turned)
    deck.insert(7 * seats, turned)
    return notation(deck)


def _hachi_engine(seats: int, seed: int, indicators: tuple[str, ...], **options: Any) -> HachiHachiEngine:
    """A table whose first start player is seat 0 and whose rounds are shuffled from ``seed`` with the given
    indicators (later rounds from seeds)."""
    from games.core.rng import Shuffle, Shuffler
    from games.hachi_hachi.engine import HachiHachiEngine
    from games.hachi_hachi.rules import HachiHachiRules

    rules = HachiHachiRules.model_validate({"players": 7, **options})
    planned = [Shuffle(order="As", purpose="draw_sp")]
    planned += [Shuffle(order=_hachi_order(seats, seed + k, ind)) for k, ind in enumerate(indicators)]
    rng = random.Random(seed)
    shuffler = Shuffler(planned=planned, seed_source=lambda: f"{rng.getrandbits(256):064x}")
    return HachiHachiEngine(rules, [rules.starting_chips] * seats, shuffler)


def _hachi_act(engine: HachiHachiEngine, *texts: str) -> None:
    """Each text is the action of the one seat to act."""
    from games.hachi_hachi.actions import CODEC

    for text in texts:
        (seat,) = engine.to_act()
        engine.apply(seat, CODEC.parse(text))


def _hachi_play_until(engine: HachiHachiEngine, rng: random.Random, stop: Callable[[HachiPublicView], bool]) -> None:
    """The bot's policy (trick play, a split/fight choice) until ``stop`` holds for the public view."""
    from games.hachi_hachi.policy import choose

    for _ in range(100):
        if stop(engine.public_view()):
            return
        seat = min(engine.to_act())
        engine.apply(seat, choose(engine.view(seat), engine.legal_actions(seat), rng))
    raise RuntimeError("a sample Hachi-Hachi round never reached the moment wanted")


def _mid_trick(view: HachiPublicView) -> bool:
    trick = view.trick
    return trick is not None and trick.number >= 4 and len(trick.plays) == len(view.trick_order) - 1


def _between_hachi_tricks(view: HachiPublicView) -> bool:
    return view.trick is not None and view.trick.number >= 3 and not view.trick.plays


@lru_cache(maxsize=3)
def hachi_hachi_sample_views(seats: int) -> dict[str, HachiPublicView]:
    """Public views of a real 2-round game of 3, 5 or 7 seats, one per moment worth drawing, played from fixed
    shuffles (the indicators chosen: plain, Ōba 大場, Zetsuba 絶場), scripted declarations and the bot's policy
    in trick play:

    ``mizuten`` (before the first deal), ``declare`` (round 1, two declarations made), ``choose`` (two declarers,
    one has chosen), ``trick`` (trick 4, one card still to come), ``between_tricks`` (a trick finished, the next
    not led), ``round_over`` (round 2's declarations with round 1's result beside them), ``over`` (the game
    over after round 2); 3 seats also ``split_over`` (the next round after a split pot) and ``void_over`` (the
    next round's first fold after a round nobody played: a pot carried over and a fee); 5 seats also ``fight`` (the
    first lead after one declarer chose split and the other fight, both choices shown).
    """
    if seats not in _HACHI_SCRIPT:
        raise ValueError("Hachi-Hachi samples have 3, 5 or 7 seats")
    (ind1, miz1, calls1), (ind2, miz2, calls2) = _HACHI_SCRIPT[seats]
    out: dict[str, HachiPublicView] = {}
    rng = random.Random(seats)
    engine = _hachi_engine(seats, 100 + seats, (ind1, ind2), rounds=2)
    out["mizuten"] = engine.public_view()
    _hachi_act(engine, "mizuten" if miz1 else "no-mizuten", *calls1[:2])
    out["declare"] = engine.public_view()
    _hachi_act(engine, *calls1[2:])
    _hachi_play_until(engine, rng, _between_hachi_tricks)
    out["between_tricks"] = engine.public_view()
    _hachi_play_until(engine, rng, _mid_trick)
    out["trick"] = engine.public_view()
    _hachi_play_until(engine, rng, lambda v: v.deal_no == 2)
    _hachi_act(engine, "mizuten" if miz2 else "no-mizuten", *calls2[:2])
    out["round_over"] = engine.public_view()
    _hachi_act(engine, *calls2[2:])
    _hachi_play_until(engine, rng, lambda v: v.game_over)
    out["over"] = engine.public_view()

    two = _hachi_engine(seats, 200 + seats, ("8h",))
    _hachi_act(two, "no-mizuten", "play", "fold", "play", *["fold"] * (seats - 3))
    first, second = two.declarers
    from games.hachi_hachi.actions import Fight, Split

    two.apply(second, Split())
    out["choose"] = two.public_view()
    if seats == 3:
        two.apply(first, Split())
        out["split_over"] = two.public_view()
        void = _hachi_engine(seats, 300, ("Ah",))
        _hachi_act(void, "no-mizuten", "fold", "fold", "fold", "no-mizuten", "fold")
        out["void_over"] = void.public_view()
    elif seats == 5:
        two.apply(first, Fight())
        out["fight"] = two.public_view()
    return out


def hachi_hachi_cards_on_table(view: HachiPublicView) -> int:
    """How many cards a view puts on the table (indicator, tricks, revealed hands): how busy it is."""
    trick = len(view.trick.plays) if view.trick is not None else 0
    last = len(view.last_trick.plays) if view.last_trick is not None else 0
    return int(view.indicator is not None) + trick + last + sum(len(r.cards) for r in view.reveals)


def main(out_dir: str = "bench/out") -> None:
    from bot.render.oicho import render_oicho_table

    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    samples = {
        "oicho_busy_showdown_ja": (busy_oicho_view(), "ja"),
        "oicho_busy_showdown_en": (busy_oicho_view(), "en"),
        "oicho_busy_deciding_en": (busy_oicho_view("deciding"), "en"),
        "oicho_betting_ja": (betting_oicho_view(), "ja"),
        "oicho_after_a_tenure_en": (tenure_end_oicho_view(), "en"),
        "oicho_after_a_tenure_maki_fuda_ja": (tenure_end_oicho_view(maki_fuda=True), "ja"),
    }
    for name, (view, lang) in samples.items():
        data = render_oicho_table(view, BUSY_NAMES, lang)
        (out / f"{name}.png").write_bytes(data)
        print(f"{name}: {len(data)} bytes")

    from bot.render.luk_fu import render_luk_fu_table

    for seats in (3, 4):
        for moment, lf_view in luk_fu_sample_views(seats).items():
            for lang in ("ja", "en"):
                name = f"lukfu{seats}_{moment}_{lang}"
                data = render_luk_fu_table(lf_view, LUKFU_NAMES, lang, stake=10)
                (out / f"{name}.png").write_bytes(data)
                print(f"{name}: {len(data)} bytes")

    from bot.render.hachi_hachi import render_hachi_hachi_table

    for seats in (3, 5, 7):
        for moment, hh_view in hachi_hachi_sample_views(seats).items():
            for lang in ("ja", "en"):
                name = f"hachi{seats}_{moment}_{lang}"
                data = render_hachi_hachi_table(hh_view, HACHI_NAMES, lang, stake=10)
                (out / f"{name}.png").write_bytes(data)
                print(f"{name}: {len(data)} bytes")


if __name__ == "__main__":
    main(*sys.argv[1:2])
