"""``decide(state, command) -> events``: one pipeline for every command.

1. check the command's envelope (``MalformedCommand``); 2. find its decision kind (``decisions``) and the
open prompt it answers, check its fields, and check that the prompt accepts it (else ``diagnose`` names the
rule and carries the open prompts); 3. carry it out on a private copy of the state, as its kind says; 4. run
the automatic flow until the game waits again. Every refusal is an exception carrying data; nothing is
half-applied.
"""

from __future__ import annotations

from typing import Any

from aegis.domain.everaegis import events as ev
from aegis.domain.everaegis.catalog import ACTIONS
from aegis.domain.everaegis.classic import ClassicCatalog
from aegis.domain.everaegis.classic import shipped as shipped_catalog
from aegis.domain.everaegis.components import choose as choose_components
from aegis.domain.everaegis.config import Config
from aegis.domain.everaegis.context import Ctx
from aegis.domain.everaegis.decisions import DECISIONS
from aegis.domain.everaegis.diagnose import diagnose
from aegis.domain.everaegis.evolve import apply, initial_state
from aegis.domain.everaegis.flow import Need, advance, awaits, waiting
from aegis.domain.everaegis.prompts import prompts
from aegis.domain.everaegis.rig import rigged_setup
from aegis.domain.everaegis.rig import validate as validate_rig
from aegis.domain.everaegis.state import GameState
from aegis.domain.kernel.decisions import MISSING, DecisionKind, Registry
from aegis.domain.kernel.errors import GameOver, IllegalCommand, MalformedCommand, TooLate
from aegis.domain.kernel.events import Event
from aegis.domain.kernel.rng import commitment_of


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
    draw, so the game is rigged. With ``rig`` (see ``rig.py``) the position is the one given and the game is marked
    rigged; the cards it does not place and later shuffles come from the seed, committed to when ``commitment`` is
    given (a rig with none publishes none). A Classic game takes its estate
    cards and leader mats from ``catalog`` (default: the shipped one), or exactly as ``components`` recorded
    them (re-running a recorded game).
    """
    if components is None and config.classic:  # a Simpleton game has no components: no catalog to read
        catalog = catalog or shipped_catalog()
        components = choose_components(config, catalog, catalog.source)
    chosen = components
    normal = validate_rig(rig, config.seats, chosen) if rig is not None else None
    ctx = Ctx(initial_state(config), now)
    if commitment is None:  # no service published one: the seed's own hash, but a rig's seed was never committed to
        commitment = "" if normal is not None else commitment_of(seed)
    # rigged: a chosen position (whose unplaced cards may still come from a committed seed), or a chosen seed
    ctx.emit(
        ev.GameStarted(
            config=config.to_dict(), commitment=commitment, seed=seed, rigged=normal is not None or not commitment
        )
    )
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
    """Check a command's envelope (a known type, a seat, a clock reading) and put unordered lists in their
    canonical order; its own fields are checked once its decision kind is known."""
    if not isinstance(command, dict):
        raise MalformedCommand("a command is a JSON object with a 'type'")
    ctype = command.get("type")
    if not isinstance(ctype, str) or not COMMANDS.answering(ctype):
        players = [t for t in COMMANDS.command_types if t not in COMMANDS.system]  # the server's own are not a client's
        raise MalformedCommand(f"unknown command type {ctype!r}; a player's commands are: {', '.join(players)}")
    if not COMMANDS.seatless(ctype):
        seat = command.get("seat")
        if isinstance(seat, bool) or not isinstance(seat, int):
            raise MalformedCommand("'seat' must be a seat number")
    at = command.get("at")
    if at is not None and (isinstance(at, bool) or not isinstance(at, (int, float))):
        raise MalformedCommand("'at' must be a time in seconds")
    out = dict(command)
    if ctype == "declare":
        if "action" not in out:
            raise MalformedCommand(
                f"declare: 'action' is required: one of {', '.join(ACTIONS)}", rule="R154", errors={"action": [MISSING]}
            )
        if not isinstance(out.get("action"), str) or out["action"] not in ACTIONS:
            raise MalformedCommand(
                f"unknown action {out.get('action')!r}; actions: {', '.join(ACTIONS)}",
                rule="R154",
                errors={"action": [f"Must be one of: {', '.join(ACTIONS)}."]},
            )
        sanctions = out.get("sanctions")
        if isinstance(sanctions, list) and all(isinstance(t, dict) for t in sanctions):
            out["sanctions"] = sorted(
                sanctions, key=lambda t: (str(t.get("seat")), ACTIONS.index(t["action"]) if t.get("action") in ACTIONS else 99)
            )
        if isinstance(out.get("discard"), list) and all(isinstance(r, str) for r in out["discard"]):
            out["discard"] = sorted(out["discard"])
    if ctype in ("war_reveal", "reveal") and isinstance(out.get("cards"), list):
        if not all(isinstance(c, str) for c in out["cards"]):
            raise MalformedCommand(f"{ctype}: 'cards' must be a list of card ids", errors={"cards": ["Not a list of card ids."]})
        out["cards"] = sorted(out["cards"])  # the loser's reveals are one act: their order means nothing (R83)
    return out


def _check_fields(kind: DecisionKind, command: dict[str, Any]) -> None:
    """The command has the shape its kind declares (``DecisionKind.shape_errors``), or it is refused as malformed,
    with what is wrong by field: before the rules look at it, so a client's mistake is never taken for an illegal
    play."""
    if kind.has_shape(command):
        return
    errors = kind.shape_errors(command)
    if errors:
        said = "; ".join(f"'{name}': {' '.join(m.lower().rstrip('.') for m in found)}" for name, found in errors.items())
        raise MalformedCommand(f"{kind.kind}: {said}", errors=errors)


def _check_fields_of_any(kinds: list[DecisionKind], command: dict[str, Any]) -> None:
    first: MalformedCommand | None = None
    for kind in kinds:
        try:
            _check_fields(kind, command)
            return
        except MalformedCommand as err:
            first = first or err
    assert first is not None
    raise first


def decide(state: GameState, command: dict[str, Any]) -> list[Event]:
    """Validate ``command`` against the rules and return the events it causes (numbered from ``state.seq + 1``);
    ``state`` is not changed (they are worked out on a copy)."""
    return _play(state, command, in_place=False)


def push(state: GameState, command: dict[str, Any]) -> list[Event]:
    """``decide`` and apply in one step: ``state`` itself moves on by the events it returns (python-chess's
    ``push``), with no copy of the state and every event applied once. A refusal is raised before anything
    changes: every check is made on the unchanged state first."""
    return _play(state, command, in_place=True)


def _play(state: GameState, command: dict[str, Any], in_place: bool) -> list[Event]:
    cmd = normalize(command)
    if state.status == "finished":
        if cmd["type"] == "timeout":
            raise GameOver("the game is over: no decision is waiting, so none can time out", rule="S3")
        raise GameOver("the game is over; nothing more can be played", rule="R9")
    kind, checked = check(state, cmd)
    # a handled command (resign, timeout, a window's end) checks its own preconditions as it runs, so it runs on a
    # copy; an answer to a prompt was checked above and may run on the state itself
    ctx = Ctx(state if in_place and kind.handle is None else state.clone(), cmd.get("at"))
    _carry_out(ctx, kind, checked)
    advance(ctx)
    if in_place and ctx.state is not state:  # a handled command ran on a copy: move the state on by its events
        for event in ctx.events:
            apply(state, event)
    return ctx.events


def check(state: GameState, cmd: dict[str, Any]) -> tuple[DecisionKind, dict[str, Any]]:
    """The decision kind a normalized command answers, and the command as its prompt accepted it (an older
    command type replaced by the kind's own); raises the refusal otherwise. Reads the state, changes nothing."""
    kinds = COMMANDS.answering(cmd["type"])
    if len(kinds) == 1 and kinds[0].kind == cmd["type"]:  # the command's own kind (the common case)
        kind = kinds[0]
        if not kind.seatless and not 0 <= cmd["seat"] < state.seats:
            raise MalformedCommand(f"there is no seat {cmd['seat']} in this game")
        _check_fields(kind, cmd)
        if kind.handle is not None:  # a command that answers no prompt (resign, timeout, the closing of a window)
            return kind, cmd
        accepts = kind.accepts
        if accepts is not None and (kind.free or awaits(state, cmd["seat"], kind.kind)) and accepts(state, cmd["seat"], cmd):
            return kind, cmd  # what its prompt would accept, without building the prompt; a refusal is the prompts'
        only = cmd["action"] if kind.kind == "declare" else None
        for prompt in prompts(state, cmd["seat"], only, {kind.kind}):
            if prompt.accepts(cmd):
                return kind, cmd
        raise diagnose(state, cmd, kinds, prompts(state, cmd["seat"], only, {kind.kind}), prompts(state, cmd["seat"]))
    return _check_older(state, cmd, kinds)


def _check_older(state: GameState, cmd: dict[str, Any], kinds: list[DecisionKind]) -> tuple[DecisionKind, dict[str, Any]]:
    """An older command type, which may answer one or several kinds: the one whose open prompt accepts it."""
    seat = cmd["seat"]
    if not 0 <= seat < state.seats:
        raise MalformedCommand(f"there is no seat {seat} in this game")
    names = {k.kind for k in kinds}
    candidates = prompts(state, seat, None, names)
    if not candidates:
        _check_fields_of_any(kinds, cmd)  # malformed if it fits none of the kinds it may answer
    for prompt in candidates:
        kind = COMMANDS[prompt.kind]
        _check_fields(kind, cmd)  # the fields of the kind it turned out to answer
        answer = {**cmd, "type": prompt.kind}
        if prompt.accepts(answer):
            return kind, answer
    raise diagnose(state, cmd, [COMMANDS[k] for k in sorted(names)], candidates, prompts(state, seat))


def _carry_out(ctx: Ctx, kind: DecisionKind, cmd: dict[str, Any]) -> None:
    if kind.handle is not None:
        kind.handle(ctx, cmd)
    else:
        assert kind.apply is not None
        kind.apply(ctx, cmd)


def _without_clock(command: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in command.items() if k != "at"}


def _timeout(ctx: Ctx, cmd: dict[str, Any]) -> None:
    """S3: the clock on a seat's decision ran out; the service's bot made it. The record of the timeout (and of
    the seat's abandonment), then exactly what the bot's command causes, checked like any command."""
    state = ctx.state
    seat, kind, play, at = cmd["seat"], cmd["kind"], cmd["play"], cmd["at"]
    name = state.players[seat].name
    if cmd["count"] < 1:
        raise MalformedCommand("timeout: 'count' is how many decisions in a row timed out, at least 1", rule="S3")
    if kind in COMMANDS.windows:
        raise IllegalCommand(
            f"a '{kind}' decision is not timed out: its window or pause closes at its own deadline (close_window, close_undo)",
            rule="S3",
        )
    if at < cmd["deadline"]:
        raise IllegalCommand(f"{name}'s clock runs until {cmd['deadline']}: at {at} it has not run out", rule="S3")
    if Need(seat, kind) not in waiting(state):
        raise TooLate(f"{name} is not asked for a '{kind}' decision now: it is made already, or not theirs", rule="S3")
    answers = [k.kind for k in COMMANDS.answering(play.get("type"))] if isinstance(play.get("type"), str) else []
    if play.get("seat") != seat or kind not in answers:
        raise IllegalCommand(f"the play must be a '{kind}' command of seat {seat}", rule="S3")
    played = normalize({**play, "at": at})
    answered, checked = check(state, played)
    ctx.emit(
        ev.DecisionTimedOut(
            seat=seat, kind=kind, deadline=cmd["deadline"], count=cmd["count"], played=_without_clock(play), audience=[seat]
        )
    )
    if cmd["abandon"] and seat not in state.departures.abandoned:
        ctx.emit(ev.SeatAbandoned(seat=seat, count=cmd["count"]))
    _carry_out(ctx, answered, checked)


TIMEOUT = DecisionKind(
    "timeout",
    rule="S3",
    refusal="only the service times a decision out, once its clock has run out",
    fields={
        "seat": int,
        "kind": str,
        "deadline": (int, float),
        "count": int,
        "abandon": bool,
        "play": dict,
        "at": (int, float),
    },  # ``play``: the complete command the service's bot chose for the seat
    handle=_timeout,
    system=True,
)
COMMANDS = Registry([*DECISIONS, TIMEOUT])  # every command the pipeline takes: the game's decisions and the timeout
