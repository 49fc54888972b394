"""Bots: players that know only their own view and choose among ``legal_commands``."""

from collections.abc import Callable

from aegis.domain.bots.base import Bot, make_bot
from aegis.domain.bots.cautious import CautiousBot
from aegis.domain.bots.random_bot import RandomBot

BOTS: dict[str, Callable[[int], Bot]] = {"random": RandomBot, "cautious": CautiousBot}

__all__ = ["BOTS", "Bot", "CautiousBot", "RandomBot", "make_bot"]
