"""A replay's work crosses to the render pool, which is a pool of processes in production: what goes there and what
comes back pickles. And a frame shows a seated viewer their own view, an onlooker none, and only the words each may
read."""

from __future__ import annotations

import pickle
from pathlib import Path

import pytest

from bot.history.replay import frame
from bot.ui.base import TableContext
from games.core.record import TableRecord
from games.registry import get_game
from games.replay import start
from games.tape import cut

EXAMPLES = Path(__file__).resolve().parents[3] / "docs" / "examples"


def logged(name: str) -> tuple[TableRecord, list[tuple[int, str, object]]]:
    """An example record as the bot logs it: each action, then the shuffles it made."""
    record = TableRecord.loads((EXAMPLES / name).read_text(encoding="utf-8"))
    spec = get_game(record.game)
    engine = start(TableRecord(game=record.game, rules=record.rules, stacks=record.stacks, shuffles=record.shuffles))
    rows: list[tuple[int, str, object]] = [(i + 1, "shuffle", s) for i, s in enumerate(engine.shuffler.used)]
    made = len(engine.shuffler.used)
    for seat, text in record.actions:
        engine.apply(seat, spec.codec.parse(text))
        rows.append((len(rows) + 1, "action", (seat, text)))
        rows += [(len(rows) + 1 + i, "shuffle", s) for i, s in enumerate(engine.shuffler.used[made:])]
        made = len(engine.shuffler.used)
    return record.head(), rows


@pytest.mark.parametrize("name", ["oicho.json", "ofc.json", "lukfu.json", "hachi.json"])
def test_a_frame_and_its_tape_pickle_and_show_each_viewer_their_own(name: str) -> None:
    head, rows = logged(name)
    tape, starts = cut(head, rows, 1)
    spec = get_game(head.game)
    ctx = TableContext(1, list(head.seats), 1, False, "en", spec.rules_model.model_validate(head.rules))
    again = pickle.loads(pickle.dumps((tape, ctx)))[0]
    assert again.actions == tape.actions and pickle.loads(pickle.dumps(starts)) == starts
    for index in range(tape.last + 1):
        seated = frame(head.game, tape, index, 0, ctx)
        onlooker = frame(head.game, tape, index, None, ctx)
        assert pickle.loads(pickle.dumps(seated)) == seated
        assert seated.view == onlooker.view == tape.engine_at(index).public_view()
        assert onlooker.own is None
        assert (seated.own is not None) == (index < tape.last)
        assert set(onlooker.lines) <= set(seated.lines), "an onlooker reads only what a seat reads too"
        assert seated.moments == onlooker.moments, "the key moments are public"
