"""Hooded Fox, the one leader mat the rulebook prints in full: his Laboratory, Library and VIGILANTE, played
from their printed texts written in the effect vocabulary (R50-R51, R105-R106, R130; catalog section 3.3)."""

from __future__ import annotations

import pytest

from aegis.domain.everaegis.classic import shipped
from aegis.domain.everaegis.redaction import SPECTATOR
from aegis.domain.kernel.errors import IllegalCommand
from tests.domain.test_card_effects import classic_table
from tests.helpers import Table

FOX, SALLY, JEFF, PETER = 0, 1, 2, 3
NAMES = ["Fox", "Sally", "Jeff", "Peter"]


def table(**rig):
    rig = {"deck": ["Barracks", "Mason", "Library", "Temple"], "first_player": FOX, "leaders": {"0": "Hooded Fox"}, **rig}
    return Table(4, variants="classic", rig=rig, options={"plain_unknown": 1}, selection="freeform", names=NAMES)


def test_the_shipped_texts_are_the_printed_ones_and_his_effects_are_data():
    fox = shipped().leaders["Hooded Fox"]
    assert (
        fox["actions"]["laboratory"] == "Add or remove an unused soldier from the BOMB. Give any player the BOMB or the DAGGER."
    )
    assert set(fox["effects"]) == {"laboratory", "library", "ability"}


def test_r50_his_laboratory_is_declared_with_every_choice_and_changes_the_bomb_and_gives_an_item():
    t = table(hands={"0": ["Laboratory"]})
    labs = [o for o in t.options(FOX) if o.command.get("action") == "laboratory"]
    # the BOMB has no soldier yet: add only; then any of 4 players gets the BOMB or the DAGGER
    assert len(labs) == 4 * 2
    assert all(o.label.startswith("Laboratory: Add an unused soldier to the BOMB; ") for o in labs)
    give = next(o for o in labs if o.command["choices"] == ["add", JEFF, "DAGGER"])
    t.play(give.command)
    assert t.state.calls.window is not None and t.state.calls.window.claim == "Laboratory"
    assert JEFF in t.state.calls.window.asked
    t.pass_all()
    assert t.state.items.item_soldiers["BOMB"] == 1 and t.state.items_of(JEFF) == ["DAGGER"]
    assert t.view(SPECTATOR)["players"][JEFF]["items"] == ["DAGGER"]
    assert t.of("ActionCompleted")[-1].action == "laboratory"


def test_r66_a_guard_keeps_the_receiver_out_of_his_laboratory():
    t = table(hands={"0": ["Laboratory"], "2": ["Laboratory"]})
    give = next(o for o in t.options(FOX) if o.command.get("choices", [None])[1:] == [JEFF, "BOMB"])
    t.play(give.command)
    t.react(JEFF, "guard", "card")
    for seat in list(t.state.calls.window.waiting_for):
        t.react(seat, "pass")
    t.pass_all()  # the window on Jeff's guard
    assert t.state.items_of(JEFF) == [] and t.state.items.item_soldiers["BOMB"] == 1  # the BOMB soldier still changed


def test_r51_his_library_gives_the_caltrops_or_the_bird_or_discards_an_item_in_play():
    t = table(hands={"0": ["Library"]}, items={"3": ["HORN"]}, wall=SALLY)
    libs = [o.label for o in t.options(FOX) if o.command.get("action") == "library"]
    assert sum("CALTROPS" in label for label in libs) == 4 and sum("BIRD" in label for label in libs) == 4
    assert any("Discard the HORN (Peter)" in label for label in libs) and any("the WALL (Sally)" in label for label in libs)
    discard = next(o for o in t.options(FOX) if o.command.get("action") == "library" and "HORN" in o.label)
    t.play(discard.command)
    t.pass_all()
    assert t.state.items_of(PETER) == []


