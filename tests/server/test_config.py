"""Settings come from documented PBEM_* environment variables."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from werkzeug.middleware.proxy_fix import ProxyFix

from pbem import create_app
from pbem.config import ConfigError, ProductionConfig, allowed_networks
from pbem.ratelimit import storage_url

DOCS = Path(__file__).parents[2] / "docs" / "configuration.md"


def test_embedded_default_keeps_everything_in_the_instance_folder(monkeypatch, tmp_path):
    monkeypatch.delenv("PBEM_DATABASE_URL", raising=False)
    monkeypatch.delenv("PBEM_SECRET_KEY", raising=False)
    monkeypatch.setenv("PBEM_INSTANCE_PATH", str(tmp_path))
    app = create_app()
    assert app.config["PBEM_DATABASE_URL"] == f"sqlite:///{tmp_path / 'pbem.sqlite3'}"
    assert app.config["PBEM_BROKER_URL"] == "filesystem://localhost/"
    assert app.config["SECRET_KEY"] == (tmp_path / "secret_key").read_text()
    assert create_app().config["SECRET_KEY"] == app.config["SECRET_KEY"]


def test_production_refuses_to_start_without_its_urls_and_secret(monkeypatch, tmp_path):
    for name in ("PBEM_SECRET_KEY", "PBEM_DATABASE_URL", "PBEM_BROKER_URL", "PBEM_BASE_URL"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("PBEM_BROKER_URL", "redis://127.0.0.1:6379/0")
    with pytest.raises(ConfigError, match="needs PBEM_SECRET_KEY, PBEM_DATABASE_URL"):
        create_app(ProductionConfig)


def test_environment_variables_are_read(monkeypatch, tmp_path):
    monkeypatch.setenv("PBEM_ENV", "production")
    monkeypatch.setenv("PBEM_SECRET_KEY", "s3cret")
    monkeypatch.setenv("PBEM_DATABASE_URL", f"sqlite:///{tmp_path / 'x.db'}")
    monkeypatch.setenv("PBEM_BROKER_URL", "redis://127.0.0.1:6379/0")
    monkeypatch.setenv("PBEM_BASE_URL", "https://games.example.org")
    monkeypatch.setenv("PBEM_TASK_QUEUE", "games")
    app = create_app()
    celery = app.extensions["celery"]
    assert celery.conf.broker_url == "redis://127.0.0.1:6379/0"
    assert celery.conf.task_default_queue == "games"
    assert celery.conf.task_acks_late and celery.conf.task_reject_on_worker_lost
    assert app.config["SECRET_KEY"] == "s3cret"


def test_bad_numbers_name_their_variable(monkeypatch):
    monkeypatch.setenv("PBEM_WEB_WORKERS", "many")
    with pytest.raises(ValueError, match="PBEM_WEB_WORKERS must be a whole number"):
        create_app({"SECRET_KEY": "x", "PBEM_DATABASE_URL": "sqlite://"})


def test_every_variable_read_is_documented():
    source = "".join(p.read_text() for p in (Path(__file__).parents[2] / "pbem").glob("*.py"))
    read = {"PBEM_" + n for n in re.findall(r'_(?:int_env|env|days|count)\("([A-Z_]+)"', source)}
    read.add("PBEM_INSTANCE_PATH")
    documented = set(re.findall(r"`(PBEM_[A-Z_]+)`", DOCS.read_text()))
    assert read <= documented, read - documented


def test_mail_links_use_the_base_url_or_the_address_served_on():
    from pbem.config import base_url

    assert base_url({"PBEM_BASE_URL": None, "PBEM_WEB_BIND": "127.0.0.1:5077"}) == (
        "http://127.0.0.1:5077"
    )
    assert base_url({"PBEM_BASE_URL": "https://g.example", "PBEM_WEB_BIND": "x:1"}) == (
        "https://g.example"
    )


def test_rate_limits_count_in_the_brokers_redis_or_in_memory_or_where_told(monkeypatch, tmp_path):
    monkeypatch.delenv("PBEM_RATELIMIT_STORAGE_URL", raising=False)
    monkeypatch.setenv("PBEM_INSTANCE_PATH", str(tmp_path))
    redis_broker = "redis://127.0.0.1:6379/0"
    assert storage_url(create_app({"PBEM_BROKER_URL": redis_broker}).config) == redis_broker
    assert storage_url(create_app().config) == "memory://"  # the filesystem broker
    monkeypatch.setenv("PBEM_RATELIMIT_STORAGE_URL", "redis://limits.example:6379/3")
    assert storage_url(create_app({"PBEM_BROKER_URL": redis_broker}).config) == (
        "redis://limits.example:6379/3"
    )


def test_proxies_are_trusted_only_as_far_as_told(monkeypatch, tmp_path):
    """Without PBEM_TRUSTED_PROXIES a forged X-Forwarded-For changes nobody's address."""
    monkeypatch.setenv("PBEM_INSTANCE_PATH", str(tmp_path))
    assert not isinstance(create_app().wsgi_app, ProxyFix)
    behind = create_app({"PBEM_TRUSTED_PROXIES": 2}).wsgi_app
    assert isinstance(behind, ProxyFix) and (behind.x_for, behind.x_proto) == (2, 2)


