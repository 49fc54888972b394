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


def store_missing(command: str) -> bool:
    """A command that only reads the store: True (said in one line) when the SQLite file the environment names is
    not there, rather than creating an empty store to find nothing in it."""
    from aegis.service.settings import sqlite_file

    path = sqlite_file()
    if path is None or path.exists():
        return False
    print(
        f"aegis {command}: no store at {path.absolute()} (nothing created); set AEGIS_DATA_DIR to the folder of its "
        "aegis.sqlite, or SQLITE_DBNAME to the file",
        file=sys.stderr,
    )
    return True


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


def _on_game(command: str, raw: str, read: Callable[[Any, UUID], Any]) -> Any:
    """Run ``read(service, game id)`` on the store the environment names; refusals become ``Refused``."""
    from aegis.service.errors import ServiceError

    gid = _game(raw)
    if gid is None:
        raise Refused(2)
    if store_missing(command):
        raise Refused(1)
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
        result = _on_game("verify", args.game, run)
    except Refused as refused:
        return refused.code
    if result["ok"]:
        print(f"verified: {result['events']} events and {result['commands']} commands replayed from seed {result['seed']!r}")
        if not result["rigged"]:
            print(
                f"commitment {result['commitment']} is the SHA-256 of the server's secret {result['server_secret']!r}, "
                "and the seed is that secret mixed with the contributions"
            )
        for note in result.get("notes", []):
            print(f"note: {note}")
        return 0
    print("NOT verified:")
    for problem in result["problems"]:
        print(f"  - {problem}")
    for note in result.get("notes", []):
        print(f"note: {note}")
    if result["first_difference"]:
        print(json.dumps(result["first_difference"], indent=2, sort_keys=True))
    return 1


def export(args: argparse.Namespace) -> int:
    from aegis.replay.records import export_lines

    try:
        lines = _on_game("export", args.game, lambda svc, gid: list(export_lines(svc, gid)))
    except Refused as refused:
        return refused.code
    if not args.out:
        for line in lines:  # a reader that stops early (| head) is the command line's to hear (main.py)
            sys.stdout.write(line + "\n")
        return 0
    try:
        with open(args.out, "w") as out:
            for line in lines:
                out.write(line + "\n")
    except OSError as err:
        print(f"aegis: cannot write {args.out}: {err.strerror or err}", file=sys.stderr)
        return 1
    print(f"exported {len(lines) - 1} events to {args.out}", file=sys.stderr)
    return 0


def import_(args: argparse.Namespace) -> int:
    from aegis.replay.records import import_lines
    from aegis.service.errors import ServiceError

    try:
        with open(args.file, encoding="utf-8") as f:
            lines = f.readlines()
    except OSError as err:
        return _fail(err)
    except UnicodeDecodeError as err:  # a binary file: refused in one line as any other file that is no export
        line = err.object[: err.start].count(b"\n") + 1
        print(
            f"aegis: cannot import {args.file}: line {line} is not UTF-8 text (byte {err.object[err.start]:#04x} at "
            f"offset {err.start}): this is not a file 'aegis export' wrote",
            file=sys.stderr,
        )
        return 1
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
        result = _on_game("audit", args.game, read)
    except Refused as refused:
        return refused.code
    print(json.dumps(result, indent=2, sort_keys=True, default=str))
    return 0


def add_parsers(sub: Any) -> None:
    v = sub.add_parser("verify", help="replay a finished game from its seed and check every event", description=verify.__doc__)
    v.add_argument("game", help="the game id")
    v.set_defaults(run=verify)
    e = sub.add_parser(
        "export",
        help="write a finished game's stored events as NDJSON",
        description="Write a finished game's record, read from the store the environment names (see the README), as "
        "NDJSON: a header line, then every stored event, every token hash null. 'aegis import' stores it in another "
        "store, where 'aegis verify' replays it. The game's disputes stay with the service that held them.",
    )
    e.add_argument("game", help="the game id")
    e.add_argument("-o", "--out", help="a file (default: standard output)")
    e.set_defaults(run=export)
    i = sub.add_parser(
        "import",
        help="store an exported game (NDJSON) in this store, unchanged",
        description="Store a game written by 'aegis export' in the store the environment names (created if it is not "
        "there), unchanged: its events as they were, so that 'aegis verify' replays it here. A file that is no whole "
        "export, or a game this store already holds, is refused and nothing is written.",
    )
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
