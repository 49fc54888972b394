"""The sentences the rulebook prints about items play as printed, with the shipped catalog (no stubs), even where
the rest of an item's text is not printed: the TORCH, TARGET, PENGUIN EFFIGY, SCALES, SHIELD, BONES, SWORD and
CALTROPS (pp.21-23, p.25; R86-R89, R102-R104, R115, R175; docs/rulings.md "Classic items")."""

from __future__ import annotations

import pytest

from aegis.domain.everaegis.classic import shipped
from aegis.domain.kernel.errors import IllegalCommand
from tests.helpers import Table

NAMES = ["Jeff", "Sally", "Fred", "Peter"]
HANDS = {"0": ["Temple"], "1": ["Mason"], "2": ["Library"], "3": ["Treasury"]}


def table(items: dict[str, list[str]], variants: str = "classic", selection: str = "simpleton", **rig: object) -> Table:
    """A rigged 4-seat Classic game on the shipped catalog; Jeff (seat 0) plays first unless ``rig`` says."""
    base = {"deck": ["Barracks", "Mason", "Laboratory", "Temple"], "hands": HANDS, "first_player": 0, "items": items}
    return Table(
        4,
        variants=variants,
        rig={**base, **rig},
        options={"plain_unknown": 1},
        selection=selection,
        names=NAMES,
    )


def war_targets_offered(t: Table, seat: int) -> list[int] | None:
    """The seats ``seat``'s War option offers as targets; None if War is not offered at all."""
    war = [o for o in t.options(seat) if o.command.get("action") == "war"]
    return [o.command["target"] for o in war] or None


def test_every_item_sentence_this_file_plays_is_in_the_shipped_catalog_with_its_page():
    items = shipped().items
    for name in ("TORCH", "TARGET", "PENGUIN EFFIGY", "SCALES", "SHIELD", "BONE", "SWORD", "CALTROPS", "AXE"):
        assert items[name].get("effect"), name
        assert "p.2" in items[name]["plays"], name  # the page the sentence is printed on


# ----- the TORCH (p.23): "The player with this item cannot be in a war with any other players." -----


def test_torch_its_holder_cannot_be_attacked():
    t = table({"2": ["TORCH"]})
    assert war_targets_offered(t, 0) == [1, 3]
    with pytest.raises(IllegalCommand) as refused:
        t.declare(0, "war", target=2)
    assert "TORCH" in str(refused.value)


def test_torch_its_holder_cannot_go_to_war():
    t = table({"0": ["TORCH"]})
    assert war_targets_offered(t, 0) is None


# ----- the TARGET (p.23): "When players go to war, they must have war with the player that has the TARGET." -----


def test_target_whoever_goes_to_war_must_attack_its_holder():
    t = table({"3": ["TARGET"]})
    assert war_targets_offered(t, 0) == [3]
    with pytest.raises(IllegalCommand) as refused:
        t.declare(0, "war", target=1)
    assert "TARGET" in str(refused.value)
    t.declare(0, "war", target=3)
    assert t.of("ActionDeclared")[-1].plan == {"target": 3}


def test_target_its_holder_goes_to_war_with_anyone():
    t = table({"0": ["TARGET"]})
    assert war_targets_offered(t, 0) == [1, 2, 3]


def test_target_when_the_war_with_its_holder_is_barred_there_is_no_war():
    """The TARGET holder also holds the TORCH: nobody may attack them, and nobody else may be attacked."""
    t = table({"3": ["TARGET", "TORCH"]})
    assert war_targets_offered(t, 0) is None


# ----- the PENGUIN EFFIGY (p.23): "With this item, stay out of war with the Grand Penguin" -----


def test_penguin_effigy_keeps_its_holder_and_the_grand_penguin_out_of_war_with_each_other():
    t = table({"0": ["PENGUIN EFFIGY"]}, selection="freeform", leaders={"2": "Grand Penguin"})
    assert war_targets_offered(t, 0) == [1, 3]
    with pytest.raises(IllegalCommand) as refused:
        t.declare(0, "war", target=2)
    assert "Grand Penguin" in str(refused.value)
    u = table({"1": ["PENGUIN EFFIGY"]}, selection="freeform", leaders={"0": "Grand Penguin"})
    assert war_targets_offered(u, 0) == [2, 3]  # the Grand Penguin cannot attack the holder either


# ----- the SCALES (p.23): "Makes a player unable to call bluffs and makes others unable to call their bluffs." -----


def test_scales_nobody_may_call_its_holders_bluff():
    t = table({"0": ["SCALES"]})
    t.declare(0, "treasury")  # a claim no one may call, and nothing to guard: no window opens at all
    assert not t.of("ReactionWindowOpened") and t.of("ActionResolving")


