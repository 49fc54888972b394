"""docker-compose.yml and the Dockerfile: no Docker engine runs here, so the files are loaded and checked
(services, images, ports, environment, health checks, start order), and their commands are checked
against the code. The same processes run without Docker in test_stream.py and test_projections.py."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import yaml

from aegis.cli.main import build_parser

ROOT = Path(__file__).resolve().parents[2]
COMPOSE = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
README = (ROOT / "README.md").read_text()


def test_the_four_services_and_their_volumes():
    services = COMPOSE["services"]
    assert set(services) == {"postgres", "redis", "api", "worker"}
    assert services["postgres"]["image"].startswith("postgres:")
    assert services["redis"]["image"].startswith("redis:")
    assert services["api"]["build"] == "." and services["api"]["image"] == services["worker"]["image"]
    assert set(COMPOSE["volumes"]) == {"pgdata", "redisdata"}
    assert "pgdata:/var/lib/postgresql/data" in services["postgres"]["volumes"]


def test_every_service_has_a_health_check_and_waits_for_healthy_dependencies():
    services = COMPOSE["services"]
    for name in ("postgres", "redis", "api"):
        assert services[name]["healthcheck"]["test"], name
    for name in ("api", "worker"):
        deps = services[name]["depends_on"]
        assert deps["postgres"]["condition"] == "service_healthy"
        assert deps["redis"]["condition"] == "service_healthy"
    assert "/readyz" in " ".join(services["api"]["healthcheck"]["test"])


def test_the_api_is_scalable_and_shares_one_environment_with_the_worker():
    api, worker = COMPOSE["services"]["api"], COMPOSE["services"]["worker"]
    assert api["ports"] == ["8000-8009:8000"]  # a range: several api containers can run
    assert api["environment"] == worker["environment"]
    env = api["environment"]
    assert env["PERSISTENCE_MODULE"] == "eventsourcing.postgres" and env["POSTGRES_HOST"] == "postgres"
    assert env["REDIS_URL"] == "redis://redis:6379/0" and env["AEGIS_PROJECTOR"] == "worker"
    pg = COMPOSE["services"]["postgres"]["environment"]
    assert (env["POSTGRES_DBNAME"], env["POSTGRES_USER"], env["POSTGRES_PASSWORD"]) == (
        pg["POSTGRES_DB"],
        pg["POSTGRES_USER"],
        pg["POSTGRES_PASSWORD"],
    )
    for name in env:
        assert f"`{name}`" in README or name in README, f"{name} is not documented in the README"


def test_the_commands_exist():
    api, worker = COMPOSE["services"]["api"], COMPOSE["services"]["worker"]
    assert api["command"][-1] == "aegis.api.asgi:app"  # what aegis serve --workers N runs: streams hold no thread
    spec = importlib.util.find_spec("aegis.api.asgi")  # found without importing it (importing builds an app)
    assert spec is not None and "app = create_asgi_app()" in Path(spec.origin).read_text()
    worker_class = api["command"][api["command"].index("-k") + 1]
    module, _, name = worker_class.rpartition(".")
    assert hasattr(importlib.import_module(module), name)

    assert worker["command"] == ["aegis", "project"]
    subcommands = build_parser()._subparsers._group_actions[0].choices  # type: ignore[union-attr]
    assert "project" in subcommands


def test_the_dockerfile_installs_every_package():
    """The image copies every folder that src/aegis links into the package, and the links; not the benchmarks."""
    text = (ROOT / "Dockerfile").read_text()
    assert re.search(r"^FROM python:3\.11", text, re.M)
    linked = sorted(p.name for p in (ROOT / "src" / "aegis").iterdir() if p.is_symlink())
    assert linked == ["api", "cli", "domain", "projections", "replay", "service"]
    for package in [*linked, "src"]:
        assert f"COPY {package} ./{package}" in text
    assert "COPY benchmarks" not in text
    assert "pip install" in text and "aegis.api.asgi:app" in text and "aegis.api.workers.Worker" in text
    users = re.findall(r"^USER (\S+)", text, re.M)
    assert users and users[-1] not in ("root", "0")  # the processes do not run as root


def test_every_environment_variable_the_service_reads_is_documented():
    source = (ROOT / "service" / "settings.py").read_text()
    names = set(re.findall(r'env(?:\.get)?\(\s*"([A-Z_]+)"', source)) | set(
        re.findall(r'_(?:number|choice|seconds)\(env, "([A-Z_]+)"', source)
    )
    assert {"AEGIS_REACTION_SECONDS", "REDIS_URL", "AEGIS_PROJECTOR"} <= names
    names.discard("USER")  # the login name, the default POSTGRES_USER (documented as $USER)
    missing = sorted(n for n in names if f"`{n}`" not in README)
    assert not missing, f"not in the README: {missing}"
