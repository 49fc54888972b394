"""Every Ever Aegis domain event, one class each.

Field conventions: ``seat`` is the player the event is about; ``card`` is an opaque per-game card id;
``name`` is a card's identity, shown only to the seats listed in ``knowers`` (``PRIVATE``); fields in
``SECRET`` (the seed, deck orders, fresh card ids) are shown to nobody until the game is over.
"""

from __future__ import annotations

from dataclasses import field
from typing import Any

from aegis.domain.kernel.events import Event, event

# ----- setup -----


@event
class GameStarted(Event):
    ruleset: str = "ever-aegis"
    config: dict[str, Any] = field(default_factory=dict)
    commitment: str = ""
    seed: str = ""
    rigged: bool = False  # a rigged position (teaching, dispute reproduction) has no seed commitment
    SECRET = ("seed",)


@event
class YearsFormed(Event):
    """The years are made (R14, R162); their counts per building are public (A53), their order is not."""

    years: list[dict[str, Any]] = field(default_factory=list)  # [{year, size, composition}]
    cards: list[list[dict[str, str]]] = field(default_factory=list)  # per year, top first
    rng: list[int] = field(default_factory=list)
    SECRET = ("cards",)


@event
class DeckFormed(Event):
    """Two years shuffled together make the deck (R16)."""

    years: list[str] = field(default_factory=list)
    size: int = 0
    cards: list[dict[str, str]] = field(default_factory=list)
    rng: list[int] = field(default_factory=list)
    SECRET = ("cards",)


@event
class FirstPlayerChosen(Event):
    seat: int = 0
    method: str = "random"
    rng: list[int] = field(default_factory=list)


@event
class SetupDealt(Event):
    """Starting cards are to be drawn (Quick: 3 each, Survival: up to 6 each; R164, R166)."""

    cards_each: int = 0


@event
class SetupRevealsBegan(Event):
    """Quick Game: in turn order each player must reveal 1 of their cards (R164)."""

    order: list[int] = field(default_factory=list)


# ----- turns and phases -----


@event
class TurnBegan(Event):
    seat: int = 0
    turn: int = 0


@event
class TurnSkipped(Event):
    seat: int = 0
    reason: str = ""


@event
class PhaseBegan(Event):
    seat: int = 0
    phase: str = ""


@event
class TurnEnded(Event):
    seat: int = 0
    turn: int = 0


# ----- cards -----


@event
class YearMadeDeck(Event):
    """Empty Deck Rule: the current player makes a year into the deck (R34)."""

    year: str = ""
    chosen_by: int = 0
    size: int = 0
    forced: bool = False


@event
class CardDrawn(Event):
    seat: int = 0
    card: str = ""
    name: str = ""
    knowers: list[int] = field(default_factory=list)
    reason: str = ""
    deck_left: int = 0
    PRIVATE = {"name": "knowers"}


@event
class CardDealt(Event):
    """Rigged setup: a card placed in a player's possession as the rig says."""

    seat: int = 0
    card: str = ""
    name: str = ""
    revealed: bool = False
    knowers: Any = field(default_factory=list)
    PRIVATE = {"name": "knowers"}


@event
class CardNotGained(Event):
    """Nothing is left anywhere to gain a card from (A29)."""

    seat: int = 0
    reason: str = ""


@event
class CardRevealed(Event):
    seat: int = 0
    card: str = ""
    name: str = ""
    full: bool = True  # R63: a proof shown and unrevealed at once is not a full reveal
    reason: str = ""


@event
class CardUnrevealed(Event):
    seat: int = 0
    card: str = ""
    name: str = ""
    reason: str = ""


@event
class CardDiscarded(Event):
    """A discarded card is shuffled into the deck at a random position, unseen, with a new id (R96)."""

    seat: int = 0
    card: str = ""
    name: str = ""
    knowers: list[int] = field(default_factory=list)
    was_revealed: bool = False
    reason: str = ""
    new_card: str = ""
    position: int = 0
    deck_size: int = 0
    rng: list[int] = field(default_factory=list)
    PRIVATE = {"name": "knowers"}
    SECRET = ("new_card", "position", "rng")


@event
class CardMoved(Event):
    """Temple: a revealed card changes possessor (R46)."""

    card: str = ""
    name: str = ""
    from_seat: int = 0
    to_seat: int = 0
    reason: str = ""


