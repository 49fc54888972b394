"""Narration in plain English (findings F5-F9, F16): counts in the right number, "an" before a vowel sound,
the actor who really acted, no engine vocabulary."""

from __future__ import annotations

from aegis.domain.everaegis.events.words import a_or_an, counted, unhedged
from aegis.domain.everaegis.narration import narrate

NAMES = ["Sally", "Fred", "Jeff", "Peter"]


def said(event_type: str, **fields: object) -> str:
    return narrate({"type": event_type, **fields}, NAMES)


def test_counts_are_singular_or_plural_never_hedged() -> None:  # F9, F16
    assert counted(1, "soldier") == "1 soldier" and counted(2, "soldier") == "2 soldiers" and counted(0, "card") == "0 cards"
    assert unhedged("1 card(s) put on the deck") == "1 card put on the deck"
    assert said("SoldiersChanged", seat=2, delta=1, total=1, reason="recruit") == "Jeff gains 1 soldier: 1 now"
    assert said("SoldiersChanged", seat=2, delta=-3, total=0, reason="war") == "Jeff loses 3 soldiers: 0 now"
    assert said("WarResolution", winner=0, loser=2, reveals_due=1).endswith("Jeff lost and must reveal 1 card")
    assert said("WarResolution", winner=0, loser=2, reveals_due=0) == "Jeff lost, with no unrevealed card left to reveal"
    assert said("ActionDeclared", seat=0, action="mason", plan={"discard": ["AXE@2"]}, claim="mason") == (
        "Sally claims the Mason: discard 1 item"
    )
    assert said("TriggersFired", count=1) == "1 ability trigger checked"
    assert said("TriggersFired", count=4) == "4 ability triggers checked"
    assert said("ItemSoldiersChanged", item="BOMB", delta=1, reason="x").startswith("1 unused soldier added to the BOMB")
    assert said("CardsToGain", seats=[1], count=1, reason="Harbor") == "Fred gains 1 card (Harbor)"
    assert said("ActionCompleted", seat=0, action="laboratory", outcome="1 card(s) put on the deck") == (
        "Sally's Laboratory: 1 card put on the deck"
    )
    assert said("ActionCompleted", seat=0, action="laboratory", outcome="2 card(s) put on the deck") == (
        "Sally's Laboratory: 2 cards put on the deck"
    )
    fields = {"seat": 0, "delta": 1, "total": 1, "count": 1, "seats": [0], "reason": "r", "action": "x", "outcome": "1 x(s)"}
    for event_type in ("SoldiersChanged", "TriggersFired", "CardsToGain", "ActionCompleted"):
        assert "(s)" not in said(event_type, **fields)


def test_an_before_a_vowel_sound() -> None:  # F16
    assert a_or_an("Executioner") == "an Executioner" and a_or_an("Temple") == "a Temple" and a_or_an("AXE") == "an AXE"
    assert said("CardDrawn", seat=1, card="c1", name="Executioner", knowers=[1]) == "Fred draws an Executioner"
    assert said("CardRevealed", seat=1, card="c1", name="Archaeologist", reason="war") == (
        "Fred reveals an Archaeologist after losing the war"
    )
    assert said("CardDrawn", seat=1, card="c1") == "Fred draws a card"


# ----- F7: the one who acted -----


def test_another_players_effect_is_named_as_the_actor_not_the_cards_possessor() -> None:  # F7
    chapel = {"seat": 1, "card": "c9", "name": "Chapel", "knowers": [0, 1, 2, 3], "reason": "HAMMER (card effect)"}
    assert said("CardDiscarded", **chapel) == "The HAMMER discards Fred's Chapel; it is shuffled into the deck"
    hidden = {"seat": 2, "card": "c8", "reason": "HAMMER (card effect)"}
    assert said("CardDiscarded", **hidden) == "The HAMMER discards one of Jeff's cards; it is shuffled into the deck"
    assert said("CardRevealed", seat=2, card="c7", name="Temple", reason="AXE (card effect)") == "The AXE reveals Jeff's Temple"
    assert said("CardUnrevealed", seat=2, card="c7", name="Temple", reason="Tailor (card effect)") == (
        "The Tailor turns Jeff's Temple face down again"
    )
    vigilante = said("CardRevealed", seat=2, card="c7", name="Mason", reason="Hooded Fox's VIGILANTE (card effect)")
    assert vigilante == "Hooded Fox's VIGILANTE reveals Jeff's Mason"
    # what players do themselves still reads as theirs
    assert said("CardDiscarded", seat=1, card="c1", name="Mason", knowers=[1], reason="barracks").startswith(
        "Fred discards a Mason"
    )
    assert said("CardRevealed", seat=1, card="c1", name="Mason", reason="war") == "Fred reveals a Mason after losing the war"


