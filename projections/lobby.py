"""The lobby list: filters, order and paging over the projected rows (one per game)."""

from __future__ import annotations

from typing import Any

STATUSES = ("lobby", "active", "finished")


def select(
    rows: list[dict[str, Any]],
    *,
    status: str | None = None,
    ruleset: str | None = None,
    variant: str | None = None,
    open_seats: bool | None = None,
    offset: int = 0,
    limit: int = 20,
) -> tuple[list[dict[str, Any]], int]:
    """Rows matching every filter given, newest first: (one page, how many match in all)."""
    found = [
        g
        for g in rows
        if (status is None or g["status"] == status)
        and (ruleset is None or g["ruleset"] == ruleset)
        and (variant is None or g["variant"] == variant)
        and (open_seats is None or (g["seats_free"] > 0) == open_seats)
    ]
    found.sort(key=lambda g: (-g["created"], g["id"]))
    return found[offset : offset + limit], len(found)
