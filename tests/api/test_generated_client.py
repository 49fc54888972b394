"""A client generated from ``/api/openapi.json`` with openapi-python-client plays a whole game against the real
server, with its typed models and API functions only: no hand-written request, no dict where a model is due.

The generator must find nothing to warn about (the NDJSON exports are mapped to text, as a client would
configure it); every response must parse into its model; the command for each prompt is built with the model
class whose ``type`` is the prompt's kind, from the option's command and its params' picked values, and it must
keep every field (a field the schema lacks would be dropped, and the test says which)."""

from __future__ import annotations

import importlib
import json
import random
import sys
import threading
import time
import typing
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import attrs
import pytest
from openapi_python_client import generate
from openapi_python_client.config import Config, ConfigFile, MetaType
from werkzeug.serving import make_server

from tests.conftest import close_app, make_app

PACKAGE = "aegis_generated_client"


def _generate(doc: dict[str, Any], where: Path) -> Any:
    source = where / "openapi.json"
    source.write_text(json.dumps(doc))
    config = Config.from_sources(
        ConfigFile(
            project_name_override="aegis-generated-client",
            package_name_override=PACKAGE,
            post_hooks=[],  # no formatter needed (nor run) on the generated code
            content_type_overrides={"application/x-ndjson": "text/plain"},  # one JSON object a line: read as text
        ),
        MetaType.NONE,
        source,
        "utf-8",
        overwrite=True,
        output_path=where / PACKAGE,
    )
    problems = generate(config=config)
    assert not problems, "\n".join(f"{p.level}: {p.header}: {p.detail}" for p in problems)
    sys.path.insert(0, str(where))
    try:
        return importlib.import_module(PACKAGE)
    finally:
        sys.path.remove(str(where))


@pytest.fixture
def served(sqlite_env) -> Iterator[tuple[Any, str]]:
    """The app, served over HTTP on a free local port (werkzeug, threaded), in this process."""
    app = make_app(sqlite_env)
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield app, f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()
        thread.join(timeout=10)
        close_app(app)


@pytest.fixture
def client_package(served, tmp_path) -> Iterator[Any]:
    app, _url = served
    yield _generate(app.test_client().get("/api/openapi.json").get_json(), tmp_path)
    for name in [m for m in sys.modules if m == PACKAGE or m.startswith(PACKAGE + ".")]:
        del sys.modules[name]


def _command_classes(post_command: Any) -> dict[str, type]:
    """Every model ``post_command`` takes as its body, by the type it sends (its ``type`` field's default: the
    schema's const)."""
    out = {}
    for cls in typing.get_args(typing.get_type_hints(post_command.sync)["body"]):
        kind = attrs.fields_dict(cls)["type_"].default
        assert isinstance(kind, str), cls
        out[kind] = cls
    return out


def _picked(param: Any, rng: random.Random) -> Any:
    """Values for one param as its min, max and distinct allow: one value when max is 1, else a list."""
    values = [choice.value for choice in param.choices]
    if param.max_ == 1:
        return rng.choice(values)
    top = min(param.max_, len(values)) if param.distinct else param.max_
    k = rng.randint(param.min_, top)
    return rng.sample(values, k) if param.distinct else [rng.choice(values) for _ in range(k)]


# (the creator's seed, the person's picks): the server's secrets are test-secret-1, -2, -3 in that order, so these
# games are the same on every run, and between them they send most kinds of fields (see the last assertion)
MAX_GAMES = 40  # seeded games g0, g1, ... until every field below has been sent


