"""Aegis: an event-sourced game service for the bluffing card game Ever Aegis, with replays.

One import package, ``aegis``, over the checkout's top-level folders: ``aegis.domain`` (the rules, pure),
``aegis.service`` (the write side and its read API), ``aegis.replay`` (the read side of a game's record),
``aegis.projections``, ``aegis.api`` (HTTP) and ``aegis.cli`` (the ``aegis`` command). The folders stay where the
product's owner asked for them; ``src/aegis`` links them into this package so that the build backend, the
interpreter, mypy and import-linter all see the same names (see docs/architecture.md).
"""
