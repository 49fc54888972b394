"""Every decision kind of Ever Aegis, each declared once in the module that owns its rule.

To add a decision: declare a ``DecisionKind`` beside its rule (its command fields, prompt, apply, mob and the words
of a timeout), list it here, and make ``flow.step`` stop where the game waits for it (``flow.waiting`` follows).
``decide``, the prompts, the refusals, the mobs and the narration of a timeout find it here; nothing else lists the
kinds (docs/architecture.md, "How to add a decision kind").
"""

from __future__ import annotations

from aegis.domain.everaegis.actions import BARRACKS_DISCARD, DECLARE, PUT_BACK, SANCTION_DISCARD
from aegis.domain.everaegis.artificers import ARTIFICER_GIFT
from aegis.domain.everaegis.blasphemy import SPOILS
from aegis.domain.everaegis.cards import CHOOSE_YEAR
from aegis.domain.everaegis.consumables import END_PHASE, USE_ITEM
from aegis.domain.everaegis.effects import EFFECT_CHOICE, EFFECT_ORDER
from aegis.domain.everaegis.items import TAKE_SANCTION, TREATY_GIFT
from aegis.domain.everaegis.leaders import CHOOSE_LEADER
from aegis.domain.everaegis.reactions import CLOSE_WINDOW, PAY, PROVE, REACT, TAKE_BRIG
from aegis.domain.everaegis.reactive import DRAW_REACTION
from aegis.domain.everaegis.resign import RESIGN
from aegis.domain.everaegis.setup import SETUP_REVEAL
from aegis.domain.everaegis.undo import CLOSE_UNDO, UNDO
from aegis.domain.everaegis.war import WAR_REVEAL
from aegis.domain.kernel.decisions import Registry

DECISIONS = Registry(
    [
        # setup
        CHOOSE_LEADER,
        ARTIFICER_GIFT,
        SETUP_REVEAL,
        # the turn
        DRAW_REACTION,
        CHOOSE_YEAR,
        USE_ITEM,
        DECLARE,
        REACT,
        PROVE,
        PAY,
        TAKE_BRIG,
        SANCTION_DISCARD,
        BARRACKS_DISCARD,
        PUT_BACK,
        TAKE_SANCTION,
        WAR_REVEAL,
        SPOILS,
        EFFECT_CHOICE,
        EFFECT_ORDER,
        UNDO,
        END_PHASE,
        # at any time
        TREATY_GIFT,
        RESIGN,
        # the service's
        CLOSE_WINDOW,
        CLOSE_UNDO,
    ]
)