@event
class CardPutOnDeck(Event):
    """Simpleton Laboratory: an unrevealed card goes on top of the deck (R52, A21)."""

    seat: int = 0
    card: str = ""
    name: str = ""
    knowers: list[int] = field(default_factory=list)
    PRIVATE = {"name": "knowers"}


# ----- soldiers and items -----


@event
class SoldiersChanged(Event):
    seat: int = 0
    delta: int = 0
    total: int = 0
    reason: str = ""


@event
class ItemGained(Event):
    """``source`` is "reserve" or the seat the item was taken from (R105, R106)."""

    seat: int = 0
    item: str = ""
    source: Any = "reserve"
    reason: str = ""


@event
class ItemNotGained(Event):
    seat: int = 0
    item: str = ""
    reason: str = ""


@event
class ItemDiscarded(Event):
    seat: int = 0
    item: str = ""
    reason: str = ""


@event
class SanctionPlaced(Event):
    """``source`` is "reserve" or {"seat", "action"} of the SANCTION taken by overflow (R105)."""

    seat: int = 0
    action: str = ""
    source: Any = "reserve"
    reason: str = ""


@event
class SanctionNotPlaced(Event):
    seat: int = 0
    action: str = ""
    reason: str = ""


@event
class SanctionRemoved(Event):
    seat: int = 0
    action: str = ""
    reason: str = ""


# ----- actions, claims, calls, guards -----


@event
class ActionDeclared(Event):
    """The declarer names an action with its whole plan: the coherent declaration (R38)."""

    seat: int = 0
    action: str = ""
    plan: dict[str, Any] = field(default_factory=dict)
    claim: str | None = None
    sanctioned: bool = False


@event
class ReactionWindowOpened(Event):
    window: int = 0
    claimant: int = 0
    claim: str = ""
    about: str = "action"
    asked: list[int] = field(default_factory=list)
    deadline: float | None = None


@event
class ReactionGiven(Event):
    """One answer in a window. What was answered stays private to the answering seat until the window closes."""

    window: int = 0
    seat: int = 0
    answer: str = ""
    means: str | None = None
    audience: list[int] = field(default_factory=list)
    PRIVATE = {"answer": "audience", "means": "audience"}


@event
class ReactionWindowClosed(Event):
    window: int = 0
    answers: dict[str, dict[str, Any]] = field(default_factory=dict)  # seat (as text) -> answer
    timed_out: list[int] = field(default_factory=list)  # seats that had not given permission
    by: str = "answers"  # answers or deadline


@event
class GuardDeclared(Event):
    seat: int = 0
    means: str = ""  # card or wall
    action: str = ""


@event
class BluffCalled(Event):
    window: int = 0
    caller: int = 0
    claimant: int = 0
    claim: str = ""
    about: str = "action"
    void_calls: list[int] = field(default_factory=list)  # later callers, ignored (R60, A13)


@event
class ClaimProven(Event):
    seat: int = 0
    claim: str = ""
    card: str = ""
    caller: int = 0


@event
class BluffExposed(Event):
    seat: int = 0
    claim: str = ""
    card: str | None = None  # None: no unrevealed card to show (A11)
    name: str | None = None
    caller: int = 0


@event
class CallSettled(Event):
    """The end of a call: ``correct`` says whether the caller was right (R58, R59)."""

    caller: int = 0
    claimant: int = 0
    claim: str = ""
    about: str = "action"
    correct: bool = False


@event
class GuardHeld(Event):
    seat: int = 0
    means: str = ""


@event
class ActionThwarted(Event):
    seat: int = 0
    action: str = ""
    reason: str = ""


@event
class ActionResolving(Event):
    """Nothing stops the action any more: it executes now (R40)."""

    seat: int = 0
    action: str = ""
    guarded_by: list[int] = field(default_factory=list)


@event
class ActionCompleted(Event):
    seat: int = 0
    action: str = ""
    outcome: str = ""


# ----- war -----


@event
class WarDesignated(Event):
    attacker: int = 0
    defender: int = 0


@event
class WarBattle(Event):
    attacker: int = 0
    defender: int = 0
    attacker_strength: int = 0
    defender_strength: int = 0
    wall_bonus: int = 0
    winner: int = 0
    loser: int = 0


@event
class WarThwarted(Event):
    attacker: int = 0
    defender: int = 0
    reason: str = ""


@event
class WarResolution(Event):
    loser: int = 0
    reveals_due: int = 0


