"""The stored events' JSON written with orjson (service/event_json.py) is the library's JSON: every event of whole
games, read back by the library's own transcoder, gives what the library wrote; the types orjson would write
its own way go through the library's transcodings; a store written before reads alike."""

from __future__ import annotations

import datetime
import random
from decimal import Decimal
from enum import Enum
from typing import Any
from uuid import UUID, uuid4

from eventsourcing.persistence import JSONTranscoder, Mapper

from aegis.service.event_json import EventJSON
from tests.api_client import Api
from tests.conftest import close_app, make_app


def _library(store: Any) -> JSONTranscoder:
    transcoder = JSONTranscoder()
    store.register_transcodings(transcoder)
    return transcoder


def test_every_event_of_whole_games_reads_back_as_the_library_wrote_it(sqlite_env):
    app = make_app(sqlite_env)
    try:
        api = Api(app.test_client())
        ids = []
        for n, seats in enumerate((["human", "random", "random"], ["human"] * 5)):
            gid, host, tokens = api.new_game(seats, seed=f"event-json-{n}", reaction_seconds=0)
            api.start(gid, host)
            api.play_humans(gid, tokens, random.Random(n))
            ids.append(gid)
        store = app.extensions["aegis"].store
        assert isinstance(store.mapper.transcoder, EventJSON), "the events are written with orjson"
        library = _library(store)
        compared = identical = 0
        for gid in ids:
            for stored in store.events.recorder.select_events(UUID(gid)):
                state = library.decode(stored.state)  # as stored by EventJSON, read by the library
                theirs = library.encode(state)
                ours = store.mapper.transcoder.encode(state)
                assert library.decode(ours) == library.decode(theirs) == state
                compared += 1
                identical += ours == theirs
        assert compared > 300
        assert identical == compared, "no float in these events was written differently"
    finally:
        close_app(app)


class Colour(Enum):
    RED = "red"


def test_types_orjson_writes_itself_go_through_the_library_transcodings(sqlite_env):
    app = make_app(sqlite_env)
    try:
        store = app.extensions["aegis"].store
        ours, library = store.mapper.transcoder, _library(store)
        when = datetime.datetime(2026, 11, 24, 22, 40, tzinfo=datetime.UTC)
        uid = uuid4()
        state = {"timestamp": when, "id": uid, "amount": Decimal("1.50"), "payload": {"seq": 1, "text": "Écu ✓"}}
        assert ours.encode(state) == library.encode(state)
        assert library.decode(ours.encode(state)) == state  # the UUID and the timestamp come back as themselves
        assert ours.encode({"big": 2**70, 1: "int key"}) == library.encode({"big": 2**70, 1: "int key"})
        try:
            ours.encode({"colour": Colour.RED})
        except TypeError as err:  # the library refuses an unregistered type; so does this transcoder, the same way
            assert "not serializable" in str(err)
        else:
            raise AssertionError("an enum without a transcoding was written")
    finally:
        close_app(app)


def test_snapshots_keep_the_library_transcoder(sqlite_env):
    app = make_app(sqlite_env)
    try:
        store = app.extensions["aegis"].store
        mapper: Mapper[UUID] = store.snapshots.mapper
        assert type(mapper.transcoder) is JSONTranscoder
    finally:
        close_app(app)
