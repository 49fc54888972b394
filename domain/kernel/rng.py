"""A seeded, counter-based random source.

Every outcome is a pure function of ``(seed, counter)``: SHA-256 over ``"<seed>:<counter>"``. The game
records the counter before and after each random outcome in the event that carries it, so anyone
holding the seed (published when the game ends) can recompute every shuffle and draw, and a replay
never rolls again. Python's ``random`` module is not used, so results do not depend on its version.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from typing import TypeVar

T = TypeVar("T")

_SPAN = 1 << 64


def commitment_of(seed: str) -> str:
    """The SHA-256 hex digest published at game start; the seed itself stays secret until the end."""
    return hashlib.sha256(seed.encode("utf-8")).hexdigest()


def mix_seed(secret: str, contributions: Mapping[str, str]) -> str:
    """The seed of a game whose shuffles nobody can know in advance: the server's ``secret`` (committed to before
    anyone contributes) mixed with every participant's contribution (the creator's seed, each seat's entropy),
    as provably fair card sites do. Without the secret no contribution, or set of them, tells a draw; with
    the secret revealed after the game anyone can recompute the seed and every shuffle from it."""
    parts = json.dumps({"secret": secret, "contributions": dict(contributions)}, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(b"aegis-seed/1\n" + parts.encode("utf-8")).hexdigest()


class SeededRng:
    """Deterministic random numbers from a secret seed and a position in its stream."""

    __slots__ = ("counter", "seed")

    def __init__(self, seed: str, counter: int = 0):
        self.seed = seed
        self.counter = counter

    def _block(self, label: str) -> bytes:
        data = f"{self.seed}:{label}{self.counter}".encode()
        self.counter += 1
        return hashlib.sha256(data).digest()

    def below(self, n: int) -> int:
        """A uniform integer in ``range(n)`` (rejection sampling, so there is no modulo bias)."""
        if n <= 0:
            raise ValueError("below() needs a positive bound")
        limit = _SPAN - (_SPAN % n)
        while True:
            x = int.from_bytes(self._block("")[:8], "big")
            if x < limit:
                return x % n

    def shuffle(self, items: list[T]) -> list[T]:
        """A new list: Fisher-Yates over ``items`` driven by this stream."""
        out = list(items)
        for i in range(len(out) - 1, 0, -1):
            j = self.below(i + 1)
            out[i], out[j] = out[j], out[i]
        return out

    def token(self, label: str, length: int = 8) -> str:
        """An opaque hex token (for card ids) that cannot be predicted without the seed."""
        return self._block(label + ":").hex()[:length]
