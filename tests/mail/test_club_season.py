"""A club season as its players live it (issue 24): a French organiser runs
a Taluva league of 3-player games with a Czech player who plays by mail in
her words, a New York player on the page, and herself on the page inside her
quiet hours. Each mailbox is checked: every game mail titled in its reader's
language and never by id, the moves listed in the reader's words, and at the
end of the quiet hours one current mail about the game, not a burst."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
import time_machine

from pbem.leagues.leagues import create_league, invite_entrant, join_league
from pbem.leagues.seasons import start_season
from pbem.models import Game, MovedMail
from pbem.services.replay import engine_game
from pbem.task_names import REQUEUE_OUTBOX
from tests.mail.helpers import listed_under, reply, submit_by_smtp, text_of, turn_mail
from tests.server.conftest import drain, run_task
from tests.server.pipeline_helpers import play_a_turn

pytestmark = pytest.mark.parametrize("rig", ["postgresql"], indirect=True)

# Wednesday 10 March 2027, 23:30 in Paris (UTC+1): Camille's quiet hours
# (22:00-08:00) end at 07:00 UTC.
NIGHT = datetime(2027, 3, 10, 22, 30, tzinfo=UTC)
MORNING = datetime(2027, 3, 11, 7, 1, tzinfo=UTC)
TITLES = {
    "fr": "Club Taluva de Lyon – Saison 1 – Journée 1 – Partie 1",
    "cs": "Club Taluva de Lyon – Sezóna 1 – Kolo 1 – Hra 1",
    "en": "Club Taluva de Lyon – Season 1 – Round 1 – Game 1",
}
TURNS = 6  # two each


def game_mails(rig, game: Game, user) -> list:
    return [
        m
        for m in rig.capture.messages
        if str(m["X-Pbem-Game"]) == game.public_id and user.email in str(m["To"])
    ]


def jana_plays_by_mail(rig, game: Game, jana) -> None:
    """Her tile, then her build, each copied from the list her mail gives in Czech."""
    mail = turn_mail(rig, game, jana, ": jste na tahu")
    for part in ("dílek ", ""):
        move = listed_under(mail, lambda line: line.startswith("Jste na tahu. "))[0]
        assert move.startswith(part)  # her words: "dílek 0,0 ...", not "tile 0,0 ..."
        raw = reply(mail, jana.email, move)
        assert submit_by_smtp(rig, raw, jana.email, str(mail["Reply-To"])).outcome == "submitted"
        mail = turn_mail(rig, game, jana, ": přijato")
        assert f"  {move}" in text_of(mail).splitlines()


def test_a_season_in_three_languages_by_mail_and_page_across_quiet_hours(rig, session, make_user):
    camille = make_user("Camille", quiet_hours="22:00-08:00")
    jana, bob = make_user("Jana"), make_user("Bob")
    camille.language, camille.time_zone, camille.moved_mail = "fr", "Europe/Paris", MovedMail.EACH
    jana.language, jana.time_zone = "cs", "Europe/Prague"
    bob.time_zone = "America/New_York"
    session.commit()
    with time_machine.travel(NIGHT, tick=True):
        league = create_league(session, camille, "Club Taluva de Lyon", "taluva", 3, {})
        for player in (camille, jana, bob):
            invite_entrant(session, league, camille, player.email, "https://pbem.test/league")
            join_league(session, league.public_id, player)
        session.commit()
        season = start_season(session, league)
        session.commit()
        (game,) = season.games
        for _turn in range(TURNS):
            session.expire_all()
            seat = min(engine_game(session.get(Game, game.id)).state.to_act())
            player = game.seats[seat].user
            if player.id == jana.id:
                jana_plays_by_mail(rig, game, jana)
            else:
                play_a_turn(rig.app, session, game, seat)  # on the page
        drain(rig.app)  # the last mails of the night have gone out, or are held
        assert game_mails(rig, game, camille) == []  # all held
    for reader, language in ((jana, "cs"), (bob, "en")):
        for mail in game_mails(rig, game, reader):
            subject = str(mail["Subject"])
            assert subject.startswith(TITLES[language] + ", ") and game.public_id not in subject
    with time_machine.travel(MORNING, tick=True):
        run_task(rig.app, REQUEUE_OUTBOX)
        morning = turn_mail(rig, game, camille, "")
        drain(rig.app)  # whatever else the morning's pass sends has been sent
        assert game_mails(rig, game, camille) == []  # one mail, not a burst
    subject = str(morning["Subject"])
    assert subject.startswith(TITLES["fr"] + ", coup ") and game.public_id not in subject
    text = text_of(morning)
    assert "tile " not in text  # the moves in French words
    assert "Comment écrire les coups : http://127.0.0.1:5000/help/taluva?lang=fr" in text
