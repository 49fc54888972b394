"""The cautious bot: plays what it truly holds, bluffs rarely, and calls only when the odds favour it.

It reads only its own view (never the hidden state): its odds of a claim are ``odds.holds_probability`` of that
view, the exact count the review of a finished game shows for the same seat.
"""

from __future__ import annotations

import random
from typing import Any

from aegis.domain.bots import pick_group_then_option
from aegis.domain.everaegis.catalog import CATALOG
from aegis.domain.everaegis.odds import holds_probability
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


class StandInBot(CautiousBot):
    """Decides for a person whose clock ran out, and plays an abandoned seat (ruling S3). The timeout is announced to
    everyone and this policy is public, so a choice it made from the seat's face-down cards would tell them: it
    decides as the cautious bot would without seeing them (no honest claim, no guard with a card, calls by the odds
    anyone may work out). Only what the rules themselves reveal, such as proving a called claim, uses the hand."""

    name = "stand-in"

    def choose(self, view: dict[str, Any], prompts: list[Prompt]) -> dict[str, Any] | None:
        return super().choose(blind(view), prompts)


def blind(view: dict[str, Any]) -> dict[str, Any]:
    """``view`` without the names of the reader's own cards that only the reader may know (face down, not shown to
    all), nor the deck's known top: what a stand-in may decide from."""
    you = view.get("you")
    if not isinstance(you, int):
        return view
    players = list(view["players"])
    me = players[you]
    cards = [
        c if c.get("revealed") or c.get("known_to_all") else {k: v for k, v in c.items() if k not in ("name", "estate")}
        for c in me["cards"]
    ]
    players[you] = {**me, "cards": cards}
    deck = {k: v for k, v in view.get("deck", {}).items() if k != "known_top"}
    return {**view, "players": players, "deck": deck}
