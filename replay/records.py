"""The record of a game, for settling disputes: verification, export and import, and audits.

- ``verify``: replay the game from its revealed seed: make the seed again from the server's secret (revealed
  now) and every contribution (the creator's seed, each seat's entropy), check the secret against the commitment
  published before the game, start it again and re-decide every recorded command (players', bots', the
  server's), then compare every event with the stored one, byte for byte. Any shuffle, draw or rule applied
  differently shows as the first differing event.
- ``export_lines``/``import_lines``: the stored events of a finished game as NDJSON, and back into
  another store (same ids, versions, topics and bodies), without secrets: every token hash (``*_hash``
  in an event's state: ``host_token_hash``, ``token_hash``) is exported as null, so an export can be
  published (a hash would let anyone test guesses offline, and it keys the seat's stream tickets).
- ``audit``: a claim at a step: what the claimant held, what each player knew, every answer with its
  time, whether an undo could have been claimed (RULINGS: Undo), and what followed.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from typing import Any
from uuid import UUID

from eventsourcing.persistence import StoredEvent

from aegis.domain.kernel.errors import DomainError
from aegis.domain.kernel.events import canonical_json, event_from_dict
from aegis.domain.kernel.redaction import Perspective
from aegis.domain.kernel.rng import commitment_of
from aegis.replay import perspective
from aegis.replay.names import names_by_seq, seat_names
from aegis.service.aggregate import Game
from aegis.service.branch_opening import opening
from aegis.service.errors import BadRequest, Conflict, NotFound, from_domain
from aegis.service.games import GameService, setup_events
from aegis.service.rulesets import ruleset_named

EXPORT_FORMAT = "aegis-game/1"
SECRET_SUFFIX = "_hash"  # fields of a stored event's state that hold a token's hash


def _stored(service: GameService, game_id: UUID) -> list[Any]:
    events = list(service.store.events.get(game_id))
    if not events:
        raise NotFound(f"no game {game_id}")
    return events


def _finished(service: GameService, game_id: UUID) -> Game:
    game = service.read(game_id, lambda g: g)
    if game.finished_seq is None:
        raise Conflict("the game is not over: its seed and every hand stay secret until it ends")
    return game


# ----- verify -----


def verify(service: GameService, game_id: UUID) -> dict[str, Any]:
    """Re-run the game from its seed and recorded commands; report the first difference, if any."""
    game = _finished(service, game_id)
    rules = ruleset_named(game.ruleset)
    stored = _stored(service, game_id)
    recorded = [e.payload for e in stored if isinstance(e, Game.Recorded)]
    started = next(e for e in stored if isinstance(e, Game.StartRequested))
    config = rules.make_config(started.config)
    problems: list[str] = []
    notes: list[str] = []  # what the check could not cover, without it being a problem of the record
    if not game.rigged and recorded[0].get("commitment") != commitment_of(game.seed):
        problems.append("the server's secret does not match the commitment published before the game")
    seed = game.shuffle_seed()  # the secret mixed with the creator's seed and every seat's entropy
    if game.branch_of is not None:  # a branch: its original's record up to the branch point, then its own opening
        produced, state = _branch_opening(service, game, recorded, started.at, notes)
    else:
        if recorded[0].get("seed") != seed:
            problems.append("the seed recorded at the start is not the one the secret and the contributions make")
        produced = [e.to_dict() for e in setup_events(rules, game, config, started.at)]
        state = rules.fold(config, [event_from_dict(e) for e in produced])
    commands = 0
    for e in stored:
        if isinstance(e, Game.CommandAccepted):
            commands += 1
            try:
                new = rules.decide(state, e.command)
            except Exception as err:  # a recorded command the rules now refuse is a finding, not a crash
                problems.append(f"command {commands} ({e.command.get('type')} by {e.by}) is refused on replay: {err}")
                break
            for event in new:
                rules.apply(state, event)
            produced.extend(x.to_dict() for x in new)
    first_difference = None
    for i, (want, got) in enumerate(zip(recorded, produced, strict=False), start=1):
        if canonical_json(want) != canonical_json(got):
            keys = sorted(k for k in set(want) | set(got) if want.get(k) != got.get(k))
            first_difference = {"seq": i, "type": want.get("type"), "fields": keys, "stored": want, "replayed": got}
            problems.append(f"event {i} ({want.get('type')}) differs in {', '.join(keys)}")
            break
    if first_difference is None and len(recorded) != len(produced):
        problems.append(f"the record has {len(recorded)} events, the replay {len(produced)}")
    played_under = [dict(v) for v in game.rules_versions]
    other_rules = [v for v in played_under if v["version"] != rules.rules_version]
    if other_rules:
        notes.append(_other_rules_note(other_rules, rules.rules_version, bool(problems)))
    return {
        "id": str(game_id),
        "ok": not problems,
        "events": len(recorded),
        "commands": commands,
        "seed": seed,
        # a branch's record opens with its original's start: that commitment and seed are the original's, not its own
        # (it has none: its view says so), so they are not reported as the branch's
        "commitment": recorded[0].get("commitment") if game.branch_of is None else None,
        "server_secret": game.seed if game.seeding == "mixed" else None,
        "creator_seed": game.creator_seed if game.seeding == "mixed" else (game.seed if game.branch_of is None else None),
        "seat_entropy": {str(s["seat"]): s["entropy"] for s in game.seats if s.get("entropy")},
        "rigged": game.rigged,
        "problems": problems,
        "notes": notes,
        "first_difference": first_difference,
        "rules": {"played_under": played_under, "server": rules.rules_version},
    }


def _other_rules_note(other: list[dict[str, Any]], server: int, differs: bool) -> str:
    """What a check under this server's rules says of a record decided (in part) under others."""
    under = ", ".join(
        f"from event {v['from_seq']} under rules version {v['version']}" if v["version"] is not None
        else f"from event {v['from_seq']} under rules from before versions were numbered"
        for v in other
    )
    said = f"the game was decided {under}; this server re-decides it under rules version {server}"
    if differs:
        return said + ": a difference can come from that change of the rules, not only from the record (docs/rulings.md)"
    return said + ", and the record replays the same"


