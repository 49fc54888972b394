"""The ``aegis`` command line: help on every command, the simulate summary line, clear errors."""

from __future__ import annotations

import io
import random
import re

import pytest

from aegis.cli import play
from aegis.cli.main import main


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


def _prompt_with_params() -> dict:
    """A declaration prompt as the service sends it: War with a target to pick, Library with 2 slots to pick."""
    war = {"label": "War on …", "group": "war", "command": {"type": "declare", "seat": 0, "action": "war"}}
    war["params"] = [
        {
            "name": "target",
            "min": 1,
            "max": 1,
            "distinct": True,
            "ordered": False,
            "choices": [{"label": "Jeff", "value": 1}, {"label": "Sally", "value": 2}],
        }
    ]
    slots = [
        {"label": f"{who}'s {a}", "value": {"seat": s, "action": a.lower()}}
        for s, who in ((1, "Jeff"), (2, "Sally"))
        for a in ("War", "Temple")
    ]
    library = {"label": "Library: SANCTION …", "group": "library", "command": {"type": "declare", "seat": 0, "action": "library"}}
    library["params"] = [{"name": "sanctions", "min": 2, "max": 2, "distinct": True, "ordered": False, "choices": slots}]
    recruit = {
        "label": "Recruit",
        "group": "recruit",
        "command": {"type": "declare", "seat": 0, "action": "recruit"},
        "params": [],
    }
    return {"kind": "declare", "text": "Ann: use 1 of your 8 actions", "options": [recruit, war, library]}


def test_play_menu_asks_the_option_then_each_parameter():
    """aegis play: the option, then its parameter (War: the target), then for a pick of 2 two numbers; a repeated
    number where values must differ is refused and asked again."""
    out = io.StringIO()
    assert play._menu(_prompt_with_params(), out, io.StringIO("1\n1\n")) == {
        "type": "declare",
        "seat": 0,
        "action": "war",
        "target": 2,
    }
    assert "[1] Sally" in out.getvalue()
    out = io.StringIO()
    command = play._menu(_prompt_with_params(), out, io.StringIO("2\n3 3\n0 3\n"))
    assert command["sanctions"] == [{"seat": 1, "action": "war"}, {"seat": 2, "action": "temple"}]
    assert "that is not a valid pick" in out.getvalue() and "pick 2, separated by spaces" in out.getvalue()
    assert play._menu(_prompt_with_params(), io.StringIO(), io.StringIO("r\n")) == {"type": "resign"}
    assert play._menu(_prompt_with_params(), io.StringIO(), io.StringIO("q\n")) is None


def test_play_auto_fills_every_parameter_within_its_bounds():
    rng = random.Random(3)
    for _ in range(50):
        for option in _prompt_with_params()["options"]:
            command = play.fill(option, rng)
            for p in option["params"]:
                values = [c["value"] for c in p["choices"]]
                picked = command[p["name"]] if p["max"] > 1 else [command[p["name"]]]
                assert p["min"] <= len(picked) <= p["max"] and all(v in values for v in picked)
                assert len({str(v) for v in picked}) == len(picked)


def test_play_menu_offers_every_open_decision_of_the_seat_at_once():
    """aegis play, R103: the End Phase asks two things at once (go on, or use the HAMMER); the menu lists both, and
    a single open decision is shown as it is."""
    from tests.domain.test_card_effects import hammer_table, recruit_until

    t = hammer_table(holder=3)
    recruit_until(t, 3)
    t.declare(3, "recruit")
    prompts = [p.to_dict() for p in t.prompts(3) if not p.free]
    menu = play.together(prompts)
    assert [o["command"]["type"] for o in menu["options"]] == ["end_phase", "use_item"]
    out = io.StringIO()
    assert play._menu(menu, out, io.StringIO("1\n")) == {"type": "use_item", "seat": 3, "item": "HAMMER"}
    assert "[0] Go on to the Demise Phase" in out.getvalue() and "[1] Use the HAMMER" in out.getvalue()
    assert play.together(prompts[:1]) is prompts[0]


def test_bench_without_its_checkout_says_how_to_get_it(capsys, monkeypatch, tmp_path):
    """The benchmarks are not installed with the service (the wheel holds no ``benchmarks`` package): an installed
    ``aegis bench`` away from a checkout says so and how to run it, instead of failing on an import."""
    import aegis.cli.main

    monkeypatch.setattr(aegis.cli.main, "CHECKOUT", tmp_path)  # an installation with no benchmarks beside it
    assert main(["bench", "engine"]) == 2
    err = capsys.readouterr().err
    assert "not installed with the service" in err and "checkout" in err


def test_the_command_line_leaves_the_import_path_alone_unless_it_runs_the_benchmarks(monkeypatch, capsys):
    """Every ``aegis`` command builds the same parser; only ``aegis bench`` puts the checkout on the import path (where
    its top-level folders would otherwise shadow any installed module of the same name: ``api``, ``domain``...)."""
    import sys

    import aegis.cli.main

    checkout = str(aegis.cli.main.CHECKOUT)
    monkeypatch.setattr(sys, "path", [p for p in sys.path if p not in (checkout, "", ".")])
    before = list(sys.path)
    aegis.cli.main.build_parser()
    assert sys.path == before
    with pytest.raises(SystemExit):
        main(["bench", "--help"])  # the suites are still offered, read from the checkout
    assert "{all,engine,prompts,store" in capsys.readouterr().out
    assert sys.path == before
