"""Tables and seats: opening, joining, bots, starting, the table log, settling deals, closing, hand history.

Chips reach a table only as seat stacks (escrow, rules.md §0.4): a wallet pays the buy-in into the
stack, deals move chips between stacks at settlement, and closing pays every stack back. A practice
table moves no chips: its stacks are virtual and its movements have no ledger legs.

Each operation is one transaction (or one read), and every write that changes a table first checks, in that
transaction, that this process holds the table's lease (:meth:`~bot.storage.tables.base.TableBase._driven`,
:mod:`bot.storage.leases`). :class:`TableOps` gathers one mixin per concern:

* :mod:`~bot.storage.tables.base`: rows into records, reading a table, the fenced read each write starts with, and
  the public reads (``get_table``, ``active_table_in``, ``list_active_tables``);
* :mod:`~bot.storage.tables.seats`: opening a table and its lobby seats (joining, bots, leaving, practice, away);
* :mod:`~bot.storage.tables.starting`: lobby → playing, and the table row's stored record and public message;
* :mod:`~bot.storage.tables.settlement`: settling a finished deal (stacks, pot, ledger, hand history, stats);
* :mod:`~bot.storage.tables.closing`: cancelling a lobby and closing a table (every stack paid back);
* :mod:`~bot.storage.tables.log`: the append-only table log, a change of a playing table as one transaction
  (``append_step``), and the restart points and records read back from it;
* :mod:`~bot.storage.tables.history`: hand history and the results still owed to a channel;
* :mod:`~bot.storage.tables.panels`: the seats' open private panels (their interaction tokens);
* :mod:`~bot.storage.tables.watchers`: the watchers' open panels (theirs).
"""

from __future__ import annotations

from bot.storage.tables.history import HistoryOps
from bot.storage.tables.log import LogOps
from bot.storage.tables.panels import PanelOps
from bot.storage.tables.seats import MAX_STAKE, SeatOps
from bot.storage.tables.starting import StartOps
from bot.storage.tables.watchers import WatcherOps

__all__ = ["MAX_STAKE", "TableOps"]


class TableOps(SeatOps, StartOps, LogOps, HistoryOps, PanelOps, WatcherOps):
    """Every table operation of :class:`bot.storage.Database` (see the modules above)."""
