"""Card effects written in the vocabulary and run by the one interpreter (R92, R93, R124, R125, R131, A43).

The rulebook prints no estate text, so these tests use a catalog of the kind a player supplies with
AEGIS_CATALOG, holding STUBS of the effects the book's worked examples narrate (E4 Ballista, E5 Tailor and
Chapel, E18 Chapel), clearly marked as test stubs: they are not the cards' real texts and are never shipped.
"""

from __future__ import annotations

import copy
import json
from importlib import resources

import pytest

from aegis.domain.everaegis.classic import CatalogError, shipped, validate
from aegis.domain.everaegis.redaction import SPECTATOR
from aegis.domain.everaegis.simulation import play_game
from aegis.domain.kernel.errors import DomainError
from tests.helpers import Table

STUB = "TEST STUB (not the printed card): "
EFFECTS = {
    "Harbor": (
        "trigger",
        "gain 2 soldiers",
        {"when": "revealed", "steps": [{"step": "gain_soldiers", "who": "self", "amount": 2}]},
    ),
    "Ballista": (
        "condition",
        "Discard up to 2 soldiers in play. (E4, at its possessor's End Phase)",
        {"when": "end", "steps": [{"step": "discard_soldiers_in_play", "amount": 2, "up_to": True}]},
    ),
    "Tailor": ("trigger", "unreveal 1 revealed card (E5)", {"when": "revealed", "steps": [{"step": "unreveal_any", "count": 1}]}),
    "Chapel": ("condition", "players cannot go to war (E18)", {"when": "while revealed", "steps": [{"step": "no_war"}]}),
    "Pyramid": (
        "trigger",
        "give a player the ANKH, the CANOPIC JAR or the SCARAB (E17)",
        {"when": "revealed", "steps": [{"step": "give_item", "items": ["ANKH", "CANOPIC JAR", "SCARAB"], "who": "any player"}]},
    ),
    "Orchard": (
        "trigger",
        "each opponent reveals 1 card",
        {"when": "revealed", "steps": [{"step": "reveal", "who": "each opponent", "count": 1}]},
    ),
}


def _raw() -> dict:
    return json.loads(resources.files("aegis.domain.everaegis").joinpath("data/classic.json").read_text("utf-8"))


def stub(data: dict, section: str, name: str, text: str, **fields) -> dict:
    """Give the entry ``name`` of ``data[section]`` a full TEST STUB text and ``fields`` (its effect...)."""
    entry = next(e for e in data[section] if e["name"] == name)
    entry.update(text_known="full", printed_text=STUB + text, **fields)
    return entry


def stub_estate(data: dict, name: str) -> dict:
    """The estate ``name`` with its stub of ``EFFECTS``."""
    kind, text, effect = EFFECTS[name]
    return stub(data, "estates", name, text, type=kind, effect=copy.deepcopy(effect))


def stub_catalog():
    data = _raw()
    for name in EFFECTS:
        stub_estate(data, name)
    return validate(data, against=shipped())


NAMES = ["Jeff", "Keith", "Sally", "Peter", "Fred"]


def classic_table(seats, rig, catalog=None, variants="classic", **kw):
    """A rigged Classic game (Simpleton sides unless ``selection`` says otherwise) on ``catalog``, with ``variants``."""
    kw.setdefault("selection", "simpleton")
    kw.setdefault("names", NAMES[:seats])
    return Table(seats, variants=variants, rig=rig, options={"plain_unknown": 1}, catalog=catalog, **kw)


def table(rig, seats=5, **kw):
    """``classic_table`` on the stub estates, with a deck unless ``rig`` gives one."""
    return classic_table(seats, {"deck": ["Barracks", "Mason", "Library", "Temple"], **rig}, stub_catalog(), **kw)


def end_turn_with_recruit(t, seat):
    t.declare(seat, "recruit")


def test_r92_a_trigger_estate_runs_once_when_revealed_and_a_plain_one_does_nothing():
    t = table({"hands": {"0": ["Harbor", "Temple"], "1": ["Archaeologist"]}, "first_player": 0, "soldiers": {"0": 1}})
    plain = table({"hands": {"0": ["Harbor", "Temple"], "1": ["Archaeologist"]}, "first_player": 0, "soldiers": {"0": 1}})
    types = [e.TYPE for e in t.reveal_now(0, "Harbor")]
    assert types[:2] == ["CardRevealed", "EffectQueued"] and "EffectEnded" in types
    assert t.state.players[0].soldiers == 3 and not t.state.pending.effects
    assert [e.TYPE for e in plain.reveal_now(1, "Archaeologist")] == ["CardRevealed"]  # A54: plain, no effect


def test_e18_while_a_chapel_is_revealed_and_possessed_nobody_can_go_to_war():
    rig = {"hands": {"2": [{"name": "Chapel", "revealed": True}], "0": ["Temple"]}, "first_player": 0, "soldiers": {"0": 5}}
    t = table(rig)
    assert not [o for o in t.options(0) if o.command.get("action") == "war"]
    free = table({"hands": {"2": ["Chapel"], "0": ["Temple"]}, "first_player": 0, "soldiers": {"0": 5}})
    assert [o for o in free.options(0) if o.command.get("action") == "war"]


def test_ballista_alone_at_the_end_phase_discards_up_to_2_soldiers_in_play_chosen_by_its_possessor():
    rig = {
        "hands": {"2": [{"name": "Ballista", "revealed": True}, "Temple"]},
        "first_player": 2,
        "soldiers": {"0": 3, "3": 2, "2": 1, "1": 0, "4": 0},
    }
    t = table(rig)
    t.declare(2, "recruit")
    assert t.state.play.phase == "end" and t.state.pending.effects
    prompt = t.prompts(2)[0]
    assert prompt.kind == "effect_choice" and "Ballista" in prompt.text
    labels = [o.label for o in prompt.options]
    assert "Stop discarding soldiers" in labels[-1]
    t.play({"type": "effect_choice", "seat": 2, "choice": 0})  # 1 of Jeff's
    t.play({"type": "effect_choice", "seat": 2, "choice": 3})  # 1 of Peter's
    assert t.soldiers(0) == 2 and t.soldiers(3) == 1 and t.soldiers(2) == 3
    assert not t.state.pending.effects and t.of("EffectEnded")


