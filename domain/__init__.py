"""Pure game rules: no I/O, no web framework, no storage.

``domain.kernel`` holds what any ruleset needs (events, prompts, seeded RNG, redaction);
``domain.everaegis`` is the Ever Aegis ruleset; ``domain.bots`` are players that only use
``legal_commands``; ``domain.simulation`` plays whole games in-process.
"""
