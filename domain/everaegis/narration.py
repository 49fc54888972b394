"""One sentence in plain words for every event, from the event as a reader may see it.

Narration never looks past redaction: it is given the redacted event, so a card its reader may not
know is "a card", and an answer still secret in an open window is "answers".
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from aegis.domain.everaegis.decisions import DECISIONS as KINDS

Narrator = Callable[[dict[str, Any], Callable[[Any], str]], str]
_NARRATORS: dict[str, Narrator] = {}

ACTION_NAMES = {
    "recruit": "Recruit",
    "war": "War",
    "temple": "Temple",
    "mason": "Mason",
    "barracks": "Barracks",
    "treasury": "Treasury",
    "laboratory": "Laboratory",
    "library": "Library",
}


def _on(*types: str) -> Callable[[Narrator], Narrator]:
    def register(fn: Narrator) -> Narrator:
        for t in types:
            _NARRATORS[t] = fn
        return fn

    return register


def narrate(event: dict[str, Any], names: list[str]) -> str:
    """``event`` as the reader sees it; ``names`` by seat."""

    def who(seat: Any) -> str:
        if isinstance(seat, int) and 0 <= seat < len(names):
            return names[seat]
        return "the reserve" if seat == "reserve" else str(seat)

    fn = _NARRATORS.get(event.get("type", ""))
    return fn(event, who) if fn else event.get("type", "?")


def _card(e: dict[str, Any]) -> str:
    return f"a {e['name']}" if e.get("name") else "a card"


def _action(name: str) -> str:
    return ACTION_NAMES.get(name, name.title())


@_on("GameStarted")
def _started(e: dict[str, Any], who: Callable[[Any], str]) -> str:
    if e.get("rigged"):
        return "A rigged game begins: its creator chose the position or the seed, so no seed commitment is published"
    return "The game begins; the seed's commitment is published"


@_on("YearsFormed")
def _years(e: dict[str, Any], who: Callable[[Any], str]) -> str:
    return f"{len(e.get('years', []))} years are formed and shuffled"


@_on("DeckFormed")
def _deck(e: dict[str, Any], who: Callable[[Any], str]) -> str:
    return f"The deck is formed: {e['size']} cards"


@_on("FirstPlayerChosen")
def _first(e: dict[str, Any], who: Callable[[Any], str]) -> str:
    return f"{who(e['seat'])} plays first"


@_on("SetupDealt")
def _dealt(e: dict[str, Any], who: Callable[[Any], str]) -> str:
    return f"Everyone starts with {e['cards_each']} card(s)" if e["cards_each"] else "Setup is done"


@_on("SetupRevealsBegan")
def _setup_reveals(e: dict[str, Any], who: Callable[[Any], str]) -> str:
    return "Each player reveals a card before play"


@_on("TurnBegan")
def _turn(e: dict[str, Any], who: Callable[[Any], str]) -> str:
    return f"Turn {e['turn']}: {who(e['seat'])}"


@_on("TurnSkipped")
def _skipped(e: dict[str, Any], who: Callable[[Any], str]) -> str:
    return f"{who(e['seat'])} skips the turn (BRIG)"


@_on("PhaseBegan")
def _phase(e: dict[str, Any], who: Callable[[Any], str]) -> str:
    return f"{who(e['seat'])}'s {e['phase'].title()} Phase"


@_on("TurnEnded")
def _turn_ended(e: dict[str, Any], who: Callable[[Any], str]) -> str:
    return f"{who(e['seat'])}'s turn ends"


@_on("YearMadeDeck")
def _year_deck(e: dict[str, Any], who: Callable[[Any], str]) -> str:
    how = "the last year left" if e.get("forced") else f"chosen by {who(e['chosen_by'])}"
    return f"The deck is empty: year {e['year']} ({e['size']} cards) becomes the deck, {how}"


@_on("CardDrawn")
def _drawn(e: dict[str, Any], who: Callable[[Any], str]) -> str:
    return f"{who(e['seat'])} draws {_card(e)}"


@_on("CardDealt")
def _card_dealt(e: dict[str, Any], who: Callable[[Any], str]) -> str:
    return f"{who(e['seat'])} is dealt {_card(e)}" + (" face up" if e.get("revealed") else "")


@_on("CardNotGained")
def _not_gained(e: dict[str, Any], who: Callable[[Any], str]) -> str:
    return f"{who(e['seat'])} gains no card: the deck and every year are empty"


@_on("CardRevealed")
def _revealed(e: dict[str, Any], who: Callable[[Any], str]) -> str:
    if not e.get("full", True):
        return f"{who(e['seat'])} shows {_card(e)} to prove the claim"
    why = {"war": " after losing the war", "incorrect call": " for an incorrect call", "eliminated": " on elimination"}
    reason = next((v for k, v in why.items() if str(e.get("reason", "")).startswith(k)), "")
    return f"{who(e['seat'])} reveals {_card(e)}{reason}"


@_on("CardUnrevealed")
def _unrevealed(e: dict[str, Any], who: Callable[[Any], str]) -> str:
    return f"{who(e['seat'])} turns {_card(e)} face down again"


@_on("CardDiscarded")
def _discarded(e: dict[str, Any], who: Callable[[Any], str]) -> str:
    return f"{who(e['seat'])} discards {_card(e)}; it is shuffled into the deck"


@_on("CardMoved")
def _moved(e: dict[str, Any], who: Callable[[Any], str]) -> str:
    return f"{who(e['from_seat'])}'s revealed {e.get('name') or 'card'} goes to {who(e['to_seat'])}"


@_on("CardPutOnDeck")
def _put_on_deck(e: dict[str, Any], who: Callable[[Any], str]) -> str:
    return f"{who(e['seat'])} puts {_card(e)} on top of the deck"


@_on("SoldiersChanged")
def _soldiers(e: dict[str, Any], who: Callable[[Any], str]) -> str:
    verb = "gains" if e["delta"] > 0 else "loses"
    return f"{who(e['seat'])} {verb} {abs(e['delta'])} soldier(s): {e['total']} now"


@_on("ItemGained")
def _item_gained(e: dict[str, Any], who: Callable[[Any], str]) -> str:
    source = e.get("source", "reserve")
    origin = "" if source == "reserve" else f" from {who(source)}"
    return f"{who(e['seat'])} gains the {e['item']}{origin}"


@_on("ItemNotGained")
def _item_not_gained(e: dict[str, Any], who: Callable[[Any], str]) -> str:
    return f"{who(e['seat'])} gains no {e['item']}: none can be had"


@_on("ItemDiscarded")
def _item_discarded(e: dict[str, Any], who: Callable[[Any], str]) -> str:
    return f"{who(e['seat'])}'s {e['item']} goes back to the reserve"


@_on("SanctionPlaced")
def _sanction_placed(e: dict[str, Any], who: Callable[[Any], str]) -> str:
    return f"A SANCTION covers {who(e['seat'])}'s {_action(e['action'])}"


@_on("SanctionNotPlaced")
def _sanction_not_placed(e: dict[str, Any], who: Callable[[Any], str]) -> str:
    return f"No SANCTION is placed on {who(e['seat'])}'s {_action(e['action'])}"


@_on("SanctionRemoved")
def _sanction_removed(e: dict[str, Any], who: Callable[[Any], str]) -> str:
    return f"The SANCTION leaves {who(e['seat'])}'s {_action(e['action'])}"


@_on("ActionDeclared")
def _declared(e: dict[str, Any], who: Callable[[Any], str]) -> str:
    seat, action, plan = who(e["seat"]), e["action"], e.get("plan") or {}
    if e.get("sanctioned"):
        return f"{seat} uses the SANCTIONED {_action(action)}: a card must be discarded"
    if action == "recruit":
        return f"{seat} recruits"
    if action in ("war", "temple", "library") and not plan and not e.get("claim"):  # a mob's, nothing to select (A50)
        return f"{seat} uses the {_action(action)}, with nothing it can select"
    if action == "war":
        return f"{seat} declares war on {who(plan.get('target'))}"
    claim = f"{seat} claims the {_action(action)}" if e.get("claim") else f"{seat} uses the {_action(action)}"
    if action == "temple":
        return f"{claim}: give a revealed card to {who(plan.get('recipient'))}"
    if action == "mason":
        if "give_wall" in plan:
            return f"{claim}: give the WALL to {who(plan['give_wall'])}"
        n = len(plan.get("discard", []))
        return f"{claim}: discard {n} item(s)" if n else f"{claim}: discard nothing"
    if action == "library":
        if "treaty" in plan:
            return f"{claim}: give the TREATY to {who(plan['treaty'])}"
        targets = ", ".join(f"{who(t['seat'])}'s {_action(t['action'])}" for t in plan.get("sanctions", []))
        return f"{claim}: SANCTION {targets}"
    return claim


@_on("ReactionWindowOpened")
def _window_opened(e: dict[str, Any], who: Callable[[Any], str]) -> str:
    asked = ", ".join(who(s) for s in e.get("asked", []))
    if not e.get("claim"):  # a mob's action is no claim (R43)
        return f"{asked} may guard against {who(e['claimant'])}'s action with the WALL"
    return f"{asked} may react to {who(e['claimant'])}'s {e['claim']} claim"


@_on("ReactionGiven")
def _reaction(e: dict[str, Any], who: Callable[[Any], str]) -> str:
    if "answer" not in e:
        return f"{who(e['seat'])} answers"
    if e["answer"] == "guard":
        return f"{who(e['seat'])} answers: guard ({'WALL' if e.get('means') == 'wall' else 'a card claim'})"
    return f"{who(e['seat'])} answers: {e['answer']}"


@_on("ReactionWindowClosed")
def _window_closed(e: dict[str, Any], who: Callable[[Any], str]) -> str:
    late = e.get("timed_out") or []
    tail = f"; no answer from {', '.join(who(s) for s in late)}" if late else ""
    if e.get("by") == "resigned":  # S2: the declarer resigned on their own turn
        return "The window closes without effect: the declarer resigned"
    return ("The deadline closes the window" if e.get("by") == "deadline" else "Everyone has answered") + tail


@_on("GuardDeclared")
def _guard(e: dict[str, Any], who: Callable[[Any], str]) -> str:
    means = "the WALL" if e["means"] == "wall" else f"a {_action(e['action'])} claim"
    return f"{who(e['seat'])} guards with {means}"


@_on("BluffCalled")
def _called(e: dict[str, Any], who: Callable[[Any], str]) -> str:
    return f"{who(e['caller'])} calls {who(e['claimant'])}'s bluff on the {e['claim']}"


@_on("ClaimProven")
def _proven(e: dict[str, Any], who: Callable[[Any], str]) -> str:
    return f"{who(e['seat'])} holds the {e['claim']}: the call was wrong"


@_on("BluffExposed")
def _exposed(e: dict[str, Any], who: Callable[[Any], str]) -> str:
    if e.get("card") is None:
        return f"{who(e['seat'])} has no card to show: the {e['claim']} claim was a bluff"
    return f"{who(e['seat'])} reveals {_card(e)}: the {e['claim']} claim was a bluff"


@_on("CallSettled")
def _settled(e: dict[str, Any], who: Callable[[Any], str]) -> str:
    return f"{who(e['caller'])}'s call was {'right' if e['correct'] else 'wrong'}"


@_on("GuardHeld")
def _guard_held(e: dict[str, Any], who: Callable[[Any], str]) -> str:
    return f"{who(e['seat'])}'s guard stands"


@_on("ActionThwarted")
def _thwarted(e: dict[str, Any], who: Callable[[Any], str]) -> str:
    return f"{who(e['seat'])}'s {_action(e['action'])} is thwarted"


@_on("ActionResolving")
def _resolving(e: dict[str, Any], who: Callable[[Any], str]) -> str:
    guarded = e.get("guarded_by") or []
    tail = f", except for {', '.join(who(s) for s in guarded)}" if guarded else ""
    return f"{who(e['seat'])}'s {_action(e['action'])} takes effect{tail}"


@_on("ActionCompleted")
def _completed(e: dict[str, Any], who: Callable[[Any], str]) -> str:
    return f"{who(e['seat'])}'s {_action(e['action'])}: {e['outcome']}"


@_on("WarDesignated")
def _designated(e: dict[str, Any], who: Callable[[Any], str]) -> str:
    return f"War: {who(e['attacker'])} attacks {who(e['defender'])}"


@_on("WarBattle")
def _battle(e: dict[str, Any], who: Callable[[Any], str]) -> str:
    wall = " (WALL +5)" if e.get("wall_bonus") else ""
    return (
        f"Battle: {who(e['attacker'])} {e['attacker_strength']} against {who(e['defender'])} "
        f"{e['defender_strength']}{wall}; {who(e['winner'])} wins"
    )


@_on("WarThwarted")
def _war_thwarted(e: dict[str, Any], who: Callable[[Any], str]) -> str:
    return f"{who(e['attacker'])}'s war is thwarted: no soldiers"


@_on("WarResolution")
def _resolution(e: dict[str, Any], who: Callable[[Any], str]) -> str:
    return f"{who(e['loser'])} lost and must reveal {e['reveals_due']} card(s)"


@_on("WarCasualties")
def _casualties(e: dict[str, Any], who: Callable[[Any], str]) -> str:
    return f"Casualties: {who(e['attacker'])} loses {e['attacker_loss']}, {who(e['defender'])} loses {e['defender_loss']}"


@_on("WarEnded")
def _war_ended(e: dict[str, Any], who: Callable[[Any], str]) -> str:
    return "The war ends"


@_on("PlayerEliminated")
def _eliminated(e: dict[str, Any], who: Callable[[Any], str]) -> str:
    return f"{who(e['seat'])} is eliminated"


@_on("GameEnded")
def _ended(e: dict[str, Any], who: Callable[[Any], str]) -> str:
    if e["result"] == "draw":
        return f"The game is a draw ({e['reason']})"
    verb = "wins" if len(e["winners"]) == 1 else "win"  # Alliances and Overlord teams share a win (R163, R170)
    return f"{', '.join(who(s) for s in e['winners'])} {verb} ({e['reason']})"


@_on("UndoPauseBegan")
def _undo_pause(e: dict[str, Any], who: Callable[[Any], str]) -> str:
    return f"{', '.join(who(s) for s in e['eligible'])} may still claim an undo"


@_on("UndoWaived")
def _undo_waived(e: dict[str, Any], who: Callable[[Any], str]) -> str:
    return f"{who(e['seat'])} lets the action stand"


@_on("UndoExpired")
def _undo_expired(e: dict[str, Any], who: Callable[[Any], str]) -> str:
    return "No undo was claimed in time"


@_on("UndoClaimed")
def _undo_claimed(e: dict[str, Any], who: Callable[[Any], str]) -> str:
    return (
        f"{who(e['seat'])} claims an undo: events {e['undone_from']}-{e['undone_to']} are undone and "
        f"{who(e['seat'])} calls the bluff"
    )


# ----- Classic: components, the estate deck, leaders -----


@_on("ComponentsChosen")
def _components(e: dict[str, Any], who: Callable[[Any], str]) -> str:
    estates = e.get("estates", [])
    plain = sum(1 for x in estates if x.get("plain"))
    leaders = e.get("leaders", [])
    text = f"Classic components: {len(estates)} estate cards ({plain} played plain: their text is not printed)"
    return text + (f", {len(leaders)} leader mats to select from" if leaders else ", Simpleton sides for every player")


@_on("EstateDeckFormed")
def _estate_deck(e: dict[str, Any], who: Callable[[Any], str]) -> str:
    return f"The estate deck is formed: {e['size']} cards, face down"


@_on("EstatesMadeDeck")
def _estates_deck(e: dict[str, Any], who: Callable[[Any], str]) -> str:
    return f"No year is left: the top {e['size']} estate cards become the deck"


@_on("LeaderSelectionBegan")
def _selection(e: dict[str, Any], who: Callable[[Any], str]) -> str:
    return f"Leader selection begins ({e['mode']})"


@_on("LeaderMatsDealt")
def _mats(e: dict[str, Any], who: Callable[[Any], str]) -> str:
    mats = e.get("mats")
    return f"{who(e['seat'])} draws leader mats" + (f": {', '.join(mats)}" if mats else "")


@_on("LeaderKept")
def _kept(e: dict[str, Any], who: Callable[[Any], str]) -> str:
    mat = e.get("mat")
    return f"{who(e['seat'])} keeps a mat face down" + (f": {mat}" if mat else "")


@_on("LeaderChosen")
def _leader(e: dict[str, Any], who: Callable[[Any], str]) -> str:
    text = f"{who(e['seat'])} leads with {e['mat']}" + (" (plain: text not printed)" if e.get("plain") else "")
    if e.get("passed_to") is not None:
        text += f" and passes the other mats to {who(e['passed_to'])}"
    return text


# ----- card effects -----


@_on("EffectQueued")
def _effect_queued(e: dict[str, Any], who: Callable[[Any], str]) -> str:
    steps = ", ".join(str(step.get("step", "?")).replace("_", " ") for step in e.get("steps", []))
    return f"{who(e['owner'])}'s {e['source']} takes effect ({e.get('reason', '')}): {steps}"


@_on("EffectsOrdered")
def _effects_ordered(e: dict[str, Any], who: Callable[[Any], str]) -> str:
    return f"{who(e['seat'])} chooses which effect resolves first (R131)"


@_on("EffectProgressed")
def _effect_progressed(e: dict[str, Any], who: Callable[[Any], str]) -> str:
    work = e.get("work") or {}
    if work.get("targets"):
        return f"The effect goes on with {', '.join(who(t) for t in work['targets'])}"
    return f"The effect goes on to step {e['index'] + 1}"


@_on("EffectEnded")
def _effect_ended(e: dict[str, Any], who: Callable[[Any], str]) -> str:
    return f"{e['source']}'s effect is over"


@_on("CardsToGain")
def _cards_to_gain(e: dict[str, Any], who: Callable[[Any], str]) -> str:
    seats = e.get("seats", [])
    verb = "gains" if len(seats) == 1 else "gain"
    return f"{', '.join(who(s) for s in seats)} {verb} {e['count']} card(s) ({e['reason']})"


@_on("SacrificesGiven")
def _sacrifices(e: dict[str, Any], who: Callable[[Any], str]) -> str:
    return f"{who(e['seat'])} gives {who(e['to'])} {e['amount']} soldier(s) as sacrifices ({e['reason']})"


@_on("ItemSoldiersChanged")
def _item_soldiers(e: dict[str, Any], who: Callable[[Any], str]) -> str:
    verb = "added to" if e["delta"] > 0 else "removed from"
    return f"{abs(e['delta'])} unused soldier(s) {verb} the {e['item']} ({e['reason']})"


@_on("EffectPlanUsed")
def _plan_used(e: dict[str, Any], who: Callable[[Any], str]) -> str:
    return "The effect follows the choices its declaration made"


@_on("TriggersFired")
def _triggers(e: dict[str, Any], who: Callable[[Any], str]) -> str:
    return f"{e['count']} ability trigger(s) checked"


@_on("DictatorChosen")
def _dictator(e: dict[str, Any], who: Callable[[Any], str]) -> str:
    shared = "no ability (its text is not printed)" if e.get("plain") else "its ability"
    return f"Dictator: {e['mat']} goes to the reserve; every player shares {shared}"


@_on("ArtificersBegan")
def _artificers(e: dict[str, Any], who: Callable[[Any], str]) -> str:
    return "Artificers: in turn order, each player gives an opponent an item until everyone holds 3"


@_on("ArtificerGave")
def _artificer_gave(e: dict[str, Any], who: Callable[[Any], str]) -> str:
    return f"{who(e['seat'])} gives {who(e['to'])} the {e['item']}"


@_on("ArtificerPassed")
def _artificer_passed(e: dict[str, Any], who: Callable[[Any], str]) -> str:
    return f"{who(e['seat'])} has nobody to give an item to ({e['reason']})"


@_on("ArtificersDone")
def _artificers_done(e: dict[str, Any], who: Callable[[Any], str]) -> str:
    return "The Artificers' gifts are done"


@_on("DieRolled")
def _die_rolled(e: dict[str, Any], who: Callable[[Any], str]) -> str:
    dice = e.get("dice") or []
    rolled = f"{e['total']}" if len(dice) == 1 else f"{' + '.join(str(d) for d in dice)} = {e['total']}"
    return f"The D8 for {who(e['seat'])} ({e['purpose']}) rolls {rolled}: {e['outcome']}"


@_on("DiceRigged")
def _dice_rigged(e: dict[str, Any], who: Callable[[Any], str]) -> str:
    return f"The next D8 results are set: {', '.join(str(d) for d in e.get('dice', []))}"


@_on("CardToRubble")
def _to_rubble(e: dict[str, Any], who: Callable[[Any], str]) -> str:
    return f"{who(e['seat'])} discards {_card(e)} face up onto the rubble"


@_on("RubbleShuffled")
def _rubble_shuffled(e: dict[str, Any], who: Callable[[Any], str]) -> str:
    return f"The deck is empty: the rubble ({e['size']} cards) is shuffled to form the deck"


@_on("DiscoveryTokenPlaced")
def _token_placed(e: dict[str, Any], who: Callable[[Any], str]) -> str:
    return f"A discovery token marks {who(e['seat'])}'s face-down {e.get('name') or 'card'}"


@_on("DiscoveryTokenRemoved")
def _token_removed(e: dict[str, Any], who: Callable[[Any], str]) -> str:
    return f"The discovery token leaves {who(e['seat'])}'s {e.get('name') or 'card'}: it goes to the deck or the rubble"


# ----- the Alliances, Overlord and Blasphemy variants (R163, R170, R171) -----


@_on("AlliesSeated")
def _allies(e: dict[str, Any], who: Callable[[Any], str]) -> str:
    pairs = "; ".join(f"{who(seat)}: {' and '.join(who(a) for a in allies)}" for seat, allies in enumerate(e["allies"]))
    return f"Alliances: each player's allies sit to their left and right ({pairs})"


@_on("OverlordChosen")
def _overlord(e: dict[str, Any], who: Callable[[Any], str]) -> str:
    return f"{who(e['seat'])} is the Overlord, against every other player: {e['method']}"


@_on("BlasphemyCardSet")
def _blasphemy_card(e: dict[str, Any], who: Callable[[Any], str]) -> str:
    if e.get("card") is None:
        return "Blasphemy: the deck holds no building card, so there is no Blasphemy card"
    under = len(e.get("bottom") or [])
    tail = f"; {under} other revealed card(s) go to the bottom of the deck" if under else ""
    return f"Blasphemy: the {e['name']} from the top of the deck is the Blasphemy card{tail}"


@_on("BlasphemyTokenGained")
def _token_gained(e: dict[str, Any], who: Callable[[Any], str]) -> str:
    return f"{who(e['seat'])} used the {_action(e['action'])} of the Blasphemy card and gains a Blasphemy token ({e['total']})"


@_on("BlasphemySpoilsOffered")
def _spoils_offered(e: dict[str, Any], who: Callable[[Any], str]) -> str:
    return f"{who(e['winner'])} won the war and may take 1 of {who(e['loser'])}'s Blasphemy tokens"


@_on("BlasphemyTokenTaken")
def _token_taken(e: dict[str, Any], who: Callable[[Any], str]) -> str:
    return f"{who(e['seat'])} takes a Blasphemy token from {who(e['from_seat'])}"


@_on("BlasphemySpoilsDeclined")
def _spoils_declined(e: dict[str, Any], who: Callable[[Any], str]) -> str:
    return f"{who(e['seat'])} leaves {who(e['loser'])}'s Blasphemy tokens"


@_on("OverlordScored")
def _overlord_scored(e: dict[str, Any], who: Callable[[Any], str]) -> str:
    return (
        f"The deck and every year are out of cards: the team has {e['team_total']} unrevealed card(s), "
        f"the Overlord {who(e['overlord'])} has {e['overlord_total']}"
    )


@_on("EffectWarBegan")
def _effect_war(e: dict[str, Any], who: Callable[[Any], str]) -> str:
    return f"{e['source']}: {who(e['attacker'])} goes to war with {who(e['defender'])}"


@_on("DrawReactionPassed")
def _draw_passed(e: dict[str, Any], who: Callable[[Any], str]) -> str:
    return f"{who(e['seat'])} lets the draw happen"


@_on("DrawStopped")
def _draw_stopped(e: dict[str, Any], who: Callable[[Any], str]) -> str:
    return f"{who(e['by'])} uses the {e['item']}: {who(e['seat'])} gains no card this Draw Phase"


@_on("SoldiersKept")
def _kept_soldiers(e: dict[str, Any], who: Callable[[Any], str]) -> str:
    return f"{who(e['seat'])} keeps {e['amount']} soldier(s) thanks to the {e['item']} ({e['reason']})"


# ----- resigning and timeouts (service rulings S2, S3) -----

DECISIONS = {  # what a prompt kind asks, as "ran out of time to ..." reads it
    "declare": "declare an action",
    "use_item": "use an item",
    "end_phase": "use an item or end their End Phase",
    "choose_year": "choose a year to become the deck",
    "setup_reveal": "reveal a card before play",
    "prove": "prove their claim",
    "pay": "reveal a card for an incorrect call",
    "take_brig": "choose whom to take a BRIG from",
    "take_sanction": "choose which SANCTION to take",
    "sanction_discard": "discard a card for a SANCTIONED action",
    "barracks_discard": "discard a card to the Barracks",
    "put_back": "put cards back on the deck",
    "war_reveal": "reveal cards after losing a war",
    "choose_leader": "choose a leader",
    "effect_choice": "make an effect's choice",
    "effect_order": "choose which effect resolves first",
    "artificer_gift": "give an item",
    "draw_reaction": "answer before a draw",
    "spoils": "take or leave a Blasphemy token",
}


@_on("PlayerResigned")
def _resigned(e: dict[str, Any], who: Callable[[Any], str]) -> str:
    return f"{who(e['seat'])} resigns and leaves the game"


@_on("DecisionTimedOut")
def _timed_out(e: dict[str, Any], who: Callable[[Any], str]) -> str:
    what = DECISIONS.get(e["kind"], f"make a decision ({e['kind']})")
    text = f"{who(e['seat'])} ran out of time to {what}; the server decided for them ({e['count']} in a row)"
    if "played" in e:  # only the seat itself sees what was played (redaction)
        text += f": {played_words(e['played'], who)}"
    return text


@_on("SeatAbandoned")
def _seat_abandoned(e: dict[str, Any], who: Callable[[Any], str]) -> str:
    return f"{who(e['seat'])} let {e['count']} decisions in a row run out of time: a bot plays for them for the rest of the game"


def played_words(cmd: dict[str, Any], who: Callable[[Any], str]) -> str:
    """A command the server played for a seat, in words (it names only what that seat may know)."""
    kind = str(cmd.get("type"))
    if kind in KINDS and KINDS[kind].aliases:  # prove, pay, war_reveal...: in the words of the type they answer for
        kind = KINDS[kind].aliases[0]
    if kind == "declare":
        target = cmd.get("target")
        return f"{_action(cmd.get('action', ''))}" + (f" against {who(target)}" if target is not None else "")
    if kind == "reveal":
        cards = cmd.get("cards") or [cmd.get("card")]
        return f"reveal card {', '.join(str(c) for c in cards)}"
    if kind == "discard":
        return f"discard card {cmd.get('card')}"
    if kind == "put_back":
        return f"put back cards {', '.join(str(c) for c in cmd.get('cards', []))} (first named on top)"
    if kind == "choose_year":
        return f"year {cmd.get('year')} becomes the deck"
    if kind == "choose_leader":
        passed = f", the rest passed to {who(cmd['pass_to'])}" if cmd.get("pass_to") is not None else ""
        return f"leader {cmd.get('mat')}{passed}"
    if kind == "artificer_gift":
        return f"the {cmd.get('item')} to {who(cmd.get('to'))}"
    if kind == "take":
        return f"take a {cmd.get('item')}"
    if kind == "use_item":
        return f"use the {cmd.get('item')}"
    if kind == "end_phase":
        return "go on to the Demise Phase"
    if kind in ("draw_react", "spoils"):
        return str(cmd.get("answer"))
    if kind in ("effect_choice", "effect_order"):
        return f"choice {cmd.get('choice', cmd.get('first'))}"
    return str(kind)
