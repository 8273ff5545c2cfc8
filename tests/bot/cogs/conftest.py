"""Helpers for driving the economy, moderation and rules cogs as users would."""

from __future__ import annotations

from typing import Any


def allow_command(world: Any, name: str, *members: Any) -> None:
    """A server admin grants a moderator-only command to members (Integrations settings)."""
    command = world.env.backend.find_command(name, world.guild.id, type=1)
    world.guild.set_command_permissions(int(command["id"]), dict.fromkeys(members, True))


def embed_text(message: Any) -> str:
    """Everything a reader sees in a message's content and embeds, as one string."""
    parts = [message.content or ""]
    for embed in message.embeds:
        data = embed.to_dict()
        parts += [data.get("title", ""), data.get("description", "")]
        parts += [f"{f['name']}: {f['value']}" for f in data.get("fields", [])]
        parts.append(data.get("footer", {}).get("text", ""))
        parts.append(data.get("author", {}).get("name", ""))
    return "\n".join(p for p in parts if p)


def button_labels(message: Any) -> list[tuple[str, bool]]:
    """(label, disabled) of every button on a message."""
    found = []
    for row in message.components:
        for item in row.get("components", []):
            if item.get("type") == 2:
                found.append((item.get("label", ""), bool(item.get("disabled", False))))
    return found
