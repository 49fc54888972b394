"""The event base: explicit, immutable event classes with a type name and a per-game ``seq``.

A ruleset declares one frozen dataclass per event type. Each class names its redaction needs:
``PRIVATE`` maps a field to the field that lists the seats allowed to see it, and ``SECRET`` lists
fields that nobody sees until the game is over (deck orders, the seed, fresh card ids).
"""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass
from typing import Any, ClassVar

_REGISTRY: dict[str, type[Event]] = {}


@dataclass(frozen=True, kw_only=True)
class Event:
    """Base of every domain event. ``seq`` is assigned when the event joins a game's log."""

    seq: int = 0

    TYPE: ClassVar[str] = ""
    PRIVATE: ClassVar[dict[str, str]] = {}
    SECRET: ClassVar[tuple[str, ...]] = ()

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        name = cls.__dict__.get("TYPE") or cls.__name__
        cls.TYPE = name
        if name in _REGISTRY and _REGISTRY[name] is not cls:
            raise TypeError(f"event type {name!r} is declared twice")
        _REGISTRY[name] = cls

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": self.TYPE, "seq": self.seq}
        for f in dataclasses.fields(self):
            if f.name != "seq":
                out[f.name] = getattr(self, f.name)
        return out

    def with_seq(self, seq: int) -> Event:
        """A copy numbered ``seq`` (the event itself when it is not numbered yet: a fresh event joins a log once)."""
        if self.seq == 0:
            object.__setattr__(self, "seq", seq)
            return self
        return dataclasses.replace(self, seq=seq)


def event_class(type_name: str) -> type[Event]:
    try:
        return _REGISTRY[type_name]
    except KeyError:
        raise KeyError(f"unknown event type {type_name!r}") from None


def event_from_dict(data: dict[str, Any]) -> Event:
    """Rebuild an event from ``to_dict`` output (for example after a JSON round trip)."""
    cls = event_class(data["type"])
    kwargs = {k: v for k, v in data.items() if k != "type"}
    return cls(**kwargs)


def canonical_json(value: Any) -> str:
    """One byte-for-byte encoding for hashing and comparing event logs."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
