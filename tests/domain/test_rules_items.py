"""Items in a Simpleton game: Mason, the WALL, SANCTIONS, the TREATY with its INK QUILL, and BRIGS.

Rules: R47, R53, R58, R62, R66, R69, R71, R81, R105-R111, A14, A17-A21, A24, A37, A40-A43 and
RULINGS.md ("Actions", "Numbers and cards", "Turn order, elimination, winning").
Every position is rigged; seat 0 moves first and is in its Action Phase after drawing the deck's top card.
"""

from __future__ import annotations

from typing import Any

import pytest

from aegis.domain.everaegis.catalog import ACTIONS
from aegis.domain.everaegis.narration import narrate
from aegis.domain.kernel.errors import IllegalCommand, NotYourTurn
from tests.helpers import Table, offered

# ----- helpers -----


def groups(t: Table, seat: int, kind: str = "react") -> list[str]:
    """The option groups of ``seat``'s prompt of ``kind`` (e.g. ["pass", "call", "guard"])."""
    found = [p for p in t.prompts(seat) if p.kind == kind]
    assert found, f"seat {seat} has no {kind} prompt (has {t.kinds(seat)})"
    return [o.group for o in found[0].options]


def guard_means(t: Table, seat: int) -> list[str]:
    return [o.command["means"] for p in t.prompts(seat) if p.kind == "react" for o in p.options if o.group == "guard"]


def declarations(t: Table, seat: int, action: str) -> list[dict[str, Any]]:
    return [c for c in t.legal(seat) if c["type"] == "declare" and c["action"] == action]


def item_events(t: Table, events: list) -> list[tuple[str, int, str]]:
    """(event type, seat, item or action) of every item event in ``events``."""
    out = []
    for e in events:
        if e.TYPE in ("ItemGained", "ItemDiscarded", "ItemNotGained"):
            out.append((e.TYPE, e.seat, e.item))
        elif e.TYPE in ("SanctionPlaced", "SanctionRemoved", "SanctionNotPlaced"):
            out.append((e.TYPE, e.seat, e.action))
    return out


def sanctions(t: Table, seat: int) -> list[str]:
    return sorted(t.state.players[seat].sanctions)


# ===== Mason (R47, A18, R71) =====


def test_r47_a18_mason_discards_the_wall_and_a_sanction():
    """Mason: "discard up to 2 ITEMS in play": the WALL (seat 1) and the SANCTION on seat 2's War go to the reserve."""
    t = Table(4, rig={"deck": ["Temple"], "hands": {"0": ["Mason"]}, "wall": 1, "sanctions": {"2": ["war"]}})
    assert t.state.items.sanction_supply == 9
    t.declare(0, "mason", discard=["WALL", "SANCTION@2:war"])
    new = t.pass_all()
    assert item_events(t, new) == [("SanctionRemoved", 2, "war"), ("ItemDiscarded", 1, "WALL")]
    assert t.state.items.wall is None
    assert sanctions(t, 2) == []
    assert t.state.items.sanction_supply == 10
    assert t.of("ActionCompleted")[-1].action == "mason"


def test_a18_mason_offers_each_item_alone_in_pairs_and_nothing():
    """A18 mat wording "up to 2": with 2 items in play, Mason offers none, either one, or both."""
    t = Table(4, rig={"deck": ["Temple"], "wall": 1, "sanctions": {"2": ["war"]}})
    discards = sorted(tuple(c["discard"]) for c in declarations(t, 0, "mason") if "discard" in c)
    assert discards == [(), ("SANCTION@2:war",), ("SANCTION@2:war", "WALL"), ("WALL",)]


def test_r47_a18_mason_may_discard_nothing():
    """A18: "up to 2" includes zero; every item stays where it was."""
    t = Table(4, rig={"deck": ["Temple"], "hands": {"0": ["Mason"]}, "wall": 1, "sanctions": {"2": ["war"]}})
    t.declare(0, "mason", discard=[])
    new = t.pass_all()
    assert item_events(t, new) == []
    assert t.state.items.wall == 1
    assert sanctions(t, 2) == ["war"]
    assert [e.outcome for e in t.of("ActionCompleted", new)] == ["done"]


def test_r47_r106_mason_gives_the_wall_taken_from_its_holder():
    """A18: "give the WALL to any player": with seat 1 holding it, seat 3 takes it from seat 1 (R106)."""
    t = Table(4, rig={"deck": ["Temple"], "hands": {"0": ["Mason"]}, "wall": 1})
    t.declare(0, "mason", give_wall=3)
    new = t.pass_all()
    gained = t.of("ItemGained", new)
    assert [(e.seat, e.item, e.source) for e in gained] == [(3, "WALL", 1)]
    assert t.state.items.wall == 3


def test_r47_mason_may_give_the_wall_to_the_declarer():
    """R47 ("gain the WALL") and A18 ("give the WALL to any player"): the declarer may give it to themself."""
    t = Table(4, rig={"deck": ["Temple"], "hands": {"0": ["Mason"]}, "wall": 2})
    targets = sorted(c["give_wall"] for c in declarations(t, 0, "mason") if "give_wall" in c)
    assert targets == [0, 1, 3]
    t.declare(0, "mason", give_wall=0)
    t.pass_all()
    assert t.state.items.wall == 0


def test_r47_a18_mason_gives_the_wall_from_the_reserve():
    """A18: "give the WALL to any player": with the WALL in the reserve, the receiver gains it from the reserve (R106)."""
    t = Table(4, rig={"deck": ["Temple"], "hands": {"0": ["Mason"]}})
    assert t.state.items.wall is None
    targets = sorted(c["give_wall"] for c in declarations(t, 0, "mason") if "give_wall" in c)
    assert targets == [0, 1, 2, 3]
    t.declare(0, "mason", give_wall=2)
    new = t.pass_all()
    assert [(e.seat, e.item, e.source) for e in t.of("ItemGained", new)] == [(2, "WALL", "reserve")]
    assert t.state.items.wall == 2


