"""The two tables each Ever Aegis event is entered in, beside its class: its evolve handler, how it changes the
state (``evolve.apply`` looks it up by class), and its narrator, how it reads (``narration.narrate`` looks it up by
type name). The concern modules of this package fill them as they are imported, with ``@handler(TheEvent)`` and
``@narrator(TheEvent)`` under the event's class. An event has one of each: entering a second one is an error.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol, TypeVar

from aegis.domain.everaegis.state import GameState
from aegis.domain.kernel.events import Event

E = TypeVar("E", bound=Event)
Handler = Callable[[GameState, Any], None]


class Who(Protocol):
    """What a narrator is given besides the event: ``who(seat)`` names a seat (or "the reserve") for the reader,
    ``who.command(cmd)`` says a command in words and ``who.asked(kind)`` what a decision asks (``narration``,
    which knows the decision kinds: this package may not import them, as their rules import the events)."""

    def __call__(self, seat: Any, /) -> str: ...

    def command(self, cmd: dict[str, Any], /) -> str: ...

    def asked(self, kind: str, /) -> str: ...  # what a decision kind asks (``DecisionKind.asks``)


Narrator = Callable[[dict[str, Any], Who], str]

HANDLERS: dict[type[Event], Handler] = {}
NARRATORS: dict[str, Narrator] = {}  # by type name: narration reads an event as a reader sees it, a dict


def handler(cls: type[E]) -> Callable[[Callable[[GameState, E], None]], Callable[[GameState, E], None]]:
    """Enter the function as the evolve handler of ``cls``. It must change only the state it is given."""

    def register(fn: Callable[[GameState, E], None]) -> Callable[[GameState, E], None]:
        if cls in HANDLERS:
            raise TypeError(f"{cls.TYPE} has an evolve handler already: {HANDLERS[cls].__qualname__}")
        HANDLERS[cls] = fn
        return fn

    return register


def narrator(cls: type[Event]) -> Callable[[Narrator], Narrator]:
    """Enter the function as the narrator of ``cls``: one sentence, naming only what every reader may know."""

    def register(fn: Narrator) -> Narrator:
        if cls.TYPE in NARRATORS:
            raise TypeError(f"{cls.TYPE} has a narrator already: {NARRATORS[cls.TYPE].__qualname__}")
        NARRATORS[cls.TYPE] = fn
        return fn

    return register
