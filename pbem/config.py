"""Settings from environment variables (every name is listed in docs/configuration.md).

`Config` is the embedded default: a SQLite file and a filesystem broker inside
the instance folder, so one machine with only Python runs everything.
`ProductionConfig` (PBEM_ENV=production) insists on real URLs and a secret key.
"""

from __future__ import annotations

import ipaddress
import os
import re
import secrets
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any, overload

from engine.bots import DEFAULT_LEVEL, LEVELS

STAND_IN_CHOICES = (DEFAULT_LEVEL, *(level for level in LEVELS if level != DEFAULT_LEVEL))

ENV_PREFIX = "PBEM_"
# The Celery queues of an installation, each read by workers of its own:
# turns (and the sweeps), bots thinking, notices sent (mail, webhooks, push).
QUEUE_SETTINGS = ("PBEM_TASK_QUEUE", "PBEM_BOT_QUEUE", "PBEM_NOTICE_QUEUE")


@overload
def _env(name: str) -> str | None: ...
@overload
def _env(name: str, default: str) -> str: ...
@overload
def _env(name: str, default: str | None) -> str | None: ...
def _env(name: str, default: str | None = None) -> str | None:
    value = os.environ.get(ENV_PREFIX + name)
    return value if value not in (None, "") else default


def _int_env(name: str, default: int) -> int:
    value = _env(name)
    try:
        return int(value) if value is not None else default
    except ValueError:
        raise ValueError(f"{ENV_PREFIX}{name} must be a whole number, not {value!r}") from None


class ConfigError(RuntimeError):
    """A setting that is missing or unusable; the message names the variable."""


class Config:
    """Embedded defaults: everything lives in the instance folder."""

    name = "embedded"

    def settings(self, instance_path: str) -> dict[str, Any]:
        instance = Path(instance_path)
        return {
            "PBEM_ENV": self.name,
            "SECRET_KEY": _env("SECRET_KEY"),
            "PBEM_DATABASE_URL": _env("DATABASE_URL") or f"sqlite:///{instance / 'pbem.sqlite3'}",
            "PBEM_BROKER_URL": _env("BROKER_URL") or "filesystem://localhost/",
            "PBEM_BROKER_FOLDER": _env("BROKER_FOLDER") or str(instance / "broker"),
            "PBEM_TASK_QUEUE": _env("TASK_QUEUE", "pbem"),
            "PBEM_STALE_SUBMISSION_SECONDS": _int_env("STALE_SUBMISSION_SECONDS", 60),
            # Bots think on a queue of their own, read by workers of their own.
            "PBEM_BOT_QUEUE": _env("BOT_QUEUE", "bots"),
            "PBEM_BOT_CONCURRENCY": _int_env("BOT_CONCURRENCY", 1),
            # How much the bots' worker lowers its CPU priority (nice): people's
            # turns take the cores first, bots think on what is left.
            "PBEM_BOT_NICE": _int_env("BOT_NICE", 10),
            "PBEM_STALE_THINK_SECONDS": _int_env("STALE_THINK_SECONDS", 300),
            # Mail, webhooks and push are sent from a queue of their own, so a
            # slow receiver never holds up the judging of a turn.
            "PBEM_NOTICE_QUEUE": _env("NOTICE_QUEUE", "notices"),
            "PBEM_NOTICE_CONCURRENCY": _int_env("NOTICE_CONCURRENCY", 4),
            # The stand-in level of new games and leagues whose organiser chooses none.
            "PBEM_STAND_IN": stand_in_setting(),
            "PBEM_SWEEP_SECONDS": _int_env("SWEEP_SECONDS", 60),
            "PBEM_BEAT_LEASE_SECONDS": _int_env("BEAT_LEASE_SECONDS", 60),
            "PBEM_WEB_BIND": _env("WEB_BIND", "127.0.0.1:5000"),
            "PBEM_WEB_WORKERS": _int_env("WEB_WORKERS", 2),
            "PBEM_WORKER_CONCURRENCY": _int_env("WORKER_CONCURRENCY", 2),
            "PBEM_LOG_LEVEL": _env("LOG_LEVEL", "INFO"),
            "PBEM_LOG_FORMAT": _choice("LOG_FORMAT", ("text", "json")),
            "PBEM_SENTRY_DSN": _env("SENTRY_DSN"),
            **mail_settings(instance),
            **limit_settings(),
            **metrics_settings(instance),
            **notify_settings(),
            # Unset in the embedded default: pages use the request's address,
            # mail the one the web server binds to (see base_url).
            "PBEM_BASE_URL": (_env("BASE_URL") or "").rstrip("/") or None,
            "PBEM_SIGN_IN_LINK_MINUTES": _int_env("SIGN_IN_LINK_MINUTES", 30),
            "PBEM_SIGN_IN_KEEP_DAYS": _days("SIGN_IN_KEEP_DAYS", 30),
            "PBEM_CHAT_MAX_CHARS": _int_env("CHAT_MAX_CHARS", 500),
            "PBEM_VACATION_DAYS": _days("VACATION_DAYS", 30),
            "PBEM_SNAPSHOT_CHECK_PERCENT": _percent("SNAPSHOT_CHECK_PERCENT", 2),
            "PBEM_PICTURE_KEEP_DAYS": _days("PICTURE_KEEP_DAYS", 7),
            # The privacy page (/privacy): whom to write to about personal
            # data, and the administrator's own words shown above the list.
            "PBEM_PRIVACY_CONTACT": _env("PRIVACY_CONTACT"),
            "PBEM_PRIVACY_TEXT": _env("PRIVACY_TEXT"),
        }

    def default_secret_key(self, instance: Path) -> str:
        """Made once per instance folder when PBEM_SECRET_KEY is unset, so
        sessions survive a restart."""
        path = instance / "secret_key"
        if not path.exists():
            instance.mkdir(parents=True, exist_ok=True)
            path.write_text(secrets.token_urlsafe(32), encoding="utf-8")
            path.chmod(0o600)
        return path.read_text(encoding="utf-8").strip()


