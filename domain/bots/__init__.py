"""Bots: players that know only their own view and choose among ``legal_commands``."""

from collections.abc import Callable

from domain.bots.base import Bot, make_bot
from domain.bots.cautious import CautiousBot
from domain.bots.random_bot import RandomBot

BOTS: dict[str, Callable[[int], Bot]] = {"random": RandomBot, "cautious": CautiousBot}

__all__ = ["BOTS", "Bot", "CautiousBot", "RandomBot", "make_bot"]
