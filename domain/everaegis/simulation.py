"""Whole games of Ever Aegis with bots, named by this ruleset's own keywords (the kernel's simulator takes a
``spec`` as a game's creation does: ``domain/simulation.py``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from aegis.domain import simulation
from aegis.domain.everaegis.classic import ClassicCatalog
from aegis.domain.everaegis.ruleset import RULESET
from aegis.domain.simulation import GameRecord, Summary


def spec_of(
    seats: int,
    variants: str | list[str],
    options: dict[str, Any] | None = None,
    selection: str | None = None,
    mobs: list[int] | None = None,
) -> dict[str, Any]:
    """The creation of a game without clocks: a reaction window waits for every answer."""
    spec: dict[str, Any] = {"seats": seats, "variants": variants, "reaction_seconds": 0}
    found = {"options": options, "selection": selection, "mobs": mobs}
    return spec | {k: v for k, v in found.items() if v is not None}


def play_game(
    *,
    seats: int,
    variants: str | list[str],
    seed: str,
    bots: list[str],
    max_turns: int = 500,
    options: dict[str, Any] | None = None,
    selection: str | None = None,
    catalog: ClassicCatalog | None = None,
    mobs: list[int] | None = None,
) -> GameRecord:
    spec = spec_of(seats, variants, options, selection, mobs)
    return simulation.play_game(RULESET, spec, seed=seed, bots=bots, max_turns=max_turns, catalog=catalog)


def simulate(
    *,
    games: int,
    seats: int,
    variants: str | list[str] = "simpleton",
    seed: str | int = 0,
    bots: list[str] | None = None,
    max_turns: int = 500,
    progress: Callable[[int, int], Any] | None = None,
    workers: int = 1,
    options: dict[str, Any] | None = None,
    selection: str | None = None,
    catalog: ClassicCatalog | None = None,
    mobs: list[int] | None = None,
) -> Summary:
    spec = spec_of(seats, variants, options, selection, mobs)
    return simulation.simulate(
        RULESET, spec, games=games, seed=seed, bots=bots, max_turns=max_turns, progress=progress, workers=workers, catalog=catalog
    )