def test_r106_mason_cannot_give_the_wall_to_its_holder():
    """R106: the WALL's holder cannot be given the WALL again; the refusal names R106 and lists the legal plans."""
    t = Table(4, rig={"deck": ["Temple"], "hands": {"0": ["Mason"]}, "wall": 1})
    with pytest.raises(IllegalCommand) as err:
        t.declare(0, "mason", give_wall=1)
    assert err.value.rule == "R106"
    assert offered(err.value, {"type": "declare", "seat": 0, "action": "mason", "give_wall": 2})
    assert t.state.play.act is None and t.state.items.wall == 1


def test_a18_mason_discards_two_brigs_of_one_player():
    """A18: "discard up to 2 ITEMS in play": a player holding 2 BRIGS holds 2 items, and Mason may discard both."""
    t = Table(4, rig={"deck": ["Temple"], "hands": {"0": ["Mason"]}, "brigs": {"1": 2}})
    t.declare(0, "mason", discard=["BRIG@1", "BRIG@1"])
    t.pass_all()
    assert t.state.players[1].brigs == 0
    assert t.state.items.brig_supply == 4


def test_r71_mason_pierces_nobody_is_offered_a_guard_but_anyone_may_call():
    """R71: Mason cannot be guarded, even by the WALL holder whose WALL it discards; it is a claim, so it can be called."""
    t = Table(4, rig={"deck": ["Temple"], "hands": {"0": ["Mason"], "1": ["Mason"]}, "wall": 1})
    t.declare(0, "mason", discard=["WALL"])
    assert next(p for p in t.prompts(2) if p.kind == "react").about["does"].endswith("(R47)")  # Mason's rule
    w = t.state.calls.window
    assert w is not None and w.claim == "Mason" and w.asked == [1, 2, 3]
    for seat in (1, 2, 3):
        assert groups(t, seat) == ["pass", "call"]
    with pytest.raises(IllegalCommand) as err:
        t.react(1, "guard", means="wall")
    assert err.value.rule == "R56"


def test_r71_r59_a_called_mason_bluff_is_thwarted_and_the_wall_stays():
    """R59, R73: seat 0 claims Mason without one; seat 2 calls; the revealed Temple exposes the bluff; nothing is discarded."""
    t = Table(4, rig={"deck": ["Temple"], "wall": 1})
    t.declare(0, "mason", discard=["WALL"])
    t.react(1, "pass")
    t.react(2, "call")
    new = t.react(3, "pass")
    assert [(e.caller, e.claimant, e.claim) for e in t.of("BluffCalled", new)] == [(2, 0, "Mason")]
    assert [(e.seat, e.name) for e in t.of("BluffExposed", new)] == [(0, "Temple")]
    assert [e.action for e in t.of("ActionThwarted", new)] == ["mason"]
    assert t.of("ItemDiscarded", new) == []
    assert t.state.items.wall == 1
    assert t.revealed(0) == ["Temple"]


# ===== SANCTION (R109-R112, A17, A19, A20, A24) =====


def test_r109_sanctioned_recruit_is_offered_without_a_plan():
    """R109, A20: a sanctioned slot is offered once, plainly, and labelled as SANCTIONED."""
    t = Table(4, rig={"deck": ["Temple"], "soldiers": {"0": 3}, "sanctions": {"0": ["war"]}})
    wars = next(p for p in t.prompts(0) if p.kind == "declare").options
    war_options = [o for o in wars if o.group == "war"]
    assert [o.command for o in war_options] == [{"type": "declare", "seat": 0, "action": "war"}]
    assert "SANCTIONED" in war_options[0].describe


def test_r109_a17_a_sanctioned_action_discards_a_card_instead_and_opens_no_window():
    """R109, R110, A17: a sanctioned Recruit is no claim: no window; the only unrevealed card is discarded,
    Recruit's 2 soldiers are not gained, and the SANCTION goes back to the reserve."""
    t = Table(4, rig={"deck": ["Temple"], "sanctions": {"0": ["recruit"]}})
    assert t.unrevealed(0) == ["Temple"]
    new = t.declare(0, "recruit")
    assert "ReactionWindowOpened" not in t.types(new)
    declared = t.of("ActionDeclared", new)[0]
    assert (declared.action, declared.sanctioned, declared.claim) == ("recruit", True, None)
    assert [(e.seat, e.name, e.reason) for e in t.of("CardDiscarded", new)] == [(0, "Temple", "sanction")]
    assert item_events(t, new) == [("SanctionRemoved", 0, "recruit")]
    assert [e.outcome for e in t.of("ActionCompleted", new)] == ["sanction discharged"]
    assert t.state.players[0].cards == []
    assert t.soldiers(0) == 3
    assert sanctions(t, 0) == []
    assert t.state.items.sanction_supply == 10


def test_r110_the_sanctioned_player_chooses_which_unrevealed_card_to_discard():
    """R110: "Discard an unrevealed card": with 2 unrevealed cards (and a revealed one) the declarer picks one of the 2."""
    t = Table(
        4,
        rig={
            "deck": ["Temple"],
            "hands": {"0": ["Mason", {"name": "Library", "revealed": True}]},
            "sanctions": {"0": ["barracks"]},
        },
    )
    new = t.declare(0, "barracks")
    assert t.types(new) == ["ActionDeclared"]
    assert t.kinds(0) == ["sanction_discard"]
    choices = sorted(o.command["card"] for o in t.prompts(0)[0].options)
    assert choices == sorted([t.card(0, "Mason"), t.card(0, "Temple")])
    new = t.play({"type": "discard", "seat": 0, "card": t.card(0, "Mason")})
    assert [e.name for e in t.of("CardDiscarded", new)] == ["Mason"]
    assert t.unrevealed(0) == ["Temple"] and t.revealed(0) == ["Library"]
    assert sanctions(t, 0) == []


def test_r109_a_sanctioned_action_refuses_its_normal_plan():
    """R109: the sanctioned War's text is replaced, so War with a target is refused with rule R109."""
    t = Table(4, rig={"deck": ["Temple"], "soldiers": {"0": 5}, "sanctions": {"0": ["war"]}})
    with pytest.raises(IllegalCommand) as err:
        t.declare(0, "war", target=1)
    assert err.value.rule == "R109"
    assert offered(err.value, {"type": "declare", "seat": 0, "action": "war"})
    assert t.state.play.act is None


