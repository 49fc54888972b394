"""Decision kinds: each kind of decision a ruleset asks for, declared once, with everything about it.

A kind names both the prompt and the command that answers it (one vocabulary). Its declaration says which
fields the command carries, how its options are offered to the seat asked (the prompt, compact), the rule
that governs it and what a legal answer is in words (for refusals), how a checked command is carried out,
and how a seat the rules play themselves decides it. The pipeline (``decide``), the prompts, the
refusals and the seats the rules play are loops over a ``Registry`` of kinds; nothing else lists them, and the API's document
has one command schema per kind, generated from its ``fields``, ``optional`` fields, ``docs`` and ``summary``.

Commands that answer no prompt (a seat's own ``resign``, the service's ``timeout`` and the closing of
windows) are kinds too, with a ``handle`` that carries the command out directly.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from aegis.domain.kernel.prompts import ENVELOPE, Prompt

FieldType = type | tuple[type, ...]

# what a field of each python type must be, in the words the API's other refusals of a body use (marshmallow's)
NOT_VALID = {
    int: "Not a valid integer.",
    float: "Not a valid number.",
    str: "Not a valid string.",
    bool: "Not a valid boolean.",
    list: "Not a valid list.",
    dict: "Not a valid mapping type.",
}
MISSING = "Missing data for required field."
UNKNOWN = "Unknown field."
_ABSENT = object()


def is_of(value: Any, type_: FieldType) -> bool:
    """Is ``value`` (from JSON) of the declared type? A bool is no number, and a number is no bool."""
    if type(value) is type_:
        return True
    if type_ is bool or isinstance(value, bool):
        return False
    return isinstance(value, type_)


def not_valid(type_: FieldType) -> str:
    types = type_ if isinstance(type_, tuple) else (type_,)
    return NOT_VALID[float] if float in types else NOT_VALID[types[0]]


@dataclass(frozen=True)
class DecisionKind:
    """One kind of decision. ``offer(state, seat)``: the prompt for a seat asked for it (for a ``free`` kind, the
    prompt if the seat may make it now, else None); ``apply(ctx, command)``:
    carry out a command its prompt accepted; ``by_rules(ctx, seat)``: decide it for a seat the rules play themselves;
    ``handle(ctx, command)``: carry out a command that answers no prompt (it checks its own preconditions first,
    raising the refusal before it emits anything).

    ``accepts(state, seat, command)``: optional, the check without the prompt: would the prompt ``offer`` makes
    for ``seat`` accept ``command`` (a command of this kind, its fields checked, for a seat asked for it; for a
    ``free`` kind, False when ``offer`` would give no prompt)? It must agree with the prompt exactly, so it is
    derived from the same source as ``offer`` (the kind's module builds both from one list of answers), and a
    property test holds the two together. It only speeds up accepting: a command it refuses is checked again
    against the prompts, which name the rule (``diagnose``), so refusals are the prompts' alone.

    ``fields``: the fields a command must carry, with their python types (checked before anything else);
    ``optional``: the fields it may carry besides (a plan's parts, the item a reaction uses, ...), which the
    prompt's options check; ``docs``: per field, the JSON Schema keywords its python type does not say
    (``description``, ``enum``, ``items``, ``properties``, ``minimum``, ``examples``...); ``summary``: what the
    command does, in words. The API's document is generated from these four.

    ``asks`` and ``said``: the words the record uses when the clock decides for a seat (ruling S3): what the prompt
    asked, and the command the server played (``said(command, who)``, naming only what the seat may know)."""

    kind: str
    rule: str
    refusal: str
    fields: Mapping[str, FieldType] = field(default_factory=dict)
    offer: Callable[[Any, int], Prompt | None] | None = None
    apply: Callable[[Any, dict[str, Any]], None] | None = None
    by_rules: Callable[[Any, int], None] | None = None
    handle: Callable[[Any, dict[str, Any]], None] | None = None
    accepts: Callable[[Any, int, dict[str, Any]], bool] | None = None
    aliases: tuple[str, ...] = ()  # older command types that still answer this kind's prompt
    system: bool = False  # only the service sends it
    window: bool = False  # closed by the ruleset's own deadline: never timed out
    seatless: bool = False  # the command names no seat of its own
    free: bool = False  # offered whenever it applies (``offer`` returns None when not), never awaited
    optional: Mapping[str, FieldType] = field(default_factory=dict)
    docs: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    summary: str = ""
    asks: str = ""  # what its prompt asks of the seat, as "<seat> ran out of time to <asks>" reads it
    said: Callable[[dict[str, Any], Callable[[Any], str]], str] | None = None  # a command of it in words; who(seat) names

    def __post_init__(self) -> None:
        both = set(self.fields) & set(self.optional)
        if both:
            raise ValueError(f"decision kind {self.kind}: {', '.join(sorted(both))} cannot be both required and optional")
        envelope = set(self.optional) & set(ENVELOPE)
        if envelope:
            raise ValueError(f"decision kind {self.kind}: {', '.join(sorted(envelope))} is a field of every command")
        undeclared = set(self.docs) - set(self.fields) - set(self.optional)
        if undeclared:
            raise ValueError(f"decision kind {self.kind}: docs for undeclared field(s) {', '.join(sorted(undeclared))}")
        if (self.offer is None) == (self.handle is None):
            raise ValueError(f"decision kind {self.kind}: either offered as a prompt (offer, apply) or handled directly")
        if self.offer is not None and self.apply is None:
            raise ValueError(f"decision kind {self.kind}: an offered kind needs apply")
        if self.accepts is not None and self.offer is None:
            raise ValueError(f"decision kind {self.kind}: accepts checks a command against an offer; a handled kind has none")

    @cached_property
    def known(self) -> frozenset[str]:
        """Every field a command of this kind may carry: its own, required or optional, and the envelope's."""
        return frozenset({*self.fields, *self.optional, *ENVELOPE})

    def has_shape(self, command: Mapping[str, Any]) -> bool:
        """The common case of ``shape_errors``, found quickly: every field present with exactly its declared type and
        no field the kind does not declare. False tells nothing yet: ``shape_errors`` then says what is wrong, if
        anything (a field whose type is a tuple of types is only ever checked there)."""
        get = command.get
        for name, type_ in self.fields.items():
            if type(get(name)) is not type_:
                return False
        if not command.keys() <= self.known:
            return False
        if not all(name not in command or type(command[name]) is type_ for name, type_ in self.optional.items()):
            return False
        for name, low in self.minimums:  # plain loops: on every command, and most kinds have none
            if name in command and command[name] < low:
                return False
        for name, allowed in self.enums:  # noqa: SIM110 - a loop: 0.2 us where all() of a generator takes 0.6
            if name in command and command[name] not in allowed:
                return False
        return True

    @cached_property
    def minimums(self) -> tuple[tuple[str, int | float], ...]:
        """The numeric fields whose ``docs`` give a ``minimum``, with it: a value below is malformed, as its schema says."""
        return tuple((name, d["minimum"]) for name, d in self.docs.items() if "minimum" in d)

    @cached_property
    def enums(self) -> tuple[tuple[str, tuple[Any, ...]], ...]:
        """The fields whose ``docs`` give an ``enum``, with its values: any other value is malformed."""
        return tuple((name, tuple(d["enum"])) for name, d in self.docs.items() if "enum" in d)

    def shape_errors(self, command: Mapping[str, Any]) -> dict[str, list[str]]:
        """How ``command`` misses the shape this kind declares, by field (empty when it has that shape): a required
        field missing or of another type, an optional one of another type, a field the kind does not declare. The
        values themselves are the rules' to judge (a seat that is not at the table, a card that is not yours)."""
        errors: dict[str, list[str]] = {}
        for name, type_ in self.fields.items():
            value = command.get(name, _ABSENT)
            if not is_of(value, type_):
                errors[name] = [MISSING if value is _ABSENT else not_valid(type_)]
        known, optional = self.known, self.optional
        for name in command:
            if name not in known:
                errors[name] = [UNKNOWN]
            elif name in optional and not is_of(command[name], optional[name]):
                errors[name] = [not_valid(optional[name])]
        for name, low in self.minimums:
            value = command.get(name)
            if name not in errors and isinstance(value, (int, float)) and not isinstance(value, bool) and value < low:
                errors[name] = [f"Must be greater than or equal to {low}."]
        for name, allowed in self.enums:
            if name not in errors and name in command and command[name] not in allowed:
                errors[name] = [f"Must be one of: {', '.join(str(v) for v in allowed)}."]
        return errors


class Registry:
    """Every decision kind of a ruleset, by kind and by the older command types that still answer them."""

    def __init__(self, kinds: list[DecisionKind]):
        self._kinds: dict[str, DecisionKind] = {}
        self._types: dict[str, list[DecisionKind]] = {}
        for k in kinds:
            if k.kind in self._kinds:
                raise ValueError(f"decision kind {k.kind} is declared twice")
            self._kinds[k.kind] = k
        for k in kinds:
            for name in (k.kind, *k.aliases):
                if name != k.kind and name in self._kinds:
                    raise ValueError(f"{name} is a decision kind; it cannot also be an older name of {k.kind}")
                self._types.setdefault(name, []).append(k)
        # command types every kind of which names no seat (checked on every command: worked out once)
        self._seatless = frozenset(name for name, ks in self._types.items() if all(k.seatless for k in ks))

    def __getitem__(self, kind: str) -> DecisionKind:
        return self._kinds[kind]

    def __contains__(self, kind: object) -> bool:
        return kind in self._kinds

    def __iter__(self) -> Iterator[DecisionKind]:
        return iter(self._kinds.values())

    def answering(self, command_type: str) -> list[DecisionKind]:
        """The kinds a command of this type may answer: its own kind, or every kind it is an older name of."""
        return self._types.get(command_type, [])

    def seatless(self, command_type: str) -> bool:
        """Does a command of this (known) type name no seat: is every kind it may answer ``seatless``?"""
        return command_type in self._seatless

    @property
    def command_types(self) -> list[str]:
        return list(self._types)

    @property
    def system(self) -> frozenset[str]:
        return frozenset(k.kind for k in self if k.system)

    @property
    def windows(self) -> frozenset[str]:
        return frozenset(k.kind for k in self if k.window)
