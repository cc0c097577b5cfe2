"""The game page: board, private information, legal moves, preview, submit,
history; and the bad-input rules: a refused move stores nothing, a stale page
or a double click sends at most once, strangers get the same 404 as nobody."""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable
from zoneinfo import ZoneInfo

import pytest
from flask import Flask
from sqlalchemy import func, select
from sqlalchemy.orm.attributes import set_committed_value

import engine
from pbem.models import ChatMessage, Game, Outbox, Seat, Submission, SubmissionStatus
from pbem.services.pictures import inline_board
from pbem.services.replay import engine_game
from pbem.web import play
from tests.server.conftest import drain, wait_for
from tests.server.pipeline_helpers import (
    FESTIVAL_AFTER_A_DRAW,
    hand_on,
    java_ann_first,
    judged,
    lost_submission,
    start_game,
)
from tests.server.pipeline_helpers import send as send_turn
from tests.server.web.page_helpers import legal, plies, send, submissions, taluva_against

pytestmark = pytest.mark.also_sqlite  # the embedded default's database too


def play_until(
    app: Flask, session, game: Game, position: int, done: Callable[[engine.State], bool]
) -> engine.Game:
    """The seat plays its first legal move (a fixed opening choice in Samurai)
    through the worker, against the bots, until `done` holds."""
    while True:
        drain(app)
        session.expire_all()
        played = engine_game(session.get(Game, game.id))
        state = played.state
        if done(state):
            return played
        if position in state.to_act():
            text = "choose helmet4 buddha4 rice4 samurai3 ronin"
            if state.phase != "choose":
                text = state.format_move(state.legal_moves(position)[0])
            send_turn(app, session, game, position, text)


def test_game_page_shows_board_legal_moves_and_move_entry(app, session, make_user, signed_in_as):
    ann = make_user("Ann")
    game = taluva_against(app, session, ann)
    page = signed_in_as(ann).get(f"/games/{game.public_id}").get_data(as_text=True)
    assert f"/games/{game.public_id}/board.png?seat=0&amp;ply=0" in page
    assert 'name="ply" value="0"' in page and 'id="moves"' in page
    moves = legal(session, game, 0)
    assert page.count('class="move"') == len(moves)
    assert f'data-move="{moves[0]}"' in page
    assert "terrain+level" in page  # the text picture


def test_a_verdict_committed_while_the_page_is_drawn_never_reloads_it_under_the_player(
    app, session, make_user, signed_in_as, monkeypatch
):
    """The worker may commit its verdict at any point of drawing the page.
    Here it lands just before the page asks what is still pending: the page
    offers the next move (the build after the tile), so it must not poll
    too, or a reload would take the turn being built from under the clicks."""
    ann = make_user("Ann")
    game = taluva_against(app, session, ann)
    state = engine_game(game).state
    tile = state.format_move(state.legal_moves(0)[0])
    submission = lost_submission(session, game.seats[0], tile, channel="web")
    session.commit()
    asked = play.pending_submission

    def judged_meanwhile(db_session, seat):
        hand_on(app, submission.id)
        judged(app, submission.id)
        return asked(db_session, seat)

    monkeypatch.setattr(play, "pending_submission", judged_meanwhile)
    url = f"/games/{game.public_id}?submission={submission.id}"
    page = signed_in_as(ann).get(url).get_data(as_text=True)
    assert 'id="move-form"' in page
    assert 'data-status="accepted"' in page
    assert "data-poll-url" not in page


def test_private_information_is_shown_to_its_seat_only(app, session, make_user, signed_in_as):
    ann = make_user("Ann")
    game = start_game(app, session, "java", [ann, "bot"])
    hand = engine_game(game).view(0)["state"]["hand"]
    assert hand
    page = signed_in_as(ann).get(f"/games/{game.public_id}").get_data(as_text=True)
    assert "Only you see" in page and f"<dt>hand</dt><dd>{', '.join(hand)}</dd>" in page
    watch = signed_in_as(make_user("Eve")).get(f"/games/{game.public_id}/watch")
    assert watch.status_code == 200
    assert "Only you see" not in watch.get_data(as_text=True)
    assert ", ".join(hand) not in watch.get_data(as_text=True)


