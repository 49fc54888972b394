"""``evolve(state, event) -> state``: apply one event. Nothing here decides anything.

``apply`` mutates a state that the caller owns (a clone); ``evolve`` clones first, so states handed
out are never changed; ``fold`` builds a state from a whole log with a single working copy.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable
from typing import Any

from aegis.domain.everaegis import events as ev
from aegis.domain.everaegis.catalog import ACTIONS, CATALOG
from aegis.domain.everaegis.config import Config
from aegis.domain.everaegis.state import Act, Card, Challenge, GameState, Guard, Pending, Player, UndoPoint, War, Window
from aegis.domain.kernel.events import Event

_APPLY: dict[type[Event], Callable[[GameState, Any], None]] = {}


def _on(cls: type[Event]) -> Callable[[Callable[[GameState, Any], None]], Callable[[GameState, Any], None]]:
    def register(fn: Callable[[GameState, Any], None]) -> Callable[[GameState, Any], None]:
        _APPLY[cls] = fn
        return fn

    return register


def initial_state(config: Config) -> GameState:
    return GameState(config=config)


# Events after which the table is no longer "quiet" for the stalemate ruling (see docs/rulings.md).
_PROGRESS = (
    ev.CardDrawn,
    ev.CardDealt,
    ev.CardRevealed,
    ev.CardUnrevealed,
    ev.CardDiscarded,
    ev.CardMoved,
    ev.CardPutOnDeck,
    ev.PlayerEliminated,
    ev.CardToRubble,
)


# Events after which an undo can no longer be claimed: a card revealed, gained or seen (R156).
# Under Rubble Rouser a discard is face up: a card revealed (R158). A resignation cannot be undone (S2).
UNDO_CLOSERS = tuple(
    cls.TYPE
    for cls in (ev.CardDrawn, ev.CardDealt, ev.CardRevealed, ev.CardPutOnDeck, ev.CardMoved, ev.CardToRubble, ev.PlayerResigned)
)


ELIMINATION_REVEAL = "eliminated (R123)"  # the reason of the reveals an elimination makes (turns.eliminate)


def closes_undo(event: dict[str, Any]) -> bool:
    """RULINGS "Undo": after this event (as a dict) an undo can no longer be claimed; so does the End Phase."""
    return event["type"] in UNDO_CLOSERS or (event["type"] == "PhaseBegan" and event.get("phase") == "end")


def apply(state: GameState, event: Event) -> None:
    """Apply ``event`` to ``state`` in place. Only for a state the caller owns."""
    handler = _APPLY.get(type(event))
    if handler is None:
        raise TypeError(f"no evolve rule for {event.TYPE}")
    handler(state, event)
    if isinstance(event, _PROGRESS):
        state.outcome.quiet_turns = 0
    if state.undo is not None and closes_undo({"type": event.TYPE, "phase": getattr(event, "phase", None)}):
        state.undo = None  # RULINGS "Undo": too late now
    state.seq = event.seq


def evolve(state: GameState, event: Event) -> GameState:
    new = state.clone()
    apply(new, event)
    return new


def fold(config: Config, events: Iterable[Event]) -> GameState:
    state = initial_state(config)
    for e in events:
        apply(state, e)
    return state


def _cards(raw: list[dict[str, str]]) -> list[Card]:
    return [Card(c["id"], c["name"]) for c in raw]


def _take_card(state: GameState, seat: int, card_id: str) -> Card:
    player = state.players[seat]
    for i, c in enumerate(player.cards):
        if c.id == card_id:
            return player.cards.pop(i)
    raise ValueError(f"seat {seat} has no card {card_id}")


def _replace_card(state: GameState, seat: int, card: Card) -> None:
    cards = state.players[seat].cards
    for i, c in enumerate(cards):
        if c.id == card.id:
            cards[i] = card
            return
    raise ValueError(f"seat {seat} has no card {card.id}")


# ----- setup -----


@_on(ev.GameStarted)
def _started(s: GameState, e: ev.GameStarted) -> None:
    s.config = Config.from_dict(e.config)
    s.seed = e.seed
    s.commitment = e.commitment
    s.rigged = e.rigged
    names = s.config.names or tuple(f"Seat {i}" for i in range(s.config.seats))
    s.players = [Player(i, names[i]) for i in range(s.config.seats)]
    s.items.sanction_supply = CATALOG.item_count["SANCTION"]
    s.items.brig_supply = CATALOG.item_count["BRIG"]
    s.status = "setup"
    s.stage = "setup"


@_on(ev.YearsFormed)
def _years(s: GameState, e: ev.YearsFormed) -> None:
    s.years = [(y["year"], _cards(cards)) for y, cards in zip(e.years, e.cards, strict=True)]
    s.rng = e.rng[1]


@_on(ev.DeckFormed)
def _deck(s: GameState, e: ev.DeckFormed) -> None:
    s.years = [(label, cards) for label, cards in s.years if label not in e.years]
    s.deck = _cards(e.cards)
    s.rng = e.rng[1]


@_on(ev.FirstPlayerChosen)
def _first(s: GameState, e: ev.FirstPlayerChosen) -> None:
    s.play.first_player = e.seat
    if e.rng:
        s.rng = e.rng[1]


@_on(ev.SetupDealt)
def _dealt(s: GameState, e: ev.SetupDealt) -> None:
    order = [seat for seat in s.turn_order_from(s.play.first_player or 0) if not s.players[seat].eliminated]  # S2: not resigned
    for _ in range(e.cards_each):
        s.play.draw_queue.extend((seat, "setup") for seat in order)
    s.stage = "deal"
    s.status = "active"  # from here on players make decisions (Quick reveals, Empty Deck choices)


@_on(ev.SetupRevealsBegan)
def _setup_reveals(s: GameState, e: ev.SetupRevealsBegan) -> None:
    s.play.reveal_queue = list(e.order)
    s.stage = "quick_reveal"


@_on(ev.ComponentsChosen)
def _components(s: GameState, e: ev.ComponentsChosen) -> None:
    s.classic.components = {"source": e.source, "estates": list(e.estates), "leaders": list(e.leaders), "items": list(e.items)}


@_on(ev.EstateDeckFormed)
def _estate_deck(s: GameState, e: ev.EstateDeckFormed) -> None:
    s.classic.estate_deck = _cards(e.cards)


@_on(ev.LeaderSelectionBegan)
def _selection(s: GameState, e: ev.LeaderSelectionBegan) -> None:
    s.stage = "leaders"
    s.status = "active"  # players decide from here on
    s.classic.selecting = list(e.order)
    if e.rng:
        s.rng = e.rng[1]


@_on(ev.LeaderMatsDealt)
def _mats(s: GameState, e: ev.LeaderMatsDealt) -> None:
    s.players[e.seat].mats = list(e.mats)
    s.rng = e.rng[1]


@_on(ev.LeaderKept)
def _kept(s: GameState, e: ev.LeaderKept) -> None:
    p = s.players[e.seat]
    p.kept = e.mat
    p.mats = []  # R19: the others go back in the box


@_on(ev.LeaderChosen)
def _leader(s: GameState, e: ev.LeaderChosen) -> None:
    p = s.players[e.seat]
    p.leader = e.mat
    p.kept = None
    p.mats = []
    if s.classic.selecting and s.classic.selecting[0] == e.seat:
        s.classic.selecting.pop(0)
    if e.passed_to is not None:
        s.players[e.passed_to].mats = list(e.passed)
        s.classic.selecting = [e.passed_to]


# ----- turns -----


@_on(ev.TurnBegan)
def _turn(s: GameState, e: ev.TurnBegan) -> None:
    s.variant.streak = s.variant.streak + 1 if e.seat == s.play.current else 1  # Overlord: turns in a row (R170)
    s.status = "active"
    s.stage = "turn"
    s.play.current = e.seat
    s.play.turn = e.turn
    s.play.phase = None
    s.play.action_done = False
    s.play.act = None


@_on(ev.TurnSkipped)
def _skipped(s: GameState, e: ev.TurnSkipped) -> None:
    s.play.phase = "over"
    s.outcome.quiet_turns += 1
    s.items.fresh = {}


@_on(ev.PhaseBegan)
def _phase(s: GameState, e: ev.PhaseBegan) -> None:
    s.play.phase = e.phase
    if e.phase == "draw" and not s.config.thresholds.survival:
        s.play.draw_queue.append((e.seat, "draw phase"))  # R27; Survival skips it (R166)
        s.items.draw_asked = draw_reactors(s, e.seat)  # R118: before the card is drawn


@_on(ev.TurnEnded)
def _turn_ended(s: GameState, e: ev.TurnEnded) -> None:
    s.play.phase = "over"
    s.outcome.quiet_turns += 1
    s.items.fresh = {}  # R103: items received so far become usable once a turn ends


# ----- cards -----


@_on(ev.YearMadeDeck)
def _year_deck(s: GameState, e: ev.YearMadeDeck) -> None:
    for i, (label, cards) in enumerate(s.years):
        if label == e.year:
            s.deck = cards
            del s.years[i]
            return
    raise ValueError(f"no year {e.year}")


@_on(ev.EstatesMadeDeck)
def _estates_deck(s: GameState, e: ev.EstatesMadeDeck) -> None:
    s.deck, s.classic.estate_deck = s.classic.estate_deck[: e.size], s.classic.estate_deck[e.size :]


@_on(ev.CardDrawn)
def _drawn(s: GameState, e: ev.CardDrawn) -> None:
    card = s.deck.pop(0)
    assert card.id == e.card
    s.players[e.seat].cards.append(card)
    if s.play.draw_queue:
        s.play.draw_queue.pop(0)


@_on(ev.CardDealt)
def _dealt_card(s: GameState, e: ev.CardDealt) -> None:
    for i, (_label, cards) in enumerate(s.years):
        for j, c in enumerate(cards):
            if c.id == e.card:
                del cards[j]
                if not cards:
                    del s.years[i]
                s.players[e.seat].cards.append(c.flip(e.revealed))
                return
    raise ValueError(f"card {e.card} is not in the rig's stock")


@_on(ev.CardNotGained)
def _not_gained(s: GameState, e: ev.CardNotGained) -> None:
    if s.play.draw_queue:
        s.play.draw_queue.pop(0)


def _note_estate_revealed(s: GameState, seat: int, name: str) -> None:
    """Abilities that act whenever an estate card is revealed fire next (R92, R131; E15)."""
    if s.estate(name) is None:
        return
    for p in s.players:
        for mat in s.abilities(p.seat, "estate revealed"):
            s.pending.triggers.append({"seat": p.seat, "mat": mat, "card": name, "holder": seat})


@_on(ev.CardRevealed)
def _revealed(s: GameState, e: ev.CardRevealed) -> None:
    if e.full:
        _note_estate_revealed(s, e.seat, e.name)
    card = s.players[e.seat].card(e.card)
    assert card is not None
    _replace_card(s, e.seat, card.flip(True))
    if e.reason == "setup" and s.play.reveal_queue and s.play.reveal_queue[0] == e.seat:
        s.play.reveal_queue.pop(0)
    war = s.play.act.war if s.play.act is not None else None
    # a war's loser who resigns reveals every card (R123): that meets the reveals still due (S2)
    for_war = e.reason == "war" or (e.reason == ELIMINATION_REVEAL and war is not None and e.seat == war.loser)
    if for_war and war is not None and war.stage == "reveal":
        war.due -= 1
        if war.due <= 0:
            war.stage = "casualties"


@_on(ev.CardUnrevealed)
def _unrevealed(s: GameState, e: ev.CardUnrevealed) -> None:
    card = s.players[e.seat].card(e.card)
    assert card is not None
    # Everyone saw it: its identity stays public while it is face down (R58).
    from dataclasses import replace

    _replace_card(s, e.seat, replace(card, revealed=False, public=True))


@_on(ev.CardDiscarded)
def _discarded(s: GameState, e: ev.CardDiscarded) -> None:
    card = _take_card(s, e.seat, e.card)
    s.deck.insert(e.position, Card(e.new_card, card.name))
    s.rng = e.rng[1]
    _discard_done(s, e.seat, e.reason)


def _discard_done(s: GameState, seat: int, reason: str) -> None:
    """What a discard settles, wherever the card goes: a Barracks victim's turn, a SANCTION's price."""
    act = s.play.act
    if act is not None and reason == "barracks" and act.queue and act.queue[0] == seat:
        act.queue.pop(0)
    elif act is not None and reason == "sanction":
        act.stage = "sanction paid"


@_on(ev.CardMoved)
def _moved(s: GameState, e: ev.CardMoved) -> None:
    card = _take_card(s, e.from_seat, e.card)
    s.players[e.to_seat].cards.append(card)
    if s.play.act is not None:
        s.play.act.step += 1


@_on(ev.CardPutOnDeck)
def _put_on_deck(s: GameState, e: ev.CardPutOnDeck) -> None:
    from dataclasses import replace

    card = _take_card(s, e.seat, e.card)
    known = set(card.known) | {e.seat}
    s.deck.insert(0, replace(card, known=frozenset(known)))


# ----- soldiers and items -----


@_on(ev.SoldiersChanged)
def _soldiers(s: GameState, e: ev.SoldiersChanged) -> None:
    s.players[e.seat].soldiers = e.total


def _item_holder_set(s: GameState, item: str, seat: int | None) -> None:
    if item == "WALL":
        s.items.wall = seat
    elif item == "TREATY":
        s.items.treaty = seat
    elif item == "INK QUILL":
        s.items.quill = seat


@_on(ev.ItemGained)
def _item_gained(s: GameState, e: ev.ItemGained) -> None:
    if e.item == "BRIG":
        if e.source == "reserve":
            s.items.brig_supply -= 1
        else:
            s.players[e.source].brigs -= 1
        s.players[e.seat].brigs += 1
    elif e.item in ("WALL", "TREATY", "INK QUILL"):
        _item_holder_set(s, e.item, e.seat)
    else:  # a Classic item: from the reserve or taken from its holder (R105, R106)
        by = s.items.held.setdefault(e.item, {})
        if e.source != "reserve":
            by[e.source] -= 1
            if not by[e.source]:
                del by[e.source]
        _receive_item(s, e.item, e.seat)


def _receive_item(s: GameState, item: str, seat: int) -> None:
    """A Classic item joins the seat's; not usable on the turn it was received (R103)."""
    by = s.items.held.setdefault(item, {})
    by[seat] = by.get(seat, 0) + 1
    fresh = s.items.fresh.setdefault(item, {})
    fresh[seat] = fresh.get(seat, 0) + 1


