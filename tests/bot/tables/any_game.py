"""A driver that plays any registered game through Discord: the conformance suite, one level up.

It opens a table with ``/play``, seats members and bots, starts it, and then plays as members would: each
member whose turn it is presses "My hand" and clicks random *enabled* components of their private panel
(buttons, selects, the amount modal) until their move is made, then the next, to the end of the game. It
knows nothing of any game: a new game gets this for free.

Checked on the way and at the end:

* every panel is drawn from the clicker's own seat view, and no view drawn for a panel or the public table
  holds a card that the engine hides from whoever it is drawn for (checked as each is drawn, under the
  table's lock); an ephemeral panel is never visible to another member;
* at every decision a member meets, **every legal action is reachable** through the panel's components
  (:func:`check_reachable`, run offline on the seat's view, legal actions and panel state as they are then),
  and every panel drawn on the way keeps Discord's limits and has its "?";
* the game ends; every member's balance moved by exactly what their seat won in the settled deals; the
  ledger balances.
"""

from __future__ import annotations

import contextlib
import random
from collections import deque
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from bot.errors import UserError
from bot.tables import ids as component_ids
from bot.tables.panels import Panels
from bot.ui import adapters, panel, ui_for
from bot.ui.decisions import Arrange, ChooseAmount, ChooseSubset, PanelSpec
from games.core.actions import Action, ActionCodec, ActionFamily, AmountRange, LegalAction, is_listed
from games.core.engine import iter_cards
from games.registry import get_game
from tests.bot.tables.driver import buttons, live_table, lobby_message, open_panel

START_BALANCE = 1000


@dataclass
class Watch:
    """What the spies saw."""

    panels: int = 0
    public: int = 0
    cards_checked: int = 0
    leaks: list[str] = field(default_factory=list)
    ephemeral_ids: dict[int, set[int]] = field(default_factory=dict)


def spy(monkeypatch: Any, world: Any) -> Watch:
    """Check every view the runtime draws, at the moment it is drawn, against what the engine hides."""
    watch = Watch()
    plain_snapshot = Panels.snapshot

    async def snapshot(self: Panels, session: Any, seat: int, lang: str) -> Any:
        snap = await plain_snapshot(self, session, seat, lang)
        engine = session.engine
        if engine is not None:
            async with session.lock:
                hidden = engine.hidden_from(seat)
                fresh = engine.view(seat)
            shown = list(iter_cards(snap.view))
            watch.panels += 1
            watch.cards_checked += len(shown)
            if fresh != snap.view:
                watch.leaks.append(f"seat {seat}'s panel was drawn from another view")
            leaked = hidden.intersection(shown)
            if leaked:
                watch.leaks.append(f"seat {seat}'s panel shows hidden {sorted(map(str, leaked))}")
        return snap

    monkeypatch.setattr(Panels, "snapshot", snapshot)
    for ui in adapters().values():
        cls = type(ui)
        plain_summary = cls.public_summary

        def public_summary(self: Any, view: Any, ctx: Any, _plain: Any = plain_summary) -> Any:
            session = world.env.bot.tables.tables.get(ctx.table_id)
            if session is not None and session.engine is not None:
                leaked = session.engine.hidden_from(None).intersection(iter_cards(view))
                watch.public += 1
                if leaked:
                    watch.leaks.append(f"the public table shows hidden {sorted(map(str, leaked))}")
            return _plain(self, view, ctx)

        monkeypatch.setattr(cls, "public_summary", public_summary)
    return watch


def _components(message: Any) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = []

    def walk(items: Any) -> None:
        for item in items or []:
            item = item if isinstance(item, dict) else item.to_dict()
            if item.get("type") in (2, 3) and not item.get("disabled"):
                found.append(item)
            walk(item.get("components"))

    walk(getattr(message, "components", None))
    return found


def _weight(component: dict[str, Any]) -> int:
    cid = component.get("custom_id", "")
    if ":a:" in cid or ":u:ok:" in cid or ":u:subok:" in cid:
        return 6  # a move, or the confirm that makes one
    if ":u:x:hint" in cid:
        return 4
    if ":u:noop:" in cid or ":u:x:refresh" in cid or ":u:help:" in cid:
        return 0  # nothing, a redraw, or the guide's page (tested on its own: test_panel_help.py)
    return 2


