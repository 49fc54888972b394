"""The Ever Aegis game state. It is only ever built by folding events (see ``evolve``).

``GameState`` holds the game's identity and main collections, and a record per concern: ``classic`` (the
Classic components, leader selection, Dictator and Artificers' setup), ``items``, ``play`` (the turn),
``pending`` (card effects), ``calls`` (the reaction protocol), ``outcome``, ``departures`` (resigned and
abandoned seats) and ``variant`` (``variant_state.py``). A new field goes in the record of its concern.

Every class here has a ``clone`` that copies what ``evolve`` may change, so a state handed out is
never mutated afterwards (``tests/domain/test_state_clone.py`` checks that a clone shares nothing mutable).
"""

from __future__ import annotations

import functools
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from typing import Any, TypeVar

from aegis.domain.everaegis.card import Card
from aegis.domain.everaegis.config import Config
from aegis.domain.everaegis.variant_state import VariantState
from aegis.domain.kernel.codec import INLINE, Codec

T = TypeVar("T")


@dataclass
class Player:
    seat: int
    name: str
    cards: list[Card] = field(default_factory=list)
    soldiers: int = 0
    sacrifices: int = 0  # soldiers laid on the mat, not counted in battle (R149)
    eliminated: bool = False
    sanctions: list[str] = field(default_factory=list)  # action keys carrying a SANCTION
    brigs: int = 0
    leader: str | None = None  # Classic: the leader mat (None: the Simpleton side, R22)
    mats: list[str] = field(default_factory=list)  # leader selection: mats in hand, known to this seat only
    kept: str | None = None  # Limited Selection: the mat placed face down, until the game begins (R19)

    def clone(self) -> Player:
        return Player(
            self.seat,
            self.name,
            list(self.cards),
            self.soldiers,
            self.sacrifices,
            self.eliminated,
            list(self.sanctions),
            self.brigs,
            self.leader,
            list(self.mats),
            self.kept,
        )

    @property
    def unrevealed(self) -> list[Card]:
        return [c for c in self.cards if not c.revealed]

    @property
    def revealed(self) -> list[Card]:
        return [c for c in self.cards if c.revealed]

    def card(self, card_id: str) -> Card | None:
        for c in self.cards:
            if c.id == card_id:
                return c
        return None


def data_copy(value: T) -> T:
    """A copy of JSON-like data (dicts and lists, to any depth; everything else is immutable and kept): what a
    clone holds of a plan, an effect's work or a window's answers, so that nothing changed in the clone shows in
    its original (tests/domain/test_state_clone.py walks both)."""
    if isinstance(value, dict):
        return {k: data_copy(v) for k, v in value.items()}  # type: ignore[return-value]
    if isinstance(value, list):
        return [data_copy(v) for v in value]  # type: ignore[return-value]
    return value


@functools.cache
def _clockwise(seats: int, start: int) -> tuple[int, ...]:
    """Every seat of a ``seats``-seat table, clockwise from ``start`` (asked for on almost every step: made once)."""
    return tuple((start + i) % seats for i in range(seats))


@dataclass
class Window:
    """A reaction window on a claim: who is asked, who answered what, and the deadline."""

    id: int
    claimant: int
    claim: str
    about: str  # "action" or "guard"
    asked: list[int]
    answers: dict[int, dict[str, Any]] = field(default_factory=dict)
    deadline: float | None = None
    closing: str | None = None  # "undo": answered by an undo claim, to be closed as such

    def clone(self) -> Window:
        return Window(
            self.id, self.claimant, self.claim, self.about, list(self.asked), data_copy(self.answers), self.deadline, self.closing
        )

    @property
    def waiting_for(self) -> list[int]:
        return [s for s in self.asked if s not in self.answers]


@dataclass
class UndoPoint:
    """RULINGS "Undo" (R155, R156): an action window closed by its deadline before some asked players
    answered. ``snapshot`` is the state just after the window opened; the players in ``eligible`` may
    claim an undo until a card is revealed, gained or put on the deck, or the End Phase begins."""

    window: int
    claimant: int
    snapshot: GameState
    answers: dict[str, dict[str, Any]]
    eligible: list[int]
    waived: list[int] = field(default_factory=list)
    paused: bool = False
    deadline: float | None = None

    def clone(self) -> UndoPoint:
        # the snapshot is never changed once taken: shared (tests/domain/test_state_clone.py)
        return replace(self, answers=data_copy(self.answers), eligible=list(self.eligible), waived=list(self.waived))

    @property
    def waiting(self) -> list[int]:
        return [s for s in self.eligible if s not in self.waived]


