"""The redaction mechanism: what one reader may see of one event.

A perspective is a seat number, ``SPECTATOR`` or ``OMNISCIENT``. Rulesets decide which perspective a
reader gets (for example, everyone becomes omniscient once a game is over); this module only applies
the per-event declarations ``PRIVATE`` and ``SECRET`` of the event classes.
"""

from __future__ import annotations

from typing import Any

from aegis.domain.kernel.events import event_class

SPECTATOR = "spectator"
OMNISCIENT = "omniscient"

Perspective = int | str


def may_see(perspective: Perspective, allowed: Any) -> bool:
    """True if ``perspective`` is in ``allowed`` (a list of seats, or "all")."""
    if perspective == OMNISCIENT or allowed == "all":
        return True
    if isinstance(perspective, int) and isinstance(allowed, (list, tuple)):
        return perspective in allowed
    return False


def redact_event(data: dict[str, Any], perspective: Perspective) -> dict[str, Any]:
    """A copy of the event dict with every field the reader may not know removed."""
    if perspective == OMNISCIENT:
        return dict(data)
    cls = event_class(data["type"])
    out = dict(data)
    for name in cls.SECRET:
        out.pop(name, None)
    for name, audience_field in cls.PRIVATE.items():
        if name in out and not may_see(perspective, data.get(audience_field)):
            del out[name]
    # The audience lists themselves say who knows; they are not secret.
    return out


def reader(perspective: Perspective, *, finished: bool) -> Perspective:
    """Who the reader effectively is: once a game is over everything is public (A53 ruling)."""
    return OMNISCIENT if finished else perspective
