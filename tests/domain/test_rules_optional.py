"""The optional rules Rubble Rouser (R158), Vengeance (R159) and Discovery (R160), each a game option
(docs/rulings.md): alone, together, with Undo and with the variants."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from aegis.domain.everaegis.config import OPTIONS
from aegis.domain.everaegis.redaction import SPECTATOR, redact
from aegis.domain.kernel.errors import IllegalCommand, MalformedCommand, NotYourTurn
from tests.domain.test_properties import VARIANTS, check_views, play_checked
from tests.helpers import Table

RUBBLE = {"rubble_rouser": 1}
VENGEANCE = {"vengeance": 1}
DISCOVERY = {"discovery": 1}
ALL_THREE = {**RUBBLE, **VENGEANCE, **DISCOVERY}
FOUR_REVEALED = [{"name": n, "revealed": True} for n in ("Temple", "Mason", "Barracks", "Library")]
T0 = 1000.0


def test_r158_r159_r160_are_options_off_by_default():
    for name, rule in (("rubble_rouser", "R158"), ("vengeance", "R159"), ("discovery", "R160")):
        assert (OPTIONS[name].ruling, OPTIONS[name].default, OPTIONS[name].low, OPTIONS[name].high) == (rule, 0, 0, 1)
    with pytest.raises(MalformedCommand) as err:
        Table(3, options={"vengeance": 2})
    assert err.value.rule == "R159"


# ----- Rubble Rouser (R158) -----


def _barracks_into_rubble(options: dict[str, int]) -> Table:
    """Seat 0 draws the only deck card and plays Barracks; seat 1 discards its Library."""
    t = Table(4, rig={"deck": ["Mason"], "hands": {"1": ["Library"]}}, options=options)
    t.declare(0, "barracks")
    t.pass_all()
    return t


def test_r158_a_discarded_card_goes_face_up_to_the_rubble_every_view_shows():
    t = Table(4, rig={"deck": ["Mason", "Temple", "Laboratory"], "hands": {"1": ["Library", "Treasury"]}}, options=RUBBLE)
    old = t.card(1, "Library")
    t.declare(0, "barracks")
    t.pass_all()
    t.play({"type": "discard", "seat": 1, "card": old})
    assert not t.of("CardDiscarded")
    moved = t.of("CardToRubble")[-1]
    assert (moved.seat, moved.card, moved.name, moved.was_revealed, moved.reason) == (1, old, "Library", False, "barracks")
    assert [c.name for c in t.state.rubble] == ["Library"] and t.state.card_count() == 30
    for who in (0, 1, 2, 3, SPECTATOR):
        assert t.view(who)["rubble"] == [{"id": old, "name": "Library"}]
        assert redact(t.state, moved.to_dict(), who)["name"] == "Library"  # discarded face up: public
    assert [c.name for c in t.state.deck] == ["Laboratory"]  # the deck did not take it (seat 1 drew the Temple)


def test_r96_without_the_option_a_discard_is_shuffled_into_the_deck_and_no_rubble_is_shown():
    t = _barracks_into_rubble({})
    assert t.of("CardDiscarded") and not t.of("CardToRubble")
    assert "rubble" not in t.view(2) and t.state.rubble == []


def test_r158_the_empty_deck_takes_the_rubble_before_any_year():
    t = _barracks_into_rubble(RUBBLE)
    old = t.of("CardToRubble")[-1].card
    # seat 1's Draw Phase: the deck is empty, years remain, the rubble holds the Library
    shuffled = t.of("RubbleShuffled")[-1]
    assert (shuffled.size, shuffled.composition) == (1, {"Library": 1})
    assert not t.of("YearMadeDeck")
    drawn = t.of("CardDrawn")[-1]
    assert (drawn.seat, drawn.name) == (1, "Library") and drawn.seq > shuffled.seq
    assert drawn.card != old  # a new id: the shuffled cards cannot be followed
    assert "cards" not in redact(t.state, shuffled.to_dict(), 2)  # the order is secret
    assert t.state.rubble == [] and t.view(0)["rubble"] == []


def test_r158_r34_a_year_is_used_only_once_the_rubble_is_empty():
    t = _barracks_into_rubble(RUBBLE)
    assert t.of("RubbleShuffled") and t.state.deck == [] and t.state.rubble == []
    t.declare(1, "recruit")
    assert t.kinds(2) == ["choose_year"]  # rubble empty: now the Empty Deck Rule picks a year (R34)
    year = t.legal(2)[0]["year"]
    t.play({"type": "choose_year", "seat": 2, "year": year})
    assert t.of("YearMadeDeck")[-1].year == year


def test_r158_a_sanction_discard_goes_to_the_rubble_too():
    t = Table(4, rig={"deck": ["Mason"], "hands": {"0": ["Temple"]}, "sanctions": {"0": ["recruit"]}}, options=RUBBLE)
    t.declare(0, "recruit")
    t.play({"type": "discard", "seat": 0, "card": t.card(0, "Temple")})
    assert [(e.seat, e.name, e.reason) for e in t.of("CardToRubble")] == [(0, "Temple", "sanction")]
    assert t.of("SanctionRemoved")[-1].seat == 0  # the SANCTION is paid for and returns (R110)


def test_r158_laboratory_put_backs_go_on_the_deck_not_into_the_rubble():
    t = Table(4, rig={"deck": ["Mason", "Temple", "Library"]}, options=RUBBLE)
    t.declare(0, "laboratory")
    t.pass_all()
    t.play({"type": "put_back", "seat": 0, "cards": [t.card(0, "Temple"), t.card(0, "Mason")]})
    assert [e.name for e in t.of("CardPutOnDeck")] == ["Mason", "Temple"]
    assert t.state.rubble == [] and not t.of("CardToRubble")


def test_r158_r156_a_face_up_discard_ends_the_chance_of_an_undo():
    """The rubble reveals the discarded card: like any reveal, it ends the Undo window (R156)."""

    def barracks_timed_out(options: dict[str, int]) -> Table:
        t = Table(3, rig={"deck": ["Mason"], "hands": {"1": ["Library"]}}, reaction_seconds=10, now=T0, options=options)
        t.play({"type": "declare", "seat": 0, "action": "barracks", "at": T0})
        window = t.state.calls.window
        assert window is not None
        t.play({"type": "react", "seat": 1, "window": window.id, "answer": "pass", "at": T0 + 1})
        t.play({"type": "close_window", "window": window.id, "at": T0 + 10})
        return t

    plain = barracks_timed_out({})
    assert plain.of("CardDiscarded") and plain.of("UndoPauseBegan")  # a face-down discard reveals nothing
    rubble = barracks_timed_out(RUBBLE)
    assert rubble.of("CardToRubble") and not rubble.of("UndoPauseBegan") and rubble.state.undo is None


# ----- Vengeance (R159) -----


def _seat2_eliminated(options: dict[str, int], hands: dict | None = None, **rig) -> Table:
    """Seat 2 holds 4 revealed cards: seat 0's Recruit ends in a Demise Phase that eliminates it."""
    rig_hands = {"2": FOUR_REVEALED, **(hands or {})}
    deck = ["Mason", "Temple", "Treasury", "Barracks", "Laboratory", "Mason"]
    t = Table(4, rig={"deck": deck, "hands": rig_hands, **rig}, options=options)
    t.declare(0, "recruit")
    assert t.state.players[2].eliminated and t.state.play.current == 1
    return t


