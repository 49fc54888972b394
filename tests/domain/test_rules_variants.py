"""The Alliances, Blasphemy and Overlord variants (R163, R170, R171; R9-R12, R90, R133-R139; A44, A47, A48,
A51; docs/rulings.md "Alliances", "Blasphemy", "Overlord"), and property tests over random games of each."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from aegis.domain.everaegis.catalog import BUILDINGS
from aegis.domain.everaegis.config import make_config
from aegis.domain.everaegis.narration import narrate
from aegis.domain.everaegis.state import GameState
from aegis.domain.everaegis.variants import winners
from aegis.domain.kernel.errors import IllegalCommand, MalformedCommand
from aegis.domain.kernel.events import Event
from tests.domain.test_properties import MAX_TURNS, check_offered_options, check_views, play_checked
from tests.helpers import Table

FOUR_REVEALED = [{"name": n, "revealed": True} for n in ("Temple", "Mason", "Barracks", "Treasury")]
ALL_CARDS = [n for n in BUILDINGS for _ in range(5)]
LONG_DECK = ["Mason", "Temple", "Library", "Laboratory", "Barracks", "Mason", "Temple", "Library", "Laboratory", "Barracks"]


def alliances(seats: int = 5, **kw) -> Table:
    return Table(seats, variants="simpleton+alliances", **kw)


def blasphemy(seats: int = 3, **kw) -> Table:
    return Table(seats, variants="simpleton+blasphemy", **kw)


def overlord(seats: int = 4, **kw) -> Table:
    return Table(seats, variants="simpleton+overlord", **kw)


def play_recruits(t: Table, turns: int) -> None:
    """The current player recruits, ``turns`` times (no window: Recruit is not a claim)."""
    for _ in range(turns):
        assert t.state.status == "active"
        t.declare(t.state.play.current, "recruit")


def turn_seats(t: Table) -> list[int]:
    return [e.seat for e in t.of("TurnBegan")]


def hands_from(counts: dict[int, int], revealed: dict[int, int] | None = None, rest: list[str] | None = None) -> dict:
    """Deal ``counts[seat]`` cards of ``rest`` (default: all 30 but the 1 in the deck) to each seat, the first
    ``revealed[seat]`` of them face up."""
    pool = list(rest if rest is not None else ALL_CARDS)
    out = {}
    for seat, n in counts.items():
        cards, pool = pool[:n], pool[n:]
        up = (revealed or {}).get(seat, 0)
        out[str(seat)] = [{"name": c, "revealed": i < up} for i, c in enumerate(cards)]
    assert not pool, f"{len(pool)} cards left over would become a year"
    return out


# ----- creating games: what combines and what is refused -----


@pytest.mark.parametrize(
    ("kwargs", "rule"),
    [
        ({"seats": 4, "variants": "simpleton+alliances"}, "R163"),
        ({"seats": 3, "variants": "simpleton+alliances+blasphemy"}, "R163"),
        ({"seats": 6, "variants": "simpleton+alliances+overlord"}, "R170"),
        ({"seats": 4, "variants": "simpleton+overlord+survival"}, "R170"),
        ({"seats": 4, "variants": "simpleton", "options": {"overlord_seat": 1}}, "R170"),
        ({"seats": 4, "variants": "simpleton+overlord", "options": {"overlord_seat": 4}}, "R170"),
        ({"seats": 4, "variants": "simpleton+overlord", "options": {"overlord_seat": 1}, "first_player": 0}, "R170"),
        ({"seats": 5, "variants": "simpleton", "options": {"ally_war": 0}}, "R163"),
    ],
)
def test_r163_r170_a44_bad_variant_settings_are_refused_with_the_rule(kwargs, rule):
    with pytest.raises(MalformedCommand) as err:
        make_config(**kwargs)
    assert err.value.rule == rule


def test_r163_alliances_needs_5_or_more_players_and_says_so():
    with pytest.raises(MalformedCommand) as err:
        make_config(seats=4, variants="simpleton+alliances")
    assert err.value.rule == "R163" and "5 or more" in err.value.message
    assert make_config(seats=5, variants="simpleton+alliances").variants == ("simpleton", "alliances")


@pytest.mark.parametrize(
    "variants",
    [
        "simpleton+alliances+quick+plague",
        "simpleton+alliances+long+blasphemy",
        "simpleton+alliances+survival",
        "simpleton+blasphemy+survival",
        "simpleton+overlord+quick+long+plague+blasphemy",
        "classic+alliances+blasphemy",
        "classic+overlord",
    ],
)
def test_r161_the_variants_combine_with_the_others_the_book_allows(variants):
    make_config(seats=6, variants=variants, selection="simpleton")


# ----- Alliances (R163, R138, A51) -----


def test_r163_your_allies_are_the_players_to_your_left_and_right_and_everyone_sees_them():
    t = alliances(rig={"deck": ["Mason"]})
    assert t.of("AlliesSeated")[0].allies == [[1, 4], [0, 2], [1, 3], [2, 4], [0, 3]]
    for who in (0, 3, "spectator"):
        assert t.view(who)["allies"] == {"0": [1, 4], "1": [0, 2], "2": [1, 3], "3": [2, 4], "4": [0, 3]}
    s = t.state
    assert s.variant.allied(0, 1) and s.variant.allied(0, 4) and not s.variant.allied(0, 2)
    assert not s.variant.allied(1, 4)  # R163: your allies are enemies with each other


def test_r163_r138_barracks_leaves_your_allies_out_they_cannot_guard_it_and_keep_their_cards():
    rig = {"deck": ["Mason"], "hands": {"0": ["Barracks"], **{str(s): ["Temple"] for s in range(1, 5)}}, "wall": 1}
    t = alliances(rig=rig)
    t.declare(0, "barracks")
    react = {seat: {o.command["answer"] for p in t.prompts(seat) for o in p.options} for seat in range(1, 5)}
    assert react[1] == {"pass", "call"} and react[4] == {"pass", "call"}  # allies: not affected, no guard
    assert "guard" in react[2] and "guard" in react[3]
    t.pass_all()
    assert [e.seat for e in t.of("CardDiscarded")] == [2, 3]
    assert t.unrevealed(4) == ["Temple"]  # (seat 1 has drawn since: its turn began)
    assert t.of("ActionCompleted")[-1].outcome == "2 opponents discarded"


def test_r163_r45_war_may_select_an_ally_unless_the_option_ally_war_is_0():
    rig = {"deck": ["Mason"], "soldiers": {"0": 5}}
    targets = {c["target"] for c in alliances(rig=rig).legal(0) if c["action"] == "war"}
    assert targets == {1, 2, 3, 4}
    strict = alliances(rig=rig, options={"ally_war": 0})
    assert {c["target"] for c in strict.legal(0) if c["action"] == "war"} == {2, 3}
    with pytest.raises(IllegalCommand) as err:
        strict.declare(0, "war", target=1)
    assert err.value.rule == "R163"


def test_r163_r9_when_you_win_your_remaining_allies_win_too_not_their_allies():
    rig = {"deck": ["Mason"], "hands": {"0": ["Temple", "Temple", "Barracks", "Treasury"]}}
    t = alliances(rig=rig)
    t.declare(0, "recruit")
    end = t.of("GameEnded")[-1]
    assert (end.result, end.winners) == ("win", [0, 1, 4])
    assert "R9a" in end.reason
    assert narrate(end.to_dict(), ["Ann", "Bob", "Cy", "Di", "Ed"]).startswith("Ann, Bob, Ed win (")


def test_r163_an_eliminated_ally_does_not_share_the_win():
    rig = {"deck": ["Mason"], "hands": {"0": ["Temple", "Library", "Library", "Laboratory"], "4": FOUR_REVEALED}}
    t = alliances(rig=rig)
    t.declare(0, "recruit")
    assert t.state.players[4].eliminated
    assert t.of("GameEnded")[-1].winners == [0, 1]


def test_a51_when_the_remaining_players_are_all_allies_they_share_the_victory_at_once():
    hands = {"2": [*FOUR_REVEALED[:3], {"name": "Library", "revealed": True}], "3": FOUR_REVEALED, "4": FOUR_REVEALED}
    rig = {"deck": ["Mason"], "hands": hands}
    t = alliances(rig=rig)
    t.declare(0, "recruit")  # seats 2, 3 and 4 are eliminated in seat 0's Demise Phase
    end = t.of("GameEnded")[-1]
    assert (end.result, end.winners) == ("win", [0, 1])
    assert "A51" in end.reason


def test_a51_remaining_players_who_are_not_all_allies_play_on_and_r11_still_holds():
    hands = {"1": FOUR_REVEALED, "3": FOUR_REVEALED, "4": [*FOUR_REVEALED[:3], {"name": "Library", "revealed": True}]}
    t = alliances(rig={"deck": ["Mason", "Temple"], "hands": hands})
    t.declare(0, "recruit")
    assert t.state.status == "active" and t.state.remaining() == [0, 2] and t.state.play.current == 2


def test_r138_r172_artificers_gifts_go_to_opponents_so_never_to_an_ally():
    from aegis.domain.everaegis.artificers import receivers

    t = Table(5, variants="classic+artificers+alliances", options={"plain_unknown": 1}, selection="simpleton")
    first = t.state.play.first_player
    assert t.kinds(first) == ["artificer_gift"]
    assert receivers(t.state, 0) == [2, 3]
    assert {c["to"] for c in t.legal(first)} == {(first + 2) % 5, (first + 3) % 5}


def test_r138_an_estate_that_hits_each_opponent_leaves_allies_out():
    """The test catalog's stub Orchard ("each opponent reveals 1 card", tests/domain/test_card_effects.py)."""
    from tests.domain.test_card_effects import stub_catalog

    hands = {"0": ["Orchard"], **{str(s): ["Temple"] for s in range(1, 5)}}
    t = Table(
        5,
        variants="classic+alliances",
        rig={"deck": ["Mason", "Barracks"], "hands": hands},
        options={"plain_unknown": 1},
        selection="simpleton",
        catalog=stub_catalog(),
    )
    shown = [e.seat for e in t.reveal_now(0, "Orchard") if e.TYPE == "CardRevealed" and e.seat != 0]
    assert shown == [2, 3]


