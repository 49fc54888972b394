"""The Classic components as data: estate cards, leaders, mobs and items, checked with precise errors.

The shipped ``data/classic.json`` holds only what the rulebook prints (``text_known`` says how much).
A player who owns the physical game may supply a file with the missing texts (``AEGIS_CATALOG``); it is
checked by ``validate`` the same way: every entry names a known component, counts match the box, a text marked
``full`` or ``partial`` is there, and an estate card or leader marked ``full`` is written as effects, which is
what a game needs to play it (``played_with_text``). Pure: the caller reads the file.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from importlib import resources
from typing import Any

from aegis.domain.everaegis.effect_check import check_effect
from aegis.domain.everaegis.vocabulary import LEADER_MOMENTS, EffectError, effects_of
from aegis.domain.kernel.errors import MalformedCommand

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
        """Components a game cannot play with their own text (they need a game option to be used as plain)."""
        out = [n for n, e in self.estates.items() if not played_with_text("estates", e)]
        out += [n for n, e in self.leaders.items() if not played_with_text("leaders", e)]
        return out


def unwritten(section: str, entry: dict[str, Any]) -> str | None:
    """What an estate card or a leader lacks for a game to play its own text, which it plays only as effects in
    the vocabulary: an estate its ``effect``; a leader the ``effects`` of its Laboratory, Library and ability (if
    it has one). None: nothing (A54)."""
    if section == "estates":
        return None if entry.get("effect") is not None else "no effect"
    effects = entry.get("effects") or {}
    needed = ["laboratory", "library"] + (["ability"] if entry.get("ability") else [])
    missing = [key for key in needed if key not in effects]
    return f"no effect for its {', '.join(missing)}" if missing else None


def played_with_text(section: str, entry: dict[str, Any]) -> bool:
    """The one rule for an estate card or a leader: a game plays it with its own text when the entry is marked
    ``full`` and written as effects (``unwritten``); otherwise only as a plain component (A54). ``validate``
    refuses an entry marked full that a game could not play, so the checker and a game never disagree."""
    return entry["text_known"] == "full" and unwritten(section, entry) is None


def _refuse_unwritten(section: str, i: int, e: dict[str, Any]) -> None:
    missing = unwritten(section, e) if e["text_known"] == "full" else None
    if missing:
        raise CatalogError(
            f"catalog: {section}[{i}] ({e['name']}) is marked full but has {missing}: a game plays a text only as an "
            "effect in the vocabulary (domain/everaegis/vocabulary.py), so write it as one, or mark the entry partial "
            "to play it as a plain component (A54)"
        )


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
        _refuse_unwritten("estates", i, e)
    for i, e in enumerate(items):
        count = e.get("count")
        if isinstance(count, bool) or not isinstance(count, int) or count < 1:
            raise CatalogError(f"catalog: items[{i}] ({e['name']}): count must be a whole number of 1 or more")
        if e.get("class") not in ITEM_CLASSES:
            raise CatalogError(f"catalog: items[{i}] ({e['name']}): class must be one of {', '.join(map(str, ITEM_CLASSES))}")
        _text(f"items[{i}]", e, "printed_text")
        effects = e.get("effect")
        if isinstance(effects, list) and not effects:
            raise CatalogError(f"catalog: items[{i}] ({e['name']}): a list of effects holds at least one")
        for effect in effects_of(e):
            try:
                check_effect(effect, item=True)
            except EffectError as err:
                raise CatalogError(f"catalog: items[{i}] ({e['name']}): {err}") from None
    for i, e in enumerate(leaders):
        if e["text_known"] == "full" and not isinstance(e.get("actions"), dict):
            raise CatalogError(f"catalog: leaders[{i}] ({e['name']}) is marked full but has no 'actions'")
        effects = e.get("effects")
        if effects is not None:
            if not isinstance(effects, dict) or not set(effects) <= set(LEADER_MOMENTS):
                raise CatalogError(f"catalog: leaders[{i}] ({e['name']}): effects may only be {', '.join(LEADER_MOMENTS)}")
            for key, effect in effects.items():
                try:
                    check_effect(effect, leader=key)
                except EffectError as err:
                    raise CatalogError(f"catalog: leaders[{i}] ({e['name']}) {key}: {err}") from None
        _refuse_unwritten("leaders", i, e)
    names = {e["name"] for e in items}
    for section, entries in (("estates", estates), ("items", items), ("leaders", leaders)):
        for i, e in enumerate(entries):
            effects = [*effects_of(e), *(e.get("effects") or {}).values()]
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
    raw = json.loads(resources.files("aegis.domain.everaegis").joinpath("data/classic.json").read_text("utf-8"))
    return validate(raw)
