"""What a reader gets for a game: its view (the table as that reader may know it, with the reader's
open prompts) and its row in the lobby. One function each, used by the API's direct reads and by the
projections, so a projected view is byte for byte the view the service would compute."""

from __future__ import annotations

from typing import Any

from domain.kernel.redaction import Perspective
from service.aggregate import Game
from service.rulesets import ruleset_named


def view_of(game: Game, who: Perspective) -> dict[str, Any]:
    out: dict[str, Any] = {
        "id": str(game.id),
        "ruleset": game.ruleset,
        "status": game.status,
        "seq": game.seq,
        "rigged": game.rigged,
        "you": who if isinstance(who, int) else None,
        "seats": [
            {"seat": s["seat"], "name": s["name"], "bot": s["bot"], "mob": s["seat"] in game.spec.get("mobs", ())}
            for s in game.seats
        ],
        "seats_total": game.spec["seats"],
        "config": {k: v for k, v in (game.config or game.spec).items() if k != "names"},
        "prompts": [],
        "table": None,
        "deadline": None,
    }
    if game.config is not None:
        rules = ruleset_named(game.ruleset)
        state = game.state
        out["table"] = rules.view(state, who)
        if isinstance(who, int):
            out["prompts"] = [prompt_dict(p) for p in rules.prompts(state, who)]
        due = rules.deadline(state) if game.status == "active" else None
        out["deadline"] = due[1] if due else None
    return out


def summary_of(game: Game) -> dict[str, Any]:
    return {
        "id": str(game.id),
        "ruleset": game.ruleset,
        "variant": "+".join(game.spec.get("variants", [])),
        "status": game.status,
        "seats": game.spec["seats"],
        "seats_free": game.spec["seats"] - len(game.seats),
        "rigged": game.rigged,
        "created": game.created_at,
    }


def prompt_dict(p: Any) -> dict[str, Any]:
    return {
        "seat": p.seat,
        "kind": p.kind,
        "text": p.text,
        "deadline": p.deadline,
        "free": p.free,
        "options": [{"label": o.label, "command": o.command} for o in p.options],
    }
