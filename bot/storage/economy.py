"""Guild configuration, wallets, dailies, grants, takes, gifts and leaderboards."""

# A statement request built but never awaited runs nothing: have mypy say so.
# mypy: enable-error-code="unused-awaitable"

from __future__ import annotations

import dataclasses
import json
import uuid
from typing import Any, Unpack

from bot.storage.core import Core, Leg
from bot.storage.errors import InvalidValue, StorageError
from bot.storage.models import (
    TABLE_PLACES,
    ConfigChanges,
    DailyClaim,
    GuildConfig,
    LeaderboardEntry,
    LeaderboardPage,
    Transfer,
    Wallet,
    dump_outcome,
    load_outcome,
)
from bot.storage.tx import All, Exec, One, Scalar

MAX_CHIPS = 1_000_000_000
# field → (low, high) for ints; allowed_channel_ids is bounded in length.
CONFIG_RANGES: dict[str, tuple[int, int]] = {
    "starting_balance": (0, MAX_CHIPS),
    "daily_amount": (0, MAX_CHIPS),
    "daily_cooldown_seconds": (60, 30 * 86400),
    "turn_timer_seconds": (10, 3600),
    "moderator_role_id": (1, 2**63 - 1),
    "bot_pace_ms": (0, 10_000),
    "correspondence_max_hours": (1, 168),
}
MAX_ALLOWED_CHANNELS = 100
_CONFIG_BOOLS = ("bots_play_for_chips", "give_enabled", "watch_delay")
MAX_PAGE = 100


def check_amount(amount: int) -> None:
    if isinstance(amount, bool) or not isinstance(amount, int) or not 1 <= amount <= MAX_CHIPS:
        raise InvalidValue(
            "storage.invalid_amount", f"amount must be 1–{MAX_CHIPS}, not {amount!r}", amount=amount, max=MAX_CHIPS
        )


def _check_page(offset: int, limit: int) -> None:
    if offset < 0 or not 1 <= limit <= MAX_PAGE:
        raise InvalidValue(
            "storage.invalid_page", f"bad page offset={offset} limit={limit}", offset=offset, limit=limit
        )


def _validate_config_change(field: str, value: object) -> Any:
    """The value to store for ``field`` (of that field's type in :class:`GuildConfig`), or :class:`InvalidValue` with
    a message code."""
    if field in _CONFIG_BOOLS:
        if not isinstance(value, bool):
            raise InvalidValue("storage.config_bad_type", f"{field} must be true or false", field=field, value=value)
        return value
    if field == "table_place":
        if value not in TABLE_PLACES:
            raise InvalidValue(
                "storage.config_bad_choice",
                f"{field} must be one of {TABLE_PLACES}",
                field=field,
                value=value,
                allowed=" / ".join(TABLE_PLACES),
            )
        return value
    if field == "allowed_channel_ids":
        ids = tuple(value) if isinstance(value, list | tuple | set | frozenset) else None
        if ids is None or any(isinstance(i, bool) or not isinstance(i, int) or i <= 0 for i in ids):
            raise InvalidValue("storage.config_bad_type", f"{field} must be a list of ids", field=field, value=value)
        if len(ids) > MAX_ALLOWED_CHANNELS:
            raise InvalidValue(
                "storage.config_out_of_range",
                f"at most {MAX_ALLOWED_CHANNELS} allowed channels",
                field=field,
                value=len(ids),
                lo=0,
                hi=MAX_ALLOWED_CHANNELS,
                allowed=f"0–{MAX_ALLOWED_CHANNELS}",
            )
        return tuple(sorted(set(ids)))
    if field not in CONFIG_RANGES:
        raise InvalidValue("storage.config_unknown_field", f"no config field {field!r}", field=field)
    if field == "moderator_role_id" and value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidValue("storage.config_bad_type", f"{field} must be a whole number", field=field, value=value)
    lo, hi = CONFIG_RANGES[field]
    if not lo <= value <= hi:
        raise InvalidValue(
            "storage.config_out_of_range",
            f"{field} must be {lo}–{hi}, not {value}",
            field=field,
            value=value,
            lo=lo,
            hi=hi,
            allowed=f"{lo}–{hi}",
        )
    return value