async def _click_something(member: Any, panel: Any, rng: random.Random) -> Any:
    """One random enabled component of the panel: a button, a select (random values), or the amount modal."""
    choices = [c for c in _components(panel.response) if _weight(c)]
    assert choices, f"a panel to act on offers nothing: {panel.response.content!r}"
    component = rng.choices(choices, weights=[_weight(c) for c in choices])[0]
    cid = component["custom_id"]
    if component["type"] == 3:
        options = [o["value"] for o in component.get("options", [])]
        low = max(component.get("min_values", 1), 0)
        high = min(component.get("max_values", 1), len(options))
        values = rng.sample(options, rng.randint(low, high)) if options else []
        return await member.select(panel.response, values, custom_id=cid)
    result = await member.click(panel.response, custom_id=cid)
    if result.modal is not None:
        hint = str(result.modal["components"][0]["components"][0].get("placeholder") or "1–1")
        lo, _, hi = hint.partition("–")
        amount = rng.randint(int(lo.replace(",", "")), int(hi.replace(",", "")))
        return await member.submit_modal(result, {"amount": f"{amount:,}"})
    return result


async def play_any_game(
    world: Any,
    game_id: str,
    rng: random.Random,
    *,
    members: tuple[Any, ...],
    bots: int,
    step_limit: int = 4000,
    reach: ReachWatch | None = None,
) -> Any:
    """Open, seat, start and play ``game_id`` to the end through the panels; returns the (ended) table. At every
    decision a member meets, every legal action must be reachable through the panel (``reach`` counts them)."""
    reach = reach if reach is not None else ReachWatch()
    checked: set[tuple[int, int]] = set()
    db = world.env.bot.db
    await db.set_config(world.guild.id, actor_id=world.mod.id, bots_play_for_chips=True)
    host, *others = members
    opened = await host.slash(world.channel, "play", game=game_id)
    assert opened.ephemeral
    lobby = lobby_message(world)
    for member in others:
        await member.click(lobby, label="Join")
    for _ in range(bots):
        await host.click(lobby, label="Add bot")
    await host.click(lobby, label="Start")
    table = live_table(world)
    engine = table.engine
    assert engine is not None
    by_seat = {table.seat_of(m.id): m for m in members}
    panels: dict[int, Any] = {}
    steps = 0
    while world.env.bot.tables.tables:
        steps += 1
        assert steps <= step_limit, f"{game_id}: no end after {step_limit} clicks"
        acting = [s for s in sorted(engine.to_act()) if s in by_seat]
        assert acting, f"{game_id}: only bots or away players must act, yet the table stands still"
        seat = rng.choice(acting)
        member = by_seat[seat]
        if (seat, engine.decision_id(seat)) not in checked:
            checked.add((seat, engine.decision_id(seat)))
            check_seat(table, seat, random.Random(f"{game_id}:{steps}"), reach)
        if seat not in panels or rng.random() < 0.2:
            panels[seat] = await open_panel(world, member)
        result = await _click_something(member, panels[seat], rng)
        if result.response is not None and result.response.ephemeral and result.response.components:
            panels[seat] = result
        elif result.response is not None and not result.response.components:
            panels.pop(seat, None)  # a refusal or a note: open a fresh panel next time
    return table


async def check_chips(world: Any, table: Any, members: tuple[Any, ...]) -> None:
    """Every member's balance moved by what their seat won; the guild's chips still sum to zero."""
    db = world.env.bot.db
    hands = await db.table_history(table.id, limit=100_000)
    assert hands, "no deal was settled"
    for member in members:
        seat = table.seat_of(member.id)
        won = sum(h.deltas[seat] for h in hands)
        assert await db.balance(world.guild.id, member.id) == START_BALANCE + won, (member, won)
    bots_won = sum(h.deltas[s] for h in hands for s, info in enumerate(table.seats) if info.bot)
    assert await db.house_balance(world.guild.id) == bots_won
    assert await db.verify_ledger(world.guild.id) == []