def test_r130_vigilante_when_an_opponents_item_is_discarded_he_may_take_3_soldiers_with_the_glove_or_that_item():
    t = table(hands={"0": ["Library"]}, items={"3": ["HORN"]}, soldiers={"0": 1})
    discard = next(o for o in t.options(FOX) if o.command.get("action") == "library" and "HORN" in o.label)
    t.play(discard.command)
    t.pass_all()
    prompt = t.prompts(FOX)[0]
    assert prompt.kind == "effect_choice" and "VIGILANTE" in prompt.text
    labels = [o.label for o in prompt.options]
    assert labels == ["Gain 3 soldiers and take the GLOVE", "Gain 3 soldiers and take the HORN", "Do none of these"]
    t.play({"type": "effect_choice", "seat": FOX, "choice": 1})  # 3 soldiers along with the discarded HORN
    assert t.soldiers(FOX) == 4 and t.state.items_of(FOX) == ["HORN"]
    bomb = t.prompts(FOX)[0]  # "Afterwards, you may add or remove an unused soldier from the BOMB"
    assert [o.command["choice"] for o in bomb.options] == ["add", "leave"]
    t.play({"type": "effect_choice", "seat": FOX, "choice": "leave"})
    assert not t.state.pending.effects and t.state.items.item_soldiers.get("BOMB", 0) == 0


def test_vigilante_ignores_his_own_items_and_a_token():
    t = table(hands={"0": ["Mason"]}, items={"0": ["HORN"]})
    mason = next(o for o in t.options(FOX) if o.command.get("action") == "mason" and "HORN" in o.label)
    t.play(mason.command)
    t.pass_all()
    assert t.state.items_of(FOX) == []
    assert [e.source for e in t.of("EffectQueued")] == ["HORN"]  # his HORN's Begin Phase, no VIGILANTE


def test_a_plain_leader_has_no_vigilante_and_a_refused_plan_names_the_rule():
    t = table(hands={"0": ["Laboratory"]})
    with pytest.raises(IllegalCommand):
        t.play({"type": "declare", "seat": FOX, "action": "laboratory", "choices": ["remove", JEFF, "BOMB"]})


def test_r168_dictator_every_player_shares_the_reserve_mats_ability():
    rig = {"deck": ["Barracks", "Mason"], "first_player": 0, "hands": {"0": ["Mason"]}, "items": {"1": ["HORN"]}}
    t = Table(
        4,
        variants="classic+dictator",
        rig={**rig, "dictator": "Hooded Fox"},
        options={"plain_unknown": 1},
        selection="simpleton",
        names=NAMES,
    )
    assert t.view(SPECTATOR)["dictator"] == "Hooded Fox"
    mason = next(o for o in t.options(0) if o.command.get("action") == "mason" and "HORN" in o.label)
    t.play(mason.command)
    t.pass_all()
    # Sally's HORN was discarded: each of her opponents has VIGILANTE (A52); the current player orders them
    assert sorted(e.owner for e in t.of("EffectQueued") if "VIGILANTE" in e.source) == [0, 2, 3]
    assert [n.kind for n in t.waiting()] == ["effect_order"] and t.waiting()[0].seat == 0


def test_r168_dictator_needs_the_classic_components_and_draws_a_mat_nobody_leads():
    from aegis.domain.everaegis.config import make_config
    from aegis.domain.kernel.errors import MalformedCommand

    with pytest.raises(MalformedCommand) as err:
        make_config(seats=4, variants="simpleton+dictator")
    assert err.value.rule == "R168"
    t = Table(4, variants="classic+dictator", options={"plain_unknown": 1}, selection="freeform", seed="dict")
    while t.state.stage == "leaders":
        t.play(t.options(t.waiting()[0].seat)[0].command)
    chosen = t.of("DictatorChosen")
    assert len(chosen) == 1 and chosen[0].mat not in [p.leader for p in t.state.players]