def test_board_picture_is_a_png_of_the_seats_view(app, session, make_user, signed_in_as):
    ann = make_user("Ann")
    game = taluva_against(app, session, ann)
    response = signed_in_as(ann).get(f"/games/{game.public_id}/board.png?seat=0&ply=0")
    assert response.status_code == 200 and response.mimetype == "image/png"
    assert response.data.startswith(b"\x89PNG")


def test_preview_shows_the_result_and_stores_nothing(app, session, make_user, signed_in_as):
    ann = make_user("Ann")
    game = taluva_against(app, session, ann)
    browser = signed_in_as(ann)
    browser.get(f"/games/{game.public_id}")
    move = legal(session, game, 0)[0]
    response = send(browser, game, move, "preview")
    page = response.get_data(as_text=True)
    assert response.status_code == 200
    assert "Nothing is sent yet" in page and move in page
    assert 'data-space="0,0"' in page  # the board after the tile, as SVG
    after = engine_game(game)
    after.play(0, move)
    builds = [after.state.format_move(m) for m in after.state.legal_moves(0)]
    assert page.count('class="move"') == len(builds)  # what may follow: a build
    assert f'data-move="{builds[0]}"' in page
    assert submissions(session, game) == 0 and plies(session, game) == 0


def test_submitted_move_is_judged_by_the_worker(app, session, make_user, signed_in_as):
    ann = make_user("Ann")
    game = taluva_against(app, session, ann)
    browser = signed_in_as(ann)
    browser.get(f"/games/{game.public_id}")
    move = legal(session, game, 0)[0]
    response = send(browser, game, move)
    assert response.status_code == 302 and "submission=" in response.location
    drain(app)
    page = browser.get(response.location).get_data(as_text=True)
    assert 'data-status="accepted"' in page
    assert plies(session, game) >= 1


def test_a_verdict_committed_while_the_page_is_drawn_shows(
    app, session, make_user, signed_in_as, monkeypatch
):
    """The submission the page shows was read a moment before the worker
    committed its verdict: the page still shows the verdict, not "waiting"
    (with nothing left to wait for, it would wait for ever)."""
    ann = make_user("Ann")
    game = taluva_against(app, session, ann)
    browser = signed_in_as(ann)
    response = send(browser, game, legal(session, game, 0)[0])
    drain(app)
    read_too_early = play._shown_submission

    def stale(seat: Seat, raw: str | None) -> Submission | None:
        found = read_too_early(seat, raw)
        assert found is not None
        set_committed_value(found, "status", SubmissionStatus.PENDING)
        return found

    monkeypatch.setattr(play, "_shown_submission", stale)
    page = browser.get(response.location).get_data(as_text=True)
    assert 'data-status="accepted"' in page


def test_several_lines_make_one_submission(app, session, make_user, signed_in_as):
    ann = make_user("Ann")
    game = taluva_against(app, session, ann)
    played = engine_game(game)
    tile = played.state.format_move(played.state.legal_moves(0)[0])
    played.play(0, tile)
    build = played.state.format_move(played.state.legal_moves(0)[0])
    browser = signed_in_as(ann)
    browser.get(f"/games/{game.public_id}")
    response = browser.post(
        f"/games/{game.public_id}/submit", {"moves": f"{tile}\r\n{build}\r\n", "ply": "0"}
    )
    assert response.status_code == 302
    drain(app)
    assert 'data-status="accepted"' in browser.get(response.location).get_data(as_text=True)
    session.expire_all()
    assert [m.text for m in session.get(Game, game.id).moves[:2]] == [tile, build]


def test_illegal_move_shows_the_engines_reason_and_stores_nothing(
    app, session, make_user, signed_in_as
):
    ann = make_user("Ann")
    game = taluva_against(app, session, ann)
    browser = signed_in_as(ann)
    browser.get(f"/games/{game.public_id}")
    for text in ("tile 9,9 9,8 8,9", "dance a jig", ""):
        for action in ("preview", "submit"):
            response = browser.post(
                f"/games/{game.public_id}/{action}", {"moves": text, "ply": "0"}
            )
            assert response.status_code == 422, (text, action)
            assert 'id="move-error"' in response.get_data(as_text=True)
    assert submissions(session, game) == 0 and plies(session, game) == 0


