"""Each step of the effect vocabulary, declared once: a ``StepKind`` holds everything about it — its
parameters (the vocabulary's check, ``vocabulary.py``), what it does in words, the choice it waits for, how
it goes on by itself, how a choice is applied, and how it is described. ``STEP_KINDS`` collects them by
name; the interpreter (``effects.py``), the vocabulary's check and the plans of a declared effect
(``effect_plans.py``) look steps up there, and nothing else lists them.

A step about players (``who``) shares its start (``effect_work.py``): its progress is set first, the
possessor picking the player when it is about one of several; its own parts then see that progress. A few
steps are never run as effects: they are read where they apply (``read_by``).

To add a step: declare its ``StepKind`` here and list it in ``STEP_KINDS``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from aegis.domain.everaegis import events as ev
from aegis.domain.everaegis.cards import discard_card, place_token, reveal
from aegis.domain.everaegis.catalog import ACTIONS
from aegis.domain.everaegis.context import Ctx
from aegis.domain.everaegis.effect_work import Decision, Step, next_target, out_of_reach, progress, work_of
from aegis.domain.everaegis.events.words import capital, counted
from aegis.domain.everaegis.items import discard_item, item_label, items_in_play
from aegis.domain.everaegis.soldiers import change_soldiers
from aegis.domain.everaegis.state import Card, GameState, Pending
from aegis.domain.everaegis.vocabulary import AMOUNT, CONDITIONS, COUNT, COUNTS, WHO, EffectError, check_param
from aegis.domain.everaegis.war_bans import why_not

Param = tuple[Any, ...]  # (name, type, low, high) or (name, choices), as vocabulary.check_param reads it
Waits = Callable[[GameState, Pending, Step], Decision | None]
Runs = Callable[[Ctx, Pending, Step], None]
Chooses = Callable[[Ctx, Pending, Step, Any], None]


def _never_waits(s: GameState, p: Pending, step: Step) -> Decision | None:
    return None


def _by_its_name(step: Step) -> str:
    return step["step"].replace("_", " ")


def _player_named(s: GameState, step: Step, seat: int) -> str:
    return s.players[seat].name


def _unbound(step: Step, item: str, offerable: bool) -> Step:
    return step


@dataclass(frozen=True)
class StepKind:
    """One step of the vocabulary.

    - ``params``: its parameters, each checked by ``vocabulary.check_param``; ``does``: what it does, in words.
    - ``decision(state, pending, step)``: the choice it waits for, or None if it can go on by itself;
      ``run(ctx, pending, step)``: go one step further when nobody need choose (None: it always waits);
      ``choose(ctx, pending, step, value)``: apply an offered choice.
    - ``starts_work``: it is about players, or counts what is left, and starts with the shared start
      (``effect_work``): its progress is set first, the possessor picking the player when it is about one of
      several (``pick_label``: how a player is offered); its own ``decision``, ``run`` and ``choose`` see that
      progress. False: it keeps its own progress, if any.
    - ``describe(step)``: the step in words, as a choice between lists of steps shows it.
    - ``said_later`` / ``pick_said_later``: its choice (or its pick of the player) is said better by what
      follows, so a declaration's label leaves it out.
    - ``bind(step, item, offerable)``: the step with ``"$discarded"`` bound to the discarded item.
    - ``read_by``: for a step never run as an effect, the module that reads it where it applies.
    """

    name: str
    params: tuple[Param, ...]
    does: str
    run: Runs | None = None
    decision: Waits = _never_waits
    choose: Chooses | None = None
    starts_work: bool = True
    pick_label: Callable[[GameState, Step, int], str] = _player_named
    describe: Callable[[Step], str] = _by_its_name
    said_later: bool = False
    pick_said_later: bool = False
    bind: Callable[[Step, str, bool], Step] = _unbound
    read_by: str = ""

    def __post_init__(self) -> None:
        waits = self.decision is not _never_waits
        if self.read_by:
            if self.run is not None or self.choose is not None or waits:
                raise ValueError(f"effect step {self.name}: read by {self.read_by}, it is never run as an effect")
            return
        if self.run is None and not waits:
            raise ValueError(f"effect step {self.name}: a step goes on by itself (run) or waits for a choice (decision)")
        if waits != (self.choose is not None):
            raise ValueError(f"effect step {self.name}: a step that waits for a choice applies it (decision and choose)")

    def check(self, step: Step, where: str) -> None:
        """Raise ``EffectError`` unless ``step`` gives this step's parameters (and only those)."""
        here = f"{where} ({self.name})"
        unknown = sorted(set(step) - {"step"} - {p[0] for p in self.params})
        if unknown:
            raise EffectError(f"{here}: unknown parameter(s) {', '.join(unknown)}")
        for spec in self.params:
            check_param(here, step, spec)
            if spec[1] == "steps":  # a choice among lists of steps: each list is steps of this vocabulary
                for k, option in enumerate(step[spec[0]], start=1):
                    check_steps(option, where=f"{here} option {k}")

    def picking(self, p: Pending) -> bool:
        """Whether the step has yet to start its work (the possessor's pick of a player, if any, comes first)."""
        return self.starts_work and p.work is None

    def said_by_what_follows(self, p: Pending) -> bool:
        return self.said_later or (self.pick_said_later and self.picking(p))


