"""Accounts people can leave: everything pbem holds about a player comes out
as one file, and a deleted account leaves no trace of the person while the
games, leagues and ratings it was part of stay whole."""

from __future__ import annotations

import json
import logging
from pathlib import Path

import pytest
import redis
from sqlalchemy import select
from sqlalchemy.engine import make_url

from pbem.cli import main
from pbem.leagues.leagues import create_league
from pbem.leagues.tables import division_table
from pbem.models import (
    Base,
    ChatMessage,
    GameStatus,
    InboundMessage,
    Rating,
    User,
)
from pbem.services import chat
from pbem.services.names import former_player
from pbem.services.picture_store import PictureKey, store_for
from tests import toy_game  # noqa: F401  (registers the toy ruleset)
from tests.server.csrf_browser import Browser
from tests.server.leagues.season_play import play_out
from tests.server.pipeline_helpers import rivals
from tests.server.player_world import KINDS, a_players_world, mail_from, unique

pytestmark = pytest.mark.also_sqlite  # the embedded default's database too


def test_an_export_holds_every_kind_and_nothing_of_another_user(
    session, make_user, api, token_for, app
):
    ann, bob, _cem, done, going_on, _season = a_players_world(session, make_user)
    answer = api.call("exportAccount", token_for(ann))
    assert answer.status_code == 200
    export = answer.get_json()
    empty = [kind for kind in KINDS if not export[kind]]
    assert empty == ["vacations"]
    assert export["account"]["email"] == ann.email
    assert {g["game"] for g in export["games"]} >= {done.public_id, going_on.public_id}
    assert export["games_organised"] == [done.public_id]
    assert {t["label"] for t in export["api_tokens"]} == {"ann-laptop", "tests"}
    assert [list(sign_in) for sign_in in export["sign_ins"]] == [["signed_in_at"]]
    chats = [line["text"] for g in export["games"] for line in g["chat"]]
    assert sorted(chats) == sorted([f"ann-line {ann.name}", f"ann-too {ann.name}"])
    assert all(m["text"] == "pick 3" for g in export["games"][:1] for m in g["moves"])
    assert "ann-raw-marker" in export["mails_from_you"][0]["raw"]
    assert export["ratings"][0]["ruleset"] == "toy-pick"
    assert len(export["leagues"]["entries"]) == 1 and export["leagues"]["season_places"]
    notices = export["notices"]
    assert [hook["url"] for hook in notices["webhooks"]] == [
        f"https://hooks.example.org/{ann.name}"
    ]
    assert "secret" not in notices["webhooks"][0]
    assert len(notices["push_devices"]) == 1
    assert notices["choices"] == [
        {"game": going_on.public_id, "mail": True, "push": False, "webhooks": True, "muted": False}
    ]
    written = json.dumps(export, ensure_ascii=False)
    for bobs in (bob.email, bob.name, "bob-line", "bob-phone", "bob-raw-marker"):
        assert bobs not in written
    assert api.call("exportAccount", None).status_code == 401


def every_value(session) -> list[str]:
    """Every value of every column of every table, as text."""
    values = []
    for table in Base.metadata.sorted_tables:
        for row in session.execute(select(table)):
            for value in row:
                if isinstance(value, bytes):
                    value = value.decode("utf-8", "replace")
                values.append(json.dumps(value, default=str, ensure_ascii=False))
    return values


def test_after_deletion_no_table_holds_the_address_or_name_and_the_games_go_on(
    session, make_user, app
):
    ann, bob, cem, done, going_on, season = a_players_world(session, make_user)
    email, name = ann.email, ann.name
    runner = app.test_cli_runner()
    deleted = runner.invoke(main, ["user", "delete", email, "--yes"])
    assert deleted.exit_code == 0, deleted.output
    session.expire_all()
    found = [v for v in every_value(session) if email in v.lower() or name.lower() in v.lower()]
    assert found == []
    label = former_player(ann.id)
    assert session.get(User, ann.id).name == label
    assert session.get(User, ann.id).deleted_at is not None
    assert [s.name for s in done.seats if s.user_id == ann.id] == [label]
    assert session.scalar(select(Rating).where(Rating.user_id == ann.id)) is not None
    lines = session.scalars(select(ChatMessage).where(ChatMessage.game_id == done.id)).all()
    assert [(line.text, line.removed_at is not None) for line in lines] == [
        ("", True),
        (f"bob-line {bob.name}", False),
    ]
    # Games under way go on with the stand-in bot, and end.
    ann_seat = next(s for s in going_on.seats if s.user_id == ann.id)
    assert ann_seat.bot is not None and ann_seat.resigned_at is not None
    play_out(session, going_on, bob.id)
    league_game = season.games[0]
    play_out(session, league_game, cem.id)
    session.expire_all()
    assert going_on.status == league_game.status == GameStatus.FINISHED
    # The league table still adds up: one point for the one game, to Cem.
    table = division_table(session, season, 1)
    assert [(row.place.name, row.row.points, row.row.played) for row in table] == [
        (cem.name, 1, 1),
        (label, 0, 1),
    ]
    # Every finished game still replays (other tests' databases hold games
    # broken on purpose, so the command's exit status is not this test's).
    verified = runner.invoke(main, ["verify", "--all"])
    for game in (done, going_on, league_game):
        assert f"{game.public_id}: ok" in verified.output
    assert runner.invoke(main, ["user", "delete", email, "--yes"]).exit_code == 1


