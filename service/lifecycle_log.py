"""One log line for each moment of a game's life an operator looks for (logger ``aegis.games``, at INFO): created,
started, finished, cancelled or expired, branched, and a seat's clock running out. Written after the save that
recorded it, so a save that lost a race and was tried again logs once. Ids, seat numbers and counts only: never a
name, a card, a seed, a secret or a token (what a log holds must not depend on a hidden card, nor say who played)."""

from __future__ import annotations

import logging
from collections.abc import Iterable
from typing import Any

from aegis.service.aggregate import Game

log = logging.getLogger("aegis.games")


def lifecycle_of(*games: Game) -> list[Any]:
    """The events of ``games`` a save is about to store, to log once it has (none when nobody would read them: this
    is on every command's path)."""
    if not log.isEnabledFor(logging.INFO):
        return []
    return [e for game in games for e in game.pending_events]


def log_saved(events: Iterable[Any]) -> None:
    """Log the lifecycle moments among ``events``, the aggregate events a save just stored (``lifecycle_of``)."""
    for e in events:
        gid = e.originator_id
        if isinstance(e, Game.Created):
            kind = " (a setup position)" if e.rig is not None else ""
            log.info("game %s created: %s, %s seats%s", gid, e.ruleset, e.spec.get("seats"), kind)
        elif isinstance(e, Game.BranchMade):
            log.info("game %s is a branch of game %s from its step %d (deal: %s)", gid, e.game, e.step, e.deal)
        elif isinstance(e, Game.StartRequested):
            log.info("game %s started", gid)
        elif isinstance(e, Game.Finished):
            log.info("game %s finished after %d events", gid, e.seq)
        elif isinstance(e, Game.Cancelled):
            log.info("game %s %s in the lobby", gid, e.reason)
        elif isinstance(e, Game.CommandAccepted) and e.by == "timeout":
            c = e.command
            gone = "; the seat is given to a bot" if c.get("abandon") else ""
            said = "game %s: seat %s's clock ran out on a '%s' decision (%s in a row)%s"
            log.info(said, gid, e.seat, c["kind"], c["count"], gone)
