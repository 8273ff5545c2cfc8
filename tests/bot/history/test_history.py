"""``/history`` and replays through SimCord, as members meet them.

Every picture a replay draws and every own view it writes is checked against the table replayed independently from
its full record (``db.full_record`` and :func:`games.replay.replay`, not the replay's own tape): the picture comes
from the public view at that step and shows no card hidden from an onlooker, the own view is the presser's seat's
and shows no card hidden from them, and a member who did not sit gets no own view at all. The last step is the
final state: its picture is the public view right after the move that ended the deal, and its result is the one the
deal's public results message gave.
"""

from __future__ import annotations

import dataclasses
import random
from dataclasses import dataclass, field
from typing import Any

import discord
import pytest

from bot.storage.replays import HistoryQueries
from bot.ui import adapters, ui_for
from games.core.engine import Engine, iter_cards
from games.core.events import DealStarted
from games.core.record import TableRecord
from games.registry import get_game
from games.replay import start
from tests.bot.conftest import make_bot
from tests.bot.tables.any_game import play_any_game
from tests.bot.tables.driver import buttons, forge_click

# ---------------------------------------------------------------------------- spying on what replays draw


@dataclass
class Drawn:
    pictures: list[Any] = field(default_factory=list)
    """Each view a replay picture was drawn from."""
    own: list[tuple[int, Any]] = field(default_factory=list)
    """Each (seat, view) a replay's own-view text was written from."""


def spy(monkeypatch: Any) -> Drawn:
    """Note every view the replay draws or writes (they run in the render pool's threads in tests)."""
    import bot.history.replay as replay

    drawn = Drawn()
    plain_frame = replay.frame

    def frame(game: str, tape: Any, index: int, seat: int | None, ctx: Any) -> Any:
        shown = plain_frame(game, tape, index, seat, ctx)
        drawn.pictures.append(shown.view)
        return shown

    monkeypatch.setattr(replay, "frame", frame)
    for ui in adapters().values():
        cls = type(ui)
        plain_panel = cls.panel

        def panel(self: Any, view: Any, seat: int, legal: Any, ctx: Any, state: Any, _plain: Any = plain_panel) -> Any:
            drawn.own.append((seat, view))  # (the game is over: only replays draw panels now)
            return _plain(self, view, seat, legal, ctx, state)

        monkeypatch.setattr(cls, "panel", panel)
    return drawn


# ---------------------------------------------------------------------------- the truth, replayed independently


class Truth:
    """The table replayed from its full record, one action at a time."""

    def __init__(self, record: TableRecord) -> None:
        self.record = record
        self.spec = get_game(record.game)

    def engine_after(self, actions: int) -> Engine[Any]:
        head = TableRecord(
            game=self.record.game,
            rules=self.record.rules,
            stacks=list(self.record.stacks),
            seats=list(self.record.seats),
            shuffles=list(self.record.shuffles),
        )
        engine = start(head, stub_missing=True)
        for seat, text in self.record.actions[:actions]:
            engine.apply(seat, self.spec.codec.parse(text))
        return engine

    def deal_begins(self, deal: int) -> int:
        """How many actions had been played when ``deal`` began."""
        engine = start(
            TableRecord(
                game=self.record.game,
                rules=self.record.rules,
                stacks=list(self.record.stacks),
                shuffles=list(self.record.shuffles),
            ),
            stub_missing=True,
        )
        if any(isinstance(e, DealStarted) and e.deal == deal for e in engine.drain_events()):
            return 0
        for n, (seat, text) in enumerate(self.record.actions, 1):
            if any(
                isinstance(e, DealStarted) and e.deal == deal for e in engine.apply(seat, self.spec.codec.parse(text))
            ):
                return n
        raise AssertionError(f"deal {deal} never began")


async def truth_of(world: Any, table_id: int) -> Truth:
    text = await world.env.bot.db.full_record(table_id)
    assert text is not None
    return Truth(TableRecord.loads(text))


def hidden_in(view: Any, engine: Engine[Any], seat: int | None) -> set[str]:
    return {str(c) for c in engine.hidden_from(seat).intersection(iter_cards(view))}


# ---------------------------------------------------------------------------- reading what a member sees