def test_e5_eliminated_tailor_unreveals_a_card_and_the_eliminated_owner_reveals_it_again():
    """Jeff, Keith and Sally reach 4 revealed cards; the Demise check eliminates all three at once (R30).
    Sally's Tailor, revealed by her elimination, still runs and Sally chooses (R124); she unreveals one of
    Keith's cards, which Keith, still eliminated, reveals again (R125). Her Chapel stays in effect (R93):
    Peter and Fred cannot go to war."""
    four = [{"name": n, "revealed": True} for n in ("Temple", "Mason", "Treasury", "Library")]
    rig = {
        "hands": {
            "0": [*four, "Barracks"],
            "1": [{"name": n, "revealed": True} for n in ("Temple", "Mason", "Treasury", "Laboratory")],
            "2": [
                *({"name": n, "revealed": True} for n in ("Temple", "Mason", "Barracks", "Laboratory")),
                "Catapult",
                "Tailor",
                "Chapel",
            ],
            "3": ["Treasury"],
            "4": ["Library"],
        },
        "first_player": 0,
        "soldiers": {"3": 3, "4": 3},
    }
    t = table(rig)
    t.declare(0, "recruit")
    eliminated = [e.seat for e in t.of("PlayerEliminated")]
    assert eliminated == [0, 1, 2]
    assert [e.source for e in t.of("EffectQueued")] == ["Tailor"]
    prompt = t.prompts(2)[0]
    assert prompt.kind == "effect_choice"  # the eliminated possessor chooses (R124)
    keiths = t.card(1, "Laboratory")
    t.play({"type": "effect_choice", "seat": 2, "choice": keiths})
    again = t.of("CardRevealed")[-1]
    assert again.card == keiths and "R125" in again.reason
    s = t.state
    assert s.players[1].eliminated and all(c.revealed for c in s.players[1].cards)
    assert all(c.revealed for p in s.players[:3] for c in p.cards)
    assert s.remaining() == [3, 4] and s.in_effect("no_war")
    seat = s.play.current
    assert seat in (3, 4)
    assert not [o for o in t.options(seat) if o.command.get("action") == "war"]


def test_r131_when_several_effects_wait_the_current_player_orders_them_not_their_owners():
    """E15's shape: two triggers revealed at once (an elimination reveals them both); the current player picks."""
    four = [{"name": n, "revealed": True} for n in ("Temple", "Mason", "Treasury", "Library")]
    rig = {
        "hands": {"1": [*four, "Harbor", "Orchard"], "0": ["Temple"], "2": ["Mason", "Barracks"], "3": ["Treasury"]},
        "first_player": 0,
    }
    t = table(rig, seats=4)
    t.declare(0, "recruit")
    assert [e.source for e in t.of("EffectQueued")] == ["Harbor", "Orchard"]
    assert [n.kind for n in t.waiting()] == ["effect_order"] and t.waiting()[0].seat == 0
    orchard = next(p.id for p in t.state.pending.effects if p.source == "Orchard")
    t.play({"type": "effect_order", "seat": 0, "first": orchard})
    # Orchard: each opponent of its (eliminated) possessor reveals 1 card of their choice, in turn order from
    # the current player: Jeff (who drew a card this turn, so he has 2), then Sally; Peter has only 1 card
    assert t.state.pending.effects[0].source == "Orchard"
    assert t.waiting()[0].seat == 0 and t.waiting()[0].kind == "effect_choice"
    t.play({"type": "effect_choice", "seat": 0, "choice": t.card(0, "Temple")})
    assert t.waiting()[0].seat == 2 and t.waiting()[0].kind == "effect_choice"
    t.play({"type": "effect_choice", "seat": 2, "choice": t.card(2, "Barracks")})
    assert t.of("EffectEnded")[0].source == "Orchard" and t.of("EffectEnded")[-1].source == "Harbor"
    assert t.revealed(0) == ["Temple"] and t.revealed(3) == ["Treasury"] and t.revealed(2) == ["Barracks"]
    assert t.view(SPECTATOR).get("effects") is None


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda e: e["effect"]["steps"][0].update(step="gian_soldiers"), "effect step 1: unknown step 'gian_soldiers'"),
        (lambda e: e["effect"]["steps"][0].update(amount=0), "'amount' must be a whole number from 1 to 20, not 0"),
        (lambda e: e["effect"]["steps"][0].update(who="everyone"), "'who' must be one of self, any player"),
        (lambda e: e["effect"].update(when="end"), "a trigger estate acts when revealed (R92)"),
        (lambda e: e.update(type=None), "an effect needs the card's type"),
        (lambda e: e["effect"]["steps"][0].update(colour="red"), "unknown parameter(s) colour"),
    ],
)
def test_a_catalog_effect_outside_the_vocabulary_is_refused_naming_the_entry(change, message):
    data = _raw()
    entry = stub_estate(data, "Harbor")
    i = data["estates"].index(entry)
    change(entry)
    with pytest.raises(CatalogError) as err:
        validate(data, against=shipped())
    assert f"estates[{i}] (Harbor)" in err.value.message and message in err.value.message


