"""Prompts: every pending decision, addressed to one seat, with its legal options."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Option:
    """One legal answer: a label for people and a command that can be submitted as is.

    ``group`` gathers options of one kind (for example every Library plan), so that a bot can
    choose a kind first and an option within it second. ``describe`` may be a function, so that
    prompts with thousands of options only spell out the labels somebody reads.
    """

    describe: str | Callable[[], str]
    command: dict[str, Any]
    group: str = ""

    @property
    def label(self) -> str:
        return self.describe if isinstance(self.describe, str) else self.describe()

    def to_dict(self) -> dict[str, Any]:
        return {"label": self.label, "command": self.command, "group": self.group}


@dataclass(frozen=True)
class Prompt:
    """A decision the game waits for: who, what kind, why, the options, and an optional deadline."""

    seat: int
    kind: str
    text: str
    options: tuple[Option, ...] = field(default_factory=tuple)
    deadline: float | None = None
    free: bool = False  # True for choices open at any time that do not block the game

    def to_dict(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "kind": self.kind,
            "text": self.text,
            "deadline": self.deadline,
            "free": self.free,
            "options": [o.to_dict() for o in self.options],
        }
