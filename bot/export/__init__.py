"""``/export`` and how long hand details are kept.

* ``/export ledger`` (moderators): every movement of chips in a period with its legs, one CSV row per leg
  (:mod:`bot.export.ledger`); every movement's legs sum to zero, and a movement is never split between files.
* ``/export hands`` (moderators): one settled deal per JSON line, its **full record** (every seat's cards: the deal's
  start, its actions, its stored result), which ``python -m games replay`` replays and checks (:mod:`bot.export.hands`).
* ``/export mine`` (any member): their own deals, one per line, holding only what they could see: the public events
  and result, their own cards and moves; never another seat's hidden cards or moves.

Files are written a page of the database at a time into a temporary folder, each within the server's upload limit,
split into numbered parts when over it (:mod:`bot.export.parts`). The retention setting's daily purge is
:mod:`bot.export.retention`.
"""
