"""docs/rulings.md is the player's answer to "why did the service decide that?": it must cover every
rule id an error can name and every game option."""

from __future__ import annotations

import re
from pathlib import Path

from aegis.domain.everaegis.config import OPTIONS
from aegis.domain.everaegis.decide import COMMANDS

ROOT = Path(__file__).resolve().parents[2]
DOC = (ROOT / "docs" / "rulings.md").read_text()


def _cited(rule: str) -> bool:
    """A rule id is cited when it appears alone or inside a cited range such as R161-R172."""
    if re.search(rf"\b{re.escape(rule)}\b", DOC):
        return True
    m = re.fullmatch(r"([RA])(\d+)", rule)
    if not m:
        return False
    ranges = re.findall(rf"\b{m.group(1)}(\d+)-{m.group(1)}?(\d+)\b", DOC)
    return any(int(lo) <= int(m.group(2)) <= int(hi) for lo, hi in ranges)


def _rules_named_by_errors() -> set[str]:
    found: set[str] = set()
    for path in (ROOT / "domain").rglob("*.py"):
        text = path.read_text()
        found.update(re.findall(r'rule="([^"]+)"', text))
        found.update(re.findall(r'return "([RAS]\d+)", "', text))
    found.update(kind.rule for kind in COMMANDS)  # the rule each decision kind's refusal names
    return found


def test_every_rule_an_error_can_name_is_explained():
    rules = _rules_named_by_errors()
    assert len(rules) > 20
    missing = sorted(r for r in rules for part in r.split("-") if not _cited(part))
    assert not missing, f"docs/rulings.md does not cite {missing}"


def test_every_game_option_is_documented_with_its_ruling_and_default():
    for name, spec in OPTIONS.items():
        row = next((line for line in DOC.splitlines() if line.startswith(f"| `{name}`")), None)
        assert row is not None, name
        assert f"| {spec.ruling} |" in row and f"| {spec.default} |" in row
