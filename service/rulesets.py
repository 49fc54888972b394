"""The rulesets the service can host, by name. A ruleset is a plug-in (``domain.kernel.ruleset.Ruleset``) that an
installed distribution declares under the entry-point group ``aegis.rulesets`` (``name = "module:OBJECT"``); this
project declares Ever Aegis in its ``pyproject.toml``. The service learns about a game only through that protocol."""

from __future__ import annotations

from importlib.metadata import entry_points

from aegis.domain.kernel.errors import MalformedCommand
from aegis.domain.kernel.ruleset import Ruleset

GROUP = "aegis.rulesets"


def protocol_members() -> list[str]:
    """Every attribute and method ``Ruleset`` declares: what a hosted ruleset must have."""
    names = set(getattr(Ruleset, "__annotations__", {}))
    names.update(name for name, value in vars(Ruleset).items() if callable(value) and not name.startswith("_"))
    return sorted(names)


def check_ruleset(rules: object, source: str) -> None:
    """Refuse, naming what is missing, a ruleset that lacks a member of the protocol: at start-up, not at the first
    request that needs it (the entry point's object is not typed, so mypy cannot check it)."""
    missing = [name for name in protocol_members() if not hasattr(rules, name)]
    if missing:
        raise RuntimeError(
            f"{source} lacks {', '.join(missing)}: a ruleset implements every member of domain/kernel/ruleset.py's Ruleset"
        )


def _installed() -> dict[str, Ruleset]:
    found: dict[str, Ruleset] = {}
    for point in sorted(entry_points(group=GROUP), key=lambda p: p.name):
        rules = point.load()
        check_ruleset(rules, f"the ruleset of entry point {GROUP}:{point.name}")
        if point.name != rules.name:
            raise RuntimeError(f"entry point {GROUP}:{point.name} loads the ruleset {rules.name!r}: the names must agree")
        found.setdefault(rules.name, rules)  # the same distribution seen twice on the path: the first wins
    if not found:
        raise RuntimeError(f"no ruleset is installed (entry-point group {GROUP}): install the project with pip first")
    return found


RULESETS: dict[str, Ruleset] = _installed()
# The ruleset of a game created without one: the one that is installed. With several, a game must name its own.
DEFAULT: str | None = next(iter(RULESETS)) if len(RULESETS) == 1 else None
BOT_NAMES = sorted({name for rules in RULESETS.values() for name in rules.bots})  # every hosted ruleset's bots


def ruleset_named(name: str) -> Ruleset:
    try:
        return RULESETS[name]
    except KeyError:
        raise MalformedCommand(f"unknown ruleset {name!r}; this service hosts: {', '.join(RULESETS)}") from None