@_on(ev.ItemNotGained)
def _item_not_gained(s: GameState, e: ev.ItemNotGained) -> None:
    pass


@_on(ev.ItemDiscarded)
def _item_discarded(s: GameState, e: ev.ItemDiscarded) -> None:
    _note_discard(s, e.seat, e.item)
    if e.item == "BRIG":
        s.players[e.seat].brigs -= 1
        s.items.brig_supply += 1
    elif e.item in ("WALL", "TREATY", "INK QUILL"):
        _item_holder_set(s, e.item, None)
    else:
        by = s.items.held[e.item]
        by[e.seat] -= 1
        if not by[e.seat]:
            del by[e.seat]
        fresh = s.items.fresh.get(e.item, {})
        if fresh.get(e.seat, 0) > by.get(e.seat, 0):
            fresh[e.seat] = by.get(e.seat, 0)


@_on(ev.SanctionPlaced)
def _sanction_placed(s: GameState, e: ev.SanctionPlaced) -> None:
    if e.source == "reserve":
        s.items.sanction_supply -= 1
    else:
        s.players[e.source["seat"]].sanctions.remove(e.source["action"])
    s.players[e.seat].sanctions.append(e.action)
    if s.play.act is not None and s.play.act.todo and s.play.act.todo[0] == {"seat": e.seat, "action": e.action}:
        s.play.act.todo.pop(0)


