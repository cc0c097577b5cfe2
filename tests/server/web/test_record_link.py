"""The "Download the record" link of the game page and the watch page: there
once the game is over, for whoever may have the record, and the download is
the engine's record file under a name that says which game it is."""

from __future__ import annotations

import engine
from pbem.models import Game, GameStatus
from pbem.services.replay import engine_game
from tests.server.conftest import drain
from tests.server.pipeline_helpers import send, start_game

LINK = 'id="record-link"'


def text(browser, url: str) -> str:
    return browser.get(url).get_data(as_text=True)


def test_the_link_shows_once_the_game_is_over_to_whoever_may_have_the_record(
    app, session, make_user, signed_in_as
):
    ann, bob, eve = make_user("Ann"), make_user("Bob"), make_user("Eve")
    game = start_game(app, session, "toy-pick", [ann, bob], target=3)
    url = f"/games/{game.public_id}"
    player, other, stranger = signed_in_as(ann), signed_in_as(bob), signed_in_as(eve)
    assert LINK not in text(player, url) and LINK not in text(player, f"{url}/watch")
    early = player.get(f"{url}/record.json")
    assert early.status_code == 409 and "not over" in early.get_data(as_text=True)
    assert stranger.get(f"{url}/record.json").status_code == 404
    anonymous = app.test_client().get(f"{url}/record.json")  # perhaps a player: sign in first
    assert anonymous.status_code == 302 and "/sign-in?next=" in anonymous.headers["Location"]

    for _ in range(3):  # Ann picks 3 and Bob 1: she scores 1 to 3 points a round
        send(app, session, game, 0, "pick 3")
        send(app, session, game, 1, "pick 1")
        drain(app)
        session.expire_all()
        if session.get(Game, game.id).status == GameStatus.FINISHED:
            break
    assert session.get(Game, game.id).status == GameStatus.FINISHED

    link = f'<a href="{url}/record.json" {LINK} download>Download the record</a>'
    assert link in text(player, url) and link in text(other, f"{url}/watch")
    download = player.get(f"{url}/record.json")
    disposition = f"attachment; filename=toy-pick-{game.public_id}.json"
    assert download.headers["Content-Disposition"] == disposition
    record = engine.Record.loads(download.get_data(as_text=True))
    assert record == engine_game(session.get(Game, game.id)).to_record()
    # Watchers never see a toy pick, so neither the link nor the record is theirs.
    assert LINK not in text(stranger, f"{url}/watch")
    assert stranger.get(f"{url}/record.json").status_code == 404
