"""Settling disputes from the record: verify, export and import, audit."""

from __future__ import annotations

import hashlib
import json
import random
import sqlite3
import subprocess
import time
from uuid import UUID

import pytest

from aegis.domain.kernel.rng import commitment_of
from aegis.replay.records import audit, export_lines, import_lines, verify
from aegis.service.games import GameService
from aegis.service.settings import load
from tests.api_client import Api, command_of
from tests.system.test_serve import aegis, clean_env


def _finished(app, seed="record", seats=("human", "random", "cautious")):
    api = Api(app.test_client())
    gid, host, tokens = api.new_game(list(seats), seed=seed, reaction_seconds=0)
    api.start(gid, host)
    api.play_humans(gid, tokens, random.Random(3))
    return api, gid, tokens


def test_the_seed_is_recomputed_from_the_verify_answer_by_the_readmes_recipe_alone(sqlite_app):
    """README, "Checking a game yourself": with hashlib and json only, the commitment from the server's secret, and
    the seed from the secret and the contributions (the creator's seed, a seat's entropy, one with non-ASCII)."""
    api = Api(sqlite_app.test_client())
    created = api.create(seats=3, seed="créateur", reaction_seconds=0)
    gid = created["id"]
    tokens = {0: api.seat(gid, name="Ann", entropy="dé à coudre")["token"]}
    for _ in range(2):
        api.seat(gid, bot="random")
    api.start(gid, created["host_token"])
    api.play_humans(gid, tokens, random.Random(4))
    found = sqlite_app.test_client().get(f"/api/games/{gid}/verify").get_json()
    assert hashlib.sha256(found["server_secret"].encode()).hexdigest() == found["commitment"] == created["commitment"]
    contributions = {"creator": found["creator_seed"], **{f"seat {n}": e for n, e in found["seat_entropy"].items()}}
    text = json.dumps({"contributions": contributions, "secret": found["server_secret"]}, sort_keys=True, separators=(",", ":"))
    seed = hashlib.sha256(b"aegis-seed/1\n" + text.encode()).hexdigest()
    started = api.events(gid)["events"][0]
    assert started["type"] == "GameStarted" and seed == started["seed"] == found["seed"]


def test_a_finished_game_verifies_from_its_seed(sqlite_app):
    api, gid, _ = _finished(sqlite_app)
    result = sqlite_app.test_client().get(f"/api/games/{gid}/verify").get_json()
    assert result["ok"] is True, result["problems"]
    assert result["events"] == api.view(gid)["seq"] and result["commands"] > 10
    assert result["creator_seed"] == "record" and result["first_difference"] is None
    assert result["commitment"] == commitment_of(result["server_secret"]) and result["seed"] != "record"


def test_verify_waits_for_the_end_of_the_game(sqlite_app):
    api = Api(sqlite_app.test_client())
    gid, host, _ = api.new_game(["human", "random", "random"], reaction_seconds=0)
    api.start(gid, host)
    assert sqlite_app.test_client().get(f"/api/games/{gid}/verify").status_code == 409
    assert sqlite_app.test_client().get(f"/api/games/{gid}/export").status_code == 409


def test_a_tampered_draw_is_found_and_named(sqlite_env):
    from tests.conftest import close_app, make_app

    app = make_app(sqlite_env)
    _api, gid, _ = _finished(app, seed="tamper")
    close_app(app)
    original = _tamper_a_draw(sqlite_env["SQLITE_DBNAME"], gid)
    result = _verified(sqlite_env, gid)
    assert result["ok"] is False
    diff = result["first_difference"]
    assert diff["type"] == "CardDrawn" and diff["fields"] == ["name"] and diff["replayed"]["name"] == original
    assert result["problems"][0] == f"event {diff['seq']} (CardDrawn) differs in name"


def _tamper_a_draw(db_file, gid):
    """The fourth card drawn is stored under another name; returns its own."""
    version, state = _rows(db_file, gid, "CardDrawn")[3]
    drawn = json.loads(state)
    original = drawn["payload"]["name"]
    drawn["payload"]["name"] = "Temple" if original != "Temple" else "Mason"
    _rewrite(db_file, gid, version, drawn)
    return original


def _verified(env, gid):
    svc = GameService(load(env))
    try:
        return verify(svc, UUID(gid))
    finally:
        svc.close()


