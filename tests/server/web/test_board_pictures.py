"""A board picture is drawn once per (game, ply, viewer) and kept for the
full-size link; a mail shows the same picture cut in two; a seat's picture (its hand) never
reaches another viewer; ETags answer 304; the beat prunes old pictures.
Runs on both stores (a folder beside SQLite, the table on PostgreSQL)."""

from __future__ import annotations

import logging
import re
import shutil
from pathlib import Path

import PIL
import pytest
from sqlalchemy import func, select

import engine
import pbem.render
from pbem import create_app, migrate
from pbem.config import base_url
from pbem.db import get_db
from pbem.mail.compose import compose
from pbem.models import BoardPicture, Game, Outbox
from pbem.render.version import render_version, sources_digest
from pbem.services.picture_store import FolderStore, PictureKey, TableStore, store_for
from pbem.services.pictures import draw, picture_key
from pbem.services.replay import engine_game
from pbem.task_names import PRUNE_PICTURES
from tests.mail.helpers import board_png, mail_pictures, text_of
from tests.render.helpers import cut_in_two
from tests.server.conftest import drain
from tests.server.pipeline_helpers import start_game
from worker.celery_app import beat_schedule


@pytest.fixture
def draws(caplog: pytest.LogCaptureFixture):
    """How often the picture with an ETag was drawn (the worker thread's draws too)."""
    caplog.set_level(logging.DEBUG, logger="pbem.services.pictures")

    def count(etag: str) -> int:
        return sum(r.getMessage() == f"drew board picture {etag}" for r in caplog.records)

    return count


def samurai_game(app, session, make_user):
    """Two players with hands of their own, all mail written and sent."""
    ann, bob = make_user("Ann"), make_user("Bob")
    game = start_game(app, session, "samurai", [ann, bob])
    drain(app)
    return game, ann, bob


def test_the_mail_shows_the_kept_picture_cut_in_two(app, session, make_user, signed_in_as, draws):
    game, ann, _ = samurai_game(app, session, make_user)
    browser = signed_in_as(ann)
    now = browser.get(f"/games/{game.public_id}/board.png?seat=0")
    at_ply = browser.get(f"/games/{game.public_id}/board.png?seat=0&ply=0")
    row = session.scalar(
        select(Outbox).where(
            Outbox.game_id == game.id, Outbox.recipient_id == ann.id, Outbox.kind == "your_turn"
        )
    )
    mailed = mail_pictures(compose(session, row, app.config))
    etag = now.headers["ETag"].strip('"')
    assert now.data == at_ply.data and now.data.startswith(b"\x89PNG")
    assert mailed == list(cut_in_two(now.data))  # the board, then its panel
    assert at_ply.headers["ETag"] == now.headers["ETag"]
    assert draws(etag) == 1  # by the page, once: the mails draw their cut and keep nothing
    assert store_for(session).get(picture_key(session, game, 0, 0)) == now.data


def test_each_viewer_has_a_picture_of_its_own(app, session, make_user, signed_in_as, draws):
    game, ann, bob = samurai_game(app, session, make_user)
    played = engine_game(game)
    seat_0 = signed_in_as(ann).get(f"/games/{game.public_id}/board.png?seat=0&ply=0")
    seat_1 = signed_in_as(bob).get(f"/games/{game.public_id}/board.png?seat=1&ply=0")
    watcher = app.test_client().get(f"/games/{game.public_id}/board.png?ply=0")
    assert seat_0.data == draw(game, played.view(0))
    assert seat_1.data == draw(game, played.view(1))
    assert watcher.data == draw(game, played.view(None))
    assert len({seat_0.data, seat_1.data, watcher.data}) == 3  # hands differ
    assert len({r.headers["ETag"] for r in (seat_0, seat_1, watcher)}) == 3
    # Kept or not, another seat's picture is 404 to anyone but its player.
    assert signed_in_as(bob).get(f"/games/{game.public_id}/board.png?seat=0").status_code == 404
    unsigned = app.test_client().get(f"/games/{game.public_id}/board.png?seat=0")
    assert unsigned.status_code == 302 and "/sign-in?next=" in unsigned.headers["Location"]


def test_a_mails_picture_link_shows_that_seat_at_that_move_to_a_reader_not_signed_in(
    app, session, make_user
):
    game, ann, _ = samurai_game(app, session, make_user)
    row = session.scalar(
        select(Outbox).where(
            Outbox.game_id == game.id, Outbox.recipient_id == ann.id, Outbox.kind == "your_turn"
        )
    )
    message = compose(session, row, app.config)
    url = re.search(r"board picture at full size: (\S+)", text_of(message))[1]
    path = url.removeprefix(base_url(app.config).rstrip("/"))
    assert path.startswith(f"/games/{game.public_id}/board.png?")
    reader = app.test_client()  # the mail opened on a phone, say: no one signed in
    shown = reader.get(path)
    assert shown.status_code == 200 and cut_in_two(shown.data)[0] == board_png(message)
    # The key is for that seat at that move: not another seat, nor the board now.
    for other in (path.replace("seat=0", "seat=1"), path.replace("ply=0", "ply=")):
        refused = reader.get(other)
        assert refused.status_code == 302 and "/sign-in?next=" in refused.headers["Location"]