def base_url(config: Mapping[str, Any]) -> str:
    """The site's address for links made outside a request (mail)."""
    return config["PBEM_BASE_URL"] or f"http://{config['PBEM_WEB_BIND']}"


def mail_settings(instance: Path) -> dict[str, Any]:
    """Mail in and out (pbem.mail); see docs/configuration.md."""
    domain = _env("MAIL_DOMAIN", "localhost")
    return {
        "PBEM_MAIL_DOMAIN": domain,
        "PBEM_MAIL_FROM": _env("MAIL_FROM") or f"pbem <pbem@{domain}>",
        "PBEM_MAIL_REPLY_LOCALPART": _env("MAIL_REPLY_LOCALPART", "play"),
        "PBEM_SMTP_URL": _env("SMTP_URL"),
        "PBEM_MAIL_FOLDER": _env("MAIL_FOLDER") or str(instance / "mail"),
        "PBEM_MAIL_MAX_BYTES": _int_env("MAIL_MAX_BYTES", 5_000_000),
        "PBEM_MAIL_RETRY_SECONDS": _int_env("MAIL_RETRY_SECONDS", 300),
        # A 'moved' mail waits this long for the 'your turn' that would tell it too.
        "PBEM_MOVED_MAIL_WAIT_SECONDS": moved_mail_wait_setting(),
        "PBEM_MAIL_MAX_ATTEMPTS": _int_env("MAIL_MAX_ATTEMPTS", 300),
        "PBEM_IMAP_URL": _env("IMAP_URL"),
        "PBEM_IMAP_POLL_SECONDS": _int_env("IMAP_POLL_SECONDS", 60),
        "PBEM_SMTPD_BIND": _env("SMTPD_BIND", "127.0.0.1:8025"),
        "PBEM_SMTPD_LMTP": _env("SMTPD_LMTP", "0") not in ("0", "false", "no"),
        "PBEM_INBOUND_TOKEN": _env("INBOUND_TOKEN"),
        "PBEM_MAIL_AUTHSERV_ID": _env("MAIL_AUTHSERV_ID"),
        "PBEM_MAIL_KEEP_DAYS": _days("MAIL_KEEP_DAYS", 30),
        "PBEM_OUTBOX_KEEP_DAYS": _days("OUTBOX_KEEP_DAYS", 30),
    }


