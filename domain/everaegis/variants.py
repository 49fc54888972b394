"""The Alliances, Overlord and Blasphemy variants, seen from the rest of the engine: their setup, who shares
a win, and their public view (R163, R170, R171). Each variant's rules live in its own module."""

from __future__ import annotations

from typing import Any

from aegis.domain.everaegis import alliances, blasphemy, overlord
from aegis.domain.everaegis.context import Ctx
from aegis.domain.everaegis.state import GameState


def variant_setup(ctx: Ctx) -> None:
    """After the deck is formed and the first player chosen (normal or rigged setup)."""
    v = ctx.state.config.variants
    if "alliances" in v:
        alliances.seat_allies(ctx)
    if "overlord" in v:
        overlord.choose(ctx)
    if "blasphemy" in v:
        blasphemy.set_card(ctx)


def winners(s: GameState, found: list[int]) -> list[int]:
    """Everyone who wins with ``found``: allies (R163) and the Overlord's opponents as a team (R170)."""
    return overlord.share(s, alliances.share(s, found))


def view(s: GameState) -> dict[str, Any]:
    """What every reader sees of these variants: allies, the Overlord, the Blasphemy card and tokens."""
    out: dict[str, Any] = {}
    var = s.variant
    if var.allies:
        out["allies"] = {str(seat): list(a) for seat, a in sorted(var.allies.items())}
    if var.overlord is not None:
        out["overlord"] = {
            "seat": var.overlord,
            "team": [seat for seat in range(s.seats) if seat != var.overlord],
            "turns_in_a_row": var.streak if s.play.current == var.overlord else 0,
            "turns_due": len(overlord.opponents(s)),
        }
    if "blasphemy" in s.config.variants and var.tokens:
        card = var.blasphemy
        out["blasphemy"] = {
            "card": {"id": card.id, "name": card.name} if card is not None else None,
            "action": blasphemy.action_of(s),
            "tokens": list(var.tokens),
            "to_win": blasphemy.WIN_TOKENS,
        }
        if var.offer is not None:
            out["blasphemy"]["offer"] = {"winner": var.offer[0], "loser": var.offer[1]}
    return out
