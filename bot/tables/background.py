"""Side tasks whose failure is only worth a log line (remembering a panel's token, rebuilding a table)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable
from typing import Any

log = logging.getLogger(__name__)


class Background:
    def __init__(self) -> None:
        self._tasks: set[asyncio.Task[Any]] = set()

    def spawn(self, coroutine: Awaitable[Any], what: str) -> asyncio.Task[None]:
        async def run() -> None:
            try:
                await coroutine
            except Exception:
                log.exception("%s failed", what)

        task = asyncio.create_task(run())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    def cancel(self) -> None:
        for task in list(self._tasks):
            task.cancel()
