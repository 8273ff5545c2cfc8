"""House rules stored as model dumps, with their audit trail."""

from __future__ import annotations

from typing import Any

from bot.storage import Database

GUILD = 10
MOD = 99


async def test_set_reset_and_audit(db: Database, clock: Any) -> None:
    assert await db.get_house_rules(GUILD, "oicho") is None  # the game's defaults
    first = {"arashi_multiplier": 3, "local_yaku": {"gogo": {"enabled": True, "multiplier": 2}}}
    await db.set_house_rule(GUILD, "oicho", first, actor_id=MOD, path="arashi_multiplier", old_value=2, new_value=3)
    clock.advance(10)
    second = {"arashi_multiplier": 3, "local_yaku": {"gogo": {"enabled": True, "multiplier": 4}}}
    await db.set_house_rule(
        GUILD, "oicho", second, actor_id=MOD + 1, path="local_yaku.gogo.multiplier", old_value=2, new_value=4
    )
    assert await db.get_house_rules(GUILD, "oicho") == second
    assert await db.get_house_rules(GUILD + 1, "oicho") is None
    assert await db.get_house_rules(GUILD, "lukfu") is None

    clock.advance(10)
    reset_one = {"arashi_multiplier": 2, "local_yaku": {"gogo": {"enabled": True, "multiplier": 4}}}
    await db.set_house_rule(
        GUILD, "oicho", reset_one, actor_id=MOD, path="arashi_multiplier", old_value=3, new_value=2, reset=True
    )
    clock.advance(10)
    await db.reset_house_rules(GUILD, "oicho", actor_id=MOD)
    assert await db.get_house_rules(GUILD, "oicho") is None

    history = await db.house_rule_history(GUILD, "oicho")
    assert [(c.path, c.old_value, c.new_value, c.reset, c.actor_id) for c in history] == [
        ("*", reset_one, None, True, MOD),
        ("arashi_multiplier", 3, 2, True, MOD),
        ("local_yaku.gogo.multiplier", 2, 4, False, MOD + 1),
        ("arashi_multiplier", 2, 3, False, MOD),
    ]
    assert history[0].at - history[-1].at == 30
    assert len(await db.house_rule_history(GUILD, limit=2)) == 2
    assert await db.house_rule_history(GUILD, "lukfu") == []
