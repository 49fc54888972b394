"""Many event streams (``GET /api/games/{id}/stream``) held at once by one asyncio process over raw sockets: no
thread and no HTTP library per stream, so a couple of thousand cost the benchmark little CPU. The ``streams`` suite
(``benchmarks/streams.py``) runs this module as a process of its own, apart from the bots it times (in the bots'
process its parsing would take the interpreter lock from them, and their latency would show it):

    python -m benchmarks.sseclient

It reads JSON lines on stdin and answers JSON lines on stdout:

1. ``{"port": P, "streams": [[game, token or null], ...], "opening": K}``: open every stream, at most K opening at
   a time (connect, request, the ``view`` frame), then answer ``{"opened": n, "failed": n, "open_s": wall seconds,
   "open_latency_s": [...], "errors": [...], "nofile": [soft, hard]}``; the streams stay open and keep reading.
2. ``{"finish": S}``: wait up to S seconds for every stream to end (``event: end``, then the server closes it),
   close the rest, and answer ``{"streams": [{"game", "view_seq", "seqs", "end", "keepalives", "error"}], "cpu_s"}``:
   the ``id`` of every event frame each stream got, in the order it got them. Frames are not parsed as JSON: only
   their ``id:`` and ``event:`` lines are read.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import resource
import sys
import time
from dataclasses import dataclass, field
from typing import Any

OPEN_SECONDS = 60.0  # connect + request + the view frame, for one stream, beyond which it counts as failed


def raise_nofile() -> tuple[int, int]:
    """Raise this process's open-file limit to its hard limit (each stream is a socket); the limits after."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY or soft < hard:
        want = hard if hard != resource.RLIM_INFINITY else max(soft, 65536)
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (want, hard))
    return resource.getrlimit(resource.RLIMIT_NOFILE)


@dataclass
class Stream:
    game: str
    token: str | None
    view_seq: int | None = None
    seqs: list[int] = field(default_factory=list)
    end: int | None = None
    keepalives: int = 0
    error: str | None = None
    opened: asyncio.Event = field(default_factory=asyncio.Event)
    open_s: float | None = None
    writer: asyncio.StreamWriter | None = None

    def frame(self, text: bytes) -> None:
        """One SSE frame (its lines, without the blank line that ends it)."""
        seq: int | None = None
        event = b""
        comment = False
        for line in text.split(b"\n"):
            if line.startswith(b"id:"):
                seq = int(line[3:])
            elif line.startswith(b"event:"):
                event = line[6:].strip()
            elif line.startswith(b":"):
                comment = True
        if event == b"view":
            self.view_seq = seq
            self.opened.set()
        elif event == b"end":
            self.end = json.loads(text.split(b"data:", 1)[1])["seq"]
        elif seq is not None:
            self.seqs.append(seq)
        elif comment:
            self.keepalives += 1

    async def hold(self, port: int, began: float) -> None:
        """Open the stream and read it until the server closes it (or this task is cancelled)."""
        try:
            reader, writer = await asyncio.open_connection("127.0.0.1", port, limit=2**22)
            self.writer = writer
            auth = f"Authorization: Bearer {self.token}\r\n" if self.token else ""
            request = f"GET /api/games/{self.game}/stream HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n{auth}\r\n"
            writer.write(request.encode())
            status = (await reader.readline()).split()
            chunked = False
            length = 0
            while (line := await reader.readline()) not in (b"\r\n", b"\n", b""):
                name, _, value = line.decode("latin-1").partition(":")
                if name.strip().lower() == "transfer-encoding" and "chunked" in value.lower():
                    chunked = True
                elif name.strip().lower() == "content-length":
                    length = int(value.strip())
            if len(status) < 2 or status[1] != b"200":
                body = await reader.read(length) if length else b""
                self.error = f"answered {b' '.join(status[1:]).decode()}: {body[:200].decode(errors='replace')}"
                return
            buffer = b""
            while True:
                if chunked:
                    size = int((await reader.readline()).split(b";")[0] or b"0", 16)
                    if size == 0:
                        break
                    data = await reader.readexactly(size)
                    await reader.readexactly(2)
                else:
                    data = await reader.read(65536)
                    if not data:
                        break
                buffer += data
                while b"\n\n" in buffer:
                    text, buffer = buffer.split(b"\n\n", 1)
                    self.frame(text)
                    if self.open_s is None and self.view_seq is not None:
                        self.open_s = time.perf_counter() - began
            if self.end is None:
                self.error = "the server closed the stream before its end"
        except asyncio.CancelledError:
            raise
        except (OSError, asyncio.IncompleteReadError, ValueError) as err:
            self.error = f"{type(err).__name__}: {err}"
        finally:
            self.opened.set()
            if self.writer is not None:
                self.writer.close()

    def result(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "view_seq": self.view_seq,
            "seqs": self.seqs,
            "end": self.end,
            "keepalives": self.keepalives,
            "error": self.error or (None if self.end is not None else "still open, with no end, when told to finish"),
        }


async def _line() -> dict[str, Any]:
    text = await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)
    if not text:
        raise SystemExit(0)  # the benchmark went away
    parsed: dict[str, Any] = json.loads(text)
    return parsed


def _answer(data: dict[str, Any]) -> None:
    sys.stdout.write(json.dumps(data) + "\n")
    sys.stdout.flush()


async def main() -> None:
    nofile = raise_nofile()
    spec = await _line()
    port, opening = int(spec["port"]), int(spec.get("opening", 64))
    streams = [Stream(game, token) for game, token in spec["streams"]]
    gate = asyncio.Semaphore(opening)
    tasks: list[asyncio.Task[None]] = []
    t0 = time.perf_counter()

    async def open_one(stream: Stream) -> None:
        async with gate:
            began = time.perf_counter()
            tasks.append(asyncio.create_task(stream.hold(port, began)))
            try:
                await asyncio.wait_for(stream.opened.wait(), OPEN_SECONDS)
            except TimeoutError:
                stream.error = stream.error or f"no view within {OPEN_SECONDS:g} s"

    await asyncio.gather(*(open_one(s) for s in streams))
    open_s = time.perf_counter() - t0
    failed = [s for s in streams if s.view_seq is None]
    _answer(
        {
            "opened": len(streams) - len(failed),
            "failed": len(failed),
            "open_s": open_s,
            "open_latency_s": [s.open_s for s in streams if s.open_s is not None],
            "errors": sorted({str(s.error) for s in failed})[:5],
            "nofile": list(nofile),
        }
    )
    finish = await _line()
    pending = [t for t in tasks if not t.done()]
    if pending:
        await asyncio.wait(pending, timeout=float(finish.get("finish", 30)))
    for t in tasks:
        t.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    usage = resource.getrusage(resource.RUSAGE_SELF)
    _answer({"streams": [s.result() for s in streams], "cpu_s": usage.ru_utime + usage.ru_stime})


if __name__ == "__main__":
    asyncio.run(main())
