"""Hachi-Hachi Trick bot levels (issue 19): :data:`POLICIES` maps ``easy``, ``normal`` and ``strong`` to a policy,
each a pure function of the seat's view, its legal actions and a random source.

* ``easy`` (:mod:`games.hachi_hachi.easy`): a newcomer's rules of thumb;
* ``normal`` (:mod:`games.hachi_hachi.normal`): the baseline heuristic (:func:`choose` until the registry takes
  its level from :data:`POLICIES`);
* ``strong`` (:mod:`games.hachi_hachi.strong`): expected chips over sampled hidden hands, and determinized search
  of the tricks.
"""

from __future__ import annotations

from games.hachi_hachi import easy, normal, strong
from games.hachi_hachi.normal import MIZUTEN_RATE, choose, estimate_tricks, fight_value, play_value
from games.registry import Policy

__all__ = ["MIZUTEN_RATE", "POLICIES", "choose", "estimate_tricks", "fight_value", "play_value"]

POLICIES: dict[str, Policy] = {"easy": easy.choose, "normal": normal.choose, "strong": strong.choose}
"""The three bot levels."""
