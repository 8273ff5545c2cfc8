"""Domain errors raised by the engines."""

from __future__ import annotations

from typing import Any


class GameError(Exception):
    """Base class for every error an engine raises on purpose."""


class IllegalAction(GameError):
    """An action refused by the rules; the engine state is unchanged.

    ``code`` is a stable message key (the bot translates it, for example
    ``"oicho.bet_over_cap"``); ``params`` fill the message's placeholders; the
    exception text is a plain English reason for logs, tests and the replay CLI.
    """

    def __init__(self, code: str, reason: str, **params: Any) -> None:
        super().__init__(reason)
        self.code = code
        self.reason = reason
        self.params: dict[str, Any] = params


class NotationError(GameError, ValueError):
    """A card or action written in a notation that does not parse."""


class RecordError(GameError, ValueError):
    """A table record that is malformed or does not replay."""