@_on(ev.SanctionNotPlaced)
def _sanction_not_placed(s: GameState, e: ev.SanctionNotPlaced) -> None:
    if s.play.act is not None and s.play.act.todo and s.play.act.todo[0] == {"seat": e.seat, "action": e.action}:
        s.play.act.todo.pop(0)


@_on(ev.SanctionRemoved)
def _sanction_removed(s: GameState, e: ev.SanctionRemoved) -> None:
    s.players[e.seat].sanctions.remove(e.action)
    s.items.sanction_supply += 1


# ----- actions, windows, calls, guards -----


@_on(ev.ActionDeclared)
def _declared(s: GameState, e: ev.ActionDeclared) -> None:
    s.play.act = Act(declarer=e.seat, action=e.action, plan=e.plan, claim=e.claim, sanctioned=e.sanctioned)


@_on(ev.ReactionWindowOpened)
def _window_opened(s: GameState, e: ev.ReactionWindowOpened) -> None:
    s.calls.window = Window(e.window, e.claimant, e.claim, e.about, list(e.asked), {}, e.deadline)
    s.calls.windows_opened = e.window
    if s.play.act is not None:
        if e.about == "action":
            s.play.act.stage = "window"
        else:
            guard = s.play.act.guard_of(e.claimant)
            assert guard is not None
            guard.status = "window"
    s.calls.window_snapshot = None
    if e.about == "action" and e.deadline is not None and s.config.option("undo"):
        snapshot = s.clone()  # the moment an undo would rewind to
        snapshot.seq = e.seq
        s.calls.window_snapshot = snapshot


