"""``decide(state, command) -> events``: one pipeline for every command.

1. check the command's shape (``MalformedCommand``); 2. find the prompt it answers and check that it
is one of that prompt's options (``IllegalCommand`` naming the rule and the legal options);
3. apply its effect on a private copy of the state; 4. run the automatic flow until the game waits
again. Every refusal is an exception carrying data; nothing is half-applied.
"""

from __future__ import annotations

from typing import Any

from domain.everaegis import events as ev
from domain.everaegis.actions import put_back, start_action
from domain.everaegis.artificers import give as artificer_give
from domain.everaegis.blasphemy import settle_spoils
from domain.everaegis.cards import discard_card, reveal
from domain.everaegis.catalog import ACTIONS
from domain.everaegis.classic import ClassicCatalog
from domain.everaegis.classic import shipped as shipped_catalog
from domain.everaegis.components import choose as choose_components
from domain.everaegis.config import Config
from domain.everaegis.consumables import use as use_item
from domain.everaegis.context import Ctx
from domain.everaegis.diagnose import diagnose
from domain.everaegis.effects import choose as choose_effect
from domain.everaegis.evolve import initial_state
from domain.everaegis.flow import Need, advance, waiting
from domain.everaegis.leaders import choose as choose_leader
from domain.everaegis.prompts import build, gift_prompt
from domain.everaegis.reactions import close_window, pay, prove, settle
from domain.everaegis.reactive import draw_react
from domain.everaegis.resign import check as check_resign
from domain.everaegis.resign import resign
from domain.everaegis.rig import rigged_setup
from domain.everaegis.rig import validate as validate_rig
from domain.everaegis.soldiers import change_soldiers
from domain.everaegis.state import GameState
from domain.everaegis.war import reveal_for_war
from domain.kernel.errors import GameOver, IllegalCommand, MalformedCommand, TooLate
from domain.kernel.events import Event
from domain.kernel.prompts import Prompt
from domain.kernel.rng import commitment_of

COMMAND_FIELDS: dict[str, dict[str, type | tuple[type, ...]]] = {
    "declare": {"action": str},
    "choose_year": {"year": str},
    "react": {"window": int, "answer": str},
    "reveal": {},
    "discard": {"card": str},
    "put_back": {"cards": list},
    "take": {"item": str},
    "give_soldiers": {"to": int, "amount": int},
    "close_window": {"window": int},
    "undo": {"window": int, "answer": str},
    "close_undo": {"window": int},
    "choose_leader": {"mat": str},
    "effect_choice": {"choice": (str, int)},
    "effect_order": {"first": int},
    "artificer_gift": {"item": str, "to": int},
    "use_item": {"item": str},
    "draw_react": {"answer": str},
    "spoils": {"answer": str},
    "resign": {},  # S2: a seat's own command, at any moment, never a prompt option
    "timeout": {  # S3: the service's, when a seat's clock ran out; ``play`` is the bot's command for the seat
        "seat": int,
        "kind": str,
        "deadline": (int, float),
        "count": int,
        "abandon": bool,
        "play": dict,
        "at": (int, float),
    },
}
SYSTEM_COMMANDS = ("close_window", "close_undo", "timeout")  # only the service sends these
WINDOW_KINDS = frozenset({"react", "undo"})  # closed by the ruleset's own deadlines (close_window, close_undo)
TYPE_OF_KIND = {
    "declare": "declare",
    "choose_year": "choose_year",
    "setup_reveal": "reveal",
    "react": "react",
    "prove": "reveal",
    "pay": "reveal",
    "take_brig": "take",
    "take_sanction": "take",
    "sanction_discard": "discard",
    "barracks_discard": "discard",
    "put_back": "put_back",
    "war_reveal": "reveal",
    "treaty_gift": "give_soldiers",
    "undo": "undo",
    "choose_leader": "choose_leader",
    "effect_choice": "effect_choice",
    "effect_order": "effect_order",
    "artificer_gift": "artificer_gift",
    "use_item": "use_item",
    "draw_reaction": "draw_react",
    "spoils": "spoils",
}


