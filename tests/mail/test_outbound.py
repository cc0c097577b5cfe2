"""Outbound mail: what a 'your turn' mail holds, the embedded folder backend,
and a server that is down delaying mail without losing any."""

from __future__ import annotations

import hashlib
import io
import logging
import re
from datetime import timedelta
from email import policy
from email.parser import BytesParser

import pytest
from PIL import Image
from sqlalchemy import select, update
from sqlalchemy.exc import IntegrityError

from engine.core.selfplay import play_bot_game
from pbem import create_app, migrate
from pbem.config import base_url
from pbem.db import get_db
from pbem.mail import send
from pbem.mail.game_text import result_text
from pbem.mail.game_views import GameViews
from pbem.mail.transport import Outgoing
from pbem.models import Game, Move, Outbox, OutboxStatus, User, utcnow
from pbem.services import accounts
from pbem.services.games import SeatSpec, create_game
from pbem.services.pipeline import after_change
from pbem.services.replay import engine_game
from tests.mail.conftest import DOMAIN
from tests.mail.helpers import (
    board_png,
    listed_moves,
    mail_pictures,
    queue_sign_in,
    sent_now,
    text_of,
    turn_mail,
    unsent_row,
)
from tests.mail.servers import REFUSED_DOMAIN, capture_controller
from tests.server.conftest import drain, wait_for
from tests.server.pipeline_helpers import first_legal, play_first_legal, start_game

pytestmark = pytest.mark.also_sqlite  # the embedded default's database too


def image_size(png: bytes) -> tuple[int, int]:
    return Image.open(io.BytesIO(png)).size


def test_your_turn_mail_holds_board_news_private_info_moves_and_link(rig, session, make_user):
    ann, bob = make_user("Ann"), make_user("Bob")
    game = start_game(rig.app, session, "taluva", [ann, bob])
    mail = turn_mail(rig, game, ann, "")
    seat = game.seats[0]
    assert str(mail["Subject"]) == "Taluva, Ann's game, move 1: your turn"
    assert str(mail["Reply-To"]) == f"play+{seat.token}@{DOMAIN}"
    root = f"<pbem.{game.public_id}.0.0.thread@{DOMAIN}>"
    assert re.fullmatch(rf"<pbem\.{game.public_id}\.0\.0\.\d+@{DOMAIN}>", str(mail["Message-ID"]))
    assert str(mail["In-Reply-To"]) == root and str(mail["References"]) == root
    assert mail["Auto-Submitted"] == "auto-generated"
    text = text_of(mail)
    assert "your tile:" in text  # the seat's private information
    assert f"{base_url(rig.app.config)}/games/{game.public_id}" in text
    assert listed_moves(mail) and all(m.startswith("tile ") for m in listed_moves(mail))
    html = mail.get_body(("html",)).get_content()
    assert "style=" in html and "<pre" in html  # CSS inlined for mail clients
    assert board_png(mail).startswith(b"\x89PNG")
    # The picture at most 600 px wide, linking to itself at full size, also
    # named in the text part beside the text board.
    full_size = f"{base_url(rig.app.config)}/games/{game.public_id}/board.png?seat=0&amp;ply=0"
    linked = re.search(r'<a href="([^"]+)"><img', html)[1]  # with its signed key
    assert linked.startswith(f"{full_size}&amp;key=") and "max-width:600px" in html
    assert linked.replace("&amp;", "&") in text
    # The side panel is a picture of its own at its own size, so that a
    # reader's column does not shrink its words with the board.
    board, panel = mail_pictures(mail)
    assert image_size(panel)[0] < 600 <= image_size(board)[0]
    assert html.count(f'<a href="{linked}"><img') == 2
    # The pictures' Content-IDs are of the mail's domain, not the machine's name.
    cids = [str(p["Content-ID"]) for p in mail.walk() if p.get_content_type() == "image/png"]
    assert len(cids) == 2 and all(cid.endswith(f"@{DOMAIN}>") for cid in cids), cids


def test_news_since_the_last_turn_lists_the_others_moves(rig, session, make_user):
    from tests.server.pipeline_helpers import judged
    from tests.server.pipeline_helpers import send as send_turn

    ann, bob = make_user("Ann"), make_user("Bob")
    game = start_game(rig.app, session, "taluva", [ann, bob])
    tile = listed_moves(turn_mail(rig, game, ann, ""))[0]
    judged(rig.app, send_turn(rig.app, session, game, 0, tile).id)
    session.expire_all()
    build = first_legal(engine_game(session.get(Game, game.id)), 0)  # the turn goes on
    judged(rig.app, send_turn(rig.app, session, game, 0, build).id)
    mail = turn_mail(rig, game, bob)  # after 'Ann moved' twice
    assert f"1. Ann: {tile}" in text_of(mail) and f"2. Ann: {build}" in text_of(mail)