def _all_cards_out(seat0: list[Any]) -> dict[str, Any]:
    """A rig where every one of the 30 cards is in a hand, so the deck and the years are empty."""
    pool = [n for n in ("Temple", "Mason", "Barracks", "Treasury", "Laboratory", "Library") for _ in range(5)]
    for c in seat0:
        pool.remove(c["name"] if isinstance(c, dict) else c)
    return {"deck": [], "hands": {"0": seat0, "1": pool[0:9], "2": pool[9:18], "3": pool[18:]}}


def test_r110_ruling_with_no_unrevealed_card_the_sanction_stays():
    """R110 [I] ruling: "If you did, discard this Sanction": seat 0 holds only revealed cards, so nothing is
    discarded and the SANCTION stays on Recruit."""
    rig = _all_cards_out([{"name": "Temple", "revealed": True}, {"name": "Mason", "revealed": True}])
    rig["sanctions"] = {"0": ["recruit"]}
    t = Table(4, rig=rig)
    assert t.of("CardNotGained")  # A29: nothing left to draw
    assert t.unrevealed(0) == [] and t.revealed(0) == ["Mason", "Temple"]
    new = t.declare(0, "recruit")
    assert t.of("CardDiscarded", new) == []
    assert item_events(t, new) == []
    assert [e.outcome for e in t.of("ActionCompleted", new)] == ["no unrevealed card: the SANCTION stays"]
    assert sanctions(t, 0) == ["recruit"]
    assert t.state.items.sanction_supply == 9
    assert t.soldiers(0) == 3


def test_r53_library_puts_two_sanctions_on_one_player():
    """R53: Simpleton Library puts 2 SANCTIONS on 2 actions of 1 player; the 2 come from the reserve of 10 (A24)."""
    t = Table(4, rig={"deck": ["Library"]})
    t.declare(0, "library", sanctions=[{"seat": 1, "action": "war"}, {"seat": 1, "action": "treasury"}])
    new = t.pass_all()
    assert item_events(t, new) == [("SanctionPlaced", 1, "war"), ("SanctionPlaced", 1, "treasury")]
    assert [e.source for e in t.of("SanctionPlaced", new)] == ["reserve", "reserve"]
    assert sanctions(t, 1) == ["treasury", "war"]
    assert t.state.items.sanction_supply == 8


def test_r53_library_puts_two_sanctions_on_two_players():
    """R53: "any 2 actions on 1 or 2 players' leader mats"."""
    t = Table(4, rig={"deck": ["Library"]})
    t.declare(0, "library", sanctions=[{"seat": 3, "action": "recruit"}, {"seat": 2, "action": "mason"}])
    t.pass_all()
    assert sanctions(t, 2) == ["mason"]
    assert sanctions(t, 3) == ["recruit"]
    assert sanctions(t, 1) == [] and sanctions(t, 0) == []
    assert t.state.items.sanction_supply == 8


def test_a19_an_already_sanctioned_action_is_not_offered_and_is_refused():
    """A19, R110 ("This action cannot be sanctioned"): one SANCTION per action. Library never offers seat 1's
    sanctioned War, and a plan naming it is refused with rule A19."""
    t = Table(4, rig={"deck": ["Library"], "sanctions": {"1": ["war"]}})
    offered = [tuple((x["seat"], x["action"]) for x in c["sanctions"]) for c in declarations(t, 0, "library") if "sanctions" in c]
    assert offered, "Library offers SANCTION plans"
    assert all((1, "war") not in pair for pair in offered)
    assert ((1, "recruit"), (1, "temple")) in offered
    with pytest.raises(IllegalCommand) as err:
        t.declare(0, "library", sanctions=[{"seat": 1, "action": "war"}, {"seat": 2, "action": "war"}])
    assert err.value.rule == "A19"
    assert t.state.play.act is None


def test_a19_temple_adds_no_second_sanction():
    """A19: Temple gives seat 1's revealed Barracks to seat 2, whose Barracks is already sanctioned: the card moves,
    no second SANCTION is placed."""
    t = Table(
        4, rig={"deck": ["Temple"], "hands": {"1": [{"name": "Barracks", "revealed": True}]}, "sanctions": {"2": ["barracks"]}}
    )
    card = t.card(1, "Barracks")
    t.declare(0, "temple", recipient=2, card=card)
    new = t.pass_all()
    assert [(e.from_seat, e.to_seat, e.name) for e in t.of("CardMoved", new)] == [(1, 2, "Barracks")]
    assert item_events(t, new) == [("SanctionNotPlaced", 2, "barracks")]
    assert "A19" in t.of("SanctionNotPlaced", new)[0].reason
    assert sanctions(t, 2) == ["barracks"]
    assert t.state.items.sanction_supply == 9


TEN_SANCTIONS = {
    "2": ["recruit", "war", "temple", "mason", "barracks", "treasury"],
    "3": ["recruit", "war", "temple", "mason"],
}


def test_r105_a24_sanction_overflow_the_declarer_takes_one_from_another_player():
    """R105, A24, A40: all 10 SANCTIONS are on mats; Library's SANCTIONS for seat 1 are each taken from another
    player's mat, the declarer choosing which ("take_sanction")."""
    t = Table(4, rig={"deck": ["Library"], "sanctions": TEN_SANCTIONS})
    assert t.state.items.sanction_supply == 0
    t.declare(0, "library", sanctions=[{"seat": 1, "action": "war"}, {"seat": 1, "action": "temple"}])
    new = t.pass_all()
    assert t.of("SanctionPlaced", new) == []
    assert t.kinds(0) == ["take_sanction"]
    sources = sorted((o.command["from"]["seat"], o.command["from"]["action"]) for o in t.prompts(0)[0].options)
    assert sources == sorted((int(s), a) for s, acts in TEN_SANCTIONS.items() for a in acts)
    new = t.play({"type": "take", "seat": 0, "item": "SANCTION", "from": {"seat": 3, "action": "recruit"}})
    placed = t.of("SanctionPlaced", new)
    assert [(e.seat, e.action, e.source) for e in placed] == [(1, "war", {"seat": 3, "action": "recruit"})]
    assert t.kinds(0) == ["take_sanction"]
    assert len(t.prompts(0)[0].options) == 9
    t.play({"type": "take", "seat": 0, "item": "SANCTION", "from": {"seat": 2, "action": "treasury"}})
    assert sanctions(t, 1) == ["temple", "war"]
    assert sanctions(t, 2) == ["barracks", "mason", "recruit", "temple", "war"]
    assert sanctions(t, 3) == ["mason", "temple", "war"]
    assert t.state.items.sanction_supply == 0
    assert t.of("ActionCompleted")[-1].outcome == "sanctions placed"


