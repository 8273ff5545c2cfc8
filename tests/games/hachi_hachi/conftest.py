"""Puts this folder on ``sys.path`` so the Hachi-Hachi tests can import their helper module ``hachi_kit``."""

from __future__ import annotations

import sys
from pathlib import Path

_HERE = str(Path(__file__).parent)
if _HERE not in sys.path:
    sys.path.insert(0, _HERE)