def test_scales_its_holder_may_not_call():
    t = table({"2": ["SCALES"]})
    t.declare(0, "treasury")
    assert t.of("ReactionWindowOpened")[-1].asked == [1, 3]
    assert "react" not in t.kinds(2)


# ----- the SHIELD (p.21, p.23): "This item completely prevents a player from losing soldiers." -----


def test_shield_plagues_begin_phase_loss_takes_nothing_from_its_holder():
    """R169: Plague's Begin-Phase loss of 2 soldiers; the SHIELD holder keeps 20."""
    t = table({"0": ["SHIELD"]}, variants="classic+plague")
    kept = t.of("SoldiersKept")
    assert kept and kept[0].seat == 0 and kept[0].item == "SHIELD" and t.soldiers(0) == 20


def test_shield_war_casualties_take_nothing_from_its_holder():
    t = table({"0": ["SHIELD"]}, soldiers={"0": 4, "1": 9})
    t.declare(0, "war", target=1)  # Jeff attacks with 4 against 9 and loses: casualties would take 2
    while "war_reveal" in t.kinds(0):
        t.play(t.options(0)[0].command)
    assert t.of("WarEnded") and t.soldiers(0) == 4 and t.soldiers(1) < 9


# ----- the BONES (p.22): "When a player has 3 BONES, they are eliminated." -----


def test_bones_a_player_with_3_is_eliminated():
    t = table({"2": ["BONE", "BONE", "BONE"], "1": ["BONE", "BONE"]})
    out = t.of("PlayerEliminated")
    assert [e.seat for e in out] == [2] and "3 BONES" in out[0].reason
    assert not t.state.players[1].eliminated  # 2 BONES are not enough
    assert t.state.supply("BONE") == 4  # an eliminated player discards their items (R123)


def test_bones_the_current_player_with_3_is_eliminated_and_their_turn_ends():
    t = table({"0": ["BONE", "BONE", "BONE"]})
    assert t.state.players[0].eliminated and t.of("TurnEnded")[0].seat == 0
    assert t.state.play.current == 1 and "declare" in t.kinds(1)


# ----- the SWORD (p.23): "This item forces a player to go to war at the end of each of their turns." -----


def test_sword_its_holder_goes_to_war_at_the_end_of_their_turn_with_the_opponent_they_choose():
    t = table({"0": ["SWORD"]}, soldiers={"0": 6})
    t.declare(0, "treasury")
    t.pass_all()
    assert [n.kind for n in t.waiting()] == ["effect_choice"] and t.state.play.phase == "end"
    choices = [o.command["choice"] for o in t.options(0)]
    assert choices == [1, 2, 3]
    t.play(t.options(0)[1].command)  # Fred
    began = t.of("EffectWarBegan")
    assert began and (began[0].attacker, began[0].defender, began[0].source) == (0, 2, "SWORD")


def test_sword_the_war_follows_the_target_and_the_torch():
    t = table({"0": ["SWORD"], "1": ["TORCH"], "3": ["TARGET"]}, soldiers={"0": 6})
    t.declare(0, "treasury")
    t.pass_all()
    began = t.of("EffectWarBegan")  # one possible defender (Peter, with the TARGET): no choice is asked
    assert began and began[0].defender == 3


def test_sword_with_no_one_to_attack_there_is_no_war():
    t = table({"0": ["SWORD"], "3": ["TARGET", "TORCH"]}, soldiers={"0": 6})
    t.declare(0, "treasury")
    t.pass_all()
    assert not t.of("EffectWarBegan") and t.state.play.current == 1


def test_e24_a_mob_with_the_sword_selects_the_player_with_the_d8():
    """E24 (R87, R175): a mob holding the SWORD goes to war at the end of its turn with a possible random player."""
    rig = {
        "deck": ["Barracks", "Mason", "Laboratory", "Temple"],
        "hands": HANDS,
        "first_player": 1,
        "items": {"1": ["SWORD"]},
        "soldiers": {"1": 6},
        "dice": [1, 8],  # action 1 (Recruit), then the Player Selection roll of 8
    }
    t = Table(4, variants="classic", rig=rig, options={"plain_unknown": 1}, selection="simpleton", names=NAMES, mobs=[1])
    t.pass_all()
    rolls = [e for e in t.of("DieRolled") if e.seat == 1]
    began = t.of("EffectWarBegan")
    assert began and began[0].attacker == 1 and began[0].source == "SWORD"
    assert any("selection" in r.purpose for r in rolls)