def _branch_opening(
    service: GameService, game: Game, recorded: list[dict[str, Any]], at: float, notes: list[str]
) -> tuple[list[dict[str, Any]], Any]:
    """A branch's opening made again: the original's events up to the branch point (the original's own ``verify``
    checks those) and the branch point dealt from the branch's secret, revealed now; with the state after them. With
    no original in this store (a branch imported alone), the events up to the point are the branch's own copies,
    taken as they are (``notes`` says so: verify the original to check them)."""
    assert game.branch_of is not None
    made = game.branch_of
    original_id = UUID(made["game"])
    try:
        original, log = service.record(original_id, made["step"])
        started_config = original.started_config
    except NotFound:
        log = [dict(e) for e in recorded[: made["step"]]]
        started_config = game.started_config  # a branch keeps its original's options
        notes.append(
            f"the original game {original_id} is not in this store: its events up to step {made['step']} are this "
            "record's own copies, checked only by the original's own verify"
        )
    names = seat_names(game)
    rules = ruleset_named(game.ruleset)
    point = made["step"]
    source = (original_id, started_config)
    state, marks, _ = opening(rules, game.seed, source, log, point, made["deal"], made["knower"], None, names, at)
    return [dict(e) for e in log] + [e.to_dict() for e in marks], state


# ----- export and import -----


def export_lines(service: GameService, game_id: UUID) -> Iterator[str]:
    _finished(service, game_id)
    rows = service.store.recorder.select_events(game_id)
    yield json.dumps({"format": EXPORT_FORMAT, "game": str(game_id), "events": len(rows), "token_hashes": "removed"})
    for row in rows:
        yield json.dumps(
            {
                "originator_id": str(row.originator_id),
                "originator_version": row.originator_version,
                "topic": row.topic,
                "state": without_secrets(json.loads(row.state)),
            },
            sort_keys=True,
        )


def without_secrets(state: dict[str, Any]) -> dict[str, Any]:
    """A stored event's state with every token hash (a ``*_hash`` field) null. Nothing replayed or shown
    reads them: a finished game needs no token (``verify`` and every view work on the imported game)."""
    return {k: None if k.endswith(SECRET_SUFFIX) else v for k, v in state.items()}