# ----- soldiers and cards gained -----


def _soldiers_changed(gain: bool) -> Runs:
    def run(ctx: Ctx, p: Pending, step: Step) -> None:
        s = ctx.state
        for seat in work_of(p)["targets"]:
            have = s.players[seat].soldiers
            amount = step["amount"] if gain else -min(step["amount"], have)
            if amount:
                change_soldiers(ctx, seat, amount, f"{p.source} (card effect)")
        progress(ctx, p, p.index + 1, None)

    return run


# who a step is about, as its option says it to the possessor choosing (vocabulary.WHO)
WHO_SAID = {"self": "you", "any player": "a player", "an opponent": "an opponent", "each opponent": "each opponent",
            "all players": "every player"}


def _soldiers_said(step: Step) -> str:
    """ "Gain 3 soldiers", "each opponent loses 2 soldiers" (a list of steps joined, then capitalised)."""
    who, gains = WHO_SAID.get(step["who"], step["who"]), step["step"] == "gain_soldiers"
    soldiers = counted(step["amount"], "soldier")
    if who == "you":
        return f"{'gain' if gains else 'lose'} {soldiers}"
    singular = who in ("each opponent", "every player", "a player", "an opponent")  # "each opponent gains"
    verb = ("gains" if gains else "loses") if singular else ("gain" if gains else "lose")
    return f"{who} {verb} {soldiers}"


def _gain_card(ctx: Ctx, p: Pending, step: Step) -> None:
    ctx.emit(ev.CardsToGain(seats=list(work_of(p)["targets"]), count=step["count"], reason=p.source))
    progress(ctx, p, p.index + 1, None)


# ----- a player's own unrevealed cards: revealed or discarded, 1 at a time, as they choose -----

CardAct = Callable[[Ctx, int, Card, str], None]


def _reveal_fully(ctx: Ctx, seat: int, card: Card, reason: str) -> None:
    reveal(ctx, seat, card, full=True, reason=reason)


def _own_card_decision(verb: str) -> Waits:
    def decision(s: GameState, p: Pending, step: Step) -> Decision | None:
        work = work_of(p)
        if not work["targets"] or work["left"] <= 0:
            return None
        seat = work["targets"][0]
        cards = s.players[seat].unrevealed
        if len(cards) <= 1:
            return None
        return Decision(seat, tuple((f"{verb.title()} {c.name} ({c.id})", c.id) for c in cards), f"{p.source}: {verb} 1 card")

    return decision


def _own_card_run(act: CardAct) -> Runs:
    def run(ctx: Ctx, p: Pending, step: Step) -> None:
        work = work_of(p)
        if not work["targets"]:
            progress(ctx, p, p.index + 1, None)
            return
        cards = ctx.state.players[work["targets"][0]].unrevealed
        if work["left"] <= 0 or not cards:
            next_target(ctx, p, step, work)
        else:
            _act_on_card(ctx, p, act, work["targets"][0], cards[0])

    return run


def _own_card_choose(act: CardAct) -> Chooses:
    def choose(ctx: Ctx, p: Pending, step: Step, value: Any) -> None:
        target = work_of(p)["targets"][0]
        card = ctx.state.players[target].card(value)
        assert card is not None
        _act_on_card(ctx, p, act, target, card)

    return choose


