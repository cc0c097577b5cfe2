"""A deleted account's seat is a former player in the reader's language
everywhere a game names its seats: the game page's and the watch page's
move history and board panel, and the mails' lists of moves (the record
keeps "former player N", which they showed in English)."""

from __future__ import annotations

from pbem.accounts.deletion import delete_account
from pbem.i18n import in_language
from pbem.mail.game_views import GameViews
from pbem.models import Game, User
from tests.server.pipeline_helpers import judged, send, start_game


def test_a_former_player_is_named_in_the_readers_language(app, session, make_user, signed_in_as):
    ann, bob = make_user("Ann"), make_user("Bob")
    game = start_game(app, session, "taluva", [ann, bob])
    assert judged(app, send(app, session, game, 0, "tile 0,0 0,-1 1,-1\nhut 1,-1").id).status == (
        "accepted"
    )
    with app.app_context():
        delete_account(session, session.get(User, ann.id))
    bob.language = "fr"
    session.commit()
    former = f"ancien joueur {ann.id}"

    for url in (f"/games/{game.public_id}", f"/games/{game.public_id}/watch"):
        page = signed_in_as(bob).get(url).get_data(as_text=True)
        history = page.split('<details class="log"', 1)[1].split("</details>", 1)[0]
        assert f"{former}: tuile 0,0 0,-1 1,-1" in history, url
        panel = page.split('class="board-panel', 1)[1]
        assert former in panel and "former player" not in panel, url

    with app.app_context(), in_language("fr"):
        views = GameViews()
        picture = views.picture(views.game(session, game.id), 1)
    assert picture.seats[0] == former
    assert picture.news[0].startswith(f"1. {former}: tuile 0,0")
    session.expire_all()
    assert session.get(Game, game.id).seats[0].name == f"former player {ann.id}"
