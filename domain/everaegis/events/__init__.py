"""Every Ever Aegis event, in one module per concern of the rules. A concern's module declares each of its events
(``@event``), then its evolve handler (``@handler``: how it changes the state) and its narration (``@narrator``: how
it reads); ``tables`` holds the two tables they are entered in, ``moves`` and ``words`` what several concerns'
handlers and narrators share.

Field conventions: ``seat`` is the player the event is about; ``card`` is an opaque per-game card id;
``name`` is a card's identity, shown only to the seats listed in ``knowers`` (``PRIVATE``); fields in
``SECRET`` (the seed, deck orders, fresh card ids) are shown to nobody until the game is over.

Importing this package imports every concern's module, so every handler and narrator is entered before any event is
applied or narrated. Every event class is exported here (``from aegis.domain.everaegis import events as ev``, then
``ev.CardDrawn``): the ruleset's events are the ``Event`` classes of this namespace (``EverAegis.event_types``).
"""

# ruff: noqa: F401

from __future__ import annotations

# The imports are the package's exports, in the order the ruleset has always listed its events (the order of
# ``EverAegis.event_types`` and of the event schemas in the OpenAPI document), so a module may come twice. A new
# event goes at the end.
# isort: off
from aegis.domain.everaegis.events.setup import (
    GameStarted,
    YearsFormed,
    DeckFormed,
    FirstPlayerChosen,
    SetupDealt,
    SetupRevealsBegan,
)
from aegis.domain.everaegis.events.turns import TurnBegan, TurnSkipped, PhaseBegan, TurnEnded
from aegis.domain.everaegis.events.cards import (
    PROOF,
    YearMadeDeck,
    CardDrawn,
    CardDealt,
    CardNotGained,
    CardRevealed,
    CardUnrevealed,
    CardDiscarded,
    CardMoved,
    CardPutOnDeck,
)
from aegis.domain.everaegis.events.soldiers_items import (
    SoldiersChanged,
    ItemGained,
    ItemNotGained,
    ItemDiscarded,
    SanctionPlaced,
    SanctionNotPlaced,
    SanctionRemoved,
)
from aegis.domain.everaegis.events.claims import (
    ActionDeclared,
    ReactionWindowOpened,
    ReactionGiven,
    ReactionWindowClosed,
    GuardDeclared,
    BluffCalled,
    ClaimProven,
    BluffExposed,
    CallSettled,
    GuardHeld,
    ActionThwarted,
    USED_IN_REACTION,
    ActionResolving,
    ActionCompleted,
)
from aegis.domain.everaegis.events.war import WarDesignated, WarBattle, WarThwarted, WarResolution, WarCasualties, WarEnded
from aegis.domain.everaegis.events.end import PlayerEliminated, GameEnded
from aegis.domain.everaegis.events.undo import UndoPauseBegan, UndoWaived, UndoExpired, UndoClaimed
from aegis.domain.everaegis.events.classic import (
    ComponentsChosen,
    EstateDeckFormed,
    EstatesMadeDeck,
    LeaderSelectionBegan,
    LeaderMatsDealt,
    LeaderKept,
    LeaderChosen,
)
from aegis.domain.everaegis.events.effects import (
    EffectQueued,
    EffectsOrdered,
    EffectProgressed,
    EffectEnded,
    CardsToGain,
    SacrificesGiven,
    ItemSoldiersChanged,
    EffectPlanUsed,
    TriggersFired,
)
from aegis.domain.everaegis.events.classic import DictatorChosen
from aegis.domain.everaegis.events.artificers import ArtificersBegan, ArtificerGave, ArtificerPassed, ArtificersDone
from aegis.domain.everaegis.events.mobs import DieRolled, DiceRigged
from aegis.domain.everaegis.events.optional_rules import CardToRubble, RubbleShuffled, DiscoveryTokenPlaced, DiscoveryTokenRemoved
from aegis.domain.everaegis.events.variants import (
    AlliesSeated,
    OverlordChosen,
    BlasphemyCardSet,
    BlasphemyTokenGained,
    BlasphemySpoilsOffered,
    BlasphemyTokenTaken,
    BlasphemySpoilsDeclined,
    OverlordScored,
)
from aegis.domain.everaegis.events.war import EffectWarBegan
from aegis.domain.everaegis.events.soldiers_items import DrawReactionPassed, DrawStopped, SoldiersKept
from aegis.domain.everaegis.events.resign import PlayerResigned, DecisionTimedOut, SeatAbandoned
# isort: on
# isort: off
from aegis.domain.everaegis.events.branches import BranchBegan, CardsDealtAgain
from aegis.domain.everaegis.events.war import EffectWarOver  # rules version 2
# isort: on
