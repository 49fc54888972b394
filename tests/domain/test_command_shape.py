"""A command's shape against its decision kind's declaration (``DecisionKind.shape_errors``, ``has_shape``): what a
client got wrong, by field, before the rules look at the command (the API answers it with a 400 naming the fields)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from aegis.domain.kernel.decisions import MISSING, UNKNOWN, DecisionKind


def _prompt(_state: object, _seat: int) -> None:
    return None


KIND = DecisionKind(
    "aim",
    rule="T1",
    refusal="aim at another seat",
    fields={"target": int, "why": str},
    optional={"weight": (int, float), "loud": bool, "cards": list},
    offer=_prompt,
    apply=lambda ctx, cmd: None,
)


def test_each_fault_is_named_by_its_field():
    good = {"type": "aim", "seat": 0, "at": 5.0, "target": 2, "why": "because"}
    assert KIND.shape_errors(good) == {} and KIND.has_shape(good)
    assert KIND.shape_errors({"type": "aim", "target": 2}) == {"why": [MISSING]}
    assert KIND.shape_errors({**good, "target": "2"}) == {"target": ["Not a valid integer."]}
    assert KIND.shape_errors({**good, "target": True}) == {"target": ["Not a valid integer."]}  # a bool is no number
    assert KIND.shape_errors({**good, "target": 2.0}) == {"target": ["Not a valid integer."]}
    assert KIND.shape_errors({**good, "loud": 1}) == {"loud": ["Not a valid boolean."]}
    assert KIND.shape_errors({**good, "weight": "heavy"}) == {"weight": ["Not a valid number."]}
    assert KIND.shape_errors({**good, "weight": 2}) == {} == KIND.shape_errors({**good, "weight": 2.5})
    assert KIND.shape_errors({**good, "cards": "c1"}) == {"cards": ["Not a valid list."]}
    assert KIND.shape_errors({**good, "colour": "red"}) == {"colour": [UNKNOWN]}


VALUES = st.one_of(
    st.none(), st.booleans(), st.integers(), st.floats(allow_nan=False), st.text(max_size=3), st.lists(st.integers(), max_size=2)
)
NAMES = st.sampled_from(["type", "seat", "at", "target", "why", "weight", "loud", "cards", "colour"])


@settings(deadline=None)  # a garbage collection of the whole suite's heap can pause one example past 200 ms
@given(st.dictionaries(NAMES, VALUES))
def test_the_quick_check_never_passes_a_command_the_full_check_faults(command):
    if KIND.has_shape(command):
        assert KIND.shape_errors(command) == {}
