"""Hachi-Hachi Trick (ハチハチトリック), by ドミッチ: hanafuda 88's play/fold system as a trick-taking game."""
