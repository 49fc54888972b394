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
        (["simulate", "--bots", ",", "--quiet"], "--bots names at least one bot"),
        (["simulate", "--workers", "0", "--quiet"], "--workers must be at least 1"),
        (["simulate", "--workers", "-5", "--quiet"], "--workers must be at least 1"),
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


def test_simulate_help_states_the_default_bots(capsys):
    """F3: the default of --bots is said (random at every seat), as the digests show."""
    with pytest.raises(SystemExit):
        main(["simulate", "--help"])
    assert "default random)" in " ".join(capsys.readouterr().out.split())


@pytest.mark.parametrize(
    "argv, message",
    [
        (["--url", "notaurl"], "aegis play: --url must be http(s)://host[:port]"),
        (["--url", "ftp://127.0.0.1:8000"], "aegis play: --url must be http(s)://host[:port]"),
        (["--url", "http://127.0.0.1:99999"], "aegis play: --url must be http(s)://host[:port]"),
        (["--url", "http://:8000"], "aegis play: --url must be http(s)://host[:port]"),
        (["--bots", ","], "aegis play: bots are cautious, random"),
        (["--bots", ""], "aegis play: bots are cautious, random"),
        (["--turn-seconds", "nan"], "aegis play: --turn-seconds is a number of seconds (0: no clock), not nan"),
        (["--turn-seconds", "inf"], "aegis play: --turn-seconds is a number of seconds (0: no clock), not inf"),
        (["--turn-seconds", "-1"], "aegis play: --turn-seconds is a number of seconds (0: no clock), not -1.0"),
    ],
)
def test_play_refuses_a_bad_url_or_bot_list_in_one_line_before_calling_the_service(capsys, argv, message):
    """F1, F2: refused with rc 2 and one line, before anything is asked of the service (nothing listens at the port
    given here: a call would say 'cannot reach' with rc 1)."""
    from tests.system.test_serve import free_port

    assert main(["play", "--auto", "--url", f"http://127.0.0.1:{free_port()}", *argv]) == 2
    err = capsys.readouterr().err
    assert err.startswith(message) and err.count("\n") == 1 and "Traceback" not in err, err


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


def test_play_menu_says_what_a_pick_lacks_and_counts_in_the_singular_for_one():
    """F17, F16: a pick of 2 given one number says 'pick exactly 2'; a number past the list and a repeated one say
    so; a kind with one option is '(1 option)'."""
    out = io.StringIO()
    command = play._menu(_prompt_with_params(), out, io.StringIO("2\n0\n0 7\n3 3\n0 3\n"))
    assert command["sanctions"] == [{"seat": 1, "action": "war"}, {"seat": 2, "action": "temple"}]
    said = out.getvalue()
    assert "that is not a valid pick: pick exactly 2, not 1" in said
    assert "that is not a valid pick: each pick is a number 0 to 3" in said
    assert "that is not a valid pick: pick each number once" in said
    prompt = _prompt_with_params()
    prompt["options"] += [{**prompt["options"][1], "label": f"War on seat {i}"} for i in range(8)]
    out = io.StringIO()
    assert play._menu(prompt, out, io.StringIO("q\n")) is None
    assert "[0] Recruit (1 option)\n" in out.getvalue() and "[1] War (9 options)" in out.getvalue()


def test_play_says_how_the_game_ended_in_words():
    """F12: 'game over: win, won by X' repeated the result; now who won, or a draw, and why."""
    seats = [{"name": "Player"}, {"name": "Random bot 1"}]

    def view(result: str, winners: list[int]) -> dict:
        return {"seats": seats, "table": {"result": {"result": result, "winners": winners, "reason": "why (R9)"}}}

    assert play.outcome(view("win", [1])) == "Random bot 1 won (why (R9))"
    assert play.outcome(view("win", [0, 1])) == "Player, Random bot 1 won (why (R9))"
    assert play.outcome(view("draw", [])) == "a draw (why (R9))"
    assert play.count(1, "move") == "1 move" and play.count(0, "move") == "0 moves"


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


@pytest.mark.parametrize("port", ["99999", "65536", "0", "-1", "eighty"])
def test_serve_refuses_a_port_outside_1_to_65535_before_it_starts(capsys, port):
    """F13: --port 99999 was taken modulo 65536 by the socket (listening on 34463 while saying 99999); now argparse
    refuses it with rc 2, before any server or store is set up."""
    with pytest.raises(SystemExit) as exit_info:
        main(["serve", f"--port={port}"])
    assert exit_info.value.code == 2
    err = capsys.readouterr().err
    assert "aegis serve: error: argument --port: must be" in err and "1 to 65535" in err and "Traceback" not in err


@pytest.mark.parametrize("command", ["export", "import"])
def test_export_and_import_explain_themselves_in_their_help(capsys, command):
    """F17: the README says 'aegis <command> --help' explains each command; export and import showed a usage line
    alone."""
    with pytest.raises(SystemExit):
        main([command, "--help"])
    words = " ".join(capsys.readouterr().out.split())
    assert "aegis import" in words and "aegis verify" in words and "store the environment names" in words, words


def _readme_synopsis(command: str) -> str:
    from aegis.cli.main import CHECKOUT

    readme = (CHECKOUT / "README.md").read_text()
    start = readme.index(f"- `aegis {command} ")
    return readme[start : readme.index("`:", start)]


@pytest.mark.parametrize("command", ["play", "simulate", "serve", "bench"])
def test_the_readme_synopsis_names_every_option_and_suite(command):
    """F17: the README's synopsis of play lacked --name, simulate's --quiet, bench's footprint suite."""
    from aegis.cli.main import build_parser

    parser = build_parser()
    sub = next(a for a in parser._actions if a.dest == "command").choices[command]  # type: ignore[union-attr]
    synopsis = _readme_synopsis(command)
    for action in sub._actions:
        longest = max(action.option_strings, key=len, default="")
        if longest and longest != "--help":
            assert longest in synopsis, f"{longest} is not in the README's synopsis of aegis {command}: {synopsis}"
        elif action.choices and not longest:
            assert all(choice in synopsis for choice in action.choices), synopsis


def test_bench_help_and_readme_give_the_same_time_for_every_suite(capsys):
    """F17: 'aegis bench --help' said every suite takes about 3 minutes, the README 4 to 6 (the last two runs of
    docs/performance.md took 230 s and 347 s)."""
    from aegis.cli.main import CHECKOUT

    with pytest.raises(SystemExit):
        main(["bench", "--help"])
    words = " ".join(capsys.readouterr().out.split())
    assert "takes 4 to 6 minutes on a 2-core machine" in words, words
    assert "(4 to 6 minutes on 2 cores" in (CHECKOUT / "README.md").read_text()


def test_bench_engine_prints_one_command_in_the_singular(capsys):
    """F16: 'pay: 1 commands'."""
    from benchmarks.run import print_engine

    row = {"commands": 1, "us_per_command": 5.0, "events_per_command": 2.0, "ratio_to_evolving_its_events": 3.0}
    print_engine({"by_type": [{**row, "type": "pay"}, {**row, "type": "declare", "commands": 2}], "rows": []})
    out = capsys.readouterr().out
    assert "pay:      1 command,     5.0 us each" in out and "declare:      2 commands,    5.0 us each" in out, out
