"""The Classic components as data: what the rulebook prints and no more, checked with precise errors."""

from __future__ import annotations

import copy
import json
import subprocess

import pytest

from aegis.domain.everaegis.classic import CatalogError, shipped, validate
from tests.system.test_serve import aegis, clean_env


def _raw() -> dict:
    from importlib import resources

    return json.loads(resources.files("aegis.domain.everaegis").joinpath("data/classic.json").read_text("utf-8"))


def test_the_box_as_the_book_prints_it():
    c = shipped()
    assert len(c.estates) == 23 and len(c.leaders) == 30 and len(c.items) == 35
    assert sum(i["count"] for i in c.items.values()) == 83 and c.items["SANCTION"]["count"] == 10
    assert c.leaders["Hooded Fox"]["text_known"] == "full" and len(c.leaders["Hooded Fox"]["actions"]) == 8
    assert c.estates["Harbor"]["text_known"] == "none" and c.estates["Harbor"]["printed_text"] is None
    assert c.estates["Chapel"]["type"] == "condition" and c.estates["Chapel"]["type_certain"] is True
    assert set(c.mobs) == {"Fatal Flock", "The Council"}


def test_no_text_is_invented():
    """Every printed text in the data appears, word for word, in the rules catalog it was taken from."""
    from pathlib import Path

    source = Path(__file__).resolve().parents[3] / "shared" / "rules" / "ever-aegis-catalog.md"
    if not source.exists():
        pytest.skip(f"the rules catalog is not beside the checkout ({source})")
    book = source.read_text().replace("–", "-")
    c = shipped()
    texts = [e["printed_text"] for e in [*c.estates.values(), *c.items.values()] if e["printed_text"]]
    texts += [*list(c.leaders["Hooded Fox"]["actions"].values()), c.leaders["Hooded Fox"]["ability"]["text"]]
    for text in texts:
        for part in text.replace("–", "-").split(" / "):
            assert part in book, part


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d["estates"].pop(), "22 estate cards; the game has 23 (R1)"),
        (lambda d: d["estates"][0].update(name=d["estates"][1]["name"]), "estates[1] (Armory) appears twice"),
        (lambda d: d["items"][0].update(count=0), "items[0] (ANKH): count must be a whole number of 1 or more"),
        (
            lambda d: d["estates"][5].update(text_known="mostly"),
            "estates[5] (Catacombs): text_known must be one of full, partial, none",
        ),
        (
            lambda d: d["estates"][0].update(text_known="full"),
            "estates[0] (Archaeologist) is marked full but has no printed_text",
        ),
        (
            lambda d: d["estates"][0].update(printed_text="Gain a card."),
            "estates[0] (Archaeologist) has a printed_text but is marked none",
        ),
        (lambda d: d["leaders"].pop(3), "29 leaders; the game has 30 (R3)"),
    ],
)
def test_a_bad_catalog_is_refused_with_the_entry_and_the_field(change, message):
    data = copy.deepcopy(_raw())
    change(data)
    with pytest.raises(CatalogError) as err:
        validate(data, against=shipped())
    assert message in err.value.message


GAIN = {"when": "begin", "steps": [{"step": "gain_soldiers", "who": "self", "amount": 1}]}  # a TEST STUB effect


def _harbor(data: dict, **fields) -> dict:
    harbor = next(e for e in data["estates"] if e["name"] == "Harbor")
    harbor.update(printed_text="(the text printed on your own Harbor card)", text_known="full", type="condition", **fields)
    return harbor


def test_a_players_file_with_a_missing_text_is_accepted():
    data = copy.deepcopy(_raw())
    _harbor(data, effect=GAIN)
    c = validate(data, against=shipped())
    assert c.estates["Harbor"]["text_known"] == "full" and "Harbor" not in c.playable_without_text()
    next(e for e in data["items"] if e["name"] == "BAT")["name"] = "SPOON"  # an item no effect names
    with pytest.raises(CatalogError) as err:
        validate(data, against=shipped())
    assert "unknown ['SPOON'], missing ['BAT']" in err.value.message


def test_check_catalog_on_the_command_line(tmp_path):
    good = tmp_path / "mine.json"
    good.write_text(json.dumps(_raw()))
    out = subprocess.run(aegis("check-catalog", str(good)), capture_output=True, text=True, env=clean_env(), timeout=60)
    assert out.returncode == 0 and out.stdout.startswith("ok: 23 estate cards, 30 leaders, 35 kinds of items")
    bad = tmp_path / "bad.json"
    bad.write_text('{"estates": [}')
    out = subprocess.run(aegis("check-catalog", str(bad)), capture_output=True, text=True, env=clean_env(), timeout=60)
    assert out.returncode == 1 and f"{bad}: not JSON" in out.stderr and "line 1, column 14" in out.stderr
    typo = tmp_path / "typo.json"
    data = _raw()
    data["estates"][3]["text_known"] = "ful"
    typo.write_text(json.dumps(data))
    out = subprocess.run(aegis("check-catalog", str(typo)), capture_output=True, text=True, env=clean_env(), timeout=60)
    assert out.returncode == 1
    assert f"{typo}: catalog: estates[3] ({data['estates'][3]['name']}): text_known must be one of" in out.stderr


