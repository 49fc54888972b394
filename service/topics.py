"""The topics events are stored under. A store written before the service became the package ``aegis`` (issue 16)
holds the topics of the modules "service.aggregate" and "service.players": ``register_legacy`` makes them resolve to
today's modules, and a read of the store by topic asks for every name a class's events may carry (``stored_topics``).
"""

from __future__ import annotations

import sys
from collections.abc import Iterable

from eventsourcing.utils import get_topic, register_topic

LEGACY = {"aegis.service.aggregate": "service.aggregate", "aegis.service.players": "service.players"}  # now -> before


def register_legacy(module: str) -> None:
    """Topics of ``module`` under its former name resolve to it (call from the module itself, once defined)."""
    register_topic(LEGACY[module], sys.modules[module])


def stored_topics(classes: Iterable[type]) -> tuple[str, ...]:
    """Every topic events of these classes may be stored under: their own, and their module's former name's."""
    found: list[str] = []
    for cls in classes:
        topic = get_topic(cls)
        module, name = topic.split(":", 1)
        found.append(topic)
        if module in LEGACY:
            found.append(f"{LEGACY[module]}:{name}")
    return tuple(found)
