"""Live tables: lobby, play, timers, persistence and the public message of each table."""
