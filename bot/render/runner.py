"""Rendering off the event loop, with a small cache so an unchanged table is never drawn twice.

A table render costs milliseconds of CPU; on the event loop that would stall every other table and the
3-second interaction deadline. Renders run on a dedicated pool rather than the default executor
(``asyncio.to_thread``), which aiohttp also uses for DNS look-ups.

A thread pool keeps the work off the loop but not off the interpreter: composing a picture holds the GIL,
so at a few hundred busy tables the loop itself waits for the render threads and every click gets slower.
:func:`use_processes` moves rendering into worker processes (the production default, see ``bot.config``):
the loop then only pays for handing a view over and receiving the PNG. Tests and small setups keep threads.

Bots decide on a pool of their own (:func:`think`): a strong bot searches for tens of milliseconds, and at a thousand
busy tables their searches queued behind the pictures (and the pictures behind them) until a bot's decision took
seconds and a member waited longer for the picture of their turn. With a pool each, neither waits for the other;
both pools' processes yield the cores to the event loop (:data:`WORKER_NICENESS`), and the bots' to the pictures
too (:data:`BOT_WORKER_NICENESS`).

The cache is keyed by a hash of the renderer and its arguments' ``repr``: views are frozen dataclasses
whose ``repr`` spells out every field, so two equal views give the same key. Arguments whose ``repr``
shows a memory address (``<… object at 0x…>``) are never cached, as the address could be reused.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import multiprocessing
import os
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from typing import Any

log = logging.getLogger(__name__)

RENDER_WORKERS = 2
CACHE_SIZE = 32

_executor: Executor = ThreadPoolExecutor(max_workers=RENDER_WORKERS, thread_name_prefix="fudaba-render")
_bots: Executor | None = None
"""The bots' own pool; None: they decide on the render pool."""
_thinkers = RENDER_WORKERS
"""How many workers the bots' calls run on (their own, or the render pool's)."""
_thinking = 0
"""Calls handed to the bots' pool and not back yet (waiting for a worker, or being worked out)."""
_processes = False


def use_processes(workers: int, bot_workers: int = 0) -> None:
    """Render in ``workers`` worker processes from now on (0: threads), and let bots decide in ``bot_workers``
    processes of their own (0: on the render pool). Each process warms up as it starts (fonts and card faces, or
    every game's bots). Renderers, policies and their arguments must then be picklable (module-level functions or
    methods of module-level classes, frozen dataclass views)."""
    global _executor, _bots, _thinkers, _processes
    old = [_executor, _bots]
    if workers > 0:
        # "spawn": the bot's process has threads (the database's), which a forked child would inherit half-held.
        _executor = ProcessPoolExecutor(
            max_workers=workers,
            mp_context=multiprocessing.get_context("spawn"),
            initializer=_start_worker,
            initargs=(bot_workers == 0,),
        )
    else:
        _executor = ThreadPoolExecutor(max_workers=RENDER_WORKERS, thread_name_prefix="fudaba-render")
    _bots = (
        ProcessPoolExecutor(
            max_workers=bot_workers, mp_context=multiprocessing.get_context("spawn"), initializer=_start_bot_worker
        )
        if bot_workers > 0
        else None
    )
    _thinkers = bot_workers or workers or RENDER_WORKERS
    _processes = workers > 0
    for executor in old:
        if executor is not None:
            executor.shutdown(wait=False, cancel_futures=True)


def rendering_in_processes() -> bool:
    return _processes


def shutdown() -> None:
    for executor in (_executor, _bots):
        if executor is not None:
            executor.shutdown(wait=False, cancel_futures=True)


class RenderCache:
    """A least-recently-used map from a render's key to its bytes. Use it from one event loop only."""

    def __init__(self, maxsize: int = CACHE_SIZE) -> None:
        self.maxsize = maxsize
        self._items: OrderedDict[str, bytes] = OrderedDict()
        self._pending: dict[str, asyncio.Future[bytes]] = {}
        self.hits = 0
        self.misses = 0

    @staticmethod
    def key(fn: Callable[..., Any], args: tuple[Any, ...]) -> str | None:
        """A digest of the renderer and its arguments, or None when they cannot be keyed safely."""
        name = getattr(fn, "__qualname__", None) or repr(fn)
        text = repr((getattr(fn, "__module__", ""), name, args))
        if " at 0x" in text:
            return None
        return hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=16).hexdigest()

    def get(self, key: str) -> bytes | None:
        data = self._items.get(key)
        if data is not None:
            self._items.move_to_end(key)
        return data

    def put(self, key: str, data: bytes) -> None:
        self._items[key] = data
        self._items.move_to_end(key)
        while len(self._items) > self.maxsize:
            self._items.popitem(last=False)

    def clear(self) -> None:
        self._items.clear()

    def __len__(self) -> int:
        return len(self._items)


cache = RenderCache()


async def off_loop(fn: Callable[..., Any], *args: Any) -> Any:
    """``fn(*args)`` on the worker pool, uncached: CPU-bound work (a bot's decision) that must not hold the event
    loop. In worker processes it does not even hold the loop's interpreter lock."""
    return await asyncio.get_running_loop().run_in_executor(_executor, fn, *args)


async def think(fn: Callable[..., Any], *args: Any) -> Any:
    """``fn(*args)`` on the bots' pool (the render pool when they have none): a bot's or an away member's move, a
    hint, a coach's note. Searches queue only behind each other, never behind pictures."""
    global _thinking
    _thinking += 1
    try:
        return await asyncio.get_running_loop().run_in_executor(_bots or _executor, fn, *args)
    finally:
        _thinking -= 1