def test_a_shield_saves_the_casualties_it_does_not_leave_a_count() -> None:  # F7, F6
    casualties = said("WarCasualties", attacker=0, defender=3, attacker_loss=3, defender_loss=2)
    assert casualties == "Casualties (R84): Sally is to lose 3 soldiers, Peter 2 soldiers"
    kept = said("SoldiersKept", seat=3, amount=2, item="SHIELD", reason="war casualties (R84)")
    assert kept == "Peter's SHIELD saves 2 soldiers from the loss: Peter loses none (war casualties (R84))"
    bear = said("SoldiersKept", seat=3, amount=1, item="SHIELD", reason="BEAR (card effect)")
    assert bear == "Peter's SHIELD saves 1 soldier from the loss: Peter loses none (the BEAR's effect)"
    assert "card effect" not in bear and "keeps" not in bear


def test_a_bird_names_itself_and_a_war_prompt_offers_no_call() -> None:  # F7
    from tests.helpers import Table

    rig = {"deck": ["Barracks", "Mason"], "hands": {"0": ["Temple"], "2": ["Mason"]}, "first_player": 0, "items": {"2": ["BIRD"]}}
    t = Table(4, variants="classic", rig=rig, options={"plain_unknown": 1}, selection="simpleton", names=NAMES)
    t.declare(0, "war", target=1)
    prompt = next(p for p in t.prompts(2) if p.kind == "react")
    assert {o.command["answer"] for o in prompt.options} == {"pass", "use"}
    assert "call" not in prompt.text.replace("cannot be called", "")
    assert prompt.text.endswith("Pass or use the BIRD (R39, R104); it is no claim, so it cannot be called (R61)")
    new = t.play(next(o.command for o in t.options(2) if o.command["answer"] == "use"))
    lines = [narrate(e.to_dict(), NAMES) for e in new]
    assert "Sally's War is thwarted by the BIRD: it is not carried out" in lines, lines


def test_a_windows_close_says_who_called_and_who_passed() -> None:  # F16
    closed = said("ReactionWindowClosed", window=1, answers={"1": {"answer": "call"}, "3": {"answer": "pass"}}, by="answers")
    assert closed == "Everyone has answered: Fred calls, Peter passes"
    guard = {"2": {"answer": "guard", "means": "wall"}, "1": {"answer": "use", "means": "BIRD"}}
    assert said("ReactionWindowClosed", window=1, answers=guard, by="answers") == (
        "Everyone has answered: Fred uses the BIRD, Jeff guards with the WALL"
    )
    late = said("ReactionWindowClosed", window=1, answers={"1": {"answer": "pass"}}, timed_out=[2], by="deadline")
    assert late == "The deadline closes the window: Fred passes; no answer from Jeff"


def test_an_effect_s_progress_says_what_was_done_not_a_bare_step_number() -> None:
    """A running effect's progress reads as what happened: a part done, a part going on with a player or with so
    many more to do, a choice of steps made; not "The effect goes on to step 2" right before "the effect is over"
    (and "part", since a replay's steps are its events)."""
    assert said("EffectProgressed", id=1, index=1, work=None, steps=None) == "Part 1 of the effect is done"
    assert said("EffectProgressed", id=1, index=0, work={"targets": [2], "left": 1}) == "The effect goes on with Jeff"
    assert said("EffectProgressed", id=1, index=0, work={"targets": [], "left": 2}) == (
        "Part 1 of the effect goes on: 2 more to do"
    )
    assert said("EffectProgressed", id=1, index=0, work={"targets": [], "left": 0}) == (
        "Part 1 of the effect has nothing more to do"
    )
    assert said("EffectProgressed", id=1, index=0, work=None, steps=[{"step": "x"}]) == (
        "The effect goes on with the steps chosen"
    )