def _rows(db_file, gid, topic):
    db = sqlite3.connect(db_file)
    try:
        return db.execute(
            "SELECT originator_version, state FROM stored_events WHERE originator_id = ? AND topic LIKE ?",
            (UUID(gid).hex, f"%Game.{topic}"),
        ).fetchall()
    finally:
        db.close()


def _rewrite(db_file, gid, version, state):
    db = sqlite3.connect(db_file)
    db.execute(
        "UPDATE stored_events SET state = ? WHERE originator_id = ? AND originator_version = ?",
        (json.dumps(state).encode(), UUID(gid).hex, version),
    )
    db.commit()
    db.close()


def test_verify_names_the_rules_version_the_game_was_decided_under(sqlite_app):
    from aegis.domain.everaegis.ruleset import RULESET

    _, gid, _ = _finished(sqlite_app, seed="versions")
    result = sqlite_app.test_client().get(f"/api/games/{gid}/verify").get_json()
    assert result["ok"] is True and result["notes"] == []
    now = RULESET.rules_version
    assert result["rules"] == {"played_under": [{"version": now, "from_seq": 1}], "server": now}


def test_a_game_on_while_the_service_was_upgraded_records_the_new_rules_and_verify_says_so(sqlite_env, monkeypatch):
    """A game started under rules version N - 1 and finished after an upgrade: the first command decided under the
    new rules records the change (``RulesChanged``), and verify names both versions and where the new one began."""
    from aegis.domain.everaegis.ruleset import RULESET
    from tests.conftest import close_app, make_app

    now = RULESET.rules_version
    monkeypatch.setattr(RULESET, "rules_version", now - 1)  # the service before the upgrade
    app = make_app(sqlite_env)
    api = Api(app.test_client())
    gid, host, tokens = api.new_game(["human", "random", "cautious"], seed="upgrade", reaction_seconds=0)
    api.start(gid, host)
    rng = random.Random(5)
    for _ in range(3):
        prompts = [p for p in api.view(gid, tokens[0])["prompts"] if not p["free"]]
        assert api.post(gid, tokens[0], command_of(rng.choice(prompts[0]["options"]), rng)).status_code == 200
    close_app(app)
    monkeypatch.setattr(RULESET, "rules_version", now)  # the upgraded service goes on with the game
    app = make_app(sqlite_env)
    api = Api(app.test_client())
    upgraded_at = api.view(gid, tokens[0])["seq"] + 1
    api.play_humans(gid, tokens, rng)
    result = app.test_client().get(f"/api/games/{gid}/verify").get_json()
    close_app(app)
    assert result["ok"] is True, result["problems"]
    assert result["rules"] == {
        "played_under": [{"version": now - 1, "from_seq": 1}, {"version": now, "from_seq": upgraded_at}],
        "server": now,
    }
    assert result["notes"] == [
        f"the game was decided from event 1 under rules version {now - 1}; this server re-decides it under rules version "
        f"{now}, and the record replays the same"
    ]
    assert len(_rows(sqlite_env["SQLITE_DBNAME"], gid, "RulesChanged")) == 1


def test_a_record_from_before_rules_versions_that_differs_says_the_rules_may_have_changed(sqlite_env, tmp_path):
    """A game stored before versions were recorded (no ``rules_version`` at its start) whose replay differs: verify
    cannot tell a change of the rules from a changed record, and says so, in the API and on the command line."""
    from tests.conftest import close_app, make_app

    app = make_app(sqlite_env)
    _api, gid, _ = _finished(app, seed="unnumbered")
    close_app(app)
    db_file = sqlite_env["SQLITE_DBNAME"]
    [(version, state)] = _rows(db_file, gid, "StartRequested")
    started = json.loads(state)
    del started["rules_version"]
    _rewrite(db_file, gid, version, started)
    _tamper_a_draw(db_file, gid)
    db = sqlite3.connect(db_file)
    db.execute("DELETE FROM stored_snapshots")  # taken under today's code: a game stored before versions had none of this
    db.commit()
    db.close()
    result = _verified(sqlite_env, gid)
    assert result["ok"] is False and result["rules"]["played_under"] == [{"version": None, "from_seq": 1}]
    said = result["notes"][0]
    assert "under rules from before versions were numbered" in said and "can come from that change of the rules" in said
    out = subprocess.run(aegis("verify", gid), env={**clean_env(), **sqlite_env}, capture_output=True, text=True, timeout=60)
    assert out.returncode == 1 and "NOT verified" in out.stdout and f"note: {said}" in out.stdout


