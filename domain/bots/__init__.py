"""Bots that fit any ruleset: players that know only their own view and choose among its prompts. A ruleset names
the bots that play it (``Ruleset.bots``), with bots of its own beside these (Ever Aegis: ``everaegis.bots``)."""

from aegis.domain.bots.base import Bot, pick_group_then_option
from aegis.domain.bots.random_bot import RandomBot

__all__ = ["Bot", "RandomBot", "pick_group_then_option"]
