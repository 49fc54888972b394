"""The vocabulary that card effects are written in, and the check of a step's parameters.

An effect is data: ``{"when": <moment>, "steps": [<step>, ...]}``. Each step is ``{"step": <name>, ...}``
with its parameters. The steps are declared in ``effect_steps.py``, each once with everything about it: its
parameters (written with the words below: ``WHO``, ``COUNT``, ``AMOUNT``...), what it does, and how the
interpreter (``effects.py``) runs it; nothing else knows a card's text. A catalog (``classic.py``) is
checked with ``effect_check.check_effect``, whose messages name the step and the problem.

Moments (R92, R93, R26, R29):
- ``revealed``: a trigger estate, once, right after the card is fully revealed;
- ``begin`` / ``end``: a condition estate, in its possessor's Begin / End Phase while revealed;
- ``while revealed``: a condition estate in constant effect while revealed and possessed (only conditions);
- ``declared``: a leader's Laboratory or Library, with every choice made in the declaration (RULINGS:
  one declaration, one window);
- ``used``: a consumable item, when its holder uses it (R103);
- ``reaction``: a reactive consumable, used as an answer in the reaction window on an action (R104);
- ``while held``: a condition item in constant effect while possessed (only conditions, R102);
- ``draw``: a reactive consumable, used in another player's Draw Phase before they draw (R104, R118);
- ``estate revealed``: a leader's ability that acts whenever an estate card is fully revealed;
- ``conquest``: a leader's alternate win condition, checked in its player's own Conquest Phase (R9c);
- ``opponent item discarded``: a leader's ability that acts whenever an opponent's item is discarded (the
  step parameter ``"$discarded"`` names that item).

Who a step is about (``who``), R133-R138:
- ``self``: the card's possessor; ``any player``: one remaining player the possessor picks (themselves
  included); ``an opponent``: one remaining player other than the possessor, picked by the possessor;
  ``each opponent`` / ``all players``: every such remaining player, in turn order from the current player.
"""

from __future__ import annotations

from typing import Any

MOMENTS = (
    "revealed",
    "begin",
    "end",
    "while revealed",
    "declared",
    "opponent item discarded",
    "estate revealed",
    "used",
    "reaction",
    "draw",
    "while held",
    "conquest",
)
LEADER_MOMENTS = {
    "laboratory": ("declared",),
    "library": ("declared",),
    "ability": ("opponent item discarded", "estate revealed"),
    "win": ("conquest",),
}
COUNTS = ("soldiers", "unrevealed", "revealed", "items", "item kinds", "sacrifices")
WHO = ("self", "any player", "an opponent", "each opponent", "all players")
COUNT = ("count", int, 1, 8)
AMOUNT = ("amount", int, 1, 20)

CONDITIONS: dict[str, str] = {
    "no_war": "no player can go to war with another (Chapel's narrated effect, R93)",
    "keep_soldiers": "the holder loses no soldiers (a war's casualties, a discard, ...); gifts still go (E19)",
    "out_of_war": "the holder cannot be in a war with any other player (the TORCH)",
    "war_only_with_holder": "when players go to war, they must have war with the holder (the TARGET)",
    "out_of_war_with_leader": "the holder stays out of war with the player the named leader leads (the PENGUIN EFFIGY)",
    "no_calls": "the holder cannot call bluffs, and nobody can call the holder's bluffs (the SCALES)",
    "eliminated_at": "a player holding this many pieces of the item is eliminated (the BONES)",
}
# the parameters a condition takes, written like a step's (``check_param``); the others take none
CONDITION_PARAMS: dict[str, tuple[tuple[Any, ...], ...]] = {
    "out_of_war_with_leader": (("leader", str),),
    "eliminated_at": (("count", int, 1, 20),),
}


def effects_of(entry: dict[str, Any] | None) -> list[dict[str, Any]]:
    """A component's effects: an item may have several (the PENGUIN EFFIGY acts in the Begin Phase and keeps
    its holder out of a war), written as a list; one effect is written alone."""
    effect = (entry or {}).get("effect")
    if effect is None:
        return []
    return effect if isinstance(effect, list) else [effect]


class EffectError(ValueError):
    """An effect that is not written in the vocabulary; the message says where and why."""


def check_param(where: str, step: dict[str, Any], spec: tuple[Any, ...]) -> None:
    """Raise ``EffectError`` unless ``step`` gives the parameter ``spec``: (name, type, low, high), (name,
    choices), (name, list) for a non-empty list of names, (name, str) for a name, or (name, "steps") for 2 or
    more lists of steps (each checked in turn)."""
    name = spec[0]
    if name not in step:
        raise EffectError(f"{where}: '{name}' is missing")
    value = step[name]
    if spec[1] is list:
        if not isinstance(value, list) or not value or not all(isinstance(v, str) and v for v in value):
            raise EffectError(f"{where}: '{name}' must be a non-empty list of names")
        return
    if spec[1] == "steps":  # each option is checked step by step where the steps are declared (effect_steps)
        if not isinstance(value, list) or len(value) < 2 or not all(isinstance(o, list) and o for o in value):
            raise EffectError(f"{where}: '{name}' must list 2 or more non-empty lists of steps")
        return
    if spec[1] is str:
        if not isinstance(value, str) or not value.strip():
            raise EffectError(f"{where}: '{name}' must be a name")
        return
    if len(spec) == 2:
        if value not in spec[1] or isinstance(value, bool) != isinstance(spec[1][0], bool):
            raise EffectError(f"{where}: '{name}' must be one of {', '.join(map(str, spec[1]))}, not {value!r}")
        return
    _, kind, low, high = spec
    if isinstance(value, bool) or not isinstance(value, kind) or not low <= value <= high:
        raise EffectError(f"{where}: '{name}' must be a whole number from {low} to {high}, not {value!r}")


def conditions(effect: dict[str, Any] | None) -> set[str]:
    """The conditions an effect holds while its card is revealed and possessed."""
    if not effect or effect.get("when") != "while revealed":
        return set()
    return {step["step"] for step in effect["steps"]}
