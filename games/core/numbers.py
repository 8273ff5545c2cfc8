"""Whole numbers typed by people (an amount in a modal, a house-rule value).

Accepted: ASCII digits, optionally with a leading minus and with commas as thousands separators in the
standard places (``1,000``, ``12,345,678``), and the same written with full-width digits and comma
(``１，０００``), as a Japanese keyboard types them. Refused: a comma anywhere else (``1,5`` is not 15),
superscripts (``²``), other scripts' digits (``٣``), underscores, exponents, spaces inside the number.
"""

from __future__ import annotations

import re

_FULL_WIDTH = str.maketrans({**{chr(0xFF10 + i): str(i) for i in range(10)}, "，": ",", "－": "-"})
_WHOLE = re.compile(r"-?(?:[0-9]{1,3}(?:,[0-9]{3})+|[0-9]+)", re.ASCII)
MAX_DIGITS = 18


def parse_whole(text: str) -> int | None:
    """The number ``text`` spells (surrounding spaces ignored), or None if it is not one in the forms above."""
    candidate = text.strip().translate(_FULL_WIDTH)
    if not _WHOLE.fullmatch(candidate):
        return None
    digits = candidate.replace(",", "")
    if len(digits.lstrip("-")) > MAX_DIGITS:
        return None
    return int(digits)
