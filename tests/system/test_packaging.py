"""What ``pip install`` puts in an environment: one import package, ``aegis``, with its data; not the benchmarks
and not the tests (issue 16). The wheel is built for real from this checkout."""

import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(out), str(ROOT)],
        check=True, capture_output=True, timeout=300,
    )
    (built,) = out.glob("aegis-*.whl")
    return built


@pytest.fixture(scope="module")
def wheel_names(wheel: Path) -> list[str]:
    with zipfile.ZipFile(wheel) as zf:
        return zf.namelist()


def test_the_wheel_installs_one_package_named_aegis(wheel_names):
    top = {name.split("/", 1)[0] for name in wheel_names if not name.split("/", 1)[0].endswith(".dist-info")}
    assert top == {"aegis"}
    for layer in ("domain", "service", "api", "projections", "replay", "cli"):
        assert f"aegis/{layer}/__init__.py" in wheel_names


def test_the_wheel_carries_its_data_and_type_marker(wheel_names):
    assert "aegis/py.typed" in wheel_names
    assert "aegis/domain/everaegis/data/classic.json" in wheel_names
    assert "aegis/domain/everaegis/data/simpleton.json" in wheel_names
    assert "aegis/api/static/replay.html" in wheel_names


def test_the_wheel_holds_no_benchmarks_and_no_tests(wheel_names):
    assert not [n for n in wheel_names if "/benchmarks/" in f"/{n}" or "/tests/" in f"/{n}"]


def test_the_command_is_the_package_s_entry_point(wheel):
    with zipfile.ZipFile(wheel) as zf:
        (name,) = [n for n in zf.namelist() if n.endswith(".dist-info/entry_points.txt")]
        text = zf.read(name).decode()
    assert "[console_scripts]" in text and "aegis = aegis.cli.main:main" in text
