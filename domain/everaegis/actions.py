"""The eight Simpleton actions: every legal declaration (the full plan), and their execution.

Rules: R28, R38-R54, R61, R73, R109-R110 and RULINGS "Actions" (A6, A14-A21).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from aegis.domain.everaegis import events as ev
from aegis.domain.everaegis.cards import card_accepts, card_choices, card_options, discard_card, own_card, remove_token
from aegis.domain.everaegis.catalog import ACTIONS, CATALOG
from aegis.domain.everaegis.context import Ctx
from aegis.domain.everaegis.effect_plans import declared_label, plans
from aegis.domain.everaegis.effect_work import queue_effect
from aegis.domain.everaegis.effects import leader_source
from aegis.domain.everaegis.events.words import action_name, said_discard
from aegis.domain.everaegis.items import discard_item, give_treaty, give_wall, item_label, items_in_play, place_sanction_step
from aegis.domain.everaegis.mob import card_said, pick_objects
from aegis.domain.everaegis.mob import own_card as mob_card
from aegis.domain.everaegis.mob_play import NOTHING, idle, mob_declare
from aegis.domain.everaegis.reactive import thwart_step
from aegis.domain.everaegis.soldiers import change_soldiers
from aegis.domain.everaegis.state import Card, GameState, Player
from aegis.domain.everaegis.war import war_step
from aegis.domain.everaegis.war_bans import is_war_target, war_targets
from aegis.domain.kernel.decisions import DecisionKind
from aegis.domain.kernel.prompts import Choice, Option, Param, Prompt, fits, one_of, some_of

RECRUIT_SOLDIERS = 2  # R44
TREASURY_SOLDIERS = 5  # R49


def _name(s: GameState, seat: int) -> str:
    return s.players[seat].name


def _declare(seat: int, action: str, **plan: Any) -> dict[str, Any]:
    return {"type": "declare", "seat": seat, "action": action, **plan}


def _way(s: GameState, seat: int, action: str) -> str:
    """How ``seat`` may declare ``action`` now, the one source of its options and of ``_declare_accepts``:
    "sanctioned", "barred" (not at all), "plain" (a leader's unprinted text), "leader" (its text's choices),
    "simple" (no plan), or the action itself (war, temple, mason, library: a plan to pick)."""
    if action in s.players[seat].sanctions:
        return "sanctioned"  # R109, A20: the slot is replaced by the SANCTION's text; not a claim (A17)
    claim = CATALOG.action(action).claim
    if claim is not None and not s.may_bluff(seat) and not s.holds(seat, claim):
        return "barred"  # R167 Solo: no bluffing; only actions of buildings held unrevealed
    if s.plain_action(seat, action):
        return "plain"
    if action in ("laboratory", "library") and s.leader_effect(seat, action) is not None:
        return "leader"  # the leader's own text, every choice declared (RULINGS)
    if action in ("recruit", "treasury", "barracks", "laboratory"):
        return "simple"
    return action


def _war_targets(s: GameState, seat: int) -> list[int]:
    """Who ``seat`` may war on: nobody without a soldier (R77); else the TREATY, allies, the Chapel, the TORCH,
    TARGET and EFFIGY decide (war_bans)."""
    return war_targets(s, seat) if s.players[seat].soldiers >= 1 else []


def declarations(s: GameState, seat: int, only: str | None = None) -> list[Option]:
    """Every legal declaration for ``seat`` in its Action Phase (``only``: one action's options), compact:
    an action whose plan picks a player, a card or SANCTION slots is one option with parameters."""
    out: list[Option] = []
    partner = s.partner(seat)
    remaining = s.remaining()
    for action in ACTIONS if only is None else (only,):
        spec = CATALOG.action(action)
        way = _way(s, seat, action)
        if way == "sanctioned":
            out.append(Option(f"{spec.name} (SANCTIONED: discard an unrevealed card)", _declare(seat, action), action))
        elif way == "plain":
            out.append(Option(_plain_label(s, seat, spec.name), _declare(seat, action), action))
        elif way == "leader":
            leader_effect = s.leader_effect(seat, action)
            assert leader_effect is not None
            source = leader_source(s, seat, action)
            for choices, label in plans(s, seat, source, leader_effect["steps"]):
                out.append(Option(f"{spec.name}: {label}", _declare(seat, action, choices=choices), action))
        elif way == "simple":
            out.append(Option(spec.name, _declare(seat, action), action))
        elif way == "war":
            targets = _war_targets(s, seat)
            if targets:
                out.append(Option("War on", _declare(seat, action), action, (players_param(s, "target", targets),)))
        elif way == "temple":
            out.extend(_temple_options(s, seat, partner, remaining))
        elif way == "mason":
            out.extend(_mason_options(s, seat, partner, remaining))
        elif way == "library":
            out.extend(_library_options(s, seat, partner, remaining))
    return out


def _declare_accepts(s: GameState, seat: int, cmd: dict[str, Any]) -> bool:
    """Would the declaration prompt accept ``cmd``? Matched as the options of its action would match it (from the
    same ``_way`` and the same candidates), without building them and their labels."""
    action = cmd["action"]
    way = _way(s, seat, action)
    bare = _declare(seat, action)
    if way in ("sanctioned", "plain", "simple"):
        return fits(cmd, bare)
    if way == "war":  # one_of(target, _war_targets(...)), without working out the other targets
        target = cmd.get("target")
        if not fits(cmd, bare, ("target",)) or type(target) is not int or s.players[seat].soldiers < 1:  # R77
            return False
        return is_war_target(s, seat, target)
    partner = s.partner(seat)
    remaining = s.remaining()
    if way == "temple":
        if not fits(cmd, bare, ("card", "recipient")):
            return False
        return any(
            one_of(cmd["card"], [c.id for c in cards]) and one_of(cmd["recipient"], to)
            for _, to, cards in _temple_sources(s, partner, remaining)
        )
    if way == "mason":
        if "discard" in cmd:
            if fits(cmd, _declare(seat, action, discard=[])):
                return True
            pieces, refs = _mason_pieces(s, partner)
            if refs and fits(cmd, bare, ("discard",)) and some_of(cmd["discard"], refs, 1, 2):
                return True
            return any(fits(cmd, _declare(seat, action, discard=[r, r])) for r in refs if pieces.count(r) > 1)
        to = _wall_receivers(s, partner, remaining)
        return bool(to) and fits(cmd, bare, ("give_wall",)) and one_of(cmd["give_wall"], to)
    if way == "library":
        slots, to = _library_sources(s, seat, partner, remaining)
        if "sanctions" in cmd:
            if len(slots) == 1:
                return fits(cmd, _declare(seat, action, sanctions=[{"seat": slots[0][0], "action": slots[0][1]}]))
            if len(slots) < 2 or not fits(cmd, bare, ("sanctions",)) or not isinstance(cmd["sanctions"], list):
                return False
            # the parameter's choices, but only those the picks could be (a pick is one of them only if equal to it)
            picked = [(v.get("seat"), v.get("action")) for v in cmd["sanctions"] if type(v) is dict]
            values = [{"seat": p, "action": a} for p, a in slots if (p, a) in picked]
            return some_of(cmd["sanctions"], values, 2, 2)
        return bool(to) and fits(cmd, bare, ("treaty",)) and one_of(cmd["treaty"], to)
    if way == "leader":
        return any(o.accepts(cmd) for o in declarations(s, seat, action))
    return False  # barred


def players_param(s: GameState, name: str, seats: list[int], words: str = "") -> Param:
    """A parameter that picks one of ``seats``, by name (after ``words``)."""
    return Param(name, tuple(Choice(f"{words}{s.players[t].name}", t) for t in seats))


def _plain_label(s: GameState, seat: int, name: str) -> str:
    return f"{name} ({s.players[seat].leader}: its text is not printed in the rulebook, so it has no effect; A54)"


def _temple_sources(s: GameState, partner: int | None, remaining: list[int]) -> Iterator[tuple[Player, list[int], list[Card]]]:
    """R46, A19, A32: per holder of revealed cards (eliminated players' too, but never the declarer's partner, nor
    under Vengeance an eliminated player, R159): who may receive one of them (never that holder), and the cards."""
    recipients = [r for r in remaining if r != partner]
    vengeance = s.config.option("vengeance")
    for owner in s.players:
        if owner.seat == partner or (vengeance and owner.eliminated):
            continue
        to = [r for r in recipients if r != owner.seat]
        cards = [c for c in owner.cards if c.revealed]
        if to and cards:
            yield owner, to, cards


def _temple_options(s: GameState, seat: int, partner: int | None, remaining: list[int]) -> list[Option]:
    """Give any revealed card possessed by any player to any player: one option per holder of revealed cards,
    the card and the recipient (never that holder) to pick."""
    out = []
    for owner, to, revealed in _temple_sources(s, partner, remaining):
        cards = tuple(Choice(f"{owner.name}'s revealed {c.name} ({c.id})", c.id) for c in revealed)
        params = (Param("card", cards), players_param(s, "recipient", to, "to "))
        out.append(Option("Temple: give", _declare(seat, "temple"), "temple", params))
    return out


def _mason_pieces(s: GameState, partner: int | None) -> tuple[list[str], list[str]]:
    """RULINGS (A18): the item pieces in play that may be discarded (never the partner's, R107), and their
    references."""
    pieces = sorted(ref for ref, holder in items_in_play(s) if holder != partner)
    return pieces, sorted(set(pieces))


def _wall_receivers(s: GameState, partner: int | None, remaining: list[int]) -> list[int]:
    """Who may be given the WALL: nobody when the partner holds it (R107: the partner cannot be affected)."""
    if partner is not None and s.items.wall == partner:
        return []
    return [r for r in remaining if r != s.items.wall and r != partner]


def _mason_options(s: GameState, seat: int, partner: int | None, remaining: list[int]) -> list[Option]:
    """RULINGS (A18): discard up to 2 ITEMS in play, or give the WALL to any player."""
    pieces, refs = _mason_pieces(s, partner)
    to = _wall_receivers(s, partner, remaining)
    out = [Option("Mason: discard nothing", _declare(seat, "mason", discard=[]), "mason")]
    if refs:
        choices = tuple(Choice(item_label(s, r), r) for r in refs)
        out.append(Option("Mason: discard", _declare(seat, "mason"), "mason", (Param("discard", choices, 1, 2),)))
    # a player holding 2 BRIGS may lose both (two pieces, one reference)
    for ref in refs:
        if pieces.count(ref) > 1:
            label = f"Mason: discard {item_label(s, ref)} and {item_label(s, ref)}"
            out.append(Option(label, _declare(seat, "mason", discard=[ref, ref]), "mason"))
    if to:
        out.append(Option("Mason: give the WALL to", _declare(seat, "mason"), "mason", (players_param(s, "give_wall", to),)))
    return out


def _library_sources(
    s: GameState, seat: int, partner: int | None, remaining: list[int]
) -> tuple[list[tuple[int, str]], list[int]]:
    """R53, A21: the unsanctioned action slots that may take a SANCTION (never the partner's), and who may be
    given the TREATY (nobody when it would be taken from the declarer's own partner, R107)."""
    slots = [(p, a) for p in remaining if p != partner for a in ACTIONS if a not in s.players[p].sanctions]
    if partner is not None and s.items.treaty == partner:
        return slots, []
    return slots, [r for r in remaining if r != seat and r != s.items.treaty and r != partner]


def _library_options(s: GameState, seat: int, partner: int | None, remaining: list[int]) -> list[Option]:
    """2 SANCTIONS on 2 unsanctioned actions of 1 or 2 players (any 2 such slots), or give a player the TREATY."""
    out = []
    slots, to = _library_sources(s, seat, partner, remaining)
    if slots:
        names = [p.name for p in s.players]
        choices = tuple(Choice(f"{names[p]}'s {a.title()}", {"seat": p, "action": a}) for p, a in slots)
        if len(choices) == 1:  # A43: a single free slot: the one SANCTION that can be placed, still a list of slots
            label, slot = choices[0]
            out.append(Option(f"Library: SANCTION {label}", _declare(seat, "library", sanctions=[slot]), "library"))
        else:
            out.append(Option("Library: SANCTION", _declare(seat, "library"), "library", (Param("sanctions", choices, 2, 2),)))
    if to:
        out.append(Option("Library: give the TREATY to", _declare(seat, "library"), "library", (players_param(s, "treaty", to),)))
    return out


def plan_of(command: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in command.items() if k not in ("type", "seat", "action", "at")}


def start_action(ctx: Ctx, seat: int, command: dict[str, Any]) -> None:
    s = ctx.state
    action = command["action"]
    sanctioned = action in s.players[seat].sanctions
    claim = None if sanctioned else CATALOG.action(action).claim
    ctx.emit(ev.ActionDeclared(seat=seat, action=action, plan=plan_of(command), claim=claim, sanctioned=sanctioned))


# ----- execution -----


def sanction_choices(s: GameState) -> list[Card]:
    """SANCTION red side: "Discard an unrevealed card." The user chooses which (R110)."""
    act = s.play.act
    assert act is not None
    return s.players[act.declarer].unrevealed


def sanction_step(ctx: Ctx) -> bool:
    s = ctx.state
    act = s.play.act
    assert act is not None
    if act.stage == "sanction paid":
        ctx.emit(ev.SanctionRemoved(seat=act.declarer, action=act.action, reason="used (R110)", discarded=True))
        ctx.emit(ev.ActionCompleted(seat=act.declarer, action=act.action, outcome="sanction discharged"))
        return True
    cards = sanction_choices(s)
    if not cards:  # R110 ruling: nothing to discard, so the SANCTION stays
        ctx.emit(ev.ActionCompleted(seat=act.declarer, action=act.action, outcome="no unrevealed card: the SANCTION stays"))
        return True
    if len(cards) == 1:
        discard_card(ctx, act.declarer, cards[0], "sanction")
        return True
    return False


def barracks_choices(s: GameState) -> list[Card]:
    act = s.play.act
    assert act is not None and act.queue
    return s.players[act.queue[0]].unrevealed


def barracks_outcome(discarded: int) -> str:
    """How many opponents a Barracks made discard: none when each was guarded, allied, resigned or had nothing left."""
    if discarded == 0:
        return "no opponent discarded"
    return f"{discarded} opponent{'s' if discarded != 1 else ''} discarded"


def put_back_choices(s: GameState) -> list[tuple[Card, ...]]:
    """A21: put 2 unrevealed cards (the new ones included) on top of the deck, in the order chosen."""
    act = s.play.act
    assert act is not None
    cards = s.players[act.declarer].unrevealed
    if len(cards) < 2:
        return [tuple(cards)]
    return [(a, b) for a in cards for b in cards if a.id != b.id]


def put_back(ctx: Ctx, cards: tuple[Card, ...]) -> None:
    """``cards`` is top first; the second goes on the deck first."""
    s = ctx.state
    act = s.play.act
    assert act is not None
    for card in reversed(cards):
        remove_token(ctx, act.declarer, card, "put on the deck")  # Discovery ruling (R160)
        ctx.emit(ev.CardPutOnDeck(seat=act.declarer, card=card.id, name=card.name, knowers=card.knowers(act.declarer, s.seats)))
    # the recorded words stay as the golden records have them; the narrator reads them "2 cards" (words.unhedged)
    ctx.emit(ev.ActionCompleted(seat=act.declarer, action="laboratory", outcome=f"{len(cards)} card(s) put on the deck"))


def execute_step(ctx: Ctx) -> bool:
    """Carry the resolving action one step further. False when a player must choose."""
    s = ctx.state
    act = s.play.act
    assert act is not None
    d, action, plan = act.declarer, act.action, act.plan
    done = ev.ActionCompleted
    if act.step == 0 and thwart_step(ctx):  # R104: a reactive item used in the window
        return True
    if idle(s, act):  # a mob's action with nothing it could select: used, it does nothing (A43, A50)
        ctx.emit(done(seat=d, action=action, outcome=f"{NOTHING[action]}: nothing happens (A43)"))
        return True
    leader_effect = s.leader_effect(d, action) if action in ("laboratory", "library") else None
    if s.plain_action(d, action):
        ctx.emit(done(seat=d, action=action, outcome=f"no effect: {s.players[d].leader}'s text is not printed (A54)"))
    elif leader_effect is not None:
        if act.step == 0:
            queue_effect(
                ctx,
                d,
                leader_source(s, d, action),
                leader_effect["steps"],
                f"{action} (R50-R51)",
                plan=list(plan.get("choices", [])),
                guarded=[g.seat for g in act.guards if g.status == "stands"],
                for_action=True,
            )
        else:
            ctx.emit(done(seat=d, action=action, outcome="done"))
    elif action == "recruit":
        change_soldiers(ctx, d, RECRUIT_SOLDIERS, "recruit (R44)")
        ctx.emit(done(seat=d, action=action, outcome=f"gained {RECRUIT_SOLDIERS} soldiers"))
    elif action == "treasury":
        change_soldiers(ctx, d, TREASURY_SOLDIERS, "treasury (R49)")
        ctx.emit(done(seat=d, action=action, outcome=f"gained {TREASURY_SOLDIERS} soldiers"))
    elif action == "war":
        return war_step(ctx)
    elif action == "barracks":
        if not act.queue:
            ctx.emit(done(seat=d, action=action, outcome=barracks_outcome(act.discarded)))
            return True
        cards = barracks_choices(s)
        if len(cards) == 1:
            discard_card(ctx, act.queue[0], cards[0], "barracks")
            return True
        return False
    elif action == "laboratory":
        if s.play.draw_queue:
            return True  # the draws are served first (see flow)
        choices = put_back_choices(s)
        if len(choices) == 1:
            put_back(ctx, choices[0])
            return True
        return False
    elif action == "temple":
        if act.step == 0:
            owner = s.owner_of(plan["card"])
            if owner is None or act.guarded(owner) or act.guarded(plan["recipient"]):
                ctx.emit(done(seat=d, action=action, outcome="guarded: nothing moves (R66)"))
                return True
            if s.players[plan["recipient"]].eliminated:  # S2: the recipient resigned while it was under way
                ctx.emit(done(seat=d, action=action, outcome="the recipient resigned: nothing moves (S2)"))
                return True
            if s.players[owner].eliminated and s.config.option("vengeance"):  # the holder resigned meanwhile (S2)
                ctx.emit(done(seat=d, action=action, outcome="nothing is taken from an eliminated player (R159)"))
                return True
            card = s.players[owner].card(plan["card"])
            assert card is not None
            ctx.emit(ev.CardMoved(card=card.id, name=card.name, from_seat=owner, to_seat=plan["recipient"], reason="temple"))
            return True
        if act.todo:
            return place_sanction_step(ctx, "temple (R46)")
        ctx.emit(done(seat=d, action=action, outcome="card given"))
    elif action == "mason":
        if "give_wall" in plan:
            if not s.players[plan["give_wall"]].eliminated:  # S2: nothing goes to a player who resigned meanwhile
                give_wall(ctx, plan["give_wall"], "mason")
        else:
            for ref in plan["discard"]:
                if ref in {r for r, _ in items_in_play(s)}:
                    discard_item(ctx, ref, "mason", by=d)
        ctx.emit(done(seat=d, action=action, outcome="done"))
    elif action == "library":
        if "treaty" in plan:
            if act.guarded(plan["treaty"]) or (s.items.treaty is not None and act.guarded(s.items.treaty)):
                ctx.emit(done(seat=d, action=action, outcome="guarded: no TREATY given (R66)"))
            elif s.players[plan["treaty"]].eliminated:  # S2: the receiver resigned while it was under way
                ctx.emit(done(seat=d, action=action, outcome="the receiver resigned: no TREATY given (S2)"))
            else:
                give_treaty(ctx, d, plan["treaty"])
                ctx.emit(done(seat=d, action=action, outcome="TREATY given"))
            return True
        if act.todo:
            return place_sanction_step(ctx, "library (R53)")
        ctx.emit(done(seat=d, action=action, outcome="sanctions placed"))
    else:  # pragma: no cover
        raise AssertionError(action)
    return True


# ----- what a declared plan would do, in words (for the reaction prompt) -----


def describe_plan(s: GameState, act: Any, reader: int | None = None) -> str:
    """What the declared action would do, to whom, as the players read it ("you"/"your" for ``reader``)."""
    plan, d = act.plan, act.declarer

    def who(seat: int) -> str:
        return "you" if seat == reader else s.players[seat].name

    def whose(seat: int) -> str:
        return "your" if seat == reader else f"{s.players[seat].name}'s"

    if act.sanctioned:
        return f"{who(d)} must discard an unrevealed card (the SANCTION's text, R110)"
    if idle(s, act):
        return f"nothing: {NOTHING[act.action]} (A43)"
    leader_effect = s.leader_effect(d, act.action) if act.action in ("laboratory", "library") else None
    if s.plain_action(d, act.action):
        return "nothing: its leader's text is not printed (A54)"
    if leader_effect is not None:
        source = leader_source(s, d, act.action)
        said = declared_label(s, d, source, leader_effect["steps"], list(plan.get("choices", [])))
        return f"{source}: {said[0].lower() + said[1:]}" if said else f"{source}, as its declarer chose"
    if act.action == "recruit":
        return f"{who(d)} gain{'s' if d != reader else ''} {RECRUIT_SOLDIERS} soldiers (R44)"
    if act.action == "treasury":
        return f"{who(d)} gain{'s' if d != reader else ''} {TREASURY_SOLDIERS} soldiers (R49)"
    if act.action == "barracks":
        return "every opponent discards 1 unrevealed card (R48)"
    if act.action == "laboratory":
        return "draw 2 cards, then put 2 unrevealed cards on top of the deck (R52)"
    if act.action == "war":
        return f"war on {who(plan['target'])} (R45)"
    if act.action == "temple":
        owner = s.owner_of(plan["card"])
        card = s.players[owner].card(plan["card"]) if owner is not None else None
        recipient = plan["recipient"]
        if owner is None or card is None:
            return f"give a revealed card to {who(recipient)}, then SANCTION {whose(recipient)} action that matches it (R46)"
        then = f"then SANCTION {whose(recipient)} {card.name}"
        if card.name.lower() in s.players[recipient].sanctions:
            then = f"{whose(recipient)} {card.name} is SANCTIONED already: no second SANCTION (A19)"
        return f"give {whose(owner)} revealed {card.name} to {who(recipient)}, {then} (R46)"
    if act.action == "mason":
        if "give_wall" in plan:
            return f"give the WALL to {who(plan['give_wall'])} (R47)"
        refs = plan.get("discard", [])
        return "discard " + (" and ".join(item_label(s, r) for r in refs) or "nothing") + " (R47)"
    if act.action == "library":
        if "treaty" in plan:
            held = f", taken from {who(s.items.treaty)}" if s.items.treaty is not None and s.items.treaty != d else ""
            return f"give {who(plan['treaty'])} the TREATY{held} (R53, R106)"
        return "SANCTION " + " and ".join(f"{whose(t['seat'])} {t['action'].title()}" for t in plan["sanctions"]) + " (R53)"
    return act.action.title()


# ----- the decisions of the Action Phase: the declaration, and the choices while it runs -----


def declaration_prompt(s: GameState, seat: int, only: str | None = None) -> Prompt:
    """The declaration prompt (``only``: narrowed to one action)."""
    text = f"{s.players[seat].name}: use 1 of your 8 actions (R28, A6)"
    return Prompt(seat, "declare", text, tuple(declarations(s, seat, only)))


def _put_back_command(seat: int) -> dict[str, Any]:
    """The put_back option's command, its ``cards`` (2 of the seat's unrevealed cards, in order) left to pick."""
    return {"type": "put_back", "seat": seat}


def _put_back_prompt(s: GameState, seat: int) -> Prompt:
    cards = card_choices(s.players[seat].unrevealed)
    param = Param("cards", cards, 2, 2, ordered=True)
    opts = (Option("Put on top of the deck, first named on top:", _put_back_command(seat), "put_back", (param,)),)
    text = f"{s.players[seat].name}: Laboratory: put 2 unrevealed cards on top of the deck (R52, A21)"
    return Prompt(seat, "put_back", text, opts)


def _put_back_accepts(s: GameState, seat: int, cmd: dict[str, Any]) -> bool:
    """Would ``_put_back_prompt`` accept ``cmd``? Its one option and parameter, from the same cards, unlabelled."""
    ids = [c.id for c in s.players[seat].unrevealed]
    return fits(cmd, _put_back_command(seat), ("cards",)) and some_of(cmd["cards"], ids, 2, 2)


def _discard_kind(
    kind: str,
    rule: str,
    reason: str,
    choices: Callable[[GameState], list[Card]],
    asked: str,
    summary: str,
    asked_words: str,
) -> DecisionKind:
    """A decision to discard one of your own unrevealed cards (``choices``: the cards that may go), for ``reason``."""

    def offer(s: GameState, seat: int) -> Prompt:
        return Prompt(seat, kind, f"{s.players[seat].name}: {asked}", card_options(seat, choices(s), "Discard", kind))

    def accepts(s: GameState, seat: int, cmd: dict[str, Any]) -> bool:
        return card_accepts(seat, choices(s), kind, cmd)

    def apply(ctx: Ctx, cmd: dict[str, Any]) -> None:
        discard_card(ctx, cmd["seat"], own_card(ctx.state, cmd["seat"], cmd["card"]), reason)

    def mob(ctx: Ctx, seat: int) -> None:
        discard_card(ctx, seat, mob_card(ctx, seat, choices(ctx.state)), reason)

    return DecisionKind(
        kind,
        rule=rule,
        refusal="discard one of your own unrevealed cards",
        asks=asked_words,
        said=said_discard,
        fields={"card": str},
        docs={"card": {"description": "the id of one of your unrevealed cards"}},
        summary=summary,
        offer=offer,
        accepts=accepts,
        apply=apply,
        by_rules=mob,
        aliases=("discard",),
    )


def _mob_put_back(ctx: Ctx, mob: int) -> None:
    """A21: 2 picks, the first goes on top."""
    s = ctx.state
    ids = {c.id for combo in put_back_choices(s) for c in combo}
    cards = pick_objects(ctx, mob, s.players[mob].cards, lambda c: c.id in ids, card_said, 2)
    put_back(ctx, tuple(cards))


def _against(target: Any, who: Callable[[Any], str]) -> str:
    """ " against <the target>" of a played declaration, if it has one."""
    return f" against {who(target)}" if target is not None else ""


DECLARE = DecisionKind(
    "declare",
    rule="R38",
    refusal="that is not a legal plan for this action; see the options",
    fields={"action": str},
    optional={
        "target": int,
        "card": str,
        "recipient": int,
        "discard": list,
        "give_wall": int,
        "sanctions": list,
        "treaty": int,
        "choices": list,
    },
    docs={
        "action": {"enum": list(ACTIONS), "description": "the action you declare"},
        "target": {"minimum": 0, "description": "War: the player you war on"},
        "card": {"description": "Temple: the id of the revealed card given away"},
        "recipient": {"minimum": 0, "description": "Temple: the player who receives the card"},
        "discard": {
            "items": {"type": "string"},
            "description": "Mason: the items in play discarded (none, 1 or 2), e.g. WALL, BRIG@2, SANCTION@1:war",
        },
        "give_wall": {"minimum": 0, "description": "Mason: the player who receives the WALL"},
        "sanctions": {
            "items": {
                "type": "object",
                "properties": {"seat": {"type": "integer", "minimum": 0}, "action": {"type": "string", "enum": list(ACTIONS)}},
                "required": ["seat", "action"],
                "additionalProperties": False,
            },
            "description": "Library: the SANCTIONS placed, each on a player's action",
        },
        "treaty": {"minimum": 0, "description": "Library: the player who receives the TREATY"},
        "choices": {
            "items": {"type": ["integer", "string"]},
            "description": "an action played by its leader's text: every choice the text makes, in order",
        },
    },
    summary="declare your action, with its whole plan",
    offer=declaration_prompt,
    accepts=_declare_accepts,
    apply=lambda ctx, cmd: start_action(ctx, cmd["seat"], cmd),
    by_rules=mob_declare,
    asks="declare an action",
    said=lambda cmd, who: action_name(cmd.get("action", "")) + _against(cmd.get("target"), who),
)
SANCTION_DISCARD = _discard_kind(
    "sanction_discard",
    "R110",
    "sanction",
    sanction_choices,
    "your action is SANCTIONED: discard an unrevealed card (R110)",
    "your action is SANCTIONED: discard an unrevealed card instead",
    "discard a card for a SANCTIONED action",
)
BARRACKS_DISCARD = _discard_kind(
    "barracks_discard",
    "R48",
    "barracks",
    barracks_choices,
    "Barracks: discard 1 of your unrevealed cards (R48)",
    "Barracks: discard one of your unrevealed cards",
    "discard a card to the Barracks",
)
PUT_BACK = DecisionKind(
    "put_back",
    rule="A21",
    refusal="put 2 different unrevealed cards of yours on the deck, top first",
    fields={"cards": list},
    docs={"cards": {"items": {"type": "string"}, "description": "2 ids of your unrevealed cards, the first goes on top"}},
    summary="Laboratory: put 2 of your unrevealed cards on top of the deck",
    offer=_put_back_prompt,
    accepts=_put_back_accepts,
    apply=lambda ctx, cmd: put_back(ctx, tuple(own_card(ctx.state, cmd["seat"], c) for c in cmd["cards"])),
    by_rules=_mob_put_back,
    asks="put cards back on the deck",
    said=lambda cmd, who: f"put back cards {', '.join(str(c) for c in cmd.get('cards', []))} (first named on top)",
)
