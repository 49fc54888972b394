"""The lists of disputes: one small row per dispute (id, game, status, when it was opened) and sorted sets of their
ids, projected from the ``Dispute`` events in the same commit as everything else (``projections/store.py``).

- ``disputes-by:all``, ``disputes-by:open``, ``disputes-by:settled``: every dispute, or those in one status, newest
  first (score: minus the opening time; ties by id), as the lobby lists games.
- ``disputes-of:<game id>``: a game's disputes, oldest first (score: the opening time), as its viewer shows them.

A page is a range of one set by rank. A row holds nothing of the record: the dispute itself (its text, its audit
as the reader may know it) is read from the event store (``replay.disputes``).
"""

from __future__ import annotations

import json
from typing import Any

from aegis.projections.store import PREFIX, Batch, ViewStore
from aegis.service.dispute import OPEN, SETTLED, Dispute

DISPUTES = PREFIX + "disputes"  # dispute id -> its row
PLACES = PREFIX + "dispute-index"  # dispute id -> the sets it is in, with its scores
ALL = "all"
STATUSES = (OPEN, SETTLED)


def by_status(status: str | None) -> str:
    """The set of every dispute (``status`` None) or of those in ``status``, newest first."""
    return PREFIX + "disputes-by:" + (status or ALL)


def of_game(game: str) -> str:
    """The set of a game's disputes, oldest first."""
    return PREFIX + "disputes-of:" + game


def project(batch: Batch, store: ViewStore, event: Dispute.Event) -> None:
    """The writes of one dispute event: its row and places when it opens or is settled (comments and votes change
    neither)."""
    did = str(event.originator_id)
    if isinstance(event, Dispute.Opened):
        _write(batch, {"id": did, "game": event.game, "status": OPEN, "opened_at": event.at})
    elif isinstance(event, Dispute.VerdictRecorded):
        pending = batch.hash_sets.get(DISPUTES, {}).get(did)  # opened in this very batch
        row = json.loads(pending) if pending is not None else store.hget(DISPUTES, did)
        _write(batch, {**row, "status": SETTLED})


def _write(batch: Batch, row: dict[str, Any]) -> None:
    batch.hset(DISPUTES, row["id"], row)
    newest_first = repr(-float(row["opened_at"]))
    scores = {by_status(None): newest_first, by_status(row["status"]): newest_first}
    batch.place(PLACES, row["id"], scores | {of_game(row["game"]): repr(float(row["opened_at"]))})


def page(index: ViewStore, key: str, offset: int, limit: int) -> tuple[list[str], int]:
    """One page of the set ``key``: the dispute ids and how many it holds (read it consistently:
    ``ViewStore.consistent``)."""
    return [member for member, _ in index.zwindow(key, offset, offset + limit)], index.zcard(key)