def notify_settings() -> dict[str, Any]:
    """Webhooks and browser push (pbem.notify); see docs/configuration.md."""
    return {
        # Networks outbound requests may reach although they are not public,
        # each on the port it names: read here so a mistyped one stops the start.
        "PBEM_WEBHOOK_ALLOWED_NETWORKS": _allowed_networks_env(),
        "PBEM_WEBHOOK_TIMEOUT_SECONDS": _int_env("WEBHOOK_TIMEOUT_SECONDS", 5),
        # A delivery is tried again, with growing waits, for this long.
        "PBEM_WEBHOOK_RETRY_HOURS": _int_env("WEBHOOK_RETRY_HOURS", 24),
        # Failed attempts in a row after which a hook is switched off.
        "PBEM_WEBHOOK_MAX_FAILURES": _int_env("WEBHOOK_MAX_FAILURES", 25),
        "PBEM_WEBHOOK_PER_MINUTE": _int_env("WEBHOOK_PER_MINUTE", 30),
        # Requests in flight to one host at once, over every sender; and the
        # timeouts in a row after which a host is left alone for a while.
        "PBEM_RECEIVER_CONCURRENCY": _count("RECEIVER_CONCURRENCY", 2),
        "PBEM_RECEIVER_TIMEOUTS": _count("RECEIVER_TIMEOUTS", 3),
        # Devices a user may have subscribed; a new one beyond them replaces the oldest.
        "PBEM_PUSH_MAX_DEVICES": _count("PUSH_MAX_DEVICES", 10),
        # Attempts at a push notice before it is given up (failed, on /admin).
        "PBEM_PUSH_MAX_ATTEMPTS": _count("PUSH_MAX_ATTEMPTS", 8),
        "PBEM_VAPID_PRIVATE_KEY": _env("VAPID_PRIVATE_KEY"),
        "PBEM_VAPID_PUBLIC_KEY": _env("VAPID_PUBLIC_KEY"),
        "PBEM_VAPID_SUBJECT": _env("VAPID_SUBJECT"),
    }


@dataclass(frozen=True)
class AllowedNetwork:
    """A network outbound requests may reach although it is not public, on
    one port: an administrator opens a club's chat server, not the network."""

    network: ipaddress.IPv4Network | ipaddress.IPv6Network
    port: int


ALLOWED_ENTRY = re.compile(r"(?:\[(?P<bracketed>[^\]]*)\]|(?P<plain>[^:\[\]]*)):(?P<port>\d{1,5})")


def _allowed_networks_env() -> str:
    text = _env("WEBHOOK_ALLOWED_NETWORKS", "")
    allowed_networks(text)
    return text


@cache
def allowed_networks(text: str) -> tuple[AllowedNetwork, ...]:
    """PBEM_WEBHOOK_ALLOWED_NETWORKS read: comma-separated NETWORK:PORT
    entries, an IPv6 network in brackets (`10.0.0.5:8008, 192.168.1.0/24:443,
    [fd00::/8]:443`); ConfigError naming an entry written otherwise."""
    return tuple(_allowed_entry(part.strip()) for part in text.split(",") if part.strip())


def _allowed_entry(entry: str) -> AllowedNetwork:
    name = f"{ENV_PREFIX}WEBHOOK_ALLOWED_NETWORKS"
    written = ALLOWED_ENTRY.fullmatch(entry)
    try:
        network = ipaddress.ip_network(
            entry if written is None else written["bracketed"] or written["plain"], strict=False
        )
    except ValueError:
        raise ConfigError(
            f"{name}: {entry!r} is not NETWORK:PORT, like 10.0.0.0/8:443 or [fd00::/8]:443"
        ) from None
    if written is None:
        example = f"[{entry}]" if network.version == 6 else entry
        raise ConfigError(
            f"{name}: {entry!r} names no port. An allowed network is open only on the"
            f" ports named: write it {example}:PORT, once for each port"
        )
    port = int(written["port"])
    if not 0 < port < 65536:
        raise ConfigError(f"{name}: {entry!r} names no port from 1 to 65535")
    return AllowedNetwork(network, port)


def metrics_settings(instance: Path) -> dict[str, Any]:
    """Who may read /metrics and where the processes keep their counters
    (pbem.metrics); see docs/configuration.md."""
    return {
        "PBEM_METRICS_TOKEN": _env("METRICS_TOKEN"),
        "PBEM_METRICS_DIR": _env("METRICS_DIR") or str(instance / "metrics"),
        "PBEM_WORKER_METRICS_BIND": _bind("WORKER_METRICS_BIND"),
        "PBEM_NOTICE_METRICS_BIND": _bind("NOTICE_METRICS_BIND"),
    }


