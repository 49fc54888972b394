"""What a reader gets for a game: its view (the table as that reader may know it, with the reader's
open prompts) and its row in the lobby. One function each: views are computed on read by the service from the
game it holds (``ViewCache`` keeps the latest ones), lobby rows by the projections.

A view is a function of the game's events alone (never of the clock, nor of what a cache holds), so a view kept
and one computed again are the same, byte for byte: a reader cannot tell whether a cache held the game."""

from __future__ import annotations

from typing import Any
from uuid import UUID

from aegis.domain.kernel.redaction import Perspective
from aegis.service.aggregate import Game
from aegis.service.bounded import LRU
from aegis.service.rulesets import ruleset_named

TABLE_OPTIONS = ("turn_seconds", "timeouts_to_forfeit")  # the service's own game options (``service.games``)


def view_of(game: Game, who: Perspective) -> dict[str, Any]:
    config = {k: v for k, v in (game.config or game.spec).items() if k != "names"}
    out: dict[str, Any] = {
        "id": str(game.id),
        "ruleset": game.ruleset,
        "status": game.status,
        "seq": game.seq,
        "rigged": game.rigged,
        "you": who if isinstance(who, int) else None,
        "seats": seats_of(game),
        "seats_total": game.spec["seats"],
        "config": config | {k: game.spec.get(k, 0) for k in TABLE_OPTIONS},
        "prompts": [],  # the fields in ViewOut's order: the route serves this dict as it is (api/games.py)
        "table": None,
        "deadline": None,
        "fairness": fairness_of(game),
        "clocks": [],
        "expires_at": game.expires_at if game.status == "lobby" else None,
        "branch_of": branch_of(game),
    }
    if game.config is not None:
        rules = ruleset_named(game.ruleset)
        state = game.state
        out["table"] = rules.view(state, who)
        clocks = game.deadlines()
        out["clocks"] = [{"seat": seat, "deadline": at} for seat, at in sorted(clocks.items())]
        if isinstance(who, int):
            kinds = game.clock_kinds.get(str(who), ()) if who in clocks else ()
            out["prompts"] = [
                prompt_dict(p, clocks[who] if p.kind in kinds and not p.free else None) for p in rules.prompts(state, who)
            ]
        due = rules.deadline(state) if game.status == "active" else None
        out["deadline"] = due[1] if due else None
    return out


class ViewCache:
    """The views of at most ``games`` games (``AEGIS_CACHE_VIEWS``), the least recently read forgotten first, each
    kept for the game's version (the aggregate's: every event moves it, a seat taken or a clock started as much as a
    ruleset event) and perspective. A game's entry holds the views of its latest version only: one read there is
    computed once, then served as is until the next event. Call ``view`` under the game's lock with the game as
    loaded from the store (never with unsaved events); the view handed out is shared: do not change it."""

    def __init__(self, games: int):
        self._games: LRU[UUID, tuple[int, dict[Perspective, dict[str, Any]]]] = LRU(games)

    def view(self, game: Game, who: Perspective) -> dict[str, Any]:
        entry = self._games.get(game.id)
        if entry is None or entry[0] != game.version:
            entry = (game.version, {})
            self._games[game.id] = entry
        found = entry[1].get(who)
        if found is None:
            found = entry[1][who] = view_of(game, who)
        return found

    def __len__(self) -> int:
        return len(self._games)


def branch_of(game: Game) -> dict[str, Any] | None:
    """For a branch: the game and the step it starts from (``service/branches.py``)."""
    made = game.branch_of
    return None if made is None else {"game": made["game"], "step": made["step"]}


def seats_of(game: Game) -> list[dict[str, Any]]:
    """Who sits where: a registered player (``player``), a guest, a bot or a mob; and whether the server plays the
    seat now (``autoplayed``: it resigned, or its player ran out of time too often)."""
    rules = ruleset_named(game.ruleset)
    by_rules = rules.seated_by_rules(game.spec)
    served = set(rules.autoplayed(game.state)) if game.config is not None else set()
    return [
        {
            "seat": s["seat"],
            "name": s["name"],
            "bot": s["bot"],
            "mob": s["seat"] in by_rules,  # the contract's word for a seat the rules play
            "player": s.get("player"),
            "guest": not s["bot"] and s["seat"] not in by_rules and not s.get("player"),
            "autoplayed": s["seat"] in served,
        }
        for s in game.seats
    ]


def fairness_of(game: Game) -> dict[str, Any]:
    """How the game's shuffles are drawn, for everyone to see before they play: the commitment to the server's
    secret (published at creation), whether the creator's seed and which seats' entropy were mixed in, and
    whether anyone could know the draws (``rigged``: a chosen position, or a seed its creator chose exactly)."""
    return {
        "seeding": game.seeding,
        "commitment": game.commitment,
        "creator_seed": bool(game.creator_seed) or game.seeding == "exact",
        "seat_entropy": [s["seat"] for s in game.seats if s.get("entropy")],
        "rigged": game.rigged,
        "position_chosen": game.rig is not None,
    }


def summary_of(game: Game) -> dict[str, Any]:
    return {
        "id": str(game.id),
        "ruleset": game.ruleset,
        "variant": ruleset_named(game.ruleset).variant(game.spec),
        "status": game.status,
        "seats": game.spec["seats"],
        "seats_free": game.spec["seats"] - len(game.seats),
        "rigged": game.rigged,
        "created": game.created_at,
        "expires_at": game.expires_at if game.status == "lobby" else None,
        "turn_seconds": game.spec.get("turn_seconds", 0),
    }


def prompt_dict(p: Any, clock: float | None = None) -> dict[str, Any]:
    """A prompt as readers get it; ``clock``: the deadline of the seat's decision clock, for a prompt the rules
    do not time themselves (a reaction window's prompt carries the window's deadline)."""
    out: dict[str, Any] = p.to_dict()
    if clock is not None:
        out["deadline"] = clock
    return out
