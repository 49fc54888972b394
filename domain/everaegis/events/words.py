"""How the narrators of several concerns name a card and an action, and how a played command reads."""

from __future__ import annotations

import re
from collections.abc import Callable
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
    """The event's card as its reader may know it: "a Temple", "an Executioner", or "a card"."""
    return a_or_an(e["name"]) if e.get("name") else "a card"


def a_or_an(word: str) -> str:
    """``word`` with its indefinite article: "a Temple", "an Executioner" ("an" before a vowel sound)."""
    return f"{'an' if word[:1].lower() in 'aeiou' else 'a'} {word}"


def counted(n: int, noun: str, plural: str | None = None) -> str:
    """A count with its noun in the right number: "1 soldier", "2 soldiers", "0 cards" (never "soldier(s)")."""
    return f"{n} {noun if n == 1 else plural or noun + 's'}"


_HEDGED = re.compile(r"\b(\d+) (\w+)\(s\)")


def unhedged(text: str) -> str:
    """Words an event carries with "N thing(s)" (a recorded outcome: "1 card(s) put on the deck"), counted
    properly: the records keep their text as it was written, the reader gets "1 card"."""
    return _HEDGED.sub(lambda m: counted(int(m.group(1)), m.group(2)), text)


def capital(text: str) -> str:
    """``text`` as a sentence begins it: its first letter capital, the rest as it is ("The HAMMER", "Gain 3 soldiers")."""
    return text[:1].upper() + text[1:]


def action_name(name: str) -> str:
    return ACTION_NAMES.get(name, name.title())


EFFECT = " (card effect)"  # how the effects' events end their reason: "HAMMER (card effect)" (effect_steps)


def effect_of(reason: Any) -> str | None:
    """The effect an event's reason names ("HAMMER" for "HAMMER (card effect)"), or None when no effect did it.
    The effect may be an estate's, an item's or a leader's ability: the words say "effect", never "card"."""
    text = str(reason or "")
    return text[: -len(EFFECT)] if text.endswith(EFFECT) else None


def the_effect(source: str) -> str:
    """An effect's source as a sentence names it: "the HAMMER", "the Pyramid", "Hooded Fox's VIGILANTE"."""
    return source if "'s " in source else f"the {source}"


def reason_words(reason: Any) -> str:
    """An event's reason as a reader is told it: "the BEAR's effect" for "BEAR (card effect)" (the BEAR is an
    item, not a card), any other reason as it is."""
    source = effect_of(reason)
    return f"{the_effect(source)}'s effect" if source is not None else str(reason or "")


# ----- commands in words: what the server played for a seat whose clock ran out (DecisionKind.said) -----


def said_reveal(cmd: dict[str, Any], who: Callable[[Any], str]) -> str:
    cards = cmd.get("cards") or [cmd.get("card")]
    return f"reveal card {', '.join(str(c) for c in cards)}"


def said_discard(cmd: dict[str, Any], who: Callable[[Any], str]) -> str:
    return f"discard card {cmd.get('card')}"


def said_take(cmd: dict[str, Any], who: Callable[[Any], str]) -> str:
    return f"take {a_or_an(str(cmd.get('item')))}"


def said_answer(cmd: dict[str, Any], who: Callable[[Any], str]) -> str:
    return str(cmd.get("answer"))


def said_choice(cmd: dict[str, Any], who: Callable[[Any], str]) -> str:
    return f"choice {cmd.get('choice', cmd.get('first'))}"
