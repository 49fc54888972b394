"""Redaction is one policy applied to every event type: what each perspective may see."""

from __future__ import annotations

import dataclasses

from aegis.domain.everaegis.redaction import OMNISCIENT, SPECTATOR
from aegis.domain.everaegis.ruleset import RULESET
from aegis.domain.everaegis.simulation import play_game
from aegis.domain.kernel.redaction import redact_event
from tests.domain.test_card_effects import stub_catalog
from tests.helpers import Table

ALL_EVENT_TYPES = list(RULESET.event_types)  # every event class (tests/domain/test_event_declarations.py checks the set)


def test_every_event_type_declares_only_real_fields():
    for cls in ALL_EVENT_TYPES:
        names = {f.name for f in dataclasses.fields(cls)}
        for field in cls.SECRET:
            assert field in names, (cls.TYPE, field)
        for field, audience in cls.PRIVATE.items():
            assert field in names and audience in names, (cls.TYPE, field, audience)


def test_every_event_type_is_redacted_for_every_perspective():
    """Secret fields vanish for everyone but the omniscient reader; private ones for those outside the audience."""
    for cls in ALL_EVENT_TYPES:
        data = cls().to_dict()
        for name in cls.PRIVATE.values():
            data[name] = [1]
        for who in (0, 1, SPECTATOR):
            seen = redact_event(data, who)
            for field in cls.SECRET:
                assert field not in seen
            for field in cls.PRIVATE:
                assert (field in seen) == (who == 1), (cls.TYPE, field, who)
        assert redact_event(data, OMNISCIENT) == data


def test_every_event_type_occurs_in_simulated_games():
    """The redaction test above is not about hypothetical events: random games produce nearly all of them."""
    seen: set[str] = set()
    for seed in range(12):
        for variants in (
            "simpleton",
            "simpleton+quick",
            "simpleton+solo",
            "simpleton+alliances+blasphemy",
            "simpleton+overlord+blasphemy",
        ):
            game = play_game(seats=5, variants=variants, seed=f"cover{seed}", bots=["random"])
            seen.update(e.TYPE for e in game.events)
        for selection in ("limited", "drafting", "freeform"):
            game = play_game(
                seats=5,
                variants={"freeform": "classic+dictator", "drafting": "classic+artificers"}.get(selection, "classic"),
                seed=f"cover{seed}",
                bots=["random"],
                options={"plain_unknown": 1},
                selection=selection,
                catalog=stub_catalog(),  # estate effects (test stubs) so that effect events occur too
            )
            seen.update(e.TYPE for e in game.events)
    optional = {"rubble_rouser": 1, "vengeance": 1, "discovery": 1}  # R158-R160: their events occur too
    for seed in (0, 3):
        game = play_game(seats=5, variants="simpleton", seed=f"cover-opt{seed}", bots=["random"], options=optional)
        seen.update(e.TYPE for e in game.events)
    never = {cls.TYPE for cls in ALL_EVENT_TYPES} - seen
    # Rigged-only and rare overflow events are covered by the rule tests instead. WarThwarted (R75: an
    # attacker with 0 soldiers in the Battle Phase) cannot happen in Simpleton, where War needs 1 soldier
    # to declare and nothing can take soldiers before the battle; it is there for the Classic game.
    # EstatesMadeDeck needs every year used up in a Classic game (tests/domain/test_classic_game.py covers it).
    rare = {
        "EstatesMadeDeck",
        "CardDealt",
        "ItemNotGained",
        "SanctionNotPlaced",
        "YearMadeDeck",
        "CardNotGained",
        "TurnSkipped",
        "WarThwarted",
    }
    rare.add("EstatesMadeDeck")
    # No shipped or stub effect makes players gain cards or give sacrifices in an unrigged game
    # (test_card_effects.py plays them from rigs).
    rare |= {"CardsToGain", "SacrificesGiven", "EffectsOrdered"}  # and two effects at once (R131)
    rare.add("EffectWarBegan")  # only a stub SWORD starts one (test_card_effects.py, E24)
    rare |= {"DrawReactionPassed", "DrawStopped"}  # only a stub CALTROPS (test_card_effects.py, E21, E27)
    rare.add("SoldiersKept")  # only a stub SHIELD (test_card_effects.py, E19)
    # Undo needs a window closed by its deadline; simulations have none (test_rules_undo.py covers them).
    rare |= {"UndoPauseBegan", "UndoWaived", "UndoExpired", "UndoClaimed"}
    rare |= {"DiceRigged"}  # rigged D8 results: test_rules_mobs.py
    # Simulations never resign or time out (S2, S3): test_rules_resign.py plays them, in its property test too.
    rare |= {"PlayerResigned", "DecisionTimedOut", "SeatAbandoned"}
    rare |= {"BranchBegan", "CardsDealtAgain"}  # only a branch's opening: tests/api/test_branches.py
    assert never <= rare, never - rare


def test_a_spectator_sees_no_hand_and_the_drawer_sees_their_card():
    t = Table(4, seed="spectate")
    s = t.state
    seat = s.play.current
    drawn = t.of("CardDrawn")[-1].to_dict()
    assert "name" in t.view(seat)["players"][seat]["cards"][0]
    assert "name" not in t.view(SPECTATOR)["players"][seat]["cards"][0]
    assert "name" not in t.view((seat + 1) % 4)["players"][seat]["cards"][0]
    from aegis.domain.everaegis.redaction import redact

    assert "name" in redact(s, drawn, seat)
    assert "name" not in redact(s, drawn, SPECTATOR)
    assert "name" not in redact(s, drawn, (seat + 1) % 4)
    assert "seed" not in redact(s, t.events[0].to_dict(), seat)
    assert t.view(SPECTATOR)["commitment"] == t.events[0].commitment


def test_after_the_game_everything_is_public():
    game = play_game(seats=3, variants="simpleton", seed="public", bots=["random"])
    t = Table(3, seed="public")
    t.events = game.events
    from aegis.domain.everaegis.evolve import fold
    from aegis.domain.everaegis.redaction import redact, view

    s = fold(t.config, game.events)
    assert s.status == "finished"
    v = view(s, SPECTATOR)
    assert all("name" in c for p in v["players"] for c in p["cards"])
    assert v["seed"] == "public"
    assert redact(s, game.events[0].to_dict(), SPECTATOR)["seed"] == "public"
