"""The game starts, a turn runs through its phases, and the first decision is the current player's action."""

from tests.helpers import Table


def test_a_new_game_waits_for_the_first_players_action():
    t = Table(4, seed="smoke")
    s = t.state
    assert s.status == "active"
    first = s.play.first_player
    assert s.play.current == first
    assert s.play.phase == "action"
    # R18: 3 soldiers each; R27: the first player drew 1 card
    assert [p.soldiers for p in s.players] == [3, 3, 3, 3]
    assert len(s.players[first].cards) == 1
    assert t.kinds(first) == ["declare"]
    assert all(t.kinds(seat) == [] for seat in range(4) if seat != first)
    # R162: 30 building cards; deck of 2 years (12) minus one draw, 3 years of 6 aside
    assert s.card_count() == 30
    assert len(s.deck) == 11
    assert [len(c) for _, c in s.years] == [6, 6, 6]
