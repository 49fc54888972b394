"""Settings from the environment (``service/settings.py``): a value the service cannot use is refused when it
starts, in one line naming the variable, whether it is the service's own or the event store library's."""

from __future__ import annotations

import subprocess

import pytest

from aegis.domain.kernel.errors import MalformedCommand
from aegis.service.settings import load
from tests.system.test_serve import aegis, clean_env, free_port


@pytest.mark.parametrize(
    "env, words",
    [
        ({"AEGIS_REACTION_SECONDS": "nan"}, "AEGIS_REACTION_SECONDS must be a finite number"),
        ({"AEGIS_SNAPSHOT_INTERVAL": "inf"}, "AEGIS_SNAPSHOT_INTERVAL must be a finite number"),
        ({"AEGIS_TURN_SECONDS": "-inf"}, "AEGIS_TURN_SECONDS must be a finite number"),
        ({"PERSISTENCE_MODULE": "postgres", "POSTGRES_PORT": "abc"}, "POSTGRES_PORT must be a number"),
        ({"PERSISTENCE_MODULE": "postgres", "POSTGRES_PORT": "70000"}, "POSTGRES_PORT must be a port number"),
        ({"PERSISTENCE_MODULE": "postgres", "POSTGRES_CONNECT_TIMEOUT": "abc"}, "POSTGRES_CONNECT_TIMEOUT must be a number"),
        ({"PERSISTENCE_MODULE": "postgres", "POSTGRES_CONNECT_TIMEOUT": "0"}, "POSTGRES_CONNECT_TIMEOUT must be a number of"),
        ({"CREATE_TABLE": "maybe"}, "CREATE_TABLE must be y or n"),
        ({"REDIS_URL": "notaurl"}, "REDIS_URL must be a redis://"),
        ({"AEGIS_PROJECTOR": "worker"}, "AEGIS_PROJECTOR=worker needs REDIS_URL"),
    ],
)
def test_a_setting_the_service_cannot_use_is_refused_naming_it(tmp_path, env, words):
    with pytest.raises(MalformedCommand, match=words):
        load({"AEGIS_DATA_DIR": str(tmp_path), **env})


def test_good_values_of_the_same_settings_are_taken(tmp_path):
    redis = "redis://127.0.0.1:6379/0"
    env = {"AEGIS_DATA_DIR": str(tmp_path), "CREATE_TABLE": "n", "REDIS_URL": redis, "AEGIS_PROJECTOR": "worker"}
    settings = load(env)
    assert settings.redis_url == redis and settings.projector == "worker"
    assert load({"PERSISTENCE_MODULE": "postgres", "POSTGRES_PORT": "5433", "POSTGRES_CONNECT_TIMEOUT": "1.5"}).store_env[
        "POSTGRES_PORT"
    ] == "5433"


@pytest.mark.parametrize("workers", ["0", "1"])
def test_aegis_serve_refuses_a_bad_setting_in_one_line_before_it_starts(tmp_path, workers):
    env = {**clean_env(), "AEGIS_DATA_DIR": str(tmp_path), "AEGIS_REACTION_SECONDS": "inf"}
    done = subprocess.run(
        aegis("serve", "--port", str(free_port()), "--workers", workers), env=env, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
    assert done.stderr.strip() == "aegis: environment variable AEGIS_REACTION_SECONDS must be a finite number, not 'inf'"
