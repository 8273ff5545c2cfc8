"""``/export`` through SimCord, as moderators and members meet it.

Every file is read as the member received it. A hands export's every line is replayed by ``python -m games replay``
(its main function, and once as a subprocess) to the deltas stored when the deal was settled; a member's own export
is checked against each table replayed independently from its full record: only events the member could see, only
their own moves and views, and none of the cards hidden from them that they never saw.
"""

from __future__ import annotations

import json
import pickle
import random
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import discord
import pytest

from bot.history.replay import context
from bot.ui import adapters, ui_for
from games.__main__ import main as games_main
from games.core.record import TableRecord
from games.core.snapshot import decode
from tests.bot.conftest import LOCALES
from tests.bot.export.helpers import Truth, cards_of, export, is_subsequence
from tests.bot.tables.any_game import play_any_game

ROOT = Path(__file__).resolve().parents[3]
DAY = 86400.0


async def all_hands(db: Any, table_id: int) -> list[Any]:
    return sorted(await db.table_history(table_id, limit=100_000), key=lambda h: h.deal_no)


def replay_lines(tmp_path: Path, capsys: Any, lines: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """``python -m games replay`` (its main function) on the lines as a file: what it printed, one per line."""
    path = tmp_path / "hands.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    capsys.readouterr()
    assert games_main(["replay", str(path)]) == 0, capsys.readouterr().err
    return [json.loads(line) for line in capsys.readouterr().out.splitlines()]


def run_replay(path: Path) -> subprocess.CompletedProcess[str]:
    """``python -m games replay FILE`` as a moderator runs it on a file received."""
    return subprocess.run(
        [sys.executable, "-m", "games", "replay", str(path)], capture_output=True, text=True, cwd=ROOT, check=False
    )


async def check_own_line(db: Any, line: dict[str, Any], seat: int) -> int:
    """One line of ``/export mine`` against the table replayed from its full record; how many cards of the deal
    stayed hidden from the member (the check had something to catch)."""
    table = await db.get_table(line["table"])
    full = await db.full_record(table.id)
    truth = Truth(TableRecord.loads(full))
    seen = truth.seen_by(line["deal"], seat)
    events = [decode(e) for e in line["events"]]
    assert all(e.visible_to(seat) for e in events), "an event the member could not see"
    assert is_subsequence(events, [e for e in seen.events if e.visible_to(seat)])
    assert [e for e in events if e.public] == [e for e in seen.events if e.public], "every public event, in order"
    assert line["own_moves"] == [text for actor, text in seen.actions if actor == seat]
    ui, ctx = ui_for(table.game), context(table, "en")
    for shown in line["own_views"]:
        view = seen.views[shown["step"]]
        assert shown["view"] == ui.panel(view, seat, [], ctx, {}).text, "the member's own view at that step"
        assert seat == line["seat"]
    steps = [shown["step"] for shown in line["own_views"]]
    assert steps[0] == 0 and steps == sorted(set(steps))
    shown_cards = cards_of(events) | set().union(*(cards_of(v) for v in (seen.views[s] for s in steps)))
    assert not shown_cards & seen.never, f"hidden cards in the member's export: {shown_cards & seen.never}"
    assert shown_cards <= seen.seen
    assert "record" not in line and "members" not in line
    return len(seen.never)


def through_pickles(monkeypatch: Any) -> list[str]:
    """The worker pool as it is in production (processes): what goes there and back is pickled."""
    import bot.render.runner as runner

    sent: list[str] = []

    async def off_loop(fn: Any, *args: Any) -> Any:
        sent.append(fn.__qualname__)
        return pickle.loads(pickle.dumps(fn(*pickle.loads(pickle.dumps(args)))))

    monkeypatch.setattr(runner, "off_loop", off_loop)
    return sent


@pytest.mark.parametrize("game_id", sorted(adapters()))
async def test_hands_and_own_exports_of_every_game(
    world: Any, tmp_path: Path, capsys: Any, monkeypatch: Any, game_id: str
) -> None:
    sent = through_pickles(monkeypatch)
    members = (world.alice, world.bob)
    table = await play_any_game(world, game_id, random.Random(f"export:{game_id}"), members=members, bots=1)
    db = world.env.bot.db
    hands = await all_hands(db, table.id)
    assert hands

    # The moderator's export: one full record per settled deal, each replaying to its stored deltas.
    full = await export(world.mod, world, "hands")
    assert full.result.response is not None and len(full.files) == 1
    lines = full.lines()
    assert [(x["table"], x["deal"]) for x in lines] == [(table.id, h.deal_no) for h in hands]
    assert [x["result"]["deltas"] for x in lines] == [list(h.deltas) for h in hands]
    assert f"{len(hands)} settled deals" in full.text and "every seat's cards" in full.text
    printed = replay_lines(tmp_path, capsys, lines)
    assert [(p["deal"], p["deltas"], p["matches"]) for p in printed] == [
        (h.deal_no, list(h.deltas), True) for h in hands
    ]
    assert sent and set(sent) == {"build"}, "the deals were replayed off the event loop"

    # Alice's own export: her deals, only what she could see.
    mine = await export(world.alice, world, "mine")
    own = mine.lines()
    seat = table.seat_of(world.alice.id)
    assert [(x["table"], x["deal"], x["seat"]) for x in own] == [(table.id, h.deal_no, seat) for h in hands]
    assert [x["result"]["deltas"] for x in own] == [list(h.deltas) for h in hands]
    never = 0
    for line in own:
        never += await check_own_line(db, line, seat)
    if game_id != "oicho":  # every other game deals hands the others never see
        assert never > 0, "the privacy check had no hidden card to look for"
    # The full records do hold those cards: only the moderator's export may.
    assert "own_moves" not in lines[0] and lines[0]["record"]["actions"]
    # A member's own line cannot be replayed, and says why.
    path = tmp_path / "mine.jsonl"
    path.write_bytes(mine.files[0][1])
    capsys.readouterr()
    assert games_main(["replay", str(path)]) == 1
    assert "own view of a deal" in capsys.readouterr().err


@pytest.mark.parametrize("database", ["sqlite", "postgresql"], indirect=True)
async def test_ledger_and_hands_over_periods_and_the_replay_command(world: Any, tmp_path: Path, clock: Any) -> None:
    db = world.env.bot.db
    first = await play_any_game(world, "oicho", random.Random("export:p1"), members=(world.alice, world.bob), bots=1)
    clock.advance(3 * DAY)
    second = await play_any_game(
        world, "hachi_hachi", random.Random("export:p2"), members=(world.alice, world.carol), bots=1
    )
    await db.grant(world.guild.id, world.bob.id, 5, actor_id=world.mod.id, note="=SUM(A1)")

    # The whole ledger: one row per leg, every movement whole, summing to zero, as stored.
    whole = await export(world.mod, world, "ledger")
    assert len(whole.files) == 1 and whole.files[0][0].endswith(".csv")
    rows = whole.rows()
    assert sum(int(r["delta"]) for r in rows) == 0
    by_movement: Counter[str] = Counter()
    for r in rows:
        by_movement[r["movement"]] += int(r["delta"])
    assert set(by_movement.values()) == {0}
    stored = await db._all(
        "SELECT l.movement_id, m.reason, l.account, l.user_id, l.seat_id, l.delta FROM ledger l"
        " JOIN movements m ON m.id = l.movement_id WHERE l.guild_id = ? ORDER BY l.id",
        (world.guild.id,),
    )
    got = Counter(
        (int(r["movement"]), r["kind"], r["account"], r["member"] or None, r["seat"] or None, int(r["delta"]))
        for r in rows
    )
    want = Counter(
        (
            s["movement_id"],
            s["reason"],
            s["account"],
            str(s["user_id"]) if s["user_id"] is not None else None,
            str(s["seat_id"]) if s["seat_id"] is not None else None,
            s["delta"],
        )
        for s in stored
    )
    assert got == want and len(rows) == len(stored)
    assert f"{len(stored):,} legs" in whole.text
    granted = [r for r in rows if r["kind"] == "grant"]
    assert granted and granted[0]["note"] == "'=SUM(A1)", "a note that reads as a formula is kept as text"
    assert all(r["table"] == str(second.id) for r in rows if r["account"] == "pot")

    # A period: the days of the second game only; then up to the first game's day.
    day1 = "2027-01-15"  # the test clock's first day (1_800_000_000 is 2027-01-15 08:00 UTC)
    day2 = "2027-01-18"
    later = await export(world.mod, world, "ledger", **{"from": day2})
    later_rows = later.rows()
    assert later_rows and sum(int(r["delta"]) for r in later_rows) == 0
    assert {r["time"][:10] for r in later_rows} == {day2}
    assert len(later_rows) < len(rows)
    early = await export(world.mod, world, "hands", to=day1)
    assert {x["table"] for x in early.lines()} == {first.id}
    both = await export(world.mod, world, "hands", **{"from": day1, "to": day2})
    assert {x["table"] for x in both.lines()} == {first.id, second.id}
    nothing = await export(world.mod, world, "hands", **{"from": "2027-02-01"})
    assert nothing.files == [] and "No deal was settled in that period" in nothing.text

    # python -m games replay, as a moderator would run it on the file received.
    path = tmp_path / both.files[0][0]
    path.write_bytes(both.files[0][1])
    done = run_replay(path)
    assert done.returncode == 0, done.stderr
    printed = [json.loads(line) for line in done.stdout.splitlines()]
    stored_hands = [h for t in (first, second) for h in await all_hands(db, t.id)]
    assert [(p["table"], p["deal"], p["deltas"]) for p in printed] == [
        (h.table_id, h.deal_no, list(h.deltas)) for h in stored_hands
    ]
    # A line changed by hand no longer matches its stored result: the command says so and fails.
    tampered = both.lines()
    tampered[0]["result"]["deltas"] = [d + 1 for d in tampered[0]["result"]["deltas"]]
    path.write_text("".join(json.dumps(x) + "\n" for x in tampered), encoding="utf-8")
    done = run_replay(path)
    assert done.returncode == 1 and "line 1" in done.stderr and "stored result" in done.stderr
    assert len(done.stdout.splitlines()) == len(tampered) - 1


async def test_a_members_export_holds_only_their_own_deals(world: Any) -> None:
    db = world.env.bot.db
    with_alice = await play_any_game(world, "oicho", random.Random("mine:1"), members=(world.alice, world.bob), bots=1)
    without = await play_any_game(world, "oicho", random.Random("mine:2"), members=(world.bob, world.carol), bots=1)
    alice = (await export(world.alice, world, "mine")).lines()
    assert {x["table"] for x in alice} == {with_alice.id}
    assert [x["deal"] for x in alice] == [h.deal_no for h in await all_hands(db, with_alice.id)]
    assert all(x["format"] == "fudaba.own_hand/1" and "record" not in x for x in alice)
    bob = (await export(world.bob, world, "mine")).lines()
    assert [(x["table"], x["seat"]) for x in bob] == [
        *((with_alice.id, with_alice.seat_of(world.bob.id)) for _ in await all_hands(db, with_alice.id)),
        *((without.id, without.seat_of(world.bob.id)) for _ in await all_hands(db, without.id)),
    ]
    nobody = await export(world.mod, world, "mine")
    assert nobody.files == [] and "No deal was settled" in nobody.text


def spy_defers(monkeypatch: Any) -> list[dict[str, Any]]:
    """Every ``defer`` the bot makes, with its arguments."""
    calls: list[dict[str, Any]] = []
    plain = discord.InteractionResponse.defer

    async def defer(self: Any, **options: Any) -> Any:
        calls.append(options)
        return await plain(self, **options)

    monkeypatch.setattr(discord.InteractionResponse, "defer", defer)
    return calls


@pytest.mark.parametrize("kind", ["ledger", "hands"])
async def test_members_are_refused_the_servers_ledger_and_hands(world: Any, monkeypatch: Any, kind: str) -> None:
    await play_any_game(world, "oicho", random.Random("refuse"), members=(world.alice, world.bob), bots=1)
    defers = spy_defers(monkeypatch)
    refused = await export(world.alice, world, kind)
    assert refused.files == [] and "Only moderators can do that" in refused.text
    assert defers == [], "refused at once, before any slow work"
    LOCALES[world.alice.id] = "ja"
    refused = await export(world.alice, world, kind)
    assert refused.files == [] and "モデレーターのみ" in refused.text
    # A member with the moderator role may; the reply is deferred (privately) before the export is written.
    allowed = await export(world.mod, world, kind)
    assert allowed.files and defers == [{"ephemeral": True, "thinking": True}]


async def test_bad_days_are_refused_plainly(world: Any, monkeypatch: Any) -> None:
    defers = spy_defers(monkeypatch)
    for options, said in (
        ({"from": "2027-13-01"}, "`2027-13-01` is not a day for `from`"),
        ({"to": "yesterday"}, "`yesterday` is not a day for `to`"),
        ({"from": "2027/01/15"}, "write it as YYYY-MM-DD"),
        ({"from": "2027-02-01", "to": "2027-01-31"}, "The last day (2027-01-31) comes before the first day"),
    ):
        answer = await export(world.mod, world, "ledger", **options)
        assert answer.files == [] and said in answer.text, (options, answer.text)
    mine = await export(world.alice, world, "mine", to="31-01-2027")
    assert "is not a day for `to`" in mine.text
    LOCALES[world.mod.id] = "ja"
    answer = await export(world.mod, world, "hands", **{"from": "2027-02-30"})
    assert "YYYY-MM-DD の形で書いてください" in answer.text and answer.files == []
    assert defers == [], "refused at once"


async def test_a_small_upload_limit_splits_the_files_into_parts(world: Any) -> None:
    db = world.env.bot.db
    table = await play_any_game(world, "luk_fu", random.Random("split"), members=(world.alice, world.bob), bots=1)
    cog = world.env.bot.get_cog("ExportCog")
    whole_ledger = (await export(world.mod, world, "ledger")).rows()
    whole_hands = (await export(world.mod, world, "hands")).lines()
    biggest = max(len(json.dumps(x, ensure_ascii=False, separators=(",", ":")).encode()) + 1 for x in whole_hands)
    cog.upload_limit = biggest * 2  # a file holds a deal or two

    parted = await export(world.mod, world, "hands")
    budget = cog.upload_limit - cog.upload_limit // 20
    count = len(parted.files)
    assert count > 2 and len(parted.messages) > 1
    assert [name for name, _ in parted.files] == [
        f"fudaba-hands-{world.guild.id}-all-part{n}of{count}.jsonl" for n in range(1, count + 1)
    ]
    for message in parted.messages:
        assert len(message.attachments) <= 10 and sum(a.size for a in message.attachments) <= budget
    assert all(len(data) <= budget for _, data in parted.files)
    assert parted.lines() == whole_hands, "nothing lost or split between parts"
    assert f"Split into {count} files" in parted.text

    cog.upload_limit = 1200
    ledger = await export(world.mod, world, "ledger")
    assert len(ledger.files) > 2
    for name, data in ledger.files:
        text = data.decode()
        assert len(data) <= cog.upload_limit and text.startswith("movement,time,kind,")
        assert sum(int(line.rsplit(",", 1)[1]) for line in text.splitlines()[1:]) == 0, f"{name} sums to zero"
    assert ledger.rows() == whole_ledger

    cog.upload_limit = 300  # smaller than one deal's record: refused plainly
    refused = await export(world.mod, world, "hands")
    assert refused.files == [] and "larger than a file this server may receive" in refused.text
    assert await db.table_history(table.id)


async def test_a_deal_that_does_not_replay_to_its_stored_result_is_left_out_and_counted(
    world: Any, caplog: pytest.LogCaptureFixture
) -> None:
    db = world.env.bot.db
    table = await play_any_game(world, "oicho", random.Random("tampered"), members=(world.alice, world.bob), bots=1)
    hands = await all_hands(db, table.id)
    wrong = hands[0]
    await db._exec(
        "UPDATE hand_history SET deltas = ? WHERE table_id = ? AND deal_no = ?",
        (json.dumps([d + 1 for d in wrong.deltas]), table.id, wrong.deal_no),
    )
    full = await export(world.mod, world, "hands")
    assert [x["deal"] for x in full.lines()] == [h.deal_no for h in hands[1:]]
    assert "1 deals are left out: their record did not replay to the stored result" in full.text
    assert f"table {table.id}: deal {wrong.deal_no} cannot be exported" in caplog.text
