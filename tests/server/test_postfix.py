"""deploy/postfix/ as Postfix itself reads it: Debian's main.cf with the
snippet added, in a folder of the test's own, checked with Postfix's postconf
and postmap, then run as a private Postfix on loopback ports in front of a
real `pbem smtpd`. Postfix is not installed (it would become this machine's
mail server): deploy/test-services.sh unpacks its Debian package for these
tests where it is missing."""

from __future__ import annotations

import os
import shutil
import signal
import smtplib
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import select

from pbem.config import Config
from pbem.mail.addresses import reply_address
from pbem.models import InboundMessage, seat_token
from pbem.services import accounts
from pbem.services.games import SeatSpec, create_game
from tests.mail.servers import free_port
from tests.server.conftest import production_settings, wait_for
from tests.server.server_processes import app_for, pbem, stopped

pytestmark = pytest.mark.system  # starts Postfix and `pbem smtpd`

SNIPPET = Path(__file__).resolve().parents[2] / "deploy" / "postfix"
DOMAIN = "games.example.org"
UNPACKED = Path(
    os.environ.get("PBEM_TEST_POSTFIX_TOOLS")
    or Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "pbem-test" / "postfix"
)
ROOT = Path("/") if Path("/usr/sbin/postconf").exists() else UNPACKED


LIBRARIES = {**os.environ, "LD_LIBRARY_PATH": str(ROOT / "usr/lib/postfix")}


def postfix(tool: str, config: Path, *args: str) -> subprocess.CompletedProcess[str]:
    assert (ROOT / "usr/sbin" / tool).exists(), "Postfix is missing: run deploy/test-services.sh"
    return subprocess.run(
        [str(ROOT / "usr/sbin" / tool), "-c", str(config), *args],
        capture_output=True,
        text=True,
        env=LIBRARIES,
    )


@pytest.fixture
def config() -> Iterator[Path]:
    """Debian's main.cf with the snippet added, its tables beside it, in a
    folder Postfix's daemons may read once they run as their own user."""
    folder = Path(tempfile.mkdtemp(prefix="pbem-postfix-"))
    folder.chmod(0o755)
    try:
        yield write_config(folder)
    finally:
        shutil.rmtree(folder)


def write_config(folder: Path) -> Path:
    snippet = (SNIPPET / "main.cf").read_text()
    assert "/etc/postfix/" in snippet
    main = (ROOT / "usr/share/postfix/main.cf.debian").read_text()
    # This machine has no postfix user and postdrop group; users that every
    # Debian has stand in for them.
    here = "mail_owner = daemon\nsetgid_group = mail\n"
    (folder / "main.cf").write_text(
        main + "\n" + snippet.replace("/etc/postfix/", f"{folder}/") + here
    )
    (folder / "master.cf").write_text((ROOT / "usr/share/postfix/master.cf.dist").read_text())
    for table in ("pbem_transport", "pbem_recipients"):
        (folder / table).write_text((SNIPPET / table).read_text())
    return folder


@pytest.fixture
def defaults(tmp_path: Path) -> dict[str, object]:
    return Config().settings(str(tmp_path))


def test_postfix_knows_every_setting_and_limits_mail_like_pbem(config: Path, defaults):
    shown = postfix("postconf", config, "-n")
    assert shown.returncode == 0 and shown.stderr == "", shown.stderr  # no unused parameter
    settings = dict(line.split(" = ", 1) for line in shown.stdout.splitlines())
    assert settings["recipient_delimiter"] == "+"
    assert settings["message_size_limit"] == str(defaults["PBEM_MAIL_MAX_BYTES"])
    assert settings["relay_domains"] == DOMAIN
    assert settings["transport_maps"] == f"texthash:{config}/pbem_transport"
    assert settings["relay_recipient_maps"] == f"regexp:{config}/pbem_recipients"
    # Tokens no seat has are refused while the sender is connected (pbem smtpd is asked).
    verify = f"check_recipient_access inline:{{ {DOMAIN}=reject_unverified_recipient }}"
    assert settings["smtpd_recipient_restrictions"] == verify
    assert settings["unverified_recipient_reject_code"] == "550"


