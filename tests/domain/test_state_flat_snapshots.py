"""Snapshots stored before ``GameState`` was split into records per concern (issue 16) hold its fields flat, and the
stores keep them: they must still read as the state they were taken of. The records are stored inline
(``domain/kernel/codec.py``), so the stored form has not changed at all: a state is still written flat, and a flat
snapshot reads back into the records.

``flat_snapshots.json`` was written by ``encode_state`` at commit 63d9d51, before the split: for a Simpleton game, a
Classic game (Artificers, Dictator), a timed game with Undo (an open window's snapshot, then an undo point: a state
inside the state), a game that ended after a seat was given to a bot and two resigned, and a Vengeance game with a
silenced caller, the game's configuration, its log up to a moment and the snapshot of the state that log folds to."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from aegis.domain.everaegis.config import Config
from aegis.domain.everaegis.ruleset import RULESET
from aegis.domain.everaegis.state import GameState
from aegis.domain.kernel.events import event_from_dict

FIXTURE = Path(__file__).with_name("flat_snapshots.json")
CASES: dict[str, dict[str, Any]] = {k: v for k, v in json.loads(FIXTURE.read_text()).items() if not k.startswith("_")}


def _folded(case: dict[str, Any]) -> tuple[Config, GameState]:
    config = Config.from_dict(case["config"])
    return config, RULESET.fold(config, [event_from_dict(e) for e in case["events"]])


@pytest.mark.parametrize("name", sorted(CASES))
def test_a_flat_snapshot_reads_as_the_state_its_log_folds_to(name):
    config, folded = _folded(CASES[name])
    stored = CASES[name]["state"]
    assert RULESET.decode_state(config, stored) == folded
    assert json.loads(json.dumps(RULESET.encode_state(folded))) == stored, "a state is written as it was before the split"


@pytest.mark.parametrize("name", sorted(CASES))
def test_a_state_read_from_a_flat_snapshot_is_asked_and_seen_as_its_fold(name):
    config, folded = _folded(CASES[name])
    back = RULESET.decode_state(config, CASES[name]["state"])
    assert back.clone() == folded.clone()
    assert RULESET.awaited(back) == RULESET.awaited(folded)
    for seat in range(config.seats):
        assert RULESET.view(back, seat) == RULESET.view(folded, seat)
        assert [p.to_dict() for p in RULESET.prompts(back, seat)] == [p.to_dict() for p in RULESET.prompts(folded, seat)]


def test_the_flat_snapshots_hold_a_field_of_every_record_and_states_inside_states():
    keys: set[str] = set()
    nested: set[str] = set()

    def walk(data: Any, path: str) -> None:
        if isinstance(data, dict):
            if data.get("$") == "GameState":
                keys.update(data)
                if path:
                    nested.add(path)
            for k, v in data.items():
                walk(v, f"{path}.{k}")
        elif isinstance(data, list):
            for v in data:
                walk(v, f"{path}[]")

    for case in CASES.values():
        walk(case["state"], "")
    records = [f.name for f in GameState.__dataclass_fields__.values() if f.metadata.get("codec") == "inline"]
    for record in records:
        fields = set(GameState.__dataclass_fields__[record].default_factory().__dataclass_fields__)  # type: ignore[misc]
        assert keys & fields, f"no snapshot holds a field of state.{record}"
    assert not keys & set(records), "a record's own name is never stored"
    assert nested == {".window_snapshot", ".undo.snapshot"}
