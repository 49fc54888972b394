"""Turn structure, elimination, winning and the variants (R9-R12, R18, R23-R33, R122-R126, R161-R169)."""

from __future__ import annotations

import pytest

from aegis.domain.everaegis.catalog import BUILDINGS
from aegis.domain.everaegis.config import make_config
from aegis.domain.everaegis.narration import narrate
from aegis.domain.kernel.errors import MalformedCommand, NotYourTurn
from tests.helpers import Table

FOUR_REVEALED = [{"name": n, "revealed": True} for n in ("Temple", "Mason", "Barracks", "Treasury")]


def phases_of_turn(t: Table, seat: int, turn: int) -> list[str]:
    out, inside = [], False
    for e in t.events:
        if e.TYPE == "TurnBegan":
            inside = (e.seat, e.turn) == (seat, turn)
        elif inside and e.TYPE == "PhaseBegan":
            out.append(e.phase)
    return out


def test_r24_a_turn_runs_its_six_phases_in_order():
    t = Table(4, rig={"deck": ["Mason", "Temple"]})
    t.declare(0, "recruit")
    assert phases_of_turn(t, 0, 1) == ["begin", "draw", "action", "end", "demise", "conquest"]
    assert t.of("TurnEnded")[-1].seat == 0


def test_r23_turns_go_clockwise_and_skip_eliminated_players():
    """R23, R25: after seat 0 comes seat 1; an eliminated seat 1 is skipped."""
    t = Table(4, rig={"deck": ["Mason", "Temple", "Library"], "hands": {"1": FOUR_REVEALED}})
    t.declare(0, "recruit")  # seat 1 is eliminated in seat 0's Demise Phase (R30)
    assert t.state.players[1].eliminated
    assert t.state.play.current == 2
    t.declare(2, "recruit")
    assert t.state.play.current == 3


def test_r27_the_draw_is_automatic_and_mandatory():
    t = Table(3, rig={"deck": ["Library", "Mason"]})
    drawn = t.of("CardDrawn")
    assert [(e.seat, e.name, e.reason) for e in drawn] == [(0, "Library", "draw phase")]
    assert t.unrevealed(0) == ["Library"]


def test_a6_the_action_phase_is_mandatory_and_recruit_is_always_offered():
    """A6 ruling: the only prompt is a declaration; it always includes Recruit; there is no 'pass'."""
    t = Table(3, rig={"deck": ["Library"], "soldiers": {"0": 0}})
    assert t.kinds(0) == ["declare"]
    actions = {c["action"] for c in t.legal(0)}
    assert "recruit" in actions and "war" not in actions
    assert all(c["type"] == "declare" for c in t.legal(0))


def test_r24_only_the_current_player_may_act():
    t = Table(3, rig={"deck": ["Library"]})
    with pytest.raises(NotYourTurn) as err:
        t.declare(1, "recruit")
    assert err.value.rule == "R24"
    assert err.value.prompts == []  # seat 1 has nothing to do now
    assert {"type": "declare", "seat": 0, "action": "recruit"} in t.legal(0)


def test_r126_four_revealed_mid_turn_is_not_yet_elimination():
    """R126: only the Demise Phase eliminates; a player at 4 revealed stays until it comes."""
    three = FOUR_REVEALED[:3]
    t = Table(4, rig={"deck": ["Temple"], "hands": {"0": ["Laboratory"], "1": [*three, "Mason"]}})
    t.declare(0, "treasury")
    t.react(1, "call")
    t.pass_all()
    # seat 0 holds a Laboratory and the Temple it drew: it shows the Temple, a bluff exposed
    t.play({"type": "reveal", "seat": 0, "card": t.card(0, "Temple")})
    assert not t.state.players[1].eliminated
    assert len(t.revealed(1)) == 3


def test_r11_the_last_remaining_player_wins_at_once_even_out_of_turn():
    """R11, A36: seats 0 and 2 are eliminated in seat 0's Demise; seat 1 is the only one left and wins."""
    t = Table(3, rig={"deck": ["Temple"], "hands": {"0": FOUR_REVEALED, "2": FOUR_REVEALED}})
    t.declare(0, "recruit")
    end = t.of("GameEnded")[-1]
    assert (end.result, end.winners) == ("win", [1])
    assert "R11" in end.reason


