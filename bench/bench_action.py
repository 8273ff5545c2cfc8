"""Bot-side cost of one game action, as ratios against a trivial handler timed in the same run.

Both are real button clicks through SimCord's in-memory Discord and discord.py's dispatch. The trivial
handler answers by editing its own message; the game action is a bet or its withdrawal on an Oicho table,
alternating (so the table changes every time), and the render cache is emptied before each one, so every
action really redraws the table picture (a cache hit would make the drawing silently drop out).

Two figures per action:

* **answered** — until the clicker's panel answer is sent (the move checked, applied and written to the
  database in one transaction, the panel drawn once): what the player waits for;
* **everything** — until all the work the action causes is done: the answer, the public table message drawn
  and edited (one render), and the other players' open panels brought up to date.

    python bench/bench_action.py [clicks] [--processes]
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
from bot.render import runner
from bot.storage import Database
from bot.tables.panels import Panels

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


def p(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def main(clicks: int, processes: bool) -> None:
    answered_at: list[float] = []
    plain_answer = Panels.answer

    async def timed_answer(self: Panels, *args: Any, **kwargs: Any) -> None:
        await plain_answer(self, *args, **kwargs)
        answered_at.append(time.perf_counter())

    Panels.answer = timed_answer  # type: ignore[method-assign]
    with tempfile.TemporaryDirectory() as tmp:
        db = await Database.open(str(Path(tmp) / "bench.db"))
        try:
            # No request budget: the clicks come back to back in SimCord's virtual time, where no time passes to refill
            # it (the bot would wait for Discord's rate, which is not the cost of an action).
            bot = create_bot(
                db, edit_interval=0.0, bot_pace=0.0, render_processes=1 if processes else 0, edits_per_second=0
            )
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
                engine = table.engine
                seat = min(engine.to_act())
                member = alice if table.seats[seat].user_id == alice.id else bob
                result = await member.click(channel.history()[-1], custom_id=f"fdb:{table.id}:t:hand")
                message = result.response
                channel_api = bot.get_channel(channel.id)
                view = discord.ui.View(timeout=None)
                view.add_item(Noop())
                noop_message = await channel_api.send("baseline", view=view)

                def button(prefix: str) -> str:
                    return next(
                        c["custom_id"]
                        for row in message.components
                        for c in row["components"]
                        if c.get("custom_id", "").endswith(prefix)
                    )

                baseline: list[float] = []
                answered: list[float] = []
                everything: list[float] = []
                renders = bot.tables.public.renders
                for i in range(clicks):
                    start = time.perf_counter()
                    await member.click(noop_message, custom_id="bench:noop")
                    baseline.append(time.perf_counter() - start)
                    runner.cache.clear()  # a real render for every action
                    custom_id = button(":a:bet~1~1" if i % 2 == 0 else ":a:clear")
                    answered_at.clear()
                    start = time.perf_counter()
                    result = await member.click(message, custom_id=custom_id)
                    everything.append(time.perf_counter() - start)
                    answered.append(answered_at[0] - start)
                    message = result.response
                renders = bot.tables.public.renders - renders
                b, a, e = statistics.median(baseline), statistics.median(answered), statistics.median(everything)
                print(
                    f"clicks: {clicks} (table redrawn {renders} times), rendering in "
                    f"{'a worker process' if processes else 'worker threads'}"
                )
                print(f"trivial handler: median {b * 1000:.2f} ms, p90 {p(baseline, 0.9) * 1000:.2f} ms")
                print(f"game action, answered: median {a * 1000:.2f} ms, p90 {p(answered, 0.9) * 1000:.2f} ms")
                print(
                    f"game action, everything (one real render): median {e * 1000:.2f} ms, "
                    f"p90 {p(everything, 0.9) * 1000:.2f} ms"
                )
                print(f"one action, answered / trivial handler: {a / b:.2f}x (goal <= 3x)")
                print(f"one action with the table redrawn / trivial handler: {e / b:.2f}x")
        finally:  # an open connection's thread would keep the process alive after a failure
            await db.close()
    runner.shutdown()


if __name__ == "__main__":
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    asyncio.run(main(int(args[0]) if args else 60, "--processes" in sys.argv))
