"""Watching a table: a member who is not seated presses **Watch** on the table message and gets a private panel that
follows the table.

What a watcher sees, precisely (:mod:`bot.watch.sight`):

* **Live** (the default): the table's public view now, as its picture and the game's public summary (the table
  message's own words), every narration line of the current deal since it began (the table message shows only the
  last few), and who is to act. Hands appear when the rules reveal them, because the public view holds them then.
  Nothing is ever drawn from a seat's view: a member seated at the table who watches from another account sees no
  more than anyone in the channel.
* **One deal behind** (the server's ``watch_delay``, ``/config set watch_delay:true``): never anything of the deal in
  play. The panel shows the last settled deal as it ended: the picture its replay ends on (the table right after the
  deal's last move), the narration of its every public event, and which deal is in play now, but not who is to act
  in it. Before the first deal is settled it shows only that deal 1 is being played. The settled deal is rebuilt
  from the database by the same replay ``/history`` uses (:mod:`bot.history.replay`, :mod:`games.tape`), so it is
  the same after a restart. A change of the setting shows at the table's next move (or **Refresh**).

A watcher's panel is one more open panel (:class:`bot.tables.panels.PanelKind`), kept current by the panels'
follower with the seats' panels and by the same rules: for 14 minutes, the life of its interaction token (the panel
says until when; **Refresh** draws it again and follows 14 more minutes; just before its token runs out it says it
stopped and offers **Watch again**), redrawn only when the table changed (a delayed panel only when a deal was
settled), edited only when it looks different. A table holds at most :data:`~bot.watch.watchers.MAX_WATCHERS` open
watcher panels. Tokens are stored (``table_watchers``), so after a restart the open watcher panels are brought up
to date like the seats' ones. When the table ends, each open watcher panel says so and links to the final message.
A member seated at the table who presses **Watch** is told to use **My hand**.
"""

from bot.watch.watchers import Watchers

__all__ = ["Watchers"]
