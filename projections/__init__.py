"""What API processes share, derived from events: the lobby list and its index, players' records, ratings and game
lists. (A game's views are computed on read by the service: ``service/views.py``.)"""
