"""The streams of one game in a process share each read of it (``api/hub.py``): a stream that goes away while a
read it asked for is under way must not cancel that read for the streams that stay, and a failed read ends each
stream that waits for it. Played on a real game, the read held back by holding the game's lock."""

from __future__ import annotations

import asyncio
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
        feed = Feed()
        held = threading.Event()
        release = threading.Event()

        def hold() -> None:
            with service._lock(game):
                held.set()
                release.wait(10)

        holder = threading.Thread(target=hold)
        holder.start()
        held.wait(10)
        leaving = asyncio.create_task(feed.read(hub, game, SPECTATOR, 0))
        staying = asyncio.create_task(feed.read(hub, game, SPECTATOR, 0))
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
        feed = Feed()
        waits = [asyncio.create_task(feed.read(hub, unknown, SPECTATOR, 0)) for _ in range(3)]
        done = await asyncio.gather(*waits, return_exceptions=True)
        return [d if isinstance(d, BaseException) else None for d in done]

    try:
        failures = asyncio.run(play())
    finally:
        hub.stop()
    assert all(f is not None and type(f).__name__ == "NotFound" for f in failures), failures
