"""What ``/rules preset save|load|list|show|delete|export|import`` do (declared in :mod:`bot.cogs.rules`).

Everyone may list and show presets (as everyone may read the rules); saving, loading, deleting, exporting and
importing are for moderators. Loading a preset is one house-rule change: the rules in force become the preset's (see
:mod:`bot.presets.format` for what a preset means), stored in one transaction with one audit row whose path is
``preset:<name>`` and whose old and new values are the options it changed; ``/rules history`` shows it as a load.

A preset that cannot be taken (a file or a stored preset whose options no longer fit the game) is refused privately
with every problem, each naming its option and why, and nothing changes.
"""

from __future__ import annotations

import functools
import io
import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar

import discord
from discord import app_commands

from bot.cogs.economy import game_name
from bot.cogs.moderation import require_moderator
from bot.errors import UserError, send_ephemeral
from bot.i18n import t
from bot.presets.format import (
    MAX_FILE_BYTES,
    MAX_PRESETS,
    MAX_SHOWN,
    PresetInvalid,
    Problem,
    build_rules,
    canonical,
    changes,
    clean_name,
    dump_file,
    option_values,
    read_file,
    rules_schema,
)
from bot.presets.shipped import ShippedPreset, find_shipped, shipped_for
from bot.storage.models import RuleChange
from bot.storage.presets import PresetExists, PresetQueries, StoredPreset
from games.registry import GameSpec, all_games

if TYPE_CHECKING:
    from bot.app import FudabaBot

PRESET_PATH = "preset:"
"""The audit path of a load: ``preset:<name>`` (an option's path never holds a colon)."""
CHANGES_SHOWN = 15
"""Changed options a load's announcement lists one by one (the rest are counted)."""
COLOUR = discord.Colour.dark_green()
MAX_CHOICES = 25

F = TypeVar("F", bound=Callable[..., Awaitable[Any]])


def _rules_helpers() -> Any:
    """:mod:`bot.cogs.rules`, which declares these commands (imported when first needed: it imports this module)."""
    from bot.cogs import rules

    return rules


def _spec(game: str) -> GameSpec:
    spec = all_games().get(game)
    if spec is None:
        raise UserError("rules.unknown_game", game=game)
    return spec


def problem_lines(problems: tuple[Problem, ...], locale: object) -> list[str]:
    """Each problem as a line in the reader's language; past :data:`MAX_SHOWN`, a count of the rest."""
    lines = [f"• {t(p.key, locale, **_named(p.params, locale))}" for p in problems[:MAX_SHOWN]]
    if len(problems) > MAX_SHOWN:
        lines.append(t("presets.more_problems", locale, count=len(problems) - MAX_SHOWN))
    return lines


def _named(params: dict[str, Any], locale: object) -> dict[str, Any]:
    """A problem's parameters with a game id read as the game's name."""
    out = dict(params)
    if out.get("game") in all_games():
        out["game"] = game_name(out["game"], locale)
    return out


def refusing(head: str) -> Callable[[F], F]:
    """Answer a :class:`PresetInvalid` privately: the head line (an i18n key), then every problem."""

    def wrap(func: F) -> F:
        @functools.wraps(func)
        async def wrapper(bot: FudabaBot, interaction: discord.Interaction, *args: Any, **kwargs: Any) -> Any:
            try:
                return await func(bot, interaction, *args, **kwargs)
            except PresetInvalid as refused:
                text = "\n".join(
                    ["⚠️ " + t(head, interaction.locale), *problem_lines(refused.problems, interaction.locale)]
                )
                await send_ephemeral(interaction, text[:2000])
                return None

        return wrapper  # type: ignore[return-value]

    return wrap


@dataclass(frozen=True)
class Found:
    """A preset by name: shipped with the bot, or the server's own."""

    name: str
    options: dict[str, Any]
    shipped: ShippedPreset | None = None
    stored: StoredPreset | None = None


async def find(bot: FudabaBot, guild_id: int, spec: GameSpec, name: str, locale: object) -> Found:
    preset = find_shipped(spec.id, name)
    if preset is not None:
        return Found(preset.name, preset.options, shipped=preset)
    stored = await PresetQueries(bot.db).get(guild_id, spec.id, name)
    if stored is None:
        raise UserError("presets.not_found", name=name.strip(), game=game_name(spec.id, locale))
    return Found(stored.name, stored.options, stored=stored)