@_on(ev.ReactionGiven)
def _reaction(s: GameState, e: ev.ReactionGiven) -> None:
    assert s.calls.window is not None
    s.calls.window.answers[e.seat] = {"answer": e.answer, "means": e.means}


@_on(ev.ReactionWindowClosed)
def _window_closed(s: GameState, e: ev.ReactionWindowClosed) -> None:
    assert s.calls.window is not None and s.play.act is not None
    snapshot, s.calls.window_snapshot = s.calls.window_snapshot, None
    called = any(a.get("answer") == "call" for a in e.answers.values())
    used = s.in_turn_order([int(seat) for seat, a in e.answers.items() if a.get("answer") == "use"])
    if used and s.calls.window.about == "action":
        s.play.act.reacted = (used[0], e.answers[str(used[0])]["means"])  # R104: the first in turn order
    if snapshot is not None and e.by == "deadline" and e.timed_out and not called and s.calls.window.claim:
        claimant = s.calls.window.claimant
        eligible = [seat for seat in e.timed_out if snapshot.may_call(seat, claimant)]
        if eligible:
            s.undo = UndoPoint(s.calls.window.id, claimant, snapshot, dict(e.answers), eligible)
    if s.calls.window.about == "action":
        s.play.act.stage = "guards"
    else:
        guard = s.play.act.guard_of(s.calls.window.claimant)
        assert guard is not None
        guard.status = "closed"
    s.calls.window = None


