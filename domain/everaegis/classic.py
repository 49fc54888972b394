"""The Classic components as data: estate cards, leaders, mobs and items, checked with precise errors.

The shipped ``data/classic.json`` holds only what the rulebook prints (``text_known`` says how much).
A player who owns the physical game may supply a file with the missing texts (``AEGIS_CATALOG``); it is
checked by ``validate`` the same way: every entry names a known component, counts match the box, and a
text marked ``full`` or ``partial`` is there. Pure: the caller reads the file.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from importlib import resources
from typing import Any

from domain.everaegis.vocabulary import LEADER_MOMENTS, EffectError, check_effect
from domain.kernel.errors import MalformedCommand

TEXT_KNOWN = ("full", "partial", "none")
ESTATE_TYPES = ("trigger", "condition", None)
ITEM_CLASSES = ("condition", "consumable", "reactive consumable", "placed on an action", None)
ESTATES = 23  # R1
LEADERS = 30  # R3
ITEM_PIECES = 83  # R5 (SANCTION = 10, A24)


@dataclass(frozen=True)
class ClassicCatalog:
    estates: dict[str, dict[str, Any]]
    leaders: dict[str, dict[str, Any]]
    mobs: dict[str, dict[str, Any]]
    items: dict[str, dict[str, Any]]
    source: str = "shipped"  # or "AEGIS_CATALOG <file> sha256:<digest>"

    def playable_without_text(self) -> list[str]:
        """Components whose text the data does not hold (they need a game option to be used as plain)."""
        out = [n for n, e in self.estates.items() if e["text_known"] != "full"]
        out += [n for n, e in self.leaders.items() if e["text_known"] != "full"]
        return out


class CatalogError(MalformedCommand):
    """A catalog file that cannot be used; the message names the entry and the field."""


def _entries(data: dict[str, Any], section: str) -> list[dict[str, Any]]:
    entries = data.get(section)
    if not isinstance(entries, list):
        raise CatalogError(f"catalog: '{section}' must be a list of entries")
    seen: set[str] = set()
    for i, e in enumerate(entries):
        where = f"{section}[{i}]"
        if not isinstance(e, dict) or not isinstance(e.get("name"), str) or not e["name"].strip():
            raise CatalogError(f"catalog: {where} needs a 'name'")
        if e["name"] in seen:
            raise CatalogError(f"catalog: {where} ({e['name']}) appears twice")
        seen.add(e["name"])
        if e.get("text_known") not in TEXT_KNOWN:
            raise CatalogError(f"catalog: {where} ({e['name']}): text_known must be one of {', '.join(TEXT_KNOWN)}")
    return entries


def _text(where: str, e: dict[str, Any], field: str) -> None:
    """full: the printed text is there; partial: some printed text or what the book tells of it; none: neither."""
    text, gives = e.get(field), e.get("book_gives")
    has_text = isinstance(text, str) and bool(text.strip())
    if e["text_known"] == "full" and not has_text:
        raise CatalogError(f"catalog: {where} ({e['name']}) is marked full but has no {field}")
    if e["text_known"] == "partial" and not (has_text or gives):
        raise CatalogError(f"catalog: {where} ({e['name']}) is marked partial but has no {field} and no book_gives")
    if e["text_known"] == "none" and has_text:
        raise CatalogError(f"catalog: {where} ({e['name']}) has a {field} but is marked none: say how much is known")


def validate(data: Any, *, against: ClassicCatalog | None = None) -> ClassicCatalog:
    """Check a catalog. With ``against`` (the shipped one), names and counts must be those of the box."""
    if not isinstance(data, dict):
        raise CatalogError("catalog: the file must hold a JSON object")
    estates = _entries(data, "estates")
    leaders = _entries(data, "leaders")
    items = _entries(data, "items")
    mobs = data.get("mobs", [])
    if mobs:
        mobs = _entries(data, "mobs")
    for i, e in enumerate(estates):
        if e.get("count", 1) != 1:
            raise CatalogError(f"catalog: estates[{i}] ({e['name']}): there is 1 copy of each estate card (R1)")
        if e.get("type") not in ESTATE_TYPES:
            raise CatalogError(f"catalog: estates[{i}] ({e['name']}): type must be trigger, condition or null")
        _text(f"estates[{i}]", e, "printed_text")
        if e.get("effect") is not None:
            if e.get("type") is None:
                raise CatalogError(f"catalog: estates[{i}] ({e['name']}): an effect needs the card's type (trigger or condition)")
            try:
                check_effect(e["effect"], estate_type=e["type"])
            except EffectError as err:
                raise CatalogError(f"catalog: estates[{i}] ({e['name']}): {err}") from None
    for i, e in enumerate(items):
        count = e.get("count")
        if isinstance(count, bool) or not isinstance(count, int) or count < 1:
            raise CatalogError(f"catalog: items[{i}] ({e['name']}): count must be a whole number of 1 or more")
        if e.get("class") not in ITEM_CLASSES:
            raise CatalogError(f"catalog: items[{i}] ({e['name']}): class must be one of {', '.join(map(str, ITEM_CLASSES))}")
        _text(f"items[{i}]", e, "printed_text")
        if e.get("effect") is not None:
            try:
                check_effect(e["effect"], item=True)
            except EffectError as err:
                raise CatalogError(f"catalog: items[{i}] ({e['name']}): {err}") from None
    for i, e in enumerate(leaders):
        if e["text_known"] == "full" and not isinstance(e.get("actions"), dict):
            raise CatalogError(f"catalog: leaders[{i}] ({e['name']}) is marked full but has no 'actions'")
        effects = e.get("effects")
        if effects is None:
            continue
        if not isinstance(effects, dict) or not set(effects) <= set(LEADER_MOMENTS):
            raise CatalogError(f"catalog: leaders[{i}] ({e['name']}): effects may only be {', '.join(LEADER_MOMENTS)}")
        for key, effect in effects.items():
            try:
                check_effect(effect, leader=key)
            except EffectError as err:
                raise CatalogError(f"catalog: leaders[{i}] ({e['name']}) {key}: {err}") from None
    names = {e["name"] for e in items}
    for section, entries in (("estates", estates), ("items", items), ("leaders", leaders)):
        for i, e in enumerate(entries):
            effects = [e.get("effect") or {}, *(e.get("effects") or {}).values()]
            for step in _all_steps([s for effect in effects for s in effect.get("steps", [])]):
                unknown = [n for n in step.get("items", []) if n not in names and n != "$discarded"]
                if unknown:
                    raise CatalogError(f"catalog: {section}[{i}] ({e['name']}): give_item names unknown item(s) {unknown}")
    if len(estates) != ESTATES:
        raise CatalogError(f"catalog: {len(estates)} estate cards; the game has {ESTATES} (R1)")
    if len(leaders) != LEADERS:
        raise CatalogError(f"catalog: {len(leaders)} leaders; the game has {LEADERS} (R3)")
    pieces = sum(e["count"] for e in items)
    if pieces != ITEM_PIECES:
        raise CatalogError(f"catalog: {pieces} item pieces; the game has {ITEM_PIECES} (R5, with 10 SANCTIONS, A24)")
    made = ClassicCatalog(
        estates={e["name"]: e for e in estates},
        leaders={e["name"]: e for e in leaders},
        mobs={e["name"]: e for e in mobs},
        items={e["name"]: e for e in items},
    )
    if against is not None:
        for section in ("estates", "leaders", "items"):
            mine, theirs = set(getattr(made, section)), set(getattr(against, section))
            if mine != theirs:
                extra, missing = sorted(mine - theirs), sorted(theirs - mine)
                raise CatalogError(f"catalog: {section} differ from the box: unknown {extra or '-'}, missing {missing or '-'}")
        for name, e in made.items.items():
            if e["count"] != against.items[name]["count"]:
                raise CatalogError(f"catalog: items: {name} count {e['count']}, the box has {against.items[name]['count']}")
    return made


def _all_steps(steps: list[Any]) -> list[dict[str, Any]]:
    """Every step, those inside a ``choose`` included."""
    out = []
    for step in steps:
        if isinstance(step, dict):
            out.append(step)
            for option in step.get("options", []) if isinstance(step.get("options"), list) else []:
                out.extend(_all_steps(option if isinstance(option, list) else []))
    return out


def shipped() -> ClassicCatalog:
    """The catalog the service ships: what the rulebook prints, nothing more."""
    raw = json.loads(resources.files("domain.everaegis").joinpath("data/classic.json").read_text("utf-8"))
    return validate(raw)