def start(
    config: Config,
    seed: str,
    now: float | None = None,
    rig: dict[str, Any] | None = None,
    catalog: ClassicCatalog | None = None,
    components: dict[str, Any] | None = None,
    commitment: str | None = None,
) -> list[Event]:
    """The events that begin a game: ``GameStarted`` (with the seed's commitment) and setup.

    ``commitment`` is what the service published before the game (the hash of its secret, which the seed mixes
    in); None: the seed's own hash; "": none, because whoever created the game chose the seed and may know every
    draw, so the game is rigged. With ``rig`` (see ``rig.py``) the position is the one given, the game is marked
    rigged and no commitment is published; the seed still drives later shuffles. A Classic game takes its estate
    cards and leader mats from ``catalog`` (default: the shipped one), or exactly as ``components`` recorded
    them (re-running a recorded game).
    """
    if components is None:
        catalog = catalog or shipped_catalog()
        components = choose_components(config, catalog, catalog.source)
    chosen = components
    normal = validate_rig(rig, config.seats, chosen) if rig is not None else None
    ctx = Ctx(initial_state(config), now)
    if normal is not None:
        commitment = ""
    elif commitment is None:
        commitment = commitment_of(seed)
    ctx.emit(ev.GameStarted(config=config.to_dict(), commitment=commitment, seed=seed, rigged=not commitment))
    if chosen is not None:
        ctx.emit(
            ev.ComponentsChosen(
                source=chosen["source"], estates=chosen["estates"], leaders=chosen["leaders"], items=chosen.get("items", [])
            )
        )
    if normal is not None:
        rigged_setup(ctx, normal)
    advance(ctx)
    return ctx.events


def normalize(command: Any) -> dict[str, Any]:
    """Check the shape of a command and put lists in their canonical order."""
    if not isinstance(command, dict):
        raise MalformedCommand("a command is a JSON object with a 'type'")
    ctype = command.get("type")
    if ctype not in COMMAND_FIELDS:
        raise MalformedCommand(f"unknown command type {ctype!r}; known: {', '.join(COMMAND_FIELDS)}")
    if ctype not in SYSTEM_COMMANDS:
        seat = command.get("seat")
        if isinstance(seat, bool) or not isinstance(seat, int):
            raise MalformedCommand("'seat' must be a seat number")
    for name, kind in COMMAND_FIELDS[ctype].items():
        value = command.get(name)
        if kind is bool:
            if not isinstance(value, bool):
                raise MalformedCommand(f"{ctype}: '{name}' is required and must be true or false")
        elif value is None or isinstance(value, bool) or not isinstance(value, kind):
            what = " or ".join(k.__name__ for k in kind) if isinstance(kind, tuple) else kind.__name__
            raise MalformedCommand(f"{ctype}: '{name}' is required and must be a {what}")
    at = command.get("at")
    if at is not None and (isinstance(at, bool) or not isinstance(at, (int, float))):
        raise MalformedCommand("'at' must be a time in seconds")
    out = dict(command)
    if ctype == "declare":
        if out["action"] not in ACTIONS:
            raise MalformedCommand(f"unknown action {out['action']!r}; actions: {', '.join(ACTIONS)}", rule="R154")
        sanctions = out.get("sanctions")
        if isinstance(sanctions, list) and all(isinstance(t, dict) for t in sanctions):
            out["sanctions"] = sorted(
                sanctions, key=lambda t: (str(t.get("seat")), ACTIONS.index(t["action"]) if t.get("action") in ACTIONS else 99)
            )
        if isinstance(out.get("discard"), list) and all(isinstance(r, str) for r in out["discard"]):
            out["discard"] = sorted(out["discard"])
    if ctype == "reveal":
        if "cards" in out:
            if not isinstance(out["cards"], list) or not all(isinstance(c, str) for c in out["cards"]):
                raise MalformedCommand("reveal: 'cards' must be a list of card ids")
            out["cards"] = sorted(out["cards"])
        elif not isinstance(out.get("card"), str):
            raise MalformedCommand("reveal: give 'card' (a card id) or 'cards' (a list of ids)")
    return out


def _without_clock(command: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in command.items() if k != "at"}


def open_prompts_for(state: GameState, seat: int, only: str | None = None) -> list[Prompt]:
    out = [build(state, n, only) for n in waiting(state) if n.seat == seat]
    gift = gift_prompt(state, seat)
    if gift is not None:
        out.append(gift)
    return out