def embeds(message: Any) -> list[dict[str, Any]]:
    return [e.to_dict() for e in message.embeds]


def step_of(message: Any) -> tuple[int, int]:
    """(step shown, last step) from the ⏮ button's id and the ⏭ button's state."""
    ids = {b["custom_id"].rsplit(":", 1)[1]: b for b in buttons(message)}
    step = int(ids["f"]["custom_id"].split(":")[5])
    return step, int(ids["l"].get("disabled", False))


def menu(message: Any) -> dict[str, Any]:
    found = [
        item
        for row in message.components
        for item in (row.get("components", []) if isinstance(row, dict) else [])
        if item.get("type") == 3
    ]
    assert len(found) == 1
    return found[0]


async def open_from_history(member: Any, world: Any, whose: Any | None = None, game: str | None = None) -> Any:
    options: dict[str, Any] = {}
    if whose is not None:
        options["member"] = whose
    if game is not None:
        options["game"] = game
    listed = await member.slash(world.channel, "history", **options)
    assert listed.ephemeral and listed.response is not None
    return listed.response


async def step_to_the_end(member: Any, message: Any) -> list[Any]:
    """Press ▶ until it is disabled; every message shown on the way (step 0 first)."""
    seen = [message]
    while True:
        nxt = next(b for b in buttons(message) if b["custom_id"].endswith(":n"))
        if nxt.get("disabled"):
            return seen
        pressed = await member.click(message, custom_id=nxt["custom_id"])
        assert pressed.response is not None and pressed.response.id == message.id
        message = pressed.response
        seen.append(message)


def results_message(world: Any, table_id: int, deal: int) -> Any:
    for message in world.channel.history(viewer=world.carol):
        for b in buttons(message):
            if b.get("custom_id") == f"fdb:hist:o:{table_id}:{deal}":
                return message
    raise AssertionError(f"no results message with a Replay button for deal {deal}")


def check_steps(drawn: Drawn, truth: Truth, deal: int, last: int, seat: int | None, *, pictures_from: int = 0) -> None:
    """Every picture drawn since ``pictures_from`` is the public view at its step (steps 0..last in order), showing
    no hidden card; every own view is ``seat``'s and hides what the rules hide from it; the last is the final state."""
    begins = truth.deal_begins(deal)
    pictures = drawn.pictures[pictures_from:]
    assert len(pictures) == last + 1
    for step, view in enumerate(pictures):
        engine = truth.engine_after(begins + step)
        assert view == engine.public_view(), f"step {step}: the picture is not the public view of that step"
        assert not hidden_in(view, engine, None), f"step {step}: the picture shows a hidden card"
    final = truth.engine_after(begins + last)
    assert pictures[-1] == final.public_view(), "the last step is the state right after the deal ended"
    assert any(r.deal == deal for r in final.results) and not any(
        r.deal == deal for r in truth.engine_after(begins + last - 1).results
    )
    for own_seat, view in drawn.own:
        assert seat is not None, "a member who did not sit got an own view"
        assert own_seat == seat, "an own view of another seat was written"
        engine_views = [truth.engine_after(begins + s).view(seat) for s in range(last)]
        assert view in engine_views
        step = engine_views.index(view)
        assert not hidden_in(view, truth.engine_after(begins + step), seat)


async def check_kept_starts(db: Any, table_id: int, deals: list[int]) -> None:
    """Each deal a move began kept its start as it was played; its replay reads from there (that deal's log rows
    only) and steps exactly as a walk of the table's whole log from its opening does."""
    from bot.history.replay import build

    queries = HistoryQueries(db)
    kept = await queries.kept_starts(table_id)
    assert kept == sorted(d for d in deals if d > 1), "every deal after the first began with a move"
    opening = await queries.replay_source(table_id, min(deals))
    assert opening is not None
    whole = dataclasses.replace(opening, origin=opening.table.opening or "", origin_seq=0, origin_deal=0)
    log = await db.table_log(table_id)
    for deal in kept:
        source = await queries.replay_source(table_id, deal)
        assert source is not None and source.origin_deal == deal
        assert all(entry.seq > source.origin_seq for entry in source.rows)
        walked, _ = build(dataclasses.replace(whole, hand=source.hand, rows=tuple(log)))
        tape, found = build(source)
        assert found == [], "a kept start is not walked past"
        assert tape.actions == walked.actions
        assert tape.engine_at(tape.last).public_view() == walked.engine_at(walked.last).public_view()