def _act_on_card(ctx: Ctx, p: Pending, act: CardAct, seat: int, card: Card) -> None:
    work = dict(p.work or {})
    act(ctx, seat, card, f"{p.source} (card effect)")
    first = ctx.state.pending.effects[0]
    if first.id == p.id:
        progress(ctx, first, first.index, {**work, "left": work["left"] - 1})


# ----- revealed cards in play unrevealed, any player's (R95, R125, R160) -----


def _revealed_in_play(s: GameState) -> list[tuple[int, Card]]:
    return [(p.seat, c) for p in s.players for c in p.cards if c.revealed]


def _unreveal_decision(s: GameState, p: Pending, step: Step) -> Decision | None:
    cards = _revealed_in_play(s)
    if work_of(p)["left"] <= 0 or len(cards) <= 1:
        return None
    names = [q.name for q in s.players]
    opts = tuple((f"Unreveal {names[o]}'s {c.name} ({c.id})", c.id) for o, c in cards)
    return Decision(p.owner, opts, f"{p.source}: unreveal 1 revealed card in play")


def _unreveal_run(ctx: Ctx, p: Pending, step: Step) -> None:
    cards = _revealed_in_play(ctx.state)
    if work_of(p)["left"] <= 0 or not cards:
        progress(ctx, p, p.index + 1, None)
    else:
        _unreveal(ctx, p, *cards[0])


def _unreveal_choose(ctx: Ctx, p: Pending, step: Step, value: Any) -> None:
    s = ctx.state
    owner = s.owner_of(value)
    assert owner is not None
    card = s.players[owner].card(value)
    assert card is not None
    _unreveal(ctx, p, owner, card)


def _unreveal(ctx: Ctx, p: Pending, seat: int, card: Card) -> None:
    ctx.emit(ev.CardUnrevealed(seat=seat, card=card.id, name=card.name, reason=f"{p.source} (card effect)"))
    place_token(ctx, seat, card, f"{p.source} (card effect)")  # Discovery (R160)
    if ctx.state.players[seat].eliminated:  # R125: still eliminated, so the card is revealed again at once
        again = ctx.state.players[seat].card(card.id)
        assert again is not None
        reveal(ctx, seat, again, full=True, reason="eliminated players keep every card revealed (R125)", trigger=False)
    work = dict(p.work or {})
    progress(ctx, p, p.index, {**work, "left": work["left"] - 1})


# ----- soldiers in play discarded, any player's -----


def _holders(s: GameState) -> list[int]:
    return [q.seat for q in s.players if q.soldiers > 0]


def _soldiers_in_play_decision(s: GameState, p: Pending, step: Step) -> Decision | None:
    work = work_of(p)
    holders = _holders(s)
    if work["left"] <= 0 or not holders or (len(holders) == 1 and not step["up_to"]):
        return None
    names = [q.name for q in s.players]
    opts: tuple[tuple[str, Any], ...] = tuple((f"Discard 1 of {names[t]}'s soldiers", t) for t in holders)
    if step["up_to"]:
        opts += (("Stop discarding soldiers", "stop"),)
    return Decision(p.owner, opts, f"{p.source}: discard up to {work['left']} soldiers in play")


def _soldiers_in_play_run(ctx: Ctx, p: Pending, step: Step) -> None:
    holders = _holders(ctx.state)
    if work_of(p)["left"] <= 0 or not holders:
        progress(ctx, p, p.index + 1, None)
    else:
        _take_soldier(ctx, p, holders[0])


def _soldiers_in_play_choose(ctx: Ctx, p: Pending, step: Step, value: Any) -> None:
    if value == "stop":
        progress(ctx, p, p.index + 1, None)
    else:
        _take_soldier(ctx, p, value)


def _take_soldier(ctx: Ctx, p: Pending, seat: int) -> None:
    change_soldiers(ctx, seat, -1, f"{p.source} (card effect)")
    work = dict(p.work or {})
    progress(ctx, p, p.index, {**work, "left": work["left"] - 1})


# ----- items given (R105, R106, R140, R143) -----


def _give_label(s: GameState, step: Step, seat: int) -> str:
    name = s.players[seat].name
    return f"Give {name} the {step['items'][0]}" if len(step["items"]) == 1 else name


