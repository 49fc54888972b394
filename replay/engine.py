"""Rewind a game to any step: the state after event ``seq``, cheaply, forward and back.

A ``Replay`` folds the log once and keeps a checkpoint (a copy of the state) every ``every`` events;
the state at any step is the nearest checkpoint at or before it plus at most ``every - 1`` events.
Pure: it works on a ruleset, a configuration and the events, and does no I/O.
"""

from __future__ import annotations

import bisect
from collections.abc import Sequence
from typing import Any

from aegis.domain.kernel.events import Event
from aegis.domain.kernel.ruleset import Ruleset

CHECKPOINT_EVERY = 64


class Replay:
    def __init__(self, rules: Ruleset, config: Any, events: Sequence[Event], every: int = CHECKPOINT_EVERY):
        if every < 1:
            raise ValueError("checkpoints need a positive interval")
        self.rules = rules
        self.config = config
        self.events = list(events)
        self.every = every
        state = rules.fold(config, [])
        self._steps = [0]
        self._states = [rules.clone(state)]
        for i, e in enumerate(self.events, start=1):
            rules.apply(state, e)
            if i % every == 0:
                self._steps.append(i)
                self._states.append(rules.clone(state))
        self.final = state

    @property
    def steps(self) -> int:
        return len(self.events)

    def state_at(self, step: int) -> Any:
        """The state after the first ``step`` events (0: before any), as a new object."""
        if not 0 <= step <= self.steps:
            raise IndexError(f"step {step} is outside 0..{self.steps}")
        if step == self.steps:
            return self.rules.clone(self.final)
        i = bisect.bisect_right(self._steps, step) - 1
        state = self.rules.clone(self._states[i])
        for e in self.events[self._steps[i] : step]:
            self.rules.apply(state, e)
        return state

    def refold(self, step: int) -> Any:
        """The same state, folded from the first event (the baseline a checkpointed seek is measured against)."""
        return self.rules.fold(self.config, self.events[:step])
