"""The Artificers variant: setup gifts, forced discards taken, no items eliminates, X kinds win (R172, A49)."""

from __future__ import annotations

import pytest

from aegis.domain.everaegis.artificers import gift_kinds, kinds_held, pieces_held
from aegis.domain.everaegis.config import make_config
from aegis.domain.everaegis.events import DiceRigged
from aegis.domain.everaegis.evolve import apply
from aegis.domain.kernel.errors import IllegalCommand, MalformedCommand
from tests.helpers import Table

PLAIN = {"plain_unknown": 1}


def test_r172_artificers_needs_the_classic_items():
    with pytest.raises(MalformedCommand) as err:
        make_config(seats=3, variants="simpleton+artificers")
    assert err.value.rule == "R172"


def test_r172_setup_gifts_in_turn_order_until_everyone_holds_3_items_of_one_piece_kinds():
    t = Table(3, variants="classic+artificers", options=PLAIN, selection="simpleton", seed="gifts")
    s = t.state
    first = s.play.first_player
    assert s.stage == "artificers" and [n.seat for n in t.waiting()] == [first]
    opts = t.options(first)
    assert {o.command["to"] for o in opts} == {(first + 1) % 3, (first + 2) % 3}  # opponents only
    assert "ANKH" not in {o.command["item"] for o in opts} and "BEAR" not in {o.command["item"] for o in opts}
    with pytest.raises(IllegalCommand):
        t.play({"type": "artificer_gift", "seat": first, "item": "ANKH", "to": (first + 1) % 3})
    givers = []
    while t.state.stage == "artificers":
        seat = t.waiting()[0].seat
        givers.append(seat)
        t.play(t.options(seat)[0].command)
    s = t.state
    assert all(pieces_held(s, seat) == 3 for seat in range(3))
    assert givers[:3] == [first, (first + 1) % 3, (first + 2) % 3]  # in turn order
    assert s.stage == "turn" and all(p.soldiers == 3 for p in s.players)
    assert len(t.of("ArtificerGave")) == 9


def rigged(**rig):
    base = {"deck": ["Barracks", "Mason", "Library", "Temple"], "first_player": 0}
    return Table(3, variants="classic+artificers", rig={**base, **rig}, options=PLAIN, selection="simpleton")


def test_r172_a_forced_discard_goes_to_the_player_who_forced_it():
    t = rigged(hands={"0": ["Mason"]}, items={"1": ["HORN", "SCARAB"], "0": ["AXE"], "2": ["SHIELD"]})
    mason = next(o for o in t.options(0) if o.command.get("action") == "mason" and "HORN" in o.label and "and" not in o.label)
    t.play(mason.command)
    t.pass_all()
    taken = t.of("ItemGained")[-1]
    assert taken.item == "HORN" and taken.source == 1 and taken.seat == 0 and "R172" in taken.reason
    assert t.state.items_of(0) == ["AXE", "HORN"] and not t.of("ItemDiscarded")


def test_r172_a_player_with_no_item_in_the_demise_phase_is_eliminated():
    t = rigged(hands={"0": ["Temple"], "1": ["Mason"], "2": ["Library"]}, items={"0": ["AXE"], "2": ["SHIELD"]})
    t.declare(0, "recruit")
    gone = t.of("PlayerEliminated")
    assert [e.seat for e in gone] == [1] and "no items" in gone[0].reason


def test_r172_x_different_kinds_win_at_once():
    """3 occurring players: 6 kinds. Duplicates count once. "When a player has X different types of items, they
    win the game": at once, not only in their own Conquest Phase (no phase is printed)."""
    kinds = ["ANKH", "ANKH", "CROWN", "SCARAB", "SHIELD", "IDOL"]  # no Begin/End effects
    t = rigged(hands={"0": ["Temple"]}, items={"0": kinds, "1": ["AXE"], "2": ["GLOVE"]})
    assert len(kinds_held(t.state, 0)) == 5
    t.declare(0, "recruit")
    assert t.state.status == "active"  # 5 kinds: no win
    t2 = rigged(hands={"0": ["Temple"]}, items={"0": kinds, "1": ["AXE"], "2": ["GLOVE"]}, wall=0)
    ended = t2.of("GameEnded")  # 6 kinds from the start: won before any turn's Conquest Phase
    assert t2.state.outcome.winners == [0] and "6 different kinds" in ended[0].reason


def test_r172_x_different_kinds_win_at_once_on_another_players_turn():
    kinds = ["ANKH", "CROWN", "SCARAB", "SHIELD", "IDOL"]
    t = rigged(hands={"0": ["Mason"]}, items={"1": kinds, "0": ["AXE"], "2": ["GLOVE"]})
    give = next(o for o in t.options(0) if o.command.get("give_wall") == 1)
    t.play(give.command)  # Jeff gives Sally the WALL: her sixth kind
    t.pass_all()
    assert t.state.status == "finished" and t.state.outcome.winners == [1] and t.state.play.current == 0
# ----- the TREATY as a setup gift (R172, R107, R108) -----


