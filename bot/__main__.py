"""``python -m bot``: run Fudaba with the token from the environment or ``.env``."""

from __future__ import annotations

import logging
from pathlib import Path

from bot.app import create_bot
from bot.config import Settings


def main() -> None:
    settings = Settings()  # type: ignore[call-arg]  # the token comes from the environment
    logging.basicConfig(level=settings.log_level, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    if settings.database_path != ":memory:":
        Path(settings.database_path).parent.mkdir(parents=True, exist_ok=True)
    bot = create_bot(settings.database_path, sync_commands=settings.sync_commands, dev_guild_id=settings.dev_guild_id)
    bot.run(settings.discord_token.get_secret_value(), log_handler=None)


if __name__ == "__main__":
    main()