def _guild(interaction: discord.Interaction) -> int:
    if interaction.guild_id is None:
        raise UserError("economy.guild_only")
    return interaction.guild_id


def _changed_count(spec: GameSpec, values: dict[str, Any]) -> int:
    """How many of a preset's options differ from the game's defaults."""
    defaults = option_values(spec.rules_model())
    return sum(1 for path, value in values.items() if path in defaults and defaults[path] != value)


def _code(paths: list[str] | tuple[str, ...], most: int = 10) -> str:
    """Option paths as code, the first ``most`` of them (then ``…``)."""
    return ", ".join(f"`{p}`" for p in paths[:most]) + (" …" if len(paths) > most else "")


# ---------------------------------------------------------------------------------------------------- save


@refusing("presets.refused_save")
async def save(bot: FudabaBot, interaction: discord.Interaction, game: str, name: str, replace: bool) -> None:
    """The rules in force, every option, kept under a name."""
    await require_moderator(interaction)
    guild_id, spec, locale = _guild(interaction), _spec(game), interaction.locale
    clean = clean_name(name)
    if find_shipped(spec.id, clean) is not None:
        raise UserError("presets.shipped_name", name=clean)
    rules = await _rules_helpers().rules_in_force(bot, guild_id, spec)
    values = option_values(rules)
    stored, replaced = await PresetQueries(bot.db).save(
        guild_id,
        spec.id,
        clean,
        values,
        rules_schema=rules_schema(spec.rules_model),
        actor_id=interaction.user.id,
        limit=MAX_PRESETS,
        replace=replace,
    )
    key = "presets.replaced" if replaced else "presets.saved"
    text = t(key, locale, name=stored.name, game=game_name(spec.id, locale), changed=_changed_count(spec, values))
    await interaction.response.send_message(text, ephemeral=True)


# ---------------------------------------------------------------------------------------------------- load


@refusing("presets.refused_load")
async def load(bot: FudabaBot, interaction: discord.Interaction, game: str, name: str) -> None:
    """The rules in force become the preset's, as one change with one audit row; announced in the channel."""
    await require_moderator(interaction)
    guild_id, spec, locale = _guild(interaction), _spec(game), interaction.locale
    found = await find(bot, guild_id, spec, name, locale)
    built = build_rules(spec, found.options)
    helpers = _rules_helpers()
    current = await helpers.rules_in_force(bot, guild_id, spec)
    changed = changes(current, built.rules)
    if not changed:
        raise UserError("presets.load_unchanged", name=found.name, game=game_name(spec.id, locale))
    await bot.db.set_house_rule(
        guild_id,
        spec.id,
        built.rules.model_dump(mode="json"),
        actor_id=interaction.user.id,
        path=PRESET_PATH + found.name,
        old_value={path: old for path, old, _ in changed},
        new_value={path: new for path, _, new in changed},
    )
    show = helpers.show_value
    lines = [
        t(
            "presets.loaded",
            locale,
            moderator=interaction.user.mention,
            name=found.name,
            game=game_name(spec.id, locale),
            count=len(changed),
        )
    ]
    lines += [f"`{path}`: {show(old)} → **{show(new)}**" for path, old, new in changed[:CHANGES_SHOWN]]
    if len(changed) > CHANGES_SHOWN:
        lines.append(t("presets.more_changes", locale, count=len(changed) - CHANGES_SHOWN))
    if found.stored is not None and built.missing:
        lines.append(t("presets.missing_on_load", locale, count=len(built.missing), options=_code(built.missing)))
    await interaction.response.send_message("\n".join(lines)[:2000], allowed_mentions=discord.AllowedMentions.none())


def history_line(change: RuleChange, when: str, who: str, locale: object) -> str | None:
    """A load as ``/rules history`` lists it, or None for any other change."""
    if not change.path.startswith(PRESET_PATH):
        return None
    changed = list(change.new_value) if isinstance(change.new_value, dict) else []
    shown = _code(changed, most=5)
    return t(
        "presets.history_load",
        locale,
        when=when,
        who=who,
        name=change.path.removeprefix(PRESET_PATH),
        count=len(changed),
        options=shown,
    )


# ---------------------------------------------------------------------------------------------------- list, show