def test_r56_without_vengeance_an_eliminated_player_is_not_asked():
    t = _seat2_eliminated({})
    t.declare(1, "treasury")
    assert t.state.calls.window is not None and t.state.calls.window.asked == [3, 0]
    with pytest.raises(NotYourTurn) as err:
        t.react(2, "call")
    assert err.value.rule == "R123"


def test_r159_an_eliminated_player_is_asked_and_may_call():
    t = _seat2_eliminated(VENGEANCE)
    t.declare(1, "treasury")
    assert t.state.calls.window is not None and t.state.calls.window.asked == [2, 3, 0]  # in turn order from seat 1
    assert {o.command["answer"] for o in t.prompts(2)[0].options} == {"pass", "call"}  # no guard: nothing affects them


def test_r159_an_eliminated_players_right_call_thwarts_the_bluff():
    t = _seat2_eliminated(VENGEANCE)
    t.declare(1, "treasury")  # seat 1 holds only the Temple it drew: a bluff
    t.react(2, "call")
    t.pass_all()
    assert t.of("BluffExposed")[-1].name == "Temple"
    assert t.of("ActionThwarted")[-1].seat == 1 and t.soldiers(1) == 3
    assert t.state.players[2].brigs == 0 and t.state.calls.silenced == []
    t.declare(3, "treasury")
    assert t.state.calls.window is not None and 2 in t.state.calls.window.asked  # still in the game's calls


