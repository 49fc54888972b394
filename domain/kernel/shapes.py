"""How a ruleset's own data looks over HTTP, as JSON Schemas (OpenAPI 3.1). The API checks a game's creation against
them and documents the table and the statistics with them, so that it names no field of any ruleset itself."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, eq=False)  # one per ruleset, known by identity
class Shapes:
    creation: Mapping[str, Any]
    """The ruleset's own fields of a game's creation: ``{"properties": {...}, "required": [...]}``; each is handed
    to ``Ruleset.make_config`` (the service's own fields, such as ``seed`` or ``turn_seconds``, are not here)."""
    components: Mapping[str, Mapping[str, Any]]
    """Named schemas that ``creation`` and ``table`` refer to as ``#/components/schemas/<name>``."""
    table: str
    """The component that describes the table (``Ruleset.view``)."""
    statistics: Mapping[str, str]
    """Each statistic ``Ruleset.summarize`` counts for a seat, with what it counts."""
    examples: Mapping[str, Any]
    """Examples of the API's own schemas (``PromptOut``, ``OptionOut``, ...) from a real game of the ruleset, by name."""