def test_the_reply_domain_goes_to_pbem_smtpd_by_lmtp(config: Path, defaults):
    found = postfix("postmap", config, "-q", DOMAIN, f"texthash:{config}/pbem_transport")
    assert found.returncode == 0, found.stderr
    assert found.stdout.strip() == f"lmtp:inet:{defaults['PBEM_SMTPD_BIND']}"


def test_only_reply_addresses_are_accepted(config: Path, defaults):
    table = f"regexp:{config}/pbem_recipients"
    reply = reply_address(str(defaults["PBEM_MAIL_REPLY_LOCALPART"]), seat_token(), DOMAIN)
    for address in (reply, reply.upper()):
        found = postfix("postmap", config, "-q", address, table)
        assert (found.returncode, found.stdout.strip()) == (0, "OK"), (address, found.stderr)
    for address in (
        f"root@{DOMAIN}",
        f"play+@{DOMAIN}",
        f"play@{DOMAIN}",
        "play+abc@other.example.org",
        f"play+abc@{DOMAIN}.other.example.org",
        f"play+a/b@{DOMAIN}",
    ):
        refused = postfix("postmap", config, "-q", address, table)
        assert (refused.returncode, refused.stdout) == (1, ""), (address, refused.stderr)


def listening(port: int) -> bool:
    with socket.socket() as probe:
        return probe.connect_ex(("127.0.0.1", port)) == 0


@pytest.fixture
def smtpd(tmp_path: Path) -> Iterator[tuple[dict[str, str], int]]:
    """The real `pbem smtpd`, speaking LMTP as deploy/pbem.env.example has it;
    yields its settings and port."""
    port = free_port()
    settings = {"PBEM_SMTPD_BIND": f"127.0.0.1:{port}", "PBEM_SMTPD_LMTP": "1"}
    with production_settings(tmp_path / "instance", **settings) as env:
        subprocess.run(pbem("db", "upgrade"), env=env, check=True, capture_output=True)
        server = subprocess.Popen(
            pbem("smtpd"),
            env=env,
            # With Ctrl-C ignored, as a shell's background job starts it: the
            # unit's KillSignal=SIGINT must still stop it.
            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_IGN),
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        try:
            wait_for(lambda: listening(port), 30, "pbem smtpd to listen")
            yield env, port
        finally:
            output = stopped(server, signal.SIGINT)
            assert "Traceback" not in output, output[-3000:]


@pytest.fixture
def running_postfix(config: Path, smtpd: tuple[dict[str, str], int]) -> Iterator[int]:
    """A private Postfix with the snippet: its queue, logs and listener (on a
    free loopback port) in the test's folder; the transport table points at
    the test's `pbem smtpd`. Yields the port it takes mail on."""
    if os.geteuid() != 0:
        pytest.skip("Postfix's master runs as root")
    _, lmtp_port = smtpd
    port = free_port()
    transport = config / "pbem_transport"
    transport.write_text(transport.read_text().replace("127.0.0.1:8025", f"127.0.0.1:{lmtp_port}"))
    queue = config / "queue"
    # What a Postfix installation has and this folder lacks.
    with (config / "main.cf").open("a") as main:
        main.write(
            f"""queue_directory = {queue}
data_directory = {config}/data
daemon_directory = {ROOT}/usr/lib/postfix/sbin
command_directory = {ROOT}/usr/sbin
shlib_directory = {ROOT}/usr/lib/postfix
meta_directory = {ROOT}/etc/postfix
import_environment = MAIL_CONFIG MAIL_DEBUG MAIL_LOGTAG TZ LANG=C LD_LIBRARY_PATH
maillog_file = {config}/maillog
maillog_file_prefixes = {config}
inet_interfaces = 127.0.0.1
inet_protocols = ipv4
myhostname = mx.pbem.test
mydestination = localhost
alias_maps =
"""
        )
    master = (config / "master.cf").read_text()
    assert master.count("\nsmtp      inet ") == 1
    (config / "master.cf").write_text(
        master.replace("\nsmtp      inet ", f"\n127.0.0.1:{port} inet ")
    )
    for name in ("active", "bounce", "corrupt", "defer", "deferred", "flush", "hold",
                 "incoming", "maildrop", "private", "public", "saved", "trace", "pid"):  # fmt: skip
        (queue / name).mkdir(parents=True)
    (config / "data").mkdir()
    for path in [config / "data", *queue.iterdir()]:
        if path.name != "pid":
            shutil.chown(path, "daemon", "mail")
    (queue / "private").chmod(0o700)
    (queue / "public").chmod(0o710)
    master_process = subprocess.Popen(
        [str(ROOT / "usr/lib/postfix/sbin/master"), "-d", "-c", str(config)],
        env={**LIBRARIES, "MAIL_CONFIG": str(config)},
        start_new_session=True,
    )
    try:
        wait_for(lambda: listening(port), 30, "Postfix to listen")
        yield port
    finally:
        master_process.terminate()
        master_process.wait(timeout=30)