# ----- Blasphemy (R171, R90, A48) -----


def test_r171_the_blasphemy_card_is_the_first_building_from_the_top_of_the_deck_public_and_counted():
    t = blasphemy(rig={"deck": ["Treasury", "Mason", "Temple"]})
    event = t.of("BlasphemyCardSet")[0]
    assert (event.name, event.bottom) == ("Treasury", [])
    assert t.unrevealed(0) == ["Mason"]  # the first draw comes after it
    view = t.view(1)["blasphemy"]
    assert view["card"]["name"] == "Treasury" and view["action"] == "treasury"
    assert view["tokens"] == [0, 0, 0] and view["to_win"] == 3
    assert t.state.card_count() == 30 and len(t.state.all_card_ids()) == 30


def test_r171_estate_cards_revealed_on_top_go_to_the_bottom_in_order_known_to_all():
    t = Table(
        4,
        variants="classic+blasphemy",
        rig={"deck": ["Harbor", "Orchard", "Treasury", "Mason"]},
        options={"plain_unknown": 1},
        selection="simpleton",
    )
    event = t.of("BlasphemyCardSet")[0]
    assert event.name == "Treasury" and [c["name"] for c in event.bottom] == ["Harbor", "Orchard"]
    assert [c.name for c in t.state.deck] == ["Harbor", "Orchard"]  # seat 0 drew the Mason
    assert all(c.public for c in t.state.deck)
    assert t.state.card_count() == 53
    assert [c["name"] for c in t.view(2)["deck"]["known_top"]] == ["Harbor", "Orchard"]