def test_deletion_forgets_what_others_wrote_of_her_and_her_games_pictures(
    session, make_user, app, caplog, monkeypatch
):
    """Another player's chat line, a league she made, what the reader noted of
    someone else's mail, a board picture drawn with her name, the logs and the
    rate counters of her sign-in: searched all after her deletion. (Not the
    embedded default's console, which shows a sign-in link and whose it is.)"""
    caplog.set_level(logging.INFO)
    monkeypatch.setitem(app.config, "PBEM_ENV", "production")
    delia, petr = make_user(unique("Delia")), make_user(unique("Petr"))
    Browser(app.test_client()).post("/sign-in", {"email": delia.email})
    done, going_on = rivals(session, delia, petr)
    petrs = next(seat for seat in going_on.seats if seat.user_id == petr.id)
    chat.post(session, petrs, f"Bonne route {delia.name}, et fais attention !", "web", 500)
    create_league(session, delia, f"{delia.name}'s Friday league", "toy-pick", 2, {"target": 3})
    session.add(
        InboundMessage(
            message_id=f"<{unique('m')}@example.org>",
            channel="http",
            envelope_from=petr.email,
            status="done",
            outcome="refused",
            detail=f"no seat for this address and sender ({delia.email.upper()})",
        )
    )
    picture = PictureKey(done.public_id, 0, "spectator", "drawn-with-her-name")
    store_for(session).put(picture, b"a PNG naming her")
    session.commit()
    email, name = delia.email, delia.name
    deleted = app.test_cli_runner().invoke(main, ["user", "delete", email, "--yes"])
    assert deleted.exit_code == 0, deleted.output
    session.expire_all()
    found = [v for v in every_value(session) if email in v.lower() or name.lower() in v.lower()]
    assert found == []
    label = former_player(delia.id)
    texts = session.scalars(select(ChatMessage.text).where(ChatMessage.game_id == going_on.id))
    assert f"Bonne route {label}, et fais attention !" in list(texts)
    assert store_for(session).get(picture) is None
    # Not the mail folder's lines: with no mail server, each mail written
    # there is shown on the console, as `pbem serve` promises.
    logged = "\n".join(
        r.getMessage().lower() for r in caplog.records if r.name != "pbem.mail.transport"
    )
    assert email not in logged and name.lower() not in logged
    if app.config["PBEM_BROKER_URL"].startswith("redis://"):  # the limits' storage
        keys = redis.Redis.from_url(app.config["PBEM_BROKER_URL"]).scan_iter(match="*sign-in*")
        assert not [key for key in keys if name.lower().encode() in key.lower()]


def test_the_command_deletes_only_when_told_yes(session, make_user, app):
    ann = make_user(unique("Ann"))
    asked = app.test_cli_runner().invoke(main, ["user", "delete", ann.email], input="n\n")
    assert asked.exit_code == 1 and "Delete this account for good?" in asked.output
    session.expire_all()
    assert session.get(User, ann.id).deleted_at is None


def test_a_deleted_account_leaves_no_bytes_in_the_sqlite_file(session, make_user, app):
    database = app.extensions["pbem.db"]
    if not database.is_sqlite:
        pytest.skip("the free pages of a file are SQLite's")
    ann = make_user(unique("Ann"))
    mail_from(session, ann, "ann-raw-marker")
    email = ann.email
    assert app.test_cli_runner().invoke(main, ["user", "delete", email, "--yes"]).exit_code == 0
    path = Path(make_url(str(database.engine.url)).database)
    for file in (path, Path(f"{path}-wal")):
        if file.exists():
            assert email.encode() not in file.read_bytes()