def test_classic_games_with_effects_play_to_the_end_and_are_replayable():
    from aegis.domain.everaegis.config import make_config
    from aegis.domain.everaegis.evolve import fold

    seen = set()
    for i in range(20):
        game = play_game(
            seats=4,
            variants="classic",
            seed=f"fx{i}",
            bots=["random"],
            options={"plain_unknown": 1},
            selection="freeform",
            catalog=stub_catalog(),
        )
        assert game.finished
        seen.update(e.source for e in game.events if e.TYPE == "EffectQueued")
        config = make_config(seats=4, variants="classic", options={"plain_unknown": 1}, selection="freeform", reaction_seconds=0)
        state = fold(config, game.events)
        assert state.card_count() == 53 and state.status == "finished"  # effects the last Demise queued never run (R11)
    assert seen >= {"Harbor", "Tailor", "Orchard", "Ballista"}


# ----- items with printed Begin/End texts (R102, R114-R117) -----

SALLY_E1, PETER_E1 = 1, 3


def e1_table(order_first):
    rig = {
        "deck": ["Barracks", "Mason"],
        "hands": {"1": ["Temple"], "0": ["Mason"], "2": ["Library"], "3": ["Treasury"]},
        "first_player": SALLY_E1,
        "soldiers": {"1": 1},
        "items": {"1": ["BEAR", "HORN", "PENGUIN EFFIGY"]},
        "leaders": {"3": "Grand Penguin"},
    }
    t = Table(
        4,
        variants="classic",
        rig=rig,
        options={"plain_unknown": 1},
        selection="freeform",
        names=["Jeff", "Sally", "Fred", "Peter"],
    )
    trail = []
    for item in order_first:
        assert [n.kind for n in t.waiting()] == ["effect_order"] and t.waiting()[0].seat == SALLY_E1
        first = next(p.id for p in t.state.pending.effects if p.source == item)
        t.play({"type": "effect_order", "seat": SALLY_E1, "first": first})
        trail.append(t.soldiers(SALLY_E1))
    return t, trail


def test_e1_begin_phase_effects_in_the_order_sally_picks():
    """BEAR, then PENGUIN EFFIGY, then HORN: 1 -> 0; the EFFIGY gives nothing (no soldiers, no penalty); 2."""
    t, trail = e1_table(["BEAR", "PENGUIN EFFIGY"])  # the HORN, left alone, then runs by itself
    assert trail == [0, 2]
    assert [e.source for e in t.of("EffectEnded")] == ["BEAR", "PENGUIN EFFIGY", "HORN"]
    assert t.soldiers(SALLY_E1) == 2 and t.state.players[PETER_E1].sacrifices == 0
    assert not t.of("SacrificesGiven") and t.state.play.phase != "begin"


def test_e1_derived_horn_first_gives_the_grand_penguin_2_sacrifices():
    t, trail = e1_table(["HORN", "BEAR"])  # then the EFFIGY: 2 sacrifices, leaving 0
    assert trail == [3, 0]
    assert [e.source for e in t.of("EffectEnded")] == ["HORN", "BEAR", "PENGUIN EFFIGY"]
    assert t.soldiers(SALLY_E1) == 0 and t.state.players[PETER_E1].sacrifices == 2
    assert t.view(SPECTATOR)["players"][PETER_E1]["sacrifices"] == 2


def test_e4_end_phase_sally_resolves_the_ballista_then_the_dagger():
    rig = {
        "hands": {"2": [{"name": "Ballista", "revealed": True}, "Temple", "Mason"]},
        "first_player": 2,
        "soldiers": {"0": 3, "3": 2, "2": 1, "1": 0, "4": 0},
        "items": {"2": ["DAGGER"]},
    }
    t = table(rig)
    t.declare(2, "recruit")
    assert t.state.play.phase == "end" and [n.kind for n in t.waiting()] == ["effect_order"]
    ballista = next(p.id for p in t.state.pending.effects if p.source == "Ballista")
    t.play({"type": "effect_order", "seat": 2, "first": ballista})
    t.play({"type": "effect_choice", "seat": 2, "choice": 0})  # 1 of Jeff's soldiers
    t.play({"type": "effect_choice", "seat": 2, "choice": 3})  # 1 of Peter's
    assert t.soldiers(0) == 2 and t.soldiers(3) == 1
    unrevealed = t.unrevealed(2)
    assert t.waiting()[0].kind == "effect_choice" and t.waiting()[0].seat == 2  # DAGGER: which card to reveal
    t.play({"type": "effect_choice", "seat": 2, "choice": t.card(2, "Mason")})
    assert len(t.unrevealed(2)) == len(unrevealed) - 1 and "Mason" in t.revealed(2)
    assert t.of("CardRevealed")[-1].full is True


def test_r123_an_eliminated_player_discards_classic_items_and_mason_can_discard_them():
    rig = {"hands": {"0": ["Temple"]}, "first_player": 0, "items": {"1": ["HORN"], "2": ["BEAR", "BEAR"]}}
    t = table(rig, seats=4)
    mason = [o for o in t.options(0) if o.command.get("action") == "mason"]
    labels = " | ".join(o.label for o in mason)
    assert "the HORN (Keith)" in labels and "the BEAR (Sally) and the BEAR (Sally)" in labels
    assert t.state.supply("BEAR") == 3 and t.view(SPECTATOR)["players"][2]["items"] == ["BEAR", "BEAR"]


