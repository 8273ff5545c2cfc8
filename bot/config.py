"""Configuration from the environment (and a ``.env`` file): only the token is required."""

from __future__ import annotations

from pydantic import Field, SecretStr
from pydantic_settings import BaseSettings, SettingsConfigDict

from bot.shards import Shards, configure


class Settings(BaseSettings):
    """Process settings. Guild-level settings live in the database and are changed with ``/config``."""

    model_config = SettingsConfigDict(env_file=".env", env_file_encoding="utf-8", extra="ignore")

    discord_token: SecretStr = Field(description="The bot token from the Discord developer portal")
    database_url: str | None = Field(
        default=None,
        description="Where the data lives: postgresql://user:password@host:port/dbname for PostgreSQL, or a SQLite "
        "file path; unset: DATABASE_PATH",
    )
    database_path: str = Field(default="data/fudaba.db", description="SQLite database file (created if missing)")
    sync_commands: bool = Field(default=True, description="Register slash commands with Discord at start-up")
    dev_guild_id: int | None = Field(default=None, description="Also sync commands to this guild at once (testing)")
    log_level: str = Field(default="INFO")
    render_processes: int = Field(
        default=1,
        ge=0,
        le=16,
        description="Worker processes drawing table images (0: threads in the bot's process, fine for a few tables)",
    )
    bot_processes: int = Field(
        default=1,
        ge=0,
        le=16,
        description="Worker processes where bot players decide their moves, and hints and coaching notes are worked "
        "out (0: on the render workers)",
    )

    shard_count: int | None = Field(
        default=None,
        ge=1,
        description="Total number of Discord shards across all the bot's processes; unset: one unsharded process",
    )
    shard_ids: str | None = Field(
        default=None,
        description="The shards this process connects, like 0,1 or 0-3 (needs SHARD_COUNT); unset: all of them",
    )

    def shards(self) -> Shards | None:
        """The shards this process connects (None: unsharded); :class:`~bot.shards.ShardConfigError` when the
        settings do not make sense."""
        return configure(self.shard_count, self.shard_ids)

    @property
    def database(self) -> str:
        """What the storage opens: ``DATABASE_URL`` if set, else the SQLite file ``DATABASE_PATH``."""
        return self.database_url or self.database_path