def test_r12_no_players_remaining_is_a_draw():
    hands = {"0": FOUR_REVEALED, "1": [*FOUR_REVEALED[:3], {"name": "Library", "revealed": True}]}
    hands["2"] = [{"name": n, "revealed": True} for n in ("Laboratory", "Library", "Temple", "Mason")]
    t = Table(3, rig={"deck": ["Barracks"], "hands": hands})
    t.declare(0, "recruit")
    end = t.of("GameEnded")[-1]
    assert (end.result, end.winners) == ("draw", [])
    assert "R12" in end.reason
    assert len(t.of("PlayerEliminated")) == 3


def test_a53_after_the_game_everyone_sees_everything():
    t = Table(
        4,
        rig={"deck": ["Temple"], "hands": {"3": ["Mason", "Mason", "Barracks", "Library"], "1": ["Treasury"]}, "first_player": 3},
    )
    t.declare(3, "recruit")
    assert t.state.status == "finished"
    seen = t.view(0)["players"][1]["cards"]
    assert seen[0]["name"] == "Treasury"


# ----- S1: the stalemate ruling -----


def _no_cards_left(seats: int = 10) -> dict:
    """All 30 cards in hands (3 each at 10 seats), so nothing is ever drawn again."""
    names = ["Temple", "Mason", "Barracks", "Treasury", "Laboratory", "Library"]
    cards = [n for n in names for _ in range(5)]
    return {"deck": [], "hands": {str(i): cards[3 * i : 3 * i + 3] for i in range(seats)}}


def test_s1_a_table_where_nothing_changes_for_the_set_rounds_is_drawn():
    """Ruling S1 (docs/rulings.md): with stalemate_rounds=1, ten quiet turns at ten seats end in a draw."""
    t = Table(10, rig=_no_cards_left(), options={"stalemate_rounds": 1})
    for turn in range(10):
        assert t.state.status == "active", turn
        assert t.of("CardNotGained")[-1].seat == t.state.play.current  # A29: nothing left to draw
        t.declare(t.state.play.current, "recruit")
    end = t.of("GameEnded")[-1]
    assert (end.result, end.winners) == ("draw", [])
    assert "S1" in end.reason


def test_s1_any_card_event_restarts_the_count():
    t = Table(10, rig=_no_cards_left(), options={"stalemate_rounds": 1})
    for _ in range(9):
        t.declare(t.state.play.current, "recruit")
    # the tenth player bluffs Treasury and is called: a card is revealed, so the count starts again
    seat = t.state.play.current
    t.declare(seat, "treasury")
    caller = t.state.calls.window.waiting_for[0]
    t.react(caller, "call")
    t.pass_all()
    if t.kinds(seat) == ["prove"]:
        t.play(t.legal(seat)[0])
    if t.kinds(caller) == ["pay"]:
        t.play(t.legal(caller)[0])
    assert t.state.status == "active"
    assert t.state.outcome.quiet_turns <= 1


def test_s1_zero_turns_the_ruling_off():
    t = Table(10, rig=_no_cards_left(), options={"stalemate_rounds": 0})
    for _ in range(25):
        t.declare(t.state.play.current, "recruit")
    assert t.state.status == "active"


def test_s1_option_values_are_checked():
    with pytest.raises(MalformedCommand) as err:
        make_config(seats=4, options={"stalemate_rounds": -1})
    assert err.value.rule == "S1"
    with pytest.raises(MalformedCommand):
        make_config(seats=4, options={"undo": True})


# ----- variants (R161-R169) -----


def test_r162_simpleton_setup():
    """R14-R16, R18, R162: 5 years of one of each building, the deck from 2 of them, 3 soldiers, no cards."""
    t = Table(5, seed="setup")
    formed = t.of("YearsFormed")[0]
    assert [y["size"] for y in formed.years] == [6] * 5
    assert all(y["composition"] == {n: 1 for n in y["composition"]} and len(y["composition"]) == 6 for y in formed.years)
    assert t.of("DeckFormed")[0].size == 12
    assert t.of("SetupDealt")[0].cards_each == 0
    assert {p.soldiers for p in t.state.players} == {3}
    assert t.state.card_count() == 30
    assert narrate(formed.to_dict(), t.config.names) == "5 years are formed and shuffled"