def test_a_down_smtp_server_delays_mail_and_loses_none(rig, session, make_user):
    rig.outgoing.stop()
    try:
        ann, bob = make_user("Ann"), make_user("Bob")
        game = start_game(rig.app, session, "taluva", [ann, bob])

        def tried_and_waiting() -> bool:
            session.expire_all()
            rows = session.scalars(select(Outbox).where(Outbox.game_id == game.id)).all()
            return bool(rows) and all(
                r.status == OutboxStatus.PENDING and r.attempts >= 2 for r in rows
            )

        wait_for(tried_and_waiting, timeout=30, what="failed attempts")
    finally:
        rig.outgoing = capture_controller(rig.capture, rig.outgoing_port)
        rig.outgoing.start()
    turn_mail(rig, game, ann, "")

    def sent() -> bool:
        session.expire_all()
        rows = session.scalars(select(Outbox).where(Outbox.game_id == game.id)).all()
        return all(r.status == OutboxStatus.SENT for r in rows)

    wait_for(sent, timeout=30, what="the delayed mail to go out")
    # A second copy would come from a retry the worker still holds for later:
    # drain waits for those too (each was sent), so every one has run.
    drain(rig.app, timeout=60)
    assert not [
        m
        for m in rig.capture.messages
        if str(m["X-Pbem-Game"]) == game.public_id and ann.email in str(m["To"])
    ]


def test_embedded_default_writes_eml_files_and_logs_them(tmp_path, caplog):
    app = create_app(
        {
            "SECRET_KEY": "test",
            "PBEM_DATABASE_URL": f"sqlite:///{tmp_path / 'pbem.sqlite3'}",
            "PBEM_BROKER_URL": "memory://",
            "PBEM_MAIL_FOLDER": str(tmp_path / "mail"),
            "PBEM_SMTP_URL": None,
        }
    )
    with app.app_context(), get_db().session() as session:
        migrate.upgrade(get_db().engine)
        user = accounts.create_user(session, "cy@players.test", "Cy")
        rows = [
            queue_sign_in(session, user, "http://x/sign-in/abc"),
            Outbox(
                recipient_id=user.id,
                kind="invite",
                payload={"link": "http://x/join/def", "game": "g1", "from": "Ann"},
            ),
        ]
        session.add_all(rows)
        session.commit()
        with caplog.at_level(logging.INFO, logger="pbem.mail.transport"):
            assert [sent_now(session, row.id, app.config) for row in rows] == [True, True]
        assert sent_now(session, rows[0].id, app.config) is False  # sent once only
    files = sorted((tmp_path / "mail").glob("*.eml"))
    assert len(files) == 2
    mails = [BytesParser(policy=policy.default).parsebytes(f.read_bytes()) for f in files]
    assert {str(m["Subject"]) for m in mails} == {"Sign in to pbem", "Ann invites you to a game"}
    assert "http://x/sign-in/abc" in caplog.text and "http://x/join/def" in caplog.text


def test_game_over_mail_says_the_result_once_and_shows_the_seed(rig, session, make_user):
    ann, bob = make_user("Ann"), make_user("Bob")
    seed = f"seed-{ann.id}"
    game = create_game(session, ann, "taluva", [SeatSpec(user=ann), SeatSpec(user=bob)], seed=seed)
    whole = play_bot_game("taluva", 2, seed).game  # the same seed: the same tiles
    for ply, entry in enumerate(whole.log, start=1):
        game.moves.append(
            Move(ply=ply, seat=game.seats[entry.seat], text=entry.text, channel="bot")
        )
    session.flush()
    after_change(session, game, engine_game(game), already_waiting=frozenset())
    session.commit()
    text = text_of(turn_mail(rig, game, ann, "game over"))
    result = result_text(whole.state.result().to_json(), ["Ann", "Bob"])
    assert text.count(result) == 1
    assert f"Seed: {seed}" in text.splitlines()
    assert f"its SHA-256 is {hashlib.sha256(seed.encode()).hexdigest()}" in text
    record_url = f"{base_url(rig.app.config)}/games/{game.public_id}/record.json"
    assert f"Game record: {record_url}" in text.splitlines()


