"""``aegis``: the command line of the Aegis game service.

Subcommands: ``serve`` (the REST API), ``play`` (a game against bots through the API), ``project``
and ``rebuild-projections`` (the views), ``simulate``
(play complete games with bots, in-process) and ``bench`` (benchmarks).
Run ``aegis <command> --help`` for each one's options.
"""

from __future__ import annotations

import argparse
import importlib.util
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from aegis.cli import catalog, game_options, play, project, records, serve
from aegis.domain.kernel.errors import DomainError
from aegis.service import rulesets
from aegis.service.rulesets import BOT_NAMES, RULESETS


def _simulate(args: argparse.Namespace) -> int:
    from aegis.cli.progress import Progress
    from aegis.domain.simulation import simulate
    from aegis.service.settings import read_catalog

    bots = [b.strip() for b in args.bots.split(",") if b.strip()]
    if not bots:
        print(f"aegis simulate: --bots names at least one bot ({', '.join(BOT_NAMES)}), not {args.bots!r}", file=sys.stderr)
        return 2
    if args.games < 1:
        print("aegis simulate: --games must be at least 1", file=sys.stderr)
        return 2
    if args.max_turns < 1:
        print("aegis simulate: --max-turns must be at least 1", file=sys.stderr)
        return 2
    if args.workers < 1:
        print("aegis simulate: --workers must be at least 1", file=sys.stderr)
        return 2
    try:
        options = game_options.parse(args.option)
    except ValueError as err:
        print(f"aegis simulate: {err}", file=sys.stderr)
        return 2
    mobs: list[int] | None = None
    if args.mobs is not None:
        parts = [m.strip() for m in args.mobs.split(",") if m.strip()]
        if not all(m.isdigit() for m in parts):
            print(f"aegis simulate: --mobs takes seat numbers separated by commas, not {args.mobs!r}", file=sys.stderr)
            return 2
        mobs = [int(m) for m in parts]
    name = args.ruleset or rulesets.DEFAULT
    if name is None:
        print(f"aegis simulate: --ruleset names the ruleset to play: this service hosts {', '.join(RULESETS)}", file=sys.stderr)
        return 2
    progress = None if args.quiet else Progress(args.games, f"simulate {args.variant or name} x{args.seats}")
    try:
        spec: dict[str, Any] = {"seats": args.seats, "reaction_seconds": 0}
        found = {"variant": args.variant, "options": options or None, "selection": args.selection, "mobs": mobs}
        summary = simulate(
            RULESETS[name],
            spec | {k: v for k, v in found.items() if v is not None},
            games=args.games,
            seed=args.seed,
            bots=bots,
            max_turns=args.max_turns,
            progress=progress,
            workers=args.workers,
            catalog=read_catalog(args.catalog) if args.catalog else None,
        )
    except ValueError as exc:  # bots the ruleset has not: refused before any game is played
        print(f"aegis simulate: {exc}", file=sys.stderr)
        return 2
    except DomainError as exc:
        print(f"aegis simulate: {exc.message}" + (f" ({exc.rule})" if exc.rule else ""), file=sys.stderr)
        return 2
    print(summary.line())
    return 0


CHECKOUT = Path(__file__).resolve().parents[1]  # the repository, when the service runs from a checkout


def benchmarks_here() -> bool:
    """Are the benchmarks beside this installation (a checkout: ``pip install -e .``)? They are not installed with the
    service."""
    return (CHECKOUT / "benchmarks" / "run.py").is_file()