def test_e17_a_revealed_pyramid_gives_a_player_one_of_its_items_from_the_reserve_or_taken_from_its_holder():
    rig = {
        "hands": {"2": ["Pyramid", "Temple"], "0": ["Mason"], "3": ["Treasury"]},
        "first_player": 2,
        "items": {"0": ["ANKH", "ANKH", "ANKH"], "4": ["SCARAB"]},
    }
    t = table(rig)
    t.reveal_now(2, "Pyramid")
    prompt = t.prompts(2)[0]
    assert prompt.kind == "effect_choice" and prompt.text.endswith("choose the player")  # Sally picks the player first
    t.play({"type": "effect_choice", "seat": 2, "choice": 3})  # Peter
    items = [o.command["choice"] for o in t.prompts(2)[0].options]
    assert items == ["ANKH", "CANOPIC JAR", "SCARAB"]  # ANKH: all 3 with Jeff, so one is taken from him (R105)
    t.play({"type": "effect_choice", "seat": 2, "choice": "ANKH"})
    gained = t.of("ItemGained")[-1]
    assert gained.item == "ANKH" and gained.source == 0 and gained.seat == 3
    assert t.state.items_of(3) == ["ANKH"] and t.state.items_of(0) == ["ANKH", "ANKH"]
    assert t.of("EffectEnded")[-1].source == "Pyramid"
    # R106: the SCARAB (one piece) given to its own holder is no gain at all
    from aegis.domain.everaegis.context import Ctx
    from aegis.domain.everaegis.effects import gain_item

    again = Ctx(t.state.clone())
    gain_item(again, 4, "SCARAB", "test")
    assert [e.TYPE for e in again.events] == ["ItemNotGained"] and again.state.items_of(4) == ["SCARAB"]


# ----- consumables (R103, R120) -----


def hammer_table(holder, **more):
    rig = {
        "deck": ["Barracks", "Mason", "Library", "Temple", "Treasury", "Laboratory"],
        "hands": {"1": ["Temple", "Mason"], "3": ["Treasury", {"name": "Library", "revealed": True}], "0": ["Barracks"]},
        "first_player": 1,
        "items": {str(holder): ["HAMMER"]},
        **more,
    }
    return Table(4, variants="classic", rig=rig, options={"plain_unknown": 1}, selection="simpleton", names=NAMES[:4])


def test_e20_a_consumable_waits_for_a_turn_to_end_and_is_used_only_on_its_holders_own_turn():
    t = hammer_table(holder=3)  # Peter receives the HAMMER during setup, before Sally's turn T
    assert "use_item" not in t.kinds(1) and "use_item" not in t.kinds(3)  # not Peter's turn
    t.declare(1, "recruit")  # Sally's turn T ends
    while t.state.play.current != 3:
        seat = t.state.play.current
        assert "use_item" not in t.kinds(3)
        t.declare(seat, "recruit")
    assert "use_item" in t.kinds(3)
    t.play({"type": "use_item", "seat": 3, "item": "HAMMER"})
    assert not t.of("ItemDiscarded") and t.state.items.held["HAMMER"] == {3: 1}  # "used once, and then" discarded
    prompt = t.prompts(3)[0]
    assert prompt.kind == "effect_choice" and "HAMMER" in prompt.text
    hidden = [o.label for o in prompt.options if "Keith's" in o.label]
    assert hidden and all("unrevealed card (" in label for label in hidden)  # no name Peter may not know (A53)
    keiths = len(t.state.players[1].cards)
    t.play({"type": "effect_choice", "seat": 3, "choice": t.state.players[1].cards[0].id})
    t.play({"type": "effect_choice", "seat": 3, "choice": t.card(3, "Library")})
    assert len(t.state.players[1].cards) == keiths - 1 and "Library" not in t.revealed(3)
    assert t.of("ItemDiscarded")[-1].item == "HAMMER" and "R103" in t.of("ItemDiscarded")[-1].reason
    assert t.of("ItemDiscarded")[-1].seq > t.of("CardDiscarded")[-1].seq  # after its text ran, not before (R103)
    assert not t.state.pending.effects and t.kinds(3) == ["declare"]  # used once; the action is still to come


def test_e20_derived_not_on_the_turn_received_and_not_while_an_action_is_executed():
    t = hammer_table(holder=1)  # the first player's own first turn: the HAMMER was received before any turn ended
    assert "use_item" not in t.kinds(1)
    t.declare(1, "recruit")
    while t.state.play.current != 1:
        t.declare(t.state.play.current, "recruit")
    assert "use_item" in t.kinds(1)
    t.declare(1, "treasury")  # a claim: the window is open, the action is being executed
    assert "use_item" not in t.kinds(1)


def recruit_until(t, seat):
    """Everyone recruits until it is ``seat``'s turn to declare (a year becomes the deck when it runs out)."""
    while t.state.play.current != seat or t.kinds(seat)[0] != "declare":
        need = t.waiting()[0]
        if need.kind == "choose_year":
            t.play(t.options(need.seat)[0].command)
        else:
            t.declare(need.seat, "recruit")


def to_peters_turn(t):
    recruit_until(t, 3)


def asked(t):
    return [(n.seat, n.kind) for n in t.waiting()]


def test_r103_after_the_action_the_end_phase_offers_the_hammer_and_its_holder_uses_it():
    t = hammer_table(holder=3)
    to_peters_turn(t)
    assert "end_phase" not in t.kinds(3)  # before the action: declare (or use it), nothing to go on from
    t.declare(3, "recruit")  # Peter keeps the HAMMER through his Action Phase
    assert t.state.play.phase == "end" and asked(t) == [(3, "end_phase"), (3, "use_item")]
    by_kind = {p.kind: p for p in t.prompts(3)}
    assert [o.command for o in by_kind["use_item"].options] == [{"type": "use_item", "seat": 3, "item": "HAMMER"}]
    assert "now that your action is over" in by_kind["use_item"].text
    assert [o.command for o in by_kind["end_phase"].options] == [{"type": "end_phase", "seat": 3}]
    t.play({"type": "use_item", "seat": 3, "item": "HAMMER"})
    assert t.prompts(3)[0].kind == "effect_choice" and "HAMMER" in t.prompts(3)[0].text
    t.play({"type": "effect_choice", "seat": 3, "choice": t.state.players[1].cards[0].id})
    t.play({"type": "effect_choice", "seat": 3, "choice": t.card(3, "Library")})
    assert t.state.items_of(3) == [] and t.state.play.current == 0  # nothing more to use: the turn went on by itself
    types = t.types()
    end = max(i for i, e in enumerate(t.events) if e.TYPE == "PhaseBegan" and e.seat == 3 and e.phase == "end")
    used = next(i for i, e in enumerate(t.events) if e.TYPE == "EffectQueued" and e.source == "HAMMER")
    demise = next(i for i, e in enumerate(t.events) if e.TYPE == "PhaseBegan" and e.seat == 3 and e.phase == "demise")
    assert end < used < types.index("EffectEnded", used) < demise


