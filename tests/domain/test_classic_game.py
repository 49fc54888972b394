"""The Classic game: estate cards in the years and the estate deck, leader selection, plain components.

Rules: R13-R22, R35, R42, R46, R50-R51; A19, A29, A45, A53, A54 (docs/rulings.md, "The Classic game").
"""

from __future__ import annotations

import pytest

from aegis.domain.everaegis.catalog import BUILDINGS
from aegis.domain.everaegis.config import make_config
from aegis.domain.everaegis.evolve import fold
from aegis.domain.everaegis.redaction import SPECTATOR
from aegis.domain.everaegis.simulation import play_game
from aegis.domain.kernel.errors import IllegalCommand, MalformedCommand
from tests.helpers import Table

PLAIN = {"plain_unknown": 1}


def classic(seats: int = 4, selection: str = "simpleton", seed: str = "classic", **options: int) -> Table:
    return Table(seats, variants="classic", seed=seed, options={**PLAIN, **options}, selection=selection)


def test_r13_r16_years_hold_2_estate_cards_each_and_13_stay_in_the_estate_deck():
    t = classic()
    s = t.state
    assert s.card_count() == 53  # 30 buildings + 23 estate cards
    assert len(s.classic.estate_deck) == 13 and all(c.name not in BUILDINGS for c in s.classic.estate_deck)
    in_play = s.deck + [c for p in s.players for c in p.cards]  # the first player has drawn already
    assert len(in_play) == 16 and [len(cards) for _, cards in s.years] == [8, 8, 8]
    for _, cards in s.years:
        assert sum(c.name not in BUILDINGS for c in cards) == 2
    estates = {c.name for c in in_play if c.name not in BUILDINGS}
    assert len(estates) == 4
    names = {c.name for c in s.classic.estate_deck} | estates | {c.name for _, cards in s.years for c in cards}
    assert len(names) == 23 + 6


def test_a53_a_year_shows_how_many_estate_cards_it_holds_never_which():
    t = classic()
    for seat in (0, SPECTATOR):
        v = t.view(seat)
        for year in v["years"]:
            assert year["composition"] == {b: 1 for b in BUILDINGS} | {"estate cards": 2}
        assert v["estate_deck"] == {"size": 13}
        assert "cards" not in v["deck"]
    formed = t.of("YearsFormed")[0].to_dict()
    assert all(y["composition"]["estate cards"] == 2 for y in formed["years"])
    from aegis.domain.everaegis.redaction import redact

    assert "cards" not in redact(t.state, t.of("EstateDeckFormed")[0].to_dict(), 0)


def test_a54_classic_needs_plain_unknown_with_the_shipped_catalog():
    with pytest.raises(MalformedCommand) as err:
        from aegis.domain.everaegis.decide import start

        start(make_config(seats=4, variants="classic", selection="simpleton"), "x")
    assert err.value.rule == "A54" and "plain_unknown=1" in err.value.message


def test_r19_a44_limited_selection_needs_enough_mats_for_everyone():
    """30 mats: 10 players with 3 each is the most (A44); 8 players with 4 each is refused."""
    with pytest.raises(MalformedCommand) as err:
        classic(8, "limited", limited_mats=4)
    assert err.value.rule == "R19-R21" and "needs 32 leader mats" in err.value.message
    assert classic(10, "limited").state.stage == "leaders"
    with pytest.raises(MalformedCommand) as err:
        Table(4, variants="classic", selection="limited", options={"limited_mats": 2})  # without plain_unknown
    assert "needs 8 leader mats" in err.value.message or err.value.rule == "A54"