def test_a48_a_blasphemy_action_called_and_proven_true_still_gains_the_token():
    t = blasphemy(rig={"deck": ["Treasury", "Mason"], "hands": {"0": ["Treasury"]}})
    t.declare(0, "treasury")
    t.react(1, "call")
    t.react(2, "pass")
    t.play({"type": "reveal", "seat": 0, "card": t.card(0, "Treasury")})
    gained = t.of("BlasphemyTokenGained")
    assert [(e.seat, e.action, e.total) for e in gained] == [(0, "treasury", 1)]
    assert t.state.variant.tokens == [1, 0, 0]


def test_a48_called_and_proven_false_gains_nothing():
    t = blasphemy(rig={"deck": ["Treasury", "Mason"], "hands": {"0": ["Temple"]}})
    t.declare(0, "treasury")
    t.react(1, "call")
    t.react(2, "pass")
    t.play({"type": "reveal", "seat": 0, "card": t.card(0, "Temple")})
    assert t.of("ActionThwarted") and not t.of("BlasphemyTokenGained")
    assert t.state.variant.tokens == [0, 0, 0]


def test_a48_r104_a_use_thwarted_by_the_bird_gains_nothing():
    rig = {"deck": ["Treasury", "Barracks", "Mason"], "hands": {"0": ["Treasury"]}, "items": {"2": ["BIRD"]}}
    kw = {"variants": "classic+blasphemy", "options": {"plain_unknown": 1}, "selection": "simpleton"}
    t = Table(4, rig=rig, **kw)
    t.declare(0, "treasury")
    t.react(1, "pass")
    t.play(next(o.command for p in t.prompts(2) for o in p.options if o.command["answer"] == "use"))
    t.react(3, "pass")
    assert t.of("ActionThwarted")[-1].reason.startswith("BIRD") and t.state.variant.tokens == [0, 0, 0, 0]
    free = Table(4, rig=rig, **kw)  # the same use, not thwarted: a token
    free.declare(0, "treasury")
    free.pass_all()
    assert free.state.variant.tokens == [1, 0, 0, 0]