def test_not_your_turn_is_refused(app, session, make_user, signed_in_as):
    ann, bob = make_user("Ann"), make_user("Bob")
    game = start_game(app, session, "taluva", [ann, bob])
    browser = signed_in_as(bob)
    page = browser.get(f"/games/{game.public_id}").get_data(as_text=True)
    assert 'id="moves"' not in page and "Waiting for Ann" in page
    move = legal(session, game, 0)[0]
    response = send(browser, game, move)
    assert response.status_code == 409
    assert "it is not your turn (waiting for Ann)" in response.get_data(as_text=True)
    assert submissions(session, game) == 0


def test_double_click_sends_the_move_once(app, session, make_user, signed_in_as):
    ann = make_user("Ann")
    game = taluva_against(app, session, ann)
    browser = signed_in_as(ann)
    browser.get(f"/games/{game.public_id}")
    form = {"moves": legal(session, game, 0)[0], "ply": "0"}
    first = browser.post(f"/games/{game.public_id}/submit", form)
    second = browser.post(f"/games/{game.public_id}/submit", form)  # at once: still pending
    drain(app)
    third = browser.post(f"/games/{game.public_id}/submit", form)  # later: already applied
    assert first.status_code == 302
    assert second.status_code in (302, 409)
    assert third.status_code == 302 and "again=1" in third.location
    page = browser.get(third.location).get_data(as_text=True)
    assert "it counts once" in page
    mine = select(func.count()).where(Submission.game_id == game.id, Submission.channel == "web")
    assert session.scalar(mine) == 1


def test_stale_page_is_refused_when_the_move_no_longer_fits(app, session, make_user, signed_in_as):
    ann = make_user("Ann")
    game = taluva_against(app, session, ann)
    browser = signed_in_as(ann)
    browser.get(f"/games/{game.public_id}")
    tiles = legal(session, game, 0)
    send(browser, game, tiles[0])
    drain(app)
    # A second tab drawn at ply 0 sends another tile: now it is time to build.
    stale = send(browser, game, tiles[1])
    assert stale.status_code == 422
    assert "the game moved on since your page was drawn" in stale.get_data(as_text=True)
    assert plies(session, game) == 1


def test_stale_page_is_accepted_while_it_is_your_turn_and_the_move_is_legal(
    app, session, make_user, signed_in_as
):
    ann = make_user("Ann")
    game = taluva_against(app, session, ann)
    browser = signed_in_as(ann)
    browser.get(f"/games/{game.public_id}")
    send(browser, game, legal(session, game, 0)[0])
    drain(app)
    build = legal(session, game, 0)[0]
    response = send(browser, game, build)
    assert response.status_code == 302
    drain(app)
    assert 'data-status="accepted"' in browser.get(response.location).get_data(as_text=True)


def test_history_steps_through_past_boards(app, session, make_user, signed_in_as):
    ann = make_user("Ann")
    game = taluva_against(app, session, ann)
    browser = signed_in_as(ann)
    browser.get(f"/games/{game.public_id}")
    send(browser, game, legal(session, game, 0)[0])
    drain(app)
    now = plies(session, game)
    past = browser.get(f"/games/{game.public_id}?ply=0").get_data(as_text=True)
    assert f"move 0 of {now}" in past and "Back to now" in past and 'id="moves"' not in past
    one = browser.get(f"/games/{game.public_id}?ply=1").get_data(as_text=True)
    assert "board.png?seat=0&amp;ply=1" in one
    picture = browser.get(f"/games/{game.public_id}/board.png?seat=0&ply=1")
    assert (
        picture.status_code == 200
        and picture.data != browser.get(f"/games/{game.public_id}/board.png?seat=0&ply=0").data
    )
    assert browser.get(f"/games/{game.public_id}?ply={now + 1}").status_code == 404
    assert browser.get(f"/games/{game.public_id}?ply=x").status_code == 404