def test_r103_the_holder_may_go_on_without_using_it_and_is_offered_it_again_on_their_next_turn():
    t = hammer_table(holder=3)
    to_peters_turn(t)
    t.declare(3, "recruit")
    new = t.play({"type": "end_phase", "seat": 3})
    assert [(e.TYPE, getattr(e, "phase", None)) for e in new[:2]] == [("PhaseBegan", "demise"), ("PhaseBegan", "conquest")]
    assert t.state.items_of(3) == ["HAMMER"] and t.state.play.current == 0 and asked(t) == [(0, "declare")]
    with pytest.raises(DomainError):  # nothing to go on from now
        t.play({"type": "end_phase", "seat": 3})
    to_peters_turn(t)
    assert t.kinds(3) == ["declare", "use_item"]


def test_r103_not_offered_in_the_end_phase_of_the_turn_it_was_received():
    t = hammer_table(holder=1)  # Keith plays first: the HAMMER he received in setup waits for a turn to end
    t.declare(1, "recruit")
    assert t.state.play.current == 2 and asked(t) == [(2, "declare")]  # no wait in Keith's End Phase
    while t.state.play.current != 1:
        t.declare(t.state.play.current, "recruit")
    t.declare(1, "recruit")  # his next turn: now he may
    assert asked(t) == [(1, "end_phase"), (1, "use_item")]


def test_r103_not_offered_while_a_war_is_occurring_then_offered_once_it_is_over():
    t = hammer_table(holder=3, soldiers={"3": 9})  # Peter wins his war
    to_peters_turn(t)
    t.declare(3, "war", target=1)
    while t.state.play.act is not None:  # the war: Keith, the loser, reveals; Peter is offered nothing meanwhile
        assert all(n.seat != 3 for n in t.waiting()) and "use_item" not in t.kinds(3)
        seat = t.waiting()[0].seat
        t.play(t.options(seat)[0].command)
    assert t.of("WarEnded") and asked(t) == [(3, "end_phase"), (3, "use_item")]


def test_r103_in_the_end_phase_its_own_effects_and_wars_come_first():
    rig = {
        "deck": ["Barracks", "Mason", "Library"],
        "hands": {"0": ["Temple", "Mason"], "2": ["Library"]},
        "first_player": 1,
        "items": {"0": ["SWORD", "HAMMER"]},
        "soldiers": {"0": 6},
    }
    t = classic_table(3, rig, sword_catalog())
    t.declare(1, "recruit")
    t.declare(2, "recruit")
    t.declare(0, "recruit")
    assert asked(t) == [(0, "effect_choice")]  # the End Phase: the SWORD's war comes first
    t.play({"type": "effect_choice", "seat": 0, "choice": 2})
    while t.state.play.act is not None:  # the war is occurring: no consumable
        assert "use_item" not in t.kinds(0) and "end_phase" not in t.kinds(0)
        seat = t.waiting()[0].seat
        t.play(t.options(seat)[0].command)
    assert t.of("WarEnded") and asked(t) == [(0, "end_phase"), (0, "use_item")]


def axe_catalog():
    data = _raw()
    stub(
        data,
        "items",
        "AXE",
        "gain 1 soldier",
        effect={"when": "used", "steps": [{"step": "gain_soldiers", "who": "self", "amount": 1}]},
    )
    return validate(data, against=shipped())


def test_r103_after_using_one_consumable_the_holder_is_offered_the_next():
    rig = {
        "deck": ["Barracks", "Mason", "Library"],
        "hands": {"0": ["Temple"]},
        "first_player": 1,
        "items": {"0": ["AXE", "HAMMER"]},
    }
    t = classic_table(3, rig, axe_catalog())
    t.declare(1, "recruit")
    t.declare(2, "recruit")
    t.declare(0, "recruit")
    assert [o.command["item"] for p in t.prompts(0) if p.kind == "use_item" for o in p.options] == ["AXE", "HAMMER"]
    t.play({"type": "use_item", "seat": 0, "item": "AXE"})
    assert t.soldiers(0) == 6 and asked(t) == [(0, "end_phase"), (0, "use_item")]  # 3, 2 recruited, 1 from the AXE
    assert [o.command["item"] for p in t.prompts(0) if p.kind == "use_item" for o in p.options] == ["HAMMER"]
    t.play({"type": "end_phase", "seat": 0})
    assert t.state.items_of(0) == ["HAMMER"] and t.state.play.current == 1


def test_r103_a_player_with_no_usable_consumable_is_not_waited_for_in_the_end_phase():
    t = hammer_table(holder=3)
    to_peters_turn(t)
    t.play({"type": "use_item", "seat": 3, "item": "HAMMER"})  # used before the action: nothing left to use
    t.play({"type": "effect_choice", "seat": 3, "choice": t.state.players[1].cards[0].id})
    t.play({"type": "effect_choice", "seat": 3, "choice": t.card(3, "Library")})
    t.declare(3, "recruit")
    assert t.state.play.current == 0 and asked(t) == [(0, "declare")]
    crown = classic_table(
        4, {"deck": ["Barracks", "Mason"], "hands": {"0": ["Temple"]}, "first_player": 1, "items": {"0": ["CROWN"]}}
    )
    recruit_until(crown, 0)
    crown.declare(0, "recruit")  # the CROWN's text is not played: it cannot be used, so nobody waits for it
    assert crown.state.play.current == 1 and asked(crown)[0][0] == 1 and crown.state.items_of(0) == ["CROWN"]


