"""Process settings for a bot holding many tables.

**The cycle collector.** CPython's cycle collector stops the whole process while it scans; with a thousand tables in
memory a full scan takes tens of milliseconds, which every click then waits for. After start-up (the tables
restored), everything alive is moved out of the collector's sight (``gc.freeze``), and young collections are made
rarer: measured with ``bench/bench_capacity.py``, this halves the p99 of a click at 1,000 busy tables.

**The interpreter lock's switch interval.** The event loop gives up the interpreter lock whenever it calls into
SQLite or the network, and the bot's other threads (the database connections' threads, the render pool's manager)
take it meanwhile. A thread that holds it keeps it until it blocks or the switch interval runs out, so getting it back
could cost the loop up to the default 5 ms: at 1,000 busy tables, about half of the slowest clicks' time was spent
waiting for it. With 1 ms, the click p99 there fell from about 1.5× the one-table figure to about 1.0×
(``bench/bench_capacity.py``, the same run's baseline); the threads' own work is not slowed measurably by switching
more often.
"""

from __future__ import annotations

import gc
import sys

YOUNG_THRESHOLD = 50_000
SWITCH_INTERVAL = 0.001
"""Seconds a thread may hold the interpreter lock while another waits for it (CPython's default: 0.005)."""


def tune_process() -> None:
    """Freeze what start-up built, collect young objects less often, and let the event loop have the interpreter lock
    back sooner (call once the bot is ready)."""
    gc.collect()
    gc.freeze()
    _, middle, old = gc.get_threshold()
    gc.set_threshold(YOUNG_THRESHOLD, middle, old)
    sys.setswitchinterval(SWITCH_INTERVAL)
