"""The game service: the event store (``eventsourcing``), seats and tokens, bots and deadlines.

``domain/`` stays pure; everything here may do I/O. ``api/`` is the HTTP face of this package.
"""
