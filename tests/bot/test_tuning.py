"""The process settings the bot applies once it is ready (bot.tuning): measured in bench/bench_capacity.py, checked
here so that they are not lost."""

from __future__ import annotations

import gc
import sys

from bot.tuning import SWITCH_INTERVAL, YOUNG_THRESHOLD, tune_process


def test_tuning_freezes_the_heap_collects_young_objects_less_often_and_shortens_the_switch_interval() -> None:
    thresholds, interval = gc.get_threshold(), sys.getswitchinterval()
    try:
        tune_process()
        assert gc.get_freeze_count() > 0
        assert gc.get_threshold()[0] == YOUNG_THRESHOLD > thresholds[0]
        assert sys.getswitchinterval() == SWITCH_INTERVAL < interval
    finally:
        gc.unfreeze()
        gc.set_threshold(*thresholds)
        sys.setswitchinterval(interval)
