"""``GET /api/games/{id}/view`` and a stream's view frames serve the view as the service built it, without
marshmallow's walk over it (``api/games.py``, ``api/sse.py``): that is truthful only while the view is already
exactly what ``ViewOut`` dumps. Checked here on games of each kind, at every step, for every seat and the
spectator."""

from __future__ import annotations

import json
import random
from typing import Any
from uuid import UUID

import pytest

from aegis.api import jsonio, schemas, sse
from tests.api_client import Api

GAMES: list[dict[str, Any]] = [
    {"seats": ["human", "human", "human"], "spec": {}},
    {"seats": ["human", "human", "random", "human", "human"], "spec": {"turn_seconds": 60}},
    {
        "seats": ["human", "random", "human", "cautious"],
        "spec": {"variant": "classic", "selection": "limited", "options": {"plain_unknown": 1}},
    },
]


@pytest.mark.parametrize("game", GAMES, ids=["simpleton-3", "simpleton-5-clocks", "classic-4"])
def test_every_view_served_is_what_its_schema_dumps(sqlite_app, game):
    api = Api(sqlite_app.test_client())
    gid, host, tokens = api.new_game(game["seats"], seed="shape", reaction_seconds=0, **game["spec"])
    service = sqlite_app.extensions["aegis"]
    schema = schemas.built(schemas.ViewOut)

    def check() -> None:
        with sqlite_app.app_context():
            for token in [None, *tokens.values()]:
                view = service.view(UUID(gid), token)
                assert json.dumps(schema.dump(view)) == json.dumps(view)  # the same bytes, in the same order
                assert api.view(gid, token) == view  # what the route serves
                data = sse.view_frame(view).split("\ndata: ", 1)[1]
                assert data == jsonio.text(schema.dump(view)) + "\n\n"  # what a stream of views sends

    check()  # in the lobby
    api.start(gid, host)
    rng = random.Random(5)
    for _ in range(60):
        check()
        found = api.open_command(gid, tokens, rng)
        if found is None:
            break
        answered = api.post(gid, *found)
        assert answered.status_code == 200
        assert schemas.built(schemas.CommandOut).dump(answered.get_json()) == answered.get_json()  # served as it is
    check()