@event
class WarCasualties(Event):
    attacker: int = 0
    defender: int = 0
    attacker_loss: int = 0
    defender_loss: int = 0


@event
class WarEnded(Event):
    attacker: int = 0
    defender: int = 0
    winner: int | None = None


# ----- elimination and the end -----


@event
class PlayerEliminated(Event):
    seat: int = 0
    reason: str = ""


@event
class GameEnded(Event):
    """The game is over; the seed is published so that every shuffle can be checked."""

    result: str = "win"  # win or draw
    winners: list[int] = field(default_factory=list)
    reason: str = ""
    seed: str = ""


# ----- the Undo rule (R155-R157, RULINGS "Undo") -----


@event
class UndoPauseBegan(Event):
    """The action is over but an undo may still be claimed: the game waits for the eligible players."""

    window: int = 0
    eligible: list[int] = field(default_factory=list)
    deadline: float | None = None


@event
class UndoWaived(Event):
    seat: int = 0
    window: int = 0


@event
class UndoExpired(Event):
    """The pause's deadline passed with no claim; the turn goes on."""

    window: int = 0
    waiting: list[int] = field(default_factory=list)


@event
class UndoClaimed(Event):
    """The game goes back to the moment ``window`` opened (events ``undone_from``..``undone_to`` are void) and
    the claimant's call is added to the answers the window had."""

    seat: int = 0
    window: int = 0
    undone_from: int = 0
    undone_to: int = 0
    answers: dict[str, dict[str, Any]] = field(default_factory=dict)


# ----- Classic: components, the estate deck and leader selection (R13-R22, A54) -----


@event
class ComponentsChosen(Event):
    """The estate cards and leader mats this Classic game uses, with their texts and how much of each the
    catalog knows (``plain``: played without effect, A54). Recorded so a replay never depends on today's catalog."""

    source: str = "shipped"
    estates: list[dict[str, Any]] = field(default_factory=list)
    leaders: list[dict[str, Any]] = field(default_factory=list)
    items: list[dict[str, Any]] = field(default_factory=list)  # the Classic items: count, class, effect


@event
class EstateDeckFormed(Event):
    """The estate cards left after 2 went into each year, face down, in an order nobody knows (R13, R15)."""

    size: int = 0
    cards: list[dict[str, str]] = field(default_factory=list)
    rng: list[int] = field(default_factory=list)
    SECRET = ("cards",)


@event
class EstatesMadeDeck(Event):
    """No year is left: the top 8 estate cards (fewer if fewer remain) become the deck (R35, A29)."""

    size: int = 0
    chosen_by: int = 0


@event
class LeaderSelectionBegan(Event):
    """Leader selection starts (R17): ``mode`` is limited, drafting or freeform (R19-R21)."""

    mode: str = "limited"
    order: list[int] = field(default_factory=list)  # freeform and drafting: who chooses first, then next
    rng: list[int] = field(default_factory=list)


@event
class LeaderMatsDealt(Event):
    """Mats a player draws without revealing them (Limited, R19) or draws to draft from (R20)."""

    seat: int = 0
    mats: list[str] = field(default_factory=list)
    knowers: list[int] = field(default_factory=list)
    rng: list[int] = field(default_factory=list)
    PRIVATE = {"mats": "knowers"}


@event
class LeaderKept(Event):
    """Limited Selection: a player places 1 of their mats face down (R19); the others go back to the box."""

    seat: int = 0
    mat: str = ""
    knowers: list[int] = field(default_factory=list)
    PRIVATE = {"mat": "knowers"}


@event
class LeaderChosen(Event):
    """A player's leader, shown to all: Freeform and Drafting picks (R20, R21), and every Limited mat when the
    game begins (R19). Drafting: ``passed`` mats go to ``passed_to``, who picks next (A45 ruling)."""

    seat: int = 0
    mat: str = ""
    plain: bool = False
    passed_to: int | None = None
    passed: list[str] = field(default_factory=list)
    knowers: list[int] = field(default_factory=list)
    PRIVATE = {"passed": "knowers"}


# ----- card effects (R92, R93, R131; docs/rulings.md "Card effects") -----


@event
class EffectQueued(Event):
    """A card's effect is to run: a trigger estate just revealed, or a condition estate at its moment."""

    id: int = 0
    source: str = ""
    owner: int = 0
    card: str = ""
    steps: list[dict[str, Any]] = field(default_factory=list)
    reason: str = ""
    plan: list[Any] | None = None  # a declared action's choices (RULINGS: one declaration, one window)
    guarded: list[int] = field(default_factory=list)
    for_action: bool = False


