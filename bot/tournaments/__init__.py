"""Tournaments: a moderator opens one, members sign up, the bot seats and plays its rounds and pays the prize pool."""