@_on(ev.GuardDeclared)
def _guard_declared(s: GameState, e: ev.GuardDeclared) -> None:
    assert s.play.act is not None
    s.play.act.guards.append(Guard(e.seat, e.means))
    order = s.in_turn_order([g.seat for g in s.play.act.guards])
    s.play.act.guards.sort(key=lambda g: order.index(g.seat))  # R60, RULINGS: guards resolve in turn order


@_on(ev.BluffCalled)
def _called(s: GameState, e: ev.BluffCalled) -> None:
    s.calls.challenge = Challenge(caller=e.caller, claimant=e.claimant, claim=e.claim, about=e.about)


@_on(ev.ClaimProven)
def _proven(s: GameState, e: ev.ClaimProven) -> None:
    assert s.calls.challenge is not None
    s.calls.challenge.stage = "penalty"


@_on(ev.BluffExposed)
def _exposed(s: GameState, e: ev.BluffExposed) -> None:
    assert s.calls.challenge is not None
    s.calls.challenge.stage = "exposed"


@_on(ev.CallSettled)
def _settled(s: GameState, e: ev.CallSettled) -> None:
    s.calls.challenge = None
    if not e.correct and s.players[e.caller].eliminated and e.caller not in s.calls.silenced:
        s.calls.silenced.append(e.caller)  # Vengeance (R159): their one wrong call ends their calling for good
    if s.play.act is not None and e.about == "guard":
        guard = s.play.act.guard_of(e.claimant)
        assert guard is not None
        guard.status = "thwarted" if e.correct else "stands"


@_on(ev.GuardHeld)
def _guard_held(s: GameState, e: ev.GuardHeld) -> None:
    assert s.play.act is not None
    guard = s.play.act.guard_of(e.seat)
    assert guard is not None
    guard.status = "stands"


@_on(ev.ActionThwarted)
def _action_thwarted(s: GameState, e: ev.ActionThwarted) -> None:
    s.calls.challenge = None
    s.variant.offer = None  # a war's spoils still to choose end with it (pending at a thwart only if its declarer resigns, S2)
    _action_over(s)


def _action_over(s: GameState) -> None:
    """The declared action is over, and so is the Action Phase (R73), unless an effect started the action (a
    war an effect started is not the turn's action)."""
    from_effect = s.play.act is not None and s.play.act.from_effect
    s.play.act = None
    if not from_effect:
        s.play.action_done = True


@_on(ev.ActionResolving)
def _resolving(s: GameState, e: ev.ActionResolving) -> None:
    act = s.play.act
    assert act is not None
    act.stage = "execute"
    s.calls.challenge = None
    if act.action == "barracks":
        act.queue = [
            seat
            for seat in s.in_turn_order(s.remaining())
            if seat != act.declarer
            and not act.guarded(seat)
            and s.partner(act.declarer) != seat
            and not s.variant.allied(act.declarer, seat)  # R163, R138: allies are not opponents
            and s.players[seat].unrevealed  # nothing to discard: not affected
        ]
    elif act.action == "laboratory" and s.players[act.declarer].leader is None:  # the Simpleton Laboratory
        s.play.draw_queue.extend([(act.declarer, "laboratory"), (act.declarer, "laboratory")])
    elif act.action == "library" and s.players[act.declarer].leader is None and "sanctions" in act.plan:
        act.todo = [t for t in act.plan["sanctions"] if not act.guarded(t["seat"])]
    elif act.action == "war" and "target" in act.plan:  # a mob's War with nobody to select has none (A50)
        act.war = War(attacker=act.declarer, defender=act.plan["target"])
    elif act.action == "temple" and "card" in act.plan:  # a mob's Temple with nothing to give has none (A50)
        owner = s.owner_of(act.plan["card"])
        recipient = act.plan["recipient"]
        if owner is not None and not act.guarded(owner) and not act.guarded(recipient):
            card = s.players[owner].card(act.plan["card"])
            assert card is not None
            if card.name.lower() in ACTIONS:  # A19: an estate card matches no action, so no SANCTION
                act.todo = [{"seat": recipient, "action": card.name.lower()}]


@_on(ev.ActionCompleted)
def _completed(s: GameState, e: ev.ActionCompleted) -> None:
    _action_over(s)


# ----- war -----


@_on(ev.WarDesignated)
def _war_designated(s: GameState, e: ev.WarDesignated) -> None:
    assert s.play.act is not None and s.play.act.war is not None
    s.play.act.war.stage = "battle"


@_on(ev.WarBattle)
def _war_battle(s: GameState, e: ev.WarBattle) -> None:
    assert s.play.act is not None and s.play.act.war is not None
    war = s.play.act.war
    war.winner, war.loser = e.winner, e.loser
    war.stage = "resolution"


