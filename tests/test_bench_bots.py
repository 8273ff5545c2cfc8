"""``bench/bench_bots.py``: its groups cancel luck (the same shuffles under every seating of the two sides), and it
runs to the end at a tiny size. Not timed here: the figures come from running it by hand (README)."""

from __future__ import annotations

import importlib.util
import random
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from games.core.actions import Action, ActionFamily, AmountRange, LegalAction
from games.registry import get_game

BENCH = Path(__file__).resolve().parent.parent / "bench" / "bench_bots.py"
_spec = importlib.util.spec_from_file_location("bench_bots", BENCH)
assert _spec is not None and _spec.loader is not None
bench_bots = importlib.util.module_from_spec(_spec)
sys.modules["bench_bots"] = bench_bots  # its dataclasses look their module up
_spec.loader.exec_module(bench_bots)


def first_legal(view: Any, legal: Sequence[LegalAction], rng: random.Random) -> Action:
    """A player that ignores its random source: two of them seated in mirrored games play them alike."""
    item = legal[0]
    if isinstance(item, AmountRange):
        return item.make(item.lo)
    if isinstance(item, ActionFamily):
        return item.example
    return item


def test_every_seating_has_both_sides_and_its_mirror() -> None:
    for seats in (2, 3, 4):
        found = bench_bots.seatings(seats)
        assert len(found) == 2**seats - 2
        assert all(tuple(not s for s in seating) in found for seating in found)


@pytest.mark.parametrize("game", ["oicho", "luk_fu", "hachi_hachi"])
def test_two_equal_players_come_out_exactly_even(game: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each seating is played with the same shuffles as its mirror, so two players who choose alike win exactly as
    much as each other, however the cards fell; with other shuffles per seating they would not."""
    spec = get_game(game)
    monkeypatch.setitem(spec.policies, "easy", first_legal)  # type: ignore[arg-type]
    monkeypatch.setitem(spec.policies, "normal", first_legal)  # type: ignore[arg-type]
    results = [bench_bots.play_group(game, ("normal", "easy"), 3, group, "test") for group in range(3)]
    assert all(r.deals > 0 for r in results)
    assert [r.figure for r in results] == [0.0, 0.0, 0.0]
    # The same players against the random one do win or lose something: the figure is not zero by construction.
    against = [bench_bots.play_group(game, ("normal", "random"), 3, group, "test").figure for group in range(3)]
    assert any(f != 0 for f in against)


def test_the_benchmark_runs_to_the_end() -> None:
    done = subprocess.run(
        [sys.executable, str(BENCH), "--deals", "10", "--games", "oicho", "--workers", "1"],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    for line in ("strong vs normal", "easy vs random", "strong decisions: p50"):
        assert line in done.stdout


def test_a_busy_strong_bot_is_measured_at_the_share_of_its_budget_given(monkeypatch: pytest.MonkeyPatch) -> None:
    spec = get_game("oicho")
    spent: list[float] = []

    def strong(view: Any, legal: Sequence[LegalAction], rng: random.Random, *, effort: float = 1.0) -> Action:
        spent.append(effort)
        return first_legal(view, legal, rng)

    monkeypatch.setitem(spec.policies, "strong", strong)  # type: ignore[arg-type]
    bench_bots.play_group("oicho", ("strong", "normal"), 3, 0, "test", effort=0.25)
    assert spent and set(spent) == {0.25}
    spent.clear()
    bench_bots.play_group("oicho", ("strong", "normal"), 3, 0, "test")
    assert spent and set(spent) == {1.0}


def test_quoted_plays_only_the_pairings_the_lobby_quotes() -> None:
    assert bench_bots.pairings(quoted=True) == [("normal", "easy"), ("strong", "normal"), ("easy", "random")]
    assert set(bench_bots.pairings(quoted=True)) < set(bench_bots.pairings())
    refused = subprocess.run(
        [sys.executable, str(BENCH), "--effort", "0.5", "--save"], capture_output=True, text=True, timeout=120
    )
    assert refused.returncode != 0 and "--effort" in refused.stderr  # the lobby quotes the whole budget's figures
