"""Re-pin the golden digests and re-record the golden games after a change of the rules.

    python -m tests.pin_golden            # re-pin every case, print what changed
    python -m tests.pin_golden --check    # only say which cases no longer match (exit 1 if any)

A recorded game is kept as long as its commands replay to the same log (bots' choices may change; the rules'
outcomes may not); one that no longer does is recorded again with today's bots. A refactor must change nothing
(``--check`` prints nothing and exits 0). A change of the rules re-pins the cases it changes, in a commit that
says why; the printed list is what that commit message should account for.

A recorded game that replays differently means the rules decide differently: records of past games are then
re-decided by other rules, so the ruleset's ``rules_version`` must be raised first (``RULES_VERSION`` in
``domain/everaegis/ruleset.py``, and a line in docs/rulings.md, "Rules versions"). Without that, nothing is written
and the exit status is 2. The version the games were pinned under is kept in ``tests/golden_rules_version.json``.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from pathlib import Path
from typing import Any

from aegis.domain.everaegis.ruleset import RULESET
from aegis.domain.everaegis.simulation import play_game, simulate
from aegis.domain.kernel.errors import DomainError
from aegis.domain.simulation import game_seed, log_bytes
from tests.domain.test_golden import _replay

HERE = Path(__file__).parent
DIGESTS = HERE / "golden_digests.json"
GAMES = HERE / "golden_games.json"
PINNED_UNDER = HERE / "golden_rules_version.json"


def _digest_line(args: dict[str, Any]) -> str:
    return simulate(games=6, seed="golden", **args).line()


def _record(args: dict[str, Any], seed: str) -> dict[str, Any]:
    record = play_game(seed=seed, **{"variants": "simpleton", "bots": ["random"], **args})
    return {
        "seed": seed,
        "commands": record.commands,
        "events": len(record.events),
        "digest": hashlib.sha256(log_bytes(record.events)).hexdigest(),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--check", action="store_true", help="only report the cases that changed; write nothing")
    check = parser.parse_args(argv).check
    digests = json.loads(DIGESTS.read_text())
    games = json.loads(GAMES.read_text())
    changed: list[str] = []
    for name, case in sorted(digests.items()):
        line = _digest_line(case["args"])
        if line != case["line"]:
            changed.append(f"digest {name}: {case['line']} -> {line}")
            case["line"] = line
    for name, case in sorted(games.items()):
        for i, game in enumerate(case["games"]):
            assert game["seed"] == game_seed("golden", i), f"{name}: unexpected seed {game['seed']}"
            try:
                replayed = _replay(case["args"], game["seed"], game["commands"])
                same = hashlib.sha256(log_bytes(replayed)).hexdigest() == game["digest"]
            except DomainError as err:  # a recorded command the rules now refuse
                same, replayed = False, []
                print(f"game {name} {game['seed']}: refused now: {err}")
            if not same:  # recorded again with today's bots
                fresh = _record(case["args"], game["seed"])
                changed.append(f"game {name} {game['seed']}: {game['events']} events -> {len(replayed)} replayed, re-recorded")
                case["games"][i] = fresh
    for line in changed:
        print(line)
    if check:
        return 1 if changed else 0
    pinned = json.loads(PINNED_UNDER.read_text())["rules_version"]
    if any(line.startswith("game ") for line in changed) and RULESET.rules_version == pinned:
        print(
            f"the rules now decide recorded games differently, yet their version is still {pinned}: raise RULES_VERSION "
            "in domain/everaegis/ruleset.py and say what changed in docs/rulings.md (\"Rules versions\"); nothing written"
        )
        return 2
    if changed:
        DIGESTS.write_text(json.dumps(digests, indent=1, sort_keys=True) + "\n")
        GAMES.write_text(json.dumps(games, sort_keys=True, separators=(",", ":")))
    PINNED_UNDER.write_text(json.dumps({"rules_version": RULESET.rules_version}) + "\n")
    print(f"{len(changed)} changed; written under rules version {RULESET.rules_version}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
