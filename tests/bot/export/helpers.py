"""Driving ``/export`` as a member would, and the truth its files are checked against (each table replayed
independently from its full record, action by action)."""

from __future__ import annotations

import csv
import io
import json
from dataclasses import dataclass
from typing import Any

from games.core.engine import Engine, iter_cards
from games.core.events import DealEnded, DealStarted, Event
from games.core.record import TableRecord
from games.registry import get_game
from games.replay import start


@dataclass
class Exported:
    result: Any
    messages: list[Any]
    files: list[tuple[str, bytes]]

    @property
    def text(self) -> str:
        return "\n".join(m.content or "" for m in self.messages)

    def lines(self) -> list[dict[str, Any]]:
        return [json.loads(line) for _, data in self.files for line in data.decode("utf-8").splitlines()]

    def rows(self) -> list[dict[str, str]]:
        out: list[dict[str, str]] = []
        for _, data in self.files:
            out += list(csv.DictReader(io.StringIO(data.decode("utf-8"))))
        return out


async def export(member: Any, world: Any, kind: str, **options: Any) -> Exported:
    """``/export kind`` as ``member`` (options ``from``/``to`` as typed); every message it got and their files."""
    result = await member.slash(world.channel, f"export {kind}", **options)
    messages = [m for m in [result.response, *result.followups] if m is not None]
    assert all(m.ephemeral for m in messages), "an export is only ever sent privately"
    files = [(a.filename, await a.read()) for m in messages for a in m.attachments]
    return Exported(result, messages, files)


class Truth:
    """A table's full record replayed one action at a time, with every event (private ones too) of every action."""

    def __init__(self, record: TableRecord) -> None:
        self.record = record
        self.spec = get_game(record.game)
        engine = self.fresh()
        self.stream: list[tuple[int, Event]] = [(0, e) for e in engine.drain_events()]
        for n, (seat, text) in enumerate(record.actions, 1):
            self.stream += [(n, e) for e in engine.apply(seat, self.spec.codec.parse(text))]

    def fresh(self) -> Engine[Any]:
        head = TableRecord(
            game=self.record.game,
            rules=self.record.rules,
            stacks=list(self.record.stacks),
            seats=list(self.record.seats),
            stake=self.record.stake,
            shuffles=list(self.record.shuffles),
        )
        return start(head, stub_missing=True)

    def seen_by(self, deal: int, seat: int) -> Seen:
        """What ``seat`` could see of ``deal``, and the cards of that deal it never could."""
        begin = next(i for i, (_, e) in enumerate(self.stream) if isinstance(e, DealStarted) and e.deal == deal)
        end = next(i for i, (_, e) in enumerate(self.stream) if isinstance(e, DealEnded) and e.deal == deal)
        first, last = self.stream[begin][0], self.stream[end][0]
        events = [e for _, e in self.stream[begin : end + 1]]
        engine = self.fresh()
        for actor, text in self.record.actions[:first]:
            engine.apply(actor, self.spec.codec.parse(text))
        views: list[Any] = []
        seen: set[Any] = set()
        hidden: set[Any] = set()
        for step in range(last - first + 1):
            if step:
                actor, text = self.record.actions[first + step - 1]
                engine.apply(actor, self.spec.codec.parse(text))
            if step < last - first:
                views.append(engine.view(seat))
            seen |= cards_of(engine.view(seat)) | cards_of(engine.public_view())
            hidden |= set(engine.hidden_from(seat))
        seen |= cards_of([e for e in events if e.visible_to(seat)])
        return Seen(events, list(self.record.actions[first:last]), views, seen, hidden - seen)


@dataclass
class Seen:
    events: list[Event]
    """Every event of the deal, private ones too, from its start to its end."""
    actions: list[tuple[int, str]]
    views: list[Any]
    """The seat's own view at each step before the last (0: as dealt)."""
    seen: set[Any]
    """Every card the seat saw in the deal: its own views, the public views, the events it was shown."""
    never: set[Any]
    """The deal's cards hidden from the seat that it never saw."""


def cards_of(value: Any) -> set[Any]:
    return set(iter_cards(value))


def is_subsequence(part: list[Any], whole: list[Any]) -> bool:
    it = iter(whole)
    return all(any(x == y for y in it) for x in part)