def test_e3_peters_library_takes_the_bird_from_sally_and_gives_it_to_jeff_after_one_window():
    """E3, as the protocol of RULINGS (one declaration, one window): Peter, the Hooded Fox, declares his
    Library with its whole plan; nobody reacts; Jeff holds the BIRD and Sally does not (R106: to give an item
    he does not possess, he takes it from its holder). The example's second sentence belongs to his
    Laboratory (A22) and is tested above."""
    names = ["Sally", "Jeff", "Fred", "Peter"]
    rig = {
        "deck": ["Barracks", "Mason"],
        "first_player": 3,
        "leaders": {"3": "Hooded Fox"},
        "hands": {"3": ["Library"]},
        "items": {"0": ["BIRD"], "2": ["BOMB"]},
    }
    t = Table(4, variants="classic", rig=rig, options={"plain_unknown": 1}, selection="freeform", names=names)
    give = next(o for o in t.options(3) if o.command.get("action") == "library" and o.label.endswith("Give Jeff the BIRD"))
    t.play(give.command)
    assert t.state.calls.window is not None and t.state.calls.window.claim == "Library"
    assert 0 in t.state.calls.window.asked and 1 in t.state.calls.window.asked  # the players the plan changes may guard
    t.pass_all()
    taken = t.of("ItemGained")[-1]
    assert (taken.item, taken.seat, taken.source) == ("BIRD", 1, 0)
    assert t.state.items_of(1) == ["BIRD"] and t.state.items_of(0) == []


def test_r38_r39_the_others_are_told_what_his_library_will_do_in_the_words_he_chose_it_by():
    """R38: the declarer explains how the action will be executed; the reaction prompt says it in words (not the
    choices' raw values), and the narration does not put a Simpleton Library's SANCTIONS in his mouth."""
    from aegis.domain.everaegis.narration import narrate

    t = table(hands={"0": ["Library"]}, items={"3": ["HORN"]})
    discard = next(o for o in t.options(FOX) if o.command.get("action") == "library" and "HORN" in o.label)
    t.play(discard.command)
    prompt = next(p for p in t.prompts(PETER) if p.kind == "react")
    assert "Discard the HORN (Peter)" in prompt.text or "discard the HORN (Peter)" in prompt.text, prompt.text
    assert "choices declared" not in prompt.text and "[" not in prompt.text
    said = [line for e in t.events if "claims the Library" in (line := narrate(e.to_dict(), NAMES))]
    assert said and "SANCTION" not in said[0], said


def test_r131_e20_two_effects_of_one_ability_are_told_apart_when_the_current_player_orders_them():
    """Dictator: everyone has VIGILANTE. Sally's Mason discards Jeff's AXE and HAMMER: each opponent's VIGILANTE
    fires twice, and the current player orders them (R131); each option says which discard set it off."""
    rig = {
        "deck": ["Barracks", "Mason", "Library", "Temple"],
        "first_player": 0,
        "dictator": "Hooded Fox",
        "hands": {"0": ["Mason"]},
        "items": {"2": ["AXE", "HAMMER"]},
    }
    t = classic_table(4, rig, variants="classic+dictator", names=["Sally", "Fred", "Jeff", "Peter"])
    mason = next(o for o in t.options(0) if o.command.get("action") == "mason" and "AXE" in o.label and "HAMMER" in o.label)
    t.play(mason.command)
    t.pass_all()
    (order,) = [p for p in t.prompts(0) if p.kind == "effect_order"]
    labels = [o.label for o in order.options]
    assert len(labels) == len(set(labels)) == 6
    assert "Resolve Hooded Fox's VIGILANTE (Fred, as the HAMMER was discarded) first" in labels


def test_r103_a_used_axe_is_discarded_after_its_reveal_so_vigilante_cannot_take_it_first():
    """"When this item is used, the effects written on the back are used once, and then it is discarded" (R103): the
    AXE's reveal comes first, then its discard, and only that discard sets VIGILANTE off; the AXE is never in the
    Fox's hands before its own effect ran (nor is the order of the two ever asked)."""
    t = table(hands={"0": ["Temple"], "1": ["Mason", "Treasury"], "2": ["Barracks"]}, items={"1": ["AXE"]})
    t.declare(FOX, "recruit")
    t.pass_all()
    assert t.state.play.current == SALLY and "use_item" in t.kinds(SALLY)
    t.play({"type": "use_item", "seat": SALLY, "item": "AXE"})
    assert t.state.items.held["AXE"] == {SALLY: 1} and "effect_order" not in t.kinds(SALLY)
    jeffs = t.state.players[JEFF].cards[0].id
    t.play({"type": "effect_choice", "seat": SALLY, "choice": jeffs})
    types = [e.TYPE for e in t.events]
    revealed = max(i for i, e in enumerate(t.events) if e.TYPE == "CardRevealed")
    discarded = max(i for i, e in enumerate(t.events) if e.TYPE == "ItemDiscarded")
    assert t.events[discarded].item == "AXE" and revealed < discarded
    assert types[discarded:].count("EffectQueued") == 1 and "VIGILANTE" in t.of("EffectQueued")[-1].source
    prompt = t.prompts(FOX)[0]
    assert [o.label for o in prompt.options][:2] == ["Gain 3 soldiers and take the GLOVE", "Gain 3 soldiers and take the AXE"]


