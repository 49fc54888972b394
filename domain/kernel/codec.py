"""A ruleset's state as plain JSON data and back, for snapshots that do not need the event log.

Any ruleset whose state is made of dataclasses, lists, tuples, dicts, frozensets and JSON scalars can use it.
The classes a state may hold are named by the ruleset (``classes``), so decoding builds nothing else. Values the
state shares with the game's configuration are passed as ``externals`` and written as their name only.

What a snapshot keeps is what the state's equality compares: a dataclass field declared with ``compare=False``
is a cache (worked out again when asked) and is left out, as are fields equal to their declared default.

A field declared with ``metadata=INLINE`` holds a record (a dataclass made by the field's ``default_factory``)
whose fields are written among its owner's, as if they were the owner's own: a state split into records keeps the
stored form it had when its fields were all in one class, so snapshots written before and after read alike. The
record's field names must differ from its owner's and from those of the owner's other inline records.

Tagged forms (a dict with one ``$``-key): ``{"$": "Card", ...fields}`` a dataclass, ``{"$tuple": [...]}``,
``{"$frozenset": [...]}`` (sorted, so the same state always gives the same bytes), ``{"$map": [[k, v], ...]}``
a dict whose keys are not all strings or that has a key starting with ``$``, ``{"$ext": name}`` an external.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterable, Mapping
from types import MappingProxyType
from typing import Any

JSON_SCALARS = (str, int, float, bool, type(None))
INLINE: Mapping[str, Any] = MappingProxyType({"codec": "inline"})  # a field's metadata: its record's fields are the owner's


class Codec:
    def __init__(self, classes: Iterable[type], externals: Iterable[str] = ()):
        self.classes = {cls.__name__: cls for cls in classes}
        self.external_names = tuple(externals)
        self._fields = {cls: _stored_fields(cls) for cls in self.classes.values()}
        # a class with inline records: which record each of their stored keys goes to, and the records' classes
        self._inline = {cls: inline for cls in self.classes.values() if (inline := _inline_records(cls)) is not None}

    def encode(self, value: Any, externals: Mapping[str, Any]) -> Any:
        shared = {id(v): name for name, v in externals.items()}
        return self._encode(value, shared)

    def _encode(self, value: Any, shared: dict[int, str]) -> Any:
        if isinstance(value, JSON_SCALARS):
            return value
        name = shared.get(id(value))
        if name is not None:
            return {"$ext": name}
        if isinstance(value, list):
            return [self._encode(v, shared) for v in value]
        if isinstance(value, tuple):
            return {"$tuple": [self._encode(v, shared) for v in value]}
        if isinstance(value, frozenset):
            return {"$frozenset": _sorted([self._encode(v, shared) for v in value])}
        if isinstance(value, dict):
            if all(isinstance(k, str) and not k.startswith("$") for k in value):
                return {k: self._encode(v, shared) for k, v in value.items()}
            return {"$map": [[self._encode(k, shared), self._encode(v, shared)] for k, v in value.items()]}
        cls = type(value)
        fields = self._fields.get(cls)
        if fields is None or self.classes.get(cls.__name__) is not cls:
            raise TypeError(f"a state may not hold a {cls.__qualname__}: not among the codec's classes")
        out: dict[str, Any] = {"$": cls.__name__}
        self._encode_fields(value, fields, out, shared)
        return out

    def _encode_fields(
        self, value: Any, fields: list[tuple[str, Any, Any]], out: dict[str, Any], shared: dict[int, str]
    ) -> None:
        for field_name, default, record_fields in fields:
            v = getattr(value, field_name)
            if record_fields is not None:  # an inline record: its fields among the owner's
                self._encode_fields(v, record_fields, out, shared)
                continue
            if default is not _NO_DEFAULT and v == default and type(v) is type(default):
                continue
            out[field_name] = self._encode(v, shared)

    def decode(self, data: Any, externals: Mapping[str, Any]) -> Any:
        if isinstance(data, JSON_SCALARS):
            return data
        if isinstance(data, list):
            return [self.decode(v, externals) for v in data]
        if len(data) == 1:
            ((tag, inner),) = data.items()
            if tag == "$ext":
                return externals[inner]
            if tag == "$tuple":
                return tuple(self.decode(v, externals) for v in inner)
            if tag == "$frozenset":
                return frozenset(self.decode(v, externals) for v in inner)
            if tag == "$map":
                return {self.decode(k, externals): self.decode(v, externals) for k, v in inner}
        kind = data.get("$")
        if kind is None:
            return {k: self.decode(v, externals) for k, v in data.items()}
        cls = self.classes.get(kind)
        if cls is None:
            raise ValueError(f"a stored state names the class {kind!r}, which this ruleset does not have")
        inline = self._inline.get(cls)
        if inline is None:
            return cls(**{k: self.decode(v, externals) for k, v in data.items() if k != "$"})
        keys, records = inline
        kwargs: dict[str, Any] = {}
        parts: dict[str, dict[str, Any]] = {name: {} for name, _ in records}
        for k, v in data.items():
            if k != "$":
                owner = keys.get(k)
                (kwargs if owner is None else parts[owner])[k] = self.decode(v, externals)
        for name, record in records:
            kwargs[name] = record(**parts[name])
        return cls(**kwargs)


_NO_DEFAULT = object()


def _stored_fields(cls: type) -> list[tuple[str, Any, Any]]:
    """(name, default or _NO_DEFAULT, None) of each field the class's equality compares; for an inline record,
    (name, None, the record's own stored fields)."""
    if not dataclasses.is_dataclass(cls):
        raise TypeError(f"{cls.__qualname__} is not a dataclass")
    out: list[tuple[str, Any, Any]] = []
    for f in dataclasses.fields(cls):
        if not f.compare or not f.init:
            continue
        if f.metadata.get("codec") == "inline":
            out.append((f.name, None, _stored_fields(_record_class(cls, f))))
            continue
        if f.default is not dataclasses.MISSING:
            default = f.default
        elif f.default_factory is not dataclasses.MISSING:
            default = f.default_factory()
        else:
            default = _NO_DEFAULT
        out.append((f.name, default, None))
    return out


def _record_class(owner: type, f: dataclasses.Field[Any]) -> type:
    made = f.default_factory() if f.default_factory is not dataclasses.MISSING else None
    if made is None or not dataclasses.is_dataclass(made):
        raise TypeError(f"{owner.__qualname__}.{f.name}: an inline field needs a dataclass as its default_factory")
    if any(g.metadata.get("codec") == "inline" for g in dataclasses.fields(made)):
        raise TypeError(f"{owner.__qualname__}.{f.name}: an inline record may not hold inline records of its own")
    return type(made)


def _inline_records(cls: type) -> tuple[dict[str, str], list[tuple[str, type]]] | None:
    """For a class with inline records: each stored key that belongs to one, with the owner's field holding it,
    and each such field with its record's class (None: the class has none). No key may be stored twice."""
    records = [(f.name, _record_class(cls, f)) for f in dataclasses.fields(cls) if f.metadata.get("codec") == "inline"]
    if not records:
        return None
    keys: dict[str, str] = {}
    own = {f.name for f in dataclasses.fields(cls)}
    for name, record in records:
        for f in dataclasses.fields(record):
            if f.name in own or f.name in keys:
                raise TypeError(f"{cls.__qualname__}.{name}: {f.name!r} would be stored twice")
            keys[f.name] = name
    return keys, records


def _sorted(items: list[Any]) -> list[Any]:
    try:
        return sorted(items)
    except TypeError:  # not comparable with each other: by their JSON text
        return sorted(items, key=lambda v: json.dumps(v, sort_keys=True))
