"""The generic panel: how each kind of decision is drawn, and its steps, on made-up decisions (no game)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest

from bot.errors import UserError
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
from bot.ui.panel import Button, Ids, OpenModal, Select
from games.core.actions import Action, AmountRange

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
    assert [(b.custom_id, b.disabled) for b in buttons] == [("fdb:7:42:a:play~5S", False), ("fdb:7:42:a:play~7C", True)]


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


def test_at_most_five_rows() -> None:
    many = [ChooseOne(f"k{i}", "", [Option(str(j), Play(f"{j}C")) for j in range(3)]) for i in range(8)]
    rendered = panel.render(PanelSpec("", many), IDS, "en", {})
    assert len(rendered.rows) == panel.MAX_ROWS and all(len(row) <= panel.ROW_WIDTH for row in rendered.rows)


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
    assert len(ids_seen) == len(set(ids_seen)) == 7
