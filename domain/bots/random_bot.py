"""The uniformly random bot: any legal option, chosen by kind first and then uniformly."""

from __future__ import annotations

import random
from typing import Any

from aegis.domain.bots.base import pick_group_then_option
from aegis.domain.kernel.prompts import Prompt

GIFT_CHANCE = 0.05


class RandomBot:
    name = "random"

    def __init__(self, seed: int):
        self.rng = random.Random(seed)

    def choose(self, view: dict[str, Any], prompts: list[Prompt]) -> dict[str, Any] | None:
        blocking = [p for p in prompts if not p.free]
        free = [o for p in prompts if p.free for o in p.options]
        if not blocking:
            return None  # free choices never block the game; a bot only uses them alongside a turn
        if free and self.rng.random() < GIFT_CHANCE:
            return pick_group_then_option(self.rng, free)
        return pick_group_then_option(self.rng, list(blocking[0].options))
