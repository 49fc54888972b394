"""The events a game records through ``Game._trigger`` (its commands and the ruleset's events, made without the
dataclass ``__init__``) are the events the library's ``trigger_event`` makes: equal, with the same fields in the same
order (the order in which they are written to the store), and the game moved on as the library moves it."""

from __future__ import annotations

import dataclasses
import random
from typing import Any
from uuid import UUID

from aegis.service.aggregate import Game
from tests.api_client import Api
from tests.conftest import close_app, make_app


def _as_constructed(event: Any) -> Any:
    """The same event made by its class's own ``__init__`` (which checks the id, and sets every field)."""
    return type(event)(**{f.name: getattr(event, f.name) for f in dataclasses.fields(event)})


def test_recorded_events_are_what_their_classes_make(sqlite_env):
    app = make_app(sqlite_env)
    try:
        api = Api(app.test_client())
        gid, host, tokens = api.new_game(["human", "human", "human", "human"], seed="trigger-0", reaction_seconds=0)
        api.start(gid, host)
        rng = random.Random(0)
        for _ in range(6):
            token, command = api.open_command(gid, tokens, rng) or ("", {})
            assert api.post(gid, token, command).status_code == 200
        store = app.extensions["aegis"].store
        game = store.repository.get(UUID(gid))
        assert isinstance(game, Game)
        version = game.version
        game.accept(1, "seat", {"type": "resign", "seat": 1}, None, 1.0)
        game.play({"type": "resign", "seat": 1, "at": 1.0})
        made = game.collect_events()
        assert len(made) > 1 and isinstance(made[0], Game.CommandAccepted)
        assert [e.originator_version for e in made] == list(range(version + 1, version + 1 + len(made)))
        assert game.version == made[-1].originator_version and game.modified_on == made[-1].timestamp
        for event in made:
            twin = _as_constructed(event)
            assert event == twin
            assert list(vars(event)) == list(vars(twin)), "the fields in the order the store writes them"
            assert store.mapper.to_stored_event(event) == store.mapper.to_stored_event(twin)
    finally:
        close_app(app)