async def listing(bot: FudabaBot, interaction: discord.Interaction, game: str | None) -> None:
    """The presets of one game or of every game: the shipped ones, then the server's."""
    guild_id, locale = _guild(interaction), interaction.locale
    games = [_spec(game).id] if game else list(all_games())
    stored = await PresetQueries(bot.db).presets(guild_id, game)
    sections = []
    for gid in games:
        spec = all_games()[gid]
        own = [p for p in stored if p.game == gid]
        lines = [t("presets.list_game", locale, game=game_name(gid, locale), held=len(own), limit=MAX_PRESETS)]
        for preset in shipped_for(gid):
            lines.append(t("presets.list_shipped", locale, name=preset.name, title=shipped_title(preset, locale)))
        for item in own:
            lines.append(
                t(
                    "presets.list_own",
                    locale,
                    name=item.name,
                    changed=_changed_count(spec, item.options),
                    who=f"<@{item.saved_by}>" if item.saved_by else "?",
                    when=f"<t:{int(item.saved_at)}:d>",
                )
            )
        if not own:
            lines.append(t("presets.list_none", locale))
        sections.append("\n".join(lines))
    embed = discord.Embed(
        title=t("presets.list_title", locale), colour=COLOUR, description="\n\n".join(sections)[:4000]
    )
    embed.set_footer(text=t("presets.list_footer", locale))
    await interaction.response.send_message(embed=embed, ephemeral=True)


def shipped_title(preset: ShippedPreset, locale: object) -> str:
    return t(f"presets.shipped_{preset.text_key}", locale)


async def show(bot: FudabaBot, interaction: discord.Interaction, game: str, name: str) -> None:
    """A preset's options that differ from the defaults, and what loading it would change here now."""
    guild_id, spec, locale = _guild(interaction), _spec(game), interaction.locale
    found = await find(bot, guild_id, spec, name, locale)
    helpers = _rules_helpers()
    defaults = option_values(spec.rules_model())
    lines = []
    if found.shipped is not None:
        lines.append(f"**{shipped_title(found.shipped, locale)}**")
        lines.append(t(f"presets.about_{found.shipped.text_key}", locale))
    set_here = [(p, v) for p, v in found.options.items() if p not in defaults or defaults[p] != v]
    for path, value in set_here:
        default = helpers.show_value(defaults[path]) if path in defaults else "—"
        lines.append(t("presets.show_line", locale, option=path, value=helpers.show_value(value), default=default))
    at_default = len(defaults) - len([p for p, _ in set_here if p in defaults])
    lines.append(t("presets.show_rest", locale, count=at_default))
    try:
        built = build_rules(spec, found.options)
    except PresetInvalid as refused:
        lines.append(t("presets.show_invalid", locale))
        lines += problem_lines(refused.problems, locale)
    else:
        if found.stored is not None and built.missing:
            lines.append(t("presets.missing_on_show", locale, count=len(built.missing), options=_code(built.missing)))
        current = await helpers.rules_in_force(bot, guild_id, spec)
        lines.append(t("presets.show_would_change", locale, count=len(changes(current, built.rules))))
    embed = discord.Embed(
        title=t("presets.show_title", locale, name=found.name, game=game_name(spec.id, locale)),
        colour=COLOUR,
        description="\n".join(lines)[:4000],
    )
    if found.stored is not None:
        who = f"<@{found.stored.saved_by}>" if found.stored.saved_by else "?"
        embed.add_field(
            name=t("presets.show_saved", locale), value=f"{who} <t:{int(found.stored.saved_at)}:f>", inline=False
        )
    else:
        embed.set_footer(text=t("presets.show_shipped", locale))
    await interaction.response.send_message(embed=embed, ephemeral=True)


# ---------------------------------------------------------------------------------------------------- delete


async def delete(bot: FudabaBot, interaction: discord.Interaction, game: str, name: str) -> None:
    await require_moderator(interaction)
    guild_id, spec, locale = _guild(interaction), _spec(game), interaction.locale
    if find_shipped(spec.id, name) is not None:
        raise UserError("presets.shipped_delete", name=name.strip())
    dropped = await PresetQueries(bot.db).delete(guild_id, spec.id, name)
    if dropped is None:
        raise UserError("presets.not_found", name=name.strip(), game=game_name(spec.id, locale))
    await interaction.response.send_message(
        t("presets.deleted", locale, name=dropped.name, game=game_name(spec.id, locale)), ephemeral=True
    )


