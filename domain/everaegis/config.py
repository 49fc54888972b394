"""Game configuration: seats, variants and options, validated with the rule that limits each."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from aegis.domain.everaegis.variant_config import check_variants
from aegis.domain.kernel.errors import MalformedCommand

VARIANTS = (
    "simpleton",
    "classic",
    "quick",
    "long",
    "plague",
    "survival",
    "dictator",
    "artificers",
    "solo",
    "alliances",
    "blasphemy",
    "overlord",
)
GAMES = ("simpleton", "classic")  # exactly one: the game the variants modify (R161, R162)
SELECTIONS = ("simpleton", "limited", "drafting", "freeform")  # leader selection modes (R19-R22)


@dataclass(frozen=True)
class GameOption:
    """A table preference the rulings leave open (docs/rulings.md): its ruling id, default and range."""

    ruling: str
    default: int
    low: int
    high: int
    help: str


OPTIONS = {
    "stalemate_rounds": GameOption(
        "S1", 10, 0, 1000, "full rounds with no card gained, moved or flipped before the game is drawn; 0: never"
    ),
    "undo": GameOption("R155", 1, 0, 1, "1: the optional Undo rule is on (RULINGS: Undo); 0: off"),
    "plain_unknown": GameOption(
        "A54",
        0,
        0,
        1,
        "1: estate cards and leader mats whose text the rulebook does not print play as plain cards without effect "
        "(marked in every view); 0: they cannot be used",
    ),
    "limited_mats": GameOption("R19", 3, 1, 10, "Limited Selection: mats each player draws before keeping 1"),
    "brig_skips_turn": GameOption(
        "A37",
        1,
        0,
        1,
        "1: a BRIG holder skips their next turn, then that BRIG is discarded; 0: the BRIG stays and only blocks calls",
    ),
    "rubble_rouser": GameOption(
        "R158", 0, 0, 1, "1: the optional Rubble Rouser rule: discards go face up to the rubble, reshuffled before a year"
    ),
    "vengeance": GameOption(
        "R159", 0, 0, 1, "1: the optional Vengeance rule: eliminated players may call; a wrong call gives a lasting BRIG"
    ),
    "discovery": GameOption(
        "R160", 0, 0, 1, "1: the optional Discovery rule: a revealed card that is unrevealed carries a discovery token"
    ),
    "overlord_seat": GameOption(
        "R170",
        -1,
        -1,
        9,  # the highest seat number (MAX_SEATS - 1, A44)
        "Overlord: the Overlord's seat (the first player is the seat after it); -1: the seat before the first player",
    ),
    "ally_war": GameOption(
        "R163",
        1,
        0,
        1,
        "Alliances: 1: War may select an ally (the Simpleton War text says 'another player', R45; a mat whose War says "
        "'opponent' never does); 0: War selects only opponents",
    ),
}
MIN_SEATS, MAX_SEATS = 3, 10


@dataclass(frozen=True)
class Thresholds:
    win_unrevealed: int | None  # None: no win by unrevealed cards (Survival)
    demise_revealed: int | None  # None: revealed cards alone do not eliminate (Survival)
    start_soldiers: int
    start_cards: int
    begin_soldier_loss: int
    zero_soldiers_eliminates: bool
    survival: bool
    quick_reveal: bool


@dataclass(frozen=True)
class Config:
    seats: int
    variants: tuple[str, ...] = ("simpleton",)
    reaction_seconds: float = 30.0
    first_player: int | None = None
    names: tuple[str, ...] = ()
    options: dict[str, Any] = field(default_factory=dict)
    selection: str = "simpleton"  # leader selection mode (R19-R22)
    mobs: tuple[int, ...] = ()  # seats played by the D8 (R173); see mob.py

    def option(self, name: str) -> int:
        """The value of a game option: the one given at creation, or its default."""
        return self._option_values[name]

    @cached_property
    def _option_values(self) -> dict[str, int]:
        """Every option's value, worked out once (the flow asks for some on every turn; a config never changes)."""
        return {name: int(self.options.get(name, spec.default)) for name, spec in OPTIONS.items()}

    @cached_property
    def thresholds(self) -> Thresholds:
        v = set(self.variants)
        long_game = "long" in v
        survival = "survival" in v
        return Thresholds(
            win_unrevealed=None if survival or "overlord" in v else (7 if long_game else 5),  # R10, R165, R166, R170
            demise_revealed=None if survival else (6 if long_game else 4),  # R30, R165, R166
            start_soldiers=20 if "plague" in v else (10 if "quick" in v else 3),  # R18, R164, R169
            start_cards=6 if survival else (3 if "quick" in v else 0),  # R164, R166
            begin_soldier_loss=2 if "plague" in v else 0,  # R169
            zero_soldiers_eliminates="plague" in v,  # R169
            survival=survival,
            quick_reveal="quick" in v,  # R164
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "seats": self.seats,
            "variants": list(self.variants),
            "reaction_seconds": self.reaction_seconds,
            "first_player": self.first_player,
            "names": list(self.names),
            "options": dict(self.options),
            **({"selection": self.selection} if self.classic else {}),  # Simpleton logs stay as they were
            **({"mobs": list(self.mobs)} if self.mobs else {}),  # games without mobs keep their recorded form
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Config:
        return make_config(
            seats=data.get("seats"),
            variants=data.get("variants", ["simpleton"]),
            reaction_seconds=data.get("reaction_seconds", 30.0),
            first_player=data.get("first_player"),
            names=data.get("names", ()),
            options=data.get("options", {}),
            selection=data.get("selection"),
            mobs=data.get("mobs", ()),
        )

    @property
    def classic(self) -> bool:
        """Estate cards in the years and the estate deck (R13-R16); Simpleton has none (R162)."""
        return "classic" in self.variants


def parse_variants(text: str | list[str] | tuple[str, ...]) -> tuple[str, ...]:
    """Accept "simpleton", "classic+quick" or a list: exactly one game (simpleton or classic) and its variants."""
    parts = [p.strip().lower() for p in (text.replace(",", "+").split("+") if isinstance(text, str) else text)]
    parts = [p for p in parts if p]
    unknown = [p for p in parts if p not in VARIANTS]
    if unknown:
        raise MalformedCommand(f"unknown variant(s) {', '.join(unknown)}; known: {', '.join(VARIANTS)}", rule="R161-R172")
    games = [p for p in GAMES if p in parts]
    if len(games) != 1:
        raise MalformedCommand(
            "name exactly one game, simpleton or classic, with its variants (e.g. simpleton+quick, classic+long)",
            rule="R161-R162",
        )
    if "dictator" in parts and "classic" not in parts:
        raise MalformedCommand(
            "Dictator shares a leader mat's ability, which needs the Classic components: play classic+dictator "
            "(with selection simpleton for the book's Simpleton-Dictator)",
            rule="R168",
        )
    if "artificers" in parts and "classic" not in parts:
        raise MalformedCommand("Artificers is played with the Classic items: play classic+artificers", rule="R172")
    if "long" in parts and "survival" in parts:
        raise MalformedCommand("Long Game and Survival cannot be combined: Survival has no card thresholds", rule="R165")
    return tuple(v for v in VARIANTS if v in parts)


def make_config(
    *,
    seats: Any,
    variants: Any = ("simpleton",),
    reaction_seconds: Any = 30.0,
    first_player: Any = None,
    names: Any = (),
    options: Any = None,
    selection: Any = None,
    mobs: Any = (),
) -> Config:
    if isinstance(seats, bool) or not isinstance(seats, int):
        raise MalformedCommand("seats must be a whole number", rule="A44")
    if not MIN_SEATS <= seats <= MAX_SEATS:
        raise MalformedCommand(f"a game has {MIN_SEATS} to {MAX_SEATS} seats, not {seats}", rule="A44")
    if isinstance(reaction_seconds, bool) or not isinstance(reaction_seconds, (int, float)) or reaction_seconds < 0:
        raise MalformedCommand("reaction_seconds must be a number of seconds, 0 or more", rule="A1")
    if first_player is not None and (
        isinstance(first_player, bool) or not isinstance(first_player, int) or not 0 <= first_player < seats
    ):
        raise MalformedCommand(f"first_player must be a seat from 0 to {seats - 1}", rule="R18")
    names = tuple(str(n) for n in (names or ()))
    if names and len(names) != seats:
        raise MalformedCommand("give one name per seat, or none")
    if options is not None and not isinstance(options, dict):
        raise MalformedCommand("options must be an object", rule=None)
    for name, value in (options or {}).items():
        if name not in OPTIONS:
            raise MalformedCommand(f"unknown option {name!r}; options: {', '.join(OPTIONS)}")
        spec = OPTIONS[name]
        if isinstance(value, bool) or not isinstance(value, int) or not spec.low <= value <= spec.high:
            raise MalformedCommand(f"option {name} must be a whole number from {spec.low} to {spec.high}", rule=spec.ruling)
    parsed = parse_variants(variants)
    check_variants(parsed, seats, dict(options or {}), first_player)
    return Config(
        seats=seats,
        variants=parsed,
        selection=_selection(selection, parsed),
        reaction_seconds=float(reaction_seconds),
        first_player=first_player,
        names=names,
        options=dict(options or {}),
        mobs=check_mobs(mobs, seats, parsed),
    )


def _selection(selection: Any, variants: tuple[str, ...]) -> str:
    """Simpleton uses the mats' back sides (R22, R162); Classic defaults to Limited Selection (R19)."""
    if selection is None:
        return "limited" if "classic" in variants else "simpleton"
    if selection not in SELECTIONS:
        raise MalformedCommand(f"unknown leader selection {selection!r}; modes: {', '.join(SELECTIONS)}", rule="R19-R22")
    if "simpleton" in variants and selection != "simpleton":
        raise MalformedCommand("a Simpleton game uses the back side of the mats: selection must be simpleton", rule="R162")
    return str(selection)


def check_mobs(mobs: Any, seats: int, variants: tuple[str, ...]) -> tuple[int, ...]:
    """The mob seats (R173), in seat order. Solo (R167): one person against mobs only; with no seats
    named, every seat but seat 0 is a mob. A mob plays the Simpleton mat, in a Classic game too (the mob
    mats are printed only in part, A50, A54)."""
    solo = "solo" in variants
    if mobs is None:
        mobs = ()
    if isinstance(mobs, (str, bytes, dict)) or not isinstance(mobs, (list, tuple)):
        raise MalformedCommand("mobs must be a list of seat numbers", rule="R173")
    for seat in mobs:
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < seats:
            raise MalformedCommand(f"mobs: every mob is a seat from 0 to {seats - 1}, not {seat!r}", rule="R173")
    if len(set(mobs)) != len(mobs):
        raise MalformedCommand("mobs: a seat is named twice", rule="R173")
    if solo and not mobs:
        mobs = range(1, seats)
    out = tuple(sorted(mobs))
    if len(out) == seats:
        raise MalformedCommand("mobs take the places of missing people: at least one seat must be a person", rule="R173")
    if solo and len(out) != seats - 1:
        raise MalformedCommand(f"Solo is one person against mobs only: name {seats - 1} mob seats, or none", rule="R167")
    return out