def _give_decision(s: GameState, p: Pending, step: Step) -> Decision | None:
    work = work_of(p)
    if not work["targets"] or len(step["items"]) <= 1:
        return None
    target = s.players[work["targets"][0]].name
    opts = tuple((f"Give {target} the {item}", item) for item in step["items"])
    return Decision(p.owner, opts, f"{p.source}: choose the item to give (R143: or)")


def _give_run(ctx: Ctx, p: Pending, step: Step) -> None:
    work = work_of(p)
    if not work["targets"]:
        progress(ctx, p, p.index + 1, None)
    else:
        _give(ctx, p, step, work["targets"][0], step["items"][0])


def _give_choose(ctx: Ctx, p: Pending, step: Step, value: Any) -> None:
    _give(ctx, p, step, work_of(p)["targets"][0], value)


def _give_said(step: Step) -> str:
    """ "take the GLOVE" (for oneself), "give a player the ANKH or the SCARAB"."""
    items = " or the ".join(step["items"])
    who = WHO_SAID.get(step["who"], step["who"])
    return f"take the {items}" if who == "you" else f"give {who} the {items}"


def _give_bound(step: Step, item: str, offerable: bool) -> Step:
    if item == "SANCTION" and step["items"] == ["$discarded"] and step["who"] == "self":
        # "When a player possesses a SANCTION not on an action, that player must place it onto an action of their
        # choice" (p. 23): taking the discarded SANCTION is placing it, on any player's action
        return {"step": "sanction", "who": "any player"}
    return {**step, "items": [item if i == "$discarded" else i for i in step["items"]]}


def _holding(s: GameState, item: str) -> tuple[int, dict[int, int], int]:
    """(pieces in the box, pieces per holder, pieces in the reserve) of an item the effects may give."""
    if item == "WALL":
        held = {s.items.wall: 1} if s.items.wall is not None else {}
        return 1, held, 1 - len(held)
    if item == "BRIG":
        held = {p.seat: p.brigs for p in s.players if p.brigs}
        return s.items.brig_supply + sum(held.values()), held, s.items.brig_supply
    entry = s.item_entry(item)
    return (entry["count"] if entry else 0), s.items.held.get(item, {}), s.supply(item)


def gain_item(ctx: Ctx, receiver: int, item: str, reason: str) -> None:
    """R105, R106: from the reserve, or taken from another holder (the first in turn order, a ruling); a
    player who already holds a one-piece item gains nothing; an eliminated receiver discards it (R124)."""
    s = ctx.state
    count, held, supply = _holding(s, item)
    if count == 1 and held.get(receiver):
        ctx.emit(ev.ItemNotGained(seat=receiver, item=item, reason="already theirs: no item gain (R106)"))
        return
    if supply > 0:
        source: Any = "reserve"
    else:
        vengeance = s.config.option("vengeance")  # R159: nothing is taken from an eliminated player
        holders = s.in_turn_order([seat for seat in held if seat != receiver and not (vengeance and s.players[seat].eliminated)])
        if not holders:
            ctx.emit(ev.ItemNotGained(seat=receiver, item=item, reason="no piece left to take (R105, A43)"))
            return
        source = holders[0]
    ctx.emit(ev.ItemGained(seat=receiver, item=item, source=source, reason=reason))
    if s.players[receiver].eliminated:
        ctx.emit(ev.ItemDiscarded(seat=receiver, item=item, reason="an eliminated player discards any item received (R124)"))


def _give(ctx: Ctx, p: Pending, step: Step, receiver: int, item: str) -> None:
    if not out_of_reach(ctx.state, p, receiver):  # R66, R107
        gain_item(ctx, receiver, item, f"{p.source} (card effect)")
    work = dict(ctx.state.pending.effects[0].work or {})
    next_target(ctx, ctx.state.pending.effects[0], step, work)


# ----- a SANCTION put on an action (R109, R105, A19) -----


def _free_actions(s: GameState, seat: int) -> list[str]:
    return [a for a in ACTIONS if a not in s.players[seat].sanctions]


def _sanction_decision(s: GameState, p: Pending, step: Step) -> Decision | None:
    work = work_of(p)
    if not work["targets"] or work["left"] <= 0:
        return None
    target = work["targets"][0]
    free = _free_actions(s, target)
    if len(free) <= 1:
        return None
    opts = tuple((f"SANCTION {s.players[target].name}'s {a.title()}", a) for a in free)
    return Decision(p.owner, opts, f"{p.source}: choose the action to SANCTION (R109)")