def test_r159_a_wrong_call_by_an_eliminated_player_gives_a_brig_for_good_and_no_reveal():
    t = _seat2_eliminated(VENGEANCE, hands={"1": ["Treasury"]})
    revealed_before = t.revealed(2)
    t.declare(1, "treasury")
    t.react(2, "call")
    t.pass_all()
    t.play({"type": "reveal", "seat": 1, "card": t.card(1, "Treasury")})  # proven
    gained = t.of("ItemGained")[-1]
    assert (gained.seat, gained.item, gained.source) == (2, "BRIG", "reserve") and "R159" in gained.reason
    assert t.revealed(2) == revealed_before  # all their cards were revealed already: the BRIG is the penalty
    assert t.of("CallSettled")[-1].correct is False and t.state.calls.silenced == [2]
    assert t.soldiers(1) == 8  # the Treasury went ahead
    # next turns: seat 2 is not asked again and its BRIG stays (no turn to skip, A37; not in play for Mason)
    t.declare(3, "treasury")
    assert t.state.calls.window is not None and 2 not in t.state.calls.window.asked
    with pytest.raises(NotYourTurn) as err:
        t.react(2, "call")
    assert err.value.rule == "R159"
    t.pass_all()
    assert all("BRIG@2" not in c.get("discard", []) for c in t.legal(0) if c["action"] == "mason")
    t.declare(0, "recruit")
    t.declare(1, "recruit")
    assert t.state.players[2].brigs == 1 and t.view(0)["players"][2]["items"] == ["BRIG"]


def test_r159_r105_with_no_brig_in_the_reserve_nothing_passes_to_the_eliminated_caller():
    t = _seat2_eliminated({**VENGEANCE, "brig_skips_turn": 0}, hands={"1": ["Treasury"]}, brigs={"0": 2, "3": 2})
    t.declare(1, "treasury")
    assert t.state.calls.window is not None and t.state.calls.window.asked == [2]  # seats 0 and 3 hold BRIGs
    t.react(2, "call")
    t.play({"type": "reveal", "seat": 1, "card": t.card(1, "Treasury")})
    not_gained = t.of("ItemNotGained")[-1]
    assert (not_gained.seat, not_gained.item) == (2, "BRIG") and "R159" in not_gained.reason
    assert t.state.calls.silenced == [2] and t.state.players[2].brigs == 0
    t.declare(3, "treasury")
    assert t.state.calls.window is not None and t.state.calls.window.asked == [1]  # seat 2's calling is over all the same


def test_r159_no_temple_takes_a_card_from_an_eliminated_player():
    t = _seat2_eliminated(VENGEANCE)
    card = t.card(2, "Library")
    assert not [c for c in t.legal(1) if c["action"] == "temple" and c.get("card") == card]
    with pytest.raises(IllegalCommand) as err:
        t.declare(1, "temple", card=card, recipient=3)
    assert err.value.rule == "R159"
    plain = _seat2_eliminated({})  # A32 without Vengeance: it may
    assert [c for c in plain.legal(1) if c["action"] == "temple" and c.get("card") == plain.card(2, "Library")]


def test_r159_no_temple_gives_a_card_to_an_eliminated_player():
    t = _seat2_eliminated(VENGEANCE, hands={"3": [{"name": "Treasury", "revealed": True}]})
    plans = [c for c in t.legal(1) if c["action"] == "temple"]
    assert plans and all(c["recipient"] != 2 for c in plans)


def test_r159_an_eliminated_player_may_call_a_guard_too():
    t = _seat2_eliminated(VENGEANCE, hands={"3": ["Barracks"]})
    t.declare(1, "barracks")
    t.react(3, "guard", "card")
    t.pass_all()
    guard = t.of("ReactionWindowOpened")[-1]
    assert (guard.about, guard.claimant) == ("guard", 3) and 2 in guard.asked


