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

from domain.everaegis.evolve import closes_undo
from domain.kernel.events import canonical_json, event_from_dict
from domain.kernel.redaction import OMNISCIENT, Perspective, redact_event
from domain.kernel.rng import commitment_of
from replay import perspective
from replay.engine import Replay
from service.aggregate import Game
from service.errors import BadRequest, Conflict, NotFound
from service.games import GameService, setup_events
from service.rulesets import ruleset_named

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
    if not game.rigged and recorded[0].get("commitment") != commitment_of(game.seed):
        problems.append("the server's secret does not match the commitment published before the game")
    seed = game.shuffle_seed()  # the secret mixed with the creator's seed and every seat's entropy
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
    return {
        "id": str(game_id),
        "ok": not problems,
        "events": len(recorded),
        "commands": commands,
        "seed": seed,
        "commitment": recorded[0].get("commitment"),
        "server_secret": game.seed if game.seeding == "mixed" else None,
        "creator_seed": game.creator_seed if game.seeding == "mixed" else game.seed,
        "seat_entropy": {str(s["seat"]): s["entropy"] for s in game.seats if s.get("entropy")},
        "rigged": game.rigged,
        "problems": problems,
        "first_difference": first_difference,
    }


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
    items = [json.loads(line) for line in lines if line.strip()]
    if not items or items[0].get("format") != EXPORT_FORMAT:
        raise BadRequest(f"not an export of format {EXPORT_FORMAT}")
    header, rows = items[0], items[1:]
    if len(rows) != header.get("events"):
        raise BadRequest(f"the export announces {header.get('events')} events but holds {len(rows)}")
    game_id = UUID(header["game"])
    if service.store.recorder.select_events(game_id, limit=1):
        raise Conflict(f"game {game_id} is already in this store")
    if not all(isinstance(r, dict) and isinstance(r.get("state"), dict) for r in rows):
        raise BadRequest("an exported event is not an object with a state object")
    stored = [
        StoredEvent(
            originator_id=UUID(r["originator_id"]),
            originator_version=int(r["originator_version"]),
            topic=r["topic"],
            state=json.dumps(without_secrets(r["state"]), separators=(",", ":")).encode(),
        )
        for r in rows
    ]
    if any(s.originator_id != game_id for s in stored):
        raise BadRequest("an exported event belongs to another game")
    service.store.recorder.insert_events(stored)
    return game_id


# ----- audit -----


def audit(service: GameService, game_id: UUID, step: int, who: Perspective) -> dict[str, Any]:
    """The claim in play at ``step`` (the last declaration at or before it) as ``who`` may see it."""
    game, log = service.record(game_id)  # the log as it is now
    if game.config is None:
        raise NotFound("the game has not started")
    if not 1 <= step <= len(log):
        raise BadRequest(f"step {step} is outside 1..{len(log)}")
    rules = ruleset_named(game.ruleset)
    names = [s["name"] for s in game.seats]
    declared = next((e for e in reversed(log[:step]) if e["type"] == "ActionDeclared"), None)
    if declared is None:
        raise BadRequest(f"no action was declared at or before step {step}")
    start = declared["seq"]
    end = next((e["seq"] for e in log[start:] if e["type"] in ("ActionCompleted", "ActionThwarted")), len(log))
    replay = Replay(rules, rules.make_config(game.config), [event_from_dict(e) for e in log[:end]])
    before = replay.state_at(start - 1)
    finished = game.finished_seq is not None
    effective = perspective.now(game, who)
    claimant = declared["seat"]
    hand = [c for c in before.players[claimant].cards if not c.revealed]
    claim = declared.get("claim")
    held: dict[str, Any] | None = None
    if effective in (OMNISCIENT, claimant):
        held = {
            "cards": [c.name for c in hand],
            "holds_claimed_card": None if claim is None else any(c.name == claim for c in hand),
        }
    knew = {}
    for seat, name in enumerate(names):
        if seat == claimant or (effective != OMNISCIENT and effective != seat):
            continue
        known = [c.name for c in hand if c.known_to(seat, claimant)]
        knew[name] = known
    times = _answer_times(service, game_id, start, end)
    published: dict[tuple[int, int], dict[str, Any]] = {}  # (window, seat) -> the answer, public once it closed
    for e in log[start - 1 : end]:
        if e["type"] == "ReactionWindowClosed":
            for seat, given in e["answers"].items():
                published[(e["window"], int(seat))] = given
    answers = []
    for e in log[start - 1 : end]:
        if e["type"] == "ReactionGiven":
            given = published.get((e["window"], e["seat"])) or redact_event(e, effective)
            answers.append(
                {
                    "window": e["window"],
                    "seat": e["seat"],
                    "name": names[e["seat"]],
                    "answer": given.get("answer"),
                    "means": given.get("means"),
                    "at": times.get(e["seq"]),
                }
            )
    span = [redact_event(e, effective) for e in log[start - 1 : end]]
    return {
        "id": str(game_id),
        "step": step,
        "as_": who,
        "finished": finished,
        "declared": redact_event(declared, effective) | {"text": rules.narrate(redact_event(declared, effective), names)},
        "claimant": {"seat": claimant, "name": names[claimant]},
        "claim": claim,
        "claimant_held": held,
        "others_knew": knew,
        "answers": answers,
        "undo": _undo(log, start, end, names),
        "followed": [{"seq": e["seq"], "text": rules.narrate(e, names)} for e in span],
    }


def _answer_times(service: GameService, game_id: UUID, start: int, end: int) -> dict[int, float]:
    """seq of each ReactionGiven -> the server time its command was accepted."""
    out: dict[int, float] = {}
    pending: float | None = None
    seq = 0
    for e in service.store.events.get(game_id):
        if isinstance(e, Game.CommandAccepted):
            pending = e.at if e.command.get("type") == "react" else None
        elif isinstance(e, Game.Recorded):
            seq = e.payload["seq"]
            if e.payload["type"] == "ReactionGiven" and pending is not None and start <= seq <= end:
                out[seq] = pending
    return out


def _undo(log: list[dict[str, Any]], start: int, end: int, names: list[str]) -> dict[str, Any]:
    """RULINGS "Undo": possible only after a window closed by deadline, for those who had not answered,
    until a card is revealed, gained or put on the deck, or the End Phase begins."""
    closed = next((e for e in log[start - 1 : end] if e["type"] == "ReactionWindowClosed"), None)
    if closed is None:
        return {"possible": False, "why": "no reaction window opened for this action"}
    if closed["by"] != "deadline" or not closed.get("timed_out"):
        return {"possible": False, "why": "every asked player answered before the window closed"}
    stop = next((e for e in log[closed["seq"] :] if closes_undo(e)), None)  # the engine's own list
    who = [names[s] for s in closed["timed_out"]]
    until = f"until step {stop['seq']} ({stop['type']})" if stop else "until the end of the record"
    claimed = next((e for e in log[closed["seq"] :] if e["type"] == "UndoClaimed" and e["window"] == closed["window"]), None)
    out = {
        "possible": True,
        "claimants": who,
        "window_closed_at_step": closed["seq"],
        "until_step": stop["seq"] if stop else None,
        "claimed": claimed is not None,
        "why": f"the window closed by deadline without an answer from {', '.join(who)}: an undo could be claimed {until}",
    }
    if claimed is not None:
        out["claimed_by"] = names[claimed["seat"]]
        out["undone"] = [claimed["undone_from"], claimed["undone_to"]]
    return out
