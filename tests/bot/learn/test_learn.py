"""``/learn``: a coached hand of every lesson of every game, played by a member following the coach and by one ignoring
it, through SimCord as a member meets it: the note under the panel at every decision, the end of the lesson, the
private review naming real decisions of that hand; a restart mid-lesson; nobody else can act; no balance moves."""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field
from typing import Any

import pytest

from bot.learn.coach import pick, rule_of_thumb, same_move
from bot.learn.lessons import LESSONS, Lesson
from bot.ui import ui_for
from tests.bot.conftest import make_bot
from tests.bot.learn.moves import make, other_move
from tests.bot.tables.driver import buttons, forge_click, live_table, open_panel, place_of, said, table_message

START_BALANCE = 1000


@dataclass
class Played:
    """What the learner met and did: each decision's note, the move made and the coach's move, in words."""

    table_id: int = 0
    notes: list[str] = field(default_factory=list)
    moves: list[str] = field(default_factory=list)
    picks: list[str] = field(default_factory=list)
    followed: list[bool] = field(default_factory=list)


def coach_note(panel: Any) -> str:
    """The coach's note under a panel (its embed), or ''."""
    embeds = panel.response.embeds
    return embeds[0].description or "" if embeds else ""


async def open_lesson(world: Any, lesson: Lesson, member: Any = None) -> Played:
    member = member or world.alice
    opened = await member.slash(world.channel, "learn", game=lesson.game, lesson=lesson.id)
    assert opened.ephemeral and "🎓" in said(opened)
    table = live_table(world)
    assert table.seat_of(member.id) == 0 and table.practice and all(s.bot for s in table.seats[1:])
    assert len(table.seats) == 1 + lesson.bots
    return Played(table.id)


async def play_on(
    world: Any, lesson: Lesson, played: Played, *, follow: bool, seed: str, limit: int = 200, moves: int | None = None
) -> Played:
    """Alice plays her lesson on (to its end, or ``moves`` decisions): at each of her decisions she opens her panel,
    reads the note, then makes the coach's move (``follow``) or another legal move."""
    alice = world.alice
    rng = random.Random(f"{seed}:{len(played.moves)}")
    ui = ui_for(lesson.game)
    for _ in range(limit if moves is None else moves):
        table = world.env.bot.tables.tables.get(played.table_id)
        if table is None:
            return played
        seat = table.seat_of(alice.id)
        engine = table.engine
        assert engine is not None
        assert seat in engine.to_act(), "the table waits for nobody but the learner"
        view, legal = engine.view(seat), engine.legal_actions(seat)
        coach_pick = pick(lesson.game, view, legal, engine.decision_id(seat))
        words = ui.move_words(view, seat, coach_pick, "en")
        panel = await open_panel(world, alice)
        note = coach_note(panel)
        # Every decision is explained: what it is, and the coach's (the strong bot's) move in the panel's words;
        # where the rule of thumb the note explains differs, both, the rule of thumb never credited with the other.
        thumb = rule_of_thumb(lesson.game, view, legal, engine.decision_id(seat))
        assert "**Coach** — " in note, note
        if same_move(thumb, coach_pick):
            assert f"🤖 The bot would choose **{words}**" in note, note
        else:
            assert f"📏 The rule of thumb is **{ui.move_words(view, seat, thumb, 'en')}**" in note, note
            assert f"prefers **{words}** here" in note and "The bot would choose" not in note, note
        played.notes.append(note)
        target = coach_pick if follow else (other_move(legal, coach_pick, rng) or coach_pick)
        await make(world, alice, table, seat, target)
        played.moves.append(ui.move_words(view, seat, target, "en"))
        played.picks.append(words)
        played.followed.append(target == coach_pick)
    if moves is not None:
        return played
    raise AssertionError("the lesson did not end")


async def play_lesson(world: Any, lesson: Lesson, *, follow: bool, seed: str) -> Played:
    """Alice opens the lesson and plays it to its end."""
    played = await open_lesson(world, lesson)
    return await play_on(world, lesson, played, follow=follow, seed=seed)


async def review_of(world: Any, member: Any, table_id: int) -> Any:
    """Press the Review button posted where the lesson was played."""
    custom = f"fdb:learn:review:{table_id}"
    places = (world.channel, *world.channel.threads)
    message = next(
        m
        for place in places
        for m in reversed(place.history())
        if any(b.get("custom_id") == custom for b in buttons(m))
    )
    return await member.click(message, custom_id=custom)


