"""This process's lasting identity as the driver of tables: the owner named in their leases.

A table's lease (:mod:`bot.storage.leases`) names the process that drives it. A process with a new identity at each
start would, after a crash (no leases given back), wait for its own old leases to run out before driving its tables
again. So the identity lasts: it is kept in ``instance.id`` in the bot's data directory and reused by the next
process started there. Two live processes never share it: the process that uses it holds an exclusive lock on the
file (``flock``, released by the system when the process ends, however it ends), and a process that finds the file
locked (another bot running from the same directory, by mistake) takes a new identity of its own instead, so the
leases still keep the two apart.
"""

from __future__ import annotations

import fcntl
import logging
import os
import uuid
from pathlib import Path
from typing import IO

log = logging.getLogger(__name__)

ID_FILE = "instance.id"

_held: list[IO[str]] = []
"""The locked identity files of this process (kept open: closing one would give its lock away)."""


def claim(directory: str | os.PathLike[str]) -> str:
    """This process's lease owner id: the one kept in ``directory``, locked for the life of the process, or a new
    one when another live process holds it (or the directory cannot be used)."""
    path = Path(directory) / ID_FILE
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        handle = open(path, "a+", encoding="utf-8")  # noqa: SIM115  (held open, and locked, until the process ends)
    except OSError as exc:
        log.warning(
            "cannot keep an instance id in %s (%s); a restart after a crash waits for the old leases", path, exc
        )
        return uuid.uuid4().hex
    try:
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        handle.close()
        log.warning("another bot process runs from %s: this one takes an identity of its own", path.parent)
        return uuid.uuid4().hex
    handle.seek(0)
    owner = handle.read().strip()
    if not owner:
        owner = uuid.uuid4().hex
        handle.seek(0)
        handle.truncate()
        handle.write(owner + "\n")
        handle.flush()
        os.fsync(handle.fileno())
    _held.append(handle)
    return owner


def release_all() -> None:
    """Give up the identities held (for tests; a process simply ends)."""
    while _held:
        _held.pop().close()
