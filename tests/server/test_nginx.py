"""deploy/nginx/pbem.conf in front of a real `pbem web` (gunicorn,
PBEM_TRUSTED_PROXIES=1): Debian's nginx (deploy/test-services.sh installs it)
runs as a private instance on loopback ports with a certificate made here.
The site file is used as shipped; only its domain, ports and paths are
replaced, each replacement checked to find its text."""

from __future__ import annotations

import contextlib
import http.client
import os
import re
import shutil
import ssl
import subprocess
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from email.message import EmailMessage
from pathlib import Path

import pytest

import pbem.web
from pbem.config import Config
from tests.mail.servers import free_port
from tests.server.conftest import production_settings, wait_for
from tests.server.server_processes import csrf_token, web_server

pytestmark = pytest.mark.system  # starts nginx and gunicorn

SITE = Path(__file__).resolve().parents[2] / "deploy" / "nginx" / "pbem.conf"
STATIC = Path(pbem.web.__file__).parent / "static"
NGINX = shutil.which("nginx") or "/usr/sbin/nginx"
INBOUND_TOKEN = "inbound-" + uuid.uuid4().hex
# Other addresses of this machine than the proxy's own, as clients.
OUTSIDER = "127.0.0.2"
FLOODER = "127.0.0.3"


@dataclass
class Answer:
    status: int
    headers: http.client.HTTPMessage
    text: str

    def came_from_app(self) -> bool:
        """Every response of the app carries the request's id; nginx's own don't."""
        return "X-Request-ID" in self.headers


@dataclass
class Proxy:
    """The private nginx: its ports and the certificate its clients trust."""

    http_port: int
    https_port: int
    tls: ssl.SSLContext
    webroot: Path

    @property
    def origin(self) -> str:
        return f"https://127.0.0.1:{self.https_port}"

    def call(
        self,
        method: str,
        path: str,
        body: bytes | None = None,
        headers: dict[str, str] | None = None,
        source: str = "127.0.0.1",
        tls: bool = True,
    ) -> Answer:
        connection: http.client.HTTPConnection
        if tls:
            connection = http.client.HTTPSConnection(
                "127.0.0.1", self.https_port, context=self.tls, source_address=(source, 0)
            )
        else:
            connection = http.client.HTTPConnection(
                "127.0.0.1", self.http_port, source_address=(source, 0)
            )
        try:
            connection.putrequest(method, path)
            for name, value in (headers or {}).items():
                connection.putheader(name, value)
            if body is not None:
                connection.putheader("Content-Length", str(len(body)))
            connection.endheaders()
            if body is not None:
                # nginx may refuse a body by its length before it is all sent;
                # its answer is still there to read.
                with contextlib.suppress(BrokenPipeError, ConnectionResetError):
                    connection.send(body)
            response = connection.getresponse()
            text = response.read().decode(errors="replace")
            return Answer(response.status, response.headers, text)
        finally:
            connection.close()


def site_limits() -> tuple[int, int]:
    """(the site's body limit, the mail door's), as written in the site file."""
    text = SITE.read_text()
    site = re.search(r"^    client_max_body_size (\d+);", text, re.MULTILINE)
    door = re.search(
        r"location = /mail/inbound \{\s*client_max_body_size (\d+);", text, re.MULTILINE
    )
    assert site and door, "the site file lost a client_max_body_size"
    return int(site.group(1)), int(door.group(1))


def test_body_limits_match_the_apps_defaults(tmp_path: Path):
    defaults = Config().settings(str(tmp_path))
    assert site_limits() == (defaults["PBEM_MAX_REQUEST_BYTES"], defaults["PBEM_MAIL_MAX_BYTES"])


def self_signed_certificate(folder: Path) -> None:
    """fullchain.pem and privkey.pem for 127.0.0.1, where certbot puts them."""
    folder.mkdir()
    subprocess.run(
        [
            "openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
            "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1",
            "-keyout", str(folder / "privkey.pem"), "-out", str(folder / "fullchain.pem"),
        ],
        check=True,
        capture_output=True,
    )  # fmt: skip


def replace_each(text: str, replacements: dict[str, str]) -> str:
    for old, new in replacements.items():
        assert old in text, f"{old!r} is no longer in {SITE.name}"
        text = text.replace(old, new)
    return text


