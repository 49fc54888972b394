"""Pure game rules: no I/O, no web framework, no storage.

``domain.kernel`` holds what any ruleset needs (events, prompts, seeded RNG, redaction);
``domain.everaegis`` is the Ever Aegis ruleset (with its own bots); ``domain.bots`` are players that fit any
ruleset, using only a seat's view and prompts; ``domain.simulation`` plays whole games in-process.
"""