def test_r105_sanction_overflow_starts_when_the_reserve_runs_out():
    """R105: with 1 SANCTION left in the reserve the first is placed from it, the second must be taken."""
    nine = {"2": ["recruit", "war", "temple", "mason", "barracks"], "3": ["recruit", "war", "temple", "mason"]}
    t = Table(4, rig={"deck": ["Library"], "sanctions": nine})
    t.declare(0, "library", sanctions=[{"seat": 1, "action": "war"}, {"seat": 1, "action": "temple"}])
    new = t.pass_all()
    assert [(e.seat, e.action, e.source) for e in t.of("SanctionPlaced", new)] == [(1, "war", "reserve")]
    assert t.state.items.sanction_supply == 0
    assert t.kinds(0) == ["take_sanction"]
    with pytest.raises(IllegalCommand) as err:
        t.play({"type": "take", "seat": 0, "item": "SANCTION", "from": {"seat": 1, "action": "war"}})
    assert err.value.rule == "R105"


def test_r105_the_take_sanction_prompt_is_for_the_declarer_only():
    """R105, A40: only the declarer is asked where the overflowing SANCTION comes from; the others wait."""
    t = Table(4, rig={"deck": ["Library"], "sanctions": TEN_SANCTIONS})
    t.declare(0, "library", sanctions=[{"seat": 1, "action": "war"}, {"seat": 1, "action": "temple"}])
    t.pass_all()
    assert t.kinds(0) == ["take_sanction"]
    assert [t.kinds(s) for s in (1, 2, 3)] == [[], [], []]


# ===== TREATY and INK QUILL (R53, R107, R108, A42) =====


def test_r53_r108_library_gives_the_treaty_and_the_giver_takes_the_ink_quill():
    """R53, R108, A42: seat 0's Library gives seat 2 the TREATY from the reserve; seat 0 gains the INK QUILL."""
    t = Table(4, rig={"deck": ["Library"]})
    t.declare(0, "library", treaty=2)
    assert "guard" in groups(t, 2)  # seat 2 is affected
    new = t.pass_all()
    gained = [(e.seat, e.item, e.source) for e in t.of("ItemGained", new)]
    assert gained == [(2, "TREATY", "reserve"), (0, "INK QUILL", "reserve")]
    assert (t.state.items.treaty, t.state.items.quill) == (2, 0)
    assert t.state.partner(0) == 2 and t.state.partner(2) == 0
    assert t.state.partner(1) is None


def test_r107_treaty_parties_cannot_call_each_others_bluffs():
    """R107, R62: with a TREATY between seats 0 and 1, seat 1 is not asked on seat 0's Treasury, while 2 and 3 may call;
    on seat 1's own claim, seat 0 cannot call."""
    t = Table(4, rig={"deck": ["Treasury", "Treasury"], "treaty": {"holder": 1, "giver": 0}})
    t.declare(0, "treasury")
    assert t.state.calls.window is not None and t.state.calls.window.asked == [2, 3]
    assert t.kinds(1) == ["treaty_gift"]
    assert groups(t, 2) == ["pass", "call"]
    t.pass_all()
    assert t.state.play.current == 1 and t.soldiers(0) == 8
    t.declare(1, "treasury")
    assert t.state.calls.window.asked == [2, 3]
    assert "react" not in t.kinds(0)
    with pytest.raises(NotYourTurn):
        t.play({"type": "react", "seat": 0, "window": t.state.calls.window.id, "answer": "call"})


def test_r107_treaty_parties_cannot_go_to_war_with_each_other():
    """R107, R86: War is not offered on the TREATY partner, and declaring it is refused with rule R107."""
    t = Table(4, rig={"deck": ["Temple"], "soldiers": {"0": 5}, "treaty": {"holder": 0, "giver": 2}})
    targets = sorted(c["target"] for c in declarations(t, 0, "war"))
    assert targets == [1, 3]
    with pytest.raises(IllegalCommand) as err:
        t.declare(0, "war", target=2)
    assert err.value.rule == "R107"


def test_r107_treaty_parties_may_give_each_other_soldiers_at_any_time():
    """R107: "May give each other soldiers at any time": both parties have a free "treaty_gift" prompt, even off
    turn; give_soldiers moves the soldiers; a third player has no such prompt."""
    t = Table(4, rig={"deck": ["Temple"], "soldiers": {"2": 4, "3": 1}, "treaty": {"holder": 2, "giver": 3}})
    assert t.kinds(2) == ["treaty_gift"]
    assert t.kinds(3) == ["treaty_gift"]
    assert t.kinds(1) == []
    gift = next(p for p in t.prompts(2) if p.kind == "treaty_gift")
    assert gift.free
    assert sorted(c["amount"] for c in gift.commands()) == [1, 2, 3, 4]
    assert all(c["to"] == 3 for c in gift.commands())
    new = t.play({"type": "give_soldiers", "seat": 2, "to": 3, "amount": 3})
    assert [(e.seat, e.delta) for e in t.of("SoldiersChanged", new)] == [(2, -3), (3, 3)]
    assert (t.soldiers(2), t.soldiers(3)) == (1, 4)
    assert t.state.play.current == 0 and t.kinds(0) == ["declare"]  # nothing else moved on


def test_r107_a_third_player_cannot_give_soldiers_to_a_treaty_party():
    """R107: only the TREATY parties may give soldiers; seat 1 is refused."""
    t = Table(4, rig={"deck": ["Temple"], "treaty": {"holder": 2, "giver": 3}})
    with pytest.raises(NotYourTurn):
        t.play({"type": "give_soldiers", "seat": 1, "to": 2, "amount": 1})
    assert t.soldiers(1) == 3 and t.soldiers(2) == 3