def nginx_conf(folder: Path, site: Path) -> Path:
    """A main configuration like Debian's /etc/nginx/nginx.conf, writing only
    into `folder`, that includes the site."""
    conf = folder / "nginx.conf"
    user = "user root;" if os.geteuid() == 0 else ""  # the test's files are private
    conf.write_text(
        f"""{user}
daemon off;
worker_processes 1;
pid {folder}/nginx.pid;
error_log {folder}/error.log;
events {{ worker_connections 64; }}
http {{
    include /etc/nginx/mime.types;
    default_type application/octet-stream;
    sendfile on;
    client_body_temp_path {folder}/client_body;
    proxy_temp_path {folder}/proxy;
    fastcgi_temp_path {folder}/fastcgi;
    uwsgi_temp_path {folder}/uwsgi;
    scgi_temp_path {folder}/scgi;
    access_log {folder}/access.log;
    include {site};
}}
"""
    )
    return conf


@pytest.fixture(scope="module")
def proxy(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Proxy]:
    """nginx with the site file on two free loopback ports, in front of
    `pbem web` run as deploy/pbem.env.example has it behind nginx; one for
    the module's tests, which keep apart by their client addresses."""
    tmp_path = tmp_path_factory.mktemp("nginx")
    assert Path(NGINX).exists(), "nginx is missing: run deploy/test-services.sh"
    http_port, https_port = free_port(), free_port()
    settings = {
        "PBEM_TRUSTED_PROXIES": "1",
        "PBEM_BASE_URL": f"https://127.0.0.1:{https_port}",
        "PBEM_INBOUND_TOKEN": INBOUND_TOKEN,
        "PBEM_MAIL_INBOUND_LIMIT": "4 per hour",
    }
    with production_settings(tmp_path / "instance", **settings) as env, web_server(env, 1):
        self_signed_certificate(tmp_path / "tls")
        webroot = tmp_path / "webroot"
        (webroot / ".well-known" / "acme-challenge").mkdir(parents=True)
        site = tmp_path / "pbem.conf"
        site.write_text(
            replace_each(
                SITE.read_text(),
                {
                    "listen 80;": f"listen 127.0.0.1:{http_port};",
                    "listen 443 ssl http2;": f"listen 127.0.0.1:{https_port} ssl http2;",
                    "listen [::]:80;": "",  # IPv6 may be missing on a test machine
                    "listen [::]:443 ssl http2;": "",
                    "/etc/letsencrypt/live/games.example.org/": f"{tmp_path}/tls/",
                    "games.example.org": "127.0.0.1",
                    "/var/www/html": str(webroot),
                    "/var/log/nginx/": f"{tmp_path}/",
                    "/opt/pbem/static/": f"{STATIC}/",
                    "127.0.0.1:5000": env["PBEM_WEB_BIND"],
                },
            )
        )
        conf = nginx_conf(tmp_path, site)
        command = [NGINX, "-p", str(tmp_path), "-c", str(conf), "-e", str(tmp_path / "error.log")]
        checked = subprocess.run([*command, "-t"], capture_output=True, text=True)
        assert checked.returncode == 0, checked.stderr
        server = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        try:
            tls = ssl.create_default_context(cafile=str(tmp_path / "tls" / "fullchain.pem"))
            proxy = Proxy(http_port, https_port, tls, webroot)
            wait_for(lambda: _answers(proxy, server, tmp_path), 30, "nginx to answer")
            yield proxy
        finally:
            server.terminate()
            server.wait(timeout=30)


def _answers(proxy: Proxy, server: subprocess.Popen[bytes], folder: Path) -> bool:
    """Whether nginx answers yet; an nginx that stopped fails with its log."""
    if server.poll() is not None:
        output = server.stdout.read().decode(errors="replace") if server.stdout else ""
        log = folder / "error.log"
        raise AssertionError(f"nginx stopped: {output}{log.read_text() if log.exists() else ''}")
    try:
        return proxy.call("GET", "/healthz").status == 200
    except OSError:
        return False


def mail(size: int = 0) -> bytes:
    """A mail to a seat address, its body padded to at least `size` bytes."""
    message = EmailMessage()
    message["From"] = "ann@example.org"
    message["To"] = "play+nobody@example.org"
    message["Subject"] = "move"
    message["Message-ID"] = f"<{uuid.uuid4().hex}@example.org>"
    message.set_content("pass\n" + "x" * size)
    return message.as_bytes()


