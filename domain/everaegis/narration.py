"""One sentence in plain words for every event, from the event as a reader may see it.

Narration never looks past redaction: it is given the redacted event, so a card its reader may not
know is "a card", and an answer still secret in an open window is "answers". Each event's narrator is declared beside
its class, in the module of its concern (``events/``), and entered in ``events.tables.NARRATORS``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from aegis.domain.everaegis.decisions import DECISIONS as KINDS
from aegis.domain.everaegis.events.tables import NARRATORS
from aegis.domain.everaegis.events.words import ACTION_NAMES as ACTION_NAMES

_NARRATORS = NARRATORS  # every event's narrator by type name, entered as the events package is imported


class _Reader:
    """``who`` for the narrators (``events.tables.Who``): a seat's name as ``names`` gives it, and a command in
    words."""

    __slots__ = ("names",)

    def __init__(self, names: list[str]) -> None:
        self.names = names

    def __call__(self, seat: Any) -> str:
        if isinstance(seat, int) and 0 <= seat < len(self.names):
            return self.names[seat]
        return "the reserve" if seat == "reserve" else str(seat)

    def command(self, cmd: dict[str, Any]) -> str:
        return played_words(cmd, self)

    def asked(self, kind: str) -> str:
        return asked_words(kind)


def narrate(event: dict[str, Any], names: list[str]) -> str:
    """``event`` as the reader sees it; ``names`` by seat."""
    fn = _NARRATORS.get(event.get("type", ""))
    return fn(event, _Reader(names)) if fn else event.get("type", "?")


def played_words(cmd: dict[str, Any], who: Callable[[Any], str]) -> str:
    """A command the server played for a seat, in words (it names only what that seat may know): its decision
    kind's ``said`` (an older command type: the first kind it answers)."""
    for kind in KINDS.answering(str(cmd.get("type"))):
        if kind.said is not None:
            return kind.said(cmd, who)
    return str(cmd.get("type"))


def asked_words(kind: str) -> str:
    """What a decision of ``kind`` asks, as "ran out of time to ..." reads it (the kind's ``asks``)."""
    found = KINDS[kind].asks if kind in KINDS else ""
    return found or f"make a decision ({kind})"