def test_a_rigged_tables_hands_are_dealt_from_a_stock_the_narration_does_not_count_as_a_year():
    t = Table(3, rig={"deck": [], "hands": {"0": ["Mason"], "1": ["Mason"], "2": ["Laboratory"]}})
    formed = t.of("YearsFormed")[0]
    assert formed.years[0]["year"] == "hands" and len(formed.years) == 6  # the stock, then 5 years
    assert narrate(formed.to_dict(), t.config.names) == "5 years are formed and shuffled"


def test_r164_quick_game_three_cards_ten_soldiers_and_a_reveal_each():
    t = Table(4, variants="simpleton+quick", seed="quick")
    first = t.state.play.first_player
    assert {p.soldiers for p in t.state.players} == {10}
    assert all(len(p.cards) == 3 for p in t.state.players)
    order = t.of("SetupRevealsBegan")[0].order
    assert order[0] == first and len(order) == 4
    for seat in order:
        assert t.kinds(seat) == ["setup_reveal"]
        t.play(t.legal(seat)[0])
        assert len(t.revealed(seat)) == 1
    assert t.of("TurnBegan")[0].seat == first


def test_r165_long_game_thresholds():
    """R165: elimination at 6 revealed (5 is safe) and victory at 7 unrevealed (5 is not enough)."""
    five = [*FOUR_REVEALED, {"name": "Library", "revealed": True}]
    mine = ["Library", "Library", "Laboratory", "Laboratory", "Laboratory"]
    t = Table(4, variants="simpleton+long", rig={"deck": ["Temple"], "hands": {"0": mine, "1": five}})
    t.declare(0, "recruit")
    assert not t.state.players[1].eliminated
    assert t.state.status == "active"  # 6 unrevealed: no Long Game win
    six = [*five, {"name": "Laboratory", "revealed": True}]
    t = Table(4, variants="simpleton+long", rig={"deck": ["Temple"], "hands": {"0": [*mine, "Barracks"], "1": six}})
    t.declare(0, "recruit")
    assert t.state.players[1].eliminated
    assert t.of("GameEnded")[-1].winners == [0]


def test_r169_plague_twenty_soldiers_two_lost_each_begin_and_zero_eliminates():
    t = Table(3, variants="simpleton+plague", rig={"deck": ["Temple", "Mason"], "soldiers": {"1": 2}})
    assert t.soldiers(0) == 18  # 20 at setup, 2 lost in the Begin Phase
    t.declare(0, "recruit")
    assert t.soldiers(0) == 20
    # seat 1 began with 2 (rigged), loses them in its Begin Phase, and goes in its Demise Phase
    assert t.soldiers(1) == 0
    t.declare(1, "treasury")
    t.pass_all()
    assert not t.state.players[1].eliminated  # Treasury brought 5 soldiers before the Demise check
    t2 = Table(3, variants="simpleton+plague", rig={"deck": ["Temple", "Mason"], "soldiers": {"1": 2}})
    t2.declare(0, "recruit")
    t2.declare(1, "laboratory")
    t2.pass_all()
    while t2.state.play.current == 1 and t2.kinds(1):  # a year to choose, cards to put back
        t2.play(t2.legal(1)[0])
    assert t2.state.players[1].eliminated
    assert "R169" in t2.of("PlayerEliminated")[-1].reason


def test_r166_survival_six_cards_no_draws_no_conquest_and_elimination_without_unrevealed_cards():
    t = Table(3, variants="simpleton+survival", seed="survive")
    # 18 cards are dealt from a 12-card deck: the first player picks the year that refills it (A46)
    first = t.state.play.first_player
    assert t.kinds(first) == ["choose_year"]
    t.play(t.legal(first)[0])
    assert all(len(p.cards) == 6 for p in t.state.players)
    drawn_before = len(t.of("CardDrawn"))
    seat = t.state.play.current
    t.declare(seat, "recruit")
    assert len(t.of("CardDrawn")) == drawn_before  # no Draw Phase (R166)
    assert t.state.status == "active"  # 6 unrevealed cards win nothing in Survival


