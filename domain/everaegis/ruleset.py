"""Ever Aegis as a plug-in ruleset for the kernel (see ``domain.kernel.ruleset.Ruleset``)."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import Any

from aegis.domain.everaegis import audit as _audit
from aegis.domain.everaegis import branching as _branching
from aegis.domain.everaegis import components as _components
from aegis.domain.everaegis import decide as _decide
from aegis.domain.everaegis import events as _events
from aegis.domain.everaegis import evolve as _evolve
from aegis.domain.everaegis import flow as _flow
from aegis.domain.everaegis import narration as _narration
from aegis.domain.everaegis import odds as _odds
from aegis.domain.everaegis import prompts as _prompts
from aegis.domain.everaegis import redaction as _redaction
from aegis.domain.everaegis import review as _review
from aegis.domain.everaegis import rig as _rig
from aegis.domain.everaegis import statistics as _statistics
from aegis.domain.everaegis import table_text as _table_text
from aegis.domain.everaegis.bots import BOTS, STAND_IN
from aegis.domain.everaegis.classic import ClassicCatalog, shipped, validate
from aegis.domain.everaegis.config import Config, make_config
from aegis.domain.everaegis.shapes import SHAPES
from aegis.domain.everaegis.state import GameState, decode_state, encode_state
from aegis.domain.kernel.events import Event
from aegis.domain.kernel.prompts import Prompt
from aegis.domain.kernel.redaction import Perspective
from aegis.domain.kernel.ruleset import Ruleset

# Raised in the commit that changes what the rules decide (the golden digests re-pinned with it: tests/pin_golden.py
# refuses to write changed digests under the same version); docs/rulings.md, "Rules versions", says what each changed.
RULES_VERSION = 4


class EverAegis:
    name = "ever-aegis"
    rules_version = RULES_VERSION  # what changed in each: docs/rulings.md, "Rules versions"
    window_kinds = _decide.COMMANDS.windows  # react, undo: closed at their own deadlines (close_window, close_undo)
    system_commands = _decide.COMMANDS.system  # close_window, close_undo, timeout
    event_types: Sequence[type[Event]] = tuple(
        cls for cls in vars(_events).values() if isinstance(cls, type) and issubclass(cls, Event) and cls is not Event
    )
    commands = _decide.COMMANDS
    bots: Mapping[str, Callable[[int], Any]] = BOTS  # random and cautious
    shapes = SHAPES  # creation, table and statistics as JSON Schemas (shapes.py)
    stand_in = staticmethod(STAND_IN)  # the cautious bot, blind to the seat's face-down cards (ruling S3)

    def make_config(self, spec: dict[str, Any]) -> Config:
        return make_config(
            seats=spec.get("seats"),
            variants=spec.get("variants", spec.get("variant", "simpleton")),
            reaction_seconds=spec.get("reaction_seconds", 30.0),
            first_player=spec.get("first_player"),
            names=spec.get("names", ()),
            options=spec.get("options"),
            selection=spec.get("selection"),
            mobs=spec.get("mobs", ()),
        )

    def seated_by_rules(self, spec: dict[str, Any]) -> dict[int, str]:
        """Mobs (R173): played by the D8 inside the rules' own flow, so the server never moves for one."""
        return {seat: f"Mob {seat}" for seat in spec.get("mobs", ())}

    def variant(self, spec: dict[str, Any]) -> str:
        return "+".join(spec.get("variants", []))

    def read_catalog(self, data: Any, source: str) -> ClassicCatalog:
        """A Classic catalog (the texts of your physical game), checked against the box (``classic.validate``)."""
        return dataclasses.replace(validate(data, against=shipped()), source=f"AEGIS_CATALOG {source}")

    def catalog_summary(self, catalog: ClassicCatalog) -> str:
        missing = catalog.playable_without_text()
        return (
            f"{len(catalog.estates)} estate cards, {len(catalog.leaders)} leaders, {len(catalog.items)} kinds of items; "
            f"{len(missing)} estate cards and leaders still lack their full text"
        )

    def start(
        self,
        config: Config,
        seed: str,
        now: float | None = None,
        rig: dict[str, Any] | None = None,
        components: dict[str, Any] | None = None,
        commitment: str | None = None,
        *,
        catalog: ClassicCatalog | None = None,  # Ever Aegis's own: the Classic texts a new game draws from
    ) -> list[Event]:
        return _decide.start(config, seed, now, rig, catalog, components, commitment)

    def components(self, config: Config, catalog: ClassicCatalog | None = None) -> dict[str, Any] | None:
        """The Classic components a game would use (None for Simpleton); refuses what cannot be played (A54)."""
        return _components.choose(config, catalog or shipped(), catalog.source if catalog else "shipped")

    def validate_rig(self, rig: Any, seats: int, components: dict[str, Any] | None = None) -> dict[str, Any]:
        return _rig.validate(rig, seats, components)

    def decide(self, state: GameState, command: dict[str, Any]) -> list[Event]:
        return _decide.decide(state, command)

    def push(self, state: GameState, command: dict[str, Any]) -> list[Event]:
        return _decide.push(state, command)

    def branch(
        self,
        state: GameState,
        log: Sequence[dict[str, Any]],
        *,
        game: str,
        step: int,
        deal: str,
        knower: int | None,
        names: Sequence[str],
        seed: str,
        at: float | None,
    ) -> list[Event]:
        """The branch point (``BranchBegan``) and, dealt "as_known", the cards the knower could not name dealt again
        (``CardsDealtAgain``): ``branching.py``."""
        return _branching.branch(
            state, log, game=game, step=step, deal=deal, knower=knower, names=names, seed=seed, at=at
        )

    def evolve(self, state: GameState, event: Event) -> GameState:
        return _evolve.evolve(state, event)

    def apply(self, state: GameState, event: Event) -> None:
        _evolve.apply(state, event)

    def clone(self, state: GameState) -> GameState:
        return state.clone()

    def narrate(self, event: dict[str, Any], names: list[str]) -> str:
        return _narration.narrate(event, names)

    def fold(self, config: Config, events: Iterable[Event]) -> GameState:
        return _evolve.fold(config, events)

    def audit(
        self,
        config: Config,
        log: list[dict[str, Any]],
        step: int,
        reader: Perspective,
        names: list[str],
        accepted: dict[int, dict[str, Any]],
    ) -> dict[str, Any]:
        return _audit.audit(config, log, step, reader, names, accepted)

    def odds(self, state: GameState, event: dict[str, Any], perspective: Perspective) -> dict[str, Any] | None:
        return _odds.odds(state, event, perspective)

    def review(
        self, config: Config, log: list[dict[str, Any]], events: Sequence[Event], perspective: Perspective, since: int = 0
    ) -> dict[str, Any]:
        return _review.review(config, log, events, perspective, since)

    def undone(self, log: list[dict[str, Any]]) -> list[tuple[int, int]]:
        return _audit.undone(log)

    def encode_state(self, state: GameState) -> dict[str, Any]:
        return encode_state(state)

    def decode_state(self, config: Config, data: dict[str, Any]) -> GameState:
        return decode_state(config, data)

    def prompts(self, state: GameState, seat: int | None = None) -> list[Prompt]:
        return _prompts.prompts(state, seat)

    def legal_commands(self, state: GameState, seat: int) -> Iterator[dict[str, Any]]:
        return _prompts.legal_commands(state, seat)

    def view(self, state: GameState, perspective: Perspective) -> dict[str, Any]:
        return _redaction.view(state, perspective)

    def describe(self, view: dict[str, Any]) -> str:
        return _table_text.describe(view)

    def redact(self, state: GameState, event: dict[str, Any], perspective: Perspective) -> dict[str, Any]:
        return _redaction.redact(state, event, perspective)

    def is_finished(self, state: GameState) -> bool:
        return state.status == "finished"

    def turn(self, state: GameState) -> int:
        return state.play.turn

    def outcome(self, state: GameState) -> tuple[str | None, list[int]]:
        return state.outcome.result, list(state.outcome.winners)

    def autoplayed(self, state: GameState) -> list[int]:
        """Resigned (S2) and abandoned (S3) seats: the service makes their remaining decisions."""
        return state.autoplayed()

    def awaited(self, state: GameState) -> list[tuple[int, str]]:
        return [(n.seat, n.kind) for n in _flow.waiting(state)]

    def deadline(self, state: GameState) -> tuple[int | str, float] | None:
        """The next deadline the service must enforce: a reaction window's (its id), or an undo pause's
        ("undo:<window>")."""
        if state.status != "active":
            return None
        w = state.calls.window
        if w is not None and w.deadline is not None:
            return w.id, w.deadline
        u = state.undo
        if u is not None and u.paused and u.deadline is not None:
            return f"undo:{u.window}", u.deadline
        return None

    def summarize(self, config: Config, events: Iterable[Event]) -> dict[str, Any]:
        """Each seat's place and statistics in a finished game (``statistics.py``)."""
        return _statistics.summarize(config, events)

    def close_command(self, key: int | str, at: float) -> dict[str, Any]:
        if isinstance(key, str) and key.startswith("undo:"):
            return {"type": "close_undo", "window": int(key[5:]), "at": at}
        return {"type": "close_window", "window": key, "at": at}


RULESET: Ruleset = EverAegis()  # typed as the protocol, so that mypy checks every member against it
