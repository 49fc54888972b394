"""The bots that play Ever Aegis, by name: the kernel's random bot and the cautious one of this ruleset."""

from __future__ import annotations

from collections.abc import Callable

from aegis.domain.bots import Bot, RandomBot
from aegis.domain.everaegis.cautious_bot import CautiousBot, StandInBot

BOTS: dict[str, Callable[[int], Bot]] = {"random": RandomBot, "cautious": CautiousBot}
STAND_IN: Callable[[int], Bot] = StandInBot  # a person's timed-out decisions and abandoned seat (ruling S3)


def make_bot(kind: str, seed: int) -> Bot:
    try:
        return BOTS[kind](seed)
    except KeyError:
        raise ValueError(f"unknown bot {kind!r}; bots: {', '.join(BOTS)}") from None
