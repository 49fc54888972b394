"""How the narrators of several concerns name a card and an action."""

from __future__ import annotations

from typing import Any

ACTION_NAMES = {
    "recruit": "Recruit",
    "war": "War",
    "temple": "Temple",
    "mason": "Mason",
    "barracks": "Barracks",
    "treasury": "Treasury",
    "laboratory": "Laboratory",
    "library": "Library",
}


def a_card(e: dict[str, Any]) -> str:
    """The event's card as its reader may know it: "a Temple", or "a card"."""
    return f"a {e['name']}" if e.get("name") else "a card"


def action_name(name: str) -> str:
    return ACTION_NAMES.get(name, name.title())