@_on(ev.WarThwarted)
def _war_thwarted(s: GameState, e: ev.WarThwarted) -> None:
    assert s.play.act is not None and s.play.act.war is not None
    s.play.act.war.stage = "over"


@_on(ev.WarResolution)
def _war_resolution(s: GameState, e: ev.WarResolution) -> None:
    assert s.play.act is not None and s.play.act.war is not None
    s.play.act.war.due = e.reveals_due
    s.play.act.war.stage = "reveal" if e.reveals_due else "casualties"


@_on(ev.WarCasualties)
def _war_casualties(s: GameState, e: ev.WarCasualties) -> None:
    assert s.play.act is not None and s.play.act.war is not None
    s.play.act.war.stage = "over"


@_on(ev.WarEnded)
def _war_ended(s: GameState, e: ev.WarEnded) -> None:
    assert s.play.act is not None and s.play.act.war is not None
    s.play.act.war.stage = "ended"


# ----- the end -----


@_on(ev.PlayerEliminated)
def _eliminated(s: GameState, e: ev.PlayerEliminated) -> None:
    s.players[e.seat].eliminated = True


@_on(ev.GameEnded)
def _ended(s: GameState, e: ev.GameEnded) -> None:
    s.status = "finished"
    s.outcome.result = e.result
    s.outcome.winners = list(e.winners)
    s.outcome.end_reason = e.reason
    s.calls.window = None
    s.calls.challenge = None


# ----- the Undo rule -----


@_on(ev.UndoPauseBegan)
def _undo_pause(s: GameState, e: ev.UndoPauseBegan) -> None:
    assert s.undo is not None
    s.undo.paused = True
    s.undo.deadline = e.deadline


@_on(ev.UndoWaived)
def _undo_waived(s: GameState, e: ev.UndoWaived) -> None:
    assert s.undo is not None
    s.undo.waived.append(e.seat)
    if not s.undo.waiting:
        s.undo = None


@_on(ev.UndoExpired)
def _undo_expired(s: GameState, e: ev.UndoExpired) -> None:
    s.undo = None


@_on(ev.UndoClaimed)
def _undo_claimed(s: GameState, e: ev.UndoClaimed) -> None:
    """Back to the moment the window opened; its answers again, with the claimant's call added."""
    assert s.undo is not None
    restored = s.undo.snapshot.clone()
    departures = s.departures  # S2, S3: nothing takes a seat back from resigning or from its bot
    for f in dataclasses.fields(GameState):
        setattr(s, f.name, getattr(restored, f.name))
    s.departures = departures
    s.calls.window_snapshot = None
    s.undo = None
    assert s.calls.window is not None
    s.calls.window.answers = {int(seat): dict(a) for seat, a in e.answers.items()}
    s.calls.window.asked = sorted(int(seat) for seat in e.answers)  # the others stay as they were: no answer
    s.calls.window.closing = "undo"


# ----- card effects -----


@_on(ev.EffectQueued)
def _effect_queued(s: GameState, e: ev.EffectQueued) -> None:
    s.pending.effects.append(
        Pending(
            e.id, e.source, e.owner, list(e.steps), plan=list(e.plan) if e.plan is not None else None, guarded=list(e.guarded)
        )
    )
    s.pending.effects_queued = max(s.pending.effects_queued, e.id)
    if e.for_action and s.play.act is not None:
        s.play.act.step = 1  # the action's effect is queued; the action completes once it has run


@_on(ev.EffectsOrdered)
def _effects_ordered(s: GameState, e: ev.EffectsOrdered) -> None:
    chosen = next(p for p in s.pending.effects if p.id == e.first)
    s.pending.effects.remove(chosen)
    s.pending.effects.insert(0, chosen)
    chosen.chosen = True


@_on(ev.EffectProgressed)
def _effect_progressed(s: GameState, e: ev.EffectProgressed) -> None:
    p = s.pending.effects[0]
    assert p.id == e.id
    p.index = e.index
    p.work = dict(e.work) if e.work is not None else None
    if e.steps is not None:
        p.steps = list(e.steps)


@_on(ev.EffectEnded)
def _effect_ended(s: GameState, e: ev.EffectEnded) -> None:
    s.pending.effects = [p for p in s.pending.effects if p.id != e.id]


@_on(ev.SacrificesGiven)
def _sacrifices(s: GameState, e: ev.SacrificesGiven) -> None:
    s.players[e.seat].soldiers -= e.amount
    s.players[e.to].sacrifices += e.amount


@_on(ev.CardsToGain)
def _cards_to_gain(s: GameState, e: ev.CardsToGain) -> None:
    for _ in range(e.count):
        s.play.draw_queue.extend((seat, e.reason) for seat in e.seats)


@_on(ev.ItemSoldiersChanged)
def _item_soldiers(s: GameState, e: ev.ItemSoldiersChanged) -> None:
    s.items.item_soldiers[e.item] = s.items.item_soldiers.get(e.item, 0) + e.delta


