"""``/rules show|set|reset|history``: a server's house rules per game; ``/rules preset …``, named sets of them.

Everyone may read the rules; changing them and reading the audit trail is for moderators
(checked in the bot: ``/rules`` is one command group, and Discord's default permissions apply to
a whole group, so they cannot hide ``set`` but leave ``show`` visible). Parsing and validation
live in ``games.core.house_rules``; every change is stored with its old and new value through
``set_house_rule``. Open tables keep the rules they started with: the table manager reads the
rules in force when ``/play`` opens a table. The preset subcommands are declared at the end of the cog; what they
do is :mod:`bot.presets.commands`.

No ``from __future__ import annotations`` here: discord.py reads these annotations at import time.
"""

import logging
import re
import unicodedata
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands
from pydantic import BaseModel, ValidationError

from bot.cogs.economy import GAME_CHOICES, game_name
from bot.cogs.moderation import require_moderator
from bot.errors import UserError, guarded
from bot.i18n import t
from bot.i18n.translator import L
from bot.presets import commands as presets
from bot.storage import RuleChange
from games.core.house_rules import RuleOption, find_option, options, to_data, with_option, without_option
from games.core.rule_tables import (
    RuleTable,
    cell_text,
    find_row,
    find_table,
    row_text,
    row_value,
    tables,
    with_row,
    without_row,
)
from games.registry import GameSpec, all_games

if TYPE_CHECKING:
    from bot.app import FudabaBot

log = logging.getLogger(__name__)

COLOUR = discord.Colour.dark_green()
PAGE_CHARS = 3500  # an embed description holds 4096; leave room for the header line
PAGE_LINES = 20
HISTORY_LIMIT = 15
MAX_CHOICES = 25  # Discord's autocomplete limit
ALL_OPTIONS = "*"


def _spec(game: str) -> GameSpec:
    spec = all_games().get(game)
    if spec is None:
        raise UserError("rules.unknown_game", game=game)
    return spec


async def rules_in_force(bot: "FudabaBot", guild_id: int, spec: GameSpec) -> BaseModel:
    """The guild's rules for a game: stored options over the game's defaults."""
    data = await bot.db.get_house_rules(guild_id, spec.id)
    if not data:
        return spec.rules_model()
    try:
        return spec.rules_model.model_validate(data)
    except ValidationError:
        # A rules model that changed shape since the dump was stored: show the defaults rather than fail,
        # and say so in the log; the next /rules set stores a valid dump again.
        log.warning("stored house rules of guild %s for %s no longer validate; using defaults", guild_id, spec.id)
        return spec.rules_model()


def show_value(value: Any) -> str:
    """How an option value reads in Discord (the same text ``/rules set`` accepts). A table row reads as its cells
    in column order; a whole table (a reset's old value in the audit trail) as its changed rows."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, dict):
        if all(not isinstance(v, dict) for v in value.values()):
            return row_text(value)
        return "; ".join(f"{key}: {show_value(row)}" for key, row in value.items()) or "—"
    if isinstance(value, (list, tuple, set, frozenset)):
        return ",".join(str(v) for v in value) or "none"
    return str(value)


def allowed_text(opt: RuleOption, locale: object) -> str:
    """The values an option takes, in the reader's language."""
    if opt.kind == "set":
        return t("rules.allowed_set", locale, choices=", ".join(opt.choices))
    if opt.kind == "int" and opt.lo is None and opt.hi is None:
        return t("rules.allowed_any_int", locale)
    return opt.allowed()


def _value_at(rules: BaseModel, path: str) -> Any:
    node: Any = to_data(rules)
    for key in path.split("."):
        node = node[key]
    return node


def _width(text: str) -> int:
    """Columns a text takes in a monospaced block (wide CJK characters take two)."""
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def _pad(text: str, width: int) -> str:
    return text + " " * max(0, width - _width(text))