def test_r107_a_party_within_a_war_cannot_give_away_soldiers():
    """R107: "A player within a war cannot give away their soldiers": seat 0 lost its war and must reveal; meanwhile
    it has no gift prompt, while its partner (not in the war) still has one."""
    t = Table(
        4,
        rig={
            "deck": ["Temple"],
            "hands": {"0": ["Mason", "Barracks"]},
            "soldiers": {"0": 2, "2": 5},
            "treaty": {"holder": 0, "giver": 1},
        },
    )
    t.declare(0, "war", target=2)
    assert t.kinds(0) == ["war_reveal"]
    assert "treaty_gift" in t.kinds(1)
    with pytest.raises(IllegalCommand):
        t.play({"type": "give_soldiers", "seat": 0, "to": 1, "amount": 1})
    assert (t.soldiers(0), t.soldiers(1)) == (2, 3)


def test_r107_barracks_does_not_affect_the_treaty_partner():
    """R107: "Cannot affect each other with any ... actions": seat 0's Barracks makes seats 2 and 3 discard, not seat 1."""
    t = Table(
        4,
        rig={
            "deck": ["Barracks", "Treasury"],
            "hands": {"1": ["Temple"], "2": ["Mason"], "3": ["Library"]},
            "treaty": {"holder": 1, "giver": 0},
        },
    )
    t.declare(0, "barracks")
    assert t.state.calls.window.asked == [2, 3]
    t.pass_all()
    assert [e.seat for e in t.of("CardDiscarded")] == [2, 3]
    assert t.state.play.current == 1
    assert "Temple" in t.unrevealed(1) and len(t.state.players[1].cards) == 2  # kept its Temple, then drew for its turn


def test_r108_the_treaty_ends_when_a_party_is_eliminated():
    """R123 and the TREATY ruling: seat 2 (4 revealed cards) is eliminated in seat 0's Demise Phase; the TREATY and
    seat 3's INK QUILL are discarded and the gift prompt is gone."""
    four = [{"name": n, "revealed": True} for n in ("Temple", "Mason", "Barracks", "Treasury")]
    t = Table(4, rig={"deck": ["Temple"], "hands": {"2": four}, "treaty": {"holder": 2, "giver": 3}})
    assert t.kinds(3) == ["treaty_gift"]
    t.declare(0, "recruit")
    assert [e.seat for e in t.of("PlayerEliminated")] == [2]
    assert [(e.seat, e.item) for e in t.of("ItemDiscarded")] == [(2, "TREATY"), (3, "INK QUILL")]
    assert (t.state.items.treaty, t.state.items.quill) == (None, None)
    assert t.state.partner(3) is None
    assert "treaty_gift" not in t.kinds(3)


def test_r47_r108_mason_discarding_the_treaty_ends_it():
    """A18, R108: Mason discards the TREATY; the INK QUILL leaves with it and the parties may war each other again."""
    t = Table(4, rig={"deck": ["Mason"], "soldiers": {"2": 4}, "treaty": {"holder": 2, "giver": 3}})
    t.declare(0, "mason", discard=["TREATY"])
    new = t.pass_all()
    assert [(e.seat, e.item) for e in t.of("ItemDiscarded", new)] == [(2, "TREATY"), (3, "INK QUILL")]
    assert (t.state.items.treaty, t.state.items.quill) == (None, None)
    assert t.kinds(2) == []  # no gift prompt any more
    # it is seat 1's turn; the former parties are ordinary players again
    assert t.state.partner(2) is None and t.state.partner(3) is None


def test_r108_the_ink_quill_is_no_item_for_mason():
    """R108: the INK QUILL is a token, not an item: Mason may discard the TREATY but never the quill by itself."""
    t = Table(4, rig={"deck": ["Mason"], "treaty": {"holder": 2, "giver": 3}})
    refs = {r for c in declarations(t, 0, "mason") for r in c.get("discard", [])}
    assert refs == {"TREATY"}


# ===== BRIG (R58(3), R62, A37, R105) =====


def test_r58_3_incorrect_caller_with_no_unrevealed_card_gains_a_brig():
    """R58 (3), A12: seat 2 (no cards) calls seat 0's true Treasury claim; seat 0 proves it with the Treasury,
    seat 2 gains a BRIG from the reserve, and the Treasury goes ahead (R58 (4))."""
    t = Table(4, rig={"deck": ["Temple", "Mason"], "hands": {"0": ["Treasury"]}})
    t.declare(0, "treasury")
    t.react(1, "pass")
    t.react(2, "call")
    t.react(3, "pass")
    assert t.kinds(0) == ["prove"]
    new = t.play({"type": "reveal", "seat": 0, "card": t.card(0, "Treasury")})
    assert [e.claim for e in t.of("ClaimProven", new)] == ["Treasury"]
    assert [(e.seat, e.item, e.source) for e in t.of("ItemGained", new)] == [(2, "BRIG", "reserve")]
    assert [(e.caller, e.correct) for e in t.of("CallSettled", new)] == [(2, False)]
    assert t.of("CardRevealed", new)[0].full is False  # R58 (1): the proof is no full reveal
    assert t.state.players[2].brigs == 1
    assert t.state.items.brig_supply == 3
    assert t.soldiers(0) == 8
    assert t.unrevealed(0) == ["Temple", "Treasury"]


def test_r58_3_an_incorrect_caller_with_an_unrevealed_card_reveals_it_instead_of_a_brig():
    """R58 (2), (3): the BRIG is only for a caller with nothing to reveal; seat 2 with 1 unrevealed card reveals it."""
    t = Table(4, rig={"deck": ["Temple", "Mason"], "hands": {"0": ["Treasury"], "2": ["Library"]}})
    t.declare(0, "treasury")
    t.react(1, "pass")
    t.react(2, "call")
    t.react(3, "pass")
    new = t.play({"type": "reveal", "seat": 0, "card": t.card(0, "Treasury")})
    assert t.of("ItemGained", new) == []
    assert t.revealed(2) == ["Library"]
    assert t.state.players[2].brigs == 0 and t.state.items.brig_supply == 4