def test_a_claim_answered_with_another_card_is_not_proven_not_called_a_bluff() -> None:
    """R57, A10: a claimant who holds the claimed card may still show another; the call is then right, but the claim
    was no bluff (the review says held: true). The words say only what the table saw, the same either way; with no
    card at all to show, the claim was a bluff."""
    shown = said("BluffExposed", seat=0, claim="Library", card="c1", caller=1)
    assert shown == "It is no Library: Sally's Library claim is not proven" and "bluff" not in shown
    assert said("BluffExposed", seat=0, claim="Library", card=None, caller=1).endswith("the Library claim was a bluff")


def test_a_branch_s_first_line_says_which_steps_are_copied_before_naming_the_original() -> None:
    """An arbiter reading a branch's timeline learns which steps are the original's, and, when cards were dealt again,
    that what those steps say of them no longer holds; the original's id comes last, as a reference."""
    same = said("BranchBegan", game="g-1", step=31, deal="same", knower=None)
    assert same == "The branch begins: steps 1-31 are the original game's, with the same deal (the original: game g-1)"
    known = said("BranchBegan", game="g-1", step=31, deal="as_known", knower=1)
    assert known.startswith("The branch begins: steps 1-31 are the original game's; the cards Fred could not name there")
    assert "held in the original only" in known


def test_a_card_option_names_the_card_and_shows_its_id_only_to_tell_two_alike_apart() -> None:
    """"Reveal Barracks (unrevealed)", not "Barracks (unrevealed, c10837bdf)": an id is engine vocabulary, needed
    only where two cards of the list read the same (the table lists each card with its id)."""
    from aegis.domain.everaegis.cards import card_labels
    from aegis.domain.everaegis.state import Card

    cards = [Card("c1", "Barracks"), Card("c2", "Mason"), Card("c3", "Mason"), Card("c4", "Mason", revealed=True)]
    assert card_labels(cards) == [
        "Barracks (unrevealed)",
        "Mason (unrevealed, c2)",
        "Mason (unrevealed, c3)",
        "Mason (revealed)",
    ]


def test_every_decision_the_clock_can_make_says_what_it_asked_and_what_was_played() -> None:
    """S3: "<seat> ran out of time to <asks>; the server decided for them: <said>": the words are the decision kind's
    own (``DecisionKind.asks``, ``said``), declared beside its rule, so a new kind cannot be narrated as a code."""
    from aegis.domain.everaegis.decisions import DECISIONS
    from aegis.domain.everaegis.narration import asked_words, narrate, played_words

    timed = [k for k in DECISIONS if not (k.window or k.system or k.free or k.handle is not None)]
    assert len(timed) == 19
    assert [k.kind for k in timed if not k.asks or k.said is None] == []
    assert asked_words("put_back") == "put cards back on the deck" and asked_words("mystery") == "make a decision (mystery)"
    names = ["Fred", "Sally", "Jeff"]
    assert played_words({"type": "declare", "seat": 0, "action": "war", "target": 2}, names.__getitem__) == "War against Jeff"
    assert played_words({"type": "reveal", "seat": 0, "card": "c1"}, names.__getitem__) == "reveal card c1"  # an older type
    said = narrate(
        {"type": "DecisionTimedOut", "seq": 9, "seat": 1, "kind": "barracks_discard", "count": 2,
         "played": {"type": "barracks_discard", "seat": 1, "card": "c7"}},
        names,
    )
    assert said == (
        "Sally ran out of time to discard a card to the Barracks; the server decided for them (2 in a row): discard card c7"
    )
