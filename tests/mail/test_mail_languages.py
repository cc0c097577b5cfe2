"""Every mail in its recipient's language: the turn with its subject, a
refused turn, a reminder, the help; a sign-in asked for on a French page by
someone who chose no language yet; English for those who chose none."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
import time_machine
from sqlalchemy import select

from pbem.clock.sweep import sweep
from pbem.leagues.leagues import create_league
from pbem.mail.compose import compose
from pbem.models import Outbox, User
from pbem.services import notifications
from pbem.services.time_control import TimeControl
from tests.mail.helpers import mail_to, reply, submit_by_smtp, text_of, turn_mail
from tests.server.clock.helpers import clocked_game, outbox_rows, player
from tests.server.csrf_browser import Browser
from tests.server.pipeline_helpers import start_game
from tests.server.signed_in import sign_in

pytestmark = pytest.mark.parametrize("rig", ["sqlite"], indirect=True)


def speaking(user: User, language: str | None) -> User:
    user.language = language
    return user


def test_the_turn_mail_and_its_subject_in_french_and_in_czech(rig, session, make_user):
    ann, bob = speaking(make_user("Ann"), "fr"), speaking(make_user("Bob"), "cs")
    session.commit()
    game = start_game(rig.app, session, "taluva", [ann, bob])
    mail = mail_to(rig, ann, "coup 1 : à vous de jouer")
    text = text_of(mail)
    assert "À vous de jouer. Quelques-uns de vos coups légaux" in text
    assert "répondez coups/legal pour en voir plus" in text
    assert "Commandes, une par ligne : coups/legal (tous vos coups légaux)" in text
    assert "Comment jouer par mail : http://127.0.0.1:5000/help?lang=fr" in text
    assert "tuiles restant dans la pioche" in text  # the text board's lines
    assert str(mail["Subject"]).startswith(game.title)
    # Bob waits: his first mail comes once Ann has played, in Czech.
    raw = reply(mail, ann.email, "tuile 0,0 0,-1 1,-1\nhutte 1,-1")
    submit_by_smtp(rig, raw, ann.email, str(mail["Reply-To"]))
    czech = text_of(mail_to(rig, bob, "tah 3: jste na tahu"))
    assert "Od vašeho posledního tahu:" in czech
    assert "Jste na tahu. Některé z vašich možných tahů" in czech
    assert "deska/board (deska teď)" in czech
    assert "dílky zbývající" in czech


def test_game_mails_link_how_to_write_moves_in_the_readers_language(rig, session, make_user):
    jana, ann = speaking(make_user("Jana"), "cs"), make_user("Ann")
    session.commit()
    game = start_game(rig.app, session, "samurai", [jana, ann])
    czech = text_of(turn_mail(rig, game, jana, "jste na tahu"))
    assert "Jak zapisovat tahy: http://127.0.0.1:5000/help/samurai?lang=cs" in czech
    english = text_of(turn_mail(rig, game, ann, "your turn"))
    assert "How to write moves: http://127.0.0.1:5000/help/samurai?lang=en" in english


def test_a_refused_turn_in_french(rig, session, make_user):
    ann, bob = speaking(make_user("Ann"), "fr"), make_user("Bob")
    session.commit()
    game = start_game(rig.app, session, "taluva", [ann, bob])
    mail = turn_mail(rig, game, ann, "à vous de jouer")
    raw = reply(mail, ann.email, "tuile 0,0 0,-1 1,-1\nhutte 5,5")
    submit_by_smtp(rig, raw, ann.email, str(mail["Reply-To"]))
    refused = mail_to(rig, ann, ": refusé")
    text = text_of(refused)
    assert "Votre tour n'a pas été accepté : il n'y a pas de terrain en 5,5 [construction]" in text
    assert "Rien n'en a été joué. Renvoyez tout le tour, s'il vous plaît." in text


def test_the_reminder_in_czech_with_a_czech_date(rig, session, make_user):
    asked = datetime(2026, 3, 27, 14, tzinfo=UTC)  # a Friday; one day per move
    ann = speaking(player(make_user, "Ann", "Europe/Prague", reminder_hours=24), "cs")
    bob = player(make_user, "Bob")
    with time_machine.travel(asked, tick=False):
        game = clocked_game(rig.app, session, "taluva", [ann, bob], TimeControl(days_per_move=2))
    with time_machine.travel(asked + timedelta(days=1, hours=1), tick=False):
        sweep(session)
        [row] = outbox_rows(session, game, notifications.REMINDER)
        with rig.app.app_context():
            message = compose(session, row, rig.app.config)
    text = text_of(message)
    assert str(message["Subject"]).endswith(": připomínka")
    assert "Připomínka: váš tah je třeba zahrát do ne 29 bře, 16:00 (za 23 hodin)." in text
    assert "Pokud do té doby nezahrajete, tah zahraje bot." in text
    assert "Časový limit: 2 dny na tah; po vypršení času tah zahraje bot." in text


@pytest.mark.parametrize(
    ("language", "word", "expected"),
    [
        (
            "fr",
            "aide",
            ["Commandes, une par ligne :", "  plateau/board ", "  vacances/vacation N "],
        ),
        ("cs", "nápověda", ["Příkazy, jeden na řádek:", "  deska/board ", "  zpráva/chat TEXT "]),
        ("cs", "help", ["Příkazy, jeden na řádek:", "  tahy/legal "]),  # English words work too
        (None, "aide", ["Commands, one per line:", "  board ", "  vacation N "]),
    ],
)
def test_the_help_answers_in_the_readers_language(
    rig, session, make_user, language, word, expected
):
    ann, bob = speaking(make_user("Ann"), language), make_user("Bob")
    session.commit()
    game = start_game(rig.app, session, "taluva", [ann, bob])
    turn = {"fr": "à vous de jouer", "cs": "jste na tahu", None: "your turn"}[language]
    mail = turn_mail(rig, game, ann, turn)
    row = submit_by_smtp(rig, reply(mail, ann.email, word), ann.email, str(mail["Reply-To"]))
    assert row.outcome == "answered"
    subject = {"fr": "réponse", "cs": "odpověď", None: "answer"}[language]
    answer = text_of(mail_to(rig, ann, subject))
    for line in expected:
        assert line in answer
    assert "/help" in answer


@pytest.mark.parametrize(
    ("language", "turn", "subject", "greeting", "title"),
    [
        ("fr", "à vous de jouer", "accepté", "Bonjour à tous,", "Ces lignes n'ont pas été lues :"),
        ("cs", "jste na tahu", "přijato", "Ahoj všichni,", "Tyto řádky nebyly přečteny:"),
    ],
)
def test_lines_set_aside_are_named_in_the_readers_language(
    rig, session, make_user, language, turn, subject, greeting, title
):
    ann, bob = speaking(make_user("Ann"), language), make_user("Bob")
    session.commit()
    game = start_game(rig.app, session, "taluva", [ann, bob])
    mail = turn_mail(rig, game, ann, turn)
    body = f"{greeting}\ntile 0,0 0,-1 1,-1\nAnn\n"
    row = submit_by_smtp(rig, reply(mail, ann.email, body), ann.email, str(mail["Reply-To"]))
    assert row.outcome == "submitted", row.detail
    answer = text_of(mail_to(rig, ann, subject)).replace("\r\n", "\n")
    assert f"{title}\n  {greeting}\n  Ann\n" in answer


def test_a_sign_in_asked_on_a_french_page_comes_in_french(rig, session):
    email = "nouveau-venu@example.org"
    browser = Browser(rig.app.test_client())
    response = browser.post("/sign-in", {"email": email}, headers={"Accept-Language": "fr"})
    assert response.status_code == 200
    row = session.scalars(
        select(Outbox).join(User, User.id == Outbox.recipient_id).where(User.email == email)
    ).one()
    assert row.payload["language"] == "fr" and row.recipient.language is None
    text = text_of(mail_to(rig, email, "Connexion à pbem"))
    assert "Utilisez ce lien pour vous connecter à pbem." in text


def test_a_chosen_language_wins_over_the_page_and_none_means_english(rig, session, make_user):
    chose = speaking(make_user("Cem"), "cs")
    session.commit()
    browser = Browser(rig.app.test_client())
    browser.post("/sign-in", {"email": chose.email}, headers={"Accept-Language": "fr"})
    assert "Tímto odkazem se přihlásíte" in text_of(mail_to(rig, chose, "Přihlášení do pbem"))
    ann, bob = speaking(make_user("Ann"), "fr"), make_user("Bob")
    session.commit()
    game = start_game(rig.app, session, "taluva", [bob, ann])
    assert "Your turn. Some of your legal moves" in text_of(turn_mail(rig, game, bob))


def signed_in(rig, user: User) -> Browser:
    """A browser of the mail rig's web app, signed in as `user`."""
    return Browser(sign_in(rig.app, rig.app.test_client(), user.id))