def table_block(rules: BaseModel, table: RuleTable, locale: object) -> str:
    """A rule table drawn as a table: one line per row, one column per field, cells differing from the default
    marked ``*``; each changed row is listed below with its default, and the line that sets a row."""
    defaults = type(rules)()
    current, fresh = _value_at(rules, table.path), _value_at(defaults, table.path)
    heading = t("rules.table_row", locale)
    widths = {c: len(c) for c in table.columns}
    for row in table.rows:
        for column, value in current[row].items():
            widths[column] = max(widths[column], len(cell_text(value)) + 1)
    key_width = max(_width(heading), *(len(r) for r in table.rows))
    lines = [" ".join([_pad(heading, key_width)] + [c.ljust(widths[c]) for c in table.columns]).rstrip()]
    changed: list[str] = []
    for row in table.rows:
        cells = []
        for column in table.columns:
            if column not in current[row]:
                cells.append("–".ljust(widths[column]))
                continue
            mark = "*" if current[row][column] != fresh[row][column] else ""
            cells.append((cell_text(current[row][column]) + mark).ljust(widths[column]))
        lines.append(" ".join([row.ljust(key_width), *cells]).rstrip())
        if current[row] != fresh[row]:
            changed.append(
                t(
                    "rules.table_changed_row",
                    locale,
                    path=table.row_path(row),
                    value=row_text(current[row]),
                    default=row_text(fresh[row]),
                )
            )
    mark = "✏️ " if changed else ""
    example = table.rows[0]
    head = t(
        "rules.table_title",
        locale,
        mark=mark,
        path=table.path,
        example=table.row_path(example),
        columns=" ".join(current[example]),
    )
    body = "```\n" + "\n".join(lines) + "\n```"
    return "\n".join([head, body, *changed])


def option_lines(rules: BaseModel, locale: object) -> list[str]:
    """One line per option: path, value in force, default, allowed values; changed ones marked ✏️. The options of
    a rule table are one item instead: the table drawn as a table (see :func:`table_block`)."""
    found = tables(rules)
    lines = []
    drawn: set[str] = set()
    for current, default in zip(options(rules), options(type(rules)), strict=True):
        table = next((tb for tb in found if current.path.startswith(tb.path + ".")), None)
        if table is not None:
            if table.path not in drawn:
                drawn.add(table.path)
                lines.append(table_block(rules, table, locale))
            continue
        changed = current.default != default.default
        mark = "✏️ " if changed else ""
        value = f"**{show_value(current.default)}**" if changed else show_value(current.default)
        lines.append(
            t(
                "rules.show_line",
                locale,
                mark=mark,
                path=current.path,
                value=value,
                default=show_value(default.default),
                allowed=allowed_text(current, locale),
            )
        )
    return lines


def paginate(lines: list[str]) -> list[list[str]]:
    """Lines packed into pages that fit one embed description (whole lines only)."""
    pages: list[list[str]] = [[]]
    size = 0
    for line in lines:
        if pages[-1] and (size + len(line) + 1 > PAGE_CHARS or len(pages[-1]) >= PAGE_LINES):
            pages.append([])
            size = 0
        pages[-1].append(line)
        size += len(line) + 1
    return pages


async def rules_page(
    bot: "FudabaBot", guild_id: int, game: str, page: int, locale: object
) -> tuple[discord.Embed, discord.ui.View | None]:
    spec = _spec(game)
    rules = await rules_in_force(bot, guild_id, spec)
    lines = option_lines(rules, locale)
    pages = paginate(lines)
    page = min(max(page, 0), len(pages) - 1)
    changed = sum(c.default != d.default for c, d in zip(options(rules), options(type(rules)), strict=True))
    embed = discord.Embed(
        title=t("rules.show_title", locale, game=game_name(game, locale)),
        colour=COLOUR,
        description="\n".join(pages[page]),
    )
    embed.set_footer(
        text=t("rules.show_footer", locale, page=page + 1, pages=len(pages), changed=changed, total=len(options(rules)))
    )
    if len(pages) == 1:
        return embed, None
    view = discord.ui.View(timeout=None)
    view.add_item(RulesPageButton(game, page - 1, "p", label=t("economy.previous", locale), disabled=page == 0))
    view.add_item(
        RulesPageButton(game, page + 1, "n", label=t("economy.next", locale), disabled=page + 1 >= len(pages))
    )
    return embed, view


class RulesPageButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"fdb:rules:(?P<game>[a-z0-9_]+):(?P<page>-?\d+):(?P<dir>[pn])",
):
    """Previous/Next on ``/rules show``: ``fdb:rules:<game>:<target page>:<p|n>`` (the guild is the clicker's)."""

    def __init__(self, game: str, page: int, direction: str, *, label: str = "", disabled: bool = False) -> None:
        super().__init__(
            discord.ui.Button(
                label=label or None,
                emoji="◀️" if direction == "p" else "▶️",
                style=discord.ButtonStyle.secondary,
                disabled=disabled,
                custom_id=f"fdb:rules:{game}:{page}:{direction}",
            )
        )
        self.game = game
        self.page = page

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> "RulesPageButton":
        return cls(match["game"], int(match["page"]), match["dir"])

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        if interaction.guild_id is None:
            raise UserError("economy.guild_only")
        bot: FudabaBot = interaction.client  # type: ignore[assignment]
        embed, view = await rules_page(bot, interaction.guild_id, self.game, self.page, interaction.locale)
        await interaction.response.edit_message(embed=embed, view=view)


def _choice(name: str, value: str) -> app_commands.Choice[str]:
    return app_commands.Choice(name=name[:100], value=value[:100])


class RulesCog(commands.Cog):
    def __init__(self, bot: "FudabaBot") -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(RulesPageButton)

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(RulesPageButton)

    rules = app_commands.Group(
        name="rules", description=L("This server's house rules for each game", "cmd_economy.rules"), guild_only=True
    )

    # ------------------------------------------------------------------ autocomplete

    async def _game_rules(self, interaction: discord.Interaction) -> BaseModel | None:
        game = getattr(interaction.namespace, "game", None)
        if interaction.guild_id is None or not isinstance(game, str) or game not in all_games():
            return None
        return await rules_in_force(self.bot, interaction.guild_id, all_games()[game])

    async def option_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        """Option paths of the chosen game containing what was typed, with the value in force and the range."""
        rules = await self._game_rules(interaction)
        if rules is None:
            return []
        typed = current.strip().lower()
        entries = [
            (o.path, f"{o.path} = {show_value(o.default)} ({allowed_text(o, interaction.locale)})")
            for o in options(rules)
        ]
        for table in tables(rules):  # a whole row is one option too (and, for a reset, a whole table)
            for row in table.rows:
                value = row_value(rules, table, row)
                entries.append((table.row_path(row), f"{table.row_path(row)} = {row_text(value)} ({' '.join(value)})"))
            if interaction.command is not None and interaction.command.name == "reset":
                entries.append((table.path, t("rules.ac_table", interaction.locale, path=table.path)))
        found = [(path, label) for path, label in entries if typed in path.lower()]
        found.sort(key=lambda e: (not e[0].lower().startswith(typed), e[0].count(".")))  # prefix, then rows first
        return [_choice(label, path) for path, label in found[:MAX_CHOICES]]

    async def value_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        """The values a bool or choice option takes; for a number, its default and range as a hint."""
        rules = await self._game_rules(interaction)
        path = getattr(interaction.namespace, "option", None)
        if rules is None or not isinstance(path, str):
            return []
        row = find_row(rules, path)
        if row is not None:  # a row: the text that keeps it, and the one that restores its defaults
            table, key = row
            values = [row_text(row_value(rules, table, key)), row_text(row_value(type(rules)(), table, key))]
            notes = [t("rules.ac_current", interaction.locale), t("rules.ac_default", interaction.locale)]
            if values[0] == values[1]:
                values, notes = values[:1], [f"{notes[0]}, {notes[1]}"]
            typed = current.strip()
            choices = [_choice(typed, typed)] if typed and typed not in values else []
            return choices + [_choice(f"{v} ({n})", v) for v, n in zip(values, notes, strict=True)]
        try:
            opt = find_option(rules, path)
        except ValueError:
            return []
        default = find_option(type(rules), path).default
        if opt.kind == "bool":
            values = ["true", "false"]
        elif opt.kind == "choice":
            values = list(opt.choices)
        else:
            typed = current.strip()
            values = [typed] if typed.lstrip("-").isdigit() else []
            values += [
                v
                for v in (
                    show_value(default),
                    str(opt.lo) if opt.lo is not None else None,
                    str(opt.hi) if opt.hi is not None else None,
                )
                if v and v not in values
            ]
        typed = current.strip().lower()
        values = [v for v in values if typed in v.lower()] or values
        return [_choice(self._value_label(opt, v, default, interaction.locale), v) for v in values[:MAX_CHOICES]]

    @staticmethod
    def _value_label(opt: RuleOption, value: str, default: Any, locale: object) -> str:
        notes = []
        if value == show_value(opt.default):
            notes.append(t("rules.ac_current", locale))
        if value == show_value(default):
            notes.append(t("rules.ac_default", locale))
        if opt.kind == "int":
            notes.append(opt.allowed())
        return f"{value} ({', '.join(notes)})" if notes else value

    # ------------------------------------------------------------------ /rules show

    @rules.command(name="show", description=L("Every house rule of a game, with its default", "cmd_economy.rules_show"))
    @app_commands.describe(game=L("The game", "cmd_economy.rules_game"))
    @app_commands.choices(game=GAME_CHOICES)
    @guarded
    async def rules_show(self, interaction: discord.Interaction, game: app_commands.Choice[str]) -> None:
        assert interaction.guild_id is not None
        embed, view = await rules_page(self.bot, interaction.guild_id, game.value, 0, interaction.locale)
        if view is None:
            await interaction.response.send_message(embed=embed)
        else:
            await interaction.response.send_message(embed=embed, view=view)

    # ------------------------------------------------------------------ /rules set

    @rules.command(name="set", description=L("Change one house rule (moderators)", "cmd_economy.rules_set"))
    @app_commands.describe(
        game=L("The game", "cmd_economy.rules_game"),
        option=L("The rule option (start typing to search)", "cmd_economy.rules_option"),
        value=L("The new value", "cmd_economy.rules_value"),
    )
    @app_commands.choices(game=GAME_CHOICES)
    @app_commands.autocomplete(option=option_autocomplete, value=value_autocomplete)
    @guarded
    async def rules_set(
        self,
        interaction: discord.Interaction,
        game: app_commands.Choice[str],
        option: app_commands.Range[str, 1, 100],
        value: app_commands.Range[str, 1, 100],
    ) -> None:
        await require_moderator(interaction)
        assert interaction.guild_id is not None
        spec = _spec(game.value)
        current = await rules_in_force(self.bot, interaction.guild_id, spec)
        path = option.strip()
        if find_row(current, path) is not None:
            updated = with_row(current, path, value)  # a whole row, taken or refused as a whole
        else:
            updated = with_option(current, path, value)  # RuleError: unknown option / out of range, with the range
        old, new = _value_at(current, path), _value_at(updated, path)
        if old == new:
            raise UserError("rules.unchanged", option=path, value=show_value(new))
        await self.bot.db.set_house_rule(
            interaction.guild_id,
            spec.id,
            to_data(updated),
            actor_id=interaction.user.id,
            path=path,
            old_value=old,
            new_value=new,
        )
        await interaction.response.send_message(
            t(
                "rules.changed",
                interaction.locale,
                moderator=interaction.user.mention,
                game=game_name(spec.id, interaction.locale),
                option=path,
                old=show_value(old),
                new=show_value(new),
            ),
            allowed_mentions=discord.AllowedMentions.none(),
        )

    # ------------------------------------------------------------------ /rules reset

    @rules.command(
        name="reset",
        description=L(
            "Put one house rule, or all of them, back to the default (moderators)", "cmd_economy.rules_reset"
        ),
    )
    @app_commands.describe(
        game=L("The game", "cmd_economy.rules_game"),
        option=L("The rule option to reset (leave empty to reset every option)", "cmd_economy.rules_reset_option"),
    )
    @app_commands.choices(game=GAME_CHOICES)
    @app_commands.autocomplete(option=option_autocomplete)
    @guarded
    async def rules_reset(
        self,
        interaction: discord.Interaction,
        game: app_commands.Choice[str],
        option: app_commands.Range[str, 1, 100] | None = None,
    ) -> None:
        await require_moderator(interaction)
        assert interaction.guild_id is not None
        spec = _spec(game.value)
        locale = interaction.locale
        name = game_name(spec.id, locale)
        if option is None:
            await self.bot.db.reset_house_rules(interaction.guild_id, spec.id, actor_id=interaction.user.id)
            text = t("rules.reset_all", locale, moderator=interaction.user.mention, game=name)
        else:
            path = option.strip()
            current = await rules_in_force(self.bot, interaction.guild_id, spec)
            if find_row(current, path) is not None or find_table(current, path) is not None:
                updated = without_row(current, path)
            else:
                updated = without_option(current, path)
            old, new = _value_at(current, path), _value_at(updated, path)
            if old == new:
                raise UserError("rules.already_default", option=path, value=show_value(new))
            await self.bot.db.set_house_rule(
                interaction.guild_id,
                spec.id,
                to_data(updated),
                actor_id=interaction.user.id,
                path=path,
                old_value=old,
                new_value=new,
                reset=True,
            )
            text = t(
                "rules.reset_one",
                locale,
                moderator=interaction.user.mention,
                game=name,
                option=path,
                old=show_value(old),
                new=show_value(new),
            )
        await interaction.response.send_message(text, allowed_mentions=discord.AllowedMentions.none())

    # ------------------------------------------------------------------ /rules history

    @rules.command(
        name="history",
        description=L("Recent changes to a game's house rules (moderators)", "cmd_economy.rules_history"),
    )
    @app_commands.describe(game=L("The game", "cmd_economy.rules_game"))
    @app_commands.choices(game=GAME_CHOICES)
    @guarded
    async def rules_history(self, interaction: discord.Interaction, game: app_commands.Choice[str]) -> None:
        await require_moderator(interaction)
        assert interaction.guild_id is not None
        spec = _spec(game.value)
        locale = interaction.locale
        changes = await self.bot.db.house_rule_history(interaction.guild_id, spec.id, limit=HISTORY_LIMIT)
        lines = [self._history_line(c, locale) for c in changes]
        embed = discord.Embed(
            title=t("rules.history_title", locale, game=game_name(spec.id, locale)),
            colour=COLOUR,
            description="\n".join(lines)[:4000] or t("rules.history_empty", locale),
        )
        await interaction.response.send_message(embed=embed, ephemeral=True)

    @staticmethod
    def _history_line(change: RuleChange, locale: object) -> str:
        who = f"<@{change.actor_id}>" if change.actor_id else "?"
        when = f"<t:{int(change.at)}:f>"
        loaded = presets.history_line(change, when, who, locale)
        if loaded is not None:
            return loaded
        if change.path == ALL_OPTIONS:
            return t("rules.history_reset_all", locale, when=when, who=who)
        key = "rules.history_reset" if change.reset else "rules.history_set"
        return t(
            key,
            locale,
            when=when,
            who=who,
            option=change.path,
            old=show_value(change.old_value),
            new=show_value(change.new_value),
        )

    # ------------------------------------------------------------------ /rules preset … (bot.presets.commands)

    preset = app_commands.Group(
        name="preset", description=L("Named sets of house rules: save, load, share", "presets.cmd"), parent=rules
    )

    async def preset_name_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return await presets.name_choices(self.bot, interaction, current)

    @preset.command(
        name="save", description=L("Save this game's house rules as a preset (moderators)", "presets.cmd_save")
    )
    @app_commands.describe(
        game=L("The game", "cmd_economy.rules_game"),
        name=L("The preset's name (letters, digits, spaces, - _ .; at most 32)", "presets.cmd_name_new"),
        replace=L("Overwrite a preset of this name (default: no)", "presets.cmd_replace"),
    )
    @app_commands.choices(game=GAME_CHOICES)
    @app_commands.autocomplete(name=preset_name_autocomplete)
    @guarded
    async def preset_save(
        self,
        interaction: discord.Interaction,
        game: app_commands.Choice[str],
        name: app_commands.Range[str, 1, 100],
        replace: bool = False,
    ) -> None:
        await presets.save(self.bot, interaction, game.value, name, replace)

    @preset.command(
        name="load",
        description=L("Make a preset this game's house rules, as one change (moderators)", "presets.cmd_load"),
    )
    @app_commands.describe(game=L("The game", "cmd_economy.rules_game"), name=L("The preset", "presets.cmd_name"))
    @app_commands.choices(game=GAME_CHOICES)
    @app_commands.autocomplete(name=preset_name_autocomplete)
    @guarded
    async def preset_load(
        self, interaction: discord.Interaction, game: app_commands.Choice[str], name: app_commands.Range[str, 1, 100]
    ) -> None:
        await presets.load(self.bot, interaction, game.value, name)

    @preset.command(name="list", description=L("The presets of this server and the bot's own", "presets.cmd_list"))
    @app_commands.describe(game=L("Only this game (default: every game)", "presets.cmd_list_game"))
    @app_commands.choices(game=GAME_CHOICES)
    @guarded
    async def preset_list(self, interaction: discord.Interaction, game: app_commands.Choice[str] | None = None) -> None:
        await presets.listing(self.bot, interaction, game.value if game else None)

    @preset.command(
        name="show", description=L("What a preset sets, and what loading it would change", "presets.cmd_show")
    )
    @app_commands.describe(game=L("The game", "cmd_economy.rules_game"), name=L("The preset", "presets.cmd_name"))
    @app_commands.choices(game=GAME_CHOICES)
    @app_commands.autocomplete(name=preset_name_autocomplete)
    @guarded
    async def preset_show(
        self, interaction: discord.Interaction, game: app_commands.Choice[str], name: app_commands.Range[str, 1, 100]
    ) -> None:
        await presets.show(self.bot, interaction, game.value, name)

    @preset.command(
        name="delete", description=L("Delete one of this server's presets (moderators)", "presets.cmd_delete")
    )
    @app_commands.describe(game=L("The game", "cmd_economy.rules_game"), name=L("The preset", "presets.cmd_name"))
    @app_commands.choices(game=GAME_CHOICES)
    @app_commands.autocomplete(name=preset_name_autocomplete)
    @guarded
    async def preset_delete(
        self, interaction: discord.Interaction, game: app_commands.Choice[str], name: app_commands.Range[str, 1, 100]
    ) -> None:
        await presets.delete(self.bot, interaction, game.value, name)

    @preset.command(
        name="export", description=L("A preset as a JSON file, to share (moderators)", "presets.cmd_export")
    )
    @app_commands.describe(game=L("The game", "cmd_economy.rules_game"), name=L("The preset", "presets.cmd_name"))
    @app_commands.choices(game=GAME_CHOICES)
    @app_commands.autocomplete(name=preset_name_autocomplete)
    @guarded
    async def preset_export(
        self, interaction: discord.Interaction, game: app_commands.Choice[str], name: app_commands.Range[str, 1, 100]
    ) -> None:
        await presets.export(self.bot, interaction, game.value, name)

    @preset.command(
        name="import",
        description=L("Keep a preset from a JSON file as this server's (moderators)", "presets.cmd_import"),
    )
    @app_commands.describe(
        file=L("A preset file from /rules preset export", "presets.cmd_file"),
        name=L("The name to keep it under (default: the file's)", "presets.cmd_import_name"),
    )
    @guarded
    async def preset_import(
        self,
        interaction: discord.Interaction,
        file: discord.Attachment,
        name: app_commands.Range[str, 1, 100] | None = None,
    ) -> None:
        await presets.import_file(self.bot, interaction, file, name)