def private_panels_stay_private(world: Any, members: tuple[Any, ...]) -> None:
    """No member can see another member's ephemeral messages."""
    places = (world.channel, *world.channel.threads)

    def seen_by(member: Any) -> set[int]:
        return {m.id for place in places for m in place.history(viewer=member) if m.flags.ephemeral}

    for member in members:
        mine = seen_by(member)
        assert mine, "every member had private panels"
        for other in members:
            if other is not member:
                assert not mine & seen_by(other)


# ---------------------------------------------------------------- every legal action reachable

State = dict[str, str]
NAV_STEPS = frozenset({"go", "amt"})
"""Buttons the exploration presses: moving between a menu's pages, and opening the amount modal."""
MENU_SELECTS = frozenset({"act", "rng"})
"""One-choice selects whose every option the exploration tries (a move, a range, or a group to open)."""
STATE_LIMIT = 2000
FAMILY_SAMPLES = 4
TARGET_SAMPLE = 40
"""At most this many legal moves are driven toward one by one at a decision (sampled when there are more)."""


@dataclass
class Reach:
    """What the exploration of one decision found."""

    actions: dict[str, Action] = field(default_factory=dict)
    modals: list[tuple[PanelSpec, str, str]] = field(default_factory=list)
    """(the panel, the modal's arg, its hint) for each amount modal that opens."""
    problems: list[str] = field(default_factory=list)
    states: int = 0
    driven: int = 0


def _key(state: Mapping[str, str]) -> tuple[tuple[str, str], ...]:
    return tuple(sorted(state.items()))


