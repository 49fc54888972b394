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
from aegis.domain.everaegis.events.words import a_or_an, action_name

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


def narrate(event: dict[str, Any], names: list[str]) -> str:
    """``event`` as the reader sees it; ``names`` by seat."""
    fn = _NARRATORS.get(event.get("type", ""))
    return fn(event, _Reader(names)) if fn else event.get("type", "?")


def played_words(cmd: dict[str, Any], who: Callable[[Any], str]) -> str:
    """A command the server played for a seat, in words (it names only what that seat may know)."""
    kind = str(cmd.get("type"))
    if kind in KINDS and KINDS[kind].aliases:  # prove, pay, war_reveal...: in the words of the type they answer for
        kind = KINDS[kind].aliases[0]
    if kind == "declare":
        target = cmd.get("target")
        return f"{action_name(cmd.get('action', ''))}" + (f" against {who(target)}" if target is not None else "")
    if kind == "reveal":
        cards = cmd.get("cards") or [cmd.get("card")]
        return f"reveal card {', '.join(str(c) for c in cards)}"
    if kind == "discard":
        return f"discard card {cmd.get('card')}"
    if kind == "put_back":
        return f"put back cards {', '.join(str(c) for c in cmd.get('cards', []))} (first named on top)"
    if kind == "choose_year":
        return f"year {cmd.get('year')} becomes the deck"
    if kind == "choose_leader":
        passed = f", the rest passed to {who(cmd['pass_to'])}" if cmd.get("pass_to") is not None else ""
        return f"leader {cmd.get('mat')}{passed}"
    if kind == "artificer_gift":
        return f"the {cmd.get('item')} to {who(cmd.get('to'))}"
    if kind == "take":
        return f"take {a_or_an(str(cmd.get('item')))}"
    if kind == "use_item":
        return f"use the {cmd.get('item')}"
    if kind == "end_phase":
        return "go on to the Demise Phase"
    if kind in ("draw_react", "spoils"):
        return str(cmd.get("answer"))
    if kind in ("effect_choice", "effect_order"):
        return f"choice {cmd.get('choice', cmd.get('first'))}"
    return str(kind)
