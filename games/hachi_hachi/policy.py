"""Hachi-Hachi Trick bot levels (issue 19): :data:`POLICIES` maps ``easy``, ``normal`` and ``strong`` to a policy,
each a pure function of the seat's view, its legal actions and a random source.

* ``easy`` (:mod:`games.hachi_hachi.easy`): a newcomer's rules of thumb;
* ``normal`` (:func:`games.hachi_hachi.normal.choose_normal`): the baseline heuristic, with Play judged over how
  many of the players still to speak join (the baseline counted a fraction of a rival, and so folded far too often
  at small tables, where nobody joining gives the pot at no risk);
* ``strong`` (:mod:`games.hachi_hachi.strong`): expected chips over sampled hidden hands, and determinized search
  of the tricks.
"""

from __future__ import annotations

from games.hachi_hachi import easy, normal, strong
from games.hachi_hachi.normal import MIZUTEN_RATE, choose, estimate_tricks, fight_value, play_value
from games.registry import Policy

__all__ = ["MIZUTEN_RATE", "POLICIES", "choose", "estimate_tricks", "fight_value", "play_value"]

POLICIES: dict[str, Policy] = {"easy": easy.choose, "normal": normal.choose_normal, "strong": strong.choose}
"""The three bot levels. :func:`choose` stays the baseline bot (what the registry, the coach notes and the tests
that stage games with it use) until the registry takes its levels from here."""