def test_a48_a_sanctioned_slot_runs_the_sanction_not_the_blasphemy_action():
    t = blasphemy(rig={"deck": ["Treasury", "Mason"], "hands": {"0": ["Temple"]}, "sanctions": {"0": ["treasury"]}})
    t.declare(0, "treasury")
    t.play({"type": "discard", "seat": 0, "card": t.card(0, "Temple")})
    assert not t.of("BlasphemyTokenGained") and t.state.variant.tokens == [0, 0, 0]


def test_a48_r66_a_guarded_use_still_earns_the_token():
    rig = {"deck": ["Barracks", "Mason"], "hands": {"0": ["Barracks"], "1": ["Temple"], "2": ["Temple"]}, "wall": 1}
    t = blasphemy(rig=rig)
    t.declare(0, "barracks")
    t.react(1, "guard", "wall")
    t.react(2, "pass")
    assert [e.seat for e in t.of("CardDiscarded")] == [2]  # the guard shields seat 1 only (R66)
    assert t.state.variant.tokens == [1, 0, 0]


def test_r171_three_tokens_win_in_the_conquest_phase_of_their_holder():
    t = blasphemy(rig={"deck": ["Treasury", *LONG_DECK]})
    for round_ in range(3):
        t.declare(0, "treasury")
        t.pass_all()
        if round_ < 2:
            assert t.state.status == "active" and t.state.variant.tokens[0] == round_ + 1
            play_recruits(t, 2)
    end = t.of("GameEnded")[-1]
    assert (end.result, end.winners) == ("win", [0])
    assert "R171" in end.reason and "Blasphemy" in end.reason


def _war_for_the_third_token(answer: str) -> Table:
    """Seat 0 (1 token) attacks seat 1 (2 tokens, far more soldiers) and loses."""
    t = blasphemy(rig={"deck": ["Treasury", *LONG_DECK], "soldiers": {"1": 20}})
    t.declare(0, "treasury")
    t.pass_all()
    t.declare(1, "treasury")
    t.pass_all()
    play_recruits(t, 2)  # seats 2 and 0
    t.declare(1, "treasury")
    t.pass_all()
    play_recruits(t, 1)  # seat 2
    assert t.state.variant.tokens == [1, 2, 0]
    t.declare(0, "war", target=1)
    assert t.kinds(1) == ["spoils"]
    assert {o.command["answer"] for p in t.prompts(1) for o in p.options} == {"take", "leave"}
    t.play({"type": "spoils", "seat": 1, "answer": answer})
    reveal = next(p for p in t.prompts(0) if p.kind == "war_reveal")
    t.play(reveal.options[0].first())
    return t


