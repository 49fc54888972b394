"""Rewind a game to any step from any perspective. Built by the replay issue."""