def decide(state: GameState, command: dict[str, Any]) -> list[Event]:
    """Validate ``command`` against the rules and return the events it causes (numbered from ``state.seq + 1``)."""
    cmd = normalize(command)
    if state.status == "finished":
        if cmd["type"] == "timeout":
            raise GameOver("the game is over: no decision is waiting, so none can time out", rule="S3")
        raise GameOver("the game is over; nothing more can be played", rule="R9")
    now = cmd.get("at")
    if cmd["type"] == "close_window":
        return _close_window(state, cmd, now)
    if cmd["type"] == "close_undo":
        return _close_undo(state, cmd, now)
    seat = cmd["seat"]
    if not 0 <= seat < state.seats:
        raise MalformedCommand(f"there is no seat {seat} in this game")
    if cmd["type"] == "timeout":
        return _timeout(state, cmd)
    if cmd["type"] == "resign":  # S2: before any prompt, on anyone's turn
        check_resign(state, seat)
        ctx = Ctx(state.clone(), now)
        resign(ctx, seat)
        advance(ctx)
        return ctx.events
    only = cmd["action"] if cmd["type"] == "declare" else None
    candidates = [p for p in open_prompts_for(state, seat, only) if TYPE_OF_KIND[p.kind] == cmd["type"]]
    for prompt in candidates:
        if prompt.accepts(cmd):
            ctx = Ctx(state.clone(), now)
            _apply(ctx, prompt, cmd)
            advance(ctx)
            return ctx.events
    raise diagnose(state, cmd, candidates, open_prompts_for(state, seat))


def _apply(ctx: Ctx, prompt: Prompt, cmd: dict[str, Any]) -> None:
    s = ctx.state
    seat = cmd["seat"]
    kind = prompt.kind
    if kind == "declare":
        start_action(ctx, seat, cmd)
    elif kind == "choose_year":
        cards = dict(s.years)[cmd["year"]]
        ctx.emit(ev.YearMadeDeck(year=cmd["year"], chosen_by=seat, size=len(cards)))
    elif kind == "setup_reveal":
        reveal(ctx, seat, _card(s, seat, cmd["card"]), full=True, reason="setup")
    elif kind == "react":
        ctx.emit(ev.ReactionGiven(window=cmd["window"], seat=seat, answer=cmd["answer"], means=cmd.get("means"), audience=[seat]))
    elif kind == "prove":
        prove(ctx, _card(s, seat, cmd["card"]))
    elif kind == "pay":
        pay(ctx, _card(s, seat, cmd["card"]))
    elif kind == "war_reveal":
        reveal_for_war(ctx, tuple(_card(s, seat, c) for c in cmd["cards"]))
    elif kind in ("sanction_discard", "barracks_discard"):
        discard_card(ctx, seat, _card(s, seat, cmd["card"]), "sanction" if kind == "sanction_discard" else "barracks")
    elif kind == "put_back":
        put_back(ctx, tuple(_card(s, seat, c) for c in cmd["cards"]))
    elif kind == "take_brig":
        ctx.emit(ev.ItemGained(seat=seat, item="BRIG", source=cmd["from"], reason="incorrect call (R58, R105)"))
        settle(ctx, correct=False)
    elif kind == "take_sanction":
        act = s.act
        assert act is not None
        target = act.todo[0]
        ctx.emit(
            ev.SanctionPlaced(seat=target["seat"], action=target["action"], source=cmd["from"], reason=f"{act.action} (R105)")
        )
    elif kind == "undo":
        undo = s.undo
        assert undo is not None
        if cmd["answer"] == "waive":
            ctx.emit(ev.UndoWaived(seat=seat, window=undo.window))
        else:
            answers = {**undo.answers, str(seat): {"answer": "call", "means": None}}
            ctx.emit(
                ev.UndoClaimed(seat=seat, window=undo.window, undone_from=undo.snapshot.seq + 1, undone_to=s.seq, answers=answers)
            )
    elif kind == "choose_leader":
        choose_leader(ctx, seat, cmd)
    elif kind == "effect_choice":
        choose_effect(ctx, seat, cmd["choice"])
    elif kind == "effect_order":
        choose_effect(ctx, seat, cmd["first"])
    elif kind == "artificer_gift":
        artificer_give(ctx, seat, cmd["item"], cmd["to"])
    elif kind == "use_item":
        use_item(ctx, seat, cmd["item"])
    elif kind == "draw_reaction":
        draw_react(ctx, seat, cmd["answer"], cmd.get("item"))
    elif kind == "spoils":
        settle_spoils(ctx, cmd["answer"])
    elif kind == "treaty_gift":
        change_soldiers(ctx, seat, -cmd["amount"], "TREATY gift (R107)", loss=False)
        change_soldiers(ctx, cmd["to"], cmd["amount"], "TREATY gift (R107)")
    else:  # pragma: no cover
        raise AssertionError(kind)


