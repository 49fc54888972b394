"""The streams of one server process, held without a thread each (``api/asgi.py`` serves them).

One thread per process hears every game's notices (``broker.listen_all()``: with ``REDIS_URL`` one pattern
subscription to every game's channel, else the in-process broker) and hands them to the event loop. Each game
with open streams here has a ``Feed``: a notice wakes its streams, and the streams that then ask for new events
share one read of the game (one lock, one load: ``service.streams.read_new``), redacted and written as frames
once per perspective. Store reads are blocking: they run on a small pool of threads of their own, so that a
thousand streams opening at once wait for each other, never for the threads that answer commands.

A notice carries no event, so a lost or repeated one can delay an event but never skip or double it: after
every keep-alive a stream reads the store again, as the threaded route does. Without Redis, notices stay in the
process: the same thread then looks at the store every ``WATCH_SECONDS`` (``service/store_watch.py``), and wakes
the streams of a game another process saved. It does the same while Redis is configured but away (the broker no
longer ``carrying`` notices), so a stream of a game another process saves lags by ``WATCH_SECONDS``, not a
keep-alive.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
import time
from collections.abc import AsyncIterator, Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar
from uuid import UUID

from aegis.api import sse
from aegis.domain.kernel.redaction import Perspective
from aegis.service.games import GameService
from aegis.service.store_watch import WATCH_SECONDS, Looks, StoreWatch

log = logging.getLogger(__name__)
T = TypeVar("T")
READERS = 4  # threads that read the store for the streams of one process


class Feed:
    """One game's streams in this process: the latest seq heard, the read they share, and the streams waiting for
    news. A stream that has sent all it read parks with its seq; a notice past that seq moves it into the next read,
    and that read's result wakes it: one wake-up per stream per notice, and no timer per stream (the hub's ticker
    wakes the parked streams whose keep-alive is due)."""

    def __init__(self, hub: Hub, game: UUID) -> None:
        self.hub, self.game = hub, game
        self.streams = 0
        self.heard = 0  # the latest seq a notice announced
        self._pending: dict[Perspective, int] = {}  # for the next read: each perspective's earliest seq sent
        self._views: set[Perspective] = set()  # for the next read: the perspectives with a stream of views
        self._waiters: list[asyncio.Future[sse.Read | None]] = []  # for the next read: one per stream that asked
        # waiting for a notice past their seq: (reader, seq sent, views, keep-alive due, the stream's future)
        self._parked: list[tuple[Perspective, int, bool, float, asyncio.Future[sse.Read | None]]] = []
        self._task: asyncio.Task[None] | None = None

    def hear(self, seq: int) -> None:
        """A notice: the game is at ``seq``. The parked streams that have not sent it join the next read."""
        self.heard = max(self.heard, seq)
        if self._parked:
            still = []
            for parked in self._parked:
                who, after, views, _, waiter = parked
                if waiter.done():  # the stream went away
                    continue
                if after < self.heard:
                    self._ask(who, after, views, waiter)
                else:
                    still.append(parked)
            self._parked = still

    async def read(self, who: Perspective, after: int, views: bool = False) -> sse.Read:
        """New events for ``who`` after ``after`` (and with ``views``, its view), from the next read of the game,
        shared with every stream of it that asks before that read starts (each perspective from the earliest seq
        any of its streams sent)."""
        # a future of this stream's own: a stream that goes away cancels it, and nothing the others wait for
        waiter: asyncio.Future[sse.Read | None] = asyncio.get_running_loop().create_future()
        self._ask(who, after, views, waiter)
        got = await waiter
        assert got is not None
        return got

    async def news(self, who: Perspective, after: int, views: bool, due: float) -> sse.Read | None:
        """The read that brings what a notice announced past ``after``, or None once the keep-alive is ``due`` (on
        the event loop's clock) with no such notice heard."""
        waiter: asyncio.Future[sse.Read | None] = asyncio.get_running_loop().create_future()
        if self.heard > after:  # heard while this stream was writing: read at once
            self._ask(who, after, views, waiter)
        else:
            self._parked.append((who, after, views, due, waiter))
        return await waiter

    def keepalives(self, now: float) -> None:
        """Wake (with None) every parked stream whose keep-alive is due by ``now``."""
        still = []
        for parked in self._parked:
            waiter = parked[4]
            if waiter.done():
                continue
            if parked[3] <= now:
                waiter.set_result(None)
            else:
                still.append(parked)
        self._parked = still

    def _ask(self, who: Perspective, after: int, views: bool, waiter: asyncio.Future[sse.Read | None]) -> None:
        self._pending[who] = min(after, self._pending.get(who, after))
        if views:
            self._views.add(who)
        self._waiters.append(waiter)
        if self._task is None:
            self._task = asyncio.create_task(self._reads())

    async def _reads(self) -> None:
        hub = self.hub
        try:
            while self._pending:
                wanted, views, waiters = self._pending, self._views, self._waiters
                self._pending, self._views, self._waiters = {}, set(), []
                try:
                    result = await hub.run(sse.read, hub.service, self.game, wanted, views)
                except Exception as err:  # the store failed: each stream ends (its client resumes with Last-Event-ID)
                    for waiter in waiters:
                        if not waiter.done():  # a stream gone meanwhile cancelled its own future
                            waiter.set_exception(err)
                    continue
                hub.reads += 1
                for waiter in waiters:
                    if not waiter.done():
                        waiter.set_result(result)
        finally:
            self._task = None


class Hub:
    def __init__(self, service: GameService, *, readers: int = READERS):
        self.service = service
        self.broker = service.broker
        self.keepalive = service.settings.keepalive_seconds
        self.executor = ThreadPoolExecutor(max_workers=readers, thread_name_prefix="stream-read")
        self.feeds: dict[str, Feed] = {}
        self._watched: frozenset[str] = frozenset()  # the games of self.feeds, for the notices' thread to read
        # other processes' saves are looked for in the store while Redis does not carry them (service/store_watch.py)
        self._store_watch = StoreWatch(service)
        self.reads = 0  # shared reads of the store done for streams
        self._loop: asyncio.AbstractEventLoop | None = None
        self._ticker: asyncio.Task[None] | None = None
        self._thread: threading.Thread | None = None
        self._listening = threading.Event()
        self._stop = threading.Event()

    async def run(self, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)`` (a blocking store read) on the stream readers' threads."""
        return await asyncio.get_running_loop().run_in_executor(self.executor, fn, *args)

    async def start(self) -> None:
        """Listen to every game's notices (once per process); returns once listening."""
        if self._thread is None:
            self._loop = asyncio.get_running_loop()
            if self.broker.crosses_processes:  # Redis carries the notices: this process's own saves are heard at once
                self.service.after_save.append(self._saved_here)
            self._thread = threading.Thread(target=self._listen, name="stream-notices", daemon=True)
            self._thread.start()
            self._ticker = self._loop.create_task(self._tick())
        if not self._listening.is_set():
            await self.run(self._listening.wait, 10.0)

    def _saved_here(self, game: Any, deadline: float | None) -> None:
        """A save of this process (on the thread that saved it): the streams of its game here hear it without waiting
        for Redis to carry the notice back, and while Redis is away they still do (its notice then arrives twice,
        which delays nothing: a stream reads what it has not sent)."""
        gid, loop = str(game.id), self._loop
        if loop is not None and gid in self._watched:
            with contextlib.suppress(RuntimeError):  # the event loop is closed: the server is going
                loop.call_soon_threadsafe(self._deliver, [(gid, game.seq)])

    def stop(self) -> None:
        if self._saved_here in self.service.after_save:
            self.service.after_save.remove(self._saved_here)
        self._stop.set()
        if self._ticker is not None:
            self._ticker.cancel()
        self.executor.shutdown(wait=False, cancel_futures=True)

    async def _tick(self) -> None:
        """Wake the parked streams whose keep-alive is due: one timer for the process, not one per stream."""
        loop = asyncio.get_running_loop()
        every = min(1.0, self.keepalive / 4)
        while True:
            await asyncio.sleep(every)
            now = loop.time()
            for feed in list(self.feeds.values()):
                feed.keepalives(now)

    def _listen(self) -> None:
        loop = self._loop
        assert loop is not None
        looks = Looks(self._store_watch)  # while Redis does not carry the notices: see the module
        while not self._stop.is_set():
            try:
                with self.broker.listen_all() as listener:
                    self._listening.set()
                    while not self._stop.is_set():
                        carried = self.broker.carrying()
                        notices = listener.get(timeout=1.0 if carried else WATCH_SECONDS)
                        games = self._watched
                        streamed = [(n.game_id, n.seq) for n in notices if n.game_id in games]
                        if streamed:  # the event loop is woken only for the games streamed here
                            loop.call_soon_threadsafe(self._deliver, streamed)
                        looks.heard(notices, games)
                        if carried:
                            looks.follow()
                            continue
                        moved = looks.look(games)  # the games another process saved since the last look
                        if moved:
                            loop.call_soon_threadsafe(self._deliver, moved)
            except RuntimeError:  # the event loop is closed: the server is gone
                return
            except Exception:  # the listeners outlive Redis outages; anything else: log, wait, listen again
                log.exception("listening to notices failed; listening again")
                self._listening.set()
                time.sleep(1.0)

    def _deliver(self, notices: list[tuple[str, int]]) -> None:
        for game, seq in notices:
            feed = self.feeds.get(game)
            if feed is not None:
                feed.hear(seq)

    async def frames(self, opened: sse.Opening, who: Perspective) -> AsyncIterator[bytes]:
        """The stream of ``who`` (already authenticated by ``sse.reader``), frame by frame, until the game ends."""
        await self.start()
        game = opened.game
        key = str(game)
        feed = self.feeds.get(key)
        if feed is None:
            feed = self.feeds[key] = Feed(self, game)
            self._watched = frozenset(self.feeds)
        feed.streams += 1  # listening before the view is read: nothing saved from now on is missed
        watch = self._store_watch
        watch.streams += 1
        try:
            await self.run(watch.mark)  # and watching the store from before the view, too
            sent = opened.last
            if sent is None:
                opening, sent, done = sse.view_frames(await self.run(self.service.view_as, game, who))
                yield "".join(opening).encode()  # one write for the view's frames
                if done:
                    return
            first = opened.last is not None  # a resumed stream's first read brings the view (?views=1)
            loop = asyncio.get_running_loop()
            got = await feed.read(who, sent, opened.views)
            while True:
                # what to send, worked out once per reader and seq for every stream here that shares the read
                now, chunk = got.step_for(who, sent, opened.views, first)
                first = False
                if chunk:
                    yield chunk  # one write per stream for all the events read, not one per event
                sent = now.sent
                if now.done:
                    return
                if now.behind:  # more than a batch behind
                    got = await feed.read(who, sent, opened.views)
                    continue
                news = await feed.news(who, sent, opened.views, loop.time() + self.keepalive)
                if news is None:
                    yield sse.KEEPALIVE_BYTES  # and read again: a lost notice delays an event by a keep-alive at most
                    news = await feed.read(who, sent, opened.views)
                got = news
        finally:
            watch.streams -= 1
            feed.streams -= 1
            if feed.streams == 0 and self.feeds.get(key) is feed:
                del self.feeds[key]
                self._watched = frozenset(self.feeds)
