"""The flags shared by the commands that create games (``--option NAME=VALUE``, ``--selection``), with the names and
choices the hosted ruleset declares for a game's creation (``Ruleset.shapes``)."""

from __future__ import annotations

import argparse
from typing import Any

from aegis.service import rulesets


def creation_field(name: str) -> dict[str, Any]:
    """The default ruleset's declared field ``name`` of a game's creation (a JSON Schema), or {} if it has none or
    several rulesets are hosted (each game is then checked against its own ruleset's)."""
    default = rulesets.DEFAULT
    if default is None:
        return {}
    found: dict[str, Any] = rulesets.RULESETS[default].shapes.creation["properties"].get(name, {})
    return found


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help=f"a game option, repeatable (known: {', '.join(creation_field('options').get('properties', {}))}; "
        "see docs/rulings.md)",
    )
    parser.add_argument(
        "--selection",
        choices=creation_field("selection").get("enum"),
        default=None,
        help=creation_field("selection").get("description"),
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
