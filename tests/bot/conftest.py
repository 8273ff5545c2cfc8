"""Fixtures for driving the real bot through SimCord's in-memory Discord."""

from __future__ import annotations

import os
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

import discord
import pytest
import pytest_asyncio
import simcord
import simcord.env
import simcord.interactions

from bot.app import create_bot
from bot.storage import Database

# SimCord polls ~50 ms after each ephemeral reply; a 1 ms idle poll keeps the suite fast and stable.
simcord.env.Env._settle_internal.__kwdefaults__["idle"] = 0.001

LOCALES: dict[int, str] = {}
"""Per-user Discord locale for the next interactions (SimCord always sends en-US otherwise)."""

_original_base_payload = simcord.interactions.base_payload


def _base_payload(*args: Any, **kwargs: Any) -> Any:
    record, payload = _original_base_payload(*args, **kwargs)
    locale = LOCALES.get(int(kwargs.get("user_id", 0)))
    if locale:
        payload["locale"] = locale
        if "guild_locale" in payload:
            payload["guild_locale"] = locale
    return record, payload


simcord.interactions.base_payload = _base_payload


class FakeClock:
    """Wall-clock seconds the bot reads (daily cooldowns, message ages); tests move it by hand."""

    def __init__(self, start: float = 1_800_000_000.0) -> None:
        self.now = start

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


BOT_DATABASE = os.environ.get("FUDABA_BOT_DATABASE", "sqlite")
"""Where the bot tests keep their data by default: ``sqlite`` (a file), or ``postgresql`` to run the whole bot
suite on the session's PostgreSQL server (``FUDABA_BOT_DATABASE=postgresql python -m pytest tests/bot``)."""


def _backend(request: pytest.FixtureRequest) -> str:
    return str(getattr(request, "param", BOT_DATABASE))


@pytest.fixture(autouse=True)
def _postgresql_started(request: pytest.FixtureRequest) -> None:
    """The PostgreSQL server, started (synchronously, before any async fixture) when this test's bot needs it."""
    if "database" in request.fixturenames:
        callspec = getattr(request.node, "callspec", None)
        backend = callspec.params.get("database", BOT_DATABASE) if callspec is not None else BOT_DATABASE
        if backend == "postgresql":
            request.getfixturevalue("pg")


@pytest_asyncio.fixture
async def database(request: pytest.FixtureRequest, tmp_path: Any, clock: FakeClock) -> AsyncIterator[Database]:
    """The bot's database: an SQLite file, or a database of its own on the session's real PostgreSQL server
    (``tests/conftest.py``) for a test parametrized ``("database", ["postgresql"], indirect=True)`` or when
    ``FUDABA_BOT_DATABASE=postgresql``."""
    if _backend(request) == "postgresql":
        pg = request.getfixturevalue("pg")
        name = await pg.create()
        try:
            db = await Database.open(pg.url(name), clock=clock)
            db.test_target = pg.url(name)  # type: ignore[attr-defined]  # another "process" opens it too
            try:
                yield db
            finally:
                await db.close()
        finally:
            await pg.drop(name)
        return
    db = await Database.open(str(tmp_path / "fudaba.db"), clock=clock)
    db.test_target = str(tmp_path / "fudaba.db")  # type: ignore[attr-defined]
    try:
        yield db
    finally:
        await db.close()


def make_bot(database: Database, clock: FakeClock, **options: Any) -> Any:
    """The bot under test: no edit window, no edit budget (tested on its own, in real time: SimCord's virtual clock
    only moves when a test lets it) and bots moving at once (``bot_pace=None``: each server's pace)."""
    settings: dict[str, Any] = {
        "edit_interval": 0.0,
        "lobby_timeout": 900.0,
        "bot_pace": 0.0,
        "edits_per_second": 0.0,
        **options,
    }
    return create_bot(database, clock=clock, **settings)


@pytest_asyncio.fixture
async def simcord_bot(database: Database, clock: FakeClock) -> AsyncIterator[Any]:
    bot = make_bot(database, clock)
    yield bot
    LOCALES.clear()


@dataclass
class World:
    env: simcord.Env
    guild: Any
    channel: Any
    alice: Any
    bob: Any
    carol: Any
    mod: Any
    place: str = "channel"
    """Where ``/play`` opens tables in this world: ``channel`` (most tests) or ``thread`` (the server's default)."""


@pytest.fixture
async def world(simcord_env: simcord.Env, database: Database, request: pytest.FixtureRequest) -> World:
    """A server with a tables channel, three members and a moderator. Tables open in the channel itself unless the
    test is marked ``@pytest.mark.place("thread")`` (the server's default), so the channel's history reads as the
    table's; the thread journeys have tests of their own."""
    guild = simcord_env.create_guild("Card Club")
    channel = guild.create_text_channel("tables")
    mods = guild.create_role("Mods", permissions=discord.Permissions(manage_guild=True))
    alice = guild.add_member(simcord_env.create_user("alice"))
    bob = guild.add_member(simcord_env.create_user("bob"))
    carol = guild.add_member(simcord_env.create_user("carol"))
    mod = guild.add_member(simcord_env.create_user("mod"), roles=[mods])
    marker = request.node.get_closest_marker("place")
    place = str(marker.args[0]) if marker is not None else "channel"
    if place != "thread":
        await database.set_config(guild.id, actor_id=mod.id, table_place="channel")
    return World(simcord_env, guild, channel, alice, bob, carol, mod, place)