def test_r62_a37_a_brig_holder_cannot_call_but_may_still_guard():
    """R62, A37 ruling: seat 1 holds a BRIG. On Barracks it is offered pass and guard but no call; the others may call."""
    t = Table(4, rig={"deck": ["Barracks"], "hands": {"1": ["Temple"], "2": ["Mason"], "3": ["Library"]}, "brigs": {"1": 1}})
    t.declare(0, "barracks")
    assert t.state.calls.window.asked == [1, 2, 3]
    assert groups(t, 1) == ["pass", "guard"]
    assert groups(t, 2) == ["pass", "call", "guard"]
    with pytest.raises(IllegalCommand) as err:
        t.react(1, "call")
    assert err.value.rule == "R56"


def test_a37_a_brig_holder_is_not_asked_where_it_could_only_call():
    """A37 ruling, R62: on Treasury (nobody can guard) the BRIG holder has nothing to answer, so is not asked."""
    t = Table(4, rig={"deck": ["Treasury"], "brigs": {"2": 1}})
    t.declare(0, "treasury")
    assert t.state.calls.window.asked == [1, 3]
    assert t.kinds(2) == []


def test_a37_a_brig_holder_skips_their_next_turn_and_that_brig_is_discarded():
    """A37 ruling: seat 1 holds a BRIG: after seat 0's turn, seat 1's turn is skipped (no draw, no action), the BRIG
    goes back to the reserve, and seat 2 plays next."""
    t = Table(4, rig={"deck": ["Temple", "Mason", "Barracks"], "brigs": {"1": 1}})
    new = t.declare(0, "recruit")
    assert [e.seat for e in t.of("TurnSkipped", new)] == [1]
    assert [(e.seat, e.item) for e in t.of("ItemDiscarded", new)] == [(1, "BRIG")]
    assert [e.seat for e in t.of("CardDrawn", new)] == [2]
    assert t.state.players[1].cards == []
    assert t.state.players[1].brigs == 0 and t.state.items.brig_supply == 4
    assert t.state.play.current == 2 and t.kinds(2) == ["declare"]
    assert [e.seat for e in t.of("TurnBegan", new)] == [1, 2]


def test_a37_each_brig_skips_one_turn():
    """A37 ruling: with 2 BRIGS, seat 1 skips one turn per BRIG; after the first skip it still holds 1."""
    t = Table(3, rig={"deck": ["Temple", "Mason", "Barracks", "Library"], "brigs": {"1": 2}})
    t.declare(0, "recruit")
    assert t.state.players[1].brigs == 1
    assert t.state.play.current == 2
    t.declare(2, "recruit")
    t.declare(0, "recruit")
    assert [e.seat for e in t.of("TurnSkipped")] == [1, 1]
    assert t.state.players[1].brigs == 0
    assert t.state.play.current == 2


def test_r105_brig_overflow_the_gainer_chooses_whom_to_take_it_from():
    """R105, A40: all 4 BRIGS are held by seats 2 and 3; incorrect caller seat 1 (no cards) must take one and is
    asked "take_brig" with exactly those 2 sources. (Seat 1 then serves it at once: its turn is next, A37.)"""
    t = Table(4, rig={"deck": ["Temple", "Mason"], "hands": {"0": ["Treasury"]}, "brigs": {"2": 2, "3": 2}})
    assert t.state.items.brig_supply == 0
    t.declare(0, "treasury")
    assert t.state.calls.window.asked == [1]  # BRIG holders cannot call
    t.react(1, "call")
    t.play({"type": "reveal", "seat": 0, "card": t.card(0, "Treasury")})
    assert t.kinds(1) == ["take_brig"]
    assert sorted(o.command["from"] for o in t.prompts(1)[0].options) == [2, 3]
    assert t.soldiers(0) == 3  # the Treasury waits for the penalty
    with pytest.raises(IllegalCommand) as err:
        t.play({"type": "take", "seat": 1, "item": "BRIG", "from": 0})
    assert err.value.rule == "R105"
    new = t.play({"type": "take", "seat": 1, "item": "BRIG", "from": 3})
    assert [(e.seat, e.item, e.source) for e in t.of("ItemGained", new)] == [(1, "BRIG", 3)]
    assert t.soldiers(0) == 8
    # seat 1's turn comes next and is skipped for the BRIG it took (A37)
    assert t.of("TurnSkipped", new)[0].seat == 1
    assert (t.of("ItemDiscarded", new)[0].seat, t.of("ItemDiscarded", new)[0].item) == (1, "BRIG")


def test_r105_brig_overflow_with_one_holder_is_automatic():
    """R105: all 4 BRIGS are with seat 3, so incorrect caller seat 2 takes one from seat 3 without a prompt."""
    t = Table(4, rig={"deck": ["Temple", "Mason"], "hands": {"0": ["Treasury"]}, "brigs": {"3": 4}})
    t.declare(0, "treasury")
    assert t.state.calls.window.asked == [1, 2]
    t.react(1, "pass")
    t.react(2, "call")
    new = t.play({"type": "reveal", "seat": 0, "card": t.card(0, "Treasury")})
    assert [(e.seat, e.item, e.source) for e in t.of("ItemGained", new)] == [(2, "BRIG", 3)]
    assert "take_brig" not in t.kinds(2)
    assert t.state.play.current == 1
    assert [p.brigs for p in t.state.players] == [0, 0, 1, 3]
    assert t.state.items.brig_supply == 0


# ===== WALL (R69, R81, A14) =====


def test_r69_a14_the_wall_guards_barracks_and_is_not_used_up():
    """R69, R66, A14 ruling: seat 1 guards Barracks with the WALL; seat 1 discards nothing, seats 2 and 3 do, the
    WALL guard opens no window (it is no claim) and seat 1 still holds the WALL."""
    t = Table(4, rig={"deck": ["Barracks", "Treasury"], "hands": {"1": ["Temple"], "2": ["Mason"], "3": ["Library"]}, "wall": 1})
    t.declare(0, "barracks")
    assert guard_means(t, 1) == ["card", "wall"]
    assert guard_means(t, 2) == ["card"]
    new = t.react(1, "guard", means="wall")
    new += t.pass_all()
    assert [(e.seat, e.means) for e in t.of("GuardDeclared", new)] == [(1, "wall")]
    assert [(e.seat, e.means) for e in t.of("GuardHeld", new)] == [(1, "wall")]
    assert len(t.of("ReactionWindowOpened")) == 1  # only the action's window
    assert [e.seat for e in t.of("CardDiscarded", new)] == [2, 3]
    assert t.state.play.current == 1
    assert "Temple" in t.unrevealed(1) and len(t.state.players[1].cards) == 2  # kept its Temple, then drew for its turn
    assert t.state.items.wall == 1


