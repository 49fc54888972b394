"""The ``seek`` suite: jump to random steps of one long finished game (at least 5,000 events) with the
replay engine's checkpoints, against folding from the first event, in the same run."""

from __future__ import annotations

import random
import time
from typing import Any

from aegis.domain.everaegis.config import make_config
from aegis.domain.everaegis.ruleset import RULESET
from aegis.domain.everaegis.simulation import play_game
from aegis.replay.engine import Replay
from benchmarks.loadgen import percentile

MIN_EVENTS = 5000
MAX_EVENTS = 8000


def _long_game() -> tuple[Any, Any]:
    """The first finished 10-seat game (seeds ``seek/0``, ``seek/1``, ...) of 5,000 to 8,000 events."""
    for i in range(200):
        game = play_game(seats=10, variants="simpleton", seed=f"seek/{i}", bots=["cautious", "random"], max_turns=1500)
        if game.finished and MIN_EVENTS <= len(game.events) <= MAX_EVENTS:
            return game, make_config(seats=10, variants="simpleton", reaction_seconds=0)
    raise RuntimeError(f"no finished game of {MIN_EVENTS} to {MAX_EVENTS} events in 200 seeds")


def seek(seeks: int = 200) -> dict[str, Any]:
    game, config = _long_game()
    t0 = time.perf_counter()
    replay = Replay(RULESET, config, game.events)
    built = time.perf_counter() - t0
    rng = random.Random(7)
    steps = [rng.randrange(replay.steps + 1) for _ in range(seeks)]
    with_checkpoints, refolds = [], []
    for step in steps:
        t = time.perf_counter()
        replay.state_at(step)
        with_checkpoints.append(time.perf_counter() - t)
        t = time.perf_counter()
        replay.refold(step)
        refolds.append(time.perf_counter() - t)
    ms = 1000
    return {
        "suite": "seek",
        "events": replay.steps,
        "seed": game.seed,
        "seeks": seeks,
        "build_ms": built * ms,
        "checkpoint_p50_ms": percentile(with_checkpoints, 50) * ms,
        "checkpoint_p99_ms": percentile(with_checkpoints, 99) * ms,
        "refold_p50_ms": percentile(refolds, 50) * ms,
        "refold_p99_ms": percentile(refolds, 99) * ms,
        "speedup_p50": percentile(refolds, 50) / percentile(with_checkpoints, 50),
    }


def print_seek(r: dict[str, Any]) -> None:
    print(f"seek: {r['seeks']} random steps of one finished game of {r['events']} events (seed {r['seed']})")
    print(f"  checkpoints every 64 events: p50 {r['checkpoint_p50_ms']:.2f} ms  p99 {r['checkpoint_p99_ms']:.2f} ms")
    print(f"  refold from the first event: p50 {r['refold_p50_ms']:.2f} ms  p99 {r['refold_p99_ms']:.2f} ms")
    print(f"  checkpoints are {r['speedup_p50']:.0f}x faster at the median; building them took {r['build_ms']:.0f} ms")
