"""War: begun by the War action or by a card effect, designated, the battle, the loser's reveals and the
casualties, or thwarted for want of soldiers (R75, R78-R85).
"""

from __future__ import annotations

from typing import Any

from aegis.domain.everaegis.events.tables import Who, handler, narrator
from aegis.domain.everaegis.events.words import counted
from aegis.domain.everaegis.state import Act, GameState, War
from aegis.domain.kernel.events import Event, event


@event
class EffectWarBegan(Event):
    """A card effect makes its possessor go to war (the attacker) with the player it selected (R78-R85)."""

    attacker: int = 0
    defender: int = 0
    source: str = ""


@handler(EffectWarBegan)
def _evolve_effect_war_began(s: GameState, e: EffectWarBegan) -> None:
    s.play.act = Act(
        declarer=e.attacker,
        action="war",
        plan={"target": e.defender},
        claim=None,
        sanctioned=False,
        stage="execute",
        war=War(attacker=e.attacker, defender=e.defender),
        from_effect=True,
    )


@narrator(EffectWarBegan)
def _narrate_effect_war_began(e: dict[str, Any], who: Who) -> str:
    return f"{e['source']}: {who(e['attacker'])} goes to war with {who(e['defender'])}"


@event
class EffectWarOver(Event):
    """A war an effect started is over (``outcome``: who won, or why it was thwarted); the effect goes on. It is not
    the turn's action: the Action Phase is as it was (rules version 2; a game of version 1 recorded an
    ``ActionCompleted`` or ``ActionThwarted`` of action "war" here)."""

    seat: int = 0
    outcome: str = ""


@handler(EffectWarOver)
def _evolve_effect_war_over(s: GameState, e: EffectWarOver) -> None:
    s.play.act = None


@narrator(EffectWarOver)
def _narrate_effect_war_over(e: dict[str, Any], who: Who) -> str:
    return f"The war {who(e['seat'])} was made to go to is over: {e['outcome']}"


@event
class WarDesignated(Event):
    attacker: int = 0
    defender: int = 0


@handler(WarDesignated)
def _evolve_war_designated(s: GameState, e: WarDesignated) -> None:
    assert s.play.act is not None and s.play.act.war is not None
    s.play.act.war.stage = "battle"


@narrator(WarDesignated)
def _narrate_war_designated(e: dict[str, Any], who: Who) -> str:
    return f"War: {who(e['attacker'])} attacks {who(e['defender'])}"


@event
class WarBattle(Event):
    attacker: int = 0
    defender: int = 0
    attacker_strength: int = 0
    defender_strength: int = 0
    wall_bonus: int = 0
    winner: int = 0
    loser: int = 0


@handler(WarBattle)
def _evolve_war_battle(s: GameState, e: WarBattle) -> None:
    assert s.play.act is not None and s.play.act.war is not None
    war = s.play.act.war
    war.winner, war.loser = e.winner, e.loser
    war.stage = "resolution"


@narrator(WarBattle)
def _narrate_war_battle(e: dict[str, Any], who: Who) -> str:
    wall = " (WALL +5)" if e.get("wall_bonus") else ""
    return (
        f"Battle: {who(e['attacker'])} {e['attacker_strength']} against {who(e['defender'])} "
        f"{e['defender_strength']}{wall}; {who(e['winner'])} wins"
    )


@event
class WarThwarted(Event):
    attacker: int = 0
    defender: int = 0
    reason: str = ""


@handler(WarThwarted)
def _evolve_war_thwarted(s: GameState, e: WarThwarted) -> None:
    assert s.play.act is not None and s.play.act.war is not None
    s.play.act.war.stage = "over"


@narrator(WarThwarted)
def _narrate_war_thwarted(e: dict[str, Any], who: Who) -> str:
    return f"{who(e['attacker'])}'s war is thwarted: no soldiers"


@event
class WarResolution(Event):
    loser: int = 0
    reveals_due: int = 0


@handler(WarResolution)
def _evolve_war_resolution(s: GameState, e: WarResolution) -> None:
    assert s.play.act is not None and s.play.act.war is not None
    s.play.act.war.due = e.reveals_due
    s.play.act.war.stage = "reveal" if e.reveals_due else "casualties"


@narrator(WarResolution)
def _narrate_war_resolution(e: dict[str, Any], who: Who) -> str:
    if not e["reveals_due"]:  # nothing left unrevealed (R83: all, which is none)
        return f"{who(e['loser'])} lost, with no unrevealed card left to reveal"
    return f"{who(e['loser'])} lost and must reveal {counted(e['reveals_due'], 'card')}"


@event
class WarCasualties(Event):
    attacker: int = 0
    defender: int = 0
    attacker_loss: int = 0
    defender_loss: int = 0


@handler(WarCasualties)
def _evolve_war_casualties(s: GameState, e: WarCasualties) -> None:
    assert s.play.act is not None and s.play.act.war is not None
    s.play.act.war.stage = "over"


@narrator(WarCasualties)
def _narrate_war_casualties(e: dict[str, Any], who: Who) -> str:
    # what each side is to lose (R84); an item that keeps soldiers saves them next (SoldiersKept, E19)
    a, d = counted(e["attacker_loss"], "soldier"), counted(e["defender_loss"], "soldier")
    return f"Casualties (R84): {who(e['attacker'])} is to lose {a}, {who(e['defender'])} {d}"


@event
class WarEnded(Event):
    attacker: int = 0
    defender: int = 0
    winner: int | None = None


@handler(WarEnded)
def _evolve_war_ended(s: GameState, e: WarEnded) -> None:
    assert s.play.act is not None and s.play.act.war is not None
    s.play.act.war.stage = "ended"


@narrator(WarEnded)
def _narrate_war_ended(e: dict[str, Any], who: Who) -> str:
    return "The war ends"