def test_a54_an_entry_marked_full_without_its_effect_is_refused_as_a_game_would_refuse_it():
    """A game plays an estate's or a leader's text only as an effect (A54): with plain_unknown=0 it refuses a Classic
    game whose estates lack one ("the catalog lacks the text of ..."). The checker refuses the entry, naming it."""
    data = copy.deepcopy(_raw())
    _harbor(data)
    with pytest.raises(CatalogError) as err:
        validate(data, against=shipped())
    message = err.value.message
    assert message.startswith("catalog: estates[15] (Harbor) is marked full but has no effect") and "partial" in message
    data = copy.deepcopy(_raw())
    poom = next(e for e in data["leaders"] if e["name"] == "Warlord Poom")
    declared = {**GAIN, "when": "declared"}
    poom.update(text_known="full", actions={"laboratory": "TEST STUB", "library": "TEST STUB"}, effects={"laboratory": declared})
    with pytest.raises(CatalogError) as err:
        validate(data, against=shipped())
    assert "(Warlord Poom) is marked full but has no effect for its library" in err.value.message


def test_a54_the_checker_and_a_game_count_the_same_texts_as_missing():
    """One rule (classic.played_with_text) for both: Harbor written as an effect is one text fewer missing for the
    checker and for a game that refuses the estates it cannot play."""
    from aegis.domain.everaegis.components import choose
    from aegis.domain.everaegis.config import make_config
    from aegis.domain.kernel.errors import MalformedCommand

    data = copy.deepcopy(_raw())
    _harbor(data, effect=GAIN)
    for catalog, estates in ((shipped(), 23), (validate(data, against=shipped()), 22)):
        assert len([n for n in catalog.playable_without_text() if n in catalog.estates]) == estates
        with pytest.raises(MalformedCommand) as err:
            choose(make_config(seats=3, variants="classic", selection="simpleton"), catalog)
        assert f"the catalog lacks the text of {estates}:" in err.value.message


def test_check_catalog_refuses_an_entry_marked_full_without_its_effect(tmp_path):
    data = _raw()
    _harbor(data)
    path = tmp_path / "mine.json"
    path.write_text(json.dumps(data))
    out = subprocess.run(aegis("check-catalog", str(path)), capture_output=True, text=True, env=clean_env(), timeout=60)
    assert out.returncode == 1 and out.stdout == ""
    assert f"aegis check-catalog: {path}: catalog: estates[15] (Harbor) is marked full but has no effect" in out.stderr
    _harbor(data, effect=GAIN)
    path.write_text(json.dumps(data))
    out = subprocess.run(aegis("check-catalog", str(path)), capture_output=True, text=True, env=clean_env(), timeout=60)
    assert out.returncode == 0 and "51 estate cards and leaders still lack their full text" in out.stdout, out.stderr


def _harbor_effect(data):
    entry = next(e for e in data["estates"] if e["name"] == "Harbor")
    entry.update(
        type="trigger", text_known="full", printed_text="TEST STUB", effect={"when": "revealed", "steps": [{"step": "teleport"}]}
    )


@pytest.mark.parametrize(
    ("change", "entry", "problem"),
    [
        (lambda d: d["estates"][3].update(text_known="ful"), "estates[3] (Blacksmith)", "text_known must be one of"),
        (lambda d: d["leaders"][2].pop("name"), "leaders[2]", "needs a 'name'"),
        (_harbor_effect, "(Harbor)", "effect step 1: unknown step 'teleport'"),
        (lambda d: d["items"][1].update(count=0), "items[1] (AXE)", "count must be a whole number of 1 or more"),
        (lambda d: d["estates"][0].update(count=2), "estates[0] (Archaeologist)", "there is 1 copy of each estate card"),
    ],
    ids=["typo", "missing-field", "unknown-step", "bad-item-count", "bad-estate-count"],
)
def test_a_bad_catalog_file_is_refused_naming_the_file_the_entry_and_the_problem(tmp_path, change, entry, problem):
    from aegis.domain.kernel.errors import MalformedCommand
    from aegis.service.settings import read_catalog

    data = _raw()
    change(data)
    path = tmp_path / "mine.json"
    path.write_text(json.dumps(data))
    with pytest.raises(MalformedCommand) as err:
        read_catalog(str(path))
    message = err.value.message
    assert message.startswith(f"{path}: catalog: ") and entry in message and problem in message, message