def thinking() -> tuple[int, int]:
    """(calls on the bots' pool not back yet, the workers there are to work them out)."""
    return _thinking, _thinkers


async def render_in_thread(fn: Callable[..., bytes], *args: Any) -> bytes:
    """``fn(*args)`` on the render pool; the same call with equal arguments returns the cached bytes.

    Identical calls in flight at once share one render, and cancelling a caller (a timed-out
    interaction) does not cancel the render the others are waiting for.
    """
    loop = asyncio.get_running_loop()
    key = RenderCache.key(fn, args)
    if key is None:
        return await loop.run_in_executor(_executor, fn, *args)
    cached = cache.get(key)
    if cached is not None:
        cache.hits += 1
        return cached
    future = cache._pending.get(key)
    if future is None:
        cache.misses += 1
        future = loop.run_in_executor(_executor, fn, *args)
        cache._pending[key] = future
        future.add_done_callback(lambda done: _finished(key, done))
    else:
        cache.hits += 1
    return await asyncio.shield(future)


def _finished(key: str, future: asyncio.Future[bytes]) -> None:
    cache._pending.pop(key, None)
    # .exception() also marks a failure as retrieved, so an unawaited failure does not log a warning
    if not future.cancelled() and future.exception() is None:
        cache.put(key, future.result())


def _warm() -> None:
    """Rasterise every card face and the usual labels once, as the first real table would (on the table palette,
    as a PNG's table is drawn)."""
    from bot.render import cards, encode
    from bot.render.oicho import compose_oicho_table
    from bot.render.palette import PANEL
    from bot.render.samples import BUSY_NAMES, busy_oicho_view
    from games.core.cards import french_deck, kabu_deck, lukfu_deck

    faces = [cards.card_image(kabu) for kabu in kabu_deck(12)]
    faces += [cards.card_image(french, 48) for french in french_deck()]
    for lukfu in lukfu_deck():
        faces += [cards.card_image(lukfu, 84), cards.card_image(lukfu, 40)]
    faces += [cards.card_back("kabu"), cards.card_back("french", 48)]
    for face in faces:
        encode.paletted(face)
        encode.paletted_on(face, PANEL)
    for lang in ("ja", "en"):
        for phase in ("betting", "round_over"):
            compose_oicho_table(busy_oicho_view(phase), BUSY_NAMES, lang, paletted=True)


def _warm_bots() -> None:
    """Each game's bots decide once at every level, at a new table's first decision: the worker pool also runs the
    bots, and a strong bot's first decision in a process builds its tables (odds, reference figures, samplers),
    which the first real table's bot should not wait for (about a second, once per worker process; with threads
    the bot's own process builds them once, at the first decision)."""
    import random

    from games.core.rng import Shuffler
    from games.registry import LEVELS, all_games

    for spec in all_games().values():
        rules = spec.rules_model()
        low, _ = spec.seat_range(rules)
        engine = spec.engine(rules, [spec.starting_chips(rules)] * low, Shuffler(seed_source=lambda: "00" * 32))
        seat = min(engine.to_act())
        view, legal = engine.view(seat), engine.legal_actions(seat)
        for level in LEVELS:
            spec.policies[level](view, legal, random.Random(0))


WORKER_NICENESS = 10
"""How much lower a worker process's CPU priority is than the bot's: when both want a core, the event loop (clicks,
commits) goes first and a picture is drawn a moment later, never the other way round."""
BOT_WORKER_NICENESS = 19
"""The bots' worker processes yield to the pictures as well: a member waits for the picture of their turn, while a
bot's decision is worked out during its pace, and a busy queue makes the bots search less rather than move late
(``bot.tables.autoplay.effort``)."""


def _start_worker(with_bots: bool = True) -> None:
    """A render worker process starts: lower its priority, then warm up (the pictures, then the bots when they
    decide here too, having no pool of their own)."""
    _lower_priority(WORKER_NICENESS)
    _warm_quietly()
    if with_bots:
        _warm_bots_quietly()


def _start_bot_worker() -> None:
    """A bots' worker process starts: lower its priority, then warm every game's bots."""
    _lower_priority(BOT_WORKER_NICENESS)
    _warm_bots_quietly()


def _lower_priority(niceness: int) -> None:
    try:
        os.nice(niceness)
    except OSError:  # not allowed here: it works at the bot's priority
        log.warning("could not lower a worker process's priority")


def _warm_bots_quietly() -> None:
    try:
        _warm_bots()
    except Exception:  # a bot that cannot warm up still decides (slowly the first time)
        log.exception("warming up the bots in a worker failed")


def _warm_quietly() -> None:
    try:
        _warm()
    except Exception:  # a worker that cannot warm up still renders (slowly the first time)
        log.exception("warming up a render worker failed")


async def warm_up() -> None:
    """Pay the cold-start cost (font loading, card faces: ~50–150 ms) on the render pool at start-up,
    instead of on the first table's interaction (worker processes warm themselves as they start). The bots' workers
    are set starting too, without waiting for them: they warm their bots while the tables are restored, rather than
    after the first restored table's bot asks them for a move."""
    if _bots is not None:
        for _ in range(_thinkers):
            _bots.submit(_started)
    await asyncio.get_running_loop().run_in_executor(_executor, _warm_quietly)


def _started() -> None:
    """Nothing: a call that makes the pool start a worker process (which warms up as it starts)."""
