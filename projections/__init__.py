"""Views derived from events (per seat, spectator, lobby, statistics). Built by the projections issue."""
