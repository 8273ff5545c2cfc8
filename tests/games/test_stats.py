"""Each game's statistics declaration (``games/<game>/stats.py``): what a finished deal gives a seat.

Checked on summaries stored by older engines (each game's ``stored_results.json``), against facts read off them by
hand, and on many random games played by each game's own policy, against invariants of the rules (one dealer a
round, one answer per player dealt in, a declarer's win is a win, …). Every fact a declaration gives is in its
``FACTS``, a whole number other than 0, and never one of the bot's own facts of every deal.
"""

from __future__ import annotations

import importlib
import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from games.core.engine import DealResult
from games.core.rng import Shuffler
from games.registry import all_games, get_game

GAMES = sorted(all_games())
BASE_FACTS = {"deals", "won", "lost"}  # the bot's own, bot/storage/stats.py
HERE = Path(__file__).parent


def stats_of(game: str) -> Any:
    return importlib.import_module(f"games.{game}.stats")


def played(game: str, seed: int, seats: int) -> Iterator[DealResult[Any]]:
    """The results of one game played to the end by the game's policy, with seeded shuffles (four at a Luk Fu
    table: one sits out each hand)."""
    spec = get_game(game)
    rules = spec.rules_model.model_validate({"players": 4} if game == "luk_fu" and seats == 4 else {})
    rng = random.Random(f"{game}:{seed}")
    engine = spec.engine(
        rules, [spec.starting_chips(rules)] * seats, Shuffler(seed_source=lambda: f"{rng.getrandbits(256):064x}")
    )
    for _ in range(20_000):
        if engine.is_over:
            break
        seat = min(engine.to_act())
        engine.apply(seat, spec.policies["normal"](engine.view(seat), engine.legal_actions(seat), rng))
        yield from engine.results
        engine.results.clear()
    assert engine.is_over


def stored(game: str) -> list[dict[str, Any]]:
    data = json.loads((HERE / game / "stored_results.json").read_text(encoding="utf-8"))
    kept = data["stored"] if isinstance(data["stored"], list) else [data["stored"]]
    return [*data["summaries"], *kept]


def result_of(game: str, summary: dict[str, Any], deltas: tuple[int, ...]) -> DealResult[Any]:
    return DealResult(1, deltas, get_game(game).result.from_json(summary))


@pytest.mark.parametrize("game", GAMES)
def test_every_fact_is_declared_whole_and_not_the_bots(game: str) -> None:
    stats = stats_of(game)
    assert len(set(stats.FACTS)) == len(stats.FACTS) and not BASE_FACTS & set(stats.FACTS)
    seen: set[str] = set()
    for seed in range(6):
        for result in played(game, seed, {"luk_fu": 3 + seed % 2, "hachi_hachi": 3 + seed % 5}.get(game, 2 + seed % 3)):
            for seat in range(len(result.deltas)):
                facts = stats.facts(result, seat)
                assert set(facts) <= set(stats.FACTS), facts
                assert all(type(v) is int and v != 0 for v in facts.values()), facts
                seen |= set(facts)
    assert len(seen) >= 3, f"{game}: random games gave too few kinds of facts to check anything ({seen})"


def test_oicho_one_dealer_a_round_and_every_backed_pile_once() -> None:
    from games.oicho.stats import facts

    for seed in range(8):
        for result in played("oicho", seed, 4):
            round_ = result.detail
            per_seat = [facts(result, s) for s in range(4)]
            if round_.void:
                assert per_seat == [{}] * 4
                continue
            assert [s for s in range(4) if "bank" in per_seat[s]] == [round_.dealer]
            assert per_seat[round_.dealer].get("bank_net", 0) == result.deltas[round_.dealer]
            for seat in set(range(4)) - {round_.dealer}:
                backed = [p for p in round_.piles if any(b.seat == seat for b in p.bets)]
                assert per_seat[seat].get("piles", 0) == len(backed)
                assert per_seat[seat].get("piles_won", 0) == sum(p.outcome == "pile" for p in backed)


def test_oicho_facts_of_stored_rounds() -> None:
    from games.oicho.stats import facts

    first, _, void, last = stored("oicho")
    # Seat 0 dealt and won 10 with a plain nine (Kabu); seat 1 backed piles 2 and 4, both lost.
    result = result_of("oicho", first, (10, -10))
    assert (facts(result, 0), facts(result, 1)) == ({"bank": 1, "bank_net": 10, "hand_kabu": 1}, {"piles": 2})
    assert facts(result_of("oicho", void, (0, 0, 0)), 0) == {}
    # Seat 1's one pile beat the dealer; seat 2 bet nothing.
    result = result_of("oicho", last, tuple(last["owed"]))
    assert [facts(result, s) for s in range(3)] == [{"bank": 1, "bank_net": -50}, {"piles": 1, "piles_won": 1}, {}]


