"""Mob players (R173-R181): the D8 rolled for a mob, and the dice a rigged position sets."""

from __future__ import annotations

from dataclasses import field
from typing import Any

from aegis.domain.everaegis.events.tables import Who, handler, narrator
from aegis.domain.everaegis.state import GameState
from aegis.domain.kernel.events import Event, event


@event
class DieRolled(Event):
    """A D8 roll made for a mob (R173-R181): public. ``purpose`` names the procedure (action, player
    selection, object selection, agreement, ultimatum); ``dice`` has more than one die for Abundance
    (R181) and ``total`` is their sum; ``outcome`` says in words what the count landed on. ``rigged``
    dice came from a rigged position (not from the seed); ``rng`` is the seeded stream used."""

    seat: int = 0
    purpose: str = ""
    dice: list[int] = field(default_factory=list)
    total: int = 0
    outcome: str = ""
    rigged: int = 0
    rng: list[int] = field(default_factory=list)


@handler(DieRolled)
def _evolve_die_rolled(s: GameState, e: DieRolled) -> None:
    del s.dice[: e.rigged]
    if e.rng:
        s.rng = e.rng[1]


@narrator(DieRolled)
def _narrate_die_rolled(e: dict[str, Any], who: Who) -> str:
    dice = e.get("dice") or []
    rolled = f"{e['total']}" if len(dice) == 1 else f"{' + '.join(str(d) for d in dice)} = {e['total']}"
    return f"The D8 for {who(e['seat'])} ({e['purpose']}) rolls {rolled}: {e['outcome']}"


@event
class DiceRigged(Event):
    """Rigged setup: the next D8 results, in order, for teaching and reproducing a mob's play."""

    dice: list[int] = field(default_factory=list)


@handler(DiceRigged)
def _evolve_dice_rigged(s: GameState, e: DiceRigged) -> None:
    s.dice = list(e.dice)


@narrator(DiceRigged)
def _narrate_dice_rigged(e: dict[str, Any], who: Who) -> str:
    return f"The next D8 results are set: {', '.join(str(d) for d in e.get('dice', []))}"