def _ranked(rows: list[Any], first_rank: int, offset: int, stats: bool = False) -> tuple[LeaderboardEntry, ...]:
    """Competition ranks for one ordered page, given the rank of its first row."""
    entries: list[LeaderboardEntry] = []
    for i, row in enumerate(rows):
        rank = first_rank if i == 0 else (entries[-1].rank if row[1] == entries[-1].value else offset + i + 1)
        entries.append(LeaderboardEntry(rank, row[0], row[1], row[2] if stats else None))
    return tuple(entries)


class EconomyOps(Core):
    # ------------------------------------------------------------------ guild configuration

    async def get_config(self, guild_id: int) -> GuildConfig:
        """The guild's settings (defaults when never set)."""
        return await self._read(lambda: self._config(guild_id))

    async def set_config(self, guild_id: int, *, actor_id: int, **changes: Unpack[ConfigChanges]) -> GuildConfig:
        """Change some settings after validating them; raises :class:`InvalidValue` (codes ``storage.config_*``)."""
        known = {f.name for f in dataclasses.fields(GuildConfig)} - {"guild_id", "updated_by", "updated_at"}
        for field in changes:
            if field not in known:
                raise InvalidValue("storage.config_unknown_field", f"no config field {field!r}", field=field)
        clean = {field: _validate_config_change(field, value) for field, value in changes.items()}

        async def tx(now: float) -> GuildConfig:
            config = dataclasses.replace(await self._config(guild_id), **clean, updated_by=actor_id, updated_at=now)
            await Exec(
                "INSERT INTO guild_config (guild_id, starting_balance, daily_amount, daily_cooldown_seconds,"
                " turn_timer_seconds, allowed_channel_ids, bots_play_for_chips, give_enabled, moderator_role_id,"
                " bot_pace_ms, table_place, correspondence_max_hours, updated_by, updated_at)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
                " ON CONFLICT (guild_id) DO UPDATE SET starting_balance = excluded.starting_balance,"
                " daily_amount = excluded.daily_amount, daily_cooldown_seconds = excluded.daily_cooldown_seconds,"
                " turn_timer_seconds = excluded.turn_timer_seconds, allowed_channel_ids = excluded.allowed_channel_ids,"
                " bots_play_for_chips = excluded.bots_play_for_chips, give_enabled = excluded.give_enabled,"
                " moderator_role_id = excluded.moderator_role_id, bot_pace_ms = excluded.bot_pace_ms,"
                " table_place = excluded.table_place, correspondence_max_hours = excluded.correspondence_max_hours,"
                " updated_by = excluded.updated_by, updated_at = excluded.updated_at",
                (
                    guild_id,
                    config.starting_balance,
                    config.daily_amount,
                    config.daily_cooldown_seconds,
                    config.turn_timer_seconds,
                    json.dumps(list(config.allowed_channel_ids)),
                    int(config.bots_play_for_chips),
                    int(config.give_enabled),
                    config.moderator_role_id,
                    config.bot_pace_ms,
                    config.table_place,
                    config.correspondence_max_hours,
                    actor_id,
                    now,
                ),
            )
            # Watching's delay (migration 0010), written on its own so the statement above stays as it was.
            await Exec(
                "UPDATE guild_config SET watch_delay = ? WHERE guild_id = ?", (int(config.watch_delay), guild_id)
            )
            return config

        return await self._transaction(tx)

    # ------------------------------------------------------------------ wallets

    async def ensure_member(self, guild_id: int, user_id: int) -> Wallet:
        """The member's wallet, created with the guild's starting credit on first use."""
        return await self._transaction(lambda now: self._ensure_wallet(guild_id, user_id, now))

    async def balance(self, guild_id: int, user_id: int) -> int:
        """The member's balance (creating the wallet on first use)."""
        return (await self.ensure_member(guild_id, user_id)).balance

    async def claim_daily(
        self, guild_id: int, user_id: int, *, now: float | None = None, key: str | None = None
    ) -> DailyClaim:
        """Credit the daily amount if the cooldown has passed; otherwise say how many seconds remain."""
        key = key or f"daily:{uuid.uuid4().hex}"

        async def tx(tx_now: float) -> DailyClaim:
            if (stored := await self._replayed(key, "daily")) is not None:
                return load_outcome(DailyClaim, stored)
            at = tx_now if now is None else now
            wallet = await self._ensure_wallet(guild_id, user_id, at)
            config = await self._config(guild_id)
            if wallet.last_daily_at is not None:
                remaining = wallet.last_daily_at + config.daily_cooldown_seconds - at
                if remaining > 0:
                    return DailyClaim(False, 0, wallet.balance, remaining)
            await Exec(
                "UPDATE wallets SET last_daily_at = ? WHERE guild_id = ? AND user_id = ?", (at, guild_id, user_id)
            )
            amount = config.daily_amount
            movement_id = await self._move(
                guild_id,
                "daily",
                key,
                [Leg("mint", -amount), Leg("wallet", amount, user_id=user_id)],
                at,
                actor_id=user_id,
            )
            result = DailyClaim(True, amount, wallet.balance + amount, 0.0)
            await self._set_outcome(movement_id, dump_outcome(result))
            return result

        return await self._transaction(tx)

    async def grant(
        self,
        guild_id: int,
        user_id: int,
        amount: int,
        *,
        actor_id: int,
        note: str | None = None,
        key: str | None = None,
    ) -> Transfer:
        """A moderator creates ``amount`` chips in the member's wallet."""
        return await self._mint_transfer("grant", guild_id, user_id, amount, actor_id, note, key)

    async def take(
        self,
        guild_id: int,
        user_id: int,
        amount: int,
        *,
        actor_id: int,
        note: str | None = None,
        key: str | None = None,
    ) -> Transfer:
        """A moderator removes ``amount`` chips; refused (:class:`InsufficientFunds`) beyond the balance."""
        return await self._mint_transfer("take", guild_id, user_id, amount, actor_id, note, key)

    async def _mint_transfer(
        self, reason: str, guild_id: int, user_id: int, amount: int, actor_id: int, note: str | None, key: str | None
    ) -> Transfer:
        check_amount(amount)
        key = key or f"{reason}:{uuid.uuid4().hex}"
        sign = 1 if reason == "grant" else -1

        async def tx(now: float) -> Transfer:
            if (stored := await self._replayed(key, reason)) is not None:
                return load_outcome(Transfer, stored)
            wallet = await self._ensure_wallet(guild_id, user_id, now)
            legs = [Leg("mint", -sign * amount), Leg("wallet", sign * amount, user_id=user_id)]
            movement_id = await self._move(guild_id, reason, key, legs, now, actor_id=actor_id, note=note)
            balance = wallet.balance + sign * amount
            result = Transfer(
                movement_id,
                key,
                reason,
                amount,
                sender_balance=balance if sign < 0 else None,
                recipient_balance=balance if sign > 0 else None,
            )
            await self._set_outcome(movement_id, dump_outcome(result))
            return result

        return await self._transaction(tx)

    async def give(
        self, guild_id: int, sender_id: int, recipient_id: int, amount: int, *, key: str | None = None
    ) -> Transfer:
        """Move chips between two members (only when the guild enables giving)."""
        check_amount(amount)
        if sender_id == recipient_id:
            raise InvalidValue("storage.self_transfer", "cannot give to yourself", user_id=sender_id)
        key = key or f"give:{uuid.uuid4().hex}"

        async def tx(now: float) -> Transfer:
            if (stored := await self._replayed(key, "give")) is not None:
                return load_outcome(Transfer, stored)
            if not (await self._config(guild_id)).give_enabled:
                raise StorageError("storage.give_disabled", "giving chips is disabled in this server")
            sender = await self._ensure_wallet(guild_id, sender_id, now)
            recipient = await self._ensure_wallet(guild_id, recipient_id, now)
            legs = [Leg("wallet", -amount, user_id=sender_id), Leg("wallet", amount, user_id=recipient_id)]
            # The debit is a conditional UPDATE: an overdraw raises InsufficientFunds and rolls back.
            movement_id = await self._move(guild_id, "give", key, legs, now, actor_id=sender_id)
            result = Transfer(movement_id, key, "give", amount, sender.balance - amount, recipient.balance + amount)
            await self._set_outcome(movement_id, dump_outcome(result))
            return result

        return await self._transaction(tx)

    async def house_balance(self, guild_id: int) -> int:
        """The guild's house account (negative when bots have been funded more than they returned)."""

        async def read() -> int:
            value = await Scalar(
                "SELECT balance FROM guild_accounts WHERE guild_id = ? AND kind = 'house'", (guild_id,)
            )
            return int(value or 0)

        return await self._read(read)

    # ------------------------------------------------------------------ leaderboards

    async def leaderboard(self, guild_id: int, *, offset: int = 0, limit: int = 10) -> LeaderboardPage:
        """Members by balance, highest first (ties by user id); bots never have wallets."""
        _check_page(offset, limit)

        async def read() -> LeaderboardPage:
            total = await Scalar("SELECT count(*) FROM wallets WHERE guild_id = ?", (guild_id,))
            rows = await All(
                "SELECT user_id, balance FROM wallets WHERE guild_id = ? ORDER BY balance DESC, user_id LIMIT ? OFFSET ?",
                (guild_id, limit, offset),
            )
            first = 1
            if rows:
                first += await Scalar(
                    "SELECT count(*) FROM wallets WHERE guild_id = ? AND balance > ?", (guild_id, rows[0][1])
                )
            return LeaderboardPage(_ranked(rows, first, offset), int(total), offset, limit)

        return await self._read(read)

    async def net_leaderboard(self, guild_id: int, game: str, *, offset: int = 0, limit: int = 10) -> LeaderboardPage:
        """Members by net chips won at ``game`` (settled deals at chip tables only)."""
        _check_page(offset, limit)

        async def read() -> LeaderboardPage:
            total = await Scalar("SELECT count(*) FROM player_stats WHERE guild_id = ? AND game = ?", (guild_id, game))
            rows = await All(
                "SELECT user_id, net, deals_played FROM player_stats WHERE guild_id = ? AND game = ?"
                " ORDER BY net DESC, user_id LIMIT ? OFFSET ?",
                (guild_id, game, limit, offset),
            )
            first = 1
            if rows:
                first += await Scalar(
                    "SELECT count(*) FROM player_stats WHERE guild_id = ? AND game = ? AND net > ?",
                    (guild_id, game, rows[0][1]),
                )
            return LeaderboardPage(_ranked(rows, first, offset, stats=True), int(total), offset, limit)

        return await self._read(read)

    async def rank(self, guild_id: int, user_id: int, *, game: str | None = None) -> LeaderboardEntry | None:
        """The member's place by balance, or by net at ``game``; None if they have no wallet / no deals."""

        async def read() -> LeaderboardEntry | None:
            if game is None:
                row = await One(
                    "SELECT balance, NULL FROM wallets WHERE guild_id = ? AND user_id = ?", (guild_id, user_id)
                )
                higher = "SELECT count(*) FROM wallets WHERE guild_id = ? AND balance > ?"
                params: tuple[Any, ...] = (guild_id,)
            else:
                row = await One(
                    "SELECT net, deals_played FROM player_stats WHERE guild_id = ? AND user_id = ? AND game = ?",
                    (guild_id, user_id, game),
                )
                higher = "SELECT count(*) FROM player_stats WHERE guild_id = ? AND game = ? AND net > ?"
                params = (guild_id, game)
            if row is None:
                return None
            above = await Scalar(higher, (*params, row[0]))
            return LeaderboardEntry(1 + above, user_id, row[0], row[1])

        return await self._read(read)