def test_r90_r171_the_war_winner_may_take_a_token_and_3_outside_their_conquest_phase_do_not_win():
    t = _war_for_the_third_token("take")
    assert t.state.variant.tokens == [0, 3, 0]
    assert t.of("BlasphemyTokenTaken")[0].from_seat == 0
    assert t.state.status == "active" and t.state.play.current == 1  # seat 0's Conquest Phase: nobody won
    t.declare(1, "recruit")
    end = t.of("GameEnded")[-1]
    assert end.winners == [1] and "R171" in end.reason


def test_r90_the_war_winner_may_leave_the_tokens():
    t = _war_for_the_third_token("leave")
    assert t.state.variant.tokens == [1, 2, 0]
    assert t.of("BlasphemySpoilsDeclined")[0].seat == 1


def test_r90_a_loser_without_tokens_offers_nothing():
    t = blasphemy(rig={"deck": ["Treasury", *LONG_DECK], "soldiers": {"0": 9}})
    t.declare(0, "war", target=1)
    assert not t.of("BlasphemySpoilsOffered") and t.of("WarEnded")


def test_r176_r90_a_mob_that_wins_a_war_takes_a_token_on_an_agreement():
    """Solo: seat 0 (a person) gains a token, the mob at seat 1 rolls Treasury (6), then defends and wins a tied
    war; taking a token is a yes-or-no choice, so the mob's D8 decides (1: yes)."""
    rig = {"deck": ["Treasury", *LONG_DECK], "hands": {"0": ["Treasury"]}, "dice": [6, 1, 1]}
    t = Table(3, variants="simpleton+solo+blasphemy", rig=rig)
    t.declare(0, "treasury")
    t.pass_all()
    assert t.state.variant.tokens == [1, 1, 0]  # a mob's use of the action earns a token too
    t.declare(0, "war", target=1)
    roll = t.of("DieRolled")[-1]
    assert (roll.seat, roll.purpose, roll.total) == (1, "agreement", 1)
    assert t.state.variant.tokens == [0, 2, 0] and t.of("BlasphemyTokenTaken")[0].seat == 1


# ----- Overlord (R170, A47) -----


def test_r170_by_default_the_overlord_is_the_seat_before_the_first_player_and_goes_last():
    t = overlord(rig={"deck": LONG_DECK})
    chosen = t.of("OverlordChosen")[0]
    assert chosen.seat == 3 and "R170" in chosen.method
    v = t.view(0)["overlord"]
    assert v["seat"] == 3 and v["team"] == [0, 1, 2] and v["turns_due"] == 3


def test_r170_the_option_overlord_seat_names_it_and_the_first_player_follows_it():
    t = overlord(options={"overlord_seat": 1})
    assert t.of("OverlordChosen")[0].seat == 1
    first = t.of("FirstPlayerChosen")[0]
    assert first.seat == 2 and "R170" in first.method
    with pytest.raises(MalformedCommand) as err:
        overlord(options={"overlord_seat": 1}, rig={"deck": ["Mason"], "first_player": 0})
    assert err.value.rule == "R170"


def test_r170_the_overlord_takes_as_many_turns_in_a_row_as_it_has_remaining_opponents():
    t = overlord(rig={"deck": LONG_DECK})
    play_recruits(t, 7)
    assert turn_seats(t) == [0, 1, 2, 3, 3, 3, 0, 1]


def test_r170_after_an_elimination_the_overlord_takes_one_turn_fewer_and_cannot_be_eliminated():
    t = overlord(rig={"deck": LONG_DECK, "hands": {"1": FOUR_REVEALED, "3": FOUR_REVEALED}})
    play_recruits(t, 4)  # seat 1 goes in seat 0's Demise Phase; the Overlord keeps its 4 revealed cards
    assert t.state.players[1].eliminated and not t.state.players[3].eliminated
    assert turn_seats(t) == [0, 2, 3, 3, 0]
    assert t.view(2)["overlord"]["turns_due"] == 2


