"""The streams of one game in a process share each read of it (``api/hub.py``): a stream that goes away while a
read it asked for is under way must not cancel that read for the streams that stay, and a failed read ends each
stream that waits for it. Played on a real game, the read held back by holding the game's lock."""

from __future__ import annotations

import asyncio
import random
import threading
from uuid import UUID

from aegis.api.hub import Feed, Hub
from aegis.domain.kernel.redaction import SPECTATOR
from tests.api_client import Api


def test_a_stream_that_goes_away_does_not_cancel_the_read_the_others_wait_for(sqlite_app):
    api = Api(sqlite_app.test_client())
    gid, host, _ = api.new_game(["human", "human", "human"], seed="feed", reaction_seconds=0)
    api.start(gid, host)
    service = sqlite_app.extensions["aegis"]
    game = UUID(gid)
    seq = service.view(game, None)["seq"]
    hub = Hub(service)

    async def play() -> tuple[bool, int, int]:
        feed = Feed(hub, game)
        held = threading.Event()
        release = threading.Event()

        def hold() -> None:
            with service._lock(game):
                held.set()
                release.wait(10)

        holder = threading.Thread(target=hold)
        holder.start()
        held.wait(10)
        leaving = asyncio.create_task(feed.read(SPECTATOR, 0))
        staying = asyncio.create_task(feed.read(SPECTATOR, 0))
        await asyncio.sleep(0.05)  # both asked; the shared read waits for the lock
        leaving.cancel()
        await asyncio.sleep(0.05)
        release.set()
        got = await asyncio.wait_for(staying, 10)
        holder.join()
        return leaving.cancelled(), got.seq, hub.reads

    try:
        cancelled, read_seq, reads = asyncio.run(play())
    finally:
        hub.stop()
    assert cancelled
    assert read_seq == seq  # the stream that stayed got the read, as of the game's seq
    assert reads == 1  # one read, shared


def test_a_failed_read_ends_every_stream_waiting_for_it(sqlite_app):
    service = sqlite_app.extensions["aegis"]
    hub = Hub(service)
    unknown = UUID(int=7)  # no such game: the read fails (404)

    async def play() -> list[BaseException | None]:
        feed = Feed(hub, unknown)
        waits = [asyncio.create_task(feed.read(SPECTATOR, 0)) for _ in range(3)]
        done = await asyncio.gather(*waits, return_exceptions=True)
        return [d if isinstance(d, BaseException) else None for d in done]

    try:
        failures = asyncio.run(play())
    finally:
        hub.stop()
    assert all(f is not None and type(f).__name__ == "NotFound" for f in failures), failures


def test_a_parked_stream_wakes_on_a_notice_past_its_seq_or_at_its_keep_alive(sqlite_app):
    """A stream that has sent everything parks: a notice of a seq it has sent does not wake it, one past it brings it
    the read with the new events, and with no notice it wakes (with nothing) once its keep-alive is due."""
    api = Api(sqlite_app.test_client())
    gid, host, tokens = api.new_game(["human", "human", "human"], seed="park", reaction_seconds=0)
    api.start(gid, host)
    service = sqlite_app.extensions["aegis"]
    game = UUID(gid)
    hub = Hub(service)

    async def play() -> tuple[bool, bool, int, int, bool, bool]:
        feed = Feed(hub, game)
        loop = asyncio.get_running_loop()
        sent = (await feed.read(SPECTATOR, 0)).seq
        parked = asyncio.create_task(feed.news(SPECTATOR, sent, False, loop.time() + 60))
        await asyncio.sleep(0.05)
        feed.hear(sent)  # nothing this stream has not sent
        await asyncio.sleep(0.05)
        woke_early = parked.done()
        found = await loop.run_in_executor(None, api.open_command, gid, tokens, random.Random(1))
        assert found is not None
        assert (await loop.run_in_executor(None, lambda: api.post(gid, *found))).status_code == 200
        now_seq = service.view(game, None)["seq"]
        feed.hear(now_seq)
        got = await asyncio.wait_for(parked, 10)
        idle = asyncio.create_task(feed.news(SPECTATOR, now_seq, False, loop.time() + 0.1))
        feed.keepalives(loop.time())  # not due yet
        await asyncio.sleep(0.15)
        not_yet = idle.done()
        feed.keepalives(loop.time())
        keepalive = await asyncio.wait_for(idle, 1)
        return woke_early, got is not None and got.seq == now_seq, sent, now_seq, not_yet, keepalive is None

    try:
        woke_early, brought, sent, now_seq, not_yet, keepalive = asyncio.run(play())
    finally:
        hub.stop()
    assert not woke_early
    assert now_seq > sent and brought  # the notice past its seq brought the read with the new events
    assert not not_yet and keepalive  # woken with nothing, once its keep-alive was due
