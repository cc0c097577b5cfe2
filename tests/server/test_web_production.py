"""`pbem web` as an administrator starts it: PBEM_ENV=production, gunicorn
with two worker processes, PostgreSQL. Two players with cookie jars of their
own and an anonymous visitor take turns on every worker: nobody ever sees
another's session, everyone can sign in, and a player with 1,000 games gets
their (paginated) page from every worker without a crash."""

from __future__ import annotations

import http.cookiejar
import urllib.error
import urllib.parse
import urllib.request
import uuid
from collections.abc import Iterator
from dataclasses import dataclass

import pytest
from sqlalchemy import select

from pbem.models import Outbox, Seat, User
from pbem.services import accounts
from pbem.services.games import SeatSpec, create_game
from tests.server.server_processes import app_for, csrf_token, web_server

pytestmark = pytest.mark.system  # starts gunicorn's processes

GAMES = 1000


@dataclass
class Visitor:
    """A browser: its own cookie jar, never following redirects by itself."""

    base: str
    jar: http.cookiejar.CookieJar

    @classmethod
    def new(cls, base: str) -> Visitor:
        return cls(base, http.cookiejar.CookieJar())

    def request(self, path: str, form: dict[str, str] | None = None) -> tuple[int, str, str]:
        """Status, body and Location of one request on a fresh connection."""
        opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(self.jar), NoRedirect()
        )
        data = urllib.parse.urlencode(form).encode() if form is not None else None
        url = path if path.startswith("http") else self.base + path
        try:
            with opener.open(url, data=data, timeout=30) as response:
                return response.status, response.read().decode(), ""
        except urllib.error.HTTPError as error:
            return error.code, error.read().decode(), error.headers.get("Location", "")

    def form_token(self, path: str) -> str:
        status, body, _ = self.request(path)
        assert status == 200, (path, status, body[:500])
        return csrf_token(body)


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


@pytest.fixture
def web(production_env: dict[str, str]) -> Iterator[str]:
    """The real `pbem web` with two workers; yields its address."""
    with web_server(production_env) as base:
        yield base


def sign_in(visitor: Visitor, email: str, name: str, env: dict[str, str]) -> None:
    """The whole sign-in a new user goes through: ask for a link, follow the
    mailed link, confirm, choose a name."""
    token = visitor.form_token("/sign-in")
    status, body, _ = visitor.request("/sign-in", {"csrf_token": token, "email": email})
    assert status == 200 and "Form refused" not in body, body[:500]
    link = mailed_link(env, email)
    token = visitor.form_token(link)
    status, _, location = visitor.request(link, {"csrf_token": token})
    assert status == 302 and "/welcome" in location, (status, location)
    token = visitor.form_token("/welcome")
    form = {"csrf_token": token, "name": name, "time_zone": "Europe/Prague", "language": "en"}
    status, body, _ = visitor.request("/welcome", form)
    assert status == 302, body[:500]


def mailed_link(env: dict[str, str], email: str) -> str:
    with app_for(env).extensions["pbem.db"].session() as session:
        user = session.scalar(select(User).where(User.email == email))
        assert user is not None
        payload = session.scalars(
            select(Outbox.payload)
            .where(Outbox.recipient_id == user.id, Outbox.kind == "sign_in")
            .order_by(Outbox.id.desc())
        ).first()
    assert payload is not None
    return payload["link"]


def give_games(env: dict[str, str], email: str, count: int) -> str:
    """`count` Taluva games against a bot, and one Java game where the user
    moves first; returns the Java game's id."""
    app = app_for(env)
    database = app.extensions["pbem.db"]
    with database.session() as session:
        user = accounts.user_by_email(session, email)
        assert user is not None
        for _ in range(count):
            create_game(session, user, "taluva", [SeatSpec(user=user), SeatSpec(bot="random")])
        java = create_game(session, user, "java", [SeatSpec(user=user), SeatSpec(bot="random")])
        session.commit()
        assert (
            session.scalar(
                select(Seat.position).where(Seat.game_id == java.id, Seat.user_id == user.id)
            )
            == 0
        )
        java_id = java.public_id
    database.dispose()
    return java_id


def test_sessions_never_cross_between_visitors(web: str, production_env: dict[str, str]):
    suffix = uuid.uuid4().hex[:8]
    ann_mail, bob_mail = f"ann-{suffix}@example.org", f"bob-{suffix}@example.org"
    ann, bob = Visitor.new(web), Visitor.new(web)
    sign_in(bob, bob_mail, "Bob", production_env)
    java = give_games(production_env, bob_mail, GAMES)
    sign_in(ann, ann_mail, "Ann", production_env)

    for _ in range(12):
        status, page, _ = bob.request("/")
        assert status == 200 and "My games" in page and "Bob" in page
        assert page.count("game-link") <= 100, "my games is not paginated"

        status, page, location = Visitor.new(web).request("/")
        assert status == 200 and "My games" not in page and "Bob" not in page

        status, page, location = Visitor.new(web).request(f"/games/{java}")
        assert status == 302 and "/sign-in" in location, (status, page[:300])

        status, page, _ = bob.request(f"/games/{java}")
        assert status == 200 and "Only you see" in page

        status, page, _ = ann.request("/settings")
        assert status == 200 and 'value="Ann"' in page and "Bob" not in page

        status, page, _ = ann.request(f"/games/{java}")
        assert status == 404 and "Only you see" not in page

    # Every new visitor can still sign in, whichever worker answers.
    for number in range(4):
        sign_in(
            Visitor.new(web), f"new{number}-{suffix}@example.org", f"New {number}", production_env
        )


def test_every_worker_speaks_the_browsers_language(web: str):
    """The catalogues are compiled into the instance folder at start-up (an
    atomic write, so workers starting together never read half a file);
    every worker answers a Czech browser in Czech."""
    for _ in range(8):
        request = urllib.request.Request(web + "/", headers={"Accept-Language": "cs"})
        with urllib.request.urlopen(request, timeout=10) as response:
            page = response.read().decode()
        assert '<html lang="cs">' in page and "Přihlásit se e-mailovou adresou" in page
