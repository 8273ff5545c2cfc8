"""``python -m bot.storage copy --from FILE --to postgresql://…``: see :mod:`bot.storage.copy`."""

from bot.storage.copy import main

raise SystemExit(main())