def _play(pkg: Any, url: str, seed: str, rng: random.Random) -> tuple[int, set[str]]:
    """One 3-seat game, a person (Ann) and two bots, no clocks, played to its end. Returns (moves, fields sent)."""
    models = importlib.import_module(f"{PACKAGE}.models")
    used = ("create_game", "take_seat", "start_game", "get_view", "post_command", "list_events", "get_replay", "verify_game")
    ops = {name: importlib.import_module(f"{PACKAGE}.api.default.{name}") for name in used}
    commands = _command_classes(ops["post_command"])
    anyone = pkg.Client(base_url=url, raise_on_unexpected_status=True)

    spec = models.CreateGameIn(seats=3, seed=seed, reaction_seconds=0.0, turn_seconds=0.0)
    created = ops["create_game"].sync(client=anyone, body=spec)
    assert isinstance(created, models.CreatedOut), created
    gid = created.id
    me = ops["take_seat"].sync(gid, client=anyone, body=models.PersonSeatIn(name="Ann"))
    assert isinstance(me, models.SeatOut) and isinstance(me.token, str), me
    for bot in (models.BotSeatInBot.RANDOM, models.BotSeatInBot.CAUTIOUS):
        seated = ops["take_seat"].sync(gid, client=anyone, body=models.BotSeatIn(bot=bot))
        assert isinstance(seated, models.SeatOut) and seated.token is None, seated
    host = pkg.AuthenticatedClient(base_url=url, token=created.host_token, raise_on_unexpected_status=True)
    started = ops["start_game"].sync(gid, client=host)
    assert isinstance(started, models.StartedOut), started
    seat = pkg.AuthenticatedClient(base_url=url, token=me.token, raise_on_unexpected_status=True)

    sent: set[str] = set()
    moves = 0
    deadline = time.monotonic() + 30
    while True:
        assert time.monotonic() < deadline, f"the game did not end within 30 s ({moves} moves)"
        view = ops["get_view"].sync(gid, client=seat)
        assert isinstance(view, models.ViewOut), view
        assert isinstance(view.table, models.TableOut), view.table
        if view.status == models.ViewOutStatus.FINISHED:
            break
        waiting = [p for p in view.prompts if not p.free]
        if not waiting:  # the server is playing the bots' part
            time.sleep(0.01)
            continue
        prompt = waiting[0]
        assert isinstance(prompt, models.PromptOut)
        with_params = [o for o in prompt.options if o.params]  # they set the most fields: prefer them
        calls = [o for o in prompt.options if o.command.to_dict().get("answer") == "call"]
        option = rng.choice(calls) if calls and rng.random() < 0.5 else rng.choice(with_params or prompt.options)
        wanted = {**option.command.to_dict(), **{p.name: _picked(p, rng) for p in option.params}, "expected_seq": view.seq}
        assert prompt.kind in commands, f"no command model sends {prompt.kind!r}"
        body = commands[prompt.kind].from_dict(wanted)
        assert body.to_dict() == wanted, f"the {prompt.kind} model drops a field"
        answer = ops["post_command"].sync(gid, client=seat, body=body)
        if isinstance(answer, models.ProblemOut) and answer.status == 409:  # the server played on meanwhile: look again
            continue
        assert isinstance(answer, models.CommandOut), answer
        assert answer.seq > view.seq
        for event in answer.events:
            assert not isinstance(event, dict), f"an event no event model reads: {event}"
            assert event.seq > view.seq
        sent.update(f"{prompt.kind}.{name}" for name in wanted)
        moves += 1

    assert view.table.result is not None and view.table.result.winners, view.table.result
    page = ops["list_events"].sync(gid, client=seat, limit=5000)
    assert isinstance(page, models.EventsOut) and page.seq == view.seq
    assert [e.seq for e in page.events] == list(range(1, view.seq + 1))
    assert all(not isinstance(e, dict) for e in page.events)
    assert page.events[0].type_ == "GameStarted"
    replay = ops["get_replay"].sync(gid, client=anyone, step=1, as_="omniscient")
    assert isinstance(replay, models.ReplayOut) and isinstance(replay.table, models.TableOut)
    verdict = ops["verify_game"].sync(gid, client=anyone)
    assert isinstance(verdict, models.VerifyOut) and verdict.ok, verdict
    return moves, sent


def test_a_generated_client_plays_whole_games_with_typed_models_only(served, client_package):
    _app, url = served
    sent: set[str] = set()
    plan = {f"declare.{name}" for name in ("target", "card", "recipient", "discard", "give_wall", "sanctions", "treaty")}
    others = {"react.means", "prove.card", "pay.card", "declare.expected_seq"}
    for game in range(MAX_GAMES):
        moves, fields = _play(client_package, url, f"g{game}", random.Random(game))
        assert moves > 0
        sent |= fields
        if plan | others <= sent:
            break
    assert plan | others <= sent, (sorted((plan | others) - sent), game)
