"""``aegis check-catalog FILE``: check a Classic catalog file (the texts of your physical game)."""

from __future__ import annotations

import argparse
import sys
from typing import Any


def check(args: argparse.Namespace) -> int:
    from aegis.domain.kernel.errors import MalformedCommand
    from aegis.service.settings import read_catalog

    try:
        catalog = read_catalog(args.file)
    except MalformedCommand as err:
        print(f"aegis check-catalog: {err.message}", file=sys.stderr)
        return 1
    missing = catalog.playable_without_text()
    print(
        f"ok: {len(catalog.estates)} estate cards, {len(catalog.leaders)} leaders, {len(catalog.items)} kinds of items; "
        f"{len(missing)} estate cards and leaders still lack their full text"
    )
    return 0


def add_parser(sub: Any) -> None:
    p = sub.add_parser(
        "check-catalog",
        help="check a Classic catalog file (estate, leader and item texts)",
        description="Check a catalog file in the format of domain/everaegis/data/classic.json: every entry names a "
        "component of the box, counts match, every text marked full or partial is there, and every estate card or "
        "leader marked full is written as effects, as a game needs to play it.",
    )
    p.add_argument("file", help="the JSON file")
    p.set_defaults(run=check)
