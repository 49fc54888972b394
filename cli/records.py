"""``aegis verify``, ``aegis export``, ``aegis import`` and ``aegis audit``: the record of a game, read
straight from the event store the environment names (see the README)."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from typing import Any
from uuid import UUID


def _service() -> Any:
    from aegis.service.games import GameService

    return GameService()


def _game(raw: str) -> UUID | None:
    try:
        return UUID(raw)
    except ValueError:
        print(f"aegis: {raw!r} is not a game id", file=sys.stderr)
        return None


def _fail(err: Exception) -> int:
    print(f"aegis: {getattr(err, 'detail', err)}", file=sys.stderr)
    return 1


class Refused(Exception):
    """A refusal already reported to the user, with the exit code to return."""

    def __init__(self, code: int):
        self.code = code


def _on_game(raw: str, read: Callable[[Any, UUID], Any]) -> Any:
    """Run ``read(service, game id)`` on the store the environment names; refusals become ``Refused``."""
    from aegis.service.errors import ServiceError

    gid = _game(raw)
    if gid is None:
        raise Refused(2)
    svc = _service()
    try:
        return read(svc, gid)
    except ServiceError as err:
        raise Refused(_fail(err)) from None
    finally:
        svc.close()


def verify(args: argparse.Namespace) -> int:
    """Replay a finished game from its revealed seed: start it again, re-decide every recorded command and
    compare every event with the stored one, and the seed with the commitment published at the start."""
    from aegis.replay.records import verify as run

    try:
        result = _on_game(args.game, run)
    except Refused as refused:
        return refused.code
    if result["ok"]:
        print(f"verified: {result['events']} events and {result['commands']} commands replayed from seed {result['seed']!r}")
        if not result["rigged"]:
            print(
                f"commitment {result['commitment']} is the SHA-256 of the server's secret {result['server_secret']!r}, "
                "and the seed is that secret mixed with the contributions"
            )
        return 0
    print("NOT verified:")
    for problem in result["problems"]:
        print(f"  - {problem}")
    if result["first_difference"]:
        print(json.dumps(result["first_difference"], indent=2, sort_keys=True))
    return 1


def export(args: argparse.Namespace) -> int:
    from aegis.replay.records import export_lines

    try:
        lines = _on_game(args.game, lambda svc, gid: list(export_lines(svc, gid)))
    except Refused as refused:
        return refused.code
    out = open(args.out, "w") if args.out else sys.stdout  # noqa: SIM115 - stdout is not ours to close
    try:
        for line in lines:
            out.write(line + "\n")
    finally:
        if args.out:
            out.close()
    if args.out:
        print(f"exported {len(lines) - 1} events to {args.out}", file=sys.stderr)
    return 0


def import_(args: argparse.Namespace) -> int:
    from aegis.replay.records import import_lines
    from aegis.service.errors import ServiceError

    try:
        with open(args.file) as f:
            lines = f.readlines()
    except OSError as err:
        return _fail(err)
    svc = _service()
    try:
        gid = import_lines(svc, lines)
    except ServiceError as err:
        print(f"aegis: cannot import {args.file}: {err.detail}", file=sys.stderr)
        return 1
    finally:
        svc.close()
    print(f"imported game {gid} ({len(lines) - 1} events)")
    return 0


def audit(args: argparse.Namespace) -> int:
    from aegis.domain.kernel.redaction import OMNISCIENT, SPECTATOR
    from aegis.replay.records import audit as run

    def read(svc: Any, gid: UUID) -> Any:
        finished = svc.finished_at(gid) is not None
        return run(svc, gid, args.step, OMNISCIENT if finished else SPECTATOR)

    try:
        result = _on_game(args.game, read)
    except Refused as refused:
        return refused.code
    print(json.dumps(result, indent=2, sort_keys=True, default=str))
    return 0


def add_parsers(sub: Any) -> None:
    v = sub.add_parser("verify", help="replay a finished game from its seed and check every event", description=verify.__doc__)
    v.add_argument("game", help="the game id")
    v.set_defaults(run=verify)
    e = sub.add_parser("export", help="write a finished game's stored events as NDJSON")
    e.add_argument("game", help="the game id")
    e.add_argument("-o", "--out", help="a file (default: standard output)")
    e.set_defaults(run=export)
    i = sub.add_parser("import", help="store an exported game (NDJSON) in this store, unchanged")
    i.add_argument("file", help="the NDJSON file written by 'aegis export'")
    i.set_defaults(run=import_)
    a = sub.add_parser(
        "audit",
        help="a disputed claim at a step: what was held, what was known, the answers and their times, undo",
        description="Print the audit of the claim in play at STEP (the last claim at or before it: an action "
        "declared, or a guard claimed with a card). "
        "Omniscient once the game is over, a spectator's view before.",
    )
    a.add_argument("game", help="the game id")
    a.add_argument("--step", type=int, required=True, help="a step (seq) of the claim")
    a.set_defaults(run=audit)
