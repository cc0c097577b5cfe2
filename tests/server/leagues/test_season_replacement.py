"""A season's entrant replaced by someone new: the organiser confirms first;
the newcomer and the player replaced each get one mail, the newcomer's in
the language chosen for them; the seats taken show the name the newcomer
chooses afterwards, on pages, in mails and in the API."""

from __future__ import annotations

import re
import uuid
from collections import Counter

from sqlalchemy import func, select

from pbem.leagues.notices import LEAGUE_DIGEST, SEASON_REPLACED, SEASON_TAKE_OVER
from pbem.leagues.seasons import start_season
from pbem.leagues.withdrawal import replace
from pbem.mail.compose import compose
from pbem.models import Game, Outbox, SeasonEntrant
from pbem.services import accounts
from pbem.services.games import SeatSpec, create_game
from tests.mail.helpers import text_of
from tests.server.csrf_browser import Browser
from tests.server.leagues.season_play import league_of, play_out

RENAMED = "Sam (Bordeaux)"
FRENCH = {"Accept-Language": "fr"}


def test_a_replacement_who_renames_is_shown_by_the_new_name(
    app, session, make_user, signed_in_as, token_for
):
    owner, league, (ann, _bob, cem) = league_of(session, make_user, ["Ann", "Bob", "Cem"])
    season = start_season(session, league)
    session.commit()
    sam = accounts.user_for_sign_in(session, f"sam-{uuid.uuid4().hex[:8]}@example.org")
    finished = create_game(session, sam, "toy-pick", [SeatSpec(user=sam), SeatSpec(user=ann)])
    session.commit()
    play_out(session, finished, ann.id)
    place = next(p for p in season.entrants if p.user_id == cem.id)
    replace(session, season, place.id, owner, sam.email)
    session.commit()
    game = next(g for g in season.games if {s.user_id for s in g.seats} == {sam.id, ann.id})
    assert {s.name for s in game.seats if s.user_id == sam.id} == {sam.email.split("@")[0]}

    renamer = signed_in_as(sam)
    renamer.get("/welcome")
    assert renamer.post("/welcome", {"name": RENAMED, "time_zone": "UTC"}).status_code == 302

    session.expire_all()
    page = signed_in_as(ann).get(f"/games/{game.public_id}").get_data(as_text=True)
    assert RENAMED in page
    table = signed_in_as(ann).get(f"/leagues/{league.public_id}/seasons/1")
    assert RENAMED in table.get_data(as_text=True)
    headers = {"Authorization": f"Bearer {token_for(ann)}"}
    seats = app.test_client().get(f"/api/v1/games/{game.public_id}", headers=headers)
    assert RENAMED in [seat["name"] for seat in seats.get_json()["seats"]]
    digest = Outbox(recipient_id=ann.id, kind=LEAGUE_DIGEST, payload={})
    session.add(digest)
    session.flush()
    with app.app_context():
        mail = text_of(compose(session, digest, app.config))
    session.rollback()
    table_part, games_part = mail.split("Your games:")
    assert RENAMED in table_part and RENAMED in games_part  # its row, and whom a game waits for
    # A finished game keeps the name it ended with; the season's place follows.
    assert session.get(Game, finished.id).seats[0].name == sam.email.split("@")[0]
    held = select(SeasonEntrant.name).where(SeasonEntrant.user_id == sam.id)
    assert session.scalars(held).all() == [RENAMED]


def test_replace_asks_to_confirm_then_tells_the_newcomer_once_in_their_language(
    app, session, make_user, signed_in_as
):
    """Cem plays two games under way; giving his place to someone with no
    account mailed 8 rows before (to the newcomer 2 English 'your turn' and 2
    invitations in the organiser's page language, to Cem one notice per
    game): now one mail each, and the opponents' news of each game."""
    owner, league, (ann, bob, cem) = league_of(session, make_user, ["Ann", "Bob", "Cem"])
    season = start_season(session, league)
    session.commit()
    place = next(p for p in season.entrants if p.user_id == cem.id)
    url = f"/leagues/{league.public_id}/seasons/1/places/{place.id}/replace"
    org = signed_in_as(owner)
    table = org.get(f"/leagues/{league.public_id}/seasons/1").get_data(as_text=True)
    assert f'<form method="get" action="{url}"' in table  # the table's button only asks
    before = session.scalar(select(func.max(Outbox.id)))
    address = f"sam-{uuid.uuid4().hex[:8]}@example.org"  # someone with no account yet

    wrong = org.get(url, query_string={"email": "sam at home"})
    assert wrong.status_code == 422 and "not an e-mail address" in wrong.get_data(as_text=True)
    asked = org.get(url, query_string={"email": address.upper()}, headers=FRENCH)
    page = asked.get_data(as_text=True)
    assert asked.status_code == 200 and "Oui, donner la place" in page
    assert f'value="{address}"' in page
    assert '<option value="fr" lang="fr" selected>Français</option>' in page  # the page's
    session.expire_all()
    assert session.get(SeasonEntrant, place.id).user_id == cem.id  # asking changes nothing
    assert session.scalar(select(func.max(Outbox.id))) == before
    assert org.post(url, {"email": address, "language": "cs"}).status_code == 302

    session.expire_all()
    sam = accounts.user_by_email(session, address)
    assert session.get(SeasonEntrant, place.id).user_id == sam.id and sam.language == "cs"
    rows = session.scalars(select(Outbox).where(Outbox.id > before)).all()
    told = Counter((row.recipient_id, row.kind) for row in rows)
    assert told == {
        (sam.id, SEASON_TAKE_OVER): 1,
        (cem.id, SEASON_REPLACED): 1,
        (ann.id, "organiser_event"): 1,
        (bob.id, "organiser_event"): 1,
    }
    taken = next(row for row in rows if row.kind == SEASON_TAKE_OVER)
    with app.app_context():
        mail = compose(session, taken, app.config)
        replaced = compose(session, next(r for r in rows if r.kind == SEASON_REPLACED), app.config)
    text = text_of(mail)
    assert str(mail["Subject"]) == "Club – Sezóna 1: přebíráte místo hráče Cem"
    assert "Organiser (organizátor) vám předal(a) místo hráče Cem v Club – Sezóna 1" in text
    games = [g for g in season.games if any(s.user_id == sam.id for s in g.seats)]
    assert len(games) == 2
    links = re.findall(r"https?://\S+/take-over/\S+", text)
    assert len(links) == 2  # one per game, each signs Sam in and takes its seat
    assert "Čeká se na váš tah:" in text  # toy-pick: everyone picks at once
    gave = f"Organiser (organiser) gave your place in Club – Season 1 to {sam.name}."
    assert gave in text_of(replaced)

    newcomer = Browser(app.test_client())
    path = links[0][links[0].index("/take-over/") :]
    assert newcomer.post(path).status_code == 302  # signed in, the seat taken
    second = links[1][links[1].index("/take-over/") :]
    assert newcomer.post(second).status_code == 302
