"""``/learn``: coached practice hands. Lessons (:mod:`~bot.learn.lessons`), the coach's note
(:mod:`~bot.learn.coach`, each game's words in ``bot/ui/<game>.py``), the review (:mod:`~bot.learn.review`) and the
tables at run time (:mod:`~bot.learn.teacher`)."""
