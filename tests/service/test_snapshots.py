"""Snapshots hold the game's state, not its log: compressed, the same size late in a game as early, taken in the
background; a game read back from one plays on exactly as before, and snapshots written by earlier versions (the
whole log, plain JSON) are still read."""

from __future__ import annotations

import json
import random
import zlib
from typing import Any
from uuid import UUID

from eventsourcing.persistence import Mapper, StoredEvent

from aegis.service.aggregate import Game, GameSnapshot
from tests.api_client import Api
from tests.conftest import close_app, make_app


def _play(api: Api, gid: str, tokens: dict[int, str], rng: random.Random, moves: int) -> None:
    """Up to ``moves`` commands of the human seats (random options), fewer if the game ends."""
    for _ in range(moves):
        found = api.open_command(gid, tokens, rng)
        if found is None:
            return
        assert api.post(gid, *found).status_code == 200


def _everything(api: Api, gid: str, tokens: dict[int, str]) -> dict[str, Any]:
    """What every reader gets: each seat's and the spectator's view and events, whole and in pages that start
    before what a game keeps in memory."""
    out: dict[str, Any] = {"spectator": (api.view(gid), api.events(gid))}
    for seat, token in tokens.items():
        out[f"seat {seat}"] = (api.view(gid, token), api.events(gid, token))
    for after in (0, 5, 40):
        out[f"page after {after}"] = api.events(gid, tokens[0], after=after, limit=9)
    return out


def _stored_snapshots(app: Any, gid: str) -> list[StoredEvent]:
    store = app.extensions["aegis"].store
    assert store.snapshotter.flush()
    return list(store.snapshots.recorder.select_events(UUID(gid)))


def test_snapshots_hold_the_state_compressed_and_do_not_grow_with_the_game(sqlite_env):
    app = make_app(sqlite_env, AEGIS_SNAPSHOT_INTERVAL="25")
    try:
        api = Api(app.test_client())
        gid, host, tokens = api.new_game(["human", "random", "random", "random"], seed="snap-size", reaction_seconds=0)
        api.start(gid, host)
        api.play_humans(gid, tokens, random.Random(1))
        assert api.view(gid)["status"] == "finished"
        stored = _stored_snapshots(app, gid)
        versions = app.extensions["aegis"].store.repository.get(UUID(gid)).version
        # each save that passes a multiple of 25 versions asks for one (a save of many events: one, at its end)
        assert versions > 100 and len(stored) >= 4
        for s in stored:
            assert s.state[:1] == b"x", "compressed with zlib"
            body = json.loads(zlib.decompress(s.state))["state"]
            assert "log" not in body and "game_state" in body
        sizes = [len(s.state) for s in stored[1:]]  # the first is taken before the table fills up
        assert max(sizes) < 1.6 * min(sizes), f"snapshot bytes grow with the game's length: {sizes}"
        assert app.extensions["aegis"].store.snapshotter.taken >= len(stored)
    finally:
        close_app(app)


def test_a_game_read_back_from_a_snapshot_answers_and_plays_on_as_before(sqlite_env):
    first = make_app(sqlite_env, AEGIS_SNAPSHOT_INTERVAL="7")
    api = Api(first.test_client())
    gid, host, tokens = api.new_game(["human", "random", "cautious"], seed="snap-read", reaction_seconds=0)
    api.start(gid, host)
    rng = random.Random(3)
    _play(api, gid, tokens, rng, 30)
    before = _everything(api, gid, tokens)
    assert _stored_snapshots(first, gid)
    assert before["spectator"][1]["seq"] > 48, "long enough that old events are read from the store, not memory"
    close_app(first)

    second = make_app(sqlite_env)  # a new process: the game comes from its latest snapshot and the events after it
    api2 = Api(second.test_client())
    assert _everything(api2, gid, tokens) == before
    if api2.view(gid)["status"] == "active":
        api2.play_humans(gid, tokens, rng)
    assert api2.view(gid)["status"] == "finished"
    close_app(second)


