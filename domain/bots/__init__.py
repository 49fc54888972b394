"""Bots: players that know only their own view and choose among ``legal_commands``."""

from domain.bots.base import Bot, make_bot
from domain.bots.cautious import CautiousBot
from domain.bots.random_bot import RandomBot

BOTS = {"random": RandomBot, "cautious": CautiousBot}

__all__ = ["BOTS", "Bot", "CautiousBot", "RandomBot", "make_bot"]
