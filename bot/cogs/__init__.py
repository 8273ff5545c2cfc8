"""One cog per feature; the bot loads every cog listed here."""

from __future__ import annotations

from bot.cogs.economy import EconomyCog
from bot.cogs.export import ExportCog
from bot.cogs.history import HistoryCog
from bot.cogs.howto import HowtoCog
from bot.cogs.learn import LearnCog
from bot.cogs.limits import LimitsCog
from bot.cogs.moderation import ModerationCog
from bot.cogs.play import PlayCog
from bot.cogs.ratings import RatingsCog
from bot.cogs.rules import RulesCog
from bot.cogs.seasons import SeasonsCog
from bot.cogs.stats import StatsCog
from bot.cogs.tournaments import TournamentsCog

COGS = [
    PlayCog,
    EconomyCog,
    ModerationCog,
    RulesCog,
    HowtoCog,
    LearnCog,
    HistoryCog,
    StatsCog,
    ExportCog,
    RatingsCog,
    SeasonsCog,
    LimitsCog,
    TournamentsCog,
]
"""In this order: a cog that cannot be imported is an error at start, never a feature silently missing."""