class PanelExplorer:
    """Drives one seat's panel offline, as the runtime does: the game's ``GameUI.panel`` gives the decisions,
    ``bot.ui.panel.render`` the components, ``bot.ui.panel.step`` what a click on one does (a select's chosen
    values come after its id's arg, as the runtime joins them). Only components on the panel as drawn, and
    enabled, are ever used."""

    def __init__(self, spec_of: Callable[[State], PanelSpec], ids: panel.Ids, lang: str, codec: ActionCodec) -> None:
        self.spec_of = spec_of
        self.ids = ids
        self.lang = lang
        self.codec = codec
        self.reach = Reach()

    # ------------------------------------------------------------ drawing, with Discord's limits checked
    def draw(self, state: State) -> tuple[PanelSpec, list[tuple[panel.Component, component_ids.ComponentId]]]:
        spec = self.spec_of(dict(state))
        rendered = panel.render(spec, self.ids, self.lang, state)
        found: list[tuple[panel.Component, component_ids.ComponentId]] = []
        seen: set[str] = set()
        problems = self.reach.problems
        if len(rendered.rows) > panel.MAX_ROWS:
            problems.append(f"{len(rendered.rows)} rows")
        for row in rendered.rows:
            selects = [c for c in row if isinstance(c, panel.Select)]
            if not row or len(row) > panel.ROW_WIDTH or (selects and len(row) > 1):
                problems.append(f"a row of {len(row)} components ({len(selects)} selects)")
            for component in row:
                cid = component.custom_id
                if len(cid) > panel.CUSTOM_ID or cid in seen:
                    problems.append(f"custom id too long or repeated: {cid}")
                seen.add(cid)
                try:
                    parsed = component_ids.parse(cid)
                except UserError:
                    problems.append(f"custom id outside the grammar: {cid}")
                    continue
                if isinstance(component, panel.Button):
                    if not 0 < len(component.label) <= panel.BUTTON_LABEL:
                        problems.append(f"button label of {len(component.label)} characters: {component.label!r}")
                else:
                    problems += _select_problems(component)
                found.append((component, parsed))
        helps = [c for c, parsed in found if parsed.kind == "step" and parsed.verb == panel.HELP]
        if len(helps) != 1 or helps[0].disabled:
            problems.append(f"{len(helps)} enabled '?' buttons on the panel (every panel has one)")
        return spec, found

    def step(self, spec: PanelSpec, cid: component_ids.ComponentId, values: Sequence[str] | None, state: State) -> Any:
        arg = cid.arg if values is None else f"{cid.arg}/{','.join(values)}"
        return panel.step(spec, self.ids, self.lang, cid.verb, arg, state)

    # ------------------------------------------------------------ exploring every menu
    def explore(self, start: State) -> Reach:
        """Every state the panel's menus lead to (groups, pages, ranges), and every move they offer."""
        seen = {_key(start)}
        queue = deque([dict(start)])
        while queue:
            state = queue.popleft()
            self.reach.states += 1
            assert self.reach.states <= STATE_LIMIT, "the panel's menus lead to too many states"
            spec, components = self.draw(state)
            for component, cid in components:
                if component.disabled:
                    continue
                if cid.kind == "action":
                    self._found(self.codec.parse(cid.action))
                    continue
                if isinstance(component, panel.Select):
                    if cid.verb not in MENU_SELECTS or component.max_values != 1:
                        continue  # multi-selects: driven toward each move (see drive)
                    choices: list[list[str] | None] = [[o.value] for o in component.options]
                elif cid.verb in NAV_STEPS:
                    choices = [None]
                else:
                    continue
                for values in choices:
                    after = dict(state)
                    try:
                        result = self.step(spec, cid, values, after)
                    except UserError as error:
                        self.reach.problems.append(f"{component.custom_id} {values or ''}: refused ({error.key})")
                        continue
                    if isinstance(result, Action):
                        self._found(result)
                    elif isinstance(result, panel.OpenModal):
                        modal = component_ids.parse(result.custom_id)
                        self.reach.modals.append((spec, modal.arg, result.hint))
                    elif _key(after) not in seen:
                        seen.add(_key(after))
                        queue.append(after)
        return self.reach

    def _found(self, action: Action) -> None:
        self.reach.actions[action.text] = action

    # ------------------------------------------------------------ driving toward one move
    def _nav_states(self, state: State) -> Iterator[tuple[State, PanelSpec, list[Any]]]:
        """The panel as drawn from ``state`` and from every state its ◀ ▶ page buttons lead to."""
        seen = {_key(state)}
        queue = deque([dict(state)])
        while queue:
            here = queue.popleft()
            spec, components = self.draw(here)
            yield here, spec, components
            for component, cid in components:
                if isinstance(component, panel.Button) and cid.verb == "go" and not component.disabled:
                    after = dict(here)
                    self.step(spec, cid, None, after)
                    if _key(after) not in seen and len(seen) < STATE_LIMIT:
                        seen.add(_key(after))
                        queue.append(after)

    def _press(self, state: State, verb: str, arg: str) -> tuple[Any, State]:
        """Find the enabled step button ``verb``/``arg`` on the panel (turning its pages if need be), press it."""
        for here, spec, components in self._nav_states(state):
            for component, cid in components:
                if (
                    isinstance(component, panel.Button)
                    and not component.disabled
                    and (cid.verb, cid.arg) == (verb, arg)
                ):
                    after = dict(here)
                    return self.step(spec, cid, None, after), after
        raise LookupError("no such button")

    def _select_all(self, state: State, verb: str, key: str, goal: Callable[[str], set[str]]) -> State:
        """Make every ``verb`` multi-select of decision ``key``, on every page, show its ``goal`` (by the select's
        arg after the key) among its options: one choice per select and page, as a member would make it."""
        for _ in range(STATE_LIMIT):
            for here, spec, components in self._nav_states(state):
                pending = None
                for component, cid in components:
                    if not isinstance(component, panel.Select) or cid.verb != verb:
                        continue
                    owner, _, rest = cid.arg.partition("/")
                    if owner.partition("@")[0] != key:
                        continue
                    options = {o.value for o in component.options}
                    want = goal(rest if verb == "grp" else "") & options
                    if want != {o.value for o in component.options if o.default}:
                        assert component.min_values <= len(want) <= component.max_values, (component, want)
                        pending = (spec, cid, sorted(want))
                        break
                if pending is not None:
                    after = dict(here)
                    self.step(pending[0], pending[1], pending[2], after)
                    state = after
                    break
            else:
                return state
        raise AssertionError("the selects never settle")

    def arrangements(self, start: State) -> None:
        """Every arrangement the group buttons allow, each item in turn given each group whose button is
        enabled, confirmed (bounded by :data:`STATE_LIMIT`; moves past it are driven toward one by one)."""
        for decision in self.spec_of(dict(start)).decisions:
            if not isinstance(decision, Arrange) or decision.mode != "steps":
                continue
            key, state = decision.key, dict(start)
            with contextlib.suppress(LookupError):  # no choice to clear
                state = self._press(state, "clr", key)[1]
            stack, seen = [state], {_key(state)}
            while stack and len(seen) < STATE_LIMIT:
                state = stack.pop()
                for here, spec, components in self._nav_states(state):
                    for component, cid in components:
                        if component.disabled or cid.arg.partition("/")[0] != key or cid.verb not in ("put", "ok"):
                            continue
                        after = dict(here)
                        result = self.step(spec, cid, None, after)
                        if isinstance(result, Action):
                            self._found(result)
                        elif _key(after) not in seen:
                            seen.add(_key(after))
                            stack.append(after)
            self.reach.states += len(seen)

    def drive(self, start: State, target: Action) -> bool:
        """Whether ``target`` can be made by choosing its items in the panel's multi-selects or arranging them,
        then confirming. Which items is read from the move's text: the item values it names (a subset); for an
        arrangement, each item value followed by ``:`` and its group's name or the start of it (OFC writes
        ``place As:f``). A move written otherwise is reported unreachable: the check never passes blindly."""
        tokens = target.text.split()[1:]
        spec = self.spec_of(dict(start))
        for decision in spec.decisions:
            try:
                if isinstance(decision, ChooseSubset):
                    values = {v for _, v in decision.items}
                    chosen = {token for token in tokens if token in values}
                    if chosen and self._drive_subset(start, decision, chosen) == target:
                        return True
                elif isinstance(decision, Arrange):
                    pairs = _read_arrangement(tokens, decision)
                    if pairs and self._drive_arrange(start, decision, pairs) == target:
                        return True
            except (LookupError, UserError):
                continue
        return False

    def _drive_subset(self, start: State, decision: ChooseSubset, chosen: set[str]) -> Any:
        self.reach.driven += 1
        state = self._select_all(start, "sub", decision.key, lambda _: chosen)
        return self._press(state, "subok", decision.key)[0]

    def _drive_arrange(self, start: State, decision: Arrange, pairs: Mapping[str, str]) -> Any:
        self.reach.driven += 1
        key, state = decision.key, dict(start)
        with contextlib.suppress(LookupError):  # no choice to clear
            state = self._press(state, "clr", key)[1]
        if decision.mode == "steps":
            for item, group in pairs.items():
                state = self._press(state, "pick", f"{key}/{item}")[1]
                state = self._press(state, "put", f"{key}/{group}")[1]
        else:

            def goal(rest: str) -> set[str]:
                group = rest.partition("@")[0]
                return {item for item, g in pairs.items() if g == group}

            state = self._select_all(state, "grp", key, goal)
        return self._press(state, "ok", key)[0]