def test_strangers_get_the_same_404_as_for_no_game(app, session, make_user, signed_in_as):
    ann = make_user("Ann")
    game = taluva_against(app, session, ann)
    eve = signed_in_as(make_user("Eve"))
    eve.get("/")

    def answer(url: str, form: dict | None = None) -> tuple[int, str]:
        response = eve.post(url, form) if form is not None else eve.get(url)
        body = re.sub(r'value="[^"]+"', "", response.get_data(as_text=True))
        return response.status_code, body.replace(game.public_id, "ID").replace("nosuchgame", "ID")

    form = {"moves": "tile 0,0 0,1 1,0", "ply": "0"}
    for suffix, data in (("", None), ("/preview", form), ("/submit", form)):
        theirs = answer(f"/games/{game.public_id}{suffix}", data)
        nothing = answer(f"/games/nosuchgame{suffix}", data)
        assert theirs[0] == 404 and theirs == nothing, suffix
    png = eve.get(f"/games/{game.public_id}/board.png?seat=0")
    assert png.status_code == 404
    assert eve.get(f"/games/{game.public_id}/board.png?seat=7").status_code == 404
    assert submissions(session, game) == 0


def test_spectator_view_is_public_and_steps_through_history(app, session):
    game = start_game(app, session, "java", ["bot", "bot"])
    wait_for(lambda: plies(session, game) >= 3, what="a few bot moves")
    client = app.test_client()
    page = client.get(f"/games/{game.public_id}/watch?ply=2").get_data(as_text=True)
    assert "Watching Java" in page and "move 2 of" in page
    picture = client.get(f"/games/{game.public_id}/board.png?ply=2")
    assert picture.status_code == 200 and picture.mimetype == "image/png"
    assert client.get("/games/nosuchgame/watch").status_code == 404


def test_a_new_mail_address_replaces_the_old_one_at_once(app, session, make_user, signed_in_as):
    ann = make_user("Ann")
    game = taluva_against(app, session, ann)
    seat = game.seats[0]
    old_token = seat.token
    browser = signed_in_as(ann)
    page = browser.get(f"/games/{game.public_id}").get_data(as_text=True)
    assert 'id="new-address-button"' in page
    refused = browser.client.post(f"/games/{game.public_id}/new-address")  # no CSRF token
    assert refused.status_code == 400
    session.expire_all()
    assert session.get(Seat, seat.id).token == old_token
    done = browser.post(f"/games/{game.public_id}/new-address", follow_redirects=True)
    assert done.status_code == 200 and 'id="new-address-done"' in done.get_data(as_text=True)
    session.expire_all()
    new_token = session.get(Seat, seat.id).token
    assert new_token != old_token
    mail = session.scalars(
        select(Outbox).where(Outbox.recipient_id == ann.id, Outbox.kind == "mail_answer")
    ).one()
    assert mail.payload["seat"] == 0
    assert "new secret mail address" in mail.payload["text"]["template"]


def test_only_the_seats_player_may_renew_its_address(app, session, make_user, signed_in_as):
    ann = make_user("Ann")
    game = taluva_against(app, session, ann)
    old_token = game.seats[0].token
    eve = signed_in_as(make_user("Eve"))
    assert eve.post(f"/games/{game.public_id}/new-address").status_code == 404
    session.expire_all()
    assert session.get(Seat, game.seats[0].id).token == old_token


def test_resigning_asks_first_then_a_bot_plays_the_seat(app, session, make_user, signed_in_as):
    ann, bob = make_user("Ann"), make_user("Bob")
    game = start_game(app, session, "taluva", [ann, bob])
    browser = signed_in_as(ann)
    assert 'id="resign-link"' in browser.get(f"/games/{game.public_id}").get_data(as_text=True)
    confirm = browser.get(f"/games/{game.public_id}/resign")
    assert confirm.status_code == 200 and "Yes, resign" in confirm.get_data(as_text=True)
    session.expire_all()
    assert session.get(Seat, game.seats[0].id).resigned_at is None  # asking changes nothing
    done = browser.post(f"/games/{game.public_id}/resign")
    assert done.status_code == 302
    wait_for(lambda: plies(session, game) >= 1, what="the bot to play the resigned seat")
    session.expire_all()
    seat = session.get(Seat, game.seats[0].id)
    assert seat.resigned_at is not None and seat.bot == "random"
    told = select(Outbox).where(Outbox.game_id == game.id, Outbox.kind == "seat_resigned")
    assert [row.recipient_id for row in session.scalars(told)] == [bob.id]
    page = browser.get(f"/games/{game.public_id}").get_data(as_text=True)
    assert 'id="resigned"' in page and 'id="moves"' not in page and "resign-link" not in page
    again = browser.post(f"/games/{game.public_id}/resign")
    assert again.status_code == 409 and "no player to resign" in again.get_data(as_text=True)
    assert signed_in_as(make_user("Eve")).post(f"/games/{game.public_id}/resign").status_code == 404