def _sanction_run(ctx: Ctx, p: Pending, step: Step) -> None:
    work = work_of(p)
    free = _free_actions(ctx.state, work["targets"][0]) if work["targets"] else []
    if not work["targets"]:
        progress(ctx, p, p.index + 1, None)
    elif work["left"] <= 0 or not free:  # A19: every action already carries one
        next_target(ctx, p, step, work)
    else:
        _sanction(ctx, p, step, work["targets"][0], free[0])


def _sanction_choose(ctx: Ctx, p: Pending, step: Step, value: Any) -> None:
    _sanction(ctx, p, step, work_of(p)["targets"][0], value)


def _sanction(ctx: Ctx, p: Pending, step: Step, seat: int, action: str) -> None:
    """R109, R105: from the reserve, else taken from another player's mat (the first in turn order, a ruling)."""
    s = ctx.state
    if s.items.sanction_supply > 0:
        source: Any = "reserve"
    else:
        mats = [{"seat": q, "action": a} for q in s.in_turn_order(range(s.seats)) if q != seat for a in s.players[q].sanctions]
        source = mats[0] if mats else None
    if source is None:
        ctx.emit(ev.SanctionNotPlaced(seat=seat, action=action, reason="no SANCTION left anywhere (A43)"))
    else:
        ctx.emit(ev.SanctionPlaced(seat=seat, action=action, source=source, reason=f"{p.source} (card effect)"))
    next_target(ctx, ctx.state.pending.effects[0], step, dict(ctx.state.pending.effects[0].work or {}))


# ----- a war, and sacrifices -----


def _war_run(ctx: Ctx, p: Pending, step: Step) -> None:
    s = ctx.state
    work = work_of(p)
    target = work["targets"][0] if work["targets"] else None
    if target is not None and s.play.act is None and why_not(s, p.owner, target) is None:
        ctx.emit(ev.EffectWarBegan(attacker=p.owner, defender=target, source=p.source))
    progress(ctx, ctx.state.pending.effects[0], p.index + 1, None)


def _sacrifice_run(ctx: Ctx, p: Pending, step: Step) -> None:
    s = ctx.state
    to = s.seat_led_by(step["leader"])
    amount = min(step["amount"], s.players[p.owner].soldiers)
    if to is not None and to != p.owner and not s.players[to].eliminated and amount > 0:
        ctx.emit(ev.SacrificesGiven(seat=p.owner, to=to, amount=amount, reason=f"{p.source} (R115, R149)"))
    progress(ctx, p, p.index + 1, None)


# ----- the BOMB -----


def _bomb_guarded(s: GameState, p: Pending) -> bool:
    holder = next(iter(s.items.held.get("BOMB", {})), None)
    return holder is not None and out_of_reach(s, p, holder)


def _bomb_decision(s: GameState, p: Pending, step: Step) -> Decision | None:
    if _bomb_guarded(s, p):
        return None
    opts: tuple[tuple[str, Any], ...] = (("Add an unused soldier to the BOMB", "add"),)
    if s.items.item_soldiers.get("BOMB", 0) > 0:
        opts += (("Remove a soldier from the BOMB", "remove"),)
    if step["may"]:
        opts += (("Leave the BOMB as it is", "leave"),)
    return Decision(p.owner, opts, f"{p.source}: the BOMB")  # even a single way is said in the declaration


def _bomb_run(ctx: Ctx, p: Pending, step: Step) -> None:
    progress(ctx, p, p.index + 1, None)  # guarded (R66): the BOMB is left as it is


def _bomb_choose(ctx: Ctx, p: Pending, step: Step, value: Any) -> None:
    if value != "leave":
        ctx.emit(ev.ItemSoldiersChanged(item="BOMB", delta=1 if value == "add" else -1, reason=p.source))
    progress(ctx, p, p.index + 1, None)


# ----- cards and items in play discarded, any player's (R96, R47, R145) -----


def _cards_in_play(s: GameState, p: Pending, step: Step) -> list[tuple[int, Card]]:
    return [(q.seat, c) for q in s.players for c in q.cards if not out_of_reach(s, p, q.seat)]


def _revealable(s: GameState, p: Pending, step: Step) -> list[tuple[int, Card]]:
    """Unrevealed cards in play, any player's, but never those of the player the named leader leads."""
    spared = s.seat_led_by(step["except_leader"])
    return [(o, c) for o, c in _cards_in_play(s, p, step) if not c.revealed and o != spared]


