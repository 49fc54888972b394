"""Blasphemy (R171, R90, A48): the Blasphemy card beside the deck, tokens for using its action, and the
war winner's right to take a token.

Rulings (docs/rulings.md, "Blasphemy"):
- Setup: after the deck is formed and the first player chosen, cards are revealed from the top of the deck
  until one is a building card (``catalog.BUILDINGS``). The others (estate cards, in Classic) go to the
  bottom in the order revealed and stay known to all; the building is the Blasphemy card, public and out
  of play. A card revealed from the deck is possessed by nobody, so no trigger runs.
- A token is gained by the declarer of the action that matches the Blasphemy card (the action whose claim
  is that building) once the action resolves ("successfully uses"). No token when a correct call ("called
  and proven false") or a reactive item (the BIRD, R76, R104) thwarts it, nor for a SANCTIONED slot, which
  runs the SANCTION's text instead (R109, A20). A token when the claim is called and proven, and when
  guards stop its effect on some or all players (a guard shields only the guarder, R66). A mob's use
  counts (its action is no claim). At most one token per action.
- When a war has a winner, before the loser reveals, the winner chooses whether to take 1 of the loser's
  tokens (it is a "may"). A war thwarted before the battle has no winner.
- A current player holding 3 or more tokens in their Conquest Phase wins (an alternate win condition,
  so it also applies in an Overlord game). Tokens held at any other moment do not win.
"""

from __future__ import annotations

from aegis.domain.everaegis import events as ev
from aegis.domain.everaegis.catalog import BUILDINGS, CATALOG
from aegis.domain.everaegis.context import Ctx
from aegis.domain.everaegis.events.words import said_answer
from aegis.domain.everaegis.mob import agree
from aegis.domain.everaegis.state import Card, GameState
from aegis.domain.kernel.decisions import DecisionKind
from aegis.domain.kernel.prompts import Option, Prompt

WIN_TOKENS = 3  # R171


def set_card(ctx: Ctx) -> None:
    """R171 setup: reveal from the top of the deck until a building card appears."""
    s = ctx.state
    shown: list[Card] = []
    for card in s.deck:
        if card.name in BUILDINGS:
            bottom = [{"id": c.id, "name": c.name} for c in shown]
            ctx.emit(ev.BlasphemyCardSet(card=card.id, name=card.name, bottom=bottom))
            return
        shown.append(card)
    ctx.emit(ev.BlasphemyCardSet(card=None, name=None, bottom=[]))  # a rigged deck with no building card


def action_of(s: GameState) -> str | None:
    """The action whose claim is the Blasphemy card's building."""
    card = s.variant.blasphemy
    if card is None:
        return None
    return next((a.key for a in CATALOG.actions if a.claim == card.name), None)


def token_step(ctx: Ctx) -> bool:
    """A48 ruling: the Blasphemy action resolved (not thwarted, not SANCTIONED): its declarer gains a token."""
    s = ctx.state
    act = s.play.act
    if act is None or act.stage != "execute" or act.sanctioned or s.variant.token_turn == s.play.turn:
        return False
    if act.reacted is not None:  # a reactive item (the BIRD) thwarts it before it executes (R104): no token
        return False
    if act.action != action_of(s):
        return False
    ctx.emit(ev.BlasphemyTokenGained(seat=act.declarer, action=act.action, total=s.variant.tokens[act.declarer] + 1))
    return True


def spoils_step(ctx: Ctx) -> bool | None:
    """R90: a war's winner may take 1 of the loser's tokens. None: nothing to offer or already settled;
    True: the offer was made; False: the winner is still to choose."""
    s = ctx.state
    war = s.play.act.war if s.play.act is not None else None
    if war is None or war.winner is None or war.loser is None or not s.variant.tokens:
        return None
    if s.variant.offer is not None:
        return False
    if s.variant.offer_turn == s.play.turn or s.variant.tokens[war.loser] == 0:
        return None
    if s.players[war.loser].eliminated and s.config.option("vengeance"):  # a loser who resigned (S2), R159
        return None
    ctx.emit(ev.BlasphemySpoilsOffered(winner=war.winner, loser=war.loser))
    return True


def _spoils_prompt(s: GameState, seat: int) -> Prompt:
    assert s.variant.offer is not None
    winner, loser = s.variant.offer
    base = {"type": "spoils", "seat": winner}
    name = s.players[loser].name
    opts = (
        Option(f"Take 1 of {name}'s Blasphemy tokens", {**base, "answer": "take"}, "take"),
        Option(f"Leave {name}'s Blasphemy tokens", {**base, "answer": "leave"}, "leave"),
    )
    text = f"{s.players[seat].name}: you won the war; you may take 1 of {name}'s Blasphemy tokens (R90, R171)"
    return Prompt(seat, "spoils", text, opts)


def settle_spoils(ctx: Ctx, answer: str) -> None:
    s = ctx.state
    assert s.variant.offer is not None
    winner, loser = s.variant.offer
    if answer == "take":
        ctx.emit(ev.BlasphemyTokenTaken(seat=winner, from_seat=loser))
    else:
        ctx.emit(ev.BlasphemySpoilsDeclined(seat=winner, loser=loser))


def wins(s: GameState, seat: int) -> bool:
    """R171: the current player with 3 tokens in their Conquest Phase (the caller checks the phase)."""
    return bool(s.variant.tokens) and s.variant.tokens[seat] >= WIN_TOKENS


SPOILS = DecisionKind(
    "spoils",
    rule="R171",
    refusal="answer 'take' or 'leave' for the loser's Blasphemy tokens",
    fields={"answer": str},
    docs={"answer": {"enum": ["take", "leave"], "description": "take one of the loser's Blasphemy tokens, or leave them"}},
    summary="Blasphemy: take a token from the player you beat, or leave it",
    offer=_spoils_prompt,
    apply=lambda ctx, cmd: settle_spoils(ctx, cmd["answer"]),
    # taking a token is a yes-or-no choice, so a mob's Agreement decides (R90, R171, R176)
    by_rules=lambda ctx, mob: settle_spoils(ctx, "take" if agree(ctx, mob, "take a Blasphemy token") else "leave"),
    asks="take or leave a Blasphemy token",
    said=said_answer,
)
