"""How a background loop retries something that does not answer (Redis, the event store), and what it logs meanwhile.

A process retried its subscription to the notices every 0.5 s and its projection step every second while Redis was
away, each time with a warning: three lines a second per process, for as long as the outage lasted. ``Outage``
spaces the attempts out (``FIRST`` seconds, doubling up to ``LONGEST``; back to ``FIRST`` after a success) and
logs the first failure, then a "still failing" line at growing intervals (``REPORT_FIRST`` seconds after the first,
doubling up to ``REPORT_LONGEST``), and one line when it works again.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable

FIRST, LONGEST = 0.5, 30.0  # seconds between attempts: the first wait, doubling up to this
REPORT_FIRST, REPORT_LONGEST = 10.0, 600.0  # seconds between "still failing" lines: the first, doubling up to this


class Outage:
    def __init__(
        self,
        log: logging.Logger,
        what: str,
        *,
        first: float = FIRST,
        longest: float = LONGEST,
        clock: Callable[[], float] = time.monotonic,
    ):
        self.log = log
        self.what = what  # e.g. "cannot listen to every game's notices"
        self.first, self.longest = first, longest
        self.clock = clock
        self.failures = 0  # attempts failed since the last success
        self._lock = threading.Lock()
        self._since = 0.0  # when the first of them failed
        self._wait = first
        self._next_try = 0.0
        self._next_report = 0.0
        self._report_every = REPORT_FIRST

    def due(self) -> float:
        """Seconds until the next attempt may be made (0: now)."""
        return max(0.0, self._next_try - self.clock()) if self.failures else 0.0

    def failed(self, err: BaseException) -> float:
        """An attempt failed: logs it if it is time to, and returns the seconds to wait before the next one."""
        with self._lock:
            now = self.clock()
            self.failures += 1
            if self.failures == 1:
                self._since, self._wait = now, self.first
                self._report_every = REPORT_FIRST
                self._next_report = now + self._report_every
                again = f"trying again in {self._wait:g} s, then less often (every {self.longest:g} s at most)"
                line = f"{self.what}: {_words(err)}; {again}"
            else:
                self._wait = min(2 * self._wait, self.longest)
                line = None
                if now >= self._next_report:
                    line = f"{self.what}: still failing after {now - self._since:.0f} s ({self.failures} attempts): {_words(err)}"
                    self._report_every = min(2 * self._report_every, REPORT_LONGEST)
                    self._next_report = now + self._report_every
            self._next_try = now + self._wait
            wait = self._wait
        if line is not None:
            self.log.warning("%s", line)
        return wait

    def succeeded(self) -> None:
        """An attempt worked: one line if it had been failing, and the next failure starts over."""
        if not self.failures:
            return
        with self._lock:
            if not self.failures:
                return
            seconds, failures = self.clock() - self._since, self.failures
            self.failures = 0
        self.log.warning("%s: works again after %.0f s (%s attempts failed)", self.what, seconds, failures)


def _words(err: BaseException) -> str:
    text = " ".join(str(err).split())
    return f"{type(err).__name__}: {text}" if text else type(err).__name__