def _card_choice_label(s: GameState, chooser: int, owner: int, card: Card, verb: str) -> str:
    """A card as its chooser may know it: a hidden card by its owner and id only (A53)."""
    whose = "your" if owner == chooser else f"{s.players[owner].name}'s"
    if card.known_to(chooser, owner):
        return f"{verb} {whose} {'revealed ' if card.revealed else ''}{card.name} ({card.id})"
    return f"{verb} {whose} unrevealed card ({card.id})"


def _left(p: Pending, step: Step) -> int:
    """How many more times a counted step acts: what its work says is left, else its count (before it starts)."""
    left = (p.work or {}).get("left")
    return int(step["count"] if left is None else left)


def _in_play_decision(verb: str, among: Callable[[GameState, Pending, Step], list[tuple[int, Card]]]) -> Waits:
    """The possessor picks a card in play (of ``among``), one at a time, ``count`` times."""

    def decision(s: GameState, p: Pending, step: Step) -> Decision | None:
        cards = among(s, p, step)
        if _left(p, step) <= 0 or not cards:
            return None
        opts = tuple((_card_choice_label(s, p.owner, o, c, verb.title()), c.id) for o, c in cards)
        return Decision(p.owner, opts, f"{p.source}: {verb} a card in play")

    return decision


def _in_play_run(ctx: Ctx, p: Pending, step: Step) -> None:
    progress(ctx, p, p.index + 1, None)  # nothing left to choose from (A43)


def _in_play_choose(act: CardAct) -> Chooses:
    def choose(ctx: Ctx, p: Pending, step: Step, value: Any) -> None:
        s = ctx.state
        work = p.work or {"left": step["count"]}
        owner = s.owner_of(value)
        assert owner is not None
        card = s.players[owner].card(value)
        assert card is not None
        act(ctx, owner, card, f"{p.source} (card effect)")
        progress(ctx, ctx.state.pending.effects[0], p.index, {**work, "left": work["left"] - 1})

    return choose


def _discardable(s: GameState, p: Pending) -> list[str]:
    return sorted(ref for ref, holder in items_in_play(s) if not out_of_reach(s, p, holder))


def _items_decision(s: GameState, p: Pending, step: Step) -> Decision | None:
    refs = _discardable(s, p)
    if _left(p, step) <= 0 or not refs:
        return None
    return Decision(p.owner, tuple((f"Discard {item_label(s, r)}", r) for r in refs), f"{p.source}: discard an item in play")


def _items_run(ctx: Ctx, p: Pending, step: Step) -> None:
    work = p.work or {"left": step["count"]}
    refs = _discardable(ctx.state, p)
    if work["left"] <= 0 or not refs:
        progress(ctx, p, p.index + 1, None)
    else:
        _discard_ref(ctx, p, work, refs[0])


def _items_choose(ctx: Ctx, p: Pending, step: Step, value: Any) -> None:
    _discard_ref(ctx, p, p.work or {"left": step["count"]}, value)


def _items_said(step: Step) -> str:
    return f"discard {counted(step['count'], 'item')} in play"


def _discard_ref(ctx: Ctx, p: Pending, work: dict[str, Any], ref: str) -> None:
    discard_item(ctx, ref, f"{p.source} (card effect)", by=p.owner)
    progress(ctx, ctx.state.pending.effects[0], p.index, {**work, "left": work["left"] - 1})


# ----- a consumable item, discarded once its text has run (R103) -----


def _discard_used_run(ctx: Ctx, p: Pending, step: Step) -> None:
    """R103: "the effects written on the back are used once, and then it is discarded": the item goes when its text
    is done, so what its discard sets off (VIGILANTE) comes after its effect. Its user may have lost it meanwhile (an
    eliminated player discards every item): then there is nothing left to discard."""
    s = ctx.state
    if s.items.held.get(step["item"], {}).get(p.owner, 0) > 0:
        ctx.emit(ev.ItemDiscarded(seat=p.owner, item=step["item"], reason="used (R103)"))
    progress(ctx, ctx.state.pending.effects[0], p.index + 1, None)


# ----- a choice between lists of steps (R143 'or') -----


