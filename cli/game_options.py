"""The ``--option NAME=VALUE`` and ``--selection`` flags shared by the commands that create games."""

from __future__ import annotations

import argparse

from aegis.domain.everaegis.config import OPTIONS, SELECTIONS


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help=f"a game option, repeatable (known: {', '.join(OPTIONS)}; see docs/rulings.md)",
    )
    parser.add_argument(
        "--selection",
        choices=SELECTIONS,
        default=None,
        help="Classic leader selection mode (default limited; Simpleton games always use the Simpleton sides)",
    )


def parse(items: list[str]) -> dict[str, int]:
    """``["undo=0", ...]`` as a dict; ValueError naming the bad item (the rules check names and ranges)."""
    options: dict[str, int] = {}
    for item in items:
        name, sep, value = item.partition("=")
        if not sep or not value.strip().lstrip("-").isdigit():
            raise ValueError(f"--option takes name=whole-number, not {item!r}")
        options[name.strip()] = int(value)
    return options
