"""Golden ``aegis simulate`` digests: the same arguments must keep giving the same event logs, byte for byte.

A refactor keeps every digest. A change of the rules changes some: re-pin them (``tests/golden_digests.json``)
in a commit that says why. Each case is six games of one combination: Simpleton at 3/5/8 seats, Classic in each
selection mode, each variant, mobs and the optional rules.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from domain.simulation import simulate

GOLDEN = json.loads((Path(__file__).with_name("golden_digests.json")).read_text())


@pytest.mark.parametrize("name", sorted(GOLDEN))
def test_simulate_digest_is_pinned(name):
    case = GOLDEN[name]
    assert simulate(games=6, seed="golden", **case["args"]).line() == case["line"]
