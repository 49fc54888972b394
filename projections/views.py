"""The projector: stored events in, what processes share out. Derived only from events.

For every game an event touches it writes the game's row in the lobby and places it in the lobby's index
(``projections/lobby.py``); for every dispute opened or settled, its place in the dispute lists
(``projections/disputes.py``). When a game ends, its registered players' records (rating, results, statistics) and
game lists (``projections/players.py``); when a player registers, their record. It folds each game's events into a
``Game`` aggregate in memory; after a restart a game it has not seen yet is loaded from the store at the version
just before the first event it must apply.

Views of a game (each seat's, the spectator's) are not projected: the service computes them on read from the game it
holds, and keeps the latest (``service.views.ViewCache``). Building every seat's view after every command cost as
much as the command; a read computes only the view asked for, once per version of the game.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any
from uuid import UUID

from eventsourcing.domain import Aggregate
from eventsourcing.persistence import Notification

from aegis.domain.kernel.events import event_from_dict
from aegis.projections import disputes, lobby, players
from aegis.projections.store import PREFIX, Batch, ViewStore
from aegis.service import names
from aegis.service.aggregate import Game
from aegis.service.bounded import LRU
from aegis.service.dispute import Dispute
from aegis.service.games import GameStore
from aegis.service.players import Player
from aegis.service.rulesets import ruleset_named
from aegis.service.topics import stored_topics
from aegis.service.views import seats_of, summary_of

LOBBY = lobby.LOBBY
PLAYERS = PREFIX + "players"  # name key -> the player's record
KEEP_GAMES = 500  # games the projector keeps folded (``Settings.cache_games``)
OVER = ("finished", "cancelled", "expired")  # no more events of play (a finished game may still get a Branched)
# the events a game's lobby row is made of (``summary_of``: its status, seats and whether it is rigged). The projector
# reads no other event of a game: the ruleset's events (nearly all of them) change no row, and reading, decoding and
# folding them in every process that projects cost as much CPU as serving the commands (``aegis bench load``)
ROW_EVENTS = (Game.Created, Game.SeatTaken, Game.StartRequested, Game.BranchMade, Game.Finished, Game.Cancelled)


def _events_of(aggregate: type[Aggregate]) -> list[type[Aggregate.Event]]:
    return [c for c in vars(aggregate).values() if isinstance(c, type) and issubclass(c, Aggregate.Event)]


_PROJECTED: list[type[Aggregate.Event]] = [*ROW_EVENTS, Player.Registered, *_events_of(Dispute)]
TOPICS = stored_topics(_PROJECTED)  # what the projector reads


def player_games_key(key: str) -> str:
    """The hash of a registered player's finished games (game id -> the game as their list shows it), by the
    player's name key (``service.names.key``)."""
    return f"{PREFIX}player-games:{key}"


class Projector:
    def __init__(self, app: GameStore, store: ViewStore, keep: int = KEEP_GAMES):
        self.app = app
        self.store = store  # read for the player records a batch changes
        # the games folded so far, at most ``keep`` (AEGIS_CACHE_GAMES), and none that is over: a game not here is
        # loaded from the store at the version before its next event
        self.games: LRU[UUID, Game] = LRU(keep)

    def forget(self) -> None:
        self.games.clear()

    def project(self, notifications: Sequence[Notification]) -> Batch:
        """The writes for a run of notifications (in order), of the topics ``TOPICS`` only."""
        batch = Batch()
        touched: dict[UUID, Game] = {}
        records: dict[str, dict[str, Any]] = {}  # player records read or changed by this batch
        for n in notifications:
            event = self.app.mapper.to_domain_event(n)
            if isinstance(event, Player.Registered):
                record = players.new_record(event.name, event.at)
                records[names.key(event.name)] = record
                batch.hset(PLAYERS, names.key(event.name), record)
                continue
            if isinstance(event, Dispute.Event):
                disputes.project(batch, self.store, event)  # the dispute lists (projections/disputes.py)
                continue
            assert isinstance(event, ROW_EVENTS), f"not a lobby row's event: {type(event).__name__}"
            gid = UUID(str(event.originator_id))
            if isinstance(event, Game.Created):
                game = event.mutate(None)
            else:
                game = self.games.get(gid) or self._load(gid, event.originator_version - 1)
                event.apply(game)  # the lifecycle only: no ruleset event is read or folded (the row needs none)
            assert isinstance(game, Game), f"game {gid} is not a game after {type(event).__name__}"
            self.games[gid] = touched[gid] = game
            if isinstance(event, Game.Finished):
                self._finished(batch, records, game, event)
        for gid, game in touched.items():
            lobby.write(batch, summary_of(game))  # the row and its places in the lobby's index
            if game.status in OVER:
                self.games.pop(gid)  # its row is final
        return batch

    def _load(self, gid: UUID, version: int) -> Game:
        """A game this projector has not folded (after a restart, or one it let go): as stored up to ``version``."""
        game: object = self.app.repository.get(gid, version=version)
        assert isinstance(game, Game), f"{gid} is not a game"
        return game

    def _finished(self, batch: Batch, records: dict[str, dict[str, Any]], game: Game, event: Game.Finished) -> None:
        """A game ended: its registered players' records and game lists (``projections/players.py``). Only a game a
        registered player sat in is read whole (its log, for the statistics); guests' and bots' games cost nothing."""
        keys = {names.key(s["player"]) for s in game.seats if s.get("player")}
        for key in keys - records.keys():
            found = self.store.hget(PLAYERS, key)
            if found is not None:
                records[key] = found
        if not keys & records.keys():
            return
        whole = self._load(game.id, event.originator_version)  # with its ruleset state, as it ended
        rules = ruleset_named(whole.ruleset)
        log = self.app.payloads(whole, 1, whole.seq)
        summary = rules.summarize(rules.make_config(whole.started_config), [event_from_dict(e) for e in log])
        row = {"id": str(whole.id), "ruleset": whole.ruleset, "variant": rules.variant(whole.spec), "rigged": whole.rigged}
        row["finished_at"] = event.timestamp.timestamp()
        for key, listed in players.finish(records, row, summary, seats_of(whole)).items():
            batch.hset(PLAYERS, key, records[key])
            batch.hset(player_games_key(key), str(whole.id), listed)