def test_a54_estate_cards_are_marked_plain_in_every_view():
    t = classic()
    seat = t.state.play.current
    assert seat is not None
    # play until the current player holds an estate card it can see
    for _ in range(400):
        estates = [c for p in t.state.players for c in p.cards if c.name not in BUILDINGS]
        if estates:
            break
        t.play(t.options(t.waiting()[0].seat)[0].command)
    owner = next(p for p in t.state.players if any(c.name not in BUILDINGS for c in p.cards))
    card = next(c for c in owner.cards if c.name not in BUILDINGS)
    mine = next(c for c in t.view(owner.seat)["players"][owner.seat]["cards"] if c["id"] == card.id)
    recorded = t.state.estate(card.name)
    assert recorded is not None
    played = card.name in PARTIAL  # an estate the book prints a sentence of plays that sentence, no more
    assert mine["estate"] == {"type": recorded["type"], "text_known": recorded["text_known"], "plain": not played}
    theirs = next(c for c in t.view(SPECTATOR)["players"][owner.seat]["cards"] if c["id"] == card.id)
    assert card.revealed or ("name" not in theirs and "estate" not in theirs)
    components = t.view(SPECTATOR)["components"]
    assert components["partial_estates"] == sorted(PARTIAL) and len(components["plain_estates"]) == 23 - len(PARTIAL)


PARTIAL = ("Ballista", "Chapel", "Pyramid", "Tailor")  # the estate cards with a printed sentence the engine plays


def test_r35_a29_with_no_year_left_the_top_8_estate_cards_become_the_deck():
    game = None
    for i in range(100):  # random long games until one empties every year (e44 does, with today's random bot)
        game = play_game(seats=5, variants="classic+long", seed=f"e{i}", bots=["random"], options=PLAIN, selection="freeform")
        if any(e.TYPE == "EstatesMadeDeck" for e in game.events):
            break
    assert game is not None
    types = [e.TYPE for e in game.events]
    at = types.index("EstatesMadeDeck")
    config = make_config(seats=5, variants="classic+long", options=PLAIN, selection="freeform", reaction_seconds=0)
    before = fold(config, game.events[:at])
    after = fold(config, game.events[: at + 1])
    assert before.deck == [] and before.years == [] and len(before.classic.estate_deck) >= 1
    size = min(8, len(before.classic.estate_deck))
    assert game.events[at].size == size
    assert after.deck == before.classic.estate_deck[:size] and after.classic.estate_deck == before.classic.estate_deck[size:]


def test_r42_an_estate_card_never_proves_a_building_claim():
    """Over random Classic games: every proven claim showed a building of the claimed name, and some calls
    were answered with an estate card, which exposed the bluff."""
    exposed_by_estate = proven = 0
    for i in range(12):
        game = play_game(seats=4, variants="classic", seed=f"r42-{i}", bots=["random"], options=PLAIN)
        config = make_config(seats=4, variants="classic", options=PLAIN, reaction_seconds=0)
        for n, e in enumerate(game.events):
            if e.TYPE == "ClaimProven":
                state = fold(config, game.events[: n + 1])
                card = state.players[e.seat].card(e.card)
                assert card is not None and card.name == e.claim and card.name in BUILDINGS
                proven += 1
            elif e.TYPE == "BluffExposed" and e.name is not None and e.name not in BUILDINGS:
                exposed_by_estate += 1
    assert proven > 0 and exposed_by_estate > 0


def test_r19_limited_selection_mats_are_private_until_every_player_keeps_one():
    t = classic(3, "limited", seed="limited")
    s = t.state
    assert s.stage == "leaders" and all(len(p.mats) == 3 for p in s.players)
    dealt = [m for p in s.players for m in p.mats]
    assert len(set(dealt)) == 9
    assert t.view(0)["players"][0]["mats"] == s.players[0].mats
    assert "mats" not in t.view(1)["players"][0] and "mats" not in t.view(SPECTATOR)["players"][0]
    assert {n.seat for n in t.waiting()} == {0, 1, 2}
    with pytest.raises(IllegalCommand):
        t.play({"type": "choose_leader", "seat": 0, "mat": s.players[1].mats[0]})
    keep = s.players[0].mats[1]
    t.play({"type": "choose_leader", "seat": 0, "mat": keep})
    assert t.view(0)["players"][0]["kept"] == keep and "kept" not in t.view(1)["players"][0]
    assert t.view(1)["players"][0]["leader"] is None
    kept_event = t.of("LeaderKept")[0].to_dict()
    from aegis.domain.everaegis.redaction import redact

    assert "mat" not in redact(t.state, kept_event, 1) and redact(t.state, kept_event, 0)["mat"] == keep
    for seat in (1, 2):
        t.play({"type": "choose_leader", "seat": seat, "mat": t.state.players[seat].mats[0]})
    s = t.state
    assert s.players[0].leader == keep and all(p.leader for p in s.players)
    assert all(t.view(SPECTATOR)["players"][i]["leader"] == s.players[i].leader for i in range(3))
    assert all(t.view(SPECTATOR)["players"][i]["leader_plain"] for i in range(3))
    assert s.stage == "turn" and all(p.soldiers == 3 for p in s.players)


