"""The event base: explicit, immutable event classes with a type name and a per-game ``seq``.

A ruleset declares one class per event type with ``@event`` (a frozen, keyword-only dataclass). Each class names
its redaction needs:
``PRIVATE`` maps a field to the field that lists the seats allowed to see it, and ``SECRET`` lists
fields that nobody sees until the game is over (deck orders, the seed, fresh card ids).
"""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass
from typing import Any, ClassVar, TypeVar, dataclass_transform

_REGISTRY: dict[str, type[Event]] = {}
_FIELD_NAMES: dict[type[Event], tuple[str, ...]] = {}  # each event class's fields but ``seq``, in order (``to_dict``)
T = TypeVar("T")


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
        cls = type(self)
        names = _FIELD_NAMES.get(cls)
        if names is None:  # once per class: ``dataclasses.fields`` builds its list on every call
            names = _FIELD_NAMES[cls] = tuple(f.name for f in dataclasses.fields(cls) if f.name != "seq")
        out: dict[str, Any] = {"type": self.TYPE, "seq": self.seq}
        for name in names:
            out[name] = getattr(self, name)
        return out

    def with_seq(self, seq: int) -> Event:
        """A copy numbered ``seq`` (the event itself when it is not numbered yet: a fresh event joins a log once)."""
        if self.seq == 0:
            self.__dict__["seq"] = seq  # once, before anyone else holds it: what the frozen class forbids later
            return self
        return dataclasses.replace(self, seq=seq)


@dataclass_transform(kw_only_default=True, frozen_default=True, field_specifiers=(dataclasses.field,))
def event(cls: type[T]) -> type[T]:
    """Declare an event class: a frozen, keyword-only dataclass (its fields cannot be changed once made). Its
    constructor writes the fields straight into the instance's dict: the dataclass's own frozen constructor sets
    each field through ``object.__setattr__``, which doubled the cost of making an event, and the engine makes
    one per event it decides."""
    made = dataclass(frozen=True, kw_only=True)(cls)
    made.__init__ = quick_init(made)  # type: ignore[method-assign]
    return made


_NOT_GIVEN = object()


def quick_init(cls: type[Any], kw_only: bool = True) -> Any:
    """The constructor of the frozen dataclass ``cls``, storing its fields straight in the instance's dict (the
    same signature, defaults and default factories as the dataclass's own): for events (keyword-only), and for
    other frozen records a ruleset makes by the dozen (``kw_only=False``: positional arguments too)."""
    namespace: dict[str, Any] = {"_NOT_GIVEN": _NOT_GIVEN}
    params, body = [], []
    for f in dataclasses.fields(cls):
        if f.default is not dataclasses.MISSING:
            namespace[f"_default_{f.name}"] = f.default
            params.append(f"{f.name}=_default_{f.name}")
        elif f.default_factory is not dataclasses.MISSING:
            namespace[f"_factory_{f.name}"] = f.default_factory
            params.append(f"{f.name}=_NOT_GIVEN")
            body.append(f"    if {f.name} is _NOT_GIVEN:\n        {f.name} = _factory_{f.name}()")
        else:
            params.append(f.name)
    # each field stored in the instance's dict in turn: cheaper than building a keyword dict for dict.update
    body.append("    own__ = self.__dict__")  # a local name no event field takes, as none takes "self"
    body.extend(f"    own__[{f.name!r}] = {f.name}" for f in dataclasses.fields(cls))
    source = f"def __init__(self, {'*, ' if kw_only else ''}{', '.join(params)}):\n" + "\n".join(body)
    exec(source, namespace)
    init = namespace["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    return init


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