REVIEWED = re.compile(r"\*\*#(\d+)\*\* \(deal \d+, [^)]*\): you chose \*\*(.+?)\*\*; \*\*(.+?)\*\* would have")


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda item: item.key)
async def test_a_member_following_the_coach_plays_the_lesson_to_its_end(world: Any, lesson: Lesson) -> None:
    played = await play_lesson(world, lesson, follow=True, seed=f"follow:{lesson.key}")
    assert played.notes and all(played.followed)
    review = await review_of(world, world.alice, played.table_id)
    assert review.ephemeral
    text = review.response.embeds[0].description
    assert f"over {len(played.moves)} decision(s) of yours" in text
    assert "You made the bot's move at every decision" in text and not REVIEWED.search(text)
    assert await world.env.bot.db.balance(world.guild.id, world.alice.id) in (None, 0, START_BALANCE)


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda item: item.key)
async def test_a_member_ignoring_the_coach_is_reviewed_on_real_decisions(world: Any, lesson: Lesson) -> None:
    played = await play_lesson(world, lesson, follow=False, seed=f"ignore:{lesson.key}")
    assert played.notes and not all(played.followed)
    review = await review_of(world, world.alice, played.table_id)
    assert review.ephemeral
    text = review.response.embeds[0].description
    assert f"over {len(played.moves)} decision(s) of yours" in text
    named = REVIEWED.findall(text)
    differed = [i + 1 for i, f in enumerate(played.followed) if not f]
    for number, chosen, better in named:
        n = int(number)
        # A decision the review names is one the member really made, with the move she made and the coach's.
        assert n in differed and chosen == played.moves[n - 1] and better == played.picks[n - 1], (n, chosen, better)
    mentioned = {int(n) for n in re.findall(r"#(\d+)", text)}
    assert mentioned <= set(differed) and mentioned, text  # each differing decision is named, as costly or not
    assert "How this is measured" in text


# ---------------------------------------------------------------- the lesson's table


LUK_FU = next(item for item in LESSONS if item.key == "luk_fu.old_cards")
OFC = next(item for item in LESSONS if item.key == "ofc.fouls")


@pytest.mark.parametrize("lesson", [LUK_FU, OFC], ids=lambda item: item.key)
async def test_a_restart_mid_lesson_resumes_it_with_the_note(
    world: Any, database: Any, clock: Any, lesson: Lesson
) -> None:
    played = await open_lesson(world, lesson)
    await play_on(world, lesson, played, follow=True, seed="restart", moves=1)
    assert played.table_id in world.env.bot.tables.tables
    await world.env.restart_bot(make_bot(database, clock))
    # A new process knows nothing of the lesson but its table's own record: the note is back at once.
    panel = await open_panel(world, world.alice)
    assert coach_note(panel).startswith("🎓 **Lesson: ")
    await play_on(world, lesson, played, follow=True, seed="restart")
    assert played.table_id not in world.env.bot.tables.tables and len(played.notes) > 1
    review = await review_of(world, world.alice, played.table_id)
    assert f"over {len(played.moves)} decision(s) of yours" in review.response.embeds[0].description


async def test_nobody_else_can_act_at_a_lesson_nor_read_its_review(world: Any) -> None:
    played = await open_lesson(world, LUK_FU)
    table = live_table(world)
    shown = await world.bob.click(table_message(world), custom_id=f"fdb:{table.id}:t:hand")
    assert shown.ephemeral and "not seated" in said(shown)
    # Not even with the learner's own move: Bob cannot see her panel, and a button carrying its id (as a tampered
    # client could send) is refused, and nothing moves.
    panel = await open_panel(world, world.alice)
    # Her move, or the panel step towards it where the decision starts with a menu (a Luk Fu discard).
    ids = [b.get("custom_id", "") for b in buttons(panel.response)]
    move = next((i for i in ids if ":a:" in i), None) or next(i for i in ids if ":u:" in i and ":help:" not in i)
    serial = table.engine.serial
    refused = await forge_click(world, world.bob, move)
    assert "not seated" in said(refused) and table.engine.serial == serial
    # There is no lobby to join: the table started with its seats.
    assert not any(b.get("label") == "Join" for m in place_of(world, table).history() for b in buttons(m))
    await play_on(world, LUK_FU, played, follow=True, seed="alone")
    refused = await review_of(world, world.bob, played.table_id)
    assert refused.ephemeral and "someone else's lesson" in said(refused)
    assert "Review" not in said(refused) and not refused.response.embeds


