"""The odds of a claim (``domain/everaegis/odds.py``) against a brute-force count on rigged and real positions.

A claim is true when the claimant holds an unrevealed card of the claimed building (R38, R57, R58; a guard with a
card claims the guarded action's building, R65). The brute force works from the state, not from the view: every card
the reader cannot identify (not revealed, not shown to all, R58, not their own nor one they put on the deck, A21) is
an unseen slot; the years' buildings are placed by their public composition (R16, A53); the estate deck and the
years' estate cards are slots only an estate may fill (R13, R15). It then enumerates every assignment of the unseen
cards' multiset to those slots and counts, with fractions, those in which the claimant holds the claim.

Estate cards are never claimed; the brute force writes each as "estate": the assignments of distinct estate cards are
those of the collapsed multiset times the number of orders of the estates among the slots holding one, the same for
every collapsed assignment, so the fraction is unchanged.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator
from fractions import Fraction
from math import factorial, prod

import pytest

from aegis.domain.everaegis.catalog import BUILDINGS
from aegis.domain.everaegis.config import make_config
from aegis.domain.everaegis.evolve import apply, initial_state
from aegis.domain.everaegis.odds import holds_probability, odds, unseen
from aegis.domain.everaegis.redaction import OMNISCIENT, SPECTATOR, view
from aegis.domain.everaegis.setup import STOCK
from aegis.domain.everaegis.simulation import play_game
from aegis.domain.everaegis.state import Card, GameState
from aegis.domain.kernel.redaction import Perspective
from tests.helpers import Table

PLAIN = {"plain_unknown": 1}
ESTATE = "estate"

Slot = tuple[bool, bool]  # (the claimant's, only an estate may fill it)


def _slots(state: GameState, who: Perspective, claimant: int) -> tuple[list[Slot], Counter[str]]:
    """The unseen slots and the multiset of the cards in them (what the reader cannot place), from the state."""

    def knows(card: Card, possessor: int | None) -> bool:
        return who == OMNISCIENT or card.revealed or card.public or (isinstance(who, int) and card.known_to(who, possessor))

    def kind(name: str) -> str:
        return name if name in BUILDINGS else ESTATE

    slots: list[Slot] = []
    cards: Counter[str] = Counter()
    for p in state.players:
        for c in p.cards:
            if not knows(c, p.seat):
                slots.append((p.seat == claimant and not c.revealed, False))
                cards[kind(c.name)] += 1
    for c in state.deck:
        if not knows(c, None):
            slots.append((False, False))
            cards[kind(c.name)] += 1
    for label, year in state.years:
        for c in year:
            if label == STOCK or c.name not in BUILDINGS:  # a year's buildings are public (R16); its estates are not
                slots.append((False, label != STOCK))
                cards[kind(c.name)] += 1
    slots += [(False, True)] * len(state.classic.estate_deck)
    cards[ESTATE] += len(state.classic.estate_deck)
    return slots, cards


def _assignments(slots: list[Slot], cards: Counter[str]) -> Iterator[list[str]]:
    """Every distinct assignment of ``cards`` to ``slots`` in which an estate-only slot holds an estate."""
    if not slots:
        yield []
        return
    (_, estate_only), rest = slots[0], slots[1:]
    for name in sorted(n for n, k in cards.items() if k > 0):
        if estate_only and name != ESTATE:
            continue
        cards[name] -= 1
        for tail in _assignments(rest, cards):
            yield [name, *tail]
        cards[name] += 1


def _known_to_hold(state: GameState, who: Perspective, claimant: int, claim: str) -> bool:
    def knows(c: Card) -> bool:
        return who == OMNISCIENT or c.public or (isinstance(who, int) and c.known_to(who, claimant))

    return any(c.name == claim and knows(c) for c in state.players[claimant].unrevealed)


def brute_force(state: GameState, who: Perspective, claimant: int, claim: str) -> Fraction:
    if _known_to_hold(state, who, claimant, claim):
        return Fraction(1)
    slots, cards = _slots(state, who, claimant)
    mine = [i for i, (own, _) in enumerate(slots) if own]
    total = held = 0
    for a in _assignments(slots, cards):
        total += 1
        held += any(a[i] == claim for i in mine)
    return Fraction(held, total)


def claimant_enumeration(state: GameState, who: Perspective, claimant: int, claim: str) -> Fraction:
    """The same count for positions too big to list: every filling of the claimant's own unseen slots, each weighed by
    the number of ways the other unseen slots can hold the rest (estates first into the estate-only slots)."""
    if _known_to_hold(state, who, claimant, claim):
        return Fraction(1)
    slots, cards = _slots(state, who, claimant)
    mine = sum(1 for own, _ in slots if own)
    others_free = sum(1 for own, only in slots if not own and not only)
    estate_only = sum(1 for _, only in slots if only)

    def completions(rest: Counter[str]) -> int:
        if rest[ESTATE] < estate_only:
            return 0
        left = rest.copy()
        left[ESTATE] -= estate_only
        assert sum(left.values()) == others_free
        return factorial(others_free) // prod(factorial(k) for k in left.values())

    total = held = 0
    for a in _assignments([(True, False)] * mine, cards.copy()):
        weight = completions(cards - Counter(a))
        total += weight
        held += weight * (claim in a)
    return Fraction(held, total) if total else Fraction(0)


def perspectives(state: GameState) -> list[Perspective]:
    return [*range(state.seats), SPECTATOR, OMNISCIENT]


SIMPLETON_RIG = {
    "deck": ["Temple", "Mason", "Barracks"],
    "hands": {
        "0": ["Laboratory", {"name": "Temple", "revealed": True}, "Treasury"],
        "1": ["Temple", "Library"],
        "2": ["Mason", {"name": "Library", "revealed": True}],
    },
    "first_player": 0,
}


def test_r57_simpleton_odds_are_the_brute_force_count_for_every_reader_claimant_and_building():
    t = Table(3, rig=SIMPLETON_RIG)
    checked = 0
    for who in perspectives(t.state):
        for claimant in range(3):
            for claim in BUILDINGS:
                exact = brute_force(t.state, who, claimant, claim)
                assert holds_probability(t.view(who), claimant, claim) == exact, (who, claimant, claim)
                checked += 1
    assert checked == 5 * 3 * 6
    # seat 0 has drawn the deck's Temple. Seat 1 places its own Temple, seat 0's revealed one and the 2 of the years
    # (public, R16): 1 Temple is among the 6 cards it cannot see (seat 0's 3 unrevealed, seat 2's Mason, the deck's 2):
    # P(seat 0 holds it) = 1 - C(5, 3) / C(6, 3) = 1/2; the old heuristic counted the years' Temples as unseen
    assert holds_probability(t.view(1), 0, "Temple") == Fraction(1, 2)


def test_r58_the_omniscient_odds_are_what_was_true():
    t = Table(3, rig=SIMPLETON_RIG)
    for claimant in range(3):
        for claim in BUILDINGS:
            assert holds_probability(t.view(OMNISCIENT), claimant, claim) == int(t.state.holds(claimant, claim))


def test_r58_a_claim_proven_earlier_is_known_to_everyone_then_its_odds_are_1():
    """A card revealed then returned face down (a proof): Fred holds the Treasury, Sally calls, Fred shows it and turns
    it face down again: everyone now knows Fred holds it (R58), so his next Treasury claim is held with probability 1
    for every reader."""
    t = Table(3, rig={"deck": ["Mason", "Temple"], "hands": {"0": ["Treasury", "Laboratory"]}, "first_player": 0})
    assert holds_probability(t.view(2), 0, "Treasury") < 1
    t.declare(0, "treasury")
    t.react(1, "call")
    t.react(2, "pass")
    t.play({"type": "reveal", "seat": 0, "card": t.card(0, "Treasury")})
    for who in perspectives(t.state):
        assert holds_probability(t.view(who), 0, "Treasury") == 1 == brute_force(t.state, who, 0, "Treasury")
    # Fred's other cards stay unknown to the others: the odds of another claim are still the count
    for claim in BUILDINGS:
        assert holds_probability(t.view(2), 0, claim) == brute_force(t.state, 2, 0, claim)


def test_a21_a_card_put_on_the_deck_is_known_to_who_put_it_there():
    """The Laboratory's user knows the card they put on top (A21): once the next player draws it, they know that player
    holds it; the other readers still count."""
    rig = {
        "deck": ["Barracks", "Temple", "Treasury", "Mason"],
        "hands": {"0": ["Laboratory", "Library"], "1": ["Mason"]},
        "first_player": 0,
    }
    t = Table(3, rig=rig)
    library = t.card(0, "Library")
    t.declare(0, "laboratory")
    t.pass_all()
    for _ in range(60):  # seat 0 puts its Library on the deck, ends its turn; seat 1 draws the Library
        if library in {c.id for c in t.state.players[1].cards}:
            break
        seat = t.waiting()[0].seat
        legal = t.legal(seat)
        t.play(next((c for c in legal if c.get("cards", [None])[0] == library), legal[0]))
    assert "CardPutOnDeck" in t.types() and library in {c.id for c in t.state.players[1].cards}
    assert holds_probability(t.view(0), 1, "Library") == 1  # seat 0 knows where its Library went (A21)
    assert holds_probability(t.view(2), 1, "Library") < 1
    for who in perspectives(t.state):
        for claim in BUILDINGS:
            assert holds_probability(t.view(who), 1, claim) == brute_force(t.state, who, 1, claim), (who, claim)


def test_r2_a_claim_of_a_building_whose_5_cards_are_all_placed_is_impossible():
    rig = {
        "deck": ["Mason"],
        "hands": {
            "0": ["Laboratory", "Barracks"],
            "1": [{"name": "Temple", "revealed": True}] * 2,
            "2": [{"name": "Temple", "revealed": True}] * 3,
        },
        "first_player": 0,
    }
    t = Table(3, rig=rig)
    for who in perspectives(t.state):
        assert holds_probability(t.view(who), 0, "Temple") == 0 == brute_force(t.state, who, 0, "Temple")
    assert holds_probability(t.view(1), 0, "Barracks") == brute_force(t.state, 1, 0, "Barracks") > 0


def test_r13_r15_classic_odds_count_the_estate_cards_and_their_estate_only_slots():
    """A rigged Classic position: the unplaced estate cards fill the estate deck and 2 places of each year (only
    estates, R13, R15) and share the hands and the deck with the buildings; an estate in the claimant's hand is never
    the claimed building."""
    rig = {
        "deck": ["Temple", "Cellar"],
        "hands": {
            "0": ["Caravan", "Mason", "Library"],
            "1": ["Temple", "Armory"],
            "2": [{"name": "Ballista", "revealed": True}, "Temple"],
        },
        "first_player": 0,
    }
    t = Table(3, variants="classic", options=PLAIN, rig=rig)
    assert t.state.classic.estate_deck
    u = unseen(t.view(1), 0)
    in_years = sum(len([c for c in y if c.name not in BUILDINGS]) for _, y in t.state.years)
    assert in_years == 2 * len(t.state.years) and u.estate_only == len(t.state.classic.estate_deck) + in_years
    assert u.estates > u.estate_only
    for who in perspectives(t.state):
        for claimant in range(3):
            for claim in BUILDINGS:
                exact = brute_force(t.state, who, claimant, claim)
                assert holds_probability(t.view(who), claimant, claim) == exact, (who, claimant, claim)


@pytest.mark.parametrize("variants", ["simpleton", "classic"])
def test_r57_odds_on_real_deals_match_the_count_over_the_claimant_s_cards(variants):
    """Unrigged games of both kinds, for their first 400 events: years with public compositions, the estate deck and
    the years' estate cards (Classic), hands and a deck of unknown cards. At every step the view's count of unseen
    slots and unplaced cards is the state's, for every reader; at every claim the odds are the enumeration's."""
    options = PLAIN if variants == "classic" else None
    game = play_game(seats=4, variants=variants, seed=f"odds-{variants}", bots=["random"], options=options)
    state = initial_state(make_config(seats=4))  # the record's GameStarted sets the game's own configuration
    claims = 0
    for e in game.events[:400]:
        apply(state, e)
        if state.stage == "setup":
            continue
        for who in [*range(state.seats), SPECTATOR]:
            u = unseen(view(state, who), 0)
            slots, cards = _slots(state, who, 0)
            assert u.free == sum(1 for _, only in slots if not only) and u.estate_only == sum(1 for _, only in slots if only)
            assert u.buildings == Counter({n: k for n, k in cards.items() if n != ESTATE}) and u.estates == cards[ESTATE]
        found = odds(state, e.to_dict(), OMNISCIENT)
        if found is None:
            continue
        claims += 1
        claimant, claim = found["claimant"], found["claim"]
        assert found["probability"] == int(found["held"])
        for who in [*range(state.seats), SPECTATOR]:
            p = holds_probability(view(state, who), claimant, claim)
            assert p == claimant_enumeration(state, who, claimant, claim), (e.seq, who)
    assert claims >= 5


VARIANT_GAMES = [
    ("simpleton+quick", {"discovery": 1}),
    ("simpleton+blasphemy", {"rubble_rouser": 1}),
    ("simpleton+alliances+survival", None),
    ("simpleton+overlord+long", None),
    ("classic+dictator", PLAIN),
    ("classic+artificers+plague", PLAIN),
]


@pytest.mark.parametrize(("variants", "options"), VARIANT_GAMES)
def test_r2_every_card_is_placed_or_unseen_in_every_variant_and_zone(variants, options):
    """Each card is counted once, placed or in an unseen slot, whatever zone it lies in (the Blasphemy card, R171;
    the rubble, R158; a discovery token, R160; the estate deck and the years, R13-R16): at every step, for every
    reader, the view's count equals the state's."""
    seats = 5 if "alliances" in variants else 4  # allies sit to each side (R163)
    game = play_game(seats=seats, variants=variants, seed=f"odds-{variants}", bots=["random"], options=options)
    state = initial_state(make_config(seats=seats))
    for e in game.events[:300]:
        apply(state, e)
        if not state.card_count() or state.status == "finished":  # no cards yet; at the end everyone sees everything
            continue
        for who in [*range(state.seats), SPECTATOR]:
            u = unseen(view(state, who), 0)
            slots, cards = _slots(state, who, 0)
            assert (u.free, u.estate_only) == (sum(not o for _, o in slots), sum(o for _, o in slots)), (e.seq, who)
            assert u.buildings == Counter({n: k for n, k in cards.items() if n != ESTATE}), (e.seq, who)
            assert u.estates == cards[ESTATE], (e.seq, who)


def test_odds_are_a_probability_and_the_omniscient_one_is_what_was_held():
    """Property: over random finished games, every claim's odds lie in [0, 1] for every reader, and the omniscient
    reader's are exactly ``held``."""
    rng = random.Random(17)
    for i in range(4):
        seats = rng.randint(3, 6)
        game = play_game(seats=seats, variants="simpleton", seed=f"odds-prop-{i}", bots=["random", "cautious"])
        state = initial_state(make_config(seats=seats))
        for e in game.events:
            apply(state, e)
            for who in perspectives(state):
                found = odds(state, e.to_dict(), who)
                if found is None:
                    break
                assert 0 <= found["probability"] <= 1
                if who == OMNISCIENT:
                    assert found["probability"] == int(found["held"])
