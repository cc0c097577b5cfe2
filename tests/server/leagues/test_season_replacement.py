"""A season's entrant replaced by someone new: the seats they take show the
name the newcomer chooses afterwards, on pages, in mails and in the API."""

from __future__ import annotations

from sqlalchemy import select

from pbem.leagues.notices import LEAGUE_DIGEST
from pbem.leagues.seasons import start_season
from pbem.leagues.withdrawal import replace
from pbem.mail.compose import compose
from pbem.models import Game, Outbox, SeasonEntrant
from pbem.services import accounts
from pbem.services.games import SeatSpec, create_game
from tests.mail.helpers import text_of
from tests.server.leagues.season_play import league_of, play_out

RENAMED = "Sam (Bordeaux)"


def test_a_replacement_who_renames_is_shown_by_the_new_name(
    app, session, make_user, signed_in_as, token_for
):
    owner, league, (ann, _bob, cem) = league_of(session, make_user, ["Ann", "Bob", "Cem"])
    season = start_season(session, league)
    session.commit()
    sam = accounts.user_for_sign_in(session, "sam@example.org")  # no account until now
    finished = create_game(session, sam, "toy-pick", [SeatSpec(user=sam), SeatSpec(user=ann)])
    session.commit()
    play_out(session, finished, ann.id)
    place = next(p for p in season.entrants if p.user_id == cem.id)
    replace(session, season, place.id, owner, sam.email, lambda seat, email: "https://pbem.test/i")
    session.commit()
    game = next(g for g in season.games if any(s.user_id == sam.id for s in g.seats))
    assert {s.name for s in game.seats if s.user_id == sam.id} == {"sam"}

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
    assert session.get(Game, finished.id).seats[0].name == "sam"
    held = select(SeasonEntrant.name).where(SeasonEntrant.user_id == sam.id)
    assert session.scalars(held).all() == [RENAMED]