async def test_practice_chips_leave_every_balance_as_it_was(world: Any) -> None:
    db = world.env.bot.db
    await world.alice.slash(world.channel, "balance")
    before = await db.balance(world.guild.id, world.alice.id)
    house = await db.house_balance(world.guild.id)
    played = await play_lesson(world, LUK_FU, follow=False, seed="chips")
    assert await db.balance(world.guild.id, world.alice.id) == before
    assert await db.house_balance(world.guild.id) == house
    assert await db.verify_ledger(world.guild.id) == []
    hands = await db.table_history(played.table_id, limit=10)
    assert hands, "the lesson's deal was settled (in practice chips)"


async def test_the_lesson_deal_is_its_pinned_seeds_and_verify_shows_them(world: Any) -> None:
    played = await play_lesson(world, LUK_FU, follow=True, seed="verify")
    shown = await world.alice.slash(world.channel, "verify", table_id=played.table_id, deal=1)
    text = said(shown)
    for seed in LUK_FU.seeds():
        assert f"seed `{seed}`" in text


async def test_an_unknown_lesson_is_refused_and_opens_nothing(world: Any) -> None:
    refused = await world.alice.slash(world.channel, "learn", game="luk_fu", lesson="nonsense")
    assert refused.ephemeral and "`must_beat`" in said(refused) and "`old_cards`" in said(refused)
    assert not world.env.bot.tables.tables


async def test_the_coach_speaks_japanese_to_a_japanese_member(world: Any) -> None:
    from tests.bot.conftest import LOCALES

    LOCALES[world.alice.id] = "ja"
    opened = await world.alice.slash(world.channel, "learn", game="hachi_hachi")
    assert "ハチハチ" in said(opened)
    panel = await open_panel(world, world.alice)
    note = coach_note(panel)
    assert "**コーチ** — " in note and "🤖 ボットなら" in note


@pytest.mark.place("thread")
async def test_a_lesson_opens_in_its_own_thread_as_play_does(world: Any) -> None:
    played = await play_lesson(world, OFC, follow=True, seed="thread")
    threads = world.channel.threads
    assert len(threads) == 1
    review = await review_of(world, world.alice, played.table_id)
    assert review.ephemeral and review.response.embeds
    assert any("the lesson" in (m.content or "") for m in threads[0].history())


async def test_the_coach_reads_the_house_rules_of_the_table(world: Any) -> None:
    """A lesson plays this server's house rules, and the note says what they make of the decision."""
    lesson = next(item for item in LESSONS if item.key == "luk_fu.must_beat")  # the learner opens with the call
    await open_lesson(world, lesson)
    note = coach_note(await open_panel(world, world.alice))
    assert "you pay both losers' shares" in note
    await world.alice.slash(world.channel, "table stop")  # the learner is the host: she may leave her lesson
    assert not world.env.bot.tables.tables
    await world.mod.slash(world.channel, "rules set", game="luk_fu", option="declarer_pays_double", value="false")
    await open_lesson(world, lesson)
    note = coach_note(await open_panel(world, world.alice))
    assert "**Coach** — the call" in note and "you pay both losers' shares" not in note


async def test_the_ofc_coach_checks_the_choices_made_so_far(world: Any) -> None:
    """Before a street is confirmed, the note follows the member's own choices with the exact foul check."""
    await open_lesson(world, OFC)
    panel = await open_panel(world, world.alice)
    assert "Your choices so far" not in coach_note(panel)
    put = next(
        b["custom_id"] for b in buttons(panel.response) if ":u:put:" in b.get("custom_id", "") and not b.get("disabled")
    )
    placed = await world.alice.click(panel.response, custom_id=put)
    assert "✅ Your choices so far: the board can still finish without fouling." in coach_note(placed)


async def test_a_learner_reading_the_note_is_not_played_for_after_the_servers_turn_timer(
    world: Any, clock: Any
) -> None:
    """The server's turn timer (a minute) does not apply at a lesson: ten minutes on, the decision is still the
    learner's, nobody played for her, and nobody was mentioned."""
    await open_lesson(world, LUK_FU)
    table = live_table(world)
    seat = table.seat_of(world.alice.id)
    await world.env.settle()
    assert seat in table.engine.to_act()
    serial = table.engine.serial
    clock.advance(600)
    await world.env.advance_time(600)
    assert not table.seats[seat].away and table.engine.serial == serial and seat in table.engine.to_act()
    assert table.pace == "live" and table.turn_seconds == 24 * 3600
    assert not any(m.ping_user_ids for ms in world.env.backend.messages.values() for m in ms.values())
    panel = await open_panel(world, world.alice)
    assert coach_note(panel).startswith("🎓 **Lesson: ")