@_on(ev.EffectPlanUsed)
def _plan_used(s: GameState, e: ev.EffectPlanUsed) -> None:
    p = s.pending.effects[0]
    assert p.id == e.id and p.plan
    p.plan.pop(0)


@_on(ev.TriggersFired)
def _triggers_fired(s: GameState, e: ev.TriggersFired) -> None:
    s.pending.triggers = []


def _note_discard(s: GameState, holder: int, item: str) -> None:
    """An opponent's item discarded: abilities that act on it fire next (VIGILANTE). INK QUILL is a token (R108)."""
    if s.classic.components is None or item == "INK QUILL":
        return
    for p in s.players:
        if p.seat != holder and not s.variant.allied(p.seat, holder):  # R138, R163: an ally is no opponent
            for mat in s.abilities(p.seat, "opponent item discarded"):
                s.pending.triggers.append({"seat": p.seat, "mat": mat, "item": item, "holder": holder})


@_on(ev.DictatorChosen)
def _dictator(s: GameState, e: ev.DictatorChosen) -> None:
    s.classic.dictator = e.mat
    if e.rng:
        s.rng = e.rng[1]


@_on(ev.ArtificersBegan)
def _artificers(s: GameState, e: ev.ArtificersBegan) -> None:
    s.classic.gifting = list(e.order)
    s.stage = "artificers"
    s.status = "active"


@_on(ev.ArtificerGave)
def _artificer_gave(s: GameState, e: ev.ArtificerGave) -> None:
    if e.item == "WALL":
        s.items.wall = e.to
    elif e.item != "TREATY":  # the TREATY and its INK QUILL move with the ItemGained events that follow (R108)
        _receive_item(s, e.item, e.to)  # usable once the first turn has ended (R103)
    _next_giver(s, e.seat)


@_on(ev.ArtificerPassed)
def _artificer_passed(s: GameState, e: ev.ArtificerPassed) -> None:
    _next_giver(s, e.seat)


def _next_giver(s: GameState, seat: int) -> None:
    """The giver goes to the back of the round, unless they resigned: then they give no more (S2)."""
    s.classic.gifting = [*s.classic.gifting[1:], *([] if s.players[seat].eliminated else [seat])]


@_on(ev.ArtificersDone)
def _artificers_done(s: GameState, e: ev.ArtificersDone) -> None:
    s.classic.gifting = []
    s.stage = "setup"
    s.classic.artificers_done = True


# ----- mob players -----


@_on(ev.DieRolled)
def _die_rolled(s: GameState, e: ev.DieRolled) -> None:
    del s.dice[: e.rigged]
    if e.rng:
        s.rng = e.rng[1]


@_on(ev.DiceRigged)
def _dice_rigged(s: GameState, e: ev.DiceRigged) -> None:
    s.dice = list(e.dice)


# ----- the optional rules Rubble Rouser and Discovery -----


@_on(ev.CardToRubble)
def _to_rubble(s: GameState, e: ev.CardToRubble) -> None:
    card = _take_card(s, e.seat, e.card)
    s.rubble.append(Card(card.id, card.name))  # face up: the zone is public (R158)
    _discard_done(s, e.seat, e.reason)


@_on(ev.RubbleShuffled)
def _rubble_shuffled(s: GameState, e: ev.RubbleShuffled) -> None:
    assert not s.deck and len(e.cards) == len(s.rubble)
    s.deck = _cards(e.cards)
    s.rubble = []
    s.rng = e.rng[1]


@_on(ev.DiscoveryTokenPlaced)
def _token_placed(s: GameState, e: ev.DiscoveryTokenPlaced) -> None:
    card = s.players[e.seat].card(e.card)
    assert card is not None
    _replace_card(s, e.seat, dataclasses.replace(card, discovered=True, public=True))


@_on(ev.DiscoveryTokenRemoved)
def _token_removed(s: GameState, e: ev.DiscoveryTokenRemoved) -> None:
    card = s.players[e.seat].card(e.card)
    assert card is not None
    _replace_card(s, e.seat, dataclasses.replace(card, discovered=False))


# ----- the Alliances, Overlord and Blasphemy variants (R163, R170, R171) -----


@_on(ev.AlliesSeated)
def _allies(s: GameState, e: ev.AlliesSeated) -> None:
    s.variant.allies = {seat: tuple(allies) for seat, allies in enumerate(e.allies)}


@_on(ev.OverlordChosen)
def _overlord(s: GameState, e: ev.OverlordChosen) -> None:
    s.variant.overlord = e.seat