@dataclass
class Pending:
    """A card effect waiting to run or running (R92, R93, R131): its steps, which step is next, and the
    progress inside that step (``work``: who is left, how many are left)."""

    id: int
    source: str  # the card's name
    owner: int  # the card's possessor, who makes the effect's choices (R124: even when eliminated)
    steps: list[dict[str, Any]]
    index: int = 0
    work: dict[str, Any] | None = None
    chosen: bool = False  # picked to run first among several (R131)
    plan: list[Any] | None = None  # a declared action's choices, made in the declaration (RULINGS)
    guarded: list[int] = field(default_factory=list)  # players a standing guard keeps out of it (R66)
    reason: str = ""  # why it takes effect ("the AXE was discarded"): tells two effects of one ability apart (R131)

    def clone(self) -> Pending:
        return replace(
            self,
            steps=list(self.steps),  # each step is the catalog's text, never changed (shared, as components are)
            work=data_copy(self.work),
            plan=data_copy(self.plan),
            guarded=list(self.guarded),
        )

    @property
    def started(self) -> bool:
        return self.index > 0 or self.work is not None or self.chosen


@dataclass
class Guard:
    seat: int
    means: str  # "card" or "wall"
    status: str = "claimed"  # claimed -> window -> closed -> stands | thwarted


@dataclass
class Challenge:
    """A call being settled: the claimant proves (or not), then an incorrect caller pays."""

    caller: int
    claimant: int
    claim: str
    about: str  # "action" or "guard"
    stage: str = "proof"  # proof -> penalty


@dataclass
class War:
    attacker: int
    defender: int
    stage: str = "designate"  # designate -> battle -> resolution -> casualties
    winner: int | None = None
    loser: int | None = None
    due: int = 0  # cards the loser still has to reveal


@dataclass
class Act:
    """The action being used this Action Phase, from declaration to completion."""

    declarer: int
    action: str
    plan: dict[str, Any]
    claim: str | None
    sanctioned: bool
    stage: str = "declared"  # declared, window, challenge, guards, execute
    guards: list[Guard] = field(default_factory=list)
    queue: list[int] = field(default_factory=list)  # Barracks: opponents still to discard
    discarded: int = 0  # Barracks: opponents who have discarded
    todo: list[dict[str, Any]] = field(default_factory=list)  # SANCTIONS still to place
    war: War | None = None
    step: int = 0  # action-specific progress (Temple: the card has moved)
    reacted: tuple[int, str] | None = None  # a reactive item used against it: (seat, item) (R104)
    from_effect: bool = False  # a war an effect started, not the turn's action (it does not end the Action Phase)

    def clone(self) -> Act:
        return Act(
            self.declarer,
            self.action,
            data_copy(self.plan),
            self.claim,
            self.sanctioned,
            self.stage,
            [replace(g) for g in self.guards],
            list(self.queue),
            self.discarded,
            data_copy(self.todo),
            replace(self.war) if self.war else None,
            self.step,
            self.reacted,
            self.from_effect,
        )

    def guard_of(self, seat: int) -> Guard | None:
        for g in self.guards:
            if g.seat == seat:
                return g
        return None

    def guarded(self, seat: int) -> bool:
        g = self.guard_of(seat)
        return g is not None and g.status == "stands"


# ----- the game state's records, one per concern: each copies what ``evolve`` may change of it in its ``clone`` -----


@dataclass
class ClassicState:
    """What a Classic game adds to the table, its items aside (``ItemState``): the components it plays, the estate
    deck, the leader selection, and the setups of Dictator (R168) and Artificers (R172), which need them. In a
    Simpleton game every field keeps its default."""

    components: dict[str, Any] | None = None  # the ComponentsChosen record (texts, plain marks)
    estate_deck: list[Card] = field(default_factory=list)  # top first, order known to nobody (R13)
    selecting: list[int] = field(default_factory=list)  # Freeform/Drafting: who picks a leader next, in order
    dictator: str | None = None  # Dictator: the mat in the reserve whose ability every player shares (R168)
    gifting: list[int] = field(default_factory=list)  # Artificers setup: the giver first, then the others (R172)
    artificers_done: bool = False

    def clone(self) -> ClassicState:
        return ClassicState(
            self.components,  # never changed once recorded: shared
            list(self.estate_deck),
            list(self.selecting),
            self.dictator,
            list(self.gifting),
            self.artificers_done,
        )