# ----- reactive items (R104) -----


def test_r104_the_bird_thwarts_any_action_even_a_recruit_and_is_discarded():
    rig = {
        "deck": ["Barracks", "Mason"],
        "hands": {"0": ["Temple"], "2": ["Mason"]},
        "first_player": 0,
        "items": {"2": ["BIRD"]},
    }
    t = Table(4, variants="classic", rig=rig, options={"plain_unknown": 1}, selection="simpleton", names=NAMES[:4])
    t.declare(0, "recruit")
    w = t.state.calls.window
    assert w is not None and w.asked == [2] and w.claim == ""
    answers = {o.command["answer"] for o in t.options(2)}
    assert answers == {"pass", "use"}  # no call: Recruit is not a claim (R61)
    t.play(next(o.command for o in t.options(2) if o.command["answer"] == "use"))
    assert t.of("ActionThwarted")[-1].reason == "BIRD used in reaction (R104)"
    assert t.soldiers(0) == 3 and t.state.items_of(2) == [] and t.state.supply("BIRD") == 1


def test_r104_a_call_is_settled_first_and_a_bird_not_used_leaves_the_action_alone():
    rig = {
        "deck": ["Barracks", "Mason"],
        "hands": {"0": ["Treasury", "Temple"], "2": ["Mason"]},
        "first_player": 0,
        "items": {"2": ["BIRD"]},
    }
    t = Table(4, variants="classic", rig=rig, options={"plain_unknown": 1}, selection="simpleton", names=NAMES[:4])
    t.declare(0, "treasury")
    t.react(1, "call")
    t.play(next(o.command for o in t.options(2) if o.command["answer"] == "use"))
    t.react(3, "pass")
    # Keith's call is settled first: Jeff shows his Treasury, so the call fails and Keith pays ...
    assert t.kinds(0) == ["prove"]
    t.play({"type": "reveal", "seat": 0, "card": t.card(0, "Treasury")})
    while t.kinds(1) == ["pay"]:
        t.play(t.options(1)[0].command)
    # ... then the BIRD thwarts the Treasury before it executes
    types = t.types()
    assert types.index("ClaimProven") < types.index("CallSettled") < types.index("ActionThwarted")
    assert t.of("ActionThwarted")[-1].reason == "BIRD used in reaction (R104)" and t.soldiers(0) == 3
    free = Table(4, variants="classic", rig=rig, options={"plain_unknown": 1}, selection="simpleton", names=NAMES[:4])
    free.declare(0, "treasury")
    free.pass_all()
    assert free.soldiers(0) == 8 and free.state.items_of(2) == ["BIRD"]


def test_r109_a_sanction_step_puts_a_sanction_on_an_action_the_possessor_picks():
    from tests.helpers import Table as T

    data = _raw()
    effect = {"when": "revealed", "steps": [{"step": "sanction", "who": "an opponent"}]}
    stub(data, "estates", "Cellar", "SANCTION an opponent's action", type="trigger", effect=effect)
    catalog = validate(data, against=shipped())
    rig = {"deck": ["Barracks", "Mason"], "hands": {"0": ["Cellar", "Temple"]}, "first_player": 0, "sanctions": {"2": ["war"]}}
    t = T(3, variants="classic", rig=rig, options={"plain_unknown": 1}, selection="simpleton", catalog=catalog)
    t.reveal_now(0, "Cellar")
    t.play({"type": "effect_choice", "seat": 0, "choice": 2})
    actions = [o.command["choice"] for o in t.prompts(0)[0].options]
    assert "war" not in actions and len(actions) == 7  # one SANCTION per action (A19)
    t.play({"type": "effect_choice", "seat": 0, "choice": "temple"})
    assert t.state.players[2].sanctions == ["war", "temple"] and t.of("SanctionPlaced")[-1].source == "reserve"


def test_e15_a_trigger_and_a_leaders_ability_happen_at_once_and_the_current_player_orders_them():
    """E15 with stubs: Peter leads Archdruid Catriona, whose ability triggers on estate reveals (its text is
    not printed: a stub here), and Jeff reveals a Blacksmith (a trigger, stubbed). Sally, the current player,
    chooses which resolves first; neither Jeff nor Peter does (R131). Also: a leader a catalog gives in full,
    with every text written as an effect, is played (not plain)."""
    data = _raw()
    gain = {"step": "gain_soldiers", "who": "self", "amount": 1}
    stub(data, "estates", "Blacksmith", "gain a soldier", type="trigger", effect={"when": "revealed", "steps": [gain]})
    catriona = next(e for e in data["leaders"] if e["name"] == "Archdruid Catriona")
    catriona.update(
        text_known="full",
        actions={"laboratory": STUB, "library": STUB},
        ability={"name": "STUB", "text": STUB + "gain a soldier when an estate card is revealed"},
        effects={
            "laboratory": {"when": "declared", "steps": [gain]},
            "library": {"when": "declared", "steps": [gain]},
            "ability": {"when": "estate revealed", "steps": [gain]},
        },
    )
    catalog = validate(data, against=shipped())
    sally, jeff, peter = 0, 1, 2
    rig = {
        "deck": ["Barracks", "Mason"],
        "hands": {"1": ["Blacksmith", "Temple"], "0": ["Mason"]},
        "first_player": sally,
        "leaders": {"2": "Archdruid Catriona"},
    }
    t = Table(
        4, variants="classic", rig=rig, options={"plain_unknown": 1}, selection="freeform", catalog=catalog, names=NAMES[:4]
    )
    assert t.view(SPECTATOR)["players"][peter]["leader_plain"] is False
    t.reveal_now(jeff, "Blacksmith")
    assert sorted(e.source for e in t.of("EffectQueued")) == ["Archdruid Catriona's STUB", "Blacksmith"]
    assert [(n.seat, n.kind) for n in t.waiting()] == [(sally, "effect_order")]
    first = next(p.id for p in t.state.pending.effects if p.source == "Archdruid Catriona's STUB")
    t.play({"type": "effect_order", "seat": sally, "first": first})
    assert [e.source for e in t.of("EffectEnded")] == ["Archdruid Catriona's STUB", "Blacksmith"]
    assert t.soldiers(peter) == 4 and t.soldiers(jeff) == 4


