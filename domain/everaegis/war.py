"""War: Designate, Battle, Resolution, Casualties (R77-R85, A14, A26)."""

from __future__ import annotations

from itertools import combinations

from aegis.domain.everaegis import events as ev
from aegis.domain.everaegis.blasphemy import spoils_step
from aegis.domain.everaegis.cards import card_choices, own_card, reveal
from aegis.domain.everaegis.context import Ctx
from aegis.domain.everaegis.events.words import said_reveal
from aegis.domain.everaegis.mob import own_card as mob_card
from aegis.domain.everaegis.soldiers import casualties, change_soldiers
from aegis.domain.everaegis.state import Act, Card, GameState
from aegis.domain.kernel.decisions import DecisionKind
from aegis.domain.kernel.prompts import Option, Param, Prompt

WALL_BONUS = 5  # R81: the WALL acts as 5 soldiers for a defender, in the Battle Phase only (A14)
NO_SOLDIERS = "the attacker has no soldiers (R75)"  # "If the attacker has 0 soldiers, the war is thwarted" (R80)


def reveal_choices(s: GameState) -> list[tuple[Card, ...]]:
    """R83: the loser fully reveals 2 unrevealed cards of their choice (all of them if fewer)."""
    war = s.play.act.war if s.play.act else None
    assert war is not None and war.loser is not None
    cards = s.players[war.loser].unrevealed
    return list(combinations(cards, war.due))


def war_step(ctx: Ctx) -> bool:
    s = ctx.state
    act = s.play.act
    assert act is not None and act.war is not None
    war = act.war
    a, d = war.attacker, war.defender
    if war.stage == "designate":
        ctx.emit(ev.WarDesignated(attacker=a, defender=d))  # R79
        return True
    if war.stage == "battle":
        att = s.players[a].soldiers
        if att == 0:  # R75, R80
            ctx.emit(ev.WarThwarted(attacker=a, defender=d, reason=NO_SOLDIERS))
            _war_over(ctx, act, NO_SOLDIERS, thwarted=True)
            return True
        bonus = WALL_BONUS if s.items.wall == d else 0
        dfn = s.players[d].soldiers + bonus
        winner, loser = (a, d) if att > dfn else (d, a)  # R80: a tie goes to the defender
        ctx.emit(
            ev.WarBattle(
                attacker=a,
                defender=d,
                attacker_strength=att,
                defender_strength=dfn,
                wall_bonus=bonus,
                winner=winner,
                loser=loser,
            )
        )
        return True
    if war.stage == "resolution":
        assert war.loser is not None
        spoils = spoils_step(ctx)  # Blasphemy: the winner may take 1 of the loser's tokens first (R90, R171)
        if spoils is not None:
            return spoils
        if war.loser == d and s.items.wall == d:  # A14 ruling: a defender who loses discards the WALL
            ctx.emit(ev.ItemDiscarded(seat=d, item="WALL", reason="lost a war as the defender (A14)"))
        due = min(2, len(s.players[war.loser].unrevealed))
        ctx.emit(ev.WarResolution(loser=war.loser, reveals_due=due))
        return True
    if war.stage == "reveal":
        choices = reveal_choices(s)
        if len(choices) == 1:
            reveal_for_war(ctx, choices[0])
            return True
        return False
    if war.stage == "casualties":
        a_loss = casualties(s.players[a].soldiers)
        d_loss = casualties(s.players[d].soldiers)
        ctx.emit(ev.WarCasualties(attacker=a, defender=d, attacker_loss=a_loss, defender_loss=d_loss))
        change_soldiers(ctx, a, -a_loss, "war casualties (R84)")
        change_soldiers(ctx, d, -d_loss, "war casualties (R84)")
        ctx.emit(ev.WarEnded(attacker=a, defender=d, winner=war.winner))
        # in words, without a name: an event never depends on what the seats are called (a branch seats others)
        side = "the attacker" if war.winner == a else "the defender"
        _war_over(ctx, act, f"{side} won the war", thwarted=False)
        return True
    raise AssertionError(f"war stage {war.stage}")  # pragma: no cover


def _war_over(ctx: Ctx, act: Act, said: str, *, thwarted: bool) -> None:
    """The war's end: the end of the turn's War action, or of a war an effect started, which is not the turn's
    action (its effect goes on, rules version 2)."""
    if act.from_effect:
        ctx.emit(ev.EffectWarOver(seat=act.declarer, outcome=f"thwarted: {said}" if thwarted else said))
    elif thwarted:
        ctx.emit(ev.ActionThwarted(seat=act.declarer, action="war", reason=said))
    else:
        ctx.emit(ev.ActionCompleted(seat=act.declarer, action="war", outcome=said))


def reveal_for_war(ctx: Ctx, cards: tuple[Card, ...]) -> None:
    act = ctx.state.play.act
    assert act is not None and act.war is not None and act.war.loser is not None
    loser = act.war.loser
    for card in cards:
        reveal(ctx, loser, card, full=True, reason="war")


# ----- the decision: the loser's reveals (R83) -----


def _reveal_prompt(s: GameState, seat: int) -> Prompt:
    due = len(reveal_choices(s)[0])
    param = Param("cards", card_choices(s.players[seat].unrevealed), due, due)
    opts = (Option("Reveal", {"type": "war_reveal", "seat": seat}, "reveal", (param,)),)
    text = f"{s.players[seat].name}: you lost the war; fully reveal {due} unrevealed cards (R83)"
    return Prompt(seat, "war_reveal", text, opts)


def _mob_reveal(ctx: Ctx, mob: int) -> None:
    """R83, E28: one card a roll; the next roll skips the card just revealed."""
    ids = {c.id for combo in reveal_choices(ctx.state) for c in combo}
    card = mob_card(ctx, mob, [c for c in ctx.state.players[mob].cards if c.id in ids])
    reveal_for_war(ctx, (card,))


WAR_REVEAL = DecisionKind(
    "war_reveal",
    rule="R83",
    refusal="reveal 2 different unrevealed cards of yours",
    fields={"cards": list},
    docs={
        "cards": {
            "items": {"type": "string"},
            "description": "the ids of the unrevealed cards you fully reveal (as many as the prompt says)",
        }
    },
    summary="you lost the war: fully reveal unrevealed cards",
    offer=_reveal_prompt,
    apply=lambda ctx, cmd: reveal_for_war(ctx, tuple(own_card(ctx.state, cmd["seat"], c) for c in cmd["cards"])),
    by_rules=_mob_reveal,
    aliases=("reveal",),
    asks="reveal cards after losing a war",
    said=said_reveal,
)
