"""The cautious bot: plays what it truly holds, bluffs rarely, and calls only when the odds favour it.

It reads only its own view (never the hidden state): its own cards, every revealed or otherwise
known card, and the counts of cards it cannot see.
"""

from __future__ import annotations

import random
from math import comb
from typing import Any

from aegis.domain.bots import pick_group_then_option
from aegis.domain.everaegis.catalog import CATALOG
from aegis.domain.kernel.prompts import Option, Prompt

BLUFF_CHANCE = 0.1
CALL_BELOW = 0.35  # call when the claimant holds the claimed card with less than this probability


class CautiousBot:
    name = "cautious"

    def __init__(self, seed: int):
        self.rng = random.Random(seed)

    def choose(self, view: dict[str, Any], prompts: list[Prompt]) -> dict[str, Any] | None:
        blocking = [p for p in prompts if not p.free]
        if not blocking:
            return None
        prompt = blocking[0]
        options = list(prompt.options)
        if prompt.kind == "declare":
            return self._declare(view, options)
        if prompt.kind == "react":
            return self._react(view, options)
        if prompt.kind in ("prove",):
            claim = (view.get("challenge") or {}).get("claim")
            for o in options:
                if claim and claim in o.label:
                    return o.command
        return pick_group_then_option(self.rng, options)

    def _held(self, view: dict[str, Any]) -> set[str]:
        me = view["players"][view["you"]]
        return {c["name"] for c in me["cards"] if not c["revealed"] and c.get("name")}

    def _declare(self, view: dict[str, Any], options: list[Option]) -> dict[str, Any]:
        held = self._held(view)
        honest, bluffs, free = [], [], []
        for o in options:
            spec = CATALOG.action(o.command["action"])
            if spec.claim is None or "SANCTIONED" in o.label:
                free.append(o)
            elif spec.claim in held:
                honest.append(o)
            else:
                bluffs.append(o)
        if honest:
            return pick_group_then_option(self.rng, honest)
        if bluffs and self.rng.random() < BLUFF_CHANCE:
            return pick_group_then_option(self.rng, bluffs)
        return pick_group_then_option(self.rng, free or options)

    def _react(self, view: dict[str, Any], options: list[Option]) -> dict[str, Any]:
        by_answer = {o.command["answer"] + (o.command.get("means") or ""): o for o in options}
        window = view.get("window") or {}
        claim, claimant = window.get("claim"), window.get("claimant")
        if "guardwall" in by_answer:
            return by_answer["guardwall"].command
        if "guardcard" in by_answer and claim in self._held(view):
            return by_answer["guardcard"].command
        if (
            "call" in by_answer
            and isinstance(claim, str)
            and isinstance(claimant, int)
            and holds_probability(view, claimant, claim) < CALL_BELOW
        ):
            return by_answer["call"].command
        return by_answer["pass"].command


def holds_probability(view: dict[str, Any], seat: int, claim: str) -> float:
    """P(the claimant holds at least one unrevealed ``claim``), from what this reader can see."""
    claimant = view["players"][seat]
    hidden = [c for c in claimant["cards"] if not c["revealed"] and not c.get("name")]
    if any(not c["revealed"] and c.get("name") == claim for c in claimant["cards"]):
        return 1.0
    total = sum(CATALOG.building_count.values())
    seen_claim = 0
    seen = 0
    for p in view["players"]:
        for c in p["cards"]:
            if c.get("name") in CATALOG.building_count:  # buildings only: a Classic game's estate cards claim nothing
                seen += 1
                seen_claim += c["name"] == claim
    unseen = total - seen
    unseen_claim = CATALOG.building_count[claim] - seen_claim
    h = min(len(hidden), unseen)  # Classic: some hidden cards may be estates, counted here as if buildings
    if h == 0 or unseen_claim <= 0:
        return 0.0
    if unseen - unseen_claim < h:
        return 1.0  # too few other cards unseen: one of the hidden cards must be the claimed one
    return 1.0 - comb(unseen - unseen_claim, h) / comb(unseen, h)
