"""Bot levels at the table: the host picks a bot's level in the lobby, every place that names a bot says its level,
the level survives a restart, each bot plays its own level and an away member is played by the strong one."""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from typing import Any

import pytest

import bot.tables.public
from bot.ui import bot_levels
from bot.ui.base import TableContext
from games.core.actions import Action, LegalAction
from games.registry import get_game
from tests.bot.conftest import LOCALES, make_bot
from tests.bot.tables.driver import buttons, live_table, table_message

NAMES_EN = ["alice", "🤖 Tanuki (easy)", "🤖 Kitsune (normal)", "🤖 Tengu (strong)"]
NAMES_JA = ["alice", "🤖 Tanuki（初級）", "🤖 Kitsune（中級）", "🤖 Tengu（上級）"]


def lobby_message(world: Any) -> Any:
    """The newest lobby message (one with a Join button, in either language)."""
    for message in reversed(world.channel.history()):
        if any(str(b.get("custom_id", "")).endswith(":lobby:join") for b in buttons(message)):
            return message
    raise AssertionError("no lobby message in the channel")


def lobby_fields(message: Any) -> dict[str, str]:
    return {f.name: f.value for f in message.embeds[0].fields}


async def _lobby_with_three_bots(
    world: Any, labels: Sequence[str] = ("Add easy bot", "Add bot", "Add strong bot")
) -> Any:
    await world.alice.slash(world.channel, "play", game="oicho", practice=True)
    lobby = lobby_message(world)
    for label in labels:
        added = await world.alice.click(lobby, label=label)
        assert not added.ephemeral, added.response
    return lobby_message(world)


async def test_the_host_adds_a_bot_of_each_level_and_the_lobby_says_which_and_what_each_level_is(world: Any) -> None:
    lobby = await _lobby_with_three_bots(world)
    fields = lobby_fields(lobby)
    assert fields["Players (4, 2–10)"].splitlines() == [f"{i + 1}. {n}" for i, n in enumerate(NAMES_EN)]
    levels = fields["Bot levels"].splitlines()
    assert [line.split(":")[0] for line in levels] == ["**Easy**", "**Normal**", "**Strong**"]
    assert "newcomer" in levels[0] and "Add bot" in levels[1] and "away members" in levels[2]
    # The level buttons sit together on a row of their own, the plain "Add bot" between the other two.
    labels = [b["label"] for b in buttons(lobby)]
    assert labels[-3:] == ["Add easy bot", "Add bot", "Add strong bot"]
    # Only the host adds bots: a member's press is refused privately and seats nobody.
    await world.bob.click(lobby, label="Join")
    refused = await world.bob.click(lobby_message(world), label="Add strong bot")
    assert refused.ephemeral and "host" in refused.response.content
    assert [s.level for s in live_table(world).seats if s.bot] == ["easy", "normal", "strong"]
    assert len(live_table(world).seats) == 5


async def test_the_japanese_lobby_names_the_levels_in_japanese(world: Any) -> None:
    LOCALES[world.alice.id] = "ja"
    lobby = await _lobby_with_three_bots(world, ("初級ボット追加", "ボット追加", "上級ボット追加"))
    fields = lobby_fields(lobby)
    assert fields["参加者（4人・2〜10人）"].splitlines() == [f"{i + 1}. {n}" for i, n in enumerate(NAMES_JA)]
    levels = fields["ボットのレベル"].splitlines()
    assert [line.split("：")[0] for line in levels] == ["**初級**", "**中級**", "**上級**"]
    assert "代打ち" in levels[2]


@pytest.mark.parametrize("lang", ["en", "ja"])
async def test_the_picture_the_narration_and_the_results_name_each_bots_level(
    world: Any, monkeypatch: pytest.MonkeyPatch, lang: str
) -> None:
    drawn: list[TableContext] = []
    plain = bot.tables.public.render_in_thread

    async def noting(fn: Any, view: Any, ctx: TableContext) -> bytes:
        drawn.append(ctx)
        return await plain(fn, view, ctx)

    monkeypatch.setattr(bot.tables.public, "render_in_thread", noting)
    if lang == "ja":
        LOCALES[world.alice.id] = "ja"
    names = NAMES_JA if lang == "ja" else NAMES_EN
    lobby = await _lobby_with_three_bots(
        world,
        ("初級ボット追加", "ボット追加", "上級ボット追加")
        if lang == "ja"
        else ("Add easy bot", "Add bot", "Add strong bot"),
    )
    await world.alice.click(lobby, label="開始" if lang == "ja" else "Start")
    table = live_table(world)
    # Alice does nothing: marked away, she is played for, and the deal ends by itself.
    title = "第1局の結果" if lang == "ja" else "Round 1 results"
    for _ in range(60):
        results = [e for m in world.channel.history() for e in m.embeds if e.title == title]
        if results:
            break
        await world.env.advance_time(61)
    assert results, "the first deal was never settled"
    described = results[0].description or ""
    described += "".join(f"{f.name}{f.value}" for f in results[0].fields)
    # The results name whoever won or lost chips (a child who pushed, or bet nothing, may not be listed): each bot
    # named there carries its level, and never appears bare.
    listed = [name for name in names[1:] if name in described]
    assert listed, described
    for name in names[1:]:
        bare = name.split(" (")[0].split("（")[0]
        assert described.count(bare) == described.count(name), (name, described)
    assert drawn and drawn[-1].names == names, "the picture draws each bot's name with its level"
    assert table.names() == names