def test_the_chokers_printed_sentence_plays_its_holder_has_no_ability():
    """The CHOKER's item page: "You do not have an ability while you possess this." A Fox holding it gets no VIGILANTE
    when an opponent's HORN is discarded; without it he does (the test above)."""
    t = table(hands={"0": ["Library"]}, items={"0": ["CHOKER"], "3": ["HORN"]}, soldiers={"0": 1})
    discard = next(o for o in t.options(FOX) if o.command.get("action") == "library" and "HORN" in o.label)
    t.play(discard.command)
    t.pass_all()
    assert t.of("ItemDiscarded")[-1].item == "HORN"
    assert not any("VIGILANTE" in e.source for e in t.of("EffectQueued")) and t.soldiers(FOX) == 1


def test_r130_a_sanction_is_an_item_so_its_discard_sets_vigilante_off_and_taking_it_is_placing_it():
    """The SANCTION is an item (p. 2; p. 23: "a SANCTION item is placed on top of that action"), and the one on an
    opponent's mat is that opponent's: his Library discarding it sets VIGILANTE off. "The discarded ITEM" may be
    taken: a player possessing a SANCTION not on an action must place it onto an action of their choice (p. 23)."""
    t = table(hands={"0": ["Library"]}, sanctions={"1": ["recruit"]}, soldiers={"0": 1})
    discard = next(o for o in t.options(FOX) if o.command.get("action") == "library" and "SANCTION" in o.label)
    t.play(discard.command)
    t.pass_all()
    assert t.of("SanctionRemoved")[-1].discarded and "VIGILANTE" in t.of("EffectQueued")[-1].source
    labels = [o.label for o in t.prompts(FOX)[0].options]
    assert labels[:2] == ["Gain 3 soldiers and take the GLOVE", "Gain 3 soldiers and put a SANCTION on an action of a player"]
    t.play({"type": "effect_choice", "seat": FOX, "choice": 1})
    assert t.soldiers(FOX) == 4
    pick = t.prompts(FOX)[0]
    assert pick.text.endswith("put a SANCTION on an action of a player: choose the player")
    t.play({"type": "effect_choice", "seat": FOX, "choice": JEFF})
    t.play({"type": "effect_choice", "seat": FOX, "choice": "war"})
    placed = t.of("SanctionPlaced")[-1]
    assert (placed.seat, placed.action) == (JEFF, "war") and "VIGILANTE" in placed.reason


def test_r110_a_sanction_used_up_is_discarded_and_sets_vigilante_off():
    """"If you did, discard this Sanction" (its red side): a sanctioned action used by an opponent sets VIGILANTE off."""
    t = table(hands={"1": ["Mason", "Temple"]}, sanctions={"1": ["recruit"]}, first_player=SALLY)
    t.declare(SALLY, "recruit")
    t.play(t.legal(SALLY)[0])  # the SANCTION's discard of an unrevealed card
    assert t.of("SanctionRemoved")[-1].reason == "used (R110)" and t.of("SanctionRemoved")[-1].discarded
    assert any("VIGILANTE" in e.source and "SANCTION" in e.reason for e in t.of("EffectQueued"))


def test_r105_the_view_s_reserve_counts_each_classic_item_left():
    """Whether a gain overflows depends on what is left in the reserve (R105): the view counts each item of the box,
    not only the SANCTIONS and BRIGS."""
    t = table(items={"3": ["HORN"]})
    reserve = t.view(SPECTATOR)["reserve"]
    assert reserve["HORN"] == t.state.item_entry("HORN")["count"] - 1 and reserve["SANCTION"] == 10
    assert set(reserve) == {"SANCTION", "BRIG", *(e["name"] for e in t.state.classic.components["items"])}
