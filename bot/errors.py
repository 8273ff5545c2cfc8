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

from bot.i18n import has, lang_of, t
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

    def __reduce__(self) -> tuple[Any, ...]:
        # Raised in a worker process (a game's panel step) and read back here: keep the parameters.
        return (_user_error, (self.key, self.params))


def _user_error(key: str, params: dict[str, Any]) -> UserError:
    return UserError(key, **params)


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


CARD_PARAMS = frozenset({"card", "cards", "winning", "options"})
"""Refusal parameters whose value is cards in the engine's notation: one card (``card``: ``"5s"``), a play
(``cards``, and ``winning``, the play to beat: ``"3C 4C 5C"``), or several plays (``options``: ``"9S / 1T LT"``).
Every engine's refusals were checked for these names (``games/*/engine.py``)."""


def _localised(code: str, params: dict[str, Any], locale: object) -> dict[str, Any]:
    """Parameters as the reader's panels put them (engines speak in identifiers, not words):

    * a word: ``row="front"`` of an ``ofc.`` message reads ``t("ofc.row_front")`` when the catalog has that key;
    * cards: each card of a :data:`CARD_PARAMS` value is named as that game's panels name it (``5s`` → ``5♠️``
      in Hachi-Hachi, ``7M`` → ``七貫`` in Japanese Luk Fu); the code's namespace is the game's id."""
    namespace = code.split(".", 1)[0]
    out = dict(params)
    for name, value in params.items():
        if not isinstance(value, str):
            continue
        key = f"{namespace}.{name}_{value}"
        if has(key):
            out[name] = t(key, locale)
        elif name in CARD_PARAMS:
            out[name] = _cards_named(namespace, value, lang_of(locale))
    return out


def _cards_named(game_id: str, text: str, lang: str) -> str:
    """Every card in ``text`` by the game's own label; anything else (the `` / `` between plays) as it is."""
    from bot.ui import adapters  # the presentations import this module: look them up only when needed

    ui = adapters().get(game_id)
    if ui is None:
        return text
    return " ".join(ui.card_label(token, lang) or token for token in text.split(" "))


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
