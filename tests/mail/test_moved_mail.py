"""The short 'X moved' mail: in the game's thread, the moves as the recipient
may see them, whose turn it is, a link to the game; none for those who chose never."""

from __future__ import annotations

from pbem.config import base_url
from pbem.models import MovedMail
from pbem.services.replay import engine_game
from tests.mail.conftest import DOMAIN
from tests.mail.helpers import all_sent, board_png, text_of
from tests.server.pipeline_helpers import judged, send, start_game


def test_samurai_opening_choice_stays_secret_in_the_others_moved_mail(rig, session, make_user):
    ann, bob, cy = make_user("Ann"), make_user("Bob"), make_user("Cy")
    cy.moved_mail = MovedMail.NEVER
    session.commit()
    game = start_game(rig.app, session, "samurai", [ann, bob, cy])
    played = engine_game(game)
    choice = played.state.format_move(played.state.legal_moves(0)[0])
    assert judged(rig.app, send(rig.app, session, game, 0, choice).id).status == "accepted"
    all_sent(session, game)
    moved = [
        m
        for m in rig.capture.messages
        if str(m["X-Pbem-Game"]) == game.public_id and str(m["Subject"]).endswith("Ann moved")
    ]
    assert [str(m["To"]) for m in moved] == [f"Bob <{bob.email}>"]  # not Ann, not Cy
    mail = moved[0]
    rig.capture.messages.remove(mail)
    assert str(mail["Subject"]) == "Samurai, Ann's game, move 2: Ann moved"
    text, html = text_of(mail), mail.get_body(("html",)).get_content()
    played.play(0, choice)
    hidden = played.view(1)["history"][0]["move"]
    assert hidden != choice and "secret" in hidden
    assert text.splitlines()[:2] == ["Ann moved:", f"  1. {hidden}"] and hidden in html
    assert choice not in text and choice not in html
    assert "Now to move: you, Cy." in text  # everyone chooses at once
    assert f"{base_url(rig.app.config)}/games/{game.public_id}" in text
    assert board_png(mail) is None and len(text) < 600


def test_moved_mail_is_in_the_recipients_thread_with_their_reply_address(rig, session, make_user):
    ann, bob = make_user("Ann"), make_user("Bob")
    game = start_game(rig.app, session, "toy-pick", [ann, bob])
    judged(rig.app, send(rig.app, session, game, 0, "pick 2").id)
    mail = rig.capture.take(
        lambda m: str(m["X-Pbem-Game"]) == game.public_id and str(m["Subject"]).endswith("moved")
    )
    seat = game.seats[1]
    assert bob.email in str(mail["To"])
    assert str(mail["Reply-To"]) == f"play+{seat.token}@{DOMAIN}"
    root = f"<pbem.{game.public_id}.1.0.thread@{DOMAIN}>"
    assert str(mail["In-Reply-To"]) == root and str(mail["References"]) == root
    assert str(mail["Message-ID"]).startswith(f"<pbem.{game.public_id}.1.1.")
    assert mail["Auto-Submitted"] == "auto-generated"
    assert "1. pick (secret)" in text_of(mail)