def test_r69_a16_the_wall_guards_only_when_its_holder_is_affected():
    """R69, A16 ruling: the WALL holder (seat 1) may guard Library SANCTIONS aimed at it, not those aimed elsewhere."""
    t = Table(4, rig={"deck": ["Library", "Library"], "wall": 1})
    t.declare(0, "library", sanctions=[{"seat": 2, "action": "war"}, {"seat": 2, "action": "temple"}])
    assert groups(t, 1) == ["pass", "call"]
    assert guard_means(t, 2) == ["card"]


def test_r66_r69_a_wall_guard_protects_only_its_holder_from_library():
    """R66, R69: Library sanctions seats 1 and 2; seat 1 guards with the WALL: only seat 2's SANCTION is placed."""
    t = Table(4, rig={"deck": ["Library"], "wall": 1})
    t.declare(0, "library", sanctions=[{"seat": 1, "action": "war"}, {"seat": 2, "action": "war"}])
    assert guard_means(t, 1) == ["card", "wall"]
    t.react(1, "guard", means="wall")
    new = t.pass_all()
    assert item_events(t, new) == [("SanctionPlaced", 2, "war")]
    assert sanctions(t, 1) == [] and sanctions(t, 2) == ["war"]
    assert t.state.items.wall == 1


def test_a14_war_and_unaffecting_actions_cannot_be_guarded_with_the_wall():
    """A14, RULINGS: War opens no window at all (no claim, no matching building); Treasury affects only the declarer,
    so the WALL holder may only call it."""
    t = Table(4, rig={"deck": ["Treasury", "Temple"], "soldiers": {"0": 5}, "wall": 1})
    t.declare(0, "treasury")
    assert groups(t, 1) == ["pass", "call"]
    t.pass_all()
    assert t.state.play.current == 1
    new = t.declare(1, "war", target=0)
    assert "ReactionWindowOpened" not in t.types(new)
    assert t.of("WarBattle", new)


def test_r81_a14_the_wall_counts_5_for_the_defender_in_battle_only():
    """R81, A14 ruling: defender seat 1 (3 soldiers + WALL = 8) beats attacker seat 0 (7); casualties use the real
    soldiers: seat 0 loses ceil(7/2)=4, seat 1 loses ceil(3/2)=2 (R84). The winning defender keeps the WALL."""
    t = Table(4, rig={"deck": ["Temple"], "hands": {"0": ["Mason"]}, "soldiers": {"0": 7, "1": 3}, "wall": 1}, names=list("ABCD"))
    new = t.declare(0, "war", target=1)
    assert narrate(t.of("ActionCompleted", new)[0].to_dict(), list("ABCD")) == "A's War: the defender won the war"
    battle = t.of("WarBattle", new)[0]
    assert (battle.attacker_strength, battle.defender_strength, battle.wall_bonus) == (7, 8, 5)
    assert (battle.winner, battle.loser) == (1, 0)
    cas = t.of("WarCasualties", new)[0]
    assert (cas.attacker_loss, cas.defender_loss) == (4, 2)
    assert (t.soldiers(0), t.soldiers(1)) == (3, 1)
    assert t.revealed(0) == ["Mason", "Temple"]
    assert t.state.items.wall == 1


def test_r81_the_wall_does_not_count_for_an_attacker():
    """R81: "when defending": attacker seat 0 holds the WALL; 3 against 3 is a tie, which goes to the defender (R80)."""
    t = Table(4, rig={"deck": ["Temple"], "hands": {"0": ["Mason"]}, "soldiers": {"0": 3, "1": 3}, "wall": 0})
    new = t.declare(0, "war", target=1)
    battle = t.of("WarBattle", new)[0]
    assert (battle.attacker_strength, battle.defender_strength, battle.wall_bonus) == (3, 3, 0)
    assert battle.winner == 1
    assert t.state.items.wall == 0  # the attacker's WALL is not at stake


def test_a14_a_defender_who_loses_a_war_discards_the_wall():
    """A14 ruling: attacker seat 0 (10) beats defender seat 1 (3 + 5 = 8); seat 1 discards the WALL, then reveals 2."""
    t = Table(4, rig={"deck": ["Temple"], "hands": {"1": ["Mason", "Library"]}, "soldiers": {"0": 10, "1": 3}, "wall": 1})
    new = t.declare(0, "war", target=1)
    battle = t.of("WarBattle", new)[0]
    assert (battle.defender_strength, battle.winner, battle.loser) == (8, 0, 1)
    assert [(e.seat, e.item) for e in t.of("ItemDiscarded", new)] == [(1, "WALL")]
    types = t.types(new)
    assert types.index("ItemDiscarded") < types.index("WarResolution")
    assert t.state.items.wall is None
    assert t.revealed(1) == ["Library", "Mason"]
    assert (t.soldiers(0), t.soldiers(1)) == (5, 1)


def test_r107_library_cannot_take_the_treaty_from_the_declarers_partner_or_give_it_to_them():
    """R107: the INK QUILL holder (seat 0) gave seat 1 the TREATY; moving it again would take it from seat 1."""
    t = Table(4, rig={"deck": ["Temple"], "treaty": {"holder": 1, "giver": 0}})
    assert [c for c in declarations(t, 0, "library") if "treaty" in c] == []
    with pytest.raises(IllegalCommand):
        t.declare(0, "library", treaty=2)
    # the TREATY holder (seat 1) may pass it on to a third player, not back to its giver
    t2 = Table(4, rig={"deck": ["Temple"], "treaty": {"holder": 0, "giver": 1}})
    assert sorted(c["treaty"] for c in declarations(t2, 0, "library") if "treaty" in c) == [2, 3]