def limit_settings() -> dict[str, Any]:
    """Rate limits and size caps (pbem.ratelimit, pbem.services.submissions).
    Limits are written like "5 per hour" or "10/minute;100/day"."""
    return {
        # Unset: the broker's Redis when the broker is Redis, else memory:// (one process).
        "PBEM_RATELIMIT_STORAGE_URL": _env("RATELIMIT_STORAGE_URL"),
        "PBEM_TRUSTED_PROXIES": _int_env("TRUSTED_PROXIES", 0),
        "PBEM_SIGN_IN_LIMIT_PER_ADDRESS": _env("SIGN_IN_LIMIT_PER_ADDRESS", "5 per hour"),
        "PBEM_SIGN_IN_LIMIT_PER_CLIENT": _env("SIGN_IN_LIMIT_PER_CLIENT", "30 per hour"),
        "PBEM_INVITATION_LIMIT": _env("INVITATION_LIMIT", "30 per day"),
        "PBEM_API_WRITE_LIMIT": _env("API_WRITE_LIMIT", "60 per minute"),
        "PBEM_MAIL_INBOUND_LIMIT": _env("MAIL_INBOUND_LIMIT", "300 per minute"),
        "PBEM_REFUSAL_LIMIT": _env("REFUSAL_LIMIT", "1 per hour"),
        "PBEM_REFUSAL_LIMIT_TOTAL": _env("REFUSAL_LIMIT_TOTAL", "60 per hour"),
        "PBEM_MAX_REQUEST_BYTES": _int_env("MAX_REQUEST_BYTES", 1_000_000),
        "PBEM_MAX_SUBMISSION_MOVES": _int_env("MAX_SUBMISSION_MOVES", 50),
        "PBEM_MAX_MOVE_CHARS": _int_env("MAX_MOVE_CHARS", 200),
    }


def _bind(name: str) -> str | None:
    """An address:port to listen on, or None when unset."""
    value = _env(name)
    if value is not None and not value.rpartition(":")[2].isdigit():
        raise ConfigError(
            f"{ENV_PREFIX}{name} must be address:port, like 0.0.0.0:9101, not {value!r}"
        )
    return value


def _count(name: str, default: int) -> int:
    """A number of things, one at least."""
    count = _int_env(name, default)
    if count < 1:
        raise ConfigError(f"{ENV_PREFIX}{name} must be 1 or more, not {count}")
    return count


def _days(name: str, default: int) -> int:
    days = _int_env(name, default)
    if days < 0:
        raise ConfigError(f"{ENV_PREFIX}{name} must be 0 or more days, not {days}")
    return days


def _choice(name: str, choices: tuple[str, ...]) -> str:
    """One of `choices`; the first when unset."""
    value = _env(name, choices[0])
    if value not in choices:
        raise ConfigError(f"{ENV_PREFIX}{name} must be one of {', '.join(choices)}, not {value!r}")
    return value


def moved_mail_wait_setting() -> int:
    """PBEM_MOVED_MAIL_WAIT_SECONDS as the environment sets it (300 when unset)."""
    return _int_env("MOVED_MAIL_WAIT_SECONDS", 300)


def stand_in_setting() -> str:
    """PBEM_STAND_IN as the environment sets it (medium when unset)."""
    return _choice("STAND_IN", STAND_IN_CHOICES)


def _percent(name: str, default: int) -> int:
    percent = _int_env(name, default)
    if not 0 <= percent <= 100:
        raise ConfigError(f"{ENV_PREFIX}{name} must be a percentage from 0 to 100, not {percent}")
    return percent


class ProductionConfig(Config):
    """Separate web, worker and beat processes sharing PostgreSQL and Redis."""

    name = "production"
    # BASE_URL: links in mail must not take their host from a request header.
    required = ("SECRET_KEY", "DATABASE_URL", "BROKER_URL", "BASE_URL")

    def settings(self, instance_path: str) -> dict[str, Any]:
        missing = [ENV_PREFIX + name for name in self.required if not _env(name)]
        if missing:
            raise ConfigError(f"PBEM_ENV=production needs {', '.join(missing)}")
        return super().settings(instance_path)


CONFIGS = {cls.name: cls for cls in (Config, ProductionConfig)}


def config_from_env() -> Config:
    name = _env("ENV", Config.name)
    try:
        return CONFIGS[name]()
    except KeyError:
        raise ConfigError(f"PBEM_ENV must be one of {', '.join(CONFIGS)}, not {name!r}") from None
