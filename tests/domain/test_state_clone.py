"""A clone of a game state shares no mutable object with its original (issue 16): ``decide`` works a command out
on a clone, the replay engine keeps clones as checkpoints and Undo keeps one as its snapshot, so a list or dict
held by both would let a change to one show in the other. Only what never changes once recorded is shared, on
purpose: the game's components (the catalog's texts, which effects' steps are), the configuration and the allies of
Alliances; a second test checks that these are indeed never changed along whole games."""

from __future__ import annotations

import dataclasses
import json
import random
from typing import Any

import pytest

from aegis.domain.everaegis.config import make_config
from aegis.domain.everaegis.ruleset import RULESET
from aegis.domain.simulation import play_game

SHARED_ON_PURPOSE = ("state.classic.components", "state.config", "state.pending.effects[].steps", "state.variant.allies")
GAMES = [  # (variants, options, seats)
    ("simpleton", None, 4),
    ("simpleton+quick+plague", None, 3),
    ("classic", {"plain_unknown": 1}, 4),
    ("classic+artificers", {"plain_unknown": 1}, 4),
    ("classic+alliances", {"plain_unknown": 1}, 5),
    ("classic+overlord", {"plain_unknown": 1}, 4),
    ("classic+blasphemy", {"plain_unknown": 1}, 4),
    ("classic+dictator+long", {"plain_unknown": 1}, 3),
]


def _mutable(value: Any) -> bool:
    if isinstance(value, (list, dict, set, bytearray)):
        return True
    return dataclasses.is_dataclass(value) and not isinstance(value, type) and not value.__dataclass_params__.frozen  # type: ignore[attr-defined]


def shared(original: Any, clone: Any, path: str = "state", seen: set[tuple[int, int]] | None = None) -> set[str]:
    """Where a mutable object of ``original`` is the very object at the same place in ``clone``."""
    seen = set() if seen is None else seen
    if (id(original), id(clone)) in seen:
        return set()
    seen.add((id(original), id(clone)))
    if _mutable(original) and original is clone:
        return {path}
    out: set[str] = set()
    if isinstance(original, dict):
        for key in original.keys() & clone.keys():
            out |= shared(original[key], clone[key], f"{path}[{type(key).__name__}]", seen)
    elif isinstance(original, (list, tuple)):
        for a, b in zip(original, clone, strict=False):
            out |= shared(a, b, f"{path}[]", seen)
    elif dataclasses.is_dataclass(original) and not isinstance(original, type):
        for f in dataclasses.fields(original):
            out |= shared(getattr(original, f.name), getattr(clone, f.name), f"{path}.{f.name}", seen)
    return out


def _game(variants: str, options: dict[str, int] | None, seats: int, seed: str) -> tuple[Any, list[Any]]:
    game = play_game(seats=seats, variants=variants, seed=seed, bots=["random", "cautious"], options=options)
    return make_config(seats=seats, variants=variants, reaction_seconds=0, options=options), game.events


@pytest.mark.parametrize(("variants", "options", "seats"), GAMES)
def test_a_clone_shares_nothing_that_changes(variants, options, seats):
    rng = random.Random(variants)
    for seed in ("clone-1", "clone-2"):
        config, events = _game(variants, options, seats, seed)
        for k in sorted(rng.sample(range(1, len(events) + 1), 10)):
            state = RULESET.fold(config, events[:k])
            clone = state.clone()
            assert clone == state, f"the clone lost a field after {k} events of {seed}"  # clone lists every field
            found = shared(state, clone)
            assert {p for p in found if not p.startswith(SHARED_ON_PURPOSE)} == set(), f"after {k} events of {seed}"


@pytest.mark.parametrize(("variants", "options", "seats"), GAMES)
def test_what_clones_share_never_changes_in_a_game(variants, options, seats):
    """Every object shared on purpose, as first seen along a whole game, is as it was at the end of it."""
    config, events = _game(variants, options, seats, "clone-3")
    state = RULESET.fold(config, [])
    first_seen: dict[int, tuple[Any, str]] = {}  # id -> (the object, kept alive; its JSON when first seen)
    for event in events:
        RULESET.apply(state, event)
        steps = [step for p in state.pending.effects for step in p.steps]
        for obj in (state.classic.components, state.config.options, state.variant.allies, *steps):
            if id(obj) not in first_seen:
                first_seen[id(obj)] = (obj, json.dumps(obj, sort_keys=True, default=str))
    changed = [was for obj, was in first_seen.values() if json.dumps(obj, sort_keys=True, default=str) != was]
    assert changed == [] and len(first_seen) >= 3
