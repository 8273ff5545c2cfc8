"""Luk Fu (六虎), the Hakka money-card trick-taking game (rules.md §2)."""
