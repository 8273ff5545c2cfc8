"""A finished deal as a tape (games/tape.py): every deal of random games of every game, cut from the opening and from
the starts a walk hands back, replays to exactly the deal the table played; each step shows only what the live table
showed; the key moments are each game's own declaration."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import pytest

from games.core.engine import Engine, iter_cards
from games.core.errors import RecordError
from games.core.events import DealEnded, DealStarted
from games.core.record import TableRecord
from games.core.rng import Shuffler
from games.registry import GameSpec, all_games
from games.replay import replay
from games.tape import DealTape, cut, key_moments
from tests.games.test_conformance import random_rules, random_stacks, to_data

Row = tuple[int, str, Any]
GAMES_EACH = 3


def played(spec: GameSpec, index: int, *, max_deals: int = 6) -> tuple[TableRecord, list[Row], int]:
    """A game played by the game's own policy, logged as the bot logs it (each action, then the shuffles it made).
    Returns the opening record, the log rows and how many deals finished."""
    rng = random.Random(f"tape:{spec.id}:{index}")
    seeds = random.Random(f"tape:{spec.id}:{index}:seeds")
    rules = random_rules(spec, rng)
    stacks = random_stacks(spec, rules, rng)
    engine = spec.engine(rules, stacks, Shuffler(seed_source=lambda: seeds.randbytes(32).hex()))
    head = TableRecord(game=spec.id, rules=to_data(rules), stacks=list(stacks))
    rows: list[Row] = []
    made = 0

    def log_shuffles() -> None:
        nonlocal made
        for shuffle in engine.shuffler.used[made:]:
            rows.append((len(rows) + 1, "shuffle", shuffle))
        made = len(engine.shuffler.used)

    log_shuffles()
    while not engine.is_over and len(engine.results) < max_deals:
        seat = rng.choice(sorted(engine.to_act()))
        action = spec.policies["normal"](engine.view(seat), engine.legal_actions(seat), rng)
        engine.apply(seat, action)
        rows.append((len(rows) + 1, "action", (seat, action.text)))
        log_shuffles()
    return head, rows, len(engine.results)


def full_replay_to(head: TableRecord, rows: Sequence[Row], actions: int) -> Engine[Any]:
    """The table replayed from its opening through its first ``actions`` actions (independently of the tape)."""
    record = TableRecord(
        game=head.game,
        rules=head.rules,
        stacks=list(head.stacks),
        shuffles=[v for _s, k, v in rows if k == "shuffle"],
        actions=[v for _s, k, v in rows if k == "action"][:actions],
    )
    return replay(record, open_end=True)


def hidden_shown(engine: Engine[Any], seat: int | None) -> set[str]:
    """Cards the view drawn for ``seat`` (None: the public) would show that the engine hides from them."""
    view = engine.public_view() if seat is None else engine.view(seat)
    return {str(c) for c in engine.hidden_from(seat).intersection(iter_cards(view))}


def check_tape(tape: DealTape, head: TableRecord, rows: Sequence[Row], before: int) -> None:
    """``before``: how many actions the table played before this deal began."""
    truth = full_replay_to(head, rows, before + tape.last)
    result = next(r for r in truth.results if r.deal == tape.deal)
    assert tape.result is not None
    assert (tape.result.deltas, tape.result.summary) == (result.deltas, result.summary)
    assert tape.engine_at(tape.last).public_view() == truth.public_view(), "the last step is the final state"
    for seat in range(truth.seats):
        assert tape.engine_at(tape.last).view(seat) == truth.view(seat)
    assert [s.index for s in tape.steps] == list(range(tape.last + 1))
    assert tape.key_steps()[0] == 0 and tape.key_steps()[-1] == tape.last
    ends = [s.index for s in tape.steps if any(isinstance(e, DealEnded) and e.deal == tape.deal for e in s.events)]
    assert ends == [tape.last], "the tape ends with the move that ended the deal, and only there"
    for step in tape.steps:
        engine = tape.engine_at(step.index)
        assert not hidden_shown(engine, None), f"step {step.index}: the public view shows a hidden card"
        for seat in range(engine.seats):
            assert not hidden_shown(engine, seat), f"step {step.index}: seat {seat}'s view shows a hidden card"


@pytest.mark.parametrize("game", sorted(all_games()))
def test_every_deal_cuts_from_the_opening_and_from_its_start(game: str) -> None:
    spec = all_games()[game]
    for index in range(GAMES_EACH):
        head, rows, deals = played(spec, index)
        assert deals >= 1
        kept: dict[int, Any] = {}
        for deal in range(1, deals + 1):
            tape, starts = cut(head, rows, deal)
            assert [s.deal for s in starts] == list(range(1, deal + 1)), "the walk hands back every deal's start"
            kept.update({s.deal: s for s in starts})
            mine = kept[deal]
            check_tape(tape, head, rows, sum(1 for r in rows if r[1] == "action" and r[0] <= mine.seq))
            # From the deal's own start: the same tape, in one deal's moves.
            again, more = cut(mine.record, [r for r in rows if r[0] > mine.seq], deal, origin_seq=mine.seq)
            assert again.actions == tape.actions and [s.events for s in again.steps] == [s.events for s in tape.steps]
            assert [s.deal for s in more] == [], "a start already at the deal adds none"
            assert again.engine_at(again.last).public_view() == tape.engine_at(tape.last).public_view()
            # From an earlier start: walks on, handing back the starts it passes.
            if deal > 1:
                early = kept[1]
                later, passed = cut(early.record, [r for r in rows if r[0] > early.seq], deal, origin_seq=early.seq)
                assert later.actions == tape.actions and [s.deal for s in passed] == list(range(2, deal + 1))


def test_a_start_after_the_deal_or_a_log_cut_short_is_refused() -> None:
    spec = all_games()["oicho"]
    head, rows, deals = played(spec, 0)
    assert deals >= 2
    _tape, starts = cut(head, rows, 2)
    second = starts[-1]
    with pytest.raises(RecordError, match="cannot reach"):
        cut(second.record, [r for r in rows if r[0] > second.seq], 1, origin_seq=second.seq)
    last_action = max(i for i, r in enumerate(rows) if r[1] == "action" and i < len(rows))
    tape, _ = cut(head, rows, 1)
    short = rows[: next(i for i, r in enumerate(rows) if r[1] == "action") + 1]
    with pytest.raises(RecordError, match="does not reach the end"):
        cut(head, short, 1)
    assert last_action > 0 and tape.last > 0


def test_key_moments_are_each_games_declaration() -> None:
    for game in all_games():
        kinds = key_moments(game)
        assert kinds, f"{game} declares its key moments in games/{game}/moments.py"
    assert "trick_won" in key_moments("luk_fu") and "pile_decided" in key_moments("oicho")
    assert "street_revealed" in key_moments("ofc") and "trick_won" in key_moments("hachi_hachi")


def test_a_key_moment_is_a_step_that_made_a_declared_public_event() -> None:
    spec = all_games()["luk_fu"]
    head, rows, deals = played(spec, 1)
    for deal in range(1, deals + 1):
        tape, _ = cut(head, rows, deal)
        kinds = key_moments("luk_fu")
        for step in tape.steps[1:-1]:
            declared = any(e.public and e.kind in kinds for e in step.events)
            assert step.key == declared, (step.index, [e.kind for e in step.events])


def test_a_start_record_holding_later_shuffles_draws_each_once() -> None:
    """A version-2 record may hold shuffles not yet made (``used`` says how many were): a tape from it draws them in
    order, once, whether they come in the record or in the log rows after it."""
    spec = all_games()["ofc"]
    head, rows, deals = played(spec, 2)
    assert deals >= 2
    tape, starts = cut(head, rows, 1)
    first = starts[0]
    after = [r for r in rows if r[0] > first.seq]
    later = [v for _s, k, v in after if k == "shuffle"]
    fuller = TableRecord.from_json(
        {
            **first.record.to_json(),
            "shuffles": [*[s.to_json() for s in first.record.shuffles], *[s.to_json() for s in later]],
        }
    )
    again, _ = cut(fuller, [r for r in after if r[1] == "action"], 1, origin_seq=first.seq)
    assert again.actions == tape.actions
    assert again.start.shuffles == tape.start.shuffles, "each shuffle once"
    assert again.engine_at(again.last).public_view() == tape.engine_at(tape.last).public_view()
    assert again.next_deal_shown() and tape.next_deal_shown()


def test_the_last_step_tells_nothing_of_the_next_deal() -> None:
    spec = all_games()["hachi_hachi"]
    head, rows, deals = played(spec, 0)
    assert deals >= 2
    tape, _ = cut(head, rows, 1)
    everything = tape.steps[-1].events
    told = tape.told(tape.last)
    assert any(isinstance(e, DealStarted) for e in everything), "the move that ended deal 1 began deal 2"
    assert isinstance(told[-1], DealEnded) and told[-1].deal == 1
    assert not any(isinstance(e, DealStarted) for e in told)
    assert tape.told(1) == tape.steps[1].events
