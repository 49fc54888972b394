"""A small progress bar on standard error (no dependency needed)."""

from __future__ import annotations

import sys
import time
from typing import TextIO


class Progress:
    def __init__(self, total: int, label: str, stream: TextIO | None = None, width: int = 30):
        self.total = max(total, 1)
        self.label = label
        self.stream = stream or sys.stderr
        self.width = width
        self.started = time.monotonic()
        self._last = 0.0

    def __call__(self, done: int, total: int | None = None) -> None:
        now = time.monotonic()
        if done < self.total and now - self._last < 0.1:
            return
        self._last = now
        frac = done / self.total
        filled = int(self.width * frac)
        elapsed = now - self.started
        rate = done / elapsed if elapsed > 0 else 0.0
        eta = (self.total - done) / rate if rate > 0 else 0.0
        bar = "#" * filled + "-" * (self.width - filled)
        self.stream.write(f"\r{self.label} [{bar}] {done}/{self.total} {rate:.1f}/s eta {eta:.0f}s ")
        if done >= self.total:
            self.stream.write("\n")
        self.stream.flush()