# ---------------------------------------------------------------------------- the tests


@pytest.mark.parametrize("game_id", sorted(adapters()))
async def test_history_and_a_replay_stepped_to_the_end_for_every_game(
    world: Any, monkeypatch: Any, game_id: str
) -> None:
    members = (world.alice, world.bob)
    table = await play_any_game(world, game_id, random.Random(f"history:{game_id}"), members=members, bots=1)
    db = world.env.bot.db
    hands = await db.table_history(table.id, limit=1000)
    assert hands
    truth = await truth_of(world, table.id)
    alice_seat = table.seat_of(world.alice.id)
    await check_kept_starts(db, table.id, [h.deal_no for h in hands])

    # /history: newest first, Alice's result in each line.
    listed = await open_from_history(world.alice, world)
    [embed] = embeds(listed)
    lines = embed["description"].split("\n")
    newest = hands[: len(lines)]
    assert len(lines) == min(10, len(hands))
    for line, hand in zip(lines, newest, strict=True):
        assert f"#{table.id}" in line and f"{hand.deal_no}" in line
        assert f"**{hand.deltas[alice_seat]:+,}**" in line
    options = [o["value"] for o in menu(listed)["options"]]
    assert options == [f"{table.id}.{h.deal_no}" for h in newest]

    # Alice opens the newest deal and steps it to the end: what she saw, her own hand, the result.
    drawn = spy(monkeypatch)
    deal = newest[0].deal_no
    opened = await world.alice.select(listed, [f"{table.id}.{deal}"])
    replay = opened.response
    assert replay is not None and replay.ephemeral
    assert replay.ephemeral
    seen = await step_to_the_end(world.alice, replay)
    last = len(seen) - 1
    check_steps(drawn, truth, deal, last, alice_seat)
    assert drawn.own, "a seated member reads their own view"
    final = embeds(seen[-1])
    assert len(final) == 2, "the last step adds the deal's result"
    public_result = results_message(world, table.id, deal).embeds[0].to_dict()
    assert final[1]["title"] == public_result["title"] and final[1].get("fields") == public_result.get("fields")
    for message in seen:
        assert message.attachments and message.attachments[0].filename == "replay.png"
        assert sum(len(e) for e in message.embeds) <= 6000, "within Discord's limit for a message's embeds"
        assert all(len(o["label"]) <= 100 for o in menu(message)["options"]) and len(menu(message)["options"]) <= 25

    # Carol did not sit: Alice's history, the same deal, only what was public (no own view, a footer that says so).
    drawn.pictures.clear()
    drawn.own.clear()
    carol_list = await open_from_history(world.carol, world, whose=world.alice)
    opened = await world.carol.select(carol_list, [f"{table.id}.{deal}"])
    carol_replay = opened.response
    assert carol_replay is not None and carol_replay.ephemeral
    seen = await step_to_the_end(world.carol, carol_replay)
    check_steps(drawn, truth, deal, len(seen) - 1, None)
    assert drawn.own == [] and "did not sit" in embeds(seen[0])[0]["footer"]["text"]
    assert all(len(embeds(m)[0].get("fields", [])) == 0 for m in seen[:-1])

    # Bob opens the first deal from its results message: his own view only.
    drawn.pictures.clear()
    drawn.own.clear()
    first = hands[-1].deal_no
    pressed = await world.bob.click(results_message(world, table.id, first), custom_id=f"fdb:hist:o:{table.id}:{first}")
    bob_replay = pressed.response
    assert bob_replay is not None and bob_replay.ephemeral
    seen = await step_to_the_end(world.bob, bob_replay)
    check_steps(drawn, truth, first, len(seen) - 1, table.seat_of(world.bob.id))


