"""A clone of a game state shares no mutable object with its original (issue 16): ``decide`` works a command out
on a clone, the replay engine keeps clones as checkpoints and Undo keeps one as its snapshot, so a list or dict
held by both would let a change to one show in the other. Only what never changes once recorded is shared, on
purpose: the game's components (the catalog's texts, which effects' steps are), the configuration, the allies of
Alliances and the states Undo keeps (the one taken when an action window opened, and an undo point's); other tests
check that these are indeed never changed along whole games.

``GameState`` is a few fields of its own and a record per concern (``state.classic``, ``state.items``, ``state.play``,
...), each with its own ``clone``: the walk goes into every record, as into every other dataclass a state holds."""

from __future__ import annotations

import dataclasses
import json
import random
from typing import Any

import pytest

from aegis.domain.everaegis.config import make_config
from aegis.domain.everaegis.ruleset import RULESET
from aegis.domain.everaegis.simulation import play_game
from aegis.domain.everaegis.state import GameState
from tests.helpers import Table

SHARED_ON_PURPOSE = (
    "state.classic.components",
    "state.config",
    "state.pending.effects[].steps",
    "state.variant.allies",
    "state.calls.window_snapshot",  # Undo (R155): the state when the open action window opened, never changed
    "state.undo.snapshot",  # and the undo point's, the same state once the window closed
)
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


RECORDS = [f.name for f in dataclasses.fields(GameState) if dataclasses.is_dataclass(f.default_factory)]


def test_the_walk_goes_into_every_field_of_every_record():
    """A list put in the same field of a record of a state and of its clone is found there, for every field of every
    record: the walk misses none of them (nor a record added later)."""
    assert {"classic", "items", "play", "pending", "calls", "outcome", "departures", "variant"} <= set(RECORDS)
    config, events = _game("classic+artificers", {"plain_unknown": 1}, 4, "clone-4")
    state = RULESET.fold(config, events[:100])
    for record in RECORDS:
        for f in dataclasses.fields(getattr(state, record)):
            clone = state.clone()
            assert getattr(clone, record) is not getattr(state, record), f"state.{record} is shared"
            planted: list[Any] = []
            original = getattr(getattr(state, record), f.name)
            setattr(getattr(state, record), f.name, planted)
            setattr(getattr(clone, record), f.name, planted)
            try:
                assert f"state.{record}.{f.name}" in shared(state, clone)
            finally:
                setattr(getattr(state, record), f.name, original)


T0 = 1000.0


def _undo_game() -> Table:
    """RULINGS "Undo" (R155, R156): a timed window closes before seat 2 answers; seat 2 claims the undo and calls."""
    t = Table(3, rig={"deck": ["Mason"], "hands": {"0": ["Laboratory"]}}, reaction_seconds=10, now=T0)
    t.play({"type": "declare", "seat": 0, "action": "treasury", "at": T0})
    window = t.state.calls.window
    assert window is not None
    t.play({"type": "react", "seat": 1, "window": window.id, "answer": "pass", "at": T0 + 1})
    t.play({"type": "close_window", "window": window.id, "at": T0 + 10})
    t.play({"type": "undo", "seat": 2, "window": window.id, "answer": "claim", "at": T0 + 12})
    t.play({"type": "reveal", "seat": 0, "card": t.card(0, "Laboratory"), "at": T0 + 13})
    return t


def test_a_clone_shares_only_the_snapshots_undo_keeps():
    t = _undo_game()
    kept = set()
    for k in range(1, len(t.events) + 1):
        state = RULESET.fold(t.config, t.events[:k])
        clone = state.clone()
        assert clone == state
        found = shared(state, clone)
        assert {p for p in found if not p.startswith(SHARED_ON_PURPOSE)} == set(), f"after {k} events"
        kept |= found & {"state.calls.window_snapshot", "state.undo.snapshot"}
    assert kept == {"state.calls.window_snapshot", "state.undo.snapshot"}, "the game kept both snapshots at some point"


def test_the_snapshots_undo_keeps_never_change_in_a_game():
    t = _undo_game()
    state = RULESET.fold(t.config, [])
    first_seen: dict[int, tuple[GameState, Any]] = {}  # id -> (the snapshot, kept alive; its data when first seen)
    for event in t.events:
        RULESET.apply(state, event)
        for snapshot in (state.calls.window_snapshot, state.undo.snapshot if state.undo else None):
            if snapshot is not None and id(snapshot) not in first_seen:
                first_seen[id(snapshot)] = (snapshot, RULESET.encode_state(snapshot))
    assert first_seen, "the game kept a snapshot"  # the window's, then the same one as the undo point's
    assert [was for snapshot, was in first_seen.values() if RULESET.encode_state(snapshot) != was] == []
