"""Open-Face Chinese Poker (OFC): Turbo, Pineapple and the two Japanese house versions (rules.md §4)."""