# ---------------------------------------------------------------------------------------------------- export, import


_UNSAFE = re.compile(r"[^\w.-]+")


def file_name(game: str, name: str) -> str:
    return f"{game}-{_UNSAFE.sub('_', name)}.json"


async def export(bot: FudabaBot, interaction: discord.Interaction, game: str, name: str) -> None:
    """The preset as a JSON file, privately. A shipped preset is written whole (every option), so the file means the
    same on a bot whose defaults differ."""
    await require_moderator(interaction)
    guild_id, spec, locale = _guild(interaction), _spec(game), interaction.locale
    found = await find(bot, guild_id, spec, name, locale)
    if found.stored is not None:
        values, schema = found.stored.options, found.stored.rules_schema
    else:
        try:
            values = option_values(build_rules(spec, found.options).rules)
        except PresetInvalid:  # a shipped file the tests would refuse: export what it says
            values = found.options
        schema = rules_schema(spec.rules_model)
    data = dump_file(spec.id, found.name, values, schema)
    await interaction.response.send_message(
        t("presets.exported", locale, name=found.name, game=game_name(spec.id, locale)),
        file=discord.File(io.BytesIO(data), filename=file_name(spec.id, found.name)),
        ephemeral=True,
    )


@refusing("presets.refused_import")
async def import_file(
    bot: FudabaBot, interaction: discord.Interaction, attachment: discord.Attachment, name: str | None
) -> None:
    """A preset file stored as one of the server's presets, once every field and option is checked."""
    await require_moderator(interaction)
    guild_id, locale = _guild(interaction), interaction.locale
    if attachment.size > MAX_FILE_BYTES:
        raise PresetInvalid([Problem("presets.too_large", {"size": attachment.size, "limit": MAX_FILE_BYTES})])
    await interaction.response.defer(ephemeral=True, thinking=True)
    preset = read_file(await attachment.read())
    spec = all_games()[preset.game]
    built = build_rules(spec, preset.options)
    given = name if name is not None else preset.name
    if given is None:
        raise PresetInvalid([Problem("presets.name_needed")])
    clean = clean_name(given)
    if find_shipped(spec.id, clean) is not None:
        raise UserError("presets.shipped_name", name=clean)
    schema = rules_schema(spec.rules_model)
    try:
        stored, _ = await PresetQueries(bot.db).save(
            guild_id,
            spec.id,
            clean,
            canonical(built.rules, preset.options),
            rules_schema=preset.rules_schema or schema,
            actor_id=interaction.user.id,
            limit=MAX_PRESETS,
        )
    except PresetExists:
        raise UserError("presets.exists_import", name=clean) from None
    lines = [
        t(
            "presets.imported",
            locale,
            name=stored.name,
            game=game_name(spec.id, locale),
            count=len(preset.options),
            changed=_changed_count(spec, stored.options),
        )
    ]
    if built.missing:
        lines.append(t("presets.missing_on_import", locale, count=len(built.missing)))
    if preset.rules_schema is not None and preset.rules_schema != schema:
        lines.append(t("presets.other_schema", locale))
    await interaction.followup.send("\n".join(lines), ephemeral=True)


# ---------------------------------------------------------------------------------------------------- autocomplete


async def name_choices(
    bot: FudabaBot, interaction: discord.Interaction, current: str
) -> list[app_commands.Choice[str]]:
    """Preset names of the chosen game containing what was typed: the shipped ones (not for ``save`` or ``delete``,
    which never take them) and the server's."""
    game = getattr(interaction.namespace, "game", None)
    if interaction.guild_id is None or not isinstance(game, str) or game not in all_games():
        return []
    locale = interaction.locale
    command = interaction.command.name if interaction.command is not None else ""
    entries: list[tuple[str, str]] = []
    if command not in ("save", "delete"):
        entries += [(p.name, f"📦 {p.name} — {shipped_title(p, locale)}") for p in shipped_for(game)]
    spec = all_games()[game]
    for item in await PresetQueries(bot.db).presets(interaction.guild_id, game):
        label = t("presets.ac_own", locale, name=item.name, changed=_changed_count(spec, item.options))
        entries.append((item.name, label))
    typed = current.strip().casefold()
    found = [(value, label) for value, label in entries if typed in value.casefold()]
    return [app_commands.Choice(name=label[:100], value=value[:100]) for value, label in found[:MAX_CHOICES]]