@_on(ev.BlasphemyCardSet)
def _blasphemy_card(s: GameState, e: ev.BlasphemyCardSet) -> None:
    s.variant.tokens = [0] * s.seats
    if e.card is None:
        return
    shown = len(e.bottom)
    top, s.deck = s.deck[: shown + 1], s.deck[shown + 1 :]
    assert top[-1].id == e.card and [c.id for c in top[:-1]] == [c["id"] for c in e.bottom]
    s.variant.blasphemy = top[-1]
    s.deck.extend(dataclasses.replace(c, public=True) for c in top[:-1])  # everyone saw them go under


@_on(ev.BlasphemyTokenGained)
def _token_gained(s: GameState, e: ev.BlasphemyTokenGained) -> None:
    s.variant.tokens[e.seat] += 1
    s.variant.token_turn = s.play.turn


@_on(ev.BlasphemySpoilsOffered)
def _spoils_offered(s: GameState, e: ev.BlasphemySpoilsOffered) -> None:
    s.variant.offer = (e.winner, e.loser)
    s.variant.offer_turn = s.play.turn


@_on(ev.BlasphemyTokenTaken)
def _token_taken(s: GameState, e: ev.BlasphemyTokenTaken) -> None:
    s.variant.tokens[e.from_seat] -= 1
    s.variant.tokens[e.seat] += 1
    s.variant.offer = None


@_on(ev.BlasphemySpoilsDeclined)
def _spoils_declined(s: GameState, e: ev.BlasphemySpoilsDeclined) -> None:
    s.variant.offer = None


@_on(ev.OverlordScored)
def _overlord_scored(s: GameState, e: ev.OverlordScored) -> None:
    pass


@_on(ev.EffectWarBegan)
def _effect_war(s: GameState, e: ev.EffectWarBegan) -> None:
    s.play.act = Act(
        declarer=e.attacker,
        action="war",
        plan={"target": e.defender},
        claim=None,
        sanctioned=False,
        stage="execute",
        war=War(attacker=e.attacker, defender=e.defender),
        from_effect=True,
    )


@_on(ev.DrawReactionPassed)
def _draw_passed(s: GameState, e: ev.DrawReactionPassed) -> None:
    s.items.draw_asked = [seat for seat in s.items.draw_asked if seat != e.seat]


@_on(ev.DrawStopped)
def _draw_stopped(s: GameState, e: ev.DrawStopped) -> None:
    s.items.draw_asked = []
    if s.play.draw_queue and s.play.draw_queue[0] == (e.seat, "draw phase"):
        s.play.draw_queue.pop(0)


def draw_reactors(s: GameState, drawer: int) -> list[int]:
    """Remaining players other than the drawer holding a reactive item used in a Draw Phase (R104, R118), but not
    the drawer's TREATY partner: the two "cannot affect each other with any ... consumable items" (R107)."""
    if not s.items.held:
        return []
    partner = s.partner(drawer)
    return [seat for seat in s.in_turn_order(s.remaining()) if seat not in (drawer, partner) and s.items_acting(seat, "draw")]


@_on(ev.SoldiersKept)
def _soldiers_kept(s: GameState, e: ev.SoldiersKept) -> None:
    pass


# ----- resigning and timeouts (service rulings S2, S3) -----


@_on(ev.PlayerResigned)
def _resigned(s: GameState, e: ev.PlayerResigned) -> None:
    """S2: what would ask the seat later drops them; a decision awaited from them now stays theirs."""
    seat = e.seat
    s.departures.resigned.append(seat)
    s.calls.window_snapshot = None  # the window's snapshot predates the resignation: no undo point forms from it (R156)
    if s.play.draw_queue and s.play.draw_queue[0] == (seat, "draw phase"):
        s.items.draw_asked = []  # their Draw Phase draw is dropped, so nobody is asked whether to stop it
    s.play.draw_queue = [entry for entry in s.play.draw_queue if entry[0] != seat]  # they gain no more cards
    s.play.reveal_queue = [other for other in s.play.reveal_queue if other != seat]  # Quick Game: all their cards are revealed
    if s.play.act is not None:
        s.play.act.queue = [other for other in s.play.act.queue if other != seat]  # Barracks: no longer an opponent to affect
    s.classic.selecting = [other for i, other in enumerate(s.classic.selecting) if other != seat or i == 0]  # Freeform, Drafting
    s.classic.gifting = [other for i, other in enumerate(s.classic.gifting) if other != seat or i == 0]  # Artificers (R172)
    if s.variant.offer is not None and s.variant.offer[1] == seat and s.config.option("vengeance"):
        s.variant.offer = None  # R159: nobody takes a Blasphemy token from an eliminated player


@_on(ev.DecisionTimedOut)
def _timed_out(s: GameState, e: ev.DecisionTimedOut) -> None:
    pass  # the events of the play the bot chose follow


@_on(ev.SeatAbandoned)
def _abandoned(s: GameState, e: ev.SeatAbandoned) -> None:
    if e.seat not in s.departures.abandoned:
        s.departures.abandoned.append(e.seat)
