"""Bot-side cost of one game action, as ratios against a trivial handler timed in the same run.

Both are real button clicks through SimCord's in-memory Discord and discord.py's dispatch. The trivial
handler answers by editing its own message; the game action is a bet or its withdrawal on an Oicho table,
alternating (so the table changes every time), and the render cache is emptied before each one, so every
action really redraws the table picture (a cache hit would make the drawing silently drop out).

Two figures per action, each against the trivial handler timed to the same point:

* **answered** — from the click until the clicker's answer is sent (the move checked, applied and written to the
  database in one transaction, the panel drawn once, then the interaction answered), against the trivial handler
  from its click until its own answer is sent: what the player waits for;
* **everything** — until all the work the click causes is done and the bot is idle again (SimCord's settling):
  for the action the answer, the public table message drawn and edited (one render), and the other players' open
  panels brought up to date; for the trivial handler, its answer.

Both "answered" times end where the bot's answer call returns, inside the bot, not when ``click`` returns: the
click also waits for the bot to fall idle, which would add the same idle wait to both sides and make the ratio
look better than it is.

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


ANSWERED_AT: list[float] = []
"""When the last click's answer was sent (``time.perf_counter``), by either the trivial handler or a table panel."""


class Noop(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"bench:noop"):
    """The baseline: a button whose handler only answers by editing its message."""

    def __init__(self) -> None:
        super().__init__(discord.ui.Button(label="noop", custom_id="bench:noop"))

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: Any, match: re.Match[str]) -> Noop:
        return cls()

    async def callback(self, interaction: discord.Interaction) -> None:
        await interaction.response.edit_message(content="ok")
        ANSWERED_AT.append(time.perf_counter())


def p(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def main(clicks: int, processes: bool) -> None:
    plain_answer = Panels.answer

    async def timed_answer(self: Panels, *args: Any, **kwargs: Any) -> None:
        await plain_answer(self, *args, **kwargs)
        ANSWERED_AT.append(time.perf_counter())

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
                # Tables in the channel itself: the thread form costs the same per move, once the table is open.
                await db.set_config(guild.id, actor_id=0, table_place="channel")
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

                async def timed_click(message: Any, custom_id: str) -> tuple[Any, float, float]:
                    """Click; the click's result, when its answer was sent and when it was all done (seconds)."""
                    ANSWERED_AT.clear()
                    start = time.perf_counter()
                    result = await member.click(message, custom_id=custom_id)
                    done = time.perf_counter() - start
                    assert len(ANSWERED_AT) == 1, f"{custom_id} answered {len(ANSWERED_AT)} times"
                    return result, ANSWERED_AT[0] - start, done

                baseline_answered: list[float] = []
                baseline_done: list[float] = []
                answered: list[float] = []
                everything: list[float] = []
                renders = bot.tables.public.renders
                for i in range(clicks):
                    _, until_answer, until_done = await timed_click(noop_message, "bench:noop")
                    baseline_answered.append(until_answer)
                    baseline_done.append(until_done)
                    runner.cache.clear()  # a real render for every action
                    custom_id = button(":a:bet~1~1" if i % 2 == 0 else ":a:clear")
                    result, until_answer, until_done = await timed_click(message, custom_id)
                    answered.append(until_answer)
                    everything.append(until_done)
                    message = result.response
                renders = bot.tables.public.renders - renders
                ba, bd = statistics.median(baseline_answered), statistics.median(baseline_done)
                a, e = statistics.median(answered), statistics.median(everything)

                def ms(values: list[float]) -> str:
                    return f"median {statistics.median(values) * 1000:.2f} ms, p90 {p(values, 0.9) * 1000:.2f} ms"

                print(
                    f"clicks: {clicks} (table redrawn {renders} times), rendering in "
                    f"{'a worker process' if processes else 'worker threads'}"
                )
                print(f"trivial handler, answered: {ms(baseline_answered)}")
                print(f"trivial handler, everything: {ms(baseline_done)}")
                print(f"game action, answered: {ms(answered)}")
                print(f"game action, everything (one real render): {ms(everything)}")
                print(f"one action, answered / trivial handler answered: {a / ba:.2f}x (goal <= 3x)")
                print(f"one action with the table redrawn / trivial handler: {e / bd:.2f}x")
        finally:  # an open connection's thread would keep the process alive after a failure
            await db.close()
    runner.shutdown()


if __name__ == "__main__":
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    asyncio.run(main(int(args[0]) if args else 60, "--processes" in sys.argv))