def test_ofc_facts_follow_the_boards() -> None:
    from games.ofc.stats import facts

    for seed in range(4):
        for result in played("ofc", seed, 3):
            hand = result.detail
            per_seat = [facts(result, s) for s in range(3)]
            assert [bool(f.get("foul")) for f in per_seat] == list(hand.fouled)
            assert [f.get("royalties", 0) for f in per_seat] == list(hand.royalties)
            assert sum(f.get("scoops", 0) for f in per_seat) == sum(abs(sum(p.rows)) == 3 for p in hand.pairs)
    # Stored hands: a fouled board (seat 1) scooped by seat 0; a Fantasyland hand with 12 royalties.
    _, fouled, fantasy, *_ = stored("ofc")
    result = result_of("ofc", fouled, tuple(fouled["deltas"]))
    assert (facts(result, 0), facts(result, 1)) == ({"scoops": 1}, {"foul": 1})
    result = result_of("ofc", fantasy, tuple(fantasy["deltas"]))
    assert facts(result, 1) == {"royalties": 12, "fl_hand": 1}


def test_ofc_fantasyland_entry_and_stay() -> None:
    from games.ofc.results import OFCResult
    from games.ofc.stats import facts

    _, _, fantasy, *_ = stored("ofc")
    # The same hand, had seat 1 stayed in Fantasyland and seat 0 entered it.
    summary = {**fantasy, "fantasyland_next": [14, 13, 0]}
    result = DealResult(1, tuple(fantasy["deltas"]), OFCResult.from_json(summary))
    assert facts(result, 0) == {"fl_entry": 1}, "entered from outside: no stay"
    assert facts(result, 1) == {"royalties": 12, "fl_hand": 1, "fl_stay": 1}


def test_luk_fu_declarers_and_tigers() -> None:
    from games.luk_fu.stats import facts

    for seed in range(6):
        for result in played("luk_fu", seed, 4):
            hand = result.detail
            per_seat = [facts(result, s) for s in range(4)]
            assert [s for s in range(4) if "sat_out" in per_seat[s]] == [s for s in range(4) if s not in hand.active]
            assert [s for s in range(4) if "declared" in per_seat[s]] == (
                [hand.declarer] if hand.declarer is not None else []
            )
            won = [s for s in range(4) if "declared_won" in per_seat[s]]
            assert won == ([hand.declarer] if hand.declarer is not None and hand.winner == hand.declarer else [])
            assert sum(f.get("tricks", 0) for f in per_seat) == sum(hand.tricks)
    summaries = stored("luk_fu")
    # A declarer who won with 6 tricks; Five Tigers revealed by seat 2 (credited 7); a four-player hand sat out.
    result = result_of("luk_fu", summaries[0], tuple(summaries[0]["deltas"]))
    assert facts(result, 2) == {"declared": 1, "declared_won": 1, "tricks": 6}
    result = result_of("luk_fu", summaries[7], tuple(summaries[7]["deltas"]))
    assert facts(result, 2) == {"five_tigers": 1, "tricks": 7} and facts(result, 1) == {"declared": 1, "tricks": 4}
    result = result_of("luk_fu", summaries[8], tuple(summaries[8]["deltas"]))
    assert facts(result, 3) == {"sat_out": 1}


def test_hachi_hachi_one_answer_per_player_dealt_in() -> None:
    from games.hachi_hachi.results import RoundResult
    from games.hachi_hachi.stats import facts

    kinds: set[str] = set()
    for seed in range(6):
        for result in played("hachi_hachi", seed, 5):
            round_ = result.detail
            for seat in range(5):
                found = facts(result, seat)
                kinds |= set(found)
                if not isinstance(round_, RoundResult) or seat not in round_.players:
                    assert found == {}
                    continue
                assert found["dealt"] == 1
                assert sum(found.get(k, 0) for k in ("played", "folded", "forced_out")) == 1
                revealed = [k for h in round_.hands if h.seat == seat for k in h.yaku]
                assert {k[5:]: v for k, v in found.items() if k.startswith("yaku_")} == {
                    k: revealed.count(k) for k in revealed
                }
                if "mizuten" in found:
                    assert round_.sp == seat and found.get("mizuten_net", 0) == result.deltas[seat]
    assert {"played", "folded", "pot_won", "tricks"} <= kinds
    summaries = stored("hachi_hachi")
    # Seat 0 played, took the pot and showed a full house; a table stopped with a pot gives nothing.
    result = result_of("hachi_hachi", summaries[2], tuple(summaries[2]["deltas"]))
    assert facts(result, 0) == {"dealt": 1, "played": 1, "pot_won": 1, "tricks": 4, "yaku_full_house": 1}
    assert facts(result, 1) == {"dealt": 1, "folded": 1}
    stopped = summaries[5]
    assert stopped["outcome"] == "stopped"
    assert facts(result_of("hachi_hachi", stopped, (1, -1, 0)), 0) == {}