def post_mail(proxy: Proxy, body: bytes, source: str = "127.0.0.1") -> Answer:
    headers = {"Authorization": f"Bearer {INBOUND_TOKEN}", "Content-Type": "message/rfc822"}
    return proxy.call("POST", "/mail/inbound", body, headers, source)


def test_http_redirects_to_https_but_serves_certbot(proxy: Proxy):
    answer = proxy.call("GET", "/games/abc?page=2", tls=False)
    assert answer.status == 301 and not answer.came_from_app()
    assert answer.headers["Location"] == "https://127.0.0.1/games/abc?page=2"

    (proxy.webroot / ".well-known" / "acme-challenge" / "t0ken").write_text("t0ken.key")
    answer = proxy.call("GET", "/.well-known/acme-challenge/t0ken", tls=False)
    assert (answer.status, answer.text) == (200, "t0ken.key")


def test_pages_come_from_the_app_over_https_and_assets_from_nginx(proxy: Proxy):
    page = proxy.call("GET", "/sign-in")
    assert page.status == 200 and page.came_from_app()
    # nginx's $request_id reaches the app, which logs it and sends it back.
    assert re.fullmatch(r"[0-9a-f]{32}", page.headers["X-Request-ID"])
    assert "max-age=31536000" in page.headers["Strict-Transport-Security"]

    asset = proxy.call("GET", "/assets/pbem.css")
    assert asset.status == 200 and not asset.came_from_app()
    assert asset.text == (STATIC / "pbem.css").read_text()
    assert asset.headers["Cache-Control"] == "max-age=3600"
    assert asset.headers["Content-Type"].startswith("text/css")


def test_the_app_sees_https_and_the_host_the_browser_used(proxy: Proxy):
    """Over HTTPS, Flask-WTF checks that a form's Referer is this site: it
    refuses a form without one only if it knows the scheme is https
    (X-Forwarded-Proto), and accepts the right one only if the Host header
    arrives as the browser sent it, port included."""
    page = proxy.call("GET", "/sign-in")
    cookie = page.headers["Set-Cookie"].split(";")[0]
    form = f"csrf_token={csrf_token(page.text)}&email=ann-{uuid.uuid4().hex[:8]}%40example.org"
    headers = {"Cookie": cookie, "Content-Type": "application/x-www-form-urlencoded"}

    # The same form and cookie, without and with a Referer.
    refused = proxy.call("POST", "/sign-in", form.encode(), headers)
    assert refused.status == 400 and "Form refused" in refused.text, refused.text[:500]

    headers["Referer"] = proxy.origin + "/sign-in"
    sent = proxy.call("POST", "/sign-in", form.encode(), headers)
    assert sent.status == 200 and "Form refused" not in sent.text, sent.text[:500]


def test_the_app_sees_the_clients_address(proxy: Proxy):
    """The mail door's rate limit counts per client: another address still
    gets in once one has used up its four."""
    for _ in range(4):
        assert post_mail(proxy, mail(), source=FLOODER).status == 202
    over = post_mail(proxy, mail(), source=FLOODER)
    assert over.status == 429 and over.came_from_app()
    assert post_mail(proxy, mail(), source=OUTSIDER).status == 202


def test_the_mail_door_takes_more_than_the_rest_of_the_site(proxy: Proxy):
    site_limit, mail_limit = site_limits()
    big = mail(site_limit)
    assert site_limit < len(big) < mail_limit

    form = proxy.call("POST", "/sign-in", big, {"Content-Type": "text/plain"})
    assert form.status == 413 and not form.came_from_app()

    stored = post_mail(proxy, big)
    assert stored.status == 202 and stored.came_from_app(), stored.text[:500]

    too_big = post_mail(proxy, mail(mail_limit))
    assert too_big.status == 413 and not too_big.came_from_app()
    assert "nginx" in too_big.text


def test_metrics_are_refused_to_other_machines_by_nginx(proxy: Proxy):
    outside = proxy.call("GET", "/metrics", source=OUTSIDER)
    assert outside.status == 403 and not outside.came_from_app()
    # From the machine itself the request reaches the app, which decides.
    assert proxy.call("GET", "/metrics").came_from_app()