def _choose_decision(s: GameState, p: Pending, step: Step) -> Decision | None:
    opts: tuple[tuple[str, Any], ...] = tuple((describe_steps(option), i) for i, option in enumerate(step["options"]))
    if step["may"]:
        opts += (("Do none of these", "none"),)
    return Decision(p.owner, opts, f"{p.source}: choose one")


def _choose_choose(ctx: Ctx, p: Pending, step: Step, value: Any) -> None:
    chosen = [] if value == "none" else list(step["options"][value])
    steps = p.steps[: p.index] + chosen + p.steps[p.index + 1 :]
    ctx.emit(ev.EffectProgressed(id=p.id, index=p.index, work=None, steps=steps))


def _choose_bound(step: Step, item: str, offerable: bool) -> Step:
    """Only a list of steps that can hand the discarded item back is offered (``offerable``)."""
    options = [bind_steps(o, item, offerable) for o in step["options"] if offerable or not _mentions_discarded(o)]
    return {**step, "options": options}


def _mentions_discarded(steps: list[Step]) -> bool:
    return any("$discarded" in step.get("items", []) for step in steps)


# ----- the vocabulary -----


def _registry(kinds: list[StepKind]) -> Mapping[str, StepKind]:
    out: dict[str, StepKind] = {}
    for kind in kinds:
        if kind.name in out:
            raise ValueError(f"effect step {kind.name} is declared twice")
        out[kind.name] = kind
    return MappingProxyType(out)


STEP_KINDS = _registry(
    [
        StepKind(
            "gain_soldiers",
            (("who", WHO), AMOUNT),
            "each player it is about gains soldiers (R44)",
            run=_soldiers_changed(gain=True),
            describe=_soldiers_said,
        ),
        StepKind(
            "lose_soldiers",
            (("who", WHO), AMOUNT),
            "each player it is about discards soldiers they possess, as many as they have",
            run=_soldiers_changed(gain=False),
            describe=_soldiers_said,
        ),
        StepKind(
            "discard_soldiers_in_play",
            (AMOUNT, ("up_to", (True, False))),
            "the possessor discards soldiers in play, 1 at a time from players they pick ('up to': may stop)",
            run=_soldiers_in_play_run,
            decision=_soldiers_in_play_decision,
            choose=_soldiers_in_play_choose,
        ),
        StepKind(
            "gain_card",
            (("who", WHO), COUNT),
            "each player it is about gains cards from the deck (R94)",
            run=_gain_card,
        ),
        StepKind(
            "reveal",
            (("who", WHO), COUNT),
            "each player it is about fully reveals unrevealed cards of their choice (R95)",
            run=_own_card_run(_reveal_fully),
            decision=_own_card_decision("reveal"),
            choose=_own_card_choose(_reveal_fully),
        ),
        StepKind(
            "discard_unrevealed",
            (("who", WHO), COUNT),
            "each player it is about discards unrevealed cards of their choice (R96)",
            run=_own_card_run(discard_card),
            decision=_own_card_decision("discard"),
            choose=_own_card_choose(discard_card),
        ),
        StepKind(
            "unreveal_any",
            (COUNT,),
            "the possessor unreveals revealed cards in play, any player's (R95)",
            run=_unreveal_run,
            decision=_unreveal_decision,
            choose=_unreveal_choose,
        ),
        StepKind(
            "give_item",
            (("items", list), ("who", WHO)),
            "the possessor gives 1 of the items (whichever is possible, R140) to a player: from the reserve, or taken "
            "from its holder (R105, R106); a player who already holds it gains nothing (R106)",
            run=_give_run,
            decision=_give_decision,
            choose=_give_choose,
            pick_label=_give_label,
            describe=_give_said,
            pick_said_later=True,  # the item given names the player
            bind=_give_bound,
        ),
        StepKind(
            "bomb_soldier",
            (("may", (True, False)),),
            "the possessor adds or removes an unused soldier from the BOMB ('may': or leaves it)",
            run=_bomb_run,
            decision=_bomb_decision,
            choose=_bomb_choose,
            starts_work=False,
        ),
        StepKind(
            "discard_item_in_play",
            (COUNT,),
            "the possessor discards items in play, any player's (R47, R145)",
            run=_items_run,
            decision=_items_decision,
            choose=_items_choose,
            starts_work=False,
            describe=_items_said,
        ),
        StepKind(
            "war",
            (("who", ("an opponent",)),),
            "the possessor goes to war, as the attacker, with an opponent they select (R78-R85); not while a war or "
            "another action is under way, nor while a condition forbids wars (R86)",
            run=_war_run,
        ),
        StepKind(
            "win_if",
            (("count", COUNTS), ("at_least", int, 1, 99)),
            "an alternate win condition (R9c): the player wins if this count of theirs reaches the number",
            read_by="aegis.domain.everaegis.wins",  # in its player's own Conquest Phase
        ),
        StepKind(
            "sanction",
            (("who", WHO),),
            "the possessor puts a SANCTION on an unsanctioned action of the player it is about, of the possessor's "
            "choice: from the reserve, or taken from another player's mat (R109, R105, A19)",
            run=_sanction_run,
            decision=_sanction_decision,
            choose=_sanction_choose,
            describe=lambda step: f"put a SANCTION on an action of {WHO_SAID.get(step['who'], step['who'])}",
        ),
        StepKind(
            "stop_draw",
            (),
            "the player whose Draw Phase it is gains no card this Draw Phase (R27)",
            read_by="aegis.domain.everaegis.reactive",  # a reactive item used 'draw' (R104, R118)
        ),
        StepKind(
            "thwart_action",
            (),
            "the action this reaction answers is thwarted (R74): it does not execute",
            read_by="aegis.domain.everaegis.reactive",  # a reactive item used in the reaction window (R104)
        ),
        StepKind(
            "discard_any_cards",
            (COUNT,),
            "the possessor discards cards in play, any player's, revealed or not (R96, R145)",
            run=_in_play_run,
            decision=_in_play_decision("discard", _cards_in_play),
            choose=_in_play_choose(discard_card),
            starts_work=False,
        ),
        StepKind(
            "reveal_any",
            (COUNT, ("except_leader", str)),
            "the possessor fully reveals unrevealed cards in play, any player's, but not those of the player the "
            "named leader leads (R95)",
            run=_in_play_run,
            decision=_in_play_decision("reveal", _revealable),
            choose=_in_play_choose(_reveal_fully),
            starts_work=False,
        ),
        StepKind(
            "choose",
            (("options", "steps"), ("may", (True, False))),
            "the possessor picks one list of steps, which then runs ('may': or none; R143 'or')",
            decision=_choose_decision,
            choose=_choose_choose,
            starts_work=False,
            said_later=True,  # the steps chosen say it
            bind=_choose_bound,
        ),
        StepKind(
            "discard_used",
            (("item", str),),
            "the user discards the consumable item it used, once its text has run (R103)",
            run=_discard_used_run,
            starts_work=False,
            describe=lambda step: f"discard the {step['item']}",
        ),
        StepKind(
            "sacrifice_to_leader",
            (("leader", str), AMOUNT),
            "the possessor gives soldiers, as many as they have, as sacrifices to the player whose leader is named (R149)",
            run=_sacrifice_run,
        ),
    ]
)


