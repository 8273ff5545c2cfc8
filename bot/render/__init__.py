"""Table images (drawing only: no Discord, no database).

* :func:`~bot.render.oicho.render_oicho_table` — the public Oicho-Kabu table as PNG bytes;
* :func:`~bot.render.ofc.render_ofc_table` — the public OFC table, and
  :func:`~bot.render.luk_fu.render_luk_fu_table` the Luk Fu table (import them from their modules, so a game's
  drawing is loaded only when a table of that game needs it);
* :func:`~bot.render.runner.render_in_thread` — run a renderer off the event loop, cached by its arguments;
* :mod:`bot.render.cards`, :mod:`bot.render.fonts`, :mod:`bot.render.encode` — the building blocks;
  :mod:`bot.render.layers` — what a table's pictures share, drawn once (backdrops, runs, reused frames).
"""

from __future__ import annotations

from bot.render.encode import encode_png, encode_webp
from bot.render.oicho import compose_oicho_table, render_oicho_table
from bot.render.runner import render_in_thread

__all__ = [
    "compose_oicho_table",
    "encode_png",
    "encode_webp",
    "render_in_thread",
    "render_oicho_table",
]
