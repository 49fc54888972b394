"""The Simpleton components, loaded from ``data/simpleton.json`` and checked once at import.

Reading a packaged data file is not game I/O: it is the ruleset's own constant data.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cached_property
from importlib import resources
from typing import Any


@dataclass(frozen=True)
class ActionSpec:
    name: str
    key: str  # lower-case command name, e.g. "laboratory"
    kind: str  # non-bluff, bluff, unique-bluff
    claim: str | None  # the building a use of this action claims to hold
    pierce: bool
    text: str
    text_known: str


@dataclass(frozen=True)
class Catalog:
    buildings: tuple[str, ...]
    building_count: dict[str, int]
    actions: tuple[ActionSpec, ...]
    item_count: dict[str, int]
    raw: dict[str, Any]

    def action(self, key: str) -> ActionSpec:
        return self._actions_by_key[key]  # KeyError for an unknown action

    @cached_property
    def _actions_by_key(self) -> dict[str, ActionSpec]:
        """``actions`` by key: looked up on every declaration, window and execution (made once, never changed)."""
        return {spec.key: spec for spec in self.actions}

    @property
    def action_keys(self) -> tuple[str, ...]:
        return tuple(a.key for a in self.actions)


def _load() -> Catalog:
    raw = json.loads(resources.files("aegis.domain.everaegis").joinpath("data/simpleton.json").read_text("utf-8"))
    buildings = tuple(b["name"] for b in raw["buildings"])
    counts = {b["name"]: int(b["count"]) for b in raw["buildings"]}
    actions = tuple(
        ActionSpec(
            name=a["name"],
            key=a["name"].lower(),
            kind=a["kind"],
            claim=a["claim"],
            pierce=bool(a["pierce"]),
            text=a["text"],
            text_known=a["text_known"],
        )
        for a in raw["simpleton_mat"]["actions"]
    )
    items = {i["name"]: int(i["count"]) for i in raw["items"]}
    if len(actions) != 8:
        raise ValueError("a leader mat has 8 actions (R154)")
    for a in actions:
        if a.claim is not None and a.claim not in counts:
            raise ValueError(f"action {a.name} claims an unknown building {a.claim}")
        if a.text_known not in ("full", "partial", "none"):
            raise ValueError(f"action {a.name}: text_known must be full, partial or none")
    for needed in ("WALL", "SANCTION", "TREATY", "BRIG"):
        if needed not in items:
            raise ValueError(f"the item {needed} is missing from the catalog")
    return Catalog(buildings=buildings, building_count=counts, actions=actions, item_count=items, raw=raw)


CATALOG = _load()
BUILDINGS = CATALOG.buildings
ACTIONS = CATALOG.action_keys
BLUFF_ACTIONS = tuple(a.key for a in CATALOG.actions if a.claim is not None)