def _suites() -> tuple[tuple[str, ...], str]:
    """The benchmark suites' names and what a suite's size means, read from the checkout's ``benchmarks/suites.py``
    without putting the checkout on the import path (only ``aegis bench`` itself does)."""
    spec = importlib.util.spec_from_file_location("aegis_bench_suites", CHECKOUT / "benchmarks" / "suites.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return tuple(module.SUITES), str(module.SIZE_MEANS)


def _bench(args: argparse.Namespace) -> int:
    if benchmarks_here() and str(CHECKOUT) not in sys.path:
        sys.path.insert(0, str(CHECKOUT))  # the benchmarks are run from the checkout, not installed
    if not benchmarks_here():
        print(
            "aegis bench: the benchmarks are not installed with the service; run it from a checkout of the repository "
            "(python3 -m venv .venv && .venv/bin/pip install -e . there)",
            file=sys.stderr,
        )
        return 2
    from benchmarks.run import main as bench_main
    from benchmarks.suites import ROOT

    if args.games is not None and args.games < 1:
        print("aegis bench: --games (--size) must be at least 1", file=sys.stderr)
        return 2
    return bench_main(args.suite, args.games, docs=ROOT / "docs" if args.docs else None)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="aegis", description="Aegis: an event-sourced Ever Aegis game service.")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    serve.add_parser(sub)
    play.add_parser(sub)
    project.add_parsers(sub)
    records.add_parsers(sub)
    catalog.add_parser(sub)

    sim = sub.add_parser(
        "simulate",
        help="play complete games with bots, in-process",
        description=(
            "Play complete games with bots in-process and print one summary line: "
            "games=N finished=F draws=D unfinished=U events=E digest=<sha256 over every game's event log>. "
            "The same arguments always give the same digest."
        ),
    )
    sim.add_argument("--games", type=int, default=100, help="how many games to play (default 100)")
    sim.add_argument(
        "--ruleset",
        choices=list(RULESETS),
        default=None,
        help=f"the ruleset to play (hosted: {', '.join(RULESETS)}; default: the only one, required when several are)",
    )
    seats = game_options.creation_field("seats")
    low, high = seats.get("minimum", 1), seats.get("maximum", 100)
    sim.add_argument(
        "--seats",
        type=int,
        default=4,
        choices=range(low, high + 1),
        metavar=f"{{{low}..{high}}}",
        help="seats per game (default 4)",
    )
    variant = game_options.creation_field("variant")
    sim.add_argument(
        "--variant", default=variant.get("default"), help=f"{variant.get('description', 'the variant')} (default %(default)s)"
    )
    sim.add_argument("--seed", default="0", help="master seed; game i uses '<seed>/<i>' (default 0)")
    sim.add_argument(
        "--bots",
        default="random",
        help="bots by seat, comma-separated, repeated round the table "
        f"({', '.join(BOT_NAMES)}; default %(default)s)",
    )
    sim.add_argument(
        "--max-turns", type=int, default=500, help="stop a game after this many turns and count it unfinished (default 500)"
    )
    sim.add_argument(
        "--workers", type=int, default=1, help="processes to play games in parallel; the digest does not change (default 1)"
    )
    game_options.add_arguments(sim)
    sim.add_argument(
        "--catalog",
        metavar="FILE",
        default=None,
        help="a catalog file with the texts of your copy of the game (as AEGIS_CATALOG; default: the shipped one)",
    )
    sim.add_argument(
        "--mobs",
        default=None,
        metavar="SEATS",
        help=f"{game_options.creation_field('mobs').get('description', 'seats the rules play')}; e.g. 1,3",
    )
    sim.add_argument("--quiet", action="store_true", help="no progress bar")
    sim.set_defaults(run=_simulate)

    suites: tuple[str, ...] = ()  # an installed service without its checkout: the command says so when run
    size_means = "the suite's size"
    if benchmarks_here():
        suites, size_means = _suites()
    bench = sub.add_parser(
        "bench",
        help="run benchmarks (never part of the tests)",
        description="Run every benchmark suite (the default), or one, and print its table. Each writes JSON with the "
        "machine's description to benchmarks/results/; --docs also writes docs/performance.md and its plot. The store, "
        "load and projections suites use the PostgreSQL at 127.0.0.1:5432 (database test) and projections the Redis at "
        "127.0.0.1:6379. Every suite (the default) takes 4 to 6 minutes on a 2-core machine (230 s and 347 s in the runs "
        "of docs/performance.md); one suite's time is printed with its results.",
    )
    bench.add_argument(
        "suite",
        nargs="?",
        default="all",
        choices=["all", *suites] if suites else None,
        help="all (default); engine (decide+evolve); prompts (view sizes and options at 10 seats); "
        "store (the API on SQLite and PostgreSQL against bare saves); "
        "load (200 concurrent games over HTTP against gunicorn, on PostgreSQL with its table lock sampled, again without "
        "that lock, then on SQLite); "
        "projections (lag and rebuild; PostgreSQL and Redis); "
        "seek (replay steps of a long game); "
        "footprint (one long game in memory and its snapshots' bytes, against its log); "
        "streams (bots playing with and without 2,000 open event streams: command p99 ratio, every event delivered); "
        "peer (a move and every seat's new view on boardgame.io's server and on Aegis; needs Node and npm)",
    )
    bench.add_argument("--games", "--size", dest="games", type=int, default=None, help=size_means)
    bench.add_argument("--docs", action="store_true", help="also write docs/performance.md and docs/load-latency.png")
    bench.set_defaults(run=_bench)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "run", None):
        parser.print_help()
        return 2
    from aegis.domain.kernel.errors import MalformedCommand
    from aegis.service.store_open import StoreNotOpened

    try:
        return int(args.run(args))
    except MalformedCommand as err:  # a setting the service refuses: said in one line, naming it, not a traceback
        print(f"aegis: {err.message}", file=sys.stderr)
        return 2
    except StoreNotOpened as err:  # no such database, nothing on its port, no such folder: one line naming the store
        print(f"aegis: {err.message}", file=sys.stderr)
        return 1
    except BrokenPipeError:
        return _reader_gone()


def _reader_gone() -> int:
    """Standard output's reader stopped reading (``aegis export G | head``): end quietly, as Python's documentation
    advises (the output left unwritten goes nowhere instead of raising again as the interpreter flushes it at exit),
    with rc 1: not everything was written."""
    import os

    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    return 1


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