def test_r20_a45_drafting_passes_the_rest_to_a_player_without_a_leader():
    t = classic(4, "drafting", seed="draft")
    s = t.state
    first = s.play.first_player
    assert first is not None and len(s.players[first].mats) == 6  # players + 2
    assert [n.seat for n in t.waiting()] == [first]
    opts = t.options(first)
    to = (first + 2) % 4
    mat = s.players[first].mats[0]
    t.play({"type": "choose_leader", "seat": first, "mat": mat, "pass_to": to})
    s = t.state
    assert s.players[first].leader == mat and len(s.players[to].mats) == 5
    passed = t.of("LeaderChosen")[-1].to_dict()
    from aegis.domain.everaegis.redaction import redact

    other = next(i for i in range(4) if i not in (first, to))
    assert "passed" not in redact(s, passed, other) and redact(s, passed, to)["passed"] == s.players[to].mats
    assert all("pass_to" in o.command for o in opts)
    while t.state.stage == "leaders":
        seat = t.waiting()[0].seat
        t.play(t.options(seat)[0].command)
    s = t.state
    assert len({p.leader for p in s.players}) == 4
    last = t.of("LeaderChosen")[-1]
    assert last.passed_to is None and len(last.passed) == 2  # back in the box


def test_r21_freeform_picks_in_turn_order_and_a_mat_is_picked_once():
    t = classic(3, "freeform", seed="free")
    first = t.state.play.first_player
    assert first is not None and [n.seat for n in t.waiting()] == [first]
    mat = "Lady Irina"
    t.play({"type": "choose_leader", "seat": first, "mat": mat})
    second = (first + 1) % 3
    assert [n.seat for n in t.waiting()] == [second]
    with pytest.raises(IllegalCommand):
        t.play({"type": "choose_leader", "seat": second, "mat": mat})
    assert mat not in [o.command["mat"] for o in t.options(second)]


def test_r50_r51_a54_a_plain_leaders_laboratory_has_no_effect_but_is_still_a_claim():
    t = classic(3, "freeform", seed="plainlab")
    while t.state.stage == "leaders":
        t.play(next(o for o in t.options(t.waiting()[0].seat) if "plain" in o.label).command)
    seat = t.state.play.current
    assert seat is not None
    labs = [o for o in t.options(seat) if o.command.get("action") == "laboratory"]
    assert len(labs) == 1 and "no effect" in labs[0].label
    cards = len(t.state.players[seat].cards)
    t.play(labs[0].command)
    assert t.state.calls.window is not None and t.state.calls.window.claim == "Laboratory"
    assert all(a.get("means") is None for a in [])  # nobody is affected: the window only offers calls
    for asked in t.state.calls.window.asked:
        assert {o.command["answer"] for o in t.options(asked)} <= {"pass", "call"}
    t.pass_all()
    done = t.of("ActionCompleted")[-1]
    assert "no effect" in done.outcome and len(t.state.players[seat].cards) == cards


@pytest.mark.parametrize("selection", ["simpleton", "limited", "drafting", "freeform"])
def test_classic_games_play_to_the_end_and_conserve_53_cards(selection):
    for i in range(3):
        game = play_game(seats=4, variants="classic", seed=f"end{i}", bots=["random"], options=PLAIN, selection=selection)
        assert game.finished
        config = make_config(seats=4, variants="classic", options=PLAIN, selection=selection, reaction_seconds=0)
        state = fold(config, game.events)
        assert state.card_count() == 53 and len(state.all_card_ids()) == 53