def _read_arrangement(tokens: Sequence[str], decision: Arrange) -> dict[str, str]:
    items = {v for _, v in decision.items}
    pairs = {}
    for token in tokens:
        item, _, written = token.partition(":")
        groups = [g.name for g in decision.groups if written and g.name.startswith(written)]
        if item in items and len(groups) == 1:
            pairs[item] = groups[0]
    return pairs


def _select_problems(select: panel.Select) -> list[str]:
    problems = []
    values = [o.value for o in select.options]
    if not 0 < len(values) <= panel.SELECT_LIMIT or len(set(values)) != len(values):
        problems.append(f"{select.custom_id}: {len(values)} options ({len(set(values))} distinct)")
    if not 0 <= select.min_values <= select.max_values <= max(1, len(values)) or select.max_values < 1:
        problems.append(f"{select.custom_id}: {select.min_values}..{select.max_values} of {len(values)}")
    if len(select.placeholder) > panel.PLACEHOLDER:
        problems.append(f"{select.custom_id}: placeholder of {len(select.placeholder)} characters")
    for option in select.options:
        texts = (option.label, option.value, option.description or "")
        if not option.label or any(len(text) > panel.OPTION_TEXT for text in texts):
            problems.append(f"{select.custom_id}: option {texts!r} too long or empty")
    return problems