@event
class EffectsOrdered(Event):
    """Several effects wait at once: the current player picks the one that runs first (R131)."""

    seat: int = 0
    first: int = 0


@event
class EffectProgressed(Event):
    """The running effect moved on: ``index`` is its next step, ``work`` the progress inside that step."""

    id: int = 0
    index: int = 0
    work: dict[str, Any] | None = None
    steps: list[dict[str, Any]] | None = None  # a choice between lists of steps: the steps from now on


@event
class EffectEnded(Event):
    id: int = 0
    source: str = ""
    outcome: str = "done"


@event
class CardsToGain(Event):
    """An effect makes players gain cards (R94): each of ``seats`` gains ``count``, drawn one by one."""

    seats: list[int] = field(default_factory=list)
    count: int = 1
    reason: str = ""


@event
class SacrificesGiven(Event):
    """Soldiers given as sacrifices: laid on the receiver's mat, not counted in battle (R149, R115)."""

    seat: int = 0
    to: int = 0
    amount: int = 0
    reason: str = ""


@event
class ItemSoldiersChanged(Event):
    """Soldiers added to or removed from an item that keeps a count with them (the BOMB)."""

    item: str = ""
    delta: int = 0
    reason: str = ""


@event
class EffectPlanUsed(Event):
    """A declared action's effect used (or skipped) the next choice its declaration made."""

    id: int = 0


@event
class TriggersFired(Event):
    """The abilities waiting to fire have been queued as effects (or found inactive)."""

    count: int = 0


@event
class DictatorChosen(Event):
    """Dictator: a leader mat nobody leads goes to the reserve; every player shares its ability (R168)."""

    mat: str = ""
    plain: bool = False
    rng: list[int] = field(default_factory=list)


# ----- Artificers (R172) -----


@event
class ArtificersBegan(Event):
    """Artificers: before the game, in turn order, each player gives an opponent an item (R172)."""

    order: list[int] = field(default_factory=list)


@event
class ArtificerGave(Event):
    """An item of a one-piece kind, from the reserve, to an opponent holding fewer than 3 (R172). The TREATY is
    then gained with its INK QUILL by ``ItemGained`` events, as a Library gives it (R107, R108)."""

    seat: int = 0
    to: int = 0
    item: str = ""


@event
class ArtificerPassed(Event):
    seat: int = 0
    reason: str = ""


@event
class ArtificersDone(Event):
    """The setup gifts are over: every player holds 3 items, or no one-piece kind is left (A49)."""


# ----- mob players (R173-R181) -----


@event
class DieRolled(Event):
    """A D8 roll made for a mob (R173-R181): public. ``purpose`` names the procedure (action, player
    selection, object selection, agreement, ultimatum); ``dice`` has more than one die for Abundance
    (R181) and ``total`` is their sum; ``outcome`` says in words what the count landed on. ``rigged``
    dice came from a rigged position (not from the seed); ``rng`` is the seeded stream used."""

    seat: int = 0
    purpose: str = ""
    dice: list[int] = field(default_factory=list)
    total: int = 0
    outcome: str = ""
    rigged: int = 0
    rng: list[int] = field(default_factory=list)


@event
class DiceRigged(Event):
    """Rigged setup: the next D8 results, in order, for teaching and reproducing a mob's play."""

    dice: list[int] = field(default_factory=list)


# ----- the optional rules Rubble Rouser, Discovery (R158, R160, docs/rulings.md) -----


@event
class CardToRubble(Event):
    """Rubble Rouser: a discarded card goes face up onto the rubble, the public discard pile (R158).
    It keeps its id there: its identity is public from now on."""

    seat: int = 0
    card: str = ""
    name: str = ""
    was_revealed: bool = False
    reason: str = ""


@event
class RubbleShuffled(Event):
    """Rubble Rouser: a card must be gained from an empty deck, so the rubble is shuffled to form the deck,
    before any year (R158). Its composition was public; the order and the cards' new ids are not."""

    size: int = 0
    composition: dict[str, int] = field(default_factory=dict)
    cards: list[dict[str, str]] = field(default_factory=list)  # top first, with new ids
    rng: list[int] = field(default_factory=list)
    SECRET = ("cards",)


