"""What the Alliances, Overlord and Blasphemy variants add to the game state (R163, R170, R171).

Kept apart from ``state.GameState`` so that each variant's rules read one small record. Everything here
is public: allies, the Overlord, the Blasphemy card and every player's tokens.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from aegis.domain.everaegis.card import Card


@dataclass
class VariantState:
    # Alliances (R163): each seat's two allies, fixed at setup among the occurring players
    allies: dict[int, tuple[int, ...]] = field(default_factory=dict)
    # Overlord (R170): the Overlord's seat, and how many turns in a row the current seat has begun
    overlord: int | None = None
    streak: int = 0
    # Blasphemy (R171): the card beside the deck, tokens per seat, the turn whose action earned one,
    # and a war winner's pending choice to take 1 of the loser's tokens: (winner, loser)
    blasphemy: Card | None = None
    tokens: list[int] = field(default_factory=list)
    token_turn: int = 0
    offer: tuple[int, int] | None = None
    offer_turn: int = 0

    def clone(self) -> VariantState:
        return replace(self, tokens=list(self.tokens))  # allies: set once at setup, then shared

    def allied(self, seat: int, other: int) -> bool:
        """R163, R138: ``other`` is one of ``seat``'s allies, so not their opponent."""
        return other in self.allies.get(seat, ())

    def team(self, seat: int) -> str | None:
        """R170: "overlord" or "team" in an Overlord game, else None."""
        if self.overlord is None:
            return None
        return "overlord" if seat == self.overlord else "team"
