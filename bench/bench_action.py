"""Bot-side cost of one game action, as a ratio against a trivial handler timed in the same run.

Both are real button clicks through SimCord's in-memory Discord and discord.py's dispatch, so the
ratio isolates what Fudaba adds per action: the engine step, saving the record, rebuilding the
private panel and the (coalesced) public table edit with its render.

    python bench/bench_action.py [clicks]
"""

from __future__ import annotations

import asyncio
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import discord
import simcord
import simcord.env

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.app import create_bot
from bot.storage import Database

simcord.env.Env._settle_internal.__kwdefaults__["idle"] = 0.001


class Noop(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"bench:noop"):
    """The baseline: a button whose handler only answers by editing its message."""

    def __init__(self) -> None:
        super().__init__(discord.ui.Button(label="noop", custom_id="bench:noop"))

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: Any, match: re.Match[str]) -> Noop:
        return cls()

    async def callback(self, interaction: discord.Interaction) -> None:
        await interaction.response.edit_message(content="ok")


async def main(clicks: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        db = await Database.open(str(Path(tmp) / "bench.db"))
        bot = create_bot(db, edit_interval=0.0)
        bot.add_dynamic_items(Noop)
        async with simcord.run(bot) as env:
            guild = env.create_guild()
            channel = guild.create_text_channel("tables")
            alice = guild.add_member(env.create_user("alice"))
            bob = guild.add_member(env.create_user("bob"))
            await alice.slash(channel, "play", game="oicho", practice=True)
            lobby = channel.last_message
            await bob.click(lobby, label="Join")
            await alice.click(lobby, label="Start")
            table = next(iter(bot.tables.tables.values()))
            seat = min(table.engine.to_act())
            member = alice if table.seats[seat].user_id == alice.id else bob
            panel = await member.click(channel.history()[-1], custom_id=f"fdb:{table.id}:t:hand")
            deal = table.engine.deal_no
            bet, clear = f"fdb:{table.id}:{deal}:a:bet~1~1", f"fdb:{table.id}:{deal}:a:clear"
            channel_api = bot.get_channel(channel.id)
            view = discord.ui.View(timeout=None)
            view.add_item(Noop())
            noop_message = await channel_api.send("baseline", view=view)

            async def timed(message: Any, custom_id: str) -> float:
                start = time.perf_counter()
                await member.click(message, custom_id=custom_id)
                return time.perf_counter() - start

            baseline: list[float] = []
            action: list[float] = []
            message = panel.response
            for _ in range(clicks):
                baseline.append(await timed(noop_message, "bench:noop"))
                start = time.perf_counter()
                result = await member.click(message, custom_id=bet)
                message = result.response
                action.append(time.perf_counter() - start)
                result = await member.click(message, custom_id=clear)
                message = result.response
            b, a = statistics.median(baseline), statistics.median(action)
            print(f"clicks: {clicks}")
            print(f"trivial handler: median {b * 1000:.2f} ms")
            print(f"game action (bet): median {a * 1000:.2f} ms")
            print(f"game action / trivial handler: {a / b:.2f}x")
        await db.close()


if __name__ == "__main__":
    asyncio.run(main(int(sys.argv[1]) if len(sys.argv) > 1 else 40))