def test_export_then_import_into_another_store_gives_the_same_game(sqlite_app, postgres_env):
    _api, gid, _ = _finished(sqlite_app, seed="travel")
    exported = sqlite_app.test_client().get(f"/api/games/{gid}/export")
    assert exported.status_code == 200 and exported.mimetype == "application/x-ndjson"
    lines = exported.get_data(as_text=True).splitlines()
    assert json.loads(lines[0])["format"] == "aegis-game/1"
    other = GameService(load(postgres_env))
    try:
        assert str(import_lines(other, lines)) == gid
        here = sqlite_app.extensions["aegis"]
        assert other.view(UUID(gid), None) == here.view(UUID(gid), None)
        assert other.events(UUID(gid), None, 0, 5000) == here.events(UUID(gid), None, 0, 5000)
        assert verify(other, UUID(gid)) == verify(here, UUID(gid))
        assert list(export_lines(other, UUID(gid))) == lines
        again = None
        try:
            import_lines(other, lines)
        except Exception as err:
            again = err
        assert again is not None and "already" in str(again)
    finally:
        other.close()


def _sha256(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def test_an_export_carries_no_token_nor_its_hash_yet_imports_and_verifies(sqlite_app, tmp_path):
    api = Api(sqlite_app.test_client())
    gid, host, tokens = api.new_game(["human", "human", "random"], seed="no-secrets", reaction_seconds=0)
    api.start(gid, host)
    api.play_humans(gid, tokens, random.Random(5))
    here = sqlite_app.extensions["aegis"]
    secrets = [host, *tokens.values()]
    stored = b"".join(row.state for row in here.store.recorder.select_events(UUID(gid)))
    assert all(_sha256(t).encode() in stored for t in secrets)  # the store keeps the hashes: the export removes them
    body = sqlite_app.test_client().get(f"/api/games/{gid}/export").get_data(as_text=True)
    for secret in secrets:
        assert secret not in body and _sha256(secret) not in body
    header, *rows = [json.loads(line) for line in body.splitlines()]
    assert header["token_hashes"] == "removed" and header["events"] == len(rows)
    created = next(r["state"] for r in rows if r["topic"].endswith("Game.Created"))
    assert "host_token_hash" in created and created["host_token_hash"] is None
    assert [r["state"]["token_hash"] for r in rows if r["topic"].endswith("Game.SeatTaken")] == [None, None, None]
    assert [k for r in rows for k, v in r["state"].items() if k.endswith("_hash") and v is not None] == []
    other = GameService(load({"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": str(tmp_path / "other.sqlite")}))
    try:
        assert str(import_lines(other, body.splitlines())) == gid
        assert verify(other, UUID(gid))["ok"] is True
        assert verify(other, UUID(gid)) == verify(here, UUID(gid))
        assert other.view(UUID(gid), None) == here.view(UUID(gid), None)
        assert audit(other, UUID(gid), 30, "omniscient") == audit(here, UUID(gid), 30, "omniscient")
        assert list(export_lines(other, UUID(gid))) == body.splitlines()
    finally:
        other.close()


def test_a_branch_imported_without_its_original_verifies_and_says_what_it_could_not_check(sqlite_app, tmp_path):
    """A finished branch exported and imported alone: verify makes its opening again from its own copies of the
    original's events (the original is not there to read) and says so in 'notes'; the same branch verified beside its
    original has no note."""
    api = Api(sqlite_app.test_client())
    gid, host, tokens = api.new_game(["human", "human", "random"], seed="branch-export", reaction_seconds=0)
    api.start(gid, host)
    api.play_humans(gid, tokens, random.Random(7))
    made = api.c.post(f"/api/games/{gid}/branches", json={"step": 12}).get_json()
    seated = {i: api.seat(made["id"], name=f"B{i}")["token"] for i in range(3)}
    api.start(made["id"], made["host_token"])
    api.play_humans(made["id"], seated, random.Random(8))
    here = sqlite_app.extensions["aegis"]
    bid = UUID(made["id"])
    assert verify(here, bid)["ok"] is True and verify(here, bid)["notes"] == []
    body = list(export_lines(here, bid))
    other = GameService(load({"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": str(tmp_path / "alone.sqlite")}))
    try:
        import_lines(other, body)
        alone = verify(other, bid)
        assert alone["ok"] is True, alone["problems"]
        assert len(alone["notes"]) == 1 and gid in alone["notes"][0]
    finally:
        other.close()


def test_an_export_written_with_token_hashes_is_imported_without_them(sqlite_app, tmp_path):
    """Exports made before the hashes were removed still import; the store keeps none of their hashes."""
    _api, gid, tokens = _finished(sqlite_app, seed="old-export")
    lines = list(export_lines(sqlite_app.extensions["aegis"], UUID(gid)))
    header, *rows = [json.loads(line) for line in lines]
    del header["token_hashes"]
    for r in rows:
        if r["topic"].endswith("Game.SeatTaken") and r["state"]["seat"] == 0:
            r["state"]["token_hash"] = _sha256(tokens[0])
    other = GameService(load({"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": str(tmp_path / "other.sqlite")}))
    try:
        import_lines(other, [json.dumps(header), *(json.dumps(r) for r in rows)])
        stored = b"".join(row.state for row in other.store.recorder.select_events(UUID(gid)))
        assert _sha256(tokens[0]).encode() not in stored
        assert verify(other, UUID(gid))["ok"] is True
    finally:
        other.close()


def test_the_command_line_exports_imports_and_verifies(sqlite_app, tmp_path, sqlite_env):
    _, gid, tokens = _finished(sqlite_app, seed="cli")
    env = {**clean_env(), **sqlite_env}
    out = tmp_path / "game.ndjson"
    exported = subprocess.run(aegis("export", gid, "-o", str(out)), env=env, capture_output=True, text=True, timeout=60)
    assert exported.returncode == 0, exported.stderr
    assert not [t for t in tokens.values() if t in out.read_text() or _sha256(t) in out.read_text()]
    target = {**clean_env(), "SQLITE_DBNAME": str(tmp_path / "other.sqlite")}
    imported = subprocess.run(aegis("import", str(out)), env=target, capture_output=True, text=True, timeout=60)
    assert imported.returncode == 0 and gid in imported.stdout, imported.stderr
    verified = subprocess.run(aegis("verify", gid), env=target, capture_output=True, text=True, timeout=60)
    assert verified.returncode == 0 and verified.stdout.startswith("verified: "), verified.stdout + verified.stderr
    audited = subprocess.run(aegis("audit", gid, "--step", "30"), env=target, capture_output=True, text=True, timeout=60)
    assert audited.returncode == 0, audited.stderr
    assert json.loads(audited.stdout) == sqlite_app.test_client().get(f"/api/games/{gid}/audit?step=30&as=omniscient").get_json()
    missing = subprocess.run(aegis("verify", "00000000-0000-0000-0000-000000000000"), env=target, capture_output=True, text=True)
    assert missing.returncode == 1 and "no game" in missing.stderr


def test_export_says_in_one_line_when_it_cannot_write_and_ends_quietly_when_its_reader_stops(sqlite_app, tmp_path, sqlite_env):
    """F8: an -o that cannot be written is one line naming it (no traceback, no file); a reader that stops early
    (``aegis export G | head -c 100``) ends the export quietly."""
    _, gid, _ = _finished(sqlite_app, seed="pipe")
    env = {**clean_env(), **sqlite_env}
    for target, why in [(tmp_path / "no" / "such" / "dir.ndjson", "No such file or directory"), (tmp_path, "Is a directory")]:
        out = subprocess.run(aegis("export", gid, "-o", str(target)), env=env, capture_output=True, text=True, timeout=60)
        assert out.returncode == 1 and out.stderr == f"aegis: cannot write {target}: {why}\n", out.stderr
    whole = subprocess.run(aegis("export", gid), env=env, capture_output=True, timeout=60).stdout
    assert len(whole) > 100_000, "more than a pipe holds (64 KiB): the export is still writing when its reader goes"
    proc = subprocess.Popen(aegis("export", gid), env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert proc.stdout is not None and proc.stderr is not None
    assert proc.stdout.read(100) == whole[:100]
    proc.stdout.close()
    assert proc.wait(timeout=60) == 1
    assert proc.stderr.read() == b""


@pytest.mark.parametrize(
    "argv",
    [
        ["verify", "00000000-0000-0000-0000-000000000000"],
        ["audit", "00000000-0000-0000-0000-000000000000", "--step", "3"],
        ["export", "00000000-0000-0000-0000-000000000000"],
        ["rebuild-projections", "--quiet"],
    ],
)
def test_a_command_that_only_reads_creates_no_store_and_says_where_it_looked(tmp_path, argv):
    """F21: run where no store is (./var/aegis.sqlite absent, or a SQLITE_DBNAME naming no file), a read says which
    file it looked for and how to point elsewhere, exits with 1, and leaves no empty store behind."""
    named = tmp_path / "x.sqlite"
    for extra, path in [({}, tmp_path / "var" / "aegis.sqlite"), ({"SQLITE_DBNAME": str(named)}, named)]:
        out = subprocess.run(aegis(*argv), env={**clean_env(), **extra}, cwd=tmp_path, capture_output=True, text=True, timeout=60)
        assert out.returncode == 1, out.stderr
        assert out.stderr == (
            f"aegis {argv[0]}: no store at {path} (nothing created); set AEGIS_DATA_DIR to the folder of its "
            "aegis.sqlite, or SQLITE_DBNAME to the file\n"
        )
        assert list(tmp_path.iterdir()) == []


def _with_line(lines: list[str], index: int, row: dict) -> str:
    return "\n".join([*lines[:index], json.dumps(row), *lines[index + 1 :]])


def test_a_file_that_is_no_export_is_refused_saying_what_is_wrong_and_where(sqlite_app, tmp_path, sqlite_env):
    _, gid, _ = _finished(sqlite_app, seed="broken")
    lines = sqlite_app.test_client().get(f"/api/games/{gid}/export").get_data(as_text=True).splitlines()
    row = json.loads(lines[3])
    target = {**clean_env(), "SQLITE_DBNAME": str(tmp_path / "other.sqlite")}
    for name, text, words in [
        ("garbage.ndjson", "garbage\n", "line 1 is not JSON"),
        ("list.ndjson", "[1, 2]\n", "not the header 'aegis export' writes"),
        ("cut.ndjson", "\n".join(lines[:-1]), f"announces {len(lines) - 1} events but holds {len(lines) - 2}"),
        ("nokey.ndjson", _with_line(lines, 3, {k: row[k] for k in row if k != "topic"}), "line 4: an exported event has no"),
        ("badid.ndjson", _with_line(lines, 3, {**row, "originator_id": "x"}), "line 4: an exported event is malformed"),
    ]:
        path = tmp_path / name
        path.write_text(text)
        refused = subprocess.run(aegis("import", str(path)), env=target, capture_output=True, text=True, timeout=60)
        assert refused.returncode == 1 and f"cannot import {path}: " in refused.stderr and words in refused.stderr, refused.stderr
        assert "Traceback" not in refused.stderr
    binary = tmp_path / "binary.ndjson"  # not text at all: refused the same way, not with a UnicodeDecodeError
    binary.write_bytes(b"\x1f\x8b\x08\x00" + bytes(range(256)))
    refused = subprocess.run(aegis("import", str(binary)), env=target, capture_output=True, text=True, timeout=60)
    assert refused.returncode == 1 and refused.stderr == (
        f"aegis: cannot import {binary}: line 1 is not UTF-8 text (byte 0x8b at offset 1): "
        "this is not a file 'aegis export' wrote\n"
    ), refused.stderr
    whole = tmp_path / "whole.ndjson"
    whole.write_text("\n".join(lines))
    imported = subprocess.run(aegis("import", str(whole)), env=target, capture_output=True, text=True, timeout=60)
    assert imported.returncode == 0, imported.stderr  # the refusals wrote nothing: the game was not there half-imported


def test_an_audit_of_a_bluff_whose_window_closed_by_deadline(sqlite_app):
    """Fred bluffs the Treasury; Sally passes; Jeff lets the deadline pass. The audit shows what Fred held
    (once the game is over), every answer with its time, and that Jeff could have claimed an undo until
    the End Phase began."""
    api = Api(sqlite_app.test_client())
    setup = {"deck": ["Mason"], "hands": {"0": ["Laboratory"]}, "first_player": 0}
    gid, t = api.people(["Fred", "Sally", "Jeff"], reaction_seconds=0.3, setup=setup)
    fred, sally = t["Fred"], t["Sally"]
    declared = api.post(gid, fred, {"type": "declare", "action": "treasury"}).get_json()["events"][0]
    window = api.view(gid, sally)["table"]["window"]["id"]
    api.post(gid, sally, {"type": "react", "window": window, "answer": "pass"})
    deadline = time.monotonic() + 10  # the window closes by deadline, then the undo pause expires
    while time.monotonic() < deadline and not [e for e in api.events(gid)["events"] if e.get("phase") == "end"]:
        time.sleep(0.05)
    c = sqlite_app.test_client()
    during = c.get(f"/api/games/{gid}/audit?step={declared['seq']}").get_json()
    assert during["claimant_held"] is None  # a spectator during the game does not see Fred's hand
    assert during["claim"] == "Treasury" and during["declared"]["text"] == "Fred claims the Treasury"
    assert [(a["name"], a["answer"]) for a in during["answers"]] == [("Sally", "pass")]
    assert isinstance(during["answers"][0]["at"], float)
    undo = during["undo"]
    assert undo["possible"] is True and undo["claimants"] == ["Jeff"] and undo["claimed"] is False and "open" not in undo
    expired = next(e for e in api.events(gid)["events"] if e["type"] == "UndoExpired")  # the pause's end, no claim
    end_phase = next(e for e in api.events(gid)["events"] if e["type"] == "PhaseBegan" and e["phase"] == "end")
    assert undo["until_step"] == expired["seq"] < end_phase["seq"] and "(the pause for an undo ended)" in undo["why"]
    (window,) = during["windows"]  # when it opened, its deadline, when and how it closed: was there time to answer?
    assert window["opened_step"] == declared["seq"] + 1 and window["asked"] == ["Sally", "Jeff"]
    assert window["deadline"] == pytest.approx(window["opened_at"] + 0.3)
    assert window["closed_by"] == "deadline" and window["no_answer_from"] == ["Jeff"]
    assert window["closed_at"] >= window["deadline"]
    assert "Fred claims the Treasury" in [f["text"] for f in during["followed"]]
    as_fred = c.get(f"/api/games/{gid}/audit?step={declared['seq']}&as=0", headers=api.auth(fred)).get_json()
    assert as_fred["claimant_held"] == {"cards": ["Laboratory", "Mason"], "holds_claimed_card": False}
    assert c.get(f"/api/games/{gid}/audit?step={declared['seq']}&as=omniscient").status_code == 403
    assert c.get(f"/api/games/{gid}/audit?step=0").status_code == 400
    assert c.get(f"/api/games/{gid}/audit?step=1").status_code == 404  # a step of the record with no claim yet
    assert during["as"] == "spectator" and as_fred["as"] == 0
    for seat in (fred, sally):  # the game over, everyone's audit shows everything, and says so
        api.post(gid, seat, {"type": "resign"})
    over = c.get(f"/api/games/{gid}/audit?step={declared['seq']}").get_json()
    assert over["as"] == "omniscient" and over["claimant_held"]["cards"] == ["Laboratory", "Mason"]


def test_an_audit_of_a_claim_whose_window_is_still_open_says_so(sqlite_app):
    """While the window waits for answers (no deadline), whether an undo may follow is not settled: the audit says
    the window is open, never that none opened."""
    api = Api(sqlite_app.test_client())
    setup = {"deck": ["Mason"], "hands": {"0": ["Laboratory"]}, "first_player": 0}
    gid, t = api.people(["Fred", "Sally", "Jeff"], reaction_seconds=0, setup=setup)
    declared = api.post(gid, t["Fred"], {"type": "declare", "action": "treasury"}).get_json()["events"][0]
    assert api.view(gid)["table"]["window"] is not None
    undo = sqlite_app.test_client().get(f"/api/games/{gid}/audit?step={declared['seq']}").get_json()["undo"]
    assert undo["possible"] is False and undo["open"] is True and "still open" in undo["why"]


def test_an_audit_where_everyone_answered_allows_no_undo(sqlite_app):
    api, gid, _ = _finished(sqlite_app, seed="no-undo")
    log = api.events(gid)["events"]
    declared = next(e for e in log if e["type"] == "ActionDeclared" and e.get("claim"))
    result = audit(sqlite_app.extensions["aegis"], UUID(gid), declared["seq"], "omniscient")
    assert result["undo"]["possible"] is False
    assert result["claimant_held"]["holds_claimed_card"] in (True, False)
