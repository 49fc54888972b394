"""The effect vocabulary as one registry: each step name declared once, as a ``StepKind`` with all its parts
(its parameters and the check they make, what it does, its choice, its run, how a choice is applied, its
words), and the interpreter, the vocabulary's check and the plans of a declared effect all reading it."""

from __future__ import annotations

import importlib
import inspect
from typing import Any

import pytest

from aegis.domain.everaegis.classic import shipped
from aegis.domain.everaegis.effect_check import check_effect
from aegis.domain.everaegis.effect_plans import plans
from aegis.domain.everaegis.effect_steps import STEP_KINDS, StepKind, _registry, describe
from aegis.domain.everaegis.vocabulary import CONDITIONS, EffectError, effects_of
from tests.helpers import Table

# Every step name of the vocabulary, in the order a refusal lists them.
VOCABULARY = [
    "gain_soldiers",
    "lose_soldiers",
    "discard_soldiers_in_play",
    "gain_card",
    "reveal",
    "discard_unrevealed",
    "unreveal_any",
    "give_item",
    "bomb_soldier",
    "discard_item_in_play",
    "war",
    "win_if",
    "sanction",
    "stop_draw",
    "thwart_action",
    "discard_any_cards",
    "reveal_any",
    "choose",
    "discard_used",
    "sacrifice_to_leader",
]


def example(kind: StepKind) -> dict[str, Any]:
    """A step written with every parameter of ``kind``, each at a value its check admits."""
    step: dict[str, Any] = {"step": kind.name}
    for spec in kind.params:
        name, what = spec[0], spec[1]
        if what is list:
            value: Any = ["WALL", "BRIG"]
        elif what == "steps":
            value = [[{"step": "gain_soldiers", "who": "self", "amount": 1}], [{"step": "unreveal_any", "count": 1}]]
        elif what is str:
            value = "Hooded Fox"
        elif len(spec) == 2:
            value = what[-1] if name == "who" and kind.name != "war" else what[0]  # "all players": no pick
        else:
            value = spec[2]
        step[name] = value
    return step


def _effect_check(step: dict[str, Any]) -> None:
    """Check ``step`` as the vocabulary does, in an effect of a moment it may be written for."""
    if step["step"] == "win_if":
        check_effect({"when": "conquest", "steps": [step]}, leader="win")
    elif step["step"] == "stop_draw":
        check_effect({"when": "draw", "steps": [step]}, item=True)
    elif step["step"] == "thwart_action":
        check_effect({"when": "reaction", "steps": [step]}, item=True)
    else:
        check_effect({"when": "revealed", "steps": [step]}, estate_type="trigger")


def test_every_step_name_of_the_vocabulary_has_exactly_one_object():
    assert list(STEP_KINDS) == VOCABULARY
    assert all(kind.name == name and isinstance(kind, StepKind) for name, kind in STEP_KINDS.items())
    assert not set(STEP_KINDS) & set(CONDITIONS)  # a condition is read where it applies, not a step
    with pytest.raises(ValueError, match="declared twice"):
        _registry([STEP_KINDS["war"], STEP_KINDS["war"]])


def test_nothing_but_the_registry_lists_the_steps():
    """The interpreter and the plans look steps up; neither has a branch on a step's name."""
    from aegis.domain.everaegis import effect_plans, effects

    for module in (effects, effect_plans):
        source = inspect.getsource(module)
        assert [name for name in VOCABULARY if f'"{name}"' in source] == [], module.__name__


def test_the_shipped_catalog_writes_its_effects_only_with_declared_steps():
    data = shipped()
    effects = [fx for e in (*data.estates.values(), *data.items.values()) for fx in effects_of(e)]
    effects += [fx for leader in data.leaders.values() for fx in (leader.get("effects") or {}).values()]

    def names(steps: list[dict[str, Any]]) -> set[str]:
        return {s["step"] for s in steps} | {n for s in steps for o in s.get("options", []) for n in names(o)}

    used = set().union(*(names(fx["steps"]) for fx in effects if fx))
    assert used - set(CONDITIONS) <= set(STEP_KINDS)


@pytest.mark.parametrize("name", VOCABULARY)
def test_each_step_object_has_all_its_parts(name):
    kind = STEP_KINDS[name]
    assert kind.does and all(isinstance(spec, tuple) and isinstance(spec[0], str) for spec in kind.params)
    step = example(kind)
    _effect_check(step)  # its parameters pass its own check...
    with pytest.raises(EffectError, match=rf"\({name}\): unknown parameter\(s\) colour"):
        kind.check({**step, "colour": "red"}, "effect step 1")  # ...which refuses any other
    for spec in kind.params:
        with pytest.raises(EffectError, match=f"'{spec[0]}' is missing"):
            _effect_check({k: v for k, v in step.items() if k != spec[0]})
    assert isinstance(describe(step), str) and describe(step)
    if kind.read_by:  # never run as an effect: read where it applies
        importlib.import_module(kind.read_by)
        assert kind.run is None and kind.choose is None
    else:  # it goes on by itself, or waits for a choice it then applies (StepKind refuses anything less)
        assert kind.run is not None or kind.choose is not None


def _table() -> Table:
    rig = {
        "hands": {
            "0": ["Temple", {"name": "Mason", "revealed": True}],
            "1": ["Barracks", "Treasury", {"name": "Library", "revealed": True}],
            "2": ["Temple", "Mason"],
            "3": ["Barracks"],
        },
        "deck": ["Barracks", "Mason", "Library", "Temple"],
        "first_player": 0,
        "leaders": {"0": "Hooded Fox"},
        "items": {"1": ["HORN"], "3": ["BOMB"]},
        "wall": 2,
    }
    return Table(4, variants="classic", rig=rig, options={"plain_unknown": 1}, selection="freeform")


def test_a_step_kind_is_declared_whole():
    def run(ctx, p, step):
        return None

    def decision(s, p, step):
        return None

    with pytest.raises(ValueError, match="never run as an effect"):
        StepKind("x", (), "does x", run=run, read_by="aegis.domain.everaegis.wins")
    with pytest.raises(ValueError, match="goes on by itself"):
        StepKind("x", (), "does x")
    with pytest.raises(ValueError, match="decision and choose"):
        StepKind("x", (), "does x", run=run, decision=decision)


@pytest.mark.parametrize("name", [n for n in VOCABULARY if not STEP_KINDS[n].read_by])
def test_each_step_the_interpreter_runs_plays_through_to_its_end_with_every_choice(name):
    """Its decision, run and choose together: declared with every set of choices (``plans``), the effect ends."""
    t = _table()
    step = example(STEP_KINDS[name])
    found = plans(t.state, 0, "Test", [step])
    assert found and all(isinstance(label, str) for _, label in found)
    if STEP_KINDS[name].choose is not None:  # it waited for choices, and took each offered one
        assert len(found) > 1 and all(choices for choices, _ in found)
