"""Schemas the OpenAPI document takes from the hosted rulesets' own declarations, never written out twice:

- one command schema per command type a seat may send, from the ruleset's decision kinds
  (``domain.kernel.decisions``): its required ``fields``, ``optional`` fields, their ``docs`` and its
  ``summary``; an older type (an alias) is documented as deprecated, with the fields of every kind it may
  answer. ``CommandIn`` is their ``oneOf``, told apart by ``type``.
- the ruleset's own fields of a game's creation (``Ruleset.shapes``): ``POST /api/games`` checks them against the
  ruleset's JSON Schema (with the ``jsonschema`` library; a whole number is an integer, 3.0 is not) and the document
  shows them beside the service's own; the ruleset's named schemas (its table, a rigged position) are components.
- one event schema per event class (``domain.kernel.events``): its dataclass fields with their types, every
  field required but those a reader may not be shown (``PRIVATE`` and ``SECRET``). ``EventOut`` is their
  ``oneOf``, told apart by ``type``.
"""

from __future__ import annotations

import dataclasses
import functools
import json
import types
import typing
from collections.abc import Iterable, Mapping
from typing import Any

from jsonschema import Draft202012Validator, validators
from jsonschema.protocols import Validator

from aegis.domain.kernel.decisions import MISSING, NOT_VALID, UNKNOWN, DecisionKind, FieldType, Registry
from aegis.domain.kernel.events import Event
from aegis.domain.kernel.shapes import Shapes

JSON_TYPES: dict[type, str] = {str: "string", int: "integer", float: "number", bool: "boolean", list: "array", dict: "object"}
REF = "#/components/schemas/"
ENVELOPE: dict[str, dict[str, Any]] = {
    "seat": {
        "type": "integer",
        "minimum": 0,
        "description": "optional: the server takes your seat from your token; if given, it must be that seat (else 403)",
    },
    "expected_seq": {
        "type": "integer",
        "minimum": 0,
        "description": "optional: refuse with 409 unless the game is at this seq (nothing happened since you looked)",
    },
}


# ----- a game's creation: the ruleset's fields -----


def _whole_number(checker: Any, instance: Any) -> bool:
    return isinstance(instance, int) and not isinstance(instance, bool)  # JSON Schema's own would take 3.0


_Checking = validators.extend(
    Draft202012Validator, type_checker=Draft202012Validator.TYPE_CHECKER.redefine("integer", _whole_number)
)


def creation_object(shapes: Shapes) -> dict[str, Any]:
    """The ruleset's fields of a game's creation as one JSON Schema object (refusing any other field)."""
    return {
        "type": "object",
        "properties": dict(shapes.creation["properties"]),
        "required": list(shapes.creation.get("required", [])),
        "additionalProperties": False,
    }


@functools.cache
def _checker(shapes: Shapes) -> Validator:
    root = {**creation_object(shapes), "components": {"schemas": dict(shapes.components)}}  # what "$ref"s point into
    checker: Validator = _Checking(root)
    return checker


