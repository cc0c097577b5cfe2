"""The refusal mail gives the rules' reason in its recipient's language."""

from __future__ import annotations

from tests.mail.helpers import reply, submit_by_smtp, text_of, turn_mail
from tests.server.pipeline_helpers import judged, start_game


def test_a_refused_move_is_explained_in_czech_to_a_czech_player(rig, session, make_user):
    ann, bob = make_user("Ann"), make_user("Bob")
    ann.language = "cs"
    session.commit()
    game = start_game(rig.app, session, "taluva", [ann, bob])
    mail = turn_mail(rig, game, ann, "jste na tahu")
    moves = "dílek 0,0 0,-1 1,-1\nchýše 5,5"  # the player's own words
    raw = reply(mail, ann.email, moves)
    row = submit_by_smtp(rig, raw, ann.email, str(mail["Reply-To"]))
    assert judged(rig.app, row.submission_id).reason == "there is no land on 5,5 [building]"
    refused = rig.capture.take(
        lambda m: ann.email in str(m["To"]) and "na 5,5 není žádná zem [stavění]" in text_of(m)
    )
    assert str(refused["X-Pbem-Game"]) == game.public_id