@dataclass
class ItemState:
    """The items (R102-R113): who holds the WALL, the TREATY and its INK QUILL, how many SANCTIONS and BRIGS the
    reserve has left (those placed are on the players' mats), and the Classic items: who holds how many of each
    kind, the soldiers kept on one, those received this turn, and who may still use one against a draw."""

    wall: int | None = None
    treaty: int | None = None
    quill: int | None = None
    sanction_supply: int = 0
    brig_supply: int = 0
    held: dict[str, dict[int, int]] = field(default_factory=dict)  # Classic items: name -> {seat: pieces}
    item_soldiers: dict[str, int] = field(default_factory=dict)  # soldiers kept on an item (the BOMB)
    fresh: dict[str, dict[int, int]] = field(default_factory=dict)  # Classic items received this turn (R103)
    draw_asked: list[int] = field(default_factory=list)  # who may still use a Draw Phase reactive item (R118)

    def clone(self) -> ItemState:
        return ItemState(
            self.wall,
            self.treaty,
            self.quill,
            self.sanction_supply,
            self.brig_supply,
            {name: dict(by) for name, by in self.held.items()},
            dict(self.item_soldiers),
            {name: dict(by) for name, by in self.fresh.items()},
            list(self.draw_asked),
        )


@dataclass
class PlayState:
    """The turn being played (R23-R33): who played first and who plays now, the turn's number and phase, the draws
    and reveals still due, and the action being used (and whether this turn's is done)."""

    first_player: int | None = None
    current: int | None = None
    turn: int = 0
    phase: str | None = None
    draw_queue: list[tuple[int, str]] = field(default_factory=list)  # (seat, why): the cards still to be drawn
    reveal_queue: list[int] = field(default_factory=list)  # Quick Game setup: who reveals next, in order
    act: Act | None = None
    action_done: bool = False

    def clone(self) -> PlayState:
        return PlayState(
            self.first_player,
            self.current,
            self.turn,
            self.phase,
            list(self.draw_queue),
            list(self.reveal_queue),
            self.act.clone() if self.act else None,
            self.action_done,
        )


@dataclass
class PendingState:
    """Card effects (R92, R93, R131): the abilities to fire, the effects to run (the first one first) and how many
    effects were queued so far (the next one's number)."""

    triggers: list[dict[str, Any]] = field(default_factory=list)  # abilities to fire (an opponent's item discarded)
    effects: list[Pending] = field(default_factory=list)  # card effects to run, the first one first
    effects_queued: int = 0

    def clone(self) -> PendingState:
        return PendingState(list(self.triggers), [p.clone() for p in self.effects], self.effects_queued)


@dataclass
class CallState:
    """The reaction protocol (R55-R72): the open window, the call being settled, how many windows were opened,
    the state when the open action window opened (for Undo, R155) and who may call no more (Vengeance, R159)."""

    window: Window | None = None
    challenge: Challenge | None = None
    windows_opened: int = 0
    window_snapshot: GameState | None = None  # the state when the open action window opened (for Undo)
    silenced: list[int] = field(default_factory=list)  # Vengeance (R159): eliminated seats that called wrongly

    def clone(self) -> CallState:
        return CallState(
            self.window.clone() if self.window else None,
            replace(self.challenge) if self.challenge else None,
            self.windows_opened,
            self.window_snapshot,  # never changed once taken: shared
            list(self.silenced),
        )


@dataclass
class OutcomeState:
    """How the game ended (R9-R12), and the count that ends it in a stalemate (see docs/rulings.md)."""

    result: str | None = None  # win or draw
    winners: list[int] = field(default_factory=list)
    end_reason: str | None = None
    quiet_turns: int = 0  # turns in a row in which no card moved, flipped or was gained (stalemate ruling)

    def clone(self) -> OutcomeState:
        return OutcomeState(self.result, list(self.winners), self.end_reason, self.quiet_turns)


@dataclass
class Departures:
    """Seats whose players left: by resigning (S2) or by leaving the service to play for them (S3)."""

    resigned: list[int] = field(default_factory=list)  # S2: seats that resigned (and so are eliminated), in order
    abandoned: list[int] = field(default_factory=list)  # S3: seats the service gave to a bot for the rest of the game

    def clone(self) -> Departures:
        return Departures(list(self.resigned), list(self.abandoned))