async def test_a_replay_steps_on_after_a_restart_and_keeps_deal_starts(
    world: Any, monkeypatch: Any, database: Any, clock: Any
) -> None:
    members = (world.alice, world.bob)
    table = await play_any_game(world, "oicho", random.Random("history:restart"), members=members, bots=1)
    hands = await database.table_history(table.id, limit=1000)
    deal = hands[0].deal_no
    # Every deal begun by a move kept its start as the move was written (the first began with the table).
    assert await HistoryQueries(database).kept_starts(table.id) == list(range(2, deal + 1))
    # A table from before deal starts were kept: a replay walks the log from the opening.
    async with database._write():
        await database._exec("DELETE FROM deal_starts WHERE table_id = ?", (table.id,))
    listed = await open_from_history(world.alice, world)
    opened = await world.alice.select(listed, [f"{table.id}.{deal}"])
    replay = opened.response
    assert replay is not None and replay.ephemeral
    # The first replay walked the log from the opening, and kept every deal start it passed.
    assert await HistoryQueries(database).kept_starts(table.id) == list(range(1, deal + 1))
    await world.env.restart_bot(make_bot(database, clock))
    drawn = spy(monkeypatch)
    truth = await truth_of(world, table.id)
    seen = await step_to_the_end(world.alice, replay)
    assert len(seen) > 1
    begins = truth.deal_begins(deal)
    for step, view in enumerate(drawn.pictures, 1):
        assert view == truth.engine_after(begins + step).public_view()
    # The menu of key moments jumps back, after the restart too.
    moments = [int(o["value"]) for o in menu(seen[-1])["options"]]
    assert moments[0] == 0 and moments[-1] == len(seen) - 1
    jumped = await world.alice.select(seen[-1], [str(moments[1])])
    assert jumped.response is not None and step_of(jumped.response)[0] == moments[1]


async def test_another_members_hands_stay_hidden_and_forged_ids_are_refused(world: Any, monkeypatch: Any) -> None:
    members = (world.alice, world.bob)
    table = await play_any_game(world, "luk_fu", random.Random("history:refusals"), members=members, bots=1)
    hands = await world.env.bot.db.table_history(table.id, limit=1000)
    deal = hands[0].deal_no
    drawn = spy(monkeypatch)
    alice_list = await open_from_history(world.alice, world)
    assert alice_list.ephemeral
    # Carol presses a list of Alice's (she cannot see Alice's private one: a forged copy): refused.
    refused = await forge_click(world, world.carol, f"fdb:hist:l:{world.alice.id}:{world.alice.id}:all:0:n")
    assert refused.response is not None and "only work on your own private" in refused.response.content
    # Nothing in an id chooses whose cards are shown: Carol's replay of Alice's deal has no own view.
    opened = await forge_click(world, world.carol, f"fdb:hist:o:{table.id}:{deal}")
    carol_replay = opened.response
    assert carol_replay is not None and carol_replay.ephemeral
    await step_to_the_end(world.carol, carol_replay)
    assert drawn.pictures and drawn.own == []
    # Ids that do not fit, deals that were not settled, steps that do not exist.
    for custom_id, said in (
        ("fdb:hist:x", "not one of the history's"),
        (f"fdb:hist:o:{table.id}:{deal + 50}", "was not settled in this server"),
        (f"fdb:hist:o:{table.id + 1000}:1", "was not settled in this server"),
    ):
        answer = await forge_click(world, world.carol, custom_id)
        text = answer.response.content if answer.response is not None else answer.followups[0].content
        assert said in text, (custom_id, text)
    # A deal of this server asked for from another server: refused.
    other = world.env.create_guild("Other Club")
    elsewhere = other.create_text_channel("elsewhere")
    stranger = other.add_member(world.env.create_user("stranger"))
    view = discord.ui.View(timeout=None)
    view.add_item(discord.ui.Button(label="forged", custom_id=f"fdb:hist:o:{table.id}:{deal}"))
    posted = await world.env.bot.get_channel(elsewhere.id).send("forged", view=view)
    answer = await stranger.click(posted, custom_id=f"fdb:hist:o:{table.id}:{deal}")
    assert answer.response is not None and "was not settled in this server" in answer.response.content
    # A replay's buttons pressed on a public message: refused, nothing edited.
    answer = await forge_click(world, world.alice, f"fdb:hist:r:{table.id}:{deal}:0:n")
    assert answer.response is not None and "only work on your own private" in answer.response.content


