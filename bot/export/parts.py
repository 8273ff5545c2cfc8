"""An export's files: blocks of text (a movement's rows, a deal's line) written to numbered parts on disk, each part
within a byte budget, a block never split between two parts; and the parts grouped into messages.

Nothing is kept in memory but the block being written: the parts live in a temporary folder until they are sent.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

MAX_FILES_PER_MESSAGE = 10
"""Discord's limit of attachments on one message."""


class BlockTooLarge(Exception):
    """One block alone is larger than a file may be."""

    def __init__(self, size: int, budget: int) -> None:
        super().__init__(f"a block of {size} bytes does not fit in a file of {budget} bytes")
        self.size = size
        self.budget = budget


def budget_for(upload_limit: int) -> int:
    """The most bytes a file (and a message's files together) may hold under the server's upload limit: a little
    less, for the request's own envelope."""
    return upload_limit - min(upload_limit // 20, 256 * 1024)


@dataclass(frozen=True)
class Part:
    path: Path
    name: str
    """The file's name as the member receives it."""
    size: int


class Parts:
    """Text written into ``folder`` as ``stem`` parts, each at most ``budget`` bytes; ``header`` begins every part
    (a CSV's column names)."""

    def __init__(self, folder: Path, stem: str, suffix: str, budget: int, header: str = "") -> None:
        self.folder = folder
        self.stem = stem
        self.suffix = suffix
        self.budget = budget
        self.header = header.encode("utf-8")
        self._paths: list[Path] = []
        self._sizes: list[int] = []
        self._file: BinaryIO | None = None
        self.blocks = 0

    def add(self, block: str) -> None:
        """Write one block, in the current part if it fits there, else in a new one."""
        data = block.encode("utf-8")
        if len(self.header) + len(data) > self.budget:
            raise BlockTooLarge(len(self.header) + len(data), self.budget)
        if self._file is None or self._sizes[-1] + len(data) > self.budget:
            self._new_part()
        assert self._file is not None
        self._file.write(data)
        self._sizes[-1] += len(data)
        self.blocks += 1

    def _new_part(self) -> None:
        if self._file is not None:
            self._file.close()
        path = self.folder / f"{self.stem}.{len(self._paths) + 1}.{self.suffix}"
        self._file = path.open("wb")
        self._file.write(self.header)
        self._paths.append(path)
        self._sizes.append(len(self.header))

    def close(self) -> list[Part]:
        """The parts written (none if no block was), named ``stem.suffix`` alone or ``stem-part1of3.suffix``."""
        if self._file is not None:
            self._file.close()
            self._file = None
        count = len(self._paths)
        return [
            Part(
                path,
                f"{self.stem}.{self.suffix}" if count == 1 else f"{self.stem}-part{n}of{count}.{self.suffix}",
                size,
            )
            for n, (path, size) in enumerate(zip(self._paths, self._sizes, strict=True), 1)
        ]


def messages(parts: list[Part], budget: int) -> list[list[Part]]:
    """The parts grouped into messages: at most :data:`MAX_FILES_PER_MESSAGE` files, and ``budget`` bytes, each."""
    groups: list[list[Part]] = []
    total = 0
    for part in parts:
        if not groups or len(groups[-1]) >= MAX_FILES_PER_MESSAGE or total + part.size > budget:
            groups.append([])
            total = 0
        groups[-1].append(part)
        total += part.size
    return groups