@dataclass
class GameState:
    """The game's identity and main collections, and a record per concern. Snapshots store the records' fields
    among the state's own (``INLINE``), as they were stored before the state had records."""

    config: Config
    seed: str = ""
    commitment: str = ""
    seq: int = 0
    rng: int = 0  # position in the seeded stream
    status: str = "setup"  # setup, active, finished
    stage: str = "setup"  # setup, quick_reveal, turn
    players: list[Player] = field(default_factory=list)
    deck: list[Card] = field(default_factory=list)  # top first
    years: list[tuple[str, list[Card]]] = field(default_factory=list)
    rigged: bool = False
    undo: UndoPoint | None = None
    dice: list[int] = field(default_factory=list)  # rigged D8 results still to come (rig "dice"; mob.py)
    rubble: list[Card] = field(default_factory=list)  # Rubble Rouser (R158): discarded cards, face up, oldest first
    classic: ClassicState = field(default_factory=ClassicState, metadata=INLINE)
    items: ItemState = field(default_factory=ItemState, metadata=INLINE)
    play: PlayState = field(default_factory=PlayState, metadata=INLINE)
    pending: PendingState = field(default_factory=PendingState, metadata=INLINE)
    calls: CallState = field(default_factory=CallState, metadata=INLINE)
    outcome: OutcomeState = field(default_factory=OutcomeState, metadata=INLINE)
    departures: Departures = field(default_factory=Departures, metadata=INLINE)
    variant: VariantState = field(default_factory=VariantState)  # Alliances, Overlord, Blasphemy (R163, R170, R171)
    # who is asked at seq N, once worked out (flow.waiting): every event moves seq on, so it is never stale;
    # not part of the game (a clone starts without it, equality ignores it)
    asked_at: tuple[int, list[Any]] | None = field(default=None, repr=False, compare=False)

    def clone(self) -> GameState:
        return GameState(
            config=self.config,
            seed=self.seed,
            commitment=self.commitment,
            seq=self.seq,
            rng=self.rng,
            status=self.status,
            stage=self.stage,
            players=[p.clone() for p in self.players],
            deck=list(self.deck),
            years=[(label, list(cards)) for label, cards in self.years],
            rigged=self.rigged,
            undo=self.undo.clone() if self.undo else None,
            dice=list(self.dice),
            rubble=list(self.rubble),
            classic=self.classic.clone(),
            items=self.items.clone(),
            play=self.play.clone(),
            pending=self.pending.clone(),
            calls=self.calls.clone(),
            outcome=self.outcome.clone(),
            departures=self.departures.clone(),
            variant=self.variant.clone(),
        )

    # ----- queries used across the rules modules -----
    @property
    def seats(self) -> int:
        return self.config.seats

    def remaining(self) -> list[int]:
        return [p.seat for p in self.players if not p.eliminated]

    def first_remaining(self) -> int:
        """Who takes the first turn: the first player, or if they resigned before it, the next remaining seat in
        turn order (S2)."""
        first = self.play.first_player or 0
        return next((seat for seat in self.turn_order_from(first) if not self.players[seat].eliminated), first)

    def autoplayed(self) -> list[int]:
        """The seats whose remaining decisions the service makes: resigned (S2) and abandoned (S3) seats."""
        return sorted(set(self.departures.resigned) | set(self.departures.abandoned))

    def turn_order_from(self, start: int) -> tuple[int, ...]:
        """Every seat, clockwise, starting with ``start`` (R23, R135)."""
        return _clockwise(self.seats, start)

    def in_turn_order(self, seats: Iterable[int]) -> list[int]:
        """``seats`` sorted in turn order from the current player (R60, R135)."""
        wanted = seats if isinstance(seats, (set, frozenset, range)) else set(seats)
        if not wanted:
            return []
        return [s for s in self.turn_order() if s in wanted]

    def remaining_in_turn_order(self) -> list[int]:
        """The remaining players in turn order from the current player (``in_turn_order(remaining())`` in one pass)."""
        players = self.players
        return [s for s in self.turn_order() if not players[s].eliminated]

    def turn_order(self) -> tuple[int, ...]:
        """Every seat in turn order from the current player (from the first player before the first turn)."""
        play = self.play
        start = play.current if play.current is not None else (play.first_player or 0)
        return _clockwise(self.config.seats, start)

    def may_call(self, seat: int, claimant: int) -> bool:
        """R56, R62: a remaining player other than the claimant, without a BRIG (A37 ruling), not the
        claimant's TREATY partner (R107). Used by the reaction protocol and by Undo. Under Vengeance
        (R159) an eliminated player may call too, until their first wrong call; a player who resigned never
        does (S2)."""
        p = self.players[seat]
        if seat in self.departures.resigned:  # S2: a resigned player never calls again, also under Vengeance
            return False
        if p.eliminated and (not self.config.option("vengeance") or seat in self.calls.silenced):
            return False
        # asked for every seat of every window: the TREATY and mob checks are skipped at once without either
        return (
            seat != claimant
            and p.brigs == 0
            and (self.items.treaty is None or self.partner(claimant) != seat)
            # A50 ruling: a mob never calls; R43: a mob's action is no claim
            and (not self.config.mobs or not (self.is_mob(seat) or self.is_mob(claimant)))
            # the SCALES (p.23): "Makes a player unable to call bluffs and makes others unable to call their bluffs."
            and not (self.items.held and any(holder in (seat, claimant) for holder, _, _ in self.holding("no_calls")))
        )

    def partner(self, seat: int) -> int | None:
        """The other party of the TREATY, if ``seat`` is one of its two parties (R107, R108)."""
        treaty, quill = self.items.treaty, self.items.quill
        if treaty is None or quill is None or treaty == quill:
            return None
        if seat == treaty:
            return quill
        if seat == quill:
            return treaty
        return None

    def owner_of(self, card_id: str) -> int | None:
        for p in self.players:
            for c in p.cards:
                if c.id == card_id:
                    return p.seat
        return None

    def all_card_ids(self) -> set[str]:
        ids = {c.id for p in self.players for c in p.cards}
        ids.update(c.id for c in self.deck)
        for _, cards in self.years:
            ids.update(c.id for c in cards)
        ids.update(c.id for c in self.classic.estate_deck)
        ids.update(c.id for c in self.rubble)
        if self.variant.blasphemy is not None:  # R171: the Blasphemy card beside the deck
            ids.add(self.variant.blasphemy.id)
        return ids

    def card_count(self) -> int:
        return (
            sum(len(p.cards) for p in self.players)
            + len(self.deck)
            + sum(len(c) for _, c in self.years)
            + len(self.classic.estate_deck)
            + len(self.rubble)
            + (self.variant.blasphemy is not None)  # R171: the Blasphemy card beside the deck
        )

    def component(self, section: str, name: str | None) -> dict[str, Any] | None:
        """A Classic component as this game recorded it (``ComponentsChosen``); None if there is none."""
        components = self.classic.components
        if components is None or name is None:
            return None
        for e in components.get(section, []):
            if e["name"] == name:
                return e
        return None

    def estate(self, name: str) -> dict[str, Any] | None:
        """The recorded text of an estate card in a Classic game (None: a building, or a Simpleton game)."""
        return self.component("estates", name)

    def in_effect(self, condition: str) -> bool:
        """A condition estate's condition holds: the card is revealed and possessed (R93), by any occurring
        player, eliminated or not (E5)."""
        from aegis.domain.everaegis.vocabulary import conditions

        if self.classic.components is None:  # a Simpleton game has no estate card (asked at every war declared)
            return False
        for p in self.players:
            for c in p.cards:
                if c.revealed:
                    entry = self.estate(c.name)
                    if entry is not None and condition in conditions(entry.get("effect")):
                        return True
        return False

    def plain_action(self, seat: int, action: str) -> bool:
        """A Laboratory or Library of a leader whose text the rulebook does not print: no effect (A54)."""
        if action not in ("laboratory", "library"):
            return False
        entry = self.leader_entry(self.players[seat].leader)
        return bool(entry and entry["plain"])

    def item_entry(self, name: str) -> dict[str, Any] | None:
        """A Classic item as recorded for this game (None: a Simpleton item, or a Simpleton game)."""
        return self.component("items", name)

    def supply(self, item: str) -> int:
        """Pieces of a Classic item in the reserve (R105)."""
        entry = self.item_entry(item)
        return (entry["count"] if entry else 0) - sum(self.items.held.get(item, {}).values())

    def items_of(self, seat: int) -> list[str]:
        """The Classic items ``seat`` holds, a name per piece."""
        return [name for name, by in sorted(self.items.held.items()) for _ in range(by.get(seat, 0))]

    def items_acting(self, seat: int, when: str, item_class: str | None = None) -> list[str]:
        """The kinds of Classic items ``seat`` holds whose effect acts ``when`` (and of ``item_class``)."""
        if not self.items.held:
            return []
        out = []
        for name in sorted({name for name, by in self.items.held.items() if by.get(seat)}):
            entry = self.item_entry(name)
            if entry and item_class in (None, entry.get("class")) and self.item_effect(name, when) is not None:
                out.append(name)
        return out

    def item_effect(self, name: str, when: str) -> dict[str, Any] | None:
        """The effect of the Classic item ``name`` that acts ``when`` (an item may have several, for several moments)."""
        from aegis.domain.everaegis.vocabulary import effects_of

        return next((e for e in effects_of(self.item_entry(name)) if e.get("when") == when), None)

    def holding(self, condition: str) -> list[tuple[int, str, dict[str, Any]]]:
        """Who holds an item in constant effect (R102) with this condition: (seat, item, the condition's step),
        the seats in turn order; eliminated players hold nothing (R123)."""
        if not self.items.held:
            return []
        out: list[tuple[int, str, dict[str, Any]]] = []
        for name, by in sorted(self.items.held.items()):
            effect = self.item_effect(name, "while held") if any(by.values()) else None
            for step in effect["steps"] if effect else ():
                if step["step"] == condition:
                    out.extend((seat, name, step) for seat, n in by.items() if n > 0 and not self.players[seat].eliminated)
        order = self.turn_order()
        return sorted(out, key=lambda h: order.index(h[0]))

    def seat_led_by(self, leader: str) -> int | None:
        for p in self.players:
            if p.leader == leader:
                return p.seat
        return None

    def leader_effect(self, seat: int, key: str) -> dict[str, Any] | None:
        """The effect of ``seat``'s leader's laboratory, library or ability, if the engine plays it."""
        entry = self.leader_entry(self.players[seat].leader)
        if entry is None or entry["plain"]:
            return None
        return (entry.get("effects") or {}).get(key)

    def abilities(self, seat: int, moment: str | None = None) -> list[str]:
        """The mats whose ability ``seat`` has (acting at ``moment``, if given): their own leader's, and in
        Dictator the shared one (R168, A52 ruling: both). None while eliminated (R123, R130), nor while possessing the
        CHOKER: "You do not have an ability while you possess this." (its item page, p. 11)."""
        if self.players[seat].eliminated or self.items.held.get("CHOKER", {}).get(seat, 0) > 0:
            return []
        out: list[str] = []
        for mat in (self.players[seat].leader, self.classic.dictator):
            entry = self.leader_entry(mat)
            ability = (entry.get("effects") or {}).get("ability") if entry is not None and not entry["plain"] else None
            if mat is not None and ability and (moment is None or ability["when"] == moment):
                out.append(mat)
        return out

    def leader_entry(self, name: str | None) -> dict[str, Any] | None:
        return self.component("leaders", name)

    # ----- mobs and Solo (R167, R173) -----
    def is_mob(self, seat: int) -> bool:
        """R173: the seat is played by the D8 (mob.py), never prompted."""
        return seat in self.config.mobs

    def may_bluff(self, seat: int) -> bool:
        """R167 Solo: the person cannot bluff; they claim only buildings they hold unrevealed."""
        return "solo" not in self.config.variants or self.is_mob(seat)

    def holds(self, seat: int, building: str) -> bool:
        return any(c.name == building for c in self.players[seat].unrevealed)


# A state as plain data and back (snapshots without the log): every class a state holds, and the configuration it
# shares with the game, written by name.
STATE_CODEC = Codec([Card, Player, Window, UndoPoint, Pending, Guard, Challenge, War, Act, GameState, VariantState], ["config"])


def encode_state(state: GameState) -> dict[str, Any]:
    data: dict[str, Any] = STATE_CODEC.encode(state, {"config": state.config})
    return data


def decode_state(config: Config, data: dict[str, Any]) -> GameState:
    state = STATE_CODEC.decode(data, {"config": config})
    if not isinstance(state, GameState):
        raise ValueError("the stored data is not a game state")
    return state
