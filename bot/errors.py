"""Errors in three layers, answered in one place.

* :class:`UserError` — a guard (not seated, not your turn, stale button, missing permission) or a
  refused input: answered ephemerally with a translated message; nothing changed.
* Engine :class:`~games.core.errors.IllegalAction`, house-rule :class:`RuleError` and storage errors
  carry a message ``code``: answered ephemerally with that message.
* Anything else is logged with its context, the user gets a short apology, and it propagates to
  discord.py's handlers (so tests see it).
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import discord

from bot.i18n import has, t
from games.core.errors import IllegalAction
from games.core.house_rules import RuleError

log = logging.getLogger(__name__)

F = TypeVar("F", bound=Callable[..., Awaitable[Any]])


class UserError(Exception):
    """A refusal the user should read: ``key`` is an i18n key, ``params`` fill it."""

    def __init__(self, key: str, **params: Any) -> None:
        super().__init__(key)
        self.key = key
        self.params = params


def message_for(error: BaseException, locale: object) -> str | None:
    """The translated text for an expected error, or ``None`` for an unexpected one."""
    if isinstance(error, UserError):
        return t(error.key, locale, **error.params)
    code = getattr(error, "code", None)
    if isinstance(error, (IllegalAction, RuleError)) or (isinstance(code, str) and has(code)):
        params = dict(getattr(error, "params", {}) or {})
        if isinstance(code, str) and has(code):
            return t(code, locale, **_localised(code, params, locale))
        return str(error)
    return None


def _localised(code: str, params: dict[str, Any], locale: object) -> dict[str, Any]:
    """Word-valued parameters in the reader's language: ``row="front"`` of an ``ofc.`` message reads
    ``t("ofc.row_front")`` when the catalog has that key (engines speak in identifiers, not words)."""
    namespace = code.split(".", 1)[0]
    out = dict(params)
    for name, value in params.items():
        key = f"{namespace}.{name}_{value}"
        if isinstance(value, str) and has(key):
            out[name] = t(key, locale)
    return out


async def send_ephemeral(interaction: discord.Interaction, text: str) -> None:
    """Reply privately, whether or not the interaction was already answered."""
    if interaction.response.is_done():
        await interaction.followup.send(text, ephemeral=True)
    else:
        await interaction.response.send_message(text, ephemeral=True)


async def answer_error(interaction: discord.Interaction, error: BaseException) -> bool:
    """Answer an expected error ephemerally; return False for anything unexpected."""
    text = message_for(error, interaction.locale)
    if text is None:
        return False
    await send_ephemeral(interaction, "⚠️ " + text)
    return True


async def apologise(interaction: discord.Interaction, error: BaseException, where: str) -> None:
    log.error(
        "unexpected error in %s (guild=%s user=%s)", where, interaction.guild_id, interaction.user.id, exc_info=error
    )
    try:
        await send_ephemeral(interaction, t("bot.unexpected_error", interaction.locale))
    except discord.HTTPException:
        log.warning("could not send the apology for %s", where)


def guarded(func: F) -> F:
    """Wrap a command or component callback: expected errors become ephemeral replies."""

    @functools.wraps(func)
    async def wrapper(*args: Any, **kwargs: Any) -> Any:
        interaction = next((a for a in args if isinstance(a, discord.Interaction)), None)
        if interaction is None:
            interaction = kwargs.get("interaction")
        try:
            return await func(*args, **kwargs)
        except Exception as error:
            if interaction is not None and await answer_error(interaction, error):
                return None
            if interaction is not None:
                await apologise(interaction, error, getattr(func, "__qualname__", "callback"))
            raise

    return wrapper  # type: ignore[return-value]