# ----- an effect that goes to war (E24, with a stub of the SWORD, whose text is not printed) -----


def sword_catalog(chapel: bool = False):
    data = _raw()
    if chapel:
        stub_estate(data, "Chapel")
    effect = {"when": "end", "steps": [{"step": "war", "who": "an opponent"}]}
    stub(data, "items", "SWORD", "go to war at the end of your turn", effect=effect)
    return validate(data, against=shipped())


def test_e24_a_mob_holding_the_sword_goes_to_war_at_its_end_phase_with_a_possible_random_player():
    rig = {
        "deck": ["Barracks", "Mason", "Library"],
        "hands": {"1": ["Temple", "Mason"], "2": ["Library"], "3": ["Treasury"], "0": ["Barracks"]},
        "first_player": 1,
        "items": {"1": ["SWORD"]},
        "soldiers": {"1": 6, "0": 1, "2": 1, "3": 1},
        "dice": [1, 2],  # the action roll (1: Recruit), then the player selection
    }
    t = classic_table(4, rig, sword_catalog(), mobs=[1])
    rolls = [e for e in t.events if e.TYPE == "DieRolled"]
    assert [r.purpose for r in rolls][:2] == ["action", "player selection"]
    war = t.of("WarDesignated")[0]
    # R174: count from the current player (the mob, skipped): 2 lands on the second eligible player
    assert (war.attacker, war.defender) == (1, 3)
    declared = next(i for i, e in enumerate(t.events) if e.TYPE == "ActionDeclared" and e.seat == 1)
    began = next(i for i, e in enumerate(t.events) if e.TYPE == "EffectWarBegan")
    assert declared < began and t.of("WarEnded")  # the mob's action came first; the war is the SWORD's


def test_an_effects_war_does_not_end_the_action_phase_and_a_chapel_forbids_it():
    rig = {
        "deck": ["Barracks", "Mason", "Library"],
        "hands": {"0": ["Temple", "Mason"], "2": ["Library"]},
        "first_player": 0,
        "items": {"0": ["SWORD"]},
        "soldiers": {"0": 6},
    }
    t = Table(3, variants="classic", rig=rig, options={"plain_unknown": 1}, selection="simpleton", catalog=sword_catalog())
    t.declare(0, "recruit")
    assert [n.kind for n in t.waiting()] == ["effect_choice"]  # the End Phase: whom to go to war with
    t.play({"type": "effect_choice", "seat": 0, "choice": 2})
    assert t.of("WarDesignated")[0].defender == 2 and t.of("WarEnded")
    assert t.state.play.current == 1  # the turn went on after the war
    rig["hands"]["2"] = [{"name": "Chapel", "revealed": True}]
    c = Table(3, variants="classic", rig=rig, options={"plain_unknown": 1}, selection="simpleton", catalog=sword_catalog(True))
    c.declare(0, "recruit")
    if c.waiting() and c.waiting()[0].kind == "effect_choice":
        c.play({"type": "effect_choice", "seat": 0, "choice": 2})
    assert not c.of("EffectWarBegan") and c.of("EffectEnded")[-1].source == "SWORD"  # R86: no war under a Chapel


def test_an_effects_war_is_recorded_as_the_effects_not_as_a_second_action_of_the_turn():
    """Rules version 2: the turn's one action is the Mason (R73); the war the SWORD makes its holder go to at the
    end of the turn ends with ``EffectWarOver``, never an ``ActionCompleted``/``ActionThwarted`` of a War, and the
    timeline says so, whether the holder wins or has no soldiers to go to war with (R80)."""
    from aegis.domain.everaegis.narration import narrate

    for soldiers, outcome in ((6, "the attacker won the war"), (0, "thwarted: the attacker has no soldiers (R75)")):
        rig = {
            "deck": ["Barracks", "Mason", "Library"],
            "hands": {"0": ["Temple", "Mason"], "2": ["Library"]},
            "first_player": 0,
            "items": {"0": ["SWORD"]},
            "soldiers": {"0": soldiers},
        }
        t = Table(3, variants="classic", rig=rig, options={"plain_unknown": 1}, selection="simpleton", catalog=sword_catalog())
        t.declare(0, "mason", discard=[])  # an action that gains no soldier: without any, the war is thwarted
        t.pass_all()
        t.play({"type": "effect_choice", "seat": 0, "choice": 2})
        actions = [(e.TYPE, e.action) for e in t.events if e.TYPE in ("ActionCompleted", "ActionThwarted")]
        assert actions == [("ActionCompleted", "mason")]
        [over] = t.of("EffectWarOver")
        assert (over.seat, over.outcome) == (0, outcome)
        assert narrate(over.to_dict(), ["Fred", "Sally", "Jeff"]) == f"The war Fred was made to go to is over: {outcome}"
        assert t.state.play.current == 1 and t.state.play.act is None  # the turn went on after the war


# ----- a reactive item used in a Draw Phase (E21, E27, with a CALTROPS stub: its text is not printed) -----


