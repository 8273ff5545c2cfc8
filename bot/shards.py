"""Which guilds this process serves, when the bot runs as several processes over one database.

Discord splits a bot's guilds into shards: guild ``g`` is on shard ``(g >> 22) % shard_count``. Each process
connects some of the shards (``SHARD_COUNT`` and ``SHARD_IDS``) and drives only the tables of guilds on them
(interactions only arrive for those anyway); leases in the database (:mod:`bot.storage.leases`) make sure that
even two processes configured with the same shards never drive one table together. Unset, one process connects
the whole bot unsharded, as it always did.
"""

from __future__ import annotations

from dataclasses import dataclass


class ShardConfigError(ValueError):
    """``SHARD_COUNT``/``SHARD_IDS`` do not make sense; the message says why, in one line."""


def shard_of(guild_id: int, shard_count: int) -> int:
    """The shard Discord puts a guild on (its documented formula)."""
    return (guild_id >> 22) % shard_count


@dataclass(frozen=True)
class Shards:
    """The shards this process connects: ``ids`` out of ``count``."""

    count: int
    ids: tuple[int, ...]

    def owns(self, guild_id: int) -> bool:
        """Whether the guild is on one of this process's shards (its tables are this process's to drive)."""
        return shard_of(guild_id, self.count) in self.ids

    def __str__(self) -> str:
        return f"shards {','.join(map(str, self.ids))} of {self.count}"


def owns(shards: Shards | None, guild_id: int) -> bool:
    """Whether this process serves the guild: always when unsharded (``shards`` None)."""
    return shards is None or shards.owns(guild_id)


def parse_ids(text: str) -> list[int]:
    """``"0,1"``, ``"0-3"``, ``"0-1,4"`` → the ids in the order given (duplicates kept: :func:`configure` refuses
    them)."""
    ids: list[int] = []
    for part in text.replace(" ", "").split(","):
        if not part:
            raise ShardConfigError(f"SHARD_IDS {text!r} has an empty item: write ids like 0,1 or a range like 0-3")
        low, dash, high = part.partition("-")
        try:
            first, last = int(low), int(high) if dash else int(low)
        except ValueError:
            raise ShardConfigError(f"SHARD_IDS {text!r}: {part!r} is not a shard id or a range like 0-3") from None
        if last < first:
            raise ShardConfigError(f"SHARD_IDS {text!r}: the range {part!r} runs backwards")
        ids.extend(range(first, last + 1))
    return ids


def configure(shard_count: int | None, shard_ids: str | None) -> Shards | None:
    """The shards from the settings, or None for one unsharded process (both unset). ``SHARD_COUNT`` alone
    connects every shard in this one process. Raises :class:`ShardConfigError` with a one-line reason."""
    if shard_count is None:
        if shard_ids is not None and shard_ids.strip():
            raise ShardConfigError(
                "SHARD_IDS is set but SHARD_COUNT is not: set SHARD_COUNT to the total number "
                "of shards across all the bot's processes"
            )
        return None
    if shard_count < 1:
        raise ShardConfigError(f"SHARD_COUNT must be at least 1, not {shard_count}")
    if shard_ids is None or not shard_ids.strip():
        return Shards(shard_count, tuple(range(shard_count)))
    ids = parse_ids(shard_ids)
    outside = sorted({i for i in ids if not 0 <= i < shard_count})
    if outside:
        raise ShardConfigError(
            f"SHARD_IDS {shard_ids!r} names shard {outside[0]}, but with SHARD_COUNT={shard_count} "
            f"the shards are 0 to {shard_count - 1}"
        )
    seen: set[int] = set()
    twice = sorted({i for i in ids if i in seen or seen.add(i)})  # type: ignore[func-returns-value]
    if twice:
        raise ShardConfigError(f"SHARD_IDS {shard_ids!r} names shard {twice[0]} more than once")
    return Shards(shard_count, tuple(sorted(ids)))
