"""Fudaba's game engines: pure Python, no Discord, database or imaging imports.

`games.core` holds what every game shares (cards, the seeded shuffle, the engine contract,
settlement, table records); each sub-package holds one game.
"""
