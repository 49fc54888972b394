"""The names of the benchmark suites, their default sizes and where their results are written: read by the runner
(``run.py``), the report (``report.py``) and the command line (``aegis bench``)."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "benchmarks" / "results"

SUITES = ("engine", "prompts", "store", "load", "projections", "seek", "footprint", "streams", "peer")
DEFAULT_SIZE = {
    "engine": 40, "prompts": 3, "store": 10, "load": 200, "projections": 1000, "seek": 1, "footprint": 430,
    "streams": 2000, "peer": 1000,
}  # fmt: skip
SIZE_MEANS = (
    "the suite's size: games (engine 40, prompts 3 of 10 seats, store 10, load 200 concurrent), events for "
    "projections (1000), the least events of the footprint's game (430), open streams for streams (2000), move "
    "cycles for peer (1000); seek ignores it"
)