def test_chat_on_the_game_page(app, session, make_user, signed_in_as):
    ann, bob = make_user("Ann"), make_user("Bob")
    game = start_game(app, session, "taluva", [ann, bob])
    browser = signed_in_as(ann)
    browser.get(f"/games/{game.public_id}")
    sent = browser.post(f"/games/{game.public_id}/chat", {"text": "Hello <Bob>"})
    assert sent.status_code == 302 and sent.location.endswith("chat=1#chat")
    page = browser.get(sent.location).get_data(as_text=True)
    assert "Sent to 1 other player." in page and "Hello &lt;Bob&gt;" in page
    bob.time_zone = "Asia/Tokyo"
    session.commit()
    row = session.scalar(select(ChatMessage).where(ChatMessage.game_id == game.id))
    tokyo = row.created_at.astimezone(ZoneInfo("Asia/Tokyo"))
    bob_page = signed_in_as(bob).get(f"/games/{game.public_id}").get_data(as_text=True)
    assert "Hello &lt;Bob&gt;" in bob_page
    # When it was written, in the reader's own zone.
    assert f"{tokyo:%a} {tokyo.day} {tokyo:%b}, {tokyo:%H:%M} (now)" in bob_page
    too_long = browser.post(f"/games/{game.public_id}/chat", {"text": "y" * 501})
    body = too_long.get_data(as_text=True)
    assert too_long.status_code == 422 and "at most 500 characters, not 501" in body
    assert "y" * 501 in body  # the text is kept in the form
    eve = signed_in_as(make_user("Eve"))
    eve.get("/")
    assert eve.post(f"/games/{game.public_id}/chat", {"text": "hi"}).status_code == 404
    chat = select(Outbox).where(Outbox.game_id == game.id, Outbox.kind == "chat")
    assert [row.recipient_id for row in session.scalars(chat)] == [bob.id]


def test_preview_of_a_draw_from_the_deck_shows_no_card(app, session, make_user, signed_in_as):
    ann = make_user("Ann")
    game = java_ann_first(app, session, ann)
    browser = signed_in_as(ann)
    browser.get(f"/games/{game.public_id}")
    response = browser.post(f"/games/{game.public_id}/preview", {"moves": "draw deck", "ply": "0"})
    page = response.get_data(as_text=True)
    assert response.status_code == 200 and 'id="preview-concealed"' in page
    assert "<dt>hand</dt><dd>D, MP, DP, a card from the deck</dd>" in page
    assert "your hand: D MP DP; cards drawn from the deck, known once the move is sent: 1" in page
    assert "M, D, MP, DP" not in page and "M D MP DP" not in page  # the real top card, M
    # The board picture is the same whatever the deck holds.
    other = engine_game(game)
    other.state.deck.reverse()
    svg, panel = inline_board(game, other.trial(1, ["draw deck"]).view(), "en")
    assert svg in page and panel in page
    assert submissions(session, game) == 0 and plies(session, game) == 0


def test_preview_of_the_faceup_draw_hides_the_next_faceup(app, session, make_user, signed_in_as):
    ann = make_user("Ann")
    game = java_ann_first(app, session, ann)
    browser = signed_in_as(ann)
    browser.get(f"/games/{game.public_id}")
    page = browser.post(
        f"/games/{game.public_id}/preview", {"moves": "draw faceup", "ply": "0"}
    ).get_data(as_text=True)
    assert "<dt>hand</dt><dd>D, P, MP, DP</dd>" in page
    assert "face-up card not known before the move is sent," in page
    assert "face-up card M," not in page


