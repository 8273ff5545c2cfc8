"""What a round's table ended with, in tournament chips, from the table's own record.

A table stores its restart record after every settled deal: the engine's state as that deal left it. A round's table
ends after its last deal (its deal limit, or its game's own end, or a stop), so that record holds each seat's stack at
the end, measured from its last settled deal (a deal in progress when it was stopped is void). A pot still carried
(Hachi-Hachi Trick's fees of a void round) goes back to whoever paid into it, as it did when the table closed.
"""

from __future__ import annotations

from games.core.record import TableRecord
from games.replay import start


def closing_points(record_text: str) -> list[int]:
    """Each seat's points when the table ended (run on the worker pool: it rebuilds an engine)."""
    engine = start(TableRecord.loads(record_text), fresh=True)
    stacks = list(engine.stacks)
    back = engine.stop_result()
    if back is not None:
        stacks = [stack + delta for stack, delta in zip(stacks, back.deltas, strict=True)]
    return stacks
