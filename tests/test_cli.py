"""The ``aegis`` command line: help on every command, the simulate summary line, clear errors."""

from __future__ import annotations

import re

import pytest

from cli.main import main


def test_simulate_prints_one_summary_line(capsys):
    assert main(["simulate", "--games", "3", "--seats", "3", "--seed", "7", "--quiet"]) == 0
    out = capsys.readouterr().out.strip().splitlines()
    assert len(out) == 1
    assert re.fullmatch(r"games=3 finished=\d+ draws=\d+ unfinished=\d+ events=\d+ digest=[0-9a-f]{64}", out[0])


def test_simulate_same_arguments_same_digest(capsys):
    main(["simulate", "--games", "2", "--seats", "4", "--seed", "9", "--quiet", "--bots", "random,cautious"])
    first = capsys.readouterr().out
    main(["simulate", "--games", "2", "--seats", "4", "--seed", "9", "--quiet", "--bots", "random,cautious"])
    assert capsys.readouterr().out == first


def test_simulate_plays_mob_and_solo_games_to_the_end(capsys):
    """R173, R167: --mobs names mob seats; Solo makes every seat but 0 a mob."""
    for extra in (["--mobs", "1,3"], ["--variant", "simpleton+solo+quick"]):
        assert main(["simulate", "--games", "3", "--seats", "4", "--seed", "2", "--quiet", *extra]) == 0
        assert " unfinished=0 " in capsys.readouterr().out


def test_simulate_shows_progress_on_stderr(capsys):
    main(["simulate", "--games", "2", "--seats", "3"])
    assert "2/2" in capsys.readouterr().err


@pytest.mark.parametrize(
    "argv, message",
    [
        (["simulate", "--bots", "genius", "--quiet"], "unknown bot"),
        (["simulate", "--variant", "simpleton+chess", "--quiet"], "unknown variant"),
        (["simulate", "--variant", "classic", "--quiet"], "plain_unknown=1"),
        (["simulate", "--option", "undo", "--quiet"], "name=whole-number"),
        (["simulate", "--variant", "simpleton+long+survival", "--quiet"], "cannot be combined"),
        (["simulate", "--games", "0", "--quiet"], "--games must be at least 1"),
        (["simulate", "--mobs", "0,1,2,3", "--quiet"], "at least one seat must be a person"),
        (["simulate", "--mobs", "one", "--quiet"], "--mobs takes seat numbers"),
    ],
)
def test_simulate_refuses_bad_arguments_clearly(capsys, argv, message):
    assert main(argv) == 2
    assert message in capsys.readouterr().err


def test_every_command_has_help(capsys):
    for argv in (["--help"], ["simulate", "--help"], ["bench", "--help"]):
        with pytest.raises(SystemExit) as exit_info:
            main(argv)
        assert exit_info.value.code == 0
        assert "usage: aegis" in capsys.readouterr().out