def import_lines(service: GameService, lines: Iterable[str]) -> UUID:
    """Write an exported game into this store, as exported, token hashes null (an export written before they
    were removed has them removed here: a store keeps only hashes of the tokens it issued). Refuses a game
    that is already here."""
    items: list[Any] = []
    for number, line in enumerate(lines, 1):
        if line.strip():
            try:
                items.append(json.loads(line))
            except ValueError as err:
                raise BadRequest(f"line {number} is not JSON ({err}): this is not a file 'aegis export' wrote") from None
    if not items or not isinstance(items[0], dict) or items[0].get("format") != EXPORT_FORMAT:
        raise BadRequest(f"not an export of format {EXPORT_FORMAT}: its first line is not the header 'aegis export' writes")
    header, rows = items[0], items[1:]
    if len(rows) != header.get("events"):
        raise BadRequest(f"the export announces {header.get('events')} events but holds {len(rows)}")
    try:
        game_id = UUID(str(header.get("game")))
    except ValueError:
        raise BadRequest(f"the export's header names no game id ('game': {header.get('game')!r})") from None
    if service.store.recorder.select_events(game_id, limit=1):
        raise Conflict(f"game {game_id} is already in this store")
    stored = [_exported_event(number, row) for number, row in enumerate(rows, 2)]
    if any(s.originator_id != game_id for s in stored):
        raise BadRequest("an exported event belongs to another game")
    service.store.recorder.insert_events(stored)
    return game_id


def _exported_event(line: int, row: Any) -> StoredEvent:
    """An exported event (on ``line`` of the file) as the store keeps it; a malformed one is refused, naming the line."""
    if not isinstance(row, dict) or not isinstance(row.get("state"), dict):
        raise BadRequest(f"line {line}: an exported event is an object with a 'state' object")
    try:
        return StoredEvent(
            originator_id=UUID(str(row["originator_id"])),
            originator_version=int(row["originator_version"]),
            topic=str(row["topic"]),
            state=json.dumps(without_secrets(row["state"]), separators=(",", ":")).encode(),
        )
    except KeyError as err:
        raise BadRequest(f"line {line}: an exported event has no {err.args[0]!r}") from None
    except (TypeError, ValueError) as err:
        raise BadRequest(f"line {line}: an exported event is malformed ({err})") from None


# ----- audit -----


def audit(service: GameService, game_id: UUID, step: int, who: Perspective) -> dict[str, Any]:
    """What the ruleset says of ``step`` of the game's record (for Ever Aegis: the claim in play there, ``audit.py``)
    as ``who`` may see it, with the time each seat's command was accepted."""
    game, log = service.record(game_id)  # the log as it is now
    if game.config is None:
        raise NotFound("the game has not started")
    return audit_of(service, game, log, step, who)


def audit_of(service: GameService, game: Game, log: list[dict[str, Any]], step: int, who: Perspective) -> dict[str, Any]:
    """``audit`` of a started game's record already read (``GameService.record``)."""
    game_id = game.id
    if not 1 <= step <= len(log):
        raise BadRequest(f"step {step} is outside 1..{len(log)}")
    rules = ruleset_named(game.ruleset)
    shown = perspective.now(game, who)  # whose knowledge the audit shows: once the game is over, everything
    try:
        facts = rules.audit(
            rules.make_config(game.started_config),
            log,
            step,
            shown,
            names_by_seq(service, game)(step),  # a branch's copied part: its original's players made those claims
            _accepted(service, game_id),
        )
    except DomainError as err:
        raise from_domain(err) from None
    return {"id": str(game_id), "step": step, "as": shown, "finished": game.finished_seq is not None, **facts}


def _accepted(service: GameService, game_id: UUID) -> dict[int, dict[str, Any]]:
    """seq of each ruleset event -> the seat's command that caused it, as accepted: its type and server time
    (events the game made by itself after a command belong to that command)."""
    out: dict[int, dict[str, Any]] = {}
    command: dict[str, Any] | None = None
    for e in service.store.events.get(game_id):
        if isinstance(e, Game.CommandAccepted):
            command = {"type": e.command.get("type"), "at": e.at}
        elif isinstance(e, Game.Recorded) and command is not None:
            out[e.payload["seq"]] = command
    return out
