"""The rulesets the service can host, by name (a ruleset is a plug-in: see ``domain.kernel.ruleset``)."""

from __future__ import annotations

from aegis.domain.everaegis import events as everaegis_events
from aegis.domain.everaegis.decide import COMMANDS as EVER_AEGIS_COMMANDS
from aegis.domain.everaegis.ruleset import RULESET as EVER_AEGIS
from aegis.domain.kernel.decisions import Registry
from aegis.domain.kernel.errors import MalformedCommand
from aegis.domain.kernel.events import Event
from aegis.domain.kernel.ruleset import Ruleset

RULESETS: dict[str, Ruleset] = {EVER_AEGIS.name: EVER_AEGIS}
DEFAULT = EVER_AEGIS.name  # the ruleset of a game created without one
EVENT_TYPES: dict[str, list[type[Event]]] = {
    EVER_AEGIS.name: [
        cls for cls in vars(everaegis_events).values() if isinstance(cls, type) and issubclass(cls, Event) and cls is not Event
    ]
}
COMMANDS: dict[str, Registry] = {EVER_AEGIS.name: EVER_AEGIS_COMMANDS}  # every command type, from the decision kinds


def ruleset_named(name: str) -> Ruleset:
    try:
        return RULESETS[name]
    except KeyError:
        raise MalformedCommand(f"unknown ruleset {name!r}; this service hosts: {', '.join(RULESETS)}") from None