def test_r53_r69_the_treaty_holder_may_guard_a_library_that_would_take_it_with_the_wall():
    """R53, R106: a Library passing the TREATY on takes it from its holder, who may "guard against having their
    possessions taken"; the WALL "can guard against any action without pierce" (R69). Seat 1 holds the TREATY
    (seat 3 gave it); seat 0's Library would give it to seat 2. Seat 1 guards with the WALL: nothing moves."""
    t = Table(4, rig={"deck": ["Temple"], "hands": {"0": ["Library"]}, "wall": 1, "treaty": {"holder": 1, "giver": 3}})
    t.declare(0, "library", treaty=2)
    assert "call" in groups(t, 1) and guard_means(t, 1) == ["card", "wall"]
    (prompt,) = [p for p in t.prompts(1) if p.kind == "react"]
    assert prompt.about["affects"] == [1, 2] and "taken from you" in prompt.about["does"]
    t.react(1, "guard", "wall")
    new = t.pass_all()
    assert t.of("ActionCompleted", new)[-1].outcome == "guarded: no TREATY given (R66)"
    assert not t.of("ItemGained", new)
    assert (t.state.items.treaty, t.state.items.quill) == (1, 3) and t.state.partner(1) == 3


def test_r53_r68_the_treaty_holders_guard_is_a_claim_and_a_refuted_one_lets_the_treaty_go():
    """R68, R59: seat 1 guards with a Library claim it cannot prove (it holds a Temple); seat 0 calls it; the guard is
    thwarted and the Library takes the TREATY from seat 1 to seat 2; seat 0, its giver, takes the INK QUILL (R108)."""
    t = Table(4, rig={"deck": ["Temple"], "hands": {"0": ["Library"], "1": ["Temple"]}, "treaty": {"holder": 1, "giver": 3}})
    t.declare(0, "library", treaty=2)
    assert guard_means(t, 1) == ["card"]
    t.react(1, "guard", "card")
    t.pass_all()  # the window on the action closes; the guard opens its own (R68)
    assert t.state.calls.window is not None and t.state.calls.window.claimant == 1
    t.react(0, "call")
    new = t.pass_all()
    assert [(e.seat, e.item, e.source) for e in t.of("ItemGained", new)] == [(2, "TREATY", 1), (0, "INK QUILL", 3)]
    assert (t.state.items.treaty, t.state.items.quill) == (2, 0) and t.state.partner(1) is None and t.state.partner(3) is None


def test_r67_r107_a_holder_passing_on_their_own_treaty_cannot_guard_it_and_the_partner_is_never_affected():
    """R67: the declarer (the holder) cannot guard their own action, so only the receiver is asked to guard. R107:
    the declarer's partner never holds the TREATY a Library of theirs moves (the options refuse it), so a guard
    is never offered against one's own partner."""
    t = Table(4, rig={"deck": ["Temple"], "hands": {"0": ["Library"]}, "wall": 0, "treaty": {"holder": 0, "giver": 1}})
    t.declare(0, "library", treaty=2)
    assert t.state.calls.window is not None
    assert [seat for seat in t.state.calls.window.asked if guard_means(t, seat)] == [2]
    assert "taken from" not in next(p for p in t.prompts(2) if p.kind == "react").about["does"]
    t.pass_all()
    assert (t.state.items.treaty, t.state.items.quill) == (2, 0)


def test_r43_r69_the_treaty_holder_may_guard_a_mobs_library_only_with_the_wall():
    """A mob's Library (its action #8) gives the TREATY by Player Selection; its holder may guard with the WALL,
    never with a card (R43: a mob's action cannot be guarded by a building card)."""
    rig = {"deck": ["Temple"], "wall": 2, "treaty": {"holder": 2, "giver": 3}, "hands": {"1": ["Library"]}, "dice": [8, 2, 1]}
    t = Table(4, mobs=[0], rig=rig)
    declared = t.of("ActionDeclared")[0]
    assert (declared.action, declared.plan) == ("library", {"treaty": 1})  # an Ultimatum (2: the TREATY), then 1 -> seat 1
    assert guard_means(t, 2) == ["wall"] and guard_means(t, 1) == []
    t.react(2, "guard", "wall")
    t.pass_all()
    assert (t.state.items.treaty, t.state.items.quill) == (2, 3)


def test_a37_option_brig_skips_turn_0_keeps_the_brig_and_skips_nothing():
    """Game option brig_skips_turn (A37 ruling): with 0 the BRIG only blocks calls and stays."""
    t = Table(4, rig={"deck": ["Temple", "Mason", "Library"], "brigs": {"1": 1}}, options={"brig_skips_turn": 0})
    t.declare(0, "recruit")
    assert t.state.play.current == 1 and not t.of("TurnSkipped")
    assert t.state.players[1].brigs == 1
    t.declare(1, "recruit")
    t.declare(2, "treasury")
    assert t.state.calls.window.asked == [3, 0]  # seat 1 still holds its BRIG and cannot call
    assert t.state.players[1].brigs == 1


def test_a43_library_with_a_single_free_slot_offers_that_one_sanction_as_a_list():
    """A43: when a single action is free of a SANCTION among the players Library may affect (here the declarer's own
    Library: its TREATY partner is out of reach, R107, and the third player resigned), Library places that one; the
    plan's ``sanctions`` is still a list of one slot, as every Library plan is."""
    own = [a for a in ACTIONS if a != "library"]
    rig = {"deck": ["Temple"], "hands": {"0": ["Library"]}, "treaty": {"holder": 0, "giver": 1}, "sanctions": {"0": own}}
    t = Table(3, rig={**rig, "first_player": 0})
    t.play({"type": "resign", "seat": 2})
    library = [c for c in t.legal(0) if c.get("action") == "library"]
    assert library == [{"type": "declare", "seat": 0, "action": "library", "sanctions": [{"seat": 0, "action": "library"}]}]
    t.play(library[0])
    assert t.of("ActionDeclared")[-1].plan == {"sanctions": [{"seat": 0, "action": "library"}]}