def gifts_table(**kw):
    return Table(3, variants="classic+artificers", options=PLAIN, selection="simpleton", seed="gifts", **kw)


def test_r172_the_treaty_one_piece_in_the_box_may_be_given_and_makes_giver_and_receiver_its_parties():
    """R172: "any item, except any items there are more than 1 of"; the box has 1 TREATY (R5). Its text
    binds "You and the player that gave you this item" (R107); the giver takes the INK QUILL (R108)."""
    t = gifts_table()
    first = t.state.play.first_player
    to = (first + 1) % 3
    gift = next(o for o in t.options(first) if o.command["item"] == "TREATY" and o.command["to"] == to)
    new = t.play(gift.command)
    s = t.state
    assert (s.items.treaty, s.items.quill) == (to, first) and s.partner(to) == first and s.partner(first) == to
    gained = [(e.seat, e.item, e.source) for e in t.of("ItemGained", new)]
    assert gained == [(to, "TREATY", "reserve"), (first, "INK QUILL", "reserve")]
    assert "TREATY" in kinds_held(s, to) and pieces_held(s, to) == 1 and pieces_held(s, first) == 0  # the quill is a token
    later = [o.command["item"] for seat in range(3) for o in t.options(seat)]
    assert later and "TREATY" not in later  # one piece: it cannot be given twice
    while t.state.stage == "artificers":
        t.play(t.options(t.waiting()[0].seat)[0].command)
    assert all(pieces_held(t.state, seat) == 3 for seat in range(3))
    assert (t.state.items.treaty, t.state.items.quill) == (to, first)
    # the parties play as TREATY parties: no war with each other (R107)
    while t.state.play.current != first:
        t.declare(t.state.play.current, "recruit")
        t.pass_all()
    wars = [c for c in t.legal(first) if c["type"] == "declare" and c["action"] == "war"]
    assert wars and to not in {c["target"] for c in wars}


def test_r172_r175_a_mob_giver_may_pick_the_treaty_and_takes_the_ink_quill():
    """A mob gives by Player Selection of the receiver (R175), then Object Selection among the one-piece kinds
    left (R179): 27 of them after the WALL is given, so 4 D8 counted by their sum (R181); 27 is the TREATY."""
    t = gifts_table(mobs=[1])
    assert t.state.play.first_player == 0 and t.state.classic.gifting == [0, 1, 2]
    rigged = DiceRigged(dice=[1, 8, 8, 8, 3])
    t.events.append(rigged)
    apply(t.state, rigged)
    kinds = [k for k in gift_kinds(t.state) if k != "WALL"]
    assert len(kinds) == 27 and kinds[-1] == "TREATY"
    new = t.play({"type": "artificer_gift", "seat": 0, "item": "WALL", "to": 2})
    rolled = t.of("DieRolled", new)
    assert [(e.seat, e.total) for e in rolled] == [(1, 1), (1, 27)] and "TREATY" in rolled[1].outcome
    gave = next(e for e in t.of("ArtificerGave", new) if e.seat == 1)
    assert (gave.item, gave.to) == ("TREATY", 0)  # receivers counted from the first player: 0, 2; 1 -> seat 0
    assert (t.state.items.treaty, t.state.items.quill) == (0, 1) and t.state.partner(1) == 0


# ----- a forced discard of a BRIG or a SANCTION (R172: "it is instead given to the player that forced it") -----


def test_r172_a_brig_forced_off_goes_to_the_player_who_forced_it():
    t = rigged(hands={"0": ["Mason"]}, items={"0": ["AXE"], "2": ["SHIELD"]}, brigs={"1": 1})
    mason = next(o for o in t.options(0) if o.command.get("discard") == ["BRIG@1"])
    t.play(mason.command)
    t.pass_all()
    taken = t.of("ItemGained")[-1]
    assert (taken.seat, taken.item, taken.source) == (0, "BRIG", 1) and "R172" in taken.reason
    assert t.state.players[0].brigs == 1 and t.state.players[1].brigs == 0


def test_r172_a_sanction_forced_off_is_placed_by_the_player_who_forced_it():
    """p.29: "When a player possesses a SANCTION not on an action, that player must place it onto an action of
    their choice." """
    t = rigged(hands={"0": ["Mason"]}, items={"0": ["AXE"], "2": ["SHIELD"]}, sanctions={"1": ["war"]})
    mason = next(o for o in t.options(0) if o.command.get("discard") == ["SANCTION@1:war"])
    t.play(mason.command)
    t.pass_all()
    assert t.of("SanctionRemoved")[-1].action == "war" and "R172" in t.of("SanctionRemoved")[-1].reason
    while t.waiting() and t.waiting()[0].kind == "effect_choice":  # Jeff picks the player, then the action
        assert t.waiting()[0].seat == 0
        pick = next(o for o in t.options(0) if o.command["choice"] in (2, "library"))
        t.play(pick.command)
    placed = t.of("SanctionPlaced")[-1]
    assert (placed.seat, placed.action) == (2, "library") and t.state.players[2].sanctions == ["library"]