def test_r159_r155_a_timed_out_eliminated_player_may_claim_an_undo():
    rig = {"deck": ["Mason", "Temple"], "hands": {"2": FOUR_REVEALED}}
    t = Table(4, rig=rig, reaction_seconds=10, now=T0, options=VENGEANCE)
    t.play({"type": "declare", "seat": 0, "action": "recruit", "at": T0})
    t.play({"type": "declare", "seat": 1, "action": "treasury", "at": T0 + 1})
    window = t.state.calls.window
    assert window is not None and window.asked == [2, 3, 0]
    for seat in (3, 0):
        t.play({"type": "react", "seat": seat, "window": window.id, "answer": "pass", "at": T0 + 2})
    t.play({"type": "close_window", "window": window.id, "at": T0 + 11})
    assert t.kinds(2) == ["undo"]
    t.play({"type": "undo", "seat": 2, "window": window.id, "answer": "claim", "at": T0 + 12})
    assert t.of("BluffCalled")[-1].caller == 2
    assert t.of("ActionThwarted")[-1].seat == 1  # seat 1 held only the Temple it drew


# ----- Discovery (R160) -----


def test_r160_a_proven_card_carries_a_discovery_token_every_seat_sees():
    t = Table(4, rig={"deck": ["Treasury"], "hands": {"1": ["Library", "Mason"]}}, options=DISCOVERY)
    t.declare(0, "treasury")
    t.react(1, "call")
    t.pass_all()
    unrevealed, token = t.of("CardUnrevealed")[-1], t.of("DiscoveryTokenPlaced")[-1]
    assert (token.seat, token.card, token.name, token.reason) == (0, unrevealed.card, "Treasury", "proof")
    assert token.seq == unrevealed.seq + 1
    for who in (1, 2, 3, SPECTATOR):
        shown = t.view(who)["players"][0]["cards"]
        expected = {"id": token.card, "revealed": False, "name": "Treasury", "known_to_all": True, "discovery": "discovery"}
        assert shown == [expected]
    # seat 1's own cards stay hidden from the others: only the token's card is shown
    assert all("name" not in c for c in t.view(2)["players"][1]["cards"])


def test_r160_without_the_option_there_is_no_token():
    t = Table(4, rig={"deck": ["Treasury"], "hands": {"1": ["Library", "Mason"]}})
    t.declare(0, "treasury")
    t.react(1, "call")
    t.pass_all()
    assert not t.of("DiscoveryTokenPlaced")
    assert all("discovery" not in c for c in t.view(2)["players"][0]["cards"])


def test_r160_e11_a_guard_proven_then_unrevealed_gets_a_token():
    t = Table(4, rig={"deck": ["Mason"], "hands": {"2": ["Barracks", "Temple"]}}, options=DISCOVERY)
    t.declare(0, "barracks")
    t.react(2, "guard", "card")
    t.pass_all()
    t.react(0, "call")
    t.pass_all()
    t.play({"type": "reveal", "seat": 2, "card": t.card(2, "Barracks")})
    token = t.of("DiscoveryTokenPlaced")[-1]
    assert (token.seat, token.name) == (2, "Barracks")
    assert t.state.players[2].card(token.card).discovered
    assert {"name": "Barracks", "discovery": "discovery"}.items() <= next(
        c for c in t.view(SPECTATOR)["players"][2]["cards"] if c["id"] == token.card
    ).items()


def _laboratory_proven(options: dict[str, int]) -> Table:
    """Seat 0 claims the Laboratory and proves it; seat 1 pays; seat 0 draws 2 and must put 2 back."""
    t = Table(4, rig={"deck": ["Mason", "Temple", "Library"], "hands": {"0": ["Laboratory"], "1": ["Treasury"]}}, options=options)
    t.declare(0, "laboratory")
    t.react(1, "call")
    t.pass_all()
    t.play({"type": "reveal", "seat": 0, "card": t.card(0, "Laboratory")})
    return t


def test_r160_the_token_is_removed_when_the_card_goes_on_the_deck():
    t = _laboratory_proven(DISCOVERY)
    lab = t.card(0, "Laboratory")
    assert t.state.players[0].card(lab).discovered and t.kinds(0) == ["put_back"]
    t.play({"type": "put_back", "seat": 0, "cards": [lab, t.card(0, "Temple")]})
    removed = t.of("DiscoveryTokenRemoved")[-1]
    assert (removed.seat, removed.card, removed.reason) == (0, lab, "put on the deck")
    assert removed.seq < t.of("CardPutOnDeck")[-1].seq
    # next, seat 1 draws the Laboratory: no token any more, though everyone saw it go on the deck
    drawn = t.of("CardDrawn")[-1]
    assert (drawn.seat, drawn.card) == (1, lab)
    card = t.state.players[1].card(lab)
    assert not card.discovered and "discovery" not in next(c for c in t.view(2)["players"][1]["cards"] if c["id"] == lab)


