"""The bot interface: given a seat's view and its open prompts, pick one option."""

from __future__ import annotations

import random
from typing import Any, Protocol

from aegis.domain.kernel.prompts import Option, Prompt


class Bot(Protocol):
    name: str

    def choose(self, view: dict[str, Any], prompts: list[Prompt]) -> dict[str, Any] | None:
        """A complete command answering one of ``prompts``, or None to wait (only when every prompt is free)."""


def pick_group_then_option(rng: random.Random, options: list[Option]) -> dict[str, Any]:
    """Uniform over kinds of option first (each action, pass/call/guard...), then uniform within, then each
    parameter's value at random: no list of every complete command is ever built."""
    groups: dict[str, list[Option]] = {}
    for o in options:
        groups.setdefault(o.group, []).append(o)
    group = rng.choice(sorted(groups))
    return rng.choice(groups[group]).pick(rng)