def stored(env: dict[str, str]) -> list[InboundMessage]:
    database = app_for(env).extensions["pbem.db"]
    with database.session() as session:
        rows = list(session.scalars(select(InboundMessage)))
        session.expunge_all()
    database.dispose()
    return rows


def seat_address(env: dict[str, str], localpart: str) -> str:
    """The reply address of a seat in a new game in `pbem smtpd`'s database."""
    app = app_for(env)
    database = app.extensions["pbem.db"]
    with database.session() as session:
        ann = accounts.create_user(session, "ann@example.org", "Ann")
        game = create_game(session, ann, "taluva", [SeatSpec(user=ann), SeatSpec(bot="random")])
        session.commit()
        token = game.seats[0].token
    database.dispose()
    return reply_address(localpart, token, DOMAIN)


def test_postfix_hands_replies_to_pbem_smtpd_and_refuses_the_rest(
    running_postfix: int, smtpd: tuple[dict[str, str], int], config: Path, defaults
):
    env, _ = smtpd
    localpart = str(defaults["PBEM_MAIL_REPLY_LOCALPART"])
    reply = seat_address(env, localpart)
    mail = f"From: ann@example.org\r\nTo: {reply}\r\nSubject: Re: your turn\r\n"
    mail += "Message-ID: <reply-1@example.org>\r\n\r\npass\r\n"
    with smtplib.SMTP("127.0.0.1", running_postfix, timeout=30) as client:
        # Refused while the sender is connected: no bounce to a forged sender,
        # whether the address is none of pbem's or a token no seat has.
        no_seat = reply_address(localpart, seat_token(), DOMAIN)
        for address in (f"root@{DOMAIN}", no_seat):
            with pytest.raises(smtplib.SMTPRecipientsRefused) as refused:
                client.sendmail("ann@example.org", [address], mail)
            assert refused.value.recipients[address][0] == 550, refused.value.recipients
        # Larger than PBEM_MAIL_MAX_BYTES: refused before it is sent.
        big = mail + "x" * int(defaults["PBEM_MAIL_MAX_BYTES"])
        with pytest.raises(smtplib.SMTPSenderRefused) as too_big:
            client.sendmail("ann@example.org", [reply], big)
        assert too_big.value.smtp_code == 552
        assert client.sendmail("ann@example.org", [reply], mail) == {}

    rows = wait_for(lambda: stored(env), 30, "the reply to reach pbem")
    # pbem stores the mail before it answers; Postfix logs the answer after.
    sent = "status=sent (250 OK stored)"
    log = wait_for(
        lambda: sent in (text := (config / "maillog").read_text()) and text,
        30,
        "Postfix to log the delivery",
    )
    assert len(rows) == 1, log
    assert (rows[0].channel, rows[0].envelope_to) == ("lmtp", [reply])
    assert rows[0].message_id == "<reply-1@example.org>"