def caltrops_catalog():
    data = _raw()
    effect = {"when": "draw", "steps": [{"step": "stop_draw"}]}
    stub(data, "items", "CALTROPS", "the player gains no card this Draw Phase", effect=effect)
    return validate(data, against=shipped())


def caltrops_table(holder=0, mobs=None):
    """Fred, Jeff and Sally; Fred plays first with a Temple; ``holder`` has the CALTROPS."""
    names = ["Fred", "Jeff", "Sally"]
    rig = {"deck": ["Barracks", "Mason", "Library"], "hands": {"0": ["Temple"]}, "first_player": 0}
    return classic_table(3, {**rig, "items": {str(holder): ["CALTROPS"]}}, caltrops_catalog(), names=names, mobs=mobs)


def test_e21_the_caltrops_are_used_in_another_players_draw_phase_without_waiting_for_a_turn_to_end():
    t = caltrops_table()
    assert "draw_reaction" not in t.kinds(0)  # Fred's own Draw Phase: not for him
    t.declare(0, "recruit")
    assert t.state.play.current == 1 and [(n.seat, n.kind) for n in t.waiting()] == [(0, "draw_reaction")]
    deck = len(t.state.deck)
    t.play({"type": "draw_react", "seat": 0, "answer": "use", "item": "CALTROPS"})
    stopped = t.of("DrawStopped")[0]
    assert (stopped.seat, stopped.by) == (1, 0) and len(t.state.deck) == deck and t.state.players[1].cards == []
    assert t.state.items_of(0) == [] and t.of("ItemDiscarded")[-1].item == "CALTROPS"
    passing = caltrops_table()
    passing.declare(0, "recruit")
    passing.play({"type": "draw_react", "seat": 0, "answer": "pass"})
    assert len(passing.state.players[1].cards) == 1 and passing.state.items_of(0) == ["CALTROPS"]


def test_e27_a_mob_uses_the_caltrops_automatically_on_the_next_player_with_a_draw_phase():
    t = caltrops_table(holder=2, mobs=[2])
    # the first Draw Phase to come is Fred's, at once: the mob uses it there (R178), and Fred gains nothing
    stopped = t.of("DrawStopped")
    assert stopped and (stopped[0].seat, stopped[0].by) == (0, 2) and t.unrevealed(0) == ["Temple"]
    assert t.state.items_of(2) == []


def shield_catalog():
    data = _raw()
    effect = {"when": "while held", "steps": [{"step": "keep_soldiers"}]}
    stub(data, "items", "SHIELD", "you may choose not to lose soldiers", effect=effect)
    return validate(data, against=shipped())


def test_e19_a_shield_holder_loses_no_soldiers_to_a_bear_or_a_war_but_may_still_give_them():
    rig = {
        "deck": ["Barracks", "Mason", "Library"],
        "hands": {"3": ["Temple", "Mason"], "0": ["Barracks"]},
        "first_player": 3,
        "items": {"3": ["SHIELD", "BEAR"]},
        "soldiers": {"3": 4, "0": 9},
        "treaty": {"holder": 3, "giver": 2},
    }
    t = Table(4, variants="classic", rig=rig, options={"plain_unknown": 1}, selection="simpleton", catalog=shield_catalog())
    kept = t.of("SoldiersKept")
    assert kept and kept[0].item == "SHIELD" and "BEAR" in kept[0].reason and t.soldiers(3) == 4  # the BEAR's Begin
    t.declare(3, "war", target=0)  # Peter attacks and loses: casualties would take 2 of his 4
    while "war_reveal" in t.kinds(3):
        t.play(t.options(3)[0].command)
    assert t.of("WarEnded") and t.soldiers(3) == 4 and t.soldiers(0) < 9
    assert any("war casualties" in e.reason for e in t.of("SoldiersKept"))
    t.play({"type": "give_soldiers", "seat": 3, "to": 2, "amount": 1})  # a gift is no loss (R107)
    assert t.soldiers(3) == 3


def test_r9c_a_leaders_alternate_win_condition_is_checked_in_its_players_conquest_phase():
    """No leader's win condition is printed; a catalog may give one (this one is a TEST STUB)."""
    data = _raw()
    gain = {"step": "gain_soldiers", "who": "self", "amount": 1}
    wizard = next(e for e in data["leaders"] if e["name"] == "Wizard Gregmel")
    wizard.update(
        text_known="full",
        actions={"laboratory": STUB, "library": STUB},
        effects={
            "laboratory": {"when": "declared", "steps": [gain]},
            "library": {"when": "declared", "steps": [gain]},
            "win": {"when": "conquest", "steps": [{"step": "win_if", "count": "soldiers", "at_least": 13}]},
        },
    )
    catalog = validate(data, against=shipped())
    rig = {
        "deck": ["Barracks", "Mason", "Library"],
        "hands": {"0": ["Temple"]},
        "first_player": 0,
        "leaders": {"0": "Wizard Gregmel"},
    }
    t = classic_table(3, {**rig, "soldiers": {"0": 11, "1": 20}}, catalog, selection="freeform")
    t.declare(0, "recruit")
    assert t.state.outcome.winners == [0] and "Wizard Gregmel's win condition" in t.of("GameEnded")[0].reason
    other = classic_table(3, {**rig, "soldiers": {"0": 5, "1": 20}}, catalog, selection="freeform")
    other.declare(0, "recruit")
    assert other.state.status == "active"  # 7 soldiers; and seat 1's 20 count only in seat 1's own Conquest
    wizard["effects"]["library"]["steps"] = [{"step": "win_if", "count": "soldiers", "at_least": 3}]
    with pytest.raises(CatalogError) as err:
        validate(data, against=shipped())
    assert "win_if is only for it (R9c)" in err.value.message
