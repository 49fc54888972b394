"""Play whole games of any ruleset in-process with its bots. Pure: progress is reported through a callback.

A game is described as the service describes a game's creation: ``spec``, the fields ``Ruleset.make_config``
takes. Ever Aegis's own keywords (seats, variants, options, ...) are in ``everaegis/simulation.py``."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from aegis.domain.kernel.events import Event, canonical_json
from aegis.domain.kernel.ruleset import Ruleset


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
    rules: Ruleset, spec: dict[str, Any], *, seed: str, bots: list[str], max_turns: int = 500, catalog: Any = None
) -> GameRecord:
    """One complete game. Bots see only their own view and prompts; commands carry no clock."""
    config = rules.make_config(spec)
    events = rules.start(config, seed, components=rules.components(config, catalog))
    state = rules.fold(config, events)
    players = [
        rules.bots[bots[i % len(bots)]](int.from_bytes(hashlib.sha256(f"{seed}#{i}".encode()).digest()[:8], "big"))
        for i in range(config.seats)
    ]
    commands: list[dict[str, Any]] = []
    while not rules.is_finished(state) and rules.turn(state) <= max_turns:
        needs = rules.awaited(state)
        if not needs:
            raise AssertionError(f"game {seed} is stuck at seq {state.seq}: nobody has a decision")
        seat = needs[0][0]  # several seats may be asked at once (a window): the first in turn order answers first
        command = players[seat].choose(rules.view(state, seat), rules.prompts(state, seat))
        if command is None:
            raise AssertionError(f"bot at seat {seat} declined a blocking decision in game {seed}")
        commands.append(command)
        events.extend(rules.push(state, command))
    result, winners = rules.outcome(state)
    return GameRecord(
        seed=seed,
        events=events,
        commands=commands,
        finished=rules.is_finished(state),
        result=result,
        winners=winners,
        turns=rules.turn(state),
    )


def log_bytes(events: list[Event]) -> bytes:
    """A game's event log in canonical JSON, one event a line: what the digest is taken over."""
    return b"".join(canonical_json(e.to_dict()).encode() + b"\n" for e in events)


def _play_for_digest(job: tuple[Ruleset, dict[str, Any], str, list[str], int, Any]) -> tuple[bytes, int, bool, str | None]:
    rules, spec, seed, bots, max_turns, catalog = job
    record = play_game(rules, spec, seed=seed, bots=bots, max_turns=max_turns, catalog=catalog)
    return log_bytes(record.events), len(record.events), record.finished, record.result


def simulate(
    rules: Ruleset,
    spec: dict[str, Any],
    *,
    games: int,
    seed: str | int = 0,
    bots: list[str] | None = None,
    max_turns: int = 500,
    progress: Callable[[int, int], Any] | None = None,
    workers: int = 1,
    catalog: Any = None,
) -> Summary:
    """Play ``games`` games; the digest is SHA-256 over every game's canonical event log, in game order.

    With ``workers`` > 1 the games are played in that many processes; results are taken in game
    order, so the digest is the same as with one.
    """
    bots = bots or ["random"]
    unknown = [b for b in bots if b not in rules.bots]
    if unknown:
        raise ValueError(f"unknown bot(s) {', '.join(unknown)}; bots: {', '.join(rules.bots)}")
    rules.components(rules.make_config(spec), catalog)  # refuse a bad configuration (or components) before any work
    jobs = [(rules, spec, game_seed(seed, i), bots, max_turns, catalog) for i in range(games)]
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
