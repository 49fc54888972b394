"""Play whole games in-process with bots. Pure: progress is reported through a callback."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from aegis.domain.everaegis.bots import make_bot
from aegis.domain.everaegis.classic import ClassicCatalog
from aegis.domain.everaegis.config import make_config
from aegis.domain.everaegis.flow import waiting
from aegis.domain.everaegis.ruleset import RULESET
from aegis.domain.kernel.events import Event, canonical_json


@dataclass
class GameRecord:
    seed: str
    events: list[Event]
    commands: list[dict[str, Any]]
    finished: bool
    result: str | None
    winners: list[int]
    turns: int


@dataclass
class Summary:
    games: int = 0
    finished: int = 0
    draws: int = 0
    unfinished: int = 0
    events: int = 0
    digest: str = ""

    def line(self) -> str:
        return (
            f"games={self.games} finished={self.finished} draws={self.draws} "
            f"unfinished={self.unfinished} events={self.events} digest={self.digest}"
        )


def game_seed(seed: str | int, index: int) -> str:
    return f"{seed}/{index}"


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
    """One complete game. Bots see only their own view and prompts; commands carry no clock."""
    config = make_config(seats=seats, variants=variants, reaction_seconds=0, options=options, selection=selection, mobs=mobs)
    events = RULESET.start(config, seed, catalog=catalog)
    state = RULESET.fold(config, events)
    players = [
        make_bot(bots[i % len(bots)], int.from_bytes(hashlib.sha256(f"{seed}#{i}".encode()).digest()[:8], "big"))
        for i in range(seats)
    ]
    commands: list[dict[str, Any]] = []
    while state.status != "finished" and state.play.turn <= max_turns:
        needs = waiting(state)
        if not needs:
            raise AssertionError(f"game {seed} is stuck at seq {state.seq}: nobody has a decision")
        seat = needs[0].seat  # several seats may be asked at once (a window): the first in turn order answers first
        command = players[seat].choose(RULESET.view(state, seat), RULESET.prompts(state, seat))
        if command is None:
            raise AssertionError(f"bot at seat {seat} declined a blocking decision in game {seed}")
        commands.append(command)
        events.extend(RULESET.push(state, command))
    return GameRecord(
        seed=seed,
        events=events,
        commands=commands,
        finished=state.status == "finished",
        result=state.outcome.result,
        winners=list(state.outcome.winners),
        turns=state.play.turn,
    )


def log_bytes(events: list[Event]) -> bytes:
    """A game's event log in canonical JSON, one event a line: what the digest is taken over."""
    return b"".join(canonical_json(e.to_dict()).encode() + b"\n" for e in events)


def _play_for_digest(
    job: tuple[int, str, Any, list[str], int, dict[str, Any] | None, str | None, ClassicCatalog | None, list[int] | None],
) -> tuple[bytes, int, bool, str | None]:
    seats, seed, variants, bots, max_turns, options, selection, catalog, mobs = job
    record = play_game(
        seats=seats,
        variants=variants,
        seed=seed,
        bots=bots,
        max_turns=max_turns,
        options=options,
        selection=selection,
        catalog=catalog,
        mobs=mobs,
    )
    return log_bytes(record.events), len(record.events), record.finished, record.result


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
    """Play ``games`` games; the digest is SHA-256 over every game's canonical event log, in game order.

    With ``workers`` > 1 the games are played in that many processes; results are taken in game
    order, so the digest is the same as with one.
    """
    bots = bots or ["random"]
    config = make_config(seats=seats, variants=variants, options=options, selection=selection, mobs=mobs)
    RULESET.components(config, catalog)  # refuse a bad configuration (or unplayable components) before any work
    jobs = [(seats, game_seed(seed, i), variants, bots, max_turns, options, selection, catalog, mobs) for i in range(games)]
    digest = hashlib.sha256()
    out = Summary()

    def take(result: tuple[bytes, int, bool, str | None]) -> None:
        log, count, finished, outcome = result
        digest.update(log)
        out.games += 1
        out.events += count
        if finished:
            out.finished += 1
            out.draws += outcome == "draw"
        else:
            out.unfinished += 1
        if progress:
            progress(out.games, games)

    if workers > 1:
        import multiprocessing

        with multiprocessing.get_context("spawn").Pool(workers) as pool:
            for result in pool.imap(_play_for_digest, jobs, chunksize=4):
                take(result)
    else:
        for job in jobs:
            take(_play_for_digest(job))
    out.digest = digest.hexdigest()
    return out
