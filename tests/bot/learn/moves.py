"""Making one chosen move through a member's private panel, as a member would: the presses that lead to it are found
offline on the panel as the runtime draws it (the game's decisions, the generic panel's components and steps, the
game's own buttons such as OFC's 💡), then pressed one by one in SimCord on the member's panel."""

from __future__ import annotations

import contextlib
import random
from collections import deque
from dataclasses import dataclass
from typing import Any

from bot.errors import UserError
from bot.tables import ids as component_ids
from bot.ui import panel, ui_for
from bot.ui.decisions import Arrange
from games.core.actions import Action, ActionFamily, AmountRange, LegalAction, is_listed
from games.ofc.actions import Place
from tests.bot.tables.driver import open_panel

STATE_LIMIT = 4000


@dataclass(frozen=True)
class Press:
    custom_id: str
    values: tuple[str, ...] | None = None
    """A select's chosen values (None: a button)."""
    amount: int | None = None
    """The amount typed into the modal this button opens."""


State = dict[str, str]


def _key(state: State) -> tuple[tuple[str, str], ...]:
    return tuple(sorted(state.items()))


class Finder:
    """The presses that make one move on one seat's panel, searched breadth first over the panel's states."""

    def __init__(self, table: Any, seat: int, lang: str = "en") -> None:
        engine = table.engine
        self.game = table.game
        self.view = engine.view(seat)
        self.legal = engine.legal_actions(seat)
        self.seat = seat
        self.ui = ui_for(table.game)
        self.ctx = table.ctx(lang)
        self.ids = panel.Ids(table.id, engine.decision_id(seat))
        self.lang = lang
        self.start = dict(table.panel_state.get(seat, {}))

    def spec(self, state: State) -> Any:
        return self.ui.panel(self.view, self.seat, self.legal, self.ctx, dict(state))

    def components(self, state: State) -> list[tuple[Any, component_ids.ComponentId]]:
        rendered = panel.render(self.spec(state), self.ids, self.lang, state)
        return [(c, component_ids.parse(c.custom_id)) for row in rendered.rows for c in row if not c.disabled]

    def step(self, state: State, cid: component_ids.ComponentId, values: tuple[str, ...] | None) -> Any:
        if cid.verb == "x":
            verb, _, arg = cid.arg.partition("/")
            return self.ui.ui_step(self.view, self.seat, list(self.legal), verb, arg, state)
        arg = cid.arg if values is None else f"{cid.arg}/{','.join(values)}"
        return panel.step(self.spec(state), self.ids, self.lang, cid.verb, arg, state)

    def find(self, target: Action) -> list[Press]:
        if isinstance(target, Place):
            found = self._arrange(target)
            if found is not None:
                return found
        tokens = set(target.text.split()[1:])
        seen = {_key(self.start)}
        queue: deque[tuple[State, list[Press]]] = deque([(dict(self.start), [])])
        while queue:
            state, path = queue.popleft()
            for component, cid in self.components(state):
                if cid.kind == "action":
                    if cid.action == target.text:
                        return [*path, Press(component.custom_id)]
                    continue
                tries: list[tuple[str, ...] | None]
                if isinstance(component, panel.Select):
                    options = [o.value for o in component.options]
                    if cid.verb in ("act", "rng"):
                        tries = [(v,) for v in options]
                    elif cid.verb == "sub":
                        tries = [tuple(v for v in options if v in tokens)]
                    else:
                        continue
                elif cid.verb in ("go", "amt", "subok", "ok", "x"):
                    tries = [None]
                else:
                    continue
                for values in tries:
                    after = dict(state)
                    try:
                        result = self.step(after, cid, values)
                    except UserError:
                        continue
                    press = Press(component.custom_id, values)
                    if isinstance(result, Action):
                        if result == target:
                            return [*path, press]
                        continue
                    if isinstance(result, panel.OpenModal):
                        modal = component_ids.parse(result.custom_id)
                        amount = getattr(target, "amount", None)
                        if amount is not None and panel.amount_action(self.spec(after), modal.arg, amount) == target:
                            return [*path, Press(component.custom_id, None, amount)]
                        continue
                    if _key(after) not in seen and len(seen) < STATE_LIMIT:
                        seen.add(_key(after))
                        queue.append((after, [*path, press]))
        raise AssertionError(f"{target.text} cannot be made through the panel")

    def _arrange(self, target: Place) -> list[Press] | None:
        """A placement made card by card: pick a card, then its row; then confirm."""
        decision = next((d for d in self.spec(self.start).decisions if isinstance(d, Arrange)), None)
        if decision is None or decision.mode != "steps":
            return None
        state, path = dict(self.start), []

        def press(verb: str, arg: str) -> Any:
            for component, cid in self.components(state):
                if isinstance(component, panel.Button) and (cid.verb, cid.arg) == (verb, arg):
                    path.append(Press(component.custom_id))
                    return self.step(state, cid, None)
            raise LookupError((verb, arg))

        try:
            with contextlib.suppress(LookupError):  # nothing chosen yet
                press("clr", decision.key)
            for card, row in target.items:
                if row == "discard":
                    continue
                with contextlib.suppress(LookupError):  # already picked (the first card without a row is)
                    press("pick", f"{decision.key}/{card.notation}")
                press("put", f"{decision.key}/{row}")
            result = press("ok", decision.key)
        except (LookupError, UserError):
            return None
        return path if result == target else None


def other_move(legal: list[LegalAction], pick: Action, rng: random.Random) -> Action | None:
    """A legal move other than ``pick`` (None when the coach's move is the only one)."""
    choices: list[Action] = []
    for item in legal:
        if isinstance(item, AmountRange):
            choices += [item.make(a) for a in {item.lo, item.hi}]
        elif isinstance(item, ActionFamily):
            choices += [item.sample(rng) for _ in range(3)]
        else:
            choices.append(item)
    others = [a for a in choices if a != pick and is_listed(a, legal)]
    return rng.choice(others) if others else None


async def make(world: Any, member: Any, table: Any, seat: int, target: Action) -> Any:
    """Open the member's panel and make ``target`` through it; returns the last press's result."""
    presses = Finder(table, seat).find(target)
    shown = await open_panel(world, member)
    message = shown.response
    result = shown
    for p in presses:
        if p.values is not None:
            result = await member.select(message, list(p.values), custom_id=p.custom_id)
        else:
            result = await member.click(message, custom_id=p.custom_id)
            if p.amount is not None:
                assert result.modal is not None, result
                result = await member.submit_modal(result, {"amount": str(p.amount)})
        if result.response is not None and result.response.ephemeral and result.response.components:
            message = result.response
    return result
