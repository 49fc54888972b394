"""Prompts: every pending decision, addressed to one seat, with its legal options.

An option is a complete command, or, when it carries ``params``, a family of commands: the command to send
is the option's ``command`` with each parameter set to a picked value (a list of picked values when the
parameter's ``max`` is above 1). Every combination that satisfies the declared constraints is legal; where
the rules forbid some, a ruleset splits the option or narrows the choices, so that a prompt stays truthful.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from itertools import combinations, permutations, product
from math import comb, perm
from typing import Any, NamedTuple


def _key(value: Any) -> Any:
    """A hashable key by type and content (so that ``true`` is never the seat 1, nor ``1.0`` the seat 1)."""
    t = type(value)
    if t is dict:
        return ("d", *[(k, _key(value[k])) for k in sorted(value)])
    if t is list:
        return ("l", *[_key(x) for x in value])
    return (t, value)


_FLAT = frozenset({str, int, float, bool, type(None)})  # values with no parts: equal and of one type is the same


def _same(a: Any, b: Any) -> bool:
    """Equal and of the same types all the way down (Python's == alone takes ``true`` for 1)."""
    if a != b:
        return False
    return a is b or (type(a) is type(b) and type(a) in _FLAT) or _key(a) == _key(b)


def _find(choices: tuple[Choice, ...], value: Any) -> int:
    """The index of the choice whose value is ``value``, or -1 (a scan: cheaper than an index for one look)."""
    for i, c in enumerate(choices):
        if c.value == value and _same(c.value, value):
            return i
    return -1


def _index(values: list[Any] | tuple[Any, ...], value: Any) -> int:
    """``_find`` among bare values (no labels)."""
    for i, v in enumerate(values):
        if v == value and _same(v, value):
            return i
    return -1


class Choice(NamedTuple):
    """One value a parameter may take, with its words (a named tuple: prompts build many of them)."""

    label: str
    value: Any

    def to_dict(self) -> dict[str, Any]:
        return {"label": self.label, "value": self.value}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Choice:
        return cls(d["label"], d["value"])


@dataclass(frozen=True)
class Param:
    """A part of a command left to pick: between ``min`` and ``max`` values from ``choices``.

    ``distinct``: no value picked twice; ``ordered``: the order of the picked values matters (it is said in
    the option's label, e.g. "first named on top"); otherwise any order means the same command.
    """

    name: str
    choices: tuple[Choice, ...]
    min: int = 1
    max: int = 1
    distinct: bool = True
    ordered: bool = False

    def __post_init__(self) -> None:
        if not 0 <= self.min <= self.max or self.max < 1:
            raise ValueError(f"parameter {self.name}: 0 <= min <= max and max >= 1")
        if self.max == 1 and self.min == 0:
            raise ValueError(f"parameter {self.name}: a single value is always picked (min 1 when max is 1)")

    @property
    def single(self) -> bool:
        """One value is picked, sent as itself rather than as a list."""
        return self.max == 1

    def accepts(self, value: Any) -> bool:
        if self.single:
            return _find(self.choices, value) >= 0
        if not isinstance(value, list) or not self.min <= len(value) <= self.max:
            return False
        found = [_find(self.choices, v) for v in value]
        if any(i < 0 for i in found):
            return False
        return not self.distinct or len(set(found)) == len(found)

    def picks(self) -> Iterator[Any]:
        """Every legal value, lazily (unordered picks once each, in the order of the choices)."""
        values = [c.value for c in self.choices]
        if self.single:
            yield from values
            return
        for k in range(self.min, self.max + 1):
            groups: Iterator[tuple[Any, ...]]
            if self.distinct:
                groups = permutations(values, k) if self.ordered else combinations(values, k)
            else:
                groups = product(values, repeat=k) if self.ordered else _multisets(values, k)
            for group in groups:
                yield list(group)

    def count(self) -> int:
        n = len(self.choices)
        if self.single:
            return n
        total = 0
        for k in range(self.min, self.max + 1):
            if self.distinct:
                total += perm(n, k) if self.ordered else comb(n, k)
            else:
                total += n**k if self.ordered else comb(n + k - 1, k)
        return total

    def pick(self, rng: random.Random) -> Any:
        """A value picked at random: each size equally likely, then uniformly among the choices."""
        if self.single:
            return rng.choice(self.choices).value
        k = rng.randint(self.min, min(self.max, len(self.choices)) if self.distinct else self.max)
        chosen = rng.sample(self.choices, k) if self.distinct else [rng.choice(self.choices) for _ in range(k)]
        return [c.value for c in chosen]

    def words(self, value: Any) -> str:
        if self.single:
            return self.choices[_find(self.choices, value)].label
        joined = (" then " if self.ordered else " and ").join(self.choices[_find(self.choices, v)].label for v in value)
        return joined or "nothing"

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "min": self.min,
            "max": self.max,
            "distinct": self.distinct,
            "ordered": self.ordered,
            "choices": [c.to_dict() for c in self.choices],
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Param:
        choices = tuple(Choice.from_dict(c) for c in d["choices"])
        return cls(d["name"], choices, d["min"], d["max"], d["distinct"], d["ordered"])


def _multisets(values: list[Any], k: int) -> Iterator[tuple[Any, ...]]:
    def walk(start: int, left: int, acc: tuple[Any, ...]) -> Iterator[tuple[Any, ...]]:
        if left == 0:
            yield acc
            return
        for i in range(start, len(values)):
            yield from walk(i, left - 1, (*acc, values[i]))

    return walk(0, k, ())


ENVELOPE = ("type", "seat", "at")  # fields every command may carry besides its own


def _has(command: dict[str, Any], own: dict[str, Any]) -> bool:
    """Does ``command`` carry every field of ``own``, each the same value of the same type?"""
    for name, value in own.items():
        if name not in command:
            return False
        given = command[name]
        if given is not value and not _same(given, value):
            return False
    return True


def fits(command: dict[str, Any], own: dict[str, Any], params: tuple[str, ...] = ()) -> bool:
    """Has ``command`` the shape of an option whose ``command`` is ``own`` and whose parameters are named
    ``params``? Every field of ``own``, the same value of the same type; every parameter; and besides them only
    the envelope's fields. With no ``params``: is it the complete command ``own``? This is what an option checks
    before its parameters' values; a decision kind's ``accepts`` matches a command against the option its prompt
    would list for it, without building the prompt (and checks the parameters' values against the same
    choices)."""
    if not _has(command, own):
        return False
    for name in params:
        if name not in command:
            return False
    if len(command) > len(own):
        for name in command:
            if name not in own and name not in params and name not in ENVELOPE:
                return False
    return True


def one_of(value: Any, values: list[Any] | tuple[Any, ...]) -> bool:
    """Is ``value`` one of ``values``, of the same type (what a single parameter accepts: ``true`` is no seat)?"""
    return _index(values, value) >= 0


def some_of(value: Any, values: list[Any] | tuple[Any, ...], low: int, high: int, distinct: bool = True) -> bool:
    """Is ``value`` a list of ``low`` to ``high`` of ``values`` (each of the same type; ``distinct``: none twice),
    as a parameter picking several values accepts it?"""
    if not isinstance(value, list) or not low <= len(value) <= high:
        return False
    found = [_index(values, v) for v in value]
    if any(i < 0 for i in found):
        return False
    return not distinct or len(set(found)) == len(found)


class Option(NamedTuple):
    """One legal answer, or a family of them: a label for people, a command, and the parameters left to pick.

    ``group`` gathers options of one kind (for example every Library plan), so that a bot can choose a kind
    first and an option within it second. ``describe`` may be a function, so that labels are spelt out only
    when somebody reads them. With ``params``, the label ends where the picked values' words follow.
    """

    describe: str | Callable[[], str]
    command: dict[str, Any]
    group: str = ""
    params: tuple[Param, ...] = ()

    @property
    def label(self) -> str:
        text = self.describe if isinstance(self.describe, str) else self.describe()
        return f"{text} …" if self.params else text

    @property
    def complete(self) -> bool:
        return not self.params

    def accepts(self, command: dict[str, Any]) -> bool:
        """Is ``command`` one of the commands this option stands for?"""
        params = self.params
        if not params:
            return fits(command, self.command)
        if not fits(command, self.command, tuple(p.name for p in params)):
            return False
        return all(p.accepts(command[p.name]) for p in params)

    def size(self) -> int:
        """How many complete commands this option stands for (a named tuple's ``count`` is taken)."""
        total = 1
        for p in self.params:
            total *= p.count()
        return total

    def expand(self) -> Iterator[Option]:
        """Every complete command this option stands for, lazily, each with its own label."""
        if not self.params:
            yield self
            return
        text = self.describe if isinstance(self.describe, str) else self.describe()
        for values in product(*(p.picks() for p in self.params)):
            picked = dict(zip((p.name for p in self.params), values, strict=True))
            words = " ".join(p.words(picked[p.name]) for p in self.params)
            yield Option(f"{text} {words}", {**self.command, **picked}, self.group)

    def first(self) -> dict[str, Any]:
        """The first complete command of this option (each parameter its first choices)."""
        return next(self.expand()).command

    def pick(self, rng: random.Random) -> dict[str, Any]:
        """One complete command of this option, each parameter picked at random."""
        return {**self.command, **{p.name: p.pick(rng) for p in self.params}}

    def to_dict(self) -> dict[str, Any]:
        return {"label": self.label, "command": self.command, "group": self.group, "params": [p.to_dict() for p in self.params]}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Option:
        params = tuple(Param.from_dict(p) for p in d.get("params", []))
        label = d["label"].removesuffix(" …") if params else d["label"]
        return cls(label, d["command"], d.get("group", ""), params)


class Prompt(NamedTuple):
    """A decision the game waits for: who, what kind, why, the options, and an optional deadline.

    ``about``: what the decision is about, in structure (for a reaction: the claim, its action, and what it
    would do to whom), so that a client need not parse ``text``. ``words`` and ``context`` may be functions, so
    that checking a command against the options never spells out what only a reader needs.
    """

    seat: int
    kind: str
    words: str | Callable[[], str]
    options: tuple[Option, ...] = ()
    deadline: float | None = None
    free: bool = False  # True for choices open at any time that do not block the game
    context: dict[str, Any] | Callable[[], dict[str, Any]] | None = None

    @property
    def text(self) -> str:
        return self.words if isinstance(self.words, str) else self.words()

    @property
    def about(self) -> dict[str, Any] | None:
        return self.context() if callable(self.context) else self.context

    def accepts(self, command: dict[str, Any]) -> bool:
        return any(option.accepts(command) for option in self.options)

    def commands(self) -> Iterator[dict[str, Any]]:
        """Every complete command of this prompt, lazily."""
        for option in self.options:
            for one in option.expand():
                yield one.command

    def to_dict(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "kind": self.kind,
            "text": self.text,
            "deadline": self.deadline,
            "free": self.free,
            "about": self.about,
            "options": [o.to_dict() for o in self.options],
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Prompt:
        """A prompt as a reader received it (a view's, or a refusal's), to check or expand commands with."""
        options = tuple(Option.from_dict(o) for o in d["options"])
        return cls(d["seat"], d["kind"], d["text"], options, d.get("deadline"), d.get("free", False), d.get("about"))