def test_an_invitation_sent_from_a_french_page_comes_in_french(rig, session, make_user):
    ann = speaking(make_user("Ann"), "fr")
    session.commit()
    browser = signed_in(rig, ann)
    browser.get("/games/new/taluva")
    friend = "ami-de-anne@example.org"
    form = {"seat-0": "me", "seat-1": "invite", "invite-1": friend}
    assert browser.post("/games/new/taluva", form).status_code in (200, 302)
    text = text_of(mail_to(rig, friend, "Ann vous invite à une partie"))
    assert (
        "Ann vous invite à une partie sur pbem." in text and "Rejoindre la partie : http://" in text
    )


def test_an_invitation_comes_in_the_invitees_language_when_they_have_one(rig, session, make_user):
    """From a French page: Jana chose Czech; Bob has played here and chose
    nothing, so reads English; only a newcomer gets the inviter's French."""
    camille = speaking(make_user("Camille"), "fr")
    jana, bob = speaking(make_user("Jana"), "cs"), make_user("Bob")
    bob.signed_in_at = datetime.now(UTC)
    league = create_league(session, camille, "Club", "taluva", 2, {})
    session.commit()
    browser = signed_in(rig, camille)
    browser.get(f"/leagues/{league.public_id}")
    for invitee in (jana.email, bob.email, "nouveau@example.org"):
        invited = browser.post(f"/leagues/{league.public_id}/invite", {"email": invitee})
        assert invited.status_code == 302
    czech = text_of(mail_to(rig, jana, "Camille vás zve do ligy Club"))
    assert "Camille vás zve do ligy Club na pbem." in czech
    english = text_of(mail_to(rig, bob, "Camille invites you to the league Club"))
    assert "Camille invites you to the league Club on pbem." in english
    french = text_of(mail_to(rig, "nouveau@example.org", "Camille vous invite à la ligue Club"))
    assert "Camille vous invite à la ligue Club sur pbem." in french