def test_r170_nobody_wins_with_unrevealed_cards_in_the_conquest_phase():
    t = overlord(rig={"deck": LONG_DECK, "hands": {"0": ["Temple", "Temple", "Treasury", "Treasury", "Library"]}})
    t.declare(0, "recruit")
    assert len(t.unrevealed(0)) == 6 and t.state.status == "active" and t.state.play.current == 1


def _out_of_cards(counts: dict[int, int], revealed: dict[int, int] | None = None, seats: int = 3) -> Table:
    """Every card placed: 1 in the deck and the rest in hands, so the first draw empties everything."""
    rest = list(ALL_CARDS)
    rest.remove("Mason")
    return overlord(seats, rig={"deck": ["Mason"], "hands": hands_from(counts, revealed, rest)})


def test_r170_a47_when_the_deck_and_years_are_out_the_team_with_more_unrevealed_cards_wins():
    t = _out_of_cards({0: 9, 1: 10, 2: 10}, revealed={1: 3})
    scored = t.of("OverlordScored")[0]
    assert (scored.overlord, scored.overlord_total, scored.team, scored.team_total) == (2, 10, [0, 1], 17)
    end = t.of("GameEnded")[-1]
    assert (end.result, end.winners) == ("win", [0, 1]) and "R170" in end.reason
    assert t.of("CardDrawn")[-1].seat == 0 and not t.of("PhaseBegan", t.events[-3:])


def test_r170_the_overlord_wins_with_more_unrevealed_cards_than_the_whole_team():
    t = _out_of_cards({0: 5, 1: 5, 2: 19})
    end = t.of("GameEnded")[-1]
    assert (end.result, end.winners) == ("win", [2])
    assert (t.of("OverlordScored")[0].team_total, t.of("OverlordScored")[0].overlord_total) == (11, 19)


def test_a47_equal_totals_are_a_draw():
    t = _out_of_cards({0: 7, 1: 7, 2: 15})
    end = t.of("GameEnded")[-1]
    assert (end.result, end.winners) == ("draw", []) and "A47" in end.reason


def test_a47_an_eliminated_team_member_adds_nothing_and_does_not_win():
    rest = list(ALL_CARDS)
    for name in ("Mason", "Temple", "Temple", "Mason", "Barracks", "Treasury"):
        rest.remove(name)
    hands = hands_from({0: 8, 2: 8, 3: 8}, rest=rest)
    hands["1"] = FOUR_REVEALED
    t = overlord(4, rig={"deck": ["Mason", "Temple"], "hands": hands})
    t.declare(0, "recruit")  # seat 1 is eliminated; seat 2 then draws the last card
    assert t.state.players[1].eliminated
    scored = t.of("OverlordScored")[0]
    assert (scored.team_total, scored.overlord_total) == (18, 8)
    assert t.of("GameEnded")[-1].winners == [0, 2]


def test_r158_r170_under_rubble_rouser_the_rubble_refills_the_deck_before_the_overlord_game_ends():
    rest = list(ALL_CARDS)
    for name in ("Mason", "Temple", "Barracks"):
        rest.remove(name)
    hands = hands_from({0: 8, 1: 9, 2: 10}, rest=rest)
    hands["0"].append({"name": "Barracks", "revealed": False})
    t = Table(3, variants="simpleton+overlord", rig={"deck": ["Mason", "Temple"], "hands": hands}, options={"rubble_rouser": 1})
    t.declare(0, "barracks")
    t.pass_all()
    for seat in (1, 2):  # each opponent discards 1 unrevealed card onto the rubble
        t.play(next(p for p in t.prompts(seat) if p.kind == "barracks_discard").options[0].first())
    assert len(t.state.rubble) == 2 and t.state.play.current == 1  # seat 1 drew the last card of the deck
    assert not t.state.deck and not t.state.years and t.state.status == "active"
    t.declare(1, "recruit")  # the Overlord's draw: the rubble is shuffled to form the deck
    assert t.of("RubbleShuffled") and t.state.status == "active" and t.state.play.current == 2
    play_recruits(t, 1)  # the Overlord's second turn draws the rubble's last card: now everything is out
    assert t.of("OverlordScored") and t.state.status == "finished"


