"""Rule presets: named sets of a game's house rules that moderators save, load, share between servers as files, and
that the bot ships for known variants.

* :mod:`bot.presets.format`: the preset file, names, and the check of a preset's options against a rules model (no
  Discord);
* :mod:`bot.presets.shipped`: the presets shipped with the bot (``bot/presets/shipped/*.json``);
* :mod:`bot.presets.commands`: what ``/rules preset …`` does (the commands are declared in :mod:`bot.cogs.rules`);
* :mod:`bot.storage.presets`: the server's presets in the database.
"""