def test_every_snapshot_is_the_game_its_events_fold_to_at_that_version(sqlite_env):
    """Snapshots are taken from the game the service holds just after its save (not read back from the store): each
    one must be exactly the game its stored events make at that version, refusals and bot moves included."""
    from eventsourcing.application import project_aggregate

    app = make_app(sqlite_env, AEGIS_SNAPSHOT_INTERVAL="9")
    try:
        api = Api(app.test_client())
        gid, host, tokens = api.new_game(["human", "random", "cautious", "human"], seed="snap-equal", reaction_seconds=0)
        api.start(gid, host)
        rng = random.Random(11)
        for i in range(60):
            found = api.open_command(gid, tokens, rng)
            if found is None:
                break
            if i % 5 == 2:
                assert api.post(gid, found[0], {"type": "declare", "action": "no-such-action"}).status_code >= 400
            assert api.post(gid, *found).status_code == 200
        store = app.extensions["aegis"].store
        stored = _stored_snapshots(app, gid)
        assert len(stored) >= 5
        for raw in stored:
            snapshot = store.snapshots.mapper.to_domain_event(raw)
            assert isinstance(snapshot, GameSnapshot)
            folded = project_aggregate(None, store.events.get(UUID(gid), lte=snapshot.originator_version))
            assert isinstance(folded, Game)
            held = snapshot.mutate(None)
            for game in (held, folded):  # the decision clocks are derived lazily (``settle_clock``): compare them settled
                game.settle_clock()
            got, expected = GameSnapshot.take(held), GameSnapshot.take(folded)
            assert got.originator_version == expected.originator_version == snapshot.originator_version
            differ = {k for k in expected.state.keys() | got.state.keys() if got.state.get(k) != expected.state.get(k)}
            assert not differ, {k: (got.state.get(k), expected.state.get(k)) for k in differ}
    finally:
        close_app(app)


def test_a_snapshot_from_before_this_format_is_still_read(sqlite_env):
    """An earlier version stored the whole log in each snapshot (class version 2), as plain JSON."""
    first = make_app(sqlite_env, AEGIS_SNAPSHOT_INTERVAL="100000")
    api = Api(first.test_client())
    gid, host, tokens = api.new_game(["human", "random", "random"], seed="snap-legacy", reaction_seconds=0)
    api.start(gid, host)
    rng = random.Random(8)
    _play(api, gid, tokens, rng, 12)
    before = _everything(api, gid, tokens)
    store = first.extensions["aegis"].store
    game = store.repository.get(UUID(gid))
    _store_old_snapshot(store, game)
    close_app(first)

    second = make_app(sqlite_env)
    (read,) = second.extensions["aegis"].store.snapshots.get(UUID(gid))
    assert "legacy_log" in read.state, "the old snapshot was upcast"
    api2 = Api(second.test_client())
    assert _everything(api2, gid, tokens) == before
    api2.play_humans(gid, tokens, rng)
    assert api2.view(gid)["status"] == "finished"
    close_app(second)


def test_a_command_answers_every_event_it_caused_however_many(sqlite_env):
    """A resignation lets the bots play the game out in the same request: its answer lists every event from the
    resignation to the end, more than a game keeps in memory, none of them saved yet while the answer was made."""
    app = make_app(sqlite_env)
    try:
        api = Api(app.test_client())
        gid, host, tokens = api.new_game(["human", "random", "random"], seed="long-answer", reaction_seconds=0)
        api.start(gid, host)
        before = api.view(gid)["seq"]
        answer = api.post(gid, tokens[0], {"type": "resign"}).get_json()
        seqs = [e["seq"] for e in answer["events"]]
        assert seqs == list(range(before + 1, answer["seq"] + 1)) and len(seqs) > 48
        assert answer["events"][0]["type"] == "PlayerResigned" and api.view(gid)["status"] == "finished"
        assert answer["events"] == api.events(gid, tokens[0], after=before)["events"]
    finally:
        close_app(app)


def _store_old_snapshot(store: Any, game: Game) -> None:
    """The snapshot an earlier version would have written of ``game``: its fields with the whole log."""
    skipped = ("_id", "_version", "_pending_events", "_game_state", "_recent", "_next_deadline", "versions")
    fields = {k: v for k, v in vars(game).items() if k not in skipped}
    fields["log"] = store.payloads(game, 1, game.seq)
    snapshot = GameSnapshot(
        originator_id=game.id, originator_version=game.version, timestamp=GameSnapshot.create_timestamp(),
        topic="service.aggregate:Game", state=fields,  # the module's name before the package was named aegis
    )
    plain: Mapper[UUID] = Mapper(transcoder=store.construct_transcoder())
    stored = plain.to_stored_event(snapshot)
    body = json.loads(stored.state)
    assert body.pop("class_version") == 3
    body["class_version"] = 2
    old_topic = stored.topic.replace("aegis.service.", "service.")
    old = StoredEvent(stored.originator_id, stored.originator_version, old_topic, json.dumps(body).encode())
    store.snapshots.recorder.insert_events([old])
