"""Which Classic components a game may use, chosen from a catalog under the game's options (A54).

A Classic game uses every estate card (R13) and, unless it uses the Simpleton sides (R22), a pool of
leader mats to select from (R19-R21). A component whose printed text the catalog does not hold in full
can only be used as a plain component without effect, and only with the option ``plain_unknown``; the
chosen components, with their texts and how much of each is known, are recorded in the game's
``ComponentsChosen`` event, so a replay never depends on the catalog the server has today.

Pure: the caller gives the catalog (the shipped one, or the one ``AEGIS_CATALOG`` names).
"""

from __future__ import annotations

from typing import Any

from aegis.domain.everaegis.classic import ClassicCatalog, played_with_text
from aegis.domain.everaegis.config import Config
from aegis.domain.kernel.errors import MalformedCommand

# Leaders whose full text is known but whose effects this engine does not execute yet: they are kept
# out of selection rather than played as something they are not. Each entry says what is missing.
NOT_BUILT: dict[str, str] = {}


def _estate(entry: dict[str, Any], plain: bool) -> dict[str, Any]:
    return {
        "name": entry["name"],
        "type": entry.get("type"),
        "text_known": entry["text_known"],
        "text": entry.get("printed_text"),
        "effect": None if plain else entry.get("effect"),
        "plain": plain,
        **({"plays": entry["plays"]} if not plain and entry.get("plays") else {}),
    }


def _leader(entry: dict[str, Any], plain: bool) -> dict[str, Any]:
    return {
        "name": entry["name"],
        "text_known": entry["text_known"],
        "ability": entry.get("ability"),
        "actions": entry.get("actions"),
        "effects": None if plain else entry.get("effects"),
        "plain": plain,
    }


def choose(config: Config, catalog: ClassicCatalog, source: str = "shipped") -> dict[str, Any] | None:
    """The components of a Classic game (None for Simpleton), or a refusal naming what is missing."""
    if not config.classic:
        return None
    allow_plain = config.option("plain_unknown") == 1
    estates = []
    missing = []
    for entry in catalog.estates.values():
        known = played_with_text("estates", entry)
        if not known:
            missing.append(entry["name"])
        # a partial text plays as far as the book prints it (its ``effect``); the rest of the card waits (A54)
        estates.append(_estate(entry, plain=not known and not (entry["text_known"] == "partial" and entry.get("effect"))))
    if missing and not allow_plain:
        raise MalformedCommand(
            f"a Classic game uses all 23 estate cards (R13), and the catalog lacks the text of {len(missing)}: "
            f"{', '.join(missing[:5])}{', ...' if len(missing) > 5 else ''}. Set the option plain_unknown=1 to play "
            "them as plain cards without effect, or supply their texts with AEGIS_CATALOG",
            rule="A54",
        )
    leaders = []
    if config.selection != "simpleton" or "dictator" in config.variants:
        for entry in catalog.leaders.values():
            if entry["name"] in NOT_BUILT:
                continue
            # a leader's Laboratory, Library and ability are played where their texts are written as effects
            # (Hooded Fox's in the shipped data, others in an AEGIS_CATALOG); any other mat is plain (A54)
            known = played_with_text("leaders", entry)
            if known or allow_plain:
                leaders.append(_leader(entry, plain=not known))
        need = mats_needed(config)
        if len(leaders) < need:
            raise MalformedCommand(
                f"{config.selection} selection{' and Dictator' if 'dictator' in config.variants else ''} "
                f"needs {need} leader mats for {config.seats} players; "
                f"{len(leaders)} can be used (mats without their printed text need the option plain_unknown=1; "
                f"not built: {', '.join(NOT_BUILT) or 'none'}). Use selection simpleton to play the Simpleton sides",
                rule="R19-R21",
            )
    items = [
        {
            "name": e["name"],
            "count": e["count"],
            "class": e.get("class"),
            "text_known": e["text_known"],
            "effect": e.get("effect"),
        }
        for e in catalog.items.values()
        if e["name"] not in SIMPLETON_ITEMS
    ]
    return {"source": source, "estates": estates, "leaders": leaders, "items": items}


# Items the Simpleton engine models with their own rules (items.py); the others are Classic items.
SIMPLETON_ITEMS = ("WALL", "SANCTION", "TREATY", "BRIG")


def mats_needed(config: Config) -> int:
    """Limited: N mats each (R19); Drafting: players + 2 (R20, A44); Freeform: one each (R21)."""
    extra = 1 if "dictator" in config.variants else 0  # R168: one more mat goes to the reserve
    people = config.seats - len(config.mobs)  # a mob plays the Simpleton mat and selects no leader
    if config.selection == "limited":
        return people * config.option("limited_mats") + extra
    if config.selection == "drafting":
        return people + 2 + extra
    if config.selection == "simpleton":
        return extra
    return people + extra
