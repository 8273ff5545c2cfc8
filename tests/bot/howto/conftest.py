"""Helpers for reading the guide as a member sees it in SimCord."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import discord

from tests.bot.tables.driver import buttons


@dataclass(frozen=True)
class Shown:
    """What a guide message shows at one moment (read at once: the message is edited in place later)."""

    ephemeral: bool
    title: str
    body: str
    fields: dict[str, str]
    footer: str
    image: str | None
    attachments: list[Any]
    buttons: list[dict[str, Any]]
    menu: dict[str, Any] | None
    length: int
    content: str


def shown(message: Any) -> Shown:
    [embed] = message.embeds
    data = embed.to_dict()
    menus = [
        item
        for row in message.components
        for item in (row.get("components", []) if isinstance(row, dict) else [])
        if item.get("type") == 3
    ]
    return Shown(
        ephemeral=bool(message.flags.ephemeral),
        title=data.get("title", ""),
        body=data.get("description", ""),
        fields={f["name"]: f["value"] for f in data.get("fields", [])},
        footer=data.get("footer", {}).get("text", ""),
        image=data.get("image", {}).get("url"),
        attachments=list(message.attachments),
        buttons=buttons(message),
        menu=menus[0] if menus else None,
        length=len(discord.Embed.from_dict(data)),
        content=message.content or "",
    )


def button(view: Shown, label: str) -> dict[str, Any]:
    found = [b for b in view.buttons if b.get("label") == label]
    assert len(found) == 1, (label, view.buttons)
    return found[0]
