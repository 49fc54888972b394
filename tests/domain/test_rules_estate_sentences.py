"""Estate cards whose text the rulebook prints in part play that part, with the shipped catalog (no stubs): the
Ballista, Chapel, Pyramid and Tailor (R92, R93; L380-387, L490-491, L809-813; docs/rulings.md "Card texts").
The rest of each card's text is not printed and waits; a game still needs ``plain_unknown`` to use them."""

from __future__ import annotations

from aegis.domain.everaegis.classic import shipped
from tests.helpers import Table

NAMES = ["Jeff", "Sally", "Fred", "Peter"]


def table(hands: dict[str, list], **rig: object) -> Table:
    base = {"deck": ["Barracks", "Mason", "Laboratory", "Temple"], "hands": hands, "first_player": 0}
    return Table(4, variants="classic", rig={**base, **rig}, options={"plain_unknown": 1}, selection="simpleton", names=NAMES)


def test_the_four_estates_with_a_printed_sentence_have_it_as_their_effect_and_say_where_it_is_printed():
    estates = shipped().estates
    for name in ("Ballista", "Chapel", "Pyramid", "Tailor"):
        assert estates[name]["text_known"] == "partial" and estates[name]["effect"] and "[L" in estates[name]["plays"]


def test_r93_e18_a_revealed_chapel_keeps_every_player_out_of_war():
    """"Fred reveals a Chapel card. Now, players cannot go to war with each other." """
    t = table({"0": ["Temple"], "2": [{"name": "Chapel", "revealed": True}]})
    assert not [o for o in t.options(0) if o.command.get("action") == "war"]
    free = table({"0": ["Temple"], "2": ["Chapel"]})  # unrevealed: no effect
    assert [o for o in free.options(0) if o.command.get("action") == "war"]


def test_r92_e17_a_revealed_pyramid_gives_a_player_the_ankh_the_canopic_jar_or_the_scarab():
    t = table({"0": ["Temple"], "2": ["Pyramid", "Mason"]})
    t.reveal_now(2, "Pyramid")
    assert [n.kind for n in t.waiting()] == ["effect_choice"] and t.waiting()[0].seat == 2
    assert t.prompts(2)[0].text == "Fred: Pyramid: give a player the ANKH or the CANOPIC JAR or the SCARAB: choose the player"
    t.play(next(o for o in t.options(2) if o.label == "Jeff").command)  # Fred picks the player, then the item
    labels = " ".join(o.label for o in t.options(2))
    assert all(item in labels for item in ("ANKH", "CANOPIC JAR", "SCARAB"))
    t.play(next(o for o in t.options(2) if "SCARAB" in o.label).command)
    gained = t.of("ItemGained")[-1]
    assert (gained.seat, gained.item) == (0, "SCARAB") and "Pyramid" in gained.reason


def _give_the_scarab_to_jeff(t: Table, seat: int) -> None:
    t.play(next(o for o in t.options(seat) if o.label == "Jeff").command)
    t.play(next(o for o in t.options(seat) if "SCARAB" in o.label).command)


def test_r92_a30_e17_a_pyramid_turned_face_down_and_revealed_again_without_leaving_play_does_nothing():
    """"Afterward, the Pyramid card has no effect on the game until it is revealed again after leaving play" (L809-810):
    Fred's Tailor turns Fred's revealed Pyramid face down; revealed again, it is still in play, so no item moves."""
    t = table({"0": ["Temple"], "2": ["Pyramid", "Tailor", "Mason"]})
    t.reveal_now(2, "Pyramid")
    _give_the_scarab_to_jeff(t, 2)
    t.reveal_now(2, "Tailor")
    t.play(next(o for o in t.options(2) if "Pyramid" in o.label).command)
    assert "Pyramid" in t.unrevealed(2)
    again = t.reveal_now(2, "Pyramid")
    assert [e.name for e in t.of("CardRevealed", again)] == ["Pyramid"]
    assert not t.of("EffectQueued", again) and "effect_choice" not in [n.kind for n in t.waiting()]
    assert [e.item for e in t.of("ItemGained")] == ["SCARAB"]


def test_r92_a30_a_card_turned_face_down_is_new_to_play_again_once_it_has_left_it():
    """What a card turned face down keeps (it was shown in play) goes when it leaves play: put on the deck, it is
    drawn as any card is (A30); moved to another player by a Temple, it stays in play and keeps it."""
    from aegis.domain.everaegis import events as ev
    from aegis.domain.everaegis.evolve import apply

    t = table({"0": ["Temple"], "2": ["Pyramid", "Tailor", "Mason"]})
    t.reveal_now(2, "Pyramid")
    _give_the_scarab_to_jeff(t, 2)
    t.reveal_now(2, "Tailor")
    t.play(next(o for o in t.options(2) if "Pyramid" in o.label).command)
    pyramid = t.card(2, "Pyramid")
    assert t.state.players[2].card(pyramid).shown
    apply(t.state, ev.CardMoved(seq=len(t.events) + 1, from_seat=2, to_seat=1, card=pyramid, name="Pyramid"))
    assert t.state.players[1].card(pyramid).shown
    apply(t.state, ev.CardPutOnDeck(seq=len(t.events) + 2, seat=1, card=pyramid, name="Pyramid", knowers=[1]))
    assert t.state.deck[0].id == pyramid and not t.state.deck[0].shown


def test_r92_e5_a_revealed_tailor_unreveals_a_revealed_card():
    """"The Tailor is used to unreveal 1 of Keith's 4 revealed cards." """
    t = table({"0": ["Temple"], "1": [{"name": "Barracks", "revealed": True}], "2": ["Tailor", "Mason"]})
    t.reveal_now(2, "Tailor")
    choices = [o for o in t.options(2) if "Barracks" in o.label]
    assert choices, [o.label for o in t.options(2)]
    t.play(choices[0].command)
    assert "Barracks" in t.unrevealed(1)


def test_r93_e4_a_revealed_ballista_discards_up_to_2_soldiers_in_play_at_the_end_of_its_possessors_turn():
    """"It's the end of Sally's turn ... She first chooses to use the Ballista card to make Jeff and Peter each
    discard a soldier." """
    t = table({"0": [{"name": "Ballista", "revealed": True}, "Temple"]}, soldiers={"1": 3, "3": 3})
    t.declare(0, "recruit")
    assert t.state.play.phase == "end" and [n.kind for n in t.waiting()] == ["effect_choice"]
    for _ in range(2):
        pick = next(o for o in t.options(0) if "Sally" in o.label or "Peter" in o.label)
        t.play(pick.command)
    assert t.soldiers(1) + t.soldiers(3) == 4