async def test_history_is_empty_for_a_member_who_never_played(world: Any) -> None:
    answer = await world.carol.slash(world.channel, "history")
    assert answer.response is not None and answer.ephemeral
    assert "no settled deals" in answer.response.content


async def test_history_in_japanese(world: Any) -> None:
    from tests.bot.conftest import LOCALES

    members = (world.alice, world.bob)
    table = await play_any_game(world, "hachi_hachi", random.Random("history:ja"), members=members, bots=1)
    LOCALES[world.alice.id] = "ja"
    listed = await open_from_history(world.alice, world)
    assert "の局" in embeds(listed)[0]["title"] and "卓" in embeds(listed)[0]["description"]
    hands = await world.env.bot.db.table_history(table.id, limit=5)
    opened = await world.alice.select(listed, [f"{table.id}.{hands[0].deal_no}"])
    replay = opened.response
    assert replay is not None and replay.ephemeral
    assert "リプレイ" in embeds(replay)[0]["title"]
    assert {b["label"] for b in buttons(replay)} == {"最初", "戻る", "次へ", "結果"}
    assert discord.utils.find(lambda o: "配られた直後" in o["label"], menu(replay)["options"])
    assert ui_for("hachi_hachi") is not None


async def test_a_table_stored_before_the_log_replays_from_its_whole_record(
    world: Any, monkeypatch: Any, database: Any
) -> None:
    """A table that ended before the log existed kept one whole record (``opening`` NULL, no log rows): its deals
    replay from it, to the same final state, and no start is kept (there is no log to resume from)."""
    members = (world.alice, world.bob)
    table = await play_any_game(world, "ofc", random.Random("history:prelog"), members=members, bots=1)
    truth = await truth_of(world, table.id)
    whole = truth.record.dumps()
    async with database._write():
        await database._exec("DELETE FROM table_log WHERE table_id = ?", (table.id,))
        await database._exec("DELETE FROM deal_starts WHERE table_id = ?", (table.id,))
        await database._exec("UPDATE tables SET opening = NULL, record = ? WHERE id = ?", (whole, table.id))
    hands = await database.table_history(table.id, limit=1000)
    deal = hands[len(hands) // 2].deal_no
    drawn = spy(monkeypatch)
    opened = await forge_click(world, world.alice, f"fdb:hist:o:{table.id}:{deal}")
    replay = opened.response
    assert replay is not None and replay.ephemeral
    seen = await step_to_the_end(world.alice, replay)
    check_steps(drawn, truth, deal, len(seen) - 1, table.seat_of(world.alice.id))
    assert await HistoryQueries(database).kept_starts(table.id) == []


async def test_history_pages_newest_first_and_filters_by_game(world: Any) -> None:
    members = (world.alice, world.bob)
    db = world.env.bot.db
    every: list[Any] = []
    played = 0
    while len(every) <= 12 or played < 2:
        game = ("oicho", "luk_fu")[played % 2]
        table = await play_any_game(world, game, random.Random(f"pages:{played}"), members=members, bots=1)
        every += await db.table_history(table.id, limit=1000)
        played += 1
    every.sort(key=lambda h: h.id, reverse=True)
    first = await open_from_history(world.alice, world)

    def listed(message: Any) -> list[str]:
        return [o["value"] for o in menu(message)["options"]]

    def nav(message: Any, verb: str) -> dict[str, Any]:
        return next(b for b in buttons(message) if b["custom_id"].endswith(f":{verb}"))

    assert listed(first) == [f"{h.table_id}.{h.deal_no}" for h in every[:10]]
    assert nav(first, "p").get("disabled") and not nav(first, "n").get("disabled")
    second = (await world.alice.click(first, custom_id=nav(first, "n")["custom_id"])).response
    assert second is not None and second.id == first.id
    assert listed(second) == [f"{h.table_id}.{h.deal_no}" for h in every[10:20]]
    back = (await world.alice.click(second, custom_id=nav(second, "p")["custom_id"])).response
    assert back is not None and listed(back) == listed(first)
    # One game only.
    only = await open_from_history(world.alice, world, game="luk_fu")
    assert listed(only) == [f"{h.table_id}.{h.deal_no}" for h in every if h.game == "luk_fu"][:10]
    assert "Luk Fu" in embeds(only)[0]["title"]
