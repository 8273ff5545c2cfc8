"""Table images (drawing only: no Discord, no database)."""
