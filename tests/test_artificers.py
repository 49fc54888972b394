"""The Artificers variant: setup gifts, forced discards taken, no items eliminates, X kinds win (R172, A49)."""

from __future__ import annotations

import pytest

from domain.everaegis.artificers import kinds_held, pieces_held
from domain.everaegis.config import make_config
from domain.kernel.errors import IllegalCommand, MalformedCommand
from tests.helpers import Table

PLAIN = {"plain_unknown": 1}


def test_r172_artificers_needs_the_classic_items():
    with pytest.raises(MalformedCommand) as err:
        make_config(seats=3, variants="simpleton+artificers")
    assert err.value.rule == "R172"


def test_r172_setup_gifts_in_turn_order_until_everyone_holds_3_items_of_one_piece_kinds():
    t = Table(3, variants="classic+artificers", options=PLAIN, selection="simpleton", seed="gifts")
    s = t.state
    first = s.first_player
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


def test_r172_x_different_kinds_win_in_the_conquest_phase():
    """3 occurring players: 6 kinds. Duplicates count once."""
    kinds = ["ANKH", "ANKH", "CROWN", "SCARAB", "SHIELD", "IDOL"]  # no Begin/End effects
    t = rigged(hands={"0": ["Temple"]}, items={"0": kinds, "1": ["AXE"], "2": ["GLOVE"]})
    assert len(kinds_held(t.state, 0)) == 5
    t.declare(0, "recruit")
    assert t.state.status == "active"  # 5 kinds: no win
    t2 = rigged(hands={"0": ["Temple"]}, items={"0": kinds, "1": ["AXE"], "2": ["GLOVE"]}, wall=0)
    t2.declare(0, "recruit")
    ended = t2.of("GameEnded")
    assert t2.state.winners == [0] and "6 different kinds" in ended[0].reason
