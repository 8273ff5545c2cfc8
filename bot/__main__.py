"""``python -m bot``: run Fudaba with the token from the environment or ``.env``.

A missing, malformed or refused token ends the program with one line saying what to set and where (and a
non-zero exit status), never a traceback.
"""

from __future__ import annotations

import logging
import re
import signal
import sys
from pathlib import Path

import discord
from pydantic import ValidationError

from bot.app import create_bot
from bot.config import Settings
from bot.instance import claim
from bot.shards import ShardConfigError
from bot.storage.dialect import is_postgres_url

TOKEN_SHAPE = re.compile(r"[A-Za-z0-9_-]{20,}\.[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{20,}")
"""A bot token is three base64url parts joined by dots (the bot's id, a timestamp, an HMAC)."""
WHERE = "set it in the environment or in a .env file next to where you run the bot (see .env.example)"


def fail(message: str) -> int:
    print(f"fudaba: {message}", file=sys.stderr)
    return 2


def main() -> int:
    try:
        settings = Settings()  # the token comes from the environment (pydantic-settings)
    except ValidationError as exc:
        errors = exc.errors()
        if any(e["type"] == "missing" and e["loc"] == ("discord_token",) for e in errors):
            return fail(
                f"DISCORD_TOKEN is not set: {WHERE}. Copy it from your application's Bot page in the "
                "Discord developer portal."
            )
        first = errors[0]
        name = ".".join(str(part) for part in first["loc"]).upper()
        return fail(f"{name} is not valid ({first['msg']}): {WHERE}.")
    token = settings.discord_token.get_secret_value().strip()
    if not TOKEN_SHAPE.fullmatch(token):
        return fail(
            f"DISCORD_TOKEN does not look like a bot token (three parts joined by dots): {WHERE}. Copy it "
            "from your application's Bot page in the Discord developer portal."
        )
    try:
        shards = settings.shards()
    except ShardConfigError as exc:
        return fail(f"{exc}: {WHERE}.")
    logging.basicConfig(level=settings.log_level, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    if not is_postgres_url(settings.database) and settings.database != ":memory:":
        Path(settings.database).parent.mkdir(parents=True, exist_ok=True)
    # The data directory keeps this process's identity as the driver of its tables, so that after a crash the
    # restarted bot carries on with them at once rather than when their leases run out (bot.instance).
    owner = claim(Path(settings.database_path).parent)
    bot = create_bot(
        settings.database,
        sync_commands=settings.sync_commands,
        dev_guild_id=settings.dev_guild_id,
        render_processes=settings.render_processes,
        bot_processes=settings.bot_processes,
        tune_process=True,
        shards=shards,
        owner=owner,
    )
    # ``docker stop`` (and compose) sends SIGTERM: close as on Ctrl-C, giving the table leases back, so that the
    # process started next takes its tables at once rather than when the leases run out.
    signal.signal(signal.SIGTERM, signal.default_int_handler)
    try:
        bot.run(token, log_handler=None)
    except discord.LoginFailure:
        print(
            "fudaba: Discord refused DISCORD_TOKEN (it may have been reset): copy the current token from your "
            f"application's Bot page in the Discord developer portal and {WHERE}.",
            file=sys.stderr,
        )
        return 1
    except discord.PrivilegedIntentsRequired:
        print(
            "fudaba: Discord refused a privileged intent; Fudaba needs none, so check that this is its token.",
            file=sys.stderr,
        )
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
