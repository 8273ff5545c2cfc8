"""``/history`` and replays: every settled deal, found and stepped through in Discord.

* :mod:`bot.history.listing` — ``/history [member] [game]``: a member's settled deals, newest first, a page at a time,
  each opening its replay;
* :mod:`bot.history.replay` — a replay: one picture per step of a finished deal, drawn by the game's own renderer from
  the deal replayed to that step (:mod:`games.tape`), with ⏮ ◀ ▶ ⏭ and a "jump to" menu of the deal's key moments;
* :mod:`bot.history.ids` — the custom ids of both (``fdb:hist:…``), read strictly; one dynamic item answers them all
  (:mod:`bot.cogs.history`), so a replay steps the same after a restart.

What a replay shows obeys the live table's privacy. The picture is drawn from the **public** view at that step; a
viewer who sat at the table also reads their **own** view of it (their cards, as their panel showed them then); the
narration tells only the step's public events and the viewer's own private ones; the moves themselves are never
shown as written (an action's text can name a card played face down). Who is looking is the member who pressed,
never anything an id says, so no id can open another seat's hand. The last step is the deal's result, as its results
message gave it; hands shown at the end are in it and in every picture from the step that showed them.

Replaying a deal reads the deal's start (kept in ``deal_starts`` once any replay has reached it) and its own log
rows; a deal whose start is not kept yet is reached by walking the log from the nearest earlier start, or the
table's opening, keeping every start passed (:mod:`bot.storage.replays`). Deals played before this feature existed
replay the same way. Building a step and drawing it run off the event loop.
"""
