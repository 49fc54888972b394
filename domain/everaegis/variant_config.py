"""Which Alliances, Overlord and Blasphemy games can be created (R163, R166, R170, R171; docs/rulings.md).

Pure checks on the parsed variant list, the seats and the options; each refusal names its rule.
"""

from __future__ import annotations

from typing import Any

from aegis.domain.kernel.errors import MalformedCommand

ALLIANCES_MIN_SEATS = 5  # R163


def overlord_option(options: dict[str, Any]) -> int:
    """The ``overlord_seat`` option: a seat, or -1 (the seat before the first player)."""
    return int(options.get("overlord_seat", -1))


def check_variants(variants: tuple[str, ...], seats: int, options: dict[str, Any], first_player: int | None) -> None:
    v = set(variants)
    if "alliances" in v and seats < ALLIANCES_MIN_SEATS:
        raise MalformedCommand(
            f"Alliances needs {ALLIANCES_MIN_SEATS} or more players, not {seats}: your allies sit to your left and right",
            rule="R163",
        )
    if "alliances" in v and "overlord" in v:
        raise MalformedCommand(
            "Alliances and Overlord cannot be combined: allies share victories (R163) while the Overlord plays "
            "alone against a team of all the others",
            rule="R170",
        )
    if "overlord" in v and "survival" in v:
        raise MalformedCommand(
            "Overlord and Survival cannot be combined: in Survival nobody wins by having unrevealed cards (R166), "
            "but the Overlord game is won by the team with more unrevealed cards",
            rule="R170",
        )
    if "ally_war" in options and "alliances" not in v:
        raise MalformedCommand("option ally_war applies only to the Alliances variant", rule="R163")
    if "overlord_seat" in options:
        if "overlord" not in v:
            raise MalformedCommand("option overlord_seat applies only to the Overlord variant", rule="R170")
        seat = overlord_option(options)
        if seat >= seats:
            raise MalformedCommand(f"overlord_seat must be a seat from 0 to {seats - 1}, or -1", rule="R170")
        if seat >= 0 and first_player is not None and first_player != (seat + 1) % seats:
            raise MalformedCommand(
                f"the Overlord always goes last: with the Overlord at seat {seat} the first player is seat "
                f"{(seat + 1) % seats}, not {first_player}",
                rule="R170",
            )
