"""The odds of a claim: the probability, given exactly what a reader knew, that the claimant holds the claimed card.

A claim (an action declared with its claim, R38, or a guard claimed with a card, R65) is true when the claimant holds
an unrevealed card of the claimed building (R57, R58). What a reader knows is their view (``redaction.view``, the one
place of visibility): every card it names is placed; so are the buildings of each remaining year (its composition is
public, R16, A53) and the rubble (R158). Every other card is *unplaced*, and every card the view does not name is an
*unseen slot*: the claimant's and the other players' unnamed cards, the deck below the cards it knows on top (A21),
a rigged setup's stock, and the estate-only slots (the estate deck, R13, and the estate cards of each year, R15).

The unplaced cards are the game's 30 buildings (5 of each, R2: ``CATALOG.building_count``, a rig conserves them too)
less those placed, and as many estate cards as fill the rest of the unseen slots (their number follows: every
unseen slot holds exactly one unplaced card). The probability is exact counting: among every assignment of the
unplaced cards to the unseen slots that the reader's knowledge allows (estate-only slots hold estate cards), the
fraction in which one of the claimant's unseen cards is the claimed building. Estate cards are never claimed and fill
the estate-only slots whatever the buildings do, so the count reduces to the hypergeometric
``1 - C(F - k, h) / C(F, h)``: ``F`` unseen slots any card may fill, ``k`` unplaced cards of the claimed building,
``h`` unseen cards of the claimant (``tests/domain/test_odds.py`` checks it against the enumeration itself).

Where the reader knows one of the claimant's unrevealed cards is the claimed building the answer is 1; where the
reader can see every unrevealed card of the claimant, 0 or 1 (the omniscient reader: what was true).

What the count does not take from the record: constraints a reader could only have kept in mind from the history
and that the view does not show (a card the reader saw discarded into the deck, after which the deck's cards can no
longer be told apart; a deck made of a year or of estate cards, whose composition was public when it was made, once
cards are drawn from it): the README's "Odds and the review" says so.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from fractions import Fraction
from math import comb
from typing import Any

from aegis.domain.everaegis.catalog import CATALOG
from aegis.domain.everaegis.redaction import view
from aegis.domain.everaegis.setup import ESTATE_LABEL, STOCK
from aegis.domain.everaegis.state import GameState
from aegis.domain.kernel.redaction import Perspective


@dataclass(frozen=True)
class Unseen:
    """What a reader cannot place, counted from their view."""

    free: int  # unseen slots any card may fill (hands, deck, a rig's stock)
    estate_only: int  # unseen slots only an estate card may fill (the estate deck, the estate cards of the years)
    buildings: Counter[str]  # unplaced building cards, by name
    claimant_cards: tuple[str | None, ...]  # the claimant's unrevealed cards: a name where the reader knows it

    @property
    def estates(self) -> int:
        """Unplaced estate cards: every unseen slot holds one unplaced card."""
        return self.free + self.estate_only - sum(self.buildings.values())


def unseen(view: dict[str, Any], claimant: int) -> Unseen:
    """Count, from a reader's view, the slots the reader cannot see and the cards they cannot place."""
    placed: Counter[str] = Counter()
    free = 0
    for p in view["players"]:
        for c in p["cards"]:
            if "name" in c:
                placed[c["name"]] += 1
            else:
                free += 1
    deck = view["deck"]
    known_top = deck.get("known_top", [])
    placed.update(c["name"] for c in known_top)
    free += deck["size"] - len(known_top)
    estate_only = (view.get("estate_deck") or {}).get("size", 0)
    for year in view["years"]:
        if year["year"] == STOCK:  # a rigged setup's hands not dealt yet: only the size is public
            free += year["size"]
            continue
        for name, n in year["composition"].items():
            if name == ESTATE_LABEL:
                estate_only += n
            else:
                placed[name] += n
    placed.update(c["name"] for c in view.get("rubble", []))
    blasphemy = (view.get("blasphemy") or {}).get("card")
    if blasphemy is not None:  # R171: beside the deck, face up
        placed[blasphemy["name"]] += 1
    buildings = Counter({name: n - placed[name] for name, n in CATALOG.building_count.items() if n > placed[name]})
    mine = tuple(c.get("name") for c in view["players"][claimant]["cards"] if not c["revealed"])
    return Unseen(free, estate_only, buildings, mine)


def holds_probability(view: dict[str, Any], claimant: int, claim: str) -> Fraction:
    """P(``claimant`` holds an unrevealed ``claim``), exactly, from what the reader of ``view`` knows."""
    u = unseen(view, claimant)
    if claim in u.claimant_cards:
        return Fraction(1)
    hidden = sum(1 for name in u.claimant_cards if name is None)
    k = u.buildings[claim]
    if hidden == 0 or k <= 0:
        return Fraction(0)
    return 1 - Fraction(comb(u.free - k, hidden), comb(u.free, hidden))


def claim_of(state: GameState, event: dict[str, Any]) -> tuple[int, str, str] | None:
    """(claimant, claimed building, "action" or "guard") if the event (as stored) is a claim: an action declared with
    its claim (R38; a SANCTIONED action and a mob's claim nothing, R61, R43) or a guard with a card (R65), whose
    claim is the guarded action's building. ``state``: the state after the event."""
    if event["type"] == "ActionDeclared" and event.get("claim") and not event.get("sanctioned"):
        return int(event["seat"]), str(event["claim"]), "action"
    if event["type"] == "GuardDeclared" and event.get("means") == "card":
        act = state.play.act
        if act is not None and act.claim:
            return int(event["seat"]), str(act.claim), "guard"
    return None


def odds(state: GameState, event: dict[str, Any], perspective: Perspective) -> dict[str, Any] | None:
    """The odds of the claim that ``event`` (as stored) makes, as ``perspective`` knew them with ``state`` (the state
    after the event), and whether it was held; None if the event is no claim."""
    found = claim_of(state, event)
    if found is None:
        return None
    claimant, claim, about = found
    p = holds_probability(view(state, perspective), claimant, claim)
    return {
        "claimant": claimant,
        "claim": claim,
        "about": about,
        "probability": float(p),
        "as": perspective,
        "held": state.holds(claimant, claim),
    }