def check_reachable(
    spec_of: Callable[[State], PanelSpec],
    legal: Sequence[LegalAction],
    ids: panel.Ids,
    lang: str,
    codec: ActionCodec,
    state: Mapping[str, str],
    rng: random.Random,
) -> Reach:
    """Fail, listing them, unless the moves reachable through the panel's components are exactly ``legal``.

    Menus (one-choice selects, groups, pages, ranges) are explored to the end; an amount range counts as
    reachable when its lowest and highest amounts and the presets within it can be sent (by a button or the
    amount modal); a move made in a multi-select or by arranging items is driven toward one legal move at a
    time (sampled past :data:`TARGET_SAMPLE`; a family of arrangements such as a Fantasyland hand by a few
    members drawn from it)."""
    explorer = PanelExplorer(spec_of, ids, lang, codec)
    reach = explorer.explore(dict(state))
    explorer.arrangements(dict(state))
    offered_illegal = [text for text, action in reach.actions.items() if not is_listed(action, legal)]
    targets: list[Action] = [a for a in legal if isinstance(a, Action) and a.text not in reach.actions]
    if len(targets) > TARGET_SAMPLE:
        targets = rng.sample(targets, TARGET_SAMPLE)
    for family in (item for item in legal if isinstance(item, ActionFamily)):
        targets += [family.sample(rng) for _ in range(FAMILY_SAMPLES)]
    unreachable = [target.text for target in targets if not explorer.drive(dict(state), target)]
    for amounts in (item for item in legal if isinstance(item, AmountRange)):
        unreachable += _unreachable_amounts(amounts, reach, spec_of(dict(state)))
    problems = reach.problems + [f"offers {text}, which is not legal" for text in offered_illegal]
    assert not unreachable and not problems, (
        f"{len(unreachable)} legal move(s) unreachable through the panel: {unreachable}; problems: {problems}"
    )
    return reach


def _unreachable_amounts(amounts: AmountRange, reach: Reach, spec: PanelSpec) -> list[str]:
    presets = {
        p
        for d in spec.decisions
        if isinstance(d, ChooseAmount)
        for c in d.ranges
        if c.range == amounts
        for p in d.presets
    }
    wanted = {amounts.lo, amounts.hi} | {p for p in presets if amounts.lo <= p <= amounts.hi}
    missing = []
    for amount in sorted(wanted):
        action = amounts.make(amount)
        typed = any(
            hint == f"{amounts.lo}–{amounts.hi}" and panel.amount_action(modal_spec, arg, amount) == action
            for modal_spec, arg, hint in reach.modals
        )
        if action.text not in reach.actions and not typed:
            missing.append(f"{action.text} (in {amounts.lo}–{amounts.hi})")
    return missing


@dataclass
class ReachWatch:
    """How much the reachability check saw over a game."""

    decisions: int = 0
    moves: int = 0
    driven: int = 0
    states: int = 0


def check_seat(table: Any, seat: int, rng: random.Random, watch: ReachWatch, lang: str = "en") -> None:
    """:func:`check_reachable` for one seat of a live table, from its view, legal actions and panel state now."""
    engine = table.engine
    view, legal = engine.view(seat), engine.legal_actions(seat)
    ui, ctx = ui_for(table.game), table.ctx(lang)
    reach = check_reachable(
        lambda state: ui.panel(view, seat, legal, ctx, state),
        legal,
        panel.Ids(table.id, engine.decision_id(seat)),
        lang,
        get_game(table.game).codec,
        table.panel_state.get(seat, {}),
        rng,
    )
    watch.decisions += 1
    watch.moves += len(legal)
    watch.driven += reach.driven
    watch.states += reach.states


__all__ = [
    "ReachWatch",
    "buttons",
    "check_chips",
    "check_reachable",
    "check_seat",
    "play_any_game",
    "private_panels_stay_private",
    "spy",
]