def test_a_known_picture_is_answered_with_304(app, session, make_user, signed_in_as, draws):
    game, ann, _ = samurai_game(app, session, make_user)
    browser = signed_in_as(ann)
    url = f"/games/{game.public_id}/board.png?seat=0"
    past = browser.get(f"{url}&ply=0")
    assert past.headers["Cache-Control"] == "private, max-age=31536000, immutable"
    again = browser.get(f"{url}&ply=0", headers={"If-None-Match": past.headers["ETag"]})
    assert again.status_code == 304 and again.data == b""
    now = browser.get(url)
    assert "no-cache" in now.headers["Cache-Control"] and "private" in now.headers["Cache-Control"]
    assert browser.get(url, headers={"If-None-Match": now.headers["ETag"]}).status_code == 304
    other = browser.get(url, headers={"If-None-Match": '"something-else"'})
    assert other.status_code == 200 and other.data == past.data


def test_what_the_seat_rows_show_is_part_of_the_key(app, session, make_user):
    game, _, _ = samurai_game(app, session, make_user)
    before = picture_key(session, game, 0, 0)
    game.seats[1].name = "Robert"
    assert picture_key(session, game, 0, 0).drawing != before.drawing
    session.rollback()
    assert picture_key(session, session.get(Game, game.id), 0, 0) == before


def test_the_render_version_follows_the_drawing_code(tmp_path: Path):
    render = Path(pbem.render.__file__).parent
    copy = shutil.copytree(render, tmp_path / "render", ignore=shutil.ignore_patterns("*.pyc"))
    (copy / "colours.cpython-311.pyc").write_bytes(b"compiled: differs by machine")
    assert sources_digest([copy]) == sources_digest([render])
    colours = copy / "colours.py"
    colours.write_text(colours.read_text() + "\n# a changed colour\n")
    assert sources_digest([copy]) != sources_digest([render])
    drawing_code = [render, Path(engine.__file__).parent]
    assert render_version() == sources_digest(drawing_code, extra=f"Pillow {PIL.__version__}")


def test_the_beat_prunes_old_pictures(app, session, make_user, signed_in_as, draws, monkeypatch):
    assert beat_schedule(app.config)["prune-pictures"]["task"] == PRUNE_PICTURES
    game, ann, _ = samurai_game(app, session, make_user)
    browser = signed_in_as(ann)
    url = f"/games/{game.public_id}/board.png?seat=0&ply=0"
    etag = browser.get(url).headers["ETag"].strip('"')
    key = picture_key(session, game, 0, 0)
    app.extensions["celery"].send_task(PRUNE_PICTURES)  # kept 7 days
    drain(app)
    assert store_for(session).get(key) is not None
    monkeypatch.setitem(app.config, "PBEM_PICTURE_KEEP_DAYS", 0)
    app.extensions["celery"].send_task(PRUNE_PICTURES)
    drain(app)
    session.rollback()
    assert store_for(session).get(key) is None
    drawn = draws(etag)
    assert browser.get(url).status_code == 200 and draws(etag) == drawn + 1


def test_the_store_follows_the_database(app, session, make_user, signed_in_as):
    """SQLite: files beside the database, for every process on its machine;
    PostgreSQL: rows every web and worker machine sees."""
    game, ann, _ = samurai_game(app, session, make_user)
    signed_in_as(ann).get(f"/games/{game.public_id}/board.png?seat=0&ply=0")
    url = session.get_bind().url
    if url.get_backend_name() == "sqlite":
        files = Path(f"{url.database}-pictures", game.public_id).glob("0.seat0.*.png")
        kept = len(list(files))
    else:
        where = (BoardPicture.game == game.public_id, BoardPicture.viewer == "seat0")
        kept = session.scalar(select(func.count()).select_from(BoardPicture).where(*where))
    assert kept == 1


def test_a_picture_that_cannot_be_kept_is_still_served(tmp_path: Path):
    blocked = tmp_path / "not-a-folder"
    blocked.write_text("a file where the folder would be")
    store = FolderStore(blocked)
    key = PictureKey("game", 3, "spectator", "digest")
    store.put(key, b"\x89PNG")  # no error: the caller serves what it drew
    assert store.get(key) is None and blocked.read_text() == "a file where the folder would be"


def test_an_in_memory_database_keeps_pictures_in_its_table():
    app = create_app({"TESTING": True, "SECRET_KEY": "test", "PBEM_DATABASE_URL": "sqlite://"})
    with app.app_context():
        migrate.upgrade(get_db().engine)
        with get_db().session() as session:
            key = PictureKey("game", 0, "seat0", "digest")
            store_for(session).put(key, b"\x89PNG")
            assert isinstance(store_for(session), TableStore)
            assert store_for(session).get(key) == b"\x89PNG"


def test_each_language_has_a_picture_of_its_own(app, session, make_user, signed_in_as, draws):
    """A reader's picture is drawn in their language and kept under a key of
    its own: a French picture is never served to a Czech or English reader."""
    game, ann, _ = samurai_game(app, session, make_user)
    keys = {lang: picture_key(session, game, 0, 0, lang) for lang in ("en", "fr", "cs")}
    assert len({key.drawing for key in keys.values()}) == 3
    assert len({key.etag for key in keys.values()}) == 3
    url = f"/games/{game.public_id}/board.png?seat=0&ply=0"
    served = {}
    for language in ("en", "fr", "cs"):
        ann.language = language
        session.commit()
        served[language] = signed_in_as(ann).get(url)
    played = engine_game(game)
    for language, response in served.items():
        assert response.headers["ETag"].strip('"') == keys[language].etag
        assert response.data == draw(game, played.view(0), language)
        assert store_for(session).get(keys[language]) == response.data
    assert len({response.data for response in served.values()}) == 3
