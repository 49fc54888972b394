"""``aegis check-catalog FILE``: check a catalog file of the hosted ruleset's component texts (your physical game's)."""

from __future__ import annotations

import argparse
import sys
from typing import Any


def check(args: argparse.Namespace) -> int:
    from aegis.domain.kernel.errors import MalformedCommand
    from aegis.service.rulesets import DEFAULT, ruleset_named
    from aegis.service.settings import read_catalog

    try:
        catalog = read_catalog(args.file)
    except MalformedCommand as err:
        print(f"aegis check-catalog: {err.message}", file=sys.stderr)
        return 1
    print(f"ok: {ruleset_named(DEFAULT or '').catalog_summary(catalog)}")
    return 0


def add_parser(sub: Any) -> None:
    p = sub.add_parser(
        "check-catalog",
        help="check a catalog file of component texts (Ever Aegis: the Classic estate, leader and item texts)",
        description="Check a catalog file in the format of domain/everaegis/data/classic.json: every entry names a "
        "component of the box, counts match, every text marked full or partial is there, and every estate card or "
        "leader marked full is written as effects, as a game needs to play it.",
    )
    p.add_argument("file", help="the JSON file")
    p.set_defaults(run=check)