def test_a_negative_number_of_days_to_keep_mail_is_refused(monkeypatch):
    monkeypatch.setenv("PBEM_MAIL_KEEP_DAYS", "-1")
    with pytest.raises(ConfigError, match="PBEM_MAIL_KEEP_DAYS must be 0 or more days"):
        create_app({"SECRET_KEY": "x", "PBEM_DATABASE_URL": "sqlite://"})


@pytest.mark.parametrize("percent", ["-1", "101"])
def test_a_snapshot_check_share_outside_0_to_100_is_refused(monkeypatch, percent):
    monkeypatch.setenv("PBEM_SNAPSHOT_CHECK_PERCENT", percent)
    with pytest.raises(ConfigError, match="PBEM_SNAPSHOT_CHECK_PERCENT must be a percentage"):
        create_app({"SECRET_KEY": "x", "PBEM_DATABASE_URL": "sqlite://"})


@pytest.mark.parametrize(
    ("setting", "said"),
    [
        ("10.8.0.0/16", r"'10.8.0.0/16' names no port.*write it 10.8.0.0/16:PORT"),
        ("10.0.0.5:8008, fd00::/8", r"'fd00::/8' names no port.*write it \[fd00::/8\]:PORT"),
        ("fd00::/8:443", r"'fd00::/8:443' is not NETWORK:PORT"),
        ("chat.club.example:443", r"'chat.club.example:443' is not NETWORK:PORT"),
        ("10.0.0.5:0", r"'10.0.0.5:0' names no port from 1 to 65535"),
    ],
)
def test_an_allowed_network_without_its_port_or_misspelt_stops_the_start(
    monkeypatch, setting, said
):
    monkeypatch.setenv("PBEM_WEBHOOK_ALLOWED_NETWORKS", setting)
    with pytest.raises(ConfigError, match=f"PBEM_WEBHOOK_ALLOWED_NETWORKS: {said}"):
        create_app({"SECRET_KEY": "x", "PBEM_DATABASE_URL": "sqlite://"})


def test_allowed_networks_are_read_with_their_ports(monkeypatch, tmp_path):
    monkeypatch.setenv("PBEM_INSTANCE_PATH", str(tmp_path))
    monkeypatch.setenv(
        "PBEM_WEBHOOK_ALLOWED_NETWORKS", "10.0.0.5:8008, 192.168.1.0/24:443,[fd00::/8]:443"
    )
    setting = create_app().config["PBEM_WEBHOOK_ALLOWED_NETWORKS"]
    assert [(str(a.network), a.port) for a in allowed_networks(setting)] == [
        ("10.0.0.5/32", 8008),
        ("192.168.1.0/24", 443),
        ("fd00::/8", 443),
    ]


@pytest.mark.parametrize("name", ["PBEM_PUSH_MAX_DEVICES", "PBEM_PUSH_MAX_ATTEMPTS"])
def test_push_bounds_are_one_at_least(monkeypatch, name):
    monkeypatch.setenv(name, "0")
    with pytest.raises(ConfigError, match=f"{name} must be 1 or more"):
        create_app({"SECRET_KEY": "x", "PBEM_DATABASE_URL": "sqlite://"})