def test_moves_after_a_draw_are_not_judged_by_the_preview(app, session, make_user, signed_in_as):
    ann = make_user("Ann")
    game = java_ann_first(app, session, ann)
    browser = signed_in_as(ann)
    browser.get(f"/games/{game.public_id}")
    moves = "\n".join(FESTIVAL_AFTER_A_DRAW)
    # With the real top card (M) the festival is illegal: refusing it here
    # would tell Ann what she would draw, and let her not draw. (The preview
    # comes first: once the worker has played the turn, ply 0 is out of date.)
    preview = browser.post(f"/games/{game.public_id}/preview", {"moves": moves, "ply": "0"})
    assert 'id="move-error"' not in preview.get_data(as_text=True)
    assert '<ul id="preview-unchecked"><li>festival B3 P</li></ul>' in preview.get_data(
        as_text=True
    )
    sent = browser.post(f"/games/{game.public_id}/submit", {"moves": moves, "ply": "0"})
    assert 'id="move-error"' not in sent.get_data(as_text=True)


def test_preview_of_a_samurai_turn_end_shows_no_tile_of_the_pile(
    app, session, make_user, signed_in_as
):
    ann = make_user("Ann")
    game = start_game(app, session, "samurai", [ann, "bot"])
    played = play_until(app, session, game, 0, lambda s: s.phase == "play" and s.current == 0)
    state = played.state
    tile = state.format_move(state.legal_moves(0)[0])
    browser = signed_in_as(ann)
    browser.get(f"/games/{game.public_id}")
    page = browser.post(
        f"/games/{game.public_id}/preview", {"moves": f"{tile}\nend", "ply": str(len(played.log))}
    ).get_data(as_text=True)
    hand = [code for code in state.hands[0] if code != tile.split()[0]]
    shown = ", ".join([*hand, "a tile from your pile"])
    assert f"<dt>hand</dt><dd>{shown}</dd>" in page
    unknown = ", ".join(["a tile from your pile"] * (len(state.piles[0]) - 1))
    assert f"<dt>pile tiles</dt><dd>{unknown}</dd>" in page
    real = played.copy()
    real.play_all(0, [tile, "end"])
    drawn = real.state.hands[0]
    assert f"<dd>{', '.join(drawn)}</dd>" not in page


def test_preview_of_a_taluva_turn_shows_no_tile_from_the_stack(
    app, session, make_user, signed_in_as
):
    ann = make_user("Ann")
    game = taluva_against(app, session, ann)
    played = engine_game(game)
    tile = played.state.format_move(played.state.legal_moves(0)[0])
    played.play(0, tile)
    build = played.state.format_move(played.state.legal_moves(0)[0])
    played.play(0, build)
    browser = signed_in_as(ann)
    browser.get(f"/games/{game.public_id}")
    page = browser.post(
        f"/games/{game.public_id}/preview", {"moves": f"{tile}\n{build}", "ply": "0"}
    ).get_data(as_text=True)
    assert 'id="preview-concealed"' in page and "your tile:" not in page
    assert played.state.drawn.describe() not in page


def test_the_seed_hash_shows_from_the_start_and_the_seed_after_the_end(
    app, session, make_user, signed_in_as
):
    ann = make_user("Ann")
    game = taluva_against(app, session, ann)
    commitment = hashlib.sha256(b"test-seed").hexdigest()
    for page in (
        signed_in_as(ann).get(f"/games/{game.public_id}").get_data(as_text=True),
        app.test_client().get(f"/games/{game.public_id}/watch").get_data(as_text=True),
    ):
        assert f'id="seed-commitment">{commitment}<' in page
        assert "test-seed" not in page and "Check the draws" not in page
    bots = start_game(app, session, "toy-pick", ["bot", "bot"])

    def finished() -> bool:
        session.expire_all()
        return session.get(Game, bots.id).status == "finished"

    wait_for(finished, what="the bots to finish")
    page = app.test_client().get(f"/games/{bots.public_id}/watch").get_data(as_text=True)
    assert f'id="seed-commitment">{commitment}<' in page
    assert 'id="seed-value">test-seed<' in page and "Check the draws" in page