async def test_a_bots_level_survives_restarts_in_the_lobby_and_at_the_table(
    world: Any, database: Any, clock: Any
) -> None:
    await _lobby_with_three_bots(world)
    await world.env.restart_bot(make_bot(database, clock))
    await world.bob.click(lobby_message(world), label="Join")  # the lobby is drawn again, from the database
    assert lobby_fields(lobby_message(world))["Players (5, 2–10)"].splitlines()[1:4] == [
        f"{i + 2}. {n}" for i, n in enumerate(NAMES_EN[1:])
    ]
    await world.alice.click(lobby_message(world), label="Start")
    await world.env.restart_bot(make_bot(database, clock))
    table = live_table(world)
    assert [s.level for s in table.seats if s.bot] == ["easy", "normal", "strong"]
    assert table.names()[1:4] == NAMES_EN[1:]
    assert table_message(world) is not None


async def test_each_bot_plays_its_own_level_and_an_away_member_the_strong_one(
    world: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    spec = get_game("oicho")
    played: list[tuple[str, int]] = []
    for level, policy in list(spec.policies.items()):

        def noting(
            view: Any,
            legal: Sequence[LegalAction],
            rng: random.Random,
            level: str = level,
            policy: Any = policy,
            **effort: float,  # the strong level's share of its search (what a busy process asks for)
        ) -> Action:
            played.append((level, view.seat))
            return policy(view, legal, rng, **effort)

        monkeypatch.setitem(spec.policies, level, noting)  # type: ignore[arg-type]
    lobby = await _lobby_with_three_bots(world)
    await world.alice.click(lobby, label="Start")
    table = live_table(world)
    for _ in range(40):
        if len({seat for _level, seat in played}) == 4:
            break
        await world.env.advance_time(61)
    assert any(s.away for s in table.seats if not s.bot), "alice was never marked away"
    by_seat: dict[int, set[str]] = {}
    for level, seat in played:
        by_seat.setdefault(seat, set()).add(level)
    assert by_seat == {0: {"strong"}, 1: {"easy"}, 2: {"normal"}, 3: {"strong"}}


@pytest.mark.parametrize("lang", ["en", "ja"])
async def test_the_lobby_quotes_each_levels_measured_strength(
    world: Any, monkeypatch: pytest.MonkeyPatch, tmp_path: Any, lang: str
) -> None:
    """What ``bench_bots.py --save`` wrote is what the lobby says; a level not measured is described in words only."""
    figures = {
        "games": {
            "oicho": {
                "easy": {"against": "random", "mean": 1.234, "half": 0.2, "deals": 10000},
                "strong": {"against": "normal", "mean": 0.42, "half": 0.05, "deals": 12000},
            }
        }
    }
    saved = tmp_path / "bot_strength.json"
    saved.write_text(json.dumps(figures), encoding="utf-8")
    monkeypatch.setattr(bot_levels, "STRENGTH_FILE", saved)
    bot_levels.measured.cache_clear()
    try:
        if lang == "ja":
            LOCALES[world.alice.id] = "ja"
        await world.alice.slash(world.channel, "play", game="oicho", practice=True)
        easy, normal, strong = lobby_fields(lobby_message(world))[
            "ボットのレベル" if lang == "ja" else "Bot levels"
        ].split("\n")
    finally:
        bot_levels.measured.cache_clear()
    if lang == "ja":
        assert easy.endswith("実測：ランダムに打つボット相手に1局あたり +1.23 ± 0.20 チップ（10,000局）。")
        assert strong.endswith("実測：中級ボット相手に1局あたり +0.42 ± 0.05 チップ（12,000局）。")
        assert "実測" not in normal
    else:
        assert easy.endswith("Measured: +1.23 ± 0.20 chips a deal against the random bot (10,000 deals).")
        assert strong.endswith("Measured: +0.42 ± 0.05 chips a deal against the normal bot (12,000 deals).")
        assert "Measured" not in normal
