"""What deploy/systemd and deploy/pbem.env.example promise, read from the files:
each service runs as pbem with the one environment file, comes back after a
failure, stops the way its program finishes its work, and is confined; and
every setting of the template is one pbem reads, with the value it says."""

from __future__ import annotations

import signal

import pytest

from pbem import create_app
from pbem.mail.transport import SMTP_TIMEOUT
from tests.deploy.installation import DEPLOY, environment_file, unit_file

SERVICES = [
    "pbem-web.service",
    "pbem-worker@.service",
    "pbem-bots.service",
    "pbem-notices.service",
    "pbem-beat.service",
    "pbem-smtpd.service",
]
GUNICORN_GRACEFUL_SECONDS = 30  # gunicorn's default graceful_timeout, which pbem web keeps


@pytest.mark.parametrize("name", SERVICES)
def test_every_service_runs_confined_as_pbem_and_stops_through_its_main_process(name):
    unit = unit_file(DEPLOY / "systemd" / name)
    assert unit["Service.User"] == unit["Service.Group"] == ["pbem"]
    assert unit["Service.EnvironmentFile"] == ["/etc/pbem/pbem.env"]
    assert unit["Service.ExecStart"][0].startswith("/opt/pbem/venv/bin/pbem ")
    assert unit["Service.Restart"][0] in ("on-failure", "always")
    # The signal to the main process only: gunicorn's master and Celery's main
    # process end their children once the work under way is done.
    assert unit["Service.KillMode"] == ["mixed"]
    for setting, value in {
        "NoNewPrivileges": "yes",
        "ProtectSystem": "strict",
        "ReadWritePaths": "/var/lib/pbem",
        "PrivateTmp": "yes",
        "ProtectHome": "yes",
    }.items():
        assert unit[f"Service.{setting}"] == [value], setting
    assert unit["Unit.PartOf"] == ["pbem.target"]
    assert unit["Install.WantedBy"] == ["pbem.target"]


def test_stops_wait_longer_than_the_work_they_let_finish():
    web = unit_file(DEPLOY / "systemd" / "pbem-web.service")
    notices = unit_file(DEPLOY / "systemd" / "pbem-notices.service")
    assert float(web["Service.TimeoutStopSec"][0]) > GUNICORN_GRACEFUL_SECONDS
    # A task sending mail may wait for SMTP twice (connect, then the dialogue).
    assert float(notices["Service.TimeoutStopSec"][0]) > 2 * SMTP_TIMEOUT


def test_the_mail_door_is_stopped_as_ctrl_c_stops_it():
    """pbem smtpd closes its listener on KeyboardInterrupt; SIGTERM would end it
    in the middle of a delivery."""
    smtpd = unit_file(DEPLOY / "systemd" / "pbem-smtpd.service")
    assert getattr(signal, smtpd["Service.KillSignal"][0]) == signal.SIGINT


def test_the_beat_comes_back_after_it_stops_itself():
    """A beat that lost its lease ends cleanly; on-failure would leave it down."""
    beat = unit_file(DEPLOY / "systemd" / "pbem-beat.service")
    assert beat["Service.Restart"] == ["always"]


def test_the_template_holds_settings_pbem_reads_as_written(monkeypatch, tmp_path):
    template = environment_file(DEPLOY / "pbem.env.example")
    for name, value in template.items():
        monkeypatch.setenv(name, value)
    monkeypatch.setenv("PBEM_SECRET_KEY", "a-key-install-sh-writes")
    monkeypatch.setenv("PBEM_INSTANCE_PATH", str(tmp_path))
    config = create_app().config
    for name, value in template.items():
        if name in ("PBEM_SECRET_KEY", "PBEM_INSTANCE_PATH"):
            continue
        assert name in config, f"{name} is no setting pbem reads"
        read = config[name]
        shown = str(int(read)) if isinstance(read, bool) else str(read)
        assert shown == value, (name, read)