# ----- the CALTROPS (p.21-22): "used to prevent a player from gaining a card during their Draw Phase" -----


def test_caltrops_its_holder_may_stop_another_players_draw_and_then_discards_it():
    """It may be used at once, on the first Draw Phase of another player (Jeff's, before his first draw)."""
    t = table({"2": ["CALTROPS"]})
    assert [(n.seat, n.kind) for n in t.waiting()] == [(2, "draw_reaction")]
    use = next(o for o in t.options(2) if o.command["answer"] == "use")
    t.play(use.command)
    assert t.of("DrawStopped")[0].seat == 0 and t.state.items_of(2) == [] and t.unrevealed(0) == ["Temple"]


# ----- the AXE (p.22): "Use this to reveal any card without being guarded. It doesn't work on Ogrim." -----


def axe_table(**rig: object) -> Table:
    """Jeff holds the AXE from the start; Peter plays first, so Jeff may use it on his first turn (R103)."""
    return table({"0": ["AXE"]}, first_player=3, **rig)


def to_jeffs_action(t: Table) -> None:
    t.declare(3, "treasury")
    t.pass_all()
    assert t.state.play.current == 0 and "use_item" in t.kinds(0)


def test_axe_reveals_any_unrevealed_card_of_the_users_choice_and_is_discarded():
    """E20: "she uses the AXE to reveal 1 of Jeff's cards. After she uses the AXE, she must discard it." """
    t = axe_table()
    to_jeffs_action(t)
    t.play({"type": "use_item", "seat": 0, "item": "AXE"})
    asked = t.options(0)
    assert all("unrevealed card" in o.label for o in asked if "your" not in o.label)  # hidden cards by owner and id
    fred = next(o for o in asked if "Fred's" in o.label)
    t.play(fred.command)
    shown = t.of("CardRevealed")[-1]
    assert shown.seat == 2 and shown.full and shown.name == "Library" and "AXE" in shown.reason
    assert t.state.items_of(0) == [] and "declare" in t.kinds(0)  # used once, discarded; the turn goes on


def test_axe_does_not_work_on_ogrim():
    t = axe_table(leaders={"2": "Konungr Ogrim"}, selection="freeform")
    to_jeffs_action(t)
    t.play({"type": "use_item", "seat": 0, "item": "AXE"})
    labels = [o.label for o in t.options(0)]
    assert labels and not any("Fred's" in label for label in labels)


# ----- the TREATY (R107): its parties "Cannot affect each other with any abilities, actions, or consumable items" -----


def test_r107_a_treaty_partner_cannot_stop_the_others_draw_with_the_caltrops():
    t = table({"2": ["CALTROPS"]}, treaty={"holder": 2, "giver": 0})
    assert "draw_reaction" not in t.kinds(2) and t.unrevealed(0) == ["Barracks", "Temple"]


def test_r107_a_consumables_user_cannot_reach_their_treaty_partners_cards():
    t = axe_table(treaty={"holder": 2, "giver": 0})
    to_jeffs_action(t)
    t.play({"type": "use_item", "seat": 0, "item": "AXE"})
    labels = [o.label for o in t.options(0)]
    assert any("Sally's" in label for label in labels) and not any("Fred's" in label for label in labels)


def test_r107_a_treaty_partner_cannot_thwart_the_others_action_with_the_bird():
    free = table({"2": ["BIRD"]}, first_player=1)
    free.declare(1, "treasury")
    assert any(o.command.get("answer") == "use" for o in free.options(2))  # Fred may BIRD Sally's Treasury
    bound = table({"2": ["BIRD"]}, first_player=1, treaty={"holder": 2, "giver": 1})
    bound.declare(1, "treasury")
    assert not any(o.command.get("answer") == "use" for o in bound.options(2))


# ----- a mat's War text (R154, R163): Hooded Fox's War says "select an opponent to have war with" -----


def test_r163_a_leader_whose_war_says_opponent_never_attacks_an_ally_whatever_the_option():
    rig = {"deck": ["Barracks", "Mason", "Laboratory", "Temple"], "first_player": 0, "leaders": {"0": "Hooded Fox"}}
    fox = Table(5, variants="classic+alliances", rig=rig, options={"plain_unknown": 1}, selection="freeform")
    allies = sorted(fox.state.variant.allies[0])
    targets = war_targets_offered(fox, 0)
    assert allies and targets and not set(allies) & set(targets)
    plain = Table(5, variants="classic+alliances", rig={**rig, "leaders": {}}, options={"plain_unknown": 1}, selection="freeform")
    assert set(allies) <= set(war_targets_offered(plain, 0) or [])  # the Simpleton side's War: "another player"
