"""A Java festival auction by mail (issue 50): every mail after the auction
tells its outcome in its reader's language (the answer to the move that
ended it, the next player's turn, the others' "moved"), and the seat the
auction dropped without asking, answering it later, is told how it ended
and that it has nothing to send now."""

from __future__ import annotations

from tests.mail.helpers import reply, submit_by_smtp, text_of
from tests.server.pipeline_helpers import (
    FESTIVAL_OUTCOMES,
    FESTIVAL_TURN,
    java_before_a_festival,
    judged,
)


def game_mail(rig, game, user, move: int, ending: str):
    """The mail to `user` about the game written at move `move`, its subject ending so."""
    return rig.capture.take(
        lambda m: (
            str(m["X-Pbem-Game"]) == game.public_id
            and user.email in str(m["To"])
            and str(m["X-Pbem-Move"]) == str(move)
            and str(m["Subject"]).endswith(ending)
        )
    )


def plain(message) -> str:
    return text_of(message).replace("\r\n", "\n")


def test_every_mail_after_a_festival_tells_its_outcome(rig, session, make_user):
    bob, ann, cid = make_user("Bob"), make_user("Ann"), make_user("Cid")
    bob.language, ann.language = "cs", "fr"
    session.commit()
    game = java_before_a_festival(rig.app, session, [bob, ann, cid])
    turn = game_mail(rig, game, cid, 11, "your turn")
    festival = reply(turn, cid.email, "\n".join(FESTIVAL_TURN))
    row = submit_by_smtp(rig, festival, cid.email, str(turn["Reply-To"]))
    assert judged(rig.app, row.submission_id).status == "accepted"

    accepted = plain(game_mail(rig, game, cid, 15, "accepted"))
    assert f"  festival B3 M M\n     ({FESTIVAL_OUTCOMES['en']})\n" in accepted
    bobs_turn = plain(game_mail(rig, game, bob, 15, "jste na tahu"))
    assert f"14. Cid: slavnost B3 M M\n     ({FESTIVAL_OUTCOMES['cs']})\n" in bobs_turn
    moved = game_mail(rig, game, ann, 15, "Cid a joué")
    assert f"14. fête B3 M M\n     ({FESTIVAL_OUTCOMES['fr']})\n" in plain(moved)

    late = reply(moved, ann.email, "passer")
    row = submit_by_smtp(rig, late, ann.email, str(moved["Reply-To"]))
    assert judged(rig.app, row.submission_id).status == "rejected"
    refused = plain(game_mail(rig, game, ann, 15, "refusé"))
    assert f"l'enchère de la fête est terminée : {FESTIVAL_OUTCOMES['fr']} [fête]" in refused
    # What to send now: nothing, as it is Bob's turn (not "the whole turn again").
    assert "Il n'y a rien à envoyer pour l'instant : la partie attend Bob" in " ".join(
        refused.split()
    )
    assert "Renvoyez tout le tour" not in refused
