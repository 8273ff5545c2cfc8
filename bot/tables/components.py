"""Every button and select of a table as a ``DynamicItem``: the custom id carries the table, the
deal and the verb, so components keep working after a restart and stale ones are recognised.

Ids (at most 100 characters):
``fdb:<table>:lobby:<verb>`` lobby buttons · ``fdb:<table>:t:<verb>`` public table buttons ·
``fdb:<table>:<deal>:a:<action text, spaces as ~>`` an engine action on a private panel ·
``fdb:<table>:<deal>:u:<verb>:<arg>`` a UI step on a private panel · ``fdb:<table>:<deal>:s:<verb>`` a select.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import discord

from bot.errors import guarded

if TYPE_CHECKING:
    from bot.app import FudabaBot


def action_id(table_id: int, deal: int, action_text: str) -> str:
    return f"fdb:{table_id}:{deal}:a:{action_text.replace(' ', '~')}"[:100]


def ui_id(table_id: int, deal: int, verb: str, arg: str = "") -> str:
    return f"fdb:{table_id}:{deal}:u:{verb}:{arg}"[:100]


def select_id(table_id: int, deal: int, verb: str) -> str:
    return f"fdb:{table_id}:{deal}:s:{verb}"


def _bot(interaction: discord.Interaction) -> FudabaBot:
    return interaction.client  # type: ignore[return-value]


class LobbyButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"fdb:(?P<tid>\d+):lobby:(?P<verb>[a-z]+)"):
    def __init__(self, table_id: int, verb: str, label: str = "", style: discord.ButtonStyle = discord.ButtonStyle.secondary,
                 disabled: bool = False, emoji: str | None = None) -> None:
        super().__init__(discord.ui.Button(label=label or verb, style=style, custom_id=f"fdb:{table_id}:lobby:{verb}",
                                           disabled=disabled, emoji=emoji))
        self.table_id = table_id
        self.verb = verb

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]) -> LobbyButton:
        return cls(int(match["tid"]), match["verb"])

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        await _bot(interaction).tables.on_lobby(interaction, self.table_id, self.verb)


class TableButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"fdb:(?P<tid>\d+):t:(?P<verb>[a-z]+)"):
    def __init__(self, table_id: int, verb: str, label: str = "", style: discord.ButtonStyle = discord.ButtonStyle.secondary,
                 emoji: str | None = None) -> None:
        super().__init__(discord.ui.Button(label=label or verb, style=style, custom_id=f"fdb:{table_id}:t:{verb}", emoji=emoji))
        self.table_id = table_id
        self.verb = verb

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]) -> TableButton:
        return cls(int(match["tid"]), match["verb"])

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        await _bot(interaction).tables.on_table_button(interaction, self.table_id, self.verb)


class ActionButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"fdb:(?P<tid>\d+):(?P<deal>\d+):a:(?P<act>.+)"):
    def __init__(self, table_id: int, deal: int, action_text: str, label: str = "",
                 style: discord.ButtonStyle = discord.ButtonStyle.secondary, disabled: bool = False,
                 row: int | None = None, emoji: str | None = None) -> None:
        super().__init__(discord.ui.Button(label=label or action_text, style=style, disabled=disabled, row=row,
                                           custom_id=action_id(table_id, deal, action_text), emoji=emoji))
        self.table_id = table_id
        self.deal = deal
        self.action_text = action_text

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]) -> ActionButton:
        return cls(int(match["tid"]), int(match["deal"]), match["act"].replace("~", " "))

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        await _bot(interaction).tables.on_action(interaction, self.table_id, self.deal, self.action_text)


class UIButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"fdb:(?P<tid>\d+):(?P<deal>\d+):u:(?P<verb>[a-z]+):(?P<arg>.*)"):
    def __init__(self, table_id: int, deal: int, verb: str, arg: str = "", label: str = "",
                 style: discord.ButtonStyle = discord.ButtonStyle.secondary, disabled: bool = False,
                 row: int | None = None, emoji: str | None = None) -> None:
        super().__init__(discord.ui.Button(label=label or verb, style=style, disabled=disabled, row=row,
                                           custom_id=ui_id(table_id, deal, verb, arg), emoji=emoji))
        self.table_id = table_id
        self.deal = deal
        self.verb = verb
        self.arg = arg

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]) -> UIButton:
        return cls(int(match["tid"]), int(match["deal"]), match["verb"], match["arg"])

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        await _bot(interaction).tables.on_ui(interaction, self.table_id, self.deal, self.verb, self.arg)


class UISelect(discord.ui.DynamicItem[discord.ui.Select[Any]], template=r"fdb:(?P<tid>\d+):(?P<deal>\d+):s:(?P<verb>[a-z]+)"):
    def __init__(self, table_id: int, deal: int, verb: str, options: list[discord.SelectOption] | None = None,
                 placeholder: str | None = None, row: int | None = None, min_values: int = 1, max_values: int = 1,
                 disabled: bool = False) -> None:
        super().__init__(discord.ui.Select(custom_id=select_id(table_id, deal, verb), placeholder=placeholder,
                                           options=options or [discord.SelectOption(label="-", value="-")], row=row,
                                           min_values=min_values, max_values=max_values, disabled=disabled))
        self.table_id = table_id
        self.deal = deal
        self.verb = verb

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]) -> UISelect:
        return cls(int(match["tid"]), int(match["deal"]), match["verb"])

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        values = (interaction.data or {}).get("values", [])  # type: ignore[union-attr]
        value = ",".join(str(v) for v in values)  # a multi-select sends several
        await _bot(interaction).tables.on_ui(interaction, self.table_id, self.deal, self.verb, value)


DYNAMIC_ITEMS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (LobbyButton, TableButton, ActionButton, UIButton, UISelect)
