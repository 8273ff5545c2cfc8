"""The generic panel: how each kind of decision is drawn, and its steps, on made-up decisions (no game).

The second half is the "never truncate" contract: every shape with more choices than Discord holds at once
(25 options a menu, five rows of five buttons) is split into steps, and :func:`check_reachable` (the check the
every-game driver runs at each decision) proves that every legal move is still reachable."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

import pytest

from bot.errors import UserError
from bot.i18n import t
from bot.ui import panel
from bot.ui.decisions import (
    AmountChoice,
    Arrange,
    ChooseAmount,
    ChooseOne,
    ChooseSubset,
    Extra,
    Group,
    Option,
    PanelSpec,
)
from bot.ui.panel import Button, Ids, OpenModal, Select, shapes
from games.core.actions import Action, ActionCodec, AmountRange
from tests.bot.tables.any_game import check_reachable

IDS = Ids(7, 42)


@dataclass(frozen=True)
class Play(Action):
    verb = "play"
    card: str


@dataclass(frozen=True)
class Bet(Action):
    verb = "bet"
    pile: int
    amount: int


@dataclass(frozen=True)
class Keep(Action):
    verb = "keep"
    cards: str


def components(rendered: panel.Rendered) -> list[Any]:
    return [c for row in rendered.rows for c in row]


def test_a_few_options_are_buttons_and_a_forbidden_one_says_why() -> None:
    spec = PanelSpec(
        "Your lead.",
        [
            ChooseOne(
                "lead",
                "Lead a card:",
                [
                    Option("5♠", Play("5S")),
                    Option("7♣", Play("7C"), enabled=False, reason="an old card may not be led"),
                ],
            )
        ],
    )
    rendered = panel.render(spec, IDS, "en", {})
    assert "⛔ 7♣: an old card may not be led" in rendered.content
    buttons = [c for c in components(rendered) if isinstance(c, Button)]
    assert [(b.custom_id, b.disabled) for b in buttons] == [
        ("fdb:7:42:a:play~5S", False),
        ("fdb:7:42:a:play~7C", True),
        ("fdb:7:42:u:help:", False),
    ]


def test_many_options_become_a_select_whose_choice_is_the_move() -> None:
    options = [Option(f"card {i}", Play(f"{i}M")) for i in range(1, 9)]
    spec = PanelSpec("", [ChooseOne("lead", "", options)])
    (select,) = [c for c in components(panel.render(spec, IDS, "en", {})) if isinstance(c, Select)]
    assert select.custom_id == "fdb:7:42:s:act:lead" and len(select.options) == 8
    assert panel.step(spec, IDS, "en", "act", "lead/play 3M", {}) == Play("3M")
    with pytest.raises(UserError):
        panel.step(spec, IDS, "en", "act", "lead/play 9T", {})  # not offered (a forged value)


def test_an_amount_for_one_of_several_ranges() -> None:
    spec = PanelSpec(
        "",
        [
            ChooseAmount(
                "bet",
                "",
                [
                    AmountChoice("1", "Pile 1", AmountRange(Bet(1, 1), 1, 30)),
                    AmountChoice("2", "Pile 2", AmountRange(Bet(2, 1), 1, 7)),
                ],
                presets=(1, 5, 10),
            )
        ],
    )
    state: dict[str, str] = {}
    first = components(panel.render(spec, IDS, "en", state))
    assert [b.label for b in first if isinstance(b, Button)][:4] == ["1", "5", "10", "Max 30"]
    assert panel.step(spec, IDS, "en", "rng", "bet/2", state) is None and state == {"bet.range": "2"}
    second = [b for b in components(panel.render(spec, IDS, "en", state)) if isinstance(b, Button)]
    assert [b.custom_id for b in second][:3] == ["fdb:7:42:a:bet~2~1", "fdb:7:42:a:bet~2~5", "fdb:7:42:a:bet~2~7"]
    modal = panel.step(spec, IDS, "en", "amt", "bet/2", state)
    assert isinstance(modal, OpenModal) and modal.custom_id == "fdb:7:42:m:amt:bet/2" and modal.hint == "1–7"
    assert panel.amount_action(spec, "bet/2", 6) == Bet(2, 6)
    with pytest.raises(UserError):
        panel.step(spec, IDS, "en", "rng", "bet/9", state)


def test_a_subset_is_confirmed_only_when_it_makes_a_move() -> None:
    def build(values: tuple[str, ...]) -> Action | None:
        return Keep(".".join(sorted(values))) if len(values) == 2 else None

    spec = PanelSpec("", [ChooseSubset("keep", "Keep two:", [("A", "a"), ("B", "b"), ("C", "c")], 1, 2, build)])
    state: dict[str, str] = {}
    confirm = next(c for c in components(panel.render(spec, IDS, "en", state)) if isinstance(c, Button))
    assert confirm.disabled
    assert panel.step(spec, IDS, "en", "sub", "keep/a,c", state) is None
    confirm = next(c for c in components(panel.render(spec, IDS, "en", state)) if isinstance(c, Button))
    assert not confirm.disabled
    assert panel.step(spec, IDS, "en", "subok", "keep", state) == Keep("a.c")
    with pytest.raises(UserError):
        panel.step(spec, IDS, "en", "sub", "keep/a,z", state)


def test_a_subset_confirmed_too_soon_says_why_in_plain_words() -> None:
    """Confirm is greyed until the choice makes a move; a press that comes anyway (a stale or forged one) is refused
    saying what is missing, about the items chosen (not about "places", which only an arrangement has)."""

    def build(values: tuple[str, ...]) -> Action | None:
        return Keep(".".join(sorted(values))) if len(values) == 2 else None

    spec = PanelSpec("", [ChooseSubset("keep", "Keep two:", [("A", "a"), ("B", "b"), ("C", "c")], 1, 2, build)])
    state: dict[str, str] = {}
    with pytest.raises(UserError) as none_yet:
        panel.step(spec, IDS, "en", "subok", "keep", state)
    assert none_yet.value.key == "panel.choose_count"
    assert t(none_yet.value.key, "en", **none_yet.value.params) == "Choose 1–2 before confirming (you have chosen 0)."
    assert (
        t(none_yet.value.key, "ja", **none_yet.value.params)
        == "確定する前に1–2個選んでください（いま選んでいるのは0個）。"
    )
    panel.step(spec, IDS, "en", "sub", "keep/b", state)
    with pytest.raises(UserError) as no_move:
        panel.step(spec, IDS, "en", "subok", "keep", state)
    assert no_move.value.key == "panel.not_a_move" and not no_move.value.params
    assert state == {"keep.chosen": "b"}  # refused: the choice is kept as it was


def arrange(mode: str = "steps") -> Arrange:
    legal = {("x", "top"), ("y", "bottom")}

    def feasible(partial: Any) -> bool:
        return all((v, g) in legal for v, g in partial.items())

    def build(assignment: Any) -> Action | None:
        return Keep("x.y") if set(assignment.items()) == legal else None

    return Arrange(
        "put",
        "",
        [("X", "x"), ("Y", "y")],
        [Group("top", "Top", 1), Group("bottom", "Bottom", 1)],
        build,
        feasible,
        mode=mode,
    )


def test_an_arrangement_step_by_step_with_undo() -> None:
    spec = PanelSpec("", [arrange()], [Extra("Hint", "hint", emoji="💡")])
    state: dict[str, str] = {}
    drawn = {b.custom_id: b for b in components(panel.render(spec, IDS, "en", state)) if isinstance(b, Button)}
    # The first item is picked; only the group a legal move allows is enabled.
    assert not drawn["fdb:7:42:u:put:put/top"].disabled and drawn["fdb:7:42:u:put:put/bottom"].disabled
    assert "fdb:7:42:u:x:hint/" in drawn
    with pytest.raises(UserError):
        panel.step(spec, IDS, "en", "put", "put/bottom", dict(state))
    panel.step(spec, IDS, "en", "put", "put/top", state)
    panel.step(spec, IDS, "en", "undo", "put", state)
    assert panel.draft_of(spec.decisions[0], state).picked == "x"  # undo picks the card again
    panel.step(spec, IDS, "en", "put", "put/top", state)
    panel.step(spec, IDS, "en", "put", "put/bottom", state)
    assert panel.step(spec, IDS, "en", "ok", "put", state) == Keep("x.y")


def test_a_group_greyed_out_for_the_item_being_placed_says_why() -> None:
    """X may only go to Top: the panel says why Bottom (which has room) is greyed out, in both languages; once X is
    placed, Y may only go to Bottom, and no group with room is closed to it, so the line goes."""
    spec = PanelSpec("", [arrange()])
    state: dict[str, str] = {}
    assert "⛔ Bottom: no legal move puts X there" in panel.render(spec, IDS, "en", state).content
    assert "⛔ Bottom：" in panel.render(spec, IDS, "ja", state).content
    panel.step(spec, IDS, "en", "put", "put/top", state)
    assert "⛔" not in panel.render(spec, IDS, "en", state).content


def test_an_arrangement_by_one_select_per_group() -> None:
    spec = PanelSpec("", [arrange("selects")])
    state: dict[str, str] = {}
    selects = [c for c in components(panel.render(spec, IDS, "en", state)) if isinstance(c, Select)]
    assert [s.custom_id for s in selects] == ["fdb:7:42:s:grp:put/top", "fdb:7:42:s:grp:put/bottom"]
    panel.step(spec, IDS, "en", "grp", "put/top/x", state)
    panel.step(spec, IDS, "en", "grp", "put/bottom/y", state)
    assert panel.step(spec, IDS, "en", "ok", "put", state) == Keep("x.y")
    with pytest.raises(UserError):
        panel.step(spec, IDS, "en", "grp", "put/top/x,y", state)  # two cards in a group of one


def test_choices_made_for_other_items_are_void() -> None:
    spec = PanelSpec("", [arrange()])
    state = {"put.for": "p q", "put.plan": "p:top", "put.pick": "q"}
    draft = panel.draft_of(spec.decisions[0], state)
    assert draft.plan == [] and draft.picked is None


def test_a_step_for_a_decision_the_panel_does_not_have_is_refused() -> None:
    spec = PanelSpec("", [arrange()])
    for verb, arg in (("rng", "bet/1"), ("subok", "keep"), ("act", "lead/play 1C"), ("zzz", "put")):
        with pytest.raises(UserError):
            panel.step(spec, IDS, "en", verb, arg, {})


def test_every_component_id_on_a_panel_is_unique() -> None:
    """Discord refuses a message whose components share an id: options shown disabled included."""
    spec = PanelSpec(
        "",
        [
            ChooseOne(
                "lead", "", [Option(f"c{i}", None, reason="forbidden") for i in range(3)] + [Option("ok", Play("1C"))]
            ),
            ChooseAmount("bet", "", [], none_label="No room"),
            ChooseOne("more", "", [Option("x", None), Option("y", None)]),
        ],
    )
    ids_seen = [c.custom_id for c in components(panel.render(spec, IDS, "en", {}))]
    assert len(ids_seen) == len(set(ids_seen)) == 8  # the "?" included


# ---------------------------------------------------------------- never truncate: every shape splits


@dataclass(frozen=True)
class Take(Action):
    """A move naming several items, one argument each (so the check can read which items it takes)."""

    verb = "take"
    values: tuple[str, ...]

    def args(self) -> list[str]:
        return list(self.values)

    @classmethod
    def from_args(cls, args: Any) -> Action:
        return cls(tuple(args))


CODEC = ActionCodec([Play, Bet, Keep, Take])


def reachable(spec: PanelSpec, legal: Any, state: dict[str, str] | None = None, ids: Ids = IDS) -> Any:
    return check_reachable(lambda _: spec, legal, ids, "en", CODEC, state or {}, random.Random(1))


def menu(spec: PanelSpec, state: dict[str, str]) -> Select:
    (select,) = [c for c in components(panel.render(spec, IDS, "en", state)) if isinstance(c, Select)]
    return select


def cards(n: int, group: Any = None) -> list[Option]:
    return [Option(f"card {i:03}", Play(f"{i}C"), group=group(i) if group else None) for i in range(n)]


def test_a_menu_too_long_for_one_select_is_split_into_groups_never_cut() -> None:
    options = cards(60)
    spec = PanelSpec("", [ChooseOne("lead", "", options, placeholder="Lead")])
    state: dict[str, str] = {}
    top = menu(spec, state)
    # No hint: three slices of twenty, each named by its first and last choice.
    assert [(o.label, o.value, o.description) for o in top.options] == [
        ("▶ card 000 … card 019", "@0", "20 choices"),
        ("▶ card 020 … card 039", "@1", "20 choices"),
        ("▶ card 040 … card 059", "@2", "20 choices"),
    ]
    assert panel.step(spec, IDS, "en", "act", "lead/@2", state) is None
    inside = menu(spec, state)
    assert inside.placeholder == "card 040 … card 059 · Lead"
    assert inside.options[0].label == "◀ Back" and inside.options[0].value == "@"
    assert [o.value for o in inside.options[1:]] == [f"play {i}C" for i in range(40, 60)]
    assert menu(spec, state) == inside  # where the menu stands survives a redraw
    assert panel.step(spec, IDS, "en", "act", "lead/play 59C", state) == Play("59C")
    assert panel.step(spec, IDS, "en", "act", "lead/@", state) is None and menu(spec, state) == top
    reach = reachable(spec, [o.action for o in options])
    assert len(reach.actions) == 60


def test_a_menu_groups_by_the_games_hint_and_splits_a_group_still_too_big() -> None:
    def kind(i: int) -> str:
        return "Singles" if i < 5 else "Runs" if i < 45 else "Tigers"

    options = cards(47, kind)
    spec = PanelSpec("", [ChooseOne("lead", "", options)])
    state: dict[str, str] = {}
    assert [o.label for o in menu(spec, state).options] == ["▶ Singles", "▶ Runs", "▶ Tigers"]
    panel.step(spec, IDS, "en", "act", "lead/@1", state)
    runs = menu(spec, state)
    assert [o.label for o in runs.options] == ["◀ Back", "▶ card 005 … card 024", "▶ card 025 … card 044"]
    panel.step(spec, IDS, "en", "act", "lead/@1.1", state)
    assert menu(spec, state).options[0].value == "@1" and menu(spec, state).options[0].description == "Runs"
    # The top (as first drawn and as gone back to), three groups, two slices of the big one.
    assert reachable(spec, [o.action for o in options]).states == 7


def test_a_menu_of_hundreds_has_groups_of_groups() -> None:
    options = cards(700)
    spec = PanelSpec("", [ChooseOne("lead", "", options)])
    top = menu(spec, {})
    assert len(top.options) == 2 and top.options[0].label == "▶ card 000 … card 359"
    reach = reachable(spec, [o.action for o in options])
    assert len(reach.actions) == 700


def test_a_stale_or_forged_group_is_refused_and_changes_nothing() -> None:
    spec = PanelSpec("", [ChooseOne("lead", "", cards(60))])
    state: dict[str, str] = {}
    panel.step(spec, IDS, "en", "act", "lead/@1", state)
    before = dict(state)
    for value in ("@3", "@1.0", "@x", "@-1", "@01", "@1.", "@ 1"):
        with pytest.raises(UserError) as refused:
            panel.step(spec, IDS, "en", "act", f"lead/{value}", state)
        assert refused.value.key == "panel.stale_group"
    for arg in ("lead/@1", "lead/x@1", "*/@1", "nope/@0"):  # no menu of this panel pages by `go`
        with pytest.raises(UserError) as refused:
            panel.step(spec, IDS, "en", "go", arg, state)
        assert refused.value.key == "panel.stale_group"
    assert state == before


def test_a_new_decision_starts_its_menu_at_the_top() -> None:
    state: dict[str, str] = {}
    first = PanelSpec("", [ChooseOne("lead", "", cards(60))])
    panel.step(first, IDS, "en", "act", "lead/@1", state)
    later = PanelSpec("", [ChooseOne("lead", "", cards(59))])  # the next trick: other choices
    assert all(o.value.startswith("@") and o.label.startswith("▶") for o in menu(later, state).options)


def test_many_amount_ranges_are_split_and_each_is_reachable() -> None:
    ranges = [AmountChoice(str(p), f"Pile {p}", AmountRange(Bet(p, 1), 1, 10 + p)) for p in range(1, 31)]
    spec = PanelSpec("", [ChooseAmount("bet", "", ranges, presets=(1, 5, 10, 25))])
    state: dict[str, str] = {}
    top = menu(spec, state)
    assert [o.value for o in top.options] == ["@0", "@1"]
    panel.step(spec, IDS, "en", "rng", "bet/@1", state)
    panel.step(spec, IDS, "en", "rng", "bet/30", state)
    assert state["bet.range"] == "30"
    picked = menu(spec, state)
    assert [o.value for o in picked.options if o.default] == ["30"]
    reach = reachable(spec, [c.range for c in ranges])
    assert {"bet 30 1", "bet 30 5", "bet 30 10", "bet 30 25", "bet 30 40"} <= set(reach.actions)
    with pytest.raises(UserError):
        panel.step(spec, IDS, "en", "rng", "bet/@7", state)


def test_an_amount_drawn_in_one_row_keeps_every_amount_reachable() -> None:
    """Four other decisions leave the amount one row: fewer presets, the largest and the typed amount."""
    others = [ChooseOne(f"k{i}", "", [Option("x", Play(f"{i}S"))]) for i in range(4)]
    amount = ChooseAmount("bet", "", [AmountChoice("1", "Pile 1", AmountRange(Bet(1, 1), 1, 200))])
    spec = PanelSpec("", [amount, *others])
    rendered = panel.render(spec, IDS, "en", {})
    assert [b.label for b in rendered.rows[0]] == ["1", "5", "10", "Max 200", "Amount…"]
    reach = reachable(spec, [amount.ranges[0].range, *[o.options[0].action for o in others]])
    assert "bet 1 25" not in reach.actions and reach.modals  # 25, 50 and 100 are typed in the modal


def test_a_subset_of_more_items_than_a_select_holds_is_chosen_page_by_page() -> None:
    items = [(f"Item {i:02}", f"i{i}") for i in range(40)]

    def build(values: tuple[str, ...]) -> Action | None:
        return Take(values) if len(values) in (2, 3) else None

    spec = PanelSpec("", [ChooseSubset("keep", "", items, 2, 3, build, placeholder="Keep")])
    state: dict[str, str] = {}
    first = menu(spec, state)
    assert first.custom_id == "fdb:7:42:s:sub:keep@0" and len(first.options) == 20 and first.min_values == 0
    assert first.placeholder == "Item 00 … Item 19 (1/2) · Keep"
    panel.step(spec, IDS, "en", "sub", "keep@0/i1,i3", state)
    page_buttons = [c for c in components(panel.render(spec, IDS, "en", state)) if isinstance(c, Button)]
    assert [(b.label, b.disabled) for b in page_buttons] == [
        ("Confirm", False),
        ("◀ Page 1/2", True),
        ("Page 2/2 ▶", False),
        ("?", False),
    ]
    panel.step(spec, IDS, "en", "go", page_buttons[2].custom_id.split(":u:go:")[1], state)
    second = menu(spec, state)
    assert second.custom_id == "fdb:7:42:s:sub:keep@20" and second.options[0].value == "i20"
    panel.step(spec, IDS, "en", "sub", "keep@20/i39", state)
    assert "Chosen so far: Item 01, Item 03, Item 39" in panel.render(spec, IDS, "en", state).content
    with pytest.raises(UserError) as refused:
        panel.step(spec, IDS, "en", "sub", "keep@20/i38,i39", state)  # a fourth item
    assert refused.value.key == "panel.too_many"
    for forged in ("keep/i1", "keep@99/i1", "keep@20/i1", "keep@x/i1"):  # no page, a page it lacks, another page's item
        with pytest.raises(UserError):
            panel.step(spec, IDS, "en", "sub", forged, state)
    assert panel.step(spec, IDS, "en", "subok", "keep", state) == Take(("i1", "i3", "i39"))
    legal = [Take(("i0", "i39")), Take(("i5", "i20", "i21")), Take(("i18", "i19"))]
    assert reachable(spec, legal).driven == 3


def test_pages_keep_the_games_groups_whole_when_they_fit() -> None:
    suits = {"C": 8, "S": 8, "M": 30, "T": 6}  # the Myriads alone are more than a page
    items = [(f"{r}{s}", f"{r}{s}") for s, n in suits.items() for r in range(n)]
    hints = {value: f"suit {value[-1]}" for _, value in items}
    spec = PanelSpec("", [ChooseSubset("drop", "", items, 1, 1, lambda v: Take(v), groups=hints)])
    state: dict[str, str] = {}
    placeholders = []
    for _ in range(4):
        drawn = components(panel.render(spec, IDS, "en", state))
        placeholders.append(next(c for c in drawn if isinstance(c, Select)).placeholder)
        forward = [b for b in drawn if isinstance(b, Button) and b.label.endswith("▶") and not b.disabled]
        if forward:
            panel.step(spec, IDS, "en", "go", forward[0].custom_id.split(":u:go:")[1], state)
    assert placeholders == [
        "suit C … suit S (1/4)",
        "suit M: 0M … suit M: 14M (2/4)",
        "suit M: 15M … suit M: 29M (3/4)",
        "suit T (4/4)",
    ]


def arrangement(items: int, groups: int, legal: list[dict[str, str]], mode: str) -> tuple[Arrange, list[Action]]:
    values = [f"v{i}" for i in range(items)]
    names = [f"g{j}" for j in range(groups)]

    def move(assignment: Any) -> Action:
        return Take(tuple(f"{v}:{assignment[v]}" for v in values if v in assignment))

    def feasible(partial: Any) -> bool:
        return any(all(option.get(v) == g for v, g in partial.items()) for option in legal)

    def build(assignment: Any) -> Action | None:
        return move(assignment) if dict(assignment) in legal else None

    decision = Arrange(
        "put",
        "",
        [(f"Item {v}", v) for v in values],
        [Group(n, f"Group {n}", items) for n in names],
        build,
        feasible,
        mode=mode,
    )
    return decision, [move(option) for option in legal]


def test_an_arrangement_with_more_items_and_groups_than_buttons_pages_them() -> None:
    legal = [{f"v{i}": f"g{(i * k) % 7}" for i in range(30)} for k in (1, 2, 3)]
    decision, moves = arrangement(30, 7, legal, "steps")
    spec = PanelSpec("", [decision])
    rendered = panel.render(spec, IDS, "en", {})
    labels = [[getattr(c, "label", "") for c in row] for row in rendered.rows]
    # Three rows of items (ten a page, so pages are even), a row of groups (three a page), undo, clear, confirm.
    assert labels[0][0] == "Item v0" and labels[1][-1] == "Item v9" and labels[2] == ["◀ Page 1/3", "Page 2/3 ▶"]
    assert labels[3] == ["Group g0 (30)", "Group g1 (30)", "Group g2 (30)", "◀ Page 1/3", "Page 2/3 ▶"]
    assert labels[4] == ["Undo", "Clear", "Confirm", "?"]  # the "?" where a place is left: no row taken from the items
    assert set(reachable(spec, moves).actions) == {m.text for m in moves}


def test_an_arrangement_by_selects_pages_items_and_shows_one_group_when_rows_run_short() -> None:
    legal = [{f"v{i}": f"g{(i + k) % 6}" for i in range(30)} for k in range(3)]
    decision, moves = arrangement(30, 6, legal, "selects")
    spec = PanelSpec("", [decision])
    state: dict[str, str] = {}
    select = menu(spec, state)  # six groups do not fit five rows: one group's select at a time
    assert select.custom_id == "fdb:7:42:s:grp:put/g0@0" and len(select.options) == 15
    panel.step(spec, IDS, "en", "grp", "put/g0@0/v0,v6", state)
    panel.step(spec, IDS, "en", "go", "put/sel@g4:15", state)
    assert menu(spec, state).custom_id == "fdb:7:42:s:grp:put/g4@15"
    panel.step(spec, IDS, "en", "grp", "put/g4@15/v16", state)
    assert panel.draft_of(decision, state).assignment() == {"v0": "g0", "v6": "g0", "v16": "g4"}
    for forged in ("put/sel@g9:0", "put/sel@g1:30", "put/pick@0", "put/sel@*:x"):
        with pytest.raises(UserError):
            panel.step(spec, IDS, "en", "go", forged, state)
    assert reachable(spec, moves).driven == 3


def test_buttons_that_do_not_fit_their_rows_become_a_menu() -> None:
    many = ChooseOne("card", "", cards(30), select=False)  # a game asked for buttons: 30 do not fit
    assert len(menu(PanelSpec("", [many]), {}).options) == 2
    reachable(PanelSpec("", [many]), [o.action for o in many.options])
    # Six buttons would take two rows; other decisions leave one, so they become a menu too.
    six = ChooseOne("card", "", cards(6), select=False)
    others = [ChooseOne(f"k{i}", "", [Option("x", Play(f"{i}S"))]) for i in range(4)]
    spec = PanelSpec("", [six, *others])
    assert isinstance(panel.render(spec, IDS, "en", {}).rows[0][0], Select)
    reachable(spec, [o.action for d in spec.decisions for o in d.options])  # type: ignore[union-attr]


def test_more_decisions_than_five_rows_are_shown_a_page_at_a_time() -> None:
    many = [ChooseOne(f"k{i}", "", [Option(str(j), Play(f"{i}{j}C")) for j in range(3)]) for i in range(8)]
    spec = PanelSpec("", many, [Extra("Hint", "hint")])
    state: dict[str, str] = {}
    rendered = panel.render(spec, IDS, "en", state)
    assert len(rendered.rows) == panel.MAX_ROWS and all(len(row) <= panel.ROW_WIDTH for row in rendered.rows)
    assert [b.label for b in rendered.rows[-1]] == ["Hint", "◀ Page 1/2", "Page 2/2 ▶", "?"]
    panel.step(spec, IDS, "en", "go", "*/@1", state)
    second = panel.render(spec, IDS, "en", state)
    assert second.rows[0][0].custom_id == "fdb:7:42:a:play~40C"
    with pytest.raises(UserError):
        panel.step(spec, IDS, "en", "go", "*/@2", state)
    assert len(reachable(spec, [o.action for d in many for o in d.options]).actions) == 24


def test_a_long_label_is_never_cut_silently() -> None:
    long = "a very long label " * 8  # 144 characters
    spec = PanelSpec("", [ChooseOne("lead", "", [Option(long, Play("1C")), Option("short", Play("2C"))])])
    (option, _) = menu(spec, {}).options  # too long for a button: drawn as a menu, the rest in its description
    assert option.label == long[:99] + "…" and option.description == "…" + long[99:]
    decision, _ = arrangement(2, 2, [{"v0": "g0", "v1": "g1"}], "steps")
    long_item = Arrange("put", "", [(long, "v0"), ("b", "v1")], decision.groups, decision.build, decision.feasible)
    labels = [b.label for b in components(panel.render(PanelSpec("", [long_item], [Extra(long, "x")]), IDS, "en", {}))]
    assert long[:79] + "…" in labels and labels.count(long[:79] + "…") == 2  # the item and the extra button


def test_a_move_too_long_for_a_button_id_is_offered_in_a_menu() -> None:
    ids = Ids(10**17, 10**17)  # the longest table and decision numbers
    move = Keep("x" * 60)
    spec = PanelSpec("", [ChooseOne("keep", "", [Option("Keep them", move)])])
    assert isinstance(panel.render(spec, ids, "en", {}).rows[0][0], Select)
    reachable(spec, [move], ids=ids)
    with pytest.raises(ValueError, match="at most 100"):
        panel.render(PanelSpec("", [ChooseOne("keep", "", [Option("Keep", Keep("x" * 120))])]), IDS, "en", {})


def test_a_panel_that_cannot_be_drawn_is_refused_loudly() -> None:
    extras = [Extra(str(i), str(i)) for i in range(14)]  # three rows of extras leave no room for an arrangement
    decision, _ = arrangement(2, 2, [{"v0": "g0", "v1": "g1"}], "steps")
    with pytest.raises(ValueError, match="no room"):
        panel.render(PanelSpec("", [decision, decision], extras), IDS, "en", {})
    with pytest.raises(ValueError, match="cannot name"):
        panel.render(PanelSpec("", [ChooseOne("a/b", "", [])]), IDS, "en", {})


def test_the_check_catches_an_offer_that_is_not_legal_and_a_component_past_discords_limits(monkeypatch: Any) -> None:
    spec = PanelSpec("", [ChooseOne("lead", "", cards(30))])
    with pytest.raises(AssertionError, match=r"offers play 29C, which is not legal"):
        reachable(spec, [o.action for o in cards(29)])
    plain = shapes._menu

    def wide(*args: Any, **kwargs: Any) -> Select:  # 26 options, one label too long: Discord would refuse it
        drawn = plain(*args, **kwargs)
        more = tuple(panel.SelectOption("x" * (101 if i == 0 else 1), f"extra {i}") for i in range(25))
        return Select(drawn.custom_id, drawn.options + more)

    monkeypatch.setattr(shapes, "_menu", wide)
    with pytest.raises(AssertionError, match=r"26 options \(26 distinct\).*too long"):
        reachable(PanelSpec("", [ChooseOne("lead", "", cards(1), select=True)]), [Play("0C")])


# ---------------------------------------------------------------- the "?" of every panel


def test_every_panel_ends_with_its_question_mark_even_with_nothing_to_decide() -> None:
    waiting = panel.render(PanelSpec("Waiting for bob."), IDS, "ja", {})
    assert waiting.rows == [[Button("fdb:7:42:u:help:", "？")]]
    one = panel.render(
        PanelSpec("", [ChooseOne("call", "", [Option("Play", Play("1C")), Option("Pass", Play("2C"))])]), IDS, "en", {}
    )
    assert [[b.label for b in row] for row in one.rows] == [["Play", "Pass"], ["?"]]  # never beside the moves
    with pytest.raises(UserError):  # not a step of the panel's: the table runtime answers it (and nothing changes)
        panel.step(PanelSpec(""), IDS, "en", panel.HELP, "", {})


def test_the_question_mark_takes_a_row_only_when_no_row_has_a_place_for_it() -> None:
    """An arrangement's last row (undo, clear, confirm) has a place: its items keep their three rows (see
    test_an_arrangement_with_more_items_and_groups_than_buttons_pages_them). Five decisions of a row each fill the
    panel: with the "?" they are shown a page at a time, every move still reachable."""
    five = [ChooseOne(f"k{i}", "", [Option(f"x{i}", Play(f"{i}S"))]) for i in range(5)]
    spec = PanelSpec("", five)
    first = panel.render(spec, IDS, "en", {})
    assert len(first.rows) <= panel.MAX_ROWS and [b.label for b in first.rows[-1]] == ["◀ Page 1/2", "Page 2/2 ▶", "?"]
    assert len(reachable(spec, [Play(f"{i}S") for i in range(5)]).actions) == 5
