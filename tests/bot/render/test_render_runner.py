"""Renders run off the event loop, and an unchanged table is not drawn again."""

from __future__ import annotations

import asyncio
import threading
from dataclasses import dataclass

import pytest

from bot.render import runner


@dataclass(frozen=True)
class _View:
    n: int


@pytest.fixture(autouse=True)
def _fresh_cache(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(runner, "cache", runner.RenderCache(maxsize=2))


class _Counter:
    def __init__(self) -> None:
        self.calls = 0
        self.threads: set[int] = set()

    def __call__(self, view: _View, lang: str) -> bytes:
        self.calls += 1
        self.threads.add(threading.get_ident())
        return f"{view.n}:{lang}".encode()

    def __repr__(self) -> str:  # a stable repr, so the cache can key on it
        return "_Counter"


async def test_runs_off_the_loop_thread() -> None:
    fn = _Counter()
    assert await runner.render_in_thread(fn, _View(1), "en") == b"1:en"
    assert threading.get_ident() not in fn.threads


async def test_unchanged_view_is_not_redrawn() -> None:
    fn = _Counter()
    first = await runner.render_in_thread(fn, _View(1), "en")
    again = await runner.render_in_thread(fn, _View(1), "en")
    assert first == again
    assert fn.calls == 1
    await runner.render_in_thread(fn, _View(2), "en")
    await runner.render_in_thread(fn, _View(1), "ja")
    assert fn.calls == 3


async def test_least_recently_used_entry_is_dropped() -> None:
    fn = _Counter()
    for n in (1, 2, 1, 3):  # cache of 2: 2 is the least recently used when 3 arrives
        await runner.render_in_thread(fn, _View(n), "en")
    assert fn.calls == 3
    await runner.render_in_thread(fn, _View(1), "en")
    assert fn.calls == 3
    await runner.render_in_thread(fn, _View(2), "en")
    assert fn.calls == 4


async def test_identical_calls_in_flight_share_one_render() -> None:
    fn = _Counter()
    results = await asyncio.gather(*(runner.render_in_thread(fn, _View(7), "en") for _ in range(5)))
    assert set(results) == {b"7:en"}
    assert fn.calls == 1


async def test_arguments_without_a_stable_repr_are_not_cached() -> None:
    fn = _Counter()

    class Opaque:
        pass

    def render(obj: Opaque) -> bytes:
        return fn(_View(0), "x")

    await runner.render_in_thread(render, Opaque())
    await runner.render_in_thread(render, Opaque())
    assert fn.calls == 2


async def test_a_failed_render_is_raised_and_not_cached() -> None:
    calls = 0

    def broken(view: _View) -> bytes:
        nonlocal calls
        calls += 1
        raise RuntimeError("boom")

    for _ in range(2):
        with pytest.raises(RuntimeError):
            await runner.render_in_thread(broken, _View(1))
    assert calls == 2


async def test_renders_the_real_table() -> None:
    from bot.render.oicho import render_oicho_table
    from bot.render.samples import BUSY_NAMES, busy_oicho_view

    data = await runner.render_in_thread(render_oicho_table, busy_oicho_view(), BUSY_NAMES, "ja")
    assert data.startswith(b"\x89PNG")
    assert await runner.render_in_thread(render_oicho_table, busy_oicho_view(), BUSY_NAMES, "ja") is data


async def test_warm_up_runs() -> None:
    from bot.render.cards import kabu_face

    await runner.warm_up()
    assert kabu_face.cache_info().currsize >= 12


async def test_a_worker_process_draws_the_same_picture() -> None:
    """Rendering and bots' searches leave the bot's process, each for workers of its own (so neither holds the event
    loop's interpreter, nor waits for the other)."""
    import os

    from bot.errors import UserError
    from bot.render.oicho import render_oicho_table
    from bot.render.samples import BUSY_NAMES, busy_oicho_view
    from bot.ui.base import run_ui_step
    from games.core.rng import Shuffler
    from games.ofc.engine import OFCEngine
    from games.ofc.rules import OFCRules

    here = render_oicho_table(busy_oicho_view(), BUSY_NAMES, "ja")
    # An OFC hint, as a panel step runs it on the worker pool: it comes back as the seat's filled-in choices.
    engine = OFCEngine(OFCRules(variant="a"), [100, 100], Shuffler(seed_source=lambda: "ab" * 32))
    (seat,) = engine.to_act()
    view, legal = engine.view(seat), engine.legal_actions(seat)
    runner.use_processes(1, 1)
    try:
        await runner.warm_up()  # both pools' workers start (and warm up) before any table is restored
        assert runner.rendering_in_processes()
        there = await runner.render_in_thread(render_oicho_table, busy_oicho_view(), BUSY_NAMES, "ja")
        pid = await runner.off_loop(os.getpid)
        bots_pid = await runner.think(os.getpid)
        move, hinted = await runner.think(run_ui_step, "ofc", view, seat, legal, "hint", "", {})
        refused = None
        try:
            await runner.think(run_ui_step, "ofc", view, seat, legal, "explode", "", {})
        except UserError as error:
            refused = error
    finally:
        runner.use_processes(0)
    # Pictures and the bots' searches each have a process of their own: neither queues behind the other.
    assert there == here and len({pid, bots_pid, os.getpid()}) == 3
    assert not runner.rendering_in_processes()
    assert move is None and hinted.get("place.plan", "").count(":") == len(view.to_place)
    assert refused is not None and refused.key == "table.stale_button"
