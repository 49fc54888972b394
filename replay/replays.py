"""Replays of a game's record: the table at any step from a perspective, the narrated timeline, and the audit of a
claim. Who may look from where is ``replay.perspective``'s."""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Any
from uuid import UUID

from aegis.domain.kernel.events import event_from_dict
from aegis.domain.kernel.redaction import Perspective, redact_event
from aegis.domain.kernel.ruleset import is_void
from aegis.replay import perspective, records
from aegis.replay.engine import Replay
from aegis.replay.names import branch_point, names_by_seq
from aegis.replay.review import must_be_over, odds_at, review_of
from aegis.service.aggregate import Game
from aegis.service.errors import BadRequest, NotFound
from aegis.service.games import GameService
from aegis.service.rulesets import ruleset_named
from aegis.service.views import branch_of, prompt_dict

CACHED_REPLAYS = 32


class Replays:
    def __init__(self, service: GameService):
        self.service = service
        self._cache: OrderedDict[tuple[UUID, int], Replay] = OrderedDict()
        self._lock = threading.Lock()

    def _replay(self, game: Game, log: list[dict[str, Any]]) -> Replay:
        """The replay of ``log`` (the copy read under the game's lock), cached by its length."""
        key = (game.id, len(log))
        with self._lock:
            found = self._cache.get(key)
            if found is not None:
                self._cache.move_to_end(key)
                return found
        rules = ruleset_named(game.ruleset)
        made = Replay(rules, rules.make_config(game.started_config), [event_from_dict(e) for e in log])
        with self._lock:
            self._cache[key] = made
            while len(self._cache) > CACHED_REPLAYS:
                self._cache.popitem(last=False)
        return made

    def _load(self, game_id: UUID) -> tuple[Game, list[dict[str, Any]]]:
        game, log = self.service.record(game_id)
        if game.config is None:
            raise NotFound("the game has not started: there is nothing to replay yet")
        return game, log

    def audit(self, game_id: UUID, step: int, as_: str | None, token: str | None) -> dict[str, Any]:
        """The claim at ``step`` as the perspective ``as_`` may know it (``records.audit``)."""
        game, log = self._load(game_id)
        return records.audit_of(self.service, game, log, step, perspective.looking_as(game, as_, token))

    def step(self, game_id: UUID, step: int | None, as_: str | None, token: str | None) -> dict[str, Any]:
        game, log = self._load(game_id)
        who = perspective.looking_as(game, as_, token)
        replay = self._replay(game, log)
        n = replay.steps if step is None else step
        if not 0 <= n <= replay.steps:
            raise BadRequest(f"step {n} is outside 0..{replay.steps}")
        rules = ruleset_named(game.ruleset)
        state = replay.state_at(n)
        event = None
        names = names_by_seq(self.service, game)(max(n, 1))  # a branch's step 0 is its original's too
        if n > 0:
            seen = self._redacted(game, log[n - 1], who)
            void = is_void(rules.undone(log), n)  # as the timeline says it
            event = {**seen, "text": rules.narrate(seen, names), "undone": void}
        copied = n <= branch_point(game)  # 0 for a game that is no branch
        return {
            "id": str(game.id),
            "step": n,
            "steps": replay.steps,
            "as": who,
            "seats": [{"seat": s["seat"], "name": s["name"], "bot": s["bot"]} for s in game.seats],
            "rigged": game.rigged,
            "copied": copied and game.branch_of is not None,
            "table": rules.view(state, who),
            "event": event,
            "odds": odds_at(rules, game, state, log[n - 1] if n > 0 else None, who),
            "prompts": [prompt_dict(p) for p in rules.prompts(state, who)] if isinstance(who, int) else [],
            "branch_of": branch_of(game),
            "branches": list(game.branches),
        }

    def review(self, game_id: UUID, as_: str | None, token: str | None) -> dict[str, Any]:
        """Every claim and answer of a finished game with its odds as ``as_`` knew them (``replay.review``)."""
        game, log = self._load(game_id)
        must_be_over(game)
        who = perspective.looking_as(game, as_, token)
        replay = self._replay(game, log)
        return review_of(ruleset_named(game.ruleset), game, log, replay.events, replay.config, who)

    def timeline(self, game_id: UUID, as_: str | None, token: str | None, after: int = 0) -> dict[str, Any]:
        """Every event after seq ``after`` in words, as the perspective knew it (``steps``: how many the log holds)."""
        game, log = self._load(game_id)
        who = perspective.looking_as(game, as_, token)
        if after > len(log):  # as GET /events: no event has that seq, so it is another game's or a mistake
            raise BadRequest(f"'after' {after} is past this game's last event (seq {len(log)})")
        rules = ruleset_named(game.ruleset)
        names = names_by_seq(self.service, game)
        undone = rules.undone(log)
        items = []
        for e in (e for e in log if e["seq"] > after):
            seen = self._redacted(game, e, who)
            void = is_void(undone, e["seq"])
            items.append({"seq": e["seq"], "type": e["type"], "text": rules.narrate(seen, names(e["seq"])), "undone": void})
        return {"id": str(game.id), "as": who, "steps": len(log), "events": items}

    @staticmethod
    def _redacted(game: Game, event: dict[str, Any], who: Perspective) -> dict[str, Any]:
        return redact_event(event, perspective.at_event(game, who, event["seq"]))