def describe(step: Step) -> str:
    return STEP_KINDS[step["step"]].describe(step)


def describe_steps(steps: list[Step]) -> str:
    """A list of steps as one option says it: "Gain 3 soldiers and take the GLOVE"."""
    said = [describe(step) for step in steps]
    text = ", ".join(said[:-1]) + (" and " if len(said) > 1 else "") + said[-1] if said else "nothing"
    return capital(text)


def bind_steps(steps: list[Step], item: str, offerable: bool) -> list[Step]:
    """The steps with ``"$discarded"`` bound to ``item``; when it cannot be offered, the choices that would
    hand it back are left out."""
    return [STEP_KINDS[step["step"]].bind(step, item, offerable) for step in steps]


def check_steps(steps: list[Any], *, where: str) -> None:
    """Raise ``EffectError`` unless each of ``steps`` is a declared step with its parameters."""
    for i, step in enumerate(steps, start=1):
        here = f"{where} {i}"
        if not isinstance(step, dict) or not isinstance(step.get("step"), str):
            raise EffectError(f"{here}: each step is an object with a 'step' name")
        name = step["step"]
        if name not in STEP_KINDS:
            hint = " (a condition: use when 'while revealed')" if name in CONDITIONS else ""
            raise EffectError(f"{here}: unknown step {name!r}{hint}; steps: {', '.join(STEP_KINDS)}")
        STEP_KINDS[name].check(step, here)