def _card(s: GameState, seat: int, card_id: str) -> Any:
    card = s.players[seat].card(card_id)
    assert card is not None, "options only name the seat's own cards"
    return card


def _check_due(deadline: float | None, now: float | None, no_deadline: str, what: str) -> None:
    """A1: the service may end a wait only at or after its recorded deadline."""
    if deadline is None:
        raise IllegalCommand(no_deadline, rule="A1")
    if now is None or now < deadline:
        raise IllegalCommand(f"{what} at {deadline}, not before", rule="A1")


def _close_window(state: GameState, cmd: dict[str, Any], now: float | None) -> list[Event]:
    """The service closes a window whose deadline has passed (RULINGS: when it closes; A1)."""
    w = state.window
    if w is None or w.id != cmd["window"]:
        raise IllegalCommand(f"window {cmd['window']} is not open", rule="A1")
    _check_due(
        w.deadline, now, "this window has no deadline: it closes when every asked player has answered", f"window {w.id} closes"
    )
    ctx = Ctx(state.clone(), now)
    close_window(ctx, "deadline")
    advance(ctx)
    return ctx.events


def _timeout(state: GameState, cmd: dict[str, Any]) -> list[Event]:
    """S3: the clock on a seat's decision ran out; the service's bot made it. The record of the timeout (and of
    the seat's abandonment), then exactly the events the bot's command causes, checked like any command."""
    seat, kind, play, at = cmd["seat"], cmd["kind"], cmd["play"], cmd["at"]
    name = state.players[seat].name
    if cmd["count"] < 1:
        raise MalformedCommand("timeout: 'count' is how many decisions in a row timed out, at least 1", rule="S3")
    if kind in WINDOW_KINDS:
        raise IllegalCommand(
            f"a '{kind}' decision is not timed out: its window or pause closes at its own deadline (close_window, close_undo)",
            rule="S3",
        )
    if at < cmd["deadline"]:
        raise IllegalCommand(f"{name}'s clock runs until {cmd['deadline']}: at {at} it has not run out", rule="S3")
    if Need(seat, kind) not in waiting(state):
        raise TooLate(f"{name} is not asked for a '{kind}' decision now: it is made already, or not theirs", rule="S3")
    if play.get("seat") != seat or play.get("type") != TYPE_OF_KIND.get(kind):
        raise IllegalCommand(f"the play must be a '{TYPE_OF_KIND.get(kind)}' command of seat {seat}", rule="S3")
    ctx = Ctx(state.clone(), at)
    played = _without_clock(play)
    ctx.emit(
        ev.DecisionTimedOut(seat=seat, kind=kind, deadline=cmd["deadline"], count=cmd["count"], played=played, audience=[seat])
    )
    if cmd["abandon"] and seat not in state.abandoned:
        ctx.emit(ev.SeatAbandoned(seat=seat, count=cmd["count"]))
    return ctx.events + decide(ctx.state, {**played, "at": at})


def who_is_awaited(state: GameState) -> list[Need]:
    return waiting(state)


def _close_undo(state: GameState, cmd: dict[str, Any], now: float | None) -> list[Event]:
    """The service ends an undo pause whose deadline has passed (RULINGS: Undo)."""
    undo = state.undo
    if undo is None or not undo.paused or undo.window != cmd["window"]:
        raise TooLate(f"no undo is pending for window {cmd['window']}", rule="R155")
    _check_due(
        undo.deadline, now, "this pause has no deadline: it ends when every eligible player has answered", "the undo pause ends"
    )
    ctx = Ctx(state.clone(), now)
    ctx.emit(ev.UndoExpired(window=undo.window, waiting=list(undo.waiting)))
    advance(ctx)
    return ctx.events
