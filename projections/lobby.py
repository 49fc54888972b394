"""The lobby list: filters, order and paging over the projected rows (one per game), answered from an index.

Order: newest first, then by id. ``select`` is the definition: it scans every row. ``page`` gives the same answer
from sorted sets kept beside the rows, in the same commit (``projections/store.py``):

- A game's row is in one sorted set per *group* and per subset of its filter values: the group is its status, and
  also ``listed`` when it is not gone (the default list); the filter values are its ruleset, its variant and whether
  it has a free seat, each either given or left out (``index_key``). So every query names one set: 8 sets per group,
  16 for a listed game. Each set's score is minus the creation time and its member the game id, so Redis's own
  order (score, then member) is the lobby's order, and a page is a range by rank: O(log n + page).
- A lobby game past its ``expires_at`` is expired before the server records it (evaluated at read time, ``now``):
  lobby games are also kept by their expiry time (``EXPIRY``), and those due at ``now`` (few: the deadline keeper
  records them as expired within moments) are taken out of the ``lobby`` and ``listed`` answers and put into the
  ``expired`` one. A page then scans at most the page plus those games.
"""

from __future__ import annotations

import bisect
import json
from typing import Any, Protocol

from aegis.projections.store import PREFIX, Batch

STATUSES = ("lobby", "active", "finished", "cancelled", "expired")
GONE = ("cancelled", "expired")  # not listed unless asked for
LISTED = "listed"  # the group of every game not gone: the default list

LOBBY = PREFIX + "lobby"  # game id -> its row
INDEX = PREFIX + "lobby-by:"  # then [group, ruleset, variant, open seats] (None: any): sorted sets of game ids
EXPIRY = PREFIX + "lobby-expiry"  # the lobby games, by the time they expire
PLACES = PREFIX + "lobby-index"  # game id -> the sets it is in, with its scores (the store moves it with these)


class Index(Protocol):
    """What ``page`` reads: sorted sets of game ids, each ordered by (score, id), and the rows."""

    def zcard(self, key: str) -> int: ...

    def zwindow(self, key: str, start: int, stop: int) -> list[tuple[str, float]]:
        """Members with their scores from rank ``start`` to before ``stop``."""
        ...

    def zranks(self, key: str, members: list[str]) -> list[int | None]: ...

    def zscores(self, key: str, members: list[str]) -> list[float | None]: ...

    def zdue(self, key: str, at: float) -> list[str]:
        """Members whose score is ``at`` or less."""
        ...

    def hmget(self, key: str, fields: list[str]) -> list[Any]: ...


def index_key(group: str, ruleset: str | None, variant: str | None, open_seats: bool | None) -> str:
    return INDEX + json.dumps([group, ruleset, variant, open_seats])


def write(batch: Batch, row: dict[str, Any]) -> None:
    """A game's lobby row, and its places in the index, in the same batch (so in the same commit)."""
    batch.hset(LOBBY, row["id"], row)
    batch.place(PLACES, row["id"], places(row))


def places(row: dict[str, Any]) -> dict[str, str]:
    """The sorted sets a lobby row is in, each with its score (as text: Redis reads it exactly)."""
    order = repr(-float(row["created"]))
    groups = (row["status"], LISTED) if row["status"] not in GONE else (row["status"],)
    out = {
        index_key(group, r, v, o): order
        for group in groups
        for r in (row["ruleset"], None)
        for v in (row["variant"], None)
        for o in (row["seats_free"] > 0, None)
    }
    if row["status"] == "lobby" and row.get("expires_at") is not None:
        out[EXPIRY] = repr(float(row["expires_at"]))
    return out


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


def page(
    index: Index,
    *,
    status: str | None = None,
    ruleset: str | None = None,
    variant: str | None = None,
    open_seats: bool | None = None,
    offset: int = 0,
    limit: int = 20,
    now: float | None = None,
) -> tuple[list[dict[str, Any]], int]:
    """``select``'s answer from the index (read it consistently: ``ViewStore.consistent``)."""
    due = index.zdue(EXPIRY, now) if now is not None and status in (None, "lobby", "expired") else []
    if status == "expired":
        if due:
            scores = index.zscores(index_key("lobby", ruleset, variant, open_seats), due)
            late = [(s, gid) for gid, s in zip(due, scores, strict=True) if s is not None]
        else:
            late = []
        return _plus(index, index_key("expired", ruleset, variant, open_seats), late, offset, limit)
    return _minus(index, index_key(status or LISTED, ruleset, variant, open_seats), due, offset, limit)


def _minus(index: Index, key: str, out: list[str], offset: int, limit: int) -> tuple[list[dict[str, Any]], int]:
    """A page of the set ``key`` without the members ``out`` (few)."""
    ranks = sorted(r for r in index.zranks(key, out) if r is not None) if out else []
    start = offset  # the rank in ``key`` of the page's first member: past every left-out member before it
    for rank in ranks:
        if rank > start:
            break
        start += 1
    later = len(ranks) - bisect.bisect_left(ranks, start)
    skip = set(out)
    ids = [gid for gid, _ in index.zwindow(key, start, start + limit + later) if gid not in skip][:limit]
    return _rows(index, ids, set()), index.zcard(key) - len(ranks)


def _plus(index: Index, key: str, more: list[tuple[float, str]], offset: int, limit: int) -> tuple[list[dict[str, Any]], int]:
    """A page of the set ``key`` with the members ``more`` (few, as (score, id), none of them in ``key``) added.
    Before the member at rank ``first`` of ``key`` come at most ``len(more)`` of them: the window read from there
    merged with those after it holds the page."""
    more = sorted(more)
    total = index.zcard(key) + len(more)
    first = max(0, offset - len(more))
    window = [(score, gid) for gid, score in index.zwindow(key, first, offset + limit)]
    if first and not window:
        return [], total  # past the end
    before = bisect.bisect_left(more, window[0]) if first else 0  # ``more`` members before the window
    merged = sorted(window + more[before:])
    skip = offset - (first + before)
    ids = [gid for _, gid in merged[skip : skip + limit]]
    return _rows(index, ids, {gid for _, gid in more}), total


def _rows(index: Index, ids: list[str], expired: set[str]) -> list[dict[str, Any]]:
    rows = index.hmget(LOBBY, ids) if ids else []
    return [_expired(row) if gid in expired else row for gid, row in zip(ids, rows, strict=True)]


def _past_expiry(row: dict[str, Any], now: float) -> bool:
    return row["status"] == "lobby" and row.get("expires_at") is not None and row["expires_at"] <= now


def _expired(row: dict[str, Any]) -> dict[str, Any]:
    return {**row, "status": "expired", "expires_at": None}