def test_r11_the_overlord_still_wins_as_the_last_player_remaining():
    t = overlord(3, rig={"deck": LONG_DECK, "hands": {"0": FOUR_REVEALED, "1": FOUR_REVEALED}})
    t.declare(0, "recruit")
    end = t.of("GameEnded")[-1]
    assert (end.result, end.winners) == ("win", [2]) and "R11" in end.reason


def test_r170_a_team_members_other_win_is_the_teams():
    t = Table(4, variants="simpleton+overlord+blasphemy", rig={"deck": LONG_DECK})
    assert winners(t.state, [1]) == [0, 1, 2]
    assert winners(t.state, [3]) == [3]


# ----- property tests: random legal games of each variant -----

CASES = [  # (variants, fewest seats)
    ("simpleton+alliances", 5),
    ("simpleton+alliances+blasphemy+quick", 5),
    ("simpleton+alliances+long", 5),
    ("simpleton+alliances+plague", 5),
    ("simpleton+alliances+survival", 5),
    ("simpleton+blasphemy", 3),
    ("simpleton+blasphemy+survival", 3),
    ("simpleton+blasphemy+long+plague", 3),
    ("simpleton+overlord", 3),
    ("simpleton+overlord+quick", 3),
    ("simpleton+overlord+long+blasphemy", 3),
    ("simpleton+overlord+plague", 3),
    ("classic+alliances+blasphemy", 5),
    ("classic+overlord", 3),
    ("classic+artificers+alliances", 5),
    ("simpleton+solo+blasphemy", 3),
    ("simpleton+solo+alliances", 5),
    ("simpleton+solo+overlord", 3),
]


def variant_config(seats: int, variants: str):
    classic = variants.startswith("classic")
    return make_config(
        seats=seats,
        variants=variants,
        reaction_seconds=0,
        options={"plain_unknown": 1} if classic else None,
        selection="simpleton" if classic else None,
    )


def check_variant_state(s: GameState, gained: int) -> None:
    var = s.variant
    assert all(n >= 0 for n in var.tokens) and sum(var.tokens) <= gained  # taking moves a token, never makes one
    if var.overlord is not None:
        assert not s.players[var.overlord].eliminated  # R170
    for seat, allies in var.allies.items():
        assert len(allies) == 2 and all(seat in var.allies[a] for a in allies)
    if s.status == "finished":
        assert all(not s.players[w].eliminated for w in s.outcome.winners)  # R163 "unless you are eliminated"


def play_variant(seats: int, variants: str, seed: int, check_views_every: int = 4) -> GameState:
    """``test_properties.play_checked`` with the variants' own invariants after every event."""
    gained = 0  # tokens made so far (mobs may play whole turns before anyone is asked anything)

    def after(state: GameState, e: Event) -> None:
        nonlocal gained
        gained += e.TYPE == "BlasphemyTokenGained"
        if state.stage != "setup":
            check_variant_state(state, gained)

    config = variant_config(seats, variants)
    return play_checked(seats, variants, seed, check_views_every, config=config, after_event=after)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=st.sampled_from(CASES), extra=st.integers(0, 5), seed=st.integers(0, 10**9))
def test_random_games_of_each_variant_conserve_cards_keep_counts_and_end_or_stay_playable(case, extra, seed):
    variants, fewest = case
    state = play_variant(min(fewest + extra, 10), variants, seed)
    assert state.status == "finished" or state.play.turn > MAX_TURNS
    check_views(state)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=st.sampled_from(CASES), seed=st.integers(0, 10**9))
def test_every_option_offered_in_these_variants_is_accepted_and_a_mangled_one_refused(case, seed):
    variants, fewest = case
    check_offered_options(variant_config(fewest + 1, variants), seed)


@pytest.mark.parametrize(("variants", "fewest"), [c for c in CASES if not c[0].startswith("classic")])
def test_games_of_each_variant_end_at_3_5_and_8_seats(variants, fewest):
    for seats in (3, 5, 8):
        if seats < fewest:
            continue
        for seed in range(2):
            state = play_variant(seats, variants, seed, check_views_every=50)
            assert state.status == "finished", (variants, seats, seed, state.play.turn)