def test_r166_survival_eliminates_a_player_with_only_revealed_cards_and_not_at_four():
    hands = {"0": ["Mason"] * 4 + ["Library"] * 2, "1": [*FOUR_REVEALED, "Library"], "2": [{"name": "Library", "revealed": True}]}
    t = Table(3, variants="simpleton+survival", rig={"deck": [], "hands": hands})
    t.declare(0, "recruit")
    assert not t.state.players[1].eliminated  # 4 revealed alone do not eliminate
    assert t.state.players[2].eliminated
    assert "R166" in t.of("PlayerEliminated")[-1].reason


@pytest.mark.parametrize(
    ("kwargs", "rule"),
    [
        ({"seats": 2}, "A44"),
        ({"seats": 11}, "A44"),
        ({"seats": "4"}, "A44"),
        ({"seats": 4, "variants": "quick"}, "R161-R162"),
        ({"seats": 4, "variants": "simpleton+classic"}, "R161-R162"),
        ({"seats": 4, "variants": "simpleton", "selection": "limited"}, "R162"),
        ({"seats": 4, "variants": "classic", "selection": "auction"}, "R19-R22"),
        ({"seats": 4, "variants": "simpleton+vengeance"}, "R161-R172"),
        ({"seats": 4, "variants": "simpleton+long+survival"}, "R165"),
        ({"seats": 4, "reaction_seconds": -1}, "A1"),
        ({"seats": 4, "first_player": 4}, "R18"),
    ],
)
def test_bad_game_settings_are_refused_with_the_rule(kwargs, rule):
    with pytest.raises(MalformedCommand) as err:
        make_config(**kwargs)
    assert err.value.rule == rule


def test_r13_r16_a_setup_deals_the_cards_it_does_not_place_as_any_game_does():
    """A setup that places no card (only soldiers here) leaves every card to the seed: 5 years of one of each
    building, each shuffled, and the deck the shuffle of 2 of them (R14-R16) — not years grouped by building in
    catalog order and an empty deck. Two seeds give two different decks; one that places 3 cards leaves years of
    as many different buildings as are left."""
    dealt = Table(3, rig={"soldiers": {"0": 5}}, seed="rig-a")
    assert dealt.of("DeckFormed")[0].size == 12 and len(dealt.state.years) == 3
    assert all(sorted(c.name for c in y) == sorted(BUILDINGS) for _, y in dealt.state.years)
    assert [e.years for e in dealt.of("DeckFormed")] == [["1", "2"]]
    other = Table(3, rig={"soldiers": {"0": 5}}, seed="rig-b")
    decks = [[c["name"] for c in t.of("DeckFormed")[0].cards] for t in (dealt, other)]
    assert decks[0] != decks[1] and sorted(decks[0]) == sorted(BUILDINGS * 2)
    placed = Table(3, rig={"hands": {"0": ["Library"], "1": ["Library"], "2": ["Mason"]}, "deck": []}, seed="rig-a")
    years = [y for label, y in placed.state.years if label != "hands"]
    assert [len({c.name for c in y}) for y in years] == [len(y) for y in years]  # no building twice in a year
    assert sorted(len(y) for y in years) == [5, 5, 5, 6, 6] and placed.of("DeckFormed")[0].size == 0  # as given


def test_r13_r15_a_classic_setup_shuffles_the_estate_deck_and_puts_2_estates_in_each_year():
    t = Table(3, variants="classic", options={"plain_unknown": 1}, rig={"soldiers": {"0": 5}}, seed="rig-c")
    assert all(len([c for c in y if c.name not in BUILDINGS]) == 2 for _, y in t.state.years)
    composition = t.of("YearsFormed")[0].years[0]["composition"]
    assert composition.get("estate cards") == 2 and not set(composition) - {*BUILDINGS, "estate cards"}  # none named
    names = [c["name"] for c in t.of("EstateDeckFormed")[0].cards]
    assert len(names) == 13 and names != sorted(names)