def test_r160_r158_a_discovered_card_discarded_to_the_rubble_loses_its_token():
    deck = ["Treasury", "Mason", "Temple", "Laboratory", "Barracks"]
    t = Table(4, rig={"deck": deck, "hands": {"1": ["Library"]}}, options={**DISCOVERY, **RUBBLE})
    t.declare(0, "treasury")
    t.react(1, "call")
    t.pass_all()  # seat 0 shows the Treasury; seat 1 reveals its Library as the incorrect caller
    treasury = t.of("DiscoveryTokenPlaced")[-1].card
    t.declare(1, "recruit")
    t.declare(2, "recruit")
    t.declare(3, "barracks")  # seat 0 holds only the discovered Treasury: it must go
    t.pass_all()
    assert t.of("DiscoveryTokenRemoved")[-1].card == treasury
    first = t.of("CardToRubble")[0]
    assert (first.seat, first.card, first.name) == (0, treasury, "Treasury")
    assert {"id": treasury, "name": "Treasury"} in t.view(2)["rubble"]
    assert not any(c.discovered for c in t.state.rubble)


def test_r160_the_token_stays_while_the_card_is_revealed_again():
    """A discovered card that its possessor later fully reveals (as an incorrect caller) keeps its token."""
    t = Table(4, rig={"deck": ["Treasury", "Mason"], "hands": {"1": ["Library"]}}, options=DISCOVERY)
    t.declare(0, "treasury")
    t.react(1, "call")
    t.pass_all()
    treasury = t.of("DiscoveryTokenPlaced")[-1].card
    t.declare(1, "mason", discard=[])  # true: seat 1 holds the Mason it drew
    t.react(0, "call")
    t.pass_all()  # seat 1 proves the Mason; seat 0's only unrevealed card, the Treasury, pays
    card = t.state.players[0].card(treasury)
    assert card.revealed and card.discovered
    assert len(t.of("DiscoveryTokenPlaced")) == 2  # the Mason got its own; none twice on one card
    assert t.view(3)["players"][0]["cards"][0]["discovery"] == "discovery"


def test_r160_an_estate_effect_that_unreveals_a_card_places_a_tree_token_on_an_estate():
    """Classic (test-stub Tailor, E5): an effect unreveals a revealed estate card; its token is a tree token."""
    from tests.domain.test_card_effects import stub_catalog

    rig = {
        "deck": ["Barracks", "Mason", "Library", "Temple"],
        "hands": {"0": ["Tailor", "Temple"], "3": [{"name": "Catapult", "revealed": True}, "Mason"]},
        "first_player": 0,
    }
    options = {"plain_unknown": 1, **DISCOVERY}
    t = Table(4, variants="classic", rig=rig, options=options, selection="simpleton", catalog=stub_catalog())
    t.reveal_now(0, "Tailor")
    catapult = t.card(3, "Catapult")
    t.play({"type": "effect_choice", "seat": 0, "choice": catapult})
    token = t.of("DiscoveryTokenPlaced")[-1]
    assert (token.seat, token.card, token.name) == (3, catapult, "Catapult") and "Tailor" in token.reason
    for who in (0, 1, 2, SPECTATOR):
        shown = next(c for c in t.view(who)["players"][3]["cards"] if c["id"] == catapult)
        assert (shown["revealed"], shown["name"], shown["discovery"]) == (False, "Catapult", "tree")


# ----- all three together, with the variants: random games keep every invariant -----


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seats=st.integers(3, 10),
    variants=st.sampled_from(VARIANTS),
    options=st.sampled_from([RUBBLE, VENGEANCE, DISCOVERY, ALL_THREE, {**ALL_THREE, "undo": 0, "brig_skips_turn": 0}]),
    seed=st.integers(0, 10**9),
)
def test_r158_r159_r160_random_games_keep_every_invariant(seats, variants, options, seed):
    """Cards conserved with the rubble, counts never negative, views show nothing unknown, games end or go on."""
    state = play_checked(seats, variants, seed, check_views_every=3, options=options)
    assert state.status == "finished" or state.play.turn > 400
    check_views(state)


def test_r158_r159_r160_games_end_for_every_variant_with_all_three():
    for variants in VARIANTS:
        for seats in (3, 5, 8):
            state = play_checked(seats, variants, 1, check_views_every=25, options=ALL_THREE)
            assert state.status == "finished", (variants, seats, state.play.turn)