def test_a_mail_resent_after_its_worker_died_carries_the_same_message_id(rig, session, make_user):
    ann, bob = make_user("Ann"), make_user("Bob")
    game = start_game(rig.app, session, "taluva", [ann, bob])
    turn_mail(rig, game, ann, "")
    payload = {"game": game.public_id, "seat": 0, "board": True}
    row = unsent_row(
        session,
        recipient_id=ann.id,
        game_id=game.id,
        kind="mail_answer",
        payload={**payload, "text": "the board", "subject": "board"},
    )
    config, limit = rig.app.config, rig.app.config["PBEM_MAIL_MAX_ATTEMPTS"]
    # A worker leases the row, writes and hands the mail to SMTP, then dies.
    leased = send.claim(session, row.id, limit)
    assert leased.status == OutboxStatus.SENDING and leased.claimed_until is not None
    with Outgoing(config) as outgoing:
        outgoing.send(send.written(session, leased, config, GameViews()), name="died")
    sent_once = turn_mail(rig, game, ann, "board")
    assert sent_now(session, row.id, config) is False  # the lease holds
    play_first_legal(rig.app, session, game, 0)  # meanwhile the game moves on
    session.execute(
        update(Outbox)
        .where(Outbox.id == row.id)
        .values(claimed_until=utcnow() - timedelta(seconds=1))
    )
    session.commit()
    assert row.id in send.due_rows(session, 0, limit)
    assert sent_now(session, row.id, config) is True
    sent_again = turn_mail(rig, game, ann, "board")
    assert sent_again["Message-ID"] == sent_once["Message-ID"]
    session.refresh(row)
    assert (row.status, row.attempts, row.message_id) == ("sent", 2, sent_once["Message-ID"])


def test_a_mail_that_cannot_be_written_or_is_refused_fails_with_its_reason_and_blocks_nothing(
    rig, session, make_user
):
    ann, eve, max_ = make_user("Ann"), make_user("Eve"), make_user("Max")
    # A name from before names were checked: a newline cannot go into a header.
    session.execute(update(User).where(User.id == eve.id).values(name="Eve\nBcc: all@x.test"))
    session.execute(
        update(User).where(User.id == max_.id).values(email=f"max@{REFUSED_DOMAIN}")
    )  # an address the server has no mailbox for
    session.commit()
    broken = queue_sign_in(session, eve, "http://x/eve")
    refused = queue_sign_in(session, max_, "http://x/max")
    queue_sign_in(session, ann, "http://x/ann")

    session.commit()  # one batch, the good mail last
    rig.capture.take(lambda m: "http://x/ann" in text_of(m))

    def settled(outbox: Outbox):
        def failed() -> Outbox | None:
            session.expire_all()
            row = session.get(Outbox, outbox.id)
            return row if row.status == OutboxStatus.FAILED else None

        return wait_for(failed, what=f"the {outbox.payload['link']} mail to fail")

    row = settled(broken)
    assert row.last_error.startswith("the mail could not be written: ValueError")
    assert row.attempts == 1
    row = settled(refused)
    assert row.last_error.startswith("recipient refused: {'max@refused.test': (550")
    assert row.attempts == 1
    # Neither is left for a retry (the rig's database is shared: an earlier
    # test's mail may still be on its way, and due).
    due = send.due_rows(session, 0, rig.app.config["PBEM_MAIL_MAX_ATTEMPTS"])
    assert {broken.id, refused.id}.isdisjoint(due)


def test_the_sweep_gives_up_after_the_last_attempt(rig, session, make_user):
    ann = make_user("Ann")
    limit = rig.app.config["PBEM_MAIL_MAX_ATTEMPTS"]
    spent = unsent_row(
        session,
        recipient_id=ann.id,
        kind="sign_in",
        payload={"link": "x"},
        attempts=limit,
        last_error="ConnectionRefusedError: down",
    )
    left = unsent_row(
        session,
        recipient_id=ann.id,
        kind="sign_in",
        payload={"link": "y"},
        attempts=limit - 1,
        last_error="ConnectionRefusedError: down",
    )
    assert left.id in send.due_rows(session, 0, limit)
    assert spent.id not in send.due_rows(session, 0, limit)
    session.refresh(spent)
    assert spent.status == OutboxStatus.FAILED
    assert spent.last_error == f"gave up after {limit} attempts: ConnectionRefusedError: down"
    assert sent_now(session, spent.id, rig.app.config) is False


def test_a_mail_queued_before_a_savepoint_goes_out_after_the_real_commit(rig, session, make_user):
    """SQLAlchemy calls after_commit when a savepoint is released too (the
    ratings and submissions use them): handed on then, the worker would look
    for a row not committed yet, and the mail would wait for the sweep."""
    ann = make_user("Ann")
    queue_sign_in(session, ann, "http://x/later")
    session.flush()
    with session.begin_nested():
        session.execute(update(User).where(User.id == ann.id).values(name="Ann"))
    drain(rig.app)  # a worker handed the row now would have looked for it, and missed it
    session.commit()
    sent = rig.capture.take(lambda m: "http://x/later" in text_of(m), timeout=10)
    assert ann.email in sent["To"]


def test_a_mail_queued_before_a_failed_savepoint_still_goes_out(rig, session, make_user):
    """A savepoint rolled back (a refused duplicate) leaves the rows flushed before it."""
    ann = make_user("Ann")
    queue_sign_in(session, ann, "http://x/kept")
    session.flush()
    with pytest.raises(IntegrityError), session.begin_nested():
        session.add(User(email=ann.email, name="Ann again"))
    session.commit()
    sent = rig.capture.take(lambda m: "http://x/kept" in text_of(m), timeout=10)
    assert ann.email in sent["To"]
