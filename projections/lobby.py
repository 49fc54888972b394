"""The lobby list: filters, order and paging over the projected rows (one per game)."""

from __future__ import annotations

from typing import Any

STATUSES = ("lobby", "active", "finished", "cancelled", "expired")
GONE = ("cancelled", "expired")  # not listed unless asked for


def select(
    rows: list[dict[str, Any]],
    *,
    status: str | None = None,
    ruleset: str | None = None,
    variant: str | None = None,
    open_seats: bool | None = None,
    offset: int = 0,
    limit: int = 20,
    now: float | None = None,
) -> tuple[list[dict[str, Any]], int]:
    """Rows matching every filter given, newest first: (one page, how many match in all). A game past its lobby
    expiry is expired even before the server has recorded it (``now``)."""
    if now is not None:
        rows = [_expired(g) if _past_expiry(g, now) else g for g in rows]
    found = [
        g
        for g in rows
        if (g["status"] == status if status is not None else g["status"] not in GONE)
        and (ruleset is None or g["ruleset"] == ruleset)
        and (variant is None or g["variant"] == variant)
        and (open_seats is None or (g["seats_free"] > 0) == open_seats)
    ]
    found.sort(key=lambda g: (-g["created"], g["id"]))
    return found[offset : offset + limit], len(found)


def _past_expiry(row: dict[str, Any], now: float) -> bool:
    return row["status"] == "lobby" and row.get("expires_at") is not None and row["expires_at"] <= now


def _expired(row: dict[str, Any]) -> dict[str, Any]:
    return {**row, "status": "expired", "expires_at": None}