# What the rules check themselves and refuse naming the rule (a seat beyond the table, an option out of its range): a
# value of the right type outside a documented range goes to them first (``api/games.py``).
RANGES = frozenset({"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "uniqueItems", "additionalProperties"})


_JSON_TYPES = {"integer": int, "number": float, "string": str, "boolean": bool, "array": list, "object": dict}


def _said(validator: Any, message: str, expected: Any) -> str:
    """A value of the wrong type is said in the words every other field's error uses ("Not a valid integer."), not in
    the validator's ("'3' is not of type 'integer'")."""
    if validator == "type" and isinstance(expected, str) and expected in _JSON_TYPES:
        return NOT_VALID[_JSON_TYPES[expected]]
    return message


def creation_errors(shapes: Shapes, given: dict[str, Any]) -> tuple[dict[str, list[str]], dict[str, list[str]]]:
    """How ``given``, the fields of a game's creation that are not the service's own, misses the ruleset's declared
    shape, by field: (errors of type, form or name; values outside a documented range)."""
    shape: dict[str, list[str]] = {}
    ranges: dict[str, list[str]] = {}
    properties = shapes.creation["properties"]
    for error in _checker(shapes).iter_errors(given):
        path = [str(p) for p in error.absolute_path]
        if not path and error.validator == "additionalProperties":
            for name in sorted(set(given) - set(properties)):
                shape.setdefault(name, []).append(UNKNOWN)
        elif not path and error.validator == "required":
            for name in shapes.creation.get("required", []):
                if name not in given:
                    shape.setdefault(name, []).append(MISSING)
        else:
            where = f"{'.'.join(path[1:])}: " if len(path) > 1 else ""
            found = ranges if error.validator in RANGES else shape
            said = _said(error.validator, error.message, error.validator_value)
            found.setdefault(path[0] if path else "_schema", []).append(where + said)
    return shape, ranges


def by_ruleset(found: Mapping[str, dict[str, Any]]) -> dict[str, Any]:
    """One schema for a field or command that the hosted rulesets (``found``: ruleset name -> its schema) declare
    alike, else any of theirs, each ruleset's words kept: a request is checked against its own ruleset's."""
    unique: list[dict[str, Any]] = []
    for schema in found.values():
        if schema not in unique:
            unique.append(schema)
    if len(unique) == 1:
        return unique[0]
    said = "; ".join(f"{name}: {schema.get('description', 'no description')}" for name, schema in found.items())
    return {"anyOf": unique, "description": f"by ruleset ({said})"}


def creation_document(service_fields: dict[str, Any], hosted: Mapping[str, Shapes]) -> dict[str, Any]:
    """The document of a game's creation: the service's fields (``CreateGameIn``) with every hosted ruleset's (a
    field two rulesets declare differently: either, by ruleset; each game is checked against its own ruleset's)."""
    out = {**service_fields, "properties": dict(service_fields.get("properties", {}))}
    fields: dict[str, dict[str, dict[str, Any]]] = {}
    for ruleset, shapes in hosted.items():
        for name, schema in shapes.creation["properties"].items():
            fields.setdefault(name, {})[ruleset] = schema
    for name, found in fields.items():
        if name in out["properties"] and any(schema != out["properties"][name] for schema in found.values()):
            raise ValueError(f"the creation field {name!r} is the service's own: a ruleset may not declare it otherwise")
        out["properties"][name] = by_ruleset(found)
    required = list(service_fields.get("required", []))
    for name in fields:  # required in the document only where every hosted ruleset requires it
        if name not in required and all(name in shapes.creation.get("required", []) for shapes in hosted.values()):
            required.append(name)
    return {**out, "required": required, "additionalProperties": False}


def components(every: Iterable[Shapes]) -> dict[str, dict[str, Any]]:
    """Every hosted ruleset's named schemas; a name two rulesets both use must mean the same schema."""
    out: dict[str, dict[str, Any]] = {}
    for shapes in every:
        for name, schema in shapes.components.items():
            if out.setdefault(name, dict(schema)) != schema:
                raise ValueError(f"the schema {name!r} means different things in two rulesets")
    return out


# ----- commands -----


def _camel(name: str) -> str:
    return "".join(part[:1].upper() + part[1:] for part in name.split("_"))


def command_schema_name(command_type: str) -> str:
    """``declare`` -> ``DeclareCommand``, ``take_brig`` -> ``TakeBrigCommand``."""
    return _camel(command_type) + "Command"


def _type_schema(type_: FieldType) -> dict[str, Any]:
    names = [JSON_TYPES[t] for t in (type_ if isinstance(type_, tuple) else (type_,))]
    if "number" in names and "integer" in names:
        names.remove("integer")  # an int is a number
    return {"type": names[0] if len(names) == 1 else names}


def _field_schema(kind: DecisionKind, name: str, type_: FieldType) -> dict[str, Any]:
    return {**_type_schema(type_), **kind.docs.get(name, {})}


def _own_fields(kind: DecisionKind) -> dict[str, dict[str, Any]]:
    every = {**kind.fields, **kind.optional}
    return {name: _field_schema(kind, name, type_) for name, type_ in every.items()}


def _command(command_type: str, description: str, fields: dict[str, dict[str, Any]], required: list[str]) -> dict[str, Any]:
    kind_field = {
        "type": "string",
        "const": command_type,
        "default": command_type,
        "description": "the command type: the kind of the prompt it answers",
    }
    return {
        "type": "object",
        "description": description,
        "properties": {"type": kind_field, **ENVELOPE, **fields},
        "required": ["type", *required],
        "additionalProperties": False,
    }


def _kind_schema(kind: DecisionKind) -> dict[str, Any]:
    how = "sent at any moment, never offered by a prompt" if kind.handle is not None else f"answers a '{kind.kind}' prompt"
    description = f"{kind.summary or kind.kind} ({kind.rule}; {how}). Refused unless: {kind.refusal}."
    return _command(kind.kind, description, _own_fields(kind), list(kind.fields))


def _alias_schema(command_type: str, kinds: list[DecisionKind]) -> dict[str, Any]:
    """An older type: every field of the kinds it may answer (one schema per field where they differ), required
    where every kind requires it."""
    fields: dict[str, list[dict[str, Any]]] = {}
    for kind in kinds:
        for name, schema in _own_fields(kind).items():
            known = fields.setdefault(name, [])
            if all(json.dumps(s, sort_keys=True) != json.dumps(schema, sort_keys=True) for s in known):
                known.append(schema)
    merged = {name: found[0] if len(found) == 1 else {"anyOf": found} for name, found in fields.items()}
    required = [name for name in kinds[0].fields if all(name in k.fields for k in kinds)]
    names = ", ".join(k.kind for k in kinds)
    description = f"Deprecated: the older type of {names}, still accepted where one of them is asked; send the prompt's own kind."
    return {**_command(command_type, description, merged, required), "deprecated": True}


def command_schemas(registries: Mapping[str, Registry]) -> dict[str, dict[str, Any]]:
    """Every command type a seat may send (the service's own are left out), by schema name, in the order the
    rulesets (``registries``: by ruleset name) declare them; a type two rulesets declare differently (``resign``,
    which every ruleset takes) is documented as either's."""
    found: dict[str, dict[str, dict[str, Any]]] = {}
    for ruleset, registry in registries.items():
        for command_type in registry.command_types:
            kinds = [k for k in registry.answering(command_type) if not k.system]
            if kinds:
                schema = _kind_schema(kinds[0]) if command_type in registry else _alias_schema(command_type, kinds)
                found.setdefault(command_schema_name(command_type), {})[ruleset] = schema
    return {name: _either_command(by) for name, by in found.items()}


def _either_command(by: Mapping[str, dict[str, Any]]) -> dict[str, Any]:
    """One command type's schema across the rulesets that declare it: every field (either ruleset's where they
    differ), required where all require it, each ruleset's words."""
    schemas = list(by.values())
    if all(schema == schemas[0] for schema in schemas):
        return schemas[0]
    names = list(dict.fromkeys(name for schema in schemas for name in schema["properties"]))
    properties = {
        name: by_ruleset({ruleset: s["properties"][name] for ruleset, s in by.items() if name in s["properties"]})
        for name in names
    }
    required = [name for name in schemas[0]["required"] if all(name in s["required"] for s in schemas)]
    said = "; ".join(f"{ruleset}: {schema['description']}" for ruleset, schema in by.items())
    out = {**schemas[0], "description": f"by ruleset ({said})", "properties": properties, "required": required}
    if not all(schema.get("deprecated") for schema in schemas):
        out.pop("deprecated", None)
    return out


def command_in(schemas: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """The body of ``POST /api/games/{id}/commands``: one of the command schemas, by its ``type``."""
    mapping = {schema["properties"]["type"]["const"]: REF + name for name, schema in schemas.items()}
    older = [schema["properties"]["type"]["const"] for schema in schemas.values() if schema.get("deprecated")]
    return {
        "description": "A command: a prompt option's command as is, or with each of its params set to picked values "
        "(a list when the param's max is above 1); or resign at any moment. The envelope fields seat and "
        "expected_seq are optional. Each type has its own schema"
        + (f"; the older types ({', '.join(older)}) are deprecated." if older else "."),
        "oneOf": [{"$ref": ref} for ref in mapping.values()],
        "discriminator": {"propertyName": "type", "mapping": mapping},
    }


# ----- events -----


def _python_schema(annotation: Any) -> dict[str, Any]:
    """A field's JSON Schema from its type annotation (int, str, list[...], dict[str, ...], X | None, Any)."""
    if annotation is Any:
        return {}
    origin = typing.get_origin(annotation)
    if origin in (types.UnionType, typing.Union):
        options = [a for a in typing.get_args(annotation) if a is not type(None)]
        inner = _python_schema(options[0]) if len(options) == 1 else {"anyOf": [_python_schema(a) for a in options]}
        if set(inner) == {"type"} and isinstance(inner["type"], str):
            return {"type": [inner["type"], "null"]}
        return {"anyOf": [inner, {"type": "null"}]}
    if origin is list:
        (item,) = typing.get_args(annotation)
        return {"type": "array", "items": _python_schema(item)}
    if origin is dict:
        _, value = typing.get_args(annotation)
        return {"type": "object", "additionalProperties": _python_schema(value)}
    if annotation in JSON_TYPES:
        return {"type": JSON_TYPES[annotation]}
    raise TypeError(f"no JSON Schema for the event field type {annotation!r}")


def event_schema_name(cls: type[Event]) -> str:
    return cls.TYPE + "Event"


def _event_schema(cls: type[Event]) -> dict[str, Any]:
    hints = typing.get_type_hints(cls)
    hidden = set(cls.PRIVATE) | set(cls.SECRET)
    props: dict[str, Any] = {
        "type": {"type": "string", "const": cls.TYPE, "default": cls.TYPE},
        "seq": {"type": "integer", "minimum": 1, "description": "the event's place in the game's log, from 1"},
    }
    for f in dataclasses.fields(cls):
        if f.name != "seq":
            props[f.name] = _python_schema(hints[f.name])
    for name, audience in cls.PRIVATE.items():
        props[name]["description"] = f"only for the seats in '{audience}' (everyone once the game is over)"
    for name in cls.SECRET:
        props[name]["description"] = "shown to nobody until the game is over"
    doc = (cls.__doc__ or "").strip()
    out: dict[str, Any] = {
        "type": "object",
        "properties": props,
        "required": ["type", "seq", *(f.name for f in dataclasses.fields(cls) if f.name != "seq" and f.name not in hidden)],
    }
    if doc and not doc.startswith(cls.__name__ + "("):  # a dataclass without a docstring gets its signature
        out["description"] = " ".join(doc.split())
    return out


def event_schemas(event_types: Iterable[type[Event]]) -> dict[str, dict[str, Any]]:
    return {event_schema_name(cls): _event_schema(cls) for cls in event_types}


def event_out(schemas: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """One event as a reader may see it: one of the event schemas, by its ``type``."""
    mapping = {schema["properties"]["type"]["const"]: REF + name for name, schema in schemas.items()}
    return {
        "description": "An event as you may see it: fields you may not know yet are left out (a private field is "
        "shown to its audience, a secret one to nobody, until the game is over).",
        "oneOf": [{"$ref": ref} for ref in mapping.values()],
        "discriminator": {"propertyName": "type", "mapping": mapping},
    }