@event
class DiscoveryTokenPlaced(Event):
    """Discovery: a revealed card was unrevealed, so a discovery token on it shows everyone what it is (R160)."""

    seat: int = 0
    card: str = ""
    name: str = ""
    reason: str = ""


@event
class DiscoveryTokenRemoved(Event):
    """Discovery: the card leaves its possessor for the deck or the rubble; its token goes back (R160 ruling)."""

    seat: int = 0
    card: str = ""
    name: str = ""
    reason: str = ""


# ----- the Alliances, Overlord and Blasphemy variants (R163, R170, R171) -----


@event
class AlliesSeated(Event):
    """Alliances: each seat's allies, the players immediately left and right at setup (R163)."""

    allies: list[list[int]] = field(default_factory=list)  # by seat


@event
class OverlordChosen(Event):
    """Overlord: the seat that plays alone against every other player and always goes last (R170)."""

    seat: int = 0
    method: str = ""


@event
class BlasphemyCardSet(Event):
    """Blasphemy setup: cards revealed from the top of the deck until a building card; the others go to the
    bottom in the order revealed, the building is the Blasphemy card beside the deck (R171). All were shown."""

    card: str | None = None  # None: the deck held no building card (a rigged position only)
    name: str | None = None
    bottom: list[dict[str, str]] = field(default_factory=list)  # the other revealed cards, in order


@event
class BlasphemyTokenGained(Event):
    """A player used the Blasphemy card's action and nothing thwarted it (R171, A48 ruling)."""

    seat: int = 0
    action: str = ""
    total: int = 0


@event
class BlasphemySpoilsOffered(Event):
    """The winner of a war may take 1 of the loser's Blasphemy tokens (R90, R171): the winner chooses."""

    winner: int = 0
    loser: int = 0


@event
class BlasphemyTokenTaken(Event):
    seat: int = 0
    from_seat: int = 0


@event
class BlasphemySpoilsDeclined(Event):
    seat: int = 0
    loser: int = 0


@event
class OverlordScored(Event):
    """Overlord: the deck and every year are out of cards; each side's total of unrevealed cards (R170, A47)."""

    overlord: int = 0
    overlord_total: int = 0
    team: list[int] = field(default_factory=list)
    team_total: int = 0


@event
class EffectWarBegan(Event):
    """A card effect makes its possessor go to war (the attacker) with the player it selected (R78-R85)."""

    attacker: int = 0
    defender: int = 0
    source: str = ""


@event
class DrawReactionPassed(Event):
    """A holder of a Draw Phase reactive item lets this draw happen (R104, R118)."""

    seat: int = 0


@event
class DrawStopped(Event):
    """A reactive item used in a Draw Phase: the player gains no card this Draw Phase (R118; E21)."""

    seat: int = 0  # whose Draw Phase
    by: int = 0
    item: str = ""


@event
class SoldiersKept(Event):
    """A loss of soldiers not made: the player holds an item that keeps them (E19 ruling: always kept)."""

    seat: int = 0
    amount: int = 0
    item: str = ""
    reason: str = ""


# ----- resigning and timeouts (service rulings S2, S3; docs/rulings.md) -----


@event
class PlayerResigned(Event):
    """A player leaves the game of their own accord (S2). From here on they take no further part: they are
    dropped from every queue that would ask them later (Barracks discards, Quick reveals, card draws still to
    come, the Freeform and Drafting order, the Artificers gifts), no undo point forms from a window open now
    and none can be claimed any more. The events that follow eliminate them as R123 says (or, for the
    Overlord, end the game: R170)."""

    seat: int = 0


@event
class DecisionTimedOut(Event):
    """The clock on ``seat``'s decision of prompt kind ``kind`` ran out at ``deadline`` (S3): the service's
    cautious bot made it. ``played`` is the command it chose, which may name a card or an answer; only
    ``audience`` (the seat) sees it until the game is over. ``count``: decisions in a row that timed out."""

    seat: int = 0
    kind: str = ""
    deadline: float = 0.0
    count: int = 1
    played: dict[str, Any] = field(default_factory=dict)
    audience: list[int] = field(default_factory=list)
    PRIVATE = {"played": "audience"}


@event
class SeatAbandoned(Event):
    """``seat`` let ``count`` decisions in a row time out: a bot plays it for the rest of the game (S3)."""

    seat: int = 0
    count: int = 0
